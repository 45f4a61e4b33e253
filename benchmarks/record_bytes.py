"""Bytes per finished match: as saved, after compaction, and after the retention period.

``--matches`` real 3-player ``classic`` matches to 500 points (played in memory by the normal
computer player, seeds 1, 2, …; see ``storage_bench.play_match``) are saved move by move
through the real ``GameRepository`` into a fresh database, as the bot saves them (every
seat a person, so every result is stored). Then ``repo.tidy`` runs as the periodic job
would: once an hour after the end (the per-move logs become compressed records), and once
past ``RECORD_RETENTION_DAYS`` (the finished tables go; results and ratings stay).

The size is measured after ``VACUUM`` each time: the SQLite file's size, or for PostgreSQL
(``--url`` or ``TEST_DATABASE_URL``, a fresh schema) the sum of ``pg_total_relation_size``
(tables, indexes, TOAST) of the bot's tables after ``VACUUM FULL``. The empty database's
size is subtracted, and the rest divided by the number of matches.

    PYTHONPATH=. python benchmarks/record_bytes.py [--matches 20] [--url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
import tempfile
from pathlib import Path

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from storage_bench import Step, drop_schema, for_table, fresh_schema, play_match

from storage import GameRepository
from storage.compaction import COMPACT_AFTER, DAY, RETENTION_DAYS

TABLES = (
    "tables",
    "table_seats",
    "actions",
    "table_records",
    "match_results",
    "player_results",
    "player_stats",
    "seasons",
    "meta",
    "schema_migrations",
)


async def size(target: str) -> int:
    if target.startswith("postgresql://"):
        connection = await asyncpg.connect(target)
        try:
            total = 0
            for name in TABLES:  # only this schema's tables (others share the database)
                await connection.execute(f"VACUUM FULL {name}")
                total += await connection.fetchval(
                    "SELECT pg_total_relation_size(to_regclass($1))", name
                )
            return total
        finally:
            await connection.close()
    return await asyncio.to_thread(_sqlite_size, target)


def _sqlite_size(target: str) -> int:
    db = sqlite3.connect(target, isolation_level=None)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
    finally:
        db.close()
    return os.path.getsize(target)


async def measure(target: str, matches: list[list[Step]]) -> dict[str, float]:
    repo = await GameRepository.open(target)
    await repo.close()
    empty = await size(target)
    repo = await GameRepository.open(target)
    finished_at = 0.0
    actions = 0
    try:
        for n, steps in enumerate(matches):
            await repo.create(for_table(steps[0], n).record)
            for step in steps[1:]:
                mine = for_table(step, n)
                actions += len(mine.actions)
                await repo.save(
                    mine.record,
                    expected_version=mine.expected,
                    actions=mine.actions,
                    result=mine.result,
                )
            finished_at = max(finished_at, steps[-1].record.updated_at)
    finally:
        await repo.close()
    saved = await size(target)
    repo = await GameRepository.open(target)
    try:
        tidied = await repo.tidy(finished_at + 2 * COMPACT_AFTER)
        assert tidied == (len(matches), 0), tidied
    finally:
        await repo.close()
    compacted = await size(target)
    repo = await GameRepository.open(target)
    try:
        expired = await repo.tidy(finished_at + (RETENTION_DAYS + 1) * DAY)
        assert expired == (0, len(matches)), expired
    finally:
        await repo.close()
    kept = await size(target)
    n = len(matches)
    return {
        "actions_per_match": actions / n,
        "bytes_per_match_saved": (saved - empty) / n,
        "bytes_per_match_compacted": (compacted - empty) / n,
        "bytes_per_match_after_retention": (kept - empty) / n,
    }


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--url", default=os.environ.get("TEST_DATABASE_URL", ""))
    args = parser.parse_args()
    matches = [play_match(seed) for seed in range(1, args.matches + 1)]
    with tempfile.TemporaryDirectory() as folder:
        figures = await measure(str(Path(folder) / "bytes.sqlite3"), matches)
    print(json.dumps({"engine": "sqlite", **{k: round(v) for k, v in figures.items()}}))
    if args.url:
        schema = await fresh_schema(args.url)
        try:
            sep = "&" if "?" in args.url else "?"
            figures = await measure(f"{args.url}{sep}search_path={schema}", matches)
        finally:
            await drop_schema(args.url, schema)
        print(json.dumps({"engine": "postgresql", **{k: round(v) for k, v in figures.items()}}))
    else:
        print("postgresql: skipped (no --url and no TEST_DATABASE_URL)")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
