"""Boot smoke test: build the bot without connecting, load the extension, read the tree."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands

import cogs.uno
from bot import EXTENSIONS, Settings, SettingsError, UnoBot
from engine import PRESETS
from storage import GameRepository

SUBCOMMANDS = {
    "new",
    "addbot",
    "join",
    "leave",
    "start",
    "hand",
    "play",
    "colour",
    "draw",
    "pass",
    "uno",
    "catch",
    "challenge",
    "table",
    "end",
    "kick",
    "rules",
    "leaderboard",
    "stats",
    "forget-me",
    "settings",
    "tournament",
}
SUBGROUPS = {"tournament": {"standings"}}
ADMIN_SUBCOMMANDS = {"settings", "season", "tournament", "end", "kick", "preset"}
ADMIN_SUBGROUPS = {"season": {"new"}, "tournament": {"new"}, "preset": {"save", "delete"}}
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.secret-token-value"


@pytest.fixture(autouse=True)
def keep_modules() -> Iterator[None]:
    """Unloading an extension drops ``cogs.uno.*`` from ``sys.modules``; put them back so the
    other tests (and the next load) see the same classes."""
    saved = {name: module for name, module in sys.modules.items() if name.startswith("cogs.uno")}
    yield
    for name in [name for name in sys.modules if name.startswith("cogs.uno")]:
        del sys.modules[name]
    sys.modules.update(saved)


@pytest.fixture
async def repo() -> AsyncIterator[GameRepository]:
    repository = await GameRepository.open(":memory:")
    yield repository
    await repository.close()


@pytest.fixture
async def bot(repo: GameRepository) -> AsyncIterator[UnoBot]:
    uno_bot = UnoBot(Settings(token=TOKEN), repo)
    await uno_bot.load_extension("cogs.uno")
    yield uno_bot
    if "cogs.uno" in uno_bot.extensions:
        await uno_bot.unload_extension("cogs.uno")


def uno_group(bot: commands.Bot, name: str = "uno") -> app_commands.Group:
    commands_ = bot.tree.get_commands()
    assert [c.name for c in commands_] == ["uno", "uno-admin"]
    group = next(c for c in commands_ if c.name == name)
    assert isinstance(group, app_commands.Group)
    return group


def test_the_bot_loads_the_uno_extension() -> None:
    assert "cogs.uno" in EXTENSIONS


@pytest.mark.parametrize(
    ("name", "subcommands", "subgroups"),
    [("uno", SUBCOMMANDS, SUBGROUPS), ("uno-admin", ADMIN_SUBCOMMANDS, ADMIN_SUBGROUPS)],
)
async def test_the_tree_has_the_uno_groups_with_every_subcommand(
    bot: UnoBot, name: str, subcommands: set[str], subgroups: dict[str, set[str]]
) -> None:
    group = uno_group(bot, name)
    names = [c.name for c in group.commands]
    assert len(names) == len(set(names))
    assert set(names) == subcommands
    for command in group.commands:
        if command.name in subgroups:
            assert isinstance(command, app_commands.Group)
            assert {c.name for c in command.commands} == subgroups[command.name]
        else:
            assert isinstance(command, app_commands.Command)
    assert group.guild_only


async def test_admin_commands_are_hidden_from_members(bot: UnoBot) -> None:
    """Discord applies default_member_permissions to top-level commands only: /uno-admin is
    its own command, hidden from members unless an admin re-assigns it."""
    admin = uno_group(bot, "uno-admin")
    assert admin.default_permissions == discord.Permissions(manage_guild=True)
    assert uno_group(bot).default_permissions is None
    payload = admin.to_dict(bot.tree)
    assert payload["default_member_permissions"] == discord.Permissions(manage_guild=True).value


@pytest.mark.parametrize("name", ["uno", "uno-admin"])
async def test_every_command_and_option_is_described(bot: UnoBot, name: str) -> None:
    group = uno_group(bot, name)
    assert group.description
    for command in group.walk_commands():
        assert command.description
        assert command.description != "…", command.name
        assert len(command.description) <= 100
        for parameter in getattr(command, "parameters", []):  # a subgroup has none
            assert parameter.description, f"/uno {command.name} {parameter.name}"
            assert parameter.description != "…", f"/uno {command.name} {parameter.name}"
            assert len(parameter.description) <= 100


async def test_play_autocompletes_the_card(bot: UnoBot) -> None:
    play = uno_group(bot).get_command("play")
    assert isinstance(play, app_commands.Command)
    card = play.get_parameter("card")
    assert card is not None
    assert card.autocomplete
    assert card.required
    assert [p.name for p in play.parameters if p.autocomplete] == ["card", "colour"]


async def test_presets_and_colours_are_autocompleted_wherever_they_are_asked(
    bot: UnoBot,
) -> None:
    # One autocomplete serves /uno new's and /uno rules' preset, another /uno play's and
    # /uno colour's colour.
    group = uno_group(bot)
    for name, option in (
        ("new", "preset"),
        ("rules", "preset"),
        ("play", "colour"),
        ("colour", "colour"),
    ):
        command = group.get_command(name)
        assert isinstance(command, app_commands.Command)
        parameter = command.get_parameter(option)
        assert parameter is not None
        assert parameter.autocomplete, (name, option)


async def test_the_command_payload_serialises(bot: UnoBot) -> None:
    payload = [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
    assert [p["name"] for p in payload] == ["uno", "uno-admin"]
    options = payload[0]["options"]
    assert {o["name"] for o in options} == SUBCOMMANDS
    assert len(options) <= 25
    new = next(o for o in options if o["name"] == "new")
    preset = next(o for o in new["options"] if o["name"] == "preset")
    # Autocompleted, not fixed choices: a server's house presets are offered beside PRESETS.
    assert preset["autocomplete"]
    assert "choices" not in preset
    assert {"classic", "online", "tournament", "elimination", "party"} <= set(PRESETS)


async def test_clicks_are_routed_by_the_cog_and_nothing_is_left_with_discord_py(
    bot: UnoBot,
) -> None:
    # Clicks reach the Uno cog's on_interaction listener; discord.py keeps no dynamic item
    # or view of ours (each would be rebuilt or kept for every click or message).
    store = bot._connection._view_store
    assert [f.__self__.qualified_name for f in bot.extra_events["on_interaction"]] == ["Uno"]
    assert not store._dynamic_items
    assert not store.persistent_views
    await bot.unload_extension("cogs.uno")
    assert "on_interaction" not in bot.extra_events or not bot.extra_events["on_interaction"]
    assert bot.tree.get_commands() == []


async def test_the_extension_reloads(bot: UnoBot) -> None:
    # discord.py drops every ``cogs.uno.*`` module on unload; the reloaded extension must
    # build its service from the new modules (a service from the old ones once made
    # reload_extension fail and unload + load leave the bot without /uno).
    await bot.reload_extension("cogs.uno")
    assert [c.name for c in bot.tree.get_commands()] == ["uno", "uno-admin"]
    await bot.unload_extension("cogs.uno")
    assert bot.tree.get_commands() == []
    await bot.load_extension("cogs.uno")
    assert [c.name for c in bot.tree.get_commands()] == ["uno", "uno-admin"]


async def test_r_uno_2_the_clock_takes_its_times_from_the_settings(repo: GameRepository) -> None:
    settings = Settings(token=TOKEN, computer_pause=0.3, held_seat_grace=4.0, catch_grace=1.5)
    uno_bot = UnoBot(settings, repo)
    await uno_bot.load_extension("cogs.uno")
    try:
        play = uno_bot.get_cog("Uno")
        assert isinstance(play, cogs.uno.Uno)
        clock = play.clock
        assert (clock.pause, clock.held_grace, clock.catch_grace) == (0.3, 4.0, 1.5)
    finally:
        await uno_bot.unload_extension("cogs.uno")


async def test_the_extension_needs_the_table_service() -> None:
    plain = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    with pytest.raises(RuntimeError, match="GameRepository"):
        await cogs.uno.setup(plain)


async def test_the_bot_asks_for_no_privileged_intents(bot: UnoBot) -> None:
    intents = bot.intents
    assert not intents.message_content
    assert not intents.members
    assert not intents.presences


# -- settings -----------------------------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "", "   "])
def test_a_missing_token_is_explained(token: str | None) -> None:
    env = {} if token is None else {"DISCORD_TOKEN": token}
    with pytest.raises(SettingsError) as excinfo:
        Settings.from_env(env)
    message = str(excinfo.value)
    assert "DISCORD_TOKEN" in message
    assert ".env" in message
    assert message.endswith(".")


@pytest.mark.parametrize("guild", ["abc", "12x", "-5", "1.5"])
def test_a_bad_dev_guild_is_refused(guild: str) -> None:
    with pytest.raises(SettingsError) as excinfo:
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": guild})
    assert "DEV_GUILD_ID" in str(excinfo.value)


def test_a_bad_log_level_is_refused() -> None:
    with pytest.raises(SettingsError) as excinfo:
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "chatty"})
    assert "LOG_LEVEL" in str(excinfo.value)


def test_settings_from_env() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": f"  {TOKEN}\n",
            "DEV_GUILD_ID": "123456789012345678",
            "DATABASE_PATH": "/tmp/x.sqlite3",
            "LOG_LEVEL": "debug",
        }
    )
    assert settings.token == TOKEN
    assert settings.dev_guild_id == 123456789012345678
    assert settings.database_path == "/tmp/x.sqlite3"
    assert settings.log_level == "DEBUG"
    defaults = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": ""})
    assert defaults.dev_guild_id is None
    assert defaults.database_path == "uno.sqlite3"
    assert defaults.log_level == "INFO"


def test_the_token_never_shows_in_repr() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "42"})
    for text in (repr(settings), str(settings), f"{settings}", f"{settings!r}"):
        assert TOKEN not in text
        assert "secret" not in text
    assert "42" in repr(settings)
