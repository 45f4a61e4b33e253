"""Small helpers shared by the storage modules: transactions and the current season."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiosqlite

from .connection import WRITE_WAIT, WriteTurns, begin_immediate

# Season 1 has no row until the first new_season(): the current season is the highest row.
CURRENT_SEASON = "(SELECT COALESCE(MAX(season), 1) FROM seasons WHERE guild_id = :guild)"


@asynccontextmanager
async def transaction(db: aiosqlite.Connection, lock: asyncio.Lock) -> AsyncIterator[None]:
    """One write transaction; the lock keeps other coroutines' transactions off the connection.

    Waiting for another program's lock is bounded (:class:`~storage.connection.WriteTurns`):
    past it, :class:`~storage.connection.DatabaseBusyError` and nothing is written.
    """
    async with lock:
        await begin_immediate(db, lock.wait if isinstance(lock, WriteTurns) else WRITE_WAIT)
        try:
            yield
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")


async def season_of(db: aiosqlite.Connection, guild_id: int, season: int | None) -> int:
    """``season`` itself, or the server's current season for ``None``."""
    if season is not None:
        if season < 1:
            raise ValueError("seasons are numbered from 1")
        return season
    async with db.execute(f"SELECT {CURRENT_SEASON}", {"guild": guild_id}) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 1
