"""Gateway trouble: op 7 and op 9 to every session, a silent gateway, Discord unreachable."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeDiscord, InteractionNotDeliveredError

from .test_fake_discord import RawShard, World, _world


@pytest.fixture
async def fast_heartbeat_world(tmp_path: Path) -> AsyncIterator[World]:
    async for w in _world(tmp_path, heartbeat_interval_ms=200):
        yield w


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async for w in _world(tmp_path):
        yield w


class RawGateway:
    """A bare websocket to the fake's gateway that keeps every payload it gets."""

    def __init__(self, fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
        self.fake, self.http = fake, http
        self.got: list[dict[str, Any]] = []
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> RawGateway:
        self.ws = await self.http.ws_connect(f"{self.fake.gateway_url}?v=10&encoding=json")
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type is aiohttp.WSMsgType.TEXT:
                self.got.append(json.loads(msg.data))
                self.fake._bump()

    def ops(self) -> list[int]:
        return [int(p["op"]) for p in self.got]

    async def send(self, op: int, data: Any = None) -> None:
        assert self.ws is not None
        await self.ws.send_json({"op": op, "d": data})

    async def wait(self, predicate: Any, within: float = 5.0) -> None:
        await self.fake.wait_for(lambda: predicate(self), within=within)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader


async def test_an_extra_heartbeat_is_answered_at_any_time_but_not_in_a_silence() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        guild = fake.add_guild("G")
        one = await RawGateway(fake, http).open()
        try:
            await one.wait(lambda g: g.ops() == [10])
            await one.send(1, None)  # before IDENTIFY
            await one.wait(lambda g: g.ops() == [10, 11])
            await one.send(2, {"token": fake.token, "intents": 1, "properties": {}})
            await one.wait(lambda g: "READY" in [p.get("t") for p in g.got])
            await one.send(1, 3)  # after it, any time
            await one.wait(lambda g: g.ops().count(11) == 2)
            (conn,) = fake.gateway_connections
            session = conn.session
            assert session is not None

            silence = await fake.silence_gateway(30)
            assert not silence.over
            before = len(one.got)
            await one.send(1, 3)
            guild.add_text_channel("during")  # an event to send, held back
            two = await RawGateway(fake, http).open()  # a new connection: no HELLO yet
            await asyncio.sleep(0.3)
            assert len(one.got) == before
            assert two.got == []
            assert conn.ignored == 1
            assert conn.sent_seq < session.seq

            fake.clock.advance(30)
            await silence.wait_over(within=2)
            await one.wait(lambda g: "CHANNEL_CREATE" in [p.get("t") for p in g.got])
            await two.wait(lambda g: g.ops() == [10])
            assert conn.sent_seq == session.seq
            await one.send(1, 4)
            await one.wait(lambda g: g.ops()[-1] == 11)
            assert silence.ended is not None
            assert silence.duration is not None
            assert silence.duration >= 30
            assert fake.silences == [silence]
            assert not fake.silenced
            await two.close()
        finally:
            await one.close()


async def test_op_7_and_op_9_go_to_every_session() -> None:
    async with FakeDiscord(shard_count=2) as fake, aiohttp.ClientSession() as http:
        fake.add_guild("Zero", shard=(0, 2))
        fake.add_guild("One", shard=(1, 2))
        shards = [await RawShard(fake, http, [i, 2]).connect() for i in (0, 1)]
        try:
            await fake.gateway_reconnect(wait=False)
            await fake.gateway_invalid_session(resumable=False, wait=False)
            for shard in shards:

                def control(shard: RawShard = shard) -> list[tuple[Any, Any]]:
                    return [(e["op"], e["d"]) for e in shard.events if e["op"] in (7, 9)]

                await fake.wait_for(lambda c=control: len(c()) == 2, within=5)  # type: ignore[misc]
                assert control() == [(7, None), (9, False)]
            sessions = list(fake.shard_sessions.values())
            assert all(s.invalidated for s in sessions)
            # A RESUME with a session op 9 ended is refused with op 9 again.
            late = await RawGateway(fake, http).open()
            await late.wait(lambda g: g.ops() == [10])
            resume = {"token": fake.token, "session_id": sessions[0].id, "seq": 1}
            await late.send(6, resume)
            await late.wait(lambda g: g.ops() == [10, 9])
            assert late.got[-1]["d"] is False
            assert fake.resume_count == 0
            await late.close()
        finally:
            for shard in shards:
                await shard.close()


async def test_the_bot_resumes_after_op_7_and_op_9_resumable_and_identifies_after_op_9(
    world: World,
) -> None:
    fake = world.fake
    (await fake.slash(world.alice, world.general, "demo secret")).assert_answered_within(3.0)
    await fake.gateway_reconnect()
    await fake.gateway_invalid_session(resumable=True)
    assert (fake.resume_count, fake.identify_count) == (2, 1)
    connections = len(fake.gateway_connections)
    await fake.gateway_invalid_session(wait=False)
    # discord.py waits 5 s (its loop clock) before it IDENTIFYs again: let them pass.
    await fake.wait_for(lambda: len(fake.gateway_connections) > connections, within=10)
    await asyncio.sleep(0.2)
    fake.clock.advance(5)
    await fake.wait_for(lambda: fake.identify_count == 2 and fake.connected, within=10)
    (await fake.slash(world.alice, world.general, "demo secret")).assert_answered_within(3.0)
    fake.assert_clean()
    world.bot.assert_healthy()


async def test_a_silent_gateway_delivers_nothing_and_ignores_the_bot(
    fast_heartbeat_world: World,
) -> None:
    w = fast_heartbeat_world
    fake = w.fake
    (await fake.slash(w.alice, w.general, "demo secret")).assert_answered_within(3.0)
    conn = fake.gateway_connections[-1]
    silence = await fake.silence_gateway(60)
    acked = conn.heartbeats
    await fake.wait_for(lambda: conn.ignored >= 2, within=5, what="heartbeats in the silence")
    assert conn.heartbeats == acked  # none answered
    with pytest.raises(InteractionNotDeliveredError) as refused:
        await fake.slash(w.alice, w.general, "demo secret")
    assert refused.value.result.undelivered
    assert refused.value.result in fake.interactions.values()
    assert not refused.value.result.responded
    fake.clock.advance(60)
    await silence.wait_over(within=2)
    await fake.wait_for(lambda: fake.connected, within=15)
    result = await fake.slash(w.alice, w.general, "demo secret")
    result.assert_answered_within(3.0)
    assert fake.identify_count == 1  # the session survived (resumed or kept)
    fake.assert_clean()
    w.bot.assert_healthy()


async def test_an_outage_refuses_every_connection_then_listens_on_the_same_port(
    world: World,
) -> None:
    fake = world.fake
    (await fake.slash(world.alice, world.general, "demo secret")).assert_answered_within(3.0)
    port, resumes = fake.port, fake.resume_count
    outage = await fake.outage(60)
    assert not outage.over
    assert not fake.connected
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.ClientConnectorError):
            await http.get(f"{fake.rest_base}/gateway")
        with pytest.raises(aiohttp.ClientConnectorError):
            await http.ws_connect(fake.gateway_url)
    with pytest.raises(InteractionNotDeliveredError):
        await fake.slash(world.alice, world.general, "demo secret")
    # discord.py tried, was refused, and sleeps its backoff on the loop clock.
    await world.bot.wait_for_output("Attempting a reconnect")
    fake.clock.advance(60)
    await outage.wait_over(within=5)
    assert fake.port == port
    await fake.wait_for(lambda: fake.connected, within=15, what="the bot back after the outage")
    result = await fake.slash(world.alice, world.general, "demo secret")
    result.assert_answered_within(3.0)
    assert (fake.identify_count, fake.resume_count) == (1, resumes + 1)
    assert outage.duration is not None
    assert outage.duration >= 60
    assert fake.outages == [outage]
    assert not fake.down
    fake.assert_clean()
