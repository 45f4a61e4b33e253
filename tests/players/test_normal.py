"""The ``normal`` heuristic does what its docstring promises (R-UNO, R-CHAL, R-ACT, R-SETUP-5)."""

from __future__ import annotations

import random
from typing import Any

from engine import (
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Colour,
    Draw,
    GameState,
    Phase,
    Play,
    Rules,
    parse_action,
)
from engine.game import deal
from players import decide, normal


def table(
    hands: list[list[str]],
    start: str,
    draw: tuple[str, ...] = (),
    *,
    preset: str = "classic",
    **options: Any,
) -> GameState:
    """Exact hands; the last seat deals, so seat 0 plays first."""
    rules = Rules.from_preset(preset, **options)
    return deal(rules, hands, start, list(draw), dealer=len(hands) - 1).state


def ask(state: GameState, seat: int, level: str = "normal") -> str | None:
    action = decide(level, state.view_for(seat), random.Random(0))
    assert action is None or action in state.legal_actions(seat)
    return None if action is None else str(action)


def test_r_uno_1_normal_calls_uno_with_its_second_to_last_card() -> None:
    state = table([["R1", "R2"], ["B3", "B4", "G5"]], "R9")
    state = state.apply(0, parse_action(ask(state, 0) or "")).state
    assert len(state.hands[0]) == 1
    assert ask(state, 0) == "uno"
    assert ask(state.apply(0, CallUno()).state, 0) is None  # called: nothing more to do


def test_r_uno_6_normal_never_makes_a_false_call() -> None:
    state = table([["R1", "R2", "R3"], ["B3", "B4"]], "R9", false_call_penalty=True)
    state = state.apply(0, "R1").state
    assert CallUno() in state.legal_actions(0)  # legal, but it would cost two cards
    assert ask(state, 0) is None


def test_r_uno_2_normal_catches_a_player_who_did_not_call() -> None:
    state = table([["R1", "R2"], ["B3", "B4"], ["G3", "G4"]], "R9").apply(0, "R1").state
    assert ask(state, 2) == "catch@0"  # out of turn
    assert ask(state, 1) == "catch@0"  # on its turn, before playing


def test_r_uno_2_normal_does_not_catch_a_player_who_called() -> None:
    state = (
        table([["R1", "R2"], ["B3", "B4"], ["G3", "G4"]], "R9", false_call_penalty=True)
        .apply(0, "R1")
        .state
    )
    state = state.apply(0, CallUno()).state
    assert CatchUno(0) in state.legal_actions(2)  # a false catch is legal here ...
    assert ask(state, 2) is None  # ... and normal does not make it


def wild_draw_four(offender_hand: list[str], named: str, victim_hand: list[str]) -> GameState:
    """Seat 0 plays a Wild Draw Four naming ``named`` on a red 9; seat 1 must answer."""
    state = table([["W4", *offender_hand], victim_hand], "R9")
    state = state.apply(0, f"W4={named}").state
    return state.apply(0, CallUno()).state if len(offender_hand) == 1 else state


def test_r_chal_1_normal_challenges_a_big_hand_that_probably_held_the_colour() -> None:
    state = wild_draw_four(["B1", "B2", "G3", "G4", "Y5", "Y6", "B7"], "B", ["G1", "G2"])
    assert state.phase is Phase.CHALLENGE
    assert normal.challenge_probability(normal.spot_from_view(state.view_for(1))) > 0.5
    assert ask(state, 1) == "challenge"


def test_r_chal_1_normal_accepts_from_a_player_with_one_card() -> None:
    state = wild_draw_four(["B1"], "B", ["G1", "G2"])
    assert ask(state, 1) == "draw"


def test_r_chal_2_naming_the_replaced_colour_is_evidence() -> None:
    # Two cards left: naming another colour is believable, naming red again is a tell.
    assert ask(wild_draw_four(["B1", "B2"], "B", ["G1", "G2"]), 1) == "draw"
    assert ask(wild_draw_four(["B1", "B2"], "R", ["G1", "G2"]), 1) == "challenge"


