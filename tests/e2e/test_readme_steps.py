"""The README's own steps, on a copy of the repository, with the fake Discord for Discord.

A new admin copies ``.env.example`` to ``.env`` and pastes the token, starts the bot with the
README's run command in the copy's folder, and sets up the README's nightly backup line;
people play; the backup runs twice (as cron would: its own minimal environment and umask,
from the line's ``cd``) and each backup is private; the restore drill restores the newest
backup into a scratch file, checks it and leaves the folders as it found them; the bot stops
cleanly. Every command comes from the README's text, so the README cannot drift from what
works.

The run command starts with the install (``python3 -m venv .venv && .venv/bin/pip install -q
-e .``); CI runs that install itself on a fresh clone (``.ci/run`` runs the README's test
command, which installs the same package with the test tools). Here the copy's ``.venv`` is
this test run's own environment, so the steps need no network; the bot itself is the copy's
``bot.py``, run by the fake Discord's launcher from the copy's folder.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

from fakediscord import BotProcess, FakeDiscord
from fakediscord.patience import PROCESS_PATIENCE
from hosting import backups
from hosting.settings import ENV_FILE_VARIABLE
from playtest.harness import World, open_table

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# A made-up token in Discord's shape (``uno-bot check`` checks the shape), joined at run time
# so secret scanners do not take the source for a leaked token.
TOKEN = ".".join(("MTIzNDU2Nzg5MDEyMzQ1Njc4", "GhIjKl", "readme-steps-token-not-a-real-one-xx"))
#: What cron gives a job: no virtualenv, no PYTHONPATH, none of the test run's settings.
CRON_ENV = {"PATH": "/usr/bin:/bin", "SHELL": "/bin/sh", "LANG": "C.UTF-8"}


class ReadmeBot(BotProcess):
    """The bot as the README starts it: every setting from the folder's ``.env``."""

    def environment(self) -> dict[str, str]:
        env = super().environment()
        for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL"):
            env.pop(name)
        env.pop(ENV_FILE_VARIABLE, None)
        return env


def copy_of_the_repository(where: Path) -> Path:
    """The files a clone would hold (tracked, and new files not ignored), as they are now."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = where / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    (where / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    return where


def run_command() -> str:
    """The README's run command, after its install steps."""
    first = re.findall(r"```\n(.+?)\n```", README.split("\n---\n", 1)[0], flags=re.S)[0]
    steps = first.split(" && ")
    assert steps[:2] == ["python3 -m venv .venv", ".venv/bin/pip install -q -e ."]
    return " && ".join(steps[2:])


def cron_line() -> tuple[str, str]:
    """The README's nightly backup line: the folder it runs in and the command."""
    lines = re.findall(r"^15 4 \* \* \* cd (/\S+) && (.+)$", README, flags=re.M)
    assert len(lines) == 1, lines
    return lines[0]


def restore_drill(clone: Path) -> str:
    """The README's restore drill, with the service's paths mapped into the copy (and run as
    this user: the README runs it as the bot's)."""
    section = README.split("**Restore drill**", 1)[1]
    script = re.search(r"```sh\n(.+?)\n```", section, flags=re.S)
    assert script is not None
    text = script.group(1)
    for service, here in (
        ("runuser -u uno-bot -- ", ""),
        ("/var/backups/uno-bot", str(clone / "backups")),
        ("/etc/uno-bot/uno-bot.env", str(clone / ".env")),
        ("/opt/uno-bot", str(clone)),
        ("/var/lib/uno-bot", str(clone)),
    ):
        assert service in text, service
        text = text.replace(service, here)
    return text


