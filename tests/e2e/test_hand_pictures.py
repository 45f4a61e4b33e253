"""A hand's picture is uploaded only when the player's cards change (issue 26), and a hand
is shown by one callback (no deferral and edit).

The picture shows the cards and nothing else (not the turn, nor what is playable, nor the
card just drawn), so the others' moves never change it: when the bot edits an open hand
because the turn came, the hand ended, or the player played, it keeps the attachment the
message already has unless the cards changed, and then uploads the new picture. Read
from the messages as Discord kept them: every version of each hand message, its picture
(an attachment, with the cards it shows in its alt text) and the cards its text lists.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from playtest.harness import (
    World,
    custom_ids,
    description,
    find_id,
    is_hand,
    load,
    open_table,
    stack,
    table_message,
    world,
)

__all__ = ["world"]

#: A card line of the hand's text: the playable mark or the other one, maybe the card's emoji,
#: the card's name.
CARD_LINE = re.compile(r"^(?:▶|·) (?:<a?:\w+:\d+> )?(?P<name>.+)$")


def cards_listed(version: Any) -> list[str]:
    """The cards a version of a hand message lists in its text, in order."""
    text = "\n".join(embed.get("description", "") for embed in version.embeds)
    return [m.group("name") for line in text.splitlines() if (m := CARD_LINE.match(line))]


def picture_of(version: Any) -> Any:
    """The hand picture a version shows (``None``: none)."""
    found = [a for a in version.attachments if a.filename == "hand.png"]
    assert len(found) <= 1
    return found[0] if found else None


def hand_versions(message: Any) -> list[Any]:
    """The versions of a hand message that showed a hand (not the "thinking" placeholder)."""
    return [v for v in message.history if v.shown and is_hand(v)]


async def until_offered(world: World, message: Any, prefix: str) -> str:
    """Wait until ``message`` (an open hand) offers a component of the table's stored
    version starting with ``prefix`` (the bot edits an open hand when the turn comes)."""

    async def stored_version() -> int:
        return (await load(world, prefix.split(":")[3])).version

    version = await stored_version()

    def offered() -> bool:
        return any(
            c.startswith(prefix) and c.split(":")[4] == str(version) for c in custom_ids(message)
        )

    await world.fake.wait_for(offered, what=f"{prefix}… at version {version}")
    return next(c for c in custom_ids(message) if c.startswith(prefix))


async def test_a_whole_hand_uploads_each_picture_only_when_the_cards_change(world: World) -> None:
    alice, bruno, carla = world.players
    table_id = await open_table(world)
    # Alice plays R1 (and calls UNO), Bruno cannot match and draws R8, which he plays, Carla
    # plays R6 (calling UNO), Alice goes out with R2.
    await stack(
        world,
        table_id,
        [["R1", "R2"], ["G4", "G5"], ["R6", "B7"]],
        "R9",
        ["R8", "Y3", "Y4", "Y5"],
        dealer=2,
    )
    # Each player opens their hand once and plays from it: the bot keeps it up to date.
    hands: dict[int, Any] = {}
    for user in (alice, bruno, carla):
        shown = await world.fake.click(user, table_message(world), f"uno:1:hand:{table_id}")
        await shown.done()
        shown.assert_answered_within(3.0)
        assert shown.response_type == 4  # one callback: the new hand message itself
        assert shown.original is not None
        hands[user.id] = shown.original
    plays = [
        (alice, f"uno:1:play:{table_id}:", "R1+uno"),
        (bruno, f"uno:1:draw:{table_id}:", None),
        (bruno, f"uno:1:play:{table_id}:", "R8"),
        (carla, f"uno:1:play:{table_id}:", "R6+uno"),
        (alice, f"uno:1:play:{table_id}:", "R2"),
    ]
    for user, prefix, card in plays:
        hand = hands[user.id]
        offered = await until_offered(world, hand, prefix)
        custom_id = offered if card is None else offered.rsplit(":", 1)[0] + f":{card}"
        assert custom_id in custom_ids(hand), custom_ids(hand)
        result = await world.fake.click(user, hand, custom_id)
        await result.done()
        result.assert_answered_within(3.0)
    stored = await load(world, table_id)
    assert stored.match is not None
    assert stored.match.hand.is_over
    assert stored.match.history[-1].winner == 0  # Alice went out
    # Every open hand says the hand is over (the others' hands without a new picture).
    for user in (alice, bruno, carla):
        await world.fake.wait_for(
            lambda u=user: "over" in description(hands[u.id]).lower(),
            what=f"{user.name}'s hand to say the hand is over",
        )

    kept = 0
    for user in (alice, bruno, carla):
        message = hands[user.id]
        versions = hand_versions(message)
        assert len(versions) >= 3, user.name
        previous: Any = None
        uploads = 0
        for version in versions:
            picture = picture_of(version)
            assert picture is not None
            cards = cards_listed(version)
            # The picture shows exactly the cards the text lists: never an old hand.
            assert picture.description == ("; ".join(cards) or "You hold no cards.")
            if previous is None or picture.id != previous[0].id:
                uploads += 1
                # A new picture only for other cards than the one before showed.
                assert previous is None or cards != previous[1], (user.name, cards)
            else:
                kept += 1
                assert cards == previous[1]
            previous = (picture, cards)
        changes = 1 + sum(
            1 for a, b in itertools.pairwise(versions) if cards_listed(a) != cards_listed(b)
        )
        assert uploads == changes, (user.name, uploads, changes)
    assert kept >= 5  # turns that came and the hand's end: edits that uploaded nothing
    # Hands never leak: each hand message is its owner's, and no one else saw its cards.
    for user in (alice, bruno, carla):
        assert hands[user.id].ephemeral_for.id == user.id
    dario_saw = world.fake.seen_text(world.dario)
    assert "Green 4" not in dario_saw
    assert "hand.png" not in dario_saw
    find_id(table_message(world), f"uno:1:next:{table_id}")
