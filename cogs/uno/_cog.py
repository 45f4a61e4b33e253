"""The ``/uno`` commands and the components: thin adapters from Discord to the tables.

Every handler answers Discord at once (a deferral), then loads the table, applies the change
under the table's lock, saves it, and only then shows anyone the result. The one error
boundary turns every refusal into a polite ephemeral sentence; nothing is changed then.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engine import PRESETS, Action, CardFace, Colour, Rules, classic_deck
from engine.actions import CALL_UNO, CHALLENGE, DRAW, PASS, CatchUno, ChooseColour, Play
from engine.events import CardsReceived, HandRevealed, events_for
from players import LEVELS
from tables.clock import DEFAULT_PAUSE, Clock
from tables.service import StaleClickError, TableService
from tables.table import Change, Player, Table, TableError

from ._boards import BoardCommands
from ._components import ALL_COMPONENTS
from ._custom_ids import TABLE_VERBS, CustomId
from ._i18n import (
    LANGUAGES,
    CatalogueTranslator,
    guild_language,
    language_for,
    set_language,
    speaking,
    t,
)
from ._messages import HandState, Payload, hand_payload, needs_colour, table_payload
from ._present import card_name, error_text, preset_name, rules_help

log = logging.getLogger(__name__)

PRESET_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(name, key=f"preset.{name}"), value=name)
    for name in PRESETS
]
LEVEL_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(level, key=f"level.{level}"), value=level)
    for level in LEVELS
]


def _player(interaction: discord.Interaction[Any]) -> Player:
    user = interaction.user
    return Player(user.id, getattr(user, "display_name", None) or user.name)


def _is_admin(interaction: discord.Interaction[Any]) -> bool:
    return bool(interaction.permissions.manage_guild)


def _every_face() -> set[CardFace]:
    """Every face of every deck a preset (or the modern deck) plays with, both sides."""
    decks = [classic_deck(modern_deck=True), *(Rules.from_preset(p).deck() for p in PRESETS)]
    return {face for deck in decks for side in deck.sides for face in side}


def _card_lookup() -> dict[str, str]:
    """Every way a user may type a card: notation or its name in any language, any case."""
    names: dict[str, str] = {}
    for face in _every_face():
        names[face.notation.lower()] = face.notation
        for language in LANGUAGES:
            with speaking(language):
                names[card_name(face).lower()] = face.notation
    return names


CARD_NAMES = _card_lookup()

#: Colours a wild may name: the classic four, then UNO Flip's dark ones.
ALL_COLOURS = [*Colour, *sorted({f.colour for f in _every_face() if f.colour} - {*Colour}, key=str)]
COLOUR_CHOICES = [
    app_commands.Choice(
        name=app_commands.locale_str(t(f"colour.{c.value}"), key=f"colour.{c.value}"),
        value=c.value,
    )
    for c in ALL_COLOURS  # UNO Flip's dark side has its own four
]


def _notes_for(seat: int, change: Change, table: Table) -> list[str]:
    """What only this seat should read after its action: cards drawn, a revealed hand."""
    notes = []
    names = table.names()
    for event in events_for(change.events, seat):
        if isinstance(event, CardsReceived) and event.seat == seat and table.match is not None:
            deck = table.match.hand.deck
            drawn = ", ".join(card_name(deck.face(c)) for c in event.cards)
            notes.append(f"🂠 {drawn}")
        elif isinstance(event, HandRevealed) and event.viewer == seat and table.match is not None:
            deck = table.match.hand.deck
            cards = ", ".join(card_name(deck.face(c)) for c in event.cards) or "—"
            notes.append(t("hand.revealed", name=names[event.seat], cards=cards))
    return notes


@app_commands.guild_only()
class Uno(
    BoardCommands,
    commands.GroupCog,
    group_name="uno",
    group_description="Play UNO in this channel",
):
    """Tables, slash commands and components (the boards come from :class:`BoardCommands`)."""

    def __init__(
        self,
        bot: commands.Bot,
        service: TableService,
        *,
        computer_pause: float = DEFAULT_PAUSE,
    ) -> None:
        self.bot = bot
        self.service = service
        self.clock = Clock(service, self.refresh_table_message, pause=computer_pause)
        self.languages: dict[int, str | None] = {}  # guild → forced language (settings)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*ALL_COMPONENTS)
        await self.bot.tree.set_translator(CatalogueTranslator())
        resumed = await self.clock.resume()
        log.info("Clocks set for %d live tables", resumed)

    async def cog_unload(self) -> None:
        self.clock.stop()
        self.bot.remove_dynamic_items(*ALL_COMPONENTS)
        await self.bot.tree.set_translator(None)

    async def _forced_language(self, guild_id: int | None) -> str | None:
        """The language a server forces in ``/uno settings`` (cached; ``None``: automatic)."""
        if guild_id is None:
            return None
        if guild_id not in self.languages:
            settings = await self.service.repo.settings.get_guild_settings(guild_id)
            self.languages[guild_id] = settings.language
        return self.languages[guild_id]

    async def _speak_to(self, interaction: discord.Interaction[Any]) -> None:
        """Answer in the language of whoever acted (every handler starts here)."""
        forced = await self._forced_language(interaction.guild_id)
        set_language(language_for(interaction, forced))

    # -- shared plumbing --------------------------------------------------------------------

    async def _defer(self, interaction: discord.Interaction[Any], *, update: bool) -> None:
        await self._speak_to(interaction)
        if interaction.response.is_done():
            return
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def _say(self, interaction: discord.Interaction[Any], text: str) -> None:
        """A short ephemeral answer, whatever the state of the response."""
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True)
        else:
            await interaction.edit_original_response(
                content=text, embed=None, attachments=[], view=None
            )

    async def _show(self, interaction: discord.Interaction[Any], payload: Payload) -> None:
        """Put a payload in the deferred (ephemeral) response."""
        await interaction.edit_original_response(**payload.edit_kwargs())

    async def _hand(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        *,
        notes: Sequence[str] = (),
        ui: HandState | None = None,
    ) -> None:
        seat = table.playing_seat_of(interaction.user.id)
        if seat is None:
            raise TableError("not_seated")
        if table.match is None:
            raise TableError("game_not_running")
        await self._show(interaction, await hand_payload(table, seat, notes=notes, ui=ui))

    async def _table_here(self, interaction: discord.Interaction[Any]) -> Table:
        table = await self.service.in_channel(interaction.channel_id or 0)
        if table is None:
            raise TableError("no_table")
        return table

    async def refresh_table_message(self, table: Table, *, repost: bool = False) -> None:
        """Edit the public table message in place (or post it anew); rearm the table's clock."""
        self.clock.watch(table)
        try:
            payload = await table_payload(table)
            channel = self.bot.get_partial_messageable(table.channel_id)
            if table.message_id is not None and not repost:
                try:
                    await channel.get_partial_message(table.message_id).edit(
                        **payload.edit_kwargs()
                    )
                    return
                except discord.NotFound:
                    log.info("Table message of %s is gone; posting a new one", table.id)
            message = await channel.send(**payload.send_kwargs())
            old = table.message_id
            await self.service.set_message(table, message.id)
            if repost and old is not None:
                try:
                    await channel.get_partial_message(old).delete()
                except discord.HTTPException:
                    log.debug("Could not delete the old table message %s", old)
        except discord.HTTPException:
            log.exception("Could not update the table message of %s", table.id)

    async def _act(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        actions: Sequence[Action],
        *,
        version: int | None = None,
    ) -> None:
        """Apply actions for the user, show them their hand, then update the table."""
        user = interaction.user.id

        def operation(current: Table, now: float) -> Change:
            return current.act(user, *actions, now=now)

        change = await self.service.update(table.id, operation, version=version)
        seat = change.table.playing_seat_of(user)
        if seat is not None and change.table.match is not None:
            notes = _notes_for(seat, change, change.table)
            await self._hand(interaction, change.table, notes=notes)
        else:
            await self._say(interaction, t("ok.done"))
        await self.refresh_table_message(change.table)

    async def _guard(
        self,
        interaction: discord.Interaction[Any],
        body: Callable[[], Any],
        *,
        fallback_table: str | None = None,
    ) -> None:
        """The error boundary: every refusal becomes one polite ephemeral sentence."""
        try:
            await body()
        except StaleClickError as stale:
            try:
                await self._hand(interaction, stale.table, notes=[t("error.stale")])
            except TableError as exc:
                await self._say(interaction, error_text(exc))
        except TableError as exc:
            await self._say(interaction, error_text(exc))
        except Exception:
            log.exception("Unexpected error in an UNO interaction")
            try:
                await self._say(interaction, t("error.generic"))
            except discord.HTTPException:
                log.debug("Could not report the error to the user")

    # -- components -------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a component id of ours that is not on its message (a forged click).

        discord.py only dispatches a dynamic item when the clicked id is on the message, and
        silently drops the rest; without this the user would see "interaction failed".
        """
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith("uno:") or interaction.message is None:
            return
        on_message = {
            getattr(child, "custom_id", None)
            for row in interaction.message.components
            for child in getattr(row, "children", [row])
        }
        if custom_id not in on_message and not interaction.response.is_done():
            await self._speak_to(interaction)
            await interaction.response.send_message(t("error.forged"), ephemeral=True)

    async def on_component(
        self, interaction: discord.Interaction[Any], cid: CustomId | None, values: Sequence[str]
    ) -> None:
        """Every button and select of the bot lands here."""
        await self._speak_to(interaction)
        if cid is None:
            await self._say(interaction, t("error.forged"))
            return
        await self._defer(interaction, update=cid.verb not in TABLE_VERBS)

        async def body() -> None:
            table = await self.service.get(cid.table)
            if table is None:
                raise TableError("unknown_table")
            if table.channel_id != interaction.channel_id:
                raise TableError("other_channel")
            await self._component(interaction, table, cid, values)

        await self._guard(interaction, body)

    async def _component(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        cid: CustomId,
        values: Sequence[str],
    ) -> None:
        verb = cid.verb
        user = _player(interaction)
        if verb == "hand":
            await self._hand(interaction, table)
            return
        if verb == "next":
            change = await self.service.update(
                table.id,
                lambda tb, now: tb.deal_next(
                    by=user.user_id, is_admin=_is_admin(interaction), now=now
                ),
            )
            if change.table.playing_seat_of(user.user_id) is not None:
                await self._hand(interaction, change.table)
            else:
                await self._say(interaction, t("ok.done"))
            await self.refresh_table_message(change.table)
            return
        if verb in ("join", "leave", "start", "computer"):
            await self._lobby(interaction, table.id, verb, user)
            return
        if cid.version is not None and cid.version != table.version:
            raise StaleClickError(table)
        if verb == "draw":
            await self._act(interaction, table, [DRAW], version=cid.version)
        elif verb == "pass":
            await self._act(interaction, table, [PASS], version=cid.version)
        elif verb == "uno":
            await self._act(interaction, table, [CALL_UNO], version=cid.version)
        elif verb == "challenge":
            await self._act(interaction, table, [CHALLENGE], version=cid.version)
        elif verb == "catch":
            await self._act(interaction, table, [CatchUno(int(cid.arg or 0))], version=cid.version)
        elif verb == "choose":
            colour = Colour(cid.arg)
            await self._act(interaction, table, [ChooseColour(colour)], version=cid.version)
        elif verb == "page":
            await self._hand(interaction, table, ui=HandState(page=int(cid.arg or 0)))
        elif verb == "pick":
            if not values:
                raise StaleClickError(table)
            face = CardFace.parse(values[0])
            if needs_colour(face):
                await self._hand(interaction, table, ui=HandState(wild=face.notation))
            else:
                await self._act(interaction, table, [Play(face)], version=cid.version)
        elif verb == "colour":
            assert cid.arg is not None
            face_text, _, colour_text = cid.arg.partition("=")
            face = CardFace.parse(face_text)
            if face.notation == "WH":
                await self._hand(interaction, table, ui=HandState(swap_colour=colour_text))
            else:
                play = Play(face, Colour(colour_text))
                await self._act(interaction, table, [play], version=cid.version)
        elif verb == "swap":
            assert cid.arg is not None
            if not values or not values[0].isdigit():
                raise StaleClickError(table)
            colour = Colour(cid.arg.partition("=")[2])
            play = Play(CardFace.parse("WH"), colour, int(values[0]))
            await self._act(interaction, table, [play], version=cid.version)

    async def _lobby(
        self, interaction: discord.Interaction[Any], table_id: str, verb: str, user: Player
    ) -> None:
        admin = _is_admin(interaction)
        if verb == "join":
            table = await self.service.get(table_id)
            if table is not None and table.tournament is not None:
                user = await self._seat_player(interaction, table.tournament)
            change = await self.service.update(table_id, lambda tb, now: tb.join(user, now=now))
            seat = change.table.seat_of(user.user_id)
            await self._say(interaction, t("ok.joined", seat=(seat or 0) + 1))
        elif verb == "leave":
            change = await self.service.update(
                table_id, lambda tb, now: tb.leave(user.user_id, now=now)
            )
            await self._say(interaction, t("ok.left"))
        elif verb == "computer":
            change = await self._add_computer(table_id, "normal", user, admin)
            await self._say(interaction, t("ok.computer_added", name=change.table.players[-1].name))
        else:
            change = await self.service.update(
                table_id, lambda tb, now: tb.start(by=user.user_id, is_admin=admin, now=now)
            )
            if change.table.seat_of(user.user_id) is not None:
                await self._hand(interaction, change.table, notes=[t("ok.started")])
            else:
                await self._say(interaction, t("ok.started"))
        await self.refresh_table_message(change.table)

    async def _add_computer(self, table_id: str, level: str, user: Player, admin: bool) -> Change:
        if level not in LEVELS:
            raise TableError("unknown_level")
        return await self.service.update(
            table_id,
            lambda tb, now: tb.add_computer(level, by=user.user_id, is_admin=admin, now=now),
        )

    # -- slash commands ----------------------------------------------------------------------

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            await self._say(interaction, error_text(original))
            return
        if isinstance(error, app_commands.TransformerError | app_commands.CommandSignatureMismatch):
            await self._say(interaction, t("error.generic"))
            return
        log.error("Unexpected error in /uno", exc_info=original)
        try:
            await self._say(interaction, t("error.generic"))
        except discord.HTTPException:
            log.debug("Could not report the error to the user")

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
        interaction: discord.Interaction[Any],
        preset: str | None = None,
        points: app_commands.Range[int, 50, 5000] | None = None,
        turn_seconds: app_commands.Range[int, 0, 600] | None = None,
        tournament: str | None = None,
    ) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            guild = interaction.guild_id or 0
            defaults = await self.service.repo.settings.get_guild_settings(guild)
            chosen = preset or defaults.preset or "classic"
            if chosen not in PRESETS:
                raise TableError("bad_rules", detail=f"unknown preset {chosen!r}")
            options: dict[str, Any] = {}
            # The server's defaults (/uno settings) fill what the command leaves out.
            target = points if points is not None else defaults.target
            seconds = turn_seconds if turn_seconds is not None else defaults.turn_seconds
            if target is not None:
                options["target"] = target
            if seconds is not None:
                options["turn_seconds"] = seconds
            if tournament is not None:
                found = await self.service.repo.tournaments.tournament(guild, tournament)
                if found is None:
                    raise TableError("unknown_tournament", name=tournament)
                tournament_name: str | None = found.name
            else:
                tournament_name = None
            table = await self.service.open(
                guild_id=guild,
                channel_id=interaction.channel_id or 0,
                host=await self._seat_player(interaction, tournament_name),
                preset=chosen,
                options=options,
                language=guild_language(interaction, defaults.language),
                tournament=tournament_name,
                ping_turns=defaults.ping_turns,
            )
            await self.refresh_table_message(table, repost=True)
            await self._say(interaction, t("ok.opened"))

        await self._guard(interaction, body)

    async def _seat_player(
        self, interaction: discord.Interaction[Any], tournament: str | None
    ) -> Player:
        """The user as a player; at a tournament table, with their team's role (R-TEAM-3)."""
        player = _player(interaction)
        if tournament is None:
            return player
        found = await self.service.repo.tournaments.tournament(
            interaction.guild_id or 0, tournament
        )
        roles = {role.id for role in getattr(interaction.user, "roles", [])}
        for team in found.teams if found is not None else ():
            if team.role_id in roles:
                return dataclasses.replace(player, team_role=team.role_id)
        return player

    @app_commands.command(name="join", description="Sit down at this channel's table")
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            table = await self._table_here(interaction)
            await self._lobby(interaction, table.id, "join", _player(interaction))

        await self._guard(interaction, body)

    @app_commands.command(name="addbot", description="Seat a computer player (host only)")
    @app_commands.describe(level="How well it plays (default: normal)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction[Any], level: str = "normal") -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            table = await self._table_here(interaction)
            change = await self._add_computer(
                table.id, level, _player(interaction), _is_admin(interaction)
            )
            await self._say(interaction, t("ok.computer_added", name=change.table.players[-1].name))
            await self.refresh_table_message(change.table)

        await self._guard(interaction, body)

    @app_commands.command(name="leave", description="Leave this channel's table")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            table = await self._table_here(interaction)
            await self._lobby(interaction, table.id, "leave", _player(interaction))

        await self._guard(interaction, body)

    @app_commands.command(name="start", description="Deal the first hand (host only)")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            table = await self._table_here(interaction)
            await self._lobby(interaction, table.id, "start", _player(interaction))

        await self._guard(interaction, body)

    @app_commands.command(name="hand", description="Show your hand (only you see it)")
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            await self._hand(interaction, await self._table_here(interaction))

        await self._guard(interaction, body)

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
        interaction: discord.Interaction[Any],
        card: str,
        colour: str | None = None,
        uno: bool = False,
        swap_with: discord.Member | None = None,
    ) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            table = await self._table_here(interaction)
            notation = CARD_NAMES.get(card.strip().lower())
            if notation is None:
                raise TableError("unknown_card", card=card[:40])
            face = CardFace.parse(notation)
            named = Colour(colour) if colour in {c.value for c in ALL_COLOURS} else None
            if face.is_wild and named is None:
                raise TableError("colour_needed", card=card_name(face))
            target = None
            if swap_with is not None:
                target = table.seat_of(swap_with.id)
                if target is None:
                    raise TableError("not_seated_other")
            action = Play(face, named if face.is_wild else None, target)
            actions: list[Action] = [action]
            if uno:
                actions.append(CALL_UNO)
            await self._act(interaction, table, actions)

        await self._guard(interaction, body)

    @play.autocomplete("card")
    async def play_card_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        await self._speak_to(interaction)
        table = await self.service.in_channel(interaction.channel_id or 0)
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

    @app_commands.command(name="draw", description="Draw a card (or take the pending penalty)")
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        await self._simple(interaction, DRAW)

    @app_commands.command(name="pass", description="Keep the card you just drew")
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        await self._simple(interaction, PASS)

    @app_commands.command(name="uno", description="Call UNO!")
    async def uno(self, interaction: discord.Interaction[Any]) -> None:
        await self._simple(interaction, CALL_UNO)

    @app_commands.command(
        name="challenge", description="Challenge the Wild Draw Four played on you"
    )
    async def challenge(self, interaction: discord.Interaction[Any]) -> None:
        await self._simple(interaction, CHALLENGE)

    async def _simple(self, interaction: discord.Interaction[Any], action: Action) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            await self._act(interaction, await self._table_here(interaction), [action])

        await self._guard(interaction, body)

    @app_commands.command(name="catch", description="Catch a player who didn't call UNO")
    @app_commands.describe(player="Who to catch (default: whoever is open to a catch)")
    async def catch(
        self, interaction: discord.Interaction[Any], player: discord.Member | None = None
    ) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            table = await self._table_here(interaction)
            if table.match is None:
                raise TableError("game_not_running")
            if player is not None:
                target = table.seat_of(player.id)
                if target is None:
                    raise TableError("not_seated_other")
            else:
                window = table.match.hand.uno_seat
                if window is None:
                    raise TableError("illegal", reason="nothing_to_catch")
                target = window
            await self._act(interaction, table, [CatchUno(target)])

        await self._guard(interaction, body)

    @app_commands.command(name="table", description="Post the table again at the bottom")
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            table = await self._table_here(interaction)
            await self.refresh_table_message(table, repost=True)
            await self._say(interaction, t("ok.reposted"))

        await self._guard(interaction, body)

    @app_commands.command(name="end", description="Close this channel's table (host or managers)")
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            table = await self._table_here(interaction)
            admin = _is_admin(interaction)
            user = interaction.user.id
            change = await self.service.update(
                table.id, lambda tb, now: tb.end(by=user, is_admin=admin, now=now)
            )
            await self._say(interaction, t("ok.ended"))
            await self.refresh_table_message(change.table)

        await self._guard(interaction, body)

    @app_commands.command(name="kick", description="Remove a player (host or managers)")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: discord.Interaction[Any], player: discord.Member) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            table = await self._table_here(interaction)
            admin = _is_admin(interaction)
            user = interaction.user.id
            change = await self.service.update(
                table.id,
                lambda tb, now: tb.kick(player.id, by=user, is_admin=admin, now=now),
            )
            await self._say(interaction, t("ok.kicked", name=player.display_name))
            await self.refresh_table_message(change.table)

        await self._guard(interaction, body)

    @app_commands.command(name="rules", description="Explain the rules of this table or a preset")
    @app_commands.describe(preset="A preset to explain (default: this channel's table)")
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction[Any], preset: str | None = None) -> None:
        await self._defer(interaction, update=False)

        async def body() -> None:
            from engine import Rules

            if preset is None:
                table = await self.service.in_channel(interaction.channel_id or 0)
                name, rules = (table.preset, table.rules) if table else ("classic", Rules())
            else:
                name, rules = preset, Rules.from_preset(preset)
            embed = discord.Embed(
                title=t("rules.title", preset=preset_name(name)),
                description="\n\n".join(rules_help(name, rules)),
            )
            await interaction.edit_original_response(content=None, embed=embed)

        await self._guard(interaction, body)
