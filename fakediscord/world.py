"""The fake Discord's world: users, guilds, roles, channels, threads, members and messages.

Everything here is plain data plus the JSON payloads Discord would send for it (API v10 shapes,
as discord.py 2.x parses them). The server (``server.py``) owns one :class:`World`-like set of
these objects and mutates them when the bot calls REST routes.
"""

from __future__ import annotations

import datetime as dt
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import layout
from .layout import walk_components

if TYPE_CHECKING:
    from .emojis import FakeEmoji
    from .server import FakeDiscord, InteractionResult

DISCORD_EPOCH_MS = 1_420_070_400_000


class Perm:
    """Permission bits (https://discord.com/developers/docs/topics/permissions)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    ALL = (1 << 51) - 1

    EVERYONE_DEFAULT = (
        CREATE_INSTANT_INVITE
        | ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    BOT_DEFAULT = (
        EVERYONE_DEFAULT
        | MANAGE_MESSAGES
        | MANAGE_THREADS
        | CREATE_PRIVATE_THREADS
        | MENTION_EVERYONE
    )


class ChannelType:
    GUILD_TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    THREADS = (11, 12)


class MessageFlag:
    CROSSPOSTED = 1 << 0
    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


class SnowflakeGenerator:
    """Real, time-based, strictly increasing snowflakes (discord.py reads times out of ids).

    ``now`` gives the epoch seconds to stamp them with: the fake's clock, so an id made after
    ``fake.clock.advance(3600)`` is an hour younger, as Discord's would be.
    """

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self._now = now
        self._last = 0
        self._counter = itertools.count()

    def __call__(self, shard: tuple[int, int] | None = None) -> int:
        """The next id; with ``shard=(id, count)``, the next one Discord routes to that shard
        (``(snowflake >> 22) % count == id``: its millisecond, at most ``count`` - 1 ahead)."""
        ms = max(int(self._now() * 1000) - DISCORD_EPOCH_MS, self._last >> 22)
        if shard is not None:
            wanted, count = shard
            if not 0 <= wanted < count:
                raise ValueError(f"shard {wanted} is not one of {count}")
            ms += (wanted - ms) % count
        value = (ms << 22) | (1 << 17) | (next(self._counter) & 0xFFF)
        if value <= self._last:
            if shard is not None:
                ms += count  # this millisecond's ids are used up up to _last
                value = (ms << 22) | (1 << 17) | (next(self._counter) & 0xFFF)
            else:
                value = self._last + 1
        self._last = value
        return value


def snowflake_time(snowflake: int) -> dt.datetime:
    """When ``snowflake`` was made (UTC)."""
    return dt.datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=dt.UTC)


def iso(moment: dt.datetime | float | None = None) -> str:
    """An ISO-8601 timestamp as Discord writes them (``moment``: a datetime or epoch seconds)."""
    if isinstance(moment, float | int):
        moment = dt.datetime.fromtimestamp(moment, tz=dt.UTC)
    return (moment or dt.datetime.now(tz=dt.UTC)).isoformat()


# --------------------------------------------------------------------------- users and guilds


@dataclass(eq=False)
class FakeUser:
    """A Discord account. ``locale`` is the client language sent with each interaction."""

    id: int
    name: str
    global_name: str | None = None
    locale: str = "en-US"
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} {self.id}>"


@dataclass(eq=False)
class FakeRole:
    id: int
    guild: FakeGuild
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    managed: bool = False
    mentionable: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": self.hoist,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<FakeRole {self.name} {self.id}>"


@dataclass(eq=False)
class FakeMember:
    """A user's membership of a guild (roles, nickname, permissions)."""

    user: FakeUser
    guild: FakeGuild
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def permissions(self) -> int:
        """Guild-level permissions (channel overwrites are not modelled)."""
        if self.user.id == self.guild.owner_id:
            return Perm.ALL
        value = self.guild.everyone_role.permissions
        for role_id in self.role_ids:
            role = self.guild.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        if value & Perm.ADMINISTRATOR:
            return Perm.ALL
        return value

    def has(self, permission: int) -> bool:
        return self.permissions & permission == permission

    def payload(self, *, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.user.payload(),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.role_ids],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data

    def __repr__(self) -> str:
        return f"<FakeMember {self.user.name} of {self.guild.name}>"


