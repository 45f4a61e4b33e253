"""A table: the lobby, who sits where, and the engine's match — pure, no Discord here.

Every change returns a new ``Table`` whose ``version`` is one higher; the cog saves it with a
compare-and-swap on that version before anyone sees the result. Errors are ``TableError``s
with a code that the presenter turns into a polite sentence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import Action, IllegalActionError, Rules, RulesError
from engine.events import Event
from engine.match import Match
from engine.serialize import match_from_dict, match_to_dict
from storage import ActionRow, TableRecord

from ._events import public_record

MAX_PLAYERS = 10
RECENT_EVENTS = 8  # public events kept for the table message


class TableError(Exception):
    """A refused table operation; ``code`` names the sentence to show."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class Player:
    """A seated Discord user."""

    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Change:
    """The result of a table operation: the new table, engine events, and log lines."""

    table: Table
    events: tuple[Event, ...] = ()
    log: tuple[ActionRow, ...] = ()


@dataclass(frozen=True, slots=True)
class Table:
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
    recent: tuple[Mapping[str, Any], ...] = ()
    language: str = "en"  # of the public table message: the server's, not each player's
    created_at: float = 0.0
    updated_at: float = 0.0
    rules: Rules = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", Rules.from_preset(self.preset, **self.options))

    # -- creation -------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        *,
        table_id: str,
        guild_id: int,
        channel_id: int,
        host: Player,
        preset: str,
        options: Mapping[str, Any],
        seed: int,
        now: float,
        language: str = "en",
    ) -> Table:
        """A new lobby with the host seated; raises ``TableError('bad_rules')``."""
        try:
            Rules.from_preset(preset, **options)
        except RulesError as exc:
            raise TableError("bad_rules", detail=str(exc)) from None
        return cls(
            id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host.user_id,
            preset=preset,
            options=dict(options),
            players=(host,),
            seed=seed,
            language=language,
            created_at=now,
            updated_at=now,
        )

    # -- reading --------------------------------------------------------------------------

    @property
    def is_live(self) -> bool:
        """A lobby or a game in progress."""
        return self.status in ("lobby", "playing")

    @property
    def capacity(self) -> int:
        """How many players may sit."""
        return self.rules.players or MAX_PLAYERS

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

    def _next_host(self, leaving: int, players: Sequence[Player]) -> int:
        """The host after ``leaving`` goes: unchanged, or the first who still plays."""
        if leaving != self.host_id:
            return self.host_id
        gone = set(self.match.left) if self.match is not None else set()
        for seat, player in enumerate(players):
            if player.user_id != leaving and seat not in gone:
                return player.user_id
        return self.host_id

    def names(self) -> list[str]:
        """Display names by seat."""
        return [p.name for p in self.players]

    def _changed(self, now: float, **changes: Any) -> Table:
        return replace(self, version=self.version + 1, updated_at=now, **changes)

    def _require_lobby(self) -> None:
        if self.status == "playing":
            raise TableError("game_running")
        if self.status != "lobby":
            raise TableError("table_closed")

    def _require_playing(self) -> Match:
        if self.status != "playing" or self.match is None:
            raise TableError("game_not_running" if self.status == "lobby" else "table_closed")
        return self.match

    # -- the lobby ------------------------------------------------------------------------

    def join(self, player: Player, *, now: float) -> Change:
        """Take the next free seat."""
        self._require_lobby()
        if self.seat_of(player.user_id) is not None:
            raise TableError("already_seated")
        if len(self.players) >= self.capacity:
            raise TableError("table_full", seats=self.capacity)
        table = self._changed(now, players=(*self.players, player))
        return Change(table, log=(ActionRow(None, f"join:{player.user_id}"),))

    def leave(self, user_id: int, *, now: float) -> Change:
        """Leave the lobby, or a running match (which the leaver then loses, R-TIME-2)."""
        seat = self.playing_seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        if self.status == "playing":
            return self._retire(seat, user_id, now, verb="leave")
        self._require_lobby()
        return self._unseat(user_id, now, verb="leave")

    def kick(self, user_id: int, *, by: int, is_admin: bool, now: float) -> Change:
        """The host (or a server manager) removes a player."""
        if by != self.host_id and not is_admin:
            raise TableError("not_host")
        if user_id == by and not is_admin:
            raise TableError("cannot_kick_self")
        seat = self.playing_seat_of(user_id)
        if seat is None:
            raise TableError("not_seated_other")
        if self.status == "playing":
            return self._retire(seat, user_id, now, verb="kick")
        self._require_lobby()
        return self._unseat(user_id, now, verb="kick")

    def _unseat(self, user_id: int, now: float, *, verb: str) -> Change:
        """Take ``user_id`` out of the lobby; the last one out closes it."""
        players = tuple(p for p in self.players if p.user_id != user_id)
        if not players:
            table = self._changed(now, players=players, status="closed")
        else:
            table = self._changed(now, players=players, host_id=self._next_host(user_id, players))
        return Change(table, log=(ActionRow(None, f"{verb}:{user_id}"),))

    def start(self, *, by: int, is_admin: bool, now: float) -> Change:
        """Deal the first hand of the match."""
        self._require_lobby()
        if by != self.host_id and not is_admin:
            raise TableError("not_host")
        needed = self.rules.players
        if needed is not None and len(self.players) != needed:
            raise TableError("wrong_player_count", needed=needed)
        if len(self.players) < 2:
            raise TableError("too_few_players")
        step = Match.new(self.rules, len(self.players), seed=self.seed)
        table = self._changed(now, status="playing", match=step.match)
        table = table._remember(step.events)
        return Change(table, step.events, (ActionRow(None, "start"),))

    def end(self, *, by: int, is_admin: bool, now: float) -> Change:
        """Close the table (host or server manager)."""
        if not self.is_live:
            raise TableError("table_closed")
        if by != self.host_id and not is_admin:
            raise TableError("not_host")
        return Change(self._changed(now, status="closed"), log=(ActionRow(None, "end"),))

    # -- the game -------------------------------------------------------------------------

    def act(self, user_id: int, action: Action, *, now: float) -> Change:
        """Apply ``action`` for the seat of ``user_id``; deals the next hand when one ends."""
        match = self._require_playing()
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        try:
            step = match.apply(seat, action)
        except IllegalActionError as exc:
            raise TableError("illegal", reason=exc.reason.value, detail=exc.detail) from None
        events = list(step.events)
        log = [ActionRow(seat, str(action))]
        match = step.match
        if match.hand.is_over and not match.is_over:
            following = match.next_hand()
            match = following.match
            events.extend(following.events)
            log.append(ActionRow(None, "next"))
        status = "finished" if match.is_over else "playing"
        table = self._changed(now, match=match, status=status)._remember(events)
        return Change(table, tuple(events), tuple(log))

    def _retire(self, seat: int, user_id: int, now: float, *, verb: str) -> Change:
        """R-TIME-2: the seat leaves the running match; a leaving host passes the table on."""
        match = self._require_playing()
        step = match.remove_player(seat)
        events = list(step.events)
        # The engine's record knows only ``leave@N``; a kick also logs who was removed.
        log = [ActionRow(None, f"kick:{user_id}")] if verb == "kick" else []
        log.append(ActionRow(None, f"leave@{seat}"))
        match = step.match
        if match.hand.is_over and not match.is_over:
            following = match.next_hand()
            match = following.match
            events.extend(following.events)
            log.append(ActionRow(None, "next"))
        status = "finished" if match.is_over else "playing"
        table = self._changed(now, match=match, status=status)
        table = replace(table, host_id=table._next_host(user_id, table.players))
        return Change(table._remember(events), tuple(events), tuple(log))

    def _remember(self, events: Sequence[Event]) -> Table:
        public = [r for r in (public_record(e) for e in events) if r is not None]
        if not public:
            return self
        return replace(self, recent=(*self.recent, *public)[-RECENT_EVENTS:])

    # -- storage --------------------------------------------------------------------------

    def to_record(self) -> TableRecord:
        """The row to store."""
        state = {
            "host_id": self.host_id,
            "preset": self.preset,
            "options": dict(self.options),
            "players": [{"user_id": p.user_id, "name": p.name} for p in self.players],
            "seed": self.seed,
            "match": match_to_dict(self.match) if self.match is not None else None,
            "recent": [dict(r) for r in self.recent],
            "language": self.language,
        }
        return TableRecord(
            id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            status=self.status,
            version=self.version,
            state=state,
            seats=tuple(p.user_id for p in self.players),
            message_id=self.message_id,
            created_at=self.created_at,
            updated_at=self.updated_at,
        )

    @classmethod
    def from_record(cls, record: TableRecord) -> Table:
        """Rebuild a table from its stored row."""
        state = record.state
        match = state.get("match")
        return cls(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=int(state["host_id"]),
            preset=str(state["preset"]),
            options=dict(state.get("options", {})),
            players=tuple(Player(int(p["user_id"]), str(p["name"])) for p in state["players"]),
            seed=int(state["seed"]),
            status=record.status,
            match=match_from_dict(match) if match is not None else None,
            version=record.version,
            message_id=record.message_id,
            recent=tuple(state.get("recent", ())),
            language=str(state.get("language", "en")),
            created_at=record.created_at,
            updated_at=record.updated_at,
        )
