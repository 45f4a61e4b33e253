"""``FakeDiscord``: the gateway websocket and the REST routes of Discord, on 127.0.0.1.

The real bot runs in a subprocess (see ``process.py``) with ``discord.http.Route.BASE`` set to
:attr:`FakeDiscord.rest_base` and ``DiscordWebSocket.DEFAULT_GATEWAY`` set to
:attr:`FakeDiscord.gateway_url`. Tests build a world (guilds, channels, members), then act as
users: :meth:`FakeDiscord.slash`, :meth:`~FakeDiscord.autocomplete`, :meth:`~FakeDiscord.click`,
:meth:`~FakeDiscord.select`, :meth:`~FakeDiscord.submit_modal`, and assert on what each user
can see (:meth:`FakeDiscord.visible_to`).

Discord's time is :attr:`FakeDiscord.clock` (``clock.py``), shared with the bot process; on
it the fake keeps Discord's deadlines (3-second callbacks, 15-minute tokens, capped edits of
messages older than an hour). Tests make it misbehave with :meth:`FakeDiscord.rate_limit`
(``ratelimits.py``), :meth:`FakeDiscord.fault` (``faults.py``) and the gateway trouble of
``outages.py`` (op 7, op 9, a silent gateway, an outage).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import mimetypes
import re
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from aiohttp import BodyPartReader, WSMsgType, web

from . import layout, validate
from .clock import FakeClock
from .commands import (
    CommandError,
    OptionBuilder,
    Upload,
    UserActionError,
    list_paths,
    resolve,
)
from .emojis import BrokenReference, EmojiStore, FakeEmoji, broken_references
from .faults import FaultRule
from .outages import GatewayTrouble, Listener, reset
from .patience import PATIENCE
from .ratelimits import RateLimitRule
from .replies import RespondNowError as _RespondNowError
from .replies import error as _error
from .replies import invalid as _invalid
from .replies import json_response as _json_response
from .replies import no_content as _no_content
from .rules import ANY
from .world import (
    ChannelType,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    MessageFlag,
    MessageVersion,
    Perm,
    SnowflakeGenerator,
    iso,
)

__all__ = [
    "BotNotConnectedError",
    "Choices",
    "ComponentError",
    "FakeDiscord",
    "InteractionNotDeliveredError",
    "InteractionResult",
    "RecordedRequest",
]

GUILDS_INTENT = 1 << 0
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
MESSAGE_CONTENT_INTENT = 1 << 15

INTERACTION_TYPES = {1: "PING", 2: "APPLICATION_COMMAND", 3: "MESSAGE_COMPONENT", 4: "AUTOCOMPLETE"}
#: Which callback types Discord accepts for each interaction type.
ALLOWED_CALLBACKS = {
    2: {4, 5, 9},
    3: {4, 5, 6, 7, 9},
    4: {8},
    5: {4, 5, 6, 7},
}


#: Discord's limits the fake enforces on its clock (seconds).
INTERACTION_TOKEN_LIFETIME = 15 * 60
OLD_MESSAGE_AGE = 60 * 60  # edits of messages older than this are capped ...
#: Discord checks a message's nonce for uniqueness "in the past few minutes".
NONCE_WINDOW = 5 * 60
OLD_MESSAGE_EDIT_WINDOW = 60 * 60  # ... to ``old_message_edit_limit`` per this rolling window
OLD_MESSAGE_EDIT_LIMITED = (
    "Maximum number of edits to messages older than 1 hour reached. Try again later"
)


class BotNotConnectedError(RuntimeError):
    """No bot is connected to the gateway, so an interaction cannot be delivered."""


class InteractionNotDeliveredError(BotNotConnectedError):
    """The gateway is silent or Discord is down: the user's interaction never reached the
    bot (``result.undelivered`` is True). The Discord client would say "interaction failed"."""

    def __init__(self, result: InteractionResult, why: str) -> None:
        super().__init__(f"interaction {result.name!r} not delivered: {why}")
        self.result = result


class _DropConnectionError(Exception):
    """Raised inside a route handler to drop the connection without an answer."""


class ComponentError(UserActionError):
    """The Discord client would not let a user use this component (missing, disabled, hidden)."""


@dataclass
class RecordedRequest:
    """One REST request the bot made, and the fake's answer."""

    method: str
    path: str  # without the /api/v10 prefix, e.g. "/channels/1/messages"
    query: dict[str, str]
    route: str | None  # the route pattern that matched, None for an unknown route
    status: int  # 0: no answer, the connection was dropped (a "reset" fault)
    body: Any
    files: list[str]
    at: float  # when it came in: fake.clock.monotonic() (time.monotonic() plus the offset)
    response: Any = None
    fault: FaultRule | None = None  # the fault rule that fired on it, if one did
    file_sizes: list[int] = field(default_factory=list)  # bytes of each, as in files

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass
class _Files:
    by_index: dict[int, tuple[str, bytes, str | None]] = field(default_factory=dict)


@dataclass
class _Call:
    """A REST call as a route handler sees it: the request, its JSON (or payload_json)
    body and its uploaded files."""

    request: web.Request
    body: Any
    files: _Files


@dataclass(eq=False)
class GatewayConnection:
    """One websocket connection from the bot."""

    ws: web.WebSocketResponse
    path: str
    query: dict[str, str]
    opened_at: float  # fake.clock.monotonic()
    compress: str | None
    kind: str | None = None  # "identify" or "resume" once the bot said which
    session: GatewaySession | None = None
    heartbeats: int = 0
    closed_at: float | None = None
    close_code: int | None = None
    hello_sent: bool = False  # a silence holds HELLO back until it ends
    sent_seq: int = 0  # the last dispatch sent on this connection
    ignored: int = 0  # payloads the bot sent during a silence (dropped)
    pongs: int = 0  # websocket pongs the bot sent (pass_time pings it)
    last_sent: float = 0.0  # real time.monotonic() of the last payload sent to the bot
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    order: asyncio.Lock = field(default_factory=asyncio.Lock)  # dispatches go out in seq order
    _zlib: Any = None
    _zstd: Any = None

    @property
    def open(self) -> bool:
        return self.closed_at is None and not self.ws.closed

    async def send(self, payload: dict[str, Any]) -> None:
        text = json.dumps(payload)
        async with self.lock:
            if self._zlib is not None:
                data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            elif self._zstd is not None:
                await self.ws.send_bytes(self._zstd(text.encode()))
            else:
                await self.ws.send_str(text)
            self.last_sent = time.monotonic()


@dataclass(eq=False)
class GatewaySession:
    """A gateway session (IDENTIFY starts one; RESUME continues it on a new connection)."""

    id: str
    intents: int
    shard: list[int]
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)  # events[i] has seq i + 1
    connection: GatewayConnection | None = None
    invalidated: bool = False  # op 9 (not resumable) ended it: a RESUME with it is refused

    @property
    def live(self) -> bool:
        return self.connection is not None and self.connection.open


def _zstd_compressor() -> Callable[[bytes], bytes]:
    """A streaming zstd compressor that flushes one gateway message per frame block."""
    try:
        import zstandard  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        try:
            from compression import zstd  # type: ignore[import-not-found,unused-ignore]
        except ImportError as exc:  # pragma: no cover - only if discord.py found a zstd we lack
            raise RuntimeError("the bot asked for zstd-stream but no zstd module is here") from exc
        compressor = zstd.ZstdCompressor()
        return lambda data: compressor.compress(data, mode=zstd.ZstdCompressor.FLUSH_BLOCK)
    cobj = zstandard.ZstdCompressor().compressobj()
    return lambda data: cobj.compress(data) + cobj.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)


class Choices(list[dict[str, Any]]):
    """Autocomplete choices (``[{"name": ..., "value": ...}]``) with the interaction record."""

    def __init__(self, choices: Iterable[dict[str, Any]], result: InteractionResult) -> None:
        super().__init__(choices)
        self.result = result

    @property
    def names(self) -> list[str]:
        return [c["name"] for c in self]

    @property
    def values(self) -> list[Any]:
        return [c["value"] for c in self]


@dataclass(eq=False)
class InteractionResult:
    """Everything that happened to one interaction: the answer, the messages, the timing."""

    fake: FakeDiscord = field(repr=False)
    id: int
    token: str = field(repr=False)
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user: FakeUser
    channel: FakeChannel
    name: str  # the command path or the custom_id
    payload: dict[str, Any] = field(repr=False)
    source_message: FakeMessage | None = field(default=None, repr=False)
    #: when the fake sent it to the bot / accepted its first answer (fake.clock.monotonic())
    dispatched_at: float | None = None
    responded_at: float | None = None
    response_type: int | None = None
    response_data: dict[str, Any] | None = field(default=None, repr=False)
    #: every callback attempt: {"type", "at", "status", "code"} (late or repeated ones too)
    callbacks: list[dict[str, Any]] = field(default_factory=list, repr=False)
    original: FakeMessage | None = field(default=None, repr=False)
    followups: list[FakeMessage] = field(default_factory=list, repr=False)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = field(default=None, repr=False)
    #: requests on this interaction's routes that the fake rejected (status >= 400)
    rejected: list[RecordedRequest] = field(default_factory=list, repr=False)
    #: never reached the bot: the gateway was silent or Discord down (InteractionNotDeliveredError)
    undelivered: bool = False
    last_activity: float = 0.0  # real time.monotonic(), for done()'s patience
    sent_real: float | None = field(default=None, repr=False)  # real time.monotonic()
    #: the bot has given its answer: a message sent or updated by the callback itself, or a
    #: deferral followed by an edit of the original response or a followup (see ``done()``)
    completed: bool = False

    # -- what happened

    @property
    def responded(self) -> bool:
        return self.response_type is not None

    @property
    def token_expires_at(self) -> float | None:
        """When its token stops working, on ``fake.clock.monotonic()`` (15 minutes)."""
        if self.dispatched_at is None:
            return None
        return self.dispatched_at + self.fake.interaction_token_lifetime

    @property
    def latency(self) -> float | None:
        """Seconds (fake clock) from dispatch to the first (accepted) response."""
        if self.responded_at is None or self.dispatched_at is None:
            return None
        return self.responded_at - self.dispatched_at

    @property
    def message(self) -> FakeMessage | None:
        """The message the response created (type 4/5) or updated (type 6/7)."""
        return self.original

    @property
    def messages(self) -> list[FakeMessage]:
        return [m for m in [self.original, *self.followups] if m is not None]

    @property
    def ephemeral(self) -> bool:
        return self.original is not None and self.original.ephemeral

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)

    @property
    def attachments(self) -> list[FakeAttachment]:
        return [a for m in self.messages for a in m.attachments]

    @property
    def content(self) -> str:
        return self.original.content if self.original is not None else ""

    def all_text(self) -> str:
        return "\n".join(m.all_text() for m in self.messages)

    # -- assertions and waiting

    def assert_answered_within(self, seconds: float = 3.0) -> None:
        """Fail unless the bot's first response was accepted within ``seconds`` of dispatch."""
        if self.latency is None:
            late = [c for c in self.callbacks if c.get("late")]
            extra = f" (a late response came after {late[0]['after']:.2f}s)" if late else ""
            raise AssertionError(f"interaction {self.name!r} was never answered{extra}")
        if self.latency > seconds:
            raise AssertionError(
                f"interaction {self.name!r} answered after {self.latency:.2f}s > {seconds}s"
            )

    async def wait_response(self, within: float | None = None) -> bool:
        """Wait for the first response (default: until Discord's deadline passes)."""
        if within is None:
            deadline = self.fake.interaction_deadline
            within = (deadline + 0.5) if deadline else 10.0
        start = self.sent_real or time.monotonic()
        return await self.fake.wait_for(
            lambda: self.responded, within=max(0.0, start + within - time.monotonic()), quiet=True
        )

    async def done(self, *, quiet: float = 0.25, within: float = PATIENCE) -> InteractionResult:
        """Wait until the bot is finished with this interaction.

        That is: the first response came (or Discord's deadline passed without one), the
        answer is complete — a deferral ("thinking…", or an update of the clicked message)
        has been followed by an edit of the original response or a followup — and then the
        bot made no REST request for ``quiet`` seconds. The answer is waited for as an event,
        however slow the machine; ``within`` is only the net that fails a bot that never
        completes it (a slow, busy machine takes longer, never fails sooner).
        """
        end = time.monotonic() + within
        if not await self.wait_response():
            return self

        def settled() -> bool:
            if not self.completed:
                return False
            now = time.monotonic()
            return now - max(self.fake.last_bot_activity, self.last_activity) >= quiet

        while not settled():
            if time.monotonic() > end:
                what = "deferred response was never completed" if self.original else "bot kept busy"
                raise TimeoutError(f"interaction {self.name!r}: {what} within {within}s")
            await self.fake._wait_change(quiet / 2)
        return self

    def __repr__(self) -> str:
        kind = INTERACTION_TYPES.get(self.type, str(self.type))
        return (
            f"<InteractionResult {kind} {self.name!r} by {self.user.name} "
            f"response={self.response_type} latency={self.latency}>"
        )