@dataclass(eq=False)
class FakeChannel:
    """A text channel, a thread (public or private) or a DM channel."""

    id: int
    name: str
    type: int
    guild: FakeGuild | None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    owner_id: int | None = None
    #: for private threads: who is in it; for DMs: the recipient.
    member_ids: set[int] = field(default_factory=set)
    messages: dict[int, FakeMessage] = field(default_factory=dict)

    @property
    def is_thread(self) -> bool:
        return self.type in ChannelType.THREADS

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def add_thread(
        self, name: str, *, private: bool = False, members: tuple[Any, ...] = ()
    ) -> FakeChannel:
        """A thread under this text channel (see :meth:`FakeGuild.add_thread`)."""
        if self.guild is None:
            raise ValueError("threads live in guild text channels")
        return self.guild.add_thread(self, name, private=private, members=members)

    def can_see(self, user: FakeUser) -> bool:
        """Whether ``user`` can read this channel (channel overwrites are not modelled)."""
        if self.type == ChannelType.DM:
            return user.id in self.member_ids
        if self.guild is None or user.id not in self.guild.members:
            return False
        if self.type == ChannelType.PRIVATE_THREAD:
            member = self.guild.members[user.id]
            return user.id in self.member_ids or member.has(Perm.MANAGE_THREADS)
        return True

    @property
    def last_message_id(self) -> int | None:
        return max(self.messages) if self.messages else None

    def payload(self) -> dict[str, Any]:
        last = self.last_message_id
        if self.type == ChannelType.DM:
            recipients = []
            if self.guild is None and self._fake is not None:
                recipients = [
                    self._fake.users[uid].payload()
                    for uid in self.member_ids
                    if uid in self._fake.users
                ]
            return {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": str(last) if last else None,
                "recipients": recipients,
                "flags": 0,
            }
        assert self.guild is not None
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": str(last) if last else None,
            "rate_limit_per_user": 0,
            "flags": 0,
            "nsfw": False,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id or 0),
                message_count=len(self.messages),
                total_message_sent=len(self.messages),
                member_count=max(1, len(self.member_ids)),
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso(snowflake_time(self.id)),
                    "locked": False,
                    "invitable": True,
                    "create_timestamp": iso(snowflake_time(self.id)),
                },
            )
        else:
            data.update(
                position=self.position,
                permission_overwrites=[],
                topic=self.topic,
                default_auto_archive_duration=1440,
            )
        return data

    _fake: FakeDiscord | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return f"<FakeChannel #{self.name} {self.id} type={self.type}>"


