"""``/uno leaderboard``, ``stats``, ``season new``, ``settings``, ``forget-me`` and
``tournament …``: the per-server boards, as a mixin of the ``/uno`` cog.

Everything here reads or writes through ``storage`` (``repo.boards``, ``repo.settings``,
``repo.tournaments``); answers are ephemeral except the boards, which everyone may see.
"""

from __future__ import annotations

import asyncio
import io
import time
from typing import Any

import discord
from discord import app_commands

from engine import PRESETS, Colour
from renders import LeaderRow, render_leaderboard, render_standings, render_stats
from storage import GameRepository, GuildSettings
from storage.boards import BoardRow, PlayerStats
from storage.tournaments import TournamentExistsError, UnknownTournamentError
from tables.table import TableError

from ._i18n import t
from ._present import colour_name, preset_name

PAGE = 10
SORTS = ("rating", "wins", "points", "games")
SORT_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(s, key=f"sort.{s}"), value=s) for s in SORTS
]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(n, key=f"language.{v}"), value=v)
    for n, v in (("English", "en"), ("Italiano", "it"), ("automatic", "auto"))
]
_COLOURS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}


async def _show_card(
    interaction: discord.Interaction[Any],
    title: str,
    lines: list[str],
    image: bytes,
    filename: str,
    footer: str | None = None,
) -> None:
    """Answer with the rendered card and the same facts as text (also the image's alt text)."""
    text = "\n".join(lines)
    embed = discord.Embed(title=title, description=text[:4000])
    embed.set_image(url=f"attachment://{filename}")
    if footer:
        embed.set_footer(text=footer)
    picture = discord.File(io.BytesIO(image), filename=filename, description=text[:1000])
    await interaction.edit_original_response(content=None, embed=embed, attachments=[picture])


def _board_line(row: BoardRow) -> str:
    return t(
        "board.line",
        rank=row.rank,
        name=row.name,
        rating=row.rating,
        wins=row.wins,
        matches=row.matches,
        points=row.points,
    )


def _leader_row(row: BoardRow, *, mine: bool = False) -> LeaderRow:
    return LeaderRow(
        rank=row.rank,
        name=row.name,
        values=(str(row.rating), str(row.wins), str(row.points), str(row.matches)),
        highlight=mine,
    )


def _stats_facts(stats: PlayerStats) -> list[tuple[str, str]]:
    return [
        (t("stats.matches"), f"{stats.wins}/{stats.matches}"),
        (t("stats.win_rate"), f"{stats.win_rate:.0%}"),
        (t("stats.hands"), f"{stats.hands_won}/{stats.hands_played}"),
        (t("stats.points"), str(stats.points)),
        (t("stats.rating"), str(stats.rating)),
        (t("stats.uno_calls"), str(stats.uno_calls)),
        (t("stats.catches"), f"{stats.catches_made} / {stats.catches_suffered}"),
        (t("stats.challenges"), f"{stats.challenges_won} / {stats.challenges_lost}"),
        (t("stats.cards_drawn"), str(stats.cards_drawn)),
        (t("stats.streak"), f"{stats.best_streak} ({stats.current_streak})"),
    ]


