"""The command line: ``uno-bot`` / ``python bot.py`` with run, check, backup, restore, invite,
sync and ``--help``; settings from the environment over ``.env``.

``run`` and ``sync`` talk to Discord: they are tested against the fake Discord in
``tests/e2e/test_safe_sync.py`` and ``tests/test_startup_failures.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

import bot
from fakediscord.patience import PROCESS_PATIENCE
from hosting import backups
from hosting.cli import EXIT_DATABASE, EXIT_FAILED, EXIT_OK, EXIT_SETTINGS, build_parser
from hosting.invite import application_id, invite_url, permissions, token_problem
from hosting.settings import ENV_FILE_VARIABLE, Settings, SettingsError, read_environment
from storage import GameRepository
from storage.maintenance import known_version
from tests.databases import drop_schema, fresh_schema, server_url, with_schema
from tests.sqlite_tools import opened

ROOT = Path(__file__).resolve().parent.parent
# A made-up token of the real shape: base64 of a bot id, a timestamp, a signature.
BOT_ID = 123456789012345678
# Made-up tokens in Discord's shape (never real ones), joined at run time so secret
# scanners do not take the source for a leaked token.
TOKEN = ".".join(("MTIzNDU2Nzg5MDEyMzQ1Njc4", "GhIjKl", "abcdefghijklmnopqrstuvwxyz0123456789AB"))
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
SETPRIV = shutil.which("setpriv")
COMMANDS = ("run", "check", "backup", "restore", "transfer", "invite", "sync")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder to start the bot in, with no settings file and no settings."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(ENV_FILE_VARIABLE, raising=False)
    return tmp_path


def run_cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = bot.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


async def filled_database(path: Path, rows: int = 3) -> GameRepository:
    repo = await GameRepository.open(str(path))
    for i in range(rows):
        await repo.set_meta(f"row {i}", "x" * 100)
    return repo


def meta_rows(path: Path) -> dict[str, str]:
    with opened(path) as db:
        return dict(db.execute("SELECT key, value FROM meta WHERE key LIKE 'row %'").fetchall())


# -- help -------------------------------------------------------------------------------------


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        bot.main(["--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: uno-bot")
    for command in COMMANDS:
        assert f"    {command} " in text
    assert "Exit codes" in text


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_its_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        bot.main([command, "--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith(f"usage: uno-bot {command}")
    assert len(text.splitlines()) >= 4  # a description, not just the usage line


def test_an_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        bot.main(["serve"])
    assert exited.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_the_parser_defaults_to_run() -> None:
    assert build_parser().parse_args([]).command is None  # main() runs "run" then


def test_bot_py_and_the_console_script_are_the_same_program(home: Path) -> None:
    script = Path(sys.executable).with_name("uno-bot")
    assert script.exists(), "pip install -e . installs the uno-bot console script"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env[ENV_FILE_VARIABLE] = os.devnull
    outputs = []
    for command in ([str(script)], [sys.executable, str(ROOT / "bot.py")]):
        result = subprocess.run(
            [*command, "invite", "--client-id", str(BOT_ID)],
            cwd=home,
            env=env,
            capture_output=True,
            text=True,
            timeout=PROCESS_PATIENCE,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    assert f"client_id={BOT_ID}" in outputs[0]


# -- settings from the environment and .env ---------------------------------------------------


def test_dot_env_in_the_current_folder_is_read(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / ".env").write_text("DISCORD_TOKEN=from-file\nDATABASE_PATH=file.sqlite3\n")
    monkeypatch.setenv("DATABASE_PATH", "environment.sqlite3")
    settings = Settings.from_env()
    assert settings.token == "from-file"
    assert settings.database_path == "environment.sqlite3"  # the environment wins


def test_an_env_file_can_be_named(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / ".env").write_text("DISCORD_TOKEN=from-dot-env\n")
    (home / "bot.env").write_text("DISCORD_TOKEN=from-bot-env\n")
    assert read_environment(str(home / "bot.env"))["DISCORD_TOKEN"] == "from-bot-env"
    monkeypatch.setenv(ENV_FILE_VARIABLE, str(home / "bot.env"))
    assert read_environment()["DISCORD_TOKEN"] == "from-bot-env"
    monkeypatch.setenv(ENV_FILE_VARIABLE, os.devnull)  # what the test suite does
    assert "DISCORD_TOKEN" not in read_environment()


def test_a_missing_env_file_is_one_sentence(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli("--env-file", "nowhere.env", "check", capsys=capsys)
    assert code == EXIT_SETTINGS
    assert err.strip().endswith("nowhere.env does not exist.")
    assert out == ""


GRACE_SETTINGS = [
    # variable, field, default, a good value, values refused (the clock gets the field)
    ("HELD_SEAT_GRACE_SECONDS", "held_seat_grace", 8.0, "2.5", ("-1", "301", "soon", "nan")),
    ("CATCH_GRACE_SECONDS", "catch_grace", 2.5, "0", ("-0.5", "31", "later", "nan")),
]


@pytest.mark.parametrize(
    ("variable", "name", "default", "good", "bad_values"),
    GRACE_SETTINGS,
    ids=["held-seat-grace", "R-UNO-2-catch-grace"],
)
def test_the_clock_graces_are_settings(
    variable: str, name: str, default: float, good: str, bad_values: tuple[str, ...]
) -> None:
    """How long a held seat waits for its person, and how long computer players give a
    person to call UNO (R-UNO-2): read, checked, passed on to the clock by cogs.uno."""
    assert getattr(Settings.from_env({"DISCORD_TOKEN": TOKEN}), name) == default
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, variable: good})
    assert getattr(settings, name) == float(good)
    for bad in bad_values:
        with pytest.raises(SettingsError, match=variable):
            Settings.from_env({"DISCORD_TOKEN": TOKEN, variable: bad})


def test_shards_are_settings_checked_at_start() -> None:
    """SHARD_COUNT and SHARD_IDS split the bot's shards between processes."""
    plain = Settings.from_env({"DISCORD_TOKEN": TOKEN})
    assert (plain.shard_count, plain.shard_ids) == (None, None)
    for ids, expected in (("0-3", (0, 1, 2, 3)), ("0,2", (0, 2)), (" 3 , 0-1 ", (0, 1, 3))):
        settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "4", "SHARD_IDS": ids})
        assert (settings.shard_count, settings.shard_ids) == (4, expected)
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "4"}).shard_ids is None
    bad = [
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "²"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0-2"}, "names shard 2, but with SHARD_COUNT=2"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "'3-1' is neither"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,,1"}, "'' is neither"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "all"}, "'all' is neither"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1,1"}, "names a shard twice"),
    ]
    for env, message in bad:
        with pytest.raises(SettingsError, match=re.escape(message)) as caught:
            Settings.from_env({"DISCORD_TOKEN": TOKEN, **env})
        assert "\n" not in str(caught.value)


