"""TableService on a real SQLite file: load → change → save, locks and the version check."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine import parse_action
from storage import GameRepository
from tables.service import StaleClickError, TableService, new_table_id
from tables.table import Change, Player, Table, TableError

from .tables import player, user

CHANNEL = 42


class Clock:
    """A clock that moves one second per reading."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "uno.sqlite3")


@pytest.fixture
async def repo(db_path: str) -> AsyncIterator[GameRepository]:
    repository = await GameRepository.open(db_path)
    yield repository
    await repository.close()


@pytest.fixture
def service(repo: GameRepository) -> TableService:
    return TableService(repo, clock=Clock(), randbits=random.Random(1).getrandbits)


async def open_table(service: TableService, channel: int = CHANNEL, **options: object) -> Table:
    return await service.open(
        guild_id=1, channel_id=channel, host=player(0), preset="classic", options=options
    )


def join(who: Player):
    def operation(table: Table, now: float) -> Change:
        return table.join(who, now=now)

    return operation


def start(table: Table, now: float) -> Change:
    return table.start(by=user(0), is_admin=False, now=now)


def test_table_ids_are_ten_base36_characters() -> None:
    assert new_table_id(lambda bits: 0) == "0" * 10
    # 51 random bits fit in ten base-36 digits (least significant first): no id collides.
    for value in (1, 35, 36, 2**51 - 1):
        assert int(new_table_id(lambda bits, v=value: v)[::-1], 36) == value
    rnd = random.Random(3)
    for _ in range(200):
        table_id = new_table_id(rnd.getrandbits)
        assert len(table_id) == 10
        assert set(table_id) <= set("0123456789abcdefghijklmnopqrstuvwxyz")


async def test_open_stores_a_lobby(service: TableService, repo: GameRepository) -> None:
    table = await open_table(service)
    assert table.status == "lobby"
    assert table.channel_id == CHANNEL
    assert await service.get(table.id) == table
    assert await service.in_channel(CHANNEL) == table
    record = await repo.load(table.id)
    assert record is not None
    assert record.seats == (user(0),)


async def test_one_live_table_per_channel(service: TableService) -> None:
    await open_table(service)
    with pytest.raises(TableError) as excinfo:
        await open_table(service)
    assert excinfo.value.code == "channel_busy"
    other = await open_table(service, channel=CHANNEL + 1)
    assert other.channel_id == CHANNEL + 1


async def test_a_closed_table_frees_the_channel(service: TableService) -> None:
    table = await open_table(service)
    await service.update(table.id, lambda tb, now: tb.end(by=user(0), is_admin=False, now=now))
    assert await service.in_channel(CHANNEL) is None
    again = await open_table(service)
    assert again.id != table.id


async def test_open_with_bad_rules_stores_nothing(service: TableService) -> None:
    with pytest.raises(TableError) as excinfo:
        await open_table(service, target=-5)
    assert excinfo.value.code == "bad_rules"
    assert await service.in_channel(CHANNEL) is None


async def test_update_saves_before_returning(service: TableService, db_path: str) -> None:
    table = await open_table(service)
    change = await service.update(table.id, join(player(1)))
    assert change.table.version == table.version + 1
    second = await GameRepository.open(db_path)
    try:
        record = await second.load(table.id)
        assert record is not None
        assert Table.from_record(record) == change.table
        assert record.seats == (user(0), user(1))
    finally:
        await second.close()


async def test_a_running_match_survives_a_new_connection(
    service: TableService, db_path: str
) -> None:
    table = await open_table(service)
    await service.update(table.id, join(player(1)))
    change = await service.update(table.id, start)
    assert change.table.match is not None
    second = await GameRepository.open(db_path)
    try:
        reloaded = await TableService(second).get(table.id)
    finally:
        await second.close()
    assert reloaded == change.table
    assert reloaded is not None
    assert reloaded.match is not None
    seat = reloaded.match.hand.current
    action = reloaded.match.hand.legal_actions(seat)[0]
    assert reloaded.act(user(seat), action, now=1.0) == change.table.act(
        user(seat), action, now=1.0
    )


