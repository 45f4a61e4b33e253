"""Tournaments (R-SCORE-4, R-TEAM-3): named per server, teams are Discord roles.

A result saved with ``tournament=name`` reports to it. Each game gives its players the
R-SCORE-4 placement points again: N for first down to 1 for last, N being the seats at the
table (computer players included); tied places score the same. A player's tournament total is
the sum over their games. R-TEAM-3: a team's total is the sum of its players' totals (a player
belongs to the team whose role the result carried, ``PlayerResult.team_role``), and teams
ranked by it receive 5, 3, 2 and 1 points; later teams 0. Teams with equal totals share the
rank and its points, since the rule names no tie-break.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ._db import Database, Dialect, Row, unique_violation

TEAM_AWARDS = (5, 3, 2, 1)  # R-TEAM-3, for the 1st to 4th team
MAX_NAME = 100

_T = TypeVar("_T")


class TournamentExistsError(ValueError):
    """The server already has a tournament of that name (names ignore case)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"a tournament named {name!r} already exists in this server")
        self.name = name


class UnknownTournamentError(LookupError):
    """No tournament of that name in this server."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no tournament named {name!r} in this server")
        self.name = name


@dataclass(frozen=True, slots=True)
class TournamentTeam:
    """A team and the Discord role that marks its members."""

    name: str
    role_id: int


@dataclass(frozen=True, slots=True)
class Tournament:
    """A named tournament of one server."""

    guild_id: int
    name: str
    created_at: float
    teams: tuple[TournamentTeam, ...]


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """A player's line: ``points`` are summed placement points, ``rank`` is shared by ties."""

    rank: int
    user_id: int
    name: str
    team: str | None
    points: int
    games: int


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """A team's line: ``points`` summed over its players, ``award`` the R-TEAM-3 5/3/2/1."""

    rank: int
    name: str
    role_id: int
    points: int
    award: int


@dataclass(frozen=True, slots=True)
class TournamentStandings:
    """Players and teams of a tournament, best first."""

    tournament: Tournament
    players: tuple[PlayerStanding, ...]
    teams: tuple[TeamStanding, ...]


class Tournaments:
    """Tournament storage on the repository's connection (``GameRepository.tournaments``)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create_tournament(
        self, guild_id: int, name: str, teams: Mapping[str, int], now: float
    ) -> Tournament:
        """Create a tournament; :class:`TournamentExistsError` if the name is taken."""
        name = name.strip()
        if not name or len(name) > MAX_NAME:
            raise ValueError(f"a tournament name has 1 to {MAX_NAME} characters")
        if len(set(teams.values())) != len(teams):
            raise ValueError("two teams cannot share a role")
        try:
            async with self._db.transaction() as tx:
                tournament_id = await tx.fetchval(
                    "INSERT INTO tournaments (guild_id, name, created_at) VALUES (?, ?, ?)"
                    " RETURNING id",
                    (guild_id, name, now),
                )
                await tx.executemany(
                    "INSERT INTO tournament_teams (tournament_id, name, role_id) VALUES (?, ?, ?)",
                    [(tournament_id, team, role) for team, role in teams.items()],
                )
        except Exception as exc:
            if unique_violation(exc) and "tournament_teams" not in str(unique_violation(exc)):
                raise TournamentExistsError(name) from None
            raise
        # What was just written, without reading it back.
        teams_made = tuple(TournamentTeam(team, role) for team, role in teams.items())
        return Tournament(guild_id, name, now, teams_made)

    async def tournament(self, guild_id: int, name: str) -> Tournament | None:
        """The server's tournament of that name (any case), or ``None``."""
        found = await self._tournaments(guild_id, name.strip())
        return found[0] if found else None

    async def tournaments(self, guild_id: int) -> list[Tournament]:
        """The server's tournaments, newest first."""
        return await self._tournaments(guild_id, None)

    async def tournament_standings(self, guild_id: int, name: str) -> TournamentStandings:
        """Players and teams ranked per R-SCORE-4 and R-TEAM-3."""
        tournament = await self.tournament(guild_id, name)
        if tournament is None:
            raise UnknownTournamentError(name)
        rows = await self._db.fetchall(
            "SELECT p.user_id, p.name, p.team_role, m.players - p.place + 1 AS points"
            " FROM match_results m JOIN player_results p ON p.table_id = m.table_id"
            " JOIN tournaments t ON t.id = m.tournament_id"
            f" WHERE t.guild_id = ? AND {same_name(self._db.dialect, 't.name')}"
            " ORDER BY m.finished_at, m.table_id",
            (guild_id, tournament.name),
        )
        return TournamentStandings(
            tournament, _player_standings(tournament, rows), _team_standings(tournament, rows)
        )

    async def _tournaments(self, guild_id: int, name: str | None) -> list[Tournament]:
        dialect = self._db.dialect
        rows = await self._db.fetchall(
            "SELECT t.id, t.name, t.created_at, tt.name AS team, tt.role_id"
            " FROM tournaments t LEFT JOIN tournament_teams tt ON tt.tournament_id = t.id"
            " WHERE t.guild_id = ?"
            + (f" AND {same_name(dialect, 't.name')}" if name is not None else "")
            + f" ORDER BY t.created_at DESC, t.id DESC, {_TEAM_ORDER[dialect]}",
            (guild_id, name) if name is not None else (guild_id,),
        )
        found: dict[int, tuple[Row, list[TournamentTeam]]] = {}
        for row in rows:
            _, teams = found.setdefault(row["id"], (row, []))
            if row["team"] is not None:
                teams.append(TournamentTeam(row["team"], row["role_id"]))
        return [
            Tournament(guild_id, row["name"], row["created_at"], tuple(teams))
            for row, teams in found.values()
        ]


