"""``easy`` plays like a casual person: it never challenges (R-CHAL-1) and sometimes forgets
to call UNO (R-UNO-1), while every answer stays legal."""

from __future__ import annotations

import random

import players
from engine import Action, CallUno, Challenge, PlayerView, Rules
from players.arena import play_hand


def test_r_chal_1_r_uno_1_easy_never_challenges_and_sometimes_forgets_uno() -> None:
    calls = forgets = challenges_open = 0

    def easy(view: PlayerView, rng: random.Random) -> Action | None:
        nonlocal calls, forgets, challenges_open
        action = players.decide("easy", view, rng)
        assert action is None or action in view.legal
        if any(isinstance(a, Challenge) for a in view.legal):
            challenges_open += 1
            assert not isinstance(action, Challenge)
        if any(isinstance(a, CallUno) for a in view.legal) and view.seat == view.table.uno_seat:
            if isinstance(action, CallUno):
                calls += 1
            elif view.seat != view.table.current:
                forgets += 1
        return action

    for seed in range(80):
        assert play_hand(Rules(), [easy] * 3, seed=seed, dealer=seed % 3).is_over
    assert challenges_open > 10
    assert calls > 0
    assert forgets > 0