async def test_a_stale_version_raises_and_writes_nothing(
    service: TableService, repo: GameRepository
) -> None:
    table = await open_table(service)
    current = (await service.update(table.id, join(player(1)))).table
    log = await repo.actions(table.id)
    with pytest.raises(StaleClickError) as excinfo:
        await service.update(table.id, join(player(2)), version=table.version)
    assert excinfo.value.table == current
    assert await service.get(table.id) == current
    assert await repo.actions(table.id) == log


async def test_the_current_version_is_accepted(service: TableService) -> None:
    table = await open_table(service)
    change = await service.update(table.id, join(player(1)), version=table.version)
    assert change.table.version == table.version + 1


async def test_two_clicks_on_the_same_version_apply_once(
    service: TableService, repo: GameRepository
) -> None:
    table = await open_table(service)
    results = await asyncio.gather(
        service.update(table.id, join(player(1)), version=table.version),
        service.update(table.id, join(player(2)), version=table.version),
        return_exceptions=True,
    )
    changes = [r for r in results if isinstance(r, Change)]
    stale = [r for r in results if isinstance(r, StaleClickError)]
    assert len(changes) == 1
    assert len(stale) == 1
    assert stale[0].table == changes[0].table
    stored = await service.get(table.id)
    assert stored == changes[0].table
    assert stored is not None
    assert stored.version == table.version + 1
    assert len(stored.players) == 2
    assert len(await repo.actions(table.id)) == 1


async def test_concurrent_unversioned_updates_all_apply_in_turn(service: TableService) -> None:
    table = await open_table(service)
    await asyncio.gather(*(service.update(table.id, join(player(s))) for s in range(1, 6)))
    stored = await service.get(table.id)
    assert stored is not None
    assert stored.version == table.version + 5
    assert sorted(p.user_id for p in stored.players) == [user(s) for s in range(6)]


async def test_a_refused_operation_writes_nothing(
    service: TableService, repo: GameRepository
) -> None:
    table = await open_table(service)
    with pytest.raises(TableError) as excinfo:
        await service.update(table.id, start)  # alone at the table
    assert excinfo.value.code == "too_few_players"
    assert await service.get(table.id) == table
    assert await repo.actions(table.id) == []


async def test_an_unknown_table_is_refused(service: TableService) -> None:
    with pytest.raises(TableError) as excinfo:
        await service.update("nosuchtable", join(player(1)))
    assert excinfo.value.code == "unknown_table"
    assert await service.get("nosuchtable") is None


async def test_the_action_log_holds_every_action_in_order(
    service: TableService, repo: GameRepository
) -> None:
    table = await open_table(service)
    await service.update(table.id, join(player(1)))
    await service.update(table.id, join(player(2)))
    await service.update(table.id, lambda tb, now: tb.leave(user(2), now=now))
    started = (await service.update(table.id, start)).table
    assert started.match is not None
    expected = [
        (1, None, f"join:{user(1)}"),
        (2, None, f"join:{user(2)}"),
        (3, None, f"leave:{user(2)}"),
        (4, None, "start"),
    ]
    rnd = random.Random(4)
    current = started
    for _ in range(12):
        assert current.match is not None
        hand = current.match.hand
        seat = hand.current
        action = hand.legal_actions(seat)[int(rnd.random() * len(hand.legal_actions(seat)))]
        change = await service.update(
            current.id,
            lambda tb, now, s=seat, a=action: tb.act(user(s), a, now=now),
            version=current.version,
        )
        expected += [(change.table.version, row.seat, row.action) for row in change.log]
        current = change.table
    assert await repo.actions(table.id) == expected
    assert [parse_action(a) for _, s, a in expected if s is not None]  # all are notation
    # The versions logged are the versions each change produced, never going back.
    versions = [v for v, _, _ in expected]
    assert versions == sorted(versions)


