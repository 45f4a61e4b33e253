"""Starting and stopping the real bot: settings, a rejected token, a clean shutdown."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from fakediscord import BotProcess, FakeDiscord
from fakediscord.patience import PROCESS_PATIENCE
from playtest.harness import World, load, open_table, slash

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_token_the_bot_says_what_to_do(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(ROOT)
    # Run from an empty folder so no .env is found.
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=PROCESS_PATIENCE,
        check=False,
    )
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert ".env.example" in result.stderr
    assert "Traceback" not in result.stderr


async def test_a_rejected_token_is_one_sentence_and_never_logged(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        wrong = "MTIz.not-the-token.xyz"
        process = BotProcess(
            fake, database_path=tmp_path / "uno.sqlite3", env={"DISCORD_TOKEN": wrong}
        )
        env = process.environment()
        result = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "fakediscord.launch"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=PROCESS_PATIENCE,
            check=False,
        )
    assert result.returncode == 2
    assert "Discord rejected DISCORD_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr
    assert wrong not in result.stderr + result.stdout


async def test_sigterm_stops_cleanly_and_the_table_is_still_there(world: World) -> None:
    table_id = await open_table(world)
    await slash(world, world.bruno, "uno hand")
    before = await load(world, table_id)
    code = await world.bot.stop()
    assert code == 0
    assert "Database closed" in world.bot.output_text
    assert world.fake.token not in world.bot.output_text
    await world.bot.start()
    after = await load(world, table_id)
    assert after == before
    again = await slash(world, world.bruno, "uno hand")
    assert again.ephemeral
