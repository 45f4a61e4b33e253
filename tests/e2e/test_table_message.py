"""End to end: the table message is always the truth — one live message per table, never
older than the state, through crashes, races and reposts; open hands follow the turn."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest

from fakediscord.patience import PATIENCE
from playtest.harness import (
    World,
    caught_up,
    custom_ids,
    description,
    find_id,
    is_hand,
    load,
    open_table,
    shown_turn,
    slash,
    stack,
    table_message,
)
from storage import GameRepository
from tables import Table

FOOTER = re.compile(r"version (\d+)")


def footers(message: Any) -> list[str]:
    """A table message's footer: an embed's, or a Components V2 message's small print."""
    return [(e.get("footer") or {}).get("text", "") for e in message.embeds] + [
        text for text in message.texts() if text.startswith("-# ")
    ]


def shown_version(message: Any) -> int:
    """The table version a table message says it shows (its footer)."""
    for text in footers(message):
        found = FOOTER.search(text)
        if found:
            return int(found.group(1))
    raise AssertionError("no version in the table message's footer")


async def one_table_message(world: World, table_id: str) -> Any:
    """The table's one live message, once the messages it replaced are retired (a repost
    posts first, then deletes the old one: for a moment there are two)."""
    await world.fake.wait_for(
        lambda: len(table_messages(world, table_id)) == 1, what="one live table message"
    )
    return table_messages(world, table_id)[0]


def table_messages(world: World, table_id: str) -> list[Any]:
    """The channel's live (not deleted) public messages that belong to ``table_id``."""
    return [
        m
        for m in world.fake.channel_messages(world.channel)
        if any(table_id in text for text in footers(m))
    ]


async def wait_until_shown(
    world: World, table_id: str, version: int, within: float = PATIENCE
) -> Any:
    deadline = time.monotonic() + within
    while True:
        messages = table_messages(world, table_id)
        if messages and shown_version(messages[-1]) >= version:
            return messages[-1]
        if time.monotonic() > deadline:
            shown = [shown_version(m) for m in messages]
            raise AssertionError(f"table message shows {shown}, not version {version}")
        await asyncio.sleep(0.1)


async def commit_a_move_while_down(world: World, table_id: str) -> Table:
    """The move a crash left unseen: committed to the database, never shown in Discord."""
    repo = await GameRepository.open(str(world.database))
    try:
        record = await repo.load(table_id)
        assert record is not None
        table = Table.from_record(record)
        assert table.match is not None
        seat = table.match.hand.current
        action = table.match.hand.legal_actions(seat)[0]
        moved = table.act(table.players[seat].user_id, action, now=time.time()).table
        await repo.save(moved.to_record(), expected_version=table.version)
        return moved
    finally:
        await repo.close()


async def test_a_restart_after_a_committed_move_shows_the_current_turn(world: World) -> None:
    table_id = await open_table(world)
    await caught_up(world)
    before = shown_version(table_message(world))
    await world.bot.kill()
    moved = await commit_a_move_while_down(world, table_id)
    assert moved.version > before
    await world.bot.start()
    shown = await wait_until_shown(world, table_id, moved.version)
    assert shown_version(shown) == moved.version
    assert len(table_messages(world, table_id)) == 1
    current = moved.players[moved.match.hand.current]  # type: ignore[union-attr]
    assert f"<@{current.user_id}>" in shown_turn(shown)


async def test_end_racing_a_play_leaves_one_message_showing_the_closed_table(
    world: World,
) -> None:
    """``/uno end`` and a play at the same moment, twenty times: each time exactly one table
    message, on the final (closed) state."""
    table_id = await open_table(world)
    await stack(world, table_id, [["R1", "R2"], ["B1", "B2"], ["G1", "G2"]], "R9", dealer=2)
    for _ in range(20):
        await asyncio.gather(
            slash(world, world.alice, "uno play", card="R1"),
            slash(world, world.alice, "uno end"),
        )
        await caught_up(world)
        final = await load(world, table_id)
        await one_table_message(world, table_id)
        shown = await wait_until_shown(world, table_id, final.version)
        assert table_messages(world, table_id) == [shown]
        assert final.status == "closed"
        assert "Show my hand" not in str(shown.components)
        assert not shown.components or all("uno:1:hand:" not in str(c) for c in shown.components)
        # Open the next round of the race on a fresh table.
        table_id = await open_table(world)
        await stack(world, table_id, [["R1", "R2"], ["B1", "B2"], ["G1", "G2"]], "R9", dealer=2)


async def test_a_repost_racing_a_play_leaves_one_message_on_the_final_state(
    world: World,
) -> None:
    """``/uno table`` and a play at the same moment, twenty times: each time exactly one live
    table message — the newest, at the bottom — showing the final state."""
    table_id = await open_table(world)
    for _ in range(20):
        await stack(world, table_id, [["R1", "R2"], ["B1", "B2"], ["G1", "G2"]], "R9", dealer=2)
        world.fake.clock.advance(6)  # past /uno table's cooldown
        await asyncio.gather(
            slash(world, world.alice, "uno play", card="R1"),
            slash(world, world.bruno, "uno table"),
        )
        final = await load(world, table_id)
        shown = await wait_until_shown(world, table_id, final.version)
        await caught_up(world)
        assert await one_table_message(world, table_id) is shown
        assert (await load(world, table_id)).message_id == shown.id
        assert shown_version(shown) == final.version
        assert f"<@{world.bruno.id}>" in shown_turn(shown)  # Bruno's turn after Alice's R1


