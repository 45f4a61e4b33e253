"""The soak: whole hands played by three people through a Discord that fails, and what they
saw — the end-to-end test of issue 19 (``tests/e2e/test_faults.py``) asserts on it, and
``benchmarks/faults_bench.py`` prints it, for this bot or an older one.

Each turn, the person the table message names opens their hand (is it their turn there, can
they act?) and plays what the normal computer player would, by slash command, trying again
when Discord says the interaction failed (``faults.act``). Between hands the pause passes on
the fake clock.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .faults import LagMeter, Tally, act, named_player, play_for
from .harness import World, custom_ids, load, table_message

#: A table message this far behind the stored state counts as stalled (seconds).
STALLED = 30.0


@dataclass
class Soak:
    """What the people of a soak saw."""

    meter: LagMeter
    tally: Tally = field(default_factory=Tally)
    hands_ended: int = 0
    lies: int = 0  # the table named someone whose turn it was not
    stalls: int = 0  # the table message stayed behind the stored state for STALLED seconds
    able: list[bool] = field(default_factory=list)  # each named person's hand let them act


async def soak(world: World, table_id: str, *, hands: int = 2, net: float = 780.0) -> Soak:
    """Play until ``hands`` hands ended (``net`` seconds at the most: a net against a hand
    that never ends, below pytest-timeout's 15 minutes)."""
    result = Soak(LagMeter(world, table_id))
    by_id = {user.id: user for user in world.players}
    deadline = time.monotonic() + net
    async with result.meter.running():
        while result.hands_ended < hands and time.monotonic() < deadline:
            table = await load(world, table_id)
            if table.status != "playing" or table.match is None:
                break
            await _shown(world, table_id, table.version, result)
            if table.match.hand.is_over:
                result.hands_ended += 1
                await world.fake.pass_time(16)  # the pause between hands, then a deal
                await world.fake.wait_for(
                    lambda: named_player(table_message(world)) is not None, what="the next hand"
                )
                continue
            seat = table.match.hand.current
            person = table.players[seat].user_id
            if named_player(table_message(world)) != person:
                result.lies += 1
            user = by_id[person]
            shown = await act(world, user, "uno hand", result.tally)
            if shown is not None and shown.message is not None:
                text = shown.all_text()
                result.able.append("It's your turn" in text or bool(custom_ids(shown.message)))
            await play_for(world, user, table_id, seat, result.tally)
    return result


async def _shown(world: World, table_id: str, version: int, result: Soak) -> None:
    """Wait until the table message shows ``version`` (or later); a wait of STALLED seconds
    counts as a stall, and the soak goes on."""
    meter = result.meter
    waited = time.monotonic()
    while (shown := meter.shown()) is None or shown < version:
        if time.monotonic() - waited > STALLED:
            result.stalls += 1
            return
        await world.fake.wait_for(lambda seen=shown: meter.shown() != seen, within=0.1, quiet=True)
