"""Playing at a table: the lobby, the hand, the moves — behind ``/uno …`` and every component.

Every handler answers through :func:`answers` (language, deferral, refusals), asks the table
service for the change (load → change → compare-and-swap save), and only then shows anyone
the result: the actor's hand (ephemeral), then the public table message. Components reach
:meth:`Uno.on_component`, which looks the verb up in one dictionary; a verb that stands for
an engine action needs no handler of its own (see ``_verbs.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engine import PRESETS, Action, CardFace, Colour, Rules, RulesError, classic_deck
from engine.actions import CALL_UNO, ChooseColour, Play
from engine.events import CardsReceived, HandRevealed, events_for
from players import LEVELS
from tables import Change, Player, StaleClickError, Table, TableError, TableService, refused
from tables.records import is_public_record

from ._components import HANDLER_COG, routed
from ._editor import editor_payload
from ._house import changes_for, page_of
from ._i18n import LANGUAGES, CatalogueTranslator, guild_language, known, speaking, t
from ._messages import HandState, picture_payload
from ._moves import BY_COMMAND as MOVES_BY_COMMAND
from ._moves import BY_VERB as MOVES_BY_VERB
from ._moves import Move, Mover
from ._present import card_name, colour_name, describe, preset_name, rules_help
from ._presets import preset_choices
from ._replies import Defer, Interaction, Replies, answers
from ._table_message import TableMessages
from ._verbs import BY_NAME, CustomId, Place, actions_of, base36, with_uno

log = logging.getLogger(__name__)

#: Seconds between two ``/uno table`` of one user.
REPOST_COOLDOWN = 5.0
#: How long a start waits for the card emojis before showing the tables again.
EMOJI_WAIT = 10.0
#: Seconds between two table pictures one user asks for (a picture costs a render).
PICTURE_COOLDOWN = 5.0

ComponentAction = Callable[[Interaction, Table, CustomId, Sequence[str]], Awaitable[None]]
PersonalAction = Callable[[Interaction, CustomId], Awaitable[None]]


def _every_component(components: Sequence[Any]) -> Iterator[Any]:
    """Every component of a message, nested ones too: action rows' buttons and selects, and a
    Components V2 layout's containers, sections and their accessories."""
    for component in components:
        yield component
        yield from _every_component(getattr(component, "children", ()) or ())
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def player_of(interaction: Interaction) -> Player:
    """The user who acted, as a player."""
    user = interaction.user
    return Player(user.id, (getattr(user, "display_name", None) or user.name)[:100])


def is_manager(interaction: Interaction) -> bool:
    """Has the user Manage Server here (may end or kick at any table)?"""
    return bool(interaction.permissions.manage_guild)


def role_ids(interaction: Interaction) -> list[int]:
    """The user's roles in this server (tournament teams are roles)."""
    return [role.id for role in getattr(interaction.user, "roles", [])]


def _every_face() -> set[CardFace]:
    """Every face of every deck a preset (or the modern deck, or blank cards) plays with,
    both sides."""
    decks = [
        classic_deck(modern_deck=True, blank_cards=1),
        *(Rules.from_preset(p).deck() for p in PRESETS),
    ]
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


def _colour_lookup() -> dict[str, Colour]:
    """Every way a user may give a colour: its letter or its name in any language."""
    names: dict[str, Colour] = {}
    for colour in ALL_COLOURS:
        names[colour.value.lower()] = colour
        for language in LANGUAGES:
            with speaking(language):
                names[colour_name(colour).lower()] = colour
    return names


COLOUR_NAMES = _colour_lookup()


def colours_in_play(table: Table | None) -> tuple[Colour, ...]:
    """The colours a wild may name at ``table`` now (UNO Flip: the side in play's)."""
    if table is None or table.match is None:
        return tuple(Colour)
    state = table.match.hand
    return state.deck.colours[state.side]


def named_colour(table: Table, text: str) -> Colour:
    """The colour ``text`` names, if the table's deck plays it now; refused in words."""
    colour = COLOUR_NAMES.get(text.strip().lower())
    if colour is None:
        raise TableError("unknown_colour", colour=text[:20])
    if colour not in colours_in_play(table):
        raise TableError("colour_not_here", colour=colour_name(colour))
    return colour


