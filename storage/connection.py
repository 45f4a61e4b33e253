"""Opening the database, and waiting for its write lock without stalling anyone.

Two failures get their own exception, each one sentence an admin or a player can read:

- :class:`DatabaseUnavailableError`: at start-up, the file cannot be opened, migrated or
  written (a missing folder, a damaged file, read-only, locked for too long, a newer schema).
  The message names the path and what to do; the bot prints it and exits.
- :class:`DatabaseBusyError`: while running, another program held the write lock for longer
  than the write bound; nothing was written and the caller may answer "try again".

aiosqlite runs every statement of a connection on one thread, in order: a statement that
waits inside SQLite for a lock (``busy_timeout``) holds up every read queued behind it. So the
busy timeout is short once the bot runs, and a write waits for the lock on the event loop
instead, between short attempts, while reads go on.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiosqlite

#: How long start-up waits for a lock held by another program before giving up.
STARTUP_WAIT = 3.0
#: How long a write waits for the lock while the bot runs before :class:`DatabaseBusyError`.
WRITE_WAIT = 2.0
#: How long one statement may block the connection's thread waiting for a lock, in ms.
RUNNING_BUSY_TIMEOUT_MS = 50

# Primary result codes (https://sqlite.org/rescode.html); extended codes keep them in the low byte.
_PERM, _BUSY, _LOCKED, _READONLY = 3, 5, 6, 8
_IOERR, _CORRUPT, _FULL, _CANTOPEN, _AUTH, _NOTADB = 10, 11, 13, 14, 23, 26
_READONLY_DIRECTORY = _READONLY | (6 << 8)
#: Result codes that say the file cannot be used for now (I/O, a full disk, not openable,
#: read-only), as opposed to a mistake in a statement.
UNREACHABLE_CODES = frozenset({_IOERR, _FULL, _CANTOPEN, _READONLY, _PERM})


class DatabaseUnavailableError(Exception):
    """The database cannot be used; ``str(error)`` is one sentence naming the path and a fix."""

    def __init__(self, path: str, sentence: str) -> None:
        super().__init__(sentence)
        self.path = path


class DatabaseBusyError(Exception):
    """Another program held the database's write lock too long; nothing was written."""

    def __init__(self, waited: float) -> None:
        super().__init__(
            f"The database stayed locked by another program for {waited:g} seconds; "
            "nothing was changed, try again in a moment."
        )
        self.waited = waited


class WriteTurns(asyncio.Lock):
    """The lock that makes the connection's writers take turns, with their wait for SQLite's
    own write lock (another process may hold it) bounded by ``wait`` seconds."""

    def __init__(self, wait: float = WRITE_WAIT) -> None:
        super().__init__()
        self.wait = wait


def shown_path(path: str) -> str:
    """The path as an admin should read it: absolute, so a relative default is findable."""
    if path == ":memory:" or path.startswith("file:"):
        return path
    return str(Path(path).expanduser().absolute())


def is_busy(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite saying another connection holds the lock."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (_BUSY, _LOCKED)
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)


def explain(path: str, exc: BaseException, *, waited: float = STARTUP_WAIT) -> BaseException:
    """Turn what SQLite said while opening ``path`` into one sentence for the admin.

    Returns ``exc`` itself when it is not a database problem (a bug should stay a traceback).
    """
    if isinstance(exc, DatabaseUnavailableError):
        return exc
    busy = isinstance(exc, DatabaseBusyError) or is_busy(exc)
    if not busy and not isinstance(exc, sqlite3.Error):
        return exc
    where = shown_path(path)
    folder = str(Path(where).parent)
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if busy:
        sentence = (
            f"The database {where} is locked by another program for more than {waited:g} "
            "seconds; stop the other program (another copy of the bot, or an open sqlite3 "
            "shell) and start the bot again."
        )
    elif primary in (_NOTADB, _CORRUPT):
        sentence = (
            f"Cannot use the database {where}: the file is not an SQLite database or it is "
            "damaged; restore a backup (uno-bot restore BACKUP_FILE) or move the file away "
            "to start with an empty database."
        )
    elif code == _READONLY_DIRECTORY:
        sentence = (
            f"Cannot write to the database {where}: its folder {folder} is read-only, and "
            "the bot needs to create files beside the database; give the user running the "
            "bot write permission on that folder."
        )
    elif primary == _READONLY:
        sentence = (
            f"Cannot write to the database {where}: the file is read-only; give the user "
            f"running the bot write permission on it and on its folder {folder}."
        )
    elif primary == _FULL:
        sentence = (
            f"Cannot write to the database {where}: the disk is full; free some space and "
            "start the bot again."
        )
    elif primary == _IOERR:
        sentence = (
            f"Cannot use the database {where}: the disk reported an input/output error "
            f"({exc}); check the disk, and restore a backup if the file is damaged."
        )
    elif primary == _CANTOPEN and not Path(where).exists() and not os.access(folder, os.W_OK):
        sentence = (
            f"Cannot create the database {where}: its folder {folder} is read-only; give the "
            "user running the bot write permission on that folder."
        )
    elif primary in (_CANTOPEN, _PERM, _AUTH):
        sentence = (
            f"Cannot open the database {where}: check that the path is right and that the "
            "user running the bot may read and write the file and its folder."
        )
    else:
        sentence = (
            f"Cannot use the database {where} ({exc}); check the file, or restore a backup "
            "(uno-bot restore BACKUP_FILE)."
        )
    return DatabaseUnavailableError(where, sentence)


