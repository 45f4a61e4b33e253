"""The fake Discord itself, proven against a real discord.py bot in a subprocess.

Every test starts its own ``FakeDiscord`` and its own bot process (``sample_bot.py``, run by
the same launcher as the real bot), so nothing leaks between tests.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from fakediscord import (
    REPO_ROOT,
    BotProcess,
    BotProcessError,
    CommandError,
    ComponentError,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    UserActionError,
)

SAMPLE = "fakediscord.sample_bot"


@dataclass
class World:
    fake: FakeDiscord
    bot: BotProcess
    guild: FakeGuild
    general: FakeChannel
    alice: FakeUser  # a plain member, English client
    bob: FakeUser  # has Manage Server, Italian client


async def _world(tmp_path: Path, **fake_options: object) -> AsyncIterator[World]:
    fake = FakeDiscord(**fake_options)  # type: ignore[arg-type]
    guild = fake.add_guild("Test Server")
    general = guild.add_text_channel("general")
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="it")
    guild.add_member(alice)
    guild.add_member(bob, manage_guild=True)
    await fake.start()
    bot = BotProcess(
        fake, database_path=tmp_path / "sample.sqlite3", module=SAMPLE, dev_guild=guild
    )
    try:
        async with bot:
            yield World(fake, bot, guild, general, alice, bob)
    finally:
        await fake.close()


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async for w in _world(tmp_path):
        yield w


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as f:
        yield f


def assert_clean(w: World) -> None:
    w.fake.assert_clean()
    w.bot.assert_healthy()


# --------------------------------------------------------------------------- login


async def test_login_ready_and_command_sync_reach_the_fake(world: World) -> None:
    fake = world.fake
    calls = [(r.method, r.route) for r in fake.requests]
    assert ("GET", "/users/@me") in calls
    assert ("GET", "/oauth2/applications/@me") in calls
    assert ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands") in calls
    assert fake.registered_commands(world.guild) == [
        "demo announce",
        "demo board",
        "demo clock",
        "demo edit",
        "demo later",
        "demo layout",
        "demo modal",
        "demo pick",
        "demo secret",
        "demo silent",
        "demo slow",
        "demo wait",
        "demo whoami",
        "demo-admin reset",
    ]
    assert fake.registered_commands() == []  # nothing global
    (conn,) = fake.gateway_connections
    assert conn.path == "/gateway"
    assert conn.kind == "identify"
    assert conn.compress in ("zlib-stream", "zstd-stream")
    assert conn.query["encoding"] == "json"
    assert conn.query["v"] == "10"
    identify = fake.gateway_received[0]
    assert identify["op"] == 2
    assert identify["d"]["token"] == fake.token
    assert fake.identify_count == fake.ready_count == 1
    assert fake.unknown_routes == []
    assert world.bot.network_violations == []
    assert_clean(world)


async def test_the_real_bot_entry_point_logs_in_and_stops_cleanly(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake.add_guild()
    async with BotProcess(fake, database_path=tmp_path / "uno.sqlite3", dev_guild=guild) as bot:
        assert fake.ready_count == 1
        assert [s for s, _ in fake.command_syncs] == [guild.id]
    assert bot.exit_codes == [0]
    assert bot.network_violations == []
    fake.assert_clean()


# --------------------------------------------------------------------------- slash commands


async def test_ephemeral_reply_with_attachment_is_visible_only_to_its_user(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    result = await fake.slash(alice, world.general, "demo secret")
    await result.done()
    result.assert_answered_within(3.0)
    assert result.response_type == 4
    message = result.message
    assert message is not None
    assert message.ephemeral
    assert message.content == "Your hand"
    (attachment,) = message.attachments
    assert attachment.filename == "hand.txt"
    assert attachment.data == f"secret hand of {alice.id}\n".encode()
    assert message in fake.visible_to(alice)
    assert message not in fake.visible_to(bob)
    assert "hand.txt" not in fake.seen_text(bob)
    assert "Your hand" in fake.seen_text(alice)
    assert_clean(world)


async def test_a_wrong_command_name_or_option_fails_loudly(world: World) -> None:
    fake, alice = world.fake, world.alice
    with pytest.raises(CommandError, match="registered"):
        await fake.slash(alice, world.general, "demo pik")
    with pytest.raises(CommandError, match="group, not a command"):
        await fake.slash(alice, world.general, "demo")
    with pytest.raises(CommandError, match="NUMBER"):
        await fake.slash(alice, world.general, "demo wait", seconds="soon")
    with pytest.raises(CommandError, match="no option"):
        await fake.slash(alice, world.general, "demo pick", colour="red")
    with pytest.raises(CommandError, match="required"):
        await fake.slash(alice, world.general, "demo pick")
    with pytest.raises(CommandError, match="<= 10"):
        await fake.slash(alice, world.general, "demo wait", seconds=11)
    assert fake.interactions == {}


async def test_manage_server_permission_gates_a_command(world: World) -> None:
    fake = world.fake
    with pytest.raises(CommandError, match="lacks the permissions"):
        await fake.slash(world.alice, world.general, "demo-admin reset")
    result = await fake.slash(world.bob, world.general, "demo-admin reset")
    assert result.content == "Admin ok"
    assert_clean(world)


async def test_user_options_are_resolved_and_locale_is_sent(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    result = await fake.slash(bob, world.general, "demo whoami", target=alice)
    assert result.content == f"alice ({alice.id}); you speak it"
    result = await fake.slash(alice, world.general, "demo whoami", target=bob)
    assert result.content == f"bob ({bob.id}); you speak en-US"
    assert_clean(world)


async def test_autocomplete_returns_the_bots_choices(world: World) -> None:
    fake, alice = world.fake, world.alice
    choices = await fake.autocomplete(alice, world.general, "demo pick", focused="card", card="red")
    assert choices.names == ["Red 7", "Red Skip"]
    assert choices.values == ["red-7", "red-skip"]
    choices.result.assert_answered_within(3.0)
    assert choices.result.response_type == 8
    result = await fake.slash(alice, world.general, "demo pick", card=choices.values[0])
    assert result.content == "You picked red-7"
    assert_clean(world)


async def test_defer_then_followups(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    result = await fake.slash(alice, world.general, "demo slow")
    assert result.response_type == 5
    assert result.message is not None
    thinking = result.message.loading  # "UNO Bot is thinking..."
    await result.done()
    assert thinking
    assert not result.message.loading
    assert result.message.content == "Done thinking"  # the first followup fills the defer
    assert not result.message.ephemeral
    (private,) = result.followups
    assert private.content == "Only you see this"
    assert private.ephemeral
    assert private in fake.visible_to(alice)
    assert private not in fake.visible_to(bob)
    assert result.message in fake.visible_to(bob)
    assert_clean(world)


async def test_modal_round_trip(world: World) -> None:
    fake, alice = world.fake, world.alice
    opened = await fake.slash(alice, world.general, "demo modal")
    assert opened.response_type == 9
    assert opened.modal is not None
    assert opened.modal["title"] == "Who are you?"
    submitted = await fake.submit_modal(alice, opened, {"name": "Ada"})
    assert submitted.content == "Hello Ada"
    assert submitted.ephemeral
    assert_clean(world)


async def test_channel_messages_edits_files_and_threads(world: World) -> None:
    fake, general = world.fake, world.general
    result = await fake.slash(world.alice, general, "demo announce", text="Hello all")
    await result.done()
    posted = [m for m in fake.channel_messages(general) if m.interaction is None]
    (announcement,) = posted
    assert result.content == f"Posted {announcement.id}"
    assert result.ephemeral
    assert announcement.content == "Hello all (edited)"
    assert [v.content for v in announcement.history] == ["Hello all", "Hello all (edited)"]
    assert announcement.attachments[0].data == b"PNG?"
    (upload,) = [r for r in fake.requests if r.files]
    assert (upload.files, upload.file_sizes) == (["board.png"], [4])
    assert announcement in fake.visible_to(world.bob)
    (thread,) = world.guild.threads
    assert thread.name == "game"
    assert fake.last_message(thread) is not None
    assert fake.last_message(thread).content == "Game thread"  # type: ignore[union-attr]
    (dm,) = [m for m in fake.visible_to(world.alice) if m.channel.guild is None]
    assert dm.content == "Psst, a direct message"
    assert dm not in fake.visible_to(world.bob)
    assert_clean(world)


async def test_many_users_at_once_each_see_only_their_own_hand(world: World) -> None:
    fake, guild = world.fake, world.guild
    players = [fake.add_user(f"player{i}") for i in range(6)]
    for player in players:
        guild.add_member(player)
    results = await asyncio.gather(*(fake.slash(p, world.general, "demo secret") for p in players))
    for player, result in zip(players, results, strict=True):
        result.assert_answered_within(3.0)
        assert result.attachments[0].data == f"secret hand of {player.id}\n".encode()
        others = [p for p in players if p is not player]
        assert all(result.message not in fake.visible_to(o) for o in others)
    assert_clean(world)


async def test_channels_and_threads_added_while_connected(world: World) -> None:
    fake = world.fake
    lobby = world.guild.add_text_channel("lobby")
    thread = lobby.add_thread("table-1", private=True, members=(world.alice,))
    result = await fake.slash(world.alice, thread, "demo board")
    assert result.message is not None
    assert result.message.channel is thread
    assert result.message in fake.visible_to(world.alice)
    assert result.message not in fake.visible_to(world.bob)  # a private thread
    events = [e["t"] for e in fake.sessions[next(iter(fake.sessions))].events]
    assert "CHANNEL_CREATE" in events
    assert "THREAD_CREATE" in events
    outsider = fake.add_user("outsider")
    world.guild.add_member(outsider)
    with pytest.raises(UserActionError, match="cannot see"):
        await fake.slash(outsider, thread, "demo board")
    assert_clean(world)


async def test_a_wrong_token_is_refused_at_login(fake: FakeDiscord, tmp_path: Path) -> None:
    bot = BotProcess(
        fake,
        database_path=tmp_path / "db.sqlite3",
        module=SAMPLE,
        env={"DISCORD_TOKEN": "not-the-token"},
    )
    with pytest.raises(BotProcessError, match="exited with 2"):
        await bot.start()
    assert [(r.path, r.status) for r in fake.requests] == [("/users/@me", 401)]
    assert fake.identify_count == 0


# --------------------------------------------------------------------------- components


async def test_button_click_edits_the_message_and_select_answers(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    board = await fake.slash(alice, world.general, "demo board")
    message = board.message
    assert message is not None
    assert not message.ephemeral
    assert message in fake.visible_to(bob)
    assert message.custom_ids == ["demo:count:0", "demo:colour"]

    click = await fake.click(bob, message, "demo:count:0")
    await click.done()
    click.assert_answered_within(3.0)
    assert click.response_type == 7
    assert click.message is message
    assert message.content == "Count: 1 (clicks recorded: 1)"
    assert message.custom_ids == ["demo:count:1", "demo:colour"]
    with pytest.raises(ComponentError, match="no component"):
        await fake.click(bob, message, "demo:count:0")  # that button is gone now

    chosen = await fake.select(alice, message, "demo:colour", ["green"])
    assert chosen.content == "You chose green"
    assert chosen.ephemeral
    with pytest.raises(ComponentError, match="no options"):
        await fake.select(alice, message, "demo:colour", ["purple"])
    assert_clean(world)


async def test_a_forged_custom_id_reaches_the_bot_but_gets_no_answer(world: World) -> None:
    fake = world.fake
    board = await fake.slash(world.alice, world.general, "demo board")
    assert board.message is not None
    forged = await fake.click(world.bob, board.message, "demo:count:99", force=True, wait=False)
    assert not await forged.wait_response(within=1.0)
    assert forged.dispatched_at is not None
    with pytest.raises(AssertionError, match="never answered"):
        forged.assert_answered_within(3.0)
    assert_clean(world)


async def test_sigkill_restart_and_the_old_button_still_works(world: World) -> None:
    fake, bot = world.fake, world.bot
    board = await fake.slash(world.alice, world.general, "demo board")
    message = board.message
    assert message is not None
    await (await fake.click(world.alice, message, "demo:count:0")).done()
    assert message.content == "Count: 1 (clicks recorded: 1)"

    assert await bot.kill() == -9
    assert not fake.connected
    await bot.start()  # same database path, a fresh process and gateway session
    assert fake.identify_count == 2

    click = await fake.click(world.bob, message, "demo:count:1")
    await click.done()
    click.assert_answered_within(3.0)
    assert message.content == "Count: 2 (clicks recorded: 2)"  # the database survived
    assert await bot.stop() == 0
    assert bot.exit_codes == [-9, 0]
    fake.assert_clean()
    assert bot.network_violations == []


# --------------------------------------------------------------------------- gateway


@pytest.fixture
async def fast_heartbeat_world(tmp_path: Path) -> AsyncIterator[World]:
    async for w in _world(tmp_path, heartbeat_interval_ms=200):
        yield w


async def test_heartbeats_and_resume_after_reconnect(fast_heartbeat_world: World) -> None:
    w = fast_heartbeat_world
    fake = w.fake
    first = fake.gateway_connections[0]
    await fake.wait_for(lambda: first.heartbeats >= 2, within=5.0, what="heartbeats")
    await fake.reconnect_gateway()  # op 7: discord.py RESUMEs on READY's resume_gateway_url
    second = fake.gateway_connections[1]
    assert first.closed_at is not None
    assert (second.path, second.kind) == ("/gateway-resume", "resume")
    assert second.session is first.session
    assert fake.identify_count == 1
    result = await fake.slash(w.alice, w.general, "demo secret")
    assert result.ephemeral
    await fake.drop_gateway(code=4000)  # an abrupt close: discord.py reconnects by itself
    assert fake.connected
    result = await fake.slash(w.alice, w.general, "demo secret")
    result.assert_answered_within(3.0)
    assert_clean(w)


# --------------------------------------------------------------------------- deadline


async def test_the_three_second_deadline_is_measured_and_enforced(world: World) -> None:
    fake = world.fake
    quick = await fake.slash(world.alice, world.general, "demo wait", seconds=0.2)
    quick.assert_answered_within(3.0)
    assert quick.latency is not None
    assert 0.2 <= quick.latency < 3.0
    with pytest.raises(AssertionError, match="answered after"):
        quick.assert_answered_within(0.1)

    late = await fake.slash(world.alice, world.general, "demo wait", seconds=3.2)
    await world.bot.wait_for_output("Unknown interaction")
    assert not late.responded
    assert late.callbacks[0]["late"]
    assert late.callbacks[0]["after"] > 3.0
    with pytest.raises(AssertionError, match="never answered"):
        late.assert_answered_within(3.0)
    assert fake.unknown_routes == []
    assert [(e.status, e.response["code"]) for e in fake.errors] == [(404, 10062)]


# --------------------------------------------------------------------------- REST without a bot


async def test_unknown_routes_get_a_discord_error_and_are_recorded(fake: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{fake.rest_base}/no/such/route", headers=headers) as response,
    ):
        assert response.status == 404
        assert response.headers["Content-Type"] == "application/json"
        assert await response.json() == {"message": "404: Not Found", "code": 0}
    assert [r.path for r in fake.unknown_routes] == ["/no/such/route"]


async def test_discord_limits_and_auth_are_enforced(fake: FakeDiscord) -> None:
    guild = fake.add_guild()
    channel = guild.add_text_channel("general")
    url = f"{fake.rest_base}/channels/{channel.id}/messages"
    good = {"Authorization": f"Bot {fake.token}", "Content-Type": "application/json"}
    async with aiohttp.ClientSession() as session:
        async with session.post(url, data=json.dumps({"content": "x" * 2001}), headers=good) as r:
            assert r.status == 400
            assert (await r.json())["code"] == 50035
        async with session.post(url, data=json.dumps({"content": " "}), headers=good) as r:
            assert (await r.json())["code"] == 50006
        bad = {**good, "Authorization": "Bot wrong"}
        async with session.post(url, data=json.dumps({"content": "hi"}), headers=bad) as r:
            assert r.status == 401
        async with session.post(url, data=json.dumps({"content": "hi"}), headers=good) as r:
            assert r.status == 200
    assert fake.channel_messages(channel)[0].content == "hi"
    assert fake.unknown_routes == []


def test_the_launcher_refuses_the_real_network() -> None:
    probe = (
        "import socket, sys\n"
        "from fakediscord import launch\n"
        "sys.addaudithook(launch._audit)\n"
        "try:\n"
        "    socket.create_connection(('discord.com', 443), timeout=5)\n"
        "except ConnectionRefusedError:\n"
        "    print('refused')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO_ROOT, capture_output=True, text=True, check=False
    )
    assert done.stdout.strip() == "refused"
    assert "FAKE_DISCORD_NETWORK_BLOCKED discord.com" in done.stderr


def test_the_launcher_needs_the_fake_addresses() -> None:
    env = {"PATH": "", "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "fakediscord.launch"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "FAKE_DISCORD_REST" in done.stderr


# --------------------------------------------------------------------------- shards


class RawShard:
    """A bare gateway client (no discord.py): IDENTIFY with a shard, then read events."""

    def __init__(self, fake: FakeDiscord, http: aiohttp.ClientSession, shard: list[int]) -> None:
        self.fake, self.http, self.shard = fake, http, shard
        self.events: list[dict[str, object]] = []
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None

    async def connect(self) -> RawShard:
        self._ws = await self.http.ws_connect(f"{self.fake.gateway_url}?v=10&encoding=json")
        hello = await self._ws.receive_json()
        assert hello["op"] == 10
        identify = {"token": self.fake.token, "intents": 1, "shard": self.shard, "properties": {}}
        await self._ws.send_json({"op": 2, "d": identify})
        self._reader = asyncio.create_task(self._read())
        await self.fake.wait_for(lambda: "READY" in self.names(), what="READY")
        return self

    async def _read(self) -> None:
        assert self._ws is not None
        async for msg in self._ws:
            if msg.type is aiohttp.WSMsgType.TEXT:
                self.events.append(json.loads(msg.data))

    def names(self) -> list[str]:
        return [str(e.get("t")) for e in self.events if e.get("op") == 0]

    def guilds(self, event: str) -> set[int]:
        """The guild ids of the ``event`` events this shard got."""
        found = set()
        for e in self.events:
            if e.get("t") == event:
                data = e["d"]
                assert isinstance(data, dict)
                found.add(int(data.get("guild_id") or data["id"]))
        return found

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await self._reader


async def test_each_shard_gets_only_the_events_of_its_guilds() -> None:
    """Discord's formula (guild_id >> 22) % shard_count routes a guild to one session:
    GUILD_CREATE at IDENTIFY, later world changes and interactions alike."""
    async with FakeDiscord(shard_count=2) as fake, aiohttp.ClientSession() as http:
        guilds = [fake.add_guild(f"Server {i}", shard=(i % 2, 2)) for i in range(4)]
        assert [(g.id >> 22) % 2 for g in guilds] == [0, 1, 0, 1]
        async with http.get(
            f"{fake.rest_base}/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}
        ) as response:
            assert (await response.json())["shards"] == 2
        zero = await RawShard(fake, http, [0, 2]).connect()
        assert not fake.shard_sessions.get(1)
        one = await RawShard(fake, http, [1, 2]).connect()
        try:
            assert fake.connected
            assert zero.guilds("GUILD_CREATE") == {guilds[0].id, guilds[2].id}
            assert one.guilds("GUILD_CREATE") == {guilds[1].id, guilds[3].id}
            ready = next(e["d"] for e in one.events if e.get("t") == "READY")
            assert isinstance(ready, dict)
            assert ready["shard"] == [1, 2]
            assert {int(g["id"]) for g in ready["guilds"]} == {guilds[1].id, guilds[3].id}
            channels = [g.add_text_channel("uno") for g in guilds]
            await fake.wait_for(
                lambda: len(zero.guilds("CHANNEL_CREATE") | one.guilds("CHANNEL_CREATE")) == 4,
                what="the CHANNEL_CREATEs",
            )
            assert zero.guilds("CHANNEL_CREATE") == {guilds[0].id, guilds[2].id}
            assert one.guilds("CHANNEL_CREATE") == {guilds[1].id, guilds[3].id}
            assert [fake.shard_of(g.id) for g in guilds] == [0, 1, 0, 1]
            # An interaction goes to its guild's shard only.
            app = fake.application.id
            command = {"name": "ping", "description": "ping", "type": 1}
            async with http.put(
                f"{fake.rest_base}/applications/{app}/commands",
                json=[command],
                headers={"Authorization": f"Bot {fake.token}"},
            ) as response:
                assert response.status == 200
            alice = fake.add_user("alice")
            for guild in guilds:
                guild.add_member(alice)
            for channel in channels:
                await fake.slash(alice, channel, "ping", _wait=False)
            await fake.wait_for(
                lambda: (
                    zero.names().count("INTERACTION_CREATE") == 2
                    and one.names().count("INTERACTION_CREATE") == 2
                ),
                what="the interactions",
            )
            assert zero.guilds("INTERACTION_CREATE") == {guilds[0].id, guilds[2].id}
            assert one.guilds("INTERACTION_CREATE") == {guilds[1].id, guilds[3].id}
            # A shard whose process is gone: the fake is no longer connected, and the other
            # shard keeps getting its own guilds' events.
            await one.close()
            await fake.wait_for(lambda: not fake.connected, what="shard 1 to be gone")
            guilds[2].add_text_channel("later")
            await fake.wait_for(
                lambda: len([e for e in zero.names() if e == "CHANNEL_CREATE"]) == 3,
                what="the CHANNEL_CREATE on shard 0",
            )
        finally:
            await zero.close()
            await one.close()


async def test_an_identify_with_a_shard_that_does_not_exist_is_refused() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json")
        await ws.receive_json()
        identify = {"token": fake.token, "intents": 1, "shard": [2, 2], "properties": {}}
        await ws.send_json({"op": 2, "d": identify})
        closed = await ws.receive()
        assert closed.type is aiohttp.WSMsgType.CLOSE
        assert ws.close_code == 4010
        assert fake.identify_count == 0
