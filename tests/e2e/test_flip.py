"""End to end: a whole UNO Flip hand through the fake Discord (issue #6)."""

from __future__ import annotations

import asyncio
import time

from fakediscord.patience import PATIENCE
from playtest.harness import (
    World,
    caught_up,
    description,
    is_hand,
    load,
    open_table,
    play_turn,
    slash,
    stack,
    table_message,
)


async def test_r_flip_4_a_flip_hand_played_by_slash_commands(world: World) -> None:
    table_id = await open_table(world, preset="flip")
    table = await load(world, table_id)
    assert table.rules.flip
    await stack(
        world,
        table_id,
        hands=[["RF", "R3", "G5", "B7"], ["R7", "Y2", "B4", "G8"], ["R9", "G1", "Y8", "B2"]],
        start="R1",
        draw=["B1", "G2", "Y3", "Y4", "G6", "B8", "R5", "Y9"],
        dealer=2,
    )
    alice, bruno, carla = world.players
    played = await slash(world, alice, "uno play", card="Red Flip")
    assert played.ephemeral
    assert is_hand(played.message)
    await caught_up(world)
    assert "Everything flips: the dark side is in play." in description(table_message(world))
    table = await load(world, table_id)
    assert table.match is not None
    assert table.match.hand.side == 1
    # Bruno's hand now shows its dark side: pink, teal, orange or purple cards and wilds.
    shown = await slash(world, bruno, "uno hand")
    text = description(shown.message)
    assert any(c in text for c in ("Pink", "Teal", "Orange", "Purple", "Wild"))
    assert not any(f"{c} " in text for c in ("Red", "Yellow", "Green", "Blue"))
    # The hand is played to its end by commands.
    seats = {0: alice, 1: bruno, 2: carla}
    deadline = time.monotonic() + 4 * PATIENCE  # a net, not a wait
    while time.monotonic() < deadline:
        table = await load(world, table_id)
        assert table.match is not None
        if table.match.history:
            break
        current = table.match.hand.current
        if not await play_turn(world, seats[current], table_id, current, smart=True):
            await asyncio.sleep(0.05)
    table = await load(world, table_id)
    assert table.match is not None
    assert len(table.match.history) == 1
    assert any(table.match.scores)  # R-FLIP-7/8: penalty points to the others
