"""The README's first lines are the two commands a new user needs; CI runs the test one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    head = text.split("---", 1)[0]  # the part before the first rule
    return re.findall(r"```\n(.+?)\n```", head, flags=re.S)


def test_readme_opens_with_exactly_two_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2
    assert commands[0].endswith("bot.py")
    assert "pytest" in commands[1]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    match = re.search(r"^TEST_COMMAND='(.+)'$", ci, flags=re.M)
    assert match is not None
    assert match.group(1) == readme_commands()[1]
    assert 'bash -c "$TEST_COMMAND"' in ci