def test_nonsense_shards_stop_the_bot_with_one_line(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "1-5")
    code, _, err = run_cli("run", capsys=capsys)
    assert code == EXIT_SETTINGS
    assert err.strip().splitlines() == [
        "SHARD_IDS names shard 5, but with SHARD_COUNT=2 the shards are 0 to 1."
    ]


def test_database_url_must_be_postgresql() -> None:
    with pytest.raises(SettingsError, match="postgresql://"):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "mysql://x"})
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql://u:pw@h/db"})
    assert "pw" not in repr(settings)
    assert settings.database == "postgresql://u:pw@h/db"  # DATABASE_URL wins over the file
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}).database == "uno.sqlite3"


def test_database_pool_and_timeouts_are_read_and_checked() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_POOL_SIZE": "4",
            "DATABASE_TIMEOUT_SECONDS": "12.5",
            "DATABASE_CONNECT_TIMEOUT_SECONDS": "2",
        }
    )
    assert settings.database_pool_size == 4
    assert settings.database_timeout == 12.5
    assert settings.database_connect_timeout == 2.0
    defaults = Settings.from_env({"DISCORD_TOKEN": TOKEN})
    assert (defaults.database_pool_size, defaults.database_timeout) == (10, 30.0)
    for bad in ("0", "101", "four", "2.5"):
        with pytest.raises(SettingsError, match="DATABASE_POOL_SIZE"):
            Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_POOL_SIZE": bad})
    with pytest.raises(SettingsError, match="DATABASE_TIMEOUT_SECONDS"):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_TIMEOUT_SECONDS": "-1"})


