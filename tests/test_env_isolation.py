"""The tests never read the developer's ``.env`` or a token exported in their shell.

A developer who followed the README has a filled ``.env`` in the clone (the bot reads it from
the folder it starts in, and the end-to-end tests start it in the clone) and may have
``DISCORD_TOKEN`` in their environment. ``tests/conftest.py`` removes the settings from the
test process and points ``UNO_BOT_ENV_FILE`` at an empty file for every bot the tests start.
The last test here proves it: a copy of the repository with a filled ``.env`` and a token in
the environment, and the start-up tests run in it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from fakediscord.patience import PROCESS_PATIENCE
from tests.conftest import BOT_SETTINGS

ROOT = Path(__file__).resolve().parent.parent
SEEN = f"""
import json
from hosting.settings import read_environment
names = {(*BOT_SETTINGS, "DISCORD_TOKEN")!r}
print(json.dumps({{k: v for k, v in read_environment().items() if k in names}}))
"""
# Canaries: if any of these shows up, a developer's settings leaked into the tests.
# Made-up tokens in Discord's shape (never real ones), joined at run time so secret
# scanners do not take the source for a leaked token.
SHELL_TOKEN = ".".join(
    ("MTExMTExMTExMTExMTExMTEx", "ShellT", "shell-token-exported-by-the-developer-xx")
)
FILE_TOKEN = ".".join(
    ("MjIyMjIyMjIyMjIyMjIyMjIy", "FileTk", "file-token-in-the-developers-dot-env-xxx")
)


def test_a_bot_started_by_the_tests_sees_no_developer_settings() -> None:
    """What a bot started from the repository's folder reads, as the end-to-end tests start
    it (the environment of this process, inherited)."""
    result = subprocess.run(
        [sys.executable, "-c", SEEN],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=PROCESS_PATIENCE,
        check=True,
    )
    assert json.loads(result.stdout) == {}


def test_the_start_up_tests_pass_beside_a_filled_dot_env(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = clone / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    leaked_database = tmp_path / "leaked" / "uno.sqlite3"
    leaked_database.parent.mkdir()
    (clone / ".env").write_text(
        f"DISCORD_TOKEN={FILE_TOKEN}\n"
        f"DATABASE_PATH={leaked_database}\n"
        "DEV_GUILD_ID=424242424242424242\n"
        "LOG_LEVEL=DEBUG\n"
        "MONITOR_EVENT_LOOP=1\n"
        "COMPUTER_PAUSE_SECONDS=59\n",
        encoding="utf-8",
    )
    shell = {k: v for k, v in os.environ.items() if k != "UNO_BOT_ENV_FILE"}
    shell.update(DISCORD_TOKEN=SHELL_TOKEN, LOG_LEVEL="DEBUG")
    shell.pop("PYTHONPATH", None)
    selected = [
        "tests/test_env_isolation.py::test_a_bot_started_by_the_tests_sees_no_developer_settings",
        "tests/e2e/test_startup.py",  # the real bot, started in the copy beside the .env
        "tests/cogs/test_boot.py",
    ]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", *selected],
        cwd=clone,
        env=shell,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-5000:]
    passed = re.search(r"(\d+) passed", output)
    assert passed is not None
    assert int(passed.group(1)) >= 20
    assert "failed" not in output
    where = subprocess.run(
        [sys.executable, "-c", "import bot, hosting; print(bot.__file__, hosting.__file__)"],
        cwd=clone,
        env=shell,
        capture_output=True,
        text=True,
        timeout=PROCESS_PATIENCE,
        check=True,
    )
    assert where.stdout.split() == [str(clone / "bot.py"), str(clone / "hosting" / "__init__.py")]
    assert not leaked_database.exists()
    assert SHELL_TOKEN not in output
    assert FILE_TOKEN not in output