def check_folder(path: str) -> None:
    """Refuse early, in words, a path whose folder is missing or that names a folder."""
    if path == ":memory:" or path.startswith("file:"):
        return
    target = Path(path).expanduser()
    where = shown_path(path)
    if target.is_dir():
        raise DatabaseUnavailableError(
            where,
            f"Cannot open the database {where}: it is a folder, not a file; set "
            f"DATABASE_PATH to a file in it, such as {Path(where) / 'uno.sqlite3'}.",
        )
    folder = Path(where).parent
    if not folder.is_dir():
        raise DatabaseUnavailableError(
            where,
            f"Cannot open the database {where}: the folder {folder} does not exist; create "
            f"it (mkdir -p {folder}) or set DATABASE_PATH to a file in an existing folder.",
        )


SYNCHRONOUS = ("FULL", "NORMAL")


async def connect(
    path: str, *, wait: float = STARTUP_WAIT, synchronous: str = "FULL"
) -> aiosqlite.Connection:
    """Open and configure the connection; on any failure it is closed again.

    (An unclosed aiosqlite connection keeps a non-daemon thread alive: the process would
    never exit, and a service manager never restarts a process that never exits.)
    """
    check_folder(path)
    db = await _opened(path, wait)
    try:
        db.row_factory = sqlite3.Row
        await db.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}")
        # Reading the schema is the first real read: a file that is not a database, or whose
        # first page is damaged, fails here.
        async with db.execute("SELECT count(*) FROM sqlite_master") as cursor:
            await cursor.fetchone()
        # WAL takes the file's exclusive lock once: processes that start together on a new
        # file meet here, and SQLite may answer "locked" at once instead of waiting.
        await execute_when_free(db, "PRAGMA journal_mode = WAL", wait)
        # With WAL, both survive any crash of the bot process. FULL also syncs the WAL at
        # every commit, so an OS crash or power cut loses nothing acknowledged; NORMAL syncs
        # at checkpoints only, and such a crash can roll back the last commits.
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous is one of {', '.join(SYNCHRONOUS)}")
        await db.execute(f"PRAGMA synchronous = {synchronous}")
        await db.execute("PRAGMA foreign_keys = ON")
    except BaseException as exc:
        await db.close()
        raise explain(path, exc, waited=wait) from exc
    return db


async def _opened(path: str, wait: float) -> aiosqlite.Connection:
    """The file opened by ``sqlite3`` here, then handed to aiosqlite.

    ``aiosqlite.connect`` opens the file on the connection's own thread; when that fails, it
    stops the thread without waiting for it, and the thread later reports to an event loop
    that may be closed by then (a failed start exits at once): two tracebacks of
    ``RuntimeError: Event loop is closed`` after the bot's one sentence. Opened here first,
    a file that cannot be opened fails before aiosqlite starts any thread. (Opening reads
    nothing yet, so it does not hold up the event loop; it happens once, at start.)
    """
    try:
        raw = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise explain(path, exc, waited=wait) from exc
    return await aiosqlite.Connection(lambda: raw, iter_chunk_size=64)


async def execute_when_free(db: aiosqlite.Connection, sql: str, wait: float) -> None:
    """``sql`` (``BEGIN IMMEDIATE``, a journal mode), tried again on the event loop while
    another connection holds the lock, until ``wait`` seconds have passed
    (:class:`DatabaseBusyError`).

    Each attempt blocks the connection's thread for at most its busy timeout, so reads queued
    on the connection go on while a write waits for another program's lock. And SQLite does
    not always wait itself: where waiting could deadlock (this connection reads while another
    one writes, and asks for the file to itself, as the switch to WAL does) it answers
    "locked" at once, whatever the busy timeout.
    """

    async def attempt() -> int:
        try:
            await db.execute(sql)
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            return _BUSY
        return 0

    await retry_while_busy(attempt, _BUSY, wait)


async def retry_while_busy(attempt: Callable[[], Awaitable[int]], busy: int, wait: float) -> int:
    """``attempt()`` until it returns something else than ``busy`` (another program held the
    write lock), pausing on the event loop between tries, longer each time up to 0.2 s;
    :class:`DatabaseBusyError` once ``wait`` seconds have passed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    pause = 0.01
    while True:
        result = await attempt()
        if result != busy:
            return result
        left = deadline - loop.time()
        if left <= 0:
            raise DatabaseBusyError(wait)
        await asyncio.sleep(min(pause, left))
        pause = min(pause * 2, 0.2)
