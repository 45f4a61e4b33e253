"""Leaderboards, player stats, seasons and forgetting a player (``GameRepository.boards``).

Everything here reads ``player_stats``, the per server, season and player aggregate that
:func:`storage.results.record_result` keeps current. A page is a walk down the sort key's
index; a rank is one plus the number of players strictly ahead (a COUNT over the same index),
so tied players share a rank (1, 2, 2, 4) and paging within ties is by user id.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from itertools import pairwise
from typing import Literal

from ._db import Database, Executor, Row
from ._sql import current_season, season_of
from .compaction import squeeze, unsqueeze

#: The name a forgotten player keeps in stored game records (``/uno forget-me``).
FORGOTTEN = "—"

Sort = Literal["rating", "wins", "points", "match_points", "games"]
SORTS: tuple[Sort, ...] = ("rating", "wins", "points", "match_points", "games")
_COLUMN: dict[Sort, str] = {
    "rating": "rating",
    "wins": "wins",
    "points": "points",
    "match_points": "match_points",
    "games": "matches",
}
MAX_PAGE = 100
#: The fields of :class:`PlayerStats` that ``stats`` works out; every other one is the column
#: of ``player_stats`` by that name, as stored.
_WORKED_OUT = frozenset({"season", "rating", "favourite_colour", "colours_played"})


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One line of a leaderboard; ``rating`` is the displayed conservative number."""

    rank: int
    user_id: int
    name: str
    rating: int
    matches: int
    wins: int
    points: int
    match_points: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record in one server and season."""

    user_id: int
    name: str
    season: int
    rating: int
    matches: int
    wins: int
    hands_played: int
    hands_won: int
    points: int
    match_points: int
    uno_calls: int
    catches_made: int
    catches_suffered: int
    challenges_won: int
    challenges_lost: int
    cards_drawn: int
    left_games: int
    favourite_colour: str | None
    colours_played: dict[str, int]
    best_streak: int
    current_streak: int

    @property
    def win_rate(self) -> float:
        """Matches won per match played (0 before any)."""
        return self.wins / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class Season:
    """A season of one server.

    ``started_at`` is ``None`` for season 1 (it began with the server's first match) and
    ``ended_at`` is ``None`` while the season is current.
    """

    number: int
    started_at: float | None
    ended_at: float | None

    @property
    def current(self) -> bool:
        """Still running."""
        return self.ended_at is None


class Boards:
    """Leaderboard queries and season changes on the repository's connection."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def leaderboard(
        self,
        guild_id: int,
        *,
        sort: Sort = "rating",
        season: int | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> list[BoardRow]:
        """One page of the server's board, best first (``season=None``: the current one)."""
        column = _column(sort)
        if offset < 0 or not 1 <= limit <= MAX_PAGE:
            raise ValueError(f"offset >= 0 and 1 <= limit <= {MAX_PAGE}")
        number = await season_of(self._db, guild_id, season)
        rows = await self._db.fetchall(page_sql(column), (guild_id, number, limit, offset))
        if not rows:
            return []
        # The first row may tie with the previous page: only a count knows its rank. After
        # it, a row's rank is its position unless it ties with the row before.
        rank = await self._ahead(guild_id, number, column, rows[0][column]) + 1
        board = [_board_row(rank, rows[0])]
        for position, (before, row) in enumerate(pairwise(rows), start=offset + 2):
            if row[column] != before[column]:
                rank = position
            board.append(_board_row(rank, row))
        return board

    async def rank_of(
        self, guild_id: int, user_id: int, *, sort: Sort = "rating", season: int | None = None
    ) -> BoardRow | None:
        """The player's own line (to show under a page they are not on), or ``None``."""
        column = _column(sort)
        number = await season_of(self._db, guild_id, season)
        row = await self._row(guild_id, number, user_id)
        if row is None:
            return None
        return _board_row(await self._ahead(guild_id, number, column, row[column]) + 1, row)

    async def board_size(self, guild_id: int, *, season: int | None = None) -> int:
        """How many players the board has (for "page 3 of 12")."""
        value = await self._db.fetchval(
            "SELECT COUNT(*) FROM player_stats WHERE guild_id = ? AND season = ?",
            (guild_id, await season_of(self._db, guild_id, season)),
        )
        return int(value) if value is not None else 0

    async def stats(
        self, guild_id: int, user_id: int, season: int | None = None
    ) -> PlayerStats | None:
        """The player's record for the season, or ``None`` if they played no match in it."""
        number = await season_of(self._db, guild_id, season)
        row = await self._row(guild_id, number, user_id)
        if row is None:
            return None
        colours: dict[str, int] = json.loads(row["colours"])
        favourite = min(colours.items(), key=lambda c: (-c[1], c[0]), default=None)
        as_stored = {f.name: row[f.name] for f in fields(PlayerStats) if f.name not in _WORKED_OUT}
        return PlayerStats(
            **as_stored,
            season=number,
            rating=round(row["rating"]),
            favourite_colour=favourite[0] if favourite and favourite[1] > 0 else None,
            colours_played=colours,
        )

    async def current_season(self, guild_id: int) -> int:
        """The server's current season number."""
        return await season_of(self._db, guild_id, None)

    async def seasons(self, guild_id: int) -> list[Season]:
        """Every season of the server, oldest first (season 1 even if never written)."""
        rows = await self._db.fetchall(
            "SELECT season, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY season",
            (guild_id,),
        )
        if not rows:
            return [Season(1, None, None)]
        return [Season(row[0], row[1], row[2]) for row in rows]

    async def new_season(self, guild_id: int, now: float) -> int:
        """Close the current season and start the next; its number.

        Later results count in the new season; boards and ratings start afresh there.
        """
        async with self._db.transaction() as tx:
            await tx.serialise(guild_id)  # no result of this server is being counted meanwhile
            current = await current_season(tx, guild_id)
            # Season 1 has no row yet the first time: write it, closed.
            await tx.execute(
                "INSERT INTO seasons (guild_id, season, started_at, ended_at)"
                " VALUES (?, ?, NULL, ?)"
                " ON CONFLICT (guild_id, season) DO UPDATE SET ended_at = excluded.ended_at",
                (guild_id, current, now),
            )
            await tx.execute(
                "INSERT INTO seasons (guild_id, season, started_at, ended_at)"
                " VALUES (?, ?, ?, NULL)",
                (guild_id, current + 1, now),
            )
        return current + 1

    async def forget_user(self, user_id: int) -> int:
        """Erase the player from every server's stats; the number of rows deleted or anonymised.

        Their boards and ratings lines and their match results go. Results that reported to
        a tournament are anonymised instead (user id and name cleared), so their team's
        R-TEAM-3 total stays what it was. Other players' results are untouched. In the
        records of finished and closed tables their name becomes :data:`FORGOTTEN` (live
        tables are renamed by the table layer, which owns them while they run).
        """
        async with self._db.transaction() as tx:
            renamed = await _forget_name_in_records(tx, user_id)
            stats = await tx.execute("DELETE FROM player_stats WHERE user_id = ?", (user_id,))
            anonymised = await tx.execute(
                "UPDATE player_results SET user_id = NULL, name = NULL WHERE user_id = ?"
                " AND table_id IN"
                " (SELECT table_id FROM match_results WHERE tournament_id IS NOT NULL)",
                (user_id,),
            )
            results = await tx.execute("DELETE FROM player_results WHERE user_id = ?", (user_id,))
        return stats + anonymised + results + renamed

    async def _row(self, guild_id: int, season: int, user_id: int) -> Row | None:
        return await self._db.fetchone(
            "SELECT * FROM player_stats WHERE guild_id = ? AND season = ? AND user_id = ?",
            (guild_id, season, user_id),
        )

    async def _ahead(self, guild_id: int, season: int, column: str, value: object) -> int:
        """How many players are strictly ahead of ``value`` on ``column``."""
        count = await self._db.fetchval(ahead_sql(column), (guild_id, season, value))
        return int(count) if count is not None else 0


async def _forget_name_in_records(tx: Executor, user_id: int) -> int:
    rows = await tx.fetchall(
        "SELECT t.id, t.state, r.state AS squeezed FROM tables t"
        " JOIN table_seats s ON s.table_id = t.id"
        " LEFT JOIN table_records r ON r.table_id = t.id"
        " WHERE s.user_id = ? AND t.status NOT IN ('lobby', 'playing')",
        (user_id,),
    )
    for row in rows:
        compacted = row["state"] == ""  # its state is in its record (storage.compaction)
        state = json.loads(unsqueeze(row["squeezed"]) if compacted else row["state"])
        for player in state.get("players", []):
            if player.get("user_id") == user_id:
                player["name"] = FORGOTTEN
        text = json.dumps(state, separators=(",", ":"))
        if compacted:
            await tx.execute(
                "UPDATE table_records SET state = ? WHERE table_id = ?", (squeeze(text), row[0])
            )
        else:
            await tx.execute("UPDATE tables SET state = ? WHERE id = ?", (text, row[0]))
    return len(rows)


def page_sql(column: str) -> str:
    """One page of a board: a walk down ``column``'s index (``player_stats_by_…``)."""
    return (
        f"SELECT * FROM player_stats WHERE guild_id = ? AND season = ?"
        f" ORDER BY {column} DESC, user_id LIMIT ? OFFSET ?"
    )


def ahead_sql(column: str) -> str:
    """How many players are ahead of a value: a COUNT over a range of the same index."""
    return f"SELECT COUNT(*) FROM player_stats WHERE guild_id = ? AND season = ? AND {column} > ?"


def _column(sort: Sort) -> str:
    # Only these fixed names ever reach the SQL text: the sort never comes from user input.
    if sort not in _COLUMN:
        raise ValueError(f"sort by one of {', '.join(SORTS)}, not {sort!r}")
    return _COLUMN[sort]


def _board_row(rank: int, row: Row) -> BoardRow:
    return BoardRow(
        rank=rank,
        user_id=row["user_id"],
        name=row["name"],
        rating=round(row["rating"]),
        matches=row["matches"],
        wins=row["wins"],
        points=row["points"],
        match_points=row["match_points"],
    )
