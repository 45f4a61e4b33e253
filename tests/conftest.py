"""Every test runs as on a fresh clone, whatever the developer's machine holds.

The bot reads ``.env`` from the folder it starts in and takes settings from the environment.
A developer who followed the README has a filled ``.env`` (a real token) and may have
``DISCORD_TOKEN`` exported in their shell: the tests must see neither. Settings are removed
from this process's environment, and ``UNO_BOT_ENV_FILE`` points every bot started from here
(in this process or as a subprocess, which inherits the environment) at an empty file.
``tests/test_env_isolation.py`` runs tests beside a filled ``.env`` to prove it.
"""

from __future__ import annotations

import os

import pytest

from hosting.settings import ENV_FILE_VARIABLE, SETTINGS
from tests.databases import SKIP_REASON

#: The settings ``hosting.settings`` reads (the name other tests import).
BOT_SETTINGS = SETTINGS

for _name in [n for n in os.environ if n.startswith("DISCORD_") or n in BOT_SETTINGS]:
    del os.environ[_name]
os.environ[ENV_FILE_VARIABLE] = os.devnull


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line, not one per test, when the PostgreSQL runs were skipped."""
    skipped = terminalreporter.stats.get("skipped", [])
    if any(SKIP_REASON in str(getattr(report, "longrepr", "")) for report in skipped):
        terminalreporter.write_line(SKIP_REASON + ".", yellow=True)
