"""Render speed and size: hands of 7, 25 and 60 cards, tables of 4 and 10 seats, and the boards.

The views come from real engine states, dealt exactly with ``engine.game.deal``. Each case is
rendered once to warm the caches (fonts, card art, palette), then ``--runs`` times; one JSON
line per case gives the median and 95th-percentile milliseconds and the PNG size in bytes.
The boards are a 15-line leaderboard (with long names and the reader's line appended), also
with its text caches emptied before each run, a 12-player tournament standings, a 3-player
hand score and a 12-fact stats card. UNO Flip (``flip-*``): hands of 7 and 25 cards and tables
of 4 and 10 seats on the dark side (seats fanning their light faces), and a 4-seat table on
the light side.
Targets: a 7-card hand ≤ 5 ms, a 25-card hand, a table and each board ≤ 15 ms, each ≤ 30 KB.

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

from engine import Colour, GameState, Rules
from engine.cards import classic_deck, flip_deck
from engine.game import deal
from renders import (
    LeaderRow,
    grid,
    render_hand,
    render_leaderboard,
    render_standings,
    render_stats,
    render_table,
)


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


def flip_dealt(counts: list[int], seed: int, *, dark: bool = True) -> GameState:
    """An UNO Flip deal like :func:`dealt`; seat 0 also holds a red Flip and, with ``dark``,
    plays it, so the dark side is in play (seat 0 then holds ``counts[0]`` cards)."""
    pool = [face.notation for face in flip_deck().sides[0]]
    pool.remove("R5")
    pool.remove("RF")
    random.Random(seed).shuffle(pool)
    hands, at = [], 0
    for seat, n in enumerate(counts):
        hands.append((["RF"] if seat == 0 else []) + pool[at : at + n])
        at += n
    state = deal(Rules(flip=True), hands=hands, start="R5", draw=[], dealer=len(counts) - 1).state
    return state.apply(0, "RF").state if dark else state


def flip_cases() -> dict[str, Callable[[], bytes]]:
    """UNO Flip hands and tables."""
    seven = flip_dealt([7, 7, 7, 7], seed=1).view_for(0)
    twenty_five = flip_dealt([25, 6], seed=2).view_for(0)
    light = flip_dealt([7, 5, 2, 11], seed=4, dark=False).public_view()
    four = flip_dealt([7, 5, 2, 11], seed=4).public_view()
    ten = flip_dealt([7, 1, 3, 8, 9, 2, 6, 7, 4, 5], seed=5).public_view()
    four_names = ["Alice", "Bob 🐸", "Carol", "Dave the Magnificent Card Shark"]
    ten_names = [f"Player {i + 1}" for i in range(10)]
    return {
        "flip-hand-7-dark": lambda: render_hand(seven),
        "flip-hand-25-dark": lambda: render_hand(twenty_five),
        "flip-table-4-light": lambda: render_table(light, four_names),
        "flip-table-4-dark": lambda: render_table(four, four_names),
        "flip-table-10-dark": lambda: render_table(ten, ten_names),
    }


def board_cases() -> dict[str, Callable[[], bytes]]:
    """The leaderboard, standings and stats renders, with realistic (and long) strings."""
    names = [f"Player {i + 1}" for i in range(15)]
    names[2], names[5] = "Dave the Magnificent Card Shark of the North", "Bob 🐸🎲 Ζωή"
    heads = ["#", "Player", "Rating", "Wins", "Matches", "Points"]
    rows = [
        LeaderRow(i + 1, names[i], (str(1500 - 17 * i), str(40 - i), str(80 - 2 * i), "12.345"))
        for i in range(15)
    ]
    mine = LeaderRow(42, "Me", ("1210", "3", "9", "400"))
    players = [
        (str(i + 1), names[i], "Red Dragons" if i % 2 else "—", str(300 - 10 * i), "9")
        for i in range(12)
    ]
    hand = [("Alice", "+86", "312"), ("Bob", "0", "120"), ("Carol", "0", "77")]
    facts = [(f"Label {i}", f"{i * 137:,}") for i in range(12)]

    def leaderboard() -> bytes:
        return render_leaderboard(
            "Leaderboard — season 3", heads, rows, 42, "Page 1/5 · 47 players", mine
        )

    def uncached() -> bytes:
        # Every string new: each cell is measured and rasterized again (the worst case).
        grid.prepare.cache_clear()
        grid.glyphs.cache_clear()
        return leaderboard()

    return {
        "leaderboard-15": leaderboard,
        "leaderboard-15-uncached": uncached,
        "standings-12": lambda: render_standings(
            "Spring Cup", ["#", "Player", "Team", "Points", "Games"], players, 2
        ),
        "hand-score-3": lambda: render_standings("Hand 4", ["Player", "Hand", "Total"], hand),
        "stats-12": lambda: render_stats("Season 3", names[2], facts, Colour.GREEN),
    }


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
        **flip_cases(),
        **board_cases(),
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
