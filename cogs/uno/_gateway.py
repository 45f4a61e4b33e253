"""Can the players be heard? The gateway's shards, watched for the turn clocks.

Interactions reach the bot over the gateway. When a shard's connection drops, or goes
silent (no heartbeat acknowledgement: the socket is open but nothing arrives), nobody in
that shard's servers can act, and a turn clock that runs on would play for people who could
not click. :class:`GatewayWatch` reports each shard's trouble to :class:`tables.Outages` as an
outage of cause ``gateway:<shard>``: from the disconnect, or — for a silence — from the last
thing the shard heard, until the shard is READY or RESUMED again.

A restart is an outage too. While its players can act (from READY on, no outage going on) the
process writes an "alive" stamp, at once and every :data:`ALIVE_EVERY` seconds; at start-up
an outage of cause ``restart`` runs from the last stamp until the gateway is READY, so a
person whose turn ran while the bot was down gets that time back (however it ended: a
``kill -9`` between two stamps costs nobody anything, it gives back at most
:data:`ALIVE_EVERY` seconds more than were lost). A start that never got READY writes no
stamp, so the next one still counts from the last moment players could act. Without any
stamp (a first start, another ``SHARD_IDS``, stamps that could not be written) the bot cannot
know when it stopped: the outage then covers everything before this start, and a turn that
was running starts afresh rather than being played for its person.

A silence is noticed when it matters: before the clock plays for a person, it asks
:meth:`GatewayWatch.confirm`. If the shard heard nothing for a few seconds, it sends one extra
heartbeat and waits briefly for Discord's acknowledgement (Discord accepts a heartbeat at any
time); without one the shard is silent: an outage begins, and the shard reconnects.

discord.py keeps the time a shard last received anything inside its keep-alive handler, and
offers no public way to send a heartbeat; :func:`_socket_of` reaches both through the one
private path (``ShardInfo._parent.ws``), and a test checks that the installed discord.py
still has it. Without it, :meth:`confirm` trusts the connection state alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from storage import GameRepository
from tables import Outages, Table
from tables.clock import DATABASE

log = logging.getLogger(__name__)

#: Heard within this many seconds: the shard is fine, no probe needed.
FRESH = 3.0
#: How long a probe waits for the heartbeat's acknowledgement.
PROBE_WAIT = 4.0
#: How often the process writes that its players could act (see the module docstring): the
#: most a restart can give back beyond the time the bot was really down.
ALIVE_EVERY = 5.0
#: Where a restart outage begins when no stamp says when the bot stopped: before any turn.
NO_STAMP = 0.0
#: The outage cause of the time the bot was not running.
RESTART = "restart"
#: The outage causes of the gateway's shards start with this.
GATEWAY = "gateway:"


def cause_of(shard_id: int) -> str:
    """The outage cause of one gateway shard."""
    return f"{GATEWAY}{shard_id}"


class GatewayWatch(commands.Cog):
    """Reports the gateway's outages per shard, and the time the bot was down."""

    def __init__(
        self,
        client: discord.Client,
        outages: Outages,
        repo: GameRepository,
        *,
        alive_key: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.outages = outages
        self.repo = repo
        self.alive_key = alive_key
        self._clock = clock
        self._probing: dict[int, asyncio.Task[bool]] = {}
        self._stamping: asyncio.Task[None] | None = None
        self._stamped: float | None = None  # the stamp found at start

    async def cog_load(self) -> None:
        stamp = await self.repo.get_meta(self.alive_key)
        try:
            self._stamped = float(stamp) if stamp is not None else None
        except ValueError:
            self._stamped = None
        self.outages.begin(RESTART, since=NO_STAMP if self._stamped is None else self._stamped)

    async def cog_unload(self) -> None:
        if self._stamping is None:
            return  # never READY: the last stamp stays the last moment players could act
        self._stamping.cancel()
        if self._heard():
            with contextlib.suppress(Exception):
                await self.repo.set_meta(self.alive_key, repr(self._clock()))

    def _heard(self) -> bool:
        """Can the players of every shard act now (no gateway or database outage going on:
        the service reports the database's, and a stamp could not be written anyway)?"""
        return not any(
            cause.startswith(GATEWAY) or cause == DATABASE for cause in self.outages.causes()
        )

    async def _stamp_while_alive(self) -> None:
        failing = False
        while True:
            if self._heard():  # a stamp in an outage would hide its start after a restart
                try:
                    await self.repo.set_meta(self.alive_key, repr(self._clock()))
                except Exception as exc:
                    if not failing:
                        log.warning(
                            "Could not write the alive stamp (%s: %s); trying again every "
                            "%g s. A restart meanwhile gives back the time since the last one",
                            type(exc).__name__,
                            exc,
                            ALIVE_EVERY,
                        )
                    failing = True
                else:
                    if failing:
                        log.info("The alive stamp is written again")
                    failing = False
            await asyncio.sleep(ALIVE_EVERY)

    def shard_of(self, table: Table) -> int:
        """The shard whose connection carries ``table``'s interactions."""
        count = self.client.shard_count or 1
        return (table.guild_id >> 22) % count

    def causes(self, table: Table) -> tuple[str, ...]:
        """The outages that keep ``table``'s players from acting."""
        return (DATABASE, RESTART, cause_of(self.shard_of(table)))

    # -- what discord.py tells -------------------------------------------------------------

    @commands.Cog.listener()
    async def on_shard_disconnect(self, shard_id: int) -> None:
        if self.outages.begin(cause_of(shard_id), since=self._last_heard(shard_id)):
            log.warning("Gateway shard %d: disconnected; turn clocks pause", shard_id)

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        self._back(shard_id)

    @commands.Cog.listener()
    async def on_shard_resumed(self, shard_id: int) -> None:
        self._back(shard_id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        lasted = self.outages.end(RESTART)
        if lasted is not None and self._stamped is None:
            log.info(
                "No alive stamp of an earlier run: a person's turn that was running gets its "
                "whole time back"
            )
        elif lasted is not None:
            log.info("Turn clocks go on after %.0f s without the bot", lasted)
        if self._stamping is None or self._stamping.done():
            self._stamping = asyncio.get_running_loop().create_task(self._stamp_while_alive())

    def _back(self, shard_id: int) -> None:
        lasted = self.outages.end(cause_of(shard_id))
        if lasted is not None:
            log.warning("Gateway shard %d: back after %.0f s; turn clocks go on", shard_id, lasted)

    # -- the probe -------------------------------------------------------------------------

    async def confirm(self, table: Table) -> bool:
        """Can ``table``'s players be heard now? A silent shard begins an outage."""
        shard_id = self.shard_of(table)
        if self.outages.down_for((cause_of(shard_id),)):
            return False
        socket = _socket_of(self.client, shard_id)
        if socket is None:
            return True  # nothing to ask: trust the connection events
        task = self._probing.get(shard_id)
        if task is None or task.done():
            task = asyncio.get_running_loop().create_task(self._probe(shard_id, socket))
            self._probing[shard_id] = task
        return await asyncio.shield(task)

    async def _probe(self, shard_id: int, socket: Any) -> bool:
        heartbeat = socket._keep_alive
        if heartbeat is None or time.perf_counter() - heartbeat._last_recv < FRESH:
            return True
        sent = time.perf_counter()
        try:
            await socket.send_heartbeat({"op": socket.HEARTBEAT, "d": socket.sequence})
        except Exception as exc:
            log.info("Gateway shard %d: could not send a heartbeat (%s)", shard_id, exc)
        deadline = sent + PROBE_WAIT
        while time.perf_counter() < deadline:
            if heartbeat._last_recv >= sent:
                return True
            await asyncio.sleep(0.05)
        silent_for = time.perf_counter() - heartbeat._last_recv
        if self.outages.begin(cause_of(shard_id), since=self._clock() - silent_for):
            log.warning(
                "Gateway shard %d: silent for %.0f s; turn clocks pause, reconnecting",
                shard_id,
                silent_for,
            )
        # As discord.py's own watchdog does when a socket stopped answering: close it with
        # 4000, and discord.py's shard worker reconnects and resumes (with its backoff).
        asyncio.get_running_loop().create_task(_close(shard_id, socket))
        return False

    def _last_heard(self, shard_id: int) -> float:
        """When the shard last received anything (now, when that cannot be known)."""
        socket = _socket_of(self.client, shard_id)
        heartbeat = getattr(socket, "_keep_alive", None)
        last = getattr(heartbeat, "_last_recv", None)
        if not isinstance(last, float):
            return self._clock()
        return self._clock() - max(0.0, time.perf_counter() - last)


async def _close(shard_id: int, socket: Any) -> None:
    try:
        await socket.close(code=4000)
    except Exception as exc:
        log.info("Gateway shard %d: could not close the silent socket (%s)", shard_id, exc)


def _socket_of(client: discord.Client, shard_id: int) -> Any:
    """The shard's gateway websocket, or ``None`` (see the module docstring)."""
    if isinstance(client, discord.AutoShardedClient):
        info = client.get_shard(shard_id)
        parent = getattr(info, "_parent", None)
        socket = getattr(parent, "ws", None)
    else:
        socket = getattr(client, "ws", None)
    if (
        socket is None
        or not hasattr(socket, "send_heartbeat")
        or not hasattr(socket, "_keep_alive")
    ):
        return None
    return socket
