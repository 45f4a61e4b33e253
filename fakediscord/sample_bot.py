"""A tiny discord.py bot that exercises the fake Discord (used by ``test_fake_discord.py``).

Run it like the real bot, through the launcher:
``FAKE_DISCORD_BOT=fakediscord.sample_bot python -m fakediscord.launch``.
It reads the same settings as ``bot.py``: DISCORD_TOKEN, DATABASE_PATH, DEV_GUILD_ID,
LOG_LEVEL. The slash command group ``/demo`` covers what the UNO bot needs from Discord:
ephemeral replies with files, public messages with persistent (``DynamicItem``) buttons and
selects, autocomplete, deferred answers with followups, modals and plain channel messages;
``/demo clock``, ``/demo later`` and ``/demo edit`` let the fake's own tests see the fake clock
and Discord's time limits from inside a discord.py process. ``/demo layout`` answers with a
Components V2 message (discord.py's ``LayoutView``) whose buttons sit inside a container and a
section; ``/demo silent`` never answers, so a test can answer through REST itself. With
``SAMPLE_EMOJIS=1`` the bot makes sure its application emoji ``demo_card`` exists at start-up,
creating it only when ``fetch_application_emojis`` does not list it.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import io
import json
import logging
import os
import re
import signal
import sqlite3
import sys
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

log = logging.getLogger("sample_bot")

CARDS = ["Red 7", "Red Skip", "Green 2", "Blue Reverse", "Wild Draw Four"]
COLOURS = ["red", "green", "blue", "yellow"]
#: The smallest valid PNG (1x1, red): the picture of the ``demo_card`` emoji.
CARD_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de"
    "0000000c4944415408d763f8cfc000000301010018dd8db00000000049454e44ae426082"
)
CARD_EMOJI = "demo_card"


class Press(discord.ui.Button["TableLayout"]):
    """A button of the layout; every press counts as a play."""

    async def callback(self, interaction: discord.Interaction) -> None:
        assert self.view is not None
        await self.view.play(interaction)


class Choose(discord.ui.Select["TableLayout"]):
    """A select of the layout; every choice counts as a play."""

    async def callback(self, interaction: discord.Interaction) -> None:
        assert self.view is not None
        await self.view.play(interaction)


class TableLayout(discord.ui.LayoutView):
    """A Components V2 table: a red container, a section with the card's emoji picture,
    a row of buttons in the container, and a section whose accessory is a button."""

    def __init__(self, plays: int, emoji: discord.Emoji | None) -> None:
        super().__init__(timeout=None)
        card = str(emoji) if emoji is not None else "🟥"
        picture = emoji.url if emoji is not None else "https://example.com/red7.png"
        play = Press(label="Play", custom_id="demo:layout:play", emoji=emoji or "🟥")
        draw = Press(label="Draw", custom_id="demo:layout:draw")
        call = Press(label="UNO!", custom_id="demo:layout:uno")
        colour = Choose(
            custom_id="demo:layout:colour",
            placeholder="Choose a colour",
            options=[discord.SelectOption(label=c.title(), value=c) for c in COLOURS],
        )
        self.add_item(
            discord.ui.Container(
                discord.ui.Section(
                    discord.ui.TextDisplay(f"## Top card {card}"),
                    discord.ui.TextDisplay(f"Plays so far: {plays}"),
                    accessory=discord.ui.Thumbnail(picture, description="Red 7"),
                ),
                discord.ui.Separator(),
                discord.ui.ActionRow(play, draw),
                discord.ui.Section(discord.ui.TextDisplay("Two cards left?"), accessory=call),
                discord.ui.ActionRow(colour),
                accent_colour=0xE53935,
            )
        )
        self.plays = plays
        self.emoji = emoji

    async def play(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        log.info("layout: %s pressed %s", data.get("custom_id"), data.get("values", []))
        await interaction.response.edit_message(view=TableLayout(self.plays + 1, self.emoji))


class CounterButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:count:(?P<n>\d+)"
):
    """A persistent button whose state lives in its custom id; survives restarts."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}", style=discord.ButtonStyle.primary, custom_id=f"demo:count:{n}"
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, SampleBot)
        total = bot.record_click(interaction.user.id)
        await interaction.response.edit_message(
            content=f"Count: {self.n + 1} (clicks recorded: {total})", view=board_view(self.n + 1)
        )


class ColourSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"demo:colour"):
    """A persistent select menu; answers the chooser privately."""

    def __init__(self) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="demo:colour",
                placeholder="Pick a colour",
                options=[discord.SelectOption(label=c.title(), value=c) for c in COLOURS],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ColourSelect:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"You chose {self.item.values[0]}", ephemeral=True)


def board_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(n))
    view.add_item(ColourSelect())
    return view


class NameModal(discord.ui.Modal, title="Who are you?"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hello {self.name.value}", ephemeral=True)


demo = app_commands.Group(name="demo", description="Self-test commands for the fake Discord")


@demo.command(name="secret", description="An ephemeral reply with a file")
async def secret(interaction: discord.Interaction) -> None:
    data = f"secret hand of {interaction.user.id}\n".encode()
    await interaction.response.send_message(
        "Your hand", ephemeral=True, file=discord.File(io.BytesIO(data), filename="hand.txt")
    )


@demo.command(name="board", description="A public message with a persistent button")
async def board(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Count: 0", view=board_view(0))


async def card_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=card, value=card.lower().replace(" ", "-"))
        for card in CARDS
        if current.lower() in card.lower()
    ]


@demo.command(name="pick", description="Pick a card (autocomplete)")
@app_commands.describe(card="The card")
@app_commands.autocomplete(card=card_autocomplete)
async def pick(interaction: discord.Interaction, card: str) -> None:
    await interaction.response.send_message(f"You picked {card}", ephemeral=True)


