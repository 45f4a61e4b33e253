"""End to end: restarts, simultaneous clicks, stale and forged ids, hidden hands."""

from __future__ import annotations

import asyncio
from typing import Any

from playtest.harness import (
    World,
    caught_up,
    click,
    custom_ids,
    description,
    find_id,
    is_hand,
    load,
    open_table,
    slash,
    stack,
    table_message,
)


async def test_the_bot_killed_mid_hand_resumes_and_old_buttons_still_work(world: World) -> None:
    table_id = await open_table(world)
    await stack(
        world,
        table_id,
        [["R1", "G2"], ["B3", "B4", "B5"], ["Y5", "Y6"]],
        "R9",
        draw=["G7"],
        dealer=2,
    )
    alice, bruno, _ = world.players
    await slash(world, alice, "uno play", card="R1")
    before = await load(world, table_id)
    old_hand = (await slash(world, bruno, "uno hand")).message
    await world.bot.kill()  # a crash: no clean shutdown
    await world.bot.start()
    # The button on the hand Bruno got before the crash still draws for him.
    drawn = await click(world, bruno, old_hand, find_id(old_hand, "uno:1:draw:"))
    assert is_hand(drawn.message)
    after = await load(world, table_id)
    assert after.version == before.version + 1
    assert after.match is not None
    assert len(after.match.hand.hands[1]) == 4
    assert after.match.hand.current == 2
    # The public table message follows the game after the restart too (in an edit that may
    # land after the answer on a busy machine).
    assert await world.fake.wait_for(
        lambda: "bruno drew 1 card" in description(table_message(world)), quiet=True
    ), description(table_message(world))


async def test_two_simultaneous_clicks_apply_once(world: World) -> None:
    table_id = await open_table(world)
    await stack(
        world,
        table_id,
        [["R1", "G2"], ["B3", "B4", "B5"], ["Y5", "Y6"]],
        "B9",
        draw=["Y7", "Y8"],
        dealer=2,
    )
    alice = world.alice
    hand = (await slash(world, alice, "uno hand")).message
    draw = find_id(hand, "uno:1:draw:")
    first, second = await asyncio.gather(
        world.fake.click(alice, hand, draw), world.fake.click(alice, hand, draw)
    )
    await asyncio.gather(first.done(), second.done())
    first.assert_answered_within(3.0)
    second.assert_answered_within(3.0)
    table = await load(world, table_id)
    assert table.match is not None
    assert len(table.match.hand.hands[0]) == 3  # one card drawn, not two
    notes = description(first.message) + description(second.message)
    assert "The table moved on" in notes


async def test_stale_foreign_and_forged_clicks_are_refused_politely(world: World) -> None:
    table_id = await open_table(world)
    await stack(
        world,
        table_id,
        [["R1", "G2"], ["B3", "B4", "B5"], ["Y5", "Y6"]],
        "R9",
        dealer=2,
    )
    alice, bruno, carla = world.players
    old = (await slash(world, alice, "uno hand")).message
    await slash(world, alice, "uno play", card="R1")
    version = (await load(world, table_id)).version
    # A stale click: the hand is refreshed, nothing is played.
    stale = await click(world, alice, old, find_id(old, "uno:1:draw:"))
    assert "The table moved on" in description(stale.message)
    assert (await load(world, table_id)).version == version
    # Not your turn, a card you don't hold, not seated, no table here.
    wrong = await slash(world, carla, "uno play", card="Y5")
    assert wrong.content == "It isn't your turn."
    missing = await slash(world, bruno, "uno play", card="G9")
    assert missing.content == "You don't hold that card."
    outsider = await click(world, world.dario, table_message(world), f"uno:1:hand:{table_id}")
    assert outsider.content == "You are not playing at this table."
    elsewhere = await world.fake.slash(bruno, world.other_channel, "uno hand")
    await elsewhere.done()
    assert elsewhere.ephemeral
    assert "no UNO table in this channel" in elsewhere.content
    # Forged ids: not on the message, or on it but naming another table.
    forged = await world.fake.click(bruno, old, "uno:1:draw:zzzz:1", force=True)
    await forged.done()
    assert forged.ephemeral
    assert forged.content == "That button isn't valid. Use `/uno hand` to get a fresh hand."
    assert (await load(world, table_id)).version == version


