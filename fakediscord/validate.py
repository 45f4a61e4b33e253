"""Discord's own payload limits, so the fake rejects what Discord would (400, code 50035).

Each ``check_*`` function returns a list of ``(path, message)`` or ``(path, message, code)``
problems; an empty list means Discord would accept the payload. Only the limits a bot is
likely to hit are modelled. A message's components (legacy rows and Components V2 layouts)
are checked by ``component_rules.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Any

from .component_rules import Problems, check_components
from .world import MessageFlag

__all__ = [
    "EMPTY_MESSAGE",
    "Problems",
    "check_choices",
    "check_commands",
    "check_components",
    "check_embeds",
    "check_message",
    "check_modal",
    "command_size",
    "form_errors",
]

EMPTY_MESSAGE = "Cannot send an empty message"
#: The fields a Components V2 message may not have (the message resource, Create Message).
NOT_WITH_V2 = ("content", "embeds", "sticker_ids", "poll", "shared_client_theme")

_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
#: Discord's locales: a localization under any other key is refused.
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
#: A chat command's characters at most: the name, description and value of the command and of
#: every option, subcommand, group and choice below it, each at its longest localization.
COMMAND_CHARACTERS = 8000


def _length(problems: Problems, path: str, value: Any, low: int, high: int) -> None:
    if value is None:
        return
    if not isinstance(value, str):
        problems.append((path, "must be a string"))
        return
    if not low <= len(value) <= high:
        problems.append((path, f"must be between {low} and {high} in length"))


def check_embeds(embeds: Any) -> Problems:
    problems: Problems = []
    if not isinstance(embeds, list):
        return [("embeds", "must be a list")]
    if len(embeds) > 10:
        problems.append(("embeds", "must be 10 or fewer in length"))
    total = 0
    for i, embed in enumerate(embeds):
        p = f"embeds.{i}"
        if not isinstance(embed, dict):
            problems.append((p, "must be an object"))
            continue
        _length(problems, f"{p}.title", embed.get("title"), 0, 256)
        _length(problems, f"{p}.description", embed.get("description"), 0, 4096)
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append((f"{p}.fields", "must be 25 or fewer in length"))
        for j, f in enumerate(fields):
            _length(problems, f"{p}.fields.{j}.name", f.get("name"), 1, 256)
            _length(problems, f"{p}.fields.{j}.value", f.get("value"), 1, 1024)
            total += len(f.get("name") or "") + len(f.get("value") or "")
        if isinstance(embed.get("footer"), dict):
            _length(problems, f"{p}.footer.text", embed["footer"].get("text"), 0, 2048)
            total += len(embed["footer"].get("text") or "")
        if isinstance(embed.get("author"), dict):
            _length(problems, f"{p}.author.name", embed["author"].get("name"), 0, 256)
            total += len(embed["author"].get("name") or "")
    if total > 6000:
        problems.append(("embeds", "embed size exceeds maximum size of 6000"))
    return problems


def check_message(
    data: dict[str, Any],
    *,
    attachments: int,
    flags: int,
    require_content: bool = True,
    attachment_names: Collection[str] | None = None,
    emoji_usable: Callable[[int], bool] | None = None,
) -> Problems:
    """Limits for a message create or the *result* of an edit (data holds the final fields).

    With IS_COMPONENTS_V2 in ``flags`` the message may hold only components (and files):
    a non-empty ``content``, ``embeds``, ``sticker_ids``, ``poll`` or ``shared_client_theme``
    is refused, as Discord refuses them (null and ``[]``, the values the docs say clear them,
    are fine). ``attachment_names`` and ``emoji_usable`` go to :func:`check_components`.
    """
    problems: Problems = []
    content = data.get("content") or ""
    v2 = bool(flags & MessageFlag.IS_COMPONENTS_V2)
    if not isinstance(content, str):
        problems.append(("content", "must be a string"))
        content = str(content)
    if len(content) > 2000:
        problems.append(("content", "must be 2000 or fewer in length"))
    embeds = data.get("embeds") or []
    problems += check_embeds(embeds)
    problems += check_components(
        data.get("components") or [],
        v2=v2,
        attachment_names=attachment_names,
        emoji_usable=emoji_usable,
    )
    if attachments > 10:
        problems.append(("attachments", "must be 10 or fewer in length"))
    if v2:
        problems += [
            (
                key,
                f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            )
            for key in NOT_WITH_V2
            if data.get(key)
        ]
    if (
        require_content
        and not content.strip()
        and not embeds
        and not attachments
        and not data.get("components")
        and not data.get("sticker_ids")
        and not data.get("poll")
    ):
        problems.append(("", EMPTY_MESSAGE))
    return problems


def check_choices(choices: Any, option_type: int) -> Problems:
    problems: Problems = []
    if not isinstance(choices, list):
        return [("data.choices", "must be a list")]
    if len(choices) > 25:
        problems.append(("data.choices", "must be 25 or fewer in length"))
    for i, choice in enumerate(choices):
        _length(problems, f"data.choices.{i}.name", choice.get("name"), 1, 100)
        value = choice.get("value")
        if option_type == 3:
            _length(problems, f"data.choices.{i}.value", value, 1, 100)
        elif option_type == 4 and (not isinstance(value, int) or isinstance(value, bool)):
            problems.append((f"data.choices.{i}.value", "must be an integer"))
        elif option_type == 10 and (not isinstance(value, int | float) or isinstance(value, bool)):
            problems.append((f"data.choices.{i}.value", "must be a number"))
    return problems


def check_modal(data: dict[str, Any]) -> Problems:
    problems: Problems = []
    _length(problems, "data.title", data.get("title"), 1, 45)
    _length(problems, "data.custom_id", data.get("custom_id"), 1, 100)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        problems.append(("data.components", "a modal holds 1 to 5 components"))
    return problems


def check_commands(commands: Any) -> Problems:
    """A bulk overwrite payload (PUT .../commands)."""
    if not isinstance(commands, list):
        return [("", "must be a list")]
    problems: Problems = []
    names: set[tuple[str, int]] = set()
    chat = 0
    for i, cmd in enumerate(commands):
        kind = cmd.get("type", 1)
        key = (cmd.get("name"), kind)
        if key in names:
            problems.append((f"{i}.name", "Application command names must be unique"))
        names.add(key)
        if kind == 1:
            chat += 1
            problems += _check_command(cmd, f"{i}", depth=0)
        else:
            _length(problems, f"{i}.name", cmd.get("name"), 1, 32)
    if chat > 100:
        problems.append(("", "Maximum number of application commands reached (100)"))
    return problems


def _longest(node: dict[str, Any], field: str) -> int:
    """A field's length as Discord counts it against the command size: its longest
    localization, the default value included."""
    localized = node.get(f"{field}_localizations") or {}
    return max([len(str(node.get(field) or ""))] + [len(str(v)) for v in localized.values()])


def command_size(cmd: dict[str, Any]) -> int:
    """The characters Discord counts against :data:`COMMAND_CHARACTERS` for ``cmd``."""
    total = _longest(cmd, "name") + _longest(cmd, "description")
    for choice in cmd.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total + sum(command_size(option) for option in cmd.get("options") or [])


def _check_localizations(problems: Problems, path: str, node: dict[str, Any]) -> None:
    """Localized names (a command's or an option's rules), descriptions (1 to 100) and choice
    names (1 to 100), each under a locale Discord has."""
    for field in ("name", "description"):
        localized = node.get(f"{field}_localizations")
        if localized is None:
            continue
        if not isinstance(localized, dict):
            problems.append((f"{path}.{field}_localizations", "must be an object"))
            continue
        for locale, text in localized.items():
            where = f"{path}.{field}_localizations.{locale}"
            if locale not in LOCALES:
                problems.append((where, f"invalid locale {locale!r}"))
            elif field == "description":
                _length(problems, where, text, 1, 100)
            elif not _COMMAND_NAME.match(str(text)) or text != str(text).lower():
                problems.append((where, f"invalid command name {text!r}"))
    for i, choice in enumerate(node.get("choices") or []):
        for locale, text in (choice.get("name_localizations") or {}).items():
            where = f"{path}.choices.{i}.name_localizations.{locale}"
            if locale not in LOCALES:
                problems.append((where, f"invalid locale {locale!r}"))
            _length(problems, where, text, 1, 100)


def _check_command(cmd: dict[str, Any], path: str, *, depth: int) -> Problems:
    problems: Problems = []
    name = cmd.get("name") or ""
    if not _COMMAND_NAME.match(name) or name != name.lower():
        problems.append((f"{path}.name", f"invalid command name {name!r}"))
    _length(problems, f"{path}.description", cmd.get("description"), 1, 100)
    _check_localizations(problems, path, cmd)
    if depth == 0 and command_size(cmd) > COMMAND_CHARACTERS:
        problems.append(
            (path, "Command exceeds maximum size (8000)", "APPLICATION_COMMAND_TOO_LARGE")
        )
    options = cmd.get("options") or []
    if len(options) > 25:
        problems.append((f"{path}.options", "must be 25 or fewer in length"))
    seen: set[str] = set()
    optional_seen = False
    kinds = {o.get("type") for o in options}
    if kinds & {1, 2} and kinds - {1, 2}:
        problems.append((f"{path}.options", "subcommands cannot be mixed with other options"))
    for j, option in enumerate(options):
        p = f"{path}.options.{j}"
        kind = option.get("type")
        oname = option.get("name") or ""
        if oname in seen:
            problems.append((f"{p}.name", "option names must be unique"))
        seen.add(oname)
        if kind in (1, 2):
            if kind == 2 and depth >= 1:
                problems.append((f"{p}.type", "subcommand groups cannot be nested"))
            if kind == 1 and depth >= 2:
                problems.append((f"{p}.type", "subcommands nest at most two levels deep"))
            problems += _check_command(option, p, depth=depth + 1)
            continue
        if not _COMMAND_NAME.match(oname) or oname != oname.lower():
            problems.append((f"{p}.name", f"invalid option name {oname!r}"))
        _length(problems, f"{p}.description", option.get("description"), 1, 100)
        _check_localizations(problems, p, option)
        if option.get("required"):
            if optional_seen:
                problems.append((f"{p}.required", "required options must come before optional"))
        else:
            optional_seen = True
        choices = option.get("choices")
        if choices is not None:
            if option.get("autocomplete"):
                problems.append((f"{p}.autocomplete", "autocomplete cannot be set with choices"))
            problems += [(f"{p}.{q[0]}", q[1]) for q in check_choices(choices, kind or 3)]
    return problems


def form_errors(problems: Problems) -> dict[str, Any]:
    """Discord's nested ``errors`` object for an Invalid Form Body response."""
    tree: dict[str, Any] = {}
    for problem in problems:
        path, message = problem[0], problem[1]
        code = problem[2] if len(problem) > 2 else "BASE_TYPE_INVALID"
        node = tree
        for part in [p for p in path.split(".") if p]:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return tree
