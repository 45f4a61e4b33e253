"""Opening a PostgreSQL database (``DATABASE_URL=postgresql://…``) through an asyncpg pool.

Every process of a cluster opens its own pool on the same database. Failures at start-up
become :class:`~storage.connection.DatabaseUnavailableError`, one sentence naming the server
(never the password) and what to do; a write that waits for another process's lock longer
than the write bound becomes :class:`~storage.connection.DatabaseBusyError`, as on SQLite.

PostgreSQL commits are durable by default (``synchronous_commit = on``: a commit returns once
its WAL record is flushed to disk), so an acknowledged move survives a power cut.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from ._db import PostgresDatabase
from .connection import STARTUP_WAIT, WRITE_WAIT, DatabaseBusyError, DatabaseUnavailableError

SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True, slots=True)
class PoolOptions:
    """How many connections each process keeps, and how long anything may wait."""

    min_size: int = 1
    max_size: int = 10
    #: Seconds one statement may run before the client gives up on it.
    command_timeout: float = 30.0


DEFAULT_POOL = PoolOptions()


class PooledConnection(asyncpg.Connection):  # type: ignore[misc]
    """A pool's connection that goes back to the pool without a reset query.

    asyncpg's pool resets a released connection with one more round trip (``SELECT
    pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``): every read, and every
    move saved in one statement, cost two round trips. The bot leaves nothing of the kind
    in a session: its advisory locks and ``SET LOCAL`` end with their transaction, and it
    opens no cursor outside one, listens to nothing, and sets no session setting after
    connecting. An open transaction is still rolled back on release (asyncpg does that
    apart from the query).
    """

    def get_reset_query(self) -> str:  # asyncpg >= 0.30
        return ""

    def _get_reset_query(self) -> str:  # asyncpg 0.29 (constraints/floors.txt)
        return ""


def is_url(target: str) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than an SQLite file."""
    return target.startswith(SCHEMES)


def shown_url(url: str) -> str:
    """The URL as an admin may read it in a log: without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    user = f"{parts.username}:***@" if parts.username else ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}{host}{port}"))


def _server(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    return f"{host}:{parts.port or 5432}"


def explain(url: str, exc: BaseException, *, waited: float = STARTUP_WAIT) -> BaseException:
    """What went wrong reaching the database at ``url``, in one sentence; ``exc`` itself when
    it is not a database problem (a bug should stay a traceback)."""
    if isinstance(exc, DatabaseUnavailableError):
        return exc
    where = shown_url(url)
    server = _server(url)
    name = type(exc).__name__
    if isinstance(exc, DatabaseBusyError):
        sentence = (
            f"The PostgreSQL database {where} stayed locked by another client for more than "
            f"{waited:g} seconds; try again, or look for a long transaction on the server."
        )
    elif isinstance(exc, (OSError, asyncio.TimeoutError)) or name == "CannotConnectNowError":
        sentence = (
            f"Cannot reach the PostgreSQL server at {server} ({exc or name}); check that it "
            "runs and accepts connections there, and the host and port in DATABASE_URL."
        )
    elif name == "InvalidCatalogNameError":
        sentence = (
            f"The PostgreSQL server at {server} has no database named in {where}; create it "
            "(createdb NAME) or fix the database name in DATABASE_URL."
        )
    elif name in ("InvalidPasswordError", "InvalidAuthorizationSpecificationError"):
        sentence = (
            f"The PostgreSQL server at {server} refused the user or password of {where}; "
            "fix them in DATABASE_URL."
        )
    elif name == "InsufficientPrivilegeError":
        sentence = (
            f"The PostgreSQL user of {where} may not create or change the bot's tables "
            f"({exc}); grant it the rights on the database (or its schema)."
        )
    elif isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError):
        sentence = f"Cannot use the PostgreSQL database {where} ({exc})."
    else:
        return exc
    return DatabaseUnavailableError(where, sentence)


async def open_pool(
    url: str,
    *,
    options: PoolOptions | None = None,
    startup_wait: float = STARTUP_WAIT,
    write_wait: float = WRITE_WAIT,
) -> PostgresDatabase:
    """A pool on ``url``, its first connection made (so an unreachable server fails now).

    ``lock_timeout`` bounds a write's wait for another client's row or table lock: past it
    the write fails with :class:`~storage.connection.DatabaseBusyError`. Query parameters of
    the URL that asyncpg does not know are server settings (``?search_path=uno`` keeps the
    bot's tables in schema ``uno``).
    """
    options = options or DEFAULT_POOL
    try:
        pool = await asyncpg.create_pool(
            url,
            min_size=min(options.min_size, options.max_size),
            max_size=options.max_size,
            timeout=startup_wait,
            command_timeout=options.command_timeout,
            server_settings={"lock_timeout": str(int(write_wait * 1000))},
            connection_class=PooledConnection,
        )
    except BaseException as exc:
        raise explain(url, exc, waited=startup_wait) from exc
    return PostgresDatabase(pool, write_wait=write_wait)