async def test_hands_are_ephemeral_and_reach_only_their_owner(world: World) -> None:
    table_id = await open_table(world)
    await stack(
        world,
        table_id,
        [["R1", "G2", "W"], ["B3", "B4", "B5"], ["Y5", "Y6", "YS"]],
        "R9",
        dealer=2,
    )
    alice, bruno, carla = world.players
    for user in world.players:
        await slash(world, user, "uno hand")
    await click(world, alice, table_message(world), f"uno:1:hand:{table_id}")
    await slash(world, alice, "uno play", card="R1")
    hands = [m for m in world.fake.messages.values() if is_hand(m)]
    assert len(hands) >= 5
    for message in hands:
        assert message.ephemeral
        owner = message.ephemeral_for
        for user in (alice, bruno, carla, world.dario):
            assert (message in world.fake.visible_to(user)) == (user.id == owner.id)
    # No public message ever listed a hand or showed a hand image.
    for message in world.fake.messages.values():
        if message.ephemeral:
            continue
        for version in message.history:
            text = version.all_text()
            assert "Your hand" not in text
            assert all(a.filename != "hand.png" for a in version.attachments)


def _offers_version(message: Any, table_id: str, version: int) -> bool:
    """Whether ``message``'s versioned components act on ``table_id`` at ``version``."""
    for custom_id in custom_ids(message):
        parts = custom_id.split(":")
        if len(parts) >= 5 and parts[3] == table_id and parts[4] == str(version):
            return True
    return False


async def test_a_whole_hand_played_through_buttons_and_selects(world: World) -> None:
    """Every move through the hand's components: select a card, name a colour, draw, pass.

    Each player opens their hand once and keeps playing from that message: the bot edits an
    open hand in place when the turn reaches it."""
    table_id = await open_table(world)
    users = world.players
    hands: dict[int, Any] = {}
    for _ in range(400):
        table = await load(world, table_id)
        assert table.match is not None
        if table.match.history:
            break
        seat = table.match.hand.current
        user = users[seat]
        hand = hands.get(seat)
        if hand is None:
            hand = (
                await click(world, user, table_message(world), f"uno:1:hand:{table_id}")
            ).message
            hands[seat] = hand
        await world.fake.wait_for(
            lambda hand=hand, version=table.version: _offers_version(hand, table_id, version),
            what=f"{user.name}'s open hand following the turn",
        )
        ids = custom_ids(hand)
        cards = [i for i in ids if i.startswith(("uno:1:play:", "uno:1:colour:"))]
        if any(i.startswith("uno:1:choose:") for i in ids):
            await click(world, user, hand, find_id(hand, "uno:1:choose:"))
        elif cards:  # one click a card (a wild with its colour)
            await click(world, user, hand, cards[0])
        elif any(i.startswith("uno:1:pick:") for i in ids):
            pick = find_id(hand, "uno:1:pick:")
            value = next(
                option["value"]
                for row in hand.components
                for child in row["components"]
                if child.get("custom_id") == pick
                for option in child["options"]
            )
            result = await world.fake.select(user, hand, pick, [value])
            await result.done()
            await caught_up(world)
            following = result.message
            colour = [i for i in custom_ids(following) if i.startswith("uno:1:colour:")]
            if colour:
                await click(world, user, following, colour[0])
        elif any(i.startswith("uno:1:pass:") for i in ids):
            await click(world, user, hand, find_id(hand, "uno:1:pass:"))
        else:
            await click(world, user, hand, find_id(hand, "uno:1:draw:"))
    else:
        raise AssertionError("the hand did not end in 400 moves")
    table = await load(world, table_id)
    assert table.match is not None
    assert len(table.match.history) == 1
    assert "wins it" in description(table_message(world))
