"""Turn notifications: a person whose turn came and who has not acted is told so.

Discord never notifies a mention in an edited message, and the table message is edited at
every move: a person who looks away would not know their turn came. So when a person's turn
begins, :class:`TurnPings` waits as long as their server chose (``/uno-admin settings
turn_ping``; 25 seconds by default, 0 at once, or never) — or as they chose themselves
(``/uno settings alerts``: at once, or never; a server that pings no one stays quiet) —
and if the turn is still theirs it
posts a short message that mentions only them (its allowed mentions name that one user),
with a button to open their hand. When the turn moves on — they acted, or the clock played
for them — the message is deleted. A computer's turn is never pinged; a seat a computer
holds for an absent person is pinged at once (the computer waits a little before playing,
so the person can take the seat back). There is at most one such message per table, so a
table never posts more than one message per turn (well within Discord's per-channel limits).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from tables import Table

from ._components import button
from ._delivery import patiently, trouble
from ._i18n import speaking, t

log = logging.getLogger(__name__)

#: A turn: the hand, the seat, the cards played so far (a new card is a new turn), the user.
Turn = tuple[int, int, int, int]
#: How long the bot keeps trying to post or delete a ping.
TRY_FOR = 60.0


@dataclass
class _Ping:
    turn: Turn
    task: asyncio.Task[None] | None = None
    message_id: int | None = None


class TurnPings:
    """Pings each person whose turn came (see the module docstring)."""

    def __init__(
        self, client: discord.Client, delay_for: Callable[[Table, int], Awaitable[float | None]]
    ) -> None:
        self.client = client
        #: The wait before a seat's person is pinged at a table (None: never): their
        #: server's, as they chose (``/uno settings alerts``).
        self._delay_for = delay_for
        self._pings: dict[str, _Ping] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def heard(self, table: Table) -> None:
        """A new version of ``table``: a new person's turn starts a ping, a turn that moved
        on takes its ping away."""
        turn = turn_of(table)
        ping = self._pings.get(table.id)
        if ping is not None and ping.turn == turn:
            return
        if ping is not None:
            self._withdraw(table, ping)
        if turn is None:
            self._pings.pop(table.id, None)
            return
        ping = self._pings[table.id] = _Ping(turn)
        ping.task = self._spawn(self._ping_later(table, ping))

    def _withdraw(self, table: Table, ping: _Ping) -> None:
        if ping.task is not None and not ping.task.done():
            ping.task.cancel()
        if ping.message_id is not None:
            self._spawn(self._delete(table, ping.message_id))
            ping.message_id = None

    async def _ping_later(self, table: Table, ping: _Ping) -> None:
        player = table.players[ping.turn[1]]
        delay = await self._delay_for(table, ping.turn[1])
        if delay is None:
            return
        await asyncio.sleep(delay)
        channel = self.client.get_partial_messageable(table.channel_id)
        with speaking(table.language):
            content = t("ping.turn", mention=f"<@{player.user_id}>", link=_link(table))
            view = discord.ui.View(timeout=None)
            view.add_item(button("hand", table.id, None, label=t("button.hand")))
        view.stop()
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(player.user_id)]
        )
        # Shielded: a post under way is not abandoned when the turn moves on meanwhile (its
        # message would stay); the message is deleted right after instead.
        post = asyncio.ensure_future(
            patiently(
                lambda: channel.send(content=content, view=view, allowed_mentions=mentions),
                what=f"Table {table.id}: a turn ping",
                until=time.monotonic() + TRY_FOR,
            )
        )
        try:
            message = await asyncio.shield(post)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                message = await post
                await self._delete(table, message.id)
            raise
        except Exception as exc:
            log.warning("Table %s: could not ping a turn (%s)", table.id, trouble(exc))
            return
        if self._pings.get(table.id) is ping:
            ping.message_id = message.id
        else:
            await self._delete(table, message.id)

    async def _delete(self, table: Table, message_id: int) -> None:
        message = self.client.get_partial_messageable(table.channel_id).get_partial_message(
            message_id
        )
        try:
            await patiently(
                message.delete,
                what=f"Table {table.id}: deleting a turn ping",
                until=time.monotonic() + TRY_FOR,
            )
        except discord.NotFound:
            pass
        except Exception as exc:
            log.info("Table %s: could not delete a turn ping (%s)", table.id, trouble(exc))

    def _spawn(self, work: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def stop(self) -> None:
        """Cancel the pings waiting (the extension unloads)."""
        for task in self._tasks:
            task.cancel()
        self._pings.clear()


def turn_of(table: Table) -> Turn | None:
    """The person's turn ``table`` is at, if it is one (``None``: a computer's, or no turn)."""
    if table.status != "playing" or table.match is None:
        return None
    hand = table.match.hand
    if hand.is_over:
        return None
    player = table.players[hand.current]
    if player.is_computer:
        return None
    return (table.match.hand_number, hand.current, len(hand.discard), player.user_id)


def _link(table: Table) -> str:
    """The address of the table message (or of its channel)."""
    base = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"
    return f"{base}/{table.message_id}" if table.message_id is not None else base
