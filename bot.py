"""Start the UNO bot: ``python bot.py``.

Settings come from the environment or a ``.env`` file (see ``.env.example``):
``DISCORD_TOKEN`` (required), ``DATABASE_PATH``, ``DEV_GUILD_ID`` and ``LOG_LEVEL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import os
import signal
import sys
import time
from dataclasses import dataclass, field

import discord
from discord.ext import commands
from dotenv import load_dotenv

from storage import GameRepository

log = logging.getLogger("uno")

#: Extensions loaded at start, in order (RoboDanny's explicit tuple).
EXTENSIONS: tuple[str, ...] = ("cogs.uno",)


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one sentence for the admin."""


@dataclass(frozen=True)
class Settings:
    """What the bot needs from its environment."""

    token: str = field(repr=False)  # never printed, never logged
    database_path: str = "uno.sqlite3"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    monitor_loop: bool = False  # MONITOR_EVENT_LOOP=1: log the longest event-loop stall
    computer_pause: float = 1.2  # COMPUTER_PAUSE_SECONDS: a computer player's thinking time

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
        pause_text = env.get("COMPUTER_PAUSE_SECONDS", "").strip() or "1.2"
        try:
            pause = float(pause_text)
        except ValueError:
            pause = -1.0
        if not 0 <= pause <= 60:
            raise SettingsError("COMPUTER_PAUSE_SECONDS must be a number of seconds from 0 to 60.")
        return cls(
            token=token,
            computer_pause=pause,
            database_path=env.get("DATABASE_PATH", "").strip() or "uno.sqlite3",
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            monitor_loop=env.get("MONITOR_EVENT_LOOP", "").strip() in ("1", "true", "yes"),
        )


class UnoBot(commands.Bot):
    """The bot: dependencies come in through the constructor, extensions load in setup_hook."""

    def __init__(self, settings: Settings, repo: GameRepository) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            # Slash commands and components need no message events: without them (and without
            # a message cache) the gateway sends less and the heap holds fewer objects.
            intents=discord.Intents(guilds=True),
            max_messages=None,
        )
        self.settings = settings
        self.repo = repo

    async def setup_hook(self) -> None:
        if self.settings.monitor_loop:
            self.loop.create_task(watch_event_loop())
        for name in EXTENSIONS:
            try:
                await self.load_extension(name)
            except Exception:
                log.exception("Failed to load extension %s", name)
        await self.sync_commands()
        # Everything built so far (modules, commands, caches) lives as long as the process:
        # moved out of the collector's reach, a full collection no longer walks it, which
        # keeps its pauses of the event loop short.
        gc.collect()
        gc.freeze()

    async def sync_commands(self) -> None:
        """Register the slash commands with Discord, but only when they changed."""
        guild = None
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        payload = [
            # The translated payload: a changed translation must be synced too.
            await command.get_translated_payload(self.tree, translator)
            if translator is not None
            else command.to_dict(self.tree)
            for command in self.tree.get_commands(guild=guild)
        ]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands:{guild.id if guild else 'global'}"
        if await self.repo.get_meta(key) == digest:
            # Our copy says nothing changed; make sure Discord still has them (someone may
            # have removed them by hand) before skipping the sync.
            remote = {command.name for command in await self.tree.fetch_commands(guild=guild)}
            if remote == {command["name"] for command in payload}:
                log.info("Slash commands unchanged; not syncing")
                return
        await self.tree.sync(guild=guild)
        await self.repo.set_meta(key, digest)
        log.info("Slash commands synced (%s)", f"guild {guild.id}" if guild else "global")

    async def on_ready(self) -> None:
        log.info("Logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))


async def watch_event_loop(period: float = 0.005, report_every: float = 5.0) -> None:
    """Measure how late the event loop wakes a sleeping task: a stall blocks everyone.

    Logs the longest stall of every ``report_every`` seconds (benchmarks/bot_bench.py reads
    these lines). Off unless MONITOR_EVENT_LOOP=1.
    """
    loop = asyncio.get_running_loop()
    longest = 0.0
    since = loop.time()
    collections = _CollectorPauses()
    gc.callbacks.append(collections)
    try:
        while True:
            before = loop.time()
            await asyncio.sleep(period)
            late = loop.time() - before - period
            longest = max(longest, late)
            if loop.time() - since >= report_every:
                log.info(
                    "event loop: longest stall %.1f ms (longest garbage collection %.1f ms)",
                    longest * 1000,
                    collections.take_longest() * 1000,
                )
                longest = 0.0
                since = loop.time()
    finally:
        gc.callbacks.remove(collections)


class _CollectorPauses:
    """A ``gc.callbacks`` hook that remembers the longest collection: a suspect for stalls."""

    def __init__(self) -> None:
        self._started = 0.0
        self._longest = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._started = now
        else:
            self._longest = max(self._longest, now - self._started)

    def take_longest(self) -> float:
        longest, self._longest = self._longest, 0.0
        return longest


async def run(settings: Settings) -> None:
    """Run until the bot is closed, a signal arrives, or login fails.

    Every change is committed before anyone sees it, so a shutdown only has to finish the
    interactions in flight and close the database.
    """
    repo = await GameRepository.open(settings.database_path)
    try:
        async with UnoBot(settings, repo) as bot:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError):  # Windows has no signal handlers
                    loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
            await bot.start(settings.token)
    finally:
        await repo.close()
        log.info("Database closed; bye")


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
