"""The public table message, and every open hand message: they converge to the truth.

Every surface a player sees has a *wanted* version — the newest table this process saved or
loaded — and one delivery task per surface brings it there. The table service announces
every saved version (:meth:`TableMessages.heard`), whoever made the change; the surface's
task sends the newest version it knows, and when a request fails for a while (a 5xx, a hang,
a reset connection, a 429) it tries again with a growing pause, with the newest version by
then. An older version never replaces a newer one. A message that can no longer be edited —
deleted (404), an hour-old message out of edits (30046) — is posted anew at the bottom and the
old one retired: one live table message per table, whatever races (a repost, a play, an end,
a restart; a repost carries a nonce, so a post that hung and is sent again is not doubled).
After a restart every live table's message is shown again (:meth:`TableMessages.refresh_all`),
so a move committed just before a crash still reaches the channel.

Open hands: a player's ephemeral hand message is edited in place, through the newest
interaction that showed it (its token lasts 15 minutes), when what it offers changes — the
turn arrives, a catch or a challenge becomes possible, the cards change. Before its token
expires the hand says it has gone to sleep, with a button that opens a fresh one.

No edit uploads a picture the message already shows: each surface remembers the picture it
shows and its attachment (:class:`_Picture`), and an edit showing the same picture — a hand
whose cards did not change, the same scoring card — lists that attachment instead of a file,
so nothing is drawn or uploaded. What a surface shows is forgotten before a request that
uploads a new picture and learnt again from Discord's answer (a request whose fate is
unknown may or may not have replaced it); a request that keeps the picture leaves it there
whatever its fate. After a request that hung, nothing is kept until the late checks have
passed: the hung request may still land and replace the picture. Should Discord refuse an
attachment an edit keeps all the same (400), the edit is sent again with the picture. An open
hand keeps its interaction without the clicked message: a discord.py ``Interaction`` carries
the whole message a component was clicked on, and hundreds of open hands kept that many
objects for the collector to walk.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

import discord

from tables import Table, TableService

from ._delivery import (
    PATIENCE,
    Backoff,
    Verdict,
    clicked_a_hand,
    is_discord_trouble,
    patiently,
    trouble,
    verdict,
    within,
)
from ._emojis import CardEmojis
from ._i18n import current_language, speaking, t
from ._messages import HandState, Payload, Shown, asleep_payload, hand_payload, hand_signature
from ._pings import TurnPings
from ._table_view import table_layout

log = logging.getLogger(__name__)

#: Discord lets an interaction's token edit its message for 15 minutes: the hand goes to
#: sleep (its last edit) this long after the interaction was created.
HAND_TOKEN_SECONDS = 14 * 60
#: How many tables' messages a restart shows again at once.
REFRESH_AT_ONCE = 4
#: How long a caller that asked for a version waits for the message to show it.
WAIT_FOR_EDIT = 10.0
#: After a request that hung was given up, the message is sent again this much later, and
#: again: the hung request may still land, when the slow server gets to it, and show an older
#: version (one check 12 s later lost that race once, on a loaded machine).
LATE_CHECKS = (12.0, 30.0)
#: How many closed tables' last versions are remembered (a late, older announcement of a
#: closed table must not bring its message back to life).
CLOSED_KEPT = 2048


@dataclass
class _Picture:
    """The picture a message shows, as far as this process knows, and its attachment there
    (see the module docstring)."""

    shown: Shown | None = None
    doubt_until: float = 0.0  # monotonic time: until then, a request that hung may land

    def known(self) -> Shown | None:
        """What an edit may keep: the picture shown, unless a late request may replace it."""
        return self.shown if time.monotonic() >= self.doubt_until else None

    def sending(self, payload: Payload) -> None:
        """A request of ``payload`` goes out: one that uploads makes the picture unknown."""
        if payload.kept is None:
            self.shown = None

    def sent(self, payload: Payload, message: discord.Message | None) -> None:
        """Discord answered a request of ``payload`` with ``message``."""
        self.shown = payload.shown_on(message)

    def doubt(self) -> None:
        """A request hung and was given up: until the late checks have passed, it may land
        and replace whatever the message shows."""
        self.shown = None
        self.doubt_until = time.monotonic() + LATE_CHECKS[-1]


@dataclass
class _TableSurface:
    """One table's public message: what it shows and what it should show."""

    wanted: Table  # the newest version seen
    shown: int = -1  # the version the message shows (-1: unknown, e.g. after a restart)
    repost: bool = False  # post anew at the bottom (asked for, or the message is gone)
    posting: bool = False  # a post is under way (a repost asked now is absorbed by it)
    nonce: str | None = None  # of the post under way: a retried post is not doubled
    picture: _Picture = field(default_factory=_Picture)  # the scoring card it shows
    task: asyncio.Task[None] | None = None
    waiting: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list)

    def mark_shown(self, version: int) -> None:
        """The message shows ``version``: wake whoever waits for it (or an older one)."""
        self.shown = max(self.shown, version)
        self._wake(lambda wanted: wanted <= self.shown)

    def release(self) -> None:
        """Nothing more will be sent for now: nobody waits any longer."""
        self._wake(lambda wanted: True)

    def _wake(self, done: Any) -> None:
        still = []
        for wanted, future in self.waiting:
            if done(wanted):
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
    message_id: int | None  # the hand message (None: not known)
    picture: _Picture  # the picture it shows, and its attachment there
    shown: int  # the table version it shows
    expires: float  # monotonic time at which it goes to sleep
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wanted: Table | None = None
    busy: bool = False
    sleep: asyncio.TimerHandle | None = None
    drawn: bool = True  # as a picture (its reader's ``/uno settings hand_picture``)


