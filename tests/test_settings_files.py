"""The settings an admin reads about are the settings the code reads.

``hosting.settings.SETTINGS`` is the list; these tests hold it to what ``Settings.from_env``
actually reads, to ``.env.example`` (which an admin copies) and to the README's table, and
check that nothing else in the bot reads the environment behind the list's back. The
repository's ``.gitignore`` keeps what the bot writes beside itself (databases, backups,
restore leftovers: players' data) out of commits.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from hosting.settings import ENV_FILE_VARIABLE, SETTINGS, TERMINAL_VARIABLES, Settings

ROOT = Path(__file__).resolve().parent.parent
#: The packages and modules that make up the bot (tests, benchmarks and tools are not it).
BOT_CODE = ("engine", "players", "storage", "renders", "tables", "cogs", "hosting", "bot.py")


class Recording(dict[str, str]):
    """An environment that remembers every name looked up in it."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__(values)
        self.read: list[str] = []

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        self.read.append(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.read.append(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.read.append(key)
        return super().__contains__(key)


def test_the_list_is_exactly_what_the_settings_read() -> None:
    env = Recording({"DISCORD_TOKEN": "x.y.z", "SHARD_COUNT": "2", "SHARD_IDS": "0"})
    Settings.from_env(env)
    assert sorted(set(env.read)) == sorted(SETTINGS)
    assert len(set(SETTINGS)) == len(SETTINGS)


def _sources() -> Iterator[Path]:
    for name in BOT_CODE:
        path = ROOT / name
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def test_nothing_else_in_the_bot_reads_the_environment() -> None:
    """A setting read anywhere else would be missing from .env.example and the README."""
    readers = re.compile(r"\bos\.environ\b|\bgetenv\(|\benviron\.get\(|dotenv_values")
    found = {
        str(path.relative_to(ROOT))
        for path in _sources()
        if readers.search(path.read_text(encoding="utf-8"))
    }
    assert found == {"hosting/settings.py"}
    text = (ROOT / "hosting" / "settings.py").read_text(encoding="utf-8")
    # There, the process environment is read whole, and only ENV_FILE_VARIABLE by name: it
    # names the settings file, so it cannot be in it. The terminal's conventions (NO_COLOR,
    # TERM: may the log use colour?) are read by their own names, never from the file.
    assert re.findall(r"os\.environ\.get\((\w+)", text) == ["ENV_FILE_VARIABLE"]
    assert re.findall(r"os\.environ\[(\w+)\]", text) == ["name"]
    assert "for name in TERMINAL_VARIABLES if name in os.environ" in text
    assert not set(TERMINAL_VARIABLES) & set(SETTINGS)


def example_names() -> list[str]:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    return re.findall(r"^([A-Z_]+)=", text, flags=re.M)


def test_env_example_lists_every_setting_once_in_order() -> None:
    assert example_names() == list(SETTINGS)
    assert ENV_FILE_VARIABLE not in example_names()


def test_env_example_gives_only_defaults_that_the_code_accepts() -> None:
    """Copied as it is, with a token pasted in, the example is a valid settings file."""
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    values = dict(re.findall(r"^([A-Z_]+)=(.*)$", text, flags=re.M))
    assert all(value == "" for name, value in values.items() if name == "DISCORD_TOKEN")
    settings = Settings.from_env({**values, "DISCORD_TOKEN": "pasted.token.here"})
    assert settings.database_path == "uno.sqlite3"
    assert settings == Settings.from_env({"DISCORD_TOKEN": "pasted.token.here"})  # defaults


def readme_table_names() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n### Settings\n", 1)[1].split("\n#", 1)[0]
    return re.findall(r"^\| `([A-Z_]+)` \|", section, flags=re.M)


def test_the_readme_table_lists_every_setting_in_order() -> None:
    assert readme_table_names() == list(SETTINGS)


LEFT_BESIDE_THE_BOT = [
    "uno.sqlite3",
    "uno.sqlite3-wal",
    "uno.sqlite3-shm",
    "uno.sqlite3.before-restore-20261127-041500",
    "copy.sqlite3.partial",
    "backups/uno-20261127-041500.sqlite3",
    "backups/notes.txt",  # the README's cron line makes backups/ in the code folder
    ".env",
]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("name", LEFT_BESIDE_THE_BOT)
def test_gitignore_keeps_players_data_out_of_commits(name: str, tmp_path: Path) -> None:
    """Checked in a new repository with this .gitignore: whatever the developer's checkout
    holds, git itself must ignore these paths."""
    (tmp_path / ".gitignore").write_bytes((ROOT / ".gitignore").read_bytes())
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    result = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", name], cwd=tmp_path, check=False
    )
    assert result.returncode == 0, f"{name} is not ignored"
