"""Leaderboards, ranks, seasons, forgetting a player and server settings."""

from __future__ import annotations

import pytest

from storage import SORTS, GameRepository, GuildSettings, Season, Sort
from storage.boards import _column, ahead_sql, page_sql

from .matches import GUILD, bot, finish, seat


async def board_of_twelve(repo: GameRepository) -> None:
    """User u (1..12) wins u games against a computer player; points run the other way."""
    for user in range(1, 13):
        for game in range(user):
            points = (13 - user) * 10 if game == 0 else 0
            await finish(repo, f"u{user}g{game}", seat(user, 1, points=points), bot(-1, 2))


async def test_boards_sort_by_each_key_best_first(repo: GameRepository) -> None:
    await board_of_twelve(repo)
    wins = await repo.boards.leaderboard(GUILD, sort="wins", limit=12)
    assert [row.user_id for row in wins] == list(range(12, 0, -1))
    assert [row.rank for row in wins] == list(range(1, 13))
    assert [row.wins for row in wins] == list(range(12, 0, -1))
    points = await repo.boards.leaderboard(GUILD, sort="points", limit=12)
    assert [row.user_id for row in points] == list(range(1, 13))
    games = await repo.boards.leaderboard(GUILD, sort="games", limit=3)
    assert [row.matches for row in games] == [12, 11, 10]
    rating = await repo.boards.leaderboard(GUILD, sort="rating", limit=12)
    assert [row.rating for row in rating] == sorted((row.rating for row in rating), reverse=True)
    assert rating[0].user_id == 12  # twelve straight wins beat one


async def test_paging_and_the_callers_rank_off_the_page(repo: GameRepository) -> None:
    await board_of_twelve(repo)
    page = await repo.boards.leaderboard(GUILD, sort="wins", offset=5, limit=5)
    assert [(row.rank, row.user_id) for row in page] == [(6, 7), (7, 6), (8, 5), (9, 4), (10, 3)]
    assert await repo.boards.leaderboard(GUILD, sort="wins", offset=12) == []
    mine = await repo.boards.rank_of(GUILD, 1, sort="wins")
    assert mine is not None
    assert (mine.rank, mine.wins, mine.matches) == (12, 1, 1)
    by_points = await repo.boards.rank_of(GUILD, 1, sort="points")
    assert by_points is not None
    assert by_points.rank == 1
    assert await repo.boards.rank_of(GUILD, 404) is None
    assert await repo.boards.board_size(GUILD) == 12


async def test_ties_share_a_rank_even_across_pages(repo: GameRepository) -> None:
    await finish(repo, "a1", seat(1, 1), bot(-1, 2))
    await finish(repo, "a2", seat(1, 1), bot(-1, 2))
    await finish(repo, "b1", seat(2, 1), bot(-1, 2))
    await finish(repo, "c1", seat(3, 1), bot(-1, 2))
    await finish(repo, "d1", seat(4, 2), bot(-1, 1))
    first = await repo.boards.leaderboard(GUILD, sort="wins", limit=2)
    second = await repo.boards.leaderboard(GUILD, sort="wins", offset=2, limit=2)
    assert [(row.rank, row.user_id) for row in first] == [(1, 1), (2, 2)]
    assert [(row.rank, row.user_id) for row in second] == [(2, 3), (4, 4)]
    tied = await repo.boards.rank_of(GUILD, 3, sort="wins")
    assert tied is not None
    assert tied.rank == 2


async def test_match_points_can_go_negative_and_sort_too(repo: GameRepository) -> None:
    await finish(repo, "t1", seat(1, 1), seat(2, 2, left=True, won=False, match_points=-1))
    await finish(repo, "t2", seat(3, 1, match_points=0), seat(4, 2))
    board = await repo.boards.leaderboard(GUILD, sort="match_points")
    assert [(row.user_id, row.match_points) for row in board] == [(1, 1), (3, 0), (4, 0), (2, -1)]
    assert [row.rank for row in board] == [1, 2, 2, 4]


@pytest.mark.parametrize(("offset", "limit"), [(-1, 10), (0, 0), (0, 101)])
async def test_bad_pages_are_refused(repo: GameRepository, offset: int, limit: int) -> None:
    with pytest.raises(ValueError, match="limit"):
        await repo.boards.leaderboard(GUILD, offset=offset, limit=limit)


async def test_an_unknown_sort_is_refused(repo: GameRepository) -> None:
    assert SORTS == ("rating", "wins", "points", "match_points", "games")
    with pytest.raises(ValueError, match="sort by"):
        await repo.boards.leaderboard(GUILD, sort="name; DROP TABLE tables")  # type: ignore[arg-type]


async def test_servers_have_separate_boards(repo: GameRepository) -> None:
    await finish(repo, "t1", seat(1, 1), seat(2, 2))
    await finish(repo, "t2", seat(2, 1), seat(1, 2), guild=2)
    here = await repo.boards.rank_of(GUILD, 1, sort="wins")
    there = await repo.boards.rank_of(2, 1, sort="wins")
    assert here is not None
    assert there is not None
    assert (here.wins, there.wins) == (1, 0)


# -- seasons --------------------------------------------------------------------------------


