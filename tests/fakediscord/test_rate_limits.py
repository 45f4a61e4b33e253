"""The fake's 429 answers, proven against discord.py: it reads them as Discord's and retries."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from fakediscord import FakeDiscord

from .test_fake_discord import World, _world

EDIT = "/channels/{channel_id}/messages/{message_id}"


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async for w in _world(tmp_path):
        yield w


@pytest.mark.parametrize("scope", ["user", "global"])
async def test_a_429_on_an_edit_is_retried_and_the_edit_lands(world: World, scope: str) -> None:
    fake, general = world.fake, world.general
    rule = fake.rate_limit("PATCH", EDIT, every=1, limit=2, retry_after=0.3, scope=scope)
    started = time.monotonic()
    result = await fake.slash(world.alice, general, "demo announce", text="Hello")
    await result.done()
    (announcement,) = [m for m in fake.channel_messages(general) if m.interaction is None]
    assert announcement.content == "Hello (edited)"
    # Two 429s, then the third try went through: discord.py waited retry_after each time.
    assert rule.answered == 2
    assert rule.seen == 3
    assert [r.status for r in fake.requests if r.route == EDIT] == [429, 429, 200]
    assert time.monotonic() - started >= 0.6
    assert len(fake.rate_limited) == 2
    fake.assert_clean()  # the asked-for 429s are not rejected requests
    world.bot.assert_healthy()


async def test_a_rule_matches_only_its_channel_and_every_nth_request(world: World) -> None:
    fake, general = world.fake, world.general
    elsewhere = fake.rate_limit("PATCH", EDIT, every=1, channel_id=general.id + 1)
    here = fake.rate_limit("PATCH", EDIT, every=2, retry_after=0.05, channel_id=general.id)
    for text in ("one", "two", "three"):
        result = await fake.slash(world.alice, general, "demo announce", text=text)
        await result.done()
    assert elsewhere.answered == 0
    # Edits: 1 ok; 2 is a 429, its retry 3 ok; 4 is a 429, its retry 5 ok.
    assert here.seen == 5
    assert here.answered == 2
    here.off()
    result = await fake.slash(world.alice, general, "demo announce", text="four")
    await result.done()
    assert here.seen == 5
    fake.assert_clean()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as f:
        yield f


async def test_the_429_looks_like_discords(fake: FakeDiscord) -> None:
    guild = fake.add_guild("G")
    channel = guild.add_text_channel("c")
    fake.rate_limit("POST", "/channels/{channel_id}/messages", retry_after=1.5, scope="shared")
    fake.rate_limit("GET", "/channels/{channel_id}", scope="global", retry_after=0.2)
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        url = f"{fake.rest_base}/channels/{channel.id}"
        async with http.post(f"{url}/messages", json={"content": "hi"}) as response:
            assert response.status == 429
            assert response.headers["Content-Type"] == "application/json"
            assert response.headers["Retry-After"] == "2"
            assert response.headers["X-RateLimit-Scope"] == "shared"
            assert response.headers["Via"]
            body = await response.json()
            assert body == {
                "message": "You are being rate limited.",
                "retry_after": 1.5,
                "global": False,
                "code": 0,
            }
        async with http.get(url) as response:
            assert response.status == 429
            assert response.headers["X-RateLimit-Global"] == "true"
            assert (await response.json())["global"] is True
    assert fake.channel_messages(channel) == []  # the limited request did nothing
    with pytest.raises(ValueError, match="no route"):
        fake.rate_limit("PATCH", "/nowhere")
