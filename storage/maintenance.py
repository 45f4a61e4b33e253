"""Looking after the database from the command line: inspect, back up, restore.

These run outside the bot (``uno-bot check``, ``backup``, ``restore``), so they use the
standard ``sqlite3`` module directly. Backups use SQLite's online backup API: a consistent
copy taken while the bot keeps running (in WAL mode the copy never blocks the bot's
writes). A restore refuses to touch a database another process has open.

Every refusal is a :class:`DatabaseUnavailableError` whose message is one sentence.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import asyncpg

from . import postgres
from .connection import STARTUP_WAIT, DatabaseUnavailableError, check_folder, explain, shown_path
from .repository import _migrations


@dataclass(frozen=True)
class DatabaseReport:
    """What ``uno-bot check`` found in the database file."""

    path: str
    exists: bool
    schema_version: int = 0
    known_version: int = 0
    pending: tuple[str, ...] = ()
    size_bytes: int = 0


@dataclass(frozen=True)
class CopyReport:
    """A finished backup or restore."""

    source: str
    target: str
    schema_version: int
    size_bytes: int
    previous: str | None = None  # restore: where the replaced database was kept


def known_version() -> int:
    """The newest schema this code knows."""
    return max((version for version, _, _ in _migrations()), default=0)


def _refuse_newer(where: str, version: int) -> int:
    """The newest schema this code knows, refusing a database at a newer ``version``."""
    newest = known_version()
    if version > newest:
        raise DatabaseUnavailableError(
            where,
            f"{where} was written by a newer version of the bot (schema {version}, this "
            f"version knows up to {newest}); upgrade the bot first.",
        )
    return newest


def inspect(path: str, *, wait: float = STARTUP_WAIT) -> DatabaseReport:
    """Check, without changing anything, that the bot could open, migrate and write ``path``.

    Reads the whole file once (``PRAGMA quick_check``), so damage anywhere is found.
    """
    check_folder(path)
    where = shown_path(path)
    if not Path(path).expanduser().exists():
        folder = Path(where).parent
        if not os.access(folder, os.W_OK):
            raise DatabaseUnavailableError(
                where,
                f"Cannot create the database {where}: its folder {folder} is read-only; give "
                "the user running the bot write permission on that folder.",
            )
        return DatabaseReport(where, exists=False, known_version=known_version())
    with _opened(path, wait=wait, write=True) as db:
        version = _checked_version(db, where)
        _check_integrity(db, where)
        try:  # the write lock, released at once: read-only files and held locks show here
            db.execute("BEGIN IMMEDIATE")
            db.execute("ROLLBACK")
        except sqlite3.Error as exc:
            raise explain(path, exc, waited=wait) from exc
        known = _migrations()
        pending = tuple(name for number, name, _ in known if number > version)
        return DatabaseReport(
            where,
            exists=True,
            schema_version=version,
            known_version=known_version(),
            pending=pending,
            size_bytes=_size_with_log(Path(where)),
        )


def backup(source: str, target: str, *, wait: float = STARTUP_WAIT) -> CopyReport:
    """Copy the database ``source`` to ``target`` (a file, or a folder for a dated name).

    The copy is written beside the target first and checked, then moved into place, so a
    failed backup never replaces a good one. It is one self-contained file (no ``-wal``),
    readable by its owner only (mode 0600) whatever the umask: it holds every player's data.
    """
    where = shown_path(source)
    if not Path(source).expanduser().is_file():
        raise DatabaseUnavailableError(
            where,
            f"There is no database at {where} to back up (the bot creates it at its first "
            "start); check DATABASE_PATH.",
        )
    destination = Path(target).expanduser()
    if destination.is_dir():
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        destination = destination / f"uno-{stamp}.sqlite3"
    check_folder(str(destination))
    destination = destination.absolute()
    if destination.resolve() == Path(where).resolve():
        raise DatabaseUnavailableError(
            where, f"Cannot back up {where} onto itself; name another file or folder."
        )
    partial = destination.with_name(destination.name + ".partial")
    with _opened(source, wait=wait, write=False) as db:
        version = _checked_version(db, where)
        try:
            _create_private(partial)
            with contextlib.closing(sqlite3.connect(partial, isolation_level=None)) as copy:
                db.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
                _check_integrity(copy, str(partial))
        except BaseException as exc:
            partial.unlink(missing_ok=True)
            raise explain(str(destination), exc, waited=wait) from exc
    os.replace(partial, destination)
    return CopyReport(where, str(destination), version, destination.stat().st_size)


def restore(backup_file: str, target: str, *, wait: float = STARTUP_WAIT) -> CopyReport:
    """Replace the database ``target`` with the contents of ``backup_file``.

    Refuses a file that is not a sound database of this bot, a backup from a newer version,
    and a target another process has open (stop the bot first). The database it replaces is
    kept beside it as ``<name>.before-restore-<time>`` (mode 0600), so a restore can be
    undone; a target that did not exist is created with mode 0600 and nothing is kept.
    """
    source = shown_path(backup_file)
    if not Path(backup_file).expanduser().is_file():
        raise DatabaseUnavailableError(source, f"There is no backup file at {source}.")
    with open(source, "rb") as file:
        header = file.read(len(_SQLITE_HEADER))
    if header and header != _SQLITE_HEADER:
        raise DatabaseUnavailableError(
            source,
            f"{source} is not a backup: it is not an SQLite database; name a file that "
            "uno-bot backup wrote (uno-YYYYMMDD-HHMMSS.sqlite3).",
        )
    check_folder(target)
    where = shown_path(target)
    with _opened(backup_file, wait=wait, write=False) as saved:
        version = _checked_version(saved, source, backup=True)
        _check_integrity(saved, source, fix="restore an older backup instead")
        # Only a database that was there is kept: restoring into a new file (the README's
        # drill) leaves nothing but the restored database behind.
        replaces = Path(where).is_file() and Path(where).stat().st_size > 0
        created = not Path(where).exists()
        if created:
            _create_private(Path(where))
        try:
            with _exclusive(target, where) as db:
                previous = _keep_replaced(db, where) if replaces else None
                saved.backup(db)
                _check_integrity(db, where)
        except BaseException:
            if created:
                Path(where).unlink(missing_ok=True)
            raise
    return CopyReport(source, where, version, Path(where).stat().st_size, previous)


def _keep_replaced(db: sqlite3.Connection, where: str) -> str:
    """Copy the database a restore is about to replace beside it; the copy's name."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    previous = f"{where}.before-restore-{stamp}"
    _create_private(Path(previous))
    with contextlib.closing(sqlite3.connect(previous, isolation_level=None)) as keep:
        db.backup(keep)
        keep.execute("PRAGMA journal_mode = DELETE")
    return previous


