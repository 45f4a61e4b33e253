"""The slash commands: ``/uno …`` for everyone and ``/uno-admin …`` for server managers.

This module only declares them — names, options, ranges, choices, descriptions (English here;
other languages come from the catalogues) — and hands each one to the cog that does the work
(:class:`~cogs.uno._play.Uno` or :class:`~cogs.uno._boards.Boards`). discord.py cannot split
one command group across cogs, so the groups live here and the cogs stay one job each.

``/uno-admin`` is its own top-level command because Discord applies
``default_member_permissions`` to top-level commands only: it is hidden from members, and
admins can re-assign it in Server Settings → Integrations. The cogs check the permission
again (Discord's promise is not our only guard).
"""

from __future__ import annotations

import inspect
from typing import Any

import discord
from discord import app_commands

from engine.actions import CALL_UNO, CHALLENGE, DRAW, PASS
from players import LEVELS
from storage.settings import NEVER
from tables import TableError

from ._boards import SORTS, Boards
from ._house import SLASH_RULES, slash_options
from ._i18n import LANGUAGE_NAMES
from ._play import Uno
from ._replies import Interaction, Replies, WrongValue

LEVEL_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(level, key=f"level.{level}"), value=level)
    for level in LEVELS
]
SORT_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(s, key=f"sort.{s}"), value=s) for s in SORTS
]


def house_parameters() -> list[inspect.Parameter]:
    """The house rules ``/uno new`` and ``/uno-admin settings`` offer, as parameters: a switch
    is a boolean, any other rule a string with its choices (see :func:`house_decorated`)."""
    return [
        inspect.Parameter(
            rule.key,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=None,
            annotation=bool | None if rule.switch else str | None,
        )
        for rule in SLASH_RULES
    ]


def house_decorated(callback: Any) -> Any:
    """``callback`` with the house rules' descriptions and choices, from their declaration."""
    callback = app_commands.describe(**{rule.key: rule.slash or rule.key for rule in SLASH_RULES})(
        callback
    )
    choices = {
        rule.key: [
            app_commands.Choice(
                name=app_commands.locale_str(choice.value, key=f"house.{rule.key}.{choice.value}"),
                value=choice.value,
            )
            for choice in rule.choices
        ]
        for rule in SLASH_RULES
        if not rule.switch
    }
    return app_commands.choices(**choices)(callback)


def house_options(given: dict[str, Any]) -> dict[str, Any]:
    """The rule options a command's house-rule parameters set (``None``: not given). A value
    Discord should not have sent is refused politely."""
    try:
        return slash_options({rule.key: given.get(rule.key) for rule in SLASH_RULES})
    except KeyError as exc:
        raise TableError("bad_option", option=str(exc.args[0])) from None


LANGUAGE_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(n, key=f"language.{v}"), value=v)
    for v, n in (*LANGUAGE_NAMES.items(), ("auto", "automatic"))
]
#: When a person whose turn came is mentioned: never, at once, or after some seconds.
TURN_PING_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(name, key=f"ping.{key}"), value=value)
    for key, name, value in (
        ("never", "never", NEVER),
        ("now", "at once", 0),
        ("15", "after 15 seconds", 15),
        ("25", "after 25 seconds (default)", 25),
        ("60", "after a minute", 60),
    )
]


#: Discord refuses a command whose names, descriptions and choices add up to more characters
#: than this, in any one language; ``/uno`` stays well below it (``registration_size``).
DISCORD_COMMAND_CHARACTERS = 4000


def registration_size(payload: dict[str, Any], locale: str) -> int:
    """The characters Discord counts against :data:`DISCORD_COMMAND_CHARACTERS` for a
    command in ``locale``: the name, description and value of the command, of every option,
    subcommand and group below it, and of every choice — each in that locale where it has a
    translation."""

    def local(node: dict[str, Any], key: str) -> str:
        return str((node.get(f"{key}_localizations") or {}).get(locale) or node.get(key) or "")

    total = len(local(payload, "name")) + len(local(payload, "description"))
    for choice in payload.get("choices", []):
        total += len(local(choice, "name")) + len(str(choice.get("value", "")))
    for option in payload.get("options", []):
        total += registration_size(option, locale)
    return total


class _Refusing(app_commands.Group):
    """A group whose option errors (a value Discord should not have sent) are refused politely."""

    replies: Replies

    async def interaction_check(self, interaction: Interaction) -> bool:
        problem = wrong_option(interaction)
        if problem is not None:
            raise WrongValue(problem)
        return True

    async def on_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        await self.replies.refuse_command(interaction, error)


_PYTHON_TYPES: dict[discord.AppCommandOptionType, tuple[type, ...]] = {
    discord.AppCommandOptionType.string: (str,),
    discord.AppCommandOptionType.integer: (int,),
    discord.AppCommandOptionType.number: (int, float),
    discord.AppCommandOptionType.boolean: (bool,),
}


