"""The one place that talks SQL: tables, their snapshots and their action logs.

Every change is a compare-and-swap on the table's version, written in one transaction with
its actions, before anyone is shown the result. The same code runs on SQLite (one file, WAL
mode: readers never block the writer, and a crash of the bot never loses a committed action)
and on PostgreSQL (several processes on one database); ``storage._db`` hides the difference.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engine.errors import StaleStateError

from . import compaction, postgres
from ._db import (
    MIGRATIONS_LOCK,
    Batch,
    Database,
    Dialect,
    Executor,
    Row,
    SqliteDatabase,
    unique_violation,
)
from .boards import Boards
from .connection import (
    RUNNING_BUSY_TIMEOUT_MS,
    STARTUP_WAIT,
    WRITE_WAIT,
    DatabaseUnavailableError,
    WriteTurns,
    connect,
    explain,
    shown_path,
)
from .player_settings import PlayerSettingsStore
from .postgres import DEFAULT_POOL, PoolOptions
from .presets import HousePresets
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


def _migrations(dialect: Dialect = "sqlite") -> list[tuple[int, str, str]]:
    """The numbered ``.sql`` files of ``storage/migrations``, in order. For PostgreSQL, a file of
    the same name in its ``postgresql`` folder stands in for one whose SQL differs there (types,
    collations); where the two dialects read the same SQL, there is one file."""
    folder = resources.files("storage.migrations")
    own = folder / "postgresql"
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            if dialect == "postgresql" and own.joinpath(name).is_file():
                entry = own / name
            found.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    return sorted(found)


class GameRepository:
    """Async access to the tables. Build it with :meth:`open`."""

    def __init__(self, db: Database, *, path: str = ":memory:") -> None:
        self._db = db
        self._path = path
        self._startup_wait = STARTUP_WAIT
        # Boards, tournaments and settings share the database and its write transactions.
        self.boards = Boards(db)
        self.tournaments = Tournaments(db)
        self.settings = GuildSettingsStore(db)
        self.presets = HousePresets(db)
        self.player_settings = PlayerSettingsStore(db)
        self._columns = _COLUMNS.format(seats=_SEATS[db.dialect])
        # The seats of each live table at the version this process last wrote or read.
        self._seats: dict[str, tuple[int, tuple[int, ...]]] = {}

    @property
    def dialect(self) -> Dialect:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._db.dialect

    @property
    def db(self) -> Database:
        """The database itself (for maintenance jobs, the transfer command and tests)."""
        return self._db

    @classmethod
    async def open(
        cls,
        path: str,
        *,
        startup_wait: float = STARTUP_WAIT,
        write_wait: float = WRITE_WAIT,
        pool: PoolOptions = DEFAULT_POOL,
        synchronous: str = "FULL",
    ) -> GameRepository:
        """Connect, configure, migrate and test-write the database at ``path``: an SQLite
        file, or a PostgreSQL database when ``path`` is a ``postgresql://`` URL (``pool``
        sizes its connection pool). ``synchronous`` is SQLite's durability: ``FULL`` (every
        commit synced to disk: an acknowledged move survives a power cut) or ``NORMAL``
        (synced at checkpoints: a power cut can roll back the last moves, never corrupt the
        file); PostgreSQL commits are durable by default.

        ``:memory:`` works. Anything that stops the bot from using the database (a missing
        folder, a damaged or read-only file, an unreachable server, a lock held by another
        program for ``startup_wait`` seconds, a schema newer than this code) raises
        :class:`DatabaseUnavailableError`, one sentence naming the path or server and what to
        do, with the connection closed. Once open, a write that cannot get the lock within
        ``write_wait`` seconds raises :class:`DatabaseBusyError` and changes nothing.
        """
        if postgres.is_url(path):
            return await cls._open_postgres(
                path, startup_wait=startup_wait, write_wait=write_wait, pool=pool
            )
        connection = await connect(path, wait=startup_wait, synchronous=synchronous)
        writing = WriteTurns(startup_wait)
        try:
            repo = cls(SqliteDatabase(connection, writing), path=path)
            await repo.migrate()
            await repo._prove_writable()
            writing.wait = write_wait
            await connection.execute(f"PRAGMA busy_timeout = {RUNNING_BUSY_TIMEOUT_MS}")
        except BaseException as exc:
            await connection.close()
            raise explain(path, exc, waited=startup_wait) from exc
        return repo

    @classmethod
    async def _open_postgres(
        cls, url: str, *, startup_wait: float, write_wait: float, pool: PoolOptions
    ) -> GameRepository:
        db = await postgres.open_pool(
            url, options=pool, startup_wait=startup_wait, write_wait=write_wait
        )
        try:
            repo = cls(db, path=postgres.shown_url(url))
            repo._startup_wait = startup_wait
            await repo.migrate()
            await repo._prove_writable()
        except BaseException as exc:
            await db.close()
            raise postgres.explain(url, exc, waited=startup_wait) from exc
        return repo

    async def close(self) -> None:
        """Close the connection (SQLite) or the pool (PostgreSQL)."""
        await self._db.close()

    async def _prove_writable(self) -> None:
        """Take the write lock, change a row and roll it back: a read-only file or folder, or
        a lock held elsewhere, shows up now, at start, not at the first player's move.
        Nothing is committed, so another process reading the database sees no write."""

        class _ProbeError(Exception):
            pass

        try:
            async with self._db.transaction() as tx:
                await tx.execute(
                    "INSERT INTO meta (key, value) VALUES ('write probe', '')"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                )
                raise _ProbeError
        except _ProbeError:
            pass

    async def migrate(self) -> list[str]:
        """Apply the migrations not applied yet, in one transaction (processes starting
        together on one PostgreSQL database take turns: one applies, the others find them
        done).

        A database migrated by a newer version of the code (a version this code does not
        know) is refused before anything is written.
        """
        async with self._db.transaction() as tx:
            if self.dialect == "postgresql":
                # Another process may be migrating: wait for it as long as start-up waits
                # for anything (the pool's lock_timeout is the shorter write wait).
                await tx.execute(f"SET LOCAL lock_timeout = {int(self._startup_wait * 1000)}")
            await tx.serialise(MIGRATIONS_LOCK)
            await tx.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL)"
            )
            done = {row[0] for row in await tx.fetchall("SELECT version FROM schema_migrations")}
            known = _migrations(self._db.dialect)
            newest = max((version for version, _, _ in known), default=0)
            if done and max(done) > newest:
                where = shown_path(self._path) if self.dialect == "sqlite" else self._path
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
                for statement in _statements(sql):
                    await tx.execute(statement)
                await tx.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", (version, name)
                )
                applied.append(name)
        return applied

    async def schema_version(self) -> int:
        """The highest applied migration."""
        value = await self._db.fetchval("SELECT MAX(version) FROM schema_migrations")
        return int(value) if value is not None else 0

    # -- reading ----------------------------------------------------------------------------

    async def load(self, table_id: str) -> TableRecord | None:
        """The table with this id, or ``None``."""
        row = await self._db.fetchone(
            f"SELECT {self._columns} FROM tables t WHERE id = ?", (table_id,)
        )
        if row is None:
            return None
        state = None
        if row["state"] == "":  # a finished table, compacted: its state is in its record
            squeezed = await self._db.fetchval(
                "SELECT state FROM table_records WHERE table_id = ?", (table_id,)
            )
            state = compaction.unsqueeze(squeezed)
        return self._seen(_record(row, state))

    async def version_of(self, table_id: str) -> tuple[int, int | None] | None:
        """The table's stored version and message id, or ``None``: enough to tell whether a
        copy in memory is still current without reading (and parsing) the whole state."""
        row = await self._db.fetchone(
            "SELECT version, message_id FROM tables WHERE id = ?", (table_id,)
        )
        if row is None:
            return None
        return int(row[0]), (int(row[1]) if row[1] is not None else None)

    async def live_id_in_channel(self, channel_id: int) -> str | None:
        """The id of the channel's lobby or running game, if any."""
        value = await self._db.fetchval(
            "SELECT id FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        )
        return str(value) if value is not None else None

    async def live_in_channel(self, channel_id: int) -> TableRecord | None:
        """The channel's lobby or running game, if any."""
        row = await self._db.fetchone(
            f"SELECT {self._columns} FROM tables t"
            " WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        )
        return self._seen(_record(row)) if row else None

    async def live_tables(self) -> list[TableRecord]:
        """Every lobby and running game, oldest first (to resume after a restart)."""
        rows = await self._db.fetchall(
            f"SELECT {self._columns} FROM tables t"
            " WHERE status IN ('lobby', 'playing') ORDER BY created_at, id"
        )
        return [self._seen(_record(row)) for row in rows]

    async def live_tables_of(self, user_id: int) -> list[TableRecord]:
        """The live tables where ``user_id`` has a seat."""
        rows = await self._db.fetchall(
            f"SELECT {self._columns} FROM tables t JOIN table_seats s ON s.table_id = t.id"
            " WHERE s.user_id = ? AND t.status IN ('lobby', 'playing') ORDER BY t.created_at",
            (user_id,),
        )
        return [self._seen(_record(row)) for row in rows]

    def _seen(self, record: TableRecord) -> TableRecord:
        self._remember_seats(record)
        return record

    async def actions(self, table_id: str) -> list[tuple[int, int | None, str]]:
        """The action log of a table: ``(version, seat, action)`` in order."""
        rows = await self._db.fetchall(
            "SELECT version, seat, action FROM actions WHERE table_id = ?"
            " ORDER BY version, position",
            (table_id,),
        )
        lines = [(int(row[0]), row[1], str(row[2])) for row in rows]
        record = await self._db.fetchval(
            "SELECT record FROM table_records WHERE table_id = ?", (table_id,)
        )
        # A finished table's log may have been compacted into one record (storage.compaction).
        return compaction.decode(record) + lines if record is not None else lines

    async def tidy(
        self, now: float, *, retention_days: int = compaction.RETENTION_DAYS
    ) -> tuple[int, int]:
        """Compact the logs of finished tables and delete those past ``retention_days``
        (``storage.compaction``); ``(compacted, deleted)``."""
        return await compaction.tidy(self._db, now=now, retention_days=retention_days)

    async def keep_bounded(self, *, retention_days: int = compaction.RETENTION_DAYS) -> None:
        """:meth:`tidy` now and every ten minutes, until cancelled (the bot runs it)."""
        await compaction.keep_bounded(self._db, retention_days=retention_days)

    async def get_meta(self, key: str) -> str | None:
        """A stored fact about the bot, or ``None``."""
        value = await self._db.fetchval("SELECT value FROM meta WHERE key = ?", (key,))
        return str(value) if value is not None else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store a fact about the bot."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    async def meta_keys(self, prefix: str) -> list[str]:
        """The stored facts whose key starts with ``prefix``, sorted."""
        rows = await self._db.fetchall(
            "SELECT key FROM meta WHERE substr(key, 1, length(CAST(? AS TEXT)))"
            " = CAST(? AS TEXT) ORDER BY key",
            (prefix, prefix),
        )
        return [str(row[0]) for row in rows]

    async def delete_meta(self, key: str) -> None:
        """Forget a stored fact (nothing happens if there is none)."""
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM meta WHERE key = ?", (key,))

    # -- writing ----------------------------------------------------------------------------

    async def create(self, record: TableRecord, actions: Sequence[ActionRow] = ()) -> None:
        """Insert a new table; :class:`ChannelBusyError` if the channel has a live one."""
        try:
            async with self._db.transaction() as tx:
                await tx.execute(
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
                await _write_seats(tx, record)
                await _write_actions(tx, record, actions)
        except Exception as exc:
            broken = unique_violation(exc)
            if broken and ("tables_one_live_per_channel" in broken or "channel_id" in broken):
                raise ChannelBusyError(record.channel_id) from None
            raise
        self._remember_seats(record)

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
        # The seats rarely change: when this process knows those of the version the save
        # starts from and they are the same, they are not rewritten. On PostgreSQL such a
        # move (no result) is then one statement: one round trip, its own transaction. On
        # SQLite any save without a result is one trip to aiosqlite's thread.
        seats_known = self._seats.get(record.id) == (expected_version, record.seats)
        if seats_known and result is None and self.dialect == "postgresql":
            changed = await self._db.write_one(
                _PG_SAVE,
                (
                    *_update_params(record, expected_version),
                    [a.seat for a in actions],
                    [a.action for a in actions],
                ),
            )
        elif result is None:
            then: list[Batch] = []
            if not seats_known:
                then.append(("DELETE FROM table_seats WHERE table_id = ?", [(record.id,)]))
                then.append((_INSERT_SEATS, _seat_rows(record)))
            then.append((_INSERT_ACTIONS, _action_rows(record, actions)))
            changed = await self._db.swap(_UPDATE, _update_params(record, expected_version), then)
        else:
            async with self._db.transaction() as tx:
                changed = await tx.execute(_UPDATE, _update_params(record, expected_version))
                if changed == 1:
                    if not seats_known:
                        await tx.execute("DELETE FROM table_seats WHERE table_id = ?", (record.id,))
                        await _write_seats(tx, record)
                    await _write_actions(tx, record, actions)
                    if result is not None:
                        await record_result(tx, result)
        if changed != 1:
            self._seats.pop(record.id, None)
            raise StaleStateError(f"table {record.id} is no longer at version {expected_version}")
        self._remember_seats(record)

    def _remember_seats(self, record: TableRecord) -> None:
        if record.is_live:
            self._seats[record.id] = (record.version, record.seats)
        else:
            self._seats.pop(record.id, None)  # no more moves: nothing to remember

    async def set_message(self, table_id: str, message_id: int | None) -> None:
        """Remember the public table message (not a state change: no version bump)."""
        await self._db.write_one(
            "UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id)
        )


_UPDATE = (
    "UPDATE tables SET status = ?, version = ?, state = ?, message_id = ?,"
    " deadline = ?, updated_at = ? WHERE id = ? AND version = ?"
)
# One move on PostgreSQL in one statement: the compare-and-swap, and the action lines only
# if it matched (the data-changing WITH clauses run once, all or nothing).
_PG_SAVE = """WITH moved AS (
    UPDATE tables SET status = $1, version = $2, state = $3, message_id = $4,
        deadline = $5, updated_at = $6
    WHERE id = $7 AND version = $8 RETURNING id
), logged AS (
    INSERT INTO actions (table_id, version, position, seat, action, at)
    SELECT moved.id, $2, a.position - 1, a.seat, a.action, $6
    FROM moved, unnest($9::integer[], $10::text[]) WITH ORDINALITY AS a (seat, action, position)
)
SELECT count(*) FROM moved"""


def _update_params(record: TableRecord, expected_version: int) -> tuple[object, ...]:
    return (
        record.status,
        record.version,
        _dump(record.state),
        record.message_id,
        record.deadline,
        record.updated_at,
        record.id,
        expected_version,
    )


# The seats ride along with the row (one query, not one per table): ``seats`` is the user ids
# in seat order, comma-separated ('' for none).
_SEATS = {
    "sqlite": "(SELECT group_concat(user_id, ',') FROM"
    " (SELECT user_id FROM table_seats WHERE table_id = t.id ORDER BY seat))",
    "postgresql": "(SELECT string_agg(user_id::text, ',' ORDER BY seat) FROM table_seats"
    " WHERE table_id = t.id)",
}
_COLUMNS = (
    "t.id, t.guild_id, t.channel_id, t.status, t.version, t.state, t.message_id, t.deadline,"
    " t.created_at, t.updated_at, {seats} AS seats"
)


def _record(row: Row, state: str | None = None) -> TableRecord:
    seats = row["seats"]
    return TableRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        status=row["status"],
        version=row["version"],
        state=json.loads(row["state"] if state is None else state),
        seats=tuple(int(user) for user in seats.split(",")) if seats else (),
        message_id=row["message_id"],
        deadline=row["deadline"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


_INSERT_SEATS = "INSERT INTO table_seats (table_id, seat, user_id) VALUES (?, ?, ?)"
_INSERT_ACTIONS = (
    "INSERT INTO actions (table_id, version, position, seat, action, at) VALUES (?, ?, ?, ?, ?, ?)"
)


def _seat_rows(record: TableRecord) -> list[tuple[object, ...]]:
    return [(record.id, seat, user) for seat, user in enumerate(record.seats)]


def _action_rows(record: TableRecord, actions: Sequence[ActionRow]) -> list[tuple[object, ...]]:
    return [
        (record.id, record.version, i, a.seat, a.action, record.updated_at)
        for i, a in enumerate(actions)
    ]


async def _write_seats(tx: Executor, record: TableRecord) -> None:
    await tx.executemany(_INSERT_SEATS, _seat_rows(record))


async def _write_actions(tx: Executor, record: TableRecord, actions: Sequence[ActionRow]) -> None:
    await tx.executemany(_INSERT_ACTIONS, _action_rows(record, actions))


def _dump(state: dict[str, Any]) -> str:
    return json.dumps(state, separators=(",", ":"), sort_keys=True)


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (ours hold no semicolons inside literals)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]
