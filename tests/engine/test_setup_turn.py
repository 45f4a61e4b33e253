"""The deck (R-DECK), setting up a hand (R-SETUP-1, -3, -4, -5) and a turn (R-TURN).

Every scenario deals exact hands (``scenario.hand``) or stacks the whole deck (``new_hand``
with ``order=``), then checks the next state, the phase, every seat's legal actions and the
events. Refused actions must raise with a reason code and leave the state untouched.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from engine import (
    Action,
    CardFace,
    Colour,
    EngineError,
    GameState,
    IllegalActionError,
    Phase,
    Reason,
    Rules,
    RulesError,
    Termination,
    new_hand,
    parse_action,
)
from engine.events import (
    CardPlayed,
    CardsDealt,
    CardsDrawn,
    CardsReceived,
    ChallengeResolved,
    ColourChosen,
    DrawCause,
    DrawSkipped,
    HandEnded,
    HandRevealed,
    HandsSwapped,
    HandStarted,
    Passed,
    PileReshuffled,
    StartCardReturned,
    TurnSkipped,
)
from engine.game import deal
from engine.hand import has_playable
from engine.match import Match
from engine.serialize import to_dict
from engine.validate import Problem, validate

from .scenario import faces, hand, kinds, legal, run

COLOURS = ("R", "Y", "G", "B")
WILD = [f"W={c}" for c in COLOURS]
WILD4 = [f"W4={c}" for c in COLOURS]
CHOOSE = [f"colour={c}" for c in COLOURS]


def face(text: str) -> CardFace:
    return CardFace.parse(text)


def table(state: GameState) -> dict[str, Any]:
    """The public situation in notation: top card, colour, turn, direction, phase."""
    return {
        "top": str(state.top),
        "colour": state.colour.value if state.colour is not None else None,
        "current": state.current,
        "clockwise": state.clockwise,
        "phase": state.phase,
    }


def refused(state: GameState, seat: int, action: str, reason: Reason) -> None:
    """``action`` is illegal for ``seat`` with ``reason`` and changes nothing."""
    before = to_dict(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, action)
    assert info.value.reason is reason
    assert not state.is_legal(seat, parse_action(action))
    assert to_dict(state) == before


def rebuilt(state: GameState, **changes: Any) -> GameState:
    """A consistent copy of ``state`` with some piles moved (card conservation checked)."""
    if "hands" in changes:
        changes["hands"] = tuple(tuple(sorted(h)) for h in changes["hands"])
    new = dataclasses.replace(state, **changes)
    assert validate(new) is Problem.NONE
    return new


def ok(state: GameState) -> GameState:
    assert validate(state) is Problem.NONE
    return state


# -- R-DECK ------------------------------------------------------------------------------


def classic_counts(copies: int = 1) -> Counter[str]:
    expected: Counter[str] = Counter()
    for c in COLOURS:
        expected[f"{c}0"] = copies
        for n in range(1, 10):
            expected[f"{c}{n}"] = 2 * copies
        for symbol in ("S", "R", "D2"):
            expected[f"{c}{symbol}"] = 2 * copies
    expected["W"] = 4 * copies
    expected["W4"] = 4 * copies
    return expected


def test_r_deck_1_classic_deck_has_108_cards_of_the_official_composition() -> None:
    """R-DECK-1: per colour one 0, two each of 1-9, Skip, Reverse and Draw Two; 4 + 4 wilds."""
    deck = Rules().deck()
    notations = [deck.face(card).notation for card in range(deck.size)]
    assert deck.size == 108
    assert Counter(notations) == classic_counts()
    for c in COLOURS:
        per_colour = [n for n in notations if n.startswith(c) and n not in ("W", "W4")]
        assert len(per_colour) == 25
    assert notations.count("W") == 4
    assert notations.count("W4") == 4
    assert "WH" not in notations
    # The fixed order of docs/notation.md: red first, wilds last, identical faces adjacent.
    assert notations[:5] == ["R0", "R1", "R1", "R2", "R2"]
    assert notations[25] == "Y0"
    assert notations[100:] == ["W"] * 4 + ["W4"] * 4


@pytest.mark.parametrize(
    ("text", "points"),
    [
        pytest.param("R0", 0, id="R-DECK-2-zero"),
        pytest.param("Y1", 1, id="R-DECK-2-one"),
        pytest.param("G5", 5, id="R-DECK-2-five"),
        pytest.param("B9", 9, id="R-DECK-2-nine"),
        pytest.param("RS", 20, id="R-DECK-2-skip"),
        pytest.param("YR", 20, id="R-DECK-2-reverse"),
        pytest.param("GD2", 20, id="R-DECK-2-draw-two"),
        pytest.param("W", 50, id="R-DECK-2-wild"),
        pytest.param("W4", 50, id="R-DECK-2-wild-draw-four"),
    ],
)
def test_r_deck_2_card_points(text: str, points: int) -> None:
    assert Rules().deck().value(face(text)) == points


def test_r_deck_2_swap_hands_scores_like_the_other_wilds() -> None:
    assert Rules(modern_deck=True).deck().value(face("WH")) == 50


def test_r_deck_2_whole_deck_and_hand_points() -> None:
    deck = Rules().deck()
    # Numbers 4 x (0 + 2 x 45) = 360, actions 4 x 6 x 20 = 480, wilds 8 x 50 = 400.
    assert sum(deck.value(deck.face(c)) for c in range(deck.size)) == 1240
    state = hand([["R7", "GS", "W4"], ["B0", "YR"]], "R5").state
    assert state.hand_points(0) == 7 + 20 + 50
    assert state.hand_points(1) == 0 + 20


def test_r_deck_3_two_decks_has_216_cards_every_face_doubled() -> None:
    deck = Rules(two_decks=True).deck()
    assert deck.size == 216
    assert Counter(deck.face(c).notation for c in range(deck.size)) == classic_counts(2)
    assert Rules().deck().size == 108  # off by default
    state = new_hand(Rules(two_decks=True), 10, dealer=9, seed=3).state
    ok(state)
    assert [len(h) for h in state.hands] == [7] * 10
    assert len(state.draw_pile) == 216 - 70 - 1


def test_r_deck_4_modern_deck_adds_one_swap_hands() -> None:
    deck = Rules(modern_deck=True).deck()
    notations = [deck.face(c).notation for c in range(deck.size)]
    assert deck.size == 109
    assert notations.count("WH") == 1
    assert notations[108] == "WH"
    assert Counter(n for n in notations if n != "WH") == classic_counts()
    with pytest.raises(EngineError):  # the classic deck has no Swap Hands card
        hand([["WH", "R1"], ["Y4"]], "R5")


MODERN = [["R1", "G2", "WH"], ["Y4", "G5"], ["B6", "Y8", "B9"]]


def test_r_deck_4_swap_hands_is_listed_per_colour_and_opponent() -> None:
    state = hand(MODERN, "R5", modern_deck=True).state
    swaps = [f"WH={c}@{t}" for c in COLOURS for t in (1, 2)]
    assert legal(state) == {0: ["R1", *swaps, "draw"]}


def test_r_deck_4_playing_swap_hands_swaps_hands_and_names_the_colour() -> None:
    state = hand(MODERN, "R5", modern_deck=True).state
    step = state.apply(0, "WH=B@1")
    after = ok(step.state)
    assert faces(after, 0) == ["Y4", "G5"]
    assert faces(after, 1) == ["R1", "G2"]
    assert faces(after, 2) == ["Y8", "B6", "B9"]
    assert table(after) == {
        "top": "WH",
        "colour": "B",
        "current": 1,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert kinds(step.events) == ["CardPlayed", "HandsSwapped"]
    assert step.events[0] == CardPlayed(0, 108, face("WH"), Colour.BLUE)
    assert step.events[1] == HandsSwapped(0, 1)
    assert legal(after) == {1: ["draw"]}  # R1 and G2 do not match blue


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        pytest.param("WH=B", Reason.TARGET_REQUIRED, id="R-DECK-4-no-target"),
        pytest.param("WH@1", Reason.COLOUR_REQUIRED, id="R-DECK-4-no-colour"),
        pytest.param("WH", Reason.COLOUR_REQUIRED, id="R-DECK-4-bare"),
        pytest.param("WH=B@0", Reason.BAD_TARGET, id="R-DECK-4-self"),
        pytest.param("WH=B@7", Reason.BAD_TARGET, id="R-DECK-4-no-such-seat"),
    ],
)
def test_r_deck_4_swap_hands_needs_a_colour_and_an_opponent(action: str, reason: Reason) -> None:
    state = hand(MODERN, "R5", modern_deck=True).state
    refused(state, 0, action, reason)


def test_r_deck_4_r_setup_5_swap_hands_start_card_acts_as_a_plain_wild() -> None:
    step = hand([["Y4", "G5"], ["B6", "Y8", "B9"], ["R1", "G2"]], "WH", modern_deck=True)
    state = ok(step.state)
    assert table(state)["phase"] is Phase.CHOOSE_COLOUR
    assert legal(state) == {0: CHOOSE}
    assert faces(state, 0) == ["Y4", "G5"]  # nothing swapped
    assert kinds(step.events) == ["CardsDealt"] * 3 + ["HandStarted"]


# -- R-SETUP-1 ---------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [pytest.param(n, id=f"R-SETUP-1-{n}-seats") for n in (1, 11)])
def test_r_setup_1_fewer_than_2_or_more_than_10_players_are_refused(seats: int) -> None:
    with pytest.raises(EngineError):
        new_hand(Rules(), seats, dealer=0, seed=1)
    with pytest.raises(EngineError):
        Match.new(Rules(), seats, seed=1, dealer=0)
    with pytest.raises(EngineError):
        deal(Rules(), [["R1"]] * seats, "R5")
    with pytest.raises(RulesError):
        Rules(players=seats)


@pytest.mark.parametrize("seats", [pytest.param(n, id=f"R-SETUP-1-{n}-seats") for n in (2, 10)])
def test_r_setup_1_two_to_ten_players_are_dealt(seats: int) -> None:
    state = ok(new_hand(Rules(), seats, dealer=0, seed=1).state)
    assert state.seats == seats
    assert [len(h) for h in state.hands] == [7] * seats
    match = Match.new(Rules(), seats, seed=1, dealer=0).match
    assert match.hand.seats == seats


# -- R-SETUP-3 ---------------------------------------------------------------------------


def test_r_setup_3_deal_seven_one_at_a_time_from_left_of_dealer_then_turn_the_top() -> None:
    # Stacked deck: card ids in order, top first. Four seats, seat 0 deals.
    step = new_hand(Rules(), 4, dealer=0, seed=0, order=list(range(108)))
    state = ok(step.state)
    # One card at a time: seats 1, 2, 3, 0, 1, 2, ...
    assert state.hands[1] == tuple(range(0, 28, 4))
    assert state.hands[2] == tuple(range(1, 28, 4))
    assert state.hands[3] == tuple(range(2, 28, 4))
    assert state.hands[0] == tuple(range(3, 28, 4))
    # The 29th card is turned up; the rest is the draw pile, its top (last) being card 29.
    assert state.discard == (28,)
    assert str(state.top) == "Y2"
    assert state.draw_pile == tuple(range(107, 28, -1))
    assert faces(state, 1) == ["R0", "R2", "R4", "R6", "R8", "RS", "RD2"]
    assert kinds(step.events) == ["CardsDealt"] * 4 + ["HandStarted"]
    assert [e.seat for e in step.events[:4] if isinstance(e, CardsDealt)] == [1, 2, 3, 0]
    assert step.events[4] == HandStarted(0, 1, face("Y2"), True)
    assert table(state) == {
        "top": "Y2",
        "colour": "Y",
        "current": 1,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    # Seat 1 holds R0 R2 R4 R6 R8 RS RD2: nothing yellow; the Red 2 matches the number.
    assert legal(state) == {1: ["R2", "draw"]}


def test_r_setup_3_counter_clockwise_deal_starts_with_the_other_neighbour() -> None:
    order = list(range(108))
    state = ok(new_hand(Rules(clockwise=False), 4, dealer=0, seed=0, order=order).state)
    assert state.hands[3] == tuple(range(0, 28, 4))
    assert state.hands[2] == tuple(range(1, 28, 4))
    assert state.hands[1] == tuple(range(2, 28, 4))
    assert state.hands[0] == tuple(range(3, 28, 4))
    assert state.discard == (28,)
    assert state.current == 3


def test_r_setup_3_seeded_deal_conserves_the_deck() -> None:
    state = ok(new_hand(Rules(), 5, dealer=2, seed=11).state)
    assert [len(h) for h in state.hands] == [7] * 5
    assert len(state.discard) == 1
    assert len(state.draw_pile) == 108 - 35 - 1


def test_r_setup_3_a_stacked_order_must_be_the_whole_deck() -> None:
    with pytest.raises(EngineError):
        new_hand(Rules(), 4, dealer=0, seed=0, order=list(range(107)))


# -- R-SETUP-4 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clockwise", "dealer", "first"),
    [
        pytest.param(True, 2, 3, id="R-SETUP-4-left-of-dealer"),
        pytest.param(True, 3, 0, id="R-SETUP-4-wraps-round"),
        pytest.param(False, 2, 1, id="R-SETUP-4-counter-clockwise"),
        pytest.param(False, 0, 3, id="R-SETUP-4-counter-clockwise-wraps"),
    ],
)
def test_r_setup_4_first_player(clockwise: bool, dealer: int, first: int) -> None:
    hands = [["G1"], ["G2"], ["G3"], ["G4"]]
    hands[first] = ["R1"]
    step = hand(hands, "R5", dealer=dealer, clockwise=clockwise)
    state = ok(step.state)
    assert table(state) == {
        "top": "R5",
        "colour": "R",
        "current": first,
        "clockwise": clockwise,
        "phase": Phase.PLAY,
    }
    assert legal(state) == {first: ["R1", "draw"]}
    assert step.events[-1] == HandStarted(dealer, first, face("R5"), clockwise)


@pytest.mark.parametrize(
    ("clockwise", "dealer", "first"),
    [
        pytest.param(True, 1, 2, id="R-SETUP-4-new-hand-clockwise"),
        pytest.param(False, 1, 0, id="R-SETUP-4-new-hand-counter-clockwise"),
    ],
)
def test_r_setup_4_first_player_after_a_real_deal(clockwise: bool, dealer: int, first: int) -> None:
    # A stacked deck whose 22nd card (the start card for 3 seats) is a number: Y0 (id 25).
    order = [c for c in range(108) if c != 25]
    order.insert(21, 25)
    step = new_hand(Rules(clockwise=clockwise), 3, dealer=dealer, seed=0, order=order)
    assert str(step.state.top) == "Y0"
    assert step.state.current == first
    assert step.events[-1] == HandStarted(dealer, first, face("Y0"), clockwise)


# -- R-SETUP-5 ---------------------------------------------------------------------------

# Three seats, seat 2 deals, so seat 0 is left of the dealer.
THREE = [["R1", "G2", "Y3"], ["R4", "G5", "B6"], ["R7", "Y8", "B9"]]


def test_r_setup_5_number_start_card_has_no_effect() -> None:
    step = hand(THREE, "R5")
    state = ok(step.state)
    assert table(state) == {
        "top": "R5",
        "colour": "R",
        "current": 0,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert legal(state) == {0: ["R1", "draw"]}
    assert kinds(step.events) == ["CardsDealt"] * 3 + ["HandStarted"]
    assert step.events[-1] == HandStarted(2, 0, face("R5"), True)
    assert [faces(state, s) for s in range(3)] == [
        ["R1", "Y3", "G2"],
        ["R4", "G5", "B6"],
        ["R7", "Y8", "B9"],
    ]


def test_r_setup_5_wild_start_card_first_player_names_the_colour_then_plays() -> None:
    step = hand(THREE, "W")
    state = ok(step.state)
    assert table(state) == {
        "top": "W",
        "colour": None,
        "current": 0,
        "clockwise": True,
        "phase": Phase.CHOOSE_COLOUR,
    }
    assert legal(state) == {0: CHOOSE}
    assert kinds(step.events) == ["CardsDealt"] * 3 + ["HandStarted"]
    refused(state, 0, "R1", Reason.WRONG_PHASE)
    refused(state, 0, "draw", Reason.WRONG_PHASE)
    refused(state, 1, "colour=R", Reason.NOT_YOUR_TURN)

    chosen = state.apply(0, "colour=G")
    after = ok(chosen.state)
    assert chosen.events == (ColourChosen(0, Colour.GREEN),)
    assert table(after) == {
        "top": "W",
        "colour": "G",
        "current": 0,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert legal(after) == {0: ["G2", "draw"]}
    refused(after, 0, "R1", Reason.DOES_NOT_MATCH)
    refused(after, 0, "colour=B", Reason.WRONG_PHASE)

    played, events = run(after, (0, "G2"))
    assert kinds(events) == ["CardPlayed"]
    assert table(played)["current"] == 1
    assert table(played)["top"] == "G2"
    assert legal(played) == {1: ["G5", "draw"]}


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({}, id="R-SETUP-5-draw-two"),
        pytest.param({"preset": "party"}, id="R-SETUP-5-draw-two-even-with-stacking"),
    ],
)
def test_r_setup_5_draw_two_start_card_first_player_draws_2_and_loses_the_turn(
    options: dict[str, Any],
) -> None:
    step = hand(THREE, "RD2", ["B7", "G8"], **options)
    state = ok(step.state)
    assert faces(state, 0) == ["R1", "Y3", "G2", "G8", "B7"]
    assert faces(state, 1) == ["R4", "G5", "B6"]
    assert table(state) == {
        "top": "RD2",
        "colour": "R",
        "current": 1,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert state.pending == 0
    assert legal(state) == {1: ["R4", "draw"]}
    assert kinds(step.events) == ["CardsDealt"] * 3 + [
        "HandStarted",
        "CardsDrawn",
        "CardsReceived",
        "TurnSkipped",
    ]
    b7 = next(c for c in state.hands[0] if str(state.face(c)) == "B7")
    g8 = next(c for c in state.hands[0] if str(state.face(c)) == "G8")
    assert step.events[3:] == (
        HandStarted(2, 1, face("RD2"), True),
        CardsDrawn(0, 2, DrawCause.PENALTY),
        CardsReceived(0, (b7, g8)),
        TurnSkipped(0),
    )


def test_r_setup_5_reverse_start_card_dealer_plays_first_counter_clockwise() -> None:
    step = hand(THREE, "RR")
    state = ok(step.state)
    assert table(state) == {
        "top": "RR",
        "colour": "R",
        "current": 2,
        "clockwise": False,
        "phase": Phase.PLAY,
    }
    assert legal(state) == {2: ["R7", "draw"]}
    assert kinds(step.events) == ["CardsDealt"] * 3 + ["HandStarted"]
    assert step.events[-1] == HandStarted(2, 2, face("RR"), False)
    after, _ = run(state, (2, "R7"))
    assert table(after)["current"] == 1  # then counter-clockwise: 2 -> 1 -> 0
    assert legal(after) == {1: ["R4", "draw"]}


def test_r_setup_5_reverse_start_card_with_two_players() -> None:
    step = hand([["R1", "G2"], ["R7", "Y8", "G9"]], "RR")
    state = ok(step.state)
    assert state.dealer == 1
    assert table(state) == {
        "top": "RR",
        "colour": "R",
        "current": 1,
        "clockwise": False,
        "phase": Phase.PLAY,
    }
    assert legal(state) == {1: ["R7", "draw"]}
    assert step.events[-1] == HandStarted(1, 1, face("RR"), False)
    after, _ = run(state, (1, "R7"))
    assert table(after)["current"] == 0
    assert legal(after) == {0: ["R1", "draw"]}


def test_r_setup_5_reverse_start_card_with_counter_clockwise_rules() -> None:
    # Counter-clockwise table: seat 1 deals, seat 0 would play first; the Reverse makes the
    # dealer play first and play goes clockwise.
    step = hand(THREE, "RR", clockwise=False)
    state = ok(step.state)
    assert state.dealer == 1
    assert table(state) == {
        "top": "RR",
        "colour": "R",
        "current": 1,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert legal(state) == {1: ["R4", "draw"]}
    after, _ = run(state, (1, "R4"))
    assert table(after)["current"] == 2


def test_r_setup_5_skip_start_card_first_player_is_skipped() -> None:
    step = hand(THREE, "RS")
    state = ok(step.state)
    assert table(state) == {
        "top": "RS",
        "colour": "R",
        "current": 1,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert legal(state) == {1: ["R4", "draw"]}
    assert kinds(step.events) == ["CardsDealt"] * 3 + ["HandStarted", "TurnSkipped"]
    assert step.events[3:] == (HandStarted(2, 1, face("RS"), True), TurnSkipped(0))
    assert [len(h) for h in state.hands] == [3, 3, 3]


def test_r_setup_5_skip_start_card_with_two_players_the_dealer_starts() -> None:
    step = hand([["R1", "G2"], ["R7", "Y8"]], "RS")
    state = ok(step.state)
    assert table(state)["current"] == 1
    assert legal(state) == {1: ["R7", "draw"]}
    assert step.events[-1] == TurnSkipped(0)


def test_r_setup_5_wild_draw_four_start_card_is_put_back_and_another_turned() -> None:
    step = hand(THREE, "W4", seed=0)
    state = ok(step.state)  # card conservation included
    assert kinds(step.events) == ["CardsDealt"] * 3 + ["StartCardReturned", "HandStarted"]
    assert step.events[3] == StartCardReturned(face("W4"))
    # The Wild Draw Four (id 104, the lowest) went back into the draw pile.
    assert str(state.face(104)) == "W4"
    assert 104 in state.draw_pile
    assert state.discard != (104,)
    assert len(state.discard) == 1
    assert len(state.draw_pile) == 108 - 9 - 1
    assert state.shuffles == 2  # the deal's shuffle and the reshuffle
    # Seed 0 turns a Blue 7 next; it is a number, so seat 0 simply starts.
    assert step.events[4] == HandStarted(2, 0, face("B7"), True)
    assert table(state) == {
        "top": "B7",
        "colour": "B",
        "current": 0,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert legal(state) == {0: ["draw"]}
    assert [faces(state, s) for s in range(3)] == [
        ["R1", "Y3", "G2"],
        ["R4", "G5", "B6"],
        ["R7", "Y8", "B9"],
    ]


def test_r_setup_5_wild_draw_four_turned_again_is_put_back_again() -> None:
    step = hand(THREE, "W4", seed=2)
    state = ok(step.state)
    assert kinds(step.events) == ["CardsDealt"] * 3 + [
        "StartCardReturned",
        "StartCardReturned",
        "HandStarted",
    ]
    assert state.top.kind.value != "W4"
    assert state.shuffles == 3
    assert len(state.draw_pile) == 108 - 9 - 1


def test_r_setup_5_card_turned_after_a_wild_draw_four_takes_its_effect() -> None:
    step = hand(THREE, "W4", seed=4)  # seed 4 turns a Red Skip after the Wild Draw Four
    state = ok(step.state)
    assert kinds(step.events) == ["CardsDealt"] * 3 + [
        "StartCardReturned",
        "HandStarted",
        "TurnSkipped",
    ]
    assert step.events[-2] == HandStarted(2, 1, face("RS"), True)
    assert step.events[-1] == TurnSkipped(0)
    assert table(state)["current"] == 1
    assert legal(state) == {1: ["R4", "draw"]}


def test_r_setup_5_wild_draw_four_start_card_in_a_real_deal() -> None:
    # Stacked deck: the 22nd card (the start card for 3 seats) is a Wild Draw Four.
    order = [c for c in range(108) if c != 107]
    order.insert(21, 107)
    step = new_hand(Rules(), 3, dealer=2, seed=9, order=order)
    state = ok(step.state)
    assert StartCardReturned(face("W4")) in step.events
    assert 107 in state.draw_pile
    assert state.top != face("W4")


# -- R-TURN-1 ----------------------------------------------------------------------------


def seat_1_plays_on(start: str, held: list[str]) -> GameState:
    """Seat 1 holds ``held`` and is to play on ``start``: a number start card is dealt by
    seat 0; a Skip or Draw Two start card is dealt by seat 2 and hits seat 0."""
    dealer = 0 if face(start).number is not None else 2
    state = ok(hand([["Y9", "Y8"], held, ["G9", "G8"]], start, dealer=dealer).state)
    assert state.current == 1
    assert state.phase is Phase.PLAY
    return state


@pytest.mark.parametrize(
    ("start", "held", "action", "colour"),
    [
        pytest.param("R5", ["R7", "G1"], "R7", "R", id="R-TURN-1-by-colour"),
        pytest.param("R5", ["B5", "G1"], "B5", "B", id="R-TURN-1-by-number"),
        pytest.param("YS", ["GS", "R1"], "GS", "G", id="R-TURN-1-by-symbol-skip"),
        pytest.param("YD2", ["BD2", "R1"], "BD2", "B", id="R-TURN-1-by-symbol-draw-two"),
        pytest.param("R4", ["RS", "G1"], "RS", "R", id="R-TURN-1-action-by-colour"),
    ],
)
def test_r_turn_1_a_matching_card_is_played(
    start: str, held: list[str], action: str, colour: str
) -> None:
    state = seat_1_plays_on(start, held)
    assert legal(state) == {1: [action, "draw"]}
    step = state.apply(1, action)
    after = ok(step.state)
    assert after.top == face(action)
    assert after.colour is Colour(colour)
    assert faces(after, 1) == [f for f in held if f != action]
    assert kinds(step.events)[0] == "CardPlayed"
    assert step.events[0] == CardPlayed(1, after.discard[-1], face(action), None)


def test_r_turn_1_legal_plays_match_colour_number_or_symbol_only() -> None:
    state = ok(hand([["R7", "Y9", "GS", "B5", "W"], ["Y1", "Y2"], ["G3", "G4"]], "R5").state)
    assert legal(state) == {0: ["R7", "B5", *WILD, "draw"]}
    after, events = run(state, (0, "R7"))
    assert kinds(events) == ["CardPlayed"]
    assert table(after) == {
        "top": "R7",
        "colour": "R",
        "current": 1,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert faces(after, 0) == ["Y9", "GS", "B5", "W"]
    assert legal(after) == {1: ["draw"]}


@pytest.mark.parametrize(
    ("start", "action"),
    [
        pytest.param("R5", "Y9", id="R-TURN-1-other-colour-other-number"),
        pytest.param("R5", "GS", id="R-TURN-1-action-on-number"),
        pytest.param("YS", "GR", id="R-TURN-1-other-symbol"),
        pytest.param("YD2", "GS", id="R-TURN-1-skip-on-draw-two"),
        pytest.param("R6", "B9", id="R-TURN-1-six-is-not-nine"),
    ],
)
def test_r_turn_1_a_card_that_does_not_match_is_refused(start: str, action: str) -> None:
    state = seat_1_plays_on(start, [action, "G1"])
    assert legal(state) == {1: ["draw"]}
    refused(state, 1, action, Reason.DOES_NOT_MATCH)


def test_r_turn_1_after_a_wild_the_named_colour_counts() -> None:
    state = hand([["W", "R7", "B2"], ["B5", "R9", "G5"], ["Y1", "Y2"]], "R5").state
    after, events = run(state, (0, "W=B"))
    assert events[0] == CardPlayed(0, 100, face("W"), Colour.BLUE)
    assert table(after)["colour"] == "B"
    assert legal(after) == {1: ["B5", "draw"]}  # the Red 9 matches neither blue nor "W"
    refused(after, 1, "R9", Reason.DOES_NOT_MATCH)
    refused(after, 1, "G5", Reason.DOES_NOT_MATCH)


def test_r_turn_1_other_refusals_leave_the_state_unchanged() -> None:
    state = hand([["R7", "G1"], ["R8", "G2"], ["Y1", "Y2"]], "R5").state
    refused(state, 1, "R8", Reason.NOT_YOUR_TURN)
    refused(state, 0, "R9", Reason.CARD_NOT_IN_HAND)
    refused(state, 0, "pass", Reason.NOTHING_TO_PASS)
    refused(state, 0, "challenge", Reason.NOTHING_TO_CHALLENGE)
    refused(state, 0, "R7=B", Reason.COLOUR_NOT_ALLOWED)


# -- R-TURN-2 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "colour", [pytest.param(c, id=f"R-TURN-2-wild-names-{c}") for c in COLOURS]
)
def test_r_turn_2_wild_is_playable_while_holding_playable_cards(colour: str) -> None:
    state = hand([["R7", "R9", "W"], ["B5", "G5"], ["Y1", "Y2"]], "R5").state
    assert legal(state) == {0: ["R7", "R9", *WILD, "draw"]}
    step = state.apply(0, f"W={colour}")
    after = ok(step.state)
    assert kinds(step.events) == ["CardPlayed"]
    assert step.events[0] == CardPlayed(0, 100, face("W"), Colour(colour))
    assert table(after) == {
        "top": "W",
        "colour": colour,
        "current": 1,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert faces(after, 0) == ["R7", "R9"]
    expected = {"R": ["draw"], "Y": ["draw"], "G": ["G5", "draw"], "B": ["B5", "draw"]}
    assert legal(after) == {1: expected[colour]}


def test_r_turn_2_a_wild_must_name_a_colour() -> None:
    state = hand([["R7", "W"], ["B5", "G5"]], "R5").state
    refused(state, 0, "W", Reason.COLOUR_REQUIRED)


# -- R-TURN-3 ----------------------------------------------------------------------------


def test_r_turn_3_wild_draw_four_is_legal_while_holding_the_current_colour() -> None:
    state = hand([["R7", "G2", "W4"], ["B5", "G5"], ["Y1", "Y2"]], "R5").state
    assert legal(state) == {0: ["R7", *WILD4, "draw"]}
    step = state.apply(0, "W4=G")
    after = ok(step.state)
    assert kinds(step.events) == ["CardPlayed"]
    assert step.events[0] == CardPlayed(0, 104, face("W4"), Colour.GREEN)
    assert table(after) == {
        "top": "W4",
        "colour": "G",
        "current": 1,
        "clockwise": True,
        "phase": Phase.CHALLENGE,
    }
    assert after.pending == 4
    assert after.offender == 0
    assert after.prior_colour is Colour.RED
    assert legal(after) == {1: ["draw", "challenge"]}


# The three worked examples of seed 001, "COME SI GIOCA IL JOLLY +4".
SEED_001_EXAMPLES = [
    # 1) Top Red 4; no red card, but a Blue 4 that could be played: the Draw Four is fair.
    pytest.param("R4", ["Y1", "B4", "W4"], "W4=B", False, id="R-TURN-3-seed-001-ex1-red-4"),
    # 2) Top Blue 6 and a blue Skip in hand: the Draw Four is not allowed (bluff).
    pytest.param("B6", ["Y1", "BS", "W4"], "W4=R", True, id="R-TURN-3-seed-001-ex2-blue-6"),
    # 3) Top Red 5 with a Wild and a Wild Draw Four: a Wild has no colour, so it is fair.
    pytest.param("R5", ["G3", "W", "W4"], "W4=Y", False, id="R-TURN-3-seed-001-ex3-red-5"),
]


@pytest.mark.parametrize(("start", "held", "action", "guilty"), SEED_001_EXAMPLES)
def test_r_turn_3_seed_001_examples_judged_by_the_challenge(
    start: str, held: list[str], action: str, guilty: bool
) -> None:
    state = hand([held, ["G5", "G6"], ["Y7", "Y8"]], start).state
    plays = legal(state)[0]
    assert action in plays  # legal in every example: bluffing is allowed
    assert plays[-1] == "draw"
    played = ok(state.apply(0, action).state)
    assert legal(played) == {1: ["draw", "challenge"]}
    offender_hand = played.hands[0]
    colour = action[-1]

    step = played.apply(1, "challenge")
    after = ok(step.state)
    assert step.events[0] == ChallengeResolved(1, 0, guilty, False)
    assert step.events[1] == HandRevealed(0, 1, offender_hand)
    assert after.phase is Phase.PLAY
    assert after.pending == 0
    assert after.colour is Colour(colour)
    if guilty:
        # The Draw Four player draws 4; the challenger draws nothing and plays normally.
        assert kinds(step.events) == [
            "ChallengeResolved",
            "HandRevealed",
            "CardsDrawn",
            "CardsReceived",
        ]
        assert step.events[2] == CardsDrawn(0, 4, DrawCause.CHALLENGE)
        assert len(after.hands[0]) == 2 + 4
        assert faces(after, 1) == ["G5", "G6"]
        assert after.current == 1
    else:
        # The challenger draws 4 + 2 and loses the turn.
        assert kinds(step.events) == [
            "ChallengeResolved",
            "HandRevealed",
            "CardsDrawn",
            "CardsReceived",
            "TurnSkipped",
        ]
        assert step.events[2] == CardsDrawn(1, 6, DrawCause.CHALLENGE)
        assert step.events[4] == TurnSkipped(1)
        assert faces(after, 0) == [f for f in held if f != "W4"]
        assert len(after.hands[1]) == 2 + 6
        assert after.current == 2


def test_r_turn_3_unchallenged_wild_draw_four_the_next_player_draws_4() -> None:
    state = hand([["B6", "BS", "W4"], ["G5", "G6"], ["Y7", "Y8"]], "B1").state
    after, events = run(state, (0, "W4=R"), (1, "draw"))
    ok(after)
    assert kinds(events) == ["CardPlayed", "CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert events[1] == CardsDrawn(1, 4, DrawCause.PENALTY)
    assert table(after) == {
        "top": "W4",
        "colour": "R",
        "current": 2,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert faces(after, 0) == ["B6", "BS"]


# -- R-TURN-4 ----------------------------------------------------------------------------


def test_r_turn_4_draw_is_allowed_while_holding_a_playable_card() -> None:
    state = hand([["R7", "G2"], ["B5", "G5"], ["Y1", "Y2"]], "R5", ["Y9"]).state
    assert legal(state) == {0: ["R7", "draw"]}
    step = state.apply(0, "draw")
    after = ok(step.state)
    assert faces(after, 0) == ["R7", "Y9", "G2"]
    assert kinds(step.events) == ["CardsDrawn", "CardsReceived"]
    assert step.events[0] == CardsDrawn(0, 1, DrawCause.DRAW)
    assert table(after)["current"] == 1  # the Yellow 9 does not match: the turn passes
    assert legal(after) == {1: ["G5", "B5", "draw"]}


def test_r_turn_4_draw_only_if_stuck_forbids_drawing_with_a_playable_card() -> None:
    state = hand([["R7", "G2"], ["B5", "G5"], ["Y1", "Y2"]], "R5", draw_only_if_stuck=True).state
    assert legal(state) == {0: ["R7"]}
    refused(state, 0, "draw", Reason.DRAW_NOT_ALLOWED)


def test_r_turn_4_draw_only_if_stuck_a_wild_counts_as_playable() -> None:
    state = hand([["W", "G2"], ["B5", "G5"], ["Y1", "Y2"]], "R5", draw_only_if_stuck=True).state
    assert legal(state) == {0: WILD}
    refused(state, 0, "draw", Reason.DRAW_NOT_ALLOWED)


def test_r_turn_4_draw_only_if_stuck_allows_drawing_when_stuck() -> None:
    state = hand(
        [["Y7", "G2"], ["B5", "G5"], ["Y1", "Y2"]], "R5", ["R8"], draw_only_if_stuck=True
    ).state
    assert legal(state) == {0: ["draw"]}
    step = state.apply(0, "draw")
    after = ok(step.state)
    assert kinds(step.events) == ["CardsDrawn", "CardsReceived"]
    assert after.phase is Phase.DRAWN
    assert legal(after) == {0: ["R8", "pass"]}


# -- R-TURN-5 ----------------------------------------------------------------------------

DRAWER = [["R7", "G2", "B3"], ["B5", "G5"], ["Y1", "Y2"]]


def test_r_turn_5_playable_drawn_card_play_it_or_pass_nothing_else() -> None:
    state = hand(DRAWER, "R5", ["R9"]).state
    step = state.apply(0, "draw")
    drawn = ok(step.state)
    assert kinds(step.events) == ["CardsDrawn", "CardsReceived"]
    assert step.events[0] == CardsDrawn(0, 1, DrawCause.DRAW)
    assert drawn.face(drawn.drawn) == face("R9")
    assert faces(drawn, 0) == ["R7", "R9", "G2", "B3"]
    assert table(drawn) == {
        "top": "R5",
        "colour": "R",
        "current": 0,
        "clockwise": True,
        "phase": Phase.DRAWN,
    }
    assert legal(drawn) == {0: ["R9", "pass"]}
    refused(drawn, 0, "R7", Reason.MUST_PLAY_DRAWN_CARD)  # playable, but not the drawn card
    refused(drawn, 0, "draw", Reason.WRONG_PHASE)
    refused(drawn, 1, "B5", Reason.NOT_YOUR_TURN)

    played = drawn.apply(0, "R9")
    assert kinds(played.events) == ["CardPlayed"]
    assert played.events[0] == CardPlayed(0, drawn.drawn, face("R9"), None)
    assert table(ok(played.state)) == {
        "top": "R9",
        "colour": "R",
        "current": 1,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert faces(played.state, 0) == ["R7", "G2", "B3"]
    assert legal(played.state) == {1: ["draw"]}

    passed = drawn.apply(0, "pass")
    assert passed.events == (Passed(0),)
    assert table(ok(passed.state)) == {
        "top": "R5",
        "colour": "R",
        "current": 1,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert passed.state.drawn is None
    assert faces(passed.state, 0) == ["R7", "R9", "G2", "B3"]
    assert legal(passed.state) == {1: ["G5", "B5", "draw"]}


def test_r_turn_5_drawn_card_identical_to_one_held_plays_the_drawn_one() -> None:
    state = hand([["R7", "G2"], ["B5", "G5"], ["Y1", "Y2"]], "R5", ["R7"]).state
    drawn = state.apply(0, "draw").state
    assert legal(drawn) == {0: ["R7", "pass"]}
    step = drawn.apply(0, "R7")
    assert step.events[0].card == drawn.drawn
    assert step.state.hands[0] == tuple(c for c in drawn.hands[0] if c != drawn.drawn)


def test_r_turn_5_drawn_wild_can_be_played_in_any_colour() -> None:
    state = hand(DRAWER, "R5", ["W"]).state
    drawn = ok(state.apply(0, "draw").state)
    assert legal(drawn) == {0: [*WILD, "pass"]}
    refused(drawn, 0, "R7", Reason.MUST_PLAY_DRAWN_CARD)
    after, events = run(drawn, (0, "W=Y"))
    assert events == [CardPlayed(0, drawn.drawn, face("W"), Colour.YELLOW)]
    assert table(after)["colour"] == "Y"
    assert legal(after) == {1: ["draw"]}


def test_r_turn_5_unplayable_drawn_card_passes_the_turn_by_itself() -> None:
    state = hand(DRAWER, "R5", ["Y9"]).state
    step = state.apply(0, "draw")
    after = ok(step.state)
    assert kinds(step.events) == ["CardsDrawn", "CardsReceived"]
    assert step.events[0] == CardsDrawn(0, 1, DrawCause.DRAW)
    assert faces(after, 0) == ["R7", "Y9", "G2", "B3"]
    assert after.drawn is None
    assert table(after) == {
        "top": "R5",
        "colour": "R",
        "current": 1,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert legal(after) == {1: ["G5", "B5", "draw"]}


def test_r_turn_5_draw_until_playable_keeps_drawing() -> None:
    state = hand(DRAWER, "R5", ["G8", "Y3", "B6", "R2", "R3"], draw_until_playable=True).state
    step = state.apply(0, "draw")
    after = ok(step.state)
    assert kinds(step.events) == ["CardsDrawn", "CardsReceived"] * 4
    assert [e for e in step.events if isinstance(e, CardsDrawn)] == [
        CardsDrawn(0, 1, DrawCause.DRAW)
    ] * 4
    assert faces(after, 0) == ["R2", "R7", "Y3", "G2", "G8", "B3", "B6"]
    assert after.face(after.drawn) == face("R2")
    assert table(after) == {
        "top": "R5",
        "colour": "R",
        "current": 0,
        "clockwise": True,
        "phase": Phase.DRAWN,
    }
    assert legal(after) == {0: ["R2", "pass"]}
    refused(after, 0, "R7", Reason.MUST_PLAY_DRAWN_CARD)
    played, _ = run(after, (0, "R2"))
    assert table(played)["top"] == "R2"
    assert table(played)["current"] == 1


def test_r_turn_5_draw_until_playable_stops_at_once_on_a_playable_card() -> None:
    state = hand(DRAWER, "R5", ["B5"], draw_until_playable=True).state
    step = state.apply(0, "draw")
    assert kinds(step.events) == ["CardsDrawn", "CardsReceived"]
    assert legal(step.state) == {0: ["B5", "pass"]}


# -- R-TURN-6 ----------------------------------------------------------------------------


def test_r_turn_6_empty_draw_pile_reshuffles_the_discard_pile_but_its_top() -> None:
    state = hand([["R1", "G1", "G2"], ["R3", "G3"], ["R4", "G4"]], "R9").state
    state, _ = run(state, (0, "R1"), (1, "R3"), (2, "R4"))
    assert [str(state.face(c)) for c in state.discard] == ["R9", "R1", "R3", "R4"]
    # Every card of the draw pile goes into seat 2's hand: the draw pile is empty.
    hands = [*state.hands[:2], state.hands[2] + state.draw_pile]
    empty = rebuilt(state, draw_pile=(), hands=hands)
    old = empty.discard

    step = empty.apply(0, "draw")
    after = ok(step.state)  # card conservation
    assert kinds(step.events) == ["PileReshuffled", "CardsDrawn", "CardsReceived"]
    assert step.events[0] == PileReshuffled(3)
    assert step.events[1] == CardsDrawn(0, 1, DrawCause.DRAW)
    assert after.discard == old[-1:]  # the top card stays
    assert sorted((*after.draw_pile, after.drawn)) == sorted(old[:-1])
    assert after.shuffles == empty.shuffles + 1
    got = str(after.face(after.drawn))
    assert got in ("R9", "R1", "R3")  # all red: playable on the Red 4
    assert table(after) == {
        "top": "R4",
        "colour": "R",
        "current": 0,
        "clockwise": True,
        "phase": Phase.DRAWN,
    }
    assert legal(after) == {0: [got, "pass"]}


def test_r_turn_6_reshuffle_in_the_middle_of_a_penalty() -> None:
    state = hand([["R1", "RD2", "G2"], ["R3", "G3"], ["R4", "G4"]], "R9").state
    state, _ = run(state, (0, "R1"), (1, "R3"), (2, "R4"))
    # Leave one card in the draw pile: the Draw Two needs the discard pile for the second.
    last = state.draw_pile[-1]
    hands = [*state.hands[:2], state.hands[2] + state.draw_pile[:-1]]
    short = rebuilt(state, draw_pile=(last,), hands=hands)

    step = short.apply(0, "RD2")
    after = ok(step.state)
    assert kinds(step.events) == [
        "CardPlayed",
        "PileReshuffled",
        "CardsDrawn",
        "CardsReceived",
        "TurnSkipped",
    ]
    assert step.events[1] == PileReshuffled(4)  # R9 R1 R3 R4 under the Draw Two
    assert step.events[2] == CardsDrawn(1, 2, DrawCause.PENALTY)
    assert last in after.hands[1]
    assert after.discard == (short.hands[0][0],)  # the Draw Two
    assert len(after.draw_pile) == 3
    assert table(after)["current"] == 2


def dry_table() -> GameState:
    """Red 5 on top and nothing else on the discard pile; no draw pile: every other card is
    in a hand. Seats 0 and 1 cannot play; seat 2 holds the rest of the deck."""
    state = hand([["G1", "B2"], ["Y3", "G4"], ["Y7", "B8"]], "R5").state
    hands = [*state.hands[:2], state.hands[2] + state.draw_pile]
    return rebuilt(state, draw_pile=(), hands=hands)


# Seat 2 holds every red card but the Red 5, the other three 5s and all the wilds; with
# nothing left to draw it may not draw (R-TURN-6).
SEAT_2_PLAYS = [
    *(f"R{n}" for n in range(10)),
    "RS",
    "RR",
    "RD2",
    "Y5",
    "G5",
    "B5",
    *WILD,
    *WILD4,
]


def test_r_turn_6_nothing_left_to_draw_skips_the_draw_and_the_turn_passes() -> None:
    state = dry_table()
    assert len(state.discard) == 1
    assert legal(state) == {0: ["draw"]}
    step = state.apply(0, "draw")
    after = ok(step.state)
    assert step.events == (DrawSkipped(0),)
    assert after.dry_draws == 1
    assert faces(after, 0) == ["G1", "B2"]
    assert table(after) == {
        "top": "R5",
        "colour": "R",
        "current": 1,
        "clockwise": True,
        "phase": Phase.PLAY,
    }
    assert legal(after) == {1: ["draw"]}

    step = after.apply(1, "draw")
    after = ok(step.state)
    assert step.events == (DrawSkipped(1),)
    assert after.dry_draws == 2
    assert after.phase is Phase.PLAY
    assert after.current == 2
    assert legal(after) == {2: SEAT_2_PLAYS}


def test_r_turn_6_with_nothing_to_draw_a_seat_that_can_play_must_play() -> None:
    """R-TURN-6 (tightened): with no card to draw, "draw" is no choice for a seat holding a
    playable card (R-TURN-4 offers a draw of one card, and there is none)."""
    state = dry_table()
    after, events = run(state, (0, "draw"), (1, "draw"))
    assert kinds(events) == ["DrawSkipped", "DrawSkipped"]
    assert after.dry_draws == 2
    assert legal(after) == {2: SEAT_2_PLAYS}
    refused(after, 2, "draw", Reason.DRAW_NOT_ALLOWED)
    after, _ = run(after, (2, "R0"))
    assert ok(after).dry_draws == 0
    assert after.phase is Phase.PLAY
    assert after.current == 0


def two_seat_dry_table(first: int) -> GameState:
    """Two seats, Red 5 on top, no draw pile: seat 1 holds a Green 1 and a Blue 2 (nothing
    to play), seat 0 every other card (reds, fives and wilds among them). ``first`` moves."""
    state = hand([["Y7", "B8"], ["G1", "B2"]], "R5", dealer=1 - first).state
    assert state.current == first
    return rebuilt(state, draw_pile=(), hands=[state.hands[0] + state.draw_pile, state.hands[1]])


def test_r_turn_6_two_seats_the_seat_that_can_play_may_not_draw_from_nothing() -> None:
    """The defect of issue 13 cannot come back: seat 0 used to draw "nothing" by choice
    while holding playable cards, and the hand could go on (or end blocked) forever."""
    state = two_seat_dry_table(0)
    assert legal(state) == {0: SEAT_2_PLAYS}
    refused(state, 0, "draw", Reason.DRAW_NOT_ALLOWED)


def test_r_turn_6_two_seats_the_stuck_seat_draws_dry_then_the_other_must_play() -> None:
    state = two_seat_dry_table(1)
    assert legal(state) == {1: ["draw"]}
    after, events = run(state, (1, "draw"))
    assert events == [DrawSkipped(1)]
    assert ok(after).dry_draws == 1
    assert not after.is_over
    assert legal(after) == {0: SEAT_2_PLAYS}


def test_r_turn_6_two_seats_the_seat_that_could_play_goes_out_in_the_end() -> None:
    """After a dry draw the seat that can play plays, which also gives the pile a card to
    reshuffle: the hand goes on to a normal end (R-END-1)."""
    state = two_seat_dry_table(1)
    after, _ = run(state, (1, "draw"))
    assert not after.is_over
    after, events = run(after, (0, "R0"), (1, "draw"))
    assert kinds(events) == ["CardPlayed", "PileReshuffled", "CardsDrawn", "CardsReceived"]
    assert ok(after).dry_draws == 0


def test_r_turn_6_a_full_round_of_stuck_seats_with_nothing_to_draw_ends_the_hand_blocked() -> None:
    """Every seat draws in turn with nothing to play and nothing to draw: blocked, ranked by
    the fewest points (R-SCORE-6).

    With every card of a deck in play some seat can always play here (the number cards of
    the colour in play are all in hands), so this end needs cards out of play: the table
    holds only the Green 1, Blue 2, Yellow 3, Green 4, Yellow 9 and the Red 5 on top.
    """
    state = hand([["G1", "B2"], ["Y3", "G4"], ["Y9"]], "R5").state
    state = dataclasses.replace(state, draw_pile=())
    after, events = run(state, (0, "draw"), (1, "draw"))
    assert kinds(events) == ["DrawSkipped", "DrawSkipped"]
    assert after.dry_draws == 2
    step = after.apply(2, "draw")
    over = step.state
    assert step.events == (DrawSkipped(2), HandEnded(Termination.BLOCKED, (0, 1, 2)))
    assert over.phase is Phase.HAND_OVER
    assert over.termination is Termination.BLOCKED
    outcome = over.outcome()
    assert outcome is not None
    assert outcome.points == (3, 7, 9)
    assert outcome.winner == 0
    assert legal(over) == {}
    refused(over, 0, "draw", Reason.HAND_OVER)


def test_r_turn_6_r_end_2_a_last_action_card_that_may_not_finish_leaves_the_seat_stuck() -> None:
    """With ``no_action_finish`` a seat whose only card is a matching Skip cannot play it
    (R-END-2): its draw from nothing is dry. Seat 2, which can play, may not draw."""
    state = hand([["RS"], ["G1", "B2"], ["Y7", "B8"]], "R5", no_action_finish=True).state
    state = rebuilt(state, draw_pile=(), hands=[*state.hands[:2], state.hands[2] + state.draw_pile])
    assert legal(state)[0] == ["draw"]
    after, _ = run(state, (0, "draw"))
    assert after.dry_draws == 1
    after, _ = run(after, (1, "draw"))
    assert after.dry_draws == 2
    refused(after, 2, "draw", Reason.DRAW_NOT_ALLOWED)
    after, _ = run(after, (2, "R0"))
    assert ok(after).dry_draws == 0
    assert not after.is_over


def test_r_turn_6_r_turn_2_a_seat_holding_only_wilds_must_play_one() -> None:
    """A wild can always be played (R-TURN-2): with nothing to draw, a seat holding only
    wilds must play one."""
    state = hand([["W", "W4"], ["G1", "B2"], ["Y7", "B8"]], "R5").state
    state = rebuilt(state, draw_pile=(), hands=[*state.hands[:2], state.hands[2] + state.draw_pile])
    assert legal(state) == {0: [*WILD, *WILD4]}
    refused(state, 0, "draw", Reason.DRAW_NOT_ALLOWED)
    after, _ = run(state, (0, "W=G"), (1, "G1"))
    assert ok(after).current == 2


def everything_dealt(seed: int) -> GameState:
    """Eight seats of 13 cards; the three cards left over go to seat 7, so nothing is left
    to draw until a card is played (R-TURN-6)."""
    state = new_hand(Rules(hand_size=13), 8, dealer=0, seed=seed).state
    hands = [*state.hands[:7], state.hands[7] + state.draw_pile]
    return rebuilt(state, draw_pile=(), hands=hands)


def any_seat_uniform(state: GameState, rnd: random.Random) -> tuple[int, Action]:
    """Any seat's legal action, each equally likely (the properties' policy)."""
    choices = [(seat, a) for seat in range(state.seats) for a in state.legal_actions(seat)]
    return choices[int(rnd.random() * len(choices))]


def current_seat_uniform(state: GameState, rnd: random.Random) -> tuple[int, Action]:
    legal_now = state.legal_actions(state.current)
    return state.current, legal_now[int(rnd.random() * len(legal_now))]


@pytest.mark.parametrize("policy", [any_seat_uniform, current_seat_uniform])
@pytest.mark.parametrize("seed", range(3))
def test_r_turn_6_eight_seats_with_nothing_to_draw_never_draw_while_able_to_play(
    seed: int, policy: Any
) -> None:
    """Issue 21: drawing "nothing" while holding a playable card let a random 8-player hand
    with an empty pile run past 30,000 steps. Now every draw that finds no card is made by
    a seat that had nothing to play, and random hands end (the worst of 40 such hands took
    about 4,500 steps)."""
    state = everything_dealt(seed)
    rnd = random.Random(seed)
    steps = 0
    while not state.is_over:
        assert steps < STEP_BOUND, "the hand did not end"
        seat, action = policy(state, rnd)
        step = state.apply(seat, action)
        if any(isinstance(e, DrawSkipped) for e in step.events):
            assert not has_playable(state, seat), (steps, seat)
        state = step.state
        steps += 1
    assert ok(state).termination is Termination.WENT_OUT


#: Ten times the longest of the 40 random hands measured with the tightened rule.
STEP_BOUND = 45_000


def test_r_turn_6_r_turn_4_with_draw_only_if_stuck_every_draw_from_nothing_is_dry() -> None:
    """``draw_only_if_stuck`` refuses a draw by choice, so only stuck seats draw."""
    state = hand([["G1", "B2"], ["Y3", "G4"], ["Y7", "B8"]], "R5", draw_only_if_stuck=True).state
    state = rebuilt(state, draw_pile=(), hands=[*state.hands[:2], state.hands[2] + state.draw_pile])
    after, _ = run(state, (0, "draw"), (1, "draw"))
    assert after.dry_draws == 2
    refused(after, 2, "draw", Reason.DRAW_NOT_ALLOWED)


def test_r_turn_6_r_act_7_a_jump_in_between_dry_draws_starts_the_count_again() -> None:
    """A card played out of turn (R-ACT-7) is a play: the stuck seats count from zero."""
    state = hand([["G1", "B2"], ["Y3", "G4"], ["Y7", "B8"]], "R5", jump_in=True).state
    state = rebuilt(state, draw_pile=(), hands=[*state.hands[:2], state.hands[2] + state.draw_pile])
    after, _ = run(state, (0, "draw"))
    assert after.dry_draws == 1
    after, events = run(after, (2, "R5"))  # seat 2 holds the other Red 5
    assert isinstance(events[0], CardPlayed)
    assert events[0].jump_in
    assert ok(after).dry_draws == 0


def test_r_turn_6_a_card_played_in_between_resets_the_round_of_dry_draws() -> None:
    state = dry_table()
    after, events = run(state, (0, "draw"), (1, "draw"), (2, "R0"))
    assert kinds(events) == ["DrawSkipped", "DrawSkipped", "CardPlayed"]
    assert after.dry_draws == 0
    assert after.phase is Phase.PLAY
    assert after.current == 0
    # The Red 5 under the Red 0 is the whole new draw pile: seat 0 draws it and may play it.
    step = after.apply(0, "draw")
    assert kinds(step.events) == ["PileReshuffled", "CardsDrawn", "CardsReceived"]
    assert step.events[0] == PileReshuffled(1)
    assert legal(ok(step.state)) == {0: ["R5", "pass"]}