#: Gives an interaction its first answer with ``send``; whether Discord took it.
FirstAnswer = Callable[[discord.Interaction[Any], Callable[[], Awaitable[Any]]], Awaitable[bool]]


async def _plainly(
    interaction: discord.Interaction[Any], send: Callable[[], Awaitable[Any]]
) -> bool:
    """A first answer sent once (the extension gives ``Replies.first_answer`` instead)."""
    await within(send())
    return True


#: Holds an interaction's first answer while one decides and gives it: yields whether the
#: interaction still wants it.
Answering = Callable[[discord.Interaction[Any]], AbstractAsyncContextManager[bool]]


@contextlib.asynccontextmanager
async def _unanswered(interaction: discord.Interaction[Any]) -> AsyncIterator[bool]:
    """Whether the interaction still wants its first answer (the extension gives
    ``Replies.answering`` instead, which also keeps a late deferral out meanwhile)."""
    yield not interaction.response.is_done()


class TableMessages:
    """Posts and edits the table messages and the open hands of every table."""

    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        *,
        pings: TurnPings | None = None,
        emojis: CardEmojis | None = None,
        first_answer: FirstAnswer = _plainly,
        answering: Answering = _unanswered,
    ) -> None:
        self.client = client
        self.service = service
        self.pings = pings  # hears every version too
        self.emojis = emojis  # the card faces, once uploaded
        self.first_answer = first_answer  # gives an interaction its first answer, in time
        self.answering = answering  # holds it while a hand decides how to answer
        self._tables: dict[str, _TableSurface] = {}
        self._closed: OrderedDict[str, int] = OrderedDict()  # table id → last version
        self._hands: dict[str, dict[int, _OpenHand]] = {}  # table id → seat → open hand
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False

    # -- the table message ------------------------------------------------------------------

    def heard(self, table: Table) -> None:
        """The service saved ``table``: show it (and update the open hands and the pings)."""
        self.want(table)
        if self.pings is not None:
            self.pings.heard(table)

    def want(self, table: Table, *, repost: bool = False) -> _TableSurface | None:
        """Make ``table`` (or a newer version) the wanted state of its message; ``repost``
        also moves the message to the bottom. Returns the surface, ``None`` when the table
        closed at a newer version already."""
        closed = self._closed.get(table.id)
        if closed is not None and table.version <= closed and not repost:
            return None
        surface = self._tables.get(table.id)
        if surface is None:
            surface = self._tables[table.id] = _TableSurface(table)
        elif table.version > surface.wanted.version or (
            table.version == surface.wanted.version and table.message_id is not None
        ):
            surface.wanted = table
        if repost and not surface.posting:
            surface.repost = True
        self._update_hands(surface.wanted)
        if surface.task is None or surface.task.done():
            surface.task = self._spawn(self._deliver(surface))
        return surface

    async def show(self, table: Table, *, repost: bool = False) -> None:
        """Bring the table's message up to ``table`` (or newer) and wait, a while, until it
        shows it."""
        surface = self.want(table, repost=repost)
        if surface is None or (surface.shown >= table.version and not surface.repost):
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        surface.waiting.append((table.version, done))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done, timeout=WAIT_FOR_EDIT)

    async def refresh_all(self, tables: list[Table]) -> None:
        """After a start: show every live table's message again, a few at a time."""
        gate = asyncio.Semaphore(REFRESH_AT_ONCE)

        async def one(table: Table) -> None:
            async with gate:
                await self.show(table)

        await asyncio.gather(*(one(table) for table in tables))

    def is_retired(self, table: Table, message_id: int) -> bool:
        """Is ``message_id`` an old message of ``table`` (not the one it lives in now)?"""
        return table.message_id is not None and message_id != table.message_id

    def retire_later(self, table: Table, message_id: int) -> None:
        """A click came from an old message of ``table`` (a post whose retirement failed, or
        that a crash left behind): retire it now."""
        channel = self.client.get_partial_messageable(table.channel_id)
        self._spawn(self._retire(table.id, channel, message_id))

    async def _deliver(self, surface: _TableSurface) -> None:
        """Send the wanted version until the message shows it (or Discord refuses for good)."""
        backoff = Backoff()
        table_id = surface.wanted.id
        try:
            while not self._stopping:
                target = surface.wanted
                reposting = surface.repost or target.message_id is None
                if not reposting and target.version <= surface.shown:
                    break
                try:
                    if reposting:
                        await self._post(surface, target)
                    else:
                        await self._edit(surface, target)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    if not await self._failed(surface, target, reposting, exc, backoff):
                        break
                    continue
                backoff.reset()
                surface.mark_shown(target.version)
        finally:
            surface.release()
            wanted = surface.wanted
            if not wanted.is_live and surface.shown >= wanted.version and not surface.repost:
                self._tables.pop(table_id, None)
                self._closed[table_id] = wanted.version
                while len(self._closed) > CLOSED_KEPT:
                    self._closed.popitem(last=False)

    async def _failed(
        self,
        surface: _TableSurface,
        target: Table,
        reposting: bool,
        exc: Exception,
        backoff: Backoff,
    ) -> bool:
        """Deal with a failed edit or post; returns whether to go on."""
        judged = verdict(exc)
        if judged is Verdict.GONE and not reposting:
            log.warning(
                "Table %s: its message can no longer be edited (%s); posting it again below",
                target.id,
                trouble(exc),
            )
            surface.repost = True
            return True
        if judged is Verdict.RETRY:
            pause = backoff.next()
            log.warning(
                "Table %s: could not show version %d (%s); trying again in %.1f s",
                target.id,
                target.version,
                trouble(exc),
                pause,
            )
            if isinstance(exc, TimeoutError):
                surface.picture.doubt()
                self._check_later(target.id)
            await asyncio.sleep(pause)
            return True
        if is_discord_trouble(exc):
            # No permission to post here any more, the channel is gone: nothing to retry
            # until something changes (the next version tries again).
            log.warning("Table %s: Discord refused its message (%s)", target.id, trouble(exc))
        else:
            log.error("Table %s: could not show its message", target.id, exc_info=exc)
        surface.repost = False
        surface.mark_shown(target.version)
        return False

    def _check_later(self, table_id: str) -> None:
        """A request hung and was given up: it may still land, with an older version; show
        the wanted version once more a little later."""

        def again() -> None:
            surface = self._tables.get(table_id)
            if surface is not None and not self._stopping:
                surface.shown = -1
                self.want(surface.wanted)

        self._later(again)

    def _check_hand_later(self, table_id: str, hand: _OpenHand) -> None:
        """The same for an open hand whose edit hung: edit it again later, as the table is
        by then (a hand that has gone to sleep or was replaced is left alone)."""

        def again() -> None:
            surface = self._tables.get(table_id)
            still_open = self._hands.get(table_id, {}).get(hand.seat) is hand
            if surface is not None and still_open and not self._stopping:
                hand.shown, hand.signature = -1, ()
                self._update_hands(surface.wanted)

        self._later(again)

    @staticmethod
    def _later(again: Callable[[], None]) -> None:
        loop = asyncio.get_running_loop()
        for delay in LATE_CHECKS:
            loop.call_later(delay, again)

    async def _edit(self, surface: _TableSurface, table: Table) -> None:
        assert table.message_id is not None
        channel = self.client.get_partial_messageable(table.channel_id)
        message = channel.get_partial_message(table.message_id)
        payload = await table_layout(table, self.emojis, showing=surface.picture.known())
        surface.picture.sending(payload)
        try:
            edited = await within(message.edit(**payload.edit_kwargs()))
        except discord.HTTPException as exc:
            if not _lost_kept(exc, payload):
                raise
            payload = await table_layout(table, self.emojis)
            surface.picture.sending(payload)
            edited = await within(message.edit(**payload.edit_kwargs()))
        surface.picture.sent(payload, edited)

    async def _post(self, surface: _TableSurface, table: Table) -> None:
        """Post the table at the bottom of its channel, remember where, retire the old one."""
        surface.posting = True
        try:
            payload = await table_layout(table, self.emojis)
            channel = self.client.get_partial_messageable(table.channel_id)
            if surface.nonce is None:
                surface.nonce = str(secrets.randbits(62))
            surface.picture.sending(payload)
            message = await within(channel.send(**payload.send_kwargs(), nonce=surface.nonce))
            surface.picture.sent(payload, message)
            old = table.message_id
            current = await self.service.set_message(table, message.id)
            surface.nonce = None
            surface.repost = False
            if current.version >= surface.wanted.version:
                surface.wanted = current  # it knows its new message
            if old is not None and old != message.id:
                self._spawn(self._retire(table.id, channel, old))
        finally:
            surface.posting = False

    async def _retire(
        self, table_id: str, channel: discord.PartialMessageable, message_id: int
    ) -> None:
        """The table moved below: delete its old message, or at least take its buttons."""
        old = channel.get_partial_message(message_id)
        until = time.monotonic() + 120
        try:
            await patiently(
                old.delete, what=f"Table {table_id}: deleting an old message", until=until
            )
            return
        except Exception as exc:
            if verdict(exc) is Verdict.GONE:
                return
        moved = discord.ui.LayoutView(timeout=None)
        moved.add_item(discord.ui.TextDisplay(t("table.moved")))
        moved.stop()
        try:
            await patiently(
                lambda: old.edit(content=None, embeds=[], attachments=[], view=moved),
                what=f"Table {table_id}: retiring an old message",
                until=until,
            )
        except Exception as exc:
            log.warning(
                "Table %s: could not retire message %s (%s)", table_id, message_id, trouble(exc)
            )

    # -- open hands -------------------------------------------------------------------------

    def latest(self, table: Table) -> Table:
        """``table``, or the newer version of it this process has seen."""
        surface = self._tables.get(table.id)
        if surface is not None and surface.wanted.version > table.version:
            return surface.wanted
        return table

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        *,
        notes: Sequence[str] = (),
        ui: HandState | None = None,
        picture: bool = True,
    ) -> None:
        """Show ``seat``'s hand in ``interaction``'s response (without ``picture``: as text and
        card emojis) and keep that message in sync (never older than what it showed).

        An interaction that still wants its first answer is answered by one callback that
        carries the hand: a click on a hand message by updating that message (an
        UPDATE_MESSAGE response), anything else (the table's **Show my hand**, ``/uno hand``)
        by a new ephemeral message. Otherwise (after a deferral) the response is edited.
        When the message updated is the open hand and shows this hand's picture already, the
        picture is kept, not uploaded."""
        hands = self._hands.setdefault(table.id, {})
        hand = hands.get(seat)
        lock = hand.lock if hand is not None else asyncio.Lock()
        # The seat's lock first, then the answer's: while the seat's delivery holds the lock
        # (an edit that hangs), the interaction is still deferred in time by whoever waits to
        # (Replies defers a quick answer after a second), and is then answered by an edit.
        async with lock, self.answering(interaction) as callback:
            newest = self.latest(table)
            if newest.match is None or newest.playing_seat_of(newest.players[seat].user_id) != seat:
                newest = table
            hand = hands.get(seat)
            showing = _showing(interaction, hand, callback=callback)
            draw = functools.partial(
                hand_payload, newest, seat, notes=notes, ui=ui, emojis=self.emojis, picture=picture
            )
            payload = await draw(showing=showing)
            expires = time.monotonic() + HAND_TOKEN_SECONDS - _age(interaction)
            if hand is not None:
                hand.picture.sending(payload)
            hung = False
            if callback:
                taken, shown_message = await self._answer_with(interaction, payload)
                if not taken:  # its fate unknown: the open hand is edited instead
                    self._edit_again(table.id, seat, newest)
                    return
            else:
                try:
                    shown_message, hung = await self._edit_response(interaction, payload, expires)
                except discord.HTTPException as exc:
                    if not _lost_kept(exc, payload):
                        raise
                    payload = await draw()
                    shown_message, hung = await self._edit_response(interaction, payload, expires)
            # Kept for its token only: let the clicked message go (nothing of the bot reads
            # it once the click is routed, and discord.py only for edit_message answers,
            # which were given above if at all).
            interaction.message = None
            message_id = shown_message.id if shown_message is not None else None
            hand = _keep_open(hands, interaction, newest, seat, message_id, expires, lock, picture)
            hand.picture.sent(payload, shown_message)
            if hung:
                hand.picture.doubt()
            self._set_sleep(table.id, hand)

    async def _answer_with(
        self, interaction: discord.Interaction[Any], payload: Payload
    ) -> tuple[bool, discord.Message | None]:
        """The one callback that answers with the hand: a click on a hand message updates
        that message (UPDATE_MESSAGE); the table's **Show my hand** or ``/uno hand`` gets a
        new ephemeral message. Whether Discord took it, and the message it shows."""
        response = interaction.response
        shown: list[discord.Message] = []

        async def send() -> None:
            if clicked_a_hand(interaction):
                answered = await response.edit_message(**payload.edit_kwargs())
            else:
                kwargs = payload.send_kwargs()
                answered = await response.send_message(ephemeral=True, **kwargs)
            message = answered.resource if answered is not None else None
            if isinstance(message, discord.Message):
                shown.append(message)

        taken = await self.first_answer(interaction, send)
        return taken, shown[0] if shown else None

    def _edit_again(self, table_id: str, seat: int, table: Table) -> None:
        """A move's answer may never have reached Discord: the seat's open hand (through the
        interaction that opened it) is brought to ``table`` by its delivery, so the player
        is told either way (see cogs/uno/_replies.py)."""
        hand = self._hands.get(table_id, {}).get(seat)
        if hand is not None:
            hand.shown, hand.signature = -1, ()
            self._update_hands(table)

    @staticmethod
    async def _edit_response(
        interaction: discord.Interaction[Any], payload: Payload, until: float
    ) -> tuple[discord.InteractionMessage, bool]:
        """Edit the interaction's response to ``payload``, trying again after passing trouble;
        the message, and whether a try failed before (it may have hung and land later)."""
        tries = 0

        def request() -> Awaitable[discord.InteractionMessage]:
            nonlocal tries
            tries += 1
            return interaction.edit_original_response(**payload.edit_kwargs())

        message = await patiently(
            request, what=f"Interaction {interaction.id}: a hand", until=until
        )
        return message, tries > 1

    def _set_sleep(self, table_id: str, hand: _OpenHand) -> None:
        """Before the hand's token expires, it says it has gone to sleep."""
        if hand.sleep is not None:
            hand.sleep.cancel()
        delay = max(0.0, hand.expires - time.monotonic())
        loop = asyncio.get_running_loop()
        hand.sleep = loop.call_later(delay, lambda: self._spawn(self._put_to_sleep(table_id, hand)))

    async def _put_to_sleep(self, table_id: str, hand: _OpenHand) -> None:
        hands = self._hands.get(table_id, {})
        if hands.get(hand.seat) is not hand:
            return
        async with hand.lock:
            if hands.get(hand.seat) is not hand:
                return  # a fresh interaction took its place meanwhile
            hands.pop(hand.seat, None)
            with speaking(hand.language):
                payload = asleep_payload(table_id)
            try:
                await within(hand.interaction.edit_original_response(**payload.edit_kwargs()))
            except Exception as exc:
                log.info("Table %s: a hand could not say it sleeps (%s)", table_id, trouble(exc))

    def _update_hands(self, table: Table) -> None:
        hands = self._hands.get(table.id)
        if not hands:
            return
        if not table.is_live or table.match is None:
            for hand in self._hands.pop(table.id, {}).values():
                if hand.sleep is not None:
                    hand.sleep.cancel()
            return
        now = time.monotonic()
        for seat, hand in list(hands.items()):
            gone = table.playing_seat_of(table.players[seat].user_id) is None
            if hand.expires <= now or gone:
                continue  # it goes to sleep (or its player left): no more edits
            if table.version <= hand.shown or hand_signature(table, seat) == hand.signature:
                continue
            if hand.wanted is None or table.version > hand.wanted.version:
                hand.wanted = table
            if not hand.busy:
                self._spawn(self._edit_hand(table.id, hand))

    async def _edit_hand(self, table_id: str, hand: _OpenHand) -> None:
        """Bring an open hand up to its wanted version, trying again after passing trouble."""
        hand.busy = True
        backoff = Backoff()
        try:
            while hand.wanted is not None and not self._stopping:
                pause = await self._edit_hand_once(table_id, hand)
                if pause is None:
                    backoff.reset()
                    continue
                if pause < 0:
                    return
                await asyncio.sleep(backoff.next())
        finally:
            hand.busy = False

    async def _edit_hand_once(self, table_id: str, hand: _OpenHand) -> float | None:
        """One edit of the hand: ``None`` when done (or nothing to do), a positive number to
        try again after a pause, a negative one to stop following the hand."""
        async with hand.lock:
            table = hand.wanted
            if table is None:
                return None
            signature = hand_signature(table, hand.seat)
            if table.version <= hand.shown or signature == hand.signature:
                hand.wanted = None
                return None
            if time.monotonic() >= hand.expires:
                return -1.0  # it goes to sleep instead
            with speaking(hand.language):
                payload = await hand_payload(
                    table,
                    hand.seat,
                    emojis=self.emojis,
                    showing=hand.picture.known(),
                    picture=hand.drawn,
                )
            kwargs = payload.edit_kwargs()
            hand.picture.sending(payload)
            try:
                edited = await within(hand.interaction.edit_original_response(**kwargs))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if isinstance(exc, discord.HTTPException) and _lost_kept(exc, payload):
                    log.info("Table %s: a hand's picture is gone; sending it again", table_id)
                    hand.picture.shown = None
                    return None  # hand.wanted stays: edited again at once, with the picture
                if verdict(exc) is not Verdict.RETRY:
                    # The token expired or the message was dismissed: stop following it.
                    log.info("Table %s: stopped following a hand (%s)", table_id, trouble(exc))
                    self._forget_hand(table_id, hand)
                    return -1.0
                log.warning(
                    "Table %s: could not update a hand (%s); trying again", table_id, trouble(exc)
                )
                if isinstance(exc, TimeoutError):
                    hand.picture.doubt()
                    self._check_hand_later(table_id, hand)
                return 1.0
            hand.signature, hand.shown, hand.message_id = signature, table.version, edited.id
            hand.picture.sent(payload, edited)
            if hand.wanted is table:
                hand.wanted = None
            return None

    def _forget_hand(self, table_id: str, hand: _OpenHand) -> None:
        hands = self._hands.get(table_id, {})
        if hands.get(hand.seat) is hand:
            hands.pop(hand.seat, None)
        if hand.sleep is not None:
            hand.sleep.cancel()

    # -- lifetime ---------------------------------------------------------------------------

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def drain(self, seconds: float = PATIENCE) -> None:
        """Give the deliveries under way ``seconds`` to finish (the bot is stopping)."""
        pending = [task for task in self._tasks if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=seconds)

    def stop(self) -> None:
        """Forget the open hands and cancel every delivery (the extension unloads)."""
        self._stopping = True
        if self.pings is not None:
            self.pings.stop()
        for task in self._tasks:
            task.cancel()
        for hands in self._hands.values():
            for hand in hands.values():
                if hand.sleep is not None:
                    hand.sleep.cancel()
        self._hands.clear()


