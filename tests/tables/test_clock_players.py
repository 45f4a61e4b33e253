"""Computer players driven by the bot's own clock (R-UNO-1, R-UNO-2, R-TIME-3).

Real tables on a SQLite file, the real :class:`tables.Clock` (timers, locked compare-and-swap
saves) with no thinking pause, and a person who acts the moment anything changes — faster than
any computer timer — and catches whenever the rules let them. Adjacent computers must still
call UNO before anyone can catch them, and every hand must end, even when computers hold
every seat for absent people.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

import players
from engine import CatchUno, parse_action
from engine.events import Event, HandEnded, UnoCalled, UnoCaught
from storage import GameRepository
from tables import Change, Clock, Player, StaleClickError, Table, TableService
from tables.table import IDLE_SECONDS
from tests.tables.tables import stacked

PERSON = 100


@dataclasses.dataclass
class Run:
    """What happened at one table."""

    events: list[tuple[Table, Event]] = dataclasses.field(default_factory=list)
    hand_ended: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)

    def caught(self, seats: set[int]) -> int:
        return sum(
            1
            for _, e in self.events
            if isinstance(e, UnoCaught) and not e.false_catch and e.target in seats
        )

    def calls(self, seats: set[int]) -> int:
        return sum(1 for _, e in self.events if isinstance(e, UnoCalled) and e.seat in seats)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    repo = await GameRepository.open(str(tmp_path / "clock.sqlite3"))
    yield TableService(repo, randbits=random.Random(5).getrandbits)
    await repo.close()


def recording(service: TableService, run: Run) -> None:
    """Record every change's events (the clock's and the person's)."""
    update = service.update

    async def recorded(table_id: str, operation: Callable[..., Change], **kw: Any) -> Change:
        change = await update(table_id, operation, **kw)
        run.events.extend((change.table, e) for e in change.events)
        if any(isinstance(e, HandEnded) for e in change.events):
            run.hand_ended.set()
        return change

    service.update = recorded  # type: ignore[method-assign]


async def seat_table(service: TableService, computers: int, *, seed: int) -> Table:
    """A person (seat 0) and ``computers`` normal computers, started."""
    table = await service.open(
        guild_id=1,
        channel_id=seed,
        host=Player(PERSON, "person"),
        preset="classic",
        options={"target": 10_000},
    )
    for _ in range(computers):
        await service.update(
            table.id,
            lambda tb, now: tb.add_computer("normal", by=PERSON, is_admin=False, now=now),
        )
    change = await service.update(
        table.id, lambda tb, now: tb.start(by=PERSON, is_admin=False, now=now)
    )
    return change.table


async def play_hands(service: TableService, table: Table, hands: int, *, seed: int) -> Run:
    """Play ``hands`` hands: the clock drives the computers, the person answers every change
    at once (its own turn, and every catch the rules allow)."""
    run = Run()
    recording(service, run)
    rng = random.Random(seed)

    async def person_acts(current: Table) -> Table:
        while current.is_live and current.match is not None:
            state = current.match.hand
            seat = current.playing_seat_of(PERSON)
            if seat is None or state.is_over or current.players[seat].is_automatic:
                return current
            legal = state.legal_actions(seat)
            catch = next((a for a in legal if isinstance(a, CatchUno)), None)
            action = catch or players.decide("normal", state.view_for(seat), rng)
            if action is None:
                return current
            try:
                change = await service.update(
                    current.id,
                    lambda tb, now, a=action: tb.act(PERSON, a, now=now),
                    version=current.version,
                )
            except StaleClickError as stale:
                current = stale.table
                continue
            current = change.table
        return current

    acting: set[asyncio.Task[Table]] = set()

    def heard(changed: Table) -> None:
        """Every saved change reaches the person at once (the service announces it)."""
        task = asyncio.get_running_loop().create_task(person_acts(changed))
        acting.add(task)
        task.add_done_callback(acting.discard)

    service.listen(heard)
    clock = Clock(service, pause=0.0, held_grace=0.0)
    try:
        for _ in range(hands):
            run.hand_ended.clear()
            current = await service.get(table.id)
            assert current is not None
            heard(current)
            clock.watch(current)
            await asyncio.wait_for(run.hand_ended.wait(), timeout=60)
            current = await service.get(table.id)
            assert current is not None
            if current.present_seats():
                await service.update(
                    table.id, lambda tb, now: tb.deal_next(by=PERSON, is_admin=True, now=now)
                )
    finally:
        clock.stop()
    return run


@pytest.mark.parametrize("computers", [2, 3])
async def test_r_uno_1_adjacent_computers_call_uno_and_are_never_caught(
    service: TableService, computers: int
) -> None:
    table = await seat_table(service, computers, seed=computers)
    run = await play_hands(service, table, hands=6, seed=computers)
    seats = set(range(1, computers + 1))
    hands = sum(1 for _, e in run.events if isinstance(e, HandEnded))
    assert hands == 6
    # The person catches at the first chance, yet no computer seat is ever caught: each one
    # calls UNO as it plays its second-to-last card (the arena's figure is also 0).
    assert run.calls(seats) > 0
    assert run.caught(seats) == 0


