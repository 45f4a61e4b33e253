"""Failed requests on demand: 5xx, "carried out but 5xx", hangs, resets, soak probabilities."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from fakediscord import FakeDiscord

from .test_fake_discord import World, _world
from .test_limits import Rest

MESSAGES = "/channels/{channel_id}/messages"
EDIT = "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "/webhooks/{app_id}/{token}"


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async for w in _world(tmp_path):
        yield w


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as f:
        yield f


@pytest.fixture
async def rest(fake: FakeDiscord) -> AsyncIterator[Rest]:
    async with aiohttp.ClientSession() as http:
        yield Rest(fake, http)


# --------------------------------------------------------------------------- plain clients


async def test_a_5xx_fault_answers_discords_json_and_changes_nothing(
    fake: FakeDiscord, rest: Rest
) -> None:
    channel = fake.add_guild("G").add_text_channel("c")
    rule = fake.fault("POST", MESSAGES, status=503, channel_id=channel.id)
    path = f"/channels/{channel.id}/messages"
    assert await rest.call("POST", path, {"content": "hi"}) == (
        503,
        {"message": "503: Service Unavailable", "code": 0},
    )
    assert fake.channel_messages(channel) == []
    other = fake.fault("GET", "/channels/{channel_id}", status=500, code=1234, message="boom")
    assert await rest.call("GET", f"/channels/{channel.id}") == (
        500,
        {"message": "boom", "code": 1234},
    )
    assert (rule.seen, rule.answered) == (1, 1)
    assert [(r.status, r.route) for r in fake.faulted] == [(503, MESSAGES), (500, other.route)]
    assert fake.faulted[0].fault is rule
    assert rule.requests == fake.faulted[:1]
    fake.assert_clean()  # asked-for faults are not errors
    fake.clear_faults()
    assert (await rest.call("POST", path, {"content": "hi"}))[0] == 200
    assert rule.seen == 1  # an inactive rule counts nothing


async def test_carried_out_means_done_but_answered_with_the_error(
    fake: FakeDiscord, rest: Rest
) -> None:
    channel = fake.add_guild("G").add_text_channel("c")
    message = await rest.post(channel, "v1")
    fake.fault("PATCH", EDIT, status=502, carried_out=True, limit=1)
    assert (await rest.edit(channel, message, "v2"))[0] == 502
    assert fake.messages[message].content == "v2"  # the edit happened
    assert (await rest.edit(channel, message, "v3"))[0] == 200  # limit=1: once only


async def test_a_reset_drops_the_connection_without_an_answer(
    fake: FakeDiscord, rest: Rest
) -> None:
    channel = fake.add_guild("G").add_text_channel("c")
    fake.fault("POST", MESSAGES, status="reset", limit=1)
    with pytest.raises(aiohttp.ClientConnectionError):
        await rest.post(channel, "lost")
    assert fake.channel_messages(channel) == []
    assert [r.status for r in fake.faulted] == [0]
    fake.fault("POST", MESSAGES, status="reset", carried_out=True, limit=1)
    with pytest.raises(aiohttp.ClientConnectionError):
        await rest.post(channel, "kept")
    assert [m.content for m in fake.channel_messages(channel)] == ["kept"]
    await rest.post(channel, "fine")  # the fake itself is unharmed


async def test_a_hang_delays_the_answer_and_a_longer_one_times_the_client_out(
    fake: FakeDiscord, rest: Rest
) -> None:
    channel = fake.add_guild("G").add_text_channel("c")
    slow = fake.fault("POST", MESSAGES, status=None, hang=0.4, limit=1)
    started = time.monotonic()
    await rest.post(channel, "slow")
    assert time.monotonic() - started >= 0.4
    assert slow.requests[0].status == 200
    # Hang, then 503: late and failed. Hang past the client's patience: a timeout, and the
    # request is still carried out when the hang ends.
    fake.fault("POST", MESSAGES, status=503, hang=0.2, limit=1)
    started = time.monotonic()
    assert (await rest.call("POST", f"/channels/{channel.id}/messages", {"content": "x"}))[0] == 503
    assert time.monotonic() - started >= 0.2
    fake.fault("POST", MESSAGES, status=None, hang=0.6, limit=1)
    with pytest.raises(TimeoutError):
        async with rest.http.post(
            f"{fake.rest_base}/channels/{channel.id}/messages",
            json={"content": "after the client gave up"},
            headers=rest.auth,
            timeout=aiohttp.ClientTimeout(total=0.2),
        ):
            pass
    await fake.wait_for(lambda: len(fake.channel_messages(channel)) == 2)
    assert fake.channel_messages(channel)[-1].content == "after the client gave up"


async def test_a_hold_keeps_the_request_until_the_test_releases_it(
    fake: FakeDiscord, rest: Rest
) -> None:
    """A hang that ends on an event: what lands late lands when the test says, whatever the
    machine's speed; a client that gave up meanwhile still sees it carried out."""
    channel = fake.add_guild("G").add_text_channel("c")
    held = fake.fault("POST", MESSAGES, status=None, hold=True, limit=1)
    with pytest.raises(TimeoutError):
        async with rest.http.post(
            f"{fake.rest_base}/channels/{channel.id}/messages",
            json={"content": "held"},
            headers=rest.auth,
            timeout=aiohttp.ClientTimeout(total=0.2),
        ):
            pass
    await rest.post(channel, "not held")  # the rule fired once: later requests go through
    assert [m.content for m in fake.channel_messages(channel)] == ["not held"]
    held.release()
    await fake.wait_for(lambda: len(fake.channel_messages(channel)) == 2, what="the held post")
    assert [m.content for m in fake.channel_messages(channel)] == ["not held", "held"]