@dataclass(eq=False)
class FakeGuild:
    """A server. Build it with :meth:`FakeDiscord.add_guild`, then add channels and members."""

    id: int
    name: str
    owner_id: int
    fake: FakeDiscord = field(repr=False)
    preferred_locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    joined_at: str = field(default_factory=iso)

    @property
    def everyone_role(self) -> FakeRole:
        return self.roles[self.id]

    @property
    def bot_member(self) -> FakeMember:
        return self.members[self.fake.bot_user.id]

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.type == ChannelType.GUILD_TEXT]

    @property
    def threads(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.is_thread]

    def add_role(
        self, name: str, *, permissions: int = 0, managed: bool = False, color: int = 0
    ) -> FakeRole:
        role = FakeRole(
            id=self.fake.ids(),
            guild=self,
            name=name,
            permissions=permissions,
            position=len(self.roles),
            managed=managed,
            color=color,
        )
        self.roles[role.id] = role
        self.fake._world_changed(
            "GUILD_ROLE_CREATE", {"guild_id": str(self.id), "role": role.payload()}
        )
        return role

    def add_text_channel(self, name: str, *, topic: str | None = None) -> FakeChannel:
        channel = FakeChannel(
            id=self.fake.ids(),
            name=name,
            type=ChannelType.GUILD_TEXT,
            guild=self,
            position=len(self.text_channels),
            topic=topic,
            _fake=self.fake,
        )
        self.channels[channel.id] = channel
        self.fake.channels[channel.id] = channel
        self.fake._world_changed("CHANNEL_CREATE", channel.payload())
        return channel

    def add_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        private: bool = False,
        members: tuple[Any, ...] = (),
        owner: FakeUser | None = None,
    ) -> FakeChannel:
        """A thread in ``parent``; a private thread is visible to ``members`` (and managers)."""
        if parent.type != ChannelType.GUILD_TEXT or parent.guild is not self:
            raise ValueError("a thread's parent must be a text channel of this guild")
        thread = FakeChannel(
            id=self.fake.ids(),
            name=name,
            type=ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD,
            guild=self,
            parent_id=parent.id,
            owner_id=(owner or self.fake.bot_user).id,
            member_ids={_user_of(m).id for m in members} | {(owner or self.fake.bot_user).id},
            _fake=self.fake,
        )
        self.channels[thread.id] = thread
        self.fake.channels[thread.id] = thread
        self.fake._world_changed("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    def add_member(
        self,
        user: FakeUser,
        *,
        roles: tuple[FakeRole, ...] | list[FakeRole] = (),
        nick: str | None = None,
        manage_guild: bool = False,
        administrator: bool = False,
    ) -> FakeMember:
        """Make ``user`` a member; ``manage_guild=True`` gives a role with Manage Server."""
        role_ids = [r.id for r in roles]
        if manage_guild:
            role_ids.append(self._special_role("Manager", Perm.MANAGE_GUILD).id)
        if administrator:
            role_ids.append(self._special_role("Admin", Perm.ADMINISTRATOR).id)
        member = FakeMember(user=user, guild=self, role_ids=role_ids, nick=nick)
        self.members[user.id] = member
        if user.id not in self.fake.users:
            self.fake.users[user.id] = user
        self.fake._world_changed(
            "GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(self.id)}, intent=1 << 1
        )
        return member

    def add_emoji(self, name: str, image: bytes) -> FakeEmoji:
        """A custom emoji of this guild (``image``: PNG, JPEG, GIF, WebP or AVIF bytes); the
        bot may use it here, and in other guilds where it has Use External Emojis."""
        emoji = self.fake.emojis.add_guild_emoji(self, name, image)
        self.fake._world_changed(
            "GUILD_EMOJIS_UPDATE",
            {
                "guild_id": str(self.id),
                "emojis": [e.payload() for e in self.fake.emojis.of_guild(self)],
            },
            intent=1 << 3,  # GUILD_EXPRESSIONS
        )
        return emoji

    def member(self, user: FakeUser | FakeMember | int) -> FakeMember:
        uid = user if isinstance(user, int) else _user_of(user).id
        try:
            return self.members[uid]
        except KeyError:
            raise LookupError(f"user {uid} is not a member of guild {self.name!r}") from None

    def _special_role(self, name: str, permissions: int) -> FakeRole:
        for role in self.roles.values():
            if role.name == name and role.permissions == permissions:
                return role
        return self.add_role(name, permissions=permissions)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [e.payload() for e in self.fake.emojis.of_guild(self)],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.preferred_locale,
            "nsfw_level": 0,
        }

    def create_payload(self, *, for_user: FakeUser) -> dict[str, Any]:
        """The GUILD_CREATE payload, as the bot ``for_user`` receives it."""
        return {
            **self.payload(),
            "joined_at": self.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [
                c.payload() for c in self.channels.values() if c.is_thread and c.can_see(for_user)
            ],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name} {self.id}>"


def _user_of(who: Any) -> FakeUser:
    if isinstance(who, FakeUser):
        return who
    if isinstance(who, FakeMember):
        return who.user
    raise TypeError(f"expected a FakeUser or FakeMember, not {type(who).__name__}")


# --------------------------------------------------------------------------- messages


