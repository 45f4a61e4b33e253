"""The floor of ``bot_bench.py``: the least a discord.py bot does for the same interactions.

It answers every interaction the benchmark's players send (``/uno new``, ``/uno join``,
``/uno hand``, the Join/Start/Show-my-hand buttons, the card menu and Draw) the way the UNO
bot does on the wire — the same deferrals, the same edit of the answer, the same post or edit
of the channel's table message — but with no game behind it: a table is a version number and
whose turn it is, a hand is three fixed cards, and there are no pictures, no database, no
clock. The benchmark's drivers read it like the real bot (whose turn from the mention, the
version from the footer), so the two see the same interaction mix, and the CPU time the
floor spends per interaction is what discord.py and the fake's traffic cost by themselves.

Run by the benchmark through the fake Discord's launcher (``FAKE_DISCORD_BOT=
benchmarks.floor_bot``); it reads ``DISCORD_TOKEN``, ``DEV_GUILD_ID`` and
``MONITOR_EVENT_LOOP`` and reports its event-loop stalls and garbage collections with the
bot's own probe (``bot.watch_event_loop``), so both are measured the same way.

``FLOOR_OPEN_HANDS=1`` (``bot_bench.py --keep-hands``): like the UNO bot's open hands, the
last hand message each player was shown follows the turn — when a move gives a player the
turn, their hand is edited through the interaction that showed it (one edit a move).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import sys
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from bot import watch_event_loop

log = logging.getLogger("floor")

CARDS = ("R1", "G2", "B3")


@dataclass
class FloorTable:
    id: str
    channel_id: int
    players: list[int] = field(default_factory=list)
    version: int = 0
    turn: int = 0
    hand: int = 0  # 0: the lobby
    message_id: int | None = None
    #: Per player, the interaction that last showed them their hand (FLOOR_OPEN_HANDS).
    open_hands: dict[int, discord.Interaction[Any]] = field(default_factory=dict)


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()  # answered in on_interaction: discord.py need not keep it
    return view


class FloorBot(discord.Client):
    def __init__(self, dev_guild_id: int) -> None:
        super().__init__(intents=discord.Intents(guilds=True), max_messages=None)
        self.tree = app_commands.CommandTree(self)
        self.guild = discord.Object(id=dev_guild_id)
        self.tables: dict[int, FloorTable] = {}  # by channel
        self.by_id: dict[str, FloorTable] = {}
        self.count = 0
        self.open_hands = os.environ.get("FLOOR_OPEN_HANDS", "").strip() == "1"
        group = app_commands.Group(name="uno", description="UNO (the benchmark's floor)")

        @group.command(name="new", description="Open a table")
        async def new(
            interaction: discord.Interaction, preset: str | None = None, points: int | None = None
        ) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            self.count += 1
            table = FloorTable(f"t{self.count}", interaction.channel_id or 0, [interaction.user.id])
            self.tables[table.channel_id] = self.by_id[table.id] = table
            await self.show(table)
            await interaction.edit_original_response(content="Table opened.")

        @group.command(name="join", description="Sit down")
        async def join(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            table = self.tables[interaction.channel_id or 0]
            await self.sit(interaction, table)

        @group.command(name="hand", description="Show your hand")
        async def hand(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            table = self.tables[interaction.channel_id or 0]
            await self.show_hand(interaction, table)

        self.tree.add_command(group, guild=self.guild)

    async def setup_hook(self) -> None:
        if os.environ.get("MONITOR_EVENT_LOOP", "").strip() == "1":
            self.loop.create_task(watch_event_loop())
        await self.tree.sync(guild=self.guild)
        gc.collect()
        gc.freeze()

    # -- the messages

    def table_kwargs(self, table: FloorTable) -> dict[str, Any]:
        embed = discord.Embed(title=f"UNO — hand {table.hand}" if table.hand else "UNO — lobby")
        embed.set_footer(text=f"{table.id} · version {table.version}")
        if table.hand:
            content = f"Turn: <@{table.players[table.turn]}>"
            items: list[Any] = [button("Show my hand", f"uno:1:hand:{table.id}")]
        else:
            content = None
            items = [button("Join", f"uno:1:join:{table.id}")]
            items.append(button("Start", f"uno:1:start:{table.id}"))
        return {
            "content": content,
            "embed": embed,
            "view": _view(*items),
            "allowed_mentions": discord.AllowedMentions.none(),
        }

    def hand_kwargs(self, table: FloorTable) -> dict[str, Any]:
        embed = discord.Embed(title=f"Your hand — {len(CARDS)} cards")
        embed.set_footer(text=f"{table.id} · version {table.version}")
        menu: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"uno:1:pick:{table.id}:{table.version}:0",
            options=[discord.SelectOption(label=card, value=card) for card in CARDS],
        )
        draw = button("Draw", f"uno:1:draw:{table.id}:{table.version}")
        return {"embed": embed, "view": _view(menu, draw)}

    async def show_hand(self, interaction: discord.Interaction, table: FloorTable) -> None:
        """The player's hand in the interaction's response (kept, to follow the turn)."""
        await interaction.edit_original_response(**self.hand_kwargs(table))
        if self.open_hands:
            table.open_hands[interaction.user.id] = interaction

    async def follow_turn(self, table: FloorTable) -> None:
        """The hand of the player whose turn it is now shows the turn (FLOOR_OPEN_HANDS)."""
        if not self.open_hands:
            return
        shown = table.open_hands.get(table.players[table.turn])
        if shown is not None:
            await shown.edit_original_response(**self.hand_kwargs(table))

    async def show(self, table: FloorTable) -> None:
        channel = self.get_partial_messageable(table.channel_id)
        if table.message_id is None:
            message = await channel.send(**self.table_kwargs(table))
            table.message_id = message.id
        else:
            await channel.get_partial_message(table.message_id).edit(**self.table_kwargs(table))

    async def sit(self, interaction: discord.Interaction, table: FloorTable) -> None:
        table.players.append(interaction.user.id)
        table.version += 1
        await interaction.edit_original_response(content="You sit down.")
        await self.show(table)

    # -- the components

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        parts = str((interaction.data or {}).get("custom_id", "")).split(":")
        table = self.by_id.get(parts[3]) if len(parts) > 3 else None
        if table is None:
            return
        verb = parts[2]
        if verb in ("pick", "draw"):
            await interaction.response.defer()
            table.version += 1
            table.turn = (table.turn + 1) % len(table.players)
            await self.show_hand(interaction, table)
            await self.show(table)
            await self.follow_turn(table)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        if verb == "join":
            await self.sit(interaction, table)
        elif verb == "start":
            table.hand, table.version = 1, table.version + 1
            await interaction.edit_original_response(content="Started.")
            await self.show(table)
        elif verb == "hand":
            await self.show_hand(interaction, table)


def button(label: str, custom_id: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, custom_id=custom_id)


async def run(token: str, dev_guild_id: int) -> None:
    async with FloorBot(dev_guild_id) as client:
        await client.start(token)


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="[%(levelname)s] %(name)s: %(message)s")
    token = os.environ["DISCORD_TOKEN"]
    guild = int(os.environ["DEV_GUILD_ID"])
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(token, guild))
    return 0


if __name__ == "__main__":
    sys.exit(main())
