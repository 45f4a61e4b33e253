"""Recording finished matches: exactly once, with the table's save, ratings and stats."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from engine.errors import StaleStateError
from storage import GameRepository, PlayerResult, UnknownTournamentError
from storage.repository import _migrations, _statements
from tests.databases import database_target

from .matches import GUILD, bot, finish, result, seat, table


async def count(repo: GameRepository, sql: str) -> int:
    value = await repo.db.fetchval(sql)
    assert value is not None
    return int(value)


async def matches_of(repo: GameRepository, user_id: int) -> int:
    stats = await repo.boards.stats(GUILD, user_id)
    return stats.matches if stats else 0


# -- exactly once ---------------------------------------------------------------------------


async def test_a_finished_table_records_its_result_with_the_save(repo: GameRepository) -> None:
    await finish(repo, "t1", seat(1, 1), seat(2, 2))
    stored = await repo.load("t1")
    assert stored is not None
    assert (stored.status, stored.version) == ("finished", 1)
    one, two = await repo.boards.stats(GUILD, 1), await repo.boards.stats(GUILD, 2)
    assert one is not None
    assert two is not None
    assert (one.matches, one.wins, two.matches, two.wins) == (1, 1, 1, 0)


async def test_the_same_table_saved_twice_with_its_result_counts_once(
    repo: GameRepository,
) -> None:
    await finish(repo, "t1", seat(1, 1), seat(2, 2))
    before = await repo.boards.stats(GUILD, 1)
    # A later save of the same table (for example the final message id) carries it again.
    await repo.save(
        table("t1", version=2, status="finished"),
        expected_version=1,
        result=result("t1", seat(1, 1), seat(2, 2)),
    )
    assert await repo.boards.stats(GUILD, 1) == before
    assert await count(repo, "SELECT COUNT(*) FROM match_results") == 1
    assert await count(repo, "SELECT COUNT(*) FROM player_results") == 2


async def test_a_re_save_after_a_crash_and_restart_does_not_count_twice(database: str) -> None:
    first = await GameRepository.open(database)
    await finish(first, "t1", seat(1, 1), seat(2, 2))
    await first.close()  # the bot dies before it could tell anyone
    second = await GameRepository.open(database)
    stored = await second.load("t1")
    assert stored is not None
    # On restart the finishing step runs again from the stored table: a fresh, valid CAS.
    await second.save(
        table("t1", version=stored.version + 1, status="finished"),
        expected_version=stored.version,
        result=result("t1", seat(1, 1), seat(2, 2)),
    )
    assert await matches_of(second, 1) == 1
    assert await second.boards.board_size(GUILD) == 2
    await second.close()


async def test_a_save_that_loses_the_compare_and_swap_records_nothing(
    repo: GameRepository,
) -> None:
    await repo.create(table("t1"))
    await repo.save(table("t1", version=1), expected_version=0)
    with pytest.raises(StaleStateError):
        await repo.save(
            table("t1", version=2, status="finished"),
            expected_version=0,
            result=result("t1", seat(1, 1), seat(2, 2)),
        )
    assert await repo.boards.board_size(GUILD) == 0
    assert await count(repo, "SELECT COUNT(*) FROM match_results") == 0


async def test_two_writers_finishing_the_same_table_count_it_once(repo: GameRepository) -> None:
    await repo.create(table("t1"))
    outcome = await asyncio.gather(
        *(
            repo.save(
                table("t1", version=1, status="finished"),
                expected_version=0,
                result=result("t1", seat(1, 1), seat(2, 2)),
            )
            for _ in range(2)
        ),
        return_exceptions=True,
    )
    assert sorted(type(o).__name__ for o in outcome) == ["NoneType", "StaleStateError"]
    assert await matches_of(repo, 1) == 1


async def test_a_result_that_cannot_be_stored_rolls_the_finish_back(
    repo: GameRepository,
) -> None:
    await repo.create(table("t1"))
    with pytest.raises(UnknownTournamentError):
        await repo.save(
            table("t1", version=1, status="finished"),
            expected_version=0,
            result=result("t1", seat(1, 1), seat(2, 2), tournament="no such cup"),
        )
    stored = await repo.load("t1")
    assert stored is not None
    assert (stored.status, stored.version) == ("playing", 0)
    assert await repo.boards.board_size(GUILD) == 0


@pytest.mark.parametrize(
    ("status", "table_id", "guild"),
    [
        pytest.param("playing", "t1", GUILD, id="not-finished"),
        pytest.param("finished", "other", GUILD, id="other-table"),
        pytest.param("finished", "t1", 99, id="other-guild"),
    ],
)
async def test_a_result_must_belong_to_its_finished_table(
    repo: GameRepository, status: str, table_id: str, guild: int
) -> None:
    await repo.create(table("t1"))
    with pytest.raises(ValueError, match="finished"):
        await repo.save(
            table("t1", version=1, status=status),
            expected_version=0,
            result=result(table_id, seat(1, 1), seat(2, 2), guild=guild),
        )


def test_a_result_rejects_a_player_twice_and_impossible_places() -> None:
    with pytest.raises(ValueError, match="twice"):
        result("t1", seat(1, 1), seat(1, 2))
    with pytest.raises(ValueError, match="beyond"):
        result("t1", seat(1, 1), seat(2, 3))
    with pytest.raises(ValueError, match="place"):
        seat(1, 0)
    with pytest.raises(ValueError, match="negative"):
        seat(1, 1, cards_drawn=-1)
    # Computer players may share the placeholder id the caller gives them.
    assert len(result("t1", seat(1, 1), bot(0, 2), bot(0, 3)).players) == 3


# -- R-TIME-2 ------------------------------------------------------------------------------


async def test_r_time_2_a_leaver_loses_with_minus_one_match_point(repo: GameRepository) -> None:
    await finish(repo, "warmup", seat(3, 1), seat(1, 2))
    leaver = seat(3, 2, left=True, won=False, match_points=-1)
    await finish(repo, "t1", seat(1, 1, match_points=1), leaver)
    stats = await repo.boards.stats(GUILD, 3)
    assert stats is not None
    assert (stats.matches, stats.wins, stats.match_points, stats.left_games) == (2, 1, 0, 1)
    assert stats.current_streak == 0  # leaving ends a streak
    assert stats.best_streak == 1


def test_r_time_2_a_leaver_cannot_win_or_escape_the_penalty() -> None:
    with pytest.raises(ValueError, match="R-TIME-2"):
        seat(1, 2, left=True, won=True, match_points=-1)
    with pytest.raises(ValueError, match="R-TIME-2"):
        seat(1, 2, left=True, won=False, match_points=0)


async def test_r_time_2_a_leaver_is_rated_below_everyone_who_stayed(
    repo: GameRepository,
) -> None:
    # The caller gave the leaver place 1 (they had the most points when they left).
    leaver = seat(1, 1, left=True, won=False, match_points=-1)
    await finish(repo, "t1", leaver, seat(2, 2, won=True), seat(3, 3))
    one, three = await repo.boards.rank_of(GUILD, 1), await repo.boards.rank_of(GUILD, 3)
    assert one is not None
    assert three is not None
    assert one.rating < three.rating
    assert one.rank == 3


# -- ratings ------------------------------------------------------------------------------


async def test_the_winner_goes_up_and_the_loser_down(repo: GameRepository) -> None:
    await finish(repo, "t0", seat(1, 1), seat(2, 2))  # both past the first game
    before = {u: await repo.boards.rank_of(GUILD, u) for u in (1, 2)}
    await finish(repo, "t1", seat(2, 1), seat(1, 2))
    after = {u: await repo.boards.rank_of(GUILD, u) for u in (1, 2)}
    assert after[2].rating > before[2].rating  # type: ignore[union-attr]
    assert after[1].rating < before[1].rating  # type: ignore[union-attr]


async def test_a_first_match_moves_a_new_player_from_1000(repo: GameRepository) -> None:
    await finish(repo, "t1", seat(1, 1), seat(2, 2))
    winner, loser = await repo.boards.rank_of(GUILD, 1), await repo.boards.rank_of(GUILD, 2)
    assert winner is not None
    assert loser is not None
    assert winner.rating > 1000 > loser.rating


async def test_bots_never_appear_but_humans_are_rated_against_them(
    repo: GameRepository,
) -> None:
    await finish(repo, "t1", seat(1, 1), bot(-1, 2), bot(-2, 3), bot(-3, 4))
    await finish(repo, "t2", bot(-1, 1), seat(2, 2), bot(-2, 3))
    board = await repo.boards.leaderboard(GUILD)
    assert [row.user_id for row in board] == [1, 2]
    assert board[0].rating > 1000  # beat three computer players
    assert await repo.boards.stats(GUILD, -1) is None
    assert await count(repo, "SELECT COUNT(*) FROM player_results") == 2
    assert await count(repo, "SELECT COUNT(*) FROM player_stats WHERE user_id < 0") == 0


async def test_computer_players_always_play_at_the_default_rating(repo: GameRepository) -> None:
    """A bot's wins are never stored, so two identical games move a new human identically."""
    await finish(repo, "t1", bot(-1, 1), seat(1, 2))
    await finish(repo, "t2", bot(-1, 1), bot(-2, 2), seat(9, 3))  # the bot "improves"
    await finish(repo, "t3", bot(-1, 1), seat(2, 2))
    one, two = await repo.boards.rank_of(GUILD, 1), await repo.boards.rank_of(GUILD, 2)
    assert one is not None
    assert two is not None
    assert one.rating == two.rating