class BoardCommands:
    """Mixed into :class:`cogs.uno._cog.Uno`, which provides ``service`` and the shared
    plumbing (``_defer``, ``_guard``, ``_say``) every handler goes through."""

    service: Any
    _defer: Any
    _guard: Any
    _say: Any
    languages: dict[int, str | None]

    @property
    def repo(self) -> GameRepository:
        repo: GameRepository = self.service.repo
        return repo

    @app_commands.command(name="leaderboard", description="This server's best UNO players")
    @app_commands.describe(
        sort="Rank by rating (default), wins, points or games",
        season="A past season's board (default: the current one)",
        page="Which page (10 players a page)",
    )
    @app_commands.choices(sort=SORT_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        sort: str = "rating",
        season: app_commands.Range[int, 1, 10_000] | None = None,
        page: app_commands.Range[int, 1, 100_000] = 1,
    ) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            guild = interaction.guild_id or 0
            boards = self.repo.boards
            number = season or await boards.current_season(guild)
            rows = await boards.leaderboard(
                guild, sort=sort, season=number, offset=(page - 1) * PAGE, limit=PAGE
            )
            size = await boards.board_size(guild, season=number)
            mine = await boards.rank_of(guild, interaction.user.id, sort=sort, season=number)
            title = t("board.title", season=number, sort=t(f"sort.{sort}"))
            if not rows:
                await self._say(interaction, t("board.empty", season=number))
                return
            pages = max(1, -(-size // PAGE))
            lines = [_board_line(row) for row in rows]
            extra = None
            if mine is not None and all(row.user_id != mine.user_id for row in rows):
                lines += ["…", t("board.you", line=_board_line(mine))]
                extra = _leader_row(mine, mine=True)
            footer = t("board.footer", page=page, pages=pages, players=size)
            image = await asyncio.to_thread(
                render_leaderboard,
                title,
                [t("board.rank"), t("board.name"), *(t(f"board.col.{c}") for c in SORTS)],
                [
                    _leader_row(row, mine=mine is not None and row.user_id == mine.user_id)
                    for row in rows
                ],
                None,
                footer,
                extra,
            )
            await _show_card(interaction, title, lines, image, "leaderboard.png", footer)

        await self._guard(interaction, body)

    @app_commands.command(name="stats", description="A player's UNO statistics on this server")
    @app_commands.describe(player="Whose statistics (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], player: discord.Member | None = None
    ) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            who = player or interaction.user
            stats = await self.repo.boards.stats(interaction.guild_id or 0, who.id)
            if stats is None:
                await self._say(interaction, t("stats.none", name=who.display_name))
                return
            facts = _stats_facts(stats)
            title = t("stats.title", name=stats.name, season=stats.season)
            card_title = t("stats.card_title", season=stats.season)
            favourite = _COLOURS.get(stats.favourite_colour or "")
            lines = [f"**{label}**: {value}" for label, value in facts]
            if favourite is not None:
                lines.append(t("stats.favourite", colour=colour_name(favourite)))
            image = await asyncio.to_thread(
                render_stats,
                card_title,
                stats.name,
                facts,
                Colour(favourite) if favourite is not None else None,
            )
            await _show_card(interaction, title, lines, image, "stats.png")

        await self._guard(interaction, body)

    season = app_commands.Group(name="season", description="Seasons of this server's board")

    @season.command(name="new", description="Close this season and start a fresh board")
    @app_commands.default_permissions(manage_guild=True)
    async def season_new(self, interaction: discord.Interaction[Any]) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            if not interaction.permissions.manage_guild:
                raise TableError("not_manager")
            number = await self.repo.boards.new_season(interaction.guild_id or 0, time.time())
            await self._say(interaction, t("season.started", season=number))

        await self._guard(interaction, body)

    @app_commands.command(name="settings", description="This server's defaults for new tables")
    @app_commands.describe(
        preset="Default rules for /uno new",
        points="Default points to win a match",
        turn_seconds="Default seconds per turn (0: no limit)",
        ping_turns="Mention the player whose turn it is",
        language="Language of public messages (automatic: the server's)",
    )
    @app_commands.choices(
        preset=[
            app_commands.Choice(name=app_commands.locale_str(p, key=f"preset.{p}"), value=p)
            for p in PRESETS
        ],
        language=LANGUAGE_CHOICES,
    )
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        preset: str | None = None,
        points: app_commands.Range[int, 50, 5000] | None = None,
        turn_seconds: app_commands.Range[int, 0, 600] | None = None,
        ping_turns: bool | None = None,
        language: str | None = None,
    ) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            if not interaction.permissions.manage_guild:
                raise TableError("not_manager")
            guild = interaction.guild_id or 0
            store = self.repo.settings
            current = await store.get_guild_settings(guild)
            updated = GuildSettings(
                preset=preset if preset is not None else current.preset,
                target=points if points is not None else current.target,
                turn_seconds=turn_seconds if turn_seconds is not None else current.turn_seconds,
                ping_turns=ping_turns if ping_turns is not None else current.ping_turns,
                language=(
                    current.language
                    if language is None
                    else None
                    if language == "auto"
                    else language
                ),
            )
            await store.set_guild_settings(guild, updated)
            self.languages[guild] = updated.language
            await self._say(interaction, _describe_settings(updated))

        await self._guard(interaction, body)

    @app_commands.command(name="forget-me", description="Delete your stored UNO statistics")
    async def forget_me(self, interaction: discord.Interaction[Any]) -> None:
        await self._defer(interaction, update=False)
        view = ForgetConfirmation(self.repo, interaction.user.id)
        await interaction.edit_original_response(content=t("forget.confirm"), view=view)

    tournament = app_commands.Group(name="tournament", description="Tournaments of this server")

    @tournament.command(name="new", description="Create a tournament whose teams are roles")
    @app_commands.describe(
        name="The tournament's name",
        team1="A team's role",
        team2="A team's role",
        team3="A team's role",
        team4="A team's role",
    )
    @app_commands.default_permissions(manage_guild=True)
    async def tournament_new(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 60],
        team1: discord.Role | None = None,
        team2: discord.Role | None = None,
        team3: discord.Role | None = None,
        team4: discord.Role | None = None,
    ) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            if not interaction.permissions.manage_guild:
                raise TableError("not_manager")
            roles = [r for r in (team1, team2, team3, team4) if r is not None]
            teams = {role.name: role.id for role in roles}
            try:
                await self.repo.tournaments.create_tournament(
                    interaction.guild_id or 0, name, teams, time.time()
                )
            except TournamentExistsError:
                raise TableError("tournament_exists", name=name) from None
            except ValueError as exc:
                raise TableError("bad_tournament", detail=str(exc)) from None
            await self._say(
                interaction,
                t("tournament.created", name=name, teams=", ".join(teams) or "—"),
            )

        await self._guard(interaction, body)

    @tournament.command(name="standings", description="A tournament's players and teams")
    @app_commands.describe(name="The tournament's name")
    async def tournament_standings(self, interaction: discord.Interaction[Any], name: str) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            try:
                standings = await self.repo.tournaments.tournament_standings(
                    interaction.guild_id or 0, name
                )
            except UnknownTournamentError:
                raise TableError("unknown_tournament", name=name) from None
            players = [
                (str(p.rank), p.name, p.team or "—", str(p.points), str(p.games))
                for p in standings.players
            ]
            teams = [
                (str(team.rank), team.name, str(team.points), str(team.award))
                for team in standings.teams
            ]
            lines = [f"**{t('tournament.players')}**"]
            lines += [
                t("tournament.player_line", rank=r, name=n, team=tm, points=p, games=g)
                for r, n, tm, p, g in players
            ] or ["—"]
            lines += ["", f"**{t('tournament.teams')}**"]
            lines += [
                t("tournament.team_line", rank=r, name=n, points=p, award=a) for r, n, p, a in teams
            ] or ["—"]
            title = t("tournament.title", name=standings.tournament.name)
            image = await asyncio.to_thread(
                render_standings,
                title,
                [
                    t("board.rank"),
                    t("board.name"),
                    t("tournament.team"),
                    t("tournament.points"),
                    t("tournament.games"),
                ],
                players[:15],
            )
            await _show_card(interaction, title, lines, image, "standings.png")

        await self._guard(interaction, body)


def _describe_settings(settings: GuildSettings) -> str:
    unset = t("settings.unset")
    return t(
        "settings.saved",
        preset=preset_name(settings.preset) if settings.preset else unset,
        points=settings.target if settings.target is not None else unset,
        turn_seconds=settings.turn_seconds if settings.turn_seconds is not None else unset,
        ping=t("settings.yes") if settings.ping_turns else t("settings.no"),
        language=settings.language or t("language.auto"),
    )


class ForgetConfirmation(discord.ui.View):
    """Two buttons under the ephemeral question; only the asker sees them."""

    def __init__(self, repo: GameRepository, user_id: int) -> None:
        super().__init__(timeout=120)
        self.repo = repo
        self.user_id = user_id
        self.confirm.label = t("forget.yes")
        self.cancel.label = t("forget.no")

    @discord.ui.button(style=discord.ButtonStyle.danger)
    async def confirm(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        removed = await self.repo.boards.forget_user(self.user_id)
        self.stop()
        await interaction.response.edit_message(content=t("forget.done", rows=removed), view=None)

    @discord.ui.button(style=discord.ButtonStyle.secondary)
    async def cancel(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        self.stop()
        await interaction.response.edit_message(content=t("forget.kept"), view=None)
