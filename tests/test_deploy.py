"""The systemd units in deploy/: hardened, and in step with the README's steps.

``systemd-analyze security --offline=yes`` rates each service's exposure (0 best, 10 worst)
from the unit file alone, without a running systemd (systemd 250 or newer); CI sets
``REQUIRE_SYSTEMD_ANALYZE=1`` so that these tests fail there rather than skip.
``tests/test_packaging.py`` runs ``systemd-analyze verify`` on the same units.

The units cannot be started here, so what they may write is checked against the README: the
database folder it names is the units' state directory, the backup folder is the one the
backup unit may write, and the README's check runs as the units' user with their settings
file.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from fakediscord.patience import PROCESS_PATIENCE

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
SERVICES = ("uno-bot.service", "uno-bot-backup.service")
#: The issue's bar for `systemd-analyze security` (0 to 10, lower is safer).
MOST_EXPOSURE = 3.5
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(
    ANALYZE is None and os.environ.get("REQUIRE_SYSTEMD_ANALYZE") != "1",
    reason="systemd-analyze is not installed",
)


def unit(name: str) -> dict[str, list[str]]:
    """Each setting of a unit file and its values, in order (a setting may repeat)."""
    settings: dict[str, list[str]] = {}
    for line in (DEPLOY / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def one(name: str, key: str) -> str:
    values = unit(name)[key]
    assert len(values) == 1, f"{name}: {key} is set {len(values)} times"
    return values[0]


def analyze(*args: str) -> subprocess.CompletedProcess[str]:
    assert ANALYZE is not None, "systemd-analyze is required (REQUIRE_SYSTEMD_ANALYZE=1)"
    return subprocess.run(
        [ANALYZE, *args], capture_output=True, text=True, timeout=PROCESS_PATIENCE, check=False
    )


@needs_analyze
@pytest.mark.parametrize("name", SERVICES)
def test_the_services_are_hardened(name: str) -> None:
    result = analyze("security", "--offline=yes", "--no-pager", str(DEPLOY / name))
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d)", result.stdout)
    assert found is not None, result.stdout + result.stderr
    assert float(found.group(1)) <= MOST_EXPOSURE, result.stdout


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_services_read_their_settings_like_the_readme_check() -> None:
    """One settings file, read by the bot itself: no EnvironmentFile= whose values would
    silently override an Environment= line, and the README's check reads the same file as
    the same user."""
    for name in SERVICES:
        settings = unit(name)
        assert "EnvironmentFile" not in settings
        assert "Environment" not in settings
        command = shlex.split(one(name, "ExecStart"))
        assert command[0].startswith("/")
        assert command[1:3] == ["--env-file", "/etc/uno-bot/uno-bot.env"]
    service = shlex.split(one("uno-bot.service", "ExecStart"))
    assert service[3:] == ["run"]
    user = one("uno-bot.service", "User")
    check = shlex.join([*service[:3], "check"])
    assert f"runuser -u {user} -- {check}" in readme().split("### Upgrades", 1)[1]


def test_the_database_and_backup_folders_are_the_ones_the_units_may_write() -> None:
    """ProtectSystem=strict makes everything read-only but the state directory (and the
    backup unit's ReadWritePaths): the README's paths must be exactly those."""
    steps = readme().split("### On a Linux server with systemd", 1)[1]
    database = re.search(r"s\|\^DATABASE_PATH=\.\*\|DATABASE_PATH=(/\S+)\|", steps)
    assert database is not None
    for name in SERVICES:
        assert one(name, "ProtectSystem") == "strict"
        assert Path(database.group(1)).parent == Path("/var/lib") / one(name, "StateDirectory")
        assert one(name, "WorkingDirectory") == str(Path(database.group(1)).parent)
    backup = shlex.split(one("uno-bot-backup.service", "ExecStart"))
    assert backup[3] == "backup"
    folder = backup[-1].rstrip("/")
    assert one("uno-bot-backup.service", "ReadWritePaths") == folder
    assert f"install -d -o uno-bot -g uno-bot -m 750 /var/lib/uno-bot {folder}" in steps
    assert f"uno-bot backup --keep 14 {folder}/" in readme()


def test_the_readme_edit_of_the_settings_file_makes_the_path_absolute() -> None:
    """The install step's sed, applied to .env.example, gives the service an absolute
    DATABASE_PATH (a relative one named another file for a check run elsewhere)."""
    steps = readme().split("### On a Linux server with systemd", 1)[1]
    sed = re.search(r"sed -i '(s\|[^']+)' /etc/uno-bot/uno-bot.env", steps)
    assert sed is not None
    edited = subprocess.run(
        ["sed", sed.group(1)],
        input=(ROOT / ".env.example").read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    paths = re.findall(r"^DATABASE_PATH=(.*)$", edited, flags=re.M)
    assert paths == ["/var/lib/uno-bot/uno.sqlite3"]


@pytest.mark.parametrize("service", SERVICES)
def test_what_the_units_create_is_private(service: str) -> None:
    """The database, its journals and the backups hold every player's data: UMask=0077 makes
    what each unit creates its user's alone (``uno-bot backup`` also makes its files 0600
    itself, for a backup started by hand or by cron: tests/test_cli.py)."""
    assert one(service, "UMask") == "0077"
