"""End to end: the Components V2 table and the card emojis (issue 20) — a whole match in
Italian where the table message uploads nothing on ordinary moves and a wild is played in one
click; emojis created once and reused after a restart; a table of twenty seats (R-ALT-8)
within Discord's limits; UNO Flip's two sides on the table message."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engine.events import CardPlayed
from fakediscord.layout import markdown_emoji_ids
from fakediscord.patience import PATIENCE
from playtest.harness import (
    World,
    caught_up,
    choose,
    click,
    custom_ids,
    description,
    load,
    make_world,
    open_table,
    play_turn,
    slash,
    stack,
    table_id_of,
    table_message,
)
from renders.emoji import emoji_set

EMOJI_UPLOADS = "/applications/{app_id}/emojis"


#: Every card emoji the bot keeps (both sides of every deck, the back).
EVERY_EMOJI = len(emoji_set())


async def emojis_uploaded(world: World) -> None:
    """The bot uploads its card emojis in the background on its first start (until then it
    names cards in words): wait until they are all there."""
    await world.fake.wait_for(
        lambda: len(world.fake.emojis.application) == EVERY_EMOJI, what="the card emojis"
    )


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    """Computer players that think for 50 ms; every card emoji uploaded by the bot itself."""
    async with make_world(tmp_path, {"COMPUTER_PAUSE_SECONDS": "0.05"}, emojis=False) as made:
        await emojis_uploaded(made)
        yield made


def requests_on(world: World, message: Any) -> list[Any]:
    """The bot's edits of ``message`` (the channel message's own route)."""
    return [
        r
        for r in world.fake.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}")
        if r.path.endswith(f"/{message.id}")
    ]


def shown_emojis(message: Any) -> set[int]:
    """The card emojis a hand shows: on its buttons and menus, and in its card lines."""
    return {*message.emoji_ids(), *markdown_emoji_ids(description(message))}


def thumbnail_emoji(world: World, message: Any) -> Any:
    """The card emoji the table message's top-card thumbnail shows."""
    urls = message.thumbnails()
    assert len(urls) == 1, urls
    emoji = world.fake.emoji_at(urls[0])
    assert emoji is not None, urls[0]
    return emoji


async def test_a_whole_match_in_italian_uploads_nothing_on_ordinary_moves(world: World) -> None:
    await slash(world, world.dario, "uno-admin settings", language="it")
    await slash(world, world.alice, "uno new", hands=1)
    table_id = table_id_of(world)
    for _ in range(2):
        await slash(world, world.alice, "uno addbot", level="normal")
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    await stack(
        world,
        table_id,
        [["W", "R5", "G2", "Y7", "B9"], ["B1", "B2", "B3", "G8"], ["Y1", "Y3", "G4", "B6"]],
        "R9",
        ["G1", "G3", "G5", "G6", "Y2", "Y4", "Y5", "Y6", "B4", "B5", "B7", "B8", "R1", "R2"],
        dealer=2,
    )
    table = table_message(world)
    assert table.is_components_v2
    # One click plays the wild and names its colour: four colour buttons, each with the card.
    hand = (await slash(world, world.alice, "uno hand")).message
    colours = [i for i in custom_ids(hand) if i.startswith(f"uno:1:colour:{table_id}:")]
    assert sorted(i.rsplit(":", 1)[1] for i in colours) == ["W=B", "W=G", "W=R", "W=Y"]
    await click(world, world.alice, hand, next(i for i in colours if i.endswith(":W=B")))
    stored = await load(world, table_id)
    assert stored.match is not None
    assert len(stored.match.hand.hands[0]) == 4
    wild = [e for e in stored.recent if isinstance(e, CardPlayed) and e.seat == 0]
    assert [(e.face.notation, e.colour and e.colour.value) for e in wild] == [("W", "B")]
    await caught_up(world)
    shown = table_message(world)
    text = shown.plain_text()
    assert "UNO — mano 1" in text
    assert "Jolly" in text  # the top card or the last moves, in Italian
    assert thumbnail_emoji(world, shown).name.startswith("uno_")
    # Alice plays the match out by commands; the computers answer on their own.
    deadline = time.monotonic() + 4 * PATIENCE  # a net, not a wait
    while time.monotonic() < deadline:
        stored = await load(world, table_id)
        if stored.status == "finished":
            break
        assert stored.match is not None
        if not await play_turn(world, world.alice, table_id, 0, smart=True):
            await asyncio.sleep(0.05)
    assert stored.status == "finished"
    await caught_up(world)
    final = table_message(world)
    assert "UNO — partita finita" in final.plain_text()
    edits = requests_on(world, final)
    ordinary = [r for r in edits if not r.files]
    uploads = [r for r in edits if r.files]
    assert len(ordinary) >= 5  # the moves were shown …
    assert len(uploads) <= 1  # … and only the final standings carried a picture
    assert len(table_messages_in(world, table_id)) == 1


def table_messages_in(world: World, table_id: str) -> list[Any]:
    """The channel's live public Components V2 messages of ``table_id`` (the table message)."""
    return [
        m
        for m in world.fake.channel_messages(world.channel)
        if m.is_components_v2 and table_id in m.plain_text()
    ]


