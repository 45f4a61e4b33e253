"""HTTP 429 answers on demand: the fake Discord's rate limits, switched on per test.

Discord answers a request over a rate limit with status 429, a ``Retry-After`` header and a
JSON body ``{"message", "retry_after", "global", "code"}``; the ``X-RateLimit-Scope`` header
says whose limit it was (``user``, ``shared`` or ``global``). discord.py sleeps
``retry_after`` seconds and sends the request again (up to five tries); on a global limit
it holds every other request too. It only trusts a 429 that came through Discord's proxy
(a ``Via`` header), so the fake sends one, as Discord does.

A test asks for 429s with :meth:`FakeDiscord.rate_limit
<fakediscord.server.FakeDiscord.rate_limit>`::

    edits = fake.rate_limit(
        "PATCH", "/channels/{channel_id}/messages/{message_id}",
        every=3, retry_after=0.3, channel_id=table.id,
    )
    ...
    assert edits.answered            # how many 429s the rule sent
    edits.off()                      # or fake.clear_rate_limits()

The rule counts the requests that match it (method, route pattern, and the route's
parameters given as keywords); every ``every``-th of them gets a 429 instead of being
handled, so the bot's retry goes through. ``limit`` caps how many 429s the rule sends.
``probability=0.15, seed=1`` answers a seeded 15 % of the matching requests instead (for soak
tests); ``"*"`` as the method or the route matches any (see ``rules.py``).

Headers, checked against discord.py 2.7 (``discord/http.py``): on a 429 it reads only the
JSON body (``retry_after``, ``global``) and requires a ``Via`` header; the
``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket`` headers the fake sends with it are
what Discord sends. On other responses discord.py uses those headers, when present, to wait
*before* a bucket runs out; it does not need them (without them it never waits ahead), so the
fake sends none on success: its 429s come from the rules a test switches on, not from a
bucket model.
"""

from __future__ import annotations

import json
import math
import zlib
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .rules import RequestRule

__all__ = ["RateLimitRule", "too_many_requests"]

SCOPES = ("user", "shared", "global")


@dataclass(eq=False, kw_only=True)
class RateLimitRule(RequestRule):
    """Answer 429 to the requests it picks (see the module docstring)."""

    retry_after: float = 0.25
    scope: str = "user"  # "global" makes discord.py hold every request for retry_after

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}")
        if self.retry_after < 0:
            raise ValueError("retry_after must not be negative")

    @property
    def is_global(self) -> bool:
        return self.scope == "global"

    def response(self, now: float) -> web.Response:
        return too_many_requests(self.retry_after, scope=self.scope, bucket=self.route, now=now)


def too_many_requests(
    retry_after: float, *, scope: str = "user", bucket: str = "", now: float
) -> web.Response:
    """A 429 as Discord sends it: body, ``Retry-After`` and the ``X-RateLimit-*`` headers
    (``X-RateLimit-Reset`` is epoch seconds on the fake clock, ``now``)."""
    is_global = scope == "global"
    body: dict[str, Any] = {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": is_global,
        "code": 0,
    }
    headers = {
        "Content-Type": "application/json",
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Scope": scope,
        "Via": "1.1 google",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    else:
        headers.update(
            {
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{now + retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                "X-RateLimit-Bucket": f"fake-{zlib.crc32(bucket.encode()):08x}",
            }
        )
    return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)
