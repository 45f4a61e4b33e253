"""Run the real bot against the fake Discord: ``python -m fakediscord.launch``.

Run it from the repository root. It reads ``FAKE_DISCORD_REST`` and ``FAKE_DISCORD_GATEWAY``,
sets the two documented seams of discord.py (``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``) before anything creates an HTTP client,
then calls the bot's own entry point: ``import bot; sys.exit(bot.main())``.
When ``FAKE_DISCORD_CLOCK`` names the fake's clock file (``BotProcess`` always passes it), it
first puts the bot on the fake clock: ``time.time``, ``time.time_ns``, ``time.monotonic`` and
``time.monotonic_ns`` add the offset the test advanced (read through ``mmap`` at each call),
so asyncio's loop time and every timer of the bot follow ``fake.clock``; a daemon thread
wakes the bot's event loops within 20 ms of an advance so that timers now due fire.
``time.perf_counter`` (discord.py's heartbeat watchdog), ``datetime`` and ``time.sleep`` stay
on real time; see ``clock.py``.
``FAKE_DISCORD_BOT`` names another module with a ``main()`` to run instead (the fake's own
tests use ``fakediscord.sample_bot``). The bot reads ``DISCORD_TOKEN``,
``DATABASE_PATH``, ``DEV_GUILD_ID`` and ``LOG_LEVEL`` as usual.

As a safety net the launcher installs an audit hook that refuses every network connection
that is not to 127.0.0.1 (or ::1): nothing can reach discord.com even if a new discord.py
version grew another base URL. Each refusal prints a ``FAKE_DISCORD_NETWORK_BLOCKED`` line on
stderr, which ``BotProcess`` collects and tests can assert on.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import mmap
import os
import sys
import threading
import time
import weakref
from typing import Any

from .clock import OFFSET_BYTES
from .process import BLOCKED_MARKER

_LOCAL_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "socket.connect":
        address = args[1]
        if isinstance(address, tuple) and address and address[0] not in _LOCAL_HOSTS:
            _refuse(f"{address[0]}:{address[1] if len(address) > 1 else ''}")
    elif event == "socket.getaddrinfo":
        host = args[0]
        if isinstance(host, bytes):
            host = host.decode(errors="replace")
        if host is not None and host not in _LOCAL_HOSTS:
            _refuse(str(host))


def _refuse(where: str) -> None:
    sys.stderr.write(f"{BLOCKED_MARKER} {where}\n")
    sys.stderr.flush()
    raise ConnectionRefusedError(f"fake discord launcher: no network outside 127.0.0.1 ({where})")


def install_seams(rest_base: str, gateway_url: str) -> None:
    """Point discord.py at the fake: the only two settings this launcher touches."""
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = rest_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


#: How often the clock thread looks for an advance (real seconds).
CLOCK_POLL = 0.02


def install_clock(path: str) -> None:
    """Put this process on the fake clock kept in the file at ``path`` (see ``clock.py``)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        mapping = mmap.mmap(fd, OFFSET_BYTES, access=mmap.ACCESS_READ)
    finally:
        os.close(fd)
    slot = memoryview(mapping).cast("d")  # slot[0]: the offset in seconds, as the fake wrote it
    real_time, real_time_ns = time.time, time.time_ns
    real_monotonic, real_monotonic_ns = time.monotonic, time.monotonic_ns

    # These run on every loop iteration of asyncio: keep each to one call and one read.
    def shifted_time() -> float:
        return real_time() + slot[0]

    def shifted_time_ns() -> int:
        return real_time_ns() + int(slot[0] * 1e9)

    def shifted_monotonic() -> float:
        return real_monotonic() + slot[0]

    def shifted_monotonic_ns() -> int:
        return real_monotonic_ns() + int(slot[0] * 1e9)

    time.time = shifted_time
    time.time_ns = shifted_time_ns
    time.monotonic = shifted_monotonic
    time.monotonic_ns = shifted_monotonic_ns
    _wake_loops_on_advance(slot)


def _wake_loops_on_advance(slot: memoryview[float]) -> None:
    """A loop asleep in ``select`` until its next timer would sleep through an advance;
    poke every running loop when the offset changes so it looks at its timers again."""
    loops: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
    run_forever = asyncio.BaseEventLoop.run_forever

    def registering_run_forever(self: asyncio.BaseEventLoop) -> None:
        loops.add(self)
        run_forever(self)

    asyncio.BaseEventLoop.run_forever = registering_run_forever  # type: ignore[method-assign]

    def watch() -> None:
        seen = slot[0]
        while True:
            time.sleep(CLOCK_POLL)
            if slot[0] == seen:
                continue
            seen = slot[0]
            for loop in list(loops):
                if loop.is_running() and not loop.is_closed():
                    with contextlib.suppress(RuntimeError):  # closed meanwhile
                        loop.call_soon_threadsafe(_nothing)

    threading.Thread(target=watch, name="fake-discord-clock", daemon=True).start()


def _nothing() -> None:
    """The callback that wakes a loop."""


def main() -> int:
    rest = os.environ.get("FAKE_DISCORD_REST", "").strip()
    gateway = os.environ.get("FAKE_DISCORD_GATEWAY", "").strip()
    if not rest or not gateway:
        sys.stderr.write("FAKE_DISCORD_REST and FAKE_DISCORD_GATEWAY must both be set.\n")
        return 2
    sys.addaudithook(_audit)
    clock = os.environ.get("FAKE_DISCORD_CLOCK", "").strip()
    if clock:
        install_clock(clock)
    install_seams(rest, gateway)
    module = importlib.import_module(os.environ.get("FAKE_DISCORD_BOT", "").strip() or "bot")
    code = module.main()
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