def _age(interaction: discord.Interaction[Any]) -> float:
    """Seconds since Discord created the interaction (its token's lifetime counts from then)."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return min(max(age, 0.0), 60.0)


def _lost_kept(exc: discord.HTTPException, payload: Payload) -> bool:
    """Discord refused an edit that kept a picture already on the message (400): the
    attachment is gone — a request that hung replaced it when it landed late. The picture
    must be uploaded again."""
    return payload.kept is not None and exc.status == 400


def _keep_open(
    hands: dict[int, _OpenHand],
    interaction: discord.Interaction[Any],
    table: Table,
    seat: int,
    message_id: int | None,
    expires: float,
    lock: asyncio.Lock,
    drawn: bool,
) -> _OpenHand:
    """The seat's open hand (in ``hands``, its table's) is now the message ``interaction``'s
    response shows, at ``table``'s version: its delivery follows the table there, through this
    token. (A table that ended meanwhile has dropped ``hands``: the hand goes with it.)"""
    hand = hands.get(seat)
    if hand is None:
        hand = hands[seat] = _OpenHand(
            interaction,
            seat,
            current_language(),
            hand_signature(table, seat),
            message_id,
            _Picture(),
            table.version,
            expires,
            lock,
            drawn=drawn,
        )
        return hand
    # The same hand, through its newest interaction.
    hand.interaction, hand.language = interaction, current_language()
    hand.drawn = drawn
    hand.signature = hand_signature(table, seat)
    if message_id != hand.message_id:
        hand.message_id, hand.picture = message_id, _Picture()
    hand.shown, hand.expires = max(hand.shown, table.version), expires
    return hand


def _showing(
    interaction: discord.Interaction[Any], hand: _OpenHand | None, *, callback: bool
) -> Shown | None:
    """The picture the message ``interaction``'s response edits shows now, when known: the
    open hand's, if the click was on the open hand and the response updates the clicked
    message (a deferred update, or the one callback). A new message (a deferred "thinking"
    answer, a slash command) shows nothing yet."""
    if hand is None or hand.message_id is None:
        return None
    message = interaction.message
    if message is None or message.id != hand.message_id:
        return None
    updates = interaction.response.type is discord.InteractionResponseType.deferred_message_update
    if callback:
        updates = not interaction.response.is_done()
    return hand.picture.known() if updates else None
