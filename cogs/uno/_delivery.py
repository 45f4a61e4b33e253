"""Requests to Discord that converge: what failed for a while is tried again, what failed for
good is said once.

Discord fails the way any remote service does: a 5xx, a request that hangs, a connection
reset, a 429 beyond what discord.py waits out. And some answers mean "not like this, ever":
the message is gone (404), an hour-old message takes no more edits (30046), the interaction's
token expired (50027), the bot lost a permission (403). :func:`verdict` sorts an exception
into one of these; :func:`patiently` runs one request with a time limit and tries it again
with a growing pause while the failure is passing; :func:`trouble` is the one log line an
operator reads (the route, the status and Discord's code) — a traceback is for bugs only.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

log = logging.getLogger(__name__)

T = TypeVar("T")

#: How long one request may take before it counts as hung (a retry, or the newest version,
#: goes out instead).
PATIENCE = 6.0
#: Pauses between tries: 0.5 s, doubled each time, at most this (with ±25 % jitter).
FIRST_PAUSE = 0.5
LONGEST_PAUSE = 8.0

#: Discord's codes that mean the message can no longer be edited: unknown message, unknown
#: webhook (a dismissed ephemeral), too many edits of an hour-old message, an archived thread.
GONE_CODES = frozenset({10008, 10015, 30046, 50083})
#: The interaction's token expired (15 minutes) or was never valid.
EXPIRED_CODES = frozenset({50027, 10062})
#: The interaction was already answered: a callback that Discord carried out although the
#: answer we got said otherwise (discord.py retried it).
ALREADY_ANSWERED = 40060


class Verdict(enum.Enum):
    """What a failed request means for whoever sent it."""

    RETRY = "retry"  # passing trouble: the same request may succeed in a moment
    GONE = "gone"  # the message (or token) is no more: post anew, or stop following it
    REFUSED = "refused"  # Discord will never accept this request (a permission, a bug)


def verdict(exc: BaseException) -> Verdict:
    """Sort a failed request (see the module docstring)."""
    if isinstance(exc, discord.HTTPException):
        if exc.code in GONE_CODES or exc.code in EXPIRED_CODES or exc.status == 404:
            return Verdict.GONE
        if exc.status >= 500 or exc.status == 429:
            return Verdict.RETRY
        return Verdict.REFUSED
    if isinstance(exc, discord.RateLimited):
        return Verdict.RETRY
    if isinstance(exc, TimeoutError | ConnectionError) or _transport(exc):
        return Verdict.RETRY
    if isinstance(exc, OSError):
        return Verdict.RETRY
    return Verdict.REFUSED


def is_discord_trouble(exc: BaseException) -> bool:
    """Is ``exc`` something Discord (or the way to it) answered, rather than a bug of ours?"""
    return isinstance(
        exc, discord.HTTPException | discord.RateLimited | TimeoutError | ConnectionError
    ) or _transport(exc)


def _transport(exc: BaseException) -> bool:
    """An error of aiohttp, discord.py's transport (a reset or refused connection), known by
    its module: the cogs talk to Discord through discord.py only."""
    return type(exc).__module__.startswith("aiohttp")


def trouble(exc: BaseException) -> str:
    """One line for the log: the request, the status and Discord's code and words."""
    if isinstance(exc, discord.HTTPException):
        response = exc.response
        method = getattr(response, "method", "?")
        url = getattr(response, "url", None)
        route = getattr(url, "path", None) or str(url or "?")
        text = " ".join(exc.text.split())[:120]
        return f"{method} {route}: {exc.status} (code {exc.code}) {text}".rstrip()
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    text = " ".join(str(exc).split())[:120]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Backoff:
    """Growing pauses between tries: 0.5, 1, 2, 4, 8, 8 … seconds, jittered."""

    def __init__(self, first: float = FIRST_PAUSE, longest: float = LONGEST_PAUSE) -> None:
        self.first = first
        self.longest = longest
        self.tries = 0

    def next(self) -> float:
        """The pause before the next try."""
        pause = min(self.longest, self.first * 2**self.tries)
        self.tries += 1
        return float(pause * random.uniform(0.75, 1.25))

    def reset(self) -> None:
        self.tries = 0


async def within(work: Awaitable[T], patience: float = PATIENCE) -> T:
    """``work``, given up after ``patience`` seconds of real time (:class:`TimeoutError`).

    Patience is measured with ``time.perf_counter``, the clock for elapsed time, not with
    the event loop's clock: a request is judged by how long it really took (a test that
    moves the loop's clock forward does not make a quick request look hung)."""
    task = asyncio.ensure_future(work)
    deadline = time.perf_counter() + patience
    try:
        while not task.done():
            left = deadline - time.perf_counter()
            if left <= 0:
                task.cancel()
                raise TimeoutError
            await asyncio.wait({task}, timeout=min(left, 0.25))
    except asyncio.CancelledError:
        task.cancel()
        raise
    return task.result()


async def patiently(
    request: Callable[[], Awaitable[T]],
    *,
    what: str,
    until: float,
    patience: float = PATIENCE,
) -> T:
    """Send ``request()`` until it succeeds, trying again after passing trouble until the
    monotonic time ``until``; a failure for good (or the last one) is raised."""
    backoff = Backoff()
    while True:
        try:
            return await within(request(), patience)
        except Exception as exc:
            if verdict(exc) is not Verdict.RETRY:
                raise
            pause = backoff.next()
            if time.monotonic() + pause >= until:
                raise
            log.warning("%s failed (%s); trying again in %.1f s", what, trouble(exc), pause)
            await asyncio.sleep(pause)


def clicked_a_hand(interaction: discord.Interaction[Any]) -> bool:
    """Was the interaction a click on an ephemeral message of the bot (a hand)? Its answer
    updates that message. A click on the public table message, or a command, is answered
    with a new (ephemeral) message instead."""
    message = interaction.message
    return message is not None and message.flags.ephemeral
