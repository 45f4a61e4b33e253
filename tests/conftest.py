"""Every test runs as on a fresh clone, whatever the developer's machine holds.

The bot reads ``.env`` from the folder it starts in and takes settings from the environment.
A developer who followed the README has a filled ``.env`` (a real token) and may have
``DISCORD_TOKEN`` exported in their shell: the tests must see neither. Settings are removed
from this process's environment, and ``UNO_BOT_ENV_FILE`` points every bot started from here
(in this process or as a subprocess, which inherits the environment) at an empty file.
``tests/test_env_isolation.py`` runs tests beside a filled ``.env`` to prove it.

Four more things for every run: the ``e2e`` marker on the tests that start the real bot as
a process (they mostly wait on it, so CI gives them more workers than the cores), the
``stdlib_only`` marker on the tests of code no dependency reaches (CI's floors skip them), tests
marked ``long`` collected first, and Hypothesis profiles chosen with ``HYPOTHESIS_PROFILE``
(see :data:`PROFILES`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

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


#: Tests that start the real bot (or a whole test run) as a process and mostly wait on it:
#: the end-to-end tests, the fake Discord's own (with a sample bot), the start-up tests
#: that run the bot against a closed port, and the tests that run a test run.
E2E = (
    "tests/e2e/",
    "tests/fakediscord/test_fake_discord.py",
    "tests/test_startup_failures.py",
    "tests/test_env_isolation.py",
    "tests/test_postgres_runs.py",
)
#: Tests of ``engine/`` and ``players/``, code that imports only the standard library
#: (tests/test_architecture.py enforces it): no dependency's version can change what they
#: see, so the run on the lowest versions (.ci/run's floors) leaves them out.
STDLIB_ONLY = ("tests/engine/", "tests/players/")
ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        where = item.path.relative_to(ROOT).as_posix()
        if where.startswith(E2E):
            item.add_marker(pytest.mark.e2e)
        if where.startswith(STDLIB_ONLY):
            item.add_marker(pytest.mark.stdlib_only)
    # The tests that run for minutes go first: a worker steals only tests that have not
    # started, so a long test collected late becomes the run's tail (the soak test of
    # tests/e2e/test_faults.py alone was the last 3–4 minutes).
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


#: ``default``: what a developer runs. ``ci``: the same search, printing a failure's
#: reproduction blob and writing no example database into the clone. ``ci-floors``: the run on
#: the lowest dependency versions (.ci/run), whose job is to show those versions work: every
#: property still runs, on a quarter of the examples; the engine they exercise imports only
#: the standard library, so the main run's full search is not repeated there.
PROFILES = {
    "default": settings(),
    "ci": settings(database=None, print_blob=True),
    "ci-floors": settings(database=None, print_blob=True, max_examples=25),
}
for _profile, _settings in PROFILES.items():
    settings.register_profile(_profile, _settings)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep the test's own outcome on the item (``report_of_call``): the world fixture of
    playtest/harness.py prints the bot's output when the test failed."""
    outcome = yield
    if call.when == "call":
        item.report_of_call = outcome.get_result()  # type: ignore[attr-defined]
