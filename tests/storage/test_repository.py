"""GameRepository on a real SQLite file and a real PostgreSQL schema: migrations, round-trips,
compare-and-swap, logs."""

from __future__ import annotations

import asyncio
import sqlite3
from importlib import resources
from pathlib import Path

import pytest

from engine.errors import StaleStateError
from storage import ActionRow, ChannelBusyError, GameRepository, TableRecord
from storage.repository import _migrations


def record(table_id: str = "t1", *, channel: int = 10, version: int = 0, **changes: object):
    base = {
        "id": table_id,
        "guild_id": 1,
        "channel_id": channel,
        "status": "lobby",
        "version": version,
        "state": {"players": [{"user": 100}], "n": version},
        "seats": (100,),
        "created_at": 1000.0,
        "updated_at": 1000.0 + version,
    }
    base.update(changes)
    return TableRecord(**base)  # type: ignore[arg-type]


async def test_migrations_apply_once_from_zero(database: str) -> None:
    first = await GameRepository.open(database)
    assert await first.schema_version() >= 1
    assert await first.migrate() == []  # nothing left to apply
    await first.close()
    again = await GameRepository.open(database)
    assert await again.migrate() == []
    rows = await again.db.fetchall("SELECT name FROM schema_migrations ORDER BY version")
    await again.close()
    names = [row[0] for row in rows]
    assert names == [name for _, name, _ in _migrations(again.dialect)]
    assert names[:4] == ["0001_tables.sql", "0002_meta.sql", "0003_results.sql", "0004_options.sql"]
    assert names[4] == "0005_records.sql"


async def test_both_engines_know_the_same_schema_versions() -> None:
    """PostgreSQL reads its own file where the dialects differ, and the shared one elsewhere;
    no file of its own stands without a SQLite twin (a version SQLite would never get)."""
    sqlite = _migrations("sqlite")
    postgresql = _migrations("postgresql")
    assert [n for n, _, _ in sqlite] == [n for n, _, _ in postgresql]
    assert [name for _, name, _ in sqlite] == [name for _, name, _ in postgresql]
    folder = resources.files("storage.migrations") / "postgresql"
    own = {entry.name for entry in folder.iterdir() if entry.name.endswith(".sql")}
    assert own <= {name for _, name, _ in sqlite}
    differ = {name for (_, name, a), (_, _, b) in zip(sqlite, postgresql, strict=True) if a != b}
    assert differ == own
    assert "BIGINT" in {name: sql for _, name, sql in postgresql}["0001_tables.sql"]


async def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    path = str(tmp_path / "fresh.sqlite3")
    repo = await GameRepository.open(path)
    await repo.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize(("level", "code"), [(None, 2), ("FULL", 2), ("NORMAL", 1)])
async def test_sqlite_syncs_every_commit_unless_told(
    tmp_path: Path, level: str | None, code: int
) -> None:
    """FULL (2) by default: an acknowledged move survives a power cut; NORMAL (1) on request."""
    path = str(tmp_path / "durable.sqlite3")
    repo = await (
        GameRepository.open(path, synchronous=level) if level else GameRepository.open(path)
    )
    try:
        assert await repo.db.fetchval("PRAGMA synchronous") == code
    finally:
        await repo.close()


async def test_processes_starting_together_migrate_once(database: str) -> None:
    """A cluster's processes start at once on one database: one applies the migrations."""
    repos = await asyncio.gather(*(GameRepository.open(database) for _ in range(3)))
    try:
        rows = await repos[0].db.fetchall("SELECT version FROM schema_migrations")
        assert sorted(row[0] for row in rows) == [n for n, _, _ in _migrations(repos[0].dialect)]
    finally:
        for repo in repos:
            await repo.close()


async def test_create_and_load_round_trip(repo: GameRepository) -> None:
    await repo.create(record(), [ActionRow(None, "open")])
    loaded = await repo.load("t1")
    assert loaded == record()
    assert await repo.actions("t1") == [(0, None, "open")]
    assert await repo.load("missing") is None


async def test_one_live_table_per_channel(repo: GameRepository) -> None:
    await repo.create(record("a"))
    with pytest.raises(ChannelBusyError):
        await repo.create(record("b"))
    assert await repo.load("b") is None
    # Once the first is finished, the channel is free again.
    await repo.save(record("a", version=1, status="finished"), expected_version=0)
    await repo.create(record("b"))
    live = await repo.live_in_channel(10)
    assert live is not None
    assert live.id == "b"


async def test_save_is_a_compare_and_swap(repo: GameRepository) -> None:
    await repo.create(record())
    await repo.save(record(version=1), expected_version=0, actions=[ActionRow(0, "R7")])
    with pytest.raises(StaleStateError):
        await repo.save(record(version=2), expected_version=0, actions=[ActionRow(0, "G7")])
    stored = await repo.load("t1")
    assert stored is not None
    assert stored.version == 1
    assert stored.state["n"] == 1
    assert await repo.actions("t1") == [(1, 0, "R7")]  # the losing write logged nothing


