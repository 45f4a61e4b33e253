"""The weighed belief of ``hard`` (players/belief.py, players/likelihoods.py): what actions make
likely is weighed, not ruled out (R-TURN-4 lets people draw with a playable card); a deal
agrees with the view; and neither the belief nor the deal nor the decision reads a hidden
card (R-UNO-5): scrambling the hidden hands changes nothing."""

from __future__ import annotations

import random

import pytest

import players
from engine import Action, CardFace, Colour, GameState, Phase, PlayerView, Rules, events_for
from engine.events import Event
from engine.game import deal
from engine.rules import BlankEffect, SkipVariant, ZeroSpell
from players import hard, likelihoods
from players.arena import LevelPolicy, play_hand
from players.belief import CATEGORIES, Belief, Dealer, category

from .test_hard import _hidden_changed, _play


def _drawn_on_red_7() -> tuple[GameState, list[Event]]:
    """Seat 1 draws on a red 7 (it holds no red, no 7 and no wild); seat 0's view after."""
    rules = Rules()
    dealt = deal(
        rules, [["B2", "B8", "G1"], ["G3", "Y4", "G5", "B6"]], "R7", ["Y9", "G2"], dealer=0
    )
    state = dealt.state
    history: list[Event] = list(events_for(dealt.events, 0))
    assert state.current == 1
    for seat in (1, 0):  # neither Y9 nor G2 can be played: the turn passes on each time
        transition = state.apply(seat, "draw")
        history.extend(events_for(transition.events, 0))
        state = transition.state
    return state, history


def _share(state: GameState, history: list[Event], seat: int, wanted: object, n: int) -> float:
    """The share of ``seat``'s dealt cards for which ``wanted(face)`` holds, over ``n`` deals
    from seat 0's view (with the belief from ``history``, or none when it is empty)."""
    view = state.view_for(0)
    rules = state.rules
    belief = Belief.from_events(0, state.seats, history, rules.deck()) if history else None
    dealer = Dealer(view, belief)
    faces = rules.deck().sides[0]
    rng = random.Random(5)
    hits = total = 0
    for _ in range(n):
        hands, _, _ = dealer.deal(rng)
        for card in hands[seat]:
            hits += bool(wanted(faces[card]))  # type: ignore[operator]
            total += 1
    return hits / total


def test_r_turn_4_a_draw_makes_the_colour_and_symbol_unlikely_not_impossible() -> None:
    state, history = _drawn_on_red_7()
    red_or_7 = lambda face: face.colour is Colour.RED or face.symbol == CardFace.parse("R7").symbol  # noqa: E731
    blind = _share(state, [], 1, red_or_7, 400)
    weighed = _share(state, history, 1, red_or_7, 4000)
    assert blind > 0.25  # about 27 of the 95 unseen cards are red or a 7
    assert 0 < weighed < blind / 4
    belief = Belief.from_events(0, 2, history, state.rules.deck())
    (void, covered), *_ = belief.constraints(1, len(state.hands[1]))
    assert void.source == "drew"
    assert covered == 5  # the card drawn could not be played: the void covers it too
    assert 0 < void.weight(CardFace.parse("R2")) < void.weight(CardFace.parse("B2")) == 1.0


def test_r_turn_5_a_kept_card_is_weighed_as_measured() -> None:
    """Seat 1 draws a 7 on the red 7 and keeps it: the kept card is most likely a 7."""
    rules = Rules()
    dealt = deal(rules, [["B2", "B8", "G1"], ["G3", "Y4", "G5", "B6"]], "R7", ["Y7"], dealer=0)
    state = dealt.state
    history: list[Event] = list(events_for(dealt.events, 0))
    for action in ("draw", "pass"):
        transition = state.apply(1, action)
        history.extend(events_for(transition.events, 0))
        state = transition.state
    belief = Belief.from_events(0, 2, history, rules.deck())
    sources = [void.source for void, _ in belief.constraints(1, 5)]
    assert sources == ["drew", "kept"]
    sevens = _share(state, history, 1, lambda face: face.symbol == CardFace.parse("R7").symbol, 800)
    assert sevens > 0.15  # about one card in five: the kept one (blind: 6 of 95)