async def test_partners_are_rated_as_one_team(repo: GameRepository) -> None:
    # R-TEAM-2: partners 1 and 2 win together, whichever of them went out.
    await finish(
        repo,
        "t1",
        seat(1, 1, team=0),
        seat(3, 2, team=1, won=False),
        seat(2, 2, team=0, won=True),
        seat(4, 2, team=1, won=False),
    )
    lines = {u: await repo.boards.rank_of(GUILD, u) for u in (1, 2, 3, 4)}
    ratings = {u: line.rating for u, line in lines.items() if line is not None}
    assert ratings[1] == ratings[2] > 1000
    assert ratings[3] == ratings[4] < 1000
    # As individuals, 2nd place would not have matched the winner.
    await finish(repo, "t2", seat(11, 1), seat(12, 2), seat(13, 3), seat(14, 4))
    solo = await repo.boards.rank_of(GUILD, 12)
    assert solo is not None
    assert solo.rating < ratings[2]


# -- stats ----------------------------------------------------------------------------------


async def test_stats_sum_the_matches_and_track_streaks_and_colours(
    repo: GameRepository,
) -> None:
    outcomes = [1, 1, 2, 1, 1, 1, 2]  # best streak 3, current 0
    for i, place in enumerate(outcomes):
        me = seat(
            1,
            place,
            points=10,
            uno_calls=1,
            catches_made=2,
            catches_suffered=1,
            challenges_won=1,
            challenges_lost=2,
            cards_drawn=5,
            colours_played={"red": 1, "blue": 2 if i else 0, "pink": 1},
        )
        await finish(repo, f"t{i}", me, seat(2, 3 - place))
    stats = await repo.boards.stats(GUILD, 1)
    assert stats is not None
    assert (stats.matches, stats.wins, stats.best_streak, stats.current_streak) == (7, 5, 3, 0)
    assert stats.win_rate == pytest.approx(5 / 7)
    assert (stats.hands_played, stats.hands_won) == (21, 10)
    assert (stats.points, stats.uno_calls, stats.catches_made, stats.catches_suffered) == (
        70,
        7,
        14,
        7,
    )
    assert (stats.challenges_won, stats.challenges_lost, stats.cards_drawn) == (7, 14, 35)
    assert stats.colours_played == {"red": 7, "blue": 12, "pink": 7}
    assert stats.favourite_colour == "blue"
    await finish(repo, "t9", seat(1, 1), seat(2, 2))
    again = await repo.boards.stats(GUILD, 1)
    assert again is not None
    assert (again.current_streak, again.best_streak) == (1, 3)
    assert await repo.boards.stats(GUILD, 404) is None


