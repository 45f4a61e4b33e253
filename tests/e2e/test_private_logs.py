"""Logs without secrets at any level: the real bot at LOG_LEVEL=DEBUG, through a hand.

At DEBUG discord.py logs every gateway event and HTTP exchange (interaction tokens in the
webhook URLs and in INTERACTION_CREATE, hand texts in message bodies) and aiosqlite logs each
statement with its parameters (the table's snapshot: every hand and the draw pile). None of
it may reach the log: not the bot token, not an interaction token, not a card of a hand.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from playtest.harness import (
    World,
    click,
    find_id,
    make_world,
    open_table,
    slash,
    stack,
    table_message,
)

# Bruno keeps these two cards all along (he only draws): nobody but him may ever see them.
SECRET_CARDS = {"B4": "Blue 4", "G8": "Green 8"}


@pytest.fixture
async def debug_world(tmp_path: Path) -> AsyncIterator[World]:
    async with make_world(tmp_path, env={"LOG_LEVEL": "DEBUG"}) as made:
        yield made


async def test_debug_logs_carry_no_token_and_no_hand(debug_world: World) -> None:
    world = debug_world
    table_id = await open_table(world)
    await stack(
        world,
        table_id,
        [["R1", "R2", "Y9"], ["B4", "G8", "B5"], ["R5", "Y6", "G6"]],
        "R9",
        draw=["Y7", "Y3", "G3"],
        dealer=2,
    )
    alice, bruno, carla = world.players
    await slash(world, alice, "uno play", card="R1")
    shown = await slash(world, bruno, "uno hand")  # his hand, with its buttons
    await world.fake.autocomplete(bruno, world.channel, "uno play", focused="card", card="")
    await click(world, bruno, shown.message, find_id(shown.message, "uno:1:draw:"))
    await click(world, carla, table_message(world), f"uno:1:hand:{table_id}")
    await slash(world, carla, "uno play", card="R5")
    stop = await world.bot.stop()
    assert stop == 0
    log = world.bot.output_text

    # The log really is at DEBUG, from both libraries, and the filters did their work.
    assert " DEBUG " in log or "[DEBUG" in log
    assert "discord.http" in log
    assert "discord.gateway" in log
    assert "aiosqlite" in log
    assert "parameters withheld" in log
    assert "[redacted]" in log  # interaction tokens in webhook URLs were there to remove

    tokens = [result.token for result in world.fake.interactions.values()]
    assert len(tokens) >= 6
    assert world.fake.token not in log
    for token in tokens:
        assert token not in log
    for words in ('"hands"', "'hands'", "draw_pile"):
        assert words not in log
    for notation, name in SECRET_CARDS.items():
        for shown_as in (f'"{notation}"', f"'{notation}'", name):
            assert shown_as not in log, shown_as
