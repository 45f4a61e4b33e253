"""Start the UNO bot: ``python bot.py`` or ``uno-bot`` (``--help`` lists the commands).

Settings come from the environment or a ``.env`` file (see ``.env.example``):
``DISCORD_TOKEN`` (required), ``DATABASE_PATH``, ``DEV_GUILD_ID`` and ``LOG_LEVEL``; several
processes split the bot's shards with ``SHARD_COUNT`` and ``SHARD_IDS``. The
command line and the commands that need no bot (check, backup, restore, invite) live in
``hosting/``; this module is the bot itself and runs it (``run``, ``sync``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import signal
import sys
import time
import traceback
from collections.abc import Callable, Coroutine, Sequence
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from hosting import cli
from hosting.logs import setup_logging
from hosting.settings import Settings, SettingsError
from storage import DatabaseUnavailableError, GameRepository, PoolOptions

__all__ = ["EXTENSIONS", "Settings", "SettingsError", "UnoBot", "main", "run"]

log = logging.getLogger("uno")

#: Extensions loaded at start, in order (RoboDanny's explicit tuple).
EXTENSIONS: tuple[str, ...] = ("cogs.uno",)
#: The meta key under which the digest of the commands synced to a scope is kept.
_SYNCED = "commands:"
#: The cyclic collector's thresholds, chosen by measurement (docs/performance.md: at 300
#: busy tables, Python's (700, 10, 10) ran about 250 collections per 20 s taking 2.2 % of a
#: core; (50000, 20, 10) ran 2 taking 0.4-0.5 %, for 3-6 % more memory; the longest, a full
#: collection, was as long with either).
GC_THRESHOLDS: tuple[int, int, int] = (50_000, 20, 10)


class ExtensionLoadError(Exception):
    """An extension failed to load: the bot stops before it syncs (or serves) anything."""


class VettedTree(app_commands.CommandTree["UnoBot"]):
    """The bot's command tree: before it reads a command interaction, every loaded cog that
    vets commands (``vet_command``) may refuse it — a forged option, one delivered twice, a
    stopping bot — and a command the tree cannot run (unknown, outdated) goes to the cogs that
    answer such errors (``refuse_command``), so nobody is left without an answer."""

    async def interaction_check(self, interaction: discord.Interaction[UnoBot], /) -> bool:
        for cog in list(self.client.cogs.values()):
            vet = getattr(cog, "vet_command", None)
            if vet is not None and not await vet(interaction):
                return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[UnoBot], error: app_commands.AppCommandError, /
    ) -> None:
        for cog in list(self.client.cogs.values()):
            refuse = getattr(cog, "refuse_command", None)
            if refuse is not None:
                await refuse(interaction, error)
                return
        await super().on_error(interaction, error)


class UnoBot(commands.AutoShardedBot):
    """The bot: dependencies come in through the constructor, extensions load in setup_hook.

    Sharded from the start (discord.py opens one gateway connection per shard): with neither
    ``SHARD_COUNT`` nor ``SHARD_IDS`` it runs every shard Discord recommends; with both, the
    shards named, so several processes on one database share the bot (each runs the tables
    of its own guilds, see ``tables.shards``).

    ``force_sync`` registers the commands even when they look unchanged (``uno-bot sync``);
    ``clear_guilds`` names servers whose server-only copy of the commands to remove.
    """

    def __init__(
        self,
        settings: Settings,
        repo: GameRepository,
        *,
        force_sync: bool = False,
        clear_guilds: Sequence[int] = (),
    ) -> None:
        # A UNO bot never joins a voice channel: without PyNaCl (and davey, discord.py 2.6.3+)
        # discord.py would warn at every start that voice is unsupported, a line an admin
        # should not have to wonder about.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        shards: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        # Every answer of Discord's servers that says they failed (5xx) is told to the cogs
        # (``on_http_server_error``): discord.py waits 1 s, then 3 s, before trying again, and
        # an interaction's first answer cannot wait that long (see cogs/uno/_replies.py).
        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(self._heard_answer)
        super().__init__(
            command_prefix=commands.when_mentioned,
            http_trace=trace,
            # Slash commands and components need no message events: without them (and without
            # a message cache) the gateway sends less and the heap holds fewer objects.
            intents=discord.Intents(guilds=True),
            max_messages=None,
            tree_cls=VettedTree,
            **shards,
        )
        self.settings = settings
        self.repo = repo
        self.force_sync = force_sync
        self.clear_guilds = tuple(clear_guilds)
        self._stopping = False

    async def _heard_answer(
        self, session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        if params.response.status >= 500:
            self.dispatch("http_server_error", params.method, str(params.url))

    async def setup_hook(self) -> None:
        if self.settings.monitor_loop:
            self.loop.create_task(watch_event_loop())
        await self.load_extensions()
        await self.sync_commands(force=self.force_sync)
        # Everything built so far (modules, commands, caches) lives as long as the process:
        # moved out of the collector's reach, a full collection no longer walks it, which
        # keeps its pauses of the event loop short. (The UNO extension freezes again once
        # connected and its tables are shown.)
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)

    async def load_extensions(self) -> None:
        """Load every extension, or stop: syncing a tree without one would remove its
        commands from every server until the next good start."""
        for name in EXTENSIONS:
            try:
                await self.load_extension(name)
            except Exception as exc:
                cause = exc.__cause__ or exc
                log.debug("Extension %s failed to load", name, exc_info=cause)
                log.error(
                    "Extension %s failed to load (%s, at %s); stopping without syncing the "
                    "slash commands, which would remove them from every server: fix it and "
                    "start again (LOG_LEVEL=DEBUG shows the traceback)",
                    name,
                    _one_line(cause),
                    _where(cause),
                )
                raise ExtensionLoadError(name) from cause

    async def sync_commands(self, *, force: bool = False) -> None:
        """Register the slash commands with Discord, but only when they changed (or
        ``force``); without a development server, remove the copies left in one."""
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
        key = f"{_SYNCED}{guild.id if guild else 'global'}"
        if (
            not force
            and await self.repo.get_meta(key) == digest
            and await self._still_there(guild, {command["name"] for command in payload})
        ):
            log.info("Slash commands unchanged; not syncing")
        else:
            await self.tree.sync(guild=guild)
            await self.repo.set_meta(key, digest)
            log.info("Slash commands synced (%s)", f"guild {guild.id}" if guild else "global")
        if guild is None:
            await self._clear_server_copies()

    async def _still_there(self, guild: discord.Object | None, names: set[str]) -> bool:
        """Our copy says nothing changed; does Discord still have them (someone may have
        removed them by hand)?"""
        remote = {command.name for command in await self.tree.fetch_commands(guild=guild)}
        return remote == names

    async def _clear_server_copies(self) -> None:
        """Remove the server-only commands of former development servers (remembered from
        their syncs, or named with ``--clear-guild``): with the global ones, Discord would
        list ``/uno`` twice there."""
        remembered = {
            int(key.removeprefix(_SYNCED))
            for key in await self.repo.meta_keys(_SYNCED)
            if key.removeprefix(_SYNCED).isdigit()
        }
        for guild_id in sorted(remembered | set(self.clear_guilds)):
            server = discord.Object(id=guild_id)
            self.tree.clear_commands(guild=server)
            try:
                await self.tree.sync(guild=server)
            except discord.HTTPException as exc:
                # Not in that server any more, or no applications.commands scope there: it
                # has no copy we could remove.
                log.warning("Could not remove the commands from server %s (%s)", guild_id, exc)
            else:
                log.info("Removed the server-only copy of the commands from server %s", guild_id)
            await self.repo.delete_meta(f"{_SYNCED}{guild_id}")

    async def close(self) -> None:
        """Stop: each cog with a ``drain()`` first finishes (and answers) the interactions
        under way while the connection is still open; then discord.py closes."""
        if not self._stopping:
            self._stopping = True
            for cog in list(self.cogs.values()):
                drain = getattr(cog, "drain", None)
                if drain is None or self.is_closed():
                    continue
                try:
                    await drain()
                except Exception:
                    log.exception("Could not finish the work under way of %s", type(cog).__name__)
        await super().close()

    async def on_ready(self) -> None:
        log.info(
            "Logged in as %s (%s), shards %s of %s",
            self.user,
            getattr(self.user, "id", "?"),
            ",".join(map(str, sorted(self.shards))) or "none",
            self.shard_count,
        )


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _where(exc: BaseException) -> str:
    """The innermost frame of the project's own code that the error went through."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if "site-packages" not in f.filename and "<frozen" not in f.filename]
    chosen = own or frames
    if not chosen:
        return "an unknown place"
    return f"{chosen[-1].filename}:{chosen[-1].lineno}"


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
                wall, cpu, generation = collections.take_longest()
                count, total = collections.take_totals()
                log.info(
                    "event loop: longest stall %.1f ms (longest garbage collection %.1f ms, "
                    "%.1f ms of CPU, generation %d; %d collections, %.1f ms of CPU in all)",
                    longest * 1000,
                    wall * 1000,
                    cpu * 1000,
                    generation,
                    count,
                    total * 1000,
                )
                longest = 0.0
                since = loop.time()
    finally:
        gc.callbacks.remove(collections)


