"""Every storage test runs on both engines: a real SQLite file and a real PostgreSQL schema
(see ``tests/databases.py`` for how the PostgreSQL runs are enabled)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import GameRepository
from tests.databases import ENGINES, database_target


@pytest.fixture(params=ENGINES)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """An empty database of each engine: an SQLite path or a PostgreSQL URL."""
    async for target in database_target(request.param, tmp_path):
        yield target


@pytest.fixture
async def repo(database: str) -> AsyncIterator[GameRepository]:
    repository = await GameRepository.open(database)
    yield repository
    await repository.close()
