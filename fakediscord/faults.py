"""Failed requests on demand: 5xx answers, hangs, dropped connections, "carried out but 5xx".

A test asks for faults with :meth:`FakeDiscord.fault
<fakediscord.server.FakeDiscord.fault>`, in the style of ``fake.rate_limit``::

    edits = fake.fault("PATCH", "/channels/{channel_id}/messages/{message_id}",
                       status=503, probability=0.15, seed=7, channel_id=table.id)
    acked = fake.fault("POST", "/interactions/{interaction_id}/{token}/callback",
                       status=500, carried_out=True, limit=1)
    slow = fake.fault("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}",
                      status=None, hang=12)      # 12 s late, then handled normally
    gone = fake.fault("*", "*", status="reset", every=10)  # any route: connection dropped
    ...
    edits.answered, edits.seen       # how many it fired on / how many matched
    edits.off()                      # or fake.clear_faults()
    fake.faulted                     # every request a rule fired on (not in fake.errors)

Which requests: a method and a route pattern of the fake (``"*"`` for any), and route
parameters given as keywords; every ``every``-th matching request, or with ``probability`` a
seeded fraction of them, at most ``limit`` times (``rules.py``). What happens to a request the
rule fires on:

* ``status=503`` (any 4xx/5xx but 429, which is ``fake.rate_limit``'s): it is answered with that
  status and a Discord-shaped JSON body (``{"message": "503: Service Unavailable", "code": 0}``;
  ``code=`` and ``message=`` to change them) instead of being handled: nothing changes.
* ``carried_out=True``: it is handled first (its side effects happen: the message is edited,
  the interaction acknowledged), then answered with the error. discord.py retries a 5xx on an
  interaction callback, and the retry then gets 400 40060 "already acknowledged".
* ``hang=s``: the answer comes ``s`` seconds (real time) late. With ``status=None`` the request
  is then handled normally (after the hang, or before it with ``carried_out=True``). A hang
  longer than the client's patience is a timeout for the client; the fake still handles the
  request when the hang ends, as a server that was slow, not dead, would.
* ``hold=True``: like a hang, but the answer waits for the test: ``rule.release()`` lets every
  held request go on (a hang that ends on an event, not after a time, so the order of what the
  test does and what lands late does not depend on the machine's speed).
* ``status="reset"``: the connection is dropped without an answer (after handling it, with
  ``carried_out=True``): the client gets a connection error. Recorded with status 0.

Requests a rule fired on go to ``fake.faulted`` (and the rule's ``requests``), not to
``fake.errors``, so ``fake.assert_clean()`` still means "the bot sent nothing Discord would
refuse". Fault rules are looked at before the 429 rules.
"""

from __future__ import annotations

import asyncio
import http
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .rules import RequestRule

if TYPE_CHECKING:
    from .server import RecordedRequest

__all__ = ["RESET", "FaultRule"]

#: ``status=RESET`` drops the connection without an answer.
RESET = "reset"


@dataclass(eq=False, kw_only=True)
class FaultRule(RequestRule):
    """Fail the requests it picks (see the module docstring)."""

    status: int | str | None = 503
    code: int = 0
    message: str | None = None
    hang: float | None = None  # real seconds before the answer
    carried_out: bool = False  # handle the request, then answer with the fault
    hold: bool = False  # answer only once the test calls release()
    requests: list[RecordedRequest] = field(default_factory=list, repr=False)
    _released: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        if isinstance(self.status, str) and self.status != RESET:
            raise ValueError(f"status must be a number, None or {RESET!r}")
        if isinstance(self.status, int) and not 400 <= self.status <= 599:
            raise ValueError("a fault's status is an error status (400-599)")
        if self.status == 429:
            raise ValueError("answer 429s with fake.rate_limit (it sends Retry-After)")
        if self.hang is not None and self.hang < 0:
            raise ValueError("hang must not be negative")
        if self.status is None and not (self.hang or self.hold):
            raise ValueError("status=None only makes sense with a hang or a hold")

    def release(self) -> None:
        """Let the requests this rule holds (``hold=True``) go on, now and from now on."""
        self._released.set()

    async def delay(self) -> None:
        """Keep a request it fired on for its hang, or until it is released."""
        if self.hang:
            await asyncio.sleep(self.hang)
        if self.hold:
            await self._released.wait()

    @property
    def resets(self) -> bool:
        return self.status == RESET

    def response(self) -> web.Response:
        """The error answer: Discord's JSON shape, ``{"message", "code"}``."""
        assert isinstance(self.status, int)
        body: dict[str, Any] = {"message": self.message or _reason(self.status), "code": self.code}
        return web.Response(
            body=json.dumps(body).encode(),
            status=self.status,
            headers={"Content-Type": "application/json"},
        )


def _reason(status: int) -> str:
    try:
        return f"{status}: {http.HTTPStatus(status).phrase}"
    except ValueError:
        return f"{status}: Error"
