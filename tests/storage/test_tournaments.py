"""Tournaments: R-SCORE-4 placement points per game, R-TEAM-3 team standings."""

from __future__ import annotations

import pytest

from storage import (
    GameRepository,
    PlayerResult,
    TeamStanding,
    TournamentExistsError,
    TournamentTeam,
    UnknownTournamentError,
)

from .matches import GUILD, bot, finish, seat

TEAMS = {"Ants": 901, "Bees": 902, "Cats": 903, "Dogs": 904}
ROLE = {"A": 901, "B": 902, "C": 903, "D": 904}


def member(name: str, place: int) -> PlayerResult:
    """Player ``A1`` is user 11 of team Ants, ``B2`` user 22 of Bees, and so on."""
    user = (ord(name[0]) - ord("A") + 1) * 10 + int(name[1])
    return seat(user, place, name=name, team_role=ROLE[name[0]])


async def play(repo: GameRepository, table_id: str, *order: str, cup: str = "Cup") -> None:
    """A tournament game whose players finished in ``order``."""
    players = [member(name, place) for place, name in enumerate(order, start=1)]
    await finish(repo, table_id, *players, tournament=cup)


async def test_tournament_names_are_unique_per_server(repo: GameRepository) -> None:
    created = await repo.tournaments.create_tournament(GUILD, " Cup ", TEAMS, now=1.0)
    assert created.name == "Cup"
    assert created.teams[0] == TournamentTeam("Ants", 901)
    with pytest.raises(TournamentExistsError, match="already exists"):
        await repo.tournaments.create_tournament(GUILD, "cup", {}, now=2.0)
    await repo.tournaments.create_tournament(2, "Cup", {}, now=3.0)  # another server
    await repo.tournaments.create_tournament(GUILD, "Cup 2", {}, now=4.0)
    assert [t.name for t in await repo.tournaments.tournaments(GUILD)] == ["Cup 2", "Cup"]
    found = await repo.tournaments.tournament(GUILD, "CUP")
    assert found == created


@pytest.mark.parametrize(
    ("name", "teams"),
    [
        pytest.param("", {}, id="empty-name"),
        pytest.param("x" * 101, {}, id="long-name"),
        pytest.param("Cup", {"Ants": 901, "Bees": 901}, id="shared-role"),
    ],
)
async def test_bad_tournaments_are_refused(
    repo: GameRepository, name: str, teams: dict[str, int]
) -> None:
    with pytest.raises(ValueError, match=r"name|role"):
        await repo.tournaments.create_tournament(GUILD, name, teams, now=1.0)


async def test_r_score_4_r_team_3_players_sum_placement_points_teams_get_5_3_2_1(
    repo: GameRepository,
) -> None:
    await repo.tournaments.create_tournament(GUILD, "Cup", TEAMS, now=1.0)
    await play(repo, "t1", "A1", "B1", "C1", "D1")  # 4, 3, 2, 1
    await play(repo, "t2", "A2", "B2", "C2", "D2")
    await play(repo, "t3", "D1", "A1", "C1", "B1", cup="cup")  # names ignore case
    await finish(repo, "friendly", seat(44, 1, team_role=904), seat(11, 2))  # not in the cup
    standings = await repo.tournaments.tournament_standings(GUILD, "Cup")
    assert [(p.name, p.points) for p in standings.players] == [
        ("A1", 7),
        ("D1", 5),
        ("A2", 4),
        ("B1", 4),
        ("C1", 4),
        ("B2", 3),
        ("C2", 2),
        ("D2", 1),
    ]
    assert [p.rank for p in standings.players] == [1, 2, 3, 3, 3, 6, 7, 8]
    assert standings.players[0].team == "Ants"
    assert standings.players[0].games == 2
    # R-TEAM-3: Ants 7+4 = 11, Bees 4+3 = 7, Cats 4+2 = 6, Dogs 5+1 = 6 -> 5, 3, then a tie.
    assert standings.teams == (
        TeamStanding(1, "Ants", 901, 11, 5),
        TeamStanding(2, "Bees", 902, 7, 3),
        TeamStanding(3, "Cats", 903, 6, 2),
        TeamStanding(3, "Dogs", 904, 6, 2),
    )


async def test_r_team_3_distinct_totals_get_5_3_2_1_and_later_teams_nothing(
    repo: GameRepository,
) -> None:
    teams = {**TEAMS, "Eels": 905}
    await repo.tournaments.create_tournament(GUILD, "Cup", teams, now=1.0)
    await play(repo, "t1", "A1", "B1", "C1", "D1")
    await play(repo, "t2", "A2", "B2", "C2", "D2")
    standings = await repo.tournaments.tournament_standings(GUILD, "Cup")
    assert [(t.name, t.points, t.rank, t.award) for t in standings.teams] == [
        ("Ants", 8, 1, 5),
        ("Bees", 6, 2, 3),
        ("Cats", 4, 3, 2),
        ("Dogs", 2, 4, 1),
        ("Eels", 0, 5, 0),  # no games: ranked last with nothing
    ]


async def test_r_score_4_placement_points_count_every_seat_and_share_ties(
    repo: GameRepository,
) -> None:
    await repo.tournaments.create_tournament(GUILD, "Cup", TEAMS, now=1.0)
    # Four seats, one a computer player: N = 4 even though only three are stored.
    await finish(
        repo,
        "t1",
        bot(-1, 1),
        seat(11, 2, team_role=901),
        seat(22, 2, team_role=902),
        seat(33, 4, team_role=903),
        tournament="Cup",
    )
    standings = await repo.tournaments.tournament_standings(GUILD, "Cup")
    assert [(p.user_id, p.points, p.rank) for p in standings.players] == [
        (11, 3, 1),
        (22, 3, 1),
        (33, 1, 3),
    ]


async def test_a_forgotten_player_still_counts_for_the_team(repo: GameRepository) -> None:
    await repo.tournaments.create_tournament(GUILD, "Cup", TEAMS, now=1.0)
    await play(repo, "t1", "A1", "B1", "C1", "D1")
    before = await repo.tournaments.tournament_standings(GUILD, "Cup")
    assert await repo.boards.forget_user(11) == 2  # the board line, the anonymised result
    after = await repo.tournaments.tournament_standings(GUILD, "Cup")
    assert after.teams == before.teams
    assert 11 not in [p.user_id for p in after.players]
    assert len(after.players) == 3


async def test_standings_of_an_unknown_tournament_are_refused(repo: GameRepository) -> None:
    with pytest.raises(UnknownTournamentError, match="no tournament"):
        await repo.tournaments.tournament_standings(GUILD, "Nope")
