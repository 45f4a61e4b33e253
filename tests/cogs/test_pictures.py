"""Pictures are rendered once per content, and a kept picture never shows another state."""

from __future__ import annotations

import random
from dataclasses import replace

from cogs.uno._messages import PICTURES, hand_payload, picture_payload
from engine.simulate import random_step
from renders import render_hand, render_table
from tests.tables.tables import started, user


async def test_every_picture_shown_is_the_fresh_render_of_its_state() -> None:
    """Through whole hands, each table and hand picture equals a fresh render of the state
    it is shown for — a kept picture is never reused for a newer state."""
    table = started(3)
    rnd = random.Random(4)
    for _ in range(60):
        assert table.match is not None
        if table.match.hand.is_over:
            break
        state = table.match.hand
        payload = await picture_payload(table)
        called = table.called_uno
        assert payload.image == render_table(state.public_view(), table.names(), called_uno=called)
        for seat in range(3):
            hand = await hand_payload(table, seat)
            assert hand.image == render_hand(state.view_for(seat))
        seat, action = random_step(state, rnd)
        table = table.act(user(seat), action, now=100.0).table


async def test_a_picture_is_drawn_once_for_the_same_content() -> None:
    table = started(4)
    await picture_payload(table)
    await hand_payload(table, 0)
    hits, misses = PICTURES.hits, PICTURES.misses
    # Another version (its message moved) showing the same thing: nothing is drawn again.
    again = replace(table, version=table.version + 1, message_id=42)
    await picture_payload(again)
    await hand_payload(again, 0)
    assert PICTURES.misses == misses
    assert PICTURES.hits == hits + 2