def wrong_option(interaction: Interaction) -> str | None:
    """What is wrong with the options Discord sent, checked against the command itself
    (Discord checks them for a real client; a forged payload skips that): ``None`` if fine."""
    command = interaction.command
    data: Any = interaction.data or {}
    options: list[dict[str, Any]] = list(data.get("options") or [])
    while options and options[0].get("type") in (1, 2):  # into the subcommand (group)
        options = list(options[0].get("options") or [])
    if not isinstance(command, app_commands.Command):
        return None
    for given in options:
        name = str(given.get("name", ""))
        parameter = command.get_parameter(name)
        if parameter is None:
            return name[:50]
        value = given.get("value")
        if not _fits(parameter, value):
            return str(value)[:50]
    return None


def _fits(parameter: app_commands.Parameter, value: Any) -> bool:
    """Is ``value`` of the parameter's type, in its range or length, among its choices?
    (discord.py leaves all three to Discord.)"""
    expected = _PYTHON_TYPES.get(parameter.type)
    if expected is None:  # users, roles, channels: a snowflake
        return str(value).isdigit()
    if not isinstance(value, expected) or (bool not in expected and isinstance(value, bool)):
        return False
    if parameter.choices and value not in {choice.value for choice in parameter.choices}:
        return False
    if isinstance(value, str):  # its range is its length (discord.py keeps both alike)
        measure: float = len(value)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        measure = value
    else:
        return True
    low, high = parameter.min_value, parameter.max_value
    return (low is None or measure >= low) and (high is None or measure <= high)


def new_command(play: Uno) -> app_commands.Command[Any, ..., None]:
    """``/uno new``: its fixed options, then the house rules that the declaration offers."""

    async def new(interaction: Interaction, **given: Any) -> None:
        numbers = {
            "target": given.get("points"),
            "turn_seconds": given.get("turn_seconds"),
            "hands": given.get("hands"),
        }

        def options() -> dict[str, Any]:
            chosen = {key: value for key, value in numbers.items() if value is not None}
            return {**chosen, **house_options(given)}

        await play.new(interaction, given.get("preset"), options, given.get("tournament"))

    fixed = [
        _parameter("interaction", Interaction, required=True),
        _parameter("preset", app_commands.Range[str, 1, 40] | None),
        _parameter("points", app_commands.Range[int, 50, 5000] | None),
        _parameter("turn_seconds", app_commands.Range[int, 0, 600] | None),
        _parameter("hands", app_commands.Range[int, 1, 20] | None),
        _parameter("tournament", app_commands.Range[str, 1, 60] | None),
    ]
    new.__signature__ = inspect.Signature([*fixed, *house_parameters()])  # type: ignore[attr-defined]
    callback = app_commands.describe(
        preset="Which rules to play: a preset or one of this server's (default: classic)",
        points="Points needed to win the match",
        turn_seconds="Seconds per turn (0: no limit)",
        hands="Play a fixed number of hands (R-SCORE-5)",
        tournament="Report this table to a tournament",
    )(house_decorated(new))
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="new", description="Open an UNO table in this channel", callback=callback
    )
    command.autocomplete("preset")(play.presets)
    return command


def settings_command(boards: Boards) -> app_commands.Command[Any, ..., None]:
    """``/uno-admin settings``: the server's defaults, with the same house rules as
    ``/uno new`` (every other one is set in a lobby's editor and saved as a house preset)."""

    async def settings(interaction: Interaction, **given: Any) -> None:
        await boards.settings(
            interaction,
            given.get("preset"),
            given.get("points"),
            given.get("turn_seconds"),
            given.get("turn_ping"),
            given.get("language"),
            bool(given.get("reset_rules")),
            lambda: house_options(given),
        )

    fixed = [
        _parameter("interaction", Interaction, required=True),
        _parameter("preset", app_commands.Range[str, 1, 40] | None),
        _parameter("points", app_commands.Range[int, 50, 5000] | None),
        _parameter("turn_seconds", app_commands.Range[int, 0, 600] | None),
        _parameter("turn_ping", int | None),
        _parameter("language", str | None),
        _parameter("reset_rules", bool, default=False),
    ]
    settings.__signature__ = inspect.Signature([*fixed, *house_parameters()])  # type: ignore[attr-defined]
    callback = app_commands.describe(
        preset="Default rules for /uno new",
        points="Default points to win a match",
        turn_seconds="Default seconds per turn (0: no limit)",
        turn_ping="When to mention a player whose turn came and who has not acted",
        language="Language of public messages (automatic: the server's)",
        reset_rules="Forget the server's house rules (back to the preset's)",
    )(
        app_commands.choices(language=LANGUAGE_CHOICES)(
            app_commands.choices(turn_ping=TURN_PING_CHOICES)(house_decorated(settings))
        )
    )
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="settings", description="This server's defaults for new tables", callback=callback
    )
    command.autocomplete("preset")(boards.presets)
    return command


