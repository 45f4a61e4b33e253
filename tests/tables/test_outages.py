"""When players could not act: outages, the service's announcements, and a fair clock
(R-TIME-1) that pauses, gives lost time back and keeps trying when the database fails."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from storage import GameRepository
from tables import Clock, Outages, Table, TableService
from tables import clock as clock_module
from tables.records import ClockPaused, TimedOut
from tables.table import Change, Player, TableError

from .tables import player, stacked, user


class Now:
    """A clock the test moves by hand."""

    def __init__(self, start: float = 1_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


# -- Outages ------------------------------------------------------------------------------------


def test_lost_counts_overlapping_outages_once() -> None:
    now = Now(0.0)
    outages = Outages(now)
    outages.begin("gateway:0")
    now.now = 10.0
    outages.begin("database")
    now.now = 20.0
    assert outages.end("gateway:0") == 20.0
    assert outages.down
    now.now = 30.0
    assert outages.end("database") == 20.0
    assert not outages.down
    assert outages.lost(0.0, 40.0) == 30.0  # 0-30, the overlap 10-20 once
    assert outages.lost(15.0, 25.0) == 10.0
    assert outages.lost(0.0, 40.0, causes=["database"]) == 20.0
    assert outages.lost(0.0, 40.0, causes=["gateway:1"]) == 0.0


def test_an_outage_noticed_late_starts_when_the_players_were_last_heard() -> None:
    now = Now(100.0)
    outages = Outages(now)
    assert outages.begin("gateway:0", since=60.0)
    assert not outages.begin("gateway:0", since=10.0)  # a second report changes nothing
    assert outages.lost(50.0) == 40.0  # still going: up to now
    assert outages.begin("database", since=500.0)  # never later than now
    assert outages.lost(0.0) == 40.0


def test_recovery_listeners_hear_the_cause() -> None:
    outages = Outages(Now())
    heard: list[str] = []
    outages.on_recovery(heard.append)
    outages.begin("database")
    assert outages.end("gateway:0") is None  # no such outage: nobody is told
    outages.end("database")
    assert heard == ["database"]


# -- the table: give_back ----------------------------------------------------------------------

HANDS = [["R1", "R5", "RS", "G7"], ["B3", "B4", "Y5", "G2"], ["Y1", "Y2", "Y3", "G9"]]


def timed() -> Table:
    return stacked(HANDS, "R9", ["G1", "G3", "G4", "G5"], turn_seconds=30)


def test_r_time_1_give_back_moves_the_persons_deadline_by_the_lost_time() -> None:
    table = timed()
    assert table.deadline == 80.0
    assert table.turn_owner() == 0
    change = table.give_back(45.0, now=100.0)
    assert change.table.deadline == 125.0  # 25 s were left when the outage began at 55
    assert change.table.version == table.version + 1
    assert change.table.recent[-1] == ClockPaused(0, 45)
    assert change.log[0].action == "pause:0:45"
    again = Table.from_record(change.table.to_record())
    assert again.recent[-1] == ClockPaused(0, 45)  # the record reads back


def test_r_time_1_nothing_is_given_back_to_a_person_who_had_their_whole_time() -> None:
    table = timed()
    with pytest.raises(TableError):
        table.give_back(10.0, now=100.0)  # deadline 80 + 10 is still past
    untimed = stacked(HANDS, "R9")
    assert untimed.turn_owner() is None
    with pytest.raises(TableError):
        untimed.give_back(60.0, now=10.0)


# -- the service announces ----------------------------------------------------------------------


@pytest.fixture
async def repo(tmp_path: Path) -> AsyncIterator[GameRepository]:
    repository = await GameRepository.open(str(tmp_path / "uno.sqlite3"))
    yield repository
    await repository.close()


def service_for(repo: GameRepository, now: Callable[[], float]) -> TableService:
    return TableService(repo, clock=now, randbits=random.Random(3).getrandbits)


async def three_people(service: TableService, **options: Any) -> Table:
    table = await service.open(
        guild_id=1, channel_id=2, host=player(0), preset="classic", options=options
    )
    for seat in (1, 2):
        await service.update(table.id, lambda tb, now, s=seat: tb.join(player(s), now=now))
    change = await service.update(
        table.id, lambda tb, now: tb.start(by=user(0), is_admin=False, now=now)
    )
    return change.table


async def test_every_saved_version_is_announced_in_order(repo: GameRepository) -> None:
    service = service_for(repo, Now())
    heard: list[int] = []
    service.listen(lambda table: heard.append(table.version))
    table = await three_people(service)
    assert heard == list(range(table.version + 1))
    with pytest.raises(TableError):  # refused: nothing saved, nothing announced
        await service.update(table.id, lambda tb, now: tb.join(player(1), now=now))
    assert heard[-1] == table.version


async def test_a_failing_listener_does_not_undo_the_change(
    repo: GameRepository, caplog: pytest.LogCaptureFixture
) -> None:
    service = service_for(repo, Now())

    def broken(table: Table) -> None:
        raise RuntimeError("display bug")

    service.listen(broken)
    table = await three_people(service)
    assert (await service.get(table.id)) == table
    assert "A listener of table" in caplog.text


async def test_an_unreachable_database_is_an_outage_until_it_answers(
    repo: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = service_for(repo, Now())
    table = await three_people(service)
    save = repo.save

    async def refused(*args: Any, **kwargs: Any) -> None:
        raise ConnectionRefusedError("the server is restarting")

    monkeypatch.setattr(repo, "save", refused)
    with pytest.raises(ConnectionRefusedError):
        await service.update(table.id, lambda tb, now: tb.rename(user(1), "B", now=now))
    assert service.outages.causes() == ["database"]
    monkeypatch.setattr(repo, "save", save)
    await service.probe()
    assert not service.outages.down


# -- the clock ---------------------------------------------------------------------------------


async def wait_until(condition: Callable[[], Any], within: float = 60.0) -> None:
    deadline = asyncio.get_running_loop().time() + within
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def test_r_time_1_an_outage_pauses_the_turn_clock_and_gives_the_lost_time_back(
    repo: GameRepository,
) -> None:
    now = Now()
    service = service_for(repo, now)
    table = await three_people(service, turn_seconds=30)
    owner = table.turn_owner()
    assert owner is not None
    assert table.deadline == now.now + 30
    versions: list[Table] = []
    service.listen(versions.append)
    clock = Clock(service, clock=now)
    try:
        now.now += 5  # five seconds of the turn used
        service.outages.begin("gateway")
        clock.watch(table)
        now.now += 60  # a minute of outage: the deadline passes meanwhile
        await asyncio.sleep(0.2)
        assert versions == []  # nobody was played for
        service.outages.end("gateway")
        await wait_until(lambda: versions)
        paused = versions[-1]
        assert paused.recent[-1] == ClockPaused(owner, 60)
        assert paused.deadline == table.deadline + 60  # the 25 s that were left, from now
        now.now = paused.deadline  # they do not act: now the clock plays for them
        clock.watch(paused)
        await wait_until(lambda: len(versions) > 1)
        assert versions[-1].recent[-1] == TimedOut(owner)
    finally:
        clock.stop()


async def test_r_time_1_a_person_who_cannot_be_heard_is_not_played_for(
    repo: GameRepository,
) -> None:
    """The adapter's ``confirm`` says the players cannot be heard (a silent gateway): the
    clock does not play, the outage runs from when they were last heard."""
    now = Now()
    service = service_for(repo, now)
    table = await three_people(service, turn_seconds=30)
    asked: list[str] = []

    async def silent(tb: Table) -> bool:
        asked.append(tb.id)
        if len(asked) > 1:
            return True  # heard again
        service.outages.begin("gateway", since=now.now - 40)
        return False

    versions: list[Table] = []
    service.listen(versions.append)
    clock = Clock(service, clock=now, confirm=silent)
    try:
        now.now += 31
        clock.watch(table)
        await wait_until(lambda: asked)
        await asyncio.sleep(0.1)
        assert versions == []
        service.outages.end("gateway")  # unheard since before the turn began: all 31 s lost
        await wait_until(lambda: versions)
        assert versions[-1].deadline == now.now + 30  # the whole turn, from now
    finally:
        clock.stop()


async def computer_to_play(service: TableService) -> Table:
    """A stored table where a computer (seat 1) has the turn, two people beside it."""
    table = stacked(HANDS, "R9", ["G1", "G3", "G4", "G5"], dealer=0)
    computer = Player(-1, "🤖 Ada", "easy")
    table = replace(table, players=(table.players[0], computer, table.players[2]))
    assert table.match is not None
    assert table.match.hand.current == 1
    await service.repo.create(table.to_record())
    stored = await service.get(table.id)
    assert stored is not None
    return stored


async def test_a_computer_move_that_fails_is_tried_again_until_it_succeeds(
    repo: GameRepository, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(clock_module, "RETRY_FIRST", 0.05)
    service = TableService(repo)
    table = await computer_to_play(service)
    update = service.update
    failures = [3]

    async def flaky(table_id: str, operation: Callable[..., Change], **kw: Any) -> Change:
        if failures[0] > 0:
            failures[0] -= 1
            raise RuntimeError("a bug somewhere")
        return await update(table_id, operation, **kw)

    monkeypatch.setattr(service, "update", flaky)
    moved: list[Table] = []
    service.listen(moved.append)
    clock = Clock(service, pause=0.0)
    try:
        clock.watch(table)
        await wait_until(lambda: moved, within=60)
    finally:
        clock.stop()
    assert failures == [0]
    assert moved[0].version == table.version + 1
    assert caplog.text.count("Traceback") == 1  # one traceback for the bug, then one line each
    assert caplog.text.count("failed again") == 2


async def test_a_computer_moves_within_seconds_after_the_database_is_back(
    repo: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(clock_module, "PROBE_FIRST", 0.05)
    monkeypatch.setattr(clock_module, "PROBE_MOST", 0.2)
    service = TableService(repo)
    table = await computer_to_play(service)
    save, version_of = repo.save, repo.version_of
    down = [True]

    async def refused_save(*args: Any, **kwargs: Any) -> None:
        if down[0]:
            raise ConnectionRefusedError("the server is restarting")
        await save(*args, **kwargs)

    async def refused_read(table_id: str) -> Any:
        if down[0]:
            raise ConnectionRefusedError("the server is restarting")
        return await version_of(table_id)

    moved: list[Table] = []
    service.listen(moved.append)
    monkeypatch.setattr(repo, "save", refused_save)
    monkeypatch.setattr(repo, "version_of", refused_read)
    clock = Clock(service, pause=0.0)
    try:
        clock.watch(table)
        await wait_until(lambda: service.outages.down)
        await asyncio.sleep(0.3)
        assert moved == []
        down[0] = False
        await wait_until(lambda: moved, within=60)
        assert not service.outages.down
    finally:
        clock.stop()
