"""The table's clock and its computer players: what happens when nobody clicks.

One timer per live table wakes it when a computer seat should act (after a short, human-like
pause) or when its stored deadline passes (a turn's time limit, an unstarted lobby, the pause
between hands, an idle game). Deadlines live in the table's stored state, so after a restart
:meth:`Clock.resume` sets every timer again and a turn that ran out while the bot was down is
played at once.

Which computer seat acts, and in what order, is decided by :func:`players.next_actor` — the
same protocol the benchmarks measure. A computer player sees only its seat's
:class:`~engine.views.PlayerView` and decides in a worker thread (a ``hard`` search takes up
to ~150 ms, too long for the event loop). Its move goes through the same locked
compare-and-swap update as a click: if a person moved first, the computer just looks again.

On the turn of a seat a computer holds for an absent person (R-TIME-3), the computer waits
``held_grace`` seconds after the turn came (and the person was pinged) before it plays, so the
person can take the seat back. A person who played their second-to-last card without calling
UNO has ``catch_grace`` seconds to call before any computer catches them (R-UNO-2): nobody
clicks as fast as a program. The grace never extends the window the rules allow — when the
next player begins their turn, the chance to catch is gone.

The clock hears every saved version of a table from the service (whoever made the change)
and re-arms the table's timer; it never shows anything itself — the display hears the same
announcements.

When things break it stays fair and keeps going: a wake that fails is tried again with a
growing pause until it succeeds or the table moves on; while the database cannot be reached
one task looks at it every few seconds and the tables run again as soon as it answers. While
the players of a table cannot be heard (the gateway is down or silent, the database is
unreachable: see :mod:`tables.outages`), its clock pauses: nobody is played for, and a
person whose turn ran during an outage gets the lost seconds back (``Table.give_back``)
before the clock may play for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Collection

import players
from engine import Action, CatchUno, PlayerView
from engine.events import Event, HandStarted
from storage import is_outage

from .service import StaleClickError, TableService
from .table import Table, TableError

log = logging.getLogger(__name__)

#: How long a computer player "thinks" before its move, in seconds (jittered ±50 %).
DEFAULT_PAUSE = 1.2
#: How long a computer waits on the turn of a seat it holds for an absent person.
DEFAULT_HELD_GRACE = 8.0
#: How long a computer waits before catching someone who has not called UNO.
DEFAULT_CATCH_GRACE = 2.5
#: After a wake failed (not for an outage), look again after 1, 2, 4 … at most 30 seconds.
RETRY_FIRST = 1.0
RETRY_MOST = 30.0
#: While the database cannot be reached, look at it after 0.5, 1, 2, then every 4 seconds.
PROBE_FIRST = 0.5
PROBE_MOST = 4.0
#: The outage cause of an unreachable database (see :mod:`tables.outages`).
DATABASE = "database"
#: The causes that touch every table when the adapter names none.
EVERY_CAUSE: tuple[str, ...] = (DATABASE, "gateway")

#: Can the players of a table be heard now? (Reports an outage when they cannot.)
Confirm = Callable[[Table], Awaitable[bool]]
#: The outage causes that touch a table.
Causes = Callable[[Table], Collection[str]]


class HandHistory:
    """The public events of a table's current hand, as the clock has seen them.

    Every change of a table reaches :meth:`Clock.watch`, and the table keeps its last public
    events (``Table.recent``); the new ones are those after the overlap with the events seen
    before. Computer players read the history to learn what the others could not play
    (:mod:`players.belief`). It lives in memory only: after a restart, or when more events
    than ``Table.recent`` holds happened between two looks, the history has a gap and the
    players know less (never anything hidden).
    """

    __slots__ = ("events", "hand", "recent", "version")

    def __init__(self, hand: int, version: int, recent: tuple[Event, ...]) -> None:
        self.hand = hand
        self.version = version
        self.recent = recent
        self.events: list[Event] = []
        self._take(recent)

    def _take(self, new: tuple[Event, ...]) -> None:
        for i in range(len(new) - 1, -1, -1):
            if isinstance(new[i], HandStarted):
                self.events = list(new[i:])
                return
        self.events.extend(new)

    def update(self, version: int, recent: tuple[Event, ...]) -> None:
        """Add the events of ``recent`` not seen yet (the table is at ``version``)."""
        if version <= self.version:
            return
        old = self.recent
        overlap = 0
        for k in range(min(len(old), len(recent)), 0, -1):
            if old[len(old) - k :] == recent[:k]:
                overlap = k
                break
        self._take(recent[overlap:])
        self.version = version
        self.recent = recent


# A timer may fire this much before its time (the loop's clock is not the wall clock).
_EARLY = 0.05


class Clock:
    """Timers for every live table of this process.

    It hears every saved version of a table from the service (``service.listen``), so it
    re-arms after anyone's change — a click, its own move, another task's. ``confirm`` (the
    adapter's) answers whether the players of a table can be heard right now; it is asked
    before a person's turn is played for them, and reports an outage when they cannot.
    ``causes`` names the outages that touch a table (default: the database and the gateway).
    """

    def __init__(
        self,
        service: TableService,
        *,
        confirm: Confirm | None = None,
        causes: Causes | None = None,
        pause: float = DEFAULT_PAUSE,
        held_grace: float = DEFAULT_HELD_GRACE,
        catch_grace: float = DEFAULT_CATCH_GRACE,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.outages = service.outages
        self.pause = pause
        self.held_grace = held_grace
        self.catch_grace = catch_grace
        self._confirm = confirm
        self._causes: Causes = causes or (lambda table: EVERY_CAUSE)
        self._clock = clock
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._latest: dict[str, Table] = {}  # the newest version seen of each live table
        # (table id, version) whose computer seats had nothing to do: do not ask again.
        self._idle: dict[str, int] = {}
        # Per table: the public events of the hand under way, for the computer players.
        self._histories: dict[str, HandHistory] = {}
        self._failures: dict[str, int] = {}  # wakes that failed in a row (not outages)
        # Per table: the turn whose clock got lost time back, and up to when.
        self._credited: dict[str, tuple[tuple[int, int, int], float]] = {}
        self._probe: asyncio.Task[None] | None = None
        self._stopped = False
        service.listen(self.watch)
        self.outages.on_recovery(self._recovered)

    async def resume(self) -> int:
        """After a start: set the timer of every live table of this process's shards;
        returns how many."""
        tables = await self.service.live_tables()
        for table in tables:
            self.watch(table)
        return len(tables)

    def stop(self) -> None:
        """Cancel every timer (the cog unloads or the bot closes)."""
        self._stopped = True
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in self._tasks:
            task.cancel()
        if self._probe is not None:
            self._probe.cancel()

    def watch(self, table: Table) -> None:
        """(Re)arm the table's timer for its newest version; a table of another process's
        shard is that process's to wake, and a table an outage touches waits for the end
        of the outage."""
        known = self._latest.get(table.id)
        if known is not None and known.version > table.version:
            table = known  # an older copy (a wake that started before the last change)
        handle = self._timers.pop(table.id, None)
        if handle is not None:
            handle.cancel()
        if self._stopped:
            return
        if not table.is_live or not self.service.owns(table):
            for kept in (self._latest, self._idle, self._histories, self._failures):
                kept.pop(table.id, None)
            self._credited.pop(table.id, None)
            return
        if known is None or known.version != table.version:
            self._failures.pop(table.id, None)  # it moved on: a failing wake starts afresh
        self._latest[table.id] = table
        self._remember(table)
        if self.outages.down_for(self._causes(table)):
            return  # paused: _recovered arms it again
        delay = self.delay(table)
        if delay is None:
            return
        loop = asyncio.get_running_loop()
        self._timers[table.id] = loop.call_later(delay, self._spawn, table.id)

    def _recovered(self, cause: str) -> None:
        """An outage ended: the tables it paused run again (their people get the lost time
        back when their turn is due, see :meth:`_lost`)."""
        for table in list(self._latest.values()):
            if cause in self._causes(table) and table.id not in self._timers:
                self.watch(table)

    def _spawn(self, table_id: str) -> None:
        self._timers.pop(table_id, None)
        task = asyncio.get_running_loop().create_task(self._wake(table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _wake(self, table_id: str) -> None:
        try:
            table = await self.service.get(table_id)
            if table is None or not table.is_live:
                if table is not None:
                    self.watch(table)
                return
            if self.outages.down_for(self._causes(table)):
                self._latest[table.id] = table
                return
            moved = await self._computer_move(table)
            if not moved and table.is_due(self._clock()):
                moved = await self._due(table)
            self._failures.pop(table_id, None)
            if not moved:
                self.watch(table)
        except StaleClickError as stale:
            self.watch(stale.table)  # someone moved first: look again
        except TableError as exc:
            log.debug("Table %s: nothing to do on wake (%s)", table_id, exc.code)
            self._failures.pop(table_id, None)
        except Exception as exc:
            if is_outage(exc) and self.outages.down:
                self._probe_database()  # the service began the outage; recovery re-arms
            else:
                self._retry(table_id, exc)

    async def _due(self, table: Table) -> bool:
        """The deadline passed: play the person's turn for them — unless they could not be
        heard, then their clock pauses, or gets back the time they lost. Returns whether
        the table changed."""
        owner = table.turn_owner()
        if owner is not None:
            if self._confirm is not None and not await self._confirm(table):
                return False  # an outage began: the table waits for its end
            turn, lost = self._lost(table)
            if table.deadline is not None and table.deadline + lost >= self._clock() + 1:
                await self.service.update(
                    table.id,
                    lambda tb, now: tb.give_back(lost, now=now),
                    version=table.version,
                )
                self._credited[table.id] = (turn, self._clock())
                log.info(
                    "Table %s: gave seat %d back %.0f s it could not use", table.id, owner, lost
                )
                return True
        await self.service.update(table.id, lambda tb, now: tb.time_out(now))
        return True

    def _lost(self, table: Table) -> tuple[tuple[int, int, int], float]:
        """The running turn, and the seconds of it its person lost to outages that were not
        given back yet."""
        assert table.match is not None
        assert table.deadline is not None
        hand = table.match.hand
        turn = (table.match.hand_number, hand.current, len(hand.discard))
        start = table.deadline - (table.rules.turn_seconds or 0)
        credited = self._credited.get(table.id)
        if credited is not None and credited[0] == turn:
            start = max(start, credited[1])
        return turn, self.outages.lost(start, causes=self._causes(table))

    def _retry(self, table_id: str, exc: BaseException) -> None:
        """A wake failed, not for an outage: look again later, a little later each time."""
        failures = self._failures.get(table_id, 0) + 1
        self._failures[table_id] = failures
        delay = min(RETRY_MOST, RETRY_FIRST * 2 ** (failures - 1))
        if failures == 1:
            log.error("The clock of table %s failed; trying again", table_id, exc_info=exc)
        else:
            log.warning(
                "The clock of table %s failed again (%s); next try in %.0f s",
                table_id,
                type(exc).__name__,
                delay,
            )
        if self._stopped:
            return
        loop = asyncio.get_running_loop()
        self._timers[table_id] = loop.call_later(delay, self._spawn, table_id)

    def _probe_database(self) -> None:
        """While the database cannot be reached, one task looks at it now and then; the
        first answer ends the outage (the service reports it) and the tables run again."""
        if self._probe is None or self._probe.done():
            self._probe = asyncio.get_running_loop().create_task(self._look_at_database())

    async def _look_at_database(self) -> None:
        delay = PROBE_FIRST
        while self.outages.down_for((DATABASE,)) and not self._stopped:
            await asyncio.sleep(delay)
            delay = min(PROBE_MOST, delay * 2)
            with contextlib.suppress(Exception):
                await self.service.probe()

    async def _computer_move(self, table: Table) -> bool:
        """Let the computer seat that :func:`players.next_actor` picks act; returns whether it
        did (``False``: none wants to, or a held seat's grace is still running)."""
        if not self._computer_may_act(table) or table.match is None:
            return False
        if self._holds_the_turn(table) and self._grace_left(table) > _EARLY:
            return False
        hand = table.match.hand
        may_catch = self._catch_grace_left(table) <= _EARLY
        decider = self._decider(table, may_catch, self.history(table))
        decision = await asyncio.to_thread(
            players.next_actor, hand, table.automatic_seats(), decider
        )
        if decision is None:
            if may_catch or not self._computer_may_catch(table):
                self._idle[table.id] = table.version  # nothing to do until something changes
            return False
        seat, actions = decision.seat, decision.actions
        await self.service.update(
            table.id,
            lambda tb, now: tb.act_for(seat, actions, now=now),
            version=table.version,
        )
        return True

    def _remember(self, table: Table) -> None:
        """Follow the public events of the table's hand (see :class:`HandHistory`)."""
        if table.match is None:
            self._histories.pop(table.id, None)
            return
        hand = table.match.hand.seed
        known = self._histories.get(table.id)
        if known is None or known.hand != hand:
            self._histories[table.id] = HandHistory(hand, table.version, table.recent)
        else:
            known.update(table.version, table.recent)

    def history(self, table: Table) -> tuple[Event, ...]:
        """The public events of ``table``'s hand the clock has seen, oldest first."""
        self._remember(table)
        known = self._histories.get(table.id)
        return tuple(known.events) if known is not None else ()

    def delay(self, table: Table) -> float | None:
        """Seconds until the table needs the clock: a computer's move or the deadline."""
        delay: float | None = None
        if self._computer_may_act(table):
            delay = self._think_time(table)
            if self._holds_the_turn(table):
                delay = max(delay, self._grace_left(table))
            if self._computer_may_catch(table):
                delay = max(delay, self._catch_grace_left(table))
        if table.deadline is not None:
            until = max(0.0, table.deadline - self._clock())
            delay = until if delay is None else min(delay, until)
        return delay

    def _think_time(self, table: Table) -> float:
        rng = random.Random(f"{table.id}:{table.version}:pause")
        return self.pause * (0.5 + rng.random())

    def _grace_left(self, table: Table) -> float:
        """Seconds a held seat's person still has to take the turn back."""
        return self.held_grace - (self._clock() - table.updated_at)

    def _catch_grace_left(self, table: Table) -> float:
        """Seconds before a computer may catch the open UNO window (0: it may now)."""
        if table.uno_window_at is None:
            return 0.0
        return max(0.0, self.catch_grace - (self._clock() - table.uno_window_at))

    @staticmethod
    def _computer_may_catch(table: Table) -> bool:
        if table.match is None or table.uno_window_at is None:
            return False
        hand = table.match.hand
        return any(
            isinstance(action, CatchUno)
            for seat in table.automatic_seats()
            for action in hand.legal_actions(seat)
        )

    @staticmethod
    def _holds_the_turn(table: Table) -> bool:
        """Is it the turn of a seat a computer holds for an absent person?"""
        if table.match is None or table.match.hand.is_over:
            return False
        return table.players[table.match.hand.current].is_held

    def _computer_may_act(self, table: Table) -> bool:
        if table.status != "playing" or table.match is None:
            return False
        if self._idle.get(table.id) == table.version:
            return False
        hand = table.match.hand
        return any(hand.legal_actions(seat) for seat in table.automatic_seats())

    @staticmethod
    def _decider(
        table: Table, may_catch: bool, history: tuple[Event, ...] = ()
    ) -> Callable[[int, PlayerView], Action | None]:
        """How each computer seat of ``table`` decides now (reproducible per version and
        history); a catch waits for the grace period. ``history`` holds public events only."""

        def decide(seat: int, view: PlayerView) -> Action | None:
            level = table.players[seat].level or "normal"
            rng = random.Random(f"{table.seed}:{table.version}:{seat}")
            action = players.decide(level, view, rng, history)
            if isinstance(action, CatchUno) and not may_catch:
                return None
            return action

        return decide
