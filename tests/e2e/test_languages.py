"""End to end: an Italian and an English player at the same table, each in their language."""

from __future__ import annotations

from .harness import World, click, description, find_id, slash, stack, table_message, title


async def test_an_italian_user_sees_italian_while_an_english_user_sees_english(
    world: World,
) -> None:
    world.bruno.locale = "it"
    alice, bruno = world.alice, world.bruno
    await slash(world, alice, "uno new")
    table_id = find_id(table_message(world), "uno:1:join:").rsplit(":", 1)[1]
    # Bruno types the Italian command names Discord shows him.
    joined = await slash(world, bruno, "uno entra")
    assert joined.message.content == "Ti sei seduto al posto 2."
    await click(world, alice, table_message(world), f"uno:1:start:{table_id}")
    await stack(
        world,
        table_id,
        hands=[["R1", "BS", "W4"], ["R3", "GR", "YD2"]],
        start="R0",
        draw=["G2", "Y4", "Y6"],
        dealer=1,
    )
    english = await slash(world, alice, "uno hand")
    assert title(english.message) == "Your hand — 3 cards"
    assert "Blue Skip" in description(english.message)
    assert "Wild Draw Four" in description(english.message)
    italian = await slash(world, bruno, "uno mano")
    assert title(italian.message) == "La tua mano — 3 carte"
    text = description(italian.message)
    assert "Verde Inverti" in text
    assert "Giallo Pesca Due" in text
    assert "Rosso 3" in text
    assert "In attesa del tuo turno" in text
    # A refusal in Italian: it is Alice's turn, not Bruno's.
    refused = await slash(world, bruno, "uno gioca", carta="Rosso 3")
    assert refused.message.content == "Non tocca a te."
    # Alice plays by her English card name; Bruno answers by his Italian one.
    await slash(world, alice, "uno play", card="Red 1")
    played = await slash(world, bruno, "uno gioca", carta="Rosso 3")
    assert title(played.message) == "La tua mano — 2 carte"
    # The public table message speaks the server's language (English here) to everyone.
    public = description(table_message(world))
    assert "bruno played Red 3." in public
    assert "Rosso" not in public
