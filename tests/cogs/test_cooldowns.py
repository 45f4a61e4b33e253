"""Cooldowns on what costs a picture: a burst, then one every few seconds, per user."""

from __future__ import annotations

import pytest

from cogs.uno._replies import Cooldowns
from tables import TableError


def test_a_burst_then_one_every_few_seconds_per_user_and_kind() -> None:
    now = [100.0]
    cooldowns = Cooldowns(clock=lambda: now[0])
    for _ in range(Cooldowns.BURST):
        cooldowns.check(1, "board", 3.0)
    with pytest.raises(TableError) as excinfo:
        cooldowns.check(1, "board", 3.0)
    assert excinfo.value.code == "cooldown"
    assert excinfo.value.params == {"seconds": 3}
    cooldowns.check(2, "board", 3.0)  # another user
    cooldowns.check(1, "repost", 5.0)  # another kind
    now[0] += 1.0
    with pytest.raises(TableError) as excinfo:
        cooldowns.check(1, "board", 3.0)
    assert excinfo.value.params == {"seconds": 2}
    now[0] += 2.0
    cooldowns.check(1, "board", 3.0)  # a token came back
