"""Run the real bot against the fake Discord: ``python -m tests.fakediscord.launch``.

Run it from the repository root. It reads ``FAKE_DISCORD_REST`` and ``FAKE_DISCORD_GATEWAY``,
sets the two documented seams of discord.py (``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``) before anything creates an HTTP client,
then calls the bot's own entry point: ``import bot; sys.exit(bot.main())``.
``FAKE_DISCORD_BOT`` names another module with a ``main()`` to run instead (the fake's own
tests use ``tests.fakediscord.sample_bot``). The bot reads ``DISCORD_TOKEN``,
``DATABASE_PATH``, ``DEV_GUILD_ID`` and ``LOG_LEVEL`` as usual.

As a safety net the launcher installs an audit hook that refuses every network connection
that is not to 127.0.0.1 (or ::1): nothing can reach discord.com even if a new discord.py
version grew another base URL. Each refusal prints a ``FAKE_DISCORD_NETWORK_BLOCKED`` line on
stderr, which ``BotProcess`` collects and tests can assert on.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

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


def main() -> int:
    rest = os.environ.get("FAKE_DISCORD_REST", "").strip()
    gateway = os.environ.get("FAKE_DISCORD_GATEWAY", "").strip()
    if not rest or not gateway:
        sys.stderr.write("FAKE_DISCORD_REST and FAKE_DISCORD_GATEWAY must both be set.\n")
        return 2
    sys.addaudithook(_audit)
    install_seams(rest, gateway)
    module = importlib.import_module(os.environ.get("FAKE_DISCORD_BOT", "").strip() or "bot")
    code = module.main()
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
