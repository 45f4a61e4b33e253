"""SQLite in tests: a plain connection that is closed on leaving, and another process that
holds a lock (for tests of waiting and giving up).

``with sqlite3.connect(...)`` only commits on leaving; the connection lives on until the
collector finds it, and an open connection counts as "the bot is running" for a restore.
"""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

_HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "exclusive":  # nobody may even read
    db.execute("PRAGMA locking_mode = EXCLUSIVE")
    db.execute("BEGIN EXCLUSIVE")
else:  # the write lock: readers go on, writers wait
    db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()
db.close()
print("released", flush=True)
sys.stdin.read()
"""


@contextlib.contextmanager
def opened(database: Path | str) -> Iterator[sqlite3.Connection]:
    """A connection in autocommit mode, closed when the block ends."""
    db = sqlite3.connect(database, isolation_level=None)
    try:
        yield db
    finally:
        db.close()


class LockHolder:
    """A running process that holds the lock until :meth:`release`."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self._process = process

    def release(self) -> None:
        assert self._process.stdin is not None
        assert self._process.stdout is not None
        if self._process.poll() is None:
            self._process.stdin.write("\n")
            self._process.stdin.flush()
            assert self._process.stdout.readline().strip() == "released"


@contextlib.contextmanager
def held_lock(database: Path | str, kind: str = "write") -> Iterator[LockHolder]:
    """Hold ``kind`` ("write": ``BEGIN IMMEDIATE``; "exclusive": no readers either) on
    ``database`` from another process for the duration of the block."""
    process = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(database), kind],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "locked"
        yield LockHolder(process)
    finally:
        process.communicate("\n", timeout=30)
