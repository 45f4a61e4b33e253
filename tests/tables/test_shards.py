"""Shards: each process runs the tables of its own guilds; any process may change any table.

Two services on one SQLite file stand for two processes on one database.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import GameRepository
from tables import Clock, Shards, Table, TableService, shard_of
from tables.table import Change

from .tables import player, user

# Guild ids as Discord makes them: the shard is in the timestamp bits above bit 22.
GUILD_OF_SHARD = {0: 4 << 22 | 123, 1: 5 << 22 | 456}


def test_the_shard_of_a_guild_is_discords_formula() -> None:
    assert shard_of(GUILD_OF_SHARD[0], 2) == 0
    assert shard_of(GUILD_OF_SHARD[1], 2) == 1
    assert shard_of(GUILD_OF_SHARD[1], 1) == 0
    # The low 22 bits (worker, process, increment) never matter; the timestamp decides.
    guild = 197038439483310086
    assert shard_of(guild, 4) == (guild // 2**22) % 4
    assert shard_of(guild | (2**22 - 1), 4) == shard_of(guild & ~(2**22 - 1), 4)
    with pytest.raises(ValueError, match="at least 1"):
        shard_of(guild, 0)


def test_no_shard_ids_means_every_guild() -> None:
    for shards in (Shards(), Shards.of(None, None), Shards.of(4, None), Shards.of(2, (0, 1))):
        assert shards.every
        assert all(shards.owns(g) for g in GUILD_OF_SHARD.values())
    assert str(Shards()) == "every shard"


def test_shard_ids_own_only_their_guilds() -> None:
    first, second = Shards.of(2, (0,)), Shards.of(2, [1])
    assert first.owns(GUILD_OF_SHARD[0])
    assert not first.owns(GUILD_OF_SHARD[1])
    assert second.owns(GUILD_OF_SHARD[1])
    assert not second.owns(GUILD_OF_SHARD[0])
    assert str(Shards.of(4, (2, 0))) == "shards 0,2 of 4"
    for bad in ((), (2,), (-1,)):
        with pytest.raises(ValueError, match="are not shards of 2"):
            Shards.of(2, bad)


@pytest.fixture
async def two_processes(tmp_path: Path) -> AsyncIterator[tuple[TableService, TableService]]:
    """Shard 0 and shard 1 of 2, each with its own connection to one database file."""
    path = str(tmp_path / "uno.sqlite3")
    first = await GameRepository.open(path)
    second = await GameRepository.open(path)
    try:
        yield (
            TableService(first, randbits=random.Random(1).getrandbits, shards=Shards.of(2, [0])),
            TableService(second, randbits=random.Random(2).getrandbits, shards=Shards.of(2, [1])),
        )
    finally:
        await first.close()
        await second.close()


async def _open(service: TableService, guild: int, channel: int) -> Table:
    return await service.open(
        guild_id=guild, channel_id=channel, host=player(0), preset="classic", options={}
    )


async def test_each_process_resumes_only_the_tables_of_its_shards(
    two_processes: tuple[TableService, TableService],
) -> None:
    zero, one = two_processes
    a = await _open(zero, GUILD_OF_SHARD[0], 10)
    b = await _open(one, GUILD_OF_SHARD[1], 11)
    assert [t.id for t in await zero.live_tables()] == [a.id]
    assert [t.id for t in await one.live_tables()] == [b.id]
    everyone = TableService(zero.repo)
    assert {t.id for t in await everyone.live_tables()} == {a.id, b.id}


async def test_the_clock_never_wakes_a_table_of_another_shard(
    two_processes: tuple[TableService, TableService],
) -> None:
    """A lobby's deadline arms a timer only in the process of its guild's shard."""
    zero, one = two_processes
    mine = await _open(zero, GUILD_OF_SHARD[0], 10)
    theirs = await _open(one, GUILD_OF_SHARD[1], 11)
    clock = Clock(zero)
    try:
        clock.watch(mine)
        clock.watch(theirs)
        assert set(clock._timers) == {mine.id}
        assert await clock.resume() == 1
        assert set(clock._timers) == {mine.id}
    finally:
        clock.stop()


async def test_a_change_from_another_process_is_not_lost(
    two_processes: tuple[TableService, TableService],
) -> None:
    """/uno forget-me runs in whichever process got the click and renames the person at a
    table of another shard; the owner's next change starts from the renamed table."""
    zero, one = two_processes
    table = await _open(one, GUILD_OF_SHARD[1], 11)
    joined = await one.update(table.id, lambda tb, now: tb.join(player(1), now=now))
    assert await zero.forget(user(1)) == 1  # the seat's name at a table zero does not run

    def start(tb: Table, now: float) -> Change:
        return tb.start(by=user(0), is_admin=False, now=now)

    started = await one.update(table.id, start)  # its cached copy is old: it reads again
    assert started.table.version == joined.table.version + 2
    assert started.table.players[1].name != joined.table.players[1].name
    assert started.table.match is not None
