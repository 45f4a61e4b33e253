"""Never stall on the database: another program's lock bounds a write, never the reads.

aiosqlite runs a connection's statements one after another on one thread; a write waiting
inside SQLite for another process's lock would hold up every read behind it (the bot once
stalled 5 s, and autocomplete missed Discord's 3 s). Writes now wait on the event loop
between short attempts, and give up with DatabaseBusyError after the write bound.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from storage import DatabaseBusyError, GameRepository, GuildSettings, TableRecord
from tests.databases import database_target
from tests.sqlite_tools import held_lock


def record(version: int = 0) -> TableRecord:
    return TableRecord(
        id="t1",
        guild_id=1,
        channel_id=10,
        status="lobby",
        version=version,
        state={"n": version},
        seats=(100,),
        created_at=1000.0,
        updated_at=1000.0 + version,
    )


async def open_repo(path: Path | str, write_wait: float) -> GameRepository:
    repo = await GameRepository.open(str(path), write_wait=write_wait)
    await repo.create(record())
    return repo


async def test_a_write_blocked_by_another_process_gives_up_and_changes_nothing(
    tmp_path: Path,
) -> None:
    repo = await open_repo(tmp_path / "uno.sqlite3", write_wait=0.3)
    try:
        with held_lock(tmp_path / "uno.sqlite3"):
            with pytest.raises(DatabaseBusyError) as excinfo:
                await repo.save(record(1), expected_version=0)
            with pytest.raises(DatabaseBusyError):
                await repo.set_meta("key", "value")
            with pytest.raises(DatabaseBusyError):
                # Boards, tournaments and settings write through the same bounded wait.
                await repo.settings.set_guild_settings(1, GuildSettings(language="it"))
        message = str(excinfo.value)
        assert "locked by another program" in message
        assert message.endswith(".")
        stored = await repo.load("t1")
        assert stored is not None
        assert stored.version == 0
        assert await repo.get_meta("key") is None
        assert await repo.settings.get_guild_settings(1) == GuildSettings()
        # Once the other program lets go, the same write goes through.
        await repo.save(record(1), expected_version=0)
        stored = await repo.load("t1")
        assert stored is not None
        assert stored.version == 1
    finally:
        await repo.close()


async def test_reads_go_on_while_a_write_waits_for_the_lock(tmp_path: Path) -> None:
    repo = await open_repo(tmp_path / "uno.sqlite3", write_wait=30.0)
    try:
        with held_lock(tmp_path / "uno.sqlite3") as holder:
            write = asyncio.create_task(repo.save(record(1), expected_version=0))
            await asyncio.sleep(0.2)  # the write is now waiting for the lock
            for _ in range(20):
                loaded = await repo.load("t1")
                assert loaded is not None
                assert loaded.version == 0
                assert await repo.live_id_in_channel(10) == "t1"
            assert not write.done()  # twenty reads answered while the write still waits
            holder.release()
            await write
        stored = await repo.load("t1")
        assert stored is not None
        assert stored.version == 1
    finally:
        await repo.close()


async def test_a_lock_released_within_the_bound_only_delays_the_write(tmp_path: Path) -> None:
    repo = await open_repo(tmp_path / "uno.sqlite3", write_wait=30.0)
    try:
        with held_lock(tmp_path / "uno.sqlite3") as holder:
            write = asyncio.create_task(repo.set_meta("key", "value"))
            await asyncio.sleep(0.3)
            assert not write.done()
            holder.release()
            await write
        assert await repo.get_meta("key") == "value"
    finally:
        await repo.close()


async def test_a_start_beside_another_programs_write_waits_for_it_to_end(tmp_path: Path) -> None:
    """Turning WAL on needs the file to itself, and SQLite answers "locked" at once there
    instead of waiting its busy timeout: a start beside another program's write (or two
    processes starting together on a new file) used to fail at once, "locked for more than 3
    seconds". It now tries again until the start-up bound, and opens once the lock is gone."""
    path = tmp_path / "uno.sqlite3"
    with held_lock(path) as holder:
        opening = asyncio.create_task(GameRepository.open(str(path), startup_wait=30.0))
        await asyncio.sleep(0.3)
        assert not opening.done()
        holder.release()
        repo = await opening
    try:
        assert await repo.db.fetchval("PRAGMA journal_mode") == "wal"
        await repo.create(record())
        assert await repo.load("t1") == record()
    finally:
        await repo.close()


async def test_postgres_a_write_blocked_by_another_client_gives_up_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """The same bound on PostgreSQL: another client holds the table's row (a transaction left
    open); the save waits ``write_wait`` for it (the pool's lock_timeout), then gives up."""
    async for url in database_target("postgresql", tmp_path):
        repo = await open_repo(url, write_wait=0.3)
        other = await asyncpg.connect(url)
        try:
            holding = other.transaction()
            await holding.start()
            await other.execute("SELECT * FROM tables WHERE id = 't1' FOR UPDATE")
            with pytest.raises(DatabaseBusyError):
                await repo.save(record(1), expected_version=0)
            loaded = await repo.load("t1")  # reads go on meanwhile
            assert loaded is not None
            assert loaded.version == 0
            await holding.rollback()
            await repo.save(record(1), expected_version=0)
            stored = await repo.load("t1")
            assert stored is not None
            assert stored.version == 1
        finally:
            await other.close()
            await repo.close()