@dataclass(eq=False)
class FakeAttachment:
    """A file on a message; ``data`` holds the uploaded bytes."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.ephemeral:
            data["ephemeral"] = True
        return data


class Layout:
    """Reading a message's components as a user would (``FakeMessage``, ``MessageVersion``).

    The same for legacy messages and Components V2 ones: buttons and selects are found
    nested in containers, sections and rows alike. See ``layout.py``.
    """

    content: str
    components: list[dict[str, Any]]
    flags: int

    @property
    def is_components_v2(self) -> bool:
        """Whether the message is laid out with Components V2 (flag ``1 << 15``)."""
        return bool(self.flags & MessageFlag.IS_COMPONENTS_V2)

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every component, depth first in reading order."""
        return walk_components(self.components)

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """The component with ``custom_id``, or None."""
        for component in self.iter_components():
            if component.get("custom_id") == custom_id:
                return component
        return None

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") == layout.Kind.BUTTON]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") in layout.Kind.SELECTS]

    def button(self, label: str) -> dict[str, Any]:
        """The button labelled ``label`` (exactly); raises LookupError if none."""
        for b in self.buttons:
            if b.get("label") == label:
                return b
        raise LookupError(f"no button {label!r}; buttons: {[b.get('label') for b in self.buttons]}")

    def select_values(self, custom_id: str) -> list[str]:
        """The option values of the string select ``custom_id`` ([] if none)."""
        select = self.component(custom_id) or {}
        return [o["value"] for o in select.get("options") or []]

    def texts(self) -> list[str]:
        """The text displays' contents in reading order (a V2 message's text)."""
        return layout.texts(self.components)

    def text(self) -> str:
        """What the message says in words: its content, or its text displays, one per line."""
        return "\n".join(p for p in [self.content, *self.texts()] if p)

    def plain_text(self) -> str:
        """:meth:`text` with custom emojis as ``:name:`` (``"Top card :uno_r7:"``)."""
        return layout.plain(self.text())

    @property
    def accent_color(self) -> int | None:
        """The first container's accent colour (None: no container, or no accent)."""
        colours = self.accent_colors()
        return colours[0] if colours else None

    def accent_colors(self) -> list[int | None]:
        """Each container's accent colour, in reading order."""
        return layout.accent_colors(self.components)

    def thumbnails(self) -> list[str]:
        """The thumbnails' image URLs, in reading order."""
        return layout.thumbnails(self.components)

    def media_urls(self) -> list[str]:
        """Every media URL shown (thumbnails, gallery items, files), in reading order."""
        return layout.media_urls(self.components)

    def emoji_ids(self) -> list[int]:
        """The custom emoji ids the message uses (content, text displays, buttons, options)."""
        return layout.emoji_ids(self.content, self.components)


@dataclass(frozen=True)
class MessageVersion(Layout):
    """What a message looked like from one moment on (messages keep every version).

    ``at`` is when it began to show, in epoch seconds on the fake clock (``fake.clock.now()``,
    which is ``time.time()`` in the bot process, so it compares with times the bot stored).
    """

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[FakeAttachment]
    flags: int
    deleted: bool = False
    at: float = 0.0

    @property
    def loading(self) -> bool:
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def shown(self) -> bool:
        """Whether users see this version (not deleted, not a "thinking" placeholder)."""
        return not self.deleted and not self.loading

    def all_text(self) -> str:
        return text_of(self.content, self.embeds, self.components, self.attachments)


def embed_text(embed: dict[str, Any]) -> str:
    parts = [embed.get("title"), embed.get("description")]
    for key in ("author", "footer"):
        if isinstance(embed.get(key), dict):
            parts.append(embed[key].get("name") or embed[key].get("text"))
    for f in embed.get("fields") or []:
        parts.extend([f.get("name"), f.get("value")])
    return "\n".join(p for p in parts if p)


def text_of(
    content: str,
    embeds: list[dict[str, Any]],
    components: list[dict[str, Any]],
    attachments: list[FakeAttachment],
) -> str:
    """Everything a user reads on a message, as one string (for leak checks): content, embeds,
    every text display, button label, select placeholder and option, media alt text (nested
    in containers and sections too) and attachment names."""
    parts = [content]
    parts.extend(embed_text(e) for e in embeds)
    for c in walk_components(components):
        parts.extend(str(c[k]) for k in ("label", "placeholder", "content", "title") if c.get(k))
        for option in c.get("options") or []:
            parts.extend(str(option[k]) for k in ("label", "description") if option.get(k))
        parts.extend(layout.alt_texts(c))  # what a screen reader reads out
    parts.extend(a.filename for a in attachments)
    return "\n".join(p for p in parts if p)