class _CollectorPauses:
    """A ``gc.callbacks`` hook that remembers the longest collection: a suspect for stalls.

    Each collection is timed on the wall clock (what the event loop waits) and on the
    thread's CPU clock (what the collector itself costs: on a busy machine the wall time
    also counts the moments another process had the core).
    """

    def __init__(self) -> None:
        self._started = (0.0, 0.0)
        self._longest = (0.0, 0.0, -1)  # wall seconds, CPU seconds, generation
        self._count = 0
        self._total = 0.0  # CPU seconds

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        now = (time.perf_counter(), time.thread_time())
        if phase == "start":
            self._started = now
            return
        wall, cpu = now[0] - self._started[0], now[1] - self._started[1]
        self._count += 1
        self._total += cpu
        if wall > self._longest[0]:
            self._longest = (wall, cpu, info.get("generation", -1))

    def take_longest(self) -> tuple[float, float, int]:
        """The longest collection since the last call: wall and CPU seconds, generation."""
        longest, self._longest = self._longest, (0.0, 0.0, -1)
        return longest

    def take_totals(self) -> tuple[int, float]:
        """How many collections ran since the last call, and their CPU seconds in all."""
        totals = (self._count, self._total)
        self._count, self._total = 0, 0.0
        return totals


async def open_repository(settings: Settings) -> GameRepository:
    """The database the settings name: PostgreSQL when DATABASE_URL is set, else the SQLite
    file DATABASE_PATH. An unreachable server or an unusable file raises
    :class:`DatabaseUnavailableError` (one sentence) before anything connects to Discord."""
    return await GameRepository.open(
        settings.database,
        startup_wait=settings.database_connect_timeout,
        synchronous=settings.sqlite_synchronous,
        pool=PoolOptions(
            max_size=settings.database_pool_size, command_timeout=settings.database_timeout
        ),
    )


