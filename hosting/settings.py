"""The bot's settings: environment variables over a ``.env`` file, checked at start.

The file is ``.env`` in the current folder (where the README's run command starts the bot),
another file given with ``--env-file`` or ``UNO_BOT_ENV_FILE``; variables set in the
environment always win over the file. The test suite points ``UNO_BOT_ENV_FILE`` at an empty
file so that it never reads a developer's ``.env``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

#: Names another settings file (``/dev/null`` reads none); ``--env-file`` overrides it.
ENV_FILE_VARIABLE = "UNO_BOT_ENV_FILE"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: Every variable the bot reads from its environment or settings file, in the order of
#: ``.env.example``; that file and the README's settings table list each one
#: (``tests/test_settings_files.py`` checks both, and that nothing else reads the environment).
SETTINGS: tuple[str, ...] = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "SQLITE_SYNCHRONOUS",
    "RECORD_RETENTION_DAYS",
    "DATABASE_URL",
    "DATABASE_POOL_SIZE",
    "DATABASE_TIMEOUT_SECONDS",
    "DATABASE_CONNECT_TIMEOUT_SECONDS",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "MONITOR_EVENT_LOOP",
    "COMPUTER_PAUSE_SECONDS",
    "HELD_SEAT_GRACE_SECONDS",
    "CATCH_GRACE_SECONDS",
    "SHARD_COUNT",
    "SHARD_IDS",
)


#: Conventions of the terminal the bot may write to, not settings of the bot (no line in
#: ``.env.example``, never read from the settings file): whether its log may use colour
#: (``hosting.logs.wants_colour``).
TERMINAL_VARIABLES: tuple[str, ...] = ("NO_COLOR", "TERM")


def terminal() -> dict[str, str]:
    """The terminal's conventions, from the process environment only."""
    return {name: os.environ[name] for name in TERMINAL_VARIABLES if name in os.environ}


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one sentence for the admin."""


def read_environment(env_file: str | None = None) -> dict[str, str]:
    """The process environment over the settings file's values.

    ``env_file`` (from ``--env-file``) must exist; otherwise ``UNO_BOT_ENV_FILE`` or ``.env``
    is read when it exists.
    """
    path = settings_file(env_file)
    if env_file is not None and not path.exists():
        raise SettingsError(f"The settings file {path} does not exist.")
    values: dict[str, str] = {}
    if path.exists():
        try:
            values = {k: v for k, v in dotenv_values(path).items() if v is not None}
        except PermissionError as exc:
            raise SettingsError(
                f"Cannot read the settings file {path}: permission denied; run this as the "
                "bot's user, and let that user read the file (owner root, group of the bot's "
                "user, mode 640)."
            ) from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise SettingsError(f"Cannot read the settings file {path}: {exc}.") from exc
    return {**values, **os.environ}


def settings_file(env_file: str | None = None) -> Path:
    """The settings file :func:`read_environment` reads (when it exists), absolute."""
    name = env_file if env_file is not None else os.environ.get(ENV_FILE_VARIABLE, "").strip()
    return Path(name or ".env").expanduser().absolute()


@dataclass(frozen=True)
class Settings:
    """What the bot needs from its environment."""

    token: str = field(repr=False)  # never printed, never logged
    database_path: str = "uno.sqlite3"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    monitor_loop: bool = False  # MONITOR_EVENT_LOOP=1: log the longest event-loop stall
    computer_pause: float = 1.2  # COMPUTER_PAUSE_SECONDS: a computer player's thinking time
    held_seat_grace: float = 8.0  # HELD_SEAT_GRACE_SECONDS: a held seat waits for its person
    catch_grace: float = 2.5  # CATCH_GRACE_SECONDS: a person's time to call UNO (R-UNO-2)
    database_url: str | None = field(default=None, repr=False)  # may carry a password
    database_pool_size: int = 10  # DATABASE_POOL_SIZE: PostgreSQL connections per process
    database_timeout: float = 30.0  # DATABASE_TIMEOUT_SECONDS: one statement's limit
    database_connect_timeout: float = 3.0  # DATABASE_CONNECT_TIMEOUT_SECONDS: reaching it
    sqlite_synchronous: str = "FULL"  # SQLITE_SYNCHRONOUS: FULL or NORMAL (see the README)
    record_retention_days: int = 90  # RECORD_RETENTION_DAYS: finished tables' records (0: keep)
    shard_count: int | None = None  # SHARD_COUNT: None asks Discord for its recommendation
    shard_ids: tuple[int, ...] | None = None  # SHARD_IDS: this process's shards (None: all)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, need_token: bool = True) -> Settings:
        """Read the settings from ``env`` (default: the environment over ``.env``).

        ``need_token=False`` is for the commands that never talk to Discord (backup, restore).
        """
        if env is None:
            env = read_environment()
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token and need_token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's "
                "token from https://discord.com/developers/applications after DISCORD_TOKEN=."
            )
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError("DEV_GUILD_ID must be a server id (digits only), or empty.")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise SettingsError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL.")
        pause = _seconds(env, "COMPUTER_PAUSE_SECONDS", default=1.2, most=60)
        grace = _seconds(env, "HELD_SEAT_GRACE_SECONDS", default=8.0, most=300)
        catch_grace = _seconds(env, "CATCH_GRACE_SECONDS", default=2.5, most=30)
        url = env.get("DATABASE_URL", "").strip() or None
        if url is not None and not url.startswith(("postgresql://", "postgres://")):
            raise SettingsError(
                "DATABASE_URL must be a postgresql:// address, or empty to use the SQLite "
                "file DATABASE_PATH."
            )
        pool_size = _whole_number(env, "DATABASE_POOL_SIZE", default=10, least=1, most=100)
        timeout = _seconds(env, "DATABASE_TIMEOUT_SECONDS", default=30.0, most=600)
        connect_timeout = _seconds(env, "DATABASE_CONNECT_TIMEOUT_SECONDS", default=3.0, most=120)
        retention = _whole_number(env, "RECORD_RETENTION_DAYS", default=90, least=0, most=36500)
        synchronous = env.get("SQLITE_SYNCHRONOUS", "").strip().upper() or "FULL"
        if synchronous not in ("FULL", "NORMAL"):
            raise SettingsError(
                "SQLITE_SYNCHRONOUS must be FULL (every move synced to disk, the default) or "
                "NORMAL (faster; a power cut can lose the last moves)."
            )
        shard_count, shard_ids = _shards(env)
        return cls(
            sqlite_synchronous=synchronous,
            record_retention_days=retention,
            database_pool_size=pool_size,
            database_timeout=timeout,
            database_connect_timeout=connect_timeout,
            token=token,
            computer_pause=pause,
            held_seat_grace=grace,
            catch_grace=catch_grace,
            database_path=env.get("DATABASE_PATH", "").strip() or "uno.sqlite3",
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            monitor_loop=env.get("MONITOR_EVENT_LOOP", "").strip() in ("1", "true", "yes"),
            database_url=url,
            shard_count=shard_count,
            shard_ids=shard_ids,
        )

    @property
    def database(self) -> str:
        """Where the games are kept: DATABASE_URL (PostgreSQL) when set, else the SQLite
        file DATABASE_PATH."""
        return self.database_url or self.database_path


def _seconds(env: Mapping[str, str], name: str, *, default: float, most: float) -> float:
    """A number of seconds from 0 to ``most``; empty means ``default``."""
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= most:  # also refuses nan
        raise SettingsError(f"{name} must be a number of seconds from 0 to {most:g}.")
    return value


def _whole_number(env: Mapping[str, str], name: str, *, default: int, least: int, most: int) -> int:
    """A whole number from ``least`` to ``most``; empty means ``default``."""
    text = env.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not least <= int(text) <= most:
        raise SettingsError(f"{name} must be a whole number from {least} to {most}.")
    return int(text)


#: Discord's own ceiling is far lower for any one bot; this only refuses typing errors.
MAX_SHARDS = 65536


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` (how many shards the bot has in all) and ``SHARD_IDS`` (which of them
    this process runs: ``0-3``, ``0,2`` or ``0-1,4``); both empty: one process, every shard."""
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    count: int | None = None
    if count_text:
        if not _whole(count_text) or not 1 <= int(count_text) <= MAX_SHARDS:
            raise SettingsError(
                f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS} (the bot's shards "
                "in all), or empty to use the number Discord recommends."
            )
        count = int(count_text)
    if not ids_text:
        return count, None
    if count is None:
        raise SettingsError(
            "SHARD_IDS needs SHARD_COUNT: set SHARD_COUNT to the number of shards of all the "
            "processes together (SHARD_IDS=0-1 with SHARD_COUNT=4, say)."
        )
    ids: list[int] = []
    for part in ids_text.split(","):
        first, dash, last = part.strip().partition("-")
        first, last = first.strip(), last.strip() if dash else first.strip()
        if not (_whole(first) and _whole(last)) or int(first) > int(last):
            raise SettingsError(
                "SHARD_IDS must list shard numbers and ranges such as 0-3 or 0,2 "
                f"({part.strip()!r} is neither)."
            )
        if int(last) >= count:
            raise SettingsError(
                f"SHARD_IDS names shard {int(last)}, but with SHARD_COUNT={count} the shards "
                f"are 0 to {count - 1}."
            )
        ids.extend(range(int(first), int(last) + 1))
    if len(set(ids)) != len(ids):
        raise SettingsError("SHARD_IDS names a shard twice.")
    return count, tuple(sorted(ids))


def _whole(text: str) -> bool:
    """Only the digits 0-9 (``str.isdigit`` also takes ``²``, which ``int`` refuses)."""
    return text.isascii() and text.isdigit()
