"""Regenerate the golden records: ``python tests/engine/golden/regenerate.py``.

Each golden file holds a seeded simulated match record (a few hands per preset) and the
snapshot it must replay to. Regenerate only deliberately — after an intended rule change —
and review the diff: a changed golden file means the engine now plays differently.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent.parent))

from engine import Rules  # noqa: E402
from engine.serialize import replay, to_dict  # noqa: E402
from engine.simulate import simulate  # noqa: E402

CASES = [
    ("classic", 4, 3),
    ("classic", 2, 3),
    ("online", 4, 2),
    ("tournament", 4, 2),
    ("elimination", 5, 3),
    ("party", 6, 2),
]


def main() -> None:
    """Write one golden file per case."""
    for preset, players, hands in CASES:
        report = simulate(
            Rules.from_preset(preset),
            preset=preset,
            players=players,
            hands=hands,
            seed=2026,
            keep_record=True,
        )
        assert report.record is not None
        record = report.record.to_dict()
        final = to_dict(replay(report.record))
        path = HERE / f"{preset}-{players}p.json"
        path.write_text(
            json.dumps({"record": record, "final": final}, indent=1) + "\n", encoding="utf-8"
        )
        print(f"wrote {path.name}: {len(record['actions'])} actions")  # noqa: T201


if __name__ == "__main__":
    main()
