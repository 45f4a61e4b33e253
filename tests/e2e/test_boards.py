"""End to end: a finished match reaches the server's board exactly once (issue #4)."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest

from fakediscord.commands import CommandError
from fakediscord.patience import PATIENCE
from playtest.harness import (
    World,
    click,
    description,
    find_id,
    load,
    open_table,
    play_turn,
    slash,
    stack,
    table_message,
    title,
)
from storage import GameRepository


async def board(world: World) -> tuple[list[Any], Any]:
    repo = await GameRepository.open(str(world.database))
    try:
        rows = await repo.boards.leaderboard(world.guild.id, sort="wins")
        alice = await repo.boards.stats(world.guild.id, world.alice.id)
        return rows, alice
    finally:
        await repo.close()


async def test_r_score_1_a_match_is_recorded_once_across_a_crash_and_shown_to_everyone(
    world: World,
) -> None:
    table_id = await open_table(world, points=50)
    # Alice holds her last card; Bruno and Carla hold wilds: her going out ends the match.
    await stack(
        world,
        table_id,
        hands=[["R1"], ["W", "W4", "B9"], ["G5", "Y7"]],
        start="R0",
        draw=["G2", "Y4", "Y6"],
        dealer=2,
    )
    await slash(world, world.alice, "uno play", card="R1")
    # The bot dies right after the last card, before anything else is shown or saved.
    await world.bot.kill()
    table = await load(world, table_id)
    assert table.status == "finished"
    assert table.match is not None
    assert table.match.ranking[0] == 0
    rows, alice = await board(world)
    assert [row.name for row in rows][:1] == ["alice"]
    assert alice is not None
    assert (alice.matches, alice.wins) == (1, 1)
    assert alice.points == table.match.scores[0] >= 50
    # Restarted, the bot counts nothing twice, whatever it redoes on start.
    await world.bot.start()
    await world.bot.restart()
    rows_after, alice_after = await board(world)
    assert rows_after == rows
    assert alice_after == alice
    # Everyone can see the board and the stats, even someone who did not play.
    shown = await slash(world, world.dario, "uno leaderboard")
    text = description(shown.message)
    assert text.splitlines()[0].startswith("**1.** alice")
    assert len(shown.message.attachments) == 1
    stats = await slash(world, world.dario, "uno stats", player=world.bruno)
    assert title(stats.message).startswith("bruno")
    assert "0/1" in description(stats.message)  # matches won / played


async def test_r_team_3_r_score_4_a_tournament_table_reports_to_its_standings(
    world: World,
) -> None:
    reds = world.guild.add_role("Reds")
    blues = world.guild.add_role("Blues")
    for user, role in ((world.alice, reds), (world.bruno, reds), (world.carla, blues)):
        world.guild.member(user).role_ids.append(role.id)
    world.guild.member(world.dario).role_ids.append(blues.id)
    created = await slash(
        world, world.dario, "uno-admin tournament new", name="Spring", team1=reds, team2=blues
    )
    assert "Spring" in created.message.content
    # /uno-admin is hidden from members: Discord's client does not even send it.
    with pytest.raises(CommandError, match="permissions"):
        await slash(world, world.alice, "uno-admin tournament new", name="Mine")
    await slash(world, world.alice, "uno new", preset="tournament", tournament="Spring")
    for user in (world.bruno, world.carla, world.dario):
        await slash(world, user, "uno join")
    table = await load_live(world)
    assert table.tournament == "Spring"
    assert [p.team_role for p in table.players] == [reds.id, reds.id, blues.id, blues.id]
    # Play the five hands of the tournament game by commands.
    await play_out(world, table.id)
    finished = await load(world, table.id)
    assert finished.status == "finished"
    shown = await slash(world, world.carla, "uno tournament standings", name="Spring")
    text = description(shown.message)
    players = dict(re.findall(r"^\d+\. \w+ \((\w+)\) — (\d+) pts", text, re.M))
    assert len(re.findall(r"^\d+\. \w+ \(\w+\) — \d+ pts? in 1 game$", text, re.M)) == 4
    teams = {
        name: (int(points), int(award))
        for name, points, award in re.findall(r"^\d+\. (\w+) — (\d+) pts → (\d+)$", text, re.M)
    }
    assert set(teams) == {"Reds", "Blues"}
    # Four players, placement points 4+3+2+1 = 10 split between the teams (R-SCORE-4).
    assert teams["Reds"][0] + teams["Blues"][0] == 10
    assert players  # every player line names the team
    best, other = sorted(teams.values(), reverse=True)
    assert best[1] == 5  # R-TEAM-3: the first team gets 5
    assert other[1] == (5 if other[0] == best[0] else 3)  # a tie shares the rank


async def load_live(world: World) -> Any:
    repo = await GameRepository.open(str(world.database))
    try:
        record = await repo.live_in_channel(world.channel.id)
    finally:
        await repo.close()
    assert record is not None
    from tables.table import Table

    return Table.from_record(record)


async def play_out(world: World, table_id: str) -> None:
    """The host starts; every hand is stacked short (one red card each, so each hand ends
    after three plays, R-SCORE-4 play to the last) and played by commands; the host deals
    the next hand at once."""
    seats = {0: world.alice, 1: world.bruno, 2: world.carla, 3: world.dario}
    await slash(world, world.alice, "uno start")
    stacked_hand = 0
    deadline = time.monotonic() + 4 * PATIENCE  # a net, not a wait
    while time.monotonic() < deadline:
        table = await load(world, table_id)
        if table.status != "playing" or table.match is None:
            return
        if table.match.hand.is_over:
            await click(world, world.alice, table_message(world), f"uno:1:next:{table_id}")
            continue
        if table.match.hand_number != stacked_hand:
            stacked_hand = table.match.hand_number
            hands = [["R1"], ["R2"], ["R3"], ["R4"]]
            await stack(world, table_id, hands, "R0", ["G1", "G2", "G3"], dealer=table.match.dealer)
            continue
        current = table.match.hand.current
        if not await play_turn(world, seats[current], table_id, current):
            await asyncio.sleep(0.05)


async def test_forget_me_speaks_italian_survives_a_restart_and_clears_the_name(
    world: World,
) -> None:
    world.bruno.locale = "it"
    await slash(world, world.alice, "uno new", hands=1)
    table_id = find_id(table_message(world), "uno:1:join:").rsplit(":", 1)[1]
    await slash(world, world.bruno, "uno join")
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    await stack(world, table_id, [["R1"], ["B3", "B4"]], "R9", dealer=1)
    await slash(world, world.alice, "uno play", card="R1")
    finished = await load(world, table_id)
    assert finished.status == "finished"
    asked = await slash(world, world.bruno, "uno forget-me")
    assert asked.message.content.startswith("Cancellare tutte le tue statistiche")
    yes = find_id(asked.message, "uno:1:forget:")
    assert yes.endswith(":yes")
    # Alice never sees Bruno's question; a forged click of hers is refused.
    forged = await world.fake.click(world.alice, asked.message, yes, force=True)
    await forged.done()
    assert forged.message.content == "That button belongs to someone else's message."
    assert await load(world, table_id) == finished
    await world.bot.kill()
    await world.bot.start()
    done = await click(world, world.bruno, asked.message, yes)
    assert done.message.content.startswith("Fatto: cancellate")
    repo = await GameRepository.open(str(world.database))
    try:
        assert await repo.boards.stats(world.guild.id, world.bruno.id) is None
        assert await repo.boards.stats(world.guild.id, world.alice.id) is not None
    finally:
        await repo.close()
    kept = await load(world, table_id)
    assert [p.name for p in kept.players] == ["alice", "—"]
