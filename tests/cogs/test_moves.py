"""One table of what a click or a command does (cogs/uno/_moves.py): every component verb and
every ``/uno`` and ``/uno-admin`` command that makes or shows a move resolves to its entry,
which names its handler; the commands without options are built from the registry."""

from __future__ import annotations

import ast
import inspect
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord.ext import commands

import cogs.uno
from cogs.uno import _desk, _moves
from cogs.uno._i18n import LANGUAGES, catalogue
from cogs.uno._moves import (
    MOVES,
    PERSONAL_VERBS,
    Answer,
    built_commands,
    for_command,
    for_verb,
)
from cogs.uno._verbs import VERBS
from storage import GameRepository

#: Commands that are not a move at a table: they open one, show something of the server, or
#: manage it. Each is a method of its cog that does the work itself.
NOT_MOVES = {
    "uno new",
    "uno table",
    "uno rules",
    "uno leaderboard",
    "uno stats",
    "uno forget-me",
    "uno settings",
    "uno tournament standings",
    "uno-admin settings",
    "uno-admin preset save",
    "uno-admin preset delete",
    "uno-admin season new",
    "uno-admin tournament new",
}


@pytest.fixture
async def tree() -> AsyncIterator[Any]:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    repo = await GameRepository.open(":memory:")
    bot.repo = repo  # type: ignore[attr-defined]
    await cogs.uno.setup(bot)
    yield bot.tree
    for name in list(bot.cogs):
        await bot.remove_cog(name)
    await repo.close()


def test_every_component_verb_resolves_to_its_move() -> None:
    for verb in VERBS:
        if verb.name in PERSONAL_VERBS:
            continue
        move = for_verb(verb.name)
        assert verb.name in move.verbs
        assert (move.apply is None) != (move.show is None), move.name  # a change or a showing


def test_each_verb_belongs_to_one_move() -> None:
    verbs = [verb for move in MOVES for verb in move.verbs]
    assert len(verbs) == len(set(verbs))
    assert {verb.name for verb in VERBS} == {*verbs, *PERSONAL_VERBS}


async def test_every_command_resolves_to_its_move_or_does_its_own_work(tree: Any) -> None:
    names = {
        command.qualified_name
        for group in tree.get_commands()
        for command in group.walk_commands()
        if isinstance(command, discord.app_commands.Command)
    }
    moves = {name for move in MOVES for name in move.commands}
    assert moves <= names
    assert names == moves | NOT_MOVES
    for name in moves:
        assert name in for_command(name).commands


async def test_commands_without_options_are_built_from_the_registry(tree: Any) -> None:
    for group in ("uno", "uno-admin"):
        for name, description, _ in built_commands(group):
            command = tree.get_command(group).get_command(name)
            assert command.description == description
            assert command.parameters == []
    built = {name for name, _, _ in built_commands("uno")}
    assert built >= {"join", "draw", "pass", "end", "hand"}


def test_nothing_branches_on_a_moves_name() -> None:
    """What differs between moves is declared in their entry (how they read a choice, how the
    mover is answered), never a comparison with a move's name in the code that runs them."""
    names = {move.name for move in MOVES}
    for module in (_desk, _moves):
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            left = getattr(node, "left", None)
            if isinstance(node, ast.Compare) and getattr(left, "attr", None) == "name":
                constants = [c.value for c in node.comparators if isinstance(c, ast.Constant)]
                assert not set(constants) & names, ast.unparse(node)


def test_every_move_answered_in_a_sentence_has_it_in_every_language() -> None:
    for language in LANGUAGES:
        words = catalogue(language)
        for move in MOVES:
            if move.apply is not None and move.answer is Answer.SENTENCE:
                assert f"ok.{move.name}" in words, (language, move.name)
            for note in move.notes:
                assert note in words, (language, note)
        assert "ok.done" in words
