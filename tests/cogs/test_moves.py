"""One intent, one move (cogs/uno/_moves.py): every component and every command that changes
a table is a declared move, made by the one ``perform``; everything else is listed."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.ext import commands

import cogs.uno
from cogs.uno._i18n import LANGUAGES, catalogue
from cogs.uno._moves import BY_COMMAND, BY_VERB, MOVES, NOT_MOVE_COMMANDS, NOT_MOVES
from cogs.uno._verbs import VERBS
from storage import GameRepository


def test_every_component_is_a_move_or_listed() -> None:
    verbs = {verb.name for verb in VERBS}
    moves = set(BY_VERB)
    assert moves <= verbs
    assert not moves & set(NOT_MOVES)
    assert verbs == moves | set(NOT_MOVES)


def test_a_move_with_a_button_shares_its_name() -> None:
    for move in MOVES:
        if move.components:
            assert move.name in move.components or move.name == "choose"
        for verb in move.components:
            assert BY_VERB[verb] is move


@pytest.fixture
async def tree() -> Any:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    repo = await GameRepository.open(":memory:")
    bot.repo = repo  # type: ignore[attr-defined]
    await cogs.uno.setup(bot)
    yield bot.tree
    for name in list(bot.cogs):
        await bot.remove_cog(name)
    await cogs.uno.teardown(bot)
    await repo.close()


async def test_every_uno_command_is_a_move_or_listed(tree: Any) -> None:
    uno = tree.get_command("uno")
    names = {
        command.qualified_name.removeprefix("uno ")
        for command in uno.walk_commands()
        if isinstance(command, discord.app_commands.Command)
    }
    moves = set(BY_COMMAND)
    assert moves <= names
    assert not moves & set(NOT_MOVE_COMMANDS)
    assert names == moves | set(NOT_MOVE_COMMANDS)
    admin = tree.get_command("uno-admin")
    managing = {c.name for c in admin.commands if isinstance(c, discord.app_commands.Command)}
    assert {"end", "kick"} <= managing  # the managers' end and kick are the same moves


def test_every_move_is_answered_in_both_languages() -> None:
    for language in LANGUAGES:
        words = catalogue(language)
        for move in MOVES:
            if not move.shows_hand:
                assert f"ok.{move.name}" in words, move.name
        assert "ok.done" in words
