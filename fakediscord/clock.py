"""``FakeClock``: the time of the fake Discord and of the bot under test, moved by the test.

An hour of Discord passes in a second: ``fake.clock.advance(3600)``. The clock is real time
plus an offset that only grows. The offset lives in a small file (one native 8-byte double)
that the fake writes and the bot process reads through ``mmap`` on every clock call, so both
agree at every moment without any message between them::

    fake.clock.now()          # epoch seconds: time.time() + offset
    fake.clock.monotonic()    # time.monotonic() + offset
    fake.clock.advance(60)    # a minute passes, for the fake and for the bot, at once
    await fake.clock.sleep(5) # until five fake seconds have passed (advance() wakes it)

In the bot process
==================

``BotProcess`` passes the file's path as ``FAKE_DISCORD_CLOCK``; the launcher
(``launch.py``) then replaces ``time.time``, ``time.time_ns``, ``time.monotonic`` and
``time.monotonic_ns`` by functions that add the current offset (one memory read each). asyncio
reads its loop time from ``time.monotonic``, so ``asyncio.sleep``, ``call_later`` and every
timeout in the bot follow the fake clock; a small thread in the bot wakes its event loops
within 20 ms of an advance, so a timer that became due fires even when nothing else happens
(during an outage, say, the reconnect backoff wakes up).

Deliberately NOT shifted, in the bot and in the fake:

* ``time.perf_counter``: discord.py's heartbeat watchdog (a thread) measures with it. If it
  followed the clock, an hour passing would look like an hour without heartbeat ACKs and
  close the gateway.
* ``datetime.datetime.now()`` / ``discord.utils.utcnow()``: a bot that wants the fake time
  reads ``time.time()``.
* ``time.sleep`` and thread waits: real time.

One consequence to know: discord.py reads the gateway with a receive timeout on the loop
clock (``heartbeat_timeout``, 60 s). A jump of more than that while the socket is quiet makes
discord.py close the socket and RESUME (no event is lost, but the bot sees a reconnect). To
let time pass as it does on a live connection, use ``await fake.pass_time(seconds)``: it
advances in steps and keeps each live gateway connection fed between them.

The fake's own time-based behaviour (the 3-second interaction deadline, the 15-minute
interaction tokens, the one-hour edit window, the end of a silence or an outage) runs on this
clock; waiting helpers (``wait_for``, ``done()``) keep measuring their patience in real time.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import mmap
import os
import tempfile
import time

__all__ = ["OFFSET_BYTES", "FakeClock"]

#: The offset file holds one native-endian double: the seconds added to real time.
OFFSET_BYTES = 8


class FakeClock:
    """Real time plus an offset the test moves forward (see the module docstring)."""

    def __init__(self) -> None:
        fd, self.path = tempfile.mkstemp(prefix="fake-discord-clock-", suffix=".f64")
        try:
            os.write(fd, bytes(OFFSET_BYTES))
            self._mmap = mmap.mmap(fd, OFFSET_BYTES)
        finally:
            os.close(fd)
        # An aligned 8-byte slot: one store per advance, one load per read in the bot.
        self._slot = memoryview(self._mmap).cast("d")
        self._offset = 0.0
        self._changed = asyncio.Event()

    # ------------------------------------------------------------------ reading

    @property
    def offset(self) -> float:
        """Seconds the clock is ahead of real time (never decreases)."""
        return self._offset

    def now(self) -> float:
        """Epoch seconds on the fake clock (``time.time()`` in the bot process)."""
        return time.time() + self._offset

    def monotonic(self) -> float:
        """Monotonic seconds on the fake clock (``time.monotonic()`` in the bot process)."""
        return time.monotonic() + self._offset

    # ------------------------------------------------------------------ moving

    def advance(self, seconds: float) -> float:
        """Let ``seconds`` pass at once, for the fake and the bot; returns the new offset."""
        if not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"the clock only moves forward, by a finite amount, not {seconds}")
        self._offset += seconds
        self._slot[0] = self._offset
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()
        return self._offset

    # ------------------------------------------------------------------ waiting

    async def sleep_until(self, moment: float) -> None:
        """Wait until ``monotonic()`` reaches ``moment`` (by real time passing or advances)."""
        while (remaining := moment - self.monotonic()) > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def sleep(self, seconds: float) -> None:
        """Wait until ``seconds`` have passed on the fake clock."""
        await self.sleep_until(self.monotonic() + seconds)

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        """Remove the offset file (a bot still running keeps its mapping of the offset)."""
        with contextlib.suppress(ValueError, BufferError):
            self._slot.release()
            self._mmap.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)

    def __repr__(self) -> str:
        return f"<FakeClock +{self._offset:.3f}s {self.path}>"
