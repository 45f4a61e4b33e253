"""Restart-proof buttons and selects, derived from the verb registry (``_verbs.py``).

Every click is routed by its custom_id alone: the ``Uno`` cog's ``on_interaction`` listener
asks :func:`routed` for the verb, which decodes the id with the registry's grammar and checks
that a button id came from a button and a select id from a select; anything else of ours
(forged, mangled, outdated) routes to ``None`` and gets a polite answer. Nothing is
registered with discord.py: no view or dynamic item is built for an incoming click (discord.py's
``DynamicItem`` dispatch rebuilt a whole ``View`` of the clicked message for every click —
``benchmarks/dispatch_bench.py`` measures what that cost), and a restart needs nothing to
re-register, since the ids carry everything.

:func:`button` and :func:`select` are the only ways the message builders make components:
they take a verb of the registry and check the id against the grammar. The views they go
into are stopped at once (``Payload``), so discord.py never keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from ._verbs import BY_NAME, CustomId, Kind, decode

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

#: Discord's component types of the kinds the registry knows.
COMPONENT_TYPES = {Kind.BUTTON: 2, Kind.SELECT: 3}


def routed(data: Mapping[str, Any]) -> tuple[CustomId | None, tuple[str, ...]]:
    """The verb a component interaction's ``data`` is for, and the chosen values.

    ``None`` as the id: not one of ours in the current scheme, or a button id that did not
    come from a button (or a select id not from a select) — a forged or mangled click.
    """
    cid = decode(str(data.get("custom_id", "")))
    if cid is not None and COMPONENT_TYPES[BY_NAME[cid.verb].kind] != data.get("component_type"):
        cid = None
    values = data.get("values") or ()
    return cid, tuple(str(value) for value in values)


def _custom_id(verb: str, table: str, version: int | None, arg: str | None, kind: Kind) -> CustomId:
    entry = BY_NAME[verb]
    if entry.kind is not kind:
        raise ValueError(f"{verb!r} is a {entry.kind.value}, not a {kind.value}")
    cid = CustomId(verb, table, version if entry.versioned else None, arg)
    cid.encode()  # raises ValueError outside the grammar
    return cid


def button(
    verb: str,
    table: str,
    version: int | None,
    arg: str | None = None,
    *,
    label: str,
    style: str | None = None,
    emoji: str | discord.Emoji | discord.PartialEmoji | None = None,
) -> discord.ui.Button[Any]:
    """A button of ``verb`` (styled and placed as the registry says unless told otherwise)."""
    cid = _custom_id(verb, table, version, arg, Kind.BUTTON)
    entry = BY_NAME[verb]
    return discord.ui.Button(
        label=label[:80],
        style=STYLES[style or entry.style],
        emoji=emoji,
        custom_id=cid.encode(),
    )


def select(
    verb: str,
    table: str,
    version: int | None,
    arg: str | None,
    *,
    placeholder: str,
    options: list[discord.SelectOption],
    min_values: int = 1,
    max_values: int = 1,
) -> discord.ui.Select[Any]:
    """A select of ``verb`` with ``options`` (by default, one to choose)."""
    cid = _custom_id(verb, table, version, arg, Kind.SELECT)
    return discord.ui.Select(
        custom_id=cid.encode(),
        placeholder=placeholder[:150],
        options=options,
        min_values=min_values,
        max_values=max_values,
    )
