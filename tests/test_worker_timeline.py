"""tools/worker_timeline.py: the plugin records every test once, the summary finds the tail."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tools.worker_timeline import FOLDER_VARIABLE, summary

ROOT = Path(__file__).resolve().parent.parent


def _events(folder: Path, worker: str, spans: list[tuple[str, float, float]]) -> None:
    with open(folder / f"out-{worker}.jsonl", "w", encoding="utf-8") as out:
        for test, start, end in spans:
            for event, at in (("start", start), ("end", end)):
                out.write(json.dumps({"event": event, "test": test, "at": at, "cpu": 1.0}) + "\n")


def test_the_summary_names_the_tests_run_after_every_other_worker_was_done(
    tmp_path: Path,
) -> None:
    _events(tmp_path, "gw0", [("a", 100, 110), ("b", 110, 120)])
    _events(tmp_path, "gw1", [("e2e_1", 100, 115), ("e2e_2", 115, 160), ("e2e_3", 160, 200)])
    lines = summary(tmp_path)
    assert lines[0] == "gw0: 2 tests, 20 s in tests, last ended at 20 s, 1 s of CPU"
    assert lines[1] == "gw1: 3 tests, 100 s in tests, last ended at 100 s, 1 s of CPU"
    assert lines[2] == "after every other worker was done (20 s):"
    assert lines[3:] == ["  gw1 15-60 s e2e_2", "  gw1 60-100 s e2e_3"]


def test_the_plugin_records_each_test_of_a_run_with_workers_once(tmp_path: Path) -> None:
    tests = tmp_path / "suite"
    tests.mkdir()
    (tests / "test_some.py").write_text(
        "import pytest\n\n@pytest.mark.parametrize('n', range(6))\ndef test_n(n):\n    pass\n"
    )
    timeline = tmp_path / "timeline"
    timeline.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    env |= {FOLDER_VARIABLE: str(timeline), "PYTHONPATH": str(ROOT)}
    command = ["-m", "pytest", "-p", "tools.worker_timeline", "-p", "no:cacheprovider", "-n", "2"]
    run = subprocess.run(
        [sys.executable, *command],
        cwd=tests,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    ended = [
        json.loads(line)["test"]
        for path in timeline.glob("out-gw*.jsonl")
        for line in path.read_text().splitlines()
        if json.loads(line)["event"] == "end"
    ]
    assert sorted(ended) == sorted(f"test_some.py::test_n[{n}]" for n in range(6))
    counts = [int(line.split(": ")[1].split(" ")[0]) for line in summary(timeline)[:2]]
    assert sum(counts) == 6
