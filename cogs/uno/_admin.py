"""``/uno-admin …``: what server managers run — the server's settings and house presets,
seasons, tournaments, and ending or kicking at any table.

``/uno-admin`` is its own top-level command because Discord applies
``default_member_permissions`` to top-level commands only: it is hidden from members, and
admins can re-assign it in Server Settings → Integrations. Each command checks the permission
again (Discord's promise is not our only guard).
"""

from __future__ import annotations

import time

import discord
from discord import app_commands
from discord.ext import commands

from engine import PRESETS, Rules, RulesError
from storage import GameRepository, GuildSettings, HousePreset, PresetLimitError
from storage.settings import NEVER
from storage.tournaments import TournamentExistsError
from tables import TableError, TableService, refused

from ._desk import TableDesk
from ._house import differences, house_options, house_rule_options
from ._i18n import LANGUAGE_NAMES, LANGUAGES, known, t
from ._moves import Act, built_commands, for_command
from ._play import move_command
from ._present import preset_name
from ._presets import preset_choices
from ._replies import DEFAULT_TURN_PING, GuildPrefs, Interaction, Replies

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


def _language(chosen: str) -> str | None:
    """A server's language setting: one of ours, or ``None`` for the server's own."""
    return None if chosen == "auto" else chosen


def _require_manager(interaction: Interaction) -> None:
    if not interaction.permissions.manage_guild:
        raise TableError("not_manager")


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class UnoAdmin(
    commands.GroupCog, group_name="uno-admin", group_description="Manage UNO on this server"
):
    """``/uno-admin …``: settings, presets, seasons, tournaments, any table of the server."""

    preset = app_commands.Group(name="preset", description="This server's house presets")
    season = app_commands.Group(name="season", description="Seasons of this server's board")
    tournament = app_commands.Group(name="tournament", description="Tournaments of this server")

    def __init__(self, desk: TableDesk, prefs: GuildPrefs) -> None:
        self.desk = desk
        self.prefs = prefs
        self.service: TableService = desk.service
        self.replies: Replies = desk.replies
        self.repo: GameRepository = desk.service.repo
        group = self.app_command
        assert group is not None
        for name, description, move in built_commands("uno-admin"):
            group.add_command(move_command(desk, name, description, move))

    @app_commands.command(name="kick", description="Remove a player from this channel's table")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        act = Act(interaction, options={"player": player})
        await self.desk.run(act, for_command("uno-admin kick"))

    @app_commands.command(name="settings", description="This server's defaults for new tables")
    @app_commands.describe(
        preset="Default rules for /uno new",
        points="Default points to win a match",
        turn_seconds="Default seconds per turn (0: no limit)",
        turn_ping="When to mention a player whose turn came and who has not acted",
        language="Language of public messages (automatic: the server's)",
        reset_rules="Forget the server's house rules (back to the preset's)",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @app_commands.choices(turn_ping=TURN_PING_CHOICES)
    @house_rule_options
    async def settings(
        self,
        interaction: Interaction,
        preset: app_commands.Range[str, 1, 40] | None = None,
        points: app_commands.Range[int, 50, 5000] | None = None,
        turn_seconds: app_commands.Range[int, 0, 600] | None = None,
        turn_ping: int | None = None,
        language: str | None = None,
        reset_rules: bool = False,
        stacking: str | None = None,
        jump_in: bool | None = None,
        draw_until_playable: bool | None = None,
        two_decks: bool | None = None,
        teams: str | None = None,
    ) -> None:
        """The server's defaults for new tables (house rules included), and its language."""
        house = {
            "stacking": stacking,
            "jump_in": jump_in,
            "draw_until_playable": draw_until_playable,
            "two_decks": two_decks,
            "teams": teams,
        }

        async def body() -> None:
            _require_manager(interaction)
            if language not in (None, "auto", *LANGUAGES):
                raise TableError("bad_option", option="language")
            guild = interaction.guild_id or 0
            store = self.repo.settings
            current = await store.get_guild_settings(guild)
            options = {} if reset_rules else dict(current.options)
            options.update(house_options(house))
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
                    current.language
                    if language is None
                    else None
                    if language == "auto"
                    else language
                ),
                options=options,
            )
            await store.set_guild_settings(guild, updated)
            self.prefs.remember(guild, updated)
            await self.replies.say(interaction, _describe_settings(updated))

        await self.replies.run(interaction, body, defer="thinking")

    @settings.autocomplete("preset")
    async def _settings_preset(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await preset_choices(self.repo.presets, interaction.guild_id or 0, current)

    @preset.command(name="save", description="Save this channel's table's rules as a preset")
    @app_commands.describe(name="The house preset's name (/uno new preset: offers it)")
    async def preset_save(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 40]
    ) -> None:
        """Save the rules of this channel's table as a house preset called ``name``."""

        async def body(name: str = name) -> None:
            _require_manager(interaction)
            name = name.strip()
            if not name or name.casefold() in PRESETS:
                raise TableError("preset_name_taken", name=name[:40])
            table = await self.service.in_channel(interaction.channel_id or 0)
            if table is None:
                raise TableError("no_table")
            preset = HousePreset(name, table.preset, dict(table.options))
            try:
                replaced = await self.repo.presets.save(
                    interaction.guild_id or 0, preset, time.time()
                )
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

        await self.replies.run(interaction, body, defer="thinking")

    @preset.command(name="delete", description="Forget one of this server's presets")
    @app_commands.describe(name="The house preset to forget")
    async def preset_delete(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 40]
    ) -> None:
        """Forget the house preset called ``name``."""

        async def body() -> None:
            _require_manager(interaction)
            if not await self.repo.presets.delete(interaction.guild_id or 0, name):
                raise TableError("bad_rules", rule="unknown_preset", preset=name[:40])
            await self.replies.say(interaction, t("preset.deleted", name=name[:40]))

        await self.replies.run(interaction, body, defer="thinking")

    @preset_delete.autocomplete("name")
    async def _house_preset(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """One of this server's house presets."""
        return await preset_choices(
            self.repo.presets, interaction.guild_id or 0, current, built_in=False
        )

    @season.command(name="new", description="Close this season and start a fresh board")
    async def season_new(self, interaction: Interaction) -> None:
        """Close the season and start a fresh board."""

        async def body() -> None:
            _require_manager(interaction)
            number = await self.repo.boards.new_season(interaction.guild_id or 0, time.time())
            await self.replies.say(interaction, t("season.started", season=number))

        await self.replies.run(interaction, body, defer="thinking")

    @tournament.command(name="new", description="Create a tournament whose teams are roles")
    @app_commands.describe(
        name="The tournament's name",
        team1="A team's role",
        team2="A team's role",
        team3="A team's role",
        team4="A team's role",
    )
    async def tournament_new(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 60],
        team1: discord.Role | None = None,
        team2: discord.Role | None = None,
        team3: discord.Role | None = None,
        team4: discord.Role | None = None,
    ) -> None:
        """A tournament whose teams are roles (R-TEAM-3)."""
        roles = [r for r in (team1, team2, team3, team4) if r is not None]

        async def body() -> None:
            _require_manager(interaction)
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

        await self.replies.run(interaction, body, defer="thinking")


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
