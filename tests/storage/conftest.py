"""A repository on a real SQLite file for every storage test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import GameRepository


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[GameRepository]:
    repository = await GameRepository.open(str(tmp_path / "uno.sqlite3"))
    yield repository
    await repository.close()
