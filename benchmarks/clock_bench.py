"""Computer players as the bot drives them: through the table clock, not the arena.

Runs real tables through the bot's own clock (timers, locked compare-and-swap saves on a
SQLite file) with the computers' thinking pause shortened, and reports per hand how often
computer seats call UNO and are caught, who wins, and whether every hand ends.

Two scenarios:

- ``person``: one seat is a person (driven here by the ``normal`` policy, who answers each
  change after a pause drawn like the computers' and catches whenever it can) and the other
  seats are ``normal`` computers. A fair clock lets a computer call UNO before anyone can
  catch it, so the person catches computers rarely and wins about 1 hand in N.
- ``held``: every seat was a person whom a computer replaced after timeouts (R-TIME-3). The
  table must still finish its hands.

    python benchmarks/clock_bench.py [--hands 200] [--seats 4] [--pause 0.01] [--seed 1]
        [--level normal|hard|easy] [--scenario person|held|both]

With ``--level`` the computer seats play that level. The bench also times every turn
decision the clock asks for (``players.decide`` for the seat whose turn it is, in the
clock's worker thread: wall time and the thread's CPU time), and watches the event loop: a
probe task sleeps 5 ms at a time and records how late it wakes. A decision made on the loop
would make the probe late by the decision's time; run off the loop, the probe's lateness
stays at the scheduling noise of the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import players
from engine.events import HandEnded, UnoCalled, UnoCaught
from storage import GameRepository
from tables.clock import Clock
from tables.service import StaleClickError, TableService
from tables.table import Change, Player, Table, TableError

PERSON = 100
MAX_ACTIONS_PER_HAND = 2_000


@dataclasses.dataclass
class Timing:
    wall: list[float] = dataclasses.field(default_factory=list)
    cpu: list[float] = dataclasses.field(default_factory=list)
    lag: list[float] = dataclasses.field(default_factory=list)


TIMING = Timing()
MAIN = threading.main_thread()


def _timed_decide() -> None:
    """Time the turn decisions the clock asks for (in its worker thread)."""
    original = players.decide

    def decide(level: str, view: Any, rng: random.Random, history: Any = ()) -> Any:
        # Only the clock's decisions (in its worker thread), not the person driven here.
        turn = view.seat == view.table.current and threading.current_thread() is not MAIN
        wall = time.perf_counter()
        cpu = time.thread_time()
        action = original(level, view, rng, history)
        if turn:
            TIMING.wall.append(time.perf_counter() - wall)
            TIMING.cpu.append(time.thread_time() - cpu)
        return action

    players.decide = decide


async def _probe(stop: asyncio.Event) -> None:
    """Record how late the event loop wakes a 5 ms sleep."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        await asyncio.sleep(0.005)
        TIMING.lag.append(loop.time() - start - 0.005)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


@dataclasses.dataclass
class Tally:
    hands: int = 0
    unfinished: int = 0
    person_wins: int = 0
    computer_calls: int = 0
    computer_caught: int = 0
    person_caught: int = 0
    actions: int = 0
    by_winner: Counter[int] = dataclasses.field(default_factory=Counter)


def count(tally: Tally, table: Table, events: Any, person_seat: int | None) -> None:
    for event in events:
        if isinstance(event, UnoCalled) and not event.false_call:
            if table.players[event.seat].is_automatic:
                tally.computer_calls += 1
        elif isinstance(event, UnoCaught) and not event.false_catch:
            if event.target == person_seat:
                tally.person_caught += 1
            else:
                tally.computer_caught += 1
        elif isinstance(event, HandEnded) and event.ranking:
            tally.hands += 1
            tally.by_winner[event.ranking[0]] += 1
            if event.ranking[0] == person_seat:
                tally.person_wins += 1


