"""Gateway trouble and outages: the records tests read, and a listener that can go away.

``FakeDiscord`` (``server.py``) offers, each an awaitable method:

* ``await fake.gateway_reconnect()``: op 7 RECONNECT to every live session; waits until each
  RESUMEd (``wait=False`` returns at once).
* ``await fake.gateway_invalid_session(resumable=False)``: op 9 to every live session; with
  ``resumable=False`` the sessions are over (a RESUME with them gets op 9 again) and the bot
  IDENTIFYs anew; waits for that (or for the RESUMEs).
* ``await fake.silence_gateway(seconds)``: for that long on the fake clock the fake sends
  nothing on any gateway connection (no HELLO on a new one, no heartbeat ACK, no dispatch)
  and ignores everything the bot sends on them. Events that happen meanwhile are kept and
  sent when the silence ends (or replayed on a RESUME). REST keeps working.
* ``await fake.outage(seconds)``: Discord is unreachable. Every connection (gateway and
  REST) is dropped abruptly (a TCP reset) and the port stops listening, so every new
  connection is refused; when the outage ends on the fake clock the fake listens again on
  the same port.

``silence_gateway`` and ``outage`` return a :class:`GatewayTrouble` as soon as the trouble
has begun; it ends by itself when the fake clock reaches its end (real time passing, or
``fake.clock.advance``)::

    outage = await fake.outage(60)
    fake.clock.advance(60)            # the bot's reconnect backoff sleeps on this clock too
    await outage.wait_over()          # the port listens again
    await fake.wait_for(lambda: fake.connected)

An interaction a user makes during either is never delivered, as in a real outage:
``fake.slash``/``click``/``select``/``submit_modal`` raise :class:`InteractionNotDeliveredError`
(a ``BotNotConnectedError``) whose ``result`` is marked ``undelivered``.
``fake.troubles`` lists every silence and outage with ``began``/``ended`` (fake epoch seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GatewayTrouble", "Listener"]


@dataclass(eq=False)
class GatewayTrouble:
    """One silence or outage: when it began and ended, on the fake clock."""

    kind: str  # "silence" or "outage"
    seconds: float
    began: float  # fake epoch seconds (fake.clock.now())
    until: float  # fake monotonic seconds (fake.clock.monotonic()) when it is to end
    ended: float | None = None  # fake epoch seconds, once over
    _over: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def over(self) -> bool:
        return self.ended is not None

    @property
    def duration(self) -> float | None:
        """Fake seconds it lasted (None while it lasts)."""
        return None if self.ended is None else self.ended - self.began

    def _finish(self, now: float) -> None:
        self.ended = now
        self._over.set()

    async def wait_over(self, within: float | None = None) -> None:
        """Wait until it ended (``within`` real seconds; None: as long as it takes)."""
        await asyncio.wait_for(self._over.wait(), within)


class Listener:
    """The fake's TCP listener on 127.0.0.1, which an outage stops and restarts on the same port.

    It serves aiohttp's low-level server (``AppRunner.server``: a protocol factory that also
    lists its open ``connections``), so an outage can drop them all at once.
    """

    def __init__(self, server: Any) -> None:
        self._web_server = server
        self._server: asyncio.Server | None = None
        self.port: int | None = None

    @property
    def listening(self) -> bool:
        return self._server is not None

    async def listen(self) -> int:
        """Listen on the port of last time (a free one the first time); returns it."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        for attempt in range(50):  # the old socket may take a moment to let go of the port
            try:
                sock.bind(("127.0.0.1", self.port or 0))
                break
            except OSError:
                if attempt == 49 or self.port is None:
                    sock.close()
                    raise
                await asyncio.sleep(0.05)
        self.port = sock.getsockname()[1]
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._web_server, sock=sock, backlog=128)
        return self.port

    async def stop(self, *, drop: bool) -> None:
        """Stop listening; with ``drop``, reset every open connection (no goodbye)."""
        if self._server is not None:
            self._server.close()
            self._server = None
        if drop:
            for handler in self._web_server.connections:
                transport = handler.transport
                if transport is not None and not transport.is_closing():
                    reset(transport)


def reset(transport: asyncio.BaseTransport) -> None:
    """Close a connection with a TCP reset, as a dead peer or a dropped route does."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    abort = getattr(transport, "abort", None)
    if abort is not None:
        abort()
    else:
        transport.close()