async def test_seasons_separate_boards_and_restart_ratings(repo: GameRepository) -> None:
    assert await repo.boards.seasons(GUILD) == [Season(1, None, None)]
    await finish(repo, "s1a", seat(1, 1), seat(2, 2))
    await finish(repo, "s1b", seat(1, 1), seat(2, 2))
    first_rating = await repo.boards.rank_of(GUILD, 1)
    assert await repo.boards.new_season(GUILD, now=5000.0) == 2
    assert await repo.boards.current_season(GUILD) == 2
    assert await repo.boards.leaderboard(GUILD) == []  # the new season starts empty
    await finish(repo, "s2", seat(2, 1), seat(3, 2))
    now = await repo.boards.leaderboard(GUILD, sort="wins")
    then = await repo.boards.leaderboard(GUILD, sort="wins", season=1)
    assert [(row.user_id, row.wins) for row in now] == [(2, 1), (3, 0)]
    assert [(row.user_id, row.wins) for row in then] == [(1, 2), (2, 0)]
    # Season 2's rating of player 2 starts from scratch: one win from new, like player 1's.
    fresh = await repo.boards.rank_of(GUILD, 2)
    one_win = await repo.boards.leaderboard(GUILD, season=1)
    assert fresh is not None
    assert first_rating is not None
    assert 1000 < fresh.rating < first_rating.rating
    assert one_win[0].user_id == 1
    stats = await repo.boards.stats(GUILD, 1, season=1)
    assert stats is not None
    assert stats.season == 1
    assert await repo.boards.stats(GUILD, 1) is None  # not played in season 2
    assert await repo.boards.seasons(GUILD) == [
        Season(1, None, 5000.0),
        Season(2, 5000.0, None),
    ]
    assert await repo.boards.new_season(GUILD, now=6000.0) == 3
    assert [s.current for s in await repo.boards.seasons(GUILD)] == [False, False, True]
    assert await repo.boards.current_season(2) == 1  # other servers keep theirs


async def test_a_season_number_must_be_positive(repo: GameRepository) -> None:
    with pytest.raises(ValueError, match="from 1"):
        await repo.boards.leaderboard(GUILD, season=0)


# -- forget_user ----------------------------------------------------------------------------


async def test_forget_user_erases_them_everywhere_and_keeps_the_others(
    repo: GameRepository,
) -> None:
    await finish(repo, "t1", seat(1, 1), seat(2, 2))
    await finish(repo, "t2", seat(2, 1), seat(1, 2), guild=2)
    other_before = await repo.boards.stats(GUILD, 2)
    erased = await repo.boards.forget_user(1)
    assert erased == 4  # two board lines and two results
    assert await repo.boards.stats(GUILD, 1) is None
    assert await repo.boards.stats(2, 1) is None
    assert [row.user_id for row in await repo.boards.leaderboard(GUILD)] == [2]
    assert await repo.boards.stats(GUILD, 2) == other_before
    rows = await repo.db.fetchall("SELECT user_id FROM player_results ORDER BY table_id")
    assert [row[0] for row in rows] == [2, 2]
    assert await repo.boards.forget_user(1) == 0


async def test_a_forgotten_player_who_comes_back_starts_over(repo: GameRepository) -> None:
    await finish(repo, "t1", seat(1, 1), seat(2, 2))
    await repo.boards.forget_user(1)
    await finish(repo, "t2", seat(1, 2), seat(2, 1))
    stats = await repo.boards.stats(GUILD, 1)
    assert stats is not None
    assert (stats.matches, stats.wins) == (1, 0)


# -- settings -------------------------------------------------------------------------------


async def test_guild_settings_default_and_round_trip(repo: GameRepository) -> None:
    assert await repo.settings.get_guild_settings(GUILD) == GuildSettings()
    chosen = GuildSettings(preset="party", target=300, turn_seconds=0, turn_ping=0, language="it")
    await repo.settings.set_guild_settings(GUILD, chosen)
    assert await repo.settings.get_guild_settings(GUILD) == chosen
    await repo.settings.set_guild_settings(GUILD, GuildSettings(preset="flip"))
    assert await repo.settings.get_guild_settings(GUILD) == GuildSettings(preset="flip")
    assert await repo.settings.get_guild_settings(2) == GuildSettings()


def test_guild_settings_refuse_impossible_values() -> None:
    with pytest.raises(ValueError, match="target"):
        GuildSettings(target=0)
    with pytest.raises(ValueError, match="seconds"):
        GuildSettings(turn_seconds=-5)
    with pytest.raises(ValueError, match="turn_ping"):
        GuildSettings(turn_ping=-2)


@pytest.mark.parametrize("sort", SORTS)
async def test_each_board_page_and_rank_is_served_by_its_index(
    repo: GameRepository, sort: Sort
) -> None:
    """No board query scans or sorts the table, on either engine (PostgreSQL is told not to
    scan, as its planner would for a table this small: the index must be able to serve)."""
    await board_of_twelve(repo)
    column = _column(sort)
    index = f"player_stats_by_{'games' if sort == 'games' else column}"
    if repo.dialect == "postgresql":
        async with repo.db.transaction() as tx:
            await tx.execute("ANALYZE player_stats")
    # The rank of the board's leader: a COUNT over the narrowest range of the index.
    top = await repo.db.fetchval(f"SELECT MAX({column}) FROM player_stats")
    for sql, params in (
        (page_sql(column), (GUILD, 1, 10, 0)),
        (ahead_sql(column), (GUILD, 1, top)),
    ):
        async with repo.db.transaction() as tx:
            if repo.dialect == "sqlite":
                plan = " ".join(
                    str(row[3]) for row in await tx.fetchall(f"EXPLAIN QUERY PLAN {sql}", params)
                )
                assert "USE TEMP B-TREE" not in plan, plan
            else:
                await tx.execute("SET LOCAL enable_seqscan = off")
                await tx.execute("SET LOCAL enable_bitmapscan = off")
                plan = " ".join(str(row[0]) for row in await tx.fetchall(f"EXPLAIN {sql}", params))
                assert "Sort" not in plan, plan
        assert index in plan, plan