async def test_probability_is_a_seeded_fraction_and_star_matches_any_route(
    fake: FakeDiscord, rest: Rest
) -> None:
    channel = fake.add_guild("G").add_text_channel("c")

    async def pattern(rule_seed: int) -> list[int]:
        rule = fake.fault("*", "*", status=500, probability=0.25, seed=rule_seed)
        statuses = [(await rest.call("GET", f"/channels/{channel.id}"))[0] for _ in range(200)]
        rule.off()
        assert rule.answered == statuses.count(500)
        return statuses

    first, again, other = await pattern(7), await pattern(7), await pattern(8)
    assert first == again  # the same seed fails the same requests
    assert first != other
    assert 25 <= first.count(500) <= 75  # a quarter of 200, give or take
    every = fake.fault("GET", "*", status=500, every=3)
    statuses = [(await rest.call("GET", f"/channels/{channel.id}"))[0] for _ in range(6)]
    assert statuses == [200, 200, 500, 200, 200, 500]
    every.off()
    limited = fake.rate_limit("GET", "*", probability=0.5, seed=3, retry_after=0.01)
    statuses = [(await rest.call("GET", f"/channels/{channel.id}"))[0] for _ in range(40)]
    assert set(statuses) == {200, 429}
    assert limited.answered == statuses.count(429) == len(fake.rate_limited)


def test_rules_refuse_what_they_cannot_do(fake: FakeDiscord) -> None:
    with pytest.raises(ValueError, match="no route"):
        fake.fault("PATCH", "/nowhere")
    with pytest.raises(ValueError, match="rate_limit"):
        fake.fault("POST", MESSAGES, status=429)
    with pytest.raises(ValueError, match="hang or a hold"):
        fake.fault("POST", MESSAGES, status=None)
    with pytest.raises(ValueError, match="probability"):
        fake.fault("POST", MESSAGES, probability=1.5)
    with pytest.raises(ValueError, match="status"):
        fake.fault("POST", MESSAGES, status="explode")


# --------------------------------------------------------------------------- through discord.py


async def test_a_callback_carried_out_but_answered_5xx_then_40060(world: World) -> None:
    """discord.py retries a 5xx callback; Discord has already taken it: 40060."""
    fake = world.fake
    rule = fake.fault("POST", CALLBACK, status=500, carried_out=True, limit=1)
    result = await fake.slash(world.alice, world.general, "demo secret")
    await world.bot.wait_for_output("Interaction has already been acknowledged")
    assert result.responded
    assert result.ephemeral  # the first, faulted, callback took effect
    assert [c["status"] for c in result.callbacks] == [200, 400]
    assert rule.answered == 1
    assert [r.status for r in fake.faulted] == [500]
    assert [(r.status, r.response["code"]) for r in fake.errors] == [(400, 40060)]