# The order the teams were given in: SQLite's rowid, PostgreSQL's identity column.
_TEAM_ORDER: dict[Dialect, str] = {"sqlite": "tt.rowid", "postgresql": "tt.position"}


def same_name(dialect: Dialect, column: str) -> str:
    """``column = ?`` ignoring case, as the tournament names' uniqueness does: SQLite's
    column collates NOCASE; PostgreSQL's unique index is on ``lower(name)``."""
    if dialect == "postgresql":
        return f"lower({column}) = lower(?)"
    return f"{column} = ?"


@dataclass(slots=True)
class _Line:
    name: str
    team: str | None
    points: int = 0
    games: int = 0


def _player_standings(tournament: Tournament, rows: Sequence[Row]) -> tuple[PlayerStanding, ...]:
    team_of_role = {team.role_id: team.name for team in tournament.teams}
    lines: dict[int, _Line] = {}
    for row in rows:
        if row["user_id"] is None:
            continue  # anonymised by forget_user: still counts for its team, not listed
        line = lines.setdefault(row["user_id"], _Line(row["name"], None))
        line.points += int(row["points"])
        line.games += 1
        line.name = row["name"]  # rows come oldest first: the latest name and team win
        line.team = team_of_role.get(row["team_role"])
    ordered = sorted(lines.items(), key=lambda item: (-item[1].points, item[0]))
    return tuple(
        PlayerStanding(rank, user, line.name, line.team, line.points, line.games)
        for rank, (user, line) in _ranked(ordered, lambda item: item[1].points)
    )


def _team_standings(tournament: Tournament, rows: Sequence[Row]) -> tuple[TeamStanding, ...]:
    sums = {team.role_id: 0 for team in tournament.teams}
    for row in rows:
        if row["team_role"] in sums:
            sums[row["team_role"]] += int(row["points"])
    # Equal totals keep the order the teams were given in, for a stable listing.
    teams = sorted(tournament.teams, key=lambda team: -sums[team.role_id])
    return tuple(
        TeamStanding(
            rank=rank,
            name=team.name,
            role_id=team.role_id,
            points=sums[team.role_id],
            award=TEAM_AWARDS[rank - 1] if rank <= len(TEAM_AWARDS) else 0,
        )
        for rank, team in _ranked(teams, lambda team: sums[team.role_id])
    )


def _ranked(items: Sequence[_T], score: Callable[[_T], int]) -> list[tuple[int, _T]]:
    """Competition ranks (1, 2, 2, 4) for items already sorted best first."""
    ranked: list[tuple[int, _T]] = []
    for position, item in enumerate(items, start=1):
        tied = ranked and score(ranked[-1][1]) == score(item)
        ranked.append((ranked[-1][0] if tied else position, item))
    return ranked
