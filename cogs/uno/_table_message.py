"""The public table message, and every open hand message: always the truth.

One live table message per table, never older than the state. Every change — a person's or
the clock's — ends in :meth:`TableMessages.show`. Per table, at most one edit is in flight;
changes that arrive meanwhile coalesce into the next edit, and an edit never replaces a newer
version with an older one (the highest version seen wins). A repost (``/uno table``) posts the
message anew at the bottom and retires the old one; reposts asked for while one is under way
are absorbed by it. After a restart every live table's message is shown again
(:meth:`TableMessages.refresh_all`), so a move committed just before a crash still reaches
the channel.

Open hands: a player's ephemeral hand message is edited in place, through the interaction
that showed it (its token lasts 15 minutes), when what it offers changes — the turn arrives,
a catch or a challenge becomes possible, the cards change. Coalesced like the table message.
An open hand keeps its interaction without the clicked message: a discord.py
``Interaction`` carries the whole message a component was clicked on (embeds, action rows,
buttons, select options), and hundreds of open hands kept that many objects, for 14
minutes, for the collector to walk at every full collection. Editing the original response
needs only the interaction's token (``Interaction.edit_original_response``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from renders import hand_key
from tables import Clock, Table, TableService

from ._i18n import current_language, speaking, t
from ._messages import HandState, hand_payload, hand_signature, table_payload

log = logging.getLogger(__name__)

#: Discord lets an interaction's token edit its message for 15 minutes; stop a little before.
HAND_TOKEN_SECONDS = 14 * 60
#: How many tables' messages a restart shows again at once.
REFRESH_AT_ONCE = 4
#: How long a change waits for the edit in flight to show it before its handler returns.
WAIT_FOR_EDIT = 10.0


@dataclass
class _Latest:
    """What one table's message shows and what it should show next."""

    wanted: Table  # the newest version seen
    shown: int = -1  # the version the message shows (-1: unknown, e.g. after a restart)
    repost: bool = False  # a repost was asked for and not started yet
    busy: bool = False  # an edit or a post is in flight
    waiting: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list)

    def mark_shown(self, version: int) -> None:
        """The message shows ``version``: wake whoever waits for it (or an older one)."""
        self.shown = max(self.shown, version)
        still = []
        for wanted, future in self.waiting:
            if wanted <= self.shown:
                if not future.done():
                    future.set_result(None)
            else:
                still.append((wanted, future))
        self.waiting = still


@dataclass
class _OpenHand:
    """The hand message a player has open, editable through the latest interaction on it.

    One per table and seat: every edit of it — the answer to the player's own click or the
    sync after others' moves — takes its lock, so edits never land out of order, and an edit
    never shows an older version than the one shown.
    """

    interaction: discord.Interaction[Any]
    seat: int
    language: str  # its reader's
    signature: tuple[Any, ...]  # what it offers (see hand_signature)
    picture: str  # the key of the picture it shows
    shown: int  # the table version it shows
    expires: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wanted: Table | None = None
    busy: bool = False


