"""The command line: ``uno-bot [--env-file PATH] [COMMAND]`` (``python bot.py`` is the same).

``run`` (the default) and ``sync`` need the bot, which ``bot.py`` passes in; ``check``,
``backup``, ``restore``, ``transfer`` and ``invite`` live here and never connect to Discord.

Exit codes: 0 done; 1 the command failed (``check`` found a problem, an extension did not
load); 2 a setting is missing or wrong (a service manager should not restart); 3 the
database cannot be used.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from storage import DatabaseUnavailableError, maintenance
from storage import transfer as moving
from storage.postgres import shown_url

from . import backups
from .invite import NEEDED, application_id, invite_url, permissions, token_problem
from .settings import (
    ENV_FILE_VARIABLE,
    Settings,
    SettingsError,
    read_environment,
    settings_file,
)

EXIT_OK, EXIT_FAILED, EXIT_SETTINGS, EXIT_DATABASE = 0, 1, 2, 3


@dataclass(frozen=True)
class Runners:
    """The commands that need the bot itself, supplied by ``bot.py``."""

    run: Callable[[Settings], int]
    sync: Callable[[Settings, Sequence[int]], int]


#: Every command: its line in ``uno-bot --help``, and its ``uno-bot COMMAND --help`` text.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": (
        "connect to Discord and play (the default)",
        "Connect to Discord and serve /uno until Ctrl-C or SIGTERM. Slash commands are "
        "registered when they changed.",
    ),
    "check": (
        "check the settings, the database and the token's format (no network)",
        "Check, without connecting to Discord and without changing anything, that the bot "
        "could start: the settings, the token's format, and that the database can be opened, "
        "migrated and written and is not damaged. Exit code 0 when all is well.",
    ),
    "backup": (
        "copy the database into a folder that keeps history, safely while the bot runs",
        "Copy the database with SQLite's online backup API: a consistent copy taken while "
        "the bot keeps running, checked, then moved into place, readable by its owner only. "
        "Into a folder, each backup gets its own dated name and the oldest beyond --keep are "
        "removed.",
    ),
    "restore": (
        "replace the database with a backup (stop the bot first)",
        "Replace the database with the backup at PATH. Refuses while the bot (or anything "
        "else) has the database open; keeps the replaced database beside it.",
    ),
    "transfer": (
        "copy an SQLite database into PostgreSQL (stop the bot first)",
        "Copy everything the bot keeps (tables, results, ratings and boards, settings, "
        "seasons, tournaments) from the SQLite file into an empty PostgreSQL database, in one "
        "transaction: all or nothing. The SQLite file is brought up to this version's schema "
        "first, as the bot does at start, and otherwise left as it was. Then set DATABASE_URL "
        "and start the bot.",
    ),
    "invite": (
        "print the link that adds the bot to a server, with its permissions",
        "Print the invite link with the exact permissions the bot uses. The application id "
        "is read from DISCORD_TOKEN unless --client-id is given.",
    ),
    "sync": (
        "register the slash commands with Discord now",
        "Register the slash commands now, even if they look unchanged: in DEV_GUILD_ID's "
        "server when it is set, otherwise globally. Without DEV_GUILD_ID it also removes the "
        "copies registered earlier in a development server, so /uno is not listed twice "
        "there.",
    ),
}
EPILOG = (
    "Settings come from environment variables over a .env file in the current folder (or the "
    f"file named by --env-file or {ENV_FILE_VARIABLE}); see .env.example. Exit codes: 0 "
    "done, 1 failed, 2 a setting is wrong, 3 the database cannot be used."
)


def build_parser() -> argparse.ArgumentParser:
    """The parser, with a ``--help`` for the program and for each command (:data:`COMMANDS`)."""
    parser = argparse.ArgumentParser(
        prog="uno-bot",
        description="UNO for Discord: run the bot, and look after it.",
        epilog=EPILOG,
    )
    parser.add_argument(
        "--env-file",
        metavar="PATH",
        help="read settings from PATH instead of ./.env (environment variables still win)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    command = {
        name: subparsers.add_parser(name, help=line, description=text)
        for name, (line, text) in COMMANDS.items()
    }
    command["backup"].add_argument(
        "path",
        metavar="PATH",
        help="a folder (an existing one, one ending with /, or a name without extension, "
        "created when needed) for dated files uno-YYYYMMDD-HHMMSS.sqlite3 (UTC); or a file "
        "name with an extension, replaced by each backup",
    )
    command["backup"].add_argument(
        "--keep",
        type=_count,
        metavar="N",
        help=f"into a folder: keep the newest N backups, remove older ones (default "
        f"{backups.DEFAULT_KEEP}; 0 keeps every one)",
    )
    command["restore"].add_argument("path", metavar="PATH", help="the backup file to restore")
    command["transfer"].add_argument(
        "--from",
        dest="source",
        metavar="PATH",
        help="the SQLite file to copy (default: DATABASE_PATH)",
    )
    command["transfer"].add_argument(
        "--to",
        dest="target",
        metavar="URL",
        help="the empty PostgreSQL database, postgresql://... (default: DATABASE_URL)",
    )
    command["invite"].add_argument(
        "--client-id",
        type=int,
        metavar="ID",
        help="the application id (Developer Portal, General Information)",
    )
    command["sync"].add_argument(
        "--clear-guild",
        type=int,
        action="append",
        default=[],
        metavar="GUILD_ID",
        help="also remove the server-only copy of the commands from this server (repeatable)",
    )
    return parser


def main(argv: Sequence[str] | None, runners: Runners) -> int:
    """Parse ``argv`` (default: ``sys.argv[1:]``) and run the command; the exit code."""
    args = build_parser().parse_args(argv)
    command = args.command or "run"
    try:
        env = read_environment(args.env_file)
        if command == "check":
            return check(env, args.env_file)
        if command == "invite":
            return invite(env, args.client_id)
        if command == "backup":
            return backup(env, args.path, args.keep)
        if command == "restore":
            return restore(env, args.path)
        if command == "transfer":
            return transfer(env, args.source, args.target)
        settings = Settings.from_env(env)
        if command == "sync":
            return runners.sync(settings, tuple(args.clear_guild))
        return runners.run(settings)
    except SettingsError as exc:
        _err(str(exc))
        return EXIT_SETTINGS
    except DatabaseUnavailableError as exc:
        _err(str(exc))
        return EXIT_DATABASE
    except backups.BackupError as exc:
        _err(str(exc))
        return EXIT_FAILED


def _count(text: str) -> int:
    """A whole number of backups, 0 or more (argparse turns the error into a usage line)."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of backups")
    return int(text)


