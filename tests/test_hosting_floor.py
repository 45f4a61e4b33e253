"""hosting/ is a floor of its own, under bot.py: settings, the command line, logs, invite.

It may use storage (backups, checks) and discord (logging, the invite's permissions), never
the table layer or the cogs; nothing below bot.py may use it.
"""

from __future__ import annotations

import sys

from tests.test_architecture import imported_modules

OWN = {"engine", "players", "storage", "renders", "tables", "cogs", "hosting", "bot", "tests"}


def test_hosting_imports_only_storage_discord_and_dotenv() -> None:
    allowed = {"hosting", "storage", "discord", "dotenv"}
    for path, names in imported_modules("hosting").items():
        outside = {n for n in names if n not in sys.stdlib_module_names} - allowed
        assert outside == set(), path


def test_nothing_below_bot_py_imports_hosting_or_bot() -> None:
    for package in ("engine", "players", "storage", "renders", "tables", "cogs"):
        for path, names in imported_modules(package).items():
            assert not names & {"hosting", "bot"}, path


def test_the_check_sees_a_forbidden_import() -> None:
    from tests.test_architecture import top_level_imports

    names = top_level_imports("from cogs.uno import setup\nimport hosting.cli\n")
    assert names & OWN == {"cogs", "hosting"}
