"""The bot's log: discord.py's tracebacks of network trouble become one warning line."""

from __future__ import annotations

import io
import logging

import aiohttp

from hosting.logs import ExpectedTrouble, SafeFormatter, plain_formatter


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
