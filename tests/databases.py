"""Both database engines for the storage tests: an SQLite file, or a fresh PostgreSQL schema.

The PostgreSQL runs need a server: ``TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test``
enables them. Without it they are skipped, with one line saying so; with it, a server that
cannot be reached fails them (CI sets the URL, so CI can never pass with them skipped).
``REQUIRE_POSTGRES=1`` makes a missing URL a failure too.

Each test gets its own schema (``search_path`` in the URL), dropped afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

URL_VARIABLE = "TEST_DATABASE_URL"
REQUIRE_VARIABLE = "REQUIRE_POSTGRES"
EXAMPLE_URL = "postgresql://postgres@127.0.0.1:5432/test"
SKIP_REASON = (
    f"PostgreSQL runs skipped: set {URL_VARIABLE}={EXAMPLE_URL} (a server with that "
    "database) to run every storage test on PostgreSQL too"
)
ENGINES = ("sqlite", "postgresql")


def server_url() -> str:
    """The test server's URL, or skip (fail when ``REQUIRE_POSTGRES=1``)."""
    url = os.environ.get(URL_VARIABLE, "").strip()
    if not url:
        if os.environ.get(REQUIRE_VARIABLE, "").strip() in ("1", "true", "yes"):
            pytest.fail(f"{REQUIRE_VARIABLE} is set but {URL_VARIABLE} is not", pytrace=False)
        pytest.skip(SKIP_REASON)
    return url


def with_schema(url: str, schema: str) -> str:
    """``url`` with its connections confined to ``schema``."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def fresh_schema(url: str) -> str:
    """Create an empty schema for one test; its name. Fails in one line if the server that
    ``TEST_DATABASE_URL`` names cannot be reached (the runs were asked for)."""
    schema = f"test_{uuid.uuid4().hex[:16]}"
    try:
        connection = await asyncpg.connect(url, timeout=5)
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        pytest.fail(f"{URL_VARIABLE}={url}: cannot reach the server ({exc})", pytrace=False)
    try:
        await connection.execute(f"CREATE SCHEMA {schema}")
    finally:
        await connection.close()
    return schema


async def drop_schema(url: str, schema: str) -> None:
    connection = await asyncpg.connect(url, timeout=5)
    try:
        await connection.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await connection.close()


async def database_target(engine: str, tmp_path: Path) -> AsyncIterator[str]:
    """What ``GameRepository.open`` takes for ``engine``: a file path or a URL, emptied."""
    if engine == "sqlite":
        yield str(tmp_path / "uno.sqlite3")
        return
    url = server_url()
    schema = await fresh_schema(url)
    try:
        yield with_schema(url, schema)
    finally:
        await drop_schema(url, schema)
