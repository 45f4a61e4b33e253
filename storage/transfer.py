"""Moving an SQLite database into PostgreSQL (``uno-bot transfer``).

Everything the bot keeps is copied: tables (live and finished, their seats, logs and
compacted records), match results and each player's result, the boards and ratings,
server settings, house presets and players' own settings, seasons, tournaments and their
teams, and the bot's own facts (``meta``).
The source is brought up to this version's schema first, as the bot does when it starts,
then read in one transaction (a consistent copy); the target is migrated and filled in one
transaction: it gets everything or nothing. The target must hold no games yet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import postgres
from ._db import Executor, SqliteDatabase
from .connection import DatabaseUnavailableError
from .repository import GameRepository

#: In the order the foreign keys need. ``tournament_teams`` rows are read in the order they
#: were written (SQLite's rowid), which is the order PostgreSQL numbers them in.
TABLES: tuple[tuple[str, str], ...] = (
    ("meta", "key"),
    ("guild_settings", "guild_id"),
    ("house_presets", "guild_id, key"),
    ("player_settings", "user_id"),
    ("seasons", "guild_id, season"),
    ("tournaments", "id"),
    ("tournament_teams", "rowid"),
    ("tables", "created_at, id"),
    ("table_seats", "table_id, seat"),
    ("actions", "table_id, version, position"),
    ("table_records", "table_id"),
    ("match_results", "table_id"),
    ("player_results", "rowid"),
    ("player_stats", "guild_id, season, user_id"),
)
CHUNK = 1000


@dataclass(frozen=True)
class TransferReport:
    """What was copied: rows per table, in copy order."""

    source: str
    target: str
    rows: tuple[tuple[str, int], ...]


async def transfer(
    source: str, target: str, *, say: Callable[[str], None] = lambda _: None
) -> TransferReport:
    """Copy the SQLite database ``source`` into the empty PostgreSQL database ``target``."""
    if not postgres.is_url(target):
        raise DatabaseUnavailableError(
            target, f"Cannot transfer to {target}: name a postgresql:// database."
        )
    if postgres.is_url(source):
        raise DatabaseUnavailableError(
            postgres.shown_url(source),
            "Cannot transfer from PostgreSQL: name the SQLite file to copy.",
        )
    old = await GameRepository.open(source)
    try:
        new = await GameRepository.open(target)
        try:
            where = postgres.shown_url(target)
            rows: list[tuple[str, int]] = []
            source_db = old.db
            assert isinstance(source_db, SqliteDatabase)  # refused above otherwise
            async with source_db.transaction(), new.db.transaction() as writing:
                await _refuse_filled(writing, where)
                for name, order in TABLES:
                    copied = await _copy(source_db, writing, name, order)
                    rows.append((name, copied))
                    say(f"{name}: {copied} rows")
                await writing.execute(
                    "SELECT setval(pg_get_serial_sequence('tournaments', 'id'),"
                    " COALESCE((SELECT MAX(id) FROM tournaments), 0) + 1, false)"
                )
        finally:
            await new.close()
    finally:
        await old.close()
    return TransferReport(source, where, tuple(rows))


async def _refuse_filled(tx: Executor, where: str) -> None:
    for name, _ in TABLES:
        if await tx.fetchval(f"SELECT 1 FROM {name} LIMIT 1") is not None:
            raise DatabaseUnavailableError(
                where,
                f"The PostgreSQL database {where} already holds the bot's data ({name} is not "
                "empty); transfer copies into an empty database only: create a new one "
                "(createdb) or name another schema (?search_path=...).",
            )


async def _copy(reading: SqliteDatabase, writing: Executor, name: str, order: str) -> int:
    columns = [str(row[1]) for row in await reading.fetchall(f"PRAGMA table_info({name})")]
    listed = ", ".join(columns)
    insert = f"INSERT INTO {name} ({listed}) VALUES ({', '.join('?' * len(columns))})"
    copied = 0
    # One pass over the source, CHUNK rows at a time (a million actions never sit in memory).
    async with reading.connection.execute(f"SELECT {listed} FROM {name} ORDER BY {order}") as rows:
        while chunk := [tuple(row) for row in await rows.fetchmany(CHUNK)]:
            await writing.executemany(insert, chunk)
            copied += len(chunk)
    return copied
