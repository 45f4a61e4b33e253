"""Shared pieces of the end-to-end tests: a world, the real bot, and ways to read it.

The tests act only as users do (slash commands, clicks, selects) against the fake Discord.
To build exact situations they stack a hand in the database between two interactions, the
way a deck is stacked at a real table: the bot keeps nothing in memory between clicks, so it
simply plays on from the stored state.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import random
import re
import sqlite3
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from PIL import Image

import players
from engine import CallUno, CatchUno, Challenge, ChooseColour, Draw, Pass, Play
from engine.auto import auto_action
from engine.game import deal
from fakediscord import BotProcess, FakeDiscord
from fakediscord.emojis import FakeEmoji
from fakediscord.layout import walk_components
from fakediscord.patience import PATIENCE
from fakediscord.process import REPO_ROOT
from renders.emoji import emoji_set
from storage import GameRepository
from tables.table import Table

HAND_TITLE = re.compile(r"^Your hand — \d+ cards?$")


@dataclass
class World:
    """The fake Discord, the bot process and the people in it."""

    fake: FakeDiscord
    bot: BotProcess
    guild: Any
    channel: Any
    other_channel: Any
    alice: Any
    bruno: Any
    carla: Any
    dario: Any  # a member who never sits down
    database: Path | str  # an SQLite file, or a postgresql:// URL (tests/e2e/test_cluster.py)
    #: Versions the test itself wrote behind the bot's back (``stack``): no message shows them
    #: until the bot's next change, so nobody waits for one.
    stacked: set[tuple[str, int]] = dataclasses.field(default_factory=set)

    @property
    def players(self) -> list[Any]:
        return [self.alice, self.bruno, self.carla]


def _placeholder_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGBA", (2, 2)).save(buffer, format="PNG")
    return buffer.getvalue()


def add_card_emojis(fake: FakeDiscord) -> None:
    """The application's card emojis, as a first start of the bot left them: named as this
    code names them (``renders.emoji_set``), so a start finds them all and draws and uploads
    none — drawing them took 0.9 s of CPU per start of the bot. Their pictures are
    placeholders: the tests read which emoji a message shows, never its pixels."""
    picture = _placeholder_png()
    for art in emoji_set():
        emoji = FakeEmoji(
            fake.ids(), art.versioned_name, picture, "image/png", user=fake.emojis.uploader
        )
        fake.emojis.application[emoji.id] = emoji


@contextlib.asynccontextmanager
async def make_world(
    tmp_path: Path,
    env: dict[str, str] | None = None,
    *,
    allow_codes: Sequence[int] = (),
    database: str | None = None,
    checkout: Path | None = None,
    check: bool = True,
    emojis: bool = True,
) -> AsyncIterator[World]:
    """A guild with two channels and four members (dario manages the server), and the bot
    (on an SQLite file, or on ``database``, a PostgreSQL URL). At the end nothing the bot
    sent may have been refused, but for Discord's error codes ``allow_codes`` names (a test
    that makes Discord fail expects some), and the bot's log holds no traceback (``check``:
    a benchmark that measures a bot's failures reads them instead). ``checkout`` runs the
    bot of another copy of the code (benchmarks/faults_bench.py: before and after).
    ``emojis``: the card emojis are there already (:func:`add_card_emojis`); ``False``: the
    application has none, as before the bot's first start, which uploads them."""
    fake = FakeDiscord()
    if emojis and checkout is None:
        add_card_emojis(fake)
    guild = fake.add_guild("UNO night")
    channel = guild.add_text_channel("uno")
    other = guild.add_text_channel("general")
    users = [fake.add_user(name) for name in ("alice", "bruno", "carla", "dario")]
    for user in users:
        guild.add_member(user, manage_guild=user.name == "dario")
    await fake.start()
    where: Path | str = tmp_path / "uno.sqlite3"
    settings = dict(env or {})
    if database is not None:
        where = settings["DATABASE_URL"] = database
        # The bot's limits on a statement and on a connection attempt run on the fake
        # clock: a test that lets 30 s pass in a few milliseconds would time out a statement
        # that ran for those milliseconds. The limits are tested in tests/storage; here they
        # are set to the longest the settings allow, out of the way of such jumps.
        settings.setdefault("DATABASE_TIMEOUT_SECONDS", "600")
        settings.setdefault("DATABASE_CONNECT_TIMEOUT_SECONDS", "120")
    try:
        async with BotProcess(
            fake,
            database_path=tmp_path / "uno.sqlite3",
            dev_guild=guild,
            env=settings,
            cwd=checkout or REPO_ROOT,
        ) as bot:
            yield World(fake, bot, guild, channel, other, *users, where)
            if check:
                fake.assert_clean(allow_codes=allow_codes)
                bot.assert_healthy()
    finally:
        await fake.close()