async def inspect_postgres(url: str, *, wait: float = STARTUP_WAIT) -> DatabaseReport:
    """Check, without changing anything, that the PostgreSQL database at ``url`` is
    reachable with its user and password, and which schema it holds."""
    where = postgres.shown_url(url)
    try:
        connection = await asyncpg.connect(url, timeout=wait)
    except BaseException as exc:
        raise postgres.explain(url, exc, waited=wait) from exc
    try:
        exists = await connection.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
        version = 0
        if exists:
            found = await connection.fetchval("SELECT MAX(version) FROM schema_migrations")
            version = int(found or 0)
        size = await connection.fetchval("SELECT pg_database_size(current_database())")
    except BaseException as exc:
        raise postgres.explain(url, exc, waited=wait) from exc
    finally:
        await connection.close()
    newest = _refuse_newer(where, version)
    pending = tuple(name for number, name, _ in _migrations("postgresql") if number > version)
    return DatabaseReport(where, True, version, newest, pending, int(size or 0))


# -- helpers ------------------------------------------------------------------------------------


def _create_private(path: Path) -> None:
    """``path`` as an empty file only its owner may read and write (0600), whatever the
    umask of whoever runs the command (cron's is usually 022: every user could read a
    backup). SQLite keeps the file's mode and gives its journal the same one."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(descriptor, 0o600)  # a file left by an earlier attempt keeps its mode
    finally:
        os.close(descriptor)


#: The first bytes of every SQLite database file (https://sqlite.org/fileformat.html).
_SQLITE_HEADER = b"SQLite format 3\x00"


@contextlib.contextmanager
def _opened(path: str, *, wait: float, write: bool) -> Iterator[sqlite3.Connection]:
    """An existing database, never created by accident; problems become one sentence."""
    mode = "rw" if write else "ro"
    uri = f"{Path(path).expanduser().absolute().as_uri()}?mode={mode}"
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=wait)
    except sqlite3.Error as exc:
        raise explain(path, exc, waited=wait) from exc
    try:
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            raise explain(path, exc, waited=wait) from exc
        yield db
    finally:
        db.close()


@contextlib.contextmanager
def _exclusive(path: str, where: str) -> Iterator[sqlite3.Connection]:
    """The database at ``path``, locked against every other process until the block ends."""
    try:
        db = sqlite3.connect(path, isolation_level=None, timeout=0)
    except sqlite3.Error as exc:
        raise explain(path, exc) from exc
    try:
        db.execute("PRAGMA locking_mode = EXCLUSIVE")
        try:
            db.execute("BEGIN EXCLUSIVE")
            db.execute("COMMIT")  # the lock stays: exclusive locking mode keeps it
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise DatabaseUnavailableError(
                    where,
                    f"The database {where} is in use by another process (is the bot "
                    "running?); stop the bot, then restore.",
                ) from exc
            raise explain(path, exc) from exc
        yield db
    finally:
        db.close()


def _checked_version(db: sqlite3.Connection, where: str, *, backup: bool = False) -> int:
    """The applied schema version, refusing files of other programs or newer versions."""
    has_table = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ).fetchone()
    if has_table is None:
        empty = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
        if empty and not backup:
            return 0
        raise DatabaseUnavailableError(
            where, f"{where} is not a database of this bot (it has no schema_migrations table)."
        )
    row = db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
    version = int(row[0]) if row and row[0] is not None else 0
    _refuse_newer(where, version)
    return version


def _size_with_log(database: Path) -> int:
    """The database's bytes, its write-ahead log included: while the bot runs, the newest
    changes (all of them, for a young database) are in ``-wal`` only."""
    log = database.with_name(database.name + "-wal")
    return database.stat().st_size + (log.stat().st_size if log.exists() else 0)


def _check_integrity(
    db: sqlite3.Connection,
    where: str,
    *,
    fix: str = "restore a backup (uno-bot restore BACKUP_FILE)",
) -> None:
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error as exc:
        raise explain(where, exc) from exc
    problems = [str(row[0]) for row in rows if row[0] != "ok"]
    if problems:
        raise DatabaseUnavailableError(
            where,
            f"The database {where} is damaged ({problems[0]}); {fix}.",
        )
