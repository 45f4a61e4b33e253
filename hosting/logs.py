"""Logging without secrets at any level, DEBUG included.

At DEBUG, libraries log what they carry: discord.py logs every gateway event and every HTTP
request and response with its body (interaction tokens sit in the webhook and callback URLs
and in each INTERACTION_CREATE; a hand message's text sits in its body), and aiosqlite logs
each statement with its parameters (a table's JSON snapshot: every hand and the draw pile).

:class:`SafeFormatter` formats each record from a copy whose payload arguments are replaced
by a short description (containers, request bodies, SQL parameters), then removes anything
shaped like a token from the finished text, tracebacks included. The bot's own log lines pass
through the same formatter.

:class:`ExpectedTrouble` keeps the log readable when Discord or the database cannot be
reached: discord.py logs each failed reconnect (and a few other network failures) as an ERROR
with a traceback, asyncpg's pool logs each failed reconnection to a restarting server with
one, and asyncio reports asyncpg's connections the server ended (a failure nobody awaited)
with one; those are expected and need no developer, so they become one WARNING line that
names the failure. Tracebacks stay for bugs.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import sys
from collections.abc import Iterable, Mapping
from typing import Any

import discord

from .settings import terminal

# The path segment after /interactions/<id>/ or /webhooks/<id>/ is the interaction token.
_URL_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?'\"]+")
# "token": "…" in JSON or 'token': '…' in a Python repr.
_FIELD_TOKEN = re.compile(r"""(['"](?:token|access_token)['"]\s*:\s*['"])[^'"]*""")
# The shape of a bot token: base64 user id, timestamp and signature.
_BOT_TOKEN = re.compile(r"\b[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,}")
REDACTED = "[redacted]"
_SQL_SHOWN = 120


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` without the given secrets or anything shaped like a Discord token."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    text = _URL_TOKEN.sub(rf"\1{REDACTED}", text)
    text = _FIELD_TOKEN.sub(rf"\1{REDACTED}", text)
    return _BOT_TOKEN.sub(REDACTED, text)


def withhold(value: object) -> object:
    """A log argument that may carry a payload, replaced by what it is (never its content)."""
    if isinstance(value, functools.partial):  # aiosqlite: partial(execute, sql, parameters)
        name = getattr(value.func, "__name__", "call")
        sql = next((arg for arg in value.args if isinstance(arg, str)), None)
        if sql is None:
            return f"{name}(…)"
        shown = " ".join(sql.split())
        if len(shown) > _SQL_SHOWN:
            shown = shown[:_SQL_SHOWN] + "…"
        rest = len(value.args) - 1 + len(value.keywords)
        return f"{name}({shown!r}{', parameters withheld' if rest else ''})"
    if isinstance(value, Mapping):
        if "op" in value:  # a gateway event: keep what it is, drop what it says
            return f"<gateway op={value.get('op')} t={value.get('t')} s={value.get('s')}>"
        return f"<{len(value)} fields withheld>"
    if isinstance(value, list | tuple | set | frozenset):
        return f"<{len(value)} items withheld>"
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(value)} bytes withheld>"
    if isinstance(value, str):
        stripped = value.lstrip()
        if stripped.startswith(("{", "[")):
            return f"<{len(value)} characters of JSON withheld>"
        return value
    if type(value).__name__ == "FormData":  # aiohttp's multipart request body
        return "<form data withheld>"
    return value


class SafeFormatter(logging.Formatter):
    """Format with ``inner`` after withholding payloads; redact tokens from the result."""

    def __init__(self, inner: logging.Formatter, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self._inner = inner
        self._secrets = tuple(s for s in secrets if s)

    def format(self, record: logging.LogRecord) -> str:
        safe = logging.makeLogRecord(record.__dict__)
        if isinstance(safe.args, tuple):
            safe.args = tuple(withhold(arg) for arg in safe.args)
        elif isinstance(safe.args, Mapping):
            safe.args = {key: withhold(arg) for key, arg in safe.args.items()}
        safe.exc_text = None  # never reuse a traceback text formatted elsewhere
        return redact(self._inner.format(safe), self._secrets)


#: Failures of the network or of Discord itself that discord.py logs with a traceback.
_EXPECTED = (
    OSError,
    asyncio.TimeoutError,
    discord.ConnectionClosed,
    discord.GatewayNotFound,
    discord.DiscordServerError,
)


def _expected(exc: BaseException) -> bool:
    # aiohttp's client errors (a refused or reset connection) and asyncpg's (a server that
    # is restarting) by their module: hosting imports neither library itself.
    module = type(exc).__module__
    return isinstance(exc, _EXPECTED) or module.startswith(("aiohttp", "asyncpg"))


#: The loggers whose tracebacks of expected trouble are shortened: the libraries', and
#: asyncio's, which reports a library's future whose failure nobody awaited (asyncpg's
#: "unexpected connection_lost() call" when the server ends a connection).
_SHORTENED = ("discord", "asyncpg", "asyncio")


class ExpectedTrouble(logging.Filter):
    """The libraries' tracebacks of network or database trouble become one WARNING line
    (see the module docstring); everything else passes unchanged."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        ours = record.name.split(".", 1)[0] in _SHORTENED
        if exc is None or not ours or not _expected(exc):
            return True
        text = " ".join(str(exc).split())[:200]
        said = record.getMessage().splitlines()[0]  # asyncio adds lines naming the future
        record.msg = f"{said} ({type(exc).__name__}{': ' + text if text else ''})"
        record.args = None
        record.exc_info = None
        record.exc_text = None
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def plain_formatter() -> logging.Formatter:
    """discord.py's layout, without colours (a pipe, a file, the journal)."""
    return logging.Formatter(
        "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{"
    )


def wants_colour(stream: Any, conventions: Mapping[str, str]) -> bool:
    """Colour only for a person at a terminal: ``stream`` is one, ``NO_COLOR`` is not set
    (https://no-color.org: any non-empty value) and ``TERM`` is not ``dumb`` (both in
    ``conventions``, :func:`hosting.settings.terminal`).

    Decided here rather than by discord.py, whose test also says yes wherever it believes
    it runs in a container (a ``/.dockerenv`` file, "docker" in the cgroup): there a log
    written to a file or a pipe got colour codes.
    """
    if conventions.get("NO_COLOR") or conventions.get("TERM") == "dumb":
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # no isatty, or a closed stream
        return False


def setup_logging(level: str, secrets: Iterable[str] = ()) -> logging.Handler:
    """One handler on the root logger, on stderr, safe at every level; returns it."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(ExpectedTrouble())
    inner: logging.Formatter = plain_formatter()
    colour: Any = getattr(discord.utils, "_ColourFormatter", None)
    if colour is not None and wants_colour(handler.stream, terminal()):
        inner = colour()
    handler.setFormatter(SafeFormatter(inner, secrets))
    root = logging.getLogger()
    root.setLevel(getattr(logging, level))
    root.addHandler(handler)
    return handler
