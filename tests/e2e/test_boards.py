"""End to end: a finished match reaches the server's board exactly once (issue #4)."""

from __future__ import annotations

from typing import Any

from storage import GameRepository

from .harness import World, description, load, open_table, slash, stack, title


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
