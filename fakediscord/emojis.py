"""Custom emojis: the application's own, guilds' emojis, and the CDN that serves their images.

Application emojis (discord.py 2.5+: ``Client.fetch_application_emojis``,
``create_application_emoji(name=, image=)``, ``fetch_application_emoji``, ``Emoji.edit``,
``Emoji.delete``) live on these routes, as documented in the emoji resource
(https://discord.com/developers/docs/resources/emoji):

* ``GET /applications/{application_id}/emojis`` answers ``{"items": [emoji, ...]}``;
* ``POST /applications/{application_id}/emojis`` with ``{"name", "image"}`` answers 201 and
  the new emoji; ``GET``/``PATCH`` (``{"name"}`` only)/``DELETE`` on ``.../emojis/{emoji_id}``.

What the fake enforces, and how it answers:

* ``name``: 2 to 32 characters of ``[A-Za-z0-9_]``, unique in the application: 400 50035
  with ``name`` errors, ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN`` for a taken name (the code
  bots check for, as seen in the wild).
* ``image``: a data URI (``data:image/png;base64,...``) of a PNG, JPEG, GIF, WebP or AVIF
  (the formats the emoji resource lists), at most 256 KiB decoded: 400 50035 on ``image``
  (``BINARY_TYPE_MAX_SIZE`` for a large one; the docs only promise "400 and an error
  message", this is the shape guild emoji uploads are known to get).
* 2000 emojis per application: the next create answers 400 30008 "Maximum number of emojis
  reached" (the JSON code Discord lists for emoji limits).
* An unknown emoji id answers 404 10014 "Unknown Emoji"; another application's id 403 50001.

Images are served on the fake's base URL as the CDN serves them,
``{fake.base_url}/emojis/{emoji_id}.{png|webp|gif|jpg}`` (the bytes uploaded, whatever the
extension asked for); each such fetch is in ``fake.cdn_requests``. discord.py builds emoji
URLs on ``https://cdn.discordapp.com`` (``Emoji.url``), which the launcher does not let the bot
reach: :func:`emoji_id_of_url` and ``fake.resolve_media(url)`` map such a URL (or
``media.discordapp.net``'s) to the emoji the fake stores.

Which custom emojis the bot may use in a message (``EmojiStore.usable``): its application's,
anywhere (they need no permission); a guild's, when the bot is a member of that guild and
the message is in it, or elsewhere when the bot has Use External Emojis there (for a
message in a DM: always). Channel overwrites are not modelled.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import layout
from .replies import error
from .world import Perm

if TYPE_CHECKING:
    from .world import FakeGuild, FakeUser

__all__ = ["BrokenReference", "EmojiStore", "FakeEmoji", "broken_references", "emoji_id_of_url"]

#: What an application may own, and how large an emoji image may be (the emoji resource).
MAX_APPLICATION_EMOJIS = 2000
MAX_EMOJI_BYTES = 256 * 1024
NAME = re.compile(r"[A-Za-z0-9_]+")
CDN = "https://cdn.discordapp.com"
#: An emoji's picture on Discord's CDN (or its media proxy), any size or format asked.
EMOJI_URL = re.compile(
    r"^https?://(?:cdn\.discordapp\.com|media\.discordapp\.net)/emojis/(\d+)\.(\w+)(?:\?.*)?$"
)
_DATA_URI = re.compile(r"^data:(image/[\w.+-]+);base64,(.*)$", re.DOTALL)


def sniff_image(data: bytes) -> str | None:
    """The content type of ``data`` if it is an image format emojis take, else None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "image/webp"
    if data[4:12] in (b"ftypavif", b"ftypavis"):
        return "image/avif"
    return None


def emoji_id_of_url(url: str) -> int | None:
    """The emoji id of a CDN URL of an emoji picture, else None."""
    found = EMOJI_URL.match(url or "")
    return int(found.group(1)) if found else None


