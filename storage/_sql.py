"""Small helpers shared by the storage modules: the current season."""

from __future__ import annotations

from ._db import Executor

# Season 1 has no row until the first new_season(): the current season is the highest row.
CURRENT_SEASON = "(SELECT COALESCE(MAX(season), 1) FROM seasons WHERE guild_id = ?)"


async def current_season(db: Executor, guild_id: int) -> int:
    """The server's current season (1 until the first new season)."""
    value = await db.fetchval(f"SELECT {CURRENT_SEASON}", (guild_id,))
    return int(value) if value is not None else 1


async def season_of(db: Executor, guild_id: int, season: int | None) -> int:
    """``season`` itself, or the server's current season for ``None``."""
    if season is not None:
        if season < 1:
            raise ValueError("seasons are numbered from 1")
        return season
    return await current_season(db, guild_id)