async def test_r_time_3_every_hand_ends_when_computers_hold_every_seat(
    service: TableService,
) -> None:
    """Four people time out and computers hold all their seats: the hand still ends, and the
    next one waits for someone to come back (or for the idle limit)."""
    table = await service.open(
        guild_id=1, channel_id=9, host=Player(PERSON, "p0"), preset="classic", options={}
    )
    for n in range(1, 4):
        await service.update(
            table.id, lambda tb, now, n=n: tb.join(Player(PERSON + n, f"p{n}"), now=now)
        )
    await service.update(table.id, lambda tb, now: tb.start(by=PERSON, is_admin=False, now=now))

    def hold_every_seat(tb: Table, now: float) -> Change:
        held = tuple(dataclasses.replace(p, level="normal") for p in tb.players)
        return Change(dataclasses.replace(tb, players=held, version=tb.version + 1))

    await service.update(table.id, hold_every_seat)
    for seed in range(3):
        current = await service.get(table.id)
        assert current is not None
        assert current.present_seats() == []
        run = await play_hands(service, current, hands=1, seed=seed)
        assert sum(1 for _, e in run.events if isinstance(e, HandEnded)) == 1
        assert run.caught({0, 1, 2, 3}) == 0
        paused = await service.get(table.id)
        assert paused is not None
        assert paused.status == "playing"
        assert paused.match is not None
        assert paused.match.hand.is_over  # nobody is here: the next hand is not dealt
        assert paused.deadline == paused.active_at + IDLE_SECONDS
        # Someone comes back and deals on.
        back = await service.update(table.id, lambda tb, now: tb.reclaim(PERSON, now=now))
        assert back.table.present_seats() == [0]
        dealt = await service.update(
            table.id, lambda tb, now: tb.deal_next(by=PERSON, is_admin=False, now=now)
        )
        assert not dealt.table.match.hand.is_over  # type: ignore[union-attr]
        await service.update(table.id, hold_every_seat)


def test_r_time_3_on_a_held_seats_turn_the_computer_waits_the_grace_period() -> None:
    """The person was pinged when their turn came; the computer holding their seat plays
    only after ``held_grace`` seconds, so they can take the turn back."""
    table = stacked([["R1", "G2"], ["B3", "Y4"], ["G5", "B6"]], "R9")  # seat 0 to play
    now = [table.updated_at]
    clock = Clock(_no_service(), pause=1.0, held_grace=8.0, clock=lambda: now[0])
    assert clock.delay(table) == table.deadline - now[0]  # a person's turn: the deadline only
    held = dataclasses.replace(
        table, players=(dataclasses.replace(table.players[0], level="normal"), *table.players[1:])
    )
    assert clock.delay(held) == pytest.approx(8.0)
    now[0] += 5.0
    assert clock.delay(held) == pytest.approx(3.0)
    # A computer player's own turn needs no grace: just its thinking pause (0.5-1.5 s).
    computer = dataclasses.replace(
        table, players=(Player(-1, "🤖 Ada", "normal"), *table.players[1:])
    )
    delay = clock.delay(computer)
    assert delay is not None
    assert 0.5 <= delay <= 1.5


def _no_service() -> TableService:
    """A service that is never asked anything (the tests only ask the clock for delays)."""
    return TableService(None)  # type: ignore[arg-type]


def test_r_uno_2_computers_wait_the_catch_grace_before_catching_a_person() -> None:
    """A person played their second-to-last card without calling: the computers give them
    ``catch_grace`` seconds to call before anyone catches — never beyond the window."""
    table = stacked([["R1", "R2"], ["B3", "Y4"], ["G5", "B6"]], "R9")
    computers = (Player(-1, "🤖 Ada", "normal"), Player(-2, "🤖 Turing", "normal"))
    table = dataclasses.replace(table, players=(table.players[0], *computers))
    after = table.act(table.players[0].user_id, parse_action("R1"), now=100.0).table
    assert after.uno_window_at == 100.0  # the window opened with that card
    now = [100.2]
    clock = Clock(_no_service(), pause=0.0, catch_grace=2.5, clock=lambda: now[0])
    assert clock.delay(after) == pytest.approx(2.3)
    may_catch = clock._decider(after, may_catch=False)
    assert after.match is not None
    view = after.match.hand.view_for(2)
    assert isinstance(players.decide("normal", view, random.Random(0)), CatchUno)
    assert may_catch(2, view) is None  # withheld during the grace
    assert isinstance(clock._decider(after, may_catch=True)(2, view), CatchUno)
    # The person calls in time: the window is closed, nothing to wait for.
    called = after.act(after.players[0].user_id, parse_action("uno"), now=101.0).table
    assert called.uno_window_at is None


@pytest.mark.parametrize("level", players.LEVELS)
def test_r_uno_2_every_level_respects_the_catch_grace(level: str) -> None:
    """Whatever its level, no computer catches a person inside ``catch_grace``; after it,
    the levels that catch do (``easy`` only some of the times it is asked)."""
    table = stacked([["R1", "R2"], ["B3", "Y4"], ["G5", "B6"]], "R9")
    computers = (Player(-1, "🤖 Ada", level), Player(-2, "🤖 Turing", level))
    table = dataclasses.replace(table, players=(table.players[0], *computers))
    after = table.act(table.players[0].user_id, parse_action("R1"), now=100.0).table
    now = [100.2]
    clock = Clock(_no_service(), pause=0.0, catch_grace=2.5, clock=lambda: now[0])
    assert after.match is not None
    caught = 0
    for version in range(40):
        moved = dataclasses.replace(after, version=after.version + version)
        for seat in (1, 2):
            view = moved.match.hand.view_for(seat)  # type: ignore[union-attr]
            withheld = clock._decider(moved, may_catch=False)(seat, view)
            assert not isinstance(withheld, CatchUno)
            caught += isinstance(clock._decider(moved, may_catch=True)(seat, view), CatchUno)
    assert caught > 0
