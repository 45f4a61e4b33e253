"""Reading a message's components as a user sees them: legacy action rows and Components V2.

A Components V2 message (flag ``IS_COMPONENTS_V2``, ``1 << 15``) has no ``content`` or
``embeds``: what a user reads is in its component tree, where containers (17) hold text
displays (10), sections (9: one to three text displays beside a button or a thumbnail),
media galleries (12), files (13), separators (14) and action rows (1) of buttons (2) or one
select (3, 5-8). These functions walk such trees (and legacy ones, which are just rows) in
reading order; ``FakeMessage`` and ``MessageVersion`` offer them as methods.

Reference: https://discord.com/developers/docs/components/reference
"""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Iterator
from typing import Any

Component = dict[str, Any]


class Kind:
    """Component types (``type`` field)."""

    ACTION_ROW = 1
    BUTTON = 2
    STRING_SELECT = 3
    TEXT_INPUT = 4
    USER_SELECT = 5
    ROLE_SELECT = 6
    MENTIONABLE_SELECT = 7
    CHANNEL_SELECT = 8
    SECTION = 9
    TEXT_DISPLAY = 10
    THUMBNAIL = 11
    MEDIA_GALLERY = 12
    FILE = 13
    SEPARATOR = 14
    CONTAINER = 17
    LABEL = 18

    SELECTS = (3, 5, 6, 7, 8)
    INTERACTIVE = (2, 3, 5, 6, 7, 8)


#: A custom emoji in markdown: ``<:name:id>`` or, animated, ``<a:name:id>``.
CUSTOM_EMOJI = re.compile(r"<(a?):(\w{2,32}):(\d{15,21})>")


def walk_components(components: list[Component] | None) -> Iterator[Component]:
    """Every component in a message's component tree, depth first in reading order (legacy
    rows and V2 layouts: a section's texts come before its accessory)."""
    for component in components or []:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("component", "accessory"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


def texts(components: list[Component] | None) -> list[str]:
    """The text displays' contents in reading order (inside containers and sections too)."""
    return [
        str(c.get("content") or "")
        for c in walk_components(components)
        if c.get("type") == Kind.TEXT_DISPLAY
    ]


def media_of(component: Component) -> list[str]:
    """The media URLs one component shows: a thumbnail's, a gallery's items', a file's."""
    kind = component.get("type")
    if kind == Kind.THUMBNAIL:
        return [_url(component.get("media"))]
    if kind == Kind.MEDIA_GALLERY:
        return [_url(item.get("media")) for item in component.get("items") or []]
    if kind == Kind.FILE:
        return [_url(component.get("file"))]
    return []


def media_urls(components: list[Component] | None) -> list[str]:
    """Every media URL in reading order: thumbnails, gallery items, files."""
    return [url for c in walk_components(components) for url in media_of(c)]


def thumbnails(components: list[Component] | None) -> list[str]:
    """The thumbnails' media URLs in reading order."""
    return [
        _url(c.get("media")) for c in walk_components(components) if c.get("type") == Kind.THUMBNAIL
    ]


def accent_colors(components: list[Component] | None) -> list[int | None]:
    """Each container's accent colour (None: no accent bar), in reading order."""
    return [
        c.get("accent_color")
        for c in walk_components(components)
        if c.get("type") == Kind.CONTAINER
    ]


def alt_texts(component: Component) -> list[str]:
    """The alt texts (``description``) of a thumbnail or a gallery's items."""
    if component.get("type") == Kind.THUMBNAIL:
        return [str(component["description"])] if component.get("description") else []
    if component.get("type") == Kind.MEDIA_GALLERY:
        return [str(i["description"]) for i in component.get("items") or [] if i.get("description")]
    return []


def component_emojis(components: list[Component] | None) -> Iterator[tuple[Component, Component]]:
    """``(owner, emoji)`` for every ``emoji`` object on a button or a select option."""
    for component in walk_components(components):
        if isinstance(component.get("emoji"), dict):
            yield component, component["emoji"]
        for option in component.get("options") or []:
            if isinstance(option, dict) and isinstance(option.get("emoji"), dict):
                yield option, option["emoji"]


def plain(text: str) -> str:
    """``text`` with each custom emoji written as its ``:name:`` (how Discord's client copies
    it, and reads it out), so a test can assert on words: ``"Top card :uno_r7:"``."""
    return CUSTOM_EMOJI.sub(lambda m: f":{m.group(2)}:", text or "")


def markdown_emoji_ids(text: str) -> list[int]:
    """The ids of the custom emojis written in ``text`` (``<:name:id>``), in order."""
    return [int(m.group(3)) for m in CUSTOM_EMOJI.finditer(text or "")]


def emoji_ids(content: str, components: list[Component] | None) -> list[int]:
    """Every custom emoji id a message uses: in its content, its text displays, and the
    ``emoji`` of its buttons and select options (in that order, repeats kept)."""
    found = markdown_emoji_ids(content)
    for text in texts(components):
        found += markdown_emoji_ids(text)
    for _, emoji in component_emojis(components):
        if emoji.get("id") not in (None, ""):
            found.append(int(emoji["id"]))
    return found


def _url(media: Any) -> str:
    return str(media.get("url") or "") if isinstance(media, dict) else ""


def as_stored(
    components: list[Component], attachments: dict[str, dict[str, Any]]
) -> list[Component]:
    """A V2 component tree as Discord stores and returns it: every component without an
    ``id`` gets the next free one in reading order (the reference: "generated sequentially
    if left empty", never reusing an id the message has), and each ``attachment://name``
    media item points at that attachment (``attachments``: name -> its ``url``, ``id``,
    ``content_type``; plus ``size`` for file components)."""
    stored = copy.deepcopy(components)
    taken = {c["id"] for c in walk_components(stored) if isinstance(c.get("id"), int) and c["id"]}
    counter = itertools.count(1)
    for component in walk_components(stored):
        if not component.get("id"):
            component["id"] = next(n for n in counter if n not in taken)
        for media, is_file in _media_items(component):
            url = str(media.get("url") or "")
            if not url.startswith("attachment://"):
                continue
            found = attachments.get(url[len("attachment://") :])
            if found is None:
                continue
            media.update(
                url=found["url"],
                proxy_url=found["url"],
                content_type=found.get("content_type"),
                attachment_id=str(found["id"]),
            )
            if is_file:
                component.update(name=found["filename"], size=found["size"])
    return stored


def _media_items(component: Component) -> list[tuple[dict[str, Any], bool]]:
    kind = component.get("type")
    if kind == Kind.THUMBNAIL and isinstance(component.get("media"), dict):
        return [(component["media"], False)]
    if kind == Kind.FILE and isinstance(component.get("file"), dict):
        return [(component["file"], True)]
    if kind == Kind.MEDIA_GALLERY:
        return [
            (item["media"], False)
            for item in component.get("items") or []
            if isinstance(item, dict) and isinstance(item.get("media"), dict)
        ]
    return []
