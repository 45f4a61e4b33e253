"""``BotProcess``: the real bot in a subprocess, pointed at a ``FakeDiscord``.

async with BotProcess(fake, database_path=tmp_path / "uno.sqlite3") as bot:
    ...                      # the bot has IDENTIFYed and got READY (commands synced in
    await bot.kill()         # setup_hook are registered by then); SIGKILL: a crash
    await bot.start()        # same database, new process, new gateway session
    await bot.stop()         # SIGTERM: a clean shutdown; returns the exit code

The process runs on the fake's clock (``FAKE_DISCORD_CLOCK``, see ``clock.py``): its
``time.time``/``time.monotonic`` and asyncio timers follow ``fake.clock``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

from .patience import PATIENCE
from .server import FakeDiscord
from .world import FakeGuild

REPO_ROOT = Path(__file__).resolve().parents[1]
#: The line prefix ``launch.py`` prints for each refused network connection.
BLOCKED_MARKER = "FAKE_DISCORD_NETWORK_BLOCKED"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

__all__ = ["BLOCKED_MARKER", "REPO_ROOT", "BotProcess", "BotProcessError"]


class BotProcessError(RuntimeError):
    """The bot process died or never became ready; the message ends with its output."""


class BotProcess:
    """Start, kill, stop and restart the bot (``python -m fakediscord.launch``)."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        database_path: str | os.PathLike[str],
        module: str = "bot",
        dev_guild: FakeGuild | int | None = None,
        log_level: str = "INFO",
        env: dict[str, str] | None = None,
        cwd: str | os.PathLike[str] = REPO_ROOT,
        ready_timeout: float = PATIENCE,
        wait_for_sync: bool = False,
    ) -> None:
        self.fake = fake
        self.database_path = str(database_path)
        self.module = module
        self.dev_guild_id = dev_guild.id if isinstance(dev_guild, FakeGuild) else dev_guild
        self.log_level = log_level
        self.extra_env = dict(env or {})
        self.cwd = str(cwd)
        self.ready_timeout = ready_timeout
        self.wait_for_sync = wait_for_sync
        #: Every line the process printed (stdout and stderr), across restarts.
        self.output: list[str] = []
        self.starts = 0
        self.exit_codes: list[int] = []
        self._proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ environment

    def environment(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DISCORD_", "FAKE_DISCORD_"))
            and k not in ("DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL")
        }
        env.update(
            DISCORD_TOKEN=self.fake.token,
            DATABASE_PATH=self.database_path,
            DEV_GUILD_ID="" if self.dev_guild_id is None else str(self.dev_guild_id),
            LOG_LEVEL=self.log_level,
            FAKE_DISCORD_REST=self.fake.rest_base,
            FAKE_DISCORD_GATEWAY=self.fake.gateway_url,
            FAKE_DISCORD_CLOCK=self.fake.clock.path,
            FAKE_DISCORD_BOT=self.module,
            PYTHONUNBUFFERED="1",
            PYTHONPATH=os.pathsep.join(
                p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p
            ),
        )
        env.update(self.extra_env)
        return env

    # ------------------------------------------------------------------ lifecycle

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    async def start(self, *, ready: bool = True) -> BotProcess:
        """Start the process and wait until the fake has sent it READY (``ready=False``:
        return once it runs, for a start that is not to get that far)."""
        if self.running:
            raise BotProcessError("the bot is already running")
        readies = self.fake.ready_count
        syncs = len(self.fake.command_syncs)
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "fakediscord.launch",
            cwd=self.cwd,
            env=self.environment(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self.starts += 1
        self.output.append(f"--- bot process {self.starts} (pid {self._proc.pid}) ---")
        self._reader = asyncio.create_task(self._read(self._proc))
        if not ready:
            return self

        def is_ready() -> bool:
            if not self.running:
                return True
            if self.fake.ready_count <= readies or not self.fake.connected:
                return False
            return not self.wait_for_sync or len(self.fake.command_syncs) > syncs

        became_ready = await self.fake.wait_for(is_ready, within=self.ready_timeout, quiet=True)
        if self._proc.returncode is not None:
            await self._reap()
            raise BotProcessError(f"the bot exited with {self.returncode}:\n{self.output_text}")
        if not became_ready:
            raise BotProcessError(
                f"the bot was not READY within {self.ready_timeout}s:\n{self.output_text}"
            )
        return self

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        while True:
            line = await proc.stdout.readline()
            if not line:
                break
            # The fake's sample bot logs through discord.py's own set-up, which colours even
            # a pipe where it believes it runs in a container; strip the escapes so tests
            # can match the text. (The bot itself colours a terminal only: tests/test_logs.py.)
            self.output.append(_ANSI.sub("", line.decode(errors="replace").rstrip("\n")))

    async def _reap(self) -> int:
        proc = self._proc
        assert proc is not None
        code = await proc.wait()
        if self._reader is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._reader, 5.0)
        self.exit_codes.append(code)
        self.output.append(f"--- exit code {code} ---")
        return code

    async def kill(self) -> int:
        """SIGKILL the bot (a crash: nothing is flushed, no goodbye to the gateway)."""
        if not self.running:
            raise BotProcessError("the bot is not running")
        assert self._proc is not None
        self._proc.send_signal(signal.SIGKILL)
        code = await self._reap()
        await self.fake.wait_for(lambda: not self.fake.connected, within=10.0, quiet=True)
        return code

    async def stop(self, *, grace: float = 15.0) -> int:
        """SIGTERM the bot and wait for a clean exit (SIGKILL after ``grace``)."""
        if not self.running:
            return self.returncode if self.returncode is not None else 0
        assert self._proc is not None
        self._proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(asyncio.shield(self._proc.wait()), grace)
        except TimeoutError:
            self.output.append(f"--- no exit {grace}s after SIGTERM; killing ---")
            self._proc.send_signal(signal.SIGKILL)
        return await self._reap()

    async def restart(self) -> BotProcess:
        """Stop (cleanly) if running, then start again on the same database."""
        await self.stop()
        return await self.start()

    @property
    def returncode(self) -> int | None:
        return self._proc.returncode if self._proc is not None else None

    async def __aenter__(self) -> BotProcess:
        return await self.start()

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            await self.stop()
        finally:
            if exc_type is not None:
                sys.stderr.write(f"\n--- bot output ---\n{self.output_text}\n")

    # ------------------------------------------------------------------ what it said

    @property
    def output_text(self) -> str:
        return "\n".join(self.output)

    @property
    def network_violations(self) -> list[str]:
        """Connections the launcher refused because they were not to 127.0.0.1."""
        return [line for line in self.output if line.startswith(BLOCKED_MARKER)]

    def tracebacks(self) -> list[str]:
        """Lines that start a traceback or log an ERROR/CRITICAL record."""
        return [
            line
            for line in self.output
            if line.startswith("Traceback")
            or any(tag in line for tag in ("[ERROR", "[CRITICAL", " ERROR ", " CRITICAL "))
        ]

    def assert_healthy(self) -> None:
        """No refused network access and no tracebacks/ERROR logs so far."""
        assert not self.network_violations, self.output_text
        assert not self.tracebacks(), self.output_text

    async def wait_for_output(self, text: str, *, within: float = PATIENCE) -> str:
        """Wait until a line containing ``text`` appears; returns that line."""
        end = time.monotonic() + within
        while time.monotonic() < end:
            for line in self.output:
                if text in line:
                    return line
            await asyncio.sleep(0.05)
        raise TimeoutError(f"{text!r} never appeared in the bot output:\n{self.output_text}")
