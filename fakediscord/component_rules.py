"""Discord's rules for a message's components, legacy and Components V2 (400 50035 otherwise).

:func:`check_components` returns the problems of a component tree, each with the path
Discord names in its Invalid Form Body errors (``components.0.components.2.label``) and,
where Discord is known to use one, its error code.

What the reference (https://discord.com/developers/docs/components/reference) and the
message resource say, and the fake enforces:

* Without ``IS_COMPONENTS_V2``: at most 5 top-level components, each an action row.
* With it, the top level holds action rows (1), sections (9), text displays (10), media
  galleries (12), files (13), separators (14) and containers (17). A container holds the
  same but containers; a section holds 1 to 3 text displays and one ``accessory``, a button
  or a thumbnail (11), and a thumbnail is only ever an accessory. At most 40 components in
  all, nested ones counted (a container, its rows and their buttons each count once).
* An action row holds 1 to 5 buttons or a single select (string, user, role, mentionable,
  channel), nothing else.
* ``custom_id``: 1 to 100 characters, unique in the message; a button label at most 80, a
  link's URL at most 512; a select's placeholder at most 150, 1 to 25 options (label, value,
  description at most 100; values unique), ``min_values``/``max_values`` within 0..25.
  Link buttons need a ``url`` and no ``custom_id``; premium buttons a ``sku_id`` and no
  ``custom_id``, label, url or emoji; the others a ``custom_id`` and no url.
* ``accent_color``: null or an integer 0x000000..0xFFFFFF. Media gallery: 1 to 10 items.
  Alt text (``description``) at most 1024. Separator ``spacing`` 1 or 2. A file's ``url``
  must be ``attachment://<name>`` of a file on the message; thumbnails and gallery items
  take ``http(s)://`` URLs or ``attachment://<name>``.
* A component ``id`` is a 32-bit integer, unique in the message (0 means "none").
* An ``emoji`` on a button or a select option must be one the app may use: a custom one by
  ``id`` (an application emoji, or a guild emoji the bot can use), else a Unicode emoji by
  ``name``. Discord answers ``BUTTON_COMPONENT_INVALID_EMOJI`` "Invalid emoji" (for select
  options too, as reported in discord/discord-api-docs#8071).

Where the documentation is silent the fake chose, and says so here:

* 4000 characters at most across all text displays, counted as discord.py's
  ``LayoutView.content_length`` counts them (text displays only, not labels).
* A text display's ``content`` must not be empty, and a container must hold at least one
  component (discord.js's builders refuse both; an empty one shows nothing).
* Unicode emoji ``name`` without an ``id``: refused when it is plain ASCII (``"red"``,
  ``":red_circle:"``), which no Unicode emoji is; other strings are not checked further.
* An ``attachment://`` name that no file of the message has, and a media URL of another
  scheme, are refused (Discord's exact wording is unknown; the fake names the problem).
* Error codes other than the emoji one are the fake's own ``BASE_TYPE_*`` guesses; tests
  should assert on 50035 and the path, not on those inner codes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from .layout import Kind, texts, walk_components

#: ``(path, message)`` or ``(path, message, code)``: one thing Discord would refuse.
Problem = tuple[str, str] | tuple[str, str, str]
Problems = list[Problem]

#: Discord's caps for Components V2 messages.
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_LEGACY_ROWS = 5

TOP_LEVEL_V2 = frozenset({1, 9, 10, 12, 13, 14, 17})
IN_CONTAINER = frozenset({1, 9, 10, 12, 13, 14})
SECTION_ACCESSORIES = frozenset({Kind.BUTTON, Kind.THUMBNAIL})
INVALID_EMOJI = ("Invalid emoji", "BUTTON_COMPONENT_INVALID_EMOJI")
ATTACHMENT_SCHEME = "attachment://"


def check_components(
    components: Any,
    *,
    v2: bool,
    attachment_names: Collection[str] | None = None,
    emoji_usable: Callable[[int], bool] | None = None,
) -> Problems:
    """The problems of ``components`` in a message with (``v2``) or without the
    IS_COMPONENTS_V2 flag. ``attachment_names``: the files the message will have (None: do
    not check ``attachment://`` references); ``emoji_usable(id)``: whether the app may use
    that custom emoji (None: do not check ids)."""
    if not isinstance(components, list):
        return [("components", "must be a list", "BASE_TYPE_ARRAY")]
    checker = _Checker(v2, attachment_names, emoji_usable)
    if not v2 and len(components) > MAX_LEGACY_ROWS:
        checker.add("components", "Must be 5 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    allowed = TOP_LEVEL_V2 if v2 else frozenset({Kind.ACTION_ROW})
    checker.children(components, "components", allowed, "at the top level")
    if v2:
        total = sum(1 for _ in walk_components(components))
        if total > MAX_V2_COMPONENTS:
            checker.add(
                "components",
                f"A message holds at most {MAX_V2_COMPONENTS} components; this one has {total}.",
                "BASE_TYPE_MAX_LENGTH",
            )
        length = sum(len(text) for text in texts(components))
        if length > MAX_V2_TEXT:
            checker.add(
                "components",
                f"Text displays hold at most {MAX_V2_TEXT} characters in all; these hold {length}.",
                "BASE_TYPE_MAX_LENGTH",
            )
    return checker.problems


class _Checker:
    def __init__(
        self,
        v2: bool,
        attachment_names: Collection[str] | None,
        emoji_usable: Callable[[int], bool] | None,
    ) -> None:
        self.v2 = v2
        self.attachment_names = attachment_names
        self.emoji_usable = emoji_usable
        self.problems: Problems = []
        self.custom_ids: set[str] = set()
        self.ids: set[int] = set()

    def add(self, path: str, message: str, code: str = "BASE_TYPE_INVALID") -> None:
        self.problems.append((path, message, code))

    def length(self, path: str, value: Any, low: int, high: int) -> None:
        if value is None:
            return
        if not isinstance(value, str):
            self.add(path, "Must be a string.", "BASE_TYPE_STRING")
        elif not low <= len(value) <= high:
            self.add(path, f"Must be between {low} and {high} in length.", "BASE_TYPE_BAD_LENGTH")

    def children(
        self, children: Any, path: str, allowed: Collection[int], where: str
    ) -> list[dict[str, Any]]:
        """Check each of ``children`` (at ``path``), refusing types not in ``allowed``."""
        if not isinstance(children, list):
            self.add(path, "Must be an array.", "BASE_TYPE_ARRAY")
            return []
        good = []
        for i, child in enumerate(children):
            here = f"{path}.{i}"
            if not isinstance(child, dict):
                self.add(here, "Must be an object.", "MODEL_TYPE_CONVERT")
                continue
            kind = child.get("type")
            if kind not in allowed:
                self.add(
                    f"{here}.type",
                    f"Component type {kind} is not allowed {where}.",
                    "COMPONENT_TYPE_INVALID",
                )
                continue
            self.component(child, here)
            good.append(child)
        return good

    def component(self, c: dict[str, Any], path: str) -> None:
        self.identifier(c, path)
        kind = c.get("type")
        if kind == Kind.ACTION_ROW:
            self.action_row(c, path)
        elif kind == Kind.BUTTON:
            self.button(c, path)
        elif kind in Kind.SELECTS:
            self.select(c, path)
        elif kind == Kind.SECTION:
            self.section(c, path)
        elif kind == Kind.TEXT_DISPLAY:
            content = c.get("content")
            if not isinstance(content, str) or not content:
                self.add(f"{path}.content", "A text display needs some text.", "BASE_TYPE_REQUIRED")
        elif kind == Kind.THUMBNAIL:
            self.media(c.get("media"), f"{path}.media")
            self.length(f"{path}.description", c.get("description"), 0, 1024)
        elif kind == Kind.MEDIA_GALLERY:
            self.gallery(c, path)
        elif kind == Kind.FILE:
            self.file(c, path)
        elif kind == Kind.SEPARATOR:
            if c.get("spacing", 1) not in (1, 2):
                self.add(f"{path}.spacing", "Spacing must be 1 (small) or 2 (large).")
            if not isinstance(c.get("divider", True), bool):
                self.add(f"{path}.divider", "Must be a boolean.", "BASE_TYPE_BOOLEAN")
        elif kind == Kind.CONTAINER:
            self.container(c, path)

    def identifier(self, c: dict[str, Any], path: str) -> None:
        value = c.get("id")
        if value in (None, 0):
            return
        if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 2**31:
            self.add(f"{path}.id", "Must be a 32-bit integer.", "NUMBER_TYPE_MAX")
        elif value in self.ids:
            self.add(f"{path}.id", f"Component id {value} is used twice in the message.")
        self.ids.add(value)

    def custom_id(self, c: dict[str, Any], path: str) -> None:
        value = c.get("custom_id")
        if value is None:
            return
        self.length(f"{path}.custom_id", value, 1, 100)
        if value in self.custom_ids:
            self.add(
                f"{path}.custom_id",
                f"Duplicate custom_id {value!r}.",
                "COMPONENT_CUSTOM_ID_DUPLICATED",
            )
        self.custom_ids.add(value)

    def action_row(self, c: dict[str, Any], path: str) -> None:
        items = self.children(
            c.get("components"), f"{path}.components", Kind.INTERACTIVE, "in an action row"
        )
        count = len(c.get("components") or [])
        if not 1 <= count <= 5:
            self.add(
                f"{path}.components",
                "An action row holds 1 to 5 components.",
                "BASE_TYPE_BAD_LENGTH",
            )
        if any(i.get("type") in Kind.SELECTS for i in items) and count > 1:
            self.add(
                f"{path}.components",
                "A select menu must be alone in its action row.",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            )

    def button(self, c: dict[str, Any], path: str) -> None:
        style = c.get("style")
        self.custom_id(c, path)
        if style not in (1, 2, 3, 4, 5, 6):
            self.add(f"{path}.style", f"Unknown button style {style!r}.")
        elif style == 5:
            if not c.get("url"):
                self.add(f"{path}.url", "A link button needs a url.", "BASE_TYPE_REQUIRED")
            if c.get("custom_id"):
                self.add(f"{path}.custom_id", "A link button cannot have a custom_id.")
            self.length(f"{path}.url", c.get("url"), 1, 512)
        elif style == 6:
            if not c.get("sku_id"):
                self.add(f"{path}.sku_id", "A premium button needs a sku_id.", "BASE_TYPE_REQUIRED")
            for key in ("custom_id", "label", "url", "emoji"):
                if c.get(key):
                    self.add(f"{path}.{key}", f"A premium button cannot have a {key}.")
        else:
            if not c.get("custom_id"):
                self.add(f"{path}.custom_id", "A button needs a custom_id.", "BASE_TYPE_REQUIRED")
            if c.get("url"):
                self.add(f"{path}.url", "Only link buttons have a url.")
        self.length(f"{path}.label", c.get("label"), 0, 80)
        if style != 6 and not c.get("label") and not c.get("emoji"):
            self.add(f"{path}.label", "A button needs a label or an emoji.", "BASE_TYPE_REQUIRED")
        if style != 6 and c.get("emoji") is not None:
            self.emoji(c["emoji"], f"{path}.emoji")

    def select(self, c: dict[str, Any], path: str) -> None:
        if not c.get("custom_id"):
            self.add(f"{path}.custom_id", "A select needs a custom_id.", "BASE_TYPE_REQUIRED")
        self.custom_id(c, path)
        self.length(f"{path}.placeholder", c.get("placeholder"), 0, 150)
        low, high = c.get("min_values", 1), c.get("max_values", 1)
        if not isinstance(low, int) or not isinstance(high, int):
            self.add(f"{path}.min_values", "Must be integers.", "BASE_TYPE_INT")
            return
        if not 0 <= low <= 25 or not 1 <= high <= 25 or low > high:
            self.add(f"{path}.min_values", "min_values/max_values out of range.")
        if c.get("type") != Kind.STRING_SELECT:
            return
        options = c.get("options") or []
        if not 1 <= len(options) <= 25:
            self.add(f"{path}.options", "A select holds 1 to 25 options.", "BASE_TYPE_BAD_LENGTH")
        if high > len(options):
            self.add(f"{path}.max_values", "max_values exceeds the number of options.")
        values: set[Any] = set()
        for j, option in enumerate(options):
            here = f"{path}.options.{j}"
            self.length(f"{here}.label", option.get("label"), 1, 100)
            self.length(f"{here}.value", option.get("value"), 1, 100)
            self.length(f"{here}.description", option.get("description"), 0, 100)
            if option.get("value") in values:
                self.add(
                    f"{here}.value",
                    "Duplicate option value.",
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                )
            values.add(option.get("value"))
            if option.get("emoji") is not None:
                self.emoji(option["emoji"], f"{here}.emoji")

    def emoji(self, emoji: Any, path: str) -> None:
        if not isinstance(emoji, dict):
            self.add(path, "Must be an object.", "MODEL_TYPE_CONVERT")
            return
        emoji_id = emoji.get("id")
        if emoji_id not in (None, ""):
            if not str(emoji_id).isdigit():
                self.add(
                    f"{path}.id", f'Value "{emoji_id}" is not snowflake.', "NUMBER_TYPE_COERCE"
                )
            elif self.emoji_usable is not None and not self.emoji_usable(int(emoji_id)):
                self.add(f"{path}.id", *INVALID_EMOJI)
            return
        name = emoji.get("name")
        if not isinstance(name, str) or not name or name.isascii():
            self.add(f"{path}.name", *INVALID_EMOJI)

    def section(self, c: dict[str, Any], path: str) -> None:
        count = len(c.get("components") or [])
        self.children(
            c.get("components"), f"{path}.components", {Kind.TEXT_DISPLAY}, "in a section"
        )
        if not 1 <= count <= 3:
            self.add(
                f"{path}.components",
                "A section holds 1 to 3 text displays.",
                "BASE_TYPE_BAD_LENGTH",
            )
        accessory = c.get("accessory")
        if not isinstance(accessory, dict):
            self.add(f"{path}.accessory", "A section needs an accessory.", "BASE_TYPE_REQUIRED")
        elif accessory.get("type") not in SECTION_ACCESSORIES:
            self.add(
                f"{path}.accessory.type",
                "A section's accessory is a button or a thumbnail.",
                "COMPONENT_TYPE_INVALID",
            )
        else:
            self.component(accessory, f"{path}.accessory")

    def container(self, c: dict[str, Any], path: str) -> None:
        self.children(c.get("components"), f"{path}.components", IN_CONTAINER, "in a container")
        if not c.get("components"):
            self.add(
                f"{path}.components",
                "A container holds at least one component.",
                "BASE_TYPE_REQUIRED",
            )
        colour = c.get("accent_color")
        if colour is not None and (
            not isinstance(colour, int) or isinstance(colour, bool) or not 0 <= colour <= 0xFFFFFF
        ):
            self.add(
                f"{path}.accent_color",
                "Accent colour is an integer from 0x000000 to 0xFFFFFF.",
                "NUMBER_TYPE_MAX",
            )
        if not isinstance(c.get("spoiler", False), bool):
            self.add(f"{path}.spoiler", "Must be a boolean.", "BASE_TYPE_BOOLEAN")

    def gallery(self, c: dict[str, Any], path: str) -> None:
        items = c.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= 10:
            self.add(
                f"{path}.items", "A media gallery holds 1 to 10 items.", "BASE_TYPE_BAD_LENGTH"
            )
            return
        for j, item in enumerate(items):
            here = f"{path}.items.{j}"
            if not isinstance(item, dict):
                self.add(here, "Must be an object.", "MODEL_TYPE_CONVERT")
                continue
            self.media(item.get("media"), f"{here}.media")
            self.length(f"{here}.description", item.get("description"), 0, 1024)

    def file(self, c: dict[str, Any], path: str) -> None:
        media = c.get("file")
        url = media.get("url") if isinstance(media, dict) else None
        if not isinstance(url, str) or not url.startswith(ATTACHMENT_SCHEME):
            self.add(
                f"{path}.file.url",
                "A file component only takes attachment://<filename>.",
                "BASE_TYPE_INVALID",
            )
            return
        self.media(media, f"{path}.file")

    def media(self, media: Any, path: str) -> None:
        """An unfurled media item: only ``url`` is set by the app."""
        url = media.get("url") if isinstance(media, dict) else None
        if not isinstance(url, str) or not url:
            self.add(f"{path}.url", "A media item needs a url.", "BASE_TYPE_REQUIRED")
            return
        if url.startswith(ATTACHMENT_SCHEME):
            name = url[len(ATTACHMENT_SCHEME) :]
            if self.attachment_names is not None and name not in self.attachment_names:
                self.add(
                    f"{path}.url",
                    f"No file named {name!r} is attached to the message.",
                    "BASE_TYPE_INVALID",
                )
            return
        scheme = url.split("://", 1)[0].lower() if "://" in url else ""
        if scheme not in ("http", "https"):
            self.add(
                f"{path}.url",
                f"Scheme \"{scheme}\" is not supported. Scheme must be one of ('http', 'https').",
                "URL_TYPE_INVALID_SCHEME",
            )
