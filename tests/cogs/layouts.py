"""Reading a Components V2 layout in tests: its text, its ids, Discord's limits on it."""

from __future__ import annotations

from typing import Any

import discord

#: Discord's limits for one Components V2 message.
MAX_COMPONENTS = 40
MAX_TEXT = 4000


def count_components(components: list[dict[str, Any]]) -> int:
    """Every component of a message, nested ones included (as Discord counts them)."""
    total = 0
    for component in components:
        total += 1
        total += count_components(component.get("components", []))
        accessory = component.get("accessory")
        if accessory is not None:
            total += 1
    return total


def layout_text(view: discord.ui.LayoutView) -> str:
    """What a reader sees as text: the text displays, in order."""
    return "\n".join(
        item.content for item in view.walk_children() if isinstance(item, discord.ui.TextDisplay)
    )


def check_layout(view: discord.ui.LayoutView) -> list[str]:
    """Discord's limits on a Components V2 message; returns its custom_ids, in order."""
    components = view.to_components()
    assert count_components(components) <= MAX_COMPONENTS
    assert len(layout_text(view)) <= MAX_TEXT
    ids = [
        item.custom_id
        for item in view.walk_children()
        if isinstance(item, discord.ui.Button | discord.ui.Select) and item.custom_id is not None
    ]
    assert len(set(ids)) == len(ids), ids
    assert all(len(custom_id) <= 100 for custom_id in ids)
    return ids
