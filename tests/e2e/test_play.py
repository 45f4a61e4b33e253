"""End to end: the real bot against the fake Discord, driven as users drive it."""

from __future__ import annotations

from engine.events import PlayerWentOut
from playtest.harness import (
    World,
    click,
    custom_ids,
    description,
    find_id,
    is_hand,
    load,
    open_table,
    select_values,
    slash,
    stack,
    table_message,
    title,
)


async def test_r_uno_1_r_uno_2_a_hand_by_slash_commands_with_uno_call_and_catch(
    world: World,
) -> None:
    table_id = await open_table(world, points=500)
    await stack(
        world,
        table_id,
        hands=[["R1", "R2", "G5"], ["R3", "B3", "B5"], ["Y1", "R9", "G9"]],
        start="R0",
        draw=["G2", "Y4", "Y6"],
        dealer=2,
    )
    alice, bruno, carla = world.players
    played = await slash(world, alice, "uno play", card="R1")
    assert played.ephemeral
    assert is_hand(played.message)
    await slash(world, bruno, "uno play", card="Red 3")
    await slash(world, carla, "uno play", card="r9")
    called = await slash(world, alice, "uno play", card="R2", uno=True)
    assert "Green 5" in description(called.message)
    # Bruno cannot match Red 2: he draws Green 2, which he may play at once (R-TURN-5).
    drawn = await slash(world, bruno, "uno draw")
    assert "Green 2" in description(drawn.message)
    # The drawn card, one click away (and nothing else to play: R-TURN-5).
    plays = [i for i in custom_ids(drawn.message) if ":play:" in i or ":colour:" in i]
    assert [p.rsplit(":", 1)[1] for p in plays] == ["G2"]
    await click(world, bruno, drawn.message, plays[0])
    # Carla plays her second-to-last card and forgets UNO; Bruno catches her (R-UNO-2).
    await slash(world, carla, "uno play", card="G9")
    caught = await slash(world, bruno, "uno catch", player=carla)
    assert caught.ephemeral
    # The catcher reads what the catch did, not only the table (issue 25).
    assert "bruno caught carla without UNO!" in caught.all_text()
    table = await load(world, table_id)
    assert table.match is not None
    assert len(table.match.hand.hands[2]) == 3  # Y1 and the two penalty cards
    # Alice goes out with Green 5: the hand is scored and the next one dealt.
    await slash(world, alice, "uno play", card="G5")
    table = await load(world, table_id)
    assert table.match is not None
    assert table.match.history[0].winner == 0
    # The hand's end is told in the public moves (the table message shows the last five of
    # them; a start card's effects in the new hand may push it off the message).
    assert any(isinstance(r, PlayerWentOut) and r.seat == 0 for r in table.recent)
    public = description(table_message(world))
    assert "**Scores**" in public  # the running totals
    assert "alice: " in public


async def test_r_chal_3_r_chal_4_wild_draw_four_challenged_both_ways_by_buttons(
    world: World,
) -> None:
    table_id = await open_table(world)
    alice, bruno, carla = world.players
    # Guilty: Alice holds a red card when she plays the Wild Draw Four on red.
    await stack(
        world,
        table_id,
        [["W4", "R5", "G1"], ["B1", "B2", "B3"], ["Y1", "Y2"]],
        "R7",
        dealer=2,
    )
    shown = await click(world, alice, table_message(world), f"uno:1:hand:{table_id}")
    assert shown.ephemeral
    hand = shown.message
    # A wild and its colour in one click.
    await click(world, alice, hand, find_id(hand, "uno:1:colour:").rsplit(":", 1)[0] + ":W4=B")
    hit = await slash(world, bruno, "uno hand")
    assert "challenge" in description(hit.message).lower()
    challenged = await click(world, bruno, hit.message, find_id(hit.message, "uno:1:challenge:"))
    text = description(challenged.message)
    assert "bruno challenged alice: guilty!" in text  # the challenger reads the verdict
    assert "alice's hand was:" in text
    assert "Red 5" in text
    table = await load(world, table_id)
    assert table.match is not None
    state = table.match.hand
    assert len(state.hands[0]) == 2 + 4  # R5, G1 and the four cards drawn
    assert state.current == 1  # Bruno plays normally after a guilty verdict
    # Nobody but Bruno saw the revealed hand.
    for user in (alice, carla, world.dario):
        assert "alice's hand was" not in world.fake.seen_text(user)
    # Innocent: no card of the colour before the Wild Draw Four.
    await stack(
        world,
        table_id,
        [["W4", "G1", "B9"], ["B1", "B2", "B3"], ["Y1", "Y2"]],
        "R7",
        dealer=2,
    )
    await slash(world, alice, "uno play", card="W4", colour="B")
    hit = await slash(world, bruno, "uno hand")
    cleared = await click(world, bruno, hit.message, find_id(hit.message, "uno:1:challenge:"))
    assert "Your hand — 9 cards" in title(cleared.message)
    assert "bruno challenged alice: innocent." in description(cleared.message)
    table = await load(world, table_id)
    assert table.match is not None
    assert table.match.hand.current == 2  # Bruno lost his turn (R-CHAL-4)


async def test_a_sixty_card_hand_is_shown_whole_with_its_playable_cards(world: World) -> None:
    from engine import classic_deck

    table_id = await open_table(world)
    faces = [f.notation for f in classic_deck().sides[0] if f.colour is not None][:60]
    await stack(world, table_id, [faces, ["B1", "B2"], ["B3", "B4"]], "B7", dealer=2)
    shown = await slash(world, world.alice, "uno hand")
    message = shown.message
    assert "Your hand — 60 cards" in title(message)
    lines = [line for line in description(message).splitlines() if line.startswith(("▶", "·"))]
    assert len(lines) == 60
    # Each playable card one click away (a button, or the menu beyond twenty of them).
    offered = [i.rsplit(":", 1)[1] for i in custom_ids(message) if ":play:" in i]
    offered += select_values(message)
    assert 0 < len(offered) <= 25
    assert set(offered) == {f for f in faces if f[1:] == "7" or f[0] == "B"}
    png = shown.attachments[0].data
    assert png.startswith(b"\x89PNG")
