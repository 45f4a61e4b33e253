"""Where every move is made: :class:`TableDesk` runs the registry's moves (``_moves.py``) for
clicks and commands alike.

For a move that changes a table, :meth:`TableDesk.perform` is the one path: load the table
(and bring a held seat back), apply the change under the table's lock with a compare-and-swap
save (the version the clicked message showed), then answer the mover — their hand, or one
sentence. Only then does anyone see anything; the table message follows by itself (the service
announces every saved change to ``TableMessages``). A move that shows something calls its
``show`` with the desk.

Every run goes through :meth:`~cogs.uno._replies.Replies.run`: the person's language, the
answer to Discord in time, and every refusal as one polite sentence.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from engine.events import CardsReceived, HandRevealed, events_for
from tables import Change, Player, StaleClickError, Table, TableError, TableService
from tables.records import is_public_record

from ._editor import editor_payload
from ._i18n import t
from ._messages import HandState, picture_payload
from ._moves import Act, Answer, Intent, Move, Mover
from ._present import card_name, describe
from ._replies import Defer, Interaction, Replies
from ._table_message import TableMessages

#: Seconds between two table pictures one user asks for (a picture costs a render).
PICTURE_COOLDOWN = 5.0

#: Finds the table a move is made at (the channel's, or the clicked one's).
Find = Callable[[Act], Awaitable[Table]]


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


def what_happened(change: Change[Table], table: Table, seat: int) -> list[str]:
    """What the mover's move did, in words, for the mover: a catch, a challenge, a play — and
    who plays next when the turn passed on (instead of a bare "not your turn", which reads
    like a refusal)."""
    after = change.table.match
    names = table.names()
    done = [describe(e, names) for e in change.events if is_public_record(e)]
    said = " ".join(line for line in done[:3] if line)
    if not said:
        return []
    if after is None or after.hand.is_over or after.hand.current == seat:
        return [f"✅ {said}"]
    return [t("hand.done", what=said, name=names[after.hand.current])]


def notes_for(seat: int, change: Change[Table], table: Table) -> list[str]:
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


class TableDesk:
    """Runs the moves of every table (see the module docstring)."""

    def __init__(self, service: TableService, replies: Replies, messages: TableMessages) -> None:
        self.service = service
        self.replies = replies
        self.messages = messages

    # -- running a move ---------------------------------------------------------------------

    async def run(
        self, act: Act, move: Move, *, defer: Defer | None = None, find: Find | None = None
    ) -> None:
        """Run ``move`` for ``act`` at the table ``find`` finds (by default this channel's),
        answering inside the one error boundary. A click on an out-of-date message shows the
        current hand instead. Showing the mover's hand changes nothing, so it waits for the
        one callback that carries the hand when that is ready in time ("quick"); a change
        first says "thinking…", so that it is made only once Discord took the interaction
        (``defer`` chooses otherwise: a click on one's hand is "quick" too, its player told
        either way, docs/architecture.md)."""
        if defer is None:
            shows_hand = move.apply is None and move.answer is Answer.HAND
            defer = "quick" if shows_hand else "thinking"

        async def body() -> None:
            table = await (find or self.table_here)(act)
            table = await self.service.reclaim(table, act.user)  # a held seat is theirs again
            try:
                if move.show is not None:
                    await move.show(self, act, table)
                    return
                intent = move.read(act, table)
                if isinstance(intent, HandState):  # one step of a choice: its next state
                    await self.show_hand(act, table, ui=intent)
                else:
                    await self.perform(act, move, table, intent)
            except StaleClickError as stale:
                await self.show_hand(act, stale.table, notes=[t("error.stale")])

        await self.replies.run(act.interaction, body, defer=defer)

    async def perform(self, act: Act, move: Move, table: Table, intent: Intent) -> None:
        """Make ``move``: apply its change under the table's lock with a compare-and-swap save
        (on the version the click showed), then answer the mover."""
        assert move.apply is not None
        apply = move.apply
        interaction = act.interaction
        mover = Mover(
            act.user,
            is_manager(interaction),
            await self.as_player(interaction, table.tournament),
            intent.actions,
            intent.args,
        )
        change = await self.service.update(
            table.id, lambda tb, now: apply(tb, mover, now), version=intent.version
        )
        if move.answer is Answer.HAND:
            await self._answer_with_hand(act, move, table, change)
        else:
            await self.replies.say(interaction, t(f"ok.{move.name}", **move.words(change, mover)))

    async def _answer_with_hand(
        self, act: Act, move: Move, before: Table, change: Change[Table]
    ) -> None:
        """The mover's hand, with what their move did (a catch, a challenge: in words) and
        what only they got; someone who has no hand any more (a table that ended) hears what
        happened in a sentence."""
        seat = change.table.playing_seat_of(act.user)
        if seat is None or change.table.match is None:
            said = what_happened(change, before, -1)
            await self.replies.say(act.interaction, " ".join(said) or t("ok.done"))
            return
        said = [t(key) for key in move.notes] or what_happened(change, before, seat)
        notes = [*said, *notes_for(seat, change, before)]
        await self.show_hand(act, change.table, notes=notes)

    # -- what a move can show ---------------------------------------------------------------

    async def show_hand(
        self, act: Act, table: Table, *, notes: Sequence[str] = (), ui: HandState | None = None
    ) -> None:
        """The user's hand, in the response to their interaction."""
        seat = table.playing_seat_of(act.user)
        if seat is None:
            raise TableError("not_seated")
        if table.match is None:
            raise TableError("game_not_running")
        players = self.replies.players
        picture = players is None or (await players.of(act.user)).hand_picture
        await self.messages.show_hand(
            act.interaction, table, seat, notes=notes, ui=ui, picture=picture
        )

    async def show_editor(self, act: Act, table: Table, page: str) -> None:
        """The lobby's rules editor, for its host (or a manager)."""
        interaction = act.interaction
        if interaction.user.id != table.host_id and not is_manager(interaction):
            raise TableError("not_host")
        await self._editor(interaction, table, page)

    async def change_rules(
        self, act: Act, table: Table, changes: dict[str, Any], page: str
    ) -> None:
        """Save a change of the lobby's rules at once, then show the editor again."""
        user, admin = act.user, is_manager(act.interaction)
        change = await self.service.update(
            table.id, lambda tb, now: tb.set_options(changes, by=user, is_admin=admin, now=now)
        )
        await self._editor(act.interaction, change.table, page)

    async def _editor(self, interaction: Interaction, table: Table, page: str) -> None:
        if table.status != "lobby":
            raise TableError("game_running" if table.status == "playing" else "table_closed")
        payload = editor_payload(table, page)
        await self.replies.update(interaction, **payload.edit_kwargs())

    async def rematch(self, act: Act, table: Table) -> None:
        """**Play again**: a new lobby with the same rules; the others are invited."""
        host = await self.as_player(act.interaction, table.tournament)
        lobby = await self.service.rematch(table, host)
        await self.messages.show(lobby, repost=True)
        await self.replies.say(act.interaction, t("ok.again"))

    async def show_picture(self, act: Act, table: Table) -> None:
        """**Picture**: the table drawn, for whoever asks, in an ephemeral message."""
        if table.match is None:
            raise TableError("game_not_running")
        self.replies.cooldowns.check(act.user, "picture", PICTURE_COOLDOWN)
        payload = await picture_payload(table)
        await act.interaction.edit_original_response(**payload.edit_kwargs())

    # -- where and who ----------------------------------------------------------------------

    async def table_here(self, act: Act) -> Table:
        """The live table of the channel."""
        table = await self.service.in_channel(act.interaction.channel_id or 0)
        if table is None:
            raise TableError("no_table")
        return table

    async def as_player(self, interaction: Interaction, tournament: str | None) -> Player:
        """The user as a player; at a tournament table, with their team's role (R-TEAM-3)."""
        return await self.service.player_for(
            tournament, interaction.guild_id or 0, player_of(interaction), role_ids(interaction)
        )