@dataclass(eq=False)
class FakeMessage(Layout):
    """A message; ``ephemeral_for`` is the only user who can see it, when it is ephemeral."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    ephemeral_for: FakeUser | None = None
    interaction: InteractionResult | None = None
    webhook_id: int | None = None
    reference: dict[str, Any] | None = None
    tts: bool = False
    timestamp: str = field(default_factory=iso)
    edited_timestamp: str | None = None
    deleted: bool = False
    #: Every version, oldest first, each with the fake time it began to show (``.at``).
    history: list[MessageVersion] = field(default_factory=list)
    #: When it was posted: epoch seconds on the fake clock.
    created_at: float = field(default_factory=time.time)
    #: Fake times of the edits counted against Discord's cap on editing messages older than
    #: an hour (the server keeps only those of the last hour).
    old_edits: list[float] = field(default_factory=list, repr=False)
    #: The users this message notified when it was posted: the ones its content mentions and
    #: its ``allowed_mentions`` lets ping. An edit never notifies anyone (as in Discord).
    notified: list[int] = field(default_factory=list)

    # -- views for tests

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred ("thinking") response that has not been filled in yet."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def guild(self) -> FakeGuild | None:
        return self.channel.guild

    def visible_to(self, user: FakeUser | FakeMember) -> bool:
        who = _user_of(user)
        if self.ephemeral_for is not None:
            return who.id == self.ephemeral_for.id
        return self.channel.can_see(who)

    def all_text(self) -> str:
        """Content, embed text, component labels/options and attachment names, one blob."""
        return text_of(self.content, self.embeds, self.components, self.attachments)

    def snapshot(self, at: float | None = None) -> MessageVersion:
        """The message as it is now (``at``: when this version began; default: the time of
        the latest recorded version)."""
        if at is None:
            at = self.history[-1].at if self.history else self.created_at
        return MessageVersion(
            content=self.content,
            embeds=list(self.embeds),
            components=list(self.components),
            attachments=list(self.attachments),
            flags=self.flags,
            deleted=self.deleted,
            at=at,
        )

    # -- its history, for convergence checks

    def version_at(self, moment: float) -> MessageVersion | None:
        """The version users saw at fake time ``moment`` (None: not posted yet)."""
        current = None
        for version in self.history:
            if version.at > moment:
                break
            current = version
        return current

    def shown_at(
        self, wanted: Callable[[MessageVersion], bool], *, since: float | None = None
    ) -> float | None:
        """From when on (fake epoch seconds) users saw a version ``wanted`` accepts, looking
        from ``since`` on: ``since`` itself if the version shown then is one, else when the
        first later one began; None if no such version was ever shown. Deleted and
        "thinking" versions are never shown.

        The lag of a message behind a state stored at ``t``:
        ``(message.shown_at(lambda v: name in v.all_text(), since=t) or fake.clock.now()) - t``.
        """
        start = self.created_at if since is None else since
        current = self.version_at(start)
        if current is not None and current.shown and wanted(current):
            return start
        for version in self.history:
            if version.at > start and version.shown and wanted(version):
                return version.at
        return None

    def payload(self) -> dict[str, Any]:
        guild = self.channel.guild
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": [{"type": "rich", **e} for e in self.embeds],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if guild is not None and self.ephemeral_for is None:
            data["guild_id"] = str(guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.reference is not None:
            data["message_reference"] = self.reference
        if self.interaction is not None:
            i = self.interaction
            meta: dict[str, Any] = {
                "id": str(i.id),
                "type": i.type,
                "user": i.user.payload(),
                "authorizing_integration_owners": i.payload.get(
                    "authorizing_integration_owners", {}
                ),
            }
            if i.type == 2:
                meta["name"] = i.name
                meta["command_type"] = 1
            if i.source_message is not None:
                meta["interacted_message_id"] = str(i.source_message.id)
            if i.original is not None and i.original is not self:
                meta["original_response_message_id"] = str(i.original.id)
            data["interaction_metadata"] = meta
        return data

    def __repr__(self) -> str:
        tag = " ephemeral" if self.ephemeral else ""
        return f"<FakeMessage {self.id} in #{self.channel.name}{tag} {self.content[:40]!r}>"
