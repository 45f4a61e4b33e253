"""A table's state: who sits where, the match, the one deadline — what can be read of it,
and the small steps every change is made of (a new version, a deadline, a public note).

A table is pure data, no Discord here: every change returns a new table whose ``version`` is
one higher; the service saves it with a compare-and-swap on that version before anyone sees
the result. The changes live by concern, each building on the one before: the end of a hand
and of the match (``ending.py``), play (``play.py``), the lobby (``lobby.py``), and
``table.py``'s :class:`~tables.table.Table`, which opens tables and stores them. Errors are
``TableError``s with a code that the presenter turns into a polite sentence.

Time comes in as ``now`` (epoch seconds); the table stores the one deadline at which the clock
must look at it again: the lobby's expiry, the turn's time limit (R-TIME-1), the pause
between hands, or the idle limit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Self, TypeVar

from engine import Rules, RulesError
from engine.events import Event
from engine.match import Match
from storage import ActionRow

from .records import calls_standing, remember
from .results import tally
from .seats import Player

LOBBY_SECONDS = 15 * 60  # a lobby never started closes after this
NEXT_HAND_SECONDS = 15  # the pause between hands to read the scoring (the host may skip it)
IDLE_SECONDS = 60 * 60  # a game no person plays closes this long after their last move
TIMEOUTS_IN_A_ROW = 3  # then R-TIME-3 (a computer holds the seat) or R-TIME-2 (removal)


class TableError(Exception):
    """A refused table operation; ``code`` names the sentence to show."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def refused(error: RulesError) -> TableError:
    """Contradictory or unknown options, with the engine's reason (``rule``: its code)."""
    return TableError("bad_rules", rule=error.code, detail=str(error), **error.params)


T = TypeVar("T", bound="TableState")


@dataclass(frozen=True, slots=True)
class Change(Generic[T]):
    """The result of a table operation: the new table, engine events, and log lines."""

    table: T
    events: tuple[Event, ...] = ()
    log: tuple[ActionRow, ...] = ()