@demo.command(name="slow", description="Defer, think, then follow up")
async def slow(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(0.5)
    await interaction.followup.send("Done thinking")
    await interaction.followup.send("Only you see this", ephemeral=True)


@demo.command(name="wait", description="Answer after some seconds")
async def wait(interaction: discord.Interaction, seconds: app_commands.Range[float, 0, 10]) -> None:
    await asyncio.sleep(seconds)
    await interaction.response.send_message(f"Waited {seconds}s")


@demo.command(name="clock", description="The bot's clocks, as JSON")
async def clock(interaction: discord.Interaction) -> None:
    readings = {
        "time": time.time(),
        "monotonic": time.monotonic(),
        "loop": asyncio.get_running_loop().time(),
        "perf_counter": time.perf_counter(),
        "datetime": dt.datetime.now(tz=dt.UTC).timestamp(),
    }
    await interaction.response.send_message(json.dumps(readings), ephemeral=True)


@demo.command(name="later", description="Answer now, edit the answer after some seconds")
async def later(
    interaction: discord.Interaction, seconds: app_commands.Range[float, 0, 7200], text: str
) -> None:
    await interaction.response.send_message(f"Waiting {seconds}s")
    await asyncio.sleep(seconds)  # on the loop clock: the fake clock moves it
    try:
        await interaction.edit_original_response(content=text)
    except discord.HTTPException as exc:
        log.warning("later: the edit failed with %s %s", exc.status, exc.code)
    else:
        log.info("later: edited")


@demo.command(name="edit", description="Edit one of the bot's channel messages")
async def edit(interaction: discord.Interaction, message_id: str, text: str) -> None:
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    try:
        await channel.get_partial_message(int(message_id)).edit(content=text)
    except discord.HTTPException as exc:
        await interaction.response.send_message(
            f"Edit failed: {exc.status} {exc.code}", ephemeral=True
        )
        return
    await interaction.response.send_message("Edited", ephemeral=True)


@demo.command(name="layout", description="A Components V2 table with nested buttons")
async def layout(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, SampleBot)
    await interaction.response.send_message(view=TableLayout(0, bot.card_emoji))


@demo.command(name="silent", description="Never answer (the test answers by REST)")
async def silent(interaction: discord.Interaction) -> None:
    log.info("silent: %s", interaction.id)


#: Discord applies default permissions to top-level commands only, so they go on the group.
demo_admin = app_commands.Group(
    name="demo-admin",
    description="Only for server managers",
    default_permissions=discord.Permissions(manage_guild=True),
)


@demo_admin.command(name="reset", description="A command for managers")
async def admin_reset(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Admin ok", ephemeral=True)


@demo.command(name="whoami", description="Describe a member and your locale")
async def whoami(interaction: discord.Interaction, target: discord.Member) -> None:
    await interaction.response.send_message(
        f"{target.name} ({target.id}); you speak {interaction.locale.value}", ephemeral=True
    )


@demo.command(name="modal", description="Ask for a name in a modal")
async def modal(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NameModal())


@demo.command(name="announce", description="Post, edit and thread a channel message")
async def announce(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send(text, file=discord.File(io.BytesIO(b"PNG?"), filename="board.png"))
    await message.edit(content=f"{text} (edited)")
    thread = await channel.create_thread(name="game", type=discord.ChannelType.public_thread)
    await thread.send("Game thread")
    await interaction.user.send("Psst, a direct message")
    await interaction.edit_original_response(content=f"Posted {message.id}")


class SampleBot(commands.Bot):
    def __init__(self, dev_guild_id: int | None, database_path: str) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.dev_guild_id = dev_guild_id
        self.db = sqlite3.connect(database_path)
        self.db.execute("CREATE TABLE IF NOT EXISTS clicks (user_id INTEGER)")
        self.tree.add_command(demo)
        self.tree.add_command(demo_admin)
        self.card_emoji: discord.Emoji | None = None

    def record_click(self, user_id: int) -> int:
        with self.db:
            self.db.execute("INSERT INTO clicks VALUES (?)", (user_id,))
        (total,) = self.db.execute("SELECT COUNT(*) FROM clicks").fetchone()
        return int(total)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton, ColourSelect)
        if os.environ.get("SAMPLE_EMOJIS") == "1":
            await self.ensure_emoji()
        if self.dev_guild_id is not None:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def ensure_emoji(self) -> None:
        """Find ``demo_card`` among the application's emojis; create it only if missing."""
        found = [e for e in await self.fetch_application_emojis() if e.name == CARD_EMOJI]
        if found:
            self.card_emoji = found[0]
            log.info("emoji %s reused", self.card_emoji.id)
        else:
            self.card_emoji = await self.create_application_emoji(name=CARD_EMOJI, image=CARD_PNG)
            log.info("emoji %s created", self.card_emoji.id)

    async def on_ready(self) -> None:
        log.info("sample bot ready as %s", self.user)

    async def close(self) -> None:
        await super().close()
        self.db.close()


async def run(token: str, dev_guild_id: int | None, database_path: str) -> None:
    async with SampleBot(dev_guild_id, database_path) as bot:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
        await bot.start(token)


def main() -> int:
    token = os.environ.get("DISCORD_TOKEN", "")
    guild = os.environ.get("DEV_GUILD_ID", "").strip()
    database_path = os.environ.get("DATABASE_PATH", "").strip() or ":memory:"
    level = os.environ.get("LOG_LEVEL", "INFO").strip().upper()
    discord.utils.setup_logging(level=getattr(logging, level, logging.INFO))
    try:
        asyncio.run(run(token, int(guild) if guild else None, database_path))
    except discord.LoginFailure:
        sys.stderr.write("login failed\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