@dataclass(eq=False)
class FakeEmoji:
    """A custom emoji: the application's (``guild`` None) or a guild's; ``data`` its image."""

    id: int
    name: str
    data: bytes
    content_type: str
    user: FakeUser | None = None
    guild: FakeGuild | None = None
    animated: bool = False

    @property
    def markdown(self) -> str:
        """How a message writes it: ``<:name:id>`` (``<a:name:id>`` when animated)."""
        return f"<{'a' if self.animated else ''}:{self.name}:{self.id}>"

    def url(self, fmt: str | None = None) -> str:
        """Its picture on Discord's CDN, as discord.py's ``Emoji.url`` builds it."""
        return f"{CDN}/emojis/{self.id}.{fmt or ('gif' if self.animated else 'png')}"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "require_colons": True,
            "managed": False,
            "animated": self.animated,
            "available": True,
        }
        if self.user is not None:
            data["user"] = self.user.payload()
        return data

    def __repr__(self) -> str:
        owner = f"guild {self.guild.name}" if self.guild is not None else "application"
        return f"<FakeEmoji {self.markdown} of {owner}>"


@dataclass(eq=False)
class EmojiStore:
    """Every custom emoji of the fake Discord (``fake.emojis``)."""

    ids: Callable[[], int] = field(repr=False)
    uploader: FakeUser  # the bot user: the ``user`` of emojis uploaded through the API
    limit: int = MAX_APPLICATION_EMOJIS
    #: The application's emojis, oldest first.
    application: dict[int, FakeEmoji] = field(default_factory=dict)
    #: Guild emojis (``guild.add_emoji``).
    guilds: dict[int, FakeEmoji] = field(default_factory=dict)

    # -- reading

    def get(self, emoji_id: int) -> FakeEmoji | None:
        """The emoji with this id, the application's or a guild's."""
        return self.application.get(emoji_id) or self.guilds.get(emoji_id)

    def named(self, name: str) -> FakeEmoji | None:
        """The application's emoji called ``name``."""
        return next((e for e in self.application.values() if e.name == name), None)

    def of_guild(self, guild: FakeGuild) -> list[FakeEmoji]:
        return [e for e in self.guilds.values() if e.guild is guild]

    def from_url(self, url: str) -> FakeEmoji | None:
        """The emoji a CDN URL shows (None: not an emoji URL, or no such emoji)."""
        emoji_id = emoji_id_of_url(url)
        return self.get(emoji_id) if emoji_id is not None else None

    def usable(self, emoji_id: int, where: FakeGuild | None, bot_id: int) -> bool:
        """Whether the bot may show this emoji in a message in guild ``where`` (None: a DM)."""
        emoji = self.get(emoji_id)
        if emoji is None:
            return False
        if emoji.guild is None:
            return True
        member = emoji.guild.members.get(bot_id)
        if member is None:
            return False
        if where is None or where is emoji.guild:
            return True
        here = where.members.get(bot_id)
        return here is not None and here.has(Perm.USE_EXTERNAL_EMOJIS)

    # -- the application's emojis (the REST routes)

    def create(self, body: Any) -> FakeEmoji:
        """POST /applications/{id}/emojis: a new application emoji, or a Discord refusal."""
        body = body if isinstance(body, dict) else {}
        problems = _name_problems(body.get("name"))
        if not problems and self.named(body["name"]) is not None:
            problems["name"] = _problem(
                "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Application emoji name already taken."
            )
        image = _decode_image(body.get("image"), problems)
        if problems:
            raise error(400, 50035, "Invalid Form Body", problems)
        if len(self.application) >= self.limit:
            raise error(400, 30008, f"Maximum number of emojis reached ({self.limit})")
        assert image is not None
        data, content_type = image
        emoji = FakeEmoji(
            id=self.ids(),
            name=body["name"],
            data=data,
            content_type=content_type,
            user=self.uploader,
            animated=content_type == "image/gif" or _animated_webp(data),
        )
        self.application[emoji.id] = emoji
        return emoji

    def find(self, emoji_id: str) -> FakeEmoji:
        """The application's emoji ``emoji_id``, or 404 10014."""
        emoji = self.application.get(_snowflake(emoji_id))
        if emoji is None:
            raise error(404, 10014, "Unknown Emoji")
        return emoji

    def rename(self, emoji_id: str, body: Any) -> FakeEmoji:
        """PATCH: only the name changes (the only field the route takes)."""
        emoji = self.find(emoji_id)
        name = (body or {}).get("name") if isinstance(body, dict) else None
        if name is None:
            return emoji
        problems = _name_problems(name)
        other = self.named(name) if not problems else None
        if other is not None and other is not emoji:
            problems["name"] = _problem(
                "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Application emoji name already taken."
            )
        if problems:
            raise error(400, 50035, "Invalid Form Body", problems)
        emoji.name = name
        return emoji

    def delete(self, emoji_id: str) -> None:
        del self.application[self.find(emoji_id).id]

    # -- guild emojis (made by tests)

    def add_guild_emoji(self, guild: FakeGuild, name: str, data: bytes) -> FakeEmoji:
        content_type = sniff_image(data)
        if content_type is None:
            raise ValueError("an emoji image is a PNG, JPEG, GIF, WebP or AVIF")
        emoji = FakeEmoji(
            id=self.ids(),
            name=name,
            data=data,
            content_type=content_type,
            guild=guild,
            animated=content_type == "image/gif",
        )
        self.guilds[emoji.id] = emoji
        return emoji