@dataclass(frozen=True, slots=True)
class TableState:
    """One table in one channel: a lobby, then a match, then finished or closed."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    preset: str
    options: Mapping[str, Any]
    players: tuple[Player, ...]
    seed: int
    status: str = "lobby"  # lobby | playing | finished | closed
    match: Match | None = None
    version: int = 0
    message_id: int | None = None
    recent: tuple[Event, ...] = ()  # the last public events, for the table message
    deadline: float | None = None  # when the clock must look again (see _next_deadline)
    timeouts: tuple[int, ...] = ()  # consecutive timeouts per seat
    tallies: tuple[Mapping[str, int], ...] = ()  # per seat: calls, catches, … (see results)
    tournament: str | None = None  # the tournament this table reports to
    language: str = "en"  # of the public table message: the server's, not each player's
    created_at: float = 0.0
    updated_at: float = 0.0
    active_at: float = 0.0  # the last move of a person (not of the clock or a computer)
    invited: tuple[int, ...] = ()  # a rematch's players who have not joined yet
    uno_window_at: float | None = None  # when the open UNO window opened (R-UNO-2)
    #: Seats that called UNO and still hold the one card they called it for (R-UNO-1): the
    #: table shows their UNO! as long as it holds, not only until the next player moves.
    called_uno: tuple[int, ...] = ()
    started_at: float | None = None  # when the match began (R-ALT-1: its time limit runs)
    rules: Rules = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", Rules.from_preset(self.preset, **self.options))

    @property
    def is_live(self) -> bool:
        """A lobby or a game in progress."""
        return self.status in ("lobby", "playing")

    @property
    def capacity(self) -> int:
        """How many players may sit (R-SETUP-1: ten; R-ALT-8: up to twenty, two decks)."""
        return self.rules.players or self.rules.max_players

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id``, or ``None``."""
        for seat, player in enumerate(self.players):
            if player.user_id == user_id:
                return seat
        return None

    def playing_seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id`` if they still play: ``None`` once they left the match."""
        seat = self.seat_of(user_id)
        if seat is not None and self.match is not None and seat in self.match.left:
            return None
        return seat

    def _gone(self) -> set[int]:
        return set(self.match.left) if self.match is not None else set()

    def automatic_seats(self) -> list[int]:
        """Seats the computer plays now, still in the match."""
        gone = self._gone()
        return [
            seat
            for seat, player in enumerate(self.players)
            if player.is_automatic and seat not in gone
        ]

    def present_seats(self) -> list[int]:
        """Seats whose person plays them now (not a computer, not held, not gone)."""
        gone = self._gone()
        return [
            seat
            for seat, player in enumerate(self.players)
            if not player.is_automatic and seat not in gone
        ]

    @property
    def humans_remaining(self) -> int:
        """People still in the match who could play their seat: present, or away while a
        computer holds it (R-TIME-3). None left closes the table."""
        gone = self._gone()
        return sum(
            1
            for seat, player in enumerate(self.players)
            if not player.is_computer and seat not in gone
        )

    def names(self) -> list[str]:
        """Display names by seat."""
        return [p.name for p in self.players]

    def _next_host(self, leaving: int, players: Sequence[Player]) -> int:
        """The host after ``leaving`` goes: unchanged, or the first person who still plays."""
        if leaving != self.host_id:
            return self.host_id
        gone = self._gone()
        for seat, player in enumerate(players):
            if player.user_id != leaving and seat not in gone and not player.is_computer:
                return player.user_id
        return self.host_id

    @property
    def match_ends_at(self) -> float | None:
        """When a timed match ends (R-ALT-1), if it is one and has begun."""
        minutes = self.rules.time_limit
        if not minutes or self.started_at is None or self.status != "playing":
            return None
        return self.started_at + minutes * 60

    def turn_owner(self) -> int | None:
        """The seat of the person whose turn clock runs (R-TIME-1), if one does."""
        if self.status != "playing" or self.match is None or not self.rules.turn_seconds:
            return None
        hand = self.match.hand
        if hand.is_over or self.players[hand.current].is_automatic or self.deadline is None:
            return None
        return hand.current

    def is_due(self, now: float) -> bool:
        """Has the deadline passed?"""
        return self.is_live and self.deadline is not None and now >= self.deadline

    def _changed(self, now: float, *, by_person: bool = False, **changes: Any) -> Self:
        active_at = now if by_person else self.active_at
        table = replace(
            self, version=self.version + 1, updated_at=now, active_at=active_at, **changes
        )
        window = table._uno_window()
        opened_at = self.uno_window_at if window == self._uno_window() else now
        return replace(
            table,
            deadline=table._next_deadline(self, now),
            uno_window_at=opened_at if window is not None else None,
        )

    def _uno_window(self) -> tuple[int, int, int] | None:
        """The open UNO window (R-UNO-2): who may be caught, in which hand, after which card;
        ``None`` when nobody may be caught."""
        if self.match is None or self.status != "playing":
            return None
        hand = self.match.hand
        if hand.is_over or hand.uno_seat is None or hand.uno_called:
            return None
        return (self.match.hand_number, hand.uno_seat, len(hand.discard))

    def _next_deadline(self, before: TableState, now: float) -> float | None:
        """When this table next needs the clock: its own deadline (below), or the end of a
        timed match (R-ALT-1), whichever comes first."""
        own = self._own_deadline(before, now)
        ends = self.match_ends_at
        if ends is None:
            return own
        return ends if own is None else min(own, ends)

    def _own_deadline(self, before: TableState, now: float) -> float | None:
        """When this table next needs the clock.

        A lobby expires; between hands the scoring stays up for a pause, then the next hand
        is dealt — unless nobody is present to play it; a person's turn has its time limit
        (R-TIME-1) when the rules set one. Otherwise the table waits for its people: it
        closes when none of them has moved for the idle limit, however much the computers
        play meanwhile.
        """
        if self.status == "lobby":
            return self.created_at + LOBBY_SECONDS
        if self.status != "playing" or self.match is None:
            return None
        idle = self.active_at + IDLE_SECONDS
        hand = self.match.hand
        if hand.is_over:
            if not self.present_seats():
                return idle
            same_pause = (
                before.match is not None
                and before.match.hand.is_over
                and len(before.match.history) == len(self.match.history)
                and before.deadline is not None
                and bool(before.present_seats())
            )
            return before.deadline if same_pause else now + NEXT_HAND_SECONDS
        seconds = self.rules.turn_seconds
        if not seconds or self.players[hand.current].is_automatic:
            return idle
        # R-TIME-1: the clock runs per turn: a new hand, a new turn owner, or a card played
        # (a skipped opponent in a two-player game gives the same seat a new turn).
        turn = (self.match.hand_number, hand.current, len(hand.discard))
        if before.status == "playing" and before.match is not None and before.deadline:
            old = before.match.hand
            same_owner = not before.players[old.current].is_automatic
            if same_owner and (before.match.hand_number, old.current, len(old.discard)) == turn:
                return before.deadline
        return now + seconds

    def _with_player(self, seat: int, player: Player) -> Self:
        players = list(self.players)
        players[seat] = player
        return replace(self, players=tuple(players))

    def _with_timeouts(self, seat: int, count: int) -> Self:
        timeouts = list(self.timeouts) + [0] * (len(self.players) - len(self.timeouts))
        timeouts[seat] = count
        return replace(self, timeouts=tuple(timeouts))

    def _note(self, event: Event) -> Self:
        """Add a table-level event (not the engine's) to the recent moves."""
        return replace(self, recent=remember(self.recent, (event,)))

    def _remember(self, events: Sequence[Event]) -> Self:
        """Keep the public events for the table message, count the events per seat, and
        follow who called UNO."""
        return replace(
            self,
            tallies=tally(self.tallies, len(self.players), events),
            recent=remember(self.recent, events),
            called_uno=calls_standing(self.called_uno, events),
        )

    def _require_lobby(self) -> None:
        if self.status == "playing":
            raise TableError("game_running")
        if self.status != "lobby":
            raise TableError("table_closed")

    def _require_playing(self) -> Match:
        if self.status != "playing" or self.match is None:
            raise TableError("game_not_running" if self.status == "lobby" else "table_closed")
        return self.match

    def _require_host(self, by: int, is_admin: bool) -> None:
        """Only the host — or a server manager — may do this."""
        if by != self.host_id and not is_admin:
            raise TableError("not_host")
