"""One small interface over the two database engines, so every query is written once.

The storage modules talk to an :class:`Executor`: ``fetchone``, ``fetchall``, ``fetchval``,
``execute`` (the number of rows changed) and ``executemany``, with ``?`` placeholders. A
:class:`Database` is an executor for reads plus :meth:`Database.transaction`, which hands out
the executor that every statement of one write transaction runs on.

- :class:`SqliteDatabase` (aiosqlite): one connection; writers take turns on it
  (:class:`~storage.connection.WriteTurns`) and each transaction is ``BEGIN IMMEDIATE``, so
  writes are serialised and never wait inside SQLite for long. Every read, and every write
  that is known in full before it starts (:meth:`Database.write_one`, :meth:`Database.swap`),
  is *one trip* to aiosqlite's thread: each trip is a queue hand-off to that thread and a
  wake-up of the event loop, which cost more CPU than the statements of a move themselves.
- :class:`PostgresDatabase` (asyncpg): a pool; a transaction borrows one connection, reads
  use any. ``?`` becomes ``$1, $2, …``. A read or a one-statement write is one round trip
  (:class:`~storage.postgres.PooledConnection` sends no reset query when a connection goes
  back to the pool). Writes that must not interleave with another
  process's (a server's results, the migrations) take a transaction-level advisory lock
  (:meth:`Executor.serialise`); on SQLite that is already true of every write.

Rows are read by column name or position (``sqlite3.Row`` and ``asyncpg.Record`` both are).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import lru_cache
from typing import Any, Literal, Protocol, TypeVar, cast

import aiosqlite
import asyncpg

from .connection import (
    UNREACHABLE_CODES,
    DatabaseBusyError,
    WriteTurns,
    execute_when_free,
    is_busy,
    retry_while_busy,
)

Dialect = Literal["sqlite", "postgresql"]
Params = Sequence[object]
#: A statement and the parameter rows it runs with, once each.
Batch = tuple[str, Sequence[Params]]

T = TypeVar("T")

#: Advisory lock keys (PostgreSQL): migrations, and a server's results and seasons.
MIGRATIONS_LOCK = 0x554E4F00  # "UNO\0"


class Row(Protocol):
    """A result row, read by column name or position."""

    def __getitem__(self, key: int | str, /) -> Any: ...


class Executor(ABC):
    """Something statements run on: the database outside a transaction, or one transaction."""

    dialect: Dialect

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query."""

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, or ``None``."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row, or ``None``."""
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it inserted, changed or deleted."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        """Run one statement once per parameter row."""

    async def serialise(self, key: int) -> None:  # noqa: B027 - a no-op unless overridden
        """Inside a transaction: wait until no other transaction holds ``key``, and hold it
        until this one ends. SQLite's writes are serialised already: nothing to do."""


class Database(Executor):
    """An executor for reads, and write transactions."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Executor]:
        """``async with db.transaction() as tx:`` one write transaction (an :class:`Executor`),
        committed when the block ends, rolled back if it raises."""

    async def write_one(self, sql: str, params: Params = ()) -> int:
        """One statement as a write transaction of its own; the rows it changed (or, for a
        statement that returns a row, its first column). One round trip on PostgreSQL, one
        trip to aiosqlite's thread on SQLite."""
        async with self.transaction() as tx:
            return await tx.execute(sql, params)

    async def swap(self, sql: str, params: Params, then: Sequence[Batch] = ()) -> int:
        """A compare-and-swap write: ``sql`` (an ``UPDATE`` guarded by the version it expects)
        and, only if it changed exactly one row, each statement of ``then`` once per
        parameter row — all in one transaction, nothing written when the guard fails.
        Returns the rows ``sql`` changed. One trip to aiosqlite's thread on SQLite."""
        async with self.transaction() as tx:
            changed = await tx.execute(sql, params)
            if changed == 1:
                for statement, rows in then:
                    await tx.executemany(statement, rows)
            return changed

    @abstractmethod
    async def close(self) -> None:
        """Close the connection or pool."""


# -- SQLite ---------------------------------------------------------------------------------


