"""When the players could not act: the bot could not hear Discord, or not reach its database.

A turn clock must not run for a person who could not click. The adapter reports what it
learns — a gateway shard dropped or went silent, the database refused a query — as the start
and end of an *outage* of a named cause (``gateway:0``, ``database``); :class:`Outages` keeps
the intervals, says whether one is going on, and how many seconds of a span were lost to them
(overlapping outages count once). :class:`~tables.clock.Clock` pauses the tables an outage
touches while it goes on and gives a person's turn clock the lost seconds back afterwards.

An outage may start in the past: a silent gateway is noticed only when an expected answer
does not come, and the players could not act since the last thing heard.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection

#: Outages older than this are forgotten (no turn lasts that long).
KEEP_SECONDS = 6 * 60 * 60

#: Told the cause of an outage that just ended.
RecoveryListener = Callable[[str], None]


class Outages:
    """The intervals during which players could not act, by cause.

    ``clock`` is the tables' clock (epoch seconds, as their deadlines).
    """

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._open: dict[str, float] = {}  # cause → when it began
        self._past: list[tuple[str, float, float]] = []  # cause, began, ended
        self._listeners: list[RecoveryListener] = []

    @property
    def down(self) -> bool:
        """Is any outage going on?"""
        return bool(self._open)

    def down_for(self, causes: Collection[str]) -> bool:
        """Is an outage of one of ``causes`` going on?"""
        return any(cause in self._open for cause in causes)

    def causes(self) -> list[str]:
        """The causes of the outages going on, oldest first."""
        return sorted(self._open, key=self._open.__getitem__)

    def begin(self, cause: str, since: float | None = None) -> bool:
        """An outage of ``cause`` began at ``since`` (default: now; never later than now);
        returns whether it is new (a second report of a going outage changes nothing)."""
        if cause in self._open:
            return False
        now = self._clock()
        self._open[cause] = now if since is None else min(since, now)
        return True

    def end(self, cause: str) -> float | None:
        """The outage of ``cause`` is over: returns how long it lasted (``None`` when there
        was none) and tells the listeners."""
        began = self._open.pop(cause, None)
        if began is None:
            return None
        now = self._clock()
        self._past.append((cause, began, now))
        self._past = [span for span in self._past if span[2] >= now - KEEP_SECONDS]
        for listener in list(self._listeners):
            listener(cause)
        return now - began

    def on_recovery(self, listener: RecoveryListener) -> None:
        """Call ``listener`` with the cause whenever an outage ends."""
        self._listeners.append(listener)

    def lost(
        self, start: float, end: float | None = None, causes: Collection[str] | None = None
    ) -> float:
        """Seconds of ``[start, end]`` (default end: now) during which an outage of one of
        ``causes`` (default: any) was going on; overlapping outages count once."""
        end = self._clock() if end is None else end

        def counts(cause: str) -> bool:
            return causes is None or cause in causes

        spans = sorted(
            [(max(a, start), min(b, end)) for c, a, b in self._past if counts(c)]
            + [(max(a, start), end) for c, a in self._open.items() if counts(c)]
        )
        total, reached = 0.0, start
        for a, b in spans:
            a = max(a, reached)
            if b > a:
                total += b - a
                reached = b
        return total