def _parameter(
    name: str, annotation: Any, *, required: bool = False, default: Any = None
) -> inspect.Parameter:
    return inspect.Parameter(
        name,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        default=inspect.Parameter.empty if required else default,
        annotation=annotation,
    )


class TournamentGroup(_Refusing, name="tournament", description="Tournaments of this server"):
    """``/uno tournament standings``."""

    def __init__(self, boards: Boards, replies: Replies) -> None:
        super().__init__()
        self.boards = boards
        self.replies = replies

    @app_commands.command(name="standings", description="A tournament's players and teams")
    @app_commands.describe(name="The tournament's name")
    async def standings(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 60]
    ) -> None:
        await self.boards.tournament_standings(interaction, name)


@app_commands.guild_only()
class UnoGroup(_Refusing, name="uno", description="Play UNO in this channel"):
    """``/uno …``: playing, and the boards."""

    def __init__(self, play: Uno, boards: Boards, replies: Replies) -> None:
        super().__init__()
        self.play_cog = play
        self.boards = boards
        self.replies = replies
        self.add_command(new_command(play))
        self.add_command(TournamentGroup(boards, replies))

    @app_commands.command(name="join", description="Sit down at this channel's table")
    async def join(self, interaction: Interaction) -> None:
        await self.play_cog.command(interaction, "join")

    @app_commands.command(name="addbot", description="Seat a computer player (host only)")
    @app_commands.describe(level="How well it plays (default: normal)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: Interaction, level: str = "normal") -> None:
        await self.play_cog.addbot(interaction, level)

    @app_commands.command(name="leave", description="Leave this channel's table")
    async def leave(self, interaction: Interaction) -> None:
        await self.play_cog.command(interaction, "leave")

    @app_commands.command(name="start", description="Deal the first hand (host only)")
    async def start(self, interaction: Interaction) -> None:
        await self.play_cog.command(interaction, "start")

    @app_commands.command(name="hand", description="Show your hand (only you see it)")
    async def hand(self, interaction: Interaction) -> None:
        await self.play_cog.hand(interaction)

    @app_commands.command(name="play", description="Play a card from your hand")
    @app_commands.describe(
        card="The card to play (start typing: the list shows your playable cards)",
        colour="The colour you name with a wild card",
        uno="Call UNO with this play",
        swap_with="With Swap Hands: the player to swap hands with",
    )
    async def play(
        self,
        interaction: Interaction,
        card: app_commands.Range[str, 1, 100],
        colour: app_commands.Range[str, 1, 20] | None = None,
        uno: bool = False,
        swap_with: discord.User | None = None,
    ) -> None:
        await self.play_cog.play(interaction, card, colour, uno, swap_with)

    @play.autocomplete("card")
    async def play_card(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.play_cog.playable_cards(interaction, current)

    @play.autocomplete("colour")
    async def play_colour(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.play_cog.colours(interaction, current)

    @app_commands.command(name="colour", description="Name the colour of a Wild turned up first")
    @app_commands.describe(colour="The colour to play on")
    async def colour(
        self, interaction: Interaction, colour: app_commands.Range[str, 1, 20]
    ) -> None:
        await self.play_cog.choose_colour(interaction, colour)

    @colour.autocomplete("colour")
    async def colour_colour(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.play_cog.colours(interaction, current)

    @app_commands.command(name="draw", description="Draw a card (or take the pending penalty)")
    async def draw(self, interaction: Interaction) -> None:
        await self.play_cog.command(interaction, "draw", actions=[DRAW])

    @app_commands.command(name="pass", description="Keep the card you just drew")
    async def pass_(self, interaction: Interaction) -> None:
        await self.play_cog.command(interaction, "pass", actions=[PASS])

    @app_commands.command(name="uno", description="Call UNO!")
    async def uno(self, interaction: Interaction) -> None:
        await self.play_cog.command(interaction, "uno", actions=[CALL_UNO])

    @app_commands.command(
        name="challenge", description="Challenge the Wild Draw Four played on you"
    )
    async def challenge(self, interaction: Interaction) -> None:
        await self.play_cog.command(interaction, "challenge", actions=[CHALLENGE])

    @app_commands.command(name="catch", description="Catch a player who didn't call UNO")
    @app_commands.describe(player="Who to catch (default: whoever is open to a catch)")
    async def catch(self, interaction: Interaction, player: discord.User | None = None) -> None:
        await self.play_cog.catch(interaction, player)

    @app_commands.command(name="table", description="Post the table again at the bottom")
    async def table(self, interaction: Interaction) -> None:
        await self.play_cog.repost(interaction)

    @app_commands.command(name="end", description="Close this channel's table (host or managers)")
    async def end(self, interaction: Interaction) -> None:
        await self.play_cog.command(interaction, "end")

    @app_commands.command(name="kick", description="Remove a player (host or managers)")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        await self.play_cog.kick(interaction, player)

    @app_commands.command(name="rules", description="Explain the rules of this table or a preset")
    @app_commands.describe(preset="A preset to explain (default: this channel's table)")
    async def rules(
        self, interaction: Interaction, preset: app_commands.Range[str, 1, 40] | None = None
    ) -> None:
        await self.play_cog.rules(interaction, preset)

    @rules.autocomplete("preset")
    async def rules_preset(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.play_cog.presets(interaction, current)

    @app_commands.command(name="leaderboard", description="This server's best UNO players")
    @app_commands.describe(
        sort="Rank by rating (default), wins, points or games",
        season="A past season's board (default: the current one)",
        page="Which page (10 players a page)",
    )
    @app_commands.choices(sort=SORT_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        sort: str = "rating",
        season: app_commands.Range[int, 1, 10_000] | None = None,
        page: app_commands.Range[int, 1, 100_000] = 1,
    ) -> None:
        await self.boards.leaderboard(interaction, sort, season, page)

    @app_commands.command(name="stats", description="A player's UNO statistics on this server")
    @app_commands.describe(player="Whose statistics (default: yours)")
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        await self.boards.stats(interaction, player)

    @app_commands.command(name="forget-me", description="Delete your stored UNO statistics")
    async def forget_me(self, interaction: Interaction) -> None:
        await self.boards.forget_me(interaction)


class SeasonGroup(_Refusing, name="season", description="Seasons of this server's board"):
    """``/uno-admin season new``."""

    def __init__(self, boards: Boards, replies: Replies) -> None:
        super().__init__()
        self.boards = boards
        self.replies = replies

    @app_commands.command(name="new", description="Close this season and start a fresh board")
    async def new(self, interaction: Interaction) -> None:
        await self.boards.season_new(interaction)


class PresetGroup(_Refusing, name="preset", description="This server's house presets"):
    """``/uno-admin preset save|delete``: a table's rules kept under a name."""

    def __init__(self, boards: Boards, replies: Replies) -> None:
        super().__init__()
        self.boards = boards
        self.replies = replies

    @app_commands.command(name="save", description="Save this channel's table's rules as a preset")
    @app_commands.describe(name="The house preset's name (/uno new preset: offers it)")
    async def save(self, interaction: Interaction, name: app_commands.Range[str, 1, 40]) -> None:
        await self.boards.preset_save(interaction, name)

    @app_commands.command(name="delete", description="Forget one of this server's presets")
    @app_commands.describe(name="The house preset to forget")
    async def delete(self, interaction: Interaction, name: app_commands.Range[str, 1, 40]) -> None:
        await self.boards.preset_delete(interaction, name)

    @delete.autocomplete("name")
    async def delete_name(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.boards.house_presets(interaction, current)


class AdminTournamentGroup(_Refusing, name="tournament", description="Tournaments of this server"):
    """``/uno-admin tournament new``."""

    def __init__(self, boards: Boards, replies: Replies) -> None:
        super().__init__()
        self.boards = boards
        self.replies = replies

    @app_commands.command(name="new", description="Create a tournament whose teams are roles")
    @app_commands.describe(
        name="The tournament's name",
        team1="A team's role",
        team2="A team's role",
        team3="A team's role",
        team4="A team's role",
    )
    async def new(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 60],
        team1: discord.Role | None = None,
        team2: discord.Role | None = None,
        team3: discord.Role | None = None,
        team4: discord.Role | None = None,
    ) -> None:
        roles = [r for r in (team1, team2, team3, team4) if r is not None]
        await self.boards.tournament_new(interaction, name, roles)


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminGroup(_Refusing, name="uno-admin", description="Manage UNO on this server"):
    """``/uno-admin …``: settings, seasons, tournaments, and any table of the server."""

    def __init__(self, play: Uno, boards: Boards, replies: Replies) -> None:
        super().__init__()
        self.play_cog = play
        self.boards = boards
        self.replies = replies
        self.add_command(settings_command(boards))
        self.add_command(PresetGroup(boards, replies))
        self.add_command(SeasonGroup(boards, replies))
        self.add_command(AdminTournamentGroup(boards, replies))

    @app_commands.command(name="end", description="Close this channel's table, whoever hosts it")
    async def end(self, interaction: Interaction) -> None:
        await self.play_cog.command(interaction, "end")

    @app_commands.command(name="kick", description="Remove a player from this channel's table")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        await self.play_cog.kick(interaction, player)
