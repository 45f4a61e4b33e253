"""R-TIME-2: a player who leaves (or is removed) loses the match; the table goes on."""

from __future__ import annotations

import random

import pytest

from engine import IllegalActionError, Phase, Reason, Rules, Termination
from engine.game import remove_seat
from engine.match import Match, MatchEnded, PlayerRetired
from engine.serialize import GameRecord, replay, to_dict
from engine.simulate import random_step
from engine.validate import Problem, validate

from .scenario import faces, hand, kinds, legal, run


def test_r_time_2_leaving_on_ones_turn_passes_the_turn_and_keeps_every_card() -> None:
    state = hand([["R1", "G2"], ["R3", "B4"], ["Y5", "Y6"]], "R9").state
    step = remove_seat(state, 0)
    after = step.state
    assert kinds(step.events) == ["PlayerLeft"]
    assert after.playing == (False, True, True)
    assert after.current == 1
    assert after.hands[0] == ()
    assert [after.face(c).notation for c in after.draw_pile[:2]] == ["G2", "R1"]  # at the bottom
    assert validate(after) is Problem.NONE
    assert legal(after) == {1: ["R3", "draw"]}
    # The two left play heads-up: a Reverse now acts as a Skip (R-ACT-2).
    assert after.current == 1


def test_r_time_2_a_penalty_owed_by_the_leaver_lapses() -> None:
    state = hand([["R1", "W4", "G7"], ["B3", "B4"], ["Y5", "Y6"]], "R9").state
    state, _ = run(state, (0, "W4=B"))
    assert state.phase is Phase.CHALLENGE
    after = remove_seat(state, 1).state
    assert (after.phase, after.pending, after.current) == (Phase.PLAY, 0, 2)
    assert faces(after, 0) == ["R1", "G7"]
    assert validate(after) is Problem.NONE


def test_r_time_2_a_wild_draw_four_of_the_leaver_can_no_longer_be_challenged() -> None:
    state = hand([["R1", "W4", "G7"], ["B3", "B4"], ["Y5", "Y6"]], "R9").state
    state, _ = run(state, (0, "W4=B"))
    after = remove_seat(state, 0).state
    assert (after.phase, after.pending, after.current) == (Phase.PLAY, 0, 1)
    assert after.colour.value == "B"
    assert legal(after) == {1: ["B3", "B4", "draw"]}


def test_r_time_2_the_last_player_left_wins_the_hand_abandoned() -> None:
    state = hand([["R1", "G2"], ["R3", "B4"]], "R9").state
    step = remove_seat(state, 1)
    assert step.state.termination is Termination.ABANDONED
    assert step.state.ranking == (0,)
    assert kinds(step.events) == ["PlayerLeft", "HandEnded"]


def test_r_time_2_removing_a_seat_not_in_the_hand_is_refused() -> None:
    state = hand([["R1", "G2"], ["R3", "B4"], ["Y5"]], "R9").state
    gone = remove_seat(state, 2).state
    with pytest.raises(IllegalActionError) as error:
        remove_seat(gone, 2)
    assert error.value.reason is Reason.NOT_PLAYING


def test_r_time_2_a_player_who_leaves_loses_the_match_and_ranks_last() -> None:
    match = Match.new(Rules(), 3, seed=4, dealer=0).match
    step = match.remove_player(1)
    assert kinds(step.events)[:2] == ["PlayerRetired", "PlayerLeft"]
    assert step.match.left == (1,)
    assert not step.match.is_over
    assert step.match.hand.playing[1] is False
    final = step.match.remove_player(2)
    assert isinstance(final.events[-1], MatchEnded)
    assert final.match.ranking == (0, 2, 1)
    assert [s.seat for s in final.match.standings()] == [0, 2, 1]
    with pytest.raises(IllegalActionError) as error:
        final.match.remove_player(0)
    assert error.value.reason is Reason.MATCH_OVER


def test_r_time_2_the_next_hand_is_dealt_without_the_leaver() -> None:
    match = Match.new(Rules(), 3, seed=4, dealer=0).match
    match = match.remove_player(0).match
    rnd = random.Random(3)
    while not match.hand.is_over:
        seat, action = random_step(match.hand, rnd)
        match = match.apply(seat, action).match
    assert not match.is_over
    following = match.next_hand().match
    assert following.hand.playing == (False, True, True)
    assert following.hand.hands[0] == ()
    assert following.dealer in (1, 2)
    assert validate(following.hand) is Problem.NONE


def test_r_time_2_leaving_between_hands_and_in_records() -> None:
    record = GameRecord(
        rules=Rules(), players=3, seed=9, dealer=0, match=True, actions=((None, "leave@2"),)
    )
    match = replay(record)
    assert isinstance(match, Match)
    assert match.left == (2,)
    assert isinstance(PlayerRetired(2), PlayerRetired)
    assert to_dict(match)["left"] == [2]
    assert match.hand.playing == (True, True, False)
