"""The per-server boards: ``/uno leaderboard``, ``stats``, ``tournament standings`` and
``forget-me``, and what server managers run with ``/uno-admin``: ``settings``, ``season new``
and ``tournament new``.

Everything here reads or writes through ``storage`` (``repo.boards``, ``repo.settings``,
``repo.tournaments``); answers are ephemeral. Pictures render in a worker thread.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engine import PRESETS, Colour, Rules, RulesError
from renders import LeaderRow, render_leaderboard, render_standings, render_stats
from storage import GameRepository, GuildSettings, HousePreset, PresetLimitError, Sort
from storage.boards import BoardRow, PlayerStats
from storage.settings import NEVER
from storage.tournaments import TournamentExistsError, UnknownTournamentError
from tables import TableError, TableService, refused

from ._components import button
from ._house import differences
from ._i18n import LANGUAGES, known, t, t_plural
from ._present import colour_name, preset_name
from ._presets import preset_choices
from ._replies import DEFAULT_TURN_PING, GuildPrefs, Interaction, Replies, answers
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


class Boards(commands.Cog):
    """Leaderboards, statistics, seasons, tournaments and server settings."""

    def __init__(
        self,
        repo: GameRepository,
        replies: Replies,
        languages: GuildPrefs,
        service: TableService,
    ) -> None:
        self.repo = repo
        self.replies = replies
        self.languages = languages
        self.service = service

    # -- everyone ---------------------------------------------------------------------------

    @answers()
    async def leaderboard(
        self, interaction: Interaction, sort: str, season: int | None, page: int
    ) -> None:
        """The server's board, with the user's own rank even off the page."""
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
        footer = t("board.footer", page=page, pages=pages, players=t_plural("count.players", size))
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

    @answers()
    async def stats(self, interaction: Interaction, player: discord.abc.User | None) -> None:
        """A player's statistics on this server (the user's by default)."""
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

    @answers()
    async def tournament_standings(self, interaction: Interaction, name: str) -> None:
        """A tournament's players (placement points) and teams (R-TEAM-3)."""
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

    @answers()
    async def forget_me(self, interaction: Interaction) -> None:
        """Ask before deleting the user's statistics, ratings, results and stored name."""
        who = base36(interaction.user.id)
        view = discord.ui.View(timeout=None)
        view.add_item(button("forget", who, None, "yes", label=t("forget.yes"), style="danger"))
        view.add_item(button("forget", who, None, "no", label=t("forget.no")))
        view.stop()  # restart-proof: the custom ids carry everything
        await interaction.edit_original_response(content=t("forget.confirm"), view=view)

    async def on_forget(self, interaction: Interaction, cid: CustomId) -> None:
        """The confirmation's buttons (they work after a restart too); the Uno cog checked
        that the id is the clicker's."""
        if cid.arg == "yes":
            removed = await self.service.forget(interaction.user.id)
            text = t_plural("forget.done", removed)
        else:
            text = t("forget.kept")
        await interaction.edit_original_response(content=text, view=None)

    # -- server managers (/uno-admin; the checks stay in code too) ------------------------

    @staticmethod
    def _require_manager(interaction: Interaction) -> None:
        if not interaction.permissions.manage_guild:
            raise TableError("not_manager")

    @answers()
    async def season_new(self, interaction: Interaction) -> None:
        """Close the season and start a fresh board."""
        self._require_manager(interaction)
        number = await self.repo.boards.new_season(interaction.guild_id or 0, time.time())
        await self.replies.say(interaction, t("season.started", season=number))

    async def presets(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete of a preset: the built-in ones and this server's."""
        return await self._preset_choices(interaction, current, built_in=True)

    async def house_presets(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete of one of this server's house presets."""
        return await self._preset_choices(interaction, current, built_in=False)

    async def _preset_choices(
        self, interaction: Interaction, current: str, *, built_in: bool
    ) -> list[app_commands.Choice[str]]:
        await self.replies.speak_to(interaction)
        return await preset_choices(
            self.repo.presets, interaction.guild_id or 0, current, built_in=built_in
        )

    @answers()
    async def preset_save(self, interaction: Interaction, name: str) -> None:
        """Save the rules of this channel's table as a house preset called ``name``."""
        self._require_manager(interaction)
        name = name.strip()
        if not name or name.casefold() in PRESETS:
            raise TableError("preset_name_taken", name=name[:40])
        table = await self.service.in_channel(interaction.channel_id or 0)
        if table is None:
            raise TableError("no_table")
        preset = HousePreset(name, table.preset, dict(table.options))
        try:
            replaced = await self.repo.presets.save(interaction.guild_id or 0, preset, time.time())
        except PresetLimitError as exc:
            raise TableError("too_many_presets", most=exc.args[0]) from None
        changed = differences(table.rules, table.preset)
        await self.replies.say(
            interaction,
            t(
                "preset.replaced" if replaced else "preset.saved",
                name=name[:40],
                preset=preset_name(table.preset),
                changes="; ".join(changed) or t("preset.as_is"),
            ),
        )

    @answers()
    async def preset_delete(self, interaction: Interaction, name: str) -> None:
        """Forget the house preset called ``name``."""
        self._require_manager(interaction)
        if not await self.repo.presets.delete(interaction.guild_id or 0, name):
            raise TableError("bad_rules", rule="unknown_preset", preset=name[:40])
        await self.replies.say(interaction, t("preset.deleted", name=name[:40]))

    @answers()
    async def settings(
        self,
        interaction: Interaction,
        preset: str | None,
        points: int | None,
        turn_seconds: int | None,
        turn_ping: int | None,
        language: str | None,
        reset_rules: bool,
        house: Callable[[], dict[str, Any]],
    ) -> None:
        """The server's defaults for new tables (house rules included), and its language."""
        self._require_manager(interaction)
        if language not in (None, "auto", *LANGUAGES):
            raise TableError("bad_option", option="language")
        guild = interaction.guild_id or 0
        store = self.repo.settings
        current = await store.get_guild_settings(guild)
        options = {} if reset_rules else dict(current.options)
        options.update(house())
        chosen = preset if preset is not None else current.preset
        # A built-in preset or one of the server's (its house rules count too): the defaults
        # must make a table, checked with the preset they apply to.
        base, saved = await self.service.house_rules(guild, chosen or "classic")
        try:
            Rules.from_preset(base, **{**saved, **options})
        except RulesError as exc:
            raise refused(exc) from None
        updated = GuildSettings(
            preset=preset if preset is not None else current.preset,
            target=points if points is not None else current.target,
            turn_seconds=turn_seconds if turn_seconds is not None else current.turn_seconds,
            turn_ping=turn_ping if turn_ping is not None else current.turn_ping,
            language=(
                current.language if language is None else None if language == "auto" else language
            ),
            options=options,
        )
        await store.set_guild_settings(guild, updated)
        self.languages.remember(guild, updated)
        await self.replies.say(interaction, _describe_settings(updated))

    @answers()
    async def tournament_new(
        self, interaction: Interaction, name: str, roles: list[discord.Role]
    ) -> None:
        """A tournament whose teams are roles (R-TEAM-3)."""
        self._require_manager(interaction)
        teams = {role.name: role.id for role in roles}
        try:
            await self.repo.tournaments.create_tournament(
                interaction.guild_id or 0, name, teams, time.time()
            )
        except TournamentExistsError:
            raise TableError("tournament_exists", name=name[:100]) from None
        except ValueError as exc:
            raise TableError("bad_tournament", detail=str(exc)[:200]) from None
        await self.replies.say(
            interaction, t("tournament.created", name=name, teams=", ".join(teams) or "—")
        )


def _describe_settings(settings: GuildSettings) -> str:
    unset = t("settings.unset")
    text = t(
        "settings.saved",
        preset=preset_name(settings.preset) if settings.preset else unset,
        points=settings.target if settings.target is not None else unset,
        turn_seconds=settings.turn_seconds if settings.turn_seconds is not None else unset,
        ping=_ping_words(settings.turn_ping),
        language=_language_words(settings.language),
    )
    preset = settings.preset or "classic"
    changed = differences(Rules.from_preset(preset, **settings.options), preset)
    if changed:
        text += "\n" + t("table.house_rules", changes="; ".join(changed))
    return text


def _language_words(language: str | None) -> str:
    """The server's language setting in words: the language's own name, or "automatic"."""
    key = f"language.{language or 'auto'}"
    return t(key) if known(key) else str(language)


def _ping_words(turn_ping: int | None) -> str:
    """When turns are pinged, in words."""
    if turn_ping is None:
        return t("settings.ping.after", seconds=DEFAULT_TURN_PING)
    if turn_ping == NEVER:
        return t("settings.ping.never")
    if turn_ping == 0:
        return t("settings.ping.now")
    return t("settings.ping.after", seconds=turn_ping)
