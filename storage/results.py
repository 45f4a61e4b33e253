"""Finished matches: what the caller reports, and how one result updates the boards.

:func:`record_result` runs inside ``GameRepository.save``'s transaction, so a table turns
"finished" and its result is counted together, or neither happens. The result's table id is a
primary key: a second attempt for the same table changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import ratings
from ._db import Executor, Row
from ._sql import current_season
from .tournaments import UnknownTournamentError, same_name


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat's outcome of a finished match.

    ``place`` is 1 for the best and shared by ties. ``team`` groups partners at this table
    (R-TEAM-2) and makes the rating treat them as one side; ``team_role`` is the Discord role
    of the player's tournament team (R-TEAM-3). R-TIME-2: a player who left or timed out has
    ``left=True``, ``won=False`` and ``match_points=-1``. Computer players (``is_bot``) count for
    the others' ratings but are never stored.
    """

    user_id: int
    name: str
    is_bot: bool
    place: int
    team: int | None
    points: int
    won: bool
    left: bool
    match_points: int
    hands_played: int = 0
    hands_won: int = 0
    uno_calls: int = 0
    catches_made: int = 0
    catches_suffered: int = 0
    challenges_won: int = 0
    challenges_lost: int = 0
    cards_drawn: int = 0
    colours_played: Mapping[str, int] = field(default_factory=dict)
    team_role: int | None = None

    def __post_init__(self) -> None:
        if self.place < 1:
            raise ValueError(f"place must be 1 or more, not {self.place}")
        if self.left and (self.won or self.match_points != -1):
            raise ValueError("R-TIME-2: a player who left loses with -1 match point")
        counters = (
            self.hands_played,
            self.hands_won,
            self.uno_calls,
            self.catches_made,
            self.catches_suffered,
            self.challenges_won,
            self.challenges_lost,
            self.cards_drawn,
            *self.colours_played.values(),
        )
        if any(n < 0 for n in counters):
            raise ValueError("counters cannot be negative")


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished table: every seat's result, computer players included."""

    table_id: str
    guild_id: int
    preset: str
    finished_at: float
    players: tuple[PlayerResult, ...]
    tournament: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)  # what differed from the preset

    def __post_init__(self) -> None:
        if not self.players:
            raise ValueError("a result needs its players")
        humans = [p.user_id for p in self.players if not p.is_bot]
        if len(set(humans)) != len(humans):
            raise ValueError("a player appears twice in one result")
        if any(p.place > len(self.players) for p in self.players):
            raise ValueError("a place is beyond the number of players")

    @property
    def humans(self) -> tuple[PlayerResult, ...]:
        """The players that are stored (computer players never are)."""
        return tuple(p for p in self.players if not p.is_bot)


_STAT_COLUMNS = (
    "name, mu, sigma, rating, matches, wins, points, match_points, hands_played, hands_won,"
    " uno_calls, catches_made, catches_suffered, challenges_won, challenges_lost, cards_drawn,"
    " left_games, current_streak, best_streak, colours, last_played"
)
_UPSERT_STATS = (
    f"INSERT INTO player_stats (guild_id, season, user_id, {_STAT_COLUMNS})"
    f" VALUES ({', '.join('?' * 24)})"
    " ON CONFLICT (guild_id, season, user_id) DO UPDATE SET "
    + ", ".join(f"{c.strip()} = excluded.{c.strip()}" for c in _STAT_COLUMNS.split(","))
)
_INSERT_PLAYER = (
    "INSERT INTO player_results (table_id, user_id, name, place, team, team_role, points, won,"
    " left_game, match_points, hands_played, hands_won, uno_calls, catches_made,"
    " catches_suffered, challenges_won, challenges_lost, cards_drawn, colours, mu, sigma)"
    f" VALUES ({', '.join('?' * 21)})"
)


async def record_result(db: Executor, result: MatchResult) -> bool:
    """Store ``result`` and update the boards; ``False`` if this table was already counted.

    The caller holds the write transaction. Results of one server are recorded one at a time
    (on PostgreSQL other processes wait for the server's lock), so two matches finishing
    together both count in their players' stats.
    """
    await db.serialise(result.guild_id)
    season = await current_season(db, result.guild_id)
    tournament_id = await _tournament_id(db, result)
    inserted = await db.execute(
        "INSERT INTO match_results (table_id, guild_id, season, preset, tournament_id,"
        " finished_at, players, options) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (table_id) DO NOTHING",
        (
            result.table_id,
            result.guild_id,
            season,
            result.preset,
            tournament_id,
            result.finished_at,
            len(result.players),
            json.dumps(dict(result.options), sort_keys=True),
        ),
    )
    if inserted != 1:
        return False  # counted already (a re-save after a crash, or a retried finish)
    humans = result.humans
    previous = await _stats_rows(db, result.guild_id, season, [p.user_id for p in humans])
    new_ratings = _rate(result.players, previous)
    await db.executemany(
        _UPSERT_STATS,
        [
            _stats_row(result, season, p, previous.get(p.user_id), new_ratings[p.user_id])
            for p in humans
        ],
    )
    await db.executemany(
        _INSERT_PLAYER,
        [_player_row(result.table_id, p, new_ratings[p.user_id]) for p in humans],
    )
    return True