def _shards(settings: Settings) -> str:
    """Which shards this process runs, as ``check`` says it (SHARD_COUNT, SHARD_IDS)."""
    if settings.shard_count is None:
        return "every shard Discord recommends"
    if settings.shard_ids is None:
        return f"all {settings.shard_count} shards"
    return f"shards {','.join(map(str, settings.shard_ids))} of {settings.shard_count}"


def check(env: dict[str, str], env_file: str | None = None) -> int:
    """``uno-bot check``: one line per finding; exit code 1 if anything is wrong.

    It names the settings file and the database file it checked: run as the service's user
    with the service's settings file, it checks what the service will use.
    """
    failed = False

    def say(ok: bool, what: str, detail: str) -> None:
        nonlocal failed
        failed = failed or not ok
        _out(f"{'ok  ' if ok else 'FAIL'} {what}: {detail}")

    try:
        settings = Settings.from_env(env, need_token=False)
    except SettingsError as exc:
        say(False, "settings", str(exc))
        return EXIT_FAILED
    guild = settings.dev_guild_id
    file = settings_file(env_file)
    say(
        True,
        "settings",
        (f"read from {file}" if file.is_file() else f"no settings file at {file}")
        + f" and the environment; log level {settings.log_level}, "
        + (f"commands in server {guild} only" if guild else "commands registered globally")
        + f", {_shards(settings)}",
    )
    if not settings.token:
        try:
            Settings.from_env(env)
        except SettingsError as exc:
            say(False, "token", str(exc))
    else:
        problem = token_problem(settings.token)
        if problem is None:
            say(
                True,
                "token",
                f"looks like a bot token (application {application_id(settings.token)})",
            )
        else:
            say(False, "token", problem)
    try:
        if settings.database_url is not None:
            report = asyncio.run(
                maintenance.inspect_postgres(
                    settings.database_url, wait=settings.database_connect_timeout
                )
            )
        else:
            report = maintenance.inspect(settings.database_path)
    except (SettingsError, DatabaseUnavailableError) as exc:
        say(False, "database", str(exc))
    else:
        source = "DATABASE_URL" if settings.database_url is not None else "DATABASE_PATH"
        if not report.exists:
            say(True, "database", f"{report.path} ({source}) will be created at the first start")
        else:
            pending = f", {len(report.pending)} migrations to apply at start" * bool(report.pending)
            say(
                True,
                "database",
                f"{report.path} ({source}): schema {report.schema_version} of "
                f"{report.known_version}{pending}, {_megabytes(report.size_bytes)}, not "
                "damaged, writable",
            )
    relative = settings.database_path
    if settings.database_url is None and not Path(relative).expanduser().is_absolute():
        _out(
            f"note database: DATABASE_PATH={relative} is relative, so it names a file in the "
            f"folder the bot starts in (here {Path.cwd()}); a service's settings should give "
            "the absolute path."
        )
    _out("Some checks failed." if failed else "All good: start the bot with `uno-bot run`.")
    return EXIT_FAILED if failed else EXIT_OK