async def test_a_failed_followup_and_a_failed_edit_are_retried_by_discord_py(
    world: World,
) -> None:
    fake = world.fake
    hook = fake.fault("POST", FOLLOWUP, status=503, limit=1)
    slow = await fake.slash(world.alice, world.general, "demo slow")
    await slow.done()
    assert slow.content == "Done thinking"
    assert [m.content for m in slow.followups] == ["Only you see this"]
    assert hook.answered == 1
    edit = fake.fault("PATCH", EDIT, status=502, limit=1, channel_id=world.general.id)
    announce = await fake.slash(world.alice, world.general, "demo announce", text="Hi")
    await announce.done()
    (posted,) = [m for m in fake.bot_messages(world.general) if m.interaction is None]
    assert posted.content == "Hi (edited)"
    assert edit.answered == 1
    fake.assert_clean()
    world.bot.assert_healthy()


async def test_a_hung_callback_makes_the_answer_late(world: World) -> None:
    fake = world.fake
    fake.fault("POST", CALLBACK, status=None, hang=3.5, limit=1)
    result = await fake.slash(world.alice, world.general, "demo secret")
    await asyncio.sleep(0)
    assert not result.responded  # still hanging, then too late: Discord's 3 s have passed
    await fake.wait_for(lambda: bool(result.callbacks), within=10)
    assert result.callbacks[0]["late"]


async def test_a_post_retried_with_its_enforced_nonce_is_not_doubled(
    fake: FakeDiscord, rest: Rest
) -> None:
    """A post whose answer never came (it hung, or the connection dropped after Discord
    created the message) is sent again with the same nonce and ``enforce_nonce``: Discord
    returns the message it made instead of a second one, for a few minutes."""
    channel = fake.add_guild("G").add_text_channel("c")
    path = f"/channels/{channel.id}/messages"
    body = {"content": "table", "nonce": "4242", "enforce_nonce": True}
    fake.fault("POST", MESSAGES, status="reset", carried_out=True, limit=1)
    with pytest.raises(aiohttp.ClientError):
        await rest.call("POST", path, body)
    status, again = await rest.call("POST", path, body)
    assert status == 200
    assert [m.id for m in fake.channel_messages(channel)] == [int(again["id"])]
    # Without enforce_nonce, or after the window, a new message is made.
    assert (await rest.call("POST", path, {**body, "enforce_nonce": False}))[0] == 200
    fake.clock.advance(6 * 60)
    assert (await rest.call("POST", path, body))[0] == 200
    assert len(fake.channel_messages(channel)) == 3
    assert (await rest.call("POST", path, {"content": "x", "nonce": "9" * 26}))[0] == 400


async def test_a_new_message_notifies_only_the_mentions_it_allows(
    fake: FakeDiscord, rest: Rest
) -> None:
    """Who a message pings: its mentions, filtered by allowed_mentions, when it is posted —
    never when it is edited (Discord does not notify mentions in edited messages)."""
    guild = fake.add_guild("G")
    channel = guild.add_text_channel("c")
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    guild.add_member(ann)
    guild.add_member(bob)
    path = f"/channels/{channel.id}/messages"
    both = f"<@{ann.id}> and <@{bob.id}>"
    status, only_ann = await rest.call(
        "POST", path, {"content": both, "allowed_mentions": {"parse": [], "users": [str(ann.id)]}}
    )
    assert status == 200
    assert fake.messages[int(only_ann["id"])].notified == [ann.id]
    _, everyone = await rest.call("POST", path, {"content": both})
    assert fake.messages[int(everyone["id"])].notified == [ann.id, bob.id]
    _, quiet = await rest.call("POST", path, {"content": "hi", "allowed_mentions": {"parse": []}})
    await rest.call("PATCH", f"{path}/{quiet['id']}", {"content": both})
    assert fake.messages[int(quiet["id"])].notified == []
    assert [m.id for m in fake.notifications(bob)] == [int(everyone["id"])]
