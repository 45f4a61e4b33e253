"""Leaderboards with a million stored results in one server: pages, ranks and recording.

The script fills a temporary SQLite file through a bulk path (plain ``sqlite3``, big
transactions): ``--matches`` finished 4-player matches in one server among ``--players``
players, with their per-player results and the ``player_stats`` lines those results add up
to (ratings are drawn from each player's hidden skill instead of replaying a million OpenSkill
updates). Then, through the real ``GameRepository`` on that file, it measures:

* ``top10``: ``boards.leaderboard(guild, sort=..., limit=10)``, for every sort key;
* ``rank``: ``boards.rank_of(guild, user, sort="rating")`` for random players, and for the
  last-ranked player, whose COUNT walks the whole board (the worst case);
* ``record``: ``save(finished_table, expected_version=..., result=...)`` of a 4-player match,
  the real write path (CAS, snapshot, seats, result, ratings, four board lines), on a table
  created beforehand (not timed).

It prints one JSON line per figure (median and p99 in ms) and a summary against the bars
(top-10 <= 5 ms, rank <= 5 ms, record <= 10 ms) with the machine's load average (other
processes' work shows up in a p99); exit status 1 when a bar is missed.

    PYTHONPATH=. python benchmarks/leaderboard_bench.py [--matches 1000000]
        [--players 20000] [--samples 300] [--seed 1] [--keep FILE]

The default run takes two to three minutes, nearly all of it the fill.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from storage import SORTS, GameRepository, MatchResult, PlayerResult, TableRecord
from storage import ratings as rating_model

GUILD = 424242
SEATS = 4
BARS_MS = {"top10": 5.0, "rank": 5.0, "record": 10.0}
_COLOURS = [
    json.dumps(c, separators=(",", ":"), sort_keys=True)
    for c in (
        {"red": 3, "yellow": 2, "green": 4, "blue": 1},
        {"red": 1, "yellow": 5, "green": 0, "blue": 2},
        {"red": 2, "yellow": 2, "green": 2, "blue": 6},
        {"red": 6, "yellow": 1, "green": 1, "blue": 1},
    )
]
# player_stats columns after the key, as the migration orders them.
_STATS = (
    "name, mu, sigma, rating, matches, wins, points, match_points, hands_played, hands_won,"
    " uno_calls, catches_made, catches_suffered, challenges_won, challenges_lost, cards_drawn,"
    " left_games, current_streak, best_streak, colours, last_played"
)


def fill(path: str, matches: int, players: int, seed: int) -> None:
    """Bulk-load ``matches`` results and the board lines they add up to."""
    rng = random.Random(seed)
    skill = [rng.gauss(0.0, 1.0) for _ in range(players + 1)]
    # per user: matches wins points match_points hands won uno catches+ catches- chal+ chal-
    # drawn, current streak, best streak, last played
    totals = [[0] * 15 for _ in range(players + 1)]
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = MEMORY")  # a bulk load needs no WAL; restored below
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -400000")
    chunk = 50_000
    for start in range(0, matches, chunk):
        match_rows = []
        player_rows = []
        for i in range(start, min(start + chunk, matches)):
            table_id = f"bulk{i}"
            at = 1_700_000_000.0 + i * 30.0
            match_rows.append((table_id, GUILD, 1, "classic", None, at, SEATS))
            seated = rng.sample(range(1, players + 1), SEATS)
            seated.sort(key=lambda u: -(skill[u] + rng.gauss(0.0, 1.5)))
            for place, user in enumerate(seated, start=1):
                won = place == 1
                hands = rng.randint(1, 8)
                row = (
                    int(won),
                    rng.randint(0, 400) if won else 0,
                    1 if won else 0,
                    hands,
                    rng.randint(1, hands) if won else rng.randint(0, hands // 2),
                    rng.randint(0, 4),
                    rng.randint(0, 2),
                    rng.randint(0, 2),
                    rng.randint(0, 1),
                    rng.randint(0, 1),
                    rng.randint(0, 30),
                )
                t = totals[user]
                t[0] += 1
                for k, value in enumerate(row):
                    t[k + 1] += value
                t[12] = t[12] + 1 if won else 0
                t[13] = max(t[13], t[12])
                t[14] = int(at)
                player_rows.append(
                    (
                        table_id,
                        user,
                        f"player{user}",
                        place,
                        None,
                        None,
                        row[1],
                        row[0],
                        0,
                        row[2],
                        *row[3:],
                        rng.choice(_COLOURS),
                        25.0,
                        8.3,
                    )
                )
        db.execute("BEGIN")
        db.executemany("INSERT INTO match_results VALUES (?, ?, ?, ?, ?, ?, ?)", match_rows)
        db.executemany(
            "INSERT INTO player_results (table_id, user_id, name, place, team, team_role,"
            " points, won, left_game, match_points, hands_played, hands_won, uno_calls,"
            " catches_made, catches_suffered, challenges_won, challenges_lost, cards_drawn,"
            " colours, mu, sigma) VALUES"
            " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            player_rows,
        )
        db.execute("COMMIT")
    stats_rows = []
    for user in range(1, players + 1):
        t = totals[user]
        if not t[0]:
            continue
        # What many OpenSkill updates converge to: mu follows skill, sigma shrinks with games.
        sigma = max(2.0, (25 / 3) / math.sqrt(1 + t[0] / 20))
        mu = 25.0 + 6.0 * skill[user] + rng.gauss(0.0, 1.0)
        shown = rating_model.display(rating_model.Rating(mu, sigma))
        colours = _COLOURS[user % len(_COLOURS)]
        stats_rows.append(
            (
                GUILD,
                1,
                user,
                f"player{user}",
                mu,
                sigma,
                shown,
                *t[0:12],
                0,
                t[12],
                t[13],
                colours,
                float(t[14]),
            )
        )
    db.execute("BEGIN")
    db.executemany(
        f"INSERT INTO player_stats (guild_id, season, user_id, {_STATS})"
        f" VALUES ({', '.join('?' * 24)})",
        stats_rows,
    )
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.execute("PRAGMA journal_mode = WAL")
    db.close()


WARM_UP = 20


async def timed(samples: int, call: Callable[[int], Awaitable[object]]) -> list[float]:
    """Milliseconds per call over ``samples`` calls; ``call(i)`` gets a fresh index each time.

    The first ``WARM_UP`` calls (indices 0..19) are not counted.
    """
    times = []
    for i in range(WARM_UP + samples):
        began = time.perf_counter()
        await call(i)
        if i >= WARM_UP:
            times.append((time.perf_counter() - began) * 1000)
    return times


def figures(name: str, times: list[float], **extra: object) -> dict[str, object]:
    ordered = sorted(times)
    line = {
        "figure": name,
        "n": len(times),
        "median_ms": round(statistics.median(ordered), 3),
        "p99_ms": round(ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)], 3),
        "max_ms": round(ordered[-1], 3),
        **extra,
    }
    print(json.dumps(line), flush=True)
    return line


async def measure(path: str, players: int, samples: int, seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed + 1)
    repo = await GameRepository.open(path)
    lines = []
    try:
        size = await repo.boards.board_size(GUILD)
        for sort in SORTS:
            times = await timed(
                samples, lambda _i, s=sort: repo.boards.leaderboard(GUILD, sort=s, limit=10)
            )
            lines.append(figures("top10", times, sort=sort, board=size))
        users = [rng.randint(1, players) for _ in range(samples + 20)]
        times = await timed(samples, lambda i: repo.boards.rank_of(GUILD, users[i], sort="rating"))
        lines.append(figures("rank", times, sort="rating", who="random player"))
        last = await repo.boards.leaderboard(GUILD, sort="rating", offset=size - 1, limit=1)
        times = await timed(
            samples, lambda _i: repo.boards.rank_of(GUILD, last[0].user_id, sort="rating")
        )
        lines.append(figures("rank", times, sort="rating", who="last of the board (worst)"))
        lines.append(
            figures("board_size", await timed(samples, lambda _i: repo.boards.board_size(GUILD)))
        )

        finished, results = await finished_tables(repo, rng, players, WARM_UP + samples)

        async def record(i: int) -> None:
            await repo.save(finished[i], expected_version=0, result=results[i])

        lines.append(figures("record", await timed(samples, record), players=SEATS))
    finally:
        await repo.close()
    return lines


async def finished_tables(
    repo: GameRepository, rng: random.Random, players: int, count: int
) -> tuple[list[TableRecord], list[MatchResult]]:
    """``count`` playing tables created in the database, their finished records and results."""
    finished, results = [], []
    run = time.time_ns()  # a reused --keep file already holds earlier runs' tables
    for i in range(count):
        table_id = f"bench{run}-{i}"
        channel = run + i
        seated = tuple(rng.sample(range(1, players + 1), SEATS))
        state = {"bench": i}
        await repo.create(TableRecord(table_id, GUILD, channel, "playing", 0, state, seated))
        finished.append(
            TableRecord(table_id, GUILD, channel, "finished", 1, {**state, "over": 1}, seated)
        )
        results.append(
            MatchResult(
                table_id=table_id,
                guild_id=GUILD,
                preset="classic",
                finished_at=2_000_000_000.0 + i,
                players=tuple(
                    PlayerResult(
                        user_id=user,
                        name=f"player{user}",
                        is_bot=False,
                        place=place,
                        team=None,
                        points=50 if place == 1 else 0,
                        won=place == 1,
                        left=False,
                        match_points=int(place == 1),
                        hands_played=5,
                        hands_won=2 if place == 1 else 1,
                        uno_calls=1,
                        catches_made=1,
                        cards_drawn=7,
                        colours_played={"red": 3, "blue": 2},
                    )
                    for place, user in enumerate(seated, start=1)
                ),
            )
        )
    return finished, results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", help="fill (or reuse) this file instead of a temporary one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or str(Path(tmp) / "bench.sqlite3")
        fresh = not Path(path).exists()
        if fresh:
            asyncio.run(_migrate(path))
            began = time.perf_counter()
            fill(path, args.matches, args.players, args.seed)
            filled = {"matches": args.matches, "players": args.players}
            print(json.dumps({"fill_s": round(time.perf_counter() - began, 1), **filled}))
        lines = asyncio.run(measure(path, args.players, args.samples, args.seed))
        size_mb = round(sum(p.stat().st_size for p in Path(path).parent.glob("*.sqlite3*")) / 1e6)
    worst = {
        name: max(float(str(line["p99_ms"])) for line in lines if line["figure"] == name)
        for name in BARS_MS
    }
    met = {name: worst[name] <= bar for name, bar in BARS_MS.items()}
    # The bars are about the database; a p99 on a busy shared machine is mostly its
    # neighbours' load, so the figures carry it.
    load = [round(x, 2) for x in os.getloadavg()]
    summary = {"summary": "worst p99 per figure vs bar", "database_mb": size_mb}
    summary |= {"cores": os.cpu_count(), "load_1_5_15min": load}
    print(json.dumps({**summary, "p99_ms": worst, "bars_ms": BARS_MS, "met": met}))
    return 0 if all(met.values()) else 1


async def _migrate(path: str) -> None:
    repo = await GameRepository.open(path)
    await repo.close()


if __name__ == "__main__":
    sys.exit(main())
