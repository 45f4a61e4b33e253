"""The bot's log: discord.py's tracebacks of network trouble become one warning line, and
colour codes reach a terminal only."""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from hosting.logs import ExpectedTrouble, SafeFormatter, plain_formatter, wants_colour


def logged(name: str, exc: BaseException, message: str = "Attempting a reconnect in %.2fs") -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ExpectedTrouble())
    handler.setFormatter(SafeFormatter(plain_formatter()))
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            raise exc
        except BaseException:
            logger.exception(message, 1.5)
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    return stream.getvalue()


def test_a_refused_reconnect_is_one_warning_line() -> None:
    refused = aiohttp.ClientConnectorError(
        aiohttp.client_reqrep.ConnectionKey("127.0.0.1", 1, False, True, None, None, None),
        ConnectionRefusedError(111, "Connection refused"),
    )
    text = logged("discord.client", refused)
    assert "Traceback" not in text
    assert text.count("\n") == 1
    assert "[WARNING ]" in text
    assert "Attempting a reconnect in 1.50s (ClientConnectorError:" in text


def test_a_bug_keeps_its_traceback() -> None:
    text = logged("discord.client", KeyError("bug"))
    assert "Traceback" in text
    assert "[ERROR" in text
    ours = logged("cogs.uno._play", ConnectionResetError("reset"), "Unexpected %s")
    assert "Traceback" in ours  # only discord.py's own network lines are shortened


def unawaited_failure(exc: BaseException) -> str:
    """What asyncio's own handler logs for a future that failed with ``exc`` and that
    nobody awaited (asyncpg leaves such a future when the server ends a connection)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ExpectedTrouble())
    handler.setFormatter(SafeFormatter(plain_formatter()))
    logger = logging.getLogger("asyncio")
    logger.addHandler(handler)
    logger.propagate = False
    loop = asyncio.new_event_loop()
    try:
        future = loop.create_future()
        future.set_exception(exc)
        del future  # never retrieved: asyncio reports it when the future goes
        gc.collect()
    finally:
        loop.close()
        logger.removeHandler(handler)
        logger.propagate = True
    return stream.getvalue()


def test_a_connection_the_database_ended_is_one_warning_line() -> None:
    text = unawaited_failure(ConnectionError("unexpected connection_lost() call"))
    assert text.count("\n") == 1, text
    assert "[WARNING ] asyncio: Future exception was never retrieved (ConnectionError: " in text
    assert "unexpected connection_lost() call" in text


def test_a_bug_nobody_awaited_keeps_its_traceback() -> None:
    text = unawaited_failure(KeyError("bug"))
    assert "[ERROR" in text
    assert "KeyError" in text
    assert text.count("\n") > 1


# -- colour only for a person at a terminal ---------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
ESCAPE = "\x1b["
#: One INFO and one WARNING line through the bot's own logging set-up.
LOGS_TWO_LINES = (
    "import logging; from hosting.logs import setup_logging; setup_logging('INFO'); "
    "logging.getLogger('uno').info('Database closed'); "
    "logging.getLogger('uno').warning('Stopped; bye')"
)


def log_to(stderr: Any, env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "-c", LOGS_TWO_LINES],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        timeout=60,
        check=True,
    )


def through_a_terminal(env: dict[str, str]) -> str:
    """What the set-up writes to a pseudo-terminal."""
    leader, follower = pty.openpty()
    try:
        log_to(follower, env)
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the terminal has nothing more
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(leader)
    return b"".join(chunks).decode()


@pytest.mark.parametrize("where", ["file", "pipe"])
def test_a_log_in_a_file_or_a_pipe_is_plain_text(where: str, tmp_path: Path) -> None:
    """Even where discord.py believes it runs in a container (it then colours every
    stream): only a terminal gets colour."""
    if where == "file":
        path = tmp_path / "uno-bot.log"
        with path.open("w") as file:
            log_to(file, {})
        text = path.read_text()
    else:
        done = subprocess.run(
            [sys.executable, "-c", LOGS_TWO_LINES],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        text = done.stderr
    assert ESCAPE not in text
    lines = text.splitlines()
    assert len(lines) == 2
    assert lines[0].endswith("[INFO    ] uno: Database closed")
    assert lines[1].endswith("[WARNING ] uno: Stopped; bye")


def test_a_terminal_gets_colour_unless_no_color_is_set() -> None:
    coloured = through_a_terminal({"TERM": "xterm", "NO_COLOR": ""})
    assert ESCAPE in coloured
    assert "Database closed" in coloured
    for env in ({"TERM": "xterm", "NO_COLOR": "1"}, {"TERM": "dumb", "NO_COLOR": ""}):
        plain = through_a_terminal(env)
        assert ESCAPE not in plain
        assert "[INFO    ] uno: Database closed" in plain


class _Stream:
    def __init__(self, terminal: bool) -> None:
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


def test_colour_is_decided_by_the_stream_and_the_environment_alone() -> None:
    assert wants_colour(_Stream(True), {})
    assert not wants_colour(_Stream(False), {"DYNO": "web.1", "WT_SESSION": "1"})
    assert not wants_colour(_Stream(True), {"NO_COLOR": "1"})
    assert wants_colour(_Stream(True), {"NO_COLOR": ""})  # empty: not set (no-color.org)
    assert not wants_colour(_Stream(True), {"TERM": "dumb"})
    assert not wants_colour(object(), {})