async def _tournament_id(db: Executor, result: MatchResult) -> int | None:
    if result.tournament is None:
        return None
    row = await db.fetchone(
        f"SELECT id FROM tournaments WHERE guild_id = ? AND {same_name(db.dialect, 'name')}",
        (result.guild_id, result.tournament.strip()),
    )
    if row is None:
        # Refusing here rolls the whole save back: a typo must not silently drop the result.
        raise UnknownTournamentError(result.tournament)
    return int(row[0])


async def _stats_rows(
    db: Executor, guild_id: int, season: int, users: Sequence[int]
) -> dict[int, Row]:
    if not users:
        return {}
    marks = ", ".join("?" * len(users))
    rows = await db.fetchall(
        f"SELECT * FROM player_stats WHERE guild_id = ? AND season = ? AND user_id IN ({marks})",
        (guild_id, season, *users),
    )
    return {row["user_id"]: row for row in rows}


def _rate(
    players: Sequence[PlayerResult], previous: Mapping[int, Row]
) -> dict[int, ratings.Rating]:
    """New ratings of the humans, from the final order of every side.

    Partners (same ``team``) are one side placed by their best member. A player who left is
    placed after everyone who stayed (R-TIME-2: they lose), whatever place the caller gave.
    Computer players play with the default rating every time and their update is dropped.
    """
    sides: dict[tuple[str, int], list[int]] = {}
    for index, player in enumerate(players):
        key = ("team", player.team) if player.team is not None else ("seat", index)
        sides.setdefault(key, []).append(index)
    order = {
        key: min((players[i].left, players[i].place) for i in seats) for key, seats in sides.items()
    }
    dense = {value: rank for rank, value in enumerate(sorted(set(order.values())), start=1)}
    keys = list(sides)
    teams = [[_rating_of(players[i], previous) for i in sides[key]] for key in keys]
    rated = ratings.rate(teams, [float(dense[order[key]]) for key in keys])
    updated: dict[int, ratings.Rating] = {}
    for key, new_team in zip(keys, rated, strict=True):
        for i, rating in zip(sides[key], new_team, strict=True):
            if not players[i].is_bot:
                updated[players[i].user_id] = rating
    return updated


def _rating_of(player: PlayerResult, previous: Mapping[int, Row]) -> ratings.Rating:
    row = None if player.is_bot else previous.get(player.user_id)
    return ratings.Rating(row["mu"], row["sigma"]) if row is not None else ratings.DEFAULT


def _stats_row(
    result: MatchResult,
    season: int,
    p: PlayerResult,
    old: Row | None,
    rating: ratings.Rating,
) -> tuple[object, ...]:
    def before(column: str) -> int:
        return int(old[column]) if old is not None else 0

    colours: dict[str, int] = json.loads(old["colours"]) if old is not None else {}
    for colour, cards in p.colours_played.items():
        colours[colour] = colours.get(colour, 0) + cards
    streak = before("current_streak") + 1 if p.won else 0
    return (
        result.guild_id,
        season,
        p.user_id,
        p.name,
        rating.mu,
        rating.sigma,
        ratings.display(rating),
        before("matches") + 1,
        before("wins") + int(p.won),
        before("points") + p.points,
        before("match_points") + p.match_points,
        before("hands_played") + p.hands_played,
        before("hands_won") + p.hands_won,
        before("uno_calls") + p.uno_calls,
        before("catches_made") + p.catches_made,
        before("catches_suffered") + p.catches_suffered,
        before("challenges_won") + p.challenges_won,
        before("challenges_lost") + p.challenges_lost,
        before("cards_drawn") + p.cards_drawn,
        before("left_games") + int(p.left),
        streak,
        max(streak, before("best_streak")),
        _json(colours),
        result.finished_at,
    )


def _player_row(table_id: str, p: PlayerResult, rating: ratings.Rating) -> tuple[object, ...]:
    return (
        table_id,
        p.user_id,
        p.name,
        p.place,
        p.team,
        p.team_role,
        p.points,
        int(p.won),
        int(p.left),
        p.match_points,
        p.hands_played,
        p.hands_won,
        p.uno_calls,
        p.catches_made,
        p.catches_suffered,
        p.challenges_won,
        p.challenges_lost,
        p.cards_drawn,
        _json(p.colours_played),
        rating.mu,
        rating.sigma,
    )


def _json(colours: Mapping[str, int]) -> str:
    return json.dumps(dict(colours), separators=(",", ":"), sort_keys=True)