def backup(env: dict[str, str], path: str, keep: int | None = None) -> int:
    """``uno-bot backup PATH [--keep N]``."""
    settings = Settings.from_env(env, need_token=False)
    if settings.database_url is not None:
        file = _quote(path)
        if backups.names_a_folder(path):  # a dated name, as on SQLite (the shell fills it in)
            file = f'"{path.rstrip("/")}/uno-$(date -u +%Y%m%d-%H%M%S).dump"'
        _err(
            "DATABASE_URL names a PostgreSQL database: back it up with "
            f'(umask 077 && pg_dump --format=custom --file={file} "$DATABASE_URL") '
            "(umask 077: the dump, every player's data, readable by its owner only)"
        )
        return EXIT_FAILED
    if keep is not None and not backups.names_a_folder(path):
        raise SettingsError(
            f"--keep counts the backups in a folder, and {path} names a file: give a folder "
            f"(uno-bot backup --keep {keep} FOLDER/) or leave --keep out."
        )
    if not Path(settings.database_path).expanduser().is_file():
        # Before any folder is made for it: a backup of nothing leaves nothing behind.
        where = Path(settings.database_path).expanduser().absolute()
        raise DatabaseUnavailableError(
            str(where),
            f"There is no database at {where} to back up (the bot creates it at its first "
            "start); check DATABASE_PATH.",
        )
    target = backups.destination(path, datetime.now(UTC))
    done = maintenance.backup(settings.database_path, str(target.file))
    line = (
        f"Backed up {done.source} to {done.target} "
        f"(schema {done.schema_version}, {_megabytes(done.size_bytes)})"
    )
    if target.folder is not None:
        kept = backups.DEFAULT_KEEP if keep is None else keep
        removed = backups.prune(target.folder, kept)
        count = len(backups.backups_in(target.folder))
        line += f"; {target.folder} holds {count} backup{'s' * (count != 1)}"
        if removed:
            line += f", the oldest {len(removed)} removed (--keep {kept})"
    _out(line + ".")
    return EXIT_OK


def restore(env: dict[str, str], path: str) -> int:
    """``uno-bot restore PATH``."""
    settings = Settings.from_env(env, need_token=False)
    if settings.database_url is not None:
        _err(
            "DATABASE_URL names a PostgreSQL database: restore it with "
            f'pg_restore --clean --if-exists --dbname="$DATABASE_URL" {_quote(path)}'
        )
        return EXIT_FAILED
    done = maintenance.restore(path, settings.database_path)
    kept = f"; the database it replaced is kept at {done.previous}" if done.previous else ""
    _out(f"Restored {done.target} from {done.source} (schema {done.schema_version}){kept}.")
    if done.schema_version < maintenance.known_version():
        _out("The bot brings the restored database up to date when it starts.")
    return EXIT_OK


def transfer(env: dict[str, str], source: str | None, target: str | None) -> int:
    """``uno-bot transfer [--from PATH] [--to URL]``."""
    settings = Settings.from_env(env, need_token=False)
    source = source or settings.database_path
    target = target or settings.database_url
    if not target or not target.startswith(("postgresql://", "postgres://")):
        raise SettingsError(
            "Name the PostgreSQL database to copy into: uno-bot transfer --to "
            "postgresql://USER:PASSWORD@HOST:5432/DATABASE (or set DATABASE_URL)."
        )
    where = Path(source).expanduser().absolute()
    if not where.is_file():
        raise DatabaseUnavailableError(
            str(where), f"There is no SQLite database at {where} to transfer; check --from."
        )
    _out(f"Copying {where} into {shown_url(target)}:")
    done = asyncio.run(moving.transfer(str(where), target, say=lambda line: _out(f"  {line}")))
    total = sum(rows for _, rows in done.rows)
    _out(
        f"Copied {total} rows. Set DATABASE_URL to {done.target} (with its password) and "
        "start the bot; keep the SQLite file as a backup."
    )
    return EXIT_OK


def invite(env: dict[str, str], client_id: int | None) -> int:
    """``uno-bot invite [--client-id ID]``."""
    if client_id is None:
        token = Settings.from_env(env, need_token=False).token
        portal = "(Developer Portal, your application, General Information, Application ID)"
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set, and the link needs the application id it starts "
                f"with: set DISCORD_TOKEN in .env, or pass --client-id ID {portal}."
            )
        client_id = application_id(token)
        if client_id is None:
            problem = token_problem(token) or "DISCORD_TOKEN does not start with a bot's id."
            raise SettingsError(f"{problem} Or pass --client-id ID {portal}.")
    value = permissions().value
    _out("Open this link to add the bot to a server you manage:")
    _out(invite_url(client_id))
    _out("")
    _out(f"Scopes: bot, applications.commands. Permissions ({value}):")
    for _, label, reason in NEEDED:
        _out(f"  {label}: {reason}")
    return EXIT_OK


def _megabytes(size: int) -> str:
    """A file size as an admin reads it; small files in kB rather than "0.0 MB"."""
    return f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{size / 1e3:.0f} kB"


def _quote(path: str) -> str:
    return f"'{path}'" if any(c.isspace() for c in path) else path


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def _err(text: str) -> None:
    sys.stderr.write(text + "\n")
