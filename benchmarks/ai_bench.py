"""Strength and speed of the computer players (players/).

Plays seeded hands between levels and prints, as it goes, the share of hands the first level
wins with a Wilson 95 % confidence interval, then the median and p99 wall time of a turn
decision per level, and finally one JSON line with every figure.

Match-ups (heads-up unless marked 4p; the first level sits at seat 0, the dealer rotates so
nobody keeps the first move; at 4p the three others play the second level):

- ``normal`` vs ``random`` (uniformly random legal actions, drawing as often as playing);
- ``normal`` vs ``easy`` (random legal play) — the bar: at least 70 % of hands heads-up;
- ``hard`` vs ``normal`` — the bar: at least 55 %;
- ``hard`` vs ``easy``, and the 4p tables ``normal`` vs ``easy``, ``hard`` vs ``normal``
  (a level no better than the others would win 25 % at 4p).

A hand is won by the seat ranked first (R-END-1; a blocked hand by the fewest points,
R-SCORE-6). Decision times are those of turn decisions (the current seat choosing its
action: the only ones where ``hard`` searches); the speed bars are ``normal`` ≤ 2 ms and
``hard`` ≤ 150 ms at the p99. Hands are split over ``--jobs`` processes, so on a shared or
busy machine the times include waiting for a core.

    python benchmarks/ai_bench.py [--hands 4000] [--hard-hands 240] [--jobs 2] [--seed 1]
        [--only hard-vs-normal]  (repeatable; names like normal-vs-easy-4p)
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import players
from engine import Action, PlayerView, Rules
from players import easy
from players.arena import Policy, play_hand


def policy(level: str) -> Policy:
    """A level's decide function; ``random`` is the uniform baseline."""
    if level == "random":
        return easy.uniform

    def decide(view: PlayerView, rng: random.Random) -> Action | None:
        return players.decide(level, view, rng)

    return decide


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _chunk(
    job: tuple[str, str, int, str, int, int, int],
) -> tuple[int, int, list[float], list[float]]:
    """Play hands ``first..first+count`` of a match-up; (wins, hands, times A, times B)."""
    level_a, level_b, seats, preset, seed, first, count = job
    rules = Rules.from_preset(preset)
    policies = [policy(level_a)] + [policy(level_b)] * (seats - 1)
    times_a: list[float] = []
    times_b: list[float] = []

    def timer(seat: int, seconds: float, turn: bool) -> None:
        if turn:
            (times_a if seat == 0 else times_b).append(seconds)

    wins = 0
    for number in range(first, first + count):
        state = play_hand(
            rules,
            policies,
            seed=seed * 1_000_003 + number,
            dealer=number % seats,
            timer=timer,
        )
        wins += bool(state.ranking) and state.ranking[0] == 0
    return wins, count, times_a, times_b


