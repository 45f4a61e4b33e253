"""``hard``: determinizations are consistent with the view (R-UNO-5, R-CHAL-2), the search
answers with legal actions and calls UNO like ``normal`` (R-UNO-1)."""

from __future__ import annotations

import random

import pytest

import players
from engine import CallUno, Phase, Rules, new_hand
from engine.game import deal
from players import hard
from players.arena import play_hand
from players.determinize import determinize


@pytest.mark.parametrize("preset", ["classic", "party", "tournament"])
def test_r_uno_5_a_determinization_shows_the_seat_exactly_its_view(preset: str) -> None:
    rules = Rules.from_preset(preset)
    seats = rules.players or 4
    normal = [lambda v, r: players.decide("normal", v, r)] * seats
    for seed in range(6):
        start = new_hand(rules, seats, dealer=0, seed=seed).state
        # Play part of a hand so the piles have history, then look from every seat.
        state = start
        for _ in range(25):
            if state.is_over:
                break
            action = normal[0](state.view_for(state.current), random.Random(seed))
            assert action is not None
            state = state.apply(state.current, action).state
        if state.is_over:
            continue
        for seat in range(seats):
            if state.phase is Phase.DRAWN and seat != state.current:
                continue
            view = state.view_for(seat)
            sample = determinize(view, random.Random(seed))
            assert sample.view_for(seat) == view
            cards = [c for h in sample.hands for c in h] + [*sample.draw_pile, *sample.discard]
            assert sorted(cards) == list(range(sample.deck.size))


def test_r_chal_2_a_determinization_can_be_guilty_or_innocent() -> None:
    rules = Rules()
    state = deal(rules, [["W4", "B1", "G2", "Y3"], ["G1", "G5"]], "R9", dealer=1).state
    state = state.apply(0, "W4=B").state
    view = state.view_for(1)
    for seed in range(20):
        guilty = determinize(view, random.Random(seed), guilty=True)
        innocent = determinize(view, random.Random(seed), guilty=False)
        faces = guilty.deck.sides[0]
        assert any(faces[c].colour is state.prior_colour for c in guilty.evidence)
        assert not any(faces[c].colour is state.prior_colour for c in innocent.evidence)
        assert guilty.view_for(1) == view == innocent.view_for(1)


def test_r_uno_1_hard_calls_uno_and_plays_legally(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "STEP_BUDGET", 200)
    monkeypatch.setattr(hard, "FAST_BUDGET", 1000)
    state = deal(Rules(), [["R1", "R2"], ["B3", "B4", "G5"]], "R9", dealer=1).state
    action = players.decide("hard", state.view_for(0), random.Random(1))
    assert action in state.legal_actions(0)
    state = state.apply(0, action).state  # type: ignore[arg-type]
    assert players.decide("hard", state.view_for(0), random.Random(1)) == CallUno()


def test_hard_finishes_hands_against_every_level(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "STEP_BUDGET", 150)
    monkeypatch.setattr(hard, "FAST_BUDGET", 800)
    for seed, other in enumerate(("easy", "normal")):
        policies = [
            lambda v, r: players.decide("hard", v, r),
            lambda v, r, level=other: players.decide(level, v, r),
        ]
        assert play_hand(Rules(), policies, seed=seed).is_over
