"""The custom_id grammar of every button and select (DESIGN.md §6.7).

``uno:1:<verb>:<table>[:<version>[:<arg>]]`` — the key is in the id, the value is in the
database. The id never carries a hand or a user's authority: the seat always comes from the
clicking user, and the engine re-validates the action. Each verb family has one template;
the templates are disjoint, and a last catch-all matches every other ``uno:`` id so a forged
or outdated id still gets a polite answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SCHEME = "uno:1"
TABLE = r"(?P<table>[0-9a-z]{1,13})"
VERSION = r"(?P<version>[0-9]{1,9})"

TABLE_VERBS = ("hand", "join", "leave", "start", "computer", "next")
TURN_VERBS = ("draw", "pass", "uno", "challenge")
ARG_VERBS = {
    "catch": r"[0-9]",  # a seat
    "colour": r"(?:W|W4|WH|W2|WC)=[RYGBPTOV]",  # a wild and the colour named for it
    "choose": r"[RYGBPTOV]",  # the colour of a Wild turned up at the start
    "page": r"[0-9]{1,2}",  # a page of the card select
}


def _arg_template() -> str:
    # One alternative per verb so that an argument is only valid with its own verb.
    alternatives = "|".join(
        rf"(?P<verb_{verb}>{verb}):{TABLE.replace('table', 'table_' + verb)}:"
        rf"{VERSION.replace('version', 'version_' + verb)}:(?P<arg_{verb}>{pattern})"
        for verb, pattern in ARG_VERBS.items()
    )
    return rf"uno:1:(?:{alternatives})"


TEMPLATES = {
    "table": rf"uno:1:(?P<verb>{'|'.join(TABLE_VERBS)}):{TABLE}",
    "turn": rf"uno:1:(?P<verb>{'|'.join(TURN_VERBS)}):{TABLE}:{VERSION}",
    "arg": _arg_template(),
    "pick": rf"uno:1:(?P<verb>pick):{TABLE}:{VERSION}:(?P<arg>[0-9]{{1,2}})",
    "swap": rf"uno:1:(?P<verb>swap):{TABLE}:{VERSION}:(?P<arg>WH=[RYGB])",
}
_VALID = re.sub(r"\(\?P<\w+>", "(?:", "|".join(f"(?:{t})" for t in TEMPLATES.values()))
# Anything else that starts with "uno:" (forged, mangled or from an older scheme).
# (?s) and \Z: a catch-all must also catch ids with line breaks, which "." and "$" let by.
TEMPLATES["other"] = rf"(?s)(?!(?:{_VALID})\Z)uno:.{{0,96}}"

COMPILED = {name: re.compile(template) for name, template in TEMPLATES.items()}


@dataclass(frozen=True, slots=True)
class CustomId:
    """A decoded custom_id."""

    verb: str
    table: str
    version: int | None = None
    arg: str | None = None

    def encode(self) -> str:
        """The custom_id text (at most 100 characters)."""
        parts = [SCHEME, self.verb, self.table]
        if self.version is not None:
            parts.append(str(self.version))
        if self.arg is not None:
            parts.append(self.arg)
        text = ":".join(parts)
        if decode(text) != self:
            raise ValueError(f"not a valid custom_id: {text!r}")
        return text


def decode(custom_id: str) -> CustomId | None:
    """Parse a custom_id; ``None`` when it is not one of ours in the current scheme."""
    for name, pattern in COMPILED.items():
        if name == "other":
            continue
        match = pattern.fullmatch(custom_id)
        if match is None:
            continue
        groups = {k: v for k, v in match.groupdict().items() if v is not None}
        verb = next(v for k, v in groups.items() if k.startswith("verb"))
        table = next(v for k, v in groups.items() if k.startswith("table"))
        version = next((int(v) for k, v in groups.items() if k.startswith("version")), None)
        arg = next((v for k, v in groups.items() if k.startswith("arg")), None)
        return CustomId(verb, table, version, arg)
    return None
