"""The per-server boards, for everyone: ``/uno leaderboard``, ``stats``, ``tournament
standings`` and ``forget-me`` — a part of the ``/uno`` cog (:class:`BoardCommands` is one of
its bases: discord.py keeps one command group in one cog).

Everything here reads or writes through ``storage`` (``repo.boards``, ``repo.tournaments``);
answers are ephemeral. Pictures render in a worker thread. What server managers run is in
``_admin.py``.
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from engine import Colour
from renders import LeaderRow, render_leaderboard, render_standings, render_stats
from storage import GameRepository, Sort
from storage.boards import BoardRow, PlayerStats
from storage.tournaments import UnknownTournamentError
from tables import TableError, TableService

from ._components import button
from ._i18n import t, t_plural
from ._present import colour_name
from ._replies import Interaction, Replies
from ._verbs import CustomId, base36

PAGE = 10
#: Seconds between two pictures of the boards for one user.
BOARD_COOLDOWN = 3.0
#: The board's orders, as the command offers them and as storage sorts.
SORT_KEYS: dict[str, Sort] = {
    "rating": "rating",
    "wins": "wins",
    "points": "points",
    "games": "games",
}
SORTS = tuple(SORT_KEYS)
_COLOURS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}


SORT_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(s, key=f"sort.{s}"), value=s) for s in SORTS
]


async def _show_card(
    interaction: Interaction,
    title: str,
    lines: list[str],
    image: bytes,
    filename: str,
    footer: str | None = None,
) -> None:
    """Answer with the rendered card and the same facts as text (also the image's alt text)."""
    text = "\n".join(lines)
    embed = discord.Embed(title=title[:256], description=text[:4000])
    embed.set_image(url=f"attachment://{filename}")
    if footer:
        embed.set_footer(text=footer[:2048])
    picture = discord.File(io.BytesIO(image), filename=filename, description=text[:1000])
    await interaction.edit_original_response(content=None, embed=embed, attachments=[picture])


def _board_line(row: BoardRow) -> str:
    return t(
        "board.line",
        rank=row.rank,
        name=row.name,
        rating=row.rating,
        wins=t_plural("count.wins", row.wins),
        matches=t_plural("count.matches", row.matches),
        points=t_plural("count.points_short", row.points),
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


class BoardCommands(commands.Cog):
    """``/uno leaderboard``, ``stats``, ``tournament standings``, ``forget-me`` (a base of the
    ``/uno`` cog, which gives it the repository, the replies and the tables)."""

    repo: GameRepository
    replies: Replies
    service: TableService

    tournament = app_commands.Group(name="tournament", description="Tournaments of this server")

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
        """The server's board, with the user's own rank even off the page."""

        async def body() -> None:
            self.replies.cooldowns.check(interaction.user.id, "board", BOARD_COOLDOWN)
            key = SORT_KEYS.get(sort)
            if key is None:
                raise TableError("bad_option", option="sort")
            guild = interaction.guild_id or 0
            boards = self.repo.boards
            number = season or await boards.current_season(guild)
            rows = await boards.leaderboard(
                guild, sort=key, season=number, offset=(page - 1) * PAGE, limit=PAGE
            )
            if not rows:
                await self.replies.say(interaction, t("board.empty", season=number))
                return
            size = await boards.board_size(guild, season=number)
            mine = await boards.rank_of(guild, interaction.user.id, sort=key, season=number)
            title = t("board.title", season=number, sort=t(f"sort.{sort}"))
            pages = max(1, -(-size // PAGE))
            lines = [_board_line(row) for row in rows]
            extra = None
            if mine is not None and all(row.user_id != mine.user_id for row in rows):
                lines += ["…", t("board.you", line=_board_line(mine))]
                extra = _leader_row(mine, mine=True)
            footer = t(
                "board.footer", page=page, pages=pages, players=t_plural("count.players", size)
            )
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

        await self.replies.run(interaction, body, defer="thinking")

    @app_commands.command(name="stats", description="A player's UNO statistics on this server")
    @app_commands.describe(player="Whose statistics (default: yours)")
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        """A player's statistics on this server (the user's by default)."""

        async def body() -> None:
            self.replies.cooldowns.check(interaction.user.id, "board", BOARD_COOLDOWN)
            who = player or interaction.user
            stats = await self.repo.boards.stats(interaction.guild_id or 0, who.id)
            if stats is None:
                name = getattr(who, "display_name", None) or who.name
                await self.replies.say(interaction, t("stats.none", name=name[:100]))
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

        await self.replies.run(interaction, body, defer="thinking")

    @tournament.command(name="standings", description="A tournament's players and teams")
    @app_commands.describe(name="The tournament's name")
    async def tournament_standings(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 60]
    ) -> None:
        """A tournament's players (placement points) and teams (R-TEAM-3)."""

        async def body() -> None:
            try:
                standings = await self.repo.tournaments.tournament_standings(
                    interaction.guild_id or 0, name
                )
            except UnknownTournamentError:
                raise TableError("unknown_tournament", name=name[:100]) from None
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
                t(
                    "tournament.player_line",
                    rank=r,
                    name=n,
                    team=tm,
                    points=t_plural("count.points_short", int(p)),
                    games=t_plural("count.games", int(g)),
                )
                for r, n, tm, p, g in players
            ] or ["—"]
            lines += ["", f"**{t('tournament.teams')}**"]
            lines += [
                t(
                    "tournament.team_line",
                    rank=r,
                    name=n,
                    points=t_plural("count.points_short", int(p)),
                    award=a,
                )
                for r, n, p, a in teams
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

        await self.replies.run(interaction, body, defer="thinking")

    @app_commands.command(name="forget-me", description="Delete your stored UNO statistics")
    async def forget_me(self, interaction: Interaction) -> None:
        """Ask before deleting the user's statistics, ratings, results and stored name."""

        async def body() -> None:
            who = base36(interaction.user.id)
            view = discord.ui.View(timeout=None)
            view.add_item(button("forget", who, None, "yes", label=t("forget.yes"), style="danger"))
            view.add_item(button("forget", who, None, "no", label=t("forget.no")))
            view.stop()  # restart-proof: the custom ids carry everything
            await interaction.edit_original_response(content=t("forget.confirm"), view=view)

        await self.replies.run(interaction, body, defer="thinking")

    async def on_forget(self, interaction: Interaction, cid: CustomId) -> None:
        """The confirmation's buttons (they work after a restart too); the cog checked that
        the id is the clicker's."""
        if cid.arg == "yes":
            removed = await self.service.forget(interaction.user.id)
            if self.replies.players is not None:
                await self.replies.players.forget(interaction.user.id)
            text = t_plural("forget.done", removed)
        else:
            text = t("forget.kept")
        await interaction.edit_original_response(content=text, view=None)