def test_a_named_colour_is_weighed_likelier() -> None:
    rules = Rules()
    dealt = deal(rules, [["B2", "B8", "G1"], ["W", "Y4", "Y5", "B6", "G7"]], "R7", dealer=0)
    state = dealt.state
    history: list[Event] = list(events_for(dealt.events, 0))
    transition = state.apply(1, "W=Y")
    history.extend(events_for(transition.events, 0))
    state = transition.state
    yellow = lambda face: face.colour is Colour.YELLOW  # noqa: E731
    assert _share(state, history, 1, yellow, 2000) > 1.5 * _share(state, [], 1, yellow, 2000)


def test_the_measured_table_covers_every_action_and_category() -> None:
    assert len(CATEGORIES) == 5
    for action in ("drew", "wild", "wd4", "named", "kept"):
        weights = likelihoods.LIKELIHOOD[action]
        assert len(weights) == len(CATEGORIES)
        assert min(weights) >= likelihoods.FLOOR > 0
    red_7, wild = CardFace.parse("R7"), CardFace.parse("W")
    assert category(CardFace.parse("R2"), red_7, Colour.RED) == 0
    assert category(CardFace.parse("B7"), red_7, Colour.RED) == 1
    assert category(wild, red_7, Colour.RED) == 2
    assert category(CardFace.parse("W4"), red_7, Colour.RED) == 3
    assert category(CardFace.parse("B2"), red_7, Colour.RED) == 4


@pytest.mark.parametrize(
    ("preset", "seats"),
    [("classic", 2), ("classic", 4), ("online", 3), ("party", 4), ("tournament", 2)],
)
def test_r_uno_5_scrambled_hidden_hands_change_no_deal_and_no_decision(
    preset: str, seats: int
) -> None:
    """The others' hands and the draw pile dealt again from the same cards: the belief, every
    deal drawn from it (same seed) and ``hard``'s decision are the same."""
    rules = Rules.from_preset(preset)
    checked = 0
    for seed in range(12):
        state, logs = _play(rules, seats, seed, 10 + 4 * seed)
        if state.is_over or state.phase is not Phase.PLAY:
            continue
        seat = state.current
        changed = _hidden_changed(state, seat, random.Random(seed))
        assert changed.hands != state.hands
        view: PlayerView = state.view_for(seat)
        assert changed.view_for(seat) == view
        deck = rules.deck()
        belief = Belief.from_events(seat, seats, logs[seat], deck)
        dealer = Dealer(changed.view_for(seat), Belief.from_events(seat, seats, logs[seat], deck))
        assert Dealer(view, belief).deal(random.Random(seed)) == dealer.deal(random.Random(seed))
        first: Action | None = players.decide("hard", view, random.Random(seed), logs[seat])
        again = players.decide("hard", changed.view_for(seat), random.Random(seed), logs[seat])
        assert first == again
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (4, {}),
        (4, {"teams": 2}),
        (4, {"teams": 2, "partner_gift": True}),
        (3, {"zero_spell": ZeroSpell.SWAP, "seven_swap": True}),
        (4, {"zero_spell": ZeroSpell.ROTATE}),
        (
            3,
            {"skip_variant": SkipVariant.GIVE, "blank_cards": 2, "blank_effect": BlankEffect.CHAIN},
        ),
        (
            4,
            {
                "skip_variant": SkipVariant.ALL_DRAW,
                "blank_cards": 4,
                "blank_effect": BlankEffect.REDEAL,
            },
        ),
    ],
)
def test_r_alt_hard_with_its_belief_plays_whole_hands_at_every_table(
    monkeypatch: pytest.MonkeyPatch, seats: int, options: dict[str, object]
) -> None:
    """4 players, pairs and teams, and the alternative rules (RULES.md §13): ``hard`` reads
    the history, deals from its weighed belief and finishes hands with legal actions."""
    monkeypatch.setattr(hard, "RACE_BUDGET", 40)
    monkeypatch.setattr(hard, "ENGINE_SIMULATIONS", 8)
    rules = Rules(**options)  # type: ignore[arg-type]
    for seed in range(2):
        policies = [LevelPolicy("hard")] + [LevelPolicy("normal")] * (seats - 1)
        assert play_hand(rules, policies, seed=seed, dealer=seed % seats).is_over