async def test_no_colour_played_means_no_favourite(repo: GameRepository) -> None:
    await finish(repo, "t1", seat(1, 1, colours_played={"red": 0}), seat(2, 2))
    stats = await repo.boards.stats(GUILD, 1)
    assert stats is not None
    assert stats.favourite_colour is None


async def test_the_name_on_the_board_is_the_latest(repo: GameRepository) -> None:
    await finish(repo, "t1", seat(1, 1, name="old"), seat(2, 2))
    await finish(repo, "t2", seat(1, 1, name="new"), seat(2, 2))
    line = await repo.boards.rank_of(GUILD, 1)
    assert line is not None
    assert line.name == "new"


# -- migrations -----------------------------------------------------------------------------


async def test_migrations_apply_to_an_existing_v2_database(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite3")
    with sqlite3.connect(path) as raw:  # the database as the previous release left it
        raw.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)"
        )
        for version, name, sql in _migrations()[:2]:
            for statement in _statements(sql):
                raw.execute(statement)
            raw.execute("INSERT INTO schema_migrations VALUES (?, ?)", (version, name))
        raw.execute(
            "INSERT INTO tables (id, guild_id, channel_id, status, version, state, created_at,"
            " updated_at) VALUES ('old', 1, 5, 'playing', 7, '{\"n\": 7}', 1.0, 2.0)"
        )
    repo = await GameRepository.open(path)
    assert await repo.schema_version() == len(_migrations())
    stored = await repo.load("old")
    assert stored is not None
    assert stored.version == 7
    await repo.save(
        table("old", version=8, status="finished", channel_id=5),
        expected_version=7,
        result=result(
            "old", seat(1, 1), PlayerResult(2, "two", False, 2, None, 0, False, False, 0)
        ),
    )
    assert await repo.boards.board_size(GUILD) == 2
    await repo.close()


