"""HTTP 429 answers on demand: the fake Discord's rate limits, switched on per test.

Discord answers a request over a rate limit with status 429, a ``Retry-After`` header and a
JSON body ``{"message", "retry_after", "global", "code"}``; the ``X-RateLimit-Scope`` header
says whose limit it was (``user``, ``shared`` or ``global``). discord.py sleeps
``retry_after`` seconds and sends the request again (up to five tries); on a global limit
it holds every other request too. It only trusts a 429 that came through Discord's proxy
(a ``Via`` header), so the fake sends one, as Discord does.

A test asks for 429s with :meth:`FakeDiscord.rate_limit
<tests.fakediscord.server.FakeDiscord.rate_limit>`::

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
"""

from __future__ import annotations

import json
import math
import zlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

__all__ = ["RateLimitRule", "too_many_requests"]

SCOPES = ("user", "shared", "global")


@dataclass(eq=False)
class RateLimitRule:
    """Answer 429 to every ``every``-th request that matches (see the module docstring)."""

    method: str
    route: str  # a route pattern of the fake, e.g. "/channels/{channel_id}/messages"
    every: int = 1
    retry_after: float = 0.25
    scope: str = "user"  # "global" makes discord.py hold every request for retry_after
    params: dict[str, str] = field(default_factory=dict)  # the route's parameters to match
    limit: int | None = None  # at most this many 429s (None: no cap)
    active: bool = True
    seen: int = 0  # matching requests so far
    answered: int = 0  # 429s sent so far

    def __post_init__(self) -> None:
        if self.every < 1:
            raise ValueError("every must be at least 1")
        if self.scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}")
        if self.retry_after < 0:
            raise ValueError("retry_after must not be negative")

    @property
    def is_global(self) -> bool:
        return self.scope == "global"

    def matches(self, method: str, route: str, params: dict[str, str]) -> bool:
        return (
            self.active
            and method == self.method
            and route == self.route
            and all(params.get(key) == value for key, value in self.params.items())
        )

    def hit(self) -> bool:
        """Count one matching request; True when it is to be answered with a 429."""
        self.seen += 1
        if self.limit is not None and self.answered >= self.limit:
            return False
        if self.seen % self.every:
            return False
        self.answered += 1
        return True

    def off(self) -> None:
        """Stop sending 429s (the counts stay for the test to read)."""
        self.active = False

    def response(self) -> web.Response:
        return too_many_requests(self.retry_after, scope=self.scope, bucket=self.route)


def too_many_requests(retry_after: float, *, scope: str = "user", bucket: str = "") -> web.Response:
    """A 429 as Discord sends it: body, ``Retry-After`` and the ``X-RateLimit-*`` headers."""
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
                "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                "X-RateLimit-Bucket": f"fake-{zlib.crc32(bucket.encode()):08x}",
            }
        )
    return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)
