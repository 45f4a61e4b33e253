"""The one protocol for who acts next (players.turns): the UNO window first (R-UNO-1), then
the others out of turn (R-UNO-2 catches, R-ACT-7 jump-ins), then the turn."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import CallUno, CatchUno, GameState, Play, PlayerView, Rules, new_hand, parse_action
from engine.events import UnoCalled, UnoCaught
from engine.game import deal
from players import decide
from players.arena import play_hand, transitions
from players.turns import ask_order, next_actor


def table(
    hands: list[list[str]], start: str, draw: tuple[str, ...] = (), **options: Any
) -> GameState:
    rules = Rules.from_preset("classic", **options)
    return deal(rules, hands, start, list(draw), dealer=len(hands) - 1).state


def normal(seat: int, view: PlayerView) -> Any:
    return decide("normal", view, random.Random(seat))


def test_r_uno_1_turn_order_without_a_window_ends_with_the_current_seat() -> None:
    state = table([["R1", "G2"], ["B3", "Y4"], ["G5", "B6"], ["Y7", "G8"]], "R9")
    assert state.current == 0
    assert ask_order(state, range(4)) == [1, 2, 3, 0]
    assert ask_order(state, [0, 2]) == [2, 0]


def test_r_uno_1_the_open_window_is_asked_first_even_before_the_turn() -> None:
    # Seat 0 plays its second-to-last card: its window is open while seat 1 is to play.
    state = table([["R1", "R2"], ["B3", "Y4"], ["G5", "B6"]], "R9")
    state = state.apply(0, parse_action("R1")).state
    assert state.uno_seat == 0
    assert not state.uno_called
    assert state.current == 1
    assert ask_order(state, range(3)) == [0, 2, 1]


def test_r_uno_1_a_seat_that_keeps_the_turn_is_asked_before_the_catchers() -> None:
    # Heads-up, a Skip played as the second-to-last card keeps the turn (R-ACT-3); the
    # opponent must not be asked (and catch) before the player calls.
    state = table([["RS", "R2"], ["B3", "Y4"]], "R9")
    state = state.apply(0, parse_action("RS")).state
    assert state.current == 0
    assert state.uno_seat == 0
    assert ask_order(state, range(2)) == [0, 1]


def test_r_uno_1_a_normal_computer_calls_uno_with_its_second_to_last_card() -> None:
    state = table([["R1", "R2"], ["B3", "Y4"], ["G5", "B6"]], "R9")
    decision = next_actor(state, range(3), normal)
    assert decision is not None
    assert decision.seat == 0
    assert isinstance(decision.actions[0], Play)
    assert decision.actions[1:] == (CallUno(),)
    after = state
    for action in decision.actions:
        after = after.apply(decision.seat, action).state
    assert after.uno_called
    # Nobody may catch a seat that called (R-UNO-2).
    assert not any(isinstance(a, CatchUno) for s in range(3) for a in after.legal_actions(s))


def test_r_uno_2_a_seat_that_did_not_call_is_caught_by_the_next_computer() -> None:
    # A person (seat 0, not driven here) played the second-to-last card without calling.
    state = table([["R1", "R2"], ["B3", "Y4"], ["G5", "B6"]], "R9")
    state = state.apply(0, parse_action("R1")).state
    decision = next_actor(state, [1, 2], normal)
    assert decision is not None
    assert decision.seat == 2  # out of turn first; seat 1's turn comes last
    assert decision.actions == (CatchUno(0),)


def test_next_actor_returns_none_when_no_computer_wants_to_act() -> None:
    state = table([["R1", "G2"], ["B3", "Y4"], ["G5", "B6"]], "R9")
    assert next_actor(state, [1, 2], normal) is None  # seat 0 (a person) is to play


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_r_uno_2_normal_computers_call_uno_are_never_caught_and_every_hand_ends(
    seats: int,
) -> None:
    """Every normal seat calls as it plays its second-to-last card, so no catch ever lands
    between computers, and every hand ends (the arena plays through the same protocol)."""
    rules = Rules.from_preset("classic")
    calls = 0
    for seed in range(30):
        state = new_hand(rules, seats, dealer=seed % seats, seed=seed).state
        for _, _, step in transitions(state, seats, normal):
            state = step.state
            for event in step.events:
                assert not (isinstance(event, UnoCaught) and not event.false_catch)
                calls += isinstance(event, UnoCalled)
        assert state.is_over
        arena = play_hand(rules, [lambda v, r: decide("normal", v, r)] * seats, seed=seed)
        assert arena.is_over
    assert calls >= 30
