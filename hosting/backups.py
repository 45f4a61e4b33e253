"""Where ``uno-bot backup PATH`` writes, and which old backups it removes.

PATH names a folder when it is one already, ends with ``/``, or has no extension
(``backups``, ``/var/backups/uno-bot``); the folder is created if needed and each backup gets
its own dated name, ``uno-YYYYMMDD-HHMMSS.sqlite3`` (UTC), so a nightly job keeps history.
After a backup into a folder, only the newest ``keep`` files of that exact pattern stay; any
other file in the folder is never touched. A PATH with an extension (``copy.sqlite3``) is one
file, replaced by each backup into it.

Problems with the destination are :class:`BackupError`: one sentence that names the folder
or file and the fix, never the database (the database's own problems are storage's).
"""

from __future__ import annotations

import getpass
import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

#: How many backups a folder keeps unless told (two weeks of nightly backups).
DEFAULT_KEEP = 14
#: The names this module gives, and the only files its retention may remove.
BACKUP_NAME = re.compile(r"^uno-(\d{8}-\d{6})(?:-(\d+))?\.sqlite3$")


class BackupError(Exception):
    """The backup's destination cannot be used; ``str(error)`` says what to do."""


@dataclass(frozen=True)
class Destination:
    """The file a backup goes to, and its folder when the admin named a folder."""

    file: Path
    folder: Path | None  # None: the admin named this file; no retention


def names_a_folder(path: str) -> bool:
    """Whether PATH means a folder: an existing one, a trailing ``/``, or no extension."""
    target = Path(path).expanduser()
    if target.is_dir() or path.endswith(("/", os.sep)):
        return True
    return not target.exists() and target.suffix == ""


def destination(path: str, now: datetime) -> Destination:
    """Where a backup taken at ``now`` (UTC) goes; creates a missing folder.

    A dated name already taken (two backups within a second) gets ``-2``, ``-3``, ...: a
    backup never replaces another one in a folder.
    """
    target = Path(path).expanduser().absolute()
    if not names_a_folder(path):
        if not target.parent.is_dir():
            raise BackupError(
                f"Cannot write the backup {target}: the folder {target.parent} does not "
                f"exist; create it (mkdir -p {target.parent}) or back up into a folder "
                f"(uno-bot backup {target.parent}/), which is created when needed."
            )
        _check_writable(target.parent)
        return Destination(target, None)
    if target.exists() and not target.is_dir():
        raise BackupError(
            f"Cannot back up into the folder {target}: a file of that name is in the way; "
            "move it away or name another folder."
        )
    try:
        target.mkdir(mode=0o700, parents=True, exist_ok=True)  # private, as its backups
    except OSError as exc:
        raise BackupError(
            f"Cannot create the backup folder {target} ({exc.strerror or exc}); create it "
            f"as a user who may (mkdir -p {target}), owned by the user running the backup."
        ) from exc
    _check_writable(target)
    stamp = now.strftime("%Y%m%d-%H%M%S")
    file = target / f"uno-{stamp}.sqlite3"
    number = 1
    while file.exists() or file.with_name(file.name + ".partial").exists():
        number += 1
        file = target / f"uno-{stamp}-{number}.sqlite3"
    return Destination(file, target)


def backups_in(folder: Path) -> list[Path]:
    """The backups this module wrote into ``folder``, oldest first."""

    def age(file: Path) -> tuple[str, int]:
        match = BACKUP_NAME.match(file.name)
        assert match is not None
        return match.group(1), int(match.group(2) or 1)

    found = [f for f in folder.iterdir() if BACKUP_NAME.match(f.name) and f.is_file()]
    return sorted(found, key=age)


def prune(folder: Path, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` backups in ``folder`` (0 keeps every one);
    the files removed, oldest first."""
    if keep == 0:
        return []
    old = backups_in(folder)[:-keep]
    for file in old:
        file.unlink(missing_ok=True)
    return old


def _check_writable(folder: Path) -> None:
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BackupError(
            f"Cannot write backups into {folder}: the user {_user()} may not "
            "write there; run the backup as the bot's user, or give that user write "
            f"permission on {folder}."
        )


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container, say)
        return f"with uid {os.getuid()}"