async def test_five_simultaneous_reposts_leave_one_live_table_message(world: World) -> None:
    table_id = await open_table(world)
    await caught_up(world)
    users = [world.alice, world.bruno, world.carla, world.alice, world.bruno]
    await asyncio.gather(*(slash(world, user, "uno table") for user in users))
    await caught_up(world)
    messages = [await one_table_message(world, table_id)]
    final = await load(world, table_id)
    assert final.message_id == messages[0].id
    assert shown_version(messages[0]) == final.version
    # It is the channel's last message, with the live button on it.
    assert world.fake.last_message(world.channel) is messages[0]
    find_id(messages[0], f"uno:1:hand:{table_id}")


async def test_a_hand_opened_while_waiting_shows_the_cards_to_play_when_the_turn_comes(
    world: World,
) -> None:
    table_id = await open_table(world)
    await stack(world, table_id, [["R1", "R2"], ["R3", "B4", "G5"], ["Y1", "Y2"]], "R9", dealer=2)
    waiting = await slash(world, world.bruno, "uno hand")
    hand = waiting.message
    assert "Waiting for your turn" in description(hand)
    assert not any(cid.startswith("uno:1:play:") for cid in _ids(hand))
    await slash(world, world.alice, "uno play", card="R1")
    await world.fake.wait_for(
        lambda: any(cid.startswith("uno:1:play:") for cid in _ids(hand)), what="Bruno's turn"
    )
    table = await load(world, table_id)
    assert f"uno:1:play:{table_id}:{table.version}:R3" in _ids(hand)
    assert "Your turn" in description(hand) or "your turn" in description(hand).lower()
    # The button works: Bruno plays from the message he opened before his turn.
    played = await world.fake.click(world.bruno, hand, f"uno:1:play:{table_id}:{table.version}:R3")
    await played.done()
    after = await load(world, table_id)
    assert after.match is not None
    assert after.match.hand.top.notation == "R3"


def _ids(message: Any) -> list[str]:
    found: list[str] = []

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            if "custom_id" in component:
                found.append(component["custom_id"])
            walk(component.get("components") or [])

    walk(message.components)
    return found


async def click_select(world: World, message: Any, custom_id: str, value: str) -> None:
    result = await world.fake.select(world.bruno, message, custom_id, [value])
    await result.done()
    result.assert_answered_within(3.0)


TABLE_EDIT = "/channels/{channel_id}/messages/{message_id}"
HAND_EDIT = "/webhooks/{app_id}/{token}/messages/{message_id}"


def latest_hand(world: World, user: Any) -> Any:
    """The newest hand message ``user`` has (their ephemeral answers)."""
    hands = [m for m in world.fake.visible_to(user) if m.ephemeral and is_hand(m)]
    assert hands, f"{user.name} has no hand message"
    return max(hands, key=lambda m: m.id)


@pytest.mark.parametrize("scope", ["user", "global"])
async def test_429s_on_edits_still_end_with_the_table_message_showing_the_final_state(
    world: World, scope: str
) -> None:
    table_id = await open_table(world)
    hands = [["R1", "R2", "R7", "B2", "B3"], ["R3", "R4", "G1", "G2", "G3"]]
    hands.append(["R5", "R6", "Y1", "Y2", "Y3"])
    await stack(world, table_id, hands, "R9", dealer=2)
    # Discord answers 429 to every other edit of the table message and every third edit of
    # a hand message (route limits, or the bot's global limit).
    table_edits = world.fake.rate_limit(
        "PATCH", TABLE_EDIT, every=2, retry_after=0.4, scope=scope, channel_id=world.channel.id
    )
    hand_edits = world.fake.rate_limit("PATCH", HAND_EDIT, every=3, retry_after=0.3, scope=scope)
    alice, bruno, carla = world.players
    moves = [(alice, "R1"), (bruno, "R3"), (carla, "R5"), (alice, "R2"), (bruno, "R4")]
    moves.append((carla, "R6"))
    for user, card in moves:
        # A fast table: the next player moves as soon as the last move is answered, without
        # waiting for the table message.
        result = await world.fake.slash(user, world.channel, "uno play", card=card)
        result.assert_answered_within(3.0)
        await world.fake.wait_for(
            lambda r=result: r.original is not None and not r.original.loading,
            what=f"{user.name}'s answer to /uno play {card}",
        )
    final = await load(world, table_id)
    assert final.match is not None
    assert final.match.hand.top.notation == "R6"
    shown = await wait_until_shown(world, table_id, final.version)
    assert table_edits.answered >= 1  # the 429s were sent
    assert hand_edits.answered >= 1
    await caught_up(world)
    messages = table_messages(world, table_id)
    assert messages == [shown]
    assert shown_version(shown) == final.version
    assert f"<@{alice.id}>" in shown_turn(shown)  # her turn: the final state
    find_id(shown, f"uno:1:hand:{table_id}")
    # The hand messages are right too: Alice's (opened by her last move) offers her R7 at
    # the final version; the others show their three cards and no card menu.
    pick = f"uno:1:play:{table_id}:{final.version}:R7"
    await world.fake.wait_for(
        lambda: pick in custom_ids(latest_hand(world, alice)), what="Alice's hand, her turn"
    )
    for user in (bruno, carla):
        hand = latest_hand(world, user)
        assert "3 cards" in " ".join(e.get("title", "") for e in hand.embeds)
        assert not any(cid.startswith("uno:1:play:") for cid in custom_ids(hand))
    assert all(r.status == 429 for r in world.fake.rate_limited)
