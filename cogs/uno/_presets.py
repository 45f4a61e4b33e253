"""The presets a person may choose: the built-in ones and the server's house presets."""

from __future__ import annotations

from discord import app_commands

from engine import PRESETS
from storage import HousePresets

from ._i18n import t
from ._present import preset_name


async def preset_choices(
    presets: HousePresets, guild_id: int, typed: str, *, built_in: bool = True
) -> list[app_commands.Choice[str]]:
    """Autocomplete of a preset: the built-in ones (``built_in``), then the server's own, that
    contain what was typed; at most the 25 Discord shows."""
    wanted = typed.strip().casefold()
    choices = [
        app_commands.Choice(name=preset_name(name), value=name)
        for name in (PRESETS if built_in else ())
        if wanted in name or wanted in preset_name(name).casefold()
    ]
    choices += [
        app_commands.Choice(name=t("preset.house", name=p.name)[:100], value=p.name)
        for p in await presets.all(guild_id)
        if wanted in p.name.casefold()
    ]
    return choices[:25]
