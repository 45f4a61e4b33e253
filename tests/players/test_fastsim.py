"""``players.fastsim``: the heads-up simulator behind ``hard`` keeps every card and plays
``normal``'s choices (R-ACT-1/2/3/5, R-CHAL)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import players
from engine import Draw, Phase, Play, Rules, new_hand
from engine.cards import matches
from players import fastsim, normal


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
    for seed in range(200):
        cards = _deck()
        rng.shuffle(cards)
        top = next(c for c in cards[14:] if c >> 4 != 4)
        rest = cards[14:]
        rest.remove(top)
        sim = fastsim.Sim([cards[:7], cards[7:14]], rest, [], top >> 4, top, 0, seed)
        winner, turns = sim.run(10_000)
        held = [*sim.hands[0], *sim.hands[1], *sim.pile, *sim.discard, sim.card]
        assert Counter(held) == Counter(_deck())
        assert winner in (0, 1)
        assert not sim.hands[winner]
        assert turns > 0


@pytest.mark.parametrize("seats", [2, 4])
def test_the_rollout_policy_plays_normals_card(seats: int) -> None:
    rules = Rules.from_preset("classic")
    agree = total = 0
    for seed in range(40):
        state = new_hand(rules, seats, dealer=seed % seats, seed=seed).state
        for _ in range(200):
            if state.is_over:
                break
            seat = state.current
            action = normal.rollout_action(state, seat)
            assert action is not None
            if state.phase is Phase.PLAY and type(action) in (Play, Draw) and state.colour:
                view = state.view_for(seat)
                hand = [fastsim.code(f) for _, f in view.hand]
                counts = state.card_counts()
                step = 1 if state.clockwise else -1
                after, before = (seat + step) % seats, (seat - step) % seats
                colour = players.normal.COLOURS.index(state.colour)
                index, _ = fastsim.choose_play(
                    hand,
                    colour,
                    fastsim.code(state.top),
                    counts[after],
                    heads_up=seats == 2,
                    prev=counts[before],
                    danger=any(counts[s] <= 1 for s in range(seats) if s != seat),
                )
                mine = fastsim.code(action.face) if type(action) is Play else -1
                agree += (hand[index] if index >= 0 else -1) == mine
                total += 1
            state = state.apply(seat, action).state
    assert total > 500
    assert agree / total > 0.99


def test_the_simulator_takes_classic_rules_at_any_table_size() -> None:
    classic = Rules.from_preset("classic")
    assert fastsim.supports(classic, (True, True))
    assert fastsim.supports(classic, (True,) * 4)
    assert fastsim.supports(Rules.from_preset("online"), (True,) * 3)
    assert not fastsim.supports(Rules.from_preset("party"), (True, True))
    assert not fastsim.supports(Rules.from_preset("flip"), (True, True))


def test_the_simulator_matches_cards_by_the_engine_rule() -> None:
    faces = [fastsim.face_of(c) for c in range(fastsim.CODES)]
    for card, face in enumerate(faces):
        if face is None:
            continue
        for top, top_face in enumerate(faces):
            if top_face is None:
                continue
            for colour in range(4):
                expected = matches(face, top_face, players.normal.COLOURS[colour])
                assert fastsim.playable(card, top, colour) == expected
