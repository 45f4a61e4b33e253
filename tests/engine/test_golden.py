"""Golden records (our perft): seeded matches that must replay to the stored snapshot.

A failure means the engine now plays these games differently. If that was intended, run
``python tests/engine/golden/regenerate.py`` and review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.serialize import GameRecord, replay, to_dict

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_there_are_golden_records_for_every_preset() -> None:
    presets = {path.name.rsplit("-", 1)[0] for path in GOLDEN}
    assert presets == {"classic", "online", "tournament", "elimination", "party"}


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_replays_to_the_stored_snapshot(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    record = GameRecord.from_dict(data["record"])
    assert to_dict(replay(record)) == data["final"]