def test_r_chal_2_normal_does_not_challenge_when_it_has_seen_every_card_of_the_colour() -> None:
    reds = [f"R{n}" for n in range(10)] + [f"R{n}" for n in range(1, 10)]
    reds += ["RS", "RS", "RR", "RR", "RD2", "RD2"]
    reds.remove("R9")  # the start card
    state = wild_draw_four(["B1", "B2", "G3", "G4", "Y5", "Y6", "B7"], "B", reds)
    view = state.view_for(1)
    assert normal.challenge_probability(normal.spot_from_view(view)) == 0.0
    assert ask(state, 1) == "draw"


def test_r_turn_3_normal_never_bluffs_a_wild_draw_four() -> None:
    state = table([["W4", "R1", "B2"], ["G1", "G2"]], "R9")
    assert ask(state, 0) == "R1"
    # Without the colour in play it is honest, and preferred to drawing.
    state = table([["W4", "B1", "B2"], ["G1", "G2"]], "R9")
    assert ask(state, 0) == "W4=B"


def test_r_turn_2_normal_holds_its_wild_while_another_card_matches() -> None:
    state = table([["W", "R2", "B3", "B4", "B5"], ["G1", "G2", "G3", "G4", "G5"]], "R9")
    assert ask(state, 0) == "R2"


def test_r_deck_2_normal_dumps_high_points_when_an_opponent_is_at_one_card() -> None:
    hands = [["W", "R2", "B3", "B4", "B5"], ["G1"], ["Y1", "Y2", "Y3"]]
    state = table(hands, "R9")
    assert ask(state, 0) == "W=B"  # the 50-point Wild goes, naming its strongest colour


def test_r_act_1_normal_attacks_the_next_player_at_one_card() -> None:
    hands = [["R2", "RD2", "B3", "B4"], ["G1"], ["Y1", "Y2", "Y3"]]
    assert ask(table(hands, "R9"), 0) == "RD2"
    # Heads-up the Skip is an extra turn; with the opponent at one card it beats a Red 8 too.
    assert ask(table([["R8", "RS", "B3", "B4"], ["G1"]], "R9"), 0) == "RS"


def test_r_turn_4_normal_draws_only_without_a_play() -> None:
    state = table([["B1", "G2"], ["G1", "G3"]], "R9", ("Y5",))
    assert ask(state, 0) == "draw"


def test_r_turn_5_normal_plays_a_playable_drawn_card() -> None:
    state = table([["B1", "G2"], ["G1", "G3"]], "R9", ("R5",)).apply(0, Draw()).state
    assert state.phase is Phase.DRAWN
    assert ask(state, 0) == "R5"


def test_r_setup_5_normal_names_the_colour_it_holds_most_of() -> None:
    state = table([["G1", "G2", "B3"], ["Y1", "Y2"]], "W")
    assert state.phase is Phase.CHOOSE_COLOUR
    assert ask(state, 0) == str(ChooseColour(Colour.GREEN))


def test_r_act_6_normal_stacks_a_draw_two() -> None:
    state = table([["RD2", "B1", "B2"], ["BD2", "G3", "Y3"], ["Y1", "Y2"]], "R9", preset="party")
    state = state.apply(0, "RD2").state
    assert state.phase is Phase.PENALTY
    assert ask(state, 1) == "BD2"


def test_r_act_7_normal_jumps_in_with_an_identical_card() -> None:
    state = table([["R5", "B1", "B2"], ["G3", "Y3"], ["R5", "Y2"]], "R9", preset="party")
    state = state.apply(0, "R5").state
    assert ask(state, 2) == "R5"  # not its turn
    assert ask(state, 1, "easy") in (None, "G3", "Y3", "draw")


def test_r_deck_4_normal_swaps_with_the_player_holding_fewest_cards() -> None:
    hands = [
        ["WH", "B1", "B2", "G3", "G4", "Y5", "Y6", "B7"],
        ["G1", "G2", "G5"],
        ["Y1", "Y2"],
        ["Y3", "Y4", "Y7", "Y8"],
    ]
    action = decide("normal", table(hands, "R9", modern_deck=True).view_for(0), random.Random())
    assert isinstance(action, Play)
    assert action.target == 2
    assert action.colour is Colour.RED  # the colour the hand it gives away lacks


def test_r_chal_1_every_level_answers_a_wild_draw_four() -> None:
    state = wild_draw_four(["B1", "B2", "G3"], "B", ["G1", "G2"])
    for level in ("easy", "normal", "hard"):
        action = decide(level, state.view_for(1), random.Random(4))
        assert action in (Draw(), Challenge())
