"""End to end: computer players, turn timers and AFK handling (R-TIME) through the fake Discord."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from fakediscord.patience import PATIENCE
from playtest.harness import (
    World,
    caught_up,
    click,
    description,
    find_id,
    load,
    make_world,
    play_turn,
    slash,
    table_message,
    wait_for_table,
)
from storage import GameRepository
from tables import Table
from tables.records import ClockPaused, TimedOut


async def actions(world: World, table_id: str) -> list[tuple[int, int | None, str]]:
    repo = await GameRepository.open(str(world.database))
    try:
        return await repo.actions(table_id)
    finally:
        await repo.close()


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    """The usual world, with computer players that think for 50 ms instead of a second."""
    async with make_world(tmp_path, {"COMPUTER_PAUSE_SECONDS": "0.05"}) as made:
        yield made


async def open_with_computers(world: World, computers: int, **options: Any) -> str:
    await slash(world, world.alice, "uno new", **options)
    table_id = find_id(table_message(world), "uno:1:join:").rsplit(":", 1)[1]
    for level in ("normal", "hard", "easy")[:computers]:
        added = await slash(world, world.alice, "uno addbot", level=level)
        assert "sat down" in added.message.content
    return table_id


async def test_r_time_3_one_human_and_three_computer_players_play_a_whole_match(
    world: World,
) -> None:
    table_id = await open_with_computers(world, 3, points=50)
    lobby = description(table_message(world))
    for level in ("normal", "hard", "easy"):
        assert level in lobby
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    # A net against a match that never ends, not a wait: a few hands take a minute here.
    deadline = time.monotonic() + 4 * PATIENCE
    while time.monotonic() < deadline:
        table = await load(world, table_id)
        if table.status == "finished":
            break
        assert table.status == "playing", table.recent
        assert table.match is not None
        if table.match.hand.is_over:  # the pause between hands passes on the fake clock
            await world.fake.pass_time(20)
        elif not await play_turn(world, world.alice, table_id, 0):
            await asyncio.sleep(0.05)
    table = await load(world, table_id)
    assert table.status == "finished"
    assert table.match is not None
    assert table.match.is_over
    assert max(table.match.scores) >= 50
    # The computers played their own turns: every seat played cards.
    assert len(table.match.history) >= 1
    await caught_up(world)
    public = description(table_message(world))
    assert "wins the match" in public
    # Nobody's cards ever reached the public channel (the fake records every message).
    for message in world.fake.channel_messages(world.channel):
        if not message.ephemeral:
            assert "Your hand" not in title_of(message)


def title_of(message: Any) -> str:
    return " ".join(embed.get("title", "") for embed in message.embeds)


async def run_out_of_time(world: World, table_id: str, seat: int) -> Table:
    """Let ``seat``'s turn time pass on the fake clock; the table once the clock played for
    them (or took their seat)."""
    table = await load(world, table_id)
    assert table.deadline is not None
    timeouts = table.timeouts[seat]
    await world.fake.pass_time(table.deadline - world.fake.clock.now() + 1)
    return await wait_for_table(
        world,
        table_id,
        lambda t: t.timeouts[seat] > timeouts or t.players[seat].level is not None,
        f"seat {seat}'s time to run out",
    )


async def test_r_time_1_r_time_3_a_silent_player_is_auto_played_then_replaced(
    world: World,
) -> None:
    # Alice opens with a turn time and then says nothing; Bruno plays his turns. Her time runs
    # out on the fake clock, which moves only on her turns: nobody else ever runs out.
    await slash(world, world.alice, "uno new", turn_seconds=60)
    table_id = find_id(table_message(world), "uno:1:join:").rsplit(":", 1)[1]
    await slash(world, world.bruno, "uno join")
    await slash(world, world.alice, "uno addbot", level="easy")
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    deadline = time.monotonic() + 2 * PATIENCE  # a net, not a wait
    told = False
    table = await load(world, table_id)
    while table.players[0].level is None and table.status == "playing":
        assert time.monotonic() < deadline, table.recent
        assert table.match is not None
        hand = table.match.hand
        if hand.is_over:
            await world.fake.pass_time(20)  # the pause between hands
        elif hand.current == 0:
            table = await run_out_of_time(world, table_id, 0)
            # The table says so, before Bruno moves on.
            told = told or await _table_said(
                world, "alice ran out of time; the bot played for them."
            )
        elif not await play_turn(world, world.bruno, table_id, 1):
            await asyncio.sleep(0.05)
        table = await load(world, table_id)
    assert table.players[0].level is not None, table.recent
    assert table.players[0].user_id == world.alice.id  # her seat, played by the computer
    assert table.timeouts[0] >= 3
    assert table.status == "playing"
    assert told
    log = [text for _, _, text in await actions(world, table_id)]
    assert log.count("timeout:0") == 3
    # (Taking the seat back by acting again is covered in tests/cogs/test_clock.py.)


async def test_r_time_1_a_turn_timer_survives_a_restart(world: World) -> None:
    await slash(world, world.alice, "uno new", turn_seconds=30)
    table_id = find_id(table_message(world), "uno:1:join:").rsplit(":", 1)[1]
    await slash(world, world.bruno, "uno join")
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    before = await load(world, table_id)
    assert before.deadline is not None
    assert before.match is not None
    await world.bot.kill()
    # The turn runs out while the bot is down.
    world.fake.clock.advance(before.deadline - world.fake.clock.now() + 1)
    await world.bot.start()
    seat = before.match.hand.current
    # The person could not act while the bot was down: the restart gives the turn its lost
    # seconds back (a new deadline, nothing played) ...
    resumed = await wait_for_table(
        world, table_id, lambda t: t.version > before.version, "the turn given back"
    )
    paused = [e for e in resumed.recent if isinstance(e, ClockPaused)]
    assert [e.seat for e in paused] == [seat], resumed.recent
    assert resumed.timeouts[seat] == 0
    assert resumed.deadline is not None
    assert resumed.deadline > world.fake.clock.now()
    # ... and the timer the restarted bot armed fires when that deadline passes.
    world.fake.clock.advance(resumed.deadline - world.fake.clock.now() + 1)
    after = await wait_for_table(world, table_id, lambda t: t.timeouts[seat] > 0, "the timeout")
    assert after.timeouts[seat] == 1
    assert after.version > before.version
    assert TimedOut(seat) in after.recent


async def _table_said(world: World, line: str, within: float = PATIENCE) -> bool:
    """Whether any version of the channel's public messages showed ``line`` (waits up to
    ``within`` seconds for it)."""
    deadline = time.monotonic() + within
    while True:
        for message in world.fake.channel_messages(world.channel):
            if message.ephemeral:
                continue
            versions = [*message.history, message.snapshot()]
            if any(line in v.all_text() for v in versions):
                return True
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.1)


async def test_r_time_3_alone_with_computers_the_table_waits_and_opening_the_hand_reclaims(
    world: World,
) -> None:
    """Three timeouts used to close a person's table at once ("no human players are left").
    Now a computer holds the seat, the table stays open, and opening the hand takes it back."""
    table_id = await open_with_computers(world, 2, turn_seconds=1)
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    table = await wait_for_table(world, table_id, lambda t: t.players[0].is_held, "a held seat")
    assert table.status == "playing"
    # The computers keep playing meanwhile, so the line may already have scrolled out of the
    # table's last events: look at every version the table message showed.
    assert await _table_said(world, "holds the seat until they come back")
    assert not await _table_said(world, "no players are left", within=0.5)
    shown = await slash(world, world.alice, "uno hand")
    assert shown.ephemeral
    back = await load(world, table_id)
    assert not back.players[0].is_automatic
    assert back.status == "playing"
    assert await _table_said(world, "alice is back and plays their own seat again.")
