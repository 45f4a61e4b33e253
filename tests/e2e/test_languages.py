"""End to end: an Italian and an English player at the same table, each in their language."""

from __future__ import annotations

from playtest.harness import World, click, description, find_id, slash, stack, table_message, title


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
    # What he types is completed in Italian too: the command tree's gate chose his language
    # before any handler ran, autocompletes included.
    cards = await world.fake.autocomplete(
        bruno, world.channel, "uno gioca", focused="carta", carta=""
    )
    assert cards.names == ["Rosso 3"]
    colours = await world.fake.autocomplete(
        bruno, world.channel, "uno gioca", focused="colore", carta="R3", colore=""
    )
    assert colours.names == ["Rosso", "Giallo", "Verde", "Blu"]
    played = await slash(world, bruno, "uno gioca", carta="Rosso 3")
    assert title(played.message) == "La tua mano — 2 carte"
    # The public table message speaks the server's language (English here) to everyone.
    public = description(table_message(world))
    assert "bruno played Red 3." in public
    assert "Rosso" not in public


#: Five players, each reading Discord in another language: the /uno command names Discord
#: shows them, and what their hand and /uno rules read.
FIVE = [
    # name, Discord locale, (hand, rules), hand title, a card of theirs, the rules' first line
    ("alice", "en-US", ("hand", "rules"), "Your hand — 3 cards", "Blue Skip", "Match the top"),
    ("bruno", "de", ("hand", "regeln"), "Deine Hand — 3 Karten", "Grün Retour", "Bediene die"),
    ("carla", "es-ES", ("mano", "reglas"), "Tu mano — 3 cartas", "Roba Dos amarillo", "Cubre la"),
    ("eva", "fr", ("main", "règles"), "Ta main — 3 cartes", "Inversion verte", "Recouvre la"),
    ("fabio", "pt-BR", ("mão", "regras"), "Sua mão — 3 cartas", "Comprar Duas azul", "Cubra a"),
]
RULES_TITLES = {
    "alice": "Rules of the classic preset",
    "bruno": "Regeln des Modus klassisch",
    "carla": "Reglas de la modalidad clásica",
    "eva": "Règles du mode classique",
    "fabio": "Regras do modo clássico",
}


async def test_five_players_each_read_their_own_language_and_the_table_the_servers(
    world: World,
) -> None:
    # The server's Discord speaks Latin American Spanish: the table reads Spain's catalogue.
    world.guild.preferred_locale = "es-419"
    world.bruno.locale, world.carla.locale = "de", "es-ES"
    eva = world.fake.add_user("eva", locale="fr")
    fabio = world.fake.add_user("fabio", locale="pt-BR")
    for user in (eva, fabio):
        world.guild.add_member(user)
    people = {"alice": world.alice, "bruno": world.bruno, "carla": world.carla}
    people |= {"eva": eva, "fabio": fabio}
    await slash(world, world.alice, "uno new")
    table_id = find_id(table_message(world), "uno:1:join:").rsplit(":", 1)[1]
    # Each joins by the command Discord shows them, and is answered in their language.
    joined = {
        "bruno": await slash(world, world.bruno, "uno beitreten"),
        "carla": await slash(world, world.carla, "uno unirse"),
        "eva": await slash(world, eva, "uno rejoindre"),
        "fabio": await slash(world, fabio, "uno entrar"),
    }
    assert [result.message.content for result in joined.values()] == [
        "Du sitzt jetzt auf Platz 2.",
        "Te has sentado en el puesto 3.",
        "Tu es à la place 4.",
        "Você se sentou no lugar 5.",
    ]
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    await stack(
        world,
        table_id,
        hands=[
            ["R1", "BS", "W4"],
            ["R3", "GR", "Y5"],
            ["R4", "YD2", "B6"],
            ["R6", "GR", "B7"],
            ["R8", "BD2", "G9"],
        ],
        start="R0",
        draw=["G2", "Y4", "Y6"],
        dealer=4,
    )
    for name, _, (hand, rules), hand_title, card, first_rule in FIVE:
        shown = await slash(world, people[name], f"uno {hand}")
        assert title(shown.message) == hand_title
        assert card in description(shown.message)
        explained = await slash(world, people[name], f"uno {rules}")
        assert title(explained.message) == RULES_TITLES[name]
        assert first_rule in description(explained.message)
    # A refusal in German: it is Alice's turn, and Bruno plays by his card's German name.
    refused = await slash(world, world.bruno, "uno spielen", karte="Rot 3")
    assert refused.message.content == "Du bist nicht am Zug."
    await slash(world, world.alice, "uno play", card="Red 1")
    played = await slash(world, world.bruno, "uno spielen", karte="Rot 3")
    assert title(played.message) == "Deine Hand — 2 Karten"
    # The public table message speaks the server's language to everyone.
    public = description(table_message(world))
    assert "alice jugó un 1 rojo." in public
    assert "bruno jugó un 3 rojo." in public
    assert "Mazo:" in public
    for foreign in ("Red", "Rot", "rouge", "vermelho", "Draw pile", "Nachziehstapel"):
        assert foreign not in public