async def run(
    scenario: str, hands: int, seats: int, pause: float, seed: int, level: str = "normal"
) -> Tally:
    tally = Tally()
    stop_probe = asyncio.Event()
    probe = asyncio.create_task(_probe(stop_probe))
    with tempfile.TemporaryDirectory() as folder:
        repo = await GameRepository.open(str(Path(folder) / "bench.sqlite3"))
        rng = random.Random(seed)
        service = TableService(repo, randbits=rng.getrandbits)
        changed = asyncio.Event()
        hand_done = asyncio.Event()
        actions_this_hand = 0
        person_seat: int | None = 0 if scenario == "person" else None

        async def on_change(table: Table) -> None:
            changed.set()  # the clock hears every saved version from the service itself

        # No grace on a held seat's turn: nobody is there to come back in this run.
        clock = Clock(service, pause=pause, held_grace=0.0)
        service.listen(lambda table: changed.set())  # the person looks at every saved version
        original_update = service.update

        async def counting_update(table_id: str, operation: Callable[..., Any], **kw: Any) -> Any:
            nonlocal actions_this_hand
            change = await original_update(table_id, operation, **kw)
            actions_this_hand += len(change.log)
            count(tally, change.table, change.events, person_seat)
            if any(isinstance(e, HandEnded) for e in change.events):
                hand_done.set()
            return change

        service.update = counting_update  # type: ignore[method-assign]

        table = await service.open(
            guild_id=1,
            channel_id=2,
            host=Player(PERSON, "person"),
            preset="classic",
            options={"target": 100_000},
        )
        for _ in range(seats - 1):
            change = await service.update(
                table.id,
                lambda tb, now: tb.add_computer(level, by=PERSON, is_admin=False, now=now),
            )
        change = await service.update(
            table.id, lambda tb, now: tb.start(by=PERSON, is_admin=False, now=now)
        )
        table = change.table
        if scenario == "held":
            # Every seat timed out and a computer holds it for its person (R-TIME-3).
            def hold_all(tb: Table, now: float) -> Any:
                held = tuple(dataclasses.replace(p, level=level) for p in tb.players)
                return Change(dataclasses.replace(tb, players=held, version=tb.version + 1))

            table = (await original_update(table.id, hold_all)).table
        clock.watch(table)

        person_rng = random.Random(seed + 1)

        async def person() -> None:
            while True:
                await changed.wait()
                changed.clear()
                current = await service.get(table.id)
                if current is None or current.match is None or not current.is_live:
                    continue
                state = current.match.hand
                if state.is_over or not state.legal_actions(0):
                    continue
                action = players.decide("normal", state.view_for(0), person_rng)
                if action is None:
                    continue
                await asyncio.sleep(pause * (0.5 + person_rng.random()))
                try:
                    done = await service.update(
                        current.id,
                        lambda tb, now, a=action: tb.act(PERSON, a, now=now),
                        version=current.version,
                    )
                except (StaleClickError, TableError):
                    changed.set()
                    continue
                await on_change(done.table)

        driver = asyncio.create_task(person()) if scenario == "person" else None
        started = time.perf_counter()
        for _ in range(hands):
            hand_done.clear()
            actions_this_hand = 0
            limit = time.perf_counter() + 60.0
            while not hand_done.is_set():
                if actions_this_hand > MAX_ACTIONS_PER_HAND or time.perf_counter() > limit:
                    break
                await asyncio.sleep(pause)
                current = await service.get(table.id)
                if current is None or not current.is_live:
                    break
            tally.actions += actions_this_hand
            current = await service.get(table.id)
            if not hand_done.is_set() or current is None or not current.is_live:
                tally.unfinished += 1
                break
            # Deal the next hand at once (the host's "Next hand").
            try:
                dealt = await service.update(
                    table.id, lambda tb, now: tb.deal_next(by=PERSON, is_admin=True, now=now)
                )
            except TableError:
                await asyncio.sleep(pause)
                dealt = await service.update(
                    table.id, lambda tb, now: tb.deal_next(by=PERSON, is_admin=True, now=now)
                )
            await on_change(dealt.table)
        elapsed = time.perf_counter() - started
        clock.stop()
        if driver is not None:
            driver.cancel()
        await repo.close()
        stop_probe.set()
        await probe
        print(f"  ({elapsed:.1f} s wall)")
    return tally


def report(scenario: str, seats: int, tally: Tally) -> None:
    hands = max(tally.hands, 1)
    print(f"{scenario}, {seats} seats: {tally.hands} hands, {tally.unfinished} unfinished")
    print(f"  computer seats caught per hand: {tally.computer_caught / hands:.2f}")
    print(f"  computer UNO calls per hand:    {tally.computer_calls / hands:.2f}")
    if scenario == "person":
        print(f"  person caught per hand:         {tally.person_caught / hands:.2f}")
        print(f"  person wins: {tally.person_wins / hands:.1%} of hands (even: {1 / seats:.1%})")
    print(f"  actions per hand: {tally.actions / hands:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--pause", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenario", choices=("person", "held", "both"), default="both")
    parser.add_argument("--level", choices=players.LEVELS, default="normal")
    args = parser.parse_args()
    _timed_decide()
    scenarios = ("person", "held") if args.scenario == "both" else (args.scenario,)
    for scenario in scenarios:
        hands = args.hands if scenario == "person" else min(args.hands, 30)
        TIMING.wall.clear()
        TIMING.cpu.clear()
        TIMING.lag.clear()
        tally = asyncio.run(run(scenario, hands, args.seats, args.pause, args.seed, args.level))
        report(scenario, args.seats, tally)
        ms = 1e3
        print(
            f"  {args.level} turn decisions in the clock's thread: {len(TIMING.wall)};"
            f" wall p50 {_percentile(TIMING.wall, 0.5) * ms:.1f} ms"
            f" p99 {_percentile(TIMING.wall, 0.99) * ms:.1f} ms"
            f" max {max(TIMING.wall, default=0.0) * ms:.1f} ms;"
            f" CPU p50 {_percentile(TIMING.cpu, 0.5) * ms:.1f} ms"
            f" p99 {_percentile(TIMING.cpu, 0.99) * ms:.1f} ms"
        )
        print(
            f"  event loop: a 5 ms sleep woke late by p50 {_percentile(TIMING.lag, 0.5) * ms:.1f}"
            f" ms, p99 {_percentile(TIMING.lag, 0.99) * ms:.1f} ms,"
            f" max {max(TIMING.lag, default=0.0) * ms:.1f} ms ({len(TIMING.lag)} probes)"
        )


if __name__ == "__main__":
    main()
