"""Render time and size budgets (generous here; benchmarks/render_bench.py has the real bars)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from renders import render_hand, render_table

from .states import hand_of, seated


def median_ms(render: Callable[[], bytes], runs: int = 15) -> float:
    render()  # warm the caches
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        render()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def test_hands_and_tables_are_quick_and_small() -> None:
    seven = hand_of(7).view_for(0)
    twenty_five = hand_of(25).view_for(0)
    table = seated([7, 5, 3, 9]).public_view()
    names = ["Alice", "Bob", "Carol", "Dave"]
    assert len(render_hand(seven)) <= 30_000
    assert len(render_hand(twenty_five)) <= 30_000
    assert len(render_table(table, names)) <= 30_000
    # Ten times the target medians: a loaded CI machine must not fail this.
    assert median_ms(lambda: render_hand(seven)) < 50
    assert median_ms(lambda: render_hand(twenty_five)) < 150
    assert median_ms(lambda: render_table(table, names)) < 150
