"""Restart-proof buttons and selects: ``DynamicItem``s whose custom_id is the only state.

``from_custom_id`` only parses (it runs on Discord's 3-second clock); every callback goes to
the cog's one error boundary, ``Uno.on_component``. The ``OtherId`` item matches every other
``uno:`` id, so a forged, mangled or outdated id still gets a polite answer.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from ._custom_ids import TEMPLATES, CustomId, decode

if TYPE_CHECKING:
    from re import Match

log = logging.getLogger(__name__)


class ComponentHandler(Protocol):
    """What the cog offers to components."""

    async def on_component(
        self, interaction: discord.Interaction[Any], cid: CustomId | None, values: Sequence[str]
    ) -> None: ...


async def _dispatch(
    interaction: discord.Interaction[Any], cid: CustomId | None, values: Sequence[str]
) -> None:
    handler = interaction.client.get_cog("Uno")
    if handler is None:  # the cog is being reloaded: answer rather than fail silently
        await interaction.response.send_message(
            "The UNO module is restarting — try again in a moment.", ephemeral=True
        )
        return
    await handler.on_component(interaction, cid, values)


def _button(
    cid: CustomId, label: str, style: discord.ButtonStyle, **kwargs: Any
) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, style=style, custom_id=cid.encode(), **kwargs)


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATES["table"]):
    """Join, Leave, Start and Show my hand on the public table message (no version)."""

    def __init__(
        self, cid: CustomId, label: str, style: discord.ButtonStyle, **kwargs: Any
    ) -> None:
        super().__init__(_button(cid, label, style, **kwargs))
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Match[str]
    ) -> TableButton:
        cid = decode(match.string)
        assert cid is not None
        return cls(cid, getattr(item, "label", None) or "", discord.ButtonStyle.secondary)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.cid, ())


class TurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATES["turn"]):
    """Draw, Pass, UNO! and Challenge on a hand (versioned)."""

    def __init__(
        self, cid: CustomId, label: str, style: discord.ButtonStyle, **kwargs: Any
    ) -> None:
        super().__init__(_button(cid, label, style, **kwargs))
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Match[str]
    ) -> TurnButton:
        cid = decode(match.string)
        assert cid is not None
        return cls(cid, getattr(item, "label", None) or "", discord.ButtonStyle.secondary)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.cid, ())


class ArgButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATES["arg"]):
    """Catch a player, name a colour, choose the start colour, turn a page (versioned)."""

    def __init__(
        self, cid: CustomId, label: str, style: discord.ButtonStyle, **kwargs: Any
    ) -> None:
        super().__init__(_button(cid, label, style, **kwargs))
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Match[str]
    ) -> ArgButton:
        cid = decode(match.string)
        assert cid is not None
        return cls(cid, getattr(item, "label", None) or "", discord.ButtonStyle.secondary)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.cid, ())


def _select(
    cid: CustomId, placeholder: str, options: list[discord.SelectOption]
) -> discord.ui.Select[Any]:
    return discord.ui.Select(
        custom_id=cid.encode(), placeholder=placeholder, options=options, min_values=1, max_values=1
    )


class CardSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=TEMPLATES["pick"]):
    """The playable cards of a hand, a page of at most 25 (versioned)."""

    def __init__(
        self, cid: CustomId, placeholder: str, options: list[discord.SelectOption]
    ) -> None:
        super().__init__(_select(cid, placeholder, options))
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Match[str]
    ) -> CardSelect:
        cid = decode(match.string)
        assert cid is not None
        options = list(getattr(item, "options", []))
        return cls(cid, getattr(item, "placeholder", None) or "", options)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.cid, self.item.values)


class SwapSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=TEMPLATES["swap"]):
    """The opponents to swap hands with (versioned)."""

    def __init__(
        self, cid: CustomId, placeholder: str, options: list[discord.SelectOption]
    ) -> None:
        super().__init__(_select(cid, placeholder, options))
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Match[str]
    ) -> SwapSelect:
        cid = decode(match.string)
        assert cid is not None
        options = list(getattr(item, "options", []))
        return cls(cid, getattr(item, "placeholder", None) or "", options)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.cid, self.item.values)


class OtherId(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATES["other"]):
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


ALL_COMPONENTS = (TableButton, TurnButton, ArgButton, CardSelect, SwapSelect, OtherId)
