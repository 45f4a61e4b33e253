"""Which pytest-xdist worker ran what, and when: find the worker that is a run's tail.

A pytest plugin, and the summary of what it wrote::

    WORKER_TIMELINE=/tmp/timeline python -m pytest -p tools.worker_timeline
    python tools/worker_timeline.py /tmp/timeline

While the suite runs, each process that runs tests (each worker, or pytest itself with
``-n 0``) appends one JSON line per test start and end, with the wall clock and its own CPU
time, to ``out-<worker>.jsonl`` in the folder ``WORKER_TIMELINE`` names. The summary prints,
per worker, the tests it ran, the seconds they took, when it ran its last one (from the first
worker's start) and its CPU seconds, then the tests that ended after every other worker had
finished its last one: the tail.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

FOLDER_VARIABLE = "WORKER_TIMELINE"


def _write(event: str, nodeid: str = "") -> None:
    folder = os.environ.get(FOLDER_VARIABLE)
    if not folder:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    line = {"event": event, "test": nodeid, "at": time.time(), "cpu": time.process_time()}
    with open(Path(folder) / f"out-{worker}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Around a test's setup, call and teardown, in the process that runs it (never in
    xdist's controller, which only hears of it)."""
    _write("start", item.nodeid)
    yield
    _write("end", item.nodeid)


def summary(folder: Path) -> list[str]:
    """The lines the command prints for the timeline in ``folder``."""
    runs: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(folder.glob("out-*.jsonl")):
        worker = path.stem.removeprefix("out-")
        runs[worker] = [json.loads(line) for line in path.read_text().splitlines()]
    events = [e for worker_events in runs.values() for e in worker_events]
    if not events:
        return [f"no timeline in {folder}: was {FOLDER_VARIABLE} set for the run?"]
    zero = min(e["at"] for e in events)
    lines, last_ends = [], {}
    spans: list[tuple[float, float, str, str]] = []  # (start, end, worker, test)
    for worker, worker_events in sorted(runs.items()):
        started: dict[str, float] = {}
        mine = []
        for e in worker_events:
            if e["event"] == "start":
                started[e["test"]] = e["at"]
            elif e["test"] in started:
                mine.append((started.pop(e["test"]) - zero, e["at"] - zero, worker, e["test"]))
        spans += mine
        if not mine:
            continue
        last_ends[worker] = max(end for _, end, _, _ in mine)
        busy = sum(end - start for start, end, _, _ in mine)
        lines.append(
            f"{worker}: {len(mine)} tests, {busy:.0f} s in tests, last ended at "
            f"{last_ends[worker]:.0f} s, {worker_events[-1]['cpu']:.0f} s of CPU"
        )
    ends = sorted(last_ends.values())
    if len(ends) > 1:
        others_done = ends[-2]
        tail = [s for s in spans if s[1] > others_done]
        lines.append(f"after every other worker was done ({others_done:.0f} s):")
        lines += [f"  {worker} {start:.0f}-{end:.0f} s {test}" for start, end, worker, test in tail]
    return lines


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/worker_timeline.py FOLDER")
    print("\n".join(summary(Path(sys.argv[1]))))  # noqa: T201
