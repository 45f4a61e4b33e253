"""End to end: the tables the rulebooks describe — pairs (R-TEAM-2), house rules set in the
lobby's editor (R-ACT-6, R-ACT-7), a fair UNO call (R-UNO-1, R-UNO-2), and a rematch."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.events import CardPlayed, UnoCalled, UnoCaught
from playtest.harness import (
    World,
    caught_up,
    choose,
    click,
    description,
    find_id,
    load,
    make_world,
    slash,
    stack,
    table_id_of,
    table_message,
    wait_for_table,
)
from storage import GameRepository


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    """Computer players that think for 50 ms; the catch grace stays at its default."""
    async with make_world(tmp_path, {"COMPUTER_PAUSE_SECONDS": "0.05"}) as made:
        yield made


async def test_r_team_2_a_pairs_match_of_two_people_and_two_computers_ends_on_the_board(
    world: World,
) -> None:
    await slash(world, world.alice, "uno new", teams="2", hands=1)
    table_id = table_id_of(world)
    lobby = description(table_message(world))
    assert "Teams: pairs (2 teams)" in lobby
    assert "Match length: 1 hand" in lobby
    await slash(world, world.bruno, "uno join")
    for _ in range(2):
        await slash(world, world.alice, "uno addbot", level="normal")
    # Alice and Bruno pick team A by the lobby's select; the computers fill team B.
    for user in (world.alice, world.bruno):
        picked = await choose(world, user, table_message(world), f"uno:1:team:{table_id}", "0")
        assert picked.message.content == "You play for Team A."
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    table = await load(world, table_id)
    assert [p.name for p in table.players][::2] == ["alice", "bruno"]  # partners alternate
    assert [p.team for p in table.players] == [0, 1, 0, 1]
    # Alice goes out at once: her team wins the hand, and with it the one-hand match.
    await stack(
        world,
        table_id,
        [["R1"], ["B3", "B4", "B5"], ["G3", "G4", "G5"], ["Y3", "Y4", "Y5"]],
        "R9",
        dealer=3,
    )
    await slash(world, world.alice, "uno play", card="R1")
    table = await wait_for_table(world, table_id, lambda t: t.status != "playing", "the end")
    assert table.status == "finished"
    assert table.match is not None
    # R-TEAM-2: the opponents' cards score for the team; Bruno's (a partner's) do not.
    assert table.match.team_scores() == {0: (3 + 4 + 5) * 2, 1: 0}
    await caught_up(world)
    public = description(table_message(world))
    assert "Team A wins the match: alice" in public
    assert "bruno" in public.split("Team A wins the match:")[1]
    # Both partners are credited with the win on the server's board.
    repo = await GameRepository.open(str(world.database))
    try:
        for user in (world.alice, world.bruno):
            stats = await repo.boards.stats(world.guild.id, user.id)
            assert stats is not None
            assert (stats.matches, stats.wins) == (1, 1), user.name
    finally:
        await repo.close()
    board = await slash(world, world.bruno, "uno leaderboard", sort="wins")
    text = description(board.message)
    assert "alice" in text
    assert "bruno" in text


async def test_r_act_6_r_act_7_the_host_turns_on_stacking_and_jump_in_in_the_editor(
    world: World,
) -> None:
    await slash(world, world.alice, "uno new")
    table_id = table_id_of(world)
    await slash(world, world.bruno, "uno join")
    await slash(world, world.carla, "uno join")
    # Only the host may open the editor.
    refused = await click(world, world.bruno, table_message(world), f"uno:1:rules:{table_id}")
    assert refused.message.content == "Only the host or someone with Manage Server can do that."
    editor = (
        await click(world, world.alice, table_message(world), f"uno:1:rules:{table_id}")
    ).message
    assert editor.ephemeral
    editor = (
        await choose(world, world.alice, editor, f"uno:1:rule:{table_id}:stacking", "cumulative")
    ).message
    result = await world.fake.select(
        world.alice, editor, f"uno:1:rule:{table_id}:on-play", ["jump_in"]
    )
    await result.done()
    result.assert_answered_within(3.0)
    table = await load(world, table_id)
    assert dict(table.options) == {"stacking": "cumulative", "jump_in": True}
    assert "Changed from the preset: Stacking: cumulative; Jump-in: on" in description(
        result.message
    )
    await caught_up(world)
    assert "House rules: Stacking: cumulative; Jump-in: on" in description(table_message(world))
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    await stack(
        world,
        table_id,
        [["RD2", "Y7", "G6"], ["YD2", "B1", "B2"], ["G3", "Y7", "B5"]],
        "R9",
        ["B6", "B7", "B8", "B9", "G1", "G2"],
        dealer=2,
    )
    await slash(world, world.alice, "uno play", card="RD2")
    await slash(world, world.bruno, "uno play", card="YD2")  # stacked: +4 now (R-ACT-6)
    taken = await slash(world, world.carla, "uno draw")
    assert "Take +4" not in description(taken.message)
    table = await load(world, table_id)
    assert table.match is not None
    assert len(table.match.hand.hands[2]) == 7  # three cards and the stacked four
    await slash(world, world.alice, "uno play", card="Y7")
    # Bruno is to play; Carla holds the very same card and plays it out of turn (R-ACT-7).
    await slash(world, world.carla, "uno play", card="Y7")
    table = await load(world, table_id)
    assert any(isinstance(e, CardPlayed) and e.jump_in and e.seat == 2 for e in table.recent)
    assert table.match is not None
    assert table.match.hand.current == 0  # play goes on from Carla
    await caught_up(world)
    assert "carla jumped in with Yellow 7!" in description(table_message(world))


async def test_r_uno_1_r_uno_2_play_and_call_uno_is_never_caught(world: World) -> None:
    """Two cards in hand: the card menu offers "Red 1 — and call UNO!". Played that way, the
    computers (who catch whoever forgets) never catch."""
    await slash(world, world.alice, "uno new")
    table_id = table_id_of(world)
    for _ in range(2):
        await slash(world, world.alice, "uno addbot", level="normal")
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    await stack(
        world,
        table_id,
        [["R1", "R2"], ["B3", "B4", "B5"], ["G3", "G4", "G5"]],
        "R9",
        ["Y1", "Y2", "Y3", "Y4"],
        dealer=2,
    )
    hand = (await slash(world, world.alice, "uno hand")).message
    # One click plays the second-to-last card and calls UNO with it (R-UNO-1).
    play = find_id(hand, f"uno:1:play:{table_id}:")
    assert play.endswith(":R1+uno")
    assert "Red 1 + UNO!" in description(hand) or "Red 1 + UNO!" in str(hand.components)
    played = await click(world, world.alice, hand, play)
    assert played.message is not None
    # Both computers have had their turn (each draws and keeps a Yellow): whoever would catch
    # Alice had the chance by then.
    table = await wait_for_table(
        world,
        table_id,
        lambda t: t.match is not None and t.match.hand.current == 0,
        "Alice's turn again",
    )
    assert table.match is not None
    assert any(isinstance(e, UnoCalled) and e.seat == 0 for e in table.recent)
    assert not any(isinstance(e, UnoCaught) and e.target == 0 for e in table.recent)
    assert len(table.match.hand.hands[0]) <= 2  # one card, or one more drawn by choice


def _options(component: dict[str, object]) -> list[dict[str, str]]:
    found = list(component.get("options") or [])  # type: ignore[call-overload]
    for child in component.get("components") or []:  # type: ignore[attr-defined]
        found += _options(child)
    return found


async def test_a_finished_match_offers_a_rematch_lobby(world: World) -> None:
    await slash(world, world.alice, "uno new", hands=1, jump_in=True)
    table_id = table_id_of(world)
    await slash(world, world.bruno, "uno join")
    await slash(world, world.alice, "uno addbot", level="easy")
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    await stack(world, table_id, [["R1"], ["B3", "B4"], ["G3", "G4"]], "R9", dealer=2)
    await slash(world, world.alice, "uno play", card="R1")
    table = await load(world, table_id)
    assert table.status == "finished"
    await caught_up(world)
    finished = table_message(world)
    again = await click(world, world.bruno, finished, f"uno:1:again:{table_id}")
    assert "A new table is open below" in again.message.content
    await caught_up(world)
    lobby = table_message(world)
    new_id = find_id(lobby, "uno:1:join:").rsplit(":", 1)[1]
    assert new_id != table_id
    text = description(lobby)
    assert "Invited to the rematch" in text
    assert f"<@{world.alice.id}>" in text
    rematch = await load(world, new_id)
    assert rematch.host_id == world.bruno.id
    assert dict(rematch.options) == dict(table.options)
    assert [p.level for p in rematch.players] == [None, "easy"]  # the computer sits again
    # Each player still confirms by joining.
    await click(world, world.alice, lobby, f"uno:1:join:{new_id}")
    rematch = await load(world, new_id)
    assert rematch.invited == ()
    assert {p.user_id for p in rematch.players} >= {world.alice.id, world.bruno.id}
    # Only one live table per channel: a second click finds the new lobby.
    second = await click(world, world.alice, finished, f"uno:1:again:{table_id}")
    assert "already" in second.message.content
