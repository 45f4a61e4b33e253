"""The one place that talks SQL: tables, their snapshots and their action logs.

Every change is a compare-and-swap on the table's version, written in one transaction with
its actions, before anyone is shown the result. The database runs in WAL mode: readers never
block the writer, and a crash of the bot never loses a committed action.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import aiosqlite

from engine.errors import StaleStateError

from ._sql import transaction
from .boards import Boards
from .connection import (
    RUNNING_BUSY_TIMEOUT_MS,
    STARTUP_WAIT,
    WRITE_WAIT,
    DatabaseBusyError,
    DatabaseUnavailableError,
    WriteTurns,
    begin_immediate,
    connect,
    explain,
    shown_path,
)
from .results import MatchResult, record_result
from .settings import GuildSettingsStore
from .tournaments import Tournaments

LIVE_STATUSES = ("lobby", "playing")


class ChannelBusyError(Exception):
    """The channel already has a live table."""


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One row of ``tables``: the table's JSON ``state`` plus what queries need."""

    id: str
    guild_id: int
    channel_id: int
    status: str
    version: int
    state: dict[str, Any]
    seats: tuple[int, ...]  # user id per seat, in seat order
    message_id: int | None = None
    deadline: float | None = None
    created_at: float = 0.0
    updated_at: float = 0.0

    @property
    def is_live(self) -> bool:
        """A lobby or a game in progress."""
        return self.status in LIVE_STATUSES


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One logged action: ``seat`` is ``None`` for table-level actions."""

    seat: int | None
    action: str


def _migrations() -> list[tuple[int, str, str]]:
    """The numbered ``.sql`` files of ``storage/migrations``, in order."""
    found = []
    for entry in resources.files("storage.migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    return sorted(found)


class GameRepository:
    """Async access to the tables. Build it with :meth:`open`."""

    def __init__(
        self, db: aiosqlite.Connection, *, path: str = ":memory:", write_wait: float = WRITE_WAIT
    ) -> None:
        self._db = db
        self._path = path
        # One connection carries every table: transactions from different coroutines must
        # not interleave on it, so writers take turns (reads need no lock). Each turn waits
        # at most ``write_wait`` seconds for the lock when another program holds it.
        self._writing = WriteTurns(write_wait)
        # Boards, tournaments and settings share the connection and take the same turns.
        self.boards = Boards(db, self._writing)
        self.tournaments = Tournaments(db, self._writing)
        self.settings = GuildSettingsStore(db, self._writing)

    @classmethod
    async def open(
        cls, path: str, *, startup_wait: float = STARTUP_WAIT, write_wait: float = WRITE_WAIT
    ) -> GameRepository:
        """Connect, configure, migrate and test-write the database at ``path``.

        ``:memory:`` works. Anything that stops the bot from using the file (a missing folder,
        a damaged or read-only file, a lock held by another program for ``startup_wait``
        seconds, a schema newer than this code) raises :class:`DatabaseUnavailableError`, one
        sentence naming the path and what to do, with the connection closed. Once open, a
        write that cannot get the lock within ``write_wait`` seconds raises
        :class:`DatabaseBusyError` and changes nothing.
        """
        db = await connect(path, wait=startup_wait)
        try:
            repo = cls(db, path=path, write_wait=startup_wait)
            await repo.migrate()
            await repo._prove_writable()
            repo._writing.wait = write_wait
            await db.execute(f"PRAGMA busy_timeout = {RUNNING_BUSY_TIMEOUT_MS}")
        except BaseException as exc:
            await db.close()
            if isinstance(exc, DatabaseBusyError):
                locked = sqlite3.OperationalError("database is locked")
                raise explain(path, locked, waited=startup_wait) from exc
            raise explain(path, exc, waited=startup_wait) from exc
        return repo

    async def close(self) -> None:
        """Close the connection."""
        await self._db.close()

    async def _prove_writable(self) -> None:
        """Take the write lock, change a row and roll it back: a read-only file or folder, or
        a lock held elsewhere, shows up now, at start, not at the first player's move.
        Nothing is committed, so another process reading the database sees no write."""
        async with self._writing:
            await begin_immediate(self._db, self._writing.wait)
            try:
                await self._db.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('write probe', '')"
                )
            finally:
                await self._db.execute("ROLLBACK")

    async def migrate(self) -> list[str]:
        """Apply the migrations not applied yet, each in its own transaction.

        A database migrated by a newer version of the code (a version this code does not
        know) is refused before anything is written.
        """
        await self._db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL)"
        )
        async with self._db.execute("SELECT version FROM schema_migrations") as cursor:
            done = {row[0] for row in await cursor.fetchall()}
        known = _migrations()
        newest = max((version for version, _, _ in known), default=0)
        if done and max(done) > newest:
            where = shown_path(self._path)
            raise DatabaseUnavailableError(
                where,
                f"The database {where} was written by a newer version of the bot (schema "
                f"{max(done)}, this version knows up to {newest}); upgrade the bot, or "
                "restore a backup made by this version (uno-bot restore BACKUP_FILE).",
            )
        applied = []
        for version, name, sql in known:
            if version in done:
                continue
            async with transaction(self._db, self._writing):
                for statement in _statements(sql):
                    await self._db.execute(statement)
                await self._db.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", (version, name)
                )
            applied.append(name)
        return applied

    async def schema_version(self) -> int:
        """The highest applied migration."""
        async with self._db.execute("SELECT MAX(version) FROM schema_migrations") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    # -- reading ----------------------------------------------------------------------------

    async def load(self, table_id: str) -> TableRecord | None:
        """The table with this id, or ``None``."""
        async with self._db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)) as cursor:
            row = await cursor.fetchone()
        return await self._record(row) if row else None

    async def version_of(self, table_id: str) -> tuple[int, int | None] | None:
        """The table's stored version and message id, or ``None``: enough to tell whether a
        copy in memory is still current without reading (and parsing) the whole state."""
        async with self._db.execute(
            "SELECT version, message_id FROM tables WHERE id = ?", (table_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return int(row[0]), (int(row[1]) if row[1] is not None else None)

    async def live_id_in_channel(self, channel_id: int) -> str | None:
        """The id of the channel's lobby or running game, if any."""
        async with self._db.execute(
            "SELECT id FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return str(row[0]) if row else None

    async def live_in_channel(self, channel_id: int) -> TableRecord | None:
        """The channel's lobby or running game, if any."""
        async with self._db.execute(
            "SELECT * FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        ) as cursor:
            row = await cursor.fetchone()
        return await self._record(row) if row else None

    async def live_tables(self) -> list[TableRecord]:
        """Every lobby and running game, oldest first (to resume after a restart)."""
        async with self._db.execute(
            "SELECT * FROM tables WHERE status IN ('lobby', 'playing') ORDER BY created_at, id"
        ) as cursor:
            rows = list(await cursor.fetchall())
        return [await self._record(row) for row in rows]

    async def live_tables_of(self, user_id: int) -> list[TableRecord]:
        """The live tables where ``user_id`` has a seat."""
        async with self._db.execute(
            "SELECT t.* FROM tables t JOIN table_seats s ON s.table_id = t.id"
            " WHERE s.user_id = ? AND t.status IN ('lobby', 'playing') ORDER BY t.created_at",
            (user_id,),
        ) as cursor:
            rows = list(await cursor.fetchall())
        return [await self._record(row) for row in rows]

    async def actions(self, table_id: str) -> list[tuple[int, int | None, str]]:
        """The action log of a table: ``(version, seat, action)`` in order."""
        async with self._db.execute(
            "SELECT version, seat, action FROM actions WHERE table_id = ?"
            " ORDER BY version, position",
            (table_id,),
        ) as cursor:
            return [(row[0], row[1], row[2]) for row in await cursor.fetchall()]

    async def _record(self, row: sqlite3.Row) -> TableRecord:
        async with self._db.execute(
            "SELECT user_id FROM table_seats WHERE table_id = ? ORDER BY seat", (row["id"],)
        ) as cursor:
            seats = tuple(r[0] for r in await cursor.fetchall())
        return TableRecord(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            status=row["status"],
            version=row["version"],
            state=json.loads(row["state"]),
            seats=seats,
            message_id=row["message_id"],
            deadline=row["deadline"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )

    async def get_meta(self, key: str) -> str | None:
        """A stored fact about the bot, or ``None``."""
        async with self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cursor:
            row = await cursor.fetchone()
        return str(row[0]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store a fact about the bot."""
        async with transaction(self._db, self._writing):
            await self._db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    async def meta_keys(self, prefix: str) -> list[str]:
        """The stored facts whose key starts with ``prefix``, sorted."""
        async with self._db.execute(
            "SELECT key FROM meta WHERE substr(key, 1, length(?)) = ? ORDER BY key",
            (prefix, prefix),
        ) as cursor:
            return [str(row[0]) for row in await cursor.fetchall()]

    async def delete_meta(self, key: str) -> None:
        """Forget a stored fact (nothing happens if there is none)."""
        async with transaction(self._db, self._writing):
            await self._db.execute("DELETE FROM meta WHERE key = ?", (key,))

    # -- writing ----------------------------------------------------------------------------

    async def create(self, record: TableRecord, actions: Sequence[ActionRow] = ()) -> None:
        """Insert a new table; :class:`ChannelBusyError` if the channel has a live one."""
        async with self._writing:
            await self._create(record, actions)

    async def _create(self, record: TableRecord, actions: Sequence[ActionRow]) -> None:
        await begin_immediate(self._db, self._writing.wait)
        try:
            await self._db.execute(
                "INSERT INTO tables (id, guild_id, channel_id, status, version, state,"
                " message_id, deadline, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    record.guild_id,
                    record.channel_id,
                    record.status,
                    record.version,
                    _dump(record.state),
                    record.message_id,
                    record.deadline,
                    record.created_at,
                    record.updated_at,
                ),
            )
            await self._write_seats_and_actions(record, actions)
        except sqlite3.IntegrityError as exc:
            await self._db.execute("ROLLBACK")
            if "tables_one_live_per_channel" in str(exc) or "channel_id" in str(exc):
                raise ChannelBusyError(record.channel_id) from None
            raise
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        await self._db.execute("COMMIT")

    async def save(
        self,
        record: TableRecord,
        *,
        expected_version: int,
        actions: Sequence[ActionRow] = (),
        result: MatchResult | None = None,
    ) -> None:
        """Replace the table's state if its stored version is still ``expected_version``.

        The new state, its seats and its actions are written in one transaction; if another
        writer got there first, nothing is written and :class:`StaleStateError` is raised.
        With ``result`` (the table must be "finished"), the match is recorded in the same
        transaction: boards, stats, ratings and tournament. A table's result counts once,
        however many saves carry it.
        """
        if record.version <= expected_version:
            raise ValueError("a save must move the version forward")
        if result is not None and (
            record.status != "finished"
            or result.table_id != record.id
            or result.guild_id != record.guild_id
        ):
            raise ValueError("a result belongs to its own table, saved as finished")
        async with self._writing:
            await self._save(record, expected_version, actions, result)

    async def _save(
        self,
        record: TableRecord,
        expected_version: int,
        actions: Sequence[ActionRow],
        result: MatchResult | None = None,
    ) -> None:
        await begin_immediate(self._db, self._writing.wait)
        try:
            cursor = await self._db.execute(
                "UPDATE tables SET status = ?, version = ?, state = ?, message_id = ?,"
                " deadline = ?, updated_at = ? WHERE id = ? AND version = ?",
                (
                    record.status,
                    record.version,
                    _dump(record.state),
                    record.message_id,
                    record.deadline,
                    record.updated_at,
                    record.id,
                    expected_version,
                ),
            )
            if cursor.rowcount != 1:
                raise StaleStateError(
                    f"table {record.id} is no longer at version {expected_version}"
                )
            await self._db.execute("DELETE FROM table_seats WHERE table_id = ?", (record.id,))
            await self._write_seats_and_actions(record, actions)
            if result is not None:
                await record_result(self._db, result)
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        await self._db.execute("COMMIT")

    async def set_message(self, table_id: str, message_id: int | None) -> None:
        """Remember the public table message (not a state change: no version bump)."""
        async with transaction(self._db, self._writing):
            await self._db.execute(
                "UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id)
            )

    async def _write_seats_and_actions(
        self, record: TableRecord, actions: Sequence[ActionRow]
    ) -> None:
        await self._db.executemany(
            "INSERT INTO table_seats (table_id, seat, user_id) VALUES (?, ?, ?)",
            [(record.id, seat, user) for seat, user in enumerate(record.seats)],
        )
        await self._db.executemany(
            "INSERT INTO actions (table_id, version, position, seat, action, at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [
                (record.id, record.version, i, a.seat, a.action, record.updated_at)
                for i, a in enumerate(actions)
            ],
        )


def _dump(state: dict[str, Any]) -> str:
    return json.dumps(state, separators=(",", ":"), sort_keys=True)


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (ours hold no semicolons inside literals)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]
