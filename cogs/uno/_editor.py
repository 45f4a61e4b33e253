"""The lobby's rules editor: an ephemeral message the host changes house rules with.

Two pages of controls (``_house.PAGES``) — switches in one select, settings in their own —
and page buttons; every choice is saved at once and the editor is shown again.
"""

from __future__ import annotations

import discord

from tables import Table

from ._components import button, select
from ._house import PAGES, SETTINGS, SWITCHES, differences
from ._i18n import t
from ._messages import Payload
from ._present import preset_name


def editor_payload(table: Table, page: str) -> Payload:
    """The ephemeral rules editor of a lobby: the controls of ``page`` and the page buttons."""
    rules = table.rules
    view = discord.ui.View(timeout=None)
    embed = discord.Embed(
        title=t("editor.title", preset=preset_name(table.preset)),
        colour=discord.Colour.gold(),
    )
    changed = differences(rules, table.preset)
    lines = [t("editor.help")]
    lines.append("")
    lines.append(
        t("editor.changed", changes="; ".join(changed)) if changed else t("editor.as_preset")
    )
    embed.description = "\n".join(lines)[:4000]
    for key in PAGES.get(page, PAGES["play"]):
        if key == "switches":
            options = [
                discord.SelectOption(
                    label=switch.label[:100], value=switch.option, default=switch.is_on(rules)
                )
                for switch in SWITCHES
            ]
            view.add_item(
                select(
                    "rule",
                    table.id,
                    None,
                    key,
                    placeholder=t("editor.switches"),
                    options=options,
                    min_values=0,
                    max_values=len(options),
                )
            )
            continue
        setting = SETTINGS[key]
        current = setting.current(rules)
        options = [
            discord.SelectOption(
                label=f"{t(f'house.{key}')}: {setting.label(choice)}"[:100],
                value=choice.value,
                default=current is not None and choice.value == current.value,
            )
            for choice in setting.choices
        ]
        view.add_item(
            select("rule", table.id, None, key, placeholder=t(f"house.{key}"), options=options)
        )
    for target in ("play", "match", "reset"):
        style = "primary" if target == page else "secondary"
        view.add_item(
            button("ruleset", table.id, None, target, label=t(f"editor.{target}"), style=style)
        )
    return Payload(None, embed, None, "", "", view)
