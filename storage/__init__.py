"""Persistence: the only package that talks SQL (aiosqlite, or asyncpg for PostgreSQL).

``GameRepository`` stores each table's JSON state with a compare-and-swap on its version and
logs every action in the same transaction; migrations are numbered ``.sql`` files. A save that
finishes a table may carry its :class:`MatchResult`, which feeds the per-server boards
(``repo.boards``), ratings, tournaments (``repo.tournaments``); ``repo.settings`` keeps each
server's defaults,
``repo.player_settings`` each player's own (``/uno settings``).

``GameRepository.open(target)`` takes an SQLite file path or a ``postgresql://`` URL: the
same API and guarantees on both (``storage._db`` hides the difference).

Start-up problems raise :class:`DatabaseUnavailableError` (one sentence: the path and what
to do); a write that cannot get the lock from another program in time raises
:class:`DatabaseBusyError` and changes nothing. ``storage.maintenance`` backs up, restores
and inspects a database file.
"""

from ._db import is_outage
from .boards import SORTS, BoardRow, Boards, PlayerStats, Season, Sort
from .connection import DatabaseBusyError, DatabaseUnavailableError
from .player_settings import PlayerSettings, PlayerSettingsStore
from .postgres import PoolOptions
from .presets import HousePreset, HousePresets, PresetLimitError
from .repository import ActionRow, ChannelBusyError, GameRepository, TableRecord
from .results import MatchResult, PlayerResult
from .settings import GuildSettings, GuildSettingsStore
from .tournaments import (
    TEAM_AWARDS,
    PlayerStanding,
    TeamStanding,
    Tournament,
    TournamentExistsError,
    Tournaments,
    TournamentStandings,
    TournamentTeam,
    UnknownTournamentError,
)

__all__ = [
    "SORTS",
    "TEAM_AWARDS",
    "ActionRow",
    "BoardRow",
    "Boards",
    "ChannelBusyError",
    "DatabaseBusyError",
    "DatabaseUnavailableError",
    "GameRepository",
    "GuildSettings",
    "GuildSettingsStore",
    "HousePreset",
    "HousePresets",
    "MatchResult",
    "PlayerResult",
    "PlayerSettings",
    "PlayerSettingsStore",
    "PlayerStanding",
    "PlayerStats",
    "PoolOptions",
    "PresetLimitError",
    "Season",
    "Sort",
    "TableRecord",
    "TeamStanding",
    "Tournament",
    "TournamentExistsError",
    "TournamentStandings",
    "TournamentTeam",
    "Tournaments",
    "UnknownTournamentError",
    "is_outage",
]
