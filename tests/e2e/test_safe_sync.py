"""Command sync is safe: never after a failed extension, on demand with ``uno-bot sync``,
and never leaves ``/uno`` registered twice when ``DEV_GUILD_ID`` is cleared."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fakediscord import BotProcess, FakeDiscord
from fakediscord.patience import PROCESS_PATIENCE
from hosting.cli import EXIT_FAILED, EXIT_OK

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Setup:
    fake: FakeDiscord
    guild: Any
    database: Path


@pytest.fixture
async def setup(tmp_path: Path) -> AsyncIterator[Setup]:
    fake = FakeDiscord()
    guild = fake.add_guild("UNO night")
    guild.add_text_channel("uno")
    await fake.start()
    try:
        yield Setup(fake, guild, tmp_path / "uno.sqlite3")
    finally:
        await fake.close()


async def once(
    setup: Setup,
    *args: str,
    module: str = "bot",
    dev_guild: Any = None,
) -> subprocess.CompletedProcess[str]:
    """Run the bot (or one of its commands) to the end; a ``run`` is stopped by the test."""
    env = BotProcess(
        setup.fake, database_path=setup.database, module=module, dev_guild=dev_guild
    ).environment()
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "fakediscord.launch", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=PROCESS_PATIENCE,
        check=False,
    )


async def serve_once(setup: Setup, *, dev_guild: Any = None) -> None:
    """Start the bot until it is READY, then stop it cleanly."""
    bot = BotProcess(setup.fake, database_path=setup.database, dev_guild=dev_guild)
    async with bot:
        pass
    assert bot.exit_codes == [0], bot.output_text


def error_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if "ERROR" in line or "CRITICAL" in line]


def synced(setup: Setup, scopes: Sequence[int | None]) -> int:
    return sum(1 for scope, _ in setup.fake.command_syncs if scope in scopes)


async def test_a_failed_extension_stops_the_bot_before_any_sync(setup: Setup) -> None:
    """Issue 10, item 8: syncing without the extension would remove /uno everywhere."""
    await serve_once(setup)  # a good start registers /uno
    registered = setup.fake.registered_commands()
    assert "uno play" in registered
    syncs = len(setup.fake.command_syncs)
    connections = len(setup.fake.gateway_connections)

    result = await once(setup, module="tests.e2e.broken_bot")

    assert result.returncode == EXIT_FAILED
    errors = error_lines(result.stderr)
    assert len(errors) == 1, result.stderr
    line = errors[0]
    assert "tests.e2e.broken_extension failed to load" in line
    assert "ImportError: cannot import name 'Table'" in line
    assert "broken_extension.py:5" in line
    assert "without syncing" in line
    assert "Traceback" not in result.stderr  # at INFO; LOG_LEVEL=DEBUG shows it
    assert len(setup.fake.command_syncs) == syncs
    assert setup.fake.registered_commands() == registered
    assert len(setup.fake.gateway_connections) == connections  # never went online either


async def test_the_traceback_of_a_failed_extension_is_there_at_debug(setup: Setup) -> None:
    result = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "fakediscord.launch"],
        cwd=ROOT,
        env={
            **BotProcess(
                setup.fake, database_path=setup.database, module="tests.e2e.broken_bot"
            ).environment(),
            "LOG_LEVEL": "DEBUG",
        },
        capture_output=True,
        text=True,
        timeout=PROCESS_PATIENCE,
        check=False,
    )
    assert result.returncode == EXIT_FAILED
    assert "Traceback" in result.stderr
    assert 'broken_extension.py", line 5' in result.stderr
    assert not setup.fake.command_syncs


async def test_clearing_dev_guild_id_removes_the_server_copy(setup: Setup) -> None:
    await serve_once(setup, dev_guild=setup.guild)
    assert "uno play" in setup.fake.registered_commands(setup.guild)
    assert setup.fake.registered_commands() == []

    await serve_once(setup)  # DEV_GUILD_ID cleared: global commands, and no second copy

    assert "uno play" in setup.fake.registered_commands()
    assert setup.fake.registered_commands(setup.guild) == []
    syncs = len(setup.fake.command_syncs)
    await serve_once(setup)  # nothing left to clear, nothing changed: no sync at all
    assert len(setup.fake.command_syncs) == syncs
    setup.fake.assert_clean()


async def test_sync_registers_on_demand_without_going_online(setup: Setup) -> None:
    await serve_once(setup)
    syncs = synced(setup, [None])
    connections = len(setup.fake.gateway_connections)

    result = await once(setup, "sync")

    assert result.returncode == EXIT_OK, result.stderr
    assert synced(setup, [None]) == syncs + 1  # unchanged commands, synced all the same
    assert "uno play" in setup.fake.registered_commands()
    assert len(setup.fake.gateway_connections) == connections
    assert "Slash commands synced (global)" in result.stderr
    setup.fake.assert_clean()


async def test_sync_clears_a_server_it_does_not_remember(setup: Setup) -> None:
    """A development server from another database: name it with --clear-guild."""
    other = setup.fake.add_guild("Old dev server")
    result = await once(setup, "sync", dev_guild=other)
    assert result.returncode == EXIT_OK, result.stderr
    assert "uno play" in setup.fake.registered_commands(other)
    setup.database.unlink()  # forgotten: a fresh database

    result = await once(setup, "sync", "--clear-guild", str(other.id))

    assert result.returncode == EXIT_OK, result.stderr
    assert setup.fake.registered_commands(other) == []
    assert "uno play" in setup.fake.registered_commands()


async def test_sync_with_a_failed_extension_syncs_nothing(setup: Setup) -> None:
    result = await once(setup, "sync", module="tests.e2e.broken_bot")
    assert result.returncode == EXIT_FAILED
    assert not setup.fake.command_syncs
