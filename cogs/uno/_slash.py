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

from typing import Any

import discord
from discord import app_commands

from engine import PRESETS
from engine.actions import CALL_UNO, CHALLENGE, DRAW, PASS
from players import LEVELS
from storage.settings import NEVER
from tables import TableError

from ._boards import SORTS, Boards
from ._house import SETTINGS, changes_for
from ._play import Uno
from ._replies import Interaction, Replies, WrongValue

PRESET_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(name, key=f"preset.{name}"), value=name)
    for name in PRESETS
]
LEVEL_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(level, key=f"level.{level}"), value=level)
    for level in LEVELS
]
SORT_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(s, key=f"sort.{s}"), value=s) for s in SORTS
]


def _choices(key: str, values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=app_commands.locale_str(v, key=f"house.{key}.{v}"), value=v)
        for v in values
    ]


#: House rules (RULES.md §12) as slash options: their descriptions and choices, shared by
#: ``/uno new`` and ``/uno-admin settings``.
HOUSE_DESCRIPTIONS = {
    "stacking": "Answer a Draw Two or Draw Four with another (R-ACT-6)",
    "jump_in": "Play an identical card out of turn (R-ACT-7)",
    "draw_until_playable": "Keep drawing until a playable card comes (R-TURN-5)",
    "draw_only_if_stuck": "Draw only with no playable card (R-TURN-4)",
    "no_action_finish": "The last card may not be an action or wild card (R-END-2)",
    "challenge": "Who sees a challenged hand, and what a bluff costs (R-CHAL)",
    "uno_penalty": "A missed UNO call: caught by others, or an automatic +2 (R-UNO-3)",
    "false_call_penalty": "Calling UNO falsely or a wrong catch costs 2 cards (R-UNO-6)",
    "two_decks": "Shuffle two decks together (R-DECK-3)",
    "modern_deck": "Add the Swap Hands wild (R-DECK-4)",
    "scoring": "How points are counted (R-SCORE)",
    "hands": "Play a fixed number of hands (R-SCORE-5)",
    "teams": "Play in pairs or teams (R-TEAM-2)",
}
HOUSE_CHOICES: dict[str, list[app_commands.Choice[str]]] = {
    "stacking": _choices("stacking", ("off", "deflect", "cumulative")),
    "challenge": _choices(
        "challenge",
        ("challenger-draw", "challenger-retract", "nobody-draw", "nobody-retract"),
    ),
    "uno_penalty": _choices("uno_penalty", ("catch", "automatic")),
    "scoring": _choices("scoring", ("winner_takes", "penalty", "elimination", "placement")),
    "teams": _choices("teams", ("0", "2", "3", "4", "5")),
}


def house_options(**given: Any) -> dict[str, Any]:
    """The rule options a command's house-rule parameters set (``None``: not given). A value
    Discord should not have sent is refused politely."""
    options: dict[str, Any] = {}
    for name, value in given.items():
        if value is None:
            continue
        if name in SETTINGS:  # a choice that sets one or more options
            try:
                options.update(changes_for(name, [str(value)]))
            except KeyError:
                raise TableError("bad_option", option=name) from None
        else:
            options[name] = value
    return options


