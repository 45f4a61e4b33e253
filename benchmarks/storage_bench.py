"""Saves per move on each storage engine, and SQLite's two durability levels.

A real 3-player ``classic`` match is played once, in memory, through ``tables.Table`` (every
seat decided by the ``normal`` computer player, seeded): each accepted move's record and
action lines are kept. Then the same sequence of saves (``create``, then one compare-and-swap
``save`` per move, the last one carrying the match result) is replayed through the real
``GameRepository`` on each engine, for ``--tables`` tables interleaved as a busy bot would:

* ``sqlite-FULL`` and ``sqlite-NORMAL``: a fresh SQLite file in ``--dir`` (default: a
  temporary folder, so on the disk that holds it), ``synchronous`` at that level;
* ``postgresql``: a fresh schema on ``--url`` (or ``TEST_DATABASE_URL``), skipped without one.

Runs alternate (A B C, C B A, …) and each prints the median and p99 wall time of one save
(the latency a player waits for), and the CPU time of this process per save
(``time.process_time``: the bot's own cost; the PostgreSQL server's work is not in it). The
ratios printed compare runs of the same round.

    PYTHONPATH=. python benchmarks/storage_bench.py [--tables 20] [--rounds 3] [--url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, replace
from pathlib import Path

import asyncpg

import players
from storage import ActionRow, GameRepository, MatchResult, TableRecord
from tables.table import Player, Table

NAMES = ("Ann", "Bob", "Cid")


@dataclass(frozen=True)
class Step:
    record: TableRecord
    expected: int
    actions: tuple[ActionRow, ...]
    result: MatchResult | None


def play_match(seed: int, *, table_id: str = "m", target: int = 500) -> list[Step]:
    """One whole match, every change kept as the save the bot would make (first: create)."""
    rng = random.Random(seed)
    now = 1_000_000.0
    table = Table.open(
        table_id=table_id,
        guild_id=1,
        channel_id=1,
        host=Player(100, NAMES[0]),
        preset="classic",
        options={"target": target},
        seed=seed,
        now=now,
    )
    steps = [Step(table.to_record(), -1, (), None)]

    def keep(before: Table, change: object) -> Table:
        after = change.table  # type: ignore[attr-defined]
        result = after.result() if before.status != "finished" else None
        steps.append(Step(after.to_record(), before.version, tuple(change.log), result))  # type: ignore[attr-defined]
        return after  # type: ignore[no-any-return]

    for seat in (1, 2):
        now += 1
        table = keep(table, table.join(Player(100 + seat, NAMES[seat]), now=now))
    now += 1
    table = keep(table, table.start(by=100, is_admin=False, now=now))
    while table.status == "playing":
        now += 1
        assert table.match is not None
        hand = table.match.hand
        if hand.is_over:
            table = keep(table, table.deal_next(by=100, is_admin=False, now=now))
            continue
        decision = players.next_actor(
            hand,
            range(3),
            lambda seat, view: players.decide("normal", view, rng),
        )
        assert decision is not None
        table = keep(table, table.act(100 + decision.seat, *decision.actions, now=now))
    return steps


def for_table(step: Step, n: int) -> Step:
    """The same step for table number ``n`` (its own id, channel and players)."""
    table_id = f"t{n}"
    record = replace(step.record, id=table_id, channel_id=1000 + n)
    result = step.result
    if result is not None:
        result = replace(result, table_id=table_id)
    return replace(step, record=record, result=result)


async def replay(
    target: str, steps: list[Step], tables: int, **open_kw: object
) -> dict[str, float]:
    repo = await GameRepository.open(target, **open_kw)  # type: ignore[arg-type]
    try:
        for n in range(tables):
            first = for_table(steps[0], n)
            await repo.create(first.record)
        waits: list[float] = []
        cpu_start = time.process_time()
        wall_start = time.perf_counter()
        for step in steps[1:]:
            for n in range(tables):
                mine = for_table(step, n)
                started = time.perf_counter()
                await repo.save(
                    mine.record,
                    expected_version=mine.expected,
                    actions=mine.actions,
                    result=mine.result,
                )
                waits.append(time.perf_counter() - started)
        cpu = time.process_time() - cpu_start
        wall = time.perf_counter() - wall_start
    finally:
        await repo.close()
    waits.sort()
    return {
        "saves": len(waits),
        "median_ms": statistics.median(waits) * 1000,
        "p99_ms": waits[int(len(waits) * 0.99)] * 1000,
        "cpu_us_per_save": cpu / len(waits) * 1e6,
        "saves_per_s": len(waits) / wall,
    }


async def fresh_schema(url: str) -> str:
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(f"CREATE SCHEMA {schema}")
    finally:
        await connection.close()
    return schema


async def drop_schema(url: str, schema: str) -> None:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await connection.close()


async def run_one(
    name: str, steps: list[Step], args: argparse.Namespace, folder: Path
) -> dict[str, float]:
    if name.startswith("sqlite-"):
        level = name.split("-", 1)[1]
        path = folder / f"{name}-{uuid.uuid4().hex[:6]}.sqlite3"
        try:
            return await replay(str(path), steps, args.tables, synchronous=level)
        finally:
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(f"{path}{suffix}")
    schema = await fresh_schema(args.url)
    try:
        sep = "&" if "?" in args.url else "?"
        return await replay(f"{args.url}{sep}search_path={schema}", steps, args.tables)
    finally:
        await drop_schema(args.url, schema)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", default=os.environ.get("TEST_DATABASE_URL", ""))
    parser.add_argument("--dir", default=None, help="where the SQLite files go")
    parser.add_argument("--only", default=None, help="comma-separated runs to time")
    args = parser.parse_args()
    steps = play_match(args.seed)
    state_bytes = statistics.mean(len(json.dumps(s.record.state)) for s in steps)
    print(
        json.dumps(
            {
                "match": f"{len(steps) - 1} saves after create, mean state {state_bytes:.0f} B",
                "load": os.getloadavg()[0],
            }
        )
    )
    names = ["sqlite-FULL", "sqlite-NORMAL"] + (["postgresql"] if args.url else [])
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    if not args.url:
        print("postgresql: skipped (no --url and no TEST_DATABASE_URL)")
    results: dict[str, list[dict[str, float]]] = {n: [] for n in names}
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        for round_ in range(args.rounds):
            order = names if round_ % 2 == 0 else names[::-1]
            for name in order:
                figures = await run_one(name, steps, args, Path(folder))
                results[name].append(figures)
                print(
                    json.dumps(
                        {
                            "round": round_,
                            "run": name,
                            **{k: round(v, 3) for k, v in figures.items()},
                        }
                    )
                )
    summary = {
        name: {
            key: round(statistics.median(r[key] for r in runs), 3)
            for key in ("median_ms", "p99_ms", "cpu_us_per_save", "saves_per_s")
        }
        for name, runs in results.items()
    }
    print(json.dumps({"summary (medians of rounds)": summary}))
    if "sqlite-FULL" in summary and "sqlite-NORMAL" in summary:
        full, normal = summary["sqlite-FULL"], summary["sqlite-NORMAL"]
        print(
            f"sqlite FULL / NORMAL: median save x{full['median_ms'] / normal['median_ms']:.2f}, "
            f"p99 x{full['p99_ms'] / normal['p99_ms']:.2f}, "
            f"CPU per save x{full['cpu_us_per_save'] / normal['cpu_us_per_save']:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