def emojis_ready_lines(world: World) -> list[str]:
    """The bot's "Card emojis ready: …" log lines, one per start (the last one last)."""
    return [line for line in world.bot.output if "Card emojis ready:" in line]


async def test_card_emojis_are_created_once_and_reused_after_a_restart(world: World) -> None:
    """Issue 26: the restarted bot finds every emoji by name and draws none."""
    created = len(world.fake.requests_to("POST", EMOJI_UPLOADS))
    assert created == EVERY_EMOJI
    await world.fake.wait_for(lambda: emojis_ready_lines(world), what="the first start's report")
    assert emojis_ready_lines(world) == [
        emojis_ready_lines(world)[0].split("Card emojis ready:")[0]
        + f"Card emojis ready: {EVERY_EMOJI} ({EVERY_EMOJI} drawn, {EVERY_EMOJI} uploaded, "
        "0 replaced)"
    ]
    table_id = await open_table(world)
    await stack(world, table_id, [["R1", "G2", "W"], ["B3", "B4"], ["Y5", "Y6"]], "R9", dealer=2)
    before = (await slash(world, world.alice, "uno hand")).message
    shown_before = shown_emojis(before)
    assert len(shown_before) == 3  # one emoji per card
    uploaded = dict(world.fake.emojis.application)
    await world.bot.kill()
    await world.bot.start()
    await world.fake.wait_for(
        lambda: len(emojis_ready_lines(world)) == 2, what="the restarted bot's emojis"
    )
    assert emojis_ready_lines(world)[1].endswith(
        f"Card emojis ready: {EVERY_EMOJI} (0 drawn, 0 uploaded, 0 replaced)"
    )
    after = (await slash(world, world.alice, "uno hand")).message
    assert shown_emojis(after) == shown_before
    assert len(world.fake.requests_to("POST", EMOJI_UPLOADS)) == created
    assert not world.fake.requests_to("DELETE", EMOJI_UPLOADS + "/{emoji_id}")
    assert world.fake.emojis.application == uploaded  # the very same emojis


async def test_r_alt_8_a_table_of_twenty_seats_fits_discords_limits(world: World) -> None:
    await slash(world, world.alice, "uno new")
    table_id = table_id_of(world)
    editor = (
        await click(world, world.alice, table_message(world), f"uno:1:rules:{table_id}")
    ).message
    editor = (
        await choose(world, world.alice, editor, f"uno:1:rule:{table_id}:on-play", "two_decks")
    ).message
    editor = (await click(world, world.alice, editor, f"uno:1:ruleset:{table_id}:variants")).message
    await choose(world, world.alice, editor, f"uno:1:rule:{table_id}:max_players", "20")
    for user in (world.bruno, world.carla, world.dario):
        await slash(world, user, "uno join")
    for _ in range(16):
        await slash(world, world.alice, "uno addbot", level="easy")
    stored = await load(world, table_id)
    assert len(stored.players) == 20
    lobby = table_message(world)
    assert lobby.is_components_v2
    refused = await slash(world, world.alice, "uno addbot", level="easy")
    assert "full" in refused.message.content.casefold()
    await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    await caught_up(world)
    shown = table_message(world)
    assert shown.is_components_v2
    assert len(list(shown.iter_components())) <= 40
    assert len("".join(shown.texts())) <= 4000
    # Every seat is listed; the picture of the table is one click away.
    for name in ("alice", "bruno", "carla", "dario"):
        assert name in shown.plain_text()
    picture = await click(world, world.bruno, shown, f"uno:1:picture:{table_id}")
    assert picture.ephemeral
    assert picture.attachments
    assert picture.attachments[0].data.startswith(b"\x89PNG")
    hand = (await slash(world, world.carla, "uno hand")).message
    assert hand.attachments[0].data.startswith(b"\x89PNG")
    await slash(world, world.alice, "uno end")


async def test_r_flip_4_the_table_shows_the_side_in_play(tmp_path: Path) -> None:
    async with make_world(tmp_path, {"COMPUTER_PAUSE_SECONDS": "0.05"}) as world:
        await emojis_uploaded(world)
        table_id = await open_table(world, preset="flip")
        await stack(
            world,
            table_id,
            hands=[["RF", "R3", "G5"], ["R7", "Y2", "B4"], ["R9", "G1", "Y8"]],
            start="R1",
            draw=["B1", "G2", "Y3", "Y4", "G6", "B8"],
            dealer=2,
        )
        light_hand = (await slash(world, world.bruno, "uno hand")).message
        light_side = shown_emojis(light_hand)  # the message is edited later: keep what it showed
        assert len(light_side) == 3
        await caught_up(world)
        light = thumbnail_emoji(world, table_message(world))
        await slash(world, world.alice, "uno play", card="RF")
        await caught_up(world)
        shown = table_message(world)
        dark = thumbnail_emoji(world, shown)
        assert light.name != dark.name
        stored = await load(world, table_id)
        assert stored.match is not None
        assert stored.match.hand.side == 1
        top = stored.match.hand.view_for(1).table.top
        assert dark.name.startswith(f"uno_{top.notation.lower()}")
        hand = (await slash(world, world.bruno, "uno hand")).message
        dark_side = shown_emojis(hand)
        assert len(dark_side) == 3  # Bruno's three cards, seen on their dark side
        assert dark_side <= set(world.fake.emojis.application)
        assert not dark_side & light_side
