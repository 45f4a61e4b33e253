"""The computer players' tests compare decisions made twice (the same seed, the same
decision; hidden cards changed, the same decision). ``hard``'s only dependence on anything
but its inputs is its wall-clock safety net (``hard.DEADLINE``), which stops sampling early
on an overloaded machine: a busy CI machine would then decide differently on the second
call. It is off here; ``test_deadline.py`` tests it on its own."""

from __future__ import annotations

import pytest

from players import hard


@pytest.fixture(autouse=True)
def _no_wall_clock_in_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "DEADLINE", None)
