"""``players.fastsim``: the heads-up simulator behind ``hard`` keeps every card and plays
``normal``'s choices (R-ACT-1/2/3/5, R-CHAL)."""

from __future__ import annotations

import random
from collections import Counter

import players
from engine import Draw, Phase, Play, Rules, new_hand
from players import fastsim, hard, normal


def _deck() -> list[int]:
    return [fastsim.code(face) for face in Rules().deck().sides[0]]


def test_codes_cover_the_classic_deck() -> None:
    codes = Counter(_deck())
    assert sum(codes.values()) == fastsim.DECK_CARDS
    assert codes[4 * 16 + fastsim.WILD] == codes[4 * 16 + fastsim.WILD_FOUR] == 4
    for colour in range(4):
        assert sum(n for c, n in codes.items() if c >> 4 == colour) == fastsim.COLOUR_CARDS


def test_a_simulated_hand_keeps_every_card_and_ends_with_an_empty_hand() -> None:
    rng = random.Random(5)
    for _ in range(200):
        cards = _deck()
        rng.shuffle(cards)
        top = next(c for c in cards[14:] if c >> 4 != 4)
        rest = cards[14:]
        rest.remove(top)
        sim = fastsim.Sim([cards[:7], cards[7:14]], rest, [], top >> 4, top, 0, rng)
        winner, turns = sim.run(10_000)
        held = [*sim.hands[0], *sim.hands[1], *sim.pile, *sim.discard, sim.card]
        assert Counter(held) == Counter(_deck())
        assert winner in (0, 1)
        assert not sim.hands[winner]
        assert turns > 0


def test_the_rollout_policy_plays_normals_card() -> None:
    rules = Rules.from_preset("classic")
    agree = total = 0
    for seed in range(40):
        state = new_hand(rules, 2, dealer=seed % 2, seed=seed).state
        for _ in range(200):
            if state.is_over:
                break
            seat = state.current
            action = normal.rollout_action(state, seat)
            assert action is not None
            if state.phase is Phase.PLAY and type(action) in (Play, Draw) and state.colour:
                view = state.view_for(seat)
                hand = [fastsim.code(f) for _, f in view.hand]
                other = state.card_counts()[1 - seat]
                colour = players.normal.COLOURS.index(state.colour)
                index, _ = fastsim.choose_play(hand, colour, fastsim.code(state.top) & 15, other)
                mine = fastsim.code(action.face) if type(action) is Play else -1
                agree += (hand[index] if index >= 0 else -1) == mine
                total += 1
            state = state.apply(seat, action).state
    assert total > 500
    assert agree / total > 0.99


def test_hard_searches_heads_up_on_the_simulator() -> None:
    rules = Rules.from_preset("classic")
    state = new_hand(rules, 2, dealer=0, seed=3).state
    view = state.view_for(state.current)
    assert hard._fast(view)
    assert not hard._fast(
        new_hand(Rules.from_preset("party"), 2, dealer=0, seed=3).state.view_for(0)
    )
