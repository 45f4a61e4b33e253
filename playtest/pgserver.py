"""A PostgreSQL server of the test's own, which the test may stop and start.

The machine's PostgreSQL serves every test; restarting it would break the others. A test
that restarts the database gets a private cluster instead: ``initdb`` in a temporary folder,
a free port on 127.0.0.1, trust authentication, run as the ``postgres`` user when the tests
run as root (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakediscord.patience import PROCESS_PATIENCE


def _binaries() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PrivatePostgres:
    """One cluster in ``folder``: :attr:`url`, :meth:`stop`, :meth:`start`."""

    def __init__(self, folder: Path) -> None:
        bin_dir = _binaries()
        if bin_dir is None:
            if os.environ.get("REQUIRE_POSTGRES") == "1":
                pytest.fail("PostgreSQL's initdb is needed to restart a database in a test")
            pytest.skip("PostgreSQL's initdb is not installed")
        self.bin = bin_dir
        self.folder = folder
        self.data = folder / "data"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as:
            shutil.chown(folder, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self._as, str(self.bin / tool), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            timeout=PROCESS_PATIENCE,
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A running private cluster, removed afterwards (in a folder of its own under the
    system's temporary folder: pytest's are private to root, and the server runs as
    ``postgres``)."""
    folder = Path(tempfile.mkdtemp(prefix="uno-pg-"))
    try:
        server = PrivatePostgres(folder)
        server.start()
        try:
            yield server
        finally:
            with contextlib.suppress(subprocess.SubprocessError):
                server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
