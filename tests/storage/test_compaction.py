"""Bounded data (issue 12): finished tables' logs are compacted, old finished tables go,
results and ratings stay; live tables are never touched."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import pytest

from storage import ActionRow, GameRepository, TableRecord, compaction
from storage.boards import FORGOTTEN
from storage.compaction import BATCH, COMPACT_AFTER, DAY, compact, keep_bounded
from storage.connection import DatabaseBusyError

from .matches import GUILD, result, seat, table


async def played(
    repo: GameRepository, table_id: str, *, moves: int, finished_at: float | None
) -> list[tuple[int, int | None, str]]:
    """A table with ``moves`` saves of two actions each; finished (with its result) at
    ``finished_at``, or still playing for ``None``. Its action log."""
    first = table(table_id, seats=(1, 2), updated_at=0.0)
    await repo.create(first, [ActionRow(None, "open")])
    for version in range(1, moves + 1):
        await repo.save(
            TableRecord(**{**_fields(first), "version": version, "updated_at": float(version)}),
            expected_version=version - 1,
            actions=[ActionRow(version % 2, f"R{version % 10}"), ActionRow(None, "uno")],
        )
    if finished_at is not None:
        await repo.save(
            TableRecord(
                **{
                    **_fields(first),
                    "version": moves + 1,
                    "status": "finished",
                    "updated_at": finished_at,
                }
            ),
            expected_version=moves,
            actions=[ActionRow(0, "end")],
            result=result(table_id, seat(1, 1), seat(2, 2), finished_at=finished_at),
        )
    return await repo.actions(table_id)


def _fields(record: TableRecord) -> dict[str, object]:
    return {name: getattr(record, name) for name in TableRecord.__slots__}


async def count(repo: GameRepository, sql: str) -> int:
    return int(await repo.db.fetchval(sql))


async def test_a_finished_tables_log_becomes_one_record_and_reads_the_same(
    repo: GameRepository,
) -> None:
    now = 10 * DAY
    log_old = await played(repo, "old", moves=30, finished_at=now - 2 * COMPACT_AFTER)
    log_recent = await played(repo, "recent", moves=5, finished_at=now - COMPACT_AFTER / 2)
    log_live = await played(repo, "live", moves=5, finished_at=None)
    assert len(log_old) == 1 + 30 * 2 + 1
    old_table = await repo.load("old")
    assert await repo.tidy(now) == (1, 0)
    assert await repo.load("old") == old_table  # state (seed included) read back whole
    assert await repo.actions("old") == log_old  # the record reads back exactly
    assert await repo.actions("recent") == log_recent
    assert await repo.actions("live") == log_live
    assert await count(repo, "SELECT COUNT(*) FROM actions WHERE table_id = 'old'") == 0
    assert await count(repo, "SELECT COUNT(*) FROM table_records") == 1
    assert await count(repo, "SELECT COUNT(*) FROM tables WHERE state = ''") == 1
    assert await repo.tidy(now) == (0, 0)  # nothing left to do


async def test_forget_me_renames_the_player_in_compacted_records_too(
    repo: GameRepository,
) -> None:
    first = table(
        "named",
        seats=(1, 2),
        updated_at=0.0,
        state={"players": [{"user_id": 1, "name": "Ann"}, {"user_id": 2, "name": "Bob"}]},
    )
    await repo.create(first)
    await repo.save(
        TableRecord(**{**_fields(first), "version": 1, "status": "finished", "updated_at": 1.0}),
        expected_version=0,
        actions=[ActionRow(0, "end")],
    )
    assert await repo.tidy(10 * DAY) == (1, 0)
    await repo.boards.forget_user(1)
    stored = await repo.load("named")
    assert stored is not None
    assert stored.state["players"] == [
        {"user_id": 1, "name": FORGOTTEN},
        {"user_id": 2, "name": "Bob"},
    ]
    assert await repo.actions("named") == [(1, 0, "end")]


async def test_finished_tables_go_after_the_retention_and_results_stay(
    repo: GameRepository,
) -> None:
    now = 200 * DAY
    await played(repo, "ancient", moves=3, finished_at=now - 91 * DAY)
    await played(repo, "kept", moves=3, finished_at=now - 89 * DAY)
    await played(repo, "idle", moves=3, finished_at=None)  # live however old: untouched
    before = await repo.boards.stats(GUILD, 1)
    assert before is not None
    assert before.matches == 2
    assert await repo.tidy(now, retention_days=90) == (1, 1)
    assert await repo.load("ancient") is None
    assert await repo.actions("ancient") == []
    assert await repo.load("kept") is not None
    assert await repo.load("idle") is not None
    # The result, the ratings and the boards stay.
    assert await repo.boards.stats(GUILD, 1) == before
    assert await count(repo, "SELECT COUNT(*) FROM match_results") == 2
    assert await count(repo, "SELECT COUNT(*) FROM player_results WHERE mu IS NOT NULL") == 4


async def test_a_retention_of_zero_keeps_finished_tables_for_good(repo: GameRepository) -> None:
    await played(repo, "ancient", moves=3, finished_at=1.0)
    assert await repo.tidy(1000 * DAY, retention_days=0) == (1, 0)
    assert await repo.load("ancient") is not None


async def test_compaction_goes_in_small_batches_and_play_goes_on_between_them(
    repo: GameRepository,
) -> None:
    now = 10 * DAY
    for n in range(BATCH * 2 + 1):
        await played(repo, f"f{n}", moves=2, finished_at=1.0)
    assert await compact(repo.db, before=now) == BATCH  # one transaction does one batch
    await played(repo, "live", moves=1, finished_at=None)
    moves: list[int] = []

    async def play() -> None:
        for version in range(2, 12):
            await repo.save(
                table("live", version=version, seats=(1, 2)),
                expected_version=version - 1,
                actions=[ActionRow(0, "draw")],
            )
            moves.append(version)

    tidied, _ = await asyncio.gather(repo.tidy(now), play())
    assert tidied == (BATCH + 1, 0)
    assert moves == list(range(2, 12))
    assert await count(repo, "SELECT COUNT(*) FROM table_records") == BATCH * 2 + 1


async def test_the_periodic_job_tidies_until_cancelled(repo: GameRepository) -> None:
    await played(repo, "old", moves=2, finished_at=1.0)
    job = asyncio.create_task(keep_bounded(repo.db, interval=0.01, clock=lambda: 10 * DAY))
    try:
        for _ in range(500):
            if await count(repo, "SELECT COUNT(*) FROM table_records") == 1:
                break
            await asyncio.sleep(0.01)
        assert await count(repo, "SELECT COUNT(*) FROM table_records") == 1
        assert not job.done()  # it keeps running for the next round
    finally:
        job.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await job


async def test_tidying_waits_its_turn_while_play_keeps_the_database_busy(
    repo: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No free connection (a pool busy with play) or a lock held: a batch waits and tries
    again instead of failing (a cluster's compaction used to log a pool timeout)."""
    await played(repo, "old", moves=2, finished_at=1.0)
    transaction = repo.db.transaction
    busy = [3]

    def crowded() -> Any:
        if busy[0]:
            busy[0] -= 1
            raise DatabaseBusyError(0.01)
        return transaction()

    monkeypatch.setattr(repo.db, "transaction", crowded)
    monkeypatch.setattr(compaction, "BUSY_WAITS", (0.01, 0.01, 0.01, 0.01))
    assert await repo.tidy(10 * DAY, retention_days=0) == (1, 0)
    assert busy == [0]


async def test_a_database_that_cannot_be_reached_is_one_line_for_the_periodic_job(
    repo: GameRepository, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def restarting(*args: Any, **kwargs: Any) -> tuple[int, int]:
        raise ConnectionRefusedError("the server is restarting")

    monkeypatch.setattr(compaction, "tidy", restarting)
    caplog.set_level(logging.INFO, logger="storage.compaction")
    job = asyncio.create_task(keep_bounded(repo.db, interval=0.01))
    try:
        for _ in range(500):
            if len(caplog.records) >= 2:
                break
            await asyncio.sleep(0.01)
    finally:
        job.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await job
    assert caplog.records
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in caplog.records)
    assert "waits for the database" in caplog.records[0].getMessage()