def what_was_done(change: Change, table: Table) -> list[str]:
    """After the mover's own move, when the turn passed on: what happened, in words, and who
    plays next (instead of a bare "not your turn", which reads like a refusal)."""
    after = change.table.match
    if after is None or after.hand.is_over:
        return []
    names = table.names()
    done = [describe(e, names) for e in change.events if is_public_record(e)]
    said = " ".join(line for line in done[:3] if line)
    return [t("hand.done", what=said, name=names[after.hand.current])] if said else []


def notes_for(seat: int, change: Change, table: Table) -> list[str]:
    """What only this seat should read after its action: cards drawn, a revealed hand."""
    notes: list[str] = []
    names = table.names()
    if table.match is None:
        return notes
    deck = table.match.hand.deck
    for event in events_for(change.events, seat):
        if isinstance(event, CardsReceived) and event.seat == seat:
            drawn = ", ".join(card_name(deck.face(c)) for c in event.cards)
            notes.append(f"🂠 {drawn}")
        elif isinstance(event, HandRevealed) and event.viewer == seat:
            cards = ", ".join(card_name(deck.face(c)) for c in event.cards) or "—"
            notes.append(t("hand.revealed", name=names[event.seat], cards=cards))
    return notes


class Uno(commands.Cog, name=HANDLER_COG):
    """Tables and hands: the behaviour behind the ``/uno`` play commands and the components."""

    def __init__(
        self,
        bot: commands.Bot,
        service: TableService,
        replies: Replies,
        messages: TableMessages,
    ) -> None:
        self.bot = bot
        self.service = service
        self.replies = replies
        self.messages = messages
        replies.on_stale = self.show_current_hand
        #: Components about no table (the user's own business), by verb.
        self.personal: dict[str, PersonalAction] = {}
        self._refresh: asyncio.Task[None] | None = None
        self._emojis: asyncio.Task[None] | None = None
        #: The components that are not moves (see _moves.NOT_MOVES), or that take a step
        #: before the move (a wild picked from the menu: its colour next; Swap Hands: its
        #: opponent next); every other component makes its move (``_on_move``).
        self.verbs: dict[str, ComponentAction] = {
            "hand": self._on_hand,
            "page": self._on_page,
            "give": self._on_give,
            "pick": self._on_pick,
            "colour": self._on_colour,
            "rules": self._on_rules,
            "rule": self._on_rule,
            "ruleset": self._on_ruleset,
            "again": self._on_again,
            "picture": self._on_picture,
        }

    async def cog_load(self) -> None:
        await self.bot.tree.set_translator(CatalogueTranslator())
        if self.messages.emojis is not None:
            self._emojis = asyncio.get_running_loop().create_task(self.messages.emojis.ensure())
        tables = await self.service.live_tables()
        # A move committed just before a stop may never have reached its table message:
        # show every live table again, once the bot is connected — and only then set the
        # clocks (nobody could act before: the time the bot was down is given back).
        self._refresh = asyncio.get_running_loop().create_task(self._refresh_when_ready(tables))

    async def _refresh_when_ready(self, tables: list[Table]) -> None:
        await self.bot.wait_until_ready()
        emojis = self.messages.emojis
        if emojis is not None:  # shown again with their cards' emojis, if they come soon
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(emojis.ready.wait(), timeout=EMOJI_WAIT)
        if self.messages.clock is not None:
            for table in tables:
                self.messages.clock.watch(table)
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
        if self.messages.clock is not None:
            self.messages.clock.stop()
        await self.replies.drain()
        await self.messages.drain()

    async def cog_unload(self) -> None:
        if self._refresh is not None:
            self._refresh.cancel()
        if self._emojis is not None:
            self._emojis.cancel()
        if self.messages.clock is not None:
            self.messages.clock.stop()
        self.messages.stop()
        await self.bot.tree.set_translator(None)

    # -- shared steps -----------------------------------------------------------------------

    async def table_here(self, interaction: Interaction) -> Table:
        """The live table of the channel; the user's held seat (R-TIME-3) is theirs again."""
        table = await self.service.in_channel(interaction.channel_id or 0)
        if table is None:
            raise TableError("no_table")
        return await self._arrived(interaction, table)

    async def _arrived(self, interaction: Interaction, table: Table) -> Table:
        """Any interaction with the table brings a person back to a seat a computer held."""
        return await self.service.reclaim(table, interaction.user.id)

    async def _as_player(self, interaction: Interaction, tournament: str | None) -> Player:
        """The user as a player; at a tournament table, with their team's role (R-TEAM-3)."""
        return await self.service.player_for(
            tournament, interaction.guild_id or 0, player_of(interaction), role_ids(interaction)
        )

    async def show_hand(
        self,
        interaction: Interaction,
        table: Table,
        *,
        notes: Sequence[str] = (),
        ui: HandState | None = None,
    ) -> None:
        """The user's hand, in the deferred (ephemeral) response."""
        seat = table.playing_seat_of(interaction.user.id)
        if seat is None:
            raise TableError("not_seated")
        if table.match is None:
            raise TableError("game_not_running")
        await self.messages.show_hand(interaction, table, seat, notes=notes, ui=ui)

    async def show_current_hand(self, interaction: Interaction, table: Table) -> None:
        """After a click on an out-of-date message: the hand as it is now."""
        await self.show_hand(interaction, table, notes=[t("error.stale")])

    async def perform(
        self,
        interaction: Interaction,
        move: Move,
        table: Table | None = None,
        *,
        actions: Sequence[Action] = (),
        args: Mapping[str, Any] | None = None,
        version: int | None = None,
    ) -> None:
        """Make ``move`` for whoever acted: load the table (the channel's, unless given), apply
        the change under its lock with a compare-and-swap save (``version``: the one the
        clicked component showed), then answer them (their hand, or one sentence). The table
        message follows by itself: the service announces every saved change."""
        if table is None:
            table = await self.table_here(interaction)
        mover = Mover(
            interaction.user.id,
            is_manager(interaction),
            await self._as_player(interaction, table.tournament),
            tuple(actions),
            dict(args or {}),
        )
        change = await self.service.update(
            table.id, lambda tb, now: move.apply(tb, mover, now), version=version
        )
        await self.answer(interaction, move, table, change, mover)

    async def answer(
        self, interaction: Interaction, move: Move, before: Table, change: Change, mover: Mover
    ) -> None:
        """After a move: the mover's hand with what they got and what they did, or the move's
        sentence (``ok.<name>``)."""
        seat = change.table.playing_seat_of(interaction.user.id)
        match = change.table.match
        if move.shows_hand and seat is not None and match is not None:
            notes = notes_for(seat, change, before)
            if move.name == "start":
                notes = [t("ok.start"), *notes]
            elif match.hand.current != seat:
                notes = [*what_was_done(change, before), *notes]
            await self.show_hand(interaction, change.table, notes=notes)
            return
        key = f"ok.{move.name}" if known(f"ok.{move.name}") else "ok.done"
        await self.replies.say(interaction, t(key, **move.words(change, mover)))

    # -- components -------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Route every click on a component of ours to :meth:`on_component` by its id.

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
        if (custom_id, kind) not in on_message:
            await self.replies.speak_to(interaction)
            await interaction.response.send_message(t("error.forged"), ephemeral=True)
            return
        cid, values = routed(data)
        await self.on_component(interaction, cid, values)

    async def on_component(
        self, interaction: Interaction, cid: CustomId | None, values: Sequence[str]
    ) -> None:
        """Every button and select of the bot lands here."""
        if cid is None:
            await self.replies.speak_to(interaction)
            await self.replies.say(interaction, t("error.forged"))
            return
        verb = BY_NAME[cid.verb]
        defer: Defer = "thinking" if verb.place is Place.TABLE else "update"
        if verb.place is Place.PERSONAL:
            # The id names its owner: anyone else gets a new message, never a change of theirs.
            if cid.table != base36(interaction.user.id):
                await self.replies.run(interaction, self._not_yours, defer="thinking")
                return
            await self.replies.run(
                interaction, lambda: self.personal[cid.verb](interaction, cid), defer=defer
            )
            return

        async def body() -> None:
            table = await self.service.get(cid.table, seen=cid.version)
            if table is None:
                raise TableError("unknown_table")
            if table.channel_id != interaction.channel_id:
                raise TableError("other_channel")
            self._retire_if_old(interaction, table)
            table = await self._arrived(interaction, table)
            handler = self.verbs.get(cid.verb, self._on_move)
            await handler(interaction, table, cid, values)

        await self.replies.run(interaction, body, defer=defer)

    def _retire_if_old(self, interaction: Interaction, table: Table) -> None:
        """A click on an old public message of the table (one a failed retirement or a crash
        left behind, still with its buttons): the click is served, the message retired."""
        message = interaction.message
        if (
            message is not None
            and (message.embeds or message.flags.components_v2)
            and not message.flags.ephemeral
            and self.messages.is_retired(table, message.id)
        ):
            self.messages.retire_later(table, message.id)

    @staticmethod
    async def _not_yours() -> None:
        raise TableError("not_yours")

    async def _on_move(
        self, interaction: Interaction, table: Table, cid: CustomId, values: Sequence[str]
    ) -> None:
        """A component that makes a move: an engine action on the version it showed (the
        registry decodes it), or a lobby move (its choice, if any, is the select's value)."""
        move = MOVES_BY_VERB[cid.verb]
        if cid.version is None:  # a lobby move, or the next hand
            args: dict[str, Any] = {}
            if move.name == "team":
                if not values or not values[0].isdigit():
                    raise TableError("no_such_team")
                args["team"] = int(values[0])
            await self.perform(interaction, move, table, args=args)
            return
        if cid.version != table.version:
            raise StaleClickError(table)
        try:
            actions = actions_of(cid, values)
        except ValueError:  # a select value the message never offered
            raise StaleClickError(table) from None
        if not actions:
            raise StaleClickError(table)
        if move.name == "catch":
            target = getattr(actions[0], "target", None)
            await self.perform(
                interaction, move, table, args={"target": target}, version=cid.version
            )
            return
        await self.perform(interaction, move, table, actions=actions, version=cid.version)

    async def _on_hand(
        self, interaction: Interaction, table: Table, cid: CustomId, values: Sequence[str]
    ) -> None:
        await self.show_hand(interaction, table)

    async def _on_give(
        self, interaction: Interaction, table: Table, cid: CustomId, values: Sequence[str]
    ) -> None:
        """A Skip's gift (R-ALT-4): the card is chosen, the opponent is asked for next."""
        if cid.version != table.version or not values:
            raise StaleClickError(table)
        try:
            face = CardFace.parse(values[0])
        except ValueError:
            raise StaleClickError(table) from None
        await self.show_hand(interaction, table, ui=HandState(give=face.notation))

    async def _on_page(
        self, interaction: Interaction, table: Table, cid: CustomId, values: Sequence[str]
    ) -> None:
        await self.show_hand(interaction, table, ui=HandState(page=int(cid.arg or 0)))

    async def _on_pick(
        self, interaction: Interaction, table: Table, cid: CustomId, values: Sequence[str]
    ) -> None:
        """A card from the select: played, or a wild whose colour is asked for next."""
        if cid.version != table.version or not values:
            raise StaleClickError(table)
        notation, uno = with_uno(values[0])
        try:
            face = CardFace.parse(notation)
        except ValueError:
            raise StaleClickError(table) from None
        if face.is_wild:
            await self.show_hand(interaction, table, ui=HandState(wild=face.notation, uno=uno))
        else:
            await self._on_move(interaction, table, cid, values)

    async def _on_colour(
        self, interaction: Interaction, table: Table, cid: CustomId, values: Sequence[str]
    ) -> None:
        """A wild's colour: played, or Swap Hands' opponent is asked for next (R-DECK-4)."""
        if cid.version != table.version:
            raise StaleClickError(table)
        face, _, colour = with_uno(cid.arg or "")[0].partition("=")
        if face == "WH":
            await self.show_hand(interaction, table, ui=HandState(swap_colour=colour))
        else:
            await self._on_move(interaction, table, cid, values)

    async def _on_rules(
        self, interaction: Interaction, table: Table, cid: CustomId, values: Sequence[str]
    ) -> None:
        """The lobby's **Rules** button: the host's editor, in an ephemeral message."""
        self._require_host(interaction, table)
        await self._show_editor(interaction, table, "play")

    async def _on_rule(
        self, interaction: Interaction, table: Table, cid: CustomId, values: Sequence[str]
    ) -> None:
        """A choice in the rules editor: saved at once, then the editor again."""
        try:
            changes = changes_for(cid.arg or "", values)
        except KeyError:  # a value the editor never offered
            raise TableError("bad_option", option=cid.arg or "?") from None
        page = page_of(cid.arg or "")
        await self._change_rules(interaction, table, changes, page)

    async def _on_ruleset(
        self, interaction: Interaction, table: Table, cid: CustomId, values: Sequence[str]
    ) -> None:
        """The editor's page buttons, and **Back to the preset**."""
        if cid.arg == "reset":
            changes: dict[str, Any] = dict.fromkeys(table.options)
            await self._change_rules(interaction, table, changes, "play")
        else:
            self._require_host(interaction, table)
            await self._show_editor(interaction, table, cid.arg or "play")

    async def _change_rules(
        self, interaction: Interaction, table: Table, changes: dict[str, Any], page: str
    ) -> None:
        user, admin = interaction.user.id, is_manager(interaction)
        change = await self.service.update(
            table.id, lambda tb, now: tb.set_options(changes, by=user, is_admin=admin, now=now)
        )
        await self._show_editor(interaction, change.table, page)

    async def _show_editor(self, interaction: Interaction, table: Table, page: str) -> None:
        if table.status != "lobby":
            raise TableError("game_running" if table.status == "playing" else "table_closed")
        payload = editor_payload(table, page)
        await interaction.edit_original_response(**payload.edit_kwargs())

    @staticmethod
    def _require_host(interaction: Interaction, table: Table) -> None:
        if interaction.user.id != table.host_id and not is_manager(interaction):
            raise TableError("not_host")

    async def _on_again(
        self, interaction: Interaction, table: Table, cid: CustomId, values: Sequence[str]
    ) -> None:
        """**Play again**: a new lobby with the same rules; the others are invited."""
        host = await self.service.player_for(
            table.tournament,
            interaction.guild_id or 0,
            player_of(interaction),
            role_ids(interaction),
        )
        lobby = await self.service.rematch(table, host)
        await self.messages.refresh(lobby, repost=True)
        await self.replies.say(interaction, t("ok.again"))

    async def _on_picture(
        self, interaction: Interaction, table: Table, cid: CustomId, values: Sequence[str]
    ) -> None:
        """**Picture**: the table drawn, for whoever asks, in an ephemeral message."""
        if table.match is None:
            raise TableError("game_not_running")
        self.replies.cooldowns.check(interaction.user.id, "picture", PICTURE_COOLDOWN)
        payload = await picture_payload(table)
        await interaction.edit_original_response(**payload.edit_kwargs())

    # -- slash commands (declared in _slash.py) ---------------------------------------------

    @answers()
    async def new(
        self,
        interaction: Interaction,
        preset: str | None,
        options: Callable[[], dict[str, Any]],
        tournament: str | None,
    ) -> None:
        """Open a lobby in this channel with the house rules ``options()`` names; the server's
        defaults fill what is left out. ``preset`` is a built-in preset or one of the server's
        house presets (the service reads it)."""
        guild = interaction.guild_id or 0
        host = await self._as_player(interaction, tournament)
        table = await self.service.open_here(
            guild_id=guild,
            channel_id=interaction.channel_id or 0,
            host=host,
            preset=preset,
            options=options(),
            language=guild_language(interaction),
            tournament=tournament,
        )
        await self.messages.refresh(table, repost=True)
        await self.replies.say(interaction, t("ok.opened"))

    @answers()
    async def command(
        self,
        interaction: Interaction,
        name: str,
        *,
        actions: Sequence[Action] = (),
        args: Mapping[str, Any] | None = None,
    ) -> None:
        """A ``/uno`` command that makes a move (``/uno join``, ``/uno draw``, …)."""
        await self.perform(interaction, MOVES_BY_COMMAND[name], actions=actions, args=args)

    @answers()
    async def addbot(self, interaction: Interaction, level: str) -> None:
        if level not in LEVELS:
            raise TableError("unknown_level")
        await self.perform(interaction, MOVES_BY_COMMAND["addbot"], args={"level": level})

    @answers()
    async def hand(self, interaction: Interaction) -> None:
        await self.show_hand(interaction, await self.table_here(interaction))

    @answers()
    async def play(
        self,
        interaction: Interaction,
        card: str,
        colour: str | None,
        uno: bool,
        swap_with: discord.abc.User | None,
    ) -> None:
        """Play a card named as the user typed it (notation or name, any language)."""
        table = await self.table_here(interaction)
        notation = CARD_NAMES.get(card.strip().lower())
        if notation is None:
            raise TableError("unknown_card", card=card[:40])
        face = CardFace.parse(notation)
        named = named_colour(table, colour) if colour is not None else None
        if named is not None and not face.is_wild:
            raise TableError("colour_with_number", card=card_name(face))
        if face.is_wild and named is None:
            raise TableError("colour_needed", card=card_name(face))
        target = None
        if swap_with is not None:
            target = table.seat_of(swap_with.id)
            if target is None:
                raise TableError("not_seated_other")
        actions: list[Action] = [Play(face, named, target)]
        if uno:
            actions.append(CALL_UNO)
        await self.perform(interaction, MOVES_BY_COMMAND["play"], table, actions=actions)

    async def playable_cards(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete of ``/uno play card``: the user's playable cards, by name."""
        await self.replies.speak_to(interaction)
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

    async def presets(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete of a preset: the built-in ones, then the server's house presets."""
        await self.replies.speak_to(interaction)
        return await preset_choices(self.service.repo.presets, interaction.guild_id or 0, current)

    async def colours(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete of a colour: the colours the table's deck plays now, by name."""
        await self.replies.speak_to(interaction)
        table = self.service.cached_in_channel(interaction.channel_id or 0)
        typed = current.strip().lower()
        choices = []
        for colour in colours_in_play(table):
            name = colour_name(colour)
            if not typed or typed in name.lower() or typed == colour.value.lower():
                choices.append(app_commands.Choice(name=name, value=colour.value))
        return choices

    @answers()
    async def choose_colour(self, interaction: Interaction, colour: str) -> None:
        """``/uno colour``: name the colour of a Wild turned up at the start (R-SETUP-5)."""
        table = await self.table_here(interaction)
        chosen = [ChooseColour(named_colour(table, colour))]
        await self.perform(interaction, MOVES_BY_COMMAND["colour"], table, actions=chosen)

    @answers()
    async def catch(self, interaction: Interaction, player: discord.abc.User | None) -> None:
        """Catch ``player`` (default: whoever is open to a catch, R-UNO-2)."""
        table = await self.table_here(interaction)
        target = None
        if player is not None:
            target = table.seat_of(player.id)
            if target is None:
                raise TableError("not_seated_other")
        await self.perform(interaction, MOVES_BY_COMMAND["catch"], table, args={"target": target})

    @answers()
    async def repost(self, interaction: Interaction) -> None:
        """``/uno table``: the table message again at the bottom of the channel."""
        self.replies.cooldowns.check(interaction.user.id, "repost", REPOST_COOLDOWN)
        await self.messages.refresh(await self.table_here(interaction), repost=True)
        await self.replies.say(interaction, t("ok.reposted"))

    @answers()
    async def kick(self, interaction: Interaction, player: discord.abc.User) -> None:
        name = getattr(player, "display_name", None) or player.name
        args = {"player": player.id, "name": name}
        await self.perform(interaction, MOVES_BY_COMMAND["kick"], args=args)

    @answers()
    async def rules(self, interaction: Interaction, preset: str | None) -> None:
        """The rules of this channel's table, or of a preset (built-in or the server's own),
        in plain words."""
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