def run(
    level_a: str,
    level_b: str,
    seats: int,
    hands: int,
    *,
    preset: str,
    seed: int,
    jobs: int,
    pool: multiprocessing.pool.Pool | None,
) -> tuple[int, float, list[float], list[float]]:
    """Play ``hands`` hands; return (wins of level A, seconds, times A, times B)."""
    size = max(1, min(50, hands // (jobs * 4) or 1))
    chunks = [
        (level_a, level_b, seats, preset, seed, first, min(size, hands - first))
        for first in range(0, hands, size)
    ]
    started = time.perf_counter()
    results = pool.map(_chunk, chunks) if pool is not None else [_chunk(c) for c in chunks]
    wins = sum(r[0] for r in results)
    times_a = [t for r in results for t in r[2]]
    times_b = [t for r in results for t in r[3]]
    return wins, time.perf_counter() - started, times_a, times_b


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=4000, help="hands per easy/normal match-up")
    parser.add_argument("--hard-hands", type=int, default=240, help="hands of hard vs normal")
    parser.add_argument("--four-hands", type=int, default=1000, help="4p hands, normal vs easy")
    parser.add_argument("--hard-four-hands", type=int, default=60, help="4p hands, hard vs normal")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes (0: this one only)")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="run only this match-up, e.g. hard-vs-normal or hard-vs-normal-4p (repeatable)",
    )
    args = parser.parse_args(argv)

    plan = [
        ("normal", "random", 2, args.hands // 4),
        ("normal", "easy", 2, args.hands),
        ("hard", "normal", 2, args.hard_hands),
        ("hard", "easy", 2, args.hard_hands // 4),
        ("normal", "easy", 4, args.four_hands),
        ("hard", "normal", 4, args.hard_four_hands),
    ]
    if args.only:
        plan = [p for p in plan if f"{p[0]}-vs-{p[1]}" + ("-4p" if p[2] > 2 else "") in args.only]
        if not plan:
            parser.error(f"no match-up named {', '.join(args.only)}")
    times: dict[str, list[float]] = {level: [] for level in players.LEVELS}
    figures: list[dict[str, object]] = []
    print(f"preset {args.preset}, seed {args.seed}, {args.jobs or 1} process(es)", flush=True)
    ctx = multiprocessing.get_context("fork")
    pool = ctx.Pool(args.jobs) if args.jobs > 1 else None
    try:
        for level_a, level_b, seats, hands in plan:
            if hands <= 0:
                continue
            wins, seconds, times_a, times_b = run(
                level_a,
                level_b,
                seats,
                hands,
                preset=args.preset,
                seed=args.seed,
                jobs=max(1, args.jobs),
                pool=pool,
            )
            times.setdefault(level_a, []).extend(times_a)
            times.setdefault(level_b, []).extend(times_b)
            low, high = wilson(wins, hands)
            name = f"{level_a} vs {level_b}" + (" (4p)" if seats > 2 else "")
            print(
                f"{name:<24} {wins / hands:6.1%} of {hands} hands"
                f"  95% CI [{low:.1%}, {high:.1%}]  ({seconds:.0f} s)",
                flush=True,
            )
            figures.append(
                {
                    "a": level_a,
                    "b": level_b,
                    "seats": seats,
                    "hands": hands,
                    "wins": wins,
                    "rate": round(wins / hands, 4),
                    "ci95": [round(low, 4), round(high, 4)],
                    "seconds": round(seconds, 1),
                }
            )
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    speed: dict[str, dict[str, float | int]] = {}
    for level in players.LEVELS:
        values = times.get(level, [])
        if not values:
            continue
        median = statistics.median(values) * 1e3
        p99 = percentile(values, 0.99) * 1e3
        speed[level] = {
            "decisions": len(values),
            "median_ms": round(median, 3),
            "p99_ms": round(p99, 3),
            "max_ms": round(max(values) * 1e3, 3),
        }
        print(
            f"{level:<8} turn decision: median {median:8.3f} ms  p99 {p99:8.3f} ms"
            f"  ({len(values)} decisions)",
            flush=True,
        )
    rate = {(f["a"], f["b"], f["seats"]): f["rate"] for f in figures}
    checks = {
        "normal_vs_easy_heads_up_ge_70": (("normal", "easy", 2), 0.70),
        "hard_vs_normal_heads_up_ge_55": (("hard", "normal", 2), 0.55),
    }
    bars: dict[str, bool] = {
        name: rate[key] >= floor  # type: ignore[operator]
        for name, (key, floor) in checks.items()
        if key in rate  # with --only, a bar whose match-up did not run is left out
    }
    for level, ceiling in (("normal", 2.0), ("hard", 150.0)):
        if level in speed:
            bars[f"{level}_p99_le_{ceiling:g}ms"] = speed[level]["p99_ms"] <= ceiling
    print(
        json.dumps(
            {
                "run": "ai_bench",
                "preset": args.preset,
                "seed": args.seed,
                "jobs": args.jobs,
                "matchups": figures,
                "speed": speed,
                "bars": bars,
            }
        ),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
