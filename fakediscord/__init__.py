"""A fake Discord for end-to-end tests: the real, unmodified bot against 127.0.0.1.

How it works
============

``FakeDiscord`` (``server.py``) is an aiohttp server that speaks the Discord gateway
(HELLO, heartbeats, IDENTIFY, READY, GUILD_CREATE, RESUME, zlib-stream compression) and the
REST routes the bot uses (login, command sync, channel messages, interaction callbacks and
followup webhooks). ``BotProcess`` (``process.py``) starts the bot in a subprocess through
``python -m fakediscord.launch``, which sets the two documented discord.py seams,
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``, then runs
``bot.main()``. Nothing in discord.py is mocked, and the launcher refuses any connection that
is not to 127.0.0.1, so no test can reach discord.com.

Writing an end-to-end test
==========================

Build a world, start the fake, start the bot, then act as users and assert on what each user
can see::

    import pytest
    from fakediscord import BotProcess, FakeDiscord

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
        await join.done()                                       # answered, then quiet
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
  ``last_message(channel)``, ``bot_messages(channel)`` (the bot's live public ones),
  ``messages`` (every ``FakeMessage``, each with ``history``), ``registered_commands(guild)``,
  ``requests``, ``unknown_routes``, ``errors``, ``gateway_connections``,
  ``assert_clean(allow=..., allow_codes=...)``.
* Gateway control: ``gateway_reconnect()`` (op 7 to every session, the bot RESUMEs; also
  called ``reconnect_gateway``), ``gateway_invalid_session(resumable=False)`` (op 9),
  ``drop_gateway(code)``, ``silence_gateway(seconds)``, ``outage(seconds)`` (``outages.py``).
* Shards: ``FakeDiscord(shard_count=2)`` is what ``GET /gateway/bot`` recommends; each
  IDENTIFY's ``shard: [id, count]`` gets only its guilds' events (GUILD_CREATE, world changes,
  interactions), by Discord's formula ``(guild_id >> 22) % count``; direct messages go to
  shard 0. ``add_guild(name, shard=(1, 2))`` picks an id on that shard; ``shard_sessions``,
  ``shard_of(guild_id)``; ``connected`` is true when every shard seen has a live session.
* Process: ``BotProcess(fake, database_path=..., dev_guild=guild, module="bot")``;
  ``start()`` waits for READY, ``kill()`` is SIGKILL (a crash), ``stop()`` is SIGTERM (clean),
  ``restart()``; ``output``, ``tracebacks()``, ``network_violations``, ``assert_healthy()``,
  ``wait_for_output(text)``.

Components V2 and emojis (``component_rules.py``, ``layout.py``, ``emojis.py``)
==============================================================================

A message sent with ``flags`` IS_COMPONENTS_V2 (``1 << 15``) is checked as Discord checks it:
no ``content``/``embeds``/``poll``/``sticker_ids``; containers, sections, text displays,
thumbnails, media galleries, files, separators and action rows nested as the reference
allows; 40 components in all, 4000 characters of text displays, unique ``custom_id`` and
``id``; the flag never comes off in an edit. Channel messages, interaction responses,
followups and webhook edits alike; refusals are 400 50035 with Discord-shaped ``errors``.
Reading one as a user does (on ``FakeMessage`` and each ``MessageVersion``):
``is_components_v2``, ``texts()`` (text displays in reading order), ``text()`` (content or
texts), ``plain_text()`` (emojis as ``:name:``), ``accent_color`` / ``accent_colors()``,
``thumbnails()``, ``media_urls()``, ``emoji_ids()``, ``custom_ids``, ``buttons``,
``selects``, ``component(custom_id)``, ``select_values(custom_id)``, ``all_text()``
(everything, for leak checks). ``click`` and ``select`` reach buttons and selects nested in
containers and sections.

Application emojis: the routes of ``Client.fetch_application_emojis``,
``create_application_emoji``, ``fetch_application_emoji``, ``Emoji.edit``/``delete``, kept
in ``fake.emojis`` (``.application``: id -> ``FakeEmoji`` with ``name``, ``data``,
``markdown``, ``url()``; ``.named(name)``; ``.get(id)``), across bot restarts. Guild emojis:
``guild.add_emoji(name, image)``. ``fake.requests_to("POST", "/applications/{app_id}/emojis")``
counts requests on any route; ``fake.resolve_media(url)`` gives the bytes an emoji URL
(``https://cdn.discordapp.com/emojis/<id>.png``) or an attachment URL shows;
``fake.emoji_at(url)`` the emoji. A button's or option's ``emoji`` the bot may not use is
refused (50035 ``BUTTON_COMPONENT_INVALID_EMOJI``); an unknown ``<:name:id>`` in text or an
emoji picture URL of no emoji is accepted, as Discord does, but recorded in
``fake.broken_references`` and fails ``assert_clean()``.

Like Discord, the fake answers a callback later than 3 seconds with 404 Unknown interaction
(``FakeDiscord(interaction_deadline=None)`` turns that off), a second callback with 400
"already acknowledged", a followup before any callback with 404 Unknown Webhook, and payloads
over Discord's limits with 400 Invalid Form Body.

Time: ``fake.clock`` (``clock.py``)
====================================

Discord's time and the bot's are ``fake.clock``: real time plus an offset the test moves
forward. ``fake.clock.advance(3600)`` makes an hour pass at once for the fake and for the bot
process (its ``time.time``/``time.monotonic`` and so its asyncio timers; not
``time.perf_counter``, not ``datetime``). ``await fake.pass_time(3600)`` does the same in
20-second steps that keep the bot's gateway connection fed, so discord.py does not reconnect
(a bare jump past 60 s makes it RESUME). Advance once the bot is idle (``await
result.done()``): a timer the bot arms after the advance counts from the new time.
``fake.clock.now()`` is epoch seconds (``time.time()`` in the bot), ``fake.clock.monotonic()``,
``await fake.clock.sleep(s)``.

On that clock the fake enforces:

* the 3-second callback deadline (above) and ``latency``;
* 15-minute interaction tokens (``fake.interaction_token_lifetime``): every webhook route
  (followup, get/edit/delete the original or a followup) answers 401
  ``{"code": 50027, "message": "Invalid Webhook Token"}`` after that;
* capped edits of old messages: a channel-message PATCH of a message older than an hour
  succeeds ``fake.old_message_edit_limit`` times (3) per rolling hour per message, then
  answers 400 ``{"code": 30046, ...}``; those answers are in ``fake.edit_limited``, not in
  ``errors``.

Every message version has the fake time it began to show (``message.history[i].at``;
``message.created_at``), for convergence checks: ``message.version_at(t)``,
``message.shown_at(wanted, since=t)`` and ``fake.shown_at(channel, wanted, since=t)`` (when
the channel first showed a version ``wanted`` accepts, at or after ``t``); the lag behind a
state stored at ``t`` is that minus ``t``. Two time bases, both on the fake clock: message and
trouble times are epoch seconds (``fake.clock.now()``, comparable with the bot's
``time.time()``); request and interaction times (``RecordedRequest.at``, ``dispatched_at``,
``responded_at``, gateway ``opened_at``/``closed_at``) are ``fake.clock.monotonic()``, as
before (equal to ``time.monotonic()`` until a test advances the clock).

Faults: ``fake.fault`` (``faults.py``)
=====================================

``fake.fault(method, route, status=503, ...)`` answers matching requests with a 5xx (or any
error) and Discord's JSON body instead of handling them; ``carried_out=True`` handles them
first (the edit is made, the callback taken) and then answers the error; ``hang=s`` answers
``s`` real seconds late (``status=None``: then handles it normally); ``status="reset"`` drops
the connection. ``every=n`` or ``probability=p, seed=...`` picks which requests; ``"*"``
matches any method or route. ``.seen``, ``.answered``, ``.requests``, ``.off()``,
``fake.clear_faults()``; the requests faulted are in ``fake.faulted``, not in ``errors``::

    table_edits = fake.fault("PATCH", "/channels/{channel_id}/messages/{message_id}",
                             status=503, probability=0.15, seed=1, channel_id=table.id)
    fake.fault("POST", "/interactions/{interaction_id}/{token}/callback",
               status=500, carried_out=True, limit=1)   # discord.py retries: 40060

Gateway trouble (``outages.py``)
================================

``await fake.silence_gateway(60)``: for 60 fake seconds nothing is sent on any gateway
connection (no heartbeat ACK, no dispatch, no HELLO on a new one) and what the bot sends is
ignored; held-back events go out when it ends. ``await fake.outage(60)``: every connection is
reset, the port stops listening (new connections are refused), and the fake listens again on
the same port when the fake clock reaches the end. Both return a ``GatewayTrouble`` (``began``,
``ended``, ``duration``, ``await .wait_over()``), listed in ``fake.troubles``; ``fake.silenced``
and ``fake.down`` say whether one is on. A user's interaction meanwhile is never delivered:
``slash``/``click``/``select``/``submit_modal`` raise ``InteractionNotDeliveredError`` (a
``BotNotConnectedError``) whose ``.result.undelivered`` is True::

    outage = await fake.outage(60)
    with pytest.raises(InteractionNotDeliveredError):
        await fake.click(alice, table_message, "uno:1:draw")
    fake.clock.advance(60)          # the bot's reconnect backoff sleeps on this clock too
    await outage.wait_over()
    await fake.wait_for(lambda: fake.connected, within=15)

The fake answers an op 1 heartbeat with op 11 whenever it comes, except in a silence or an
outage. Note that discord.py logs its refused reconnects during an outage at ERROR level with
a traceback ("Attempting a reconnect in ..."), which ``bot.tracebacks()`` counts.

Rate limits on demand: ``fake.rate_limit("PATCH", "/channels/{channel_id}/messages/{message_id}",
every=3, retry_after=0.3, channel_id=channel.id)`` answers every third matching request with
HTTP 429 as Discord does (``Retry-After``, ``X-RateLimit-*``, the JSON body discord.py
reads; ``scope="global"`` for a global limit), so the bot's retry goes through;
``probability=0.15, seed=1`` answers a seeded fraction instead. The rule counts its 429s
(``.answered``) and stops with ``.off()`` or ``fake.clear_rate_limits()``; the requests it
answered are in ``fake.rate_limited``, not in ``errors``.
"""

from .clock import FakeClock
from .commands import CommandError, Upload, UserActionError
from .emojis import BrokenReference, EmojiStore, FakeEmoji
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
    "BrokenReference",
    "Choices",
    "CommandError",
    "ComponentError",
    "EmojiStore",
    "FakeAttachment",
    "FakeChannel",
    "FakeClock",
    "FakeDiscord",
    "FakeEmoji",
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