async def test_a_result_keeps_the_options_the_table_was_played_with(database: str) -> None:
    """RULES.md §12: house rules on top of the preset are saved with the match's result."""
    repo = await GameRepository.open(database)
    try:
        played = replace(
            result("t-opt", seat(1, 1), seat(2, 2)),
            options={"stacking": "cumulative", "jump_in": True},
        )
        await repo.create(table("t-opt", channel_id=77))
        await repo.save(
            table("t-opt", version=1, status="finished", channel_id=77),
            expected_version=0,
            result=played,
        )
        stored = await repo.db.fetchval(
            "SELECT options FROM match_results WHERE table_id = 't-opt'"
        )
        assert json.loads(stored) == {"jump_in": True, "stacking": "cumulative"}
    finally:
        await repo.close()


async def test_postgres_locks_of_one_schema_never_hold_up_another(tmp_path: Path) -> None:
    """Results of one server are counted one at a time (an advisory lock), per schema: two
    bots (or two tests) sharing a database in different schemas never wait for each other."""
    async for first_url in database_target("postgresql", tmp_path / "a"):
        async for second_url in database_target("postgresql", tmp_path / "b"):
            first = await GameRepository.open(first_url)
            second = await GameRepository.open(second_url, write_wait=0.5)
            try:
                async with first.db.transaction() as holding:
                    await holding.serialise(GUILD)  # the first bot is counting a result
                    await asyncio.wait_for(finish(second, "t1", seat(1, 1), seat(2, 2)), 5)
                assert await matches_of(second, 1) == 1
            finally:
                await first.close()
                await second.close()