async def test_set_message_keeps_the_version(service: TableService) -> None:
    table = await open_table(service)
    updated = await service.set_message(table, 555)
    assert updated.message_id == 555
    assert updated.version == table.version
    assert (await service.get(table.id)) == updated


async def save_elsewhere(db_path: str, table_id: str, who: Player) -> None:
    """Another writer (a second process, a test stacking a deck) saves the table."""
    other = await GameRepository.open(db_path)
    try:
        record = await other.load(table_id)
        assert record is not None
        theirs = Table.from_record(record).join(who, now=1.0).table
        await other.save(theirs.to_record(), expected_version=record.version)
    finally:
        await other.close()


async def test_a_lost_compare_and_swap_on_a_click_is_a_stale_click(
    service: TableService, db_path: str
) -> None:
    # The service's copy is current when the user clicks, then another writer saves first.
    # DESIGN.md §6.4 answers it like a version mismatch: "the table moved on".
    table = await open_table(service)
    await save_elsewhere(db_path, table.id, player(9))
    with pytest.raises(StaleClickError) as excinfo:
        await service.update(table.id, join(player(1)), version=table.version)
    assert excinfo.value.table.seat_of(user(9)) == 1
    stored = await service.get(table.id)
    assert stored is not None
    assert stored.seat_of(user(1)) is None


async def test_a_command_on_an_old_copy_is_applied_once_to_the_stored_table(
    service: TableService, repo: GameRepository, db_path: str
) -> None:
    """A move starts from the service's copy without reading; when the copy is old the
    save is refused, and the same operation runs once more on the stored table."""
    table = await open_table(service)
    await save_elsewhere(db_path, table.id, player(9))
    reads = 0
    load = repo.load

    async def counting_load(table_id: str) -> object:
        nonlocal reads
        reads += 1
        return await load(table_id)

    repo.load = counting_load  # type: ignore[method-assign]
    try:
        change = await service.update(table.id, join(player(1)))
    finally:
        repo.load = load  # type: ignore[method-assign]
    assert [p.user_id for p in change.table.players] == [user(0), user(9), user(1)]
    assert reads == 1  # the stored table, once: nothing is applied twice
    stored = await service.get(table.id)
    assert stored == change.table


async def test_a_move_on_a_current_copy_reads_nothing_before_its_save(
    service: TableService, repo: GameRepository
) -> None:
    table = await open_table(service)
    calls: list[str] = []
    for name in ("load", "version_of"):
        original = getattr(repo, name)

        async def spy(*args: object, _name: str = name, _original: object = original) -> object:
            calls.append(_name)
            return await _original(*args)  # type: ignore[operator]

        setattr(repo, name, spy)
    await service.update(table.id, join(player(1)))
    assert calls == []


async def test_a_write_from_elsewhere_is_always_seen(
    service: TableService, repo: GameRepository, db_path: str
) -> None:
    table = await open_table(service)
    other = await GameRepository.open(db_path)
    try:
        record = await other.load(table.id)
        assert record is not None
        theirs = Table.from_record(record).join(player(9), now=1.0).table
        await other.save(theirs.to_record(), expected_version=record.version)
    finally:
        await other.close()
    seen = await service.get(table.id)
    assert seen is not None
    assert seen.seat_of(user(9)) == 1


async def test_a_current_copy_spares_reading_the_whole_table(
    service: TableService, repo: GameRepository
) -> None:
    table = await open_table(service)
    loads = 0
    load = repo.load

    async def counting_load(table_id: str):
        nonlocal loads
        loads += 1
        return await load(table_id)

    repo.load = counting_load  # type: ignore[method-assign]
    try:
        await service.update(table.id, join(player(1)))
        await service.update(table.id, join(player(2)))
        current = await service.get(table.id)
    finally:
        repo.load = load  # type: ignore[method-assign]
    assert current is not None
    assert current.seat_of(user(2)) == 2
    assert loads == 0  # the version check (one small query) sufficed each time
