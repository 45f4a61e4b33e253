"""Machine instructions per engine step, counted by valgrind's cachegrind: a figure that the
load of a shared machine does not move (CPU times do, by a fifth from run to run here).

- ``step``: instructions per step of the play-first loop of ``benchmarks/engine_bench.py``
  (the difference between a run of ``--hands`` hands and a run of none, over its steps);
- ``build``: instructions to build one slotted dataclass of ``--fields`` fields, frozen and
  not (why ``GameState`` and the events are not ``frozen=True``: docs/engine.md).

Needs ``valgrind`` on the PATH.

    python benchmarks/engine_instructions.py [--hands 60] [--fields 29]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHEGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null")

STEPS = """
import sys
sys.path[:0] = [{root!r}, {bench!r}]
import engine_bench
print(engine_bench.engine_play_first({hands}, 1)[0])
"""

BUILD = """
from dataclasses import dataclass, make_dataclass
names = [f"f{{i}}" for i in range({fields})]
cls = make_dataclass("Built", names, frozen={frozen}, slots=True)
values = list(range({fields}))
for _ in range({count}):
    cls(*values)
"""


def instructions(code: str) -> tuple[int, str]:
    """Instructions that ``python -c code`` executes, and what it printed."""
    run = subprocess.run(
        [*CACHEGRIND, sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    assert found is not None, run.stderr
    return int(found.group(1).replace(",", "")), run.stdout


def main() -> None:
    """Print one JSON line per figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--fields", type=int, default=29)
    args = parser.parse_args()
    paths = {"root": str(ROOT), "bench": str(ROOT / "benchmarks")}
    every, printed = instructions(STEPS.format(hands=args.hands, **paths))
    none, _ = instructions(STEPS.format(hands=0, **paths))
    steps = int(printed)
    print(json.dumps({"part": "step", "steps": steps, "instructions": (every - none) // steps}))
    for frozen in (True, False):
        many, _ = instructions(BUILD.format(fields=args.fields, frozen=frozen, count=20_000))
        few, _ = instructions(BUILD.format(fields=args.fields, frozen=frozen, count=0))
        each = (many - few) // 20_000
        print(
            json.dumps(
                {"part": "build", "fields": args.fields, "frozen": frozen, "instructions": each}
            )
        )


if __name__ == "__main__":
    main()