@pytest.fixture
async def world(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[World]:
    async with make_world(tmp_path) as made:
        yield made
        # A fixture does not see its test's exception: when the test failed, say what the
        # bot said, as make_world does for a test that uses it directly.
        report = getattr(request.node, "report_of_call", None)
        if report is not None and report.failed:
            sys.stderr.write(f"\n--- bot output ---\n{made.bot.output_text}\n")


# -- reading what users see -------------------------------------------------------------------


def custom_ids(message: Any) -> list[str]:
    """Every component id on a message, in reading order: in action rows, and in a Components
    V2 message's containers and sections too (a section's button accessory)."""
    return [c["custom_id"] for c in walk_components(message.components) if "custom_id" in c]


def find_id(message: Any, prefix: str) -> str:
    """The one component id on ``message`` that starts with ``prefix`` (``uno:1:draw``)."""
    found = [c for c in custom_ids(message) if c.startswith(prefix)]
    assert found, f"no {prefix!r} on the message; it has {custom_ids(message)}"
    return found[0]


def select_values(message: Any, prefix: str = "uno:1:pick") -> list[str]:
    """The option values of the select whose id starts with ``prefix`` (nested ones too)."""
    for child in walk_components(message.components):
        if child.get("custom_id", "").startswith(prefix):
            return [option["value"] for option in child.get("options", [])]
    return []


def description(message: Any) -> str:
    """The text a reader sees: embed descriptions, or a Components V2 message's texts."""
    if message.is_components_v2:
        return "\n".join(message.texts())
    return "\n".join(embed.get("description", "") for embed in message.embeds)


def title(message: Any) -> str:
    """An embed's title, or a Components V2 message's headings (``## …``)."""
    if message.is_components_v2:
        heads = [line for text in message.texts() for line in text.splitlines()]
        return " ".join(line.lstrip("#").strip() for line in heads if line.startswith("## "))
    return " ".join(embed.get("title", "") for embed in message.embeds)


def shown_turn(message: Any) -> str:
    """Where a table message names whose turn it is: its text ("Turn: <@…>")."""
    return message.content or description(message)


async def play_card(world: World, user: Any, hand: Any, notation: str, colour: str = "") -> Any:
    """Play a card from an open hand in one click: its button (a wild: its colour's button),
    or — when the hand offers more cards than buttons fit — the card menu."""
    ids = custom_ids(hand)
    wanted = f"{notation}={colour}" if colour else notation
    for custom_id in ids:
        kind, _, arg = custom_id.split(":")[2], None, custom_id.rsplit(":", 1)[1]
        if kind in ("play", "colour") and arg.removesuffix("+uno") == wanted:
            return await click(world, user, hand, custom_id)
    select = find_id(hand, "uno:1:pick:")
    value = next(v for v in select_values(hand) if v.removesuffix("+uno") == notation)
    chosen = await choose(world, user, hand, select, value)
    if colour:
        return await click(
            world,
            user,
            chosen.message,
            find_id(chosen.message, "uno:1:colour:").rsplit(":", 1)[0] + f":{notation}={colour}",
        )
    return chosen


def is_hand(message: Any) -> bool:
    return any(HAND_TITLE.match(embed.get("title", "")) for embed in message.embeds)


def table_message(world: World) -> Any:
    """The latest public table message of the channel (embeds, or a Components V2 layout)."""
    for message in reversed(world.fake.channel_messages(world.channel)):
        shows_a_table = message.embeds or message.is_components_v2
        if not message.ephemeral and not message.deleted and shows_a_table:
            return message
    raise AssertionError("no table message in the channel")


def table_id_of(world: World) -> str:
    """The id of the table whose lobby is the channel's latest table message."""
    return find_id(table_message(world), "uno:1:join:").rsplit(":", 1)[1]


# -- acting -----------------------------------------------------------------------------------


async def slash(world: World, user: Any, command: str, **options: Any) -> Any:
    result = await world.fake.slash(user, world.channel, command, **options)
    await result.done()
    result.assert_answered_within(3.0)
    await caught_up(world)
    return result


async def click(world: World, user: Any, message: Any, custom_id: str, **kw: Any) -> Any:
    result = await world.fake.click(user, message, custom_id, **kw)
    await result.done()
    result.assert_answered_within(3.0)
    await caught_up(world)
    return result


#: "Table … · version …" in any language (Tisch, mesa, …).
TABLE_FOOTER = re.compile(r"\b([0-9a-z]{10}) · \w+ (\d+)")


async def caught_up(world: World, within: float = PATIENCE) -> None:
    """Wait until the channel's table message shows the stored table: the bot answers the
    user first and edits the table message right after, so what a test reads next is the
    table of the move it just made (or a later one: computers and the clock move on their
    own). ``within`` is the net, not a wait (``fakediscord/patience.py``)."""
    deadline = time.monotonic() + within
    while True:
        shown = _shown_table(world)
        if shown is None:
            return
        table_id, version = shown
        stored = await stored_version(world.database, table_id)
        if stored is None or version >= stored or (table_id, stored) in world.stacked:
            return
        assert time.monotonic() < deadline, f"the table message shows {version}, not {stored}"
        await asyncio.sleep(0.05)  # a poll: the stored version has no event of its own


async def stored_version(database: Path | str, table_id: str) -> int | None:
    """The table's version as stored now, read without the bot's repository (no migration,
    no test write): from the SQLite file, or from PostgreSQL when ``database`` is a URL."""
    where = str(database)
    if where.startswith("postgresql://"):
        connection = await asyncpg.connect(where, timeout=5)
        try:
            value = await connection.fetchval("SELECT version FROM tables WHERE id = $1", table_id)
        finally:
            await connection.close()
        return None if value is None else int(value)
    with sqlite3.connect(where) as db:
        row = db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
    return None if row is None else int(row[0])


def _shown_table(world: World) -> tuple[str, int] | None:
    """The table id and version the channel's latest table message shows, if any."""
    for message in reversed(world.fake.channel_messages(world.channel)):
        footers = [(embed.get("footer") or {}).get("text", "") for embed in message.embeds]
        for text in footers + message.texts():  # a V2 table says it in a text display
            found = TABLE_FOOTER.search(text)
            if found:
                return found.group(1), int(found.group(2))
    return None


async def choose(world: World, user: Any, message: Any, custom_id: str, value: str) -> Any:
    result = await world.fake.select(user, message, custom_id, [value])
    await result.done()
    result.assert_answered_within(3.0)
    return result


async def play_turn(
    world: World, user: Any, table_id: str, seat: int, *, smart: bool = False
) -> bool:
    """If it is ``seat``'s turn, play what a hurried human would, by slash command."""
    table = await load(world, table_id)
    if table.status != "playing" or table.match is None:
        return False
    hand = table.match.hand
    if hand.current != seat or hand.is_over:
        return False
    # A hurried human plays the timeout move; a ``smart`` one plays like the normal computer
    # player (whole hands end sooner).
    action = (
        players.decide("normal", hand.view_for(seat), random.Random(hand.version))
        if smart
        else auto_action(hand, seat)
    )
    if isinstance(action, Play):
        options: dict[str, Any] = {"card": action.face.notation}
        if action.colour is not None:
            options["colour"] = action.colour.value
        if len(hand.hands[seat]) == 2:
            options["uno"] = True
        await slash(world, user, "uno play", **options)
    elif isinstance(action, Draw):
        await slash(world, user, "uno draw")
    elif isinstance(action, Pass):
        await slash(world, user, "uno pass")
    elif isinstance(action, ChooseColour):
        shown = await slash(world, user, "uno hand")
        custom_id = find_id(shown.message, f"uno:1:choose:{table_id}:")
        await click(world, user, shown.message, custom_id)
    elif isinstance(action, Challenge):
        await slash(world, user, "uno challenge")
    elif isinstance(action, CallUno):
        await slash(world, user, "uno uno")
    elif isinstance(action, CatchUno):
        await slash(world, user, "uno catch")
    return True


async def open_table(world: World, *, points: int | None = None, preset: str = "classic") -> str:
    """Alice opens a table; Bruno joins by button, Carla by command; Alice starts it."""
    options: dict[str, Any] = {"preset": preset}
    if points is not None:
        options["points"] = points
    opened = await slash(world, world.alice, "uno new", **options)
    assert opened.ephemeral
    lobby = table_message(world)
    join = find_id(lobby, "uno:1:join:")
    table_id = join.rsplit(":", 1)[1]
    await click(world, world.bruno, lobby, join)
    await slash(world, world.carla, "uno join")
    started = await click(world, world.alice, table_message(world), f"uno:1:start:{table_id}")
    assert started.ephemeral
    # The table message turns from the lobby into the game in an edit after the answer; on a
    # busy machine it can land after the bot went quiet. Tests click its hand button next.
    await world.fake.wait_for(
        lambda: f"uno:1:hand:{table_id}" in custom_ids(table_message(world)),
        what="the table message of the started game",
    )
    return table_id


# -- the stored state -------------------------------------------------------------------------


async def load(world: World, table_id: str) -> Table:
    repo = await GameRepository.open(str(world.database))
    try:
        record = await repo.load(table_id)
    finally:
        await repo.close()
    assert record is not None
    return Table.from_record(record)


async def wait_for_table(
    world: World,
    table_id: str,
    ready: Callable[[Table], bool],
    what: str,
    within: float = PATIENCE,
) -> Table:
    """The stored table once ``ready`` holds (the computers and the clock move on their own)."""
    deadline = time.monotonic() + within
    while True:
        table = await load(world, table_id)
        if ready(table):
            return table
        assert time.monotonic() < deadline, f"waited {within} s for {what}"
        await asyncio.sleep(0.05)


async def write_behind(world: World, table_id: str, change: Callable[[Table], Table]) -> Table:
    """Save ``change(table)`` as the table's next version behind the bot's back (as a stacked
    deck is dealt at a real table); the bot plays on from the stored state."""
    repo = await GameRepository.open(str(world.database))
    try:
        record = await repo.load(table_id)
        assert record is not None
        table = Table.from_record(record)
        changed = dataclasses.replace(change(table), version=table.version + 1)
        await repo.save(changed.to_record(), expected_version=table.version)
    finally:
        await repo.close()
    world.stacked.add((table_id, changed.version))
    return changed


async def stack(
    world: World,
    table_id: str,
    hands: Sequence[Sequence[str]],
    start: str,
    draw: Sequence[str] = (),
    *,
    dealer: int,
) -> Table:
    """Replace the current hand with an exact deal (the stacked deck of a real table)."""

    def dealt(table: Table) -> Table:
        assert table.match is not None
        hand = deal(table.rules, hands, start, draw, dealer=dealer, seed=table.seed).state
        match = dataclasses.replace(table.match, hand=hand, dealer=dealer)
        # A new deal: what the table message said of the one it replaces (its first card,
        # say) is of no use, and a test reading the table must not find it there.
        return dataclasses.replace(table, match=match, recent=())

    return await write_behind(world, table_id, dealt)