class TableMessages:
    """Posts and edits the table messages and the open hands of every table."""

    def __init__(self, client: discord.Client, service: TableService) -> None:
        self.client = client
        self.service = service
        self.clock: Clock | None = None  # re-armed after every change (set by the extension)
        self._tables: dict[str, _Latest] = {}
        self._hands: dict[str, dict[int, _OpenHand]] = {}  # table id → seat → open hand
        self._tasks: set[asyncio.Task[None]] = set()

    # -- the table message ------------------------------------------------------------------

    async def show(self, table: Table, *, repost: bool = False) -> None:
        """Bring the table's message (and its open hands) up to ``table`` — or newer."""
        latest = self._tables.get(table.id)
        if latest is None:
            latest = self._tables[table.id] = _Latest(table)
        elif table.version >= latest.wanted.version:
            latest.wanted = table
        if repost:
            latest.repost = True
        await self._update_hands(latest.wanted)
        if latest.busy:
            # The edit in flight picks the newest version up when it ends; the caller (who
            # answers a user) returns once the message shows its change.
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            latest.waiting.append((table.version, done))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done, timeout=WAIT_FOR_EDIT)
            return
        latest.busy = True
        try:
            while latest.repost or latest.wanted.version > latest.shown:
                target, reposting = latest.wanted, latest.repost
                latest.repost = False
                await self._send(target, reposting)
                latest.mark_shown(target.version)
        finally:
            latest.busy = False
            latest.mark_shown(latest.shown)
            if not latest.wanted.is_live and not latest.repost:
                self._tables.pop(table.id, None)

    def heard(self, table: Table) -> None:
        """The service saved a new version: show it."""
        self._spawn(self.show(table))

    async def refresh(self, table: Table, *, repost: bool = False) -> None:
        """The same as :meth:`show` (kept for the handlers' wording)."""
        await self.show(table, repost=repost)

    async def refresh_all(self, tables: list[Table]) -> None:
        """After a start: show every live table's message again, a few at a time."""
        gate = asyncio.Semaphore(REFRESH_AT_ONCE)

        async def one(table: Table) -> None:
            async with gate:
                await self.show(table)

        await asyncio.gather(*(one(table) for table in tables))

    async def _send(self, table: Table, repost: bool) -> None:
        """Edit the table's message in place, or post it anew and retire the old one."""
        try:
            payload = await table_payload(table)
            channel = self.client.get_partial_messageable(table.channel_id)
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
            current = await self.service.set_message(table, message.id)
            latest = self._tables.get(table.id)
            if latest is not None and current.version >= latest.wanted.version:
                latest.wanted = current  # it knows its new message
            if old is not None:
                await self._retire(channel, old)
        except discord.HTTPException:
            log.exception("Could not update the table message of %s", table.id)

    async def _retire(self, channel: discord.PartialMessageable, message_id: int) -> None:
        """The table moved below: delete its old message, or at least take its buttons."""
        old = channel.get_partial_message(message_id)
        try:
            await old.delete()
        except discord.NotFound:
            return
        except discord.HTTPException:
            try:
                await old.edit(content=t("table.moved"), embeds=[], attachments=[], view=None)
            except discord.HTTPException:
                log.debug("Could not retire the old table message %s", message_id)

    # -- open hands -------------------------------------------------------------------------

    def latest(self, table: Table) -> Table:
        """``table``, or the newer version of it this process has seen."""
        latest = self._tables.get(table.id)
        if latest is not None and latest.wanted.version > table.version:
            return latest.wanted
        return table

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        *,
        notes: Sequence[str] = (),
        ui: HandState | None = None,
    ) -> None:
        """Show ``seat``'s hand in ``interaction``'s response and keep that message in sync
        from now on (the newest version seen: never older than what it showed)."""
        hands = self._hands.setdefault(table.id, {})
        hand = hands.get(seat)
        lock = hand.lock if hand is not None else asyncio.Lock()
        async with lock:
            newest = self.latest(table)
            if newest.match is None or newest.playing_seat_of(newest.players[seat].user_id) != seat:
                newest = table
            payload = await hand_payload(newest, seat, notes=notes, ui=ui)
            await interaction.edit_original_response(**payload.edit_kwargs())
            # Kept for its token only: let the clicked message go (nothing of the bot reads
            # it once the click is routed, and discord.py only for edit_message answers,
            # which the bot never gives).
            interaction.message = None
            opened = _OpenHand(
                interaction,
                seat,
                current_language(),
                hand_signature(newest, seat),
                _picture(newest, seat),
                newest.version,
                time.monotonic() + HAND_TOKEN_SECONDS,
                lock,
            )
            if hand is None:
                hands[seat] = opened
            else:  # the same hand, through its newest interaction
                hand.interaction, hand.language = opened.interaction, opened.language
                hand.signature, hand.picture = opened.signature, opened.picture
                hand.shown, hand.expires = max(hand.shown, newest.version), opened.expires

    async def _update_hands(self, table: Table) -> None:
        hands = self._hands.get(table.id)
        if not hands:
            return
        if not table.is_live or table.match is None:
            self._hands.pop(table.id, None)
            return
        now = time.monotonic()
        for seat, hand in list(hands.items()):
            gone = table.playing_seat_of(table.players[seat].user_id) is None
            if hand.expires <= now or gone:
                hands.pop(seat, None)
                continue
            if table.version <= hand.shown or hand_signature(table, seat) == hand.signature:
                continue
            if hand.wanted is None or table.version > hand.wanted.version:
                hand.wanted = table
            if not hand.busy:
                self._spawn(self._edit_hand(table.id, hand))

    async def _edit_hand(self, table_id: str, hand: _OpenHand) -> None:
        hand.busy = True
        try:
            while hand.wanted is not None:
                async with hand.lock:
                    table, hand.wanted = hand.wanted, None
                    signature = hand_signature(table, hand.seat)
                    if table.version <= hand.shown or signature == hand.signature:
                        continue
                    with speaking(hand.language):
                        payload = await hand_payload(table, hand.seat)
                    kwargs = payload.edit_kwargs()
                    picture = _picture(table, hand.seat)
                    if picture == hand.picture:
                        del kwargs["attachments"]  # the same picture: keep it
                    try:
                        await hand.interaction.edit_original_response(**kwargs)
                    except discord.HTTPException:
                        # The token expired or the message was dismissed: stop following it.
                        hands = self._hands.get(table_id, {})
                        if hands.get(hand.seat) is hand:
                            hands.pop(hand.seat, None)
                        return
                    hand.signature, hand.picture, hand.shown = signature, picture, table.version
        finally:
            hand.busy = False

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def stop(self) -> None:
        """Forget the open hands and cancel their edits (the extension unloads)."""
        for task in self._tasks:
            task.cancel()
        self._hands.clear()


def _picture(table: Table, seat: int) -> str:
    """The key of the picture of ``seat``'s hand (it stays in memory, like the hand)."""
    assert table.match is not None
    return hand_key(table.match.hand.view_for(seat))
