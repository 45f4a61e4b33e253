"""Start the UNO bot: ``python bot.py``.

Settings come from the environment or a ``.env`` file (see ``.env.example``):
``DISCORD_TOKEN`` (required), ``DATABASE_PATH``, ``DEV_GUILD_ID`` and ``LOG_LEVEL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from dataclasses import dataclass, field

import discord
from discord.ext import commands
from dotenv import load_dotenv

log = logging.getLogger("uno")

#: Extensions loaded at start, in order (RoboDanny's explicit tuple).
EXTENSIONS: tuple[str, ...] = ()


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one sentence for the admin."""


@dataclass(frozen=True)
class Settings:
    """What the bot needs from its environment."""

    token: str = field(repr=False)  # never printed, never logged
    database_path: str = "uno.sqlite3"
    dev_guild_id: int | None = None
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        """Read the settings from ``env`` (default: ``os.environ`` after loading ``.env``)."""
        if env is None:
            load_dotenv()
            env = dict(os.environ)
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's "
                "token from https://discord.com/developers/applications after DISCORD_TOKEN=."
            )
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError("DEV_GUILD_ID must be a server id (digits only), or empty.")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SettingsError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL.")
        return cls(
            token=token,
            database_path=env.get("DATABASE_PATH", "").strip() or "uno.sqlite3",
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
        )


class UnoBot(commands.Bot):
    """The bot: dependencies come in through the constructor, extensions load in setup_hook."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.settings = settings

    async def setup_hook(self) -> None:
        for name in EXTENSIONS:
            try:
                await self.load_extension(name)
            except Exception:
                log.exception("Failed to load extension %s", name)
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    async def on_ready(self) -> None:
        log.info("Logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))


async def run(settings: Settings) -> None:
    """Run until the bot is closed, a signal arrives, or login fails."""
    async with UnoBot(settings) as bot:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # Windows has no signal handlers
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
        await bot.start(settings.token)


def main() -> int:
    """Entry point; returns the process exit code."""
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        sys.stderr.write(
            "Discord rejected DISCORD_TOKEN: copy the token again from the Bot page of your "
            "application and put it in .env.\n"
        )
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
