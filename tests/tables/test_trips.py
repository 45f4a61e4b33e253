"""Trips to the database per click (issue 26 item 2), counted on the connection itself.

A trip is what a player's click waits for: on SQLite one hand-off to aiosqlite's thread and
back (every aiosqlite call goes through ``Connection._execute``), on PostgreSQL one query
sent on the pool's only connection (a query logger sees each one; the pool's reset query on
release would be one too). A move from a click on a component of the current version costs
one trip (its compare-and-swap save), and a click that only shows the table one (the check
that the copy in memory is still the stored table).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from engine.auto import auto_action
from storage import GameRepository
from storage.postgres import PoolOptions
from tables.service import StaleClickError, TableService
from tables.table import Change, Table
from tests.databases import ENGINES, database_target

from .tables import player, user

CHANNEL = 42


class Trips:
    """Counts the trips of a repository's connection while ``counting`` is on."""

    def __init__(self) -> None:
        self.count = 0
        self.counting = False

    def __call__(self, *_: Any) -> None:
        if self.counting:
            self.count += 1

    def measure(self) -> Trips:
        self.count, self.counting = 0, True
        return self

    def stop(self) -> int:
        self.counting = False
        return self.count


@pytest.fixture(params=ENGINES)
async def repo_and_trips(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[GameRepository, Trips]]:
    trips = Trips()
    async for target in database_target(request.param, tmp_path):
        # One PostgreSQL connection, so the logger sees every query.
        repo = await GameRepository.open(target, pool=PoolOptions(min_size=1, max_size=1))
        try:
            db: Any = repo.db
            if repo.dialect == "sqlite":
                original = db.connection._execute

                async def counted(
                    fn: Any, *args: Any, original: Any = original, **kwargs: Any
                ) -> Any:
                    trips()
                    return await original(fn, *args, **kwargs)

                monkeypatch.setattr(db.connection, "_execute", counted)
            else:
                async with db.pool.acquire() as connection:
                    connection.add_query_logger(trips)
            yield repo, trips
        finally:
            await repo.close()


def move_of_current_seat(table: Table, now: float) -> Change:
    """What a hurried player plays: the timeout move of whoever's turn it is."""
    assert table.match is not None
    hand = table.match.hand
    seat = hand.current
    action = auto_action(hand, seat)
    assert action is not None
    return table.act(user(seat), action, now=now)


async def started(service: TableService) -> Table:
    table = await service.open(
        guild_id=1, channel_id=CHANNEL, host=player(0), preset="classic", options={}
    )
    for seat in (1, 2):
        await service.update(table.id, lambda tb, now, s=seat: tb.join(player(s), now=now))
    change = await service.update(
        table.id, lambda tb, now: tb.start(by=user(0), is_admin=False, now=now)
    )
    return change.table


async def click(service: TableService, table: Table, operation: Callable[..., Change]) -> Table:
    """A click on a component of ``table``'s version that makes a move, as the cog runs it."""
    clicked = await service.get(table.id, seen=table.version)
    assert clicked is not None
    change = await service.update(clicked.id, operation, version=clicked.version)
    return change.table


async def test_a_move_from_a_click_is_one_trip_to_the_database(
    repo_and_trips: tuple[GameRepository, Trips],
) -> None:
    repo, trips = repo_and_trips
    service = TableService(repo, randbits=random.Random(1).getrandbits)
    table = await started(service)
    table = await click(service, table, move_of_current_seat)  # PostgreSQL prepares once
    for _ in range(5):
        trips.measure()
        after = await click(service, table, move_of_current_seat)
        assert trips.stop() == 1
        assert after.version == table.version + 1
        table = after
    stored = await repo.load(table.id)
    assert stored is not None
    assert stored.version == table.version


async def test_showing_a_table_reads_once_and_a_stale_click_reads_the_stored_table(
    repo_and_trips: tuple[GameRepository, Trips], tmp_path: Path
) -> None:
    repo, trips = repo_and_trips
    service = TableService(repo, randbits=random.Random(2).getrandbits)
    table = await started(service)
    await service.get(table.id)
    trips.measure()
    assert await service.get(table.id) == table  # "Show my hand": is the copy current?
    assert trips.stop() == 1
    # Another writer moves the table on: the copy in memory is old, and a click on the old
    # version is refused with the stored table, found by the compare-and-swap.
    other = TableService(repo)
    moved = await click(other, table, move_of_current_seat)
    with pytest.raises(StaleClickError) as stale:
        await click(service, table, move_of_current_seat)
    assert stale.value.table == moved
    # A click on the version stored now, which this process has not seen yet, is read.
    again = await click(service, moved, move_of_current_seat)
    assert again.version == moved.version + 1
