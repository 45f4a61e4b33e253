"""``uno-bot transfer``: an SQLite database copied into a real PostgreSQL database, whole.

Everything a server has — live and finished tables with their logs (compacted or not),
results, ratings and boards, settings, seasons, tournaments and teams, the bot's facts —
reads the same through the repository afterwards. These tests need the PostgreSQL server
(``TEST_DATABASE_URL``); they skip in one line without it, as the storage suite does.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot
from hosting.cli import EXIT_DATABASE, EXIT_OK, EXIT_SETTINGS
from storage import ActionRow, GameRepository, GuildSettings, HousePreset
from storage.compaction import DAY
from storage.transfer import TABLES
from tests.databases import database_target

from .matches import GUILD, finish, seat, table
from .test_tournaments import TEAMS, play


@pytest.fixture
async def postgres_url(tmp_path: Path) -> AsyncIterator[str]:
    async for url in database_target("postgresql", tmp_path):
        yield url


async def filled(path: Path) -> GameRepository:
    """An SQLite database with a bit of everything, as a running bot leaves it."""
    repo = await GameRepository.open(str(path))
    await repo.set_meta("synced", "abc")
    await repo.settings.set_guild_settings(
        GUILD, GuildSettings(preset="party", target=200, language="it", options={"jump_in": True})
    )
    await finish(repo, "s1", seat(1, 1), seat(2, 2))
    await repo.boards.new_season(GUILD, now=5000.0)
    await finish(repo, "s2", seat(2, 1), seat(3, 2))
    await repo.presets.save(GUILD, HousePreset("Friday", "party", {"two_decks": True}), 5500.0)
    await repo.tournaments.create_tournament(GUILD, "Cup", TEAMS, now=6000.0)
    await repo.tournaments.create_tournament(GUILD, "Later", {"Ants": 901}, now=6001.0)
    await play(repo, "g1", "A1", "B1", "C1")
    await play(repo, "g2", "C1", "A2", "D1")
    live = table("live", seats=(1, 2), status="playing")
    await repo.create(live, [ActionRow(None, "start")])
    await repo.save(
        table("live", version=1, seats=(1, 2), channel_id=live.channel_id),
        expected_version=0,
        actions=[ActionRow(0, "R7"), ActionRow(0, "uno")],
    )
    await repo.set_message("live", 4242)
    assert await repo.tidy(100 * DAY, retention_days=0) == (4, 0)  # the finished ones
    return repo


async def snapshot(repo: GameRepository) -> dict[str, object]:
    """What the bot reads, through the repository."""
    tables = ["s1", "s2", "g1", "g2", "live"]
    return {
        "tables": [await repo.load(t) for t in tables],
        "actions": [await repo.actions(t) for t in tables],
        "live": [t.id for t in await repo.live_tables()],
        "settings": await repo.settings.get_guild_settings(GUILD),
        "presets": await repo.presets.all(GUILD),
        "seasons": await repo.boards.seasons(GUILD),
        "boards": [
            await repo.boards.leaderboard(GUILD, season=season, sort=sort)
            for season in (1, 2)
            for sort in ("rating", "wins", "points")
        ],
        "stats": [
            await repo.boards.stats(GUILD, user, season) for user in (1, 2, 3) for season in (1, 2)
        ],
        "tournaments": await repo.tournaments.tournaments(GUILD),
        "standings": await repo.tournaments.tournament_standings(GUILD, "cup"),
        "meta": await repo.get_meta("synced"),
    }


async def transfer(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command as an admin runs it (its own event loop, so in a thread here)."""
    code = await asyncio.to_thread(bot.main, ["transfer", *args])
    out, err = capsys.readouterr()
    return code, out, err


async def test_transfer_copies_everything_and_the_copy_plays_on(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "uno.sqlite3"
    old = await filled(source)
    before = await snapshot(old)
    await old.close()
    code, out, err = await transfer("--from", str(source), "--to", postgres_url, capsys=capsys)
    assert code == EXIT_OK, err
    for name, _ in TABLES:
        assert f"  {name}: " in out
    assert "Copied " in out
    new = await GameRepository.open(postgres_url)
    try:
        assert await snapshot(new) == before
        # It plays on: the live table's next move, a new tournament (its id follows the
        # copied ones), a new result counted on the copied board.
        await new.save(
            table("live", version=2, seats=(1, 2)), expected_version=1, actions=[ActionRow(1, "G7")]
        )
        assert (await new.actions("live"))[-1] == (2, 1, "G7")
        made = await new.tournaments.create_tournament(GUILD, "New", {}, now=7000.0)
        assert made.name == "New"
        await finish(new, "s3", seat(1, 1), seat(3, 2))
        stats = await new.boards.stats(GUILD, 1)
        assert stats is not None
        assert stats.matches == 1  # season 2: s3 (s1 was in season 1)
    finally:
        await new.close()


async def test_transfer_refuses_a_database_that_holds_games(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "uno.sqlite3"
    await (await filled(source)).close()
    assert (await transfer("--from", str(source), "--to", postgres_url, capsys=capsys))[
        0
    ] == EXIT_OK
    code, _, err = await transfer("--from", str(source), "--to", postgres_url, capsys=capsys)
    assert code == EXIT_DATABASE
    assert "already holds the bot's data" in err
    assert len(err.strip().splitlines()) == 1


async def test_transfer_reads_its_defaults_and_refuses_what_it_cannot_use(
    tmp_path: Path,
    postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = await transfer(capsys=capsys)
    assert code == EXIT_SETTINGS
    assert "uno-bot transfer --to postgresql://" in err
    code, _, err = await transfer("--to", postgres_url, capsys=capsys)  # no uno.sqlite3 here
    assert code == EXIT_DATABASE
    assert "There is no SQLite database at" in err
    await (await filled(tmp_path / "uno.sqlite3")).close()
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    code, out, _ = await transfer(capsys=capsys)  # DATABASE_PATH's default into DATABASE_URL
    assert code == EXIT_OK
    assert f"Copying {tmp_path / 'uno.sqlite3'}" in out
