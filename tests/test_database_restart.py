"""A database restart is expected trouble: one warning line each, no traceback.

A PostgreSQL restart ends every connection of the bot's pool: ``pg_ctl stop -m fast`` sends
each backend the FATAL "terminating connection due to administrator command" that
``pg_terminate_backend`` sends. What asyncpg raises at the next query depends on how much of
that farewell it has read: ``ConnectionDoesNotExistError``, or ``InternalClientError: cannot
switch to state 12; another operation (2) is in progress`` (which the clock used to log with
a traceback, as a bug); and asyncio reports a future of asyncpg's that nobody awaited
(``ConnectionError: unexpected connection_lost() call``, an ERROR with a traceback).

Here the test's own connections are ended that way on the shared test server, round after
round with different timings (the timing decides which error comes), under the bot's
logging set-up: every failure is an outage of the database, and the log holds warning lines
only. The whole restart, a private server stopped and started under the running bot, is in
``tests/e2e/test_faults.py``.
"""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import uuid
from collections.abc import Iterator

import asyncpg
import pytest

from hosting.logs import ExpectedTrouble, SafeFormatter, plain_formatter
from storage import GameRepository, is_outage
from tables import TableService
from tests.databases import drop_schema, fresh_schema, server_url, with_schema

ROUNDS = 24


@pytest.fixture
def bot_log() -> Iterator[io.StringIO]:
    """The root logger at INFO through the bot's filter and formatter, into a string."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ExpectedTrouble())
    handler.setFormatter(SafeFormatter(plain_formatter()))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


async def test_connections_the_server_ends_are_an_outage_in_one_line_each(
    bot_log: io.StringIO,
) -> None:
    url = server_url()
    schema = await fresh_schema(url)
    name = f"uno-restart-{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(url, timeout=5)
    repo = await GameRepository.open(f"{with_schema(url, schema)}&application_name={name}")
    service = TableService(repo)
    failures: list[Exception] = []
    try:
        for round_ in range(ROUNDS):
            await service.probe()  # a pooled connection, and the end of any outage
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = $1 AND pid <> pg_backend_pid()",
                name,
            )
            await asyncio.sleep((round_ % 4) * 0.001)  # the farewell read in part, or not
            for _ in range(3):
                try:
                    await service.probe()
                except Exception as exc:
                    failures.append(exc)
        await service.probe()
        assert not service.outages.down
        gc.collect()  # asyncio reports asyncpg's futures that nobody awaited
        await asyncio.sleep(0)
    finally:
        await repo.close()
        await admin.close()
        await drop_schema(url, schema)
    assert failures, "the server ended no query: the test proves nothing"
    assert [repr(exc) for exc in failures if not is_outage(exc)] == []
    lines = bot_log.getvalue().splitlines()
    assert "Traceback" not in bot_log.getvalue()
    assert [line for line in lines if "[WARNING ]" not in line] == []
    assert any("The database cannot be reached" in line for line in lines)
