"""What players see when Discord fails: the figures of issue 19, for any copy of the bot.

Runs the real bot (the code in ``--checkout``, default this one) against the fake Discord of
this copy, through the failures issue 19 lists, and prints what players would have seen:

- ``soak``: about 15 % of table edits, hand edits, posts and callbacks fail (5xx, some carried
  out before the error, 12-second hangs, 429s) while two hands are played by slash command
  (3 people; seeded): the table message's longest lag behind the stored state, how often the
  table named someone whose turn it was not, interactions left unanswered, the slowest first
  try at answering a command, tracebacks;
- ``database``: PostgreSQL (a private cluster) stops for 8 s on a computer's turn: seconds
  from its return until the computer moved ("stuck" after 60 s);
- ``outage`` / ``silence``: Discord unreachable, or the gateway silent, for 60 s during a
  person's 20-second (silence: 10-second) turn: moves the clock made for people meanwhile;
- tracebacks in the bot's log for each run.

To measure the bot before a change, check the old code out beside this one and give it this
copy's fake Discord (the old one may lack the clock and the faults)::

    git worktree add /tmp/before bb77f90
    cp -r fakediscord playtest /tmp/before/
    python benchmarks/faults_bench.py --checkout /tmp/before
    python benchmarks/faults_bench.py

Figures depend on timing only through the hangs and the machine's speed; the faults are
seeded. The database scenario needs PostgreSQL's ``initdb`` (run as ``postgres`` when root).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playtest.faults import fail_fifteen_percent
from playtest.harness import (
    World,
    find_id,
    load,
    make_world,
    open_table,
    slash,
    stack,
    table_message,
)
from playtest.pgserver import private_postgres
from playtest.soak import soak as play_through
from tables.records import TimedOut


def tracebacks(world: World) -> int:
    return sum(1 for line in world.bot.output if line.startswith("Traceback"))


def slowest_first_answer(world: World) -> float:
    """The longest a command waited from its dispatch for the bot's first try at answering
    (Discord takes none after 3 s), on the fake clock."""
    waits = [
        result.callbacks[0]["after"]
        for result in world.fake.interactions.values()
        if result.type == 2 and result.callbacks
    ]
    return round(max(waits, default=0.0), 2)


async def soak(checkout: Path | None, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        async with make_world(Path(folder), checkout=checkout, check=False) as world:
            table_id = await open_table(world, points=500)
            fail_fifteen_percent(world.fake, seed=seed)
            seen = await play_through(world, table_id, hands=2, net=420)
            return {
                "hands": seen.hands_ended,
                "longest lag (s)": round(seen.meter.longest, 1),
                "table named the wrong player": seen.lies,
                "table message 30 s behind": seen.stalls,
                "interactions": seen.tally.sent,
                "unanswered": len(seen.tally.unanswered),
                "slowest first answer (s)": slowest_first_answer(world),
                "tracebacks": tracebacks(world),
            }


async def database(checkout: Path | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder, private_postgres() as pg:
        env = {"COMPUTER_PAUSE_SECONDS": "2"}
        async with make_world(
            Path(folder), env, database=pg.url, checkout=checkout, check=False
        ) as world:
            await slash(world, world.alice, "uno new")
            table_id = find_id(table_message(world), "uno:1:join:").rsplit(":", 1)[1]
            await slash(world, world.alice, "uno addbot", level="easy")
            await slash(world, world.alice, "uno start")
            await stack(world, table_id, [["R1", "R2", "B9"], ["R3", "Y4"]], "R5", dealer=1)
            await slash(world, world.alice, "uno play", card="R1")
            played = await load(world, table_id)
            pg.stop()
            await asyncio.sleep(8)
            pg.start()
            back = time.monotonic()
            moved: float | None = None
            while time.monotonic() - back < 60:
                if (await load(world, table_id)).version != played.version:
                    moved = time.monotonic() - back
                    break
                await asyncio.sleep(0.2)
            return {
                "computer moved after (s)": "stuck" if moved is None else round(moved, 1),
                "tracebacks": tracebacks(world),
            }


async def _timed(world: World, seconds: int) -> str:
    await slash(world, world.alice, "uno new", turn_seconds=seconds)
    table_id = find_id(table_message(world), "uno:1:join:").rsplit(":", 1)[1]
    await slash(world, world.bruno, "uno join")
    await slash(world, world.carla, "uno join")
    await slash(world, world.alice, "uno start")
    hands = [["R1", "R2", "B9", "G4"], ["R3", "Y4", "G5"], ["R6", "Y7", "G8"]]
    await stack(world, table_id, hands, "R5", dealer=2)
    return table_id


async def outage(checkout: Path | None, kind: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        async with make_world(Path(folder), checkout=checkout, check=False) as world:
            seconds = 20 if kind == "outage" else 10
            table_id = await _timed(world, seconds)
            if kind == "outage":
                trouble = await world.fake.outage(60)
                # The minute passes after the bot noticed the dropped connection (a bot that
                # says nothing about it gets five seconds).
                with contextlib.suppress(TimeoutError):
                    await world.bot.wait_for_output("disconnected", within=5)
                world.fake.clock.advance(60)
            else:
                trouble = await world.fake.silence_gateway(60)
                await asyncio.sleep(seconds + 6)  # the turn runs out in the silence
                world.fake.clock.advance(60)
            await trouble.wait_over()
            await world.fake.wait_for(lambda: world.fake.connected, within=90, quiet=True)
            await asyncio.sleep(3)
            table = await load(world, table_id)
            played = sum(1 for e in table.recent if isinstance(e, TimedOut))
            return {"moves played for people": played, "tracebacks": tracebacks(world)}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkout", type=Path, help="the copy of the bot to run")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument(
        "--scenarios", default="soak,database,outage,silence", help="comma-separated"
    )
    args = parser.parse_args()
    chosen = args.scenarios.split(",")
    print(f"bot: {args.checkout or 'this checkout'}")
    for name in chosen:
        started = time.monotonic()
        if name == "soak":
            figures = await soak(args.checkout, args.seed)
        elif name == "database":
            figures = await database(args.checkout)
        else:
            figures = await outage(args.checkout, name)
        took = time.monotonic() - started
        shown = "; ".join(f"{key}: {value}" for key, value in figures.items())
        print(f"{name:9} {shown}  ({took:.0f} s)", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