LANGUAGE_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(n, key=f"language.{v}"), value=v)
    for n, v in (("English", "en"), ("Italiano", "it"), ("automatic", "auto"))
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
        self.add_command(TournamentGroup(boards, replies))

    @app_commands.command(name="new", description="Open an UNO table in this channel")
    @app_commands.describe(
        preset="Which rules to play (default: classic)",
        points="Points needed to win the match",
        turn_seconds="Seconds per turn (0: no limit)",
        tournament="Report this table to a tournament",
        **HOUSE_DESCRIPTIONS,
    )
    @app_commands.choices(preset=PRESET_CHOICES, **HOUSE_CHOICES)
    async def new(
        self,
        interaction: Interaction,
        preset: str | None = None,
        points: app_commands.Range[int, 50, 5000] | None = None,
        turn_seconds: app_commands.Range[int, 0, 600] | None = None,
        tournament: app_commands.Range[str, 1, 60] | None = None,
        stacking: str | None = None,
        jump_in: bool | None = None,
        draw_until_playable: bool | None = None,
        draw_only_if_stuck: bool | None = None,
        no_action_finish: bool | None = None,
        challenge: str | None = None,
        uno_penalty: str | None = None,
        false_call_penalty: bool | None = None,
        two_decks: bool | None = None,
        modern_deck: bool | None = None,
        scoring: str | None = None,
        hands: app_commands.Range[int, 1, 20] | None = None,
        teams: str | None = None,
    ) -> None:
        await self.play_cog.new(
            interaction,
            preset,
            lambda: house_options(
                target=points,
                turn_seconds=turn_seconds,
                stacking=stacking,
                jump_in=jump_in,
                draw_until_playable=draw_until_playable,
                draw_only_if_stuck=draw_only_if_stuck,
                no_action_finish=no_action_finish,
                challenge=challenge,
                uno_penalty=uno_penalty,
                false_call_penalty=false_call_penalty,
                two_decks=two_decks,
                modern_deck=modern_deck,
                scoring=scoring,
                hands=hands,
                teams=teams,
            ),
            tournament,
        )

    @app_commands.command(name="join", description="Sit down at this channel's table")
    async def join(self, interaction: Interaction) -> None:
        await self.play_cog.join(interaction)

    @app_commands.command(name="addbot", description="Seat a computer player (host only)")
    @app_commands.describe(level="How well it plays (default: normal)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: Interaction, level: str = "normal") -> None:
        await self.play_cog.addbot(interaction, level)

    @app_commands.command(name="leave", description="Leave this channel's table")
    async def leave(self, interaction: Interaction) -> None:
        await self.play_cog.leave(interaction)

    @app_commands.command(name="start", description="Deal the first hand (host only)")
    async def start(self, interaction: Interaction) -> None:
        await self.play_cog.start(interaction)

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
        await self.play_cog.simple(interaction, DRAW)

    @app_commands.command(name="pass", description="Keep the card you just drew")
    async def pass_(self, interaction: Interaction) -> None:
        await self.play_cog.simple(interaction, PASS)

    @app_commands.command(name="uno", description="Call UNO!")
    async def uno(self, interaction: Interaction) -> None:
        await self.play_cog.simple(interaction, CALL_UNO)

    @app_commands.command(
        name="challenge", description="Challenge the Wild Draw Four played on you"
    )
    async def challenge(self, interaction: Interaction) -> None:
        await self.play_cog.simple(interaction, CHALLENGE)

    @app_commands.command(name="catch", description="Catch a player who didn't call UNO")
    @app_commands.describe(player="Who to catch (default: whoever is open to a catch)")
    async def catch(self, interaction: Interaction, player: discord.User | None = None) -> None:
        await self.play_cog.catch(interaction, player)

    @app_commands.command(name="table", description="Post the table again at the bottom")
    async def table(self, interaction: Interaction) -> None:
        await self.play_cog.repost(interaction)

    @app_commands.command(name="end", description="Close this channel's table (host or managers)")
    async def end(self, interaction: Interaction) -> None:
        await self.play_cog.end(interaction)

    @app_commands.command(name="kick", description="Remove a player (host or managers)")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        await self.play_cog.kick(interaction, player)

    @app_commands.command(name="rules", description="Explain the rules of this table or a preset")
    @app_commands.describe(preset="A preset to explain (default: this channel's table)")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: Interaction, preset: str | None = None) -> None:
        await self.play_cog.rules(interaction, preset)

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
        self.add_command(SeasonGroup(boards, replies))
        self.add_command(AdminTournamentGroup(boards, replies))

    @app_commands.command(name="settings", description="This server's defaults for new tables")
    @app_commands.describe(
        preset="Default rules for /uno new",
        points="Default points to win a match",
        turn_seconds="Default seconds per turn (0: no limit)",
        turn_ping="When to mention a player whose turn came and who has not acted",
        language="Language of public messages (automatic: the server's)",
        reset_rules="Forget the server's house rules (back to the preset's)",
        **HOUSE_DESCRIPTIONS,
    )
    @app_commands.choices(preset=PRESET_CHOICES, language=LANGUAGE_CHOICES, **HOUSE_CHOICES)
    @app_commands.choices(turn_ping=TURN_PING_CHOICES)
    async def settings(
        self,
        interaction: Interaction,
        preset: str | None = None,
        points: app_commands.Range[int, 50, 5000] | None = None,
        turn_seconds: app_commands.Range[int, 0, 600] | None = None,
        turn_ping: int | None = None,
        language: str | None = None,
        reset_rules: bool = False,
        stacking: str | None = None,
        jump_in: bool | None = None,
        draw_until_playable: bool | None = None,
        draw_only_if_stuck: bool | None = None,
        no_action_finish: bool | None = None,
        challenge: str | None = None,
        uno_penalty: str | None = None,
        false_call_penalty: bool | None = None,
        two_decks: bool | None = None,
        modern_deck: bool | None = None,
        scoring: str | None = None,
        hands: app_commands.Range[int, 1, 20] | None = None,
        teams: str | None = None,
    ) -> None:
        await self.boards.settings(
            interaction,
            preset,
            points,
            turn_seconds,
            turn_ping,
            language,
            reset_rules,
            lambda: house_options(
                stacking=stacking,
                jump_in=jump_in,
                draw_until_playable=draw_until_playable,
                draw_only_if_stuck=draw_only_if_stuck,
                no_action_finish=no_action_finish,
                challenge=challenge,
                uno_penalty=uno_penalty,
                false_call_penalty=false_call_penalty,
                two_decks=two_decks,
                modern_deck=modern_deck,
                scoring=scoring,
                hands=hands,
                teams=teams,
            ),
        )

    @app_commands.command(name="end", description="Close this channel's table, whoever hosts it")
    async def end(self, interaction: Interaction) -> None:
        await self.play_cog.end(interaction)

    @app_commands.command(name="kick", description="Remove a player from this channel's table")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        await self.play_cog.kick(interaction, player)
