"""The lobby's rules editor: an ephemeral message the host changes house rules with.

Pages of controls (``_house.controls``) — a page's switches in one select, each other house
rule in its own — and page buttons; every choice is saved at once and the editor is shown
again. Everything comes from the house rules' declaration (``_house.HOUSE_RULES``).
"""

from __future__ import annotations

import discord

from tables import Table

from ._components import button, select
from ._house import BY_KEY, PAGE_NAMES, controls, differences, switches
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
    page = page if page in PAGE_NAMES else PAGE_NAMES[0]
    for key in controls(page):
        if key.startswith("on-"):
            on = switches(page)
            options = [
                discord.SelectOption(
                    label=rule.label[:100], value=rule.key, default=rule.is_on(rules)
                )
                for rule in on
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
        rule = BY_KEY[key]
        current = rule.current(rules)
        options = [
            discord.SelectOption(
                label=f"{rule.label}: {rule.choice_label(choice)}"[:100],
                value=choice.value,
                default=current is not None and choice.value == current.value,
            )
            for choice in rule.choices
        ]
        view.add_item(select("rule", table.id, None, key, placeholder=rule.label, options=options))
    for target in (*PAGE_NAMES, "reset"):
        style = "primary" if target == page else "secondary"
        view.add_item(
            button("ruleset", table.id, None, target, label=t(f"editor.{target}"), style=style)
        )
    return Payload(None, embed, None, "", "", view)
