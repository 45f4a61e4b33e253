"""What a self-hoster installs: the declared floors, the lock file, the licence, the units.

CI installs ``constraints/floors.txt`` exactly and runs the whole suite on it, so each floor
in ``pyproject.toml`` is a version the tests passed with; these tests keep the three files
saying the same thing.
"""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from fakediscord.patience import PROCESS_PATIENCE
from hosting.cli import EXIT_SETTINGS

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
DEPLOY = ROOT / "deploy"


def declared() -> dict[str, Requirement]:
    """Every dependency pyproject.toml declares, runtime and dev."""
    project = PYPROJECT["project"]
    lines = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    return {canonicalize_name(r.name): r for r in map(Requirement, lines)}


def pins(path: Path) -> dict[str, Version]:
    """``name==version`` lines of a requirements-style file."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s\\;]+)", line)
        if match:
            found[canonicalize_name(match.group(1))] = Version(match.group(2))
    return found


def floor(requirement: Requirement) -> Version | None:
    lows = [Version(s.version) for s in requirement.specifier if s.operator == ">="]
    return max(lows) if lows else None


# -- floors -----------------------------------------------------------------------------------


def test_every_dependency_has_a_floor_and_ci_installs_exactly_it() -> None:
    floors = pins(ROOT / "constraints" / "floors.txt")
    dependencies = declared()
    assert set(floors) == set(dependencies)
    for name, requirement in dependencies.items():
        assert floor(requirement) == floors[name], name
        assert floors[name] in requirement.specifier, name


def test_the_floors_the_issue_found_broken_are_raised() -> None:
    """Issue 14: Pillow 10.3 crashed 77 render tests, pytest-asyncio 0.23 cannot collect
    under pytest 8, and the tests use View.walk_children from discord.py 2.6."""
    dependencies = declared()
    assert floor(dependencies["pillow"]) >= Version("11")  # type: ignore[operator]
    assert floor(dependencies["pytest-asyncio"]) >= Version("0.24")  # type: ignore[operator]
    assert floor(dependencies["discord-py"]) >= Version("2.6")  # type: ignore[operator]


def test_ci_runs_the_suite_on_the_floors_and_on_the_newest() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "-c constraints/floors.txt" in ci
    assert 'bash -c "$TEST_COMMAND"' in ci
    floors_at = ci.index("-c constraints/floors.txt")
    assert "pytest" in ci[floors_at:]


def test_python_311_or_newer_is_required_and_said() -> None:
    assert PYPROJECT["project"]["requires-python"] == ">=3.11"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Python 3.11 or newer" in readme


# -- the lock file ------------------------------------------------------------------------------


def test_the_lock_pins_every_runtime_dependency_within_its_range() -> None:
    locked = pins(ROOT / "requirements.lock")
    for requirement in map(Requirement, PYPROJECT["project"]["dependencies"]):
        name = canonicalize_name(requirement.name)
        assert name in locked, name
        assert locked[name] in requirement.specifier, f"{name}=={locked[name]}"


def test_every_locked_package_carries_hashes() -> None:
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    blocks = re.split(r"\n(?=[A-Za-z0-9_.\-]+==)", text.split("\n", 1)[1])
    pinned = [block for block in blocks if re.match(r"^[A-Za-z0-9_.\-]+==", block)]
    assert len(pinned) == len(pins(ROOT / "requirements.lock")) >= 6
    for block in pinned:
        assert "--hash=sha256:" in block, block.splitlines()[0]


# -- licence ------------------------------------------------------------------------------------


def test_the_licence_file_is_the_mit_licence_pyproject_names() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


# -- the systemd units --------------------------------------------------------------------------


def unit(name: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(DEPLOY / name, encoding="utf-8")
    return parser


def test_the_service_runs_the_bot_and_does_not_restart_on_a_bad_setting() -> None:
    service = unit("uno-bot.service")["Service"]
    assert service["ExecStart"].endswith(" run")
    assert service["ExecStart"].startswith("/opt/uno-bot/.venv/bin/uno-bot ")
    assert service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"] == str(EXIT_SETTINGS)
    assert service["KillSignal"] == "SIGTERM"
    assert service["StateDirectory"] == "uno-bot"
    assert " --env-file /etc/uno-bot/uno-bot.env " in service["ExecStart"]  # tests/test_deploy.py


def service_command_prefix() -> str:
    """The bot's program and settings file, as the service starts it."""
    return unit("uno-bot.service")["Service"]["ExecStart"].removesuffix(" run")


def test_the_backup_runs_nightly_with_the_backup_command() -> None:
    backup = unit("uno-bot-backup.service")["Service"]
    assert backup["ExecStart"].endswith(" backup --keep 14 /var/backups/uno-bot/")
    assert backup["ExecStart"].split(" backup ")[0] == service_command_prefix()
    timer = unit("uno-bot-backup.timer")["Timer"]
    assert timer["OnCalendar"] == "*-*-* 04:15:00"
    assert timer["Persistent"] == "true"


SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
needs_systemd = pytest.mark.skipif(
    SYSTEMD_ANALYZE is None,
    reason="systemd-analyze is not installed here (no systemd); the units are verified where it is",
)


def verify(units: list[Path]) -> subprocess.CompletedProcess[str]:
    assert SYSTEMD_ANALYZE is not None
    return subprocess.run(
        [SYSTEMD_ANALYZE, "verify", *map(str, units)],
        capture_output=True,
        text=True,
        timeout=PROCESS_PATIENCE,
        check=False,
    )


def installed_units(tmp_path: Path, *, text_change: tuple[str, str] | None = None) -> list[Path]:
    """The units as installed: the virtualenv path points at this test's uno-bot script."""
    script = Path(sys.executable).with_name("uno-bot")
    assert script.exists()
    copies = []
    for source in sorted(DEPLOY.glob("uno-bot*.*")):
        text = source.read_text(encoding="utf-8")
        text = text.replace("/opt/uno-bot/.venv/bin/uno-bot", str(script))
        if text_change is not None:
            text = text.replace(*text_change)
        copy = tmp_path / source.name
        copy.write_text(text, encoding="utf-8")
        copies.append(copy)
    return copies


@needs_systemd
def test_systemd_analyze_verifies_the_units(tmp_path: Path) -> None:
    units = installed_units(tmp_path)
    assert {u.name for u in units} == {
        "uno-bot.service",
        "uno-bot-backup.service",
        "uno-bot-backup.timer",
    }
    result = verify(units)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == ""


@needs_systemd
def test_systemd_analyze_would_catch_a_broken_unit(tmp_path: Path) -> None:
    units = installed_units(tmp_path, text_change=("Restart=on-failure", "Restart=sometimes"))
    result = verify(units)
    assert "restart specifier" in result.stderr
