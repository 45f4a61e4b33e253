"""Restart-proof buttons and selects, derived from the verb registry (``_verbs.py``).

Two ``DynamicItem`` classes carry every verb — one for buttons, one for selects, each with
the union of its verbs' patterns as its template — and a third catches every other ``uno:``
id, so a forged, mangled or outdated id still gets a polite answer. ``from_custom_id`` only
parses (it runs on Discord's 3-second clock); every callback goes to the one handler the
extension registers (:class:`ComponentHandler`), which looks the verb up in a dictionary.

:func:`button` and :func:`select` are the only ways the message builders make components:
they take a verb of the registry and check the id against the grammar.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from re import Match
from typing import Any, Protocol, runtime_checkable

import discord

from ._verbs import BY_NAME, OTHER_TEMPLATE, CustomId, Kind, decode, template

log = logging.getLogger(__name__)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


#: The cog that answers every click (see :class:`ComponentHandler`).
HANDLER_COG = "Uno"


@runtime_checkable
class ComponentHandler(Protocol):
    """What answers a click (the Uno cog)."""

    async def on_component(
        self, interaction: discord.Interaction[Any], cid: CustomId | None, values: Sequence[str]
    ) -> None: ...


async def _dispatch(
    interaction: discord.Interaction[Any], cid: CustomId | None, values: Sequence[str]
) -> None:
    get_cog = getattr(interaction.client, "get_cog", None)
    handler = get_cog(HANDLER_COG) if get_cog is not None else None
    if not isinstance(handler, ComponentHandler):  # the extension is being reloaded: answer
        await interaction.response.send_message(
            "The UNO module is restarting — try again in a moment.", ephemeral=True
        )
        return
    await handler.on_component(interaction, cid, values)


def _parsed(match: Match[str]) -> CustomId:
    cid = decode(match.string)
    if cid is None:  # the templates and decode() come from the same registry
        raise ValueError(f"template matched an undecodable id {match.string!r}")
    return cid


class UnoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=template(Kind.BUTTON)):
    """Every button of the bot (the verb is in the id)."""

    def __init__(self, cid: CustomId, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Match[str]
    ) -> UnoButton:
        return cls(_parsed(match), discord.ui.Button(custom_id=match.string))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.cid, ())


class UnoSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=template(Kind.SELECT)):
    """Every select of the bot: the cards to play, the opponent to swap hands with."""

    def __init__(self, cid: CustomId, menu: discord.ui.Select[Any]) -> None:
        super().__init__(menu)
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Match[str]
    ) -> UnoSelect:
        options = list(getattr(item, "options", []))
        return cls(_parsed(match), discord.ui.Select(custom_id=match.string, options=options))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.cid, self.item.values)


class OtherId(discord.ui.DynamicItem[discord.ui.Button[Any]], template=OTHER_TEMPLATE):
    """Every other ``uno:`` id: forged, mangled or from an older scheme."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="?", custom_id=custom_id[:100]))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Match[str]
    ) -> OtherId:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, None, ())


ALL_COMPONENTS = (UnoButton, UnoSelect, OtherId)


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
    emoji: str | None = None,
    row: int | None = None,
) -> UnoButton:
    """A button of ``verb`` (styled and placed as the registry says unless told otherwise)."""
    cid = _custom_id(verb, table, version, arg, Kind.BUTTON)
    entry = BY_NAME[verb]
    return UnoButton(
        cid,
        discord.ui.Button(
            label=label[:80],
            style=STYLES[style or entry.style],
            emoji=emoji,
            custom_id=cid.encode(),
            row=entry.row if row is None else row,
        ),
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
    row: int | None = None,
) -> UnoSelect:
    """A select of ``verb`` with ``options`` (by default, one to choose)."""
    cid = _custom_id(verb, table, version, arg, Kind.SELECT)
    return UnoSelect(
        cid,
        discord.ui.Select(
            custom_id=cid.encode(),
            placeholder=placeholder[:150],
            options=options,
            min_values=min_values,
            max_values=max_values,
            row=BY_NAME[verb].row if row is None else row,
        ),
    )
