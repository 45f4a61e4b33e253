"""A table: opened in a channel (or again, for a rematch), stored and read back.

Its state and the small steps of every change are ``state.py``'s; what changes it lives by
concern, each building on the one before: ``ending.py`` (the end of a hand and of the match),
``play.py`` (a running match and its clock), ``lobby.py`` (before the deal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine import Rules, RulesError
from engine.serialize import match_from_dict, match_to_dict
from storage import TableRecord

from .lobby import Lobby
from .records import RECENT_EVENTS, records_from_data, records_to_data
from .seats import MAX_PLAYERS, Player
from .state import (
    IDLE_SECONDS,
    LOBBY_SECONDS,
    NEXT_HAND_SECONDS,
    TIMEOUTS_IN_A_ROW,
    Change,
    TableError,
    refused,
)

__all__ = [
    "IDLE_SECONDS",
    "LOBBY_SECONDS",
    "MAX_PLAYERS",
    "NEXT_HAND_SECONDS",
    "RECENT_EVENTS",
    "TIMEOUTS_IN_A_ROW",
    "Change",
    "Player",
    "Table",
    "TableError",
    "refused",
]


class Table(Lobby):
    """One table in one channel: a lobby, then a match, then finished or closed."""

    __slots__ = ()

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
        tournament: str | None = None,
    ) -> Table:
        """A new lobby with the host seated; raises ``TableError('bad_rules')``."""
        try:
            Rules.from_preset(preset, **options)
        except RulesError as exc:
            raise refused(exc) from None
        table = cls(
            id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host.user_id,
            preset=preset,
            options=dict(options),
            players=(host,),
            seed=seed,
            language=language,
            tournament=tournament,
            created_at=now,
            updated_at=now,
            active_at=now,
        )
        return replace(table, deadline=table._next_deadline(table, now))

    def rematch(self, *, table_id: str, host: Player, seed: int, now: float) -> Table:
        """A new lobby for a finished match: the same rules and options, the computer players
        seated again, the other people invited (each still confirms by joining)."""
        if self.status != "finished":
            raise TableError("match_not_over")
        if self.seat_of(host.user_id) is None:
            raise TableError("not_seated")
        lobby = Table.open(
            table_id=table_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host=replace(host, team=self.players[self.seat_of(host.user_id) or 0].team),
            preset=self.preset,
            options=self.options,
            seed=seed,
            now=now,
            language=self.language,
            tournament=self.tournament,
        )
        computers = tuple(p for p in self.players if p.is_computer)
        invited = tuple(
            p.user_id for p in self.players if not p.is_computer and p.user_id != host.user_id
        )
        return replace(lobby, players=(*lobby.players, *computers), invited=invited)

    def to_record(self) -> TableRecord:
        """The row to store."""
        state = {
            "host_id": self.host_id,
            "preset": self.preset,
            "options": dict(self.options),
            "players": [
                {
                    "user_id": p.user_id,
                    "name": p.name,
                    "level": p.level,
                    "team_role": p.team_role,
                    "team": p.team,
                }
                for p in self.players
            ],
            "invited": list(self.invited),
            "uno_window_at": self.uno_window_at,
            "tournament": self.tournament,
            "deadline": self.deadline,
            "timeouts": list(self.timeouts),
            "tallies": [dict(t) for t in self.tallies],
            "seed": self.seed,
            "match": match_to_dict(self.match) if self.match is not None else None,
            "recent": records_to_data(self.recent),
            "called_uno": list(self.called_uno),
            "started_at": self.started_at,
            "language": self.language,
            "active_at": self.active_at,
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
            players=tuple(
                Player(
                    int(p["user_id"]),
                    str(p["name"]),
                    p.get("level"),
                    p.get("team_role"),
                    p.get("team"),
                )
                for p in state["players"]
            ),
            invited=tuple(int(i) for i in state.get("invited", ())),
            uno_window_at=state.get("uno_window_at"),
            tournament=state.get("tournament"),
            deadline=state.get("deadline"),
            timeouts=tuple(int(n) for n in state.get("timeouts", ())),
            tallies=tuple(dict(t) for t in state.get("tallies", ())),
            seed=int(state["seed"]),
            status=record.status,
            match=match_from_dict(match) if match is not None else None,
            version=record.version,
            message_id=record.message_id,
            recent=records_from_data(state.get("recent", ())),
            called_uno=tuple(state.get("called_uno", ())),
            started_at=state.get("started_at"),
            language=str(state.get("language", "en")),
            created_at=record.created_at,
            updated_at=record.updated_at,
            # Tables stored before people's moves were told apart: their last change.
            active_at=float(state.get("active_at", record.updated_at)),
        )
