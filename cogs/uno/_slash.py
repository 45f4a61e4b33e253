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

from ._boards import SORTS, Boards
from ._i18n import t
from ._play import ALL_COLOURS, Uno
from ._replies import Interaction, Replies

PRESET_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(name, key=f"preset.{name}"), value=name)
    for name in PRESETS
]
LEVEL_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(level, key=f"level.{level}"), value=level)
    for level in LEVELS
]
COLOUR_CHOICES = [
    app_commands.Choice(
        name=app_commands.locale_str(t(f"colour.{c.value}"), key=f"colour.{c.value}"),
        value=c.value,
    )
    for c in ALL_COLOURS
]
SORT_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(s, key=f"sort.{s}"), value=s) for s in SORTS
]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(n, key=f"language.{v}"), value=v)
    for n, v in (("English", "en"), ("Italiano", "it"), ("automatic", "auto"))
]


class _Refusing(app_commands.Group):
    """A group whose option errors (a value Discord should not have sent) are refused politely."""

    replies: Replies

    async def on_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        await self.replies.speak_to(interaction)
        await self.replies.refuse(interaction, t("error.generic"))


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
    )
    @app_commands.choices(preset=PRESET_CHOICES)
    async def new(
        self,
        interaction: Interaction,
        preset: str | None = None,
        points: app_commands.Range[int, 50, 5000] | None = None,
        turn_seconds: app_commands.Range[int, 0, 600] | None = None,
        tournament: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        options: dict[str, Any] = {}
        if points is not None:
            options["target"] = points
        if turn_seconds is not None:
            options["turn_seconds"] = turn_seconds
        await self.play_cog.new(interaction, preset, options, tournament)

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
    @app_commands.choices(colour=COLOUR_CHOICES)
    async def play(
        self,
        interaction: Interaction,
        card: app_commands.Range[str, 1, 100],
        colour: str | None = None,
        uno: bool = False,
        swap_with: discord.User | None = None,
    ) -> None:
        await self.play_cog.play(interaction, card, colour, uno, swap_with)

    @play.autocomplete("card")
    async def play_card(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.play_cog.playable_cards(interaction, current)

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
        ping_turns="Mention the player whose turn it is",
        language="Language of public messages (automatic: the server's)",
    )
    @app_commands.choices(preset=PRESET_CHOICES, language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: Interaction,
        preset: str | None = None,
        points: app_commands.Range[int, 50, 5000] | None = None,
        turn_seconds: app_commands.Range[int, 0, 600] | None = None,
        ping_turns: bool | None = None,
        language: str | None = None,
    ) -> None:
        await self.boards.settings(interaction, preset, points, turn_seconds, ping_turns, language)

    @app_commands.command(name="end", description="Close this channel's table, whoever hosts it")
    async def end(self, interaction: Interaction) -> None:
        await self.play_cog.end(interaction)

    @app_commands.command(name="kick", description="Remove a player from this channel's table")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        await self.play_cog.kick(interaction, player)
