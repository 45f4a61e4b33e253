"""A restart gives the person whose turn it was the time the bot was down (R-TIME-1).

The bot writes an "alive" stamp while its players can act (``cogs/uno/_gateway.py``); the
next start counts the time from that stamp to READY as an outage, and the clock gives it back
to the turn's person. Here the bot is killed (``kill -9``) between two stamps, the turn's
deadline passes while it is down, a start that never gets READY (the gateway says nothing)
is killed too, and the next start gives the person back all of that: nobody is played for.
Every duration is read from the fake clock, which the test moves.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from playtest.harness import World, find_id, load, make_world, slash, table_message, wait_for_table
from tables.records import ClockPaused, TimedOut

TURN = 60
#: Fake seconds that pass while the bot is down, then while a start never gets READY.
DOWN, NOT_READY = 90.0, 30.0
ALIVE_KEY = "alive:every shard"


def alive_stamp(world: World) -> float | None:
    """The stamp as stored now (the bot may be dead: read the file itself)."""
    with sqlite3.connect(f"{Path(world.database).as_uri()}?mode=ro", uri=True) as db:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (ALIVE_KEY,)).fetchone()
    return None if row is None else float(row[0])


async def timed_table(world: World) -> str:
    await slash(world, world.alice, "uno new", turn_seconds=TURN)
    table_id = find_id(table_message(world), "uno:1:join:").rsplit(":", 1)[1]
    await slash(world, world.bruno, "uno join")
    await slash(world, world.alice, "uno start")
    return table_id


async def test_r_time_1_a_kill_between_stamps_gives_the_waiting_person_their_time_back(
    tmp_path: Path,
) -> None:
    async with make_world(tmp_path) as world:
        fake = world.fake
        table_id = await timed_table(world)
        before = await load(world, table_id)
        waiting = before.turn_owner()
        assert waiting is not None
        assert before.deadline is not None
        began = before.deadline - TURN
        # A stamp from this turn, then the crash before the next one.
        await fake.wait_for(
            lambda: (alive_stamp(world) or 0.0) >= began, within=30, what="an alive stamp"
        )
        await world.bot.kill()
        killed = fake.clock.now()
        last = alive_stamp(world)
        assert last is not None
        assert began <= last <= killed  # a stamp of this turn; the next one never came
        fake.clock.advance(DOWN)  # the turn's deadline passes while the bot is down
        assert fake.clock.now() > before.deadline

        # A start that never gets READY (Discord's gateway says nothing), killed as well:
        # its players could never act, so it must not move the stamp.
        silence = await fake.silence_gateway(NOT_READY)
        starts = len(world.bot.output)
        await world.bot.start(ready=False)
        await fake.wait_for(  # its setup ran: the cogs are loaded, the commands checked
            lambda: any("Slash commands" in line for line in world.bot.output[starts:]),
            within=30,
            what="the start's setup",
        )
        assert not fake.connected
        fake.clock.advance(NOT_READY)
        await world.bot.kill()
        await silence.wait_over()
        assert alive_stamp(world) == last

        await world.bot.start()
        resumed = await wait_for_table(
            world,
            table_id,
            lambda t: t.timeouts[waiting] > 0 or any(isinstance(e, ClockPaused) for e in t.recent),
            "the turn given back (or played)",
        )
        assert TimedOut(waiting) not in resumed.recent, resumed.recent
        (paused,) = [e for e in resumed.recent if isinstance(e, ClockPaused)]
        assert paused.seat == waiting
        # All the time since the crash came back, never more than since the last stamp (the
        # record keeps whole seconds, rounded).
        assert DOWN + NOT_READY <= paused.seconds <= round(fake.clock.now() - last)
        assert resumed.deadline is not None
        assert resumed.deadline > fake.clock.now()
        assert resumed.version == before.version + 1  # nothing was played for anyone
        await world.bot.wait_for_output("Turn clocks go on after")