#: What ``uno-bot run`` and ``sync`` do: open what they need, leaving its closing to the
#: stack they are given (see :func:`_until_done`).
Work = Callable[[contextlib.AsyncExitStack], Coroutine[Any, Any, None]]


async def run(settings: Settings, cleanup: contextlib.AsyncExitStack) -> None:
    """Run until the bot is closed, a signal arrives, or login fails; what it opens is
    closed by ``cleanup``, after the reason for stopping was said.

    Every change is committed before anyone sees it, so a shutdown only has to finish the
    interactions in flight and close the database.
    """
    repo = await open_repository(settings)
    cleanup.push_async_callback(_close_database, repo)
    # Finished tables' logs are compacted, and old finished tables deleted, in the background.
    tidying = asyncio.create_task(repo.keep_bounded(retention_days=settings.record_retention_days))
    cleanup.push_async_callback(_cancel, tidying)
    bot = await cleanup.enter_async_context(UnoBot(settings, repo))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows has no signal handlers
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    await bot.start(settings.token)


async def sync(
    settings: Settings, cleanup: contextlib.AsyncExitStack, clear_guilds: Sequence[int] = ()
) -> None:
    """Log in over HTTP only (no gateway), register the commands, and stop."""
    repo = await open_repository(settings)
    cleanup.push_async_callback(_close_database, repo)
    bot = UnoBot(settings, repo, force_sync=True, clear_guilds=clear_guilds)
    await cleanup.enter_async_context(bot)
    await bot.login(settings.token)  # runs setup_hook: load, sync, clear


async def _close_database(repo: GameRepository) -> None:
    await repo.close()
    log.info("Database closed")


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def _run_command(settings: Settings) -> int:
    again = "start the bot again (its systemd service does so by itself 10 seconds later)"
    code = _until_done(settings, lambda cleanup: run(settings, cleanup), again=again)
    if code == cli.EXIT_OK:
        log.info("Stopped; bye")  # last, after any reason for stopping
    return code


def _sync_command(settings: Settings, clear_guilds: Sequence[int]) -> int:
    again = "run uno-bot sync again"
    return _until_done(settings, lambda cleanup: sync(settings, cleanup, clear_guilds), again=again)


def _until_done(settings: Settings, work: Work, *, again: str) -> int:
    """Run ``work`` with safe logging; turn the failures an admin can fix into a sentence
    (``again`` says how to try once more), said before anything is closed: first why the
    bot stops, then its goodbye (``Database closed``)."""
    password = urlsplit(settings.database_url).password if settings.database_url else None
    setup_logging(settings.log_level, secrets=[settings.token, password or ""])

    async def attempt() -> int:
        async with contextlib.AsyncExitStack() as cleanup:
            try:
                await work(cleanup)
            except Exception as exc:
                code = _say_why(exc, again)
                if code is None:
                    raise
                return code
        return cli.EXIT_OK

    try:
        return asyncio.run(attempt())
    except KeyboardInterrupt:
        return cli.EXIT_OK


def _say_why(exc: Exception, again: str) -> int | None:
    """Write the sentence for a failure an admin can fix; its exit code (``None``: a bug,
    which keeps its traceback)."""
    if isinstance(exc, DatabaseUnavailableError):
        sys.stderr.write(f"{exc}\n")
        return cli.EXIT_DATABASE
    if isinstance(exc, discord.LoginFailure):
        sys.stderr.write(
            "Discord rejected DISCORD_TOKEN: copy the token again from the Bot page of your "
            "application and put it in the settings file (.env, or the one --env-file names).\n"
        )
        return cli.EXIT_SETTINGS
    if isinstance(exc, ExtensionLoadError):
        return cli.EXIT_FAILED  # already said in one log line
    if isinstance(exc, aiohttp.ClientConnectionError | TimeoutError):
        # Only the first login gets here: once connected, discord.py reconnects by itself.
        sys.stderr.write(
            f"Cannot reach Discord ({_one_line(exc)}): check this machine's network "
            f"connection, then {again}.\n"
        )
        return cli.EXIT_FAILED
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point (``uno-bot``, ``python bot.py``); returns the process exit code."""
    return cli.main(argv, cli.Runners(run=_run_command, sync=_sync_command))


if __name__ == "__main__":
    sys.exit(main())
