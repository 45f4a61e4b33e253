"""Discord's time limits on the fake clock: 15-minute interaction tokens, the 3-second
callback deadline, capped edits of messages older than an hour; and the message history
tests use to measure how far what users see lagged behind."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeChannel, FakeDiscord, InteractionResult

from .test_fake_discord import World, _world

EDIT_LIMITED = {
    "code": 30046,
    "message": "Maximum number of edits to messages older than 1 hour reached. Try again later",
}
INVALID_TOKEN = {"code": 50027, "message": "Invalid Webhook Token"}


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async for w in _world(tmp_path):
        yield w


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as f:
        yield f


class Rest:
    """Plain REST calls as the bot would make them (no discord.py in between)."""

    def __init__(self, fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
        self.fake, self.http = fake, http
        self.auth = {"Authorization": f"Bot {fake.token}"}

    async def call(
        self, method: str, path: str, body: Any = None, *, auth: bool = True
    ) -> tuple[int, Any]:
        headers = self.auth if auth else {}
        async with self.http.request(
            method, self.fake.rest_base + path, json=body, headers=headers
        ) as response:
            data = await response.json() if response.status != 204 else None
            return response.status, data

    async def post(self, channel: FakeChannel, content: str) -> int:
        status, data = await self.call(
            "POST", f"/channels/{channel.id}/messages", {"content": content}
        )
        assert status == 200, data
        return int(data["id"])

    async def edit(self, channel: FakeChannel, message_id: int, content: str) -> tuple[int, Any]:
        return await self.call(
            "PATCH", f"/channels/{channel.id}/messages/{message_id}", {"content": content}
        )


@pytest.fixture
async def rest(fake: FakeDiscord) -> AsyncIterator[Rest]:
    async with aiohttp.ClientSession() as http:
        yield Rest(fake, http)


# --------------------------------------------------------------------------- old messages


async def test_edits_of_a_message_older_than_an_hour_are_capped_per_rolling_hour(
    fake: FakeDiscord, rest: Rest
) -> None:
    channel = fake.add_guild("G").add_text_channel("table")
    old = await rest.post(channel, "v0")
    young_edits = [await rest.edit(channel, old, f"young {i}") for i in range(5)]
    assert {status for status, _ in young_edits} == {200}  # no cap within the first hour
    fake.clock.advance(3600.5)
    assert [(await rest.edit(channel, old, f"old {i}"))[0] for i in range(3)] == [200] * 3
    assert await rest.edit(channel, old, "one too many") == (400, EDIT_LIMITED)
    assert fake.messages[old].content == "old 2"
    # A message younger than an hour is not capped, even now.
    young = await rest.post(channel, "fresh")
    assert [(await rest.edit(channel, young, f"f{i}"))[0] for i in range(5)] == [200] * 5
    # The window rolls: an hour after the three edits, three more are allowed.
    fake.clock.advance(3600)
    assert [(await rest.edit(channel, old, f"later {i}"))[0] for i in range(4)] == [200] * 3 + [400]
    assert len(fake.edit_limited) == 2
    assert {r.response["code"] for r in fake.edit_limited} == {30046}
    fake.assert_clean()  # the refusals are counted apart from errors


async def test_the_old_message_edit_limit_is_a_setting(fake: FakeDiscord, rest: Rest) -> None:
    fake.old_message_edit_limit = 1
    channel = fake.add_guild("G").add_text_channel("table")
    message = await rest.post(channel, "v0")
    fake.clock.advance(3601)
    assert (await rest.edit(channel, message, "v1"))[0] == 200
    assert (await rest.edit(channel, message, "v2"))[0] == 400


async def test_the_bot_sees_30046_as_discord_sends_it(world: World) -> None:
    fake = world.fake
    announce = await fake.slash(world.alice, world.general, "demo announce", text="Table")
    await announce.done()
    (table,) = [m for m in fake.bot_messages(world.general) if m.interaction is None]
    await fake.pass_time(3601)
    replies = []
    for text in ("one", "two", "three", "four"):
        edit = await fake.slash(
            world.alice, world.general, "demo edit", message_id=str(table.id), text=text
        )
        replies.append(edit.content)
    assert replies == ["Edited", "Edited", "Edited", "Edit failed: 400 30046"]
    assert table.content == "three"
    assert len(fake.edit_limited) == 1
    fake.assert_clean()
    world.bot.assert_healthy()


# --------------------------------------------------------------------------- tokens


def _webhook_routes(fake: FakeDiscord, result: InteractionResult) -> list[tuple[str, str]]:
    hook = f"/webhooks/{fake.application.id}/{result.token}"
    followup = result.followups[0].id
    return [
        ("POST", hook),
        ("GET", f"{hook}/messages/@original"),
        ("PATCH", f"{hook}/messages/@original"),
        ("PATCH", f"{hook}/messages/{followup}"),
        ("DELETE", f"{hook}/messages/{followup}"),
    ]


async def test_interaction_tokens_last_fifteen_minutes_on_the_fake_clock(world: World) -> None:
    fake = world.fake
    slow = await fake.slash(world.alice, world.general, "demo slow")
    await slow.done()
    assert len(slow.followups) == 1
    body = {"content": "still here"}
    async with aiohttp.ClientSession() as http:
        rest = Rest(fake, http)
        fake.clock.advance(14 * 60)
        for method, path in _webhook_routes(fake, slow)[:3]:
            status, _ = await rest.call(method, path, body if method != "GET" else None, auth=False)
            assert status in (200, 204), (method, path)
        fake.clock.advance(60)  # fifteen minutes since the interaction reached the bot
        for method, path in _webhook_routes(fake, slow):
            answer = await rest.call(method, path, body if method != "GET" else None, auth=False)
            assert answer == (401, INVALID_TOKEN), (method, path)
    assert slow.token_expires_at is not None
    assert fake.clock.monotonic() >= slow.token_expires_at
    assert not slow.followups[0].deleted
    fake.assert_clean(allow_codes={50027})
    with pytest.raises(AssertionError, match="50027"):
        fake.assert_clean()


async def test_a_bot_editing_its_answer_after_fifteen_minutes_gets_50027(world: World) -> None:
    fake = world.fake
    later = await fake.slash(world.alice, world.general, "demo later", seconds=1000, text="late")
    await later.done()  # the bot is asleep on its timer before time passes
    await fake.pass_time(1000)
    await world.bot.wait_for_output("later: the edit failed with 401 50027")
    assert later.content == "Waiting 1000.0s"
    assert [(r.status, r.response["code"]) for r in fake.errors] == [(401, 50027)]
    assert later.rejected == fake.errors


async def test_a_callback_counts_its_three_seconds_on_the_fake_clock(world: World) -> None:
    """The bot sleeps one second on its loop; the test lets four pass: the answer is late."""
    fake = world.fake
    waited = await fake.slash(world.alice, world.general, "demo wait", seconds=1, _wait=False)
    fake.clock.advance(4)
    await world.bot.wait_for_output("Unknown interaction")
    assert not waited.responded
    assert waited.callbacks[0]["late"]
    assert waited.callbacks[0]["after"] >= 4


async def test_followup_before_the_callback_and_a_second_callback(world: World) -> None:
    fake = world.fake
    waited = await fake.slash(world.alice, world.general, "demo wait", seconds=0.5, _wait=False)
    async with aiohttp.ClientSession() as http:
        rest = Rest(fake, http)
        hook = f"/webhooks/{fake.application.id}/{waited.token}"
        early = await rest.call("POST", hook, {"content": "too early"}, auth=False)
        assert early == (404, {"code": 10015, "message": "Unknown Webhook"})
        assert await waited.wait_response()
        callback = f"/interactions/{waited.id}/{waited.token}/callback"
        again = await rest.call("POST", callback, {"type": 4, "data": {"content": "x"}}, auth=False)
    assert again == (400, {"code": 40060, "message": "Interaction has already been acknowledged."})
    assert [c["status"] for c in waited.callbacks] == [200, 400]


# --------------------------------------------------------------------------- history


async def test_message_versions_carry_fake_times_for_lag_measurements(
    fake: FakeDiscord, rest: Rest
) -> None:
    guild = fake.add_guild("G")
    channel = guild.add_text_channel("table")
    player = fake.add_user("player")
    guild.add_member(player)
    first = await rest.post(channel, "turn: alice")
    posted = fake.clock.now()
    stored = posted + 1  # the bot stored "bruno's turn" one second later ...
    fake.clock.advance(10)
    await rest.edit(channel, first, "turn: bruno")  # ... and showed it ten seconds later
    edited = fake.clock.now()
    message = fake.messages[first]
    assert message.created_at <= posted
    assert [v.content for v in message.history] == ["turn: alice", "turn: bruno"]
    assert message.history[1].at - message.history[0].at >= 10
    version = message.version_at(stored)
    assert version is not None
    assert version.content == "turn: alice"
    assert message.version_at(message.created_at - 1) is None

    def bruno(v: Any) -> bool:
        return "bruno" in str(v.content)

    shown = message.shown_at(bruno, since=stored)
    assert shown is not None
    assert shown - stored >= 9
    assert fake.shown_at(channel, bruno, since=stored) == shown
    assert message.shown_at(bruno, since=edited + 1) == edited + 1  # already showing then
    # A repost at the bottom also counts, from when it was posted; deleted messages stop.
    second = await rest.post(channel, "turn: carla")
    await rest.call("DELETE", f"/channels/{channel.id}/messages/{first}")
    assert fake.shown_at(channel, lambda v: "carla" in v.content, since=stored) is not None
    assert fake.shown_at(channel, bruno, since=fake.clock.now() + 1) is None
    # bot_messages: the bot's live public ones only (not users', not deleted).
    await fake.say(player, channel, "hello")
    assert [m.id for m in fake.bot_messages(channel)] == [second]
