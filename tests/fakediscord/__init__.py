"""A fake Discord for end-to-end tests: the real, unmodified bot against 127.0.0.1.

How it works
============

``FakeDiscord`` (``server.py``) is an aiohttp server that speaks the Discord gateway
(HELLO, heartbeats, IDENTIFY, READY, GUILD_CREATE, RESUME, zlib-stream compression) and the
REST routes the bot uses (login, command sync, channel messages, interaction callbacks and
followup webhooks). ``BotProcess`` (``process.py``) starts the bot in a subprocess through
``python -m tests.fakediscord.launch``, which sets the two documented discord.py seams,
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``, then runs
``bot.main()``. Nothing in discord.py is mocked, and the launcher refuses any connection that
is not to 127.0.0.1, so no test can reach discord.com.

Writing an end-to-end test
==========================

Build a world, start the fake, start the bot, then act as users and assert on what each user
can see::

    import pytest
    from tests.fakediscord import BotProcess, FakeDiscord

    @pytest.fixture
    async def uno(tmp_path):
        fake = FakeDiscord()
        guild = fake.add_guild("Test Server")
        table = guild.add_text_channel("uno")
        alice = fake.add_user("alice", locale="en-US")
        bruno = fake.add_user("bruno", locale="it")
        guild.add_member(alice, manage_guild=True)  # may use /uno settings
        guild.add_member(bruno)
        await fake.start()
        try:
            async with BotProcess(
                fake, database_path=tmp_path / "uno.sqlite3", dev_guild=guild
            ) as bot:
                yield fake, bot, table, alice, bruno
        finally:
            await fake.close()

    async def test_a_hand_stays_private(uno):
        fake, bot, table, alice, bruno = uno
        start = await fake.slash(alice, table, "uno start")   # checked against the synced tree
        start.assert_answered_within(3.0)                      # Discord's deadline
        join = await fake.click(bruno, start.message, "uno:join")  # must be on that message
        await join.done()                                       # the bot went quiet
        hand = await fake.slash(alice, table, "uno hand")
        assert hand.ephemeral and hand.attachments             # an image only alice sees
        assert hand.message not in fake.visible_to(bruno)
        assert "hand" not in fake.seen_text(bruno)             # every version, edits included
        choices = await fake.autocomplete(alice, table, "uno play", focused="card", card="re")
        fake.assert_clean()       # no unknown routes, no rejected payloads
        bot.assert_healthy()      # no tracebacks, no refused network access

What the fake gives you
=======================

* World: ``fake.add_user(name, locale=...)``, ``fake.add_guild(name, owner=...,
  bot_permissions=...)``, ``guild.add_text_channel(name)``, ``channel.add_thread(name,
  private=..., members=...)``, ``guild.add_member(user, roles=..., manage_guild=...,
  administrator=...)``, ``guild.add_role(name, permissions=...)``. Changes made while the bot
  is connected are dispatched to it (GUILD_CREATE, CHANNEL_CREATE, THREAD_CREATE, ...).
* Acting: ``slash(user, channel, "group sub", **options)`` (options by name; users, channels,
  roles as fake objects, files as ``Upload(name, bytes)``; ``_wait=False`` to return at once),
  ``autocomplete(user, channel, path, focused=name, **options)`` -> ``Choices``,
  ``click(user, message, custom_id, force=False)``, ``select(user, message, custom_id,
  values)``, ``submit_modal(user, opened_by, {custom_id: text})``, ``say(user, channel,
  text)``. What a Discord client would refuse (unknown command, wrong option type, a missing
  permission, a button not on the message, a disabled one, a message the user cannot see)
  raises ``CommandError``/``ComponentError``; ``force=True`` sends forged component ids anyway.
* Results (``InteractionResult``): ``response_type``, ``latency``,
  ``assert_answered_within(seconds)``, ``message`` (created or updated), ``followups``,
  ``ephemeral``, ``attachments`` (bytes in ``.data``), ``choices``, ``modal``, ``rejected``
  (this interaction's refused requests), ``await done()`` (answered, deferred message filled
  in, bot quiet), ``await wait_response()``.
* Reading: ``visible_to(user)``, ``seen_text(user)``, ``channel_messages(channel)``,
  ``last_message(channel)``, ``messages`` (every ``FakeMessage``, each with ``history``),
  ``registered_commands(guild)``, ``requests``, ``unknown_routes``, ``errors``,
  ``gateway_connections``, ``assert_clean()``.
* Gateway control: ``reconnect_gateway()`` (op 7, the bot RESUMEs), ``drop_gateway(code)``.
* Shards: ``FakeDiscord(shard_count=2)`` is what ``GET /gateway/bot`` recommends; each
  IDENTIFY's ``shard: [id, count]`` gets only its guilds' events (GUILD_CREATE, world changes,
  interactions), by Discord's formula ``(guild_id >> 22) % count``; direct messages go to
  shard 0. ``add_guild(name, shard=(1, 2))`` picks an id on that shard; ``shard_sessions``,
  ``shard_of(guild_id)``; ``connected`` is true when every shard seen has a live session.
* Process: ``BotProcess(fake, database_path=..., dev_guild=guild, module="bot")``;
  ``start()`` waits for READY, ``kill()`` is SIGKILL (a crash), ``stop()`` is SIGTERM (clean),
  ``restart()``; ``output``, ``tracebacks()``, ``network_violations``, ``assert_healthy()``,
  ``wait_for_output(text)``.

Like Discord, the fake answers a callback later than 3 seconds with 404 Unknown interaction
(``FakeDiscord(interaction_deadline=None)`` turns that off), a second callback with 400
"already acknowledged", and payloads over Discord's limits with 400 Invalid Form Body.

Rate limits on demand: ``fake.rate_limit("PATCH", "/channels/{channel_id}/messages/{message_id}",
every=3, retry_after=0.3, channel_id=channel.id)`` answers every third matching request with
HTTP 429 as Discord does (``Retry-After``, ``X-RateLimit-Scope``, the JSON body discord.py
reads; ``scope="global"`` for a global limit), so the bot's retry goes through. The rule
counts its 429s (``.answered``) and stops with ``.off()`` or ``fake.clear_rate_limits()``;
the requests it answered are in ``fake.rate_limited``, not in ``errors``.
"""

from .clock import FakeClock
from .commands import CommandError, Upload, UserActionError
from .faults import FaultRule
from .outages import GatewayTrouble
from .process import REPO_ROOT, BotProcess, BotProcessError
from .ratelimits import RateLimitRule
from .server import (
    BotNotConnectedError,
    Choices,
    ComponentError,
    FakeDiscord,
    InteractionNotDeliveredError,
    InteractionResult,
    RecordedRequest,
)
from .world import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    MessageVersion,
    Perm,
)

__all__ = [
    "REPO_ROOT",
    "BotNotConnectedError",
    "BotProcess",
    "BotProcessError",
    "Choices",
    "CommandError",
    "ComponentError",
    "FakeAttachment",
    "FakeChannel",
    "FakeClock",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "FaultRule",
    "GatewayTrouble",
    "InteractionNotDeliveredError",
    "InteractionResult",
    "MessageVersion",
    "Perm",
    "RateLimitRule",
    "RecordedRequest",
    "Upload",
    "UserActionError",
]
