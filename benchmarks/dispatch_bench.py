"""CPU per click: discord.py's ``DynamicItem`` dispatch against routing a click by its id.

Until issue #11 every button and select of the bot was a ``DynamicItem`` whose template came
from the verb registry. For each click discord.py then matches the id against every
registered template, and for a match rebuilds a whole ``View`` from the clicked message (an
item for each of its components), swaps the dynamic item in, refreshes its state and runs its
callback in a new task. The bot now routes clicks in the ``Uno`` cog's ``on_interaction``:
``_components.routed`` decodes the id with the same registry (``_verbs.decode``) and checks
the kind of component.

This script builds the same component interaction as the bot receives for a pick in a hand
message (a select of ten cards and three buttons), turns it into a ``discord.Interaction``
as discord.py does, and hands it to:

* ``base``: nothing (the cost of the interaction object itself, paid either way);
* ``dynamic``: discord.py's view store, with dynamic items of the registry's two templates
  (what the bot registered before);
* ``routed``: ``routed(interaction.data)``.

Both handlers end in the same no-op. Rounds alternate the order; it prints the CPU time per
click (``time.process_time``) of each, and the extra cost over ``base``.

    PYTHONPATH=. python benchmarks/dispatch_bench.py [--clicks 3000] [--rounds 6]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import time
from pathlib import Path
from re import Match
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
from discord.user import ClientUser  # noqa: E402

from cogs.uno._components import routed  # noqa: E402
from cogs.uno._verbs import Kind, template  # noqa: E402

TABLE, VERSION = "3k9z2m", 57
handled = 0


async def handle(interaction: discord.Interaction[Any], cid: Any, values: Any) -> None:
    global handled
    handled += 1


class OldButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=template(Kind.BUTTON)):
    """The bot's former button item (same template, same from_custom_id work)."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Match[str]
    ) -> OldButton:
        return cls(discord.ui.Button(custom_id=match.string))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await handle(interaction, self.custom_id, ())


class OldSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=template(Kind.SELECT)):
    """The bot's former select item."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Match[str]
    ) -> OldSelect:
        options = list(getattr(item, "options", []))
        return cls(discord.ui.Select(custom_id=match.string, options=options))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await handle(interaction, self.custom_id, self.item.values)


def hand_message() -> dict[str, Any]:
    options = [{"label": f"Red {n}", "value": f"R{n}", "default": False} for n in range(10)]
    buttons = [
        {"type": 2, "style": 2, "label": verb, "custom_id": f"uno:1:{verb}:{TABLE}:{VERSION}"}
        for verb in ("draw", "uno", "challenge")
    ]
    select = {
        "type": 3,
        "custom_id": f"uno:1:pick:{TABLE}:{VERSION}:0",
        "options": options,
        "placeholder": "Play a card",
        "min_values": 1,
        "max_values": 1,
    }
    bot = {"id": "1", "username": "UNO", "discriminator": "0", "avatar": None, "bot": True}
    return {
        "id": "1574707313061789999",
        "channel_id": "1574707313061789000",
        "author": bot,
        "content": "",
        "timestamp": "2026-11-24T09:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [{"title": "Your hand — 10 cards", "description": "· Red 1\n" * 10}],
        "pinned": False,
        "type": 0,
        "flags": 64,
        "components": [
            {"type": 1, "components": [select]},
            {"type": 1, "components": buttons},
        ],
    }


def click(n: int) -> dict[str, Any]:
    user = {"id": "42", "username": "alice", "discriminator": "0", "avatar": None}
    return {
        "id": str(10**17 + n),
        "application_id": "1",
        "type": 3,
        "token": "token",
        "version": 1,
        "channel_id": "1574707313061789000",
        "guild_id": "1574707313061788000",
        "locale": "en-US",
        "guild_locale": "en-US",
        "app_permissions": "0",
        "attachment_size_limit": 10 * 1024 * 1024,
        "entitlements": [],
        "authorizing_integration_owners": {},
        "context": 0,
        "member": {
            "user": user,
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "permissions": "0",
            "flags": 0,
        },
        "message": hand_message(),
        "data": {
            "custom_id": f"uno:1:pick:{TABLE}:{VERSION}:0",
            "component_type": 3,
            "values": ["R3"],
        },
    }


async def main(clicks: int, rounds: int) -> None:
    global handled
    client = discord.Client(intents=discord.Intents(guilds=True), max_messages=None)
    state = client._connection
    me = {"id": "1", "username": "UNO", "discriminator": "0", "avatar": None, "bot": True}
    state.user = ClientUser(state=state, data=me)  # type: ignore[arg-type]
    store = state._view_store
    store.add_dynamic_items(OldButton, OldSelect)
    payloads = [click(n) for n in range(clicks)]

    async def base() -> None:
        for payload in payloads:
            discord.Interaction(data=payload, state=state)  # type: ignore[arg-type]
            await asyncio.sleep(0)

    async def dynamic() -> None:
        for payload in payloads:
            interaction = discord.Interaction(data=payload, state=state)  # type: ignore[arg-type]
            store.dispatch_view(3, payload["data"]["custom_id"], interaction)
            await asyncio.sleep(0)
        while handled < clicks:  # noqa: ASYNC110 - the tasks are discord.py's own
            await asyncio.sleep(0)

    async def route() -> None:
        for payload in payloads:
            interaction = discord.Interaction(data=payload, state=state)  # type: ignore[arg-type]
            cid, values = routed(interaction.data or {})
            await handle(interaction, cid, values)
            await asyncio.sleep(0)

    runs = {"base": base, "dynamic": dynamic, "routed": route}
    cost: dict[str, list[float]] = {name: [] for name in runs}
    for n in range(rounds):
        order = list(runs) if n % 2 == 0 else list(reversed(runs))
        for name in order:
            gc.collect()
            handled = 0
            started = time.process_time()
            await runs[name]()
            cost[name].append((time.process_time() - started) / clicks * 1e6)
            if name != "base" and handled != clicks:
                raise AssertionError(f"{name}: {handled} of {clicks} clicks handled")
    base_us = statistics.median(cost["base"])
    for name, values in cost.items():
        median = statistics.median(values)
        print(
            f"{name:8} {median:7.1f} µs CPU per click (median of {rounds}; "
            f"min {min(values):.1f}); over base {median - base_us:+.1f} µs"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    asyncio.run(main(args.clicks, args.rounds))