def _problem(code: str, message: str) -> dict[str, Any]:
    return {"_errors": [{"code": code, "message": message}]}


def _name_problems(name: Any) -> dict[str, Any]:
    if not isinstance(name, str):
        return {"name": _problem("BASE_TYPE_REQUIRED", "This field is required")}
    if not 2 <= len(name) <= 32:
        return {"name": _problem("BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")}
    if not NAME.fullmatch(name):
        return {
            "name": _problem(
                "STRING_TYPE_REGEX",
                "String value did not match validation regex: letters, digits and _ only.",
            )
        }
    return {}


def _decode_image(value: Any, problems: dict[str, Any]) -> tuple[bytes, str] | None:
    """The bytes and content type of an image data URI; a problem under ``image`` if not."""
    if not isinstance(value, str):
        problems["image"] = _problem("BASE_TYPE_REQUIRED", "This field is required")
        return None
    found = _DATA_URI.match(value)
    data = b""
    if found is not None:
        try:
            data = base64.b64decode(found.group(2), validate=True)
        except (binascii.Error, ValueError):
            data = b""
    content_type = sniff_image(data)
    if found is None or content_type is None:
        problems["image"] = _problem("IMAGE_INVALID", "Invalid image data")
        return None
    if len(data) > MAX_EMOJI_BYTES:
        problems["image"] = _problem("BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
        return None
    return data, content_type


def _animated_webp(data: bytes) -> bool:
    return data.startswith(b"RIFF") and data[8:12] == b"WEBP" and b"ANIM" in data[12:64]


def _snowflake(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


@dataclass(frozen=True)
class BrokenReference:
    """A custom emoji a message shows that the fake has no usable emoji for.

    Discord accepts such a message (only a component's ``emoji`` is refused, 50035): the
    markdown ``<:name:id>`` then reads as ``:name:`` and an emoji picture URL as a broken
    image. The fake records each one in ``fake.broken_references`` and ``assert_clean``
    fails on them, so a test sees what a user would.
    """

    message_id: int
    where: str  # "content", "text display" or "media"
    reference: str  # the markdown or the URL


def broken_references(
    message_id: int,
    content: str,
    components: list[dict[str, Any]],
    store: EmojiStore,
    usable: Callable[[int], bool],
    *,
    local_base: str | None = None,
) -> list[BrokenReference]:
    """The emoji references of a message that show nothing: markdown emojis the bot may not
    use, and emoji picture URLs (on Discord's CDN, or ``local_base``: the fake's own) of no
    emoji the fake has."""
    broken: list[BrokenReference] = []
    for where, text in [("content", content)] + [
        ("text display", t) for t in layout.texts(components)
    ]:
        broken += [
            BrokenReference(message_id, where, m.group(0))
            for m in layout.CUSTOM_EMOJI.finditer(text or "")
            if not usable(int(m.group(3)))
        ]
    for url in layout.media_urls(components):
        emoji_id = emoji_id_of_url(url)
        if emoji_id is None and local_base and url.startswith(f"{local_base}/emojis/"):
            emoji_id = _snowflake(url.rsplit("/", 1)[1].split(".", 1)[0])
        if emoji_id is not None and store.get(emoji_id) is None:
            broken.append(BrokenReference(message_id, "media", url))
    return broken
