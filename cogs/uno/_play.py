"""``/uno …`` and every click: the :class:`Uno` cog.

Each command is written once, here (and the boards' in :class:`~cogs.uno._boards.BoardCommands`),
as a method of the cog, which is the ``/uno`` group (``commands.GroupCog``). The commands that
take no option and make a move (``/uno join``, ``/uno draw``, …) are built from the move
registry (``_moves.py``); the others read their options and resolve to their move the same
way. Clicks reach :meth:`Uno.on_interaction`, which finds the clicked id on the message,
decodes it with the verb registry and resolves the verb to its move: one
:class:`~cogs.uno._desk.TableDesk` runs moves for clicks and commands alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Iterator, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engine import PRESETS, Rules, RulesError
from engine.actions import Play
from players import LEVELS
from tables import Clock, Table, TableError, refused

from ._boards import BoardCommands
from ._components import routed
from ._desk import TableDesk
from ._emojis import CardEmojis
from ._house import house_options, house_rule_options
from ._i18n import CatalogueTranslator, guild_language, t
from ._moves import PERSONAL_VERBS, Act, Move, built_commands, for_command
from ._moves import for_verb as move_for_verb
from ._own import ALERT_CHOICES, OWN_LANGUAGE_CHOICES, PICTURE_CHOICES, changed, describe
from ._present import card_name, colour_name, preset_name, rules_help
from ._presets import preset_choices
from ._replies import Defer, Interaction
from ._typed import colours_in_play
from ._verbs import BY_NAME, Place, base36

log = logging.getLogger(__name__)

#: Seconds between two ``/uno table`` of one user.
REPOST_COOLDOWN = 5.0
#: How long a start waits for the card emojis before showing the tables again.
EMOJI_WAIT = 10.0

LEVEL_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(level, key=f"level.{level}"), value=level)
    for level in LEVELS
]


def _every_component(components: Sequence[Any]) -> Iterator[Any]:
    """Every component of a message, nested ones too: action rows' buttons and selects, and a
    Components V2 layout's containers, sections and their accessories."""
    for component in components:
        yield component
        yield from _every_component(getattr(component, "children", ()) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


@app_commands.guild_only()
class Uno(
    BoardCommands, commands.GroupCog, group_name="uno", group_description="Play UNO in this channel"
):
    """``/uno …`` and the components of every table message and hand."""

    def __init__(
        self, bot: commands.Bot, desk: TableDesk, clock: Clock, emojis: CardEmojis
    ) -> None:
        self.bot = bot
        self.desk = desk
        self.clock = clock
        self.emojis = emojis
        self.service = desk.service
        self.replies = desk.replies
        self.messages = desk.messages
        self.repo = desk.service.repo
        self._refresh: asyncio.Task[None] | None = None
        self._emojis: asyncio.Task[None] | None = None
        group = self.app_command
        assert group is not None
        for name, description, move in built_commands("uno"):
            group.add_command(move_command(self.desk, name, description, move))

    # -- the life of the cog ----------------------------------------------------------------

    async def cog_load(self) -> None:
        await self.bot.tree.set_translator(CatalogueTranslator())
        self._emojis = asyncio.get_running_loop().create_task(self.emojis.ensure())
        tables = await self.service.live_tables()
        # A move committed just before a stop may never have reached its table message:
        # show every live table again, once the bot is connected — and only then set the
        # clocks (nobody could act before: the time the bot was down is given back).
        self._refresh = asyncio.get_running_loop().create_task(self._refresh_when_ready(tables))

    async def _refresh_when_ready(self, tables: list[Table]) -> None:
        await self.bot.wait_until_ready()
        with contextlib.suppress(TimeoutError):  # shown with their cards' emojis, if soon
            await asyncio.wait_for(self.emojis.ready.wait(), timeout=EMOJI_WAIT)
        for table in tables:
            self.clock.watch(table)
        log.info("Clocks set for %d live tables (%s)", len(tables), self.service.shards)
        await self.messages.refresh_all(tables)
        log.info("Table messages shown again for %d live tables", len(tables))
        # Connected, the servers' channels and members cached, the live tables loaded and
        # shown: what exists now mostly lives as long as the process. Out of the collector's
        # reach, a full collection no longer walks it (its pauses stay short).
        gc.collect()
        gc.freeze()

    async def drain(self) -> None:
        """The bot stops: no new interactions; the ones under way finish and are answered,
        and the messages they changed are shown, before the connection closes."""
        self.clock.stop()
        await self.replies.drain()
        await self.messages.drain()

    async def cog_unload(self) -> None:
        for task in (self._refresh, self._emojis):
            if task is not None:
                task.cancel()
        self.clock.stop()
        self.messages.stop()
        await self.bot.tree.set_translator(None)

    # -- the command tree's gate (bot.VettedTree asks every cog that has one) ---------------

    async def vet_command(self, interaction: Interaction) -> bool:
        return await self.replies.check_command(interaction)

    async def refuse_command(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        await self.replies.refuse_command(interaction, error)

    @commands.Cog.listener()
    async def on_http_server_error(self, method: str, url: str) -> None:
        """Discord failed a request (``bot.py`` hears every 5xx): a first answer being given
        is given again at once."""
        self.replies.heard_server_error(url)

    # -- clicks -----------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Route every click on a component of ours to its move by its id.

        A component id that is not on the clicked message (or not of the kind clicked) is a
        forged click: it gets a polite refusal, never "interaction failed".
        """
        if interaction.type is not discord.InteractionType.component:
            return
        if not self.replies.first_time(interaction):
            return  # delivered twice (a gateway resume): it was handled the first time
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        message = interaction.message
        if message is None:
            return
        ours = self.bot.user is not None and message.author.id == self.bot.user.id
        if not custom_id.startswith("uno:") and not ours:
            return  # another application's component (never on our messages)
        kind = int(data.get("component_type", 0))
        on_message = {
            (getattr(child, "custom_id", None), getattr(child.type, "value", None))
            for child in _every_component(message.components)
        }
        cid, values = routed(data)
        if (custom_id, kind) not in on_message or cid is None:
            await self.replies.speak_to(interaction)
            await self.replies.say(interaction, t("error.forged"))
            return
        await self.on_component(Act(interaction, cid, values))

    async def on_component(self, act: Act) -> None:
        """Every button and select of the bot lands here, decoded."""
        cid = act.cid
        assert cid is not None
        place = BY_NAME[cid.verb].place
        if place is Place.PERSONAL:  # about no table: the id names its owner
            if cid.table == base36(act.user):
                await self.replies.run(act.interaction, lambda: self._personal(act), defer="update")
            else:  # anyone else gets a new message, never a change of theirs
                await self.replies.run(act.interaction, _not_yours, defer="thinking")
            return
        move = move_for_verb(cid.verb)
        defer: Defer | None = "quick" if place is Place.HAND else None
        await self.desk.run(act, move, defer=defer, find=self._clicked_table)

    async def _personal(self, act: Act) -> None:
        cid = act.cid
        assert cid is not None
        assert cid.verb in PERSONAL_VERBS
        await self.on_forget(act.interaction, cid)

    async def _clicked_table(self, act: Act) -> Table:
        """The table a click is about, checked against where it was clicked; a click on an
        old public message of the table (one a failed retirement or a crash left behind,
        still with its buttons) is served, and the message retired."""
        cid, interaction = act.cid, act.interaction
        assert cid is not None
        table = await self.service.get(cid.table, seen=cid.version)
        if table is None:
            raise TableError("unknown_table")
        if table.channel_id != interaction.channel_id:
            raise TableError("other_channel")
        message = interaction.message
        if (
            message is not None
            and (message.embeds or message.flags.components_v2)
            and not message.flags.ephemeral
            and self.messages.is_retired(table, message.id)
        ):
            self.messages.retire_later(table, message.id)
        return table

    # -- /uno commands with options ---------------------------------------------------------

    async def run_command(self, interaction: Interaction, **options: Any) -> None:
        """The move of the command that was used, with its options."""
        assert interaction.command is not None
        move = for_command(interaction.command.qualified_name)
        await self.desk.run(Act(interaction, options=options), move)

    @app_commands.command(name="new", description="Open an UNO table in this channel")
    @app_commands.describe(
        preset="Which rules to play: a preset or one of this server's (default: classic)",
        points="Points needed to win the match",
        turn_seconds="Seconds per turn (0: no limit)",
        hands="Play a fixed number of hands (R-SCORE-5)",
        tournament="Report this table to a tournament",
    )
    @house_rule_options
    async def new(
        self,
        interaction: Interaction,
        preset: app_commands.Range[str, 1, 40] | None = None,
        points: app_commands.Range[int, 50, 5000] | None = None,
        turn_seconds: app_commands.Range[int, 0, 600] | None = None,
        hands: app_commands.Range[int, 1, 20] | None = None,
        tournament: app_commands.Range[str, 1, 60] | None = None,
        stacking: str | None = None,
        jump_in: bool | None = None,
        draw_until_playable: bool | None = None,
        two_decks: bool | None = None,
        teams: str | None = None,
    ) -> None:
        """Open a lobby in this channel; the server's defaults fill what is left out.
        ``preset`` is a built-in preset or one of the server's house presets."""
        house = {
            "stacking": stacking,
            "jump_in": jump_in,
            "draw_until_playable": draw_until_playable,
            "two_decks": two_decks,
            "teams": teams,
        }
        numbers = {"target": points, "turn_seconds": turn_seconds, "hands": hands}

        async def body() -> None:
            chosen = {key: value for key, value in numbers.items() if value is not None}
            table = await self.service.open_here(
                guild_id=interaction.guild_id or 0,
                channel_id=interaction.channel_id or 0,
                host=await self.desk.as_player(interaction, tournament),
                preset=preset,
                options={**chosen, **house_options(house)},
                language=guild_language(interaction),
                tournament=tournament,
            )
            await self.messages.show(table, repost=True)
            await self.replies.say(interaction, t("ok.opened"))

        await self.replies.run(interaction, body, defer="thinking")

    @app_commands.command(name="addbot", description="Seat a computer player (host only)")
    @app_commands.describe(level="How well it plays (default: normal)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: Interaction, level: str = "normal") -> None:
        await self.run_command(interaction, level=level)

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
        """Play a card named as the user typed it (notation or name, any language)."""
        await self.run_command(interaction, card=card, colour=colour, uno=uno, swap_with=swap_with)

    @play.autocomplete("card")
    async def _playable_cards(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The user's playable cards, by name."""
        # Autocomplete cannot wait: it answers from the tables this process keeps.
        table = self.service.cached_in_channel(interaction.channel_id or 0)
        if table is None or table.match is None:
            return []
        seat = table.playing_seat_of(interaction.user.id)
        if seat is None:
            return []
        state = table.match.hand
        typed = current.strip().lower()
        choices: list[app_commands.Choice[str]] = []
        seen: set[str] = set()
        for action in state.legal_actions(seat):
            if not isinstance(action, Play) or action.face.notation in seen:
                continue
            seen.add(action.face.notation)
            name = card_name(action.face)
            copies = sum(1 for f in state.hand_faces(seat) if f == action.face)
            label = name + (f" ×{copies}" if copies > 1 else "")
            if typed and typed not in name.lower() and typed not in action.face.notation.lower():
                continue
            choices.append(app_commands.Choice(name=label, value=action.face.notation))
        return choices[:25]

    @app_commands.command(name="colour", description="Name the colour of a Wild turned up first")
    @app_commands.describe(colour="The colour to play on")
    async def colour(
        self, interaction: Interaction, colour: app_commands.Range[str, 1, 20]
    ) -> None:
        """Name the colour of a Wild turned up at the start (R-SETUP-5)."""
        await self.run_command(interaction, colour=colour)

    @app_commands.command(name="catch", description="Catch a player who didn't call UNO")
    @app_commands.describe(player="Who to catch (default: whoever is open to a catch)")
    async def catch(self, interaction: Interaction, player: discord.User | None = None) -> None:
        await self.run_command(interaction, player=player)

    @app_commands.command(name="kick", description="Remove a player (host or managers)")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        await self.run_command(interaction, player=player)

    @app_commands.command(name="table", description="Post the table again at the bottom")
    async def table(self, interaction: Interaction) -> None:
        """The table message again, at the bottom of the channel."""

        async def body() -> None:
            self.replies.cooldowns.check(interaction.user.id, "repost", REPOST_COOLDOWN)
            await self.messages.show(await self.desk.table_here(Act(interaction)), repost=True)
            await self.replies.say(interaction, t("ok.reposted"))

        await self.replies.run(interaction, body, defer="thinking")

    @app_commands.command(name="rules", description="Explain the rules of this table or a preset")
    @app_commands.describe(preset="A preset to explain (default: this channel's table)")
    async def rules(
        self, interaction: Interaction, preset: app_commands.Range[str, 1, 40] | None = None
    ) -> None:
        """The rules of this channel's table, or of a preset (built-in or the server's own),
        in plain words."""

        async def body() -> None:
            title = None
            if preset is None:
                table = await self.service.in_channel(interaction.channel_id or 0)
                name, rules = (table.preset, table.rules) if table else ("classic", Rules())
            else:
                name, house = await self.service.house_rules(interaction.guild_id or 0, preset)
                try:
                    rules = Rules.from_preset(name, **house)
                except RulesError as exc:
                    raise refused(exc) from None
                if preset not in PRESETS:
                    title = t("rules.house_title", name=preset[:40], preset=preset_name(name))
            embed = discord.Embed(
                title=title or t("rules.title", preset=preset_name(name)),
                description="\n\n".join(rules_help(name, rules))[:4096],
            )
            await interaction.edit_original_response(content=None, embed=embed)

        await self.replies.run(interaction, body, defer="thinking")

    @app_commands.command(
        name="settings", description="Your own settings: alerts, language, hand picture"
    )
    @app_commands.describe(
        alerts="When to be pinged for your turn",
        language="The language of answers only you see",
        hand_picture="Your hand as a picture, or as text and emojis",
    )
    @app_commands.choices(
        alerts=ALERT_CHOICES, language=OWN_LANGUAGE_CHOICES, hand_picture=PICTURE_CHOICES
    )
    async def settings(
        self,
        interaction: Interaction,
        alerts: str | None = None,
        language: str | None = None,
        hand_picture: str | None = None,
    ) -> None:
        """The player's own settings, the same on every server: shown without an option,
        changed with some (and shown, in the language they now read)."""

        async def body() -> None:
            players = self.replies.players
            assert players is not None
            user = interaction.user.id
            current = await players.of(user)
            wanted = changed(current, alerts=alerts, language=language, hand_picture=hand_picture)
            saved = (alerts, language, hand_picture) != (None, None, None)
            if saved:
                await players.save(user, wanted)
                await self.replies.speak_to(interaction)  # perhaps a new language
            quiet = await self.replies.languages.turn_ping(interaction.guild_id or 0) is None
            await self.replies.say(interaction, describe(wanted, saved=saved, server_quiet=quiet))

        await self.replies.run(interaction, body, defer="thinking")

    # -- autocompletes ----------------------------------------------------------------------

    @new.autocomplete("preset")
    @rules.autocomplete("preset")
    async def _presets(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The built-in presets, then the server's house presets."""
        return await preset_choices(self.repo.presets, interaction.guild_id or 0, current)

    @play.autocomplete("colour")
    @colour.autocomplete("colour")
    async def _colours(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The colours the table's deck plays now, by name."""
        table = self.service.cached_in_channel(interaction.channel_id or 0)
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=colour_name(colour), value=colour.value)
            for colour in colours_in_play(table)
            if not typed or typed in colour_name(colour).lower() or typed == colour.value.lower()
        ]


def move_command(
    desk: TableDesk, name: str, description: str, move: Move
) -> app_commands.Command[Any, ..., None]:
    """A command built from the move registry (it takes no option: ``/uno join``,
    ``/uno-admin end``): run like a click on the move's button."""

    async def command(interaction: Interaction) -> None:
        await desk.run(Act(interaction), move)

    return app_commands.Command(name=name, description=description, callback=command)


async def _not_yours() -> None:
    raise TableError("not_yours")


__all__ = ["Uno", "move_command"]
