"""The public log of a table: typed events, stored as versioned JSON.

A table keeps its last few public events for the table message: the engine's events that
everyone may see, plus the table's own (a turn that timed out, a seat a computer holds, a
lobby that expired). Only public events are kept, so a record never holds a card of anyone's
hand. They are stored with :func:`engine.serialize.event_to_dict` and read back as the same
typed events; the presenter words them by type, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.events import (
    CardsDealt,
    CardsDrawn,
    CardsGiven,
    CardsReceived,
    Event,
    HandsRedealt,
    HandsRotated,
    HandsSwapped,
    HandStarted,
    UnoCalled,
)
from engine.match import DealerDraw
from engine.serialize import EVENT_TYPES, event_from_dict, event_to_dict

RECENT_EVENTS = 8  # public events kept for the table message


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """``seat``'s turn ran out and was played for it (R-TIME-1)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Replaced(Event):
    """A computer player holds ``seat`` until its person comes back (R-TIME-3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Reclaimed(Event):
    """``seat``'s person came back and plays the seat again (R-TIME-3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ClockPaused(Event):
    """``seat``'s turn clock was given back ``seconds`` its person could not use (the bot
    could not hear Discord, or not reach its database)."""

    seat: int
    seconds: int


@dataclass(frozen=True, slots=True)
class LobbyExpired(Event):
    """Nobody started the lobby in time; the table closed."""


@dataclass(frozen=True, slots=True)
class TableIdle(Event):
    """Nobody played for too long; the table closed."""


@dataclass(frozen=True, slots=True)
class NoHumansLeft(Event):
    """Nobody is left who could come back; the table closed."""


TABLE_EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        TimedOut,
        Replaced,
        Reclaimed,
        ClockPaused,
        LobbyExpired,
        TableIdle,
        NoHumansLeft,
    )
}
#: Every event a table's log may hold, by its stored name.
RECORD_TYPES: dict[str, type[Event]] = {**EVENT_TYPES, **TABLE_EVENT_TYPES}

# Public events too noisy for the table log.
_NOISE: tuple[type[Event], ...] = (DealerDraw, CardsDealt)


def is_public_record(event: Event) -> bool:
    """Does ``event`` belong in the public log (everyone may see it, and it is not noise)?"""
    return event.audience is None and not isinstance(event, _NOISE)


def remember(recent: Sequence[Event], events: Iterable[Event]) -> tuple[Event, ...]:
    """``recent`` with the public ones of ``events`` added, the last :data:`RECENT_EVENTS`."""
    public = [event for event in events if is_public_record(event)]
    if not public:
        return tuple(recent)
    return (*recent, *public)[-RECENT_EVENTS:]


def calls_standing(called: tuple[int, ...], events: Iterable[Event]) -> tuple[int, ...]:
    """The seats whose UNO call still stands after ``events`` (R-UNO-1): a call holds until
    its seat gets cards again (drawn, given, swapped or redealt) or a new hand starts."""
    standing = list(called)
    for event in events:
        if isinstance(event, HandStarted | HandsRotated | HandsRedealt):
            standing = []
        elif isinstance(event, UnoCalled) and not event.false_call:
            standing = [s for s in standing if s != event.seat] + [event.seat]
        elif isinstance(event, CardsDrawn | CardsReceived):
            standing = [s for s in standing if s != event.seat]
        elif isinstance(event, CardsGiven):
            standing = [s for s in standing if s != event.target]
        elif isinstance(event, HandsSwapped):
            standing = [s for s in standing if s not in (event.seat, event.target)]
    return tuple(standing)


def records_to_data(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The JSON form of a log."""
    return [event_to_dict(event) for event in events]


def records_from_data(data: Iterable[Mapping[str, Any]]) -> tuple[Event, ...]:
    """A stored log read back (records written before events had a schema read too)."""
    return tuple(event_from_dict(item, RECORD_TYPES) for item in data)
