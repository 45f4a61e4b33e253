"""How the bot judges a failed request to Discord, retries it, and reads a forged option."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from cogs.uno import _gateway
from cogs.uno._delivery import Backoff, Verdict, patiently, trouble, verdict
from cogs.uno._replies import _leaf_options, _well_formed


def http_error(status: int, code: int = 0, message: str = "nope") -> discord.HTTPException:
    response = SimpleNamespace(
        status=status,
        reason="",
        method="PATCH",
        url=SimpleNamespace(path="/api/v10/channels/1/messages/2"),
    )
    kind: type[discord.HTTPException] = discord.HTTPException
    if status == 404:
        kind = discord.NotFound
    elif status == 403:
        kind = discord.Forbidden
    elif status >= 500:
        kind = discord.DiscordServerError
    return kind(response, {"code": code, "message": message})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (http_error(503), Verdict.RETRY),
        (http_error(500), Verdict.RETRY),
        (http_error(429), Verdict.RETRY),
        (TimeoutError(), Verdict.RETRY),
        (aiohttp.ServerDisconnectedError(), Verdict.RETRY),
        (ConnectionResetError(), Verdict.RETRY),
        (http_error(404, 10008, "Unknown Message"), Verdict.GONE),
        (http_error(400, 30046, "Maximum number of edits"), Verdict.GONE),
        (http_error(401, 50027, "Invalid Webhook Token"), Verdict.GONE),
        (http_error(403, 50013, "Missing Permissions"), Verdict.REFUSED),
        (http_error(400, 50035, "Invalid Form Body"), Verdict.REFUSED),
        (ValueError("a bug"), Verdict.REFUSED),
    ],
    ids=lambda v: getattr(v, "value", type(v).__name__),
)
def test_each_failure_is_judged(error: BaseException, expected: Verdict) -> None:
    assert verdict(error) is expected


def test_the_log_line_names_the_route_the_status_and_discords_code() -> None:
    line = trouble(http_error(400, 30046, "Maximum number of edits to messages older than 1 hour"))
    assert line.startswith("PATCH /api/v10/channels/1/messages/2: 400 (code 30046) Maximum")
    assert trouble(TimeoutError()) == "no answer in time"


def test_backoff_grows_and_stays_bounded() -> None:
    backoff = Backoff(first=0.5, longest=8.0)
    pauses = [backoff.next() for _ in range(8)]
    assert 0.375 <= pauses[0] <= 0.625
    assert all(p <= 8.0 * 1.25 for p in pauses)
    assert pauses[5] >= 6.0
    backoff.reset()
    assert backoff.next() <= 0.625


async def test_patiently_retries_passing_trouble_and_raises_a_refusal() -> None:
    tries: list[int] = []

    async def flaky() -> str:
        tries.append(1)
        if len(tries) < 3:
            raise http_error(503)
        return "shown"

    until = time.monotonic() + 10
    assert await patiently(flaky, what="a test", until=until) == "shown"
    assert len(tries) == 3

    async def refused() -> str:
        tries.append(1)
        raise http_error(403, 50013)

    with pytest.raises(discord.Forbidden):
        await patiently(refused, what="a test", until=until)


async def test_patiently_gives_up_a_hung_request_and_stops_at_its_deadline() -> None:
    async def hangs() -> None:
        await asyncio.sleep(60)

    started = time.monotonic()
    with pytest.raises(TimeoutError):
        await patiently(hangs, what="a test", until=started + 0.5, patience=0.1)
    assert time.monotonic() - started < 2


@pytest.mark.parametrize(
    ("option", "ok"),
    [
        ({"type": 6, "value": "123456789012345678"}, True),
        ({"type": 6, "value": "alice"}, False),
        ({"type": 6, "value": 12}, False),
        ({"type": 4, "value": 3}, True),
        ({"type": 4, "value": "3"}, False),
        ({"type": 4, "value": True}, False),
        ({"type": 10, "value": 2.5}, True),
        ({"type": 5, "value": False}, True),
        ({"type": 5, "value": "yes"}, False),
        ({"type": 3, "value": "Red 7"}, True),
        ({"type": 3, "value": 7}, False),
        ({"type": 3, "value": "re", "focused": True}, True),
        ({"type": 99, "value": "?"}, False),
    ],
)
def test_forged_option_values_are_recognised(option: dict[str, Any], ok: bool) -> None:
    assert _well_formed(option) is ok


def test_the_options_of_a_subcommand_are_found_below_its_group() -> None:
    options = [
        {"type": 2, "name": "tournament", "options": [{"type": 1, "name": "new", "options": [
            {"type": 3, "name": "name", "value": "Spring"}
        ]}]}
    ]  # fmt: skip
    assert _leaf_options(options) == [{"type": 3, "name": "name", "value": "Spring"}]


def test_discord_py_still_has_what_the_gateway_probe_reaches() -> None:
    """The probe uses discord.py's keep-alive handler and ``send_heartbeat``
    (cogs/uno/_gateway.py); a discord.py without them would silently lose the probe."""
    from discord.gateway import DiscordWebSocket, KeepAliveHandler
    from discord.shard import ShardInfo

    assert hasattr(DiscordWebSocket, "send_heartbeat")
    assert "_parent" in ShardInfo.__slots__
    assert "_last_recv" in KeepAliveHandler.__init__.__code__.co_names
    assert _gateway._socket_of(SimpleNamespace(ws=None), 0) is None  # type: ignore[arg-type]
