"""One process or two: the bot split into shards on one database, under the same load.

Each run starts a fresh fake Discord with two guilds, one on each shard of two
(``(guild_id >> 22) % 2``), and ``--tables`` tables spread over them, played by the table
drivers of ``benchmarks/bot_bench.py`` (three people per table, a think time of
0..``--think-ms`` ms between moves, a new match when one ends). The bot runs as:

* ``sqlite-1``: one process (``SHARD_COUNT=1``) on a SQLite file;
* ``sqlite-2``: two processes (``SHARD_COUNT=2``, ``SHARD_IDS=0`` and ``1``) on one SQLite
  file (WAL; the saves are compare-and-swap);
* ``pg-1`` / ``pg-2``: the same on PostgreSQL (``DATABASE_URL``; a fresh database per run
  on ``--pg``, dropped afterwards).

The configurations alternate within each round (ABC, then CBA, ...), so a slow spell of the
shared machine falls on all of them. Each round starts with a control: two busy processes
for 1.5 s, and the CPU seconds they got per second (``effective_cores``, 2.0 on two free
cores): two bot processes cannot scale beyond what the machine gives at that moment. The
tables play ``--warmup`` seconds unmeasured (each process fills its caches), then the window.
For every run it prints, as JSON lines on stdout: moves per second, the first-answer
latency (the fake's dispatch → the bot's first callback; p50/p99), the CPU seconds of the
bot processes, of the PostgreSQL backends serving the run's database, and of this process
(the fake Discord and the drivers share the cores with the bot), and the CPU milliseconds
per move. At the end, per configuration, the median over the rounds, and the scaling ratios
of two processes over one, each from the same round (paired):

* ``wall``: moves per second, two processes / one; the goal is ≥ 1.7 on two free cores;
* ``cpu``: CPU ms per move of one process / of two (1.0: sharding costs nothing extra). On
  two free cores, two saturated processes would make 2 × this as many moves a second as
  one saturated process: a projection from CPU time, for when the machine is busy.

Exit status 0 when every run was clean (no unanswered interaction, no traceback, no stuck
table), 2 otherwise.

    PYTHONPATH=. python benchmarks/cluster_bench.py [--configs sqlite-1,pg-1,pg-2]
        [--tables 40] [--seconds 30] [--warmup 10] [--think-ms 50] [--rounds 2] [--seed 1]
        [--pg postgresql://postgres@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bot_bench import (  # noqa: E402
    DEADLINE,
    MENTION,
    Bench,
    BenchDiscord,
    Driver,
    StuckError,
    calibrate,
    cpu_seconds_of,
    emit,
    footer_version,
    is_hand,
    latency_figures,
    own_cpu_seconds,
)
from fakediscord import BotProcess, FakeUser  # noqa: E402

CONFIGS = ("sqlite-1", "sqlite-2", "pg-1", "pg-2")


def note(text: str) -> None:
    print(f"[cluster_bench] {text}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Config:
    name: str
    backend: str  # "sqlite" or "pg"
    processes: int

    @classmethod
    def parse(cls, name: str) -> Config:
        if name not in CONFIGS:
            raise SystemExit(f"unknown configuration {name!r}: choose from {', '.join(CONFIGS)}")
        backend, processes = name.split("-")
        return cls(name, backend, int(processes))

    def env(self, shard: int) -> dict[str, str]:
        if self.processes == 1:
            return {"SHARD_COUNT": "1"}
        return {"SHARD_COUNT": str(self.processes), "SHARD_IDS": str(shard)}


class TableDriver(Driver):
    """bot_bench's driver, but a move counts once the public table message shows the next
    version (the hand message no longer carries the table's version in its footer), and
    between hands the host deals the next one (the table message offers "Next hand")."""

    async def play(self, until: float) -> None:
        await asyncio.sleep(self.rng.uniform(0.0, self.think))
        while time.monotonic() < until:
            table = self.table_msg
            assert table is not None
            hand_button = f"uno:1:hand:{self.table_id}"
            deal = f"uno:1:next:{self.table_id}"
            if table.component(deal) is not None:  # between hands: the host deals the next
                version = footer_version(table)
                await self.press(self.users[0], table, deal)
                await self.table_at_least(version + 1)
                continue
            if table.component(hand_button) is None:  # the match is over: a new one
                self.bench.matches_finished += 1
                await self.open()
                continue
            found = MENTION.search(table.content or "")
            user = self.by_id.get(int(found.group(1))) if found else None
            if user is None:
                self.bench.anomaly("no_turn", f"table {self.index}: {table.content!r}")
                raise StuckError(f"table {self.index}: whose turn? {table.content!r}")
            version = footer_version(table)
            if self.rng.random() < self.slash_share:
                hand = (await self.ask(user, "uno hand")).message
            else:
                hand = (await self.press(user, table, hand_button)).message
            if hand is None or not is_hand(hand):
                self.bench.anomaly("not_a_hand", f"table {self.index}: {hand and hand.content!r}")
                raise StuckError(f"table {self.index}: no hand for {user.name}")
            await self.move(user, hand)
            self.bench.moves += 1
            await self.table_at_least(version + 1)
            await asyncio.sleep(self.rng.uniform(0.0, self.think))


# -- PostgreSQL: a fresh database per run --------------------------------------------------------


def _psql(server: str, sql: str) -> None:
    subprocess.run(
        ["psql", server, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql],
        check=True,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PGOPTIONS": "-c client_min_messages=warning"},
    )


@contextlib.contextmanager
def fresh_pg_database(server: str, name: str) -> Any:
    """Create database ``name`` on the server of ``server`` (a URL); yield its URL; drop it."""
    _psql(server, f'DROP DATABASE IF EXISTS "{name}"')
    _psql(server, f'CREATE DATABASE "{name}"')
    parts = urlsplit(server)
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        _psql(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def postgres_cpu_seconds(database: str | None) -> float | None:
    """CPU seconds of the PostgreSQL backends serving ``database`` (their process title
    names it; the bot's pool keeps them open for the whole window)."""
    if database is None:
        return None
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().decode(errors="replace")
            if not title.startswith("postgres:") or f" {database} " not in title:
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


# -- one run ------------------------------------------------------------------------------------


async def run_one(config: Config, args: argparse.Namespace, round_no: int) -> dict[str, Any]:
    fake = BenchDiscord(shard_count=config.processes)
    guilds = [fake.add_guild(f"UNO bench {s}", shard=(s, 2)) for s in (0, 1)]
    bench = Bench(fake)
    drivers = []
    for i in range(args.tables):
        guild = guilds[i % 2]  # half the tables on each shard
        channel = guild.add_text_channel(f"uno-{i:03d}")
        users: list[FakeUser] = [fake.add_user(f"p{i:03d}{c}") for c in "abc"]
        for user in users:
            guild.add_member(user)
        drivers.append(
            TableDriver(
                bench,
                i,
                channel,
                users,
                seed=args.seed,
                think=args.think_ms / 1000.0,
                slash_share=0.1,
                points=args.points,
            )
        )
    workdir = Path(tempfile.mkdtemp(prefix="uno-cluster-bench-"))
    await fake.start()
    try:
        with contextlib.ExitStack() as resources:
            env = {"LOG_LEVEL": "WARNING"}
            pg_name = None
            if config.backend == "pg":
                pg_name = f"uno_cluster_bench_{os.getpid()}_{round_no}_{config.processes}"
                env["DATABASE_URL"] = resources.enter_context(fresh_pg_database(args.pg, pg_name))
            async with contextlib.AsyncExitStack() as stack:
                bots = [
                    await stack.enter_async_context(
                        BotProcess(
                            fake,
                            database_path=workdir / "uno.sqlite3",
                            log_level="WARNING",
                            env={**env, **config.env(shard)},
                            ready_timeout=60.0,
                        )
                    )
                    for shard in range(config.processes)
                ]
                return await measure(config, args, bench, drivers, bots, pg_name)
    finally:
        await fake.close()
        shutil.rmtree(workdir, ignore_errors=True)


async def measure(
    config: Config,
    args: argparse.Namespace,
    bench: Bench,
    drivers: list[TableDriver],
    bots: list[BotProcess],
    database: str | None,
) -> dict[str, Any]:
    bench.phase = "setup"
    gate = asyncio.Semaphore(10)

    async def open_one(driver: TableDriver) -> None:
        async with gate:
            await driver.open()

    opened = await asyncio.gather(*(open_one(d) for d in drivers), return_exceptions=True)
    live = [d for d, r in zip(drivers, opened, strict=True) if r is None]
    # The tables play from here on; the first ``--warmup`` seconds fill each process's
    # caches (pictures, table copies) and are not measured.
    bench.phase = "warmup"
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        until = time.monotonic() + args.warmup + args.seconds
        playing = asyncio.gather(*(d.play(until) for d in live), return_exceptions=True)
        await asyncio.sleep(args.warmup)
        bench.phase = "play"
        start, moves0 = time.monotonic(), bench.moves
        bot_cpu0 = [cpu_seconds_of(b.pid) or 0.0 for b in bots]
        own0, pg0 = own_cpu_seconds(), postgres_cpu_seconds(database)
        played = await playing
        seconds = time.monotonic() - start
        bot_cpu = sum(
            (cpu_seconds_of(b.pid) or 0.0) - c for b, c in zip(bots, bot_cpu0, strict=True)
        )
        own_cpu, pg1 = own_cpu_seconds() - own0, postgres_cpu_seconds(database)
    finally:
        gc.enable()
    play = [s for s in bench.samples if s.phase == "play"]
    figures = latency_figures([s.latency for s in play], seconds)
    tracebacks = [line for b in bots for line in b.tracebacks()]
    failures = [r for r in opened if r is not None] + [r for r in played if r is not None]
    failed = len(failures)
    unanswered = sum(1 for s in bench.samples if s.latency is None or s.latency > DEADLINE)
    clean = not (failed or unanswered or tracebacks or bench.anomalies or bench.fake.errors)
    moves = bench.moves - moves0
    return {
        "config": config.name,
        "processes": config.processes,
        "tables": len(live),
        "seconds": round(seconds, 1),
        "moves": moves,
        "moves_per_s": round(moves / seconds, 1),
        "interactions_per_s": figures.get("per_s"),
        "p50_ms": figures.get("p50_ms"),
        "p99_ms": figures.get("p99_ms"),
        "bot_cpu_s": round(bot_cpu, 2),
        "bot_cpu_ms_per_move": round(1000 * bot_cpu / moves, 2) if moves else None,
        "bot_core_share": round(bot_cpu / seconds, 2),
        "postgres_cpu_s": None if pg0 is None or pg1 is None else round(pg1 - pg0, 2),
        "postgres_cpu_ms_per_move": (
            round(1000 * (pg1 - pg0) / moves, 2)
            if pg0 is not None and pg1 is not None and moves
            else None
        ),
        "client_cpu_s": round(own_cpu, 2),
        "clean": clean,
        "unanswered_within_3s": unanswered,
        "tables_failed": failed,
        "failures": [repr(f)[:300] for f in failures[:3]],
        "anomalies": bench.anomalies,
        "errors": [f"{r.status} {r.method} {r.route or r.path}" for r in bench.fake.errors][:5],
        "bot_tracebacks": tracebacks[:5],
    }


# -- the rounds ---------------------------------------------------------------------------------


def summarize(runs: list[dict[str, Any]], configs: list[Config], controls: list[float]) -> None:
    by_config = {c.name: [r for r in runs if r["config"] == c.name] for c in configs}
    for name, chosen in by_config.items():
        if not chosen:
            continue
        emit(
            {
                "group": "median",
                "config": name,
                "rounds": len(chosen),
                **{
                    key: round(statistics.median(r[key] for r in chosen if r[key] is not None), 2)
                    for key in ("moves_per_s", "p50_ms", "p99_ms", "bot_cpu_ms_per_move")
                    if any(r[key] is not None for r in chosen)
                },
            }
        )
    for backend in ("sqlite", "pg"):
        one, two = by_config.get(f"{backend}-1", []), by_config.get(f"{backend}-2", [])
        pairs = list(zip(one, two, strict=False))  # the same round
        if not pairs:
            continue
        wall = [b["moves_per_s"] / a["moves_per_s"] for a, b in pairs if a["moves_per_s"]]
        cpu = [
            a["bot_cpu_ms_per_move"] / b["bot_cpu_ms_per_move"]
            for a, b in pairs
            if a["bot_cpu_ms_per_move"] and b["bot_cpu_ms_per_move"]
        ]
        emit(
            {
                "group": "scaling",
                "backend": backend,
                "what": "two processes over one, paired by round",
                "wall_ratio_moves_per_s": [round(x, 2) for x in wall],
                "wall_ratio_median": round(statistics.median(wall), 2) if wall else None,
                "cpu_per_move_ratio": [round(x, 2) for x in cpu],
                "cpu_per_move_ratio_median": round(statistics.median(cpu), 2) if cpu else None,
                "one_process_core_share": [a["bot_core_share"] for a, _ in pairs],
                "two_processes_core_share": [b["bot_core_share"] for _, b in pairs],
                "control_effective_cores": controls,
                "goal": 1.7,
            }
        )
    if "pg-1" in by_config and "sqlite-1" in by_config:
        pairs = list(zip(by_config["sqlite-1"], by_config["pg-1"], strict=False))
        ratio = [b["moves_per_s"] / a["moves_per_s"] for a, b in pairs if a["moves_per_s"]]
        emit(
            {
                "group": "backends",
                "what": "one process, PostgreSQL over SQLite, moves per second, paired by round",
                "ratios": [round(x, 2) for x in ratio],
                "median": round(statistics.median(ratio), 2) if ratio else None,
            }
        )


async def run(args: argparse.Namespace) -> int:
    configs = [Config.parse(name.strip()) for name in args.configs.split(",") if name.strip()]
    if any(c.backend == "pg" for c in configs) and shutil.which("psql") is None:
        raise SystemExit("the pg configurations need psql on PATH (to create their databases)")
    runs: list[dict[str, Any]] = []
    controls: list[float] = []
    for round_no in range(args.rounds):
        # The control: how much CPU two busy processes get per second of wall time right
        # now (2.0 on two free cores). Two bot processes cannot scale beyond it.
        control = await calibrate(2)
        controls.append(control["effective_cores"])
        emit({"group": "control", "round": round_no + 1, **control})
        order = configs if round_no % 2 == 0 else list(reversed(configs))
        for config in order:
            note(f"round {round_no + 1}/{args.rounds}: {config.name}")
            result = await run_one(config, args, round_no)
            result["round"] = round_no + 1
            emit({"group": "run", **result})
            runs.append(result)
    emit(
        {
            "group": "machine",
            "cpu_count": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "python": sys.version.split()[0],
            "tables": args.tables,
            "think_ms": args.think_ms,
            "seconds": args.seconds,
        }
    )
    summarize(runs, configs, controls)
    return 0 if all(r["clean"] for r in runs) else 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--configs",
        default="sqlite-1,pg-1,pg-2",
        help=f"comma-separated, from {', '.join(CONFIGS)} (sqlite-1,pg-1,pg-2)",
    )
    parser.add_argument("--tables", type=int, default=40, help="tables played at once (40)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window (30)")
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="play before the window, unmeasured (10)"
    )
    parser.add_argument(
        "--think-ms", type=float, default=50.0, help="think time, uniform 0..N ms (50)"
    )
    parser.add_argument("--rounds", type=int, default=2, help="rounds of every config (2)")
    parser.add_argument("--points", type=int, default=100, help="points to win a match (100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pg",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="a PostgreSQL server to create the runs' databases on",
    )
    args = parser.parse_args()
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
