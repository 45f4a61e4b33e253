"""The lobby: sitting down, computers, the house rules, teams (R-TEAM-2), leaving and
kicking (in a running match too: R-TIME-2), and the start of the match."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Self

from engine import Rules, RulesError
from engine.match import Match
from storage import ActionRow

from .play import Play
from .seats import Player, computer_player, seat_teams
from .state import Change, TableError, refused


class Lobby(Play):
    """What happens before the deal, and who sits (see the module docstring)."""

    __slots__ = ()

    def join(self, player: Player, *, now: float) -> Change[Self]:
        """Take the next free seat."""
        self._require_lobby()
        if self.seat_of(player.user_id) is not None:
            raise TableError("already_seated")
        if len(self.players) >= self.capacity:
            raise TableError("table_full", seats=self.capacity)
        invited = tuple(i for i in self.invited if i != player.user_id)
        table = self._changed(now, by_person=True, players=(*self.players, player), invited=invited)
        return Change(table, log=(ActionRow(None, f"join:{player.user_id}"),))

    def add_computer(self, level: str, *, by: int, is_admin: bool, now: float) -> Change[Self]:
        """The host seats a computer player of ``level`` (see ``players.LEVELS``)."""
        self._require_lobby()
        self._require_host(by, is_admin)
        if len(self.players) >= self.capacity:
            raise TableError("table_full", seats=self.capacity)
        player = computer_player(level, (p.user_id for p in self.players))
        table = self._changed(now, by_person=True, players=(*self.players, player))
        return Change(table, log=(ActionRow(None, f"computer:{level}"),))

    def set_options(
        self, changes: Mapping[str, Any], *, by: int, is_admin: bool, now: float
    ) -> Change[Self]:
        """The host changes single options of the preset (RULES.md §12): ``None`` puts an
        option back to the preset's. Contradictions are refused with the engine's reason."""
        self._require_lobby()
        self._require_host(by, is_admin)
        options = dict(self.options)
        for name, value in changes.items():
            options[name] = value
            if value is None:
                options.pop(name)
        try:
            rules = Rules.from_preset(self.preset, **options)
        except RulesError as exc:
            raise refused(exc) from None
        preset = Rules.from_preset(self.preset)
        # Only what differs from the preset is an override (the lobby lists them).
        options = {k: v for k, v in options.items() if getattr(rules, k) != getattr(preset, k)}
        needed = rules.players
        if needed is not None and len(self.players) > needed:
            raise TableError("wrong_player_count", needed=needed)
        if options == dict(self.options):
            return Change(self)
        table = self._changed(now, by_person=True, options=options)
        return Change(table, log=(ActionRow(None, f"options:{sorted(changes)}"),))

    def pick_team(self, user_id: int, team: int, *, now: float) -> Change[Self]:
        """A player picks their team in the lobby (R-TEAM-2); seating follows at the start."""
        self._require_lobby()
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        if not 0 <= team < self.rules.teams:
            raise TableError("no_such_team")
        if self.players[seat].team == team:
            return Change(self)
        table = self._changed(now, by_person=True)._with_player(
            seat, replace(self.players[seat], team=team)
        )
        return Change(table, log=(ActionRow(None, f"team:{user_id}:{team}"),))

    def rename(self, user_id: int, name: str, *, now: float) -> Change[Self]:
        """``user_id`` is called ``name`` here from now on (``/uno forget-me``)."""
        seat = self.seat_of(user_id)
        if seat is None or self.players[seat].name == name:
            return Change(self)
        table = self._changed(now)._with_player(seat, replace(self.players[seat], name=name))
        return Change(table, log=(ActionRow(None, f"rename:{user_id}"),))

    def leave(self, user_id: int, *, now: float) -> Change[Self]:
        """Leave the lobby, or a running match (which the leaver then loses, R-TIME-2)."""
        seat = self.playing_seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        return self._take_away(seat, user_id, now, verb="leave")

    def kick(self, user_id: int, *, by: int, is_admin: bool, now: float) -> Change[Self]:
        """The host (or a server manager) removes a player."""
        self._require_host(by, is_admin)
        if user_id == by and not is_admin:
            raise TableError("cannot_kick_self")
        seat = self.playing_seat_of(user_id)
        if seat is None:
            raise TableError("not_seated_other")
        return self._take_away(seat, user_id, now, verb="kick")

    def _take_away(self, seat: int, user_id: int, now: float, *, verb: str) -> Change[Self]:
        """Out of a running match (which they lose, R-TIME-2), or out of the lobby."""
        if self.status == "playing":
            return self._retire(seat, user_id, now, verb=verb, by_person=True)
        self._require_lobby()
        return self._unseat(user_id, now, verb=verb)

    def _unseat(self, user_id: int, now: float, *, verb: str) -> Change[Self]:
        """Take ``user_id`` out of the lobby; the last one out closes it."""
        players = tuple(p for p in self.players if p.user_id != user_id)
        if not players:
            table = self._changed(now, by_person=True, players=players, status="closed")
        else:
            host = self._next_host(user_id, players)
            table = self._changed(now, by_person=True, players=players, host_id=host)
        return Change(table, log=(ActionRow(None, f"{verb}:{user_id}"),))

    def start(self, *, by: int, is_admin: bool, now: float) -> Change[Self]:
        """Deal the first hand of the match."""
        self._require_lobby()
        self._require_host(by, is_admin)
        needed = self.rules.players
        if needed is not None and len(self.players) != needed:
            raise TableError("wrong_player_count", needed=needed)
        if len(self.players) < 2:
            raise TableError("too_few_players")
        if all(p.is_computer for p in self.players):
            raise TableError("too_few_players")
        players = self.players
        teams = self.rules.teams
        if teams:
            if len(players) % teams:
                raise TableError("teams_uneven", players=len(players), teams=teams)
            seated = seat_teams(players, teams)
            if seated is None:
                raise TableError("teams_unbalanced", share=len(players) // teams)
            players = seated
        else:
            players = tuple(replace(p, team=None) for p in players)
        step = Match.new(self.rules, len(players), seed=self.seed)
        table = self._changed(
            now,
            by_person=True,
            status="playing",
            players=players,
            match=step.match,
            timeouts=(0,) * len(players),
            invited=(),
            started_at=now,
        )
        table = table._remember(step.events)
        # R-ALT-1: the match's end is a deadline too (_changed set it before started_at).
        table = replace(table, deadline=table._next_deadline(self, now))
        return Change(table, step.events, (ActionRow(None, "start"),))