class SqliteDatabase(Database):
    """aiosqlite: one connection, writers in turn, ``BEGIN IMMEDIATE`` transactions.

    aiosqlite runs each call on its connection's thread, one trip (a queue hand-off there and
    a wake-up of the event loop back) per call; reading a row through a cursor took three
    (execute, fetch, close), and a move's transaction five. Here each read, and each write
    known in full beforehand, is one function run on that thread (:meth:`_trip`): the
    statements go to SQLite back to back, as one trip.
    """

    dialect: Dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, writing: WriteTurns) -> None:
        self.connection = connection
        self.writing = writing

    async def _trip(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` with the sqlite3 connection on aiosqlite's thread: one trip.

        aiosqlite has no public call for this; ``_execute`` (queue a function for the thread)
        and ``_conn`` (the sqlite3 connection, used on that thread only) are what its own
        methods are made of, alike in every version we support (0.20 to 0.22, the floors
        of ``constraints/floors.txt`` included)."""
        connection: Any = self.connection  # its private methods are untyped
        return cast(T, await connection._execute(lambda: work(connection._conn)))

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._trip(lambda db: list(db.execute(sql, params).fetchall()))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = await self._trip(lambda db: db.execute(sql, params).fetchone())
        return row

    async def execute(self, sql: str, params: Params = ()) -> int:
        return await self._trip(lambda db: int(db.execute(sql, params).rowcount))

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        if rows:
            await self._trip(lambda db: db.executemany(sql, rows))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        async with self.writing:
            await execute_when_free(self.connection, "BEGIN IMMEDIATE", self.writing.wait)
            try:
                yield self
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            await self.connection.execute("COMMIT")

    async def write_one(self, sql: str, params: Params = ()) -> int:
        return await self._written(sql, params, (), guarded=False)

    async def swap(self, sql: str, params: Params, then: Sequence[Batch] = ()) -> int:
        return await self._written(sql, params, then, guarded=True)

    async def _written(
        self, sql: str, params: Params, then: Sequence[Batch], *, guarded: bool
    ) -> int:
        """``BEGIN IMMEDIATE``, the statements, ``COMMIT`` (or ``ROLLBACK`` when ``guarded``
        and ``sql`` changed no row) in one trip. While another program holds the write lock,
        the trip is tried again from the event loop (never waiting inside SQLite for long:
        reads queued behind it would wait too), up to the write wait."""

        def work(db: sqlite3.Connection) -> int:
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if is_busy(exc):
                    return _BUSY
                raise
            try:
                changed = int(db.execute(sql, params).rowcount)
                if guarded and changed != 1:
                    db.execute("ROLLBACK")
                    return changed
                for statement, rows in then:
                    if rows:
                        db.executemany(statement, rows)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return changed

        async with self.writing:
            return await retry_while_busy(lambda: self._trip(work), _BUSY, self.writing.wait)

    async def close(self) -> None:
        await self.connection.close()


#: What a write trip returns when another program held the write lock (no row count is < 0).
_BUSY = -1


# -- PostgreSQL -----------------------------------------------------------------------------

_MARK = re.compile(r"\?")


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, …`` (our SQL has no ``?`` in literals)."""
    counter = iter(range(1, 10_000))
    return _MARK.sub(lambda _: f"${next(counter)}", sql)


def changed(status: str) -> int:
    """The row count in a command tag such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PgExecutor(Executor):
    dialect: Dialect = "postgresql"

    def __init__(self, target: Any) -> None:
        self._target = target  # an asyncpg connection or pool: both have fetch and execute

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        rows: list[Row] = await self._target.fetch(numbered(sql), *params)
        return rows

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = await self._target.fetchrow(numbered(sql), *params)
        return row

    async def execute(self, sql: str, params: Params = ()) -> int:
        status: str = await self._target.execute(numbered(sql), *params)
        return changed(status)

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        if rows:
            await self._target.executemany(numbered(sql), rows)

    async def serialise(self, key: int) -> None:
        # Advisory locks are per database: the key is mixed with the schema, so bots (or
        # tests) in different schemas of one database never wait for each other.
        await self._target.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ':' || $1, 0))",
            str(key),
        )


class PostgresDatabase(_PgExecutor, Database):
    """asyncpg: a pool; each transaction on one borrowed connection."""

    def __init__(self, pool: Any, *, write_wait: float) -> None:
        super().__init__(pool)
        self.pool = pool
        self.write_wait = write_wait

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        """A write transaction. Waiting for a free connection, or for another client's lock
        (the pool's ``lock_timeout``), is bounded by the write wait: past it,
        :class:`~storage.connection.DatabaseBusyError` and nothing is written."""
        try:
            async with (
                self.pool.acquire(timeout=self.write_wait) as connection,
                connection.transaction(),
            ):
                yield _PgExecutor(connection)
        except (asyncpg.LockNotAvailableError, TimeoutError) as exc:
            raise DatabaseBusyError(self.write_wait) from exc

    async def write_one(self, sql: str, params: Params = ()) -> int:
        try:
            async with self.pool.acquire(timeout=self.write_wait) as connection:
                if sql.lstrip().upper().startswith("WITH"):
                    return int(await connection.fetchval(numbered(sql), *params) or 0)
                return changed(await connection.execute(numbered(sql), *params))
        except (asyncpg.LockNotAvailableError, TimeoutError) as exc:
            raise DatabaseBusyError(self.write_wait) from exc

    async def close(self) -> None:
        await asyncio.wait_for(self.pool.close(), timeout=10)


def unique_violation(exc: BaseException) -> str | None:
    """The text naming the broken uniqueness rule when ``exc`` is one (either engine), else
    ``None``: SQLite's message, or PostgreSQL's constraint name and detail."""
    if isinstance(exc, sqlite3.IntegrityError) and "UNIQUE" in str(exc).upper():
        return str(exc)
    if isinstance(exc, asyncpg.UniqueViolationError):
        return f"{exc.constraint_name} {exc}"
    return None


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached or used for now (a server
    restarting or gone, a lost connection, a file that cannot be opened or written, another
    program holding the lock) rather than a mistake in a query: the same operation may
    succeed when it is tried again later."""
    if isinstance(exc, DatabaseBusyError | TimeoutError | ConnectionError):
        return True
    if isinstance(
        exc,
        asyncpg.PostgresConnectionError
        | asyncpg.exceptions.OperatorInterventionError
        | asyncpg.exceptions.InsufficientResourcesError
        | asyncpg.InterfaceError,
    ):
        return True
    if isinstance(exc, asyncpg.InternalClientError) and not isinstance(
        exc, asyncpg.exceptions.OutdatedSchemaCacheError
    ):
        # "cannot switch to state 12; another operation (2) is in progress": a pooled
        # connection the server ended (a restart, an administrator) while asyncpg still
        # read its farewell; the next try gets a fresh connection. A changed schema under a
        # cached statement is a different matter.
        return True
    if isinstance(exc, OSError):
        return True
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.Error) and (
        is_busy(exc) or (isinstance(code, int) and code & 0xFF in UNREACHABLE_CODES)
    )
