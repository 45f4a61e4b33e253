"""Render speed and size: hands of 7, 25 and 60 cards, tables of 4 and 10 seats.

The views come from real engine states, dealt exactly with ``engine.game.deal``. Each case is
rendered once to warm the caches (fonts, card art, palette), then ``--runs`` times; one JSON
line per case gives the median and 95th-percentile milliseconds and the PNG size in bytes.
Targets: a 7-card hand ≤ 5 ms, a 25-card hand and a table ≤ 15 ms, each ≤ 30 KB.

    python benchmarks/render_bench.py [--runs 200] [--save DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GameState, Rules
from engine.cards import classic_deck
from engine.game import deal
from renders import render_hand, render_table


def dealt(counts: list[int], seed: int) -> GameState:
    """Seats holding ``counts`` cards each, faces drawn from a seeded shuffle; seat 0 plays."""
    pool = [face.notation for face in classic_deck().sides[0]]
    pool.remove("R5")
    random.Random(seed).shuffle(pool)
    hands, at = [], 0
    for n in counts:
        hands.append(pool[at : at + n])
        at += n
    return deal(Rules(), hands=hands, start="R5", draw=[], dealer=len(counts) - 1).state


def cases() -> dict[str, Callable[[], bytes]]:
    """The renders to time, by name."""
    seven = dealt([7, 7, 7, 7], seed=1).view_for(0)
    twenty_five = dealt([25, 6], seed=2).view_for(0)
    sixty = dealt([60, 3], seed=3).view_for(0)
    four = dealt([7, 5, 2, 11], seed=4).public_view()
    ten = dealt([7, 1, 3, 8, 9, 2, 6, 7, 4, 5], seed=5).public_view()
    four_names = ["Alice", "Bob 🐸", "Carol", "Dave the Magnificent Card Shark"]
    ten_names = [f"Player {i + 1}" for i in range(10)]
    return {
        "hand-7": lambda: render_hand(seven),
        "hand-25": lambda: render_hand(twenty_five),
        "hand-60": lambda: render_hand(sixty),
        "table-4": lambda: render_table(four, four_names),
        "table-10": lambda: render_table(ten, ten_names),
    }


def measure(render: Callable[[], bytes], runs: int) -> dict[str, float | int]:
    """Warm up, then time ``runs`` renders."""
    started = time.perf_counter()
    png = render()
    cold = (time.perf_counter() - started) * 1000
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        render()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return {
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))], 2),
        "cold_ms": round(cold, 1),
        "bytes": len(png),
    }


def main() -> None:
    """Print one JSON line per case."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--save", type=Path, help="also write each PNG into this folder")
    args = parser.parse_args()
    for name, render in cases().items():
        result = measure(render, args.runs)
        print(json.dumps({"case": name, "runs": args.runs, **result}), flush=True)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"{name}.png").write_bytes(render())


if __name__ == "__main__":
    main()