def test_sqlite_durability_is_full_unless_told() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}).sqlite_synchronous == "FULL"
    normal = Settings.from_env({"DISCORD_TOKEN": TOKEN, "SQLITE_SYNCHRONOUS": "normal"})
    assert normal.sqlite_synchronous == "NORMAL"
    with pytest.raises(SettingsError, match="SQLITE_SYNCHRONOUS"):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "SQLITE_SYNCHRONOUS": "OFF"})


def test_record_retention_is_read_and_checked() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}).record_retention_days == 90
    kept = Settings.from_env({"DISCORD_TOKEN": TOKEN, "RECORD_RETENTION_DAYS": "0"})
    assert kept.record_retention_days == 0  # keep finished tables for good
    for bad in ("-1", "ninety", "36501"):
        with pytest.raises(SettingsError, match="RECORD_RETENTION_DAYS"):
            Settings.from_env({"DISCORD_TOKEN": TOKEN, "RECORD_RETENTION_DAYS": bad})


def test_check_reads_a_postgresql_database_without_changing_it(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def prepared() -> str:
        schema = await fresh_schema(server_url())
        return with_schema(server_url(), schema)

    url = asyncio.run(prepared())
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", url)
    code, out, _ = run_cli("check", capsys=capsys)
    assert code == EXIT_OK, out
    assert f"schema 0 of {known_version()}" in out
    assert f"{known_version()} migrations to apply at start" in out

    async def opened_by_the_bot() -> None:
        repo = await GameRepository.open(url)
        await repo.close()

    asyncio.run(opened_by_the_bot())
    code, out, _ = run_cli("check", capsys=capsys)
    assert code == EXIT_OK, out
    assert f"schema {known_version()} of {known_version()}" in out
    asyncio.run(drop_schema(server_url(), url.rsplit("=", 1)[1]))


def test_run_on_an_unreachable_postgresql_fails_fast_in_one_line(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", "postgresql://uno:secret@127.0.0.1:9/uno")  # closed port
    code, out, err = run_cli("run", capsys=capsys)
    assert code == EXIT_DATABASE
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Cannot reach the PostgreSQL server at 127.0.0.1:9" in lines[0]
    assert "DATABASE_URL" in lines[0]
    assert "secret" not in err


# -- check --------------------------------------------------------------------------------------


def test_check_passes_on_a_good_setup_and_changes_nothing(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = home / "uno.sqlite3"
    asyncio.run(_close(filled_database(database)))
    before = hashlib.sha256(database.read_bytes()).hexdigest()
    (home / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n")
    code, out, err = run_cli("check", capsys=capsys)
    assert code == EXIT_OK, out + err
    lines = out.splitlines()
    assert [line.split(" ", 1)[0] for line in lines[:3]] == ["ok", "ok", "ok"]
    assert f"application {BOT_ID}" in out
    assert f"schema {known_version()} of {known_version()}" in out
    assert lines[-1].startswith("All good")
    assert TOKEN not in out + err
    assert hashlib.sha256(database.read_bytes()).hexdigest() == before


def test_check_names_the_settings_file_and_the_database_it_checked(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run as the service's user with the service's settings file, ``check`` says which
    files it read: the upgrade step checks the database the service will open."""
    service = home / "etc" / "uno-bot.env"
    service.parent.mkdir()
    database = home / "var" / "uno.sqlite3"
    database.parent.mkdir()
    asyncio.run(_close(filled_database(database)))
    service.write_text(f"DISCORD_TOKEN={TOKEN}\nDATABASE_PATH={database}\n")
    (home / ".env").write_text("DATABASE_PATH=uno.sqlite3\n")  # a developer's, elsewhere
    code, out, _ = run_cli("--env-file", str(service), "check", capsys=capsys)
    assert code == EXIT_OK, out
    lines = out.splitlines()
    assert lines[0].startswith(f"ok   settings: read from {service} and the environment;")
    assert lines[2].startswith(f"ok   database: {database} (DATABASE_PATH): schema ")
    assert "relative" not in out
    code, out, _ = run_cli("check", capsys=capsys)  # the folder's own .env
    assert f"settings: read from {home / '.env'}" in out
    assert f"database: {home / 'uno.sqlite3'} (DATABASE_PATH) will be created" in out
    assert (
        f"note database: DATABASE_PATH=uno.sqlite3 is relative, so it names a file in the "
        f"folder the bot starts in (here {home})"
    ) in out
    monkeypatch.setenv(ENV_FILE_VARIABLE, os.devnull)
    _, out, _ = run_cli("check", capsys=capsys)
    assert out.startswith(f"ok   settings: no settings file at {os.devnull} and the environment")


def test_check_counts_the_write_ahead_log_of_a_running_database(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """While the bot runs, its newest changes sit in ``uno.sqlite3-wal``; the size check
    reports is the database's, log included (a young database's file alone can be empty)."""
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    database = home / "uno.sqlite3"

    async def scenario() -> tuple[str, int, int]:
        repo = await filled_database(database, rows=20)  # the running bot
        try:
            main, log = database.stat().st_size, (home / "uno.sqlite3-wal").stat().st_size
            return run_cli("check", capsys=capsys)[1], main, log
        finally:
            await repo.close()

    out, main, log = asyncio.run(scenario())
    assert log > main  # what the size once left out
    line = next(line for line in out.splitlines() if " database: " in line)
    assert f", {(main + log) / 1e3:.0f} kB, not damaged" in line


def test_check_says_which_shards_this_process_runs(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    _, out, _ = run_cli("check", capsys=capsys)
    assert "every shard Discord recommends" in out.splitlines()[0]
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "0-1")
    code, out, _ = run_cli("check", capsys=capsys)
    assert code == EXIT_OK
    assert out.splitlines()[0].endswith(", shards 0,1 of 4")
    monkeypatch.setenv("SHARD_IDS", "4")
    code, out, _ = run_cli("check", capsys=capsys)
    assert code == EXIT_FAILED
    assert out.splitlines() == [
        "FAIL settings: SHARD_IDS names shard 4, but with SHARD_COUNT=4 the shards are 0 to 3."
    ]


def test_check_reports_a_database_it_would_create_without_creating_it(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    code, out, _ = run_cli("check", capsys=capsys)
    assert code == EXIT_OK
    assert "will be created at the first start" in out
    assert not (home / "uno.sqlite3").exists()


@pytest.mark.parametrize(
    ("token", "says"),
    [
        ("", "DISCORD_TOKEN is not set"),
        (f"Bot {TOKEN}", "without that word"),
        (f'"{TOKEN}"', "remove the quotes"),
        ("abc.def", "three parts"),
        ("bm90LWFuLWlk.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB", "bot's id"),
    ],
)
def test_check_explains_a_malformed_token(
    token: str,
    says: str,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", token)
    code, out, _ = run_cli("check", capsys=capsys)
    assert code == EXIT_FAILED
    token_line = next(line for line in out.splitlines() if " token: " in line)
    assert token_line.startswith("FAIL")
    assert says in token_line


def test_check_finds_damage_that_start_up_does_not_read(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = home / "uno.sqlite3"
    asyncio.run(_close(filled_database(database, rows=200)))
    with opened(database) as db:
        db.execute("PRAGMA journal_mode = DELETE")
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'meta'").fetchone()[0]
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(database.read_bytes())
    start = (root - 1) * page_size
    data[start : start + page_size] = b"\xff" * page_size
    database.write_bytes(bytes(data))
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    code, out, _ = run_cli("check", capsys=capsys)
    assert code == EXIT_FAILED
    line = next(line for line in out.splitlines() if " database: " in line)
    assert line.startswith("FAIL")
    assert "uno-bot restore" in line


# -- backup and restore -----------------------------------------------------------------------


async def _close(opening: object) -> None:
    repo = await opening  # type: ignore[misc]
    await repo.close()


def test_backup_copies_a_database_in_use(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The copy is consistent and whole while the bot keeps the database open (in WAL mode
    its last writes may still sit in the -wal file)."""

    async def scenario() -> tuple[int, str]:
        repo = await filled_database(home / "uno.sqlite3")
        try:
            code, out, _ = run_cli("backup", "copy.sqlite3", capsys=capsys)
            await repo.set_meta("row 9", "after the backup")  # the bot goes on writing
        finally:
            await repo.close()
        return code, out

    code, out = asyncio.run(scenario())
    assert code == EXIT_OK
    assert f"to {home / 'copy.sqlite3'}" in out
    assert meta_rows(home / "copy.sqlite3") == {f"row {i}": "x" * 100 for i in range(3)}
    with opened(home / "copy.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert not (home / "copy.sqlite3-wal").exists()
    assert not (home / "copy.sqlite3.partial").exists()


def test_backup_into_a_folder_gets_a_dated_name(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_close(filled_database(home / "uno.sqlite3")))
    (home / "backups").mkdir()
    code, _, _ = run_cli("backup", "backups", capsys=capsys)
    assert code == EXIT_OK
    made = list((home / "backups").iterdir())
    assert len(made) == 1
    assert backups.BACKUP_NAME.match(made[0].name)
    assert meta_rows(made[0]) == meta_rows(home / "uno.sqlite3")


@pytest.mark.parametrize("path", ["backups/", "backups", "nightly/uno-bot"])
def test_backups_into_a_missing_folder_keep_history(
    path: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's nightly line, run twice: the folder is made, and the second backup is a
    second file (they once overwrote a file named like the folder)."""
    database = home / "uno.sqlite3"
    asyncio.run(_close(filled_database(database)))
    folder = home / path.rstrip("/")
    outputs = []
    for _ in range(2):
        code, out, err = run_cli("backup", path, capsys=capsys)
        assert code == EXIT_OK, err
        outputs.append(out)
    assert folder.is_dir()
    made = backups.backups_in(folder)
    assert len(made) == 2
    for file in made:
        assert meta_rows(file) == meta_rows(database)
    assert f"{folder} holds 1 backup." in outputs[0]
    assert f"{folder} holds 2 backups." in outputs[1]


def test_a_folder_keeps_the_newest_backups_and_nothing_else_is_touched(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_close(filled_database(home / "uno.sqlite3")))
    folder = home / "backups"
    folder.mkdir()
    older = [f"uno-2024010{day}-041500.sqlite3" for day in range(1, 6)]
    others = ["notes.txt", "uno-before-upgrade.sqlite3", "uno-20240101-041500.sqlite3.partial"]
    for name in [*older, *others]:
        (folder / name).write_bytes(b"old")
    code, out, _ = run_cli("backup", "--keep", "3", "backups", capsys=capsys)
    assert code == EXIT_OK
    left = sorted(p.name for p in folder.iterdir())
    new = [name for name in left if name not in older + others]
    assert len(new) == 1
    assert sorted(left) == sorted([*older[-2:], *new, *others])
    assert "the oldest 3 removed (--keep 3)" in out
    assert run_cli("backup", "--keep", "0", "backups", capsys=capsys)[0] == EXIT_OK
    assert len(backups.backups_in(folder)) == 4  # 0 keeps every one


def test_the_default_keeps_two_weeks_of_nightly_backups(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_close(filled_database(home / "uno.sqlite3")))
    folder = home / "backups"
    folder.mkdir()
    for day in range(1, 21):
        (folder / f"uno-202401{day:02}-041500.sqlite3").write_bytes(b"old")
    assert run_cli("backup", "backups", capsys=capsys)[0] == EXIT_OK
    kept = [p.name for p in backups.backups_in(folder)]
    assert len(kept) == backups.DEFAULT_KEEP == 14
    assert kept[0] == "uno-20240108-041500.sqlite3"


def test_two_backups_in_one_second_get_two_names(tmp_path: Path) -> None:
    now = datetime(2026, 11, 27, 4, 15, 0, tzinfo=UTC)
    first = backups.destination(str(tmp_path), now).file
    assert first.name == "uno-20261127-041500.sqlite3"
    first.write_bytes(b"taken")
    second = backups.destination(str(tmp_path), now).file
    assert second.name == "uno-20261127-041500-2.sqlite3"
    second.write_bytes(b"taken")
    third = backups.destination(str(tmp_path), now).file
    (tmp_path / "uno-20261127-041501.sqlite3").write_bytes(b"a second later")
    third.write_bytes(b"taken")
    assert [p.name for p in backups.backups_in(tmp_path)] == [
        "uno-20261127-041500.sqlite3",
        "uno-20261127-041500-2.sqlite3",
        "uno-20261127-041500-3.sqlite3",
        "uno-20261127-041501.sqlite3",
    ]


def test_a_backup_to_a_file_replaces_that_file(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_close(filled_database(home / "uno.sqlite3")))
    for _ in range(2):
        code, out, _ = run_cli("backup", "copy.sqlite3", capsys=capsys)
        assert code == EXIT_OK
        assert "holds" not in out  # a file has no history to report
    assert [p.name for p in home.iterdir() if p.name.startswith("copy")] == ["copy.sqlite3"]
    code, out, err = run_cli("backup", "--keep", "3", "copy.sqlite3", capsys=capsys)
    assert code == EXIT_SETTINGS
    assert "--keep counts the backups in a folder" in err


@pytest.mark.parametrize("where", ["missing folder", "file in the way"])
def test_a_backup_destination_problem_names_the_destination(
    where: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not the database, not DATABASE_PATH: the folder or file the admin named."""
    asyncio.run(_close(filled_database(home / "uno.sqlite3")))
    if where == "missing folder":
        path, says = "nowhere/copy.sqlite3", f"the folder {home / 'nowhere'} does not exist"
    else:
        (home / "backups").write_text("a file, not a folder")
        path, says = "backups/", "a file of that name is in the way"
    code, out, err = run_cli("backup", path, capsys=capsys)
    assert code == EXIT_FAILED
    assert out == ""
    assert err.count("\n") == 1
    assert says in err
    assert "DATABASE_PATH" not in err
    assert "database" not in err


@pytest.mark.skipif(IS_ROOT and SETPRIV is None, reason="root needs setpriv to drop DAC caps")
def test_a_backup_folder_the_user_cannot_write_is_named(home: Path) -> None:
    asyncio.run(_close(filled_database(home / "uno.sqlite3")))
    folder = home / "backups"
    folder.mkdir(mode=0o555)
    try:
        result = _as_plain_user(["backup", "backups/"], cwd=home)
    finally:
        folder.chmod(0o755)
    assert result.returncode == EXIT_FAILED, result.stderr
    assert f"Cannot write backups into {folder}" in result.stderr
    assert "run the backup as the bot's user" in result.stderr
    assert list(folder.iterdir()) == []


def _as_plain_user(args: list[str], *, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``bot.py ARGS`` as a process that file permissions apply to (root without the
    capabilities that override them)."""
    command = [sys.executable, str(ROOT / "bot.py"), *args]
    if IS_ROOT:
        assert SETPRIV is not None
        command = [SETPRIV, "--bounding-set=-dac_override,-dac_read_search", *command]
    env = {**os.environ, ENV_FILE_VARIABLE: os.devnull}
    return subprocess.run(
        command,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=PROCESS_PATIENCE,
        check=False,
    )


def test_backup_without_a_database_is_one_sentence(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in ("copy.sqlite3", "backups/"):
        code, out, err = run_cli("backup", path, capsys=capsys)
        assert code == EXIT_DATABASE
        assert out == ""
        assert f"no database at {home / 'uno.sqlite3'}" in err
        assert len(err.strip().splitlines()) == 1
    assert list(home.iterdir()) == []  # no copy, and no folder made for one


def test_backup_of_postgresql_names_the_pg_dump_command(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://uno:secret@localhost/uno")
    code, out, err = run_cli("backup", "/var/backups/uno.dump", capsys=capsys)
    assert code == EXIT_FAILED  # nothing was backed up: a scheduled job must notice
    command = '(umask 077 && pg_dump --format=custom --file=/var/backups/uno.dump "$DATABASE_URL")'
    assert command in err  # a private dump, as uno-bot's own backups
    assert "secret" not in out + err
    code, _, err = run_cli("backup", "/var/backups/uno-bot/", capsys=capsys)
    assert code == EXIT_FAILED
    dated = '--file="/var/backups/uno-bot/uno-$(date -u +%Y%m%d-%H%M%S).dump"'
    assert dated in err  # a folder gets dated files, as on SQLite
    assert not Path("/var/backups/uno-bot").exists()


def test_restore_brings_back_a_backup_and_keeps_what_it_replaced(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = home / "uno.sqlite3"
    asyncio.run(_close(filled_database(database)))
    assert run_cli("backup", "saved.sqlite3", capsys=capsys)[0] == EXIT_OK

    async def change() -> None:
        repo = await GameRepository.open(str(database))
        await repo.set_meta("row 0", "changed after the backup")
        await repo.close()

    asyncio.run(change())
    changed = meta_rows(database)
    code, out, err = run_cli("restore", "saved.sqlite3", capsys=capsys)
    assert code == EXIT_OK, err
    assert meta_rows(database) == meta_rows(home / "saved.sqlite3")
    kept = [p for p in home.iterdir() if ".before-restore-" in p.name]
    assert len(kept) == 1
    assert meta_rows(kept[0]) == changed
    assert str(kept[0]) in out

    async def reopen() -> int:  # the bot starts on the restored database
        repo = await GameRepository.open(str(database))
        version = await repo.schema_version()
        await repo.close()
        return version

    assert asyncio.run(reopen()) == known_version()


@pytest.fixture
def cron_umask() -> Iterator[None]:
    """The umask cron and most shells give (022: new files readable by every user)."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("cron_umask")
def test_every_backup_is_private_whoever_runs_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mode 0600 under a umask of 022, into a folder (created 0700), onto a named file, and
    over an older copy readable by everyone: only the bot's user may read players' data."""
    asyncio.run(_close(filled_database(home / "uno.sqlite3")))
    assert run_cli("backup", "backups/", capsys=capsys)[0] == EXIT_OK
    (dated,) = backups.backups_in(home / "backups")
    assert mode(dated) == 0o600
    assert mode(home / "backups") == 0o700
    (home / "copy.sqlite3").write_bytes(b"")
    (home / "copy.sqlite3").chmod(0o644)
    assert run_cli("backup", "copy.sqlite3", capsys=capsys)[0] == EXIT_OK
    assert mode(home / "copy.sqlite3") == 0o600
    assert meta_rows(home / "copy.sqlite3") == meta_rows(home / "uno.sqlite3")
    left = sorted(p.name for p in home.iterdir())
    assert left == ["backups", "copy.sqlite3", "uno.sqlite3"]  # no journal or partial left


@pytest.mark.usefixtures("cron_umask")
def test_a_restore_into_a_new_file_leaves_only_that_file_and_it_is_private(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's restore drill restores into a file that does not exist yet: nothing is
    kept "before the restore" (there was nothing), and the new database is private."""
    asyncio.run(_close(filled_database(home / "uno.sqlite3")))
    assert run_cli("backup", "saved.sqlite3", capsys=capsys)[0] == EXIT_OK
    before = sorted(p.name for p in home.iterdir())
    os.environ["DATABASE_PATH"] = str(home / "drill.sqlite3")
    try:
        code, out, err = run_cli("restore", "saved.sqlite3", capsys=capsys)
    finally:
        del os.environ["DATABASE_PATH"]
    assert code == EXIT_OK, err
    assert "kept" not in out
    assert sorted(p.name for p in home.iterdir()) == sorted([*before, "drill.sqlite3"])
    assert mode(home / "drill.sqlite3") == 0o600
    assert meta_rows(home / "drill.sqlite3") == meta_rows(home / "saved.sqlite3")


@pytest.mark.usefixtures("cron_umask")
def test_the_database_a_restore_replaces_is_kept_privately(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_close(filled_database(home / "uno.sqlite3")))
    assert run_cli("backup", "saved.sqlite3", capsys=capsys)[0] == EXIT_OK
    code, _, err = run_cli("restore", "saved.sqlite3", capsys=capsys)
    assert code == EXIT_OK, err
    (kept,) = [p for p in home.iterdir() if ".before-restore-" in p.name]
    assert mode(kept) == 0o600


def test_restore_refuses_while_the_bot_has_the_database_open(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = home / "uno.sqlite3"
    asyncio.run(_close(filled_database(database)))
    assert run_cli("backup", "saved.sqlite3", capsys=capsys)[0] == EXIT_OK
    env = {**os.environ, ENV_FILE_VARIABLE: os.devnull, "DATABASE_PATH": str(database)}

    async def scenario() -> subprocess.CompletedProcess[str]:
        repo = await GameRepository.open(str(database))  # the running bot, as it leaves it
        try:
            await repo.set_meta("row 0", "live")
            return await asyncio.to_thread(
                subprocess.run,
                [sys.executable, str(ROOT / "bot.py"), "restore", "saved.sqlite3"],
                cwd=home,
                env=env,
                capture_output=True,
                text=True,
                timeout=PROCESS_PATIENCE,
                check=False,
            )
        finally:
            await repo.close()

    result = asyncio.run(scenario())
    assert result.returncode == EXIT_DATABASE
    assert "stop the bot, then restore" in result.stderr
    assert meta_rows(database)["row 0"] == "live"
    assert not [p for p in home.iterdir() if ".before-restore-" in p.name]


@pytest.mark.parametrize("kind", ["garbage", "other program", "newer"])
def test_restore_refuses_what_is_not_a_backup_of_this_bot(
    kind: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = home / "uno.sqlite3"
    asyncio.run(_close(filled_database(database)))
    before = meta_rows(database)
    candidate = home / "candidate.sqlite3"
    if kind == "garbage":
        candidate.write_bytes(b"\x00not sqlite" * 500)
    elif kind == "other program":
        with opened(candidate) as db:
            db.execute("CREATE TABLE notes (text TEXT)")
    else:
        shutil.copy(database, candidate)
        with opened(candidate) as db:
            db.execute("INSERT INTO schema_migrations VALUES (999, 'future')")
    code, _, err = run_cli("restore", str(candidate), capsys=capsys)
    assert code == EXIT_DATABASE
    assert len(err.strip().splitlines()) == 1
    assert str(candidate) in err
    assert "restore a backup" not in err  # it is the backup that is wrong
    assert meta_rows(database) == before


# -- invite -----------------------------------------------------------------------------------


# Discord's documented permission bits (https://discord.com/developers/docs/topics/permissions).
VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 10, 1 << 11, 1 << 14, 1 << 15
SEND_MESSAGES_IN_THREADS = 1 << 38


def test_the_permission_integer_is_exactly_what_the_bot_uses() -> None:
    expected = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | SEND_MESSAGES_IN_THREADS
    assert permissions().value == expected == 274877959168
    assert not permissions().administrator
    assert not permissions().manage_messages


def test_invite_prints_the_link_and_the_permissions(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    code, out, _ = run_cli("invite", capsys=capsys)
    assert code == EXIT_OK
    url = invite_url(BOT_ID)
    assert url in out.splitlines()
    assert url.startswith("https://discord.com/oauth2/authorize?")
    assert "scope=bot+applications.commands" in url
    assert f"permissions={permissions().value}" in url
    for label in ("View Channel", "Send Messages", "Send Messages in Threads", "Embed Links"):
        assert f"  {label}: " in out
    assert TOKEN not in out


def test_invite_takes_a_client_id_and_needs_one(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli("invite", "--client-id", "42424242424242424", capsys=capsys)
    assert code == EXIT_OK
    assert "client_id=42424242424242424" in out
    code, out, err = run_cli("invite", capsys=capsys)
    assert code == EXIT_SETTINGS
    assert err.startswith("DISCORD_TOKEN is not set")
    assert "set DISCORD_TOKEN in .env, or pass --client-id" in err
    assert out == ""
    monkeypatch.setenv("DISCORD_TOKEN", "client-secret-pasted-by-mistake")
    code, _, err = run_cli("invite", capsys=capsys)
    assert code == EXIT_SETTINGS
    assert err.startswith("DISCORD_TOKEN does not look like a bot token")
    assert "pass --client-id" in err


def test_the_application_id_comes_from_the_token() -> None:
    assert application_id(TOKEN) == BOT_ID
    assert application_id("fake.abc") is None
    assert application_id("!!!.x.y") is None
    assert token_problem(TOKEN) is None


def test_the_database_password_never_reaches_the_logs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = "postgresql://uno:pw-sentinel-42@db.example:5432/uno"
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})

    async def work(cleanup: contextlib.AsyncExitStack) -> None:
        logging.getLogger("uno").warning("connecting to %s", url)

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    root.handlers[:] = []  # earlier tests' handlers write to streams closed since
    try:
        assert bot._until_done(settings, work, again="try again") == EXIT_OK
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    err = capsys.readouterr().err
    assert "connecting to postgresql://uno:" in err
    assert "pw-sentinel-42" not in err
