"""Bounded data: finished tables shrink, then go; results and ratings stay.

A finished (or closed) table keeps its per-move log (one ``actions`` row per action, about
70 bytes each and some 700 of them in a 3-player match) for :data:`COMPACT_AFTER` seconds,
then :func:`compact` folds the log into one compressed ``table_records`` row (the actions in
order, and the table's final state with its seed, so the record still replays the match);
``GameRepository.actions`` and ``load`` read them back unchanged. After the retention period
(``RECORD_RETENTION_DAYS``, default 90) :func:`expire` deletes the table itself: its state,
seats and record. Match results, each player's result and rating after the match, the
boards and tournaments are never deleted by this.

Both work in small batches, each its own short transaction, with a pause between batches,
so play goes on meanwhile (on SQLite a batch holds the one write lock for milliseconds).
:func:`keep_bounded` runs them every :data:`INTERVAL` seconds; on PostgreSQL every process
of a cluster may run it: a batch takes a lock, so two never compact the same table.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import zlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ._db import Database, Row, is_outage
from .connection import DatabaseBusyError

log = logging.getLogger(__name__)

#: A finished table keeps its per-move log this long (seconds) before it is compacted.
COMPACT_AFTER = 3600.0
#: How often :func:`keep_bounded` looks for work (seconds).
INTERVAL = 600.0
#: Tables per transaction, and the pause between two transactions (seconds).
BATCH = 5
PAUSE = 0.05
#: How long a batch waits, in all, for a connection (or a lock) that play is using: tidying
#: is never in a hurry, so it waits its turn instead of failing (seconds between tries).
BUSY_WAITS = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
#: The default retention of finished tables, in days (``RECORD_RETENTION_DAYS``).
RETENTION_DAYS = 90
DAY = 86_400.0
COMPACTION_LOCK = 0x554E4F01

_DONE = "status IN ('finished', 'closed')"


def encode(rows: Sequence[Row]) -> bytes:
    """The action lines ``(version, seat, action)`` as one compressed record."""
    lines = [[row[0], row[1], row[2]] for row in rows]
    return zlib.compress(json.dumps(lines, separators=(",", ":")).encode(), 9)


def squeeze(state: str) -> bytes:
    """A table's JSON state, compressed (a finished table's is read rarely: a rematch, a
    record, ``/uno forget-me``)."""
    return zlib.compress(state.encode(), 9)


def unsqueeze(state: bytes) -> str:
    """The JSON state :func:`squeeze` compressed."""
    return zlib.decompress(bytes(state)).decode()


def decode(record: bytes) -> list[tuple[int, int | None, str]]:
    """The action lines of a compressed record, in order."""
    lines: list[list[Any]] = json.loads(zlib.decompress(bytes(record)))
    return [(int(v), None if s is None else int(s), str(a)) for v, s, a in lines]


async def compact(db: Database, *, before: float, batch: int = BATCH) -> int:
    """Compact the logs of up to ``batch`` finished tables last changed before ``before``
    (oldest first), in one transaction; how many were compacted."""
    async with db.transaction() as tx:
        await tx.serialise(COMPACTION_LOCK)
        rows = await tx.fetchall(
            f"SELECT id, state FROM tables WHERE {_DONE} AND compacted = 0 AND updated_at < ?"
            " ORDER BY updated_at LIMIT ?",
            (before, batch),
        )
        for table_id, state in ((row[0], row[1]) for row in rows):
            lines = await tx.fetchall(
                "SELECT version, seat, action FROM actions WHERE table_id = ?"
                " ORDER BY version, position",
                (table_id,),
            )
            await tx.execute(
                "INSERT INTO table_records (table_id, actions, record, state) VALUES (?, ?, ?, ?)",
                (table_id, len(lines), encode(lines), squeeze(state)),
            )
            await tx.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
            await tx.execute(
                "UPDATE tables SET compacted = 1, state = '' WHERE id = ?", (table_id,)
            )
    return len(rows)


async def expire(db: Database, *, before: float, batch: int = 50) -> int:
    """Delete up to ``batch`` finished tables last changed before ``before`` (their state,
    seats, log and record); how many. Results and ratings stay."""
    async with db.transaction() as tx:
        return await tx.execute(
            f"DELETE FROM tables WHERE id IN (SELECT id FROM tables WHERE {_DONE}"
            " AND updated_at < ? ORDER BY updated_at LIMIT ?)",
            (before, batch),
        )


async def tidy(
    db: Database,
    *,
    now: float,
    retention_days: int = RETENTION_DAYS,
    compact_after: float = COMPACT_AFTER,
    pause: float = PAUSE,
) -> tuple[int, int]:
    """Everything due now, batch after batch: ``(tables compacted, tables deleted)``.
    ``retention_days=0`` keeps finished tables for good (they are still compacted)."""
    deleted = 0
    if retention_days > 0:
        while n := await _in_turn(lambda: expire(db, before=now - retention_days * DAY)):
            deleted += n
            await asyncio.sleep(pause)
    compacted = 0
    while n := await _in_turn(lambda: compact(db, before=now - compact_after)):
        compacted += n
        await asyncio.sleep(pause)
    return compacted, deleted


async def _in_turn(batch: Callable[[], Awaitable[int]]) -> int:
    """Run ``batch``; while the database is busy with play (no free connection, a lock held),
    wait and try again (:data:`BUSY_WAITS`) rather than fail."""
    for wait in BUSY_WAITS:
        try:
            return await batch()
        except DatabaseBusyError:
            await asyncio.sleep(wait)
    return await batch()


async def keep_bounded(
    db: Database,
    *,
    retention_days: int = RETENTION_DAYS,
    interval: float = INTERVAL,
    clock: Callable[[], float] = time.time,
) -> None:
    """Run :func:`tidy` now and every ``interval`` seconds until cancelled. A failure is
    logged and tried again at the next round: tidying never stops the bot."""
    while True:
        try:
            compacted, deleted = await tidy(db, now=clock(), retention_days=retention_days)
        except Exception as exc:
            if not is_outage(exc):
                log.exception("Compacting finished tables failed; trying again later")
            else:  # expected trouble (a restart, a lost connection): one line
                log.warning("Compacting finished tables waits for the database (%s)", exc)
        else:
            if compacted or deleted:
                log.info(
                    "Compacted the logs of %d finished tables; deleted %d finished more than "
                    "%d days ago",
                    compacted,
                    deleted,
                    retention_days,
                )
        await asyncio.sleep(interval)