def start_without_settings(clone: Path) -> subprocess.CompletedProcess[str]:
    """The README's run command in the fresh copy, before any .env exists (the launcher is
    not needed: the bot stops before it would connect anywhere)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", ENV_FILE_VARIABLE)}
    return subprocess.run(
        ["/bin/sh", "-c", run_command()],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=PROCESS_PATIENCE,
        check=False,
    )


def tables_in(database: Path) -> list[str]:
    with sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True) as db:
        return [row[0] for row in db.execute("SELECT id FROM tables ORDER BY id")]


async def test_the_readme_steps_start_the_bot_and_keep_two_nightly_backups(
    tmp_path: Path,
) -> None:
    clone = copy_of_the_repository(tmp_path / "uno-bot")
    assert run_command() == ".venv/bin/python bot.py"
    first_try = await asyncio.to_thread(start_without_settings, clone)
    assert first_try.returncode == 2
    assert first_try.stdout == ""
    assert first_try.stderr.startswith(
        "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's token"
    )
    assert not (clone / "uno.sqlite3").exists()

    assert "`cp .env.example .env`" in README.split("\n---\n", 1)[0]
    shutil.copy(clone / ".env.example", clone / ".env")
    settings = (clone / ".env").read_text(encoding="utf-8")
    assert settings.count("\nDISCORD_TOKEN=\n") == 1
    (clone / ".env").write_text(
        settings.replace("\nDISCORD_TOKEN=\n", f"\nDISCORD_TOKEN={TOKEN}\n")
    )

    fake = FakeDiscord(token=TOKEN)
    guild = fake.add_guild("A new server")
    channel = guild.add_text_channel("uno")
    other = guild.add_text_channel("general")
    people = [fake.add_user(name) for name in ("alice", "bruno", "carla", "dario")]
    for person in people:
        guild.add_member(person, manage_guild=person.name == "dario")
    await fake.start()
    database = clone / "uno.sqlite3"  # DATABASE_PATH=uno.sqlite3, in the folder it starts in
    try:
        bot = ReadmeBot(fake, database_path=database, cwd=clone)
        await bot.start()
        world = World(fake, bot, guild, channel, other, *people, database)
        table = await open_table(world)
        assert tables_in(database) == [table]

        folder, command = cron_line()
        assert command.startswith(".venv/bin/uno-bot backup ")
        outputs = []
        for _ in range(2):
            done = await asyncio.to_thread(
                subprocess.run,
                # cron's usual umask, under which a file is readable by every user
                ["/bin/sh", "-c", f"umask 022 && cd {clone} && {command}"],
                env=CRON_ENV,
                capture_output=True,
                text=True,
                timeout=PROCESS_PATIENCE,
                check=False,
            )
            assert done.returncode == 0, done.stderr
            assert done.stderr == ""
            outputs.append(done.stdout)
        assert folder == "/srv/uno-bot"  # the folder the README's line names, mapped here
        kept = backups.backups_in(clone / "backups")
        assert len(kept) == 2
        for file in kept:
            assert tables_in(file) == [table]
            assert stat.S_IMODE(file.stat().st_mode) == 0o600  # players' data: private
        assert outputs[1].endswith(f"; {clone / 'backups'} holds 2 backups.\n")

        folders = (clone, clone / "backups")
        before_drill = [sorted(p.name for p in folder.iterdir()) for folder in folders]

        drill = await asyncio.to_thread(
            subprocess.run,
            ["/bin/bash", "-euo", "pipefail", "-c", restore_drill(clone)],
            cwd=tmp_path,
            env=CRON_ENV,
            capture_output=True,
            text=True,
            timeout=PROCESS_PATIENCE,
            check=False,
        )
        assert drill.returncode == 0, drill.stdout + drill.stderr
        assert f"Restored {clone / 'drill.sqlite3'} from {kept[-1]}" in drill.stdout
        assert f"ok   database: {clone / 'drill.sqlite3'} (DATABASE_PATH)" in drill.stdout
        assert "All good" in drill.stdout
        assert not (clone / "drill.sqlite3").exists()
        # The drill leaves the folders as it found them: no ".before-restore-" copy of the
        # scratch file (it did not exist before the restore), no journal, nothing.
        assert [sorted(p.name for p in folder.iterdir()) for folder in folders] == before_drill

        assert await bot.stop() == 0
        bot.assert_healthy()
        said = bot.output_text
        assert "voice" not in said
        lines = [line for line in bot.output if not line.startswith("---")]
        assert lines[-2].endswith("Database closed")
        assert lines[-1].endswith("Stopped; bye")
        assert tables_in(database) == [table]
    finally:
        await fake.close()