@dataclass(eq=False)
class FakeApplication:
    id: int
    name: str
    owner: FakeUser
    flags: int = 0
    description: str = "A bot under test"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "description": self.description,
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": self.flags,
            "owner": self.owner.payload(),
            "team": None,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": 0,
            "integration_types_config": {"0": {}},
        }


Handler = Callable[..., Awaitable[web.Response]]


class FakeDiscord:
    """A small Discord on 127.0.0.1: one bot application, a world, the gateway and REST.

    Build the world first (``add_user``, ``add_guild``, ``guild.add_text_channel``,
    ``guild.add_member``), ``await start()``, then start the bot (``BotProcess``).
    """

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "UNO Bot",
        application_name: str = "UNO",
        heartbeat_interval_ms: int = 41250,
        interaction_deadline: float | None = 3.0,
        application_flags: int = 0,
        shard_count: int = 1,
    ) -> None:
        #: The time of this Discord and of the bot processes started on it (``clock.py``).
        self.clock = FakeClock()
        self.ids = SnowflakeGenerator(self.clock.now)
        #: The bot token the fake accepts (a fake string; never a real token).
        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        self.bot_user = FakeUser(id=self.ids(), name=bot_name, bot=True)
        owner = FakeUser(id=self.ids(), name="app-owner")
        self.application = FakeApplication(
            id=self.bot_user.id, name=application_name, owner=owner, flags=application_flags
        )
        self.heartbeat_interval_ms = heartbeat_interval_ms
        #: The shard count ``GET /gateway/bot`` recommends. Like Discord, each gateway session
        #: gets the events of the guilds of its IDENTIFY's shard only, by Discord's formula
        #: ``(guild_id >> 22) % shard_count``; direct messages go to shard 0.
        self.shard_count = shard_count
        #: Discord refuses answers later than this (404 Unknown interaction); None disables it.
        self.interaction_deadline = interaction_deadline
        #: Webhook routes with a token older than this answer 401 50027 (fake clock seconds).
        self.interaction_token_lifetime: float = INTERACTION_TOKEN_LIFETIME
        #: Edits of a channel message older than an hour allowed per rolling hour (then 30046).
        self.old_message_edit_limit = 3
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user, owner.id: owner}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        #: Registered application commands per scope: None (global) or a guild id.
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        #: Every bulk overwrite: (scope, the payload the bot sent).
        self.command_syncs: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.requests: list[RecordedRequest] = []
        #: Requests no route matched (tests should assert this stays empty).
        self.unknown_routes: list[RecordedRequest] = []
        #: Requests answered with an error status (4xx/5xx), unknown routes included.
        self.errors: list[RecordedRequest] = []
        self.interactions: dict[int, InteractionResult] = {}
        self.gateway_connections: list[GatewayConnection] = []
        self.sessions: dict[str, GatewaySession] = {}
        #: Gateway payloads the bot sent other than heartbeats (IDENTIFY, RESUME, op 3, op 8).
        self.gateway_received: list[dict[str, Any]] = []
        self.identify_count = 0
        self.ready_count = 0
        self.resume_count = 0
        self.last_bot_activity = 0.0
        self._session: GatewaySession | None = None  # the latest IDENTIFYed
        #: The current session of each shard id (the latest IDENTIFY with that shard).
        self.shard_sessions: dict[int, GatewaySession] = {}
        self._tokens: dict[str, InteractionResult] = {}
        self._option_attachments: dict[int, FakeAttachment] = {}
        self._change = asyncio.Event()
        self._pending: set[asyncio.Task[Any]] = set()  # world-change dispatches
        self._background: set[asyncio.Future[Any]] = set()  # the ends of silences and outages
        self._muted = 0
        self._runner: web.AppRunner | None = None
        self._listener: Listener | None = None
        self._routes: list[tuple[str, re.Pattern[str], str, Handler, bool]] = []
        self._install_routes()
        #: The 429 rules a test switched on (see ``rate_limit``), and every request one of
        #: them answered with 429 (those are not in ``errors``: the test asked for them).
        self.rate_limits: list[RateLimitRule] = []
        self.rate_limited: list[RecordedRequest] = []
        #: The fault rules a test switched on (see ``fault``) and every request one of them
        #: fired on (not in ``errors`` either).
        self.faults: list[FaultRule] = []
        self.faulted: list[RecordedRequest] = []
        #: Channel-message edits refused with 30046 (too many edits of an old message); not
        #: in ``errors``: the limit is Discord's, and the bot is expected to meet it.
        self.edit_limited: list[RecordedRequest] = []
        #: The last message posted with each (channel, nonce): see ``enforce_nonce``.
        self._nonces: dict[tuple[int, str], FakeMessage] = {}
        #: Every silence and outage (``silence_gateway``, ``outage``), oldest first.
        self.troubles: list[GatewayTrouble] = []
        #: Custom emojis: the application's (the REST routes) and guilds' (``emojis.py``).
        self.emojis = EmojiStore(ids=self.ids, uploader=self.bot_user)
        #: Paths of the emoji pictures fetched from the fake's CDN (``/emojis/{id}.png``).
        self.cdn_requests: list[str] = []
        #: Custom emojis and emoji pictures messages showed that no usable emoji backs
        #: (Discord shows ``:name:`` or a broken image); ``assert_clean`` fails on them.
        self.broken_references: list[BrokenReference] = []

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", r"/api/v{version:\d+}/{tail:.*}", self._rest)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway-resume", self._gateway)
        app.router.add_get("/attachments/{channel}/{attachment}/{filename}", self._cdn)
        app.router.add_get("/emojis/{filename}", self._cdn_emoji)
        try:
            self._runner = web.AppRunner(
                app, access_log=None, handle_signals=False, shutdown_timeout=1.0
            )
        except TypeError:  # aiohttp < 3.9 takes the shutdown timeout on the site
            self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        # Our own listener rather than an aiohttp site: an outage must stop listening and
        # listen again on the same port.
        self._listener = Listener(self._runner.server)
        await self._listener.listen()
        return self

    async def close(self) -> None:
        for conn in self.gateway_connections:
            if conn.open:
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1001, message=b"fake discord shutting down")
        for task in [*self._pending, *self._background]:
            task.cancel()
        if self._listener is not None:
            await self._listener.stop(drop=False)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.clock.close()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def port(self) -> int:
        if self._listener is None or self._listener.port is None:
            raise RuntimeError("call await fake.start() first")
        return self._listener.port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def rest_base(self) -> str:
        """The value for ``discord.http.Route.BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The value for ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway-resume"

    # ------------------------------------------------------------------ building the world

    def add_user(
        self, name: str, *, locale: str = "en-US", global_name: str | None = None
    ) -> FakeUser:
        user = FakeUser(id=self.ids(), name=name, global_name=global_name, locale=locale)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str = "Test Server",
        *,
        owner: FakeUser | None = None,
        locale: str = "en-US",
        bot_permissions: int = Perm.BOT_DEFAULT,
        everyone_permissions: int = Perm.EVERYONE_DEFAULT,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild the bot is in, with an @everyone role and the bot's managed role;
        ``shard=(id, count)`` picks an id that Discord's formula puts on that shard."""
        owner = owner or self.add_user(f"{name.lower().replace(' ', '-')}-owner")
        guild = FakeGuild(
            id=self.ids(shard), name=name, owner_id=owner.id, fake=self, preferred_locale=locale
        )
        guild.roles[guild.id] = FakeRole(
            id=guild.id, guild=guild, name="@everyone", permissions=everyone_permissions
        )
        self.guilds[guild.id] = guild
        self._muted += 1  # one GUILD_CREATE below, not a role and member event each
        try:
            bot_role = guild.add_role(self.bot_user.name, permissions=bot_permissions, managed=True)
            guild.add_member(self.bot_user, roles=[bot_role])
            guild.add_member(owner)
        finally:
            self._muted -= 1
        self._world_changed("GUILD_CREATE", guild.create_payload(for_user=self.bot_user))
        return guild

    def _world_changed(
        self, event: str, data: dict[str, Any], *, intent: int = GUILDS_INTENT
    ) -> None:
        """Tell a connected bot about a change made by the test (CHANNEL_CREATE and such)."""
        session = self.session_for(_guild_id_of(event, data))
        if self._muted or session is None or not session.intents & intent:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(self._dispatch(event, data, session=session))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _flush(self) -> None:
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    # ------------------------------------------------------------------ waiting

    def _bump(self) -> None:
        self._change.set()
        self._change = asyncio.Event()

    async def _wait_change(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._change.wait(), seconds)

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        *,
        within: float = PATIENCE,
        quiet: bool = False,
        what: str = "condition",
    ) -> bool:
        """Wait until ``predicate()`` is true; on timeout raise, or return False if ``quiet``."""
        end = time.monotonic() + within
        while not predicate():
            remaining = end - time.monotonic()
            if remaining <= 0:
                if quiet:
                    return False
                raise TimeoutError(f"fake discord: timed out after {within}s waiting for {what}")
            await self._wait_change(min(remaining, 0.1))
        return True

    @property
    def connected(self) -> bool:
        """Every shard that ever IDENTIFYed has a live session (a killed bot process leaves
        its shards' sessions dead until a new one IDENTIFYs)."""
        return bool(self.shard_sessions) and all(s.live for s in self.shard_sessions.values())

    def shard_of(self, guild_id: int | None) -> int | None:
        """The shard id that gets ``guild_id``'s events now (None: no session for it)."""
        session = self.session_for(guild_id)
        return session.shard[0] if session is not None else None

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The session that gets the events of ``guild_id`` (None: a direct message, shard
        0): the one whose shard is ``(guild_id >> 22) % shard_count``."""
        for shard_id, session in self.shard_sessions.items():
            count = session.shard[1]
            if shard_id == ((guild_id or 0) >> 22) % count:
                return session
        return None

    async def wait_until_ready(self, *, after: int = 0, within: float = PATIENCE) -> None:
        """Wait until READY (and the GUILD_CREATEs) went out more than ``after`` times."""
        await self.wait_for(
            lambda: self.ready_count > after and self.connected,
            within=within,
            what="the bot to IDENTIFY and get READY",
        )

    async def wait_for_sync(
        self, guild: FakeGuild | None = None, *, after: int = 0, within: float = PATIENCE
    ) -> list[dict[str, Any]]:
        """Wait for a command sync to ``guild`` (None: global) beyond the first ``after``."""
        scope = guild.id if guild is not None else None

        def synced() -> bool:
            return sum(1 for s, _ in self.command_syncs if s == scope) > after

        await self.wait_for(synced, within=within, what=f"a command sync to scope {scope}")
        return self.commands.get(scope, [])

    # ------------------------------------------------------------------ reading the world

    def registered_commands(self, guild: FakeGuild | None = None) -> list[str]:
        """The invocable command paths registered for ``guild`` (None: global)."""
        return list_paths(self.commands.get(guild.id if guild else None, []))

    def visible_to(
        self, user: FakeUser | FakeMember, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Every message ``user`` can see: public ones in their channels and their ephemerals."""
        return [
            m
            for m in self.messages.values()
            if (include_deleted or not m.deleted) and m.visible_to(user)
        ]

    def seen_text(self, user: FakeUser | FakeMember) -> str:
        """Every version of every message ``user`` could ever see (edits, deletions included)."""
        parts: list[str] = []
        for m in self.visible_to(user, include_deleted=True):
            parts.extend(v.all_text() for v in m.history)
        return "\n".join(parts)

    def channel_messages(
        self, channel: FakeChannel, *, ephemeral: bool = False
    ) -> list[FakeMessage]:
        """Messages in ``channel``, oldest first (public only unless ``ephemeral``)."""
        return [
            m
            for m in channel.messages.values()
            if not m.deleted and (ephemeral or m.ephemeral_for is None)
        ]

    def last_message(self, channel: FakeChannel) -> FakeMessage | None:
        messages = self.channel_messages(channel)
        return messages[-1] if messages else None

    def notifications(self, user: FakeUser | FakeMember) -> list[FakeMessage]:
        """Every message (deleted ones too) that notified ``user`` when it was posted."""
        who = _as_user(user)
        return [m for m in self.messages.values() if who.id in m.notified]

    def bot_messages(self, channel: FakeChannel) -> list[FakeMessage]:
        """The bot's live public messages in ``channel``, oldest first: not deleted, not
        ephemeral (interaction responses included; a "thinking" one has ``.loading``)."""
        return [m for m in self.channel_messages(channel) if m.author.id == self.bot_user.id]

    def shown_at(
        self,
        channel: FakeChannel,
        wanted: Callable[[MessageVersion], bool],
        *,
        since: float,
    ) -> float | None:
        """The first fake time (epoch seconds) at or after ``since`` when one of the bot's
        public messages in ``channel`` (deleted ones included, for the time they lived)
        showed a version ``wanted`` accepts; None if none has yet.

        How long the channel lagged behind a state the bot stored at ``t``::

            shown = fake.shown_at(table, lambda v: "alice's turn" in v.all_text(), since=t)
            lag = (shown if shown is not None else fake.clock.now()) - t
        """
        times = [
            moment
            for m in channel.messages.values()
            if m.author.id == self.bot_user.id and m.ephemeral_for is None
            if (moment := m.shown_at(wanted, since=since)) is not None
        ]
        return min(times, default=None)

    def assert_clean(self, *, allow: Iterable[int] = (), allow_codes: Iterable[int] = ()) -> None:
        """No unknown routes, and no error answers except the HTTP statuses in ``allow`` and
        the Discord JSON error codes in ``allow_codes`` (``{40060, 50027}``, say).

        429s, faults and 30046s a test provoked are not errors (see ``rate_limited``,
        ``faulted``, ``edit_limited``)."""
        assert not self.unknown_routes, f"the bot called unknown routes: {self.unknown_routes}"
        allowed, codes = set(allow), set(allow_codes)
        bad = [r for r in self.errors if r.status not in allowed and _code(r) not in codes]
        assert not bad, f"the fake rejected requests: {[(r, r.response) for r in bad]}"
        assert not self.broken_references, (
            f"the bot showed emojis no usable emoji backs: {self.broken_references}"
        )

    def requests_to(self, method: str, route: str) -> list[RecordedRequest]:
        """The bot's requests with ``method`` on the fake's ``route`` pattern, oldest first
        (``fake.requests_to("POST", "/applications/{app_id}/emojis")``; ``"*"``: any)."""
        self._check_route(method, route)
        return [
            r
            for r in self.requests
            if method in (ANY, r.method) and r.route is not None and route in (ANY, r.route)
        ]

    def resolve_media(self, url: str) -> bytes | None:
        """The bytes an image URL in a message shows, if the fake holds them: an emoji's
        picture (on ``cdn.discordapp.com``, ``media.discordapp.net`` or the fake's own CDN)
        or an attachment the fake serves. None: an outside URL, or nothing there."""
        emoji = self.emoji_at(url)
        if emoji is not None:
            return emoji.data
        found = re.match(r"^https?://127\.0\.0\.1:\d+/attachments/\d+/(\d+)/", url or "")
        if found is None:
            return None
        att_id = int(found.group(1))
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == att_id:
                    return att.data
        option = self._option_attachments.get(att_id)
        return option.data if option is not None else None

    def emoji_at(self, url: str) -> FakeEmoji | None:
        """The emoji whose picture ``url`` is (Discord's CDN or the fake's), or None."""
        emoji = self.emojis.from_url(url)
        base = self._local_base()
        if emoji is None and base and (url or "").startswith(f"{base}/emojis/"):
            emoji = self.emojis.get(_int(url.rsplit("/", 1)[1].split(".", 1)[0]))
        return emoji

    # ------------------------------------------------------------------ acting as users

    def _member_in(self, user: FakeUser | FakeMember, channel: FakeChannel) -> FakeUser:
        who = user.user if isinstance(user, FakeMember) else user
        if not isinstance(who, FakeUser):
            raise TypeError(f"expected a FakeUser, got {user!r}")
        if channel.guild is not None:
            channel.guild.member(who)  # raises if not a member
        if not channel.can_see(who):
            raise UserActionError(f"{who.name} cannot see channel #{channel.name}")
        return who

    def _command_scopes(
        self, channel: FakeChannel
    ) -> list[tuple[int | None, list[dict[str, Any]]]]:
        scopes: list[tuple[int | None, list[dict[str, Any]]]] = []
        if channel.guild is not None:
            scopes.append((channel.guild.id, self.commands.get(channel.guild.id, [])))
        scopes.append((None, self.commands.get(None, [])))
        return scopes

    def _check_access(self, root: dict[str, Any], user: FakeUser, channel: FakeChannel) -> None:
        """What the Discord client enforces before a user can even run a command."""
        contexts = root.get("contexts")
        if channel.guild is None:
            if root.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
                raise CommandError(f"/{root['name']} cannot be used in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise CommandError(f"/{root['name']} cannot be used in servers")
        needed = root.get("default_member_permissions")
        if needed is not None:
            member = channel.guild.member(user)
            if not member.has(int(needed)):
                raise CommandError(
                    f"{user.name} lacks the permissions ({needed}) /{root['name']} requires"
                )

    def _option_attachment(self, value: Any) -> FakeAttachment:
        if isinstance(value, FakeAttachment):
            return value
        att_id = self.ids()
        self._option_attachments[att_id] = FakeAttachment(
            id=att_id,
            filename=value.filename,
            data=value.data,
            content_type=value.content_type,
            url=f"{self.base_url}/attachments/0/{att_id}/{quote(value.filename)}",
        )
        return self._option_attachments[att_id]

    async def slash(
        self,
        user: FakeUser | FakeMember,
        channel: FakeChannel,
        command: str,
        /,
        *,
        _wait: bool = True,
        **options: Any,
    ) -> InteractionResult:
        """``/command`` with ``options`` as ``user`` in ``channel``, checked against the synced
        tree. Waits for the first response unless ``_wait=False``."""
        await self._flush()
        who = self._member_in(user, channel)
        found = resolve(self._command_scopes(channel), command, locale=who.locale)
        self._check_access(found.root, who, channel)
        builder = OptionBuilder(
            channel.guild.members if channel.guild else None, self._option_attachment
        )
        opts = builder.build(found, options, locale=who.locale)
        data: dict[str, Any] = {
            "id": str(found.root["id"]),
            "name": found.root["name"],
            "type": 1,
            "options": opts,
        }
        if builder.resolved:
            data["resolved"] = builder.resolved
        if found.scope is not None:
            data["guild_id"] = str(found.scope)
        result = self._new_interaction(2, who, channel, data, name=found.qualified_name)
        await self._send_interaction(result)
        if _wait:
            await result.wait_response()
        return result

    async def autocomplete(
        self,
        user: FakeUser | FakeMember,
        channel: FakeChannel,
        command: str,
        /,
        *,
        focused: str,
        **options: Any,
    ) -> Choices:
        """The choices the bot offers while ``user`` types ``options[focused]``."""
        await self._flush()
        who = self._member_in(user, channel)
        found = resolve(self._command_scopes(channel), command, locale=who.locale)
        self._check_access(found.root, who, channel)
        builder = OptionBuilder(
            channel.guild.members if channel.guild else None, self._option_attachment
        )
        opts = builder.build(found, options, focused=focused, locale=who.locale)
        data: dict[str, Any] = {
            "id": str(found.root["id"]),
            "name": found.root["name"],
            "type": 1,
            "options": opts,
        }
        if builder.resolved:
            data["resolved"] = builder.resolved
        if found.scope is not None:
            data["guild_id"] = str(found.scope)
        result = self._new_interaction(4, who, channel, data, name=found.qualified_name)
        await self._send_interaction(result)
        await result.wait_response()
        return Choices(result.choices or [], result)

    def _message_of(self, message: FakeMessage | int) -> FakeMessage:
        if isinstance(message, FakeMessage):
            return message
        try:
            return self.messages[int(message)]
        except KeyError:
            raise ComponentError(f"no message {message}") from None

    def _usable_component(
        self,
        who: FakeUser,
        msg: FakeMessage,
        custom_id: str,
        kinds: tuple[int, ...],
        *,
        force: bool,
    ) -> dict[str, Any] | None:
        component = msg.component(custom_id)
        if force:
            return component
        if msg.deleted:
            raise ComponentError(f"message {msg.id} was deleted")
        if not msg.visible_to(who):
            raise ComponentError(f"{who.name} cannot see message {msg.id}")
        if component is None:
            raise ComponentError(
                f"message {msg.id} has no component {custom_id!r}; it has {msg.custom_ids}"
            )
        if component.get("type") not in kinds:
            raise ComponentError(f"component {custom_id!r} has type {component.get('type')}")
        if component.get("disabled"):
            raise ComponentError(f"component {custom_id!r} is disabled")
        return component

    async def click(
        self,
        user: FakeUser | FakeMember,
        message: FakeMessage | int,
        custom_id: str,
        *,
        force: bool = False,
        wait: bool = True,
    ) -> InteractionResult:
        """Press the button ``custom_id`` on ``message``.

        The button must be on the message, enabled, and the message visible to ``user``;
        ``force=True`` sends the interaction anyway (a forged or stale custom id).
        """
        await self._flush()
        msg = self._message_of(message)
        who = self._member_in(user, msg.channel) if not force else _as_user(user)
        component = self._usable_component(who, msg, custom_id, (2,), force=force)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if component is not None and component.get("id"):
            data["id"] = component["id"]  # Discord sends the numeric id of what was used
        result = self._new_interaction(3, who, msg.channel, data, name=custom_id, source=msg)
        await self._send_interaction(result)
        if wait:
            await result.wait_response()
        return result

    async def select(
        self,
        user: FakeUser | FakeMember,
        message: FakeMessage | int,
        custom_id: str,
        values: list[Any],
        *,
        force: bool = False,
        wait: bool = True,
    ) -> InteractionResult:
        """Choose ``values`` in the select menu ``custom_id`` on ``message``.

        For a string select, values are option values; for user/role/channel selects, pass
        FakeUser/FakeRole/FakeChannel objects.
        """
        await self._flush()
        msg = self._message_of(message)
        who = self._member_in(user, msg.channel) if not force else _as_user(user)
        component = self._usable_component(who, msg, custom_id, (3, 5, 6, 7, 8), force=force)
        kind = component["type"] if component else 3
        if component is not None and not force:
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not low <= len(values) <= high:
                raise ComponentError(f"select {custom_id!r} takes {low}..{high} values")
            if kind == 3:
                allowed = [o["value"] for o in component.get("options") or []]
                wrong = [v for v in values if v not in allowed]
                if wrong:
                    raise ComponentError(f"select {custom_id!r} has no options {wrong}: {allowed}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if component is not None and component.get("id"):
            data["id"] = component["id"]
        resolved: dict[str, dict[str, Any]] = {}
        out: list[str] = []
        guild = msg.channel.guild
        for value in values:
            if isinstance(value, FakeMember):
                value = value.user
            if isinstance(value, FakeUser):
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                if guild is not None and value.id in guild.members:
                    member = guild.members[value.id].payload(with_permissions=True)
                    member.pop("user")
                    resolved.setdefault("members", {})[str(value.id)] = member
                out.append(str(value.id))
            elif isinstance(value, FakeRole):
                resolved.setdefault("roles", {})[str(value.id)] = value.payload()
                out.append(str(value.id))
            elif isinstance(value, FakeChannel):
                resolved.setdefault("channels", {})[str(value.id)] = value.payload()
                out.append(str(value.id))
            else:
                out.append(str(value))
        data["values"] = out
        if resolved:
            data["resolved"] = resolved
        result = self._new_interaction(3, who, msg.channel, data, name=custom_id, source=msg)
        await self._send_interaction(result)
        if wait:
            await result.wait_response()
        return result

    async def submit_modal(
        self,
        user: FakeUser | FakeMember,
        opened_by: InteractionResult,
        values: dict[str, Any],
        *,
        force: bool = False,
        wait: bool = True,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps each input's custom_id to its text (or a list, for selects).
        """
        await self._flush()
        modal = opened_by.modal
        if modal is None:
            raise ComponentError(f"{opened_by!r} did not open a modal")
        who = _as_user(user)
        if who.id != opened_by.user.id and not force:
            raise ComponentError("only the user who opened a modal can submit it")

        def fill(component: dict[str, Any]) -> dict[str, Any]:
            kind = component.get("type")
            if kind == 1:
                return {"type": 1, "components": [fill(c) for c in component["components"]]}
            if kind == 18:
                return {"type": 18, "component": fill(component["component"])}
            if kind == 4:
                cid = component["custom_id"]
                if cid not in values and component.get("required", True) and not force:
                    raise ComponentError(f"modal input {cid!r} is required")
                return {"type": 4, "custom_id": cid, "value": str(values.get(cid, ""))}
            if kind in (3, 5, 6, 7, 8):
                cid = component["custom_id"]
                chosen = values.get(cid, [])
                return {
                    "type": kind,
                    "custom_id": cid,
                    "values": [str(v) for v in (chosen if isinstance(chosen, list) else [chosen])],
                }
            return {"type": kind}

        filled = [fill(c) for c in modal.get("components") or []]
        data = {"custom_id": modal["custom_id"], "components": filled}
        result = self._new_interaction(
            5,
            who,
            opened_by.channel,
            data,
            name=modal["custom_id"],
            source=opened_by.source_message,
        )
        await self._send_interaction(result)
        if wait:
            await result.wait_response()
        return result

    async def say(
        self, user: FakeUser | FakeMember, channel: FakeChannel, content: str
    ) -> FakeMessage:
        """``user`` posts a plain message in ``channel`` (MESSAGE_CREATE goes to the bot)."""
        await self._flush()
        who = self._member_in(user, channel)
        return await self._create_message(channel, who, {"content": content}, [])

    # ------------------------------------------------------------------ gateway control

    def _live_sessions(self) -> list[GatewaySession]:
        live = [s for s in self.shard_sessions.values() if s.live]
        if not live:
            raise BotNotConnectedError("no bot is connected to the fake gateway")
        return live

    async def gateway_reconnect(self, *, wait: bool = True, within: float = PATIENCE) -> None:
        """Send op 7 RECONNECT on every live session; wait until each RESUMEd on
        ``resume_gateway_url`` (unless ``wait=False``)."""
        sessions = self._live_sessions()
        before = self.resume_count
        for session in sessions:
            assert session.connection is not None
            await session.connection.send({"op": 7, "s": None, "t": None, "d": None})
        if wait:
            await self.wait_for(
                lambda: self.resume_count >= before + len(sessions) and self.connected,
                within=within,
                what="RESUME after op 7",
            )

    async def reconnect_gateway(self, *, within: float = PATIENCE) -> None:
        """The same as :meth:`gateway_reconnect` (the older name)."""
        await self.gateway_reconnect(within=within)

    async def gateway_invalid_session(
        self, resumable: bool = False, *, wait: bool = True, within: float = PATIENCE
    ) -> None:
        """Send op 9 INVALID SESSION on every live session. Not ``resumable``: the sessions
        are over (a RESUME with one is answered op 9 again) and the bot must IDENTIFY;
        ``resumable``: it may RESUME. Waits for that unless ``wait=False``."""
        sessions = self._live_sessions()
        resumes, readies = self.resume_count, self.ready_count
        for session in sessions:
            session.invalidated = session.invalidated or not resumable
            assert session.connection is not None
            await session.connection.send({"op": 9, "s": None, "t": None, "d": resumable})
        if not wait:
            return

        def back() -> bool:
            if resumable:
                return self.resume_count >= resumes + len(sessions) and self.connected
            return self.ready_count >= readies + len(sessions) and self.connected

        await self.wait_for(back, within=within, what="the bot back after op 9")

    # -- silences and outages (see outages.py)

    @property
    def silences(self) -> list[GatewayTrouble]:
        return [t for t in self.troubles if t.kind == "silence"]

    @property
    def outages(self) -> list[GatewayTrouble]:
        return [t for t in self.troubles if t.kind == "outage"]

    def _troubled(self, kind: str) -> bool:
        return any(t.kind == kind and not t.over for t in self.troubles)

    @property
    def silenced(self) -> bool:
        """The gateway is silent now (``silence_gateway``)."""
        return self._troubled("silence")

    @property
    def down(self) -> bool:
        """Discord is unreachable now (``outage``)."""
        return self._troubled("outage")

    def _begin_trouble(self, kind: str, seconds: float) -> GatewayTrouble:
        if not seconds > 0:
            raise ValueError(f"a {kind} lasts a positive number of seconds, not {seconds}")
        trouble = GatewayTrouble(
            kind=kind,
            seconds=seconds,
            began=self.clock.now(),
            until=self.clock.monotonic() + seconds,
        )
        self.troubles.append(trouble)
        return trouble

    def _spawn(self, coro: Awaitable[Any]) -> None:
        # Not in _pending: acting as a user flushes those, and must not wait for an outage.
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def silence_gateway(self, seconds: float) -> GatewayTrouble:
        """For ``seconds`` on the fake clock send nothing on any gateway connection and
        ignore what the bot sends (see ``outages.py``); returns at once with the record."""
        trouble = self._begin_trouble("silence", seconds)
        self._spawn(self._end_silence(trouble))
        self._bump()
        return trouble

    async def _end_silence(self, trouble: GatewayTrouble) -> None:
        await self.clock.sleep_until(trouble.until)
        trouble._finish(self.clock.now())
        if not self.silenced:
            for conn in list(self.gateway_connections):
                if not conn.open:
                    continue
                with contextlib.suppress(ConnectionResetError, RuntimeError):
                    if not conn.hello_sent:
                        await self._hello(conn)
                    elif conn.session is not None and conn.session.connection is conn:
                        await self._catch_up(conn)
        self._bump()

    async def outage(self, seconds: float) -> GatewayTrouble:
        """Discord unreachable for ``seconds`` on the fake clock: drop every connection with
        a reset, refuse new ones (the port stops listening), listen again on the same port
        at the end. Returns once every gateway connection is gone."""
        if self._listener is None:
            raise RuntimeError("call await fake.start() first")
        trouble = self._begin_trouble("outage", seconds)
        await self._listener.stop(drop=True)
        self._spawn(self._end_outage(trouble))
        await self.wait_for(
            lambda: not any(c.open for c in self.gateway_connections), within=5.0, quiet=True
        )
        return trouble

    async def _end_outage(self, trouble: GatewayTrouble) -> None:
        await self.clock.sleep_until(trouble.until)
        if not any(t is not trouble and t.kind == "outage" and not t.over for t in self.troubles):
            assert self._listener is not None
            await self._listener.listen()
        trouble._finish(self.clock.now())
        self._bump()

    async def pass_time(self, seconds: float, *, step: float = 20.0) -> None:
        """Let ``seconds`` pass on the fake clock as on a live connection: advance in steps
        of ``step`` and, before each, ping every gateway connection that is not silenced and
        wait for its pong, so discord.py's 60-second receive timeout (loop clock) never
        fires on a jump (``fake.clock.advance`` alone jumps at once; see ``clock.py``)."""
        if not 0 < step <= 50:
            raise ValueError("step must be in (0, 50] seconds (discord.py waits 60 at most)")
        left = seconds
        while left > 0:
            await self._feed_gateway()
            jump = min(step, left)
            self.clock.advance(jump)
            left -= jump
        await self._feed_gateway()

    async def _feed_gateway(self, *, within: float = 2.0) -> None:
        if self.silenced:
            return
        pinged: list[tuple[GatewayConnection, int]] = []
        for conn in self.gateway_connections:
            if conn.open and conn.hello_sent:
                with contextlib.suppress(ConnectionResetError, RuntimeError):
                    async with conn.lock:
                        await conn.ws.ping(b"fake-clock")
                    pinged.append((conn, conn.pongs))
        await self.wait_for(
            lambda: all(c.pongs > n or not c.open for c, n in pinged), within=within, quiet=True
        )

    async def drop_gateway(self, *, code: int = 4000, within: float = PATIENCE) -> None:
        """Close the bot's websocket with ``code`` and wait until it is back (RESUME or
        IDENTIFY, as discord.py decides)."""
        session = self._require_live()
        resumes, readies = self.resume_count, self.ready_count
        assert session.connection is not None
        await session.connection.ws.close(code=code, message=b"fake discord dropped you")
        await self.wait_for(
            lambda: (self.resume_count > resumes or self.ready_count > readies) and self.connected,
            within=within,
            what="the bot to reconnect",
        )

    def _require_live(self) -> GatewaySession:
        if self._session is None or not self._session.live:
            raise BotNotConnectedError("no bot is connected to the fake gateway")
        return self._session

    def _guild_session(self, result: InteractionResult) -> GatewaySession | None:
        guild = result.channel.guild
        session = self.session_for(guild.id if guild is not None else None)
        return session if session is not None and session.live else None

    # ------------------------------------------------------------------ interactions

    def _new_interaction(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        name: str,
        source: FakeMessage | None = None,
    ) -> InteractionResult:
        iid = self.ids()
        token = f"aW50ZXJhY3Rpb24.{secrets.token_urlsafe(40)}"
        guild = channel.guild
        channel_payload = channel.payload()
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application.id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None:
            member = guild.member(user)
            channel_payload["permissions"] = str(member.permissions)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=member.payload(with_permissions=True),
                app_permissions=str(guild.bot_member.permissions),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.payload(),
                app_permissions=str(Perm.EVERYONE_DEFAULT),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        payload["channel"] = channel_payload
        if source is not None:
            payload["message"] = source.payload()
        result = InteractionResult(
            fake=self,
            id=iid,
            token=token,
            type=kind,
            user=user,
            channel=channel,
            name=name,
            payload=payload,
            source_message=source,
        )
        self.interactions[iid] = result
        self._tokens[token] = result
        return result

    async def _send_interaction(self, result: InteractionResult) -> None:
        if self.down or self.silenced:
            result.undelivered = True
            why = "Discord is down (outage)" if self.down else "the gateway is silent"
            raise InteractionNotDeliveredError(result, why)
        # Only the shard of the interaction's guild gets it (a process of other shards
        # never sees it); wait a moment for that shard to connect.
        if self._guild_session(result) is None:
            await self.wait_for(lambda: self._guild_session(result), within=10.0, quiet=True)
        session = self._guild_session(result)
        if session is None:
            raise BotNotConnectedError("no bot is connected to the fake gateway for this guild")
        payload = {k: v for k, v in result.payload.items() if not k.startswith("_")}
        result.dispatched_at = self.clock.monotonic()
        result.sent_real = result.last_activity = time.monotonic()
        await self._dispatch("INTERACTION_CREATE", payload, session=session)

    @property
    def last_interaction(self) -> InteractionResult | None:
        return next(reversed(self.interactions.values()), None)

    # ------------------------------------------------------------------ the gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        # Pings answered by hand: a silence answers none, and pass_time needs to see pongs.
        ws = web.WebSocketResponse(max_msg_size=0, autoping=False)
        await ws.prepare(request)
        query = dict(request.query)
        conn = GatewayConnection(
            ws=ws,
            path=request.path,
            query=query,
            opened_at=self.clock.monotonic(),
            compress=query.get("compress"),
        )
        self.gateway_connections.append(conn)
        if conn.compress == "zlib-stream":
            conn._zlib = zlib.compressobj()
        elif conn.compress == "zstd-stream":
            conn._zstd = _zstd_compressor()
        elif conn.compress:
            await ws.close(code=4000, message=b"unknown compression")
            return ws
        if query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only json encoding")
            return ws
        self._bump()
        try:
            if not self.silenced:  # else HELLO goes out when the silence ends
                await self._hello(conn)
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    if self.silenced:
                        conn.ignored += 1
                        continue
                    text = msg.data if msg.type is WSMsgType.TEXT else msg.data.decode()
                    await self._on_gateway(conn, json.loads(text))
                elif msg.type is WSMsgType.PING:
                    if not self.silenced:
                        async with conn.lock:
                            await ws.pong(msg.data)
                elif msg.type is WSMsgType.PONG:
                    conn.pongs += 1
                    self._bump()
                elif msg.type is WSMsgType.ERROR:
                    break
        except (ConnectionResetError, RuntimeError):
            pass
        finally:
            conn.closed_at = self.clock.monotonic()
            conn.close_code = ws.close_code
            if conn.session is not None and conn.session.connection is conn:
                conn.session.connection = None
            self._bump()
        return ws

    async def _hello(self, conn: GatewayConnection) -> None:
        conn.hello_sent = True
        await conn.send(
            {
                "op": 10,
                "s": None,
                "t": None,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake"]},
            }
        )

    async def _on_gateway(self, conn: GatewayConnection, msg: dict[str, Any]) -> None:
        # An op 1 is answered whenever it comes (discord.py may send one to probe the socket).
        op = msg.get("op")
        data = msg.get("d")
        if op == 1:
            conn.heartbeats += 1
            await conn.send({"op": 11, "s": None, "t": None, "d": None})
            return
        self.gateway_received.append(msg)
        if op == 2:
            await self._identify(conn, data or {})
        elif op == 6:
            await self._resume(conn, data or {})
        elif op == 8:
            await self._request_members(conn, data or {})
        elif op in (3, 4):
            pass  # presence and voice state updates: recorded above
        else:
            await conn.ws.close(code=4001, message=b"unknown opcode")
        self._bump()

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"already authenticated")
            return
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"authentication failed")
            return
        shard = list(data.get("shard") or [0, 1])
        if (
            len(shard) != 2
            or not all(isinstance(n, int) for n in shard)
            or not 0 <= shard[0] < shard[1]
        ):
            await conn.ws.close(code=4010, message=b"invalid shard")
            return
        conn.kind = "identify"
        self.identify_count += 1
        session = GatewaySession(
            id=secrets.token_hex(16),
            intents=int(data.get("intents", 0)),
            shard=shard,
            connection=conn,
        )
        conn.session = session
        self.sessions[session.id] = session
        self._session = session
        for shard_id in [i for i, s in self.shard_sessions.items() if s.shard[1] != shard[1]]:
            del self.shard_sessions[shard_id]  # resharded: the old count's sessions are over
        self.shard_sessions[shard[0]] = session
        me = {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None}
        bot_guilds = [
            g
            for g in self.guilds.values()
            if self.bot_user.id in g.members and (g.id >> 22) % shard[1] == shard[0]
        ]
        await self._dispatch(
            "READY",
            {
                "v": 10,
                "user": me,
                "user_settings": {},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in bot_guilds],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.resume_gateway_url,
                "shard": session.shard,
                "application": {"id": str(self.application.id), "flags": self.application.flags},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "_trace": ["fake-discord"],
            },
            session=session,
        )
        for guild in bot_guilds:
            await self._dispatch(
                "GUILD_CREATE", guild.create_payload(for_user=self.bot_user), session=session
            )
        self.ready_count += 1

    async def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if (
            session is None
            or session.invalidated
            or data.get("token") != self.token
            or session is not self.shard_sessions.get(session.shard[0])
        ):
            await conn.send({"op": 9, "s": None, "t": None, "d": False})
            return
        conn.kind = "resume"
        conn.session = session
        old = session.connection
        session.connection = conn
        if old is not None and old is not conn and old.open:
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000)
        conn.sent_seq = min(int(data.get("seq") or 0), session.seq)
        await self._catch_up(conn)  # replays what the bot missed
        await self._dispatch("RESUMED", {"_trace": ["fake-discord"]}, session=session)
        self.resume_count += 1

    async def _request_members(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        guild = self.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        query = (data.get("query") or "").lower()
        ids = {int(u) for u in data.get("user_ids") or []}
        limit = data.get("limit") or len(guild.members)
        members = [
            m
            for m in guild.members.values()
            if (not ids or m.user.id in ids) and m.user.name.lower().startswith(query)
        ][:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self._dispatch("GUILD_MEMBERS_CHUNK", chunk, session=conn.session)

    async def _dispatch(
        self, event: str, data: dict[str, Any], *, session: GatewaySession | None = None
    ) -> int | None:
        session = session or self.session_for(_guild_id_of(event, data))
        if session is None:
            return None
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.events.append(payload)
        conn = session.connection
        if conn is not None and conn.open and not self.silenced:
            with contextlib.suppress(ConnectionResetError, RuntimeError):
                await self._catch_up(conn)
        self._bump()
        return session.seq

    async def _catch_up(self, conn: GatewayConnection) -> None:
        """Send the connection's session events it has not had yet, in order (events kept
        back by a silence go out with the next one, or when the silence ends)."""
        session = conn.session
        if session is None:
            return
        async with conn.order:
            while conn.sent_seq < session.seq and conn.open and not self.silenced:
                await conn.send(session.events[conn.sent_seq])
                conn.sent_seq += 1

    # ------------------------------------------------------------------ rate limits and faults

    def _check_route(self, method: str, route: str) -> None:
        if method == ANY and route == ANY:
            return
        if not any(method in (ANY, m) and route in (ANY, p) for m, _, p, _, _ in self._routes):
            raise ValueError(f"the fake has no route {method} {route}")

    def rate_limit(
        self,
        method: str,
        route: str,
        *,
        every: int = 1,
        probability: float | None = None,
        seed: int = 0,
        retry_after: float = 0.25,
        scope: str = "user",
        limit: int | None = None,
        **params: object,
    ) -> RateLimitRule:
        """Answer HTTP 429 to every ``every``-th ``method`` request on ``route`` (a pattern
        of the fake's routes, e.g. ``"/channels/{channel_id}/messages/{message_id}"``; ``"*"``
        for any) whose parameters equal ``params`` (``channel_id=channel.id``); with
        ``probability``, to a seeded fraction of them. ``scope="global"`` sends a global
        limit. Returns the rule: ``.answered`` counts its 429s, ``.off()`` stops it."""
        self._check_route(method, route)
        rule = RateLimitRule(
            method,
            route,
            every=every,
            probability=probability,
            seed=seed,
            retry_after=retry_after,
            scope=scope,
            limit=limit,
            params={key: str(value) for key, value in params.items()},
        )
        self.rate_limits.append(rule)
        return rule

    def clear_rate_limits(self) -> None:
        """Switch every 429 rule off."""
        for rule in self.rate_limits:
            rule.off()
        self.rate_limits.clear()

    def _rate_limited(self, method: str, route: str, params: dict[str, str]) -> web.Response | None:
        for rule in self.rate_limits:
            if rule.matches(method, route, params) and rule.hit():
                return rule.response(self.clock.now())
        return None

    def fault(
        self,
        method: str,
        route: str,
        *,
        status: int | str | None = 503,
        code: int = 0,
        message: str | None = None,
        every: int = 1,
        probability: float | None = None,
        seed: int = 0,
        hang: float | None = None,
        hold: bool = False,
        carried_out: bool = False,
        limit: int | None = None,
        **params: object,
    ) -> FaultRule:
        """Fail matching requests: ``status`` with a Discord JSON body instead of handling
        them, ``carried_out=True`` after handling them, ``hang=s`` seconds late (with
        ``status=None``: late, then handled), ``hold=True`` until ``rule.release()``,
        ``status="reset"``: no answer, the connection dropped. ``method``/``route`` as for
        ``rate_limit`` (``"*"``: any); every ``every``-th or a seeded ``probability`` of
        them, at most ``limit``. See ``faults.py``."""
        self._check_route(method, route)
        rule = FaultRule(
            method,
            route,
            every=every,
            probability=probability,
            seed=seed,
            limit=limit,
            params={key: str(value) for key, value in params.items()},
            status=status,
            code=code,
            message=message,
            hang=hang,
            hold=hold,
            carried_out=carried_out,
        )
        self.faults.append(rule)
        return rule

    def clear_faults(self) -> None:
        """Switch every fault rule off."""
        for rule in self.faults:
            rule.off()
        self.faults.clear()

    def _fault_for(self, method: str, route: str, params: dict[str, str]) -> FaultRule | None:
        for rule in self.faults:
            if rule.matches(method, route, params) and rule.hit():
                return rule
        return None

    async def _faulty(
        self, rule: FaultRule, handle: Callable[[], Awaitable[web.Response]]
    ) -> web.Response:
        """Answer a request ``rule`` fired on (see ``faults.py``)."""

        async def handled() -> web.Response:
            try:
                return await handle()
            except _RespondNowError as reply:
                return reply.response

        early = await handled() if rule.carried_out else None
        await rule.delay()
        if rule.resets:
            raise _DropConnectionError
        if rule.status is None:
            return early if early is not None else await handle()
        return rule.response()

    # ------------------------------------------------------------------ REST plumbing

    def _route(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "$")
        self._routes.append((method, regex, pattern, handler, auth))

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        self.last_bot_activity = time.monotonic()
        at = self.clock.monotonic()
        body: Any = None
        files = _Files()
        matched: str | None = None
        result: InteractionResult | None = None
        fault: FaultRule | None = None
        dropped = False
        try:
            body, files = await self._read_body(request)
            for method, regex, pattern, handler, auth in self._routes:
                m = regex.match(path)
                if m is None or method != request.method:
                    continue
                matched = pattern
                if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                    raise _error(401, 0, "401: Unauthorized")
                params = m.groupdict()
                token = params.get("token")
                if token is not None:
                    result = self._tokens.get(token)
                    if result is not None:
                        result.last_activity = time.monotonic()
                call = _Call(request, body, files)
                fault = self._fault_for(request.method, pattern, params)
                if fault is not None:
                    response = await self._faulty(fault, functools.partial(handler, call, **params))
                    break
                limited = self._rate_limited(request.method, pattern, params)
                if limited is not None:
                    raise _RespondNowError(limited)
                response = await handler(call, **params)
                break
            else:
                raise _error(404, 0, "404: Not Found")
        except _RespondNowError as reply:
            response = reply.response
        except json.JSONDecodeError:
            response = _error(400, 50109, "The request body contains invalid JSON.").response
        except _DropConnectionError:
            dropped = True
            response = web.Response(status=599)  # never sent: the connection is reset
        record = RecordedRequest(
            method=request.method,
            path=path,
            query=dict(request.query),
            route=matched,
            status=0 if dropped else response.status,
            body=body,
            files=[f[0] for f in files.by_index.values()],
            file_sizes=[len(f[1]) for f in files.by_index.values()],
            at=at,
            fault=fault,
        )
        self._record(record, response, result)
        self.last_bot_activity = time.monotonic()
        self._bump()
        if dropped and request.transport is not None:
            reset(request.transport)
        return response

    def _record(
        self, record: RecordedRequest, response: web.Response, result: InteractionResult | None
    ) -> None:
        """File a request under ``requests`` and, by its answer, one of ``faulted``,
        ``rate_limited``, ``edit_limited``, ``errors`` (with its interaction's ``rejected``)."""
        if record.status >= 400:
            body_bytes = getattr(response, "body", None)
            with contextlib.suppress(Exception):
                record.response = json.loads(body_bytes) if body_bytes else None
        self.requests.append(record)
        if record.route is None:
            self.unknown_routes.append(record)
        if record.fault is not None:
            self.faulted.append(record)
            record.fault.requests.append(record)
        elif record.status == 429 and record.route is not None:
            self.rate_limited.append(record)
        elif _code(record) == 30046:
            self.edit_limited.append(record)
        elif record.status >= 400:
            self.errors.append(record)
            if result is not None:
                result.rejected.append(record)

    async def _read_body(self, request: web.Request) -> tuple[Any, _Files]:
        files = _Files()
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                name = part.name or ""
                raw = await part.read(decode=False)
                if name == "payload_json":
                    payload = json.loads(bytes(raw))
                    continue
                m = re.fullmatch(r"files\[(\d+)\]|file(\d*)", name)
                if m is None:
                    continue
                index = int(m.group(1) or m.group(2) or 0)
                filename = part.filename or f"file{index}"
                ctype = part.headers.get("Content-Type")
                if ctype in (None, "application/octet-stream"):
                    ctype = mimetypes.guess_type(filename)[0] or ctype
                files.by_index[index] = (filename, bytes(raw), ctype)
            return payload, files
        raw_body = await request.read()
        if not raw_body:
            return None, files
        return json.loads(raw_body), files

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        att_id = int(request.match_info["attachment"])
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == att_id:
                    return web.Response(body=att.data, content_type=att.content_type or None)
        option = self._option_attachments.get(att_id)
        if option is not None:
            return web.Response(body=option.data, content_type=option.content_type or None)
        raise web.HTTPNotFound()

    async def _cdn_emoji(self, request: web.Request) -> web.StreamResponse:
        """An emoji's picture, as ``cdn.discordapp.com/emojis/{id}.{ext}`` serves it."""
        self.cdn_requests.append(request.path_qs)
        emoji_id = request.match_info["filename"].split(".", 1)[0]
        emoji = self.emojis.get(_int(emoji_id))
        if emoji is None:
            raise web.HTTPNotFound()
        return web.Response(body=emoji.data, content_type=emoji.content_type)

    # ------------------------------------------------------------------ routes

    def _install_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self._get_me)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._create_dm)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/applications/@me", self._get_application)
        r("GET", "/gateway", self._get_gateway)
        r("GET", "/gateway/bot", self._get_gateway_bot)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r("GET", prefix + "/commands", self._get_commands)
            r("PUT", prefix + "/commands", self._put_commands)
            r("POST", prefix + "/commands", self._post_command)
            r("GET", prefix + "/commands/{command_id}", self._get_command)
            r("PATCH", prefix + "/commands/{command_id}", self._patch_command)
            r("DELETE", prefix + "/commands/{command_id}", self._delete_command)
        r("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self._no_perms)
        r("GET", "/applications/{app_id}/emojis", self._list_emojis)
        r("POST", "/applications/{app_id}/emojis", self._create_emoji)
        r("GET", "/applications/{app_id}/emojis/{emoji_id}", self._get_emoji)
        r("PATCH", "/applications/{app_id}/emojis/{emoji_id}", self._patch_emoji)
        r("DELETE", "/applications/{app_id}/emojis/{emoji_id}", self._delete_emoji)
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("POST", "/channels/{channel_id}/messages", self._post_message)
        r("GET", "/channels/{channel_id}/messages", self._get_messages)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        r("POST", "/channels/{channel_id}/typing", self._typing)
        r("POST", "/channels/{channel_id}/threads", self._create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread)
        r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._thread_member_add)
        r("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._thread_member_remove)
        react = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
        r("PUT", react, self._react)
        r("DELETE", react, self._react)
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self._get_guild_roles)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, auth=False)
        hook = "/webhooks/{app_id}/{token}"
        r("POST", hook, self._followup, auth=False)
        r("GET", hook + "/messages/{message_id}", self._get_webhook_message, auth=False)
        r("PATCH", hook + "/messages/{message_id}", self._patch_webhook_message, auth=False)
        r("DELETE", hook + "/messages/{message_id}", self._delete_webhook_message, auth=False)

    # -- users, application, gateway

    async def _get_me(self, call: _Call) -> web.Response:
        me = {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None}
        return _json_response(me)

    async def _get_user(self, call: _Call, user_id: str) -> web.Response:
        user = self.users.get(_int(user_id))
        if user is None:
            raise _error(404, 10013, "Unknown User")
        return _json_response(user.payload())

    async def _create_dm(self, call: _Call) -> web.Response:
        user = self.users.get(_int((call.body or {}).get("recipient_id")))
        if user is None:
            raise _error(400, 50035, "Invalid Form Body")
        for channel in self.channels.values():
            if channel.type == ChannelType.DM and channel.member_ids == {user.id}:
                return _json_response(channel.payload())
        channel = FakeChannel(
            id=self.ids(), name=user.name, type=ChannelType.DM, guild=None, member_ids={user.id}
        )
        channel._fake = self
        self.channels[channel.id] = channel
        return _json_response(channel.payload())

    async def _get_application(self, call: _Call) -> web.Response:
        return _json_response(self.application.payload())

    async def _get_gateway(self, call: _Call) -> web.Response:
        return _json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, call: _Call) -> web.Response:
        return _json_response(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    # -- application commands

    def _scope(self, app_id: str, guild_id: str | None) -> int | None:
        if _int(app_id) != self.application.id:
            raise _error(403, 50001, "Missing Access")
        if guild_id is None:
            return None
        guild = self.guilds.get(_int(guild_id))
        if guild is None or self.bot_user.id not in guild.members:
            raise _error(403, 50001, "Missing Access")
        return guild.id

    def _normalize_command(
        self, cmd: dict[str, Any], scope: int | None, old: list[dict[str, Any]]
    ) -> dict[str, Any]:
        kind = cmd.get("type", 1)
        previous = next(
            (c for c in old if c["name"] == cmd.get("name") and c["type"] == kind), None
        )
        perms = cmd.get("default_member_permissions")
        out: dict[str, Any] = {
            **cmd,
            "id": previous["id"] if previous else str(self.ids()),
            "application_id": str(self.application.id),
            "version": str(self.ids()),
            "type": kind,
            "description": cmd.get("description", "") if kind == 1 else "",
            "default_member_permissions": None if perms is None else str(perms),
            "dm_permission": cmd.get("dm_permission", True),
            "nsfw": cmd.get("nsfw", False),
            "options": cmd.get("options") or [],
        }
        if scope is not None:
            out["guild_id"] = str(scope)
        return out

    async def _get_commands(
        self, call: _Call, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        return _json_response(self.commands.get(self._scope(app_id, guild_id), []))

    async def _put_commands(
        self, call: _Call, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        scope = self._scope(app_id, guild_id)
        problems = validate.check_commands(call.body)
        if problems:
            raise _invalid(problems)
        old = self.commands.get(scope, [])
        self.commands[scope] = [self._normalize_command(c, scope, old) for c in call.body]
        self.command_syncs.append((scope, call.body))
        return _json_response(self.commands[scope])

    async def _post_command(
        self, call: _Call, app_id: str, guild_id: str | None = None
    ) -> web.Response:
        scope = self._scope(app_id, guild_id)
        problems = validate.check_commands([call.body])
        if problems:
            raise _invalid(problems)
        old = self.commands.get(scope, [])
        cmd = self._normalize_command(call.body, scope, old)
        self.commands[scope] = [c for c in old if c["id"] != cmd["id"]] + [cmd]
        return _json_response(cmd, 201)

    def _find_command(self, scope: int | None, command_id: str) -> dict[str, Any]:
        for cmd in self.commands.get(scope, []):
            if cmd["id"] == command_id:
                return cmd
        raise _error(404, 10063, "Unknown application command")

    async def _get_command(
        self, call: _Call, app_id: str, command_id: str, guild_id: str | None = None
    ) -> web.Response:
        return _json_response(self._find_command(self._scope(app_id, guild_id), command_id))

    async def _patch_command(
        self, call: _Call, app_id: str, command_id: str, guild_id: str | None = None
    ) -> web.Response:
        scope = self._scope(app_id, guild_id)
        cmd = self._find_command(scope, command_id)
        updated = self._normalize_command({**cmd, **(call.body or {})}, scope, [cmd])
        self.commands[scope] = [updated if c is cmd else c for c in self.commands[scope]]
        return _json_response(updated)

    async def _delete_command(
        self, call: _Call, app_id: str, command_id: str, guild_id: str | None = None
    ) -> web.Response:
        scope = self._scope(app_id, guild_id)
        cmd = self._find_command(scope, command_id)
        self.commands[scope] = [c for c in self.commands[scope] if c is not cmd]
        return _no_content()

    async def _no_perms(self, call: _Call, app_id: str, guild_id: str) -> web.Response:
        return _json_response([])

    # -- application emojis (``emojis.py`` has the rules)

    def _own_application(self, app_id: str) -> None:
        if _int(app_id) != self.application.id:
            raise _error(403, 50001, "Missing Access")

    async def _list_emojis(self, call: _Call, app_id: str) -> web.Response:
        self._own_application(app_id)
        return _json_response({"items": [e.payload() for e in self.emojis.application.values()]})

    async def _create_emoji(self, call: _Call, app_id: str) -> web.Response:
        self._own_application(app_id)
        return _json_response(self.emojis.create(call.body).payload(), 201)

    async def _get_emoji(self, call: _Call, app_id: str, emoji_id: str) -> web.Response:
        self._own_application(app_id)
        return _json_response(self.emojis.find(emoji_id).payload())

    async def _patch_emoji(self, call: _Call, app_id: str, emoji_id: str) -> web.Response:
        self._own_application(app_id)
        return _json_response(self.emojis.rename(emoji_id, call.body).payload())

    async def _delete_emoji(self, call: _Call, app_id: str, emoji_id: str) -> web.Response:
        self._own_application(app_id)
        self.emojis.delete(emoji_id)
        return _no_content()

    # -- guilds

    def _guild(self, guild_id: str) -> FakeGuild:
        guild = self.guilds.get(_int(guild_id))
        if guild is None or self.bot_user.id not in guild.members:
            raise _error(404, 10004, "Unknown Guild")
        return guild

    async def _get_guild(self, call: _Call, guild_id: str) -> web.Response:
        return _json_response(self._guild(guild_id).payload())

    async def _get_guild_channels(self, call: _Call, guild_id: str) -> web.Response:
        guild = self._guild(guild_id)
        return _json_response([c.payload() for c in guild.channels.values() if not c.is_thread])

    async def _get_guild_roles(self, call: _Call, guild_id: str) -> web.Response:
        return _json_response([r.payload() for r in self._guild(guild_id).roles.values()])

    async def _get_member(self, call: _Call, guild_id: str, user_id: str) -> web.Response:
        guild = self._guild(guild_id)
        member = guild.members.get(_int(user_id))
        if member is None:
            raise _error(404, 10007, "Unknown Member")
        return _json_response(member.payload())

    # -- channels and messages

    def _channel(self, channel_id: str) -> FakeChannel:
        channel = self.channels.get(_int(channel_id))
        if channel is None or (
            channel.type != ChannelType.DM and not channel.can_see(self.bot_user)
        ):
            raise _error(404, 10003, "Unknown Channel")
        return channel

    def _bot_can(self, channel: FakeChannel, permission: int) -> None:
        if channel.guild is None:
            return
        if not channel.guild.bot_member.has(permission):
            raise _error(403, 50013, "Missing Permissions")

    def _public_message(self, channel: FakeChannel, message_id: str) -> FakeMessage:
        msg = channel.messages.get(_int(message_id))
        if msg is None or msg.deleted or msg.ephemeral_for is not None:
            raise _error(404, 10008, "Unknown Message")
        return msg

    async def _get_channel(self, call: _Call, channel_id: str) -> web.Response:
        return _json_response(self._channel(channel_id).payload())

    async def _post_message(self, call: _Call, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        self._bot_can(channel, Perm.VIEW_CHANNEL)
        self._bot_can(
            channel, Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
        )
        if call.files.by_index:
            self._bot_can(channel, Perm.ATTACH_FILES)
        payload = call.body or {}
        nonce = payload.get("nonce")
        if nonce is not None and (
            not isinstance(nonce, str | int) or isinstance(nonce, bool) or len(str(nonce)) > 25
        ):
            raise _invalid([("nonce", "must be an integer or a string of at most 25 characters")])
        key = (channel.id, str(nonce))
        if payload.get("enforce_nonce") and nonce is not None:
            # Discord: another message of this author with this nonce in the past few minutes
            # is returned instead of a new one (a retried post is not doubled).
            earlier = self._nonces.get(key)
            recent = earlier is not None and self.clock.now() - earlier.created_at < NONCE_WINDOW
            if earlier is not None and recent and not earlier.deleted:
                return _json_response(earlier.payload())
        reference = payload.get("message_reference")
        msg = await self._create_message(
            channel,
            self.bot_user,
            payload,
            call.files,
            msg_type=19 if reference else 0,
            reference=reference,
        )
        if nonce is not None:
            self._nonces[key] = msg
        return _json_response(msg.payload())

    async def _get_messages(self, call: _Call, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        self._bot_can(channel, Perm.READ_MESSAGE_HISTORY)
        limit = min(int(call.request.query.get("limit", 50)), 100)
        messages = [
            m for m in channel.messages.values() if not m.deleted and m.ephemeral_for is None
        ]
        if "before" in call.request.query:
            messages = [m for m in messages if m.id < int(call.request.query["before"])]
        if "after" in call.request.query:
            messages = [m for m in messages if m.id > int(call.request.query["after"])]
            messages = messages[:limit]
        messages = sorted(messages, key=lambda m: m.id, reverse=True)[:limit]
        return _json_response([m.payload() for m in messages])

    async def _get_message(self, call: _Call, channel_id: str, message_id: str) -> web.Response:
        channel = self._channel(channel_id)
        return _json_response(self._public_message(channel, message_id).payload())

    async def _patch_message(self, call: _Call, channel_id: str, message_id: str) -> web.Response:
        channel = self._channel(channel_id)
        msg = self._public_message(channel, message_id)
        if msg.author.id != self.bot_user.id:
            raise _error(403, 50005, "Cannot edit a message authored by another user")
        old = self._count_old_message_edit(msg)
        await self._edit_message(msg, call.body or {}, call.files)
        if old:
            msg.old_edits.append(self.clock.now())
        return _json_response(msg.payload())

    def _count_old_message_edit(self, msg: FakeMessage) -> bool:
        """Discord caps edits of messages older than an hour: at most
        ``old_message_edit_limit`` per rolling hour, then 400 30046. True when this edit is
        one that counts (the message is old)."""
        now = self.clock.now()
        if now - msg.created_at <= OLD_MESSAGE_AGE:
            return False
        msg.old_edits[:] = [t for t in msg.old_edits if now - t < OLD_MESSAGE_EDIT_WINDOW]
        if len(msg.old_edits) >= self.old_message_edit_limit:
            raise _error(400, 30046, OLD_MESSAGE_EDIT_LIMITED)
        return True

    async def _delete_message(self, call: _Call, channel_id: str, message_id: str) -> web.Response:
        channel = self._channel(channel_id)
        msg = self._public_message(channel, message_id)
        if msg.author.id != self.bot_user.id:
            self._bot_can(channel, Perm.MANAGE_MESSAGES)
        await self._delete(msg)
        return _no_content()

    async def _typing(self, call: _Call, channel_id: str) -> web.Response:
        self._channel(channel_id)
        return _no_content()

    async def _react(
        self, call: _Call, channel_id: str, message_id: str, emoji: str
    ) -> web.Response:
        self._public_message(self._channel(channel_id), message_id)
        return _no_content()

    async def _create_thread(
        self, call: _Call, channel_id: str, message_id: str | None = None
    ) -> web.Response:
        parent = self._channel(channel_id)
        if parent.type != ChannelType.GUILD_TEXT or parent.guild is None:
            raise _error(400, 50024, "Cannot execute action on this channel type")
        payload = call.body or {}
        if message_id is not None:
            self._public_message(parent, message_id)
        private = message_id is None and payload.get("type", 12) == ChannelType.PRIVATE_THREAD
        self._bot_can(
            parent, Perm.CREATE_PRIVATE_THREADS if private else Perm.CREATE_PUBLIC_THREADS
        )
        name = payload.get("name") or ""
        if not 1 <= len(name) <= 100:
            raise _invalid([("name", "must be between 1 and 100 in length")])
        thread = parent.guild.add_thread(parent, name, private=private)
        if message_id is not None:
            # A thread started from a message shares the message's id on Discord; the fake
            # keeps its own id but records the link.
            thread.topic = f"from message {message_id}"
        return _json_response(thread.payload(), 201)

    async def _thread_member_add(self, call: _Call, channel_id: str, user_id: str) -> web.Response:
        thread = self._channel(channel_id)
        if not thread.is_thread:
            raise _error(400, 50024, "Cannot execute action on this channel type")
        uid = self.bot_user.id if user_id == "@me" else _int(user_id)
        if thread.guild is None or uid not in thread.guild.members:
            raise _error(404, 10007, "Unknown Member")
        thread.member_ids.add(uid)
        return _no_content()

    async def _thread_member_remove(
        self, call: _Call, channel_id: str, user_id: str
    ) -> web.Response:
        thread = self._channel(channel_id)
        uid = self.bot_user.id if user_id == "@me" else _int(user_id)
        thread.member_ids.discard(uid)
        return _no_content()

    # -- message bodies

    def _attachment(
        self, channel: FakeChannel, filename: str, data: bytes, ctype: str | None, **kw: Any
    ) -> FakeAttachment:
        att_id = self.ids()
        return FakeAttachment(
            id=att_id,
            filename=filename,
            data=data,
            content_type=ctype,
            url=f"{self.base_url}/attachments/{channel.id}/{att_id}/{quote(filename)}",
            **kw,
        )

    def _message_fields(
        self,
        channel: FakeChannel,
        payload: dict[str, Any],
        files: _Files | list[Any],
        existing: FakeMessage | None,
        *,
        ephemeral: bool = False,
    ) -> dict[str, Any]:
        """The message fields after applying ``payload`` (create when ``existing`` is None)."""
        by_index = files.by_index if isinstance(files, _Files) else {}
        fields: dict[str, Any] = {
            "content": existing.content if existing else "",
            "embeds": list(existing.embeds) if existing else [],
            "components": list(existing.components) if existing else [],
            "attachments": list(existing.attachments) if existing else [],
            "flags": existing.flags if existing else 0,
        }
        if "content" in payload:
            fields["content"] = "" if payload["content"] is None else str(payload["content"])
        if "embeds" in payload:
            fields["embeds"] = payload["embeds"] or []
        if "components" in payload:
            fields["components"] = payload["components"] or []
        if payload.get("flags") is not None:
            settable = (
                MessageFlag.SUPPRESS_EMBEDS
                | MessageFlag.SUPPRESS_NOTIFICATIONS
                | MessageFlag.IS_COMPONENTS_V2
            )
            # IS_COMPONENTS_V2 "can only be set": once on, an edit never takes it off.
            kept = fields["flags"] & (~settable | MessageFlag.IS_COMPONENTS_V2)
            fields["flags"] = kept | (int(payload["flags"]) & settable)
        if "attachments" in payload and payload["attachments"] is not None:
            current = {a.id: a for a in fields["attachments"]}
            new_list: list[FakeAttachment] = []
            for entry in payload["attachments"]:
                ref = _int(entry.get("id"))
                if ref in current:
                    new_list.append(current[ref])
                elif ref in by_index:
                    filename, data, ctype = by_index[ref]
                    new_list.append(
                        self._attachment(
                            channel,
                            entry.get("filename") or filename,
                            data,
                            ctype,
                            description=entry.get("description"),
                            ephemeral=ephemeral,
                        )
                    )
                else:
                    raise _invalid([("attachments", f"unknown attachment id {entry.get('id')}")])
            fields["attachments"] = new_list
        elif by_index:
            fields["attachments"] += [
                self._attachment(channel, name, data, ctype, ephemeral=ephemeral)
                for _, (name, data, ctype) in sorted(by_index.items())
            ]
        problems = validate.check_message(
            {**payload, **fields},
            attachments=len(fields["attachments"]),
            flags=fields["flags"],
            attachment_names=[a.filename for a in fields["attachments"]],
            emoji_usable=functools.partial(self.emoji_usable, channel),
        )
        if problems:
            raise _invalid(problems)
        if fields["flags"] & MessageFlag.IS_COMPONENTS_V2 and "components" in payload:
            attached = {
                a.filename: {
                    "url": a.url,
                    "id": a.id,
                    "content_type": a.content_type,
                    "filename": a.filename,
                    "size": a.size,
                }
                for a in fields["attachments"]
            }
            fields["components"] = layout.as_stored(fields["components"], attached)
        return fields

    def emoji_usable(self, channel: FakeChannel, emoji_id: int) -> bool:
        """Whether the bot may show custom emoji ``emoji_id`` in ``channel`` (``emojis.py``)."""
        return self.emojis.usable(emoji_id, channel.guild, self.bot_user.id)

    def _note_broken_references(self, msg: FakeMessage) -> None:
        if msg.author.id != self.bot_user.id:
            return  # a person may type any emoji markdown; only the bot's are checked
        self.broken_references += broken_references(
            msg.id,
            msg.content,
            # Only a V2 message has text displays and media (validation saw to it).
            msg.components if msg.is_components_v2 else [],
            self.emojis,
            functools.partial(self.emoji_usable, msg.channel),
            local_base=self._local_base(),
        )

    def _local_base(self) -> str | None:
        listening = self._listener is not None and self._listener.port is not None
        return self.base_url if listening else None

    async def _create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        payload: dict[str, Any],
        files: _Files | list[Any],
        *,
        ephemeral_for: FakeUser | None = None,
        interaction: InteractionResult | None = None,
        msg_type: int = 0,
        reference: dict[str, Any] | None = None,
        loading: bool = False,
    ) -> FakeMessage:
        if loading:
            fields: dict[str, Any] = {
                "content": "",
                "embeds": [],
                "components": [],
                "attachments": [],
                "flags": MessageFlag.LOADING,
            }
        else:
            fields = self._message_fields(
                channel, payload, files, None, ephemeral=ephemeral_for is not None
            )
        flags = fields.pop("flags")
        if ephemeral_for is not None:
            flags |= MessageFlag.EPHEMERAL
        now = self.clock.now()
        msg = FakeMessage(
            id=self.ids(),
            created_at=now,
            timestamp=iso(now),
            channel=channel,
            author=author,
            flags=flags,
            type=msg_type,
            ephemeral_for=ephemeral_for,
            interaction=interaction,
            webhook_id=self.application.id if interaction is not None else None,
            reference=reference,
            tts=bool(payload.get("tts")),
            **fields,
        )
        msg.history.append(msg.snapshot(now))
        if not loading:
            text = msg.text() if msg.is_components_v2 else msg.content
            msg.notified = _notified(payload, text, channel)
            self._note_broken_references(msg)
        channel.messages[msg.id] = msg
        self.messages[msg.id] = msg
        if ephemeral_for is None and not loading:
            await self._message_event("MESSAGE_CREATE", msg)
        return msg

    async def _edit_message(
        self, msg: FakeMessage, payload: dict[str, Any], files: _Files | list[Any]
    ) -> None:
        fields = self._message_fields(msg.channel, payload, files, msg, ephemeral=msg.ephemeral)
        was_loading = msg.loading
        for key, value in fields.items():
            setattr(msg, key, value)
        msg.flags &= ~MessageFlag.LOADING
        now = self.clock.now()
        msg.edited_timestamp = None if was_loading else iso(now)
        msg.history.append(msg.snapshot(now))
        self._note_broken_references(msg)
        if msg.ephemeral_for is None:
            await self._message_event("MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE", msg)
        self._bump()

    async def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        msg.history.append(msg.snapshot(self.clock.now()))
        if msg.ephemeral_for is None and not msg.loading:
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if msg.channel.guild is not None:
                data["guild_id"] = str(msg.channel.guild.id)
            await self._dispatch_for_intent(
                "MESSAGE_DELETE",
                data,
                GUILD_MESSAGES_INTENT if msg.channel.guild else DIRECT_MESSAGES_INTENT,
            )
        self._bump()

    async def _message_event(self, event: str, msg: FakeMessage) -> None:
        guild = msg.channel.guild
        data = msg.payload()
        session = self.session_for(guild.id if guild is not None else None)
        if session is None:
            return
        if (
            msg.author.id != self.bot_user.id
            and not session.intents & MESSAGE_CONTENT_INTENT
            and self.bot_user.mention not in msg.content
        ):
            data.update(content="", embeds=[], attachments=[], components=[])
        if guild is not None:
            member = guild.members.get(msg.author.id)
            if member is not None:
                m = member.payload()
                m.pop("user")
                data["member"] = m
        intent = GUILD_MESSAGES_INTENT if guild is not None else DIRECT_MESSAGES_INTENT
        await self._dispatch_for_intent(event, data, intent)

    async def _dispatch_for_intent(self, event: str, data: dict[str, Any], intent: int) -> None:
        session = self.session_for(_guild_id_of(event, data))
        if session is not None and session.intents & intent:
            await self._dispatch(event, data, session=session)

    # -- interaction callbacks

    def _interaction(self, interaction_id: str | None, token: str) -> InteractionResult:
        result = self._tokens.get(token)
        if result is None or (interaction_id is not None and str(result.id) != interaction_id):
            raise _error(404, 10062, "Unknown interaction")
        return result

    async def _callback(self, call: _Call, interaction_id: str, token: str) -> web.Response:
        result = self._interaction(interaction_id, token)
        now = self.clock.monotonic()
        payload = call.body or {}
        kind = payload.get("type")
        data = payload.get("data") or {}
        attempt: dict[str, Any] = {
            "type": kind,
            "at": now,
            "after": now - (result.dispatched_at or now),
        }
        result.callbacks.append(attempt)
        if result.responded:
            attempt.update(status=400, code=40060)
            raise _error(400, 40060, "Interaction has already been acknowledged.")
        if (
            self.interaction_deadline is not None
            and result.dispatched_at is not None
            and now - result.dispatched_at > self.interaction_deadline
        ):
            attempt.update(status=404, code=10062, late=True)
            raise _error(404, 10062, "Unknown interaction")
        allowed = ALLOWED_CALLBACKS.get(result.type, set())
        if result.type == 5 and result.source_message is None:
            allowed = allowed - {6, 7}
        if kind not in allowed:
            attempt.update(status=400, code=50035)
            raise _invalid(
                [("type", f"callback type {kind} is invalid for interaction type {result.type}")]
            )
        ephemeral = bool(int(data.get("flags") or 0) & MessageFlag.EPHEMERAL)
        slash = result.type == 2
        if kind == 4:
            result.original = await self._create_message(
                result.channel,
                self.bot_user,
                data,
                call.files,
                ephemeral_for=result.user if ephemeral else None,
                interaction=result,
                msg_type=20 if slash else 0,
            )
        elif kind == 5:
            result.original = await self._create_message(
                result.channel,
                self.bot_user,
                {},
                [],
                ephemeral_for=result.user if ephemeral else None,
                interaction=result,
                msg_type=20 if slash else 0,
                loading=True,
            )
        elif kind == 6:
            result.original = result.source_message
        elif kind == 7:
            assert result.source_message is not None
            await self._edit_message(result.source_message, data, call.files)
            result.original = result.source_message
        elif kind == 8:
            option_type = _focused_type(result, self)
            problems = validate.check_choices(data.get("choices", []), option_type)
            if problems:
                attempt.update(status=400, code=50035)
                raise _invalid(problems)
            result.choices = list(data.get("choices", []))
        elif kind == 9:
            problems = validate.check_modal(data)
            if problems:
                attempt.update(status=400, code=50035)
                raise _invalid(problems)
            result.modal = data
        attempt.update(status=200)
        result.response_type = kind
        result.response_data = data
        result.responded_at = now
        result.completed = kind not in (5, 6)  # a deferral is completed by what follows
        self._bump()
        if call.request.query.get("with_response", "").lower() not in ("1", "true"):
            return _no_content()
        return _json_response(self._callback_body(result, kind))

    def _callback_body(self, result: InteractionResult, kind: int) -> dict[str, Any]:
        info: dict[str, Any] = {"id": str(result.id), "type": result.type}
        body: dict[str, Any] = {"interaction": info}
        msg = result.original if kind in (4, 5, 7) else None
        if msg is not None:
            info.update(
                response_message_id=str(msg.id),
                response_message_loading=kind == 5,
                response_message_ephemeral=msg.ephemeral,
            )
            body["resource"] = {"type": kind, "message": msg.payload()}
        return body

    # -- followups (the interaction webhook)

    def _webhook(self, app_id: str, token: str) -> InteractionResult:
        if _int(app_id) != self.application.id:
            raise _error(404, 10015, "Unknown Webhook")
        result = self._tokens.get(token)
        if result is None:
            raise _error(404, 10015, "Unknown Webhook")
        expires = result.token_expires_at
        if expires is not None and self.clock.monotonic() >= expires:
            raise _error(401, 50027, "Invalid Webhook Token")
        if not result.responded:
            raise _error(404, 10015, "Unknown Webhook")
        return result

    def _webhook_message(self, result: InteractionResult, message_id: str) -> FakeMessage:
        if message_id == "@original":
            msg = result.original
        else:
            msg = next((m for m in result.messages if str(m.id) == message_id), None)
        if msg is None or msg.deleted:
            raise _error(404, 10008, "Unknown Message")
        return msg

    async def _followup(self, call: _Call, app_id: str, token: str) -> web.Response:
        result = self._webhook(app_id, token)
        payload = call.body or {}
        original = result.original
        if original is not None and original.loading and result.response_type == 5:
            # The first followup after a "thinking" defer fills in the deferred message.
            await self._edit_message(original, payload, call.files)
            msg = original
        else:
            ephemeral = bool(int(payload.get("flags") or 0) & MessageFlag.EPHEMERAL)
            msg = await self._create_message(
                result.channel,
                self.bot_user,
                payload,
                call.files,
                ephemeral_for=result.user if ephemeral else None,
                interaction=result,
                msg_type=20 if result.type == 2 else 0,
            )
            result.followups.append(msg)
        result.completed = True
        self._bump()
        if call.request.query.get("wait", "").lower() in ("1", "true"):
            return _json_response(msg.payload())
        return _no_content()

    async def _get_webhook_message(
        self, call: _Call, app_id: str, token: str, message_id: str
    ) -> web.Response:
        result = self._webhook(app_id, token)
        return _json_response(self._webhook_message(result, message_id).payload())

    async def _patch_webhook_message(
        self, call: _Call, app_id: str, token: str, message_id: str
    ) -> web.Response:
        result = self._webhook(app_id, token)
        msg = self._webhook_message(result, message_id)
        await self._edit_message(msg, call.body or {}, call.files)
        result.completed = True
        return _json_response(msg.payload())

    async def _delete_webhook_message(
        self, call: _Call, app_id: str, token: str, message_id: str
    ) -> web.Response:
        result = self._webhook(app_id, token)
        msg = self._webhook_message(result, message_id)
        await self._delete(msg)
        result.completed = True
        return _no_content()


_USER_MENTION = re.compile(r"<@!?(\d+)>")


def _notified(payload: dict[str, Any], text: str, channel: FakeChannel) -> list[int]:
    """Who a new message notifies: the users its ``text`` (content, or a V2 message's text
    displays, which ping alike) mentions that ``allowed_mentions`` lets ping (absent: every
    mention pings; ``parse`` without "users": only ``users``), and who can see the channel.
    Roles and @everyone are not modelled (the bot never pings them)."""
    mentioned = [int(m) for m in _USER_MENTION.findall(text)]
    allowed = payload.get("allowed_mentions")
    if allowed is not None and "users" not in (allowed.get("parse") or []):
        listed = {int(u) for u in allowed.get("users") or []}
        mentioned = [u for u in mentioned if u in listed]
    guild = channel.guild
    seen = [u for u in mentioned if guild is None or u in guild.members]
    return list(dict.fromkeys(seen))


def _focused_type(result: InteractionResult, fake: FakeDiscord) -> int:
    """The option type of the focused option of an autocomplete interaction."""
    data = result.payload.get("data") or {}
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        options = options[0].get("options") or []
    focused = next((o for o in options if o.get("focused")), None)
    return int(focused["type"]) if focused else 3


def _guild_id_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild a gateway event is about (None: a direct message or no guild)."""
    if "guild_id" in data and data["guild_id"] is not None:
        return int(data["guild_id"])
    if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        return int(data["id"])
    return None


def _as_user(user: FakeUser | FakeMember) -> FakeUser:
    return user.user if isinstance(user, FakeMember) else user


def _code(record: RecordedRequest) -> int | None:
    """The Discord JSON error code of a recorded answer, if it had one."""
    response = record.response
    return response.get("code") if isinstance(response, dict) else None


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


# Re-exported for ``from fakediscord.server import Upload`` convenience.
__all__ += ["CommandError", "Upload", "UserActionError"]