async def test_two_concurrent_writers_never_both_win(repo: GameRepository) -> None:
    await repo.create(record())
    results = await asyncio.gather(
        repo.save(record(version=1, state={"who": "a"}), expected_version=0),
        repo.save(record(version=1, state={"who": "b"}), expected_version=0),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert sum(isinstance(r, StaleStateError) for r in results) == 1
    stored = await repo.load("t1")
    assert stored is not None
    assert stored.version == 1


async def test_save_must_move_the_version_forward(repo: GameRepository) -> None:
    await repo.create(record())
    with pytest.raises(ValueError, match="forward"):
        await repo.save(record(version=0), expected_version=0)


async def test_seats_follow_the_state_and_find_a_users_tables(repo: GameRepository) -> None:
    await repo.create(record("a", seats=(100, 200)))
    await repo.create(record("b", channel=11, seats=(300,)))
    assert [t.id for t in await repo.live_tables_of(200)] == ["a"]
    await repo.save(record("a", version=1, seats=(100,)), expected_version=0)
    assert await repo.live_tables_of(200) == []
    assert [t.id for t in await repo.live_tables()] == ["a", "b"]


async def test_committed_state_survives_reopening(database: str) -> None:
    first = await GameRepository.open(database)
    await first.create(record())
    await first.save(record(version=1, status="playing"), expected_version=0)
    await first.set_message("t1", 555)
    await first.close()
    second = await GameRepository.open(database)
    stored = await second.load("t1")
    await second.close()
    assert stored is not None
    assert (stored.version, stored.status, stored.message_id) == (1, "playing", 555)


async def test_saves_of_different_tables_do_not_interleave_transactions(
    repo: GameRepository,
) -> None:
    """One connection serves every table: concurrent saves must take turns, not collide."""
    ids = [f"t{i}" for i in range(20)]
    for i, table_id in enumerate(ids):
        await repo.create(record(table_id, channel=100 + i))
    await asyncio.gather(
        *(
            repo.save(
                record(t, channel=100 + i, version=1),
                expected_version=0,
                actions=[ActionRow(0, "draw"), ActionRow(1, "R7")],
            )
            for i, t in enumerate(ids)
        )
    )
    for table_id in ids:
        stored = await repo.load(table_id)
        assert stored is not None
        assert stored.version == 1
        assert await repo.actions(table_id) == [(1, 0, "draw"), (1, 1, "R7")]


async def test_a_move_is_one_statement_on_postgresql_and_never_rewrites_unchanged_seats(
    repo: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 11 item 4: a move costs one round trip where the engine allows it."""
    await repo.create(record(seats=(100, 200)))
    statements: list[str] = []
    if repo.dialect == "sqlite":
        await repo.db.connection.set_trace_callback(statements.append)  # type: ignore[attr-defined]
    else:
        transactions: list[object] = []
        write_one = repo.db.write_one

        async def counted(sql: str, params: object = ()) -> int:
            statements.append(sql)
            return await write_one(sql, params)  # type: ignore[arg-type]

        def no_transaction() -> object:
            transactions.append(True)
            raise AssertionError("a plain move needs no multi-statement transaction")

        monkeypatch.setattr(repo.db, "write_one", counted)
        monkeypatch.setattr(repo.db, "transaction", no_transaction)
    await repo.save(
        record(version=1, seats=(100, 200)),
        expected_version=0,
        actions=[ActionRow(0, "R7"), ActionRow(0, "uno")],
    )
    if repo.dialect == "sqlite":
        await repo.db.connection.set_trace_callback(None)  # type: ignore[attr-defined]
        assert [s.split()[0] for s in statements] == [
            "BEGIN",
            "UPDATE",
            "INSERT",
            "INSERT",
            "COMMIT",
        ]
    else:
        assert len(statements) == 1
    assert not any("table_seats" in s for s in statements)
    assert await repo.actions("t1") == [(1, 0, "R7"), (1, 0, "uno")]
    assert [t.seats for t in await repo.live_tables()] == [(100, 200)]


async def test_seats_changed_by_another_process_are_never_lost(database: str) -> None:
    """Each process remembers the seats of the versions it saw; a compare-and-swap from an
    old version fails, and the next save starts from the seats stored now."""
    first = await GameRepository.open(database)
    second = await GameRepository.open(database)
    try:
        await first.create(record(seats=(100, 200)))
        seen = await second.load("t1")
        assert seen is not None
        await second.save(record(version=1, seats=(100, 300)), expected_version=0)
        with pytest.raises(StaleStateError):
            await first.save(record(version=1, seats=(100, 200)), expected_version=0)
        current = await first.load("t1")
        assert current is not None
        assert current.seats == (100, 300)
        await first.save(record(version=2, seats=(100, 300)), expected_version=1)
        assert [t.id for t in await first.live_tables_of(300)] == ["t1"]
        assert await first.live_tables_of(200) == []
    finally:
        await first.close()
        await second.close()
