"""The alive stamp (``cogs/uno/_gateway.py``): written while players can act, and read at the
next start as the moment the bot stopped (R-TIME-1's time given back after a restart).

The end-to-end proof, a ``kill -9`` between two stamps, is ``tests/e2e/test_restarts.py``;
here are the rules, on an in-memory database with the tables' clock in the test's hands.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.uno import _gateway
from cogs.uno._gateway import NO_STAMP, RESTART, GatewayWatch, cause_of
from storage import GameRepository
from tables import Outages
from tables.clock import DATABASE

KEY = "alive:every shard"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def repo() -> AsyncIterator[GameRepository]:
    repo = await GameRepository.open(":memory:")
    yield repo
    await repo.close()


class Meta:
    """The repository's two meta calls the watch uses, with writes that can fail and that
    tell the test when one is done."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.failing = False
        self.attempts = 0
        self.wrote = asyncio.Event()

    async def get_meta(self, key: str) -> str | None:
        return await self.repo.get_meta(key)

    async def set_meta(self, key: str, value: str) -> None:
        self.attempts += 1
        try:
            if self.failing:
                raise OSError("disk full")
            await self.repo.set_meta(key, value)
        finally:
            self.wrote.set()

    async def next_write(self) -> None:
        self.wrote.clear()
        await asyncio.wait_for(self.wrote.wait(), 10)


def watch_on(meta: Meta, clock: Clock) -> GatewayWatch:
    client: Any = SimpleNamespace(shard_count=1)
    return GatewayWatch(client, Outages(clock), meta, alive_key=KEY, clock=clock)  # type: ignore[arg-type]


async def stamp_of(repo: GameRepository) -> float | None:
    value = await repo.get_meta(KEY)
    return None if value is None else float(value)


async def stopped(watch: GatewayWatch) -> None:
    await watch.cog_unload()
    await asyncio.sleep(0)


async def test_r_time_1_the_stamp_is_written_from_ready_on_and_read_at_the_next_start(
    repo: GameRepository,
) -> None:
    clock, meta = Clock(), Meta(repo)
    first = watch_on(meta, clock)
    await first.cog_load()
    assert await stamp_of(repo) is None  # not READY yet: nobody could act
    written = asyncio.ensure_future(meta.next_write())
    await first.on_ready()
    await written  # at once, not a period later
    assert await stamp_of(repo) == clock.now
    first._stamping.cancel()  # type: ignore[union-attr]  # a crash: no last stamp
    died = clock.now
    clock.now += 300
    second = watch_on(meta, clock)
    await second.cog_load()
    assert second.outages.down_for((RESTART,))
    assert second.outages.lost(died - 100) == pytest.approx(300)  # from the stamp on
    await stopped(second)


async def test_r_time_1_a_start_that_never_got_ready_leaves_the_stamp_alone(
    repo: GameRepository,
) -> None:
    clock = Clock()
    await repo.set_meta(KEY, repr(clock.now))
    clock.now += 60
    aborted = watch_on(Meta(repo), clock)
    await aborted.cog_load()
    clock.now += 30
    await stopped(aborted)  # a clean stop too: its players never could act
    assert await stamp_of(repo) == clock.now - 90


async def test_r_time_1_no_stamp_gives_a_running_turn_its_whole_time(
    repo: GameRepository, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    watch = watch_on(Meta(repo), clock)
    await watch.cog_load()
    clock.now += 5
    with caplog.at_level(logging.INFO, logger=_gateway.log.name):
        await watch.on_ready()
    turn_began = clock.now - 40
    assert watch.outages.lost(turn_began) == pytest.approx(40)
    assert watch.outages.lost(NO_STAMP, clock.now) == pytest.approx(clock.now)
    assert "No alive stamp of an earlier run" in caplog.text
    await stopped(watch)


async def test_no_stamp_while_the_database_is_down(repo: GameRepository) -> None:
    """Nobody can act then either; and the table service has said so already."""
    clock, meta = Clock(), Meta(repo)
    watch = watch_on(meta, clock)
    await watch.cog_load()
    written = asyncio.ensure_future(meta.next_write())
    await watch.on_ready()
    await written
    watch.outages.begin(DATABASE)
    attempts = meta.attempts
    clock.now += 20
    await stopped(watch)
    assert meta.attempts == attempts
    assert await stamp_of(repo) == clock.now - 20


async def test_no_stamp_while_a_shard_cannot_hear_its_players(repo: GameRepository) -> None:
    clock, meta = Clock(), Meta(repo)
    watch = watch_on(meta, clock)
    await watch.cog_load()
    written = asyncio.ensure_future(meta.next_write())
    await watch.on_ready()
    await written
    heard = clock.now
    await watch.on_shard_disconnect(0)
    clock.now += 20
    await stopped(watch)  # the stop comes in the outage: the stamp stays before it
    assert await stamp_of(repo) == heard
    assert watch.outages.down_for((cause_of(0),))


async def test_a_failing_stamp_is_one_warning_and_its_return_one_line(
    repo: GameRepository, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_gateway, "ALIVE_EVERY", 0.01)
    meta = Meta(repo)
    meta.failing = True
    watch = watch_on(meta, Clock())
    await repo.set_meta(KEY, "1.0")
    await watch.cog_load()
    with caplog.at_level(logging.DEBUG, logger=_gateway.log.name):
        written = asyncio.ensure_future(meta.next_write())
        await watch.on_ready()
        for _ in range(3):
            await written
            written = asyncio.ensure_future(meta.next_write())
        meta.failing = False
        await written
        await stopped(watch)
    said = [r for r in caplog.records if "stamp" in r.getMessage()]
    assert [r.levelname for r in said] == ["WARNING", "INFO"], caplog.text
    assert "OSError: disk full" in said[0].getMessage()
    assert meta.attempts >= 4
    assert await stamp_of(repo) != 1.0
