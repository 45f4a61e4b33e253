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

Every change the clock makes is handed to ``on_change`` (the adapter shows it: the table
message), which must call :meth:`Clock.watch` again — or the clock re-arms itself when the
callback is missing.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable

import players
from engine import Action, CatchUno, PlayerView
from engine.events import Event, HandStarted
from storage import DatabaseBusyError

from .service import StaleClickError, TableService
from .table import Table, TableError

log = logging.getLogger(__name__)

#: How long a computer player "thinks" before its move, in seconds (jittered ±50 %).
DEFAULT_PAUSE = 1.2
#: How long a computer waits on the turn of a seat it holds for an absent person.
DEFAULT_HELD_GRACE = 8.0
#: How long a computer waits before catching someone who has not called UNO.
DEFAULT_CATCH_GRACE = 2.5
#: When the database was busy, look at the table again after this many seconds.
BUSY_RETRY = 1.0

OnChange = Callable[[Table], Awaitable[None]]


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
    """Timers for every live table of the bot."""

    def __init__(
        self,
        service: TableService,
        on_change: OnChange,
        *,
        pause: float = DEFAULT_PAUSE,
        held_grace: float = DEFAULT_HELD_GRACE,
        catch_grace: float = DEFAULT_CATCH_GRACE,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.on_change = on_change  # shows a change (edits the table message), then watches
        self.pause = pause
        self.held_grace = held_grace
        self.catch_grace = catch_grace
        self._clock = clock
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # (table id, version) whose computer seats had nothing to do: do not ask again.
        self._idle: dict[str, int] = {}
        # Per table: the public events of the hand under way, for the computer players.
        self._histories: dict[str, HandHistory] = {}

    async def resume(self) -> int:
        """After a start: set the timer of every live table of this process's shards;
        returns how many."""
        tables = await self.service.live_tables()
        for table in tables:
            self.watch(table)
        return len(tables)

    def stop(self) -> None:
        """Cancel every timer (the cog unloads or the bot closes)."""
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in self._tasks:
            task.cancel()

    def watch(self, table: Table) -> None:
        """(Re)arm the table's timer after a change; a table of another process's shard
        is that process's to wake."""
        handle = self._timers.pop(table.id, None)
        if handle is not None:
            handle.cancel()
        if not table.is_live or not self.service.owns(table):
            self._idle.pop(table.id, None)
            self._histories.pop(table.id, None)
            return
        self._remember(table)
        delay = self.delay(table)
        if delay is None:
            return
        loop = asyncio.get_running_loop()
        self._timers[table.id] = loop.call_later(delay, self._spawn, table.id)

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

    def _retry_soon(self, table_id: str) -> None:
        loop = asyncio.get_running_loop()
        self._timers[table_id] = loop.call_later(BUSY_RETRY, self._spawn, table_id)

    def _spawn(self, table_id: str) -> None:
        self._timers.pop(table_id, None)
        task = asyncio.get_running_loop().create_task(self._wake(table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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

    async def _wake(self, table_id: str) -> None:
        try:
            table = await self.service.get(table_id)
            if table is None or not table.is_live:
                return
            after = await self._computer_move(table)
            if after is None and table.is_due(self._clock()):
                timed_out = await self.service.update(table_id, lambda tb, now: tb.time_out(now))
                after = timed_out.table
            if after is not None:
                await self.on_change(after)
            else:
                self.watch(table)
        except StaleClickError as stale:
            self.watch(stale.table)  # someone moved first: look again
        except DatabaseBusyError:
            # Another program holds the database: nothing was written; try again shortly.
            log.warning("Table %s: the database was busy; retrying", table_id)
            self._retry_soon(table_id)
        except TableError as exc:
            log.debug("Table %s: nothing to do on wake (%s)", table_id, exc.code)
        except Exception:
            log.exception("The clock of table %s failed", table_id)

    async def _computer_move(self, table: Table) -> Table | None:
        """Let the computer seat that :func:`players.next_actor` picks act; ``None`` if none
        wants to (or a held seat's grace is still running)."""
        if not self._computer_may_act(table) or table.match is None:
            return None
        if self._holds_the_turn(table) and self._grace_left(table) > _EARLY:
            return None
        hand = table.match.hand
        may_catch = self._catch_grace_left(table) <= _EARLY
        decider = self._decider(table, may_catch, self.history(table))
        decision = await asyncio.to_thread(
            players.next_actor, hand, table.automatic_seats(), decider
        )
        if decision is None:
            if may_catch or not self._computer_may_catch(table):
                self._idle[table.id] = table.version  # nothing to do until something changes
            return None
        seat, actions = decision.seat, decision.actions
        change = await self.service.update(
            table.id,
            lambda tb, now: tb.act_for(seat, actions, now=now),
            version=table.version,
        )
        return change.table

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
