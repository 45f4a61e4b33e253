"""Action cards (R-ACT-1..7), challenging a Wild Draw Four (R-CHAL-1..5) and the two-player
rules (R-TEAM-1), each checked on exact deals: next state, phase, every seat's legal actions
and the events. Where RULES.md is open, docs/engine.md is the spec."""

from __future__ import annotations

import dataclasses

import pytest

from engine import GameState, Phase, Stacking, Termination
from engine.cards import Colour
from engine.errors import IllegalActionError, Reason
from engine.events import (
    CardPlayed,
    CardsDrawn,
    CardsReceived,
    ChallengeResolved,
    DirectionReversed,
    DrawCause,
    Event,
    HandEnded,
    HandRevealed,
    PlayerWentOut,
    TurnSkipped,
    events_for,
)
from tests.engine.scenario import faces, hand, kinds, legal, run

R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE
WILD_PLAYS = ["W=R", "W=Y", "W=G", "W=B"]
W4_PLAYS = ["W4=R", "W4=Y", "W4=G", "W4=B"]
# Cards stacked on top of the draw pile, so that every penalty draws known faces.
PILE = ["Y6", "Y7", "G1", "G2", "B1", "B2", "Y8", "Y9", "G5", "G6"]


def refuse(state: GameState, seat: int, action: str, reason: Reason) -> None:
    """``action`` by ``seat`` is refused with ``reason`` and ``state`` is left as it was."""
    before = dataclasses.replace(state)
    before_legal = legal(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, action)
    assert info.value.reason is reason
    assert state == before
    assert state.version == before.version
    assert legal(state) == before_legal


def received(state: GameState, event: Event) -> list[str]:
    """The faces of the cards in a CardsReceived (or HandRevealed) event."""
    assert isinstance(event, CardsReceived | HandRevealed)
    return [state.face(c).notation for c in event.cards]


def assert_played(event: Event, seat: int, face: str, colour: Colour | None = None) -> None:
    assert isinstance(event, CardPlayed)
    assert (event.seat, event.face.notation, event.colour) == (seat, face, colour)


def assert_drew(event: Event, seat: int, count: int, cause: DrawCause) -> None:
    assert event == CardsDrawn(seat, count, cause)


# -- R-ACT-1 Draw Two ---------------------------------------------------------------------


def test_r_act_1_draw_two_next_player_draws_two_and_loses_the_turn() -> None:
    start = hand(
        [["R5", "RD2", "G3"], ["Y2", "B7", "B9"], ["R9", "G8", "B6"]], "R1", ["G1", "G2"]
    ).state
    assert legal(start) == {0: ["R5", "RD2", "draw"]}

    step = start.apply(0, "RD2")
    state, events = step.state, step.events

    assert faces(state, 0) == ["R5", "G3"]
    assert faces(state, 1) == ["Y2", "G1", "G2", "B7", "B9"]
    assert faces(state, 2) == ["R9", "G8", "B6"]
    assert (state.top.notation, state.colour, state.current, state.clockwise) == (
        "RD2",
        R,
        2,
        True,
    )
    assert state.phase is Phase.PLAY
    assert state.pending == 0
    assert legal(state) == {2: ["R9", "draw"]}
    assert kinds(events) == ["CardPlayed", "CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert_played(events[0], 0, "RD2")
    assert events[0].jump_in is False
    assert_drew(events[1], 1, 2, DrawCause.PENALTY)
    assert events[2].seat == 1
    assert received(state, events[2]) == ["G1", "G2"]
    assert events[3] == TurnSkipped(1)
    # The victim has lost the turn: nothing left for them to do.
    refuse(state, 1, "draw", Reason.NOT_YOUR_TURN)
    refuse(state, 1, "B7", Reason.NOT_YOUR_TURN)


def test_r_act_1_draw_two_matches_another_draw_two_of_any_colour() -> None:
    # The start BD2 hits seat 2 (left of dealer 1, R-SETUP-5); seat 0 then plays on it.
    start = hand(
        [["RD2", "R5", "G3"], ["Y2", "B7", "Y9"], ["G8", "G9", "Y4"]],
        "BD2",
        ["Y5", "Y6", "G1", "G2"],
        dealer=1,
    ).state
    assert (start.current, start.top.notation, start.colour) == (0, "BD2", B)
    assert legal(start) == {0: ["RD2", "draw"]}

    state, events = run(start, (0, "RD2"))

    assert faces(state, 0) == ["R5", "G3"]
    assert faces(state, 1) == ["Y2", "Y9", "G1", "G2", "B7"]
    assert (state.top.notation, state.colour, state.current, state.phase) == (
        "RD2",
        R,
        2,
        Phase.PLAY,
    )
    assert legal(state) == {2: ["draw"]}
    assert kinds(events) == ["CardPlayed", "CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert_drew(events[1], 1, 2, DrawCause.PENALTY)
    assert events[3] == TurnSkipped(1)


def test_r_act_1_draw_two_does_not_match_another_colour() -> None:
    start = hand([["RD2", "B5", "G3"], ["Y2", "B7", "Y9"], ["G8", "G9", "Y4"]], "B1").state
    assert legal(start) == {0: ["B5", "draw"]}
    refuse(start, 0, "RD2", Reason.DOES_NOT_MATCH)


# -- R-ACT-2 Reverse ----------------------------------------------------------------------


def test_r_act_2_reverse_changes_direction_with_three_players() -> None:
    start = hand([["RR", "R5", "G3"], ["Y2", "B7", "R8"], ["R9", "G8", "B6"]], "R1").state
    assert legal(start) == {0: ["R5", "RR", "draw"]}

    step = start.apply(0, "RR")
    state, events = step.state, step.events

    assert faces(state, 0) == ["R5", "G3"]
    assert faces(state, 1) == ["R8", "Y2", "B7"]
    assert faces(state, 2) == ["R9", "G8", "B6"]
    assert (state.top.notation, state.colour, state.current, state.clockwise) == (
        "RR",
        R,
        2,
        False,
    )
    assert state.phase is Phase.PLAY
    assert legal(state) == {2: ["R9", "draw"]}
    assert kinds(events) == ["CardPlayed", "DirectionReversed"]
    assert_played(events[0], 0, "RR")
    assert events[1] == DirectionReversed(False)

    # Play goes on counter-clockwise: after seat 2 comes seat 1.
    after, more = run(state, (2, "R9"))
    assert (after.current, after.clockwise) == (1, False)
    assert legal(after) == {1: ["R8", "draw"]}
    assert kinds(more) == ["CardPlayed"]


def test_r_act_2_a_second_reverse_restores_clockwise_with_four_players() -> None:
    start = hand(
        [["RR", "R5", "G3"], ["Y2", "B7", "R8"], ["R9", "G8", "B6"], ["YR", "Y4", "G4"]], "R1"
    ).state

    state, events = run(start, (0, "RR"))
    assert (state.current, state.clockwise) == (3, False)
    assert legal(state) == {3: ["YR", "draw"]}  # a Reverse matches by symbol

    state, events = run(state, (3, "YR"))
    assert (state.top.notation, state.colour, state.current, state.clockwise) == (
        "YR",
        Y,
        0,
        True,
    )
    assert faces(state, 3) == ["Y4", "G4"]
    assert kinds(events) == ["CardPlayed", "DirectionReversed"]
    assert events[1] == DirectionReversed(True)
    assert legal(state) == {0: ["draw"]}


def test_r_act_2_reverse_with_two_players_acts_as_skip() -> None:
    start = hand([["RR", "R5", "G3", "G4"], ["Y2", "B7", "R8"]], "R1").state
    assert start.current == 0

    step = start.apply(0, "RR")
    state, events = step.state, step.events

    assert faces(state, 0) == ["R5", "G3", "G4"]
    assert faces(state, 1) == ["R8", "Y2", "B7"]
    assert (state.top.notation, state.colour, state.current, state.clockwise) == (
        "RR",
        R,
        0,
        True,
    )
    assert state.phase is Phase.PLAY
    assert legal(state) == {0: ["R5", "draw"]}
    assert kinds(events) == ["CardPlayed", "TurnSkipped"]  # no DirectionReversed
    assert events[1] == TurnSkipped(1)
    refuse(state, 1, "R8", Reason.NOT_YOUR_TURN)

    # The same player plays again; then the turn goes to the opponent as usual.
    after, _ = run(state, (0, "R5"))
    assert after.current == 1
    assert legal(after) == {1: ["R8", "draw"]}


# -- R-ACT-3 Skip -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clockwise", "skipped", "next_seat"),
    [
        pytest.param(True, 1, 2, id="r-act-3-clockwise"),
        pytest.param(False, 2, 1, id="r-act-3-counter-clockwise"),
    ],
)
def test_r_act_3_skip_next_player_loses_the_turn(
    clockwise: bool, skipped: int, next_seat: int
) -> None:
    # Counter-clockwise the default dealer is seat 1, so seat 0 still plays first.
    start = hand(
        [["RS", "R5", "G3"], ["Y2", "B7", "R8"], ["R9", "G8", "B6"]], "R1", clockwise=clockwise
    ).state
    assert (start.current, start.clockwise) == (0, clockwise)

    step = start.apply(0, "RS")
    state, events = step.state, step.events

    assert faces(state, 0) == ["R5", "G3"]
    assert faces(state, 1) == ["R8", "Y2", "B7"]
    assert faces(state, 2) == ["R9", "G8", "B6"]
    assert (state.top.notation, state.colour, state.current, state.clockwise) == (
        "RS",
        R,
        next_seat,
        clockwise,
    )
    assert state.phase is Phase.PLAY
    assert legal(state) == {next_seat: ["R8" if next_seat == 1 else "R9", "draw"]}
    assert kinds(events) == ["CardPlayed", "TurnSkipped"]
    assert_played(events[0], 0, "RS")
    assert events[1] == TurnSkipped(skipped)
    refuse(state, skipped, "draw", Reason.NOT_YOUR_TURN)


def test_r_act_3_skip_with_two_players_the_player_plays_again() -> None:
    start = hand([["RS", "R5", "G3", "G4"], ["Y2", "B7", "R8"]], "R1").state

    step = start.apply(0, "RS")
    state, events = step.state, step.events

    assert faces(state, 0) == ["R5", "G3", "G4"]
    assert faces(state, 1) == ["R8", "Y2", "B7"]
    assert (state.top.notation, state.colour, state.current, state.clockwise) == (
        "RS",
        R,
        0,
        True,
    )
    assert state.phase is Phase.PLAY
    assert legal(state) == {0: ["R5", "draw"]}
    assert kinds(events) == ["CardPlayed", "TurnSkipped"]
    assert events[1] == TurnSkipped(1)


# -- R-ACT-4 Wild -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("colour", "answer"),
    [
        pytest.param(R, "R8", id="r-act-4-current-colour-red"),
        pytest.param(Y, "Y2", id="r-act-4-yellow"),
        pytest.param(G, "G7", id="r-act-4-green"),
        pytest.param(B, "B6", id="r-act-4-blue"),
    ],
)
def test_r_act_4_wild_names_any_colour(colour: Colour, answer: str) -> None:
    start = hand([["W", "R5", "G3"], ["R8", "Y2", "G7", "B6"], ["Y4", "G8", "B9"]], "R1").state
    assert legal(start) == {0: ["R5", *WILD_PLAYS, "draw"]}

    step = start.apply(0, f"W={colour.value}")
    state, events = step.state, step.events

    assert faces(state, 0) == ["R5", "G3"]
    assert faces(state, 1) == ["R8", "Y2", "G7", "B6"]
    assert (state.top.notation, state.colour, state.current, state.clockwise) == (
        "W",
        colour,
        1,
        True,
    )
    assert state.phase is Phase.PLAY
    assert legal(state) == {1: [answer, "draw"]}  # only the named colour matches now
    assert kinds(events) == ["CardPlayed"]
    assert_played(events[0], 0, "W", colour)


def test_r_act_4_wild_must_name_a_colour() -> None:
    start = hand([["W", "R5", "G3"], ["R8", "Y2", "G7"], ["Y4", "G8", "B9"]], "R1").state
    refuse(start, 0, "W", Reason.COLOUR_REQUIRED)


# -- R-ACT-5 Wild Draw Four -----------------------------------------------------------------


def w4_table(**options: object) -> GameState:
    """Seat 0 holds no red, so W4 on R1 is honest; seat 1 answers."""
    return hand(
        [["W4", "G3", "B4"], ["Y2", "B7", "B9"], ["R9", "G8", "B6"]], "R1", PILE, **options
    ).state


def test_r_act_5_wild_draw_four_opens_a_challenge_for_the_next_player() -> None:
    start = w4_table()
    assert legal(start) == {0: [*W4_PLAYS, "draw"]}

    step = start.apply(0, "W4=B")
    state, events = step.state, step.events

    assert faces(state, 0) == ["G3", "B4"]
    assert faces(state, 1) == ["Y2", "B7", "B9"]
    assert (state.top.notation, state.colour, state.current, state.clockwise) == (
        "W4",
        B,
        1,
        True,
    )
    assert state.phase is Phase.CHALLENGE
    assert state.pending == 4
    assert legal(state) == {1: ["draw", "challenge"]}
    assert kinds(events) == ["CardPlayed"]
    assert_played(events[0], 0, "W4", B)
    # Only taking it or challenging: no card, no pass.
    refuse(state, 1, "B7", Reason.CANNOT_STACK)
    refuse(state, 1, "pass", Reason.MUST_ANSWER_PENALTY)


def test_r_act_5_wild_draw_four_draw_takes_four_and_loses_the_turn() -> None:
    state, _ = run(w4_table(), (0, "W4=B"))

    step = state.apply(1, "draw")
    after, events = step.state, step.events

    assert faces(after, 0) == ["G3", "B4"]
    assert faces(after, 1) == ["Y2", "Y6", "Y7", "G1", "G2", "B7", "B9"]
    assert faces(after, 2) == ["R9", "G8", "B6"]
    assert (after.top.notation, after.colour, after.current, after.clockwise) == (
        "W4",
        B,
        2,
        True,
    )
    assert after.phase is Phase.PLAY
    assert after.pending == 0
    assert legal(after) == {2: ["B6", "draw"]}
    assert kinds(events) == ["CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert_drew(events[0], 1, 4, DrawCause.PENALTY)
    assert received(after, events[1]) == ["Y6", "Y7", "G1", "G2"]
    assert events[2] == TurnSkipped(1)


# -- R-ACT-6 stacking -----------------------------------------------------------------------


def test_r_act_6_no_stacking_by_default_draw_two_is_drawn_at_once() -> None:
    start = hand(
        [["RD2", "R5", "G3"], ["BD2", "B7", "Y2"], ["R9", "G8", "B6"]], "R1", ["G1", "G2"]
    ).state
    assert start.rules.stacking is Stacking.OFF

    state, events = run(start, (0, "RD2"))

    assert kinds(events) == ["CardPlayed", "CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert_drew(events[1], 1, 2, DrawCause.PENALTY)
    assert faces(state, 1) == ["Y2", "G1", "G2", "B7", "BD2"]
    assert (state.phase, state.current, state.pending) == (Phase.PLAY, 2, 0)
    assert legal(state) == {2: ["R9", "draw"]}
    refuse(state, 1, "BD2", Reason.NOT_YOUR_TURN)


def test_r_act_6_no_stacking_by_default_wild_draw_four_cannot_be_answered() -> None:
    start = hand(
        [["W4", "G3", "B4"], ["BD2", "W4", "B7", "Y2"], ["R9", "G8", "B6"]], "R1", PILE
    ).state
    state, _ = run(start, (0, "W4=B"))

    assert legal(state) == {1: ["draw", "challenge"]}
    refuse(state, 1, "BD2", Reason.CANNOT_STACK)
    refuse(state, 1, "W4=R", Reason.CANNOT_STACK)


def test_r_act_6_deflect_draw_two_on_draw_two_last_in_the_chain_draws_two() -> None:
    start = hand(
        [["RD2", "R5", "G3"], ["BD2", "W4", "B7", "R8"], ["GD2", "G8", "B6", "Y1"]],
        "R1",
        PILE,
        stacking="deflect",
    ).state

    step = start.apply(0, "RD2")
    state, events = step.state, step.events
    assert kinds(events) == ["CardPlayed"]
    assert faces(state, 1) == ["R8", "B7", "BD2", "W4"]
    assert (state.phase, state.pending, state.current, state.colour) == (
        Phase.PENALTY,
        2,
        1,
        R,
    )
    assert legal(state) == {1: ["BD2", "draw"]}
    refuse(state, 1, "R8", Reason.CANNOT_STACK)
    refuse(state, 1, "W4=B", Reason.CANNOT_STACK)  # no Wild Draw Four on a Draw Two
    refuse(state, 1, "pass", Reason.MUST_ANSWER_PENALTY)
    refuse(state, 2, "GD2", Reason.NOT_YOUR_TURN)

    step = state.apply(1, "BD2")  # a Draw Two of another colour deflects it
    state, events = step.state, step.events
    assert kinds(events) == ["CardPlayed"]
    assert faces(state, 1) == ["R8", "B7", "W4"]
    assert (state.top.notation, state.colour) == ("BD2", B)
    assert (state.phase, state.pending, state.current) == (Phase.PENALTY, 2, 2)  # not 4
    assert legal(state) == {2: ["GD2", "draw"]}

    step = state.apply(2, "draw")
    state, events = step.state, step.events
    assert kinds(events) == ["CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert_drew(events[0], 2, 2, DrawCause.PENALTY)
    assert received(state, events[1]) == ["Y6", "Y7"]
    assert faces(state, 2) == ["Y1", "Y6", "Y7", "G8", "GD2", "B6"]
    assert events[2] == TurnSkipped(2)
    assert (state.phase, state.pending, state.current) == (Phase.PLAY, 0, 0)
    assert legal(state) == {0: ["draw"]}  # R5, G3 on a blue Draw Two


def test_r_act_6_deflect_wild_draw_four_answered_only_by_draw_two_of_named_colour() -> None:
    start = hand(
        [["W4", "G3", "B4"], ["BD2", "GD2", "B7", "W4"], ["GD2", "G8", "B6", "Y1"]],
        "R1",
        PILE,
        stacking="deflect",
    ).state
    state, _ = run(start, (0, "W4=B"))

    assert (state.phase, state.pending, state.current) == (Phase.CHALLENGE, 4, 1)
    assert legal(state) == {1: ["BD2", "draw", "challenge"]}
    refuse(state, 1, "GD2", Reason.CANNOT_STACK)  # not the named colour
    refuse(state, 1, "W4=R", Reason.CANNOT_STACK)  # no W4 on a W4 in deflect
    refuse(state, 1, "B7", Reason.CANNOT_STACK)

    step = state.apply(1, "BD2")
    state, events = step.state, step.events
    assert kinds(events) == ["CardPlayed"]
    assert (state.top.notation, state.colour) == ("BD2", B)
    assert (state.phase, state.pending, state.current) == (Phase.PENALTY, 2, 2)
    assert legal(state) == {2: ["GD2", "draw"]}

    step = state.apply(2, "draw")
    state, events = step.state, step.events
    assert kinds(events) == ["CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert_drew(events[0], 2, 2, DrawCause.PENALTY)
    assert len(state.hands[2]) == 6
    assert (state.phase, state.current) == (Phase.PLAY, 0)


CUMULATIVE_HANDS = [
    ["RD2", "W4", "R5", "G3"],
    ["BD2", "W4", "B7", "Y8"],
    ["GD2", "W4", "G8", "Y1"],
    ["YD2", "W4", "Y9", "B2"],
]


@pytest.mark.parametrize(
    ("moves", "total", "phase", "victim", "victim_legal"),
    [
        pytest.param(
            [(0, "RD2"), (1, "BD2")],
            4,
            Phase.PENALTY,
            2,
            ["GD2", *W4_PLAYS, "draw"],
            id="r-act-6-cumulative-d2-d2-is-4",
        ),
        pytest.param(
            [(0, "RD2"), (1, "W4=G")],
            6,
            Phase.CHALLENGE,
            2,
            ["GD2", *W4_PLAYS, "draw", "challenge"],
            id="r-act-6-cumulative-d2-w4-is-6",
        ),
        pytest.param(
            [(0, "W4=B"), (1, "BD2")],
            6,
            Phase.PENALTY,
            2,
            ["GD2", *W4_PLAYS, "draw"],
            id="r-act-6-cumulative-w4-d2-is-6",
        ),
        pytest.param(
            [(0, "W4=B"), (1, "W4=Y")],
            8,
            Phase.CHALLENGE,
            2,
            [*W4_PLAYS, "draw", "challenge"],
            id="r-act-6-cumulative-w4-w4-is-8",
        ),
        pytest.param(
            [(0, "RD2"), (1, "BD2"), (2, "GD2")],
            6,
            Phase.PENALTY,
            3,
            ["YD2", *W4_PLAYS, "draw"],
            id="r-act-6-cumulative-d2-d2-d2-is-6",
        ),
        pytest.param(
            [(0, "RD2"), (1, "W4=G"), (2, "GD2")],
            8,
            Phase.PENALTY,
            3,
            ["YD2", *W4_PLAYS, "draw"],
            id="r-act-6-cumulative-d2-w4-d2-is-8",
        ),
    ],
)
def test_r_act_6_cumulative_totals_add_up(
    moves: list[tuple[int, str]],
    total: int,
    phase: Phase,
    victim: int,
    victim_legal: list[str],
) -> None:
    start = hand(CUMULATIVE_HANDS, "R1", PILE, stacking="cumulative").state

    state, events = run(start, *moves)

    assert kinds(events) == ["CardPlayed"] * len(moves)
    assert (state.phase, state.pending, state.current) == (phase, total, victim)
    assert legal(state) == {victim: victim_legal}
    for seat, _ in moves:
        assert len(state.hands[seat]) == 3
    if phase is Phase.PENALTY:
        refuse(state, victim, "challenge", Reason.NOTHING_TO_CHALLENGE)

    step = state.apply(victim, "draw")
    after, events = step.state, step.events
    assert kinds(events) == ["CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert_drew(events[0], victim, total, DrawCause.PENALTY)
    assert received(after, events[1]) == PILE[:total]
    assert events[2] == TurnSkipped(victim)
    assert len(after.hands[victim]) == 4 + total
    assert (after.phase, after.pending, after.current) == (Phase.PLAY, 0, (victim + 1) % 4)


def test_r_act_6_cumulative_guilty_challenge_leaves_the_rest_of_the_stack() -> None:
    # docs/engine.md: if guilty, the offender draws 4 and the rest stays with the challenger.
    start = hand(
        [["RD2", "R5", "G3"], ["W4", "R8", "B7", "Y8"], ["GD2", "W4", "G8", "Y1"]],
        "R1",
        PILE,
        stacking="cumulative",
    ).state
    state, _ = run(start, (0, "RD2"), (1, "W4=G"))  # seat 1 still held R8: guilty
    assert (state.phase, state.pending) == (Phase.CHALLENGE, 6)

    step = state.apply(2, "challenge")
    after, events = step.state, step.events
    assert kinds(events) == [
        "ChallengeResolved",
        "HandRevealed",
        "CardsDrawn",
        "CardsReceived",
    ]
    assert events[0] == ChallengeResolved(2, 1, True, False)
    assert_drew(events[2], 1, 4, DrawCause.CHALLENGE)
    assert (after.phase, after.pending, after.current) == (Phase.PENALTY, 2, 2)
    assert faces(after, 2) == ["Y1", "G8", "GD2", "W4"]
    assert legal(after) == {2: ["GD2", *W4_PLAYS, "draw"]}

    final, more = run(after, (2, "draw"))
    assert_drew(more[0], 2, 2, DrawCause.PENALTY)
    assert (final.phase, final.current) == (Phase.PLAY, 0)


def test_r_act_6_cumulative_innocent_challenger_takes_the_stack_plus_two() -> None:
    start = hand(
        [["RD2", "R5", "G3"], ["W4", "B7", "Y8", "B9"], ["GD2", "W4", "G8", "Y1"]],
        "R1",
        PILE,
        stacking="cumulative",
    ).state
    state, _ = run(start, (0, "RD2"), (1, "W4=G"))  # seat 1 held no red: innocent

    step = state.apply(2, "challenge")
    after, events = step.state, step.events
    assert kinds(events) == [
        "ChallengeResolved",
        "HandRevealed",
        "CardsDrawn",
        "CardsReceived",
        "TurnSkipped",
    ]
    assert events[0] == ChallengeResolved(2, 1, False, False)
    assert_drew(events[2], 2, 8, DrawCause.CHALLENGE)
    assert events[4] == TurnSkipped(2)
    assert len(after.hands[2]) == 12
    assert (after.phase, after.pending, after.current, after.colour) == (Phase.PLAY, 0, 0, G)


# -- R-ACT-7 jump-in ------------------------------------------------------------------------


def test_r_act_7_jump_in_with_the_identical_card_play_continues_from_the_jumper() -> None:
    start = hand(
        [["R5", "R6", "G3", "B4"], ["Y2", "B7", "R8"], ["R5", "G8", "B6"]], "R1", jump_in=True
    ).state
    state, _ = run(start, (0, "R5"))
    assert state.current == 1
    assert legal(state) == {1: ["R8", "draw"], 2: ["R5"]}  # seat 2 holds the identical R5

    step = state.apply(2, "R5")
    after, events = step.state, step.events

    assert kinds(events) == ["CardPlayed"]
    assert_played(events[0], 2, "R5")
    assert events[0].jump_in is True
    assert faces(after, 1) == ["R8", "Y2", "B7"]
    assert faces(after, 2) == ["G8", "B6"]
    assert (after.top.notation, after.colour, after.current, after.clockwise) == (
        "R5",
        R,
        0,
        True,
    )
    assert after.phase is Phase.PLAY
    assert legal(after) == {0: ["R6", "draw"]}  # seat 1 was passed over
    refuse(after, 1, "R8", Reason.NO_JUMP_IN)  # out of turn, and not identical to R5


def test_r_act_7_jump_in_escapes_a_skip_with_the_identical_skip() -> None:
    start = hand(
        [["RS", "R6", "G3"], ["RS", "Y2", "B7"], ["R9", "G8", "B6"]], "R1", jump_in=True
    ).state
    state, events = run(start, (0, "RS"))
    assert events[-1] == TurnSkipped(1)
    assert state.current == 2
    assert legal(state) == {1: ["RS"], 2: ["R9", "draw"]}

    step = state.apply(1, "RS")
    after, events = step.state, step.events

    assert kinds(events) == ["CardPlayed", "TurnSkipped"]
    assert_played(events[0], 1, "RS")
    assert events[0].jump_in is True
    assert events[1] == TurnSkipped(2)  # the jumper's Skip takes its full effect
    assert faces(after, 1) == ["Y2", "B7"]
    assert faces(after, 2) == ["R9", "G8", "B6"]
    assert (after.top.notation, after.colour, after.current, after.clockwise) == (
        "RS",
        R,
        0,
        True,
    )
    assert legal(after) == {0: ["R6", "draw"]}


@pytest.mark.parametrize(
    "card",
    [
        pytest.param("R7", id="r-act-7-same-colour"),
        pytest.param("B5", id="r-act-7-same-number"),
    ],
)
def test_r_act_7_a_non_identical_card_cannot_jump_in(card: str) -> None:
    start = hand(
        [["R5", "R6", "G3"], ["Y2", "B7", "R8"], [card, "G8", "B6"]], "R1", jump_in=True
    ).state
    state, _ = run(start, (0, "R5"))
    assert legal(state) == {1: ["R8", "draw"]}
    refuse(state, 2, card, Reason.NO_JUMP_IN)


@pytest.mark.parametrize(
    ("play", "phase"),
    [
        pytest.param("W=R", Phase.PLAY, id="r-act-7-wild"),
        pytest.param("W4=R", Phase.CHALLENGE, id="r-act-7-wild-draw-four"),
    ],
)
def test_r_act_7_a_wild_cannot_jump_in(play: str, phase: Phase) -> None:
    face = play.split("=")[0]
    start = hand(
        [[face, "G6", "G3"], ["Y2", "B7", "Y8"], [face, "G8", "B6"]], "R1", PILE, jump_in=True
    ).state
    state, _ = run(start, (0, play))
    assert state.phase is phase
    assert 2 not in legal(state)
    refuse(state, 2, play, Reason.NO_JUMP_IN)


def test_r_act_7_without_the_option_out_of_turn_is_refused() -> None:
    start = hand([["R5", "R6", "G3"], ["Y2", "B7", "R8"], ["R5", "G8", "B6"]], "R1").state
    assert start.rules.jump_in is False
    state, _ = run(start, (0, "R5"))
    assert legal(state) == {1: ["R8", "draw"]}
    refuse(state, 2, "R5", Reason.NOT_YOUR_TURN)


def test_r_act_7_jump_in_needs_the_card_in_hand() -> None:
    start = hand(
        [["R5", "R6", "G3"], ["Y2", "B7", "R8"], ["R7", "G8", "B6"]], "R1", jump_in=True
    ).state
    state, _ = run(start, (0, "R5"))
    refuse(state, 2, "R5", Reason.CARD_NOT_IN_HAND)


def test_r_act_7_r_act_6_jump_in_on_a_pending_draw_two() -> None:
    # docs/engine.md: in phase penalty an identical Draw Two may jump in when it could stack.
    start = hand(
        [["RD2", "R5", "G3"], ["B7", "Y2", "Y3"], ["RD2", "G8", "B6"]],
        "R1",
        PILE,
        stacking="deflect",
        jump_in=True,
    ).state
    state, _ = run(start, (0, "RD2"))
    assert legal(state) == {1: ["draw"], 2: ["RD2"]}

    step = state.apply(2, "RD2")
    after, events = step.state, step.events
    assert kinds(events) == ["CardPlayed"]
    assert events[0].jump_in is True
    assert (after.phase, after.pending, after.current) == (Phase.PENALTY, 2, 0)
    assert legal(after) == {0: ["draw"]}
    assert faces(after, 1) == ["Y2", "Y3", "B7"]


def test_r_act_7_nobody_jumps_in_while_a_drawn_card_is_decided() -> None:
    start = hand(
        [["R5", "R6", "G3"], ["Y2", "B7", "Y8"], ["R5", "G8", "B6"]],
        "R1",
        ["R9"],
        jump_in=True,
    ).state
    state, _ = run(start, (0, "R5"), (1, "draw"))
    assert state.phase is Phase.DRAWN
    assert legal(state) == {1: ["R9", "pass"]}
    refuse(state, 2, "R5", Reason.NO_JUMP_IN)


# -- R-CHAL-1 who may challenge -------------------------------------------------------------


def test_r_chal_1_only_the_player_hit_may_challenge_before_acting() -> None:
    state, _ = run(w4_table(), (0, "W4=B"))
    assert legal(state) == {1: ["draw", "challenge"]}
    refuse(state, 0, "challenge", Reason.NOT_YOUR_TURN)
    refuse(state, 2, "challenge", Reason.NOT_YOUR_TURN)
    refuse(state, 2, "draw", Reason.NOT_YOUR_TURN)

    after, _ = run(state, (1, "draw"))  # having taken the cards, it is too late
    refuse(after, 1, "challenge", Reason.NOT_YOUR_TURN)
    refuse(after, 2, "challenge", Reason.NOTHING_TO_CHALLENGE)


def test_r_chal_1_others_cannot_challenge_even_with_jump_in() -> None:
    state, _ = run(w4_table(jump_in=True), (0, "W4=B"))
    assert legal(state) == {1: ["draw", "challenge"]}
    refuse(state, 2, "challenge", Reason.NOT_YOUR_TURN)


# -- R-CHAL-2 the check and who sees the hand -----------------------------------------------


@pytest.mark.parametrize(
    ("extra", "guilty"),
    [
        pytest.param("R7", True, id="r-chal-2-held-the-prior-colour"),
        pytest.param("RS", True, id="r-chal-2-held-a-prior-colour-action"),
        pytest.param("B7", False, id="r-chal-2-named-colour-does-not-count"),
        pytest.param("Y1", False, id="r-chal-2-same-number-does-not-count"),
        pytest.param("W", False, id="r-chal-2-wild-does-not-count"),
    ],
)
def test_r_chal_2_checked_against_the_colour_before_the_wild_draw_four(
    extra: str, guilty: bool
) -> None:
    start = hand(
        [["W4", "G3", "G4", extra], ["Y2", "B8", "B9"], ["R9", "G8", "B6"]], "R1", PILE
    ).state
    state, _ = run(start, (0, "W4=B"))
    assert state.prior_colour is R

    step = state.apply(1, "challenge")
    assert step.events[0] == ChallengeResolved(1, 0, guilty, False)


@pytest.mark.parametrize(
    ("extra", "guilty"),
    [
        pytest.param("G5", True, id="r-chal-2-named-colour-of-the-wild-below"),
        pytest.param("R5", False, id="r-chal-2-colour-under-the-wild-does-not-count"),
    ],
)
def test_r_chal_2_before_colour_is_the_colour_named_by_a_wild(extra: str, guilty: bool) -> None:
    start = hand([["W", "B3", "B4"], ["W4", "Y3", extra], ["Y2", "B8", "B9"]], "R1", PILE).state
    state, _ = run(start, (0, "W=G"), (1, "W4=Y"))
    assert (state.prior_colour, state.colour, state.current) == (G, Y, 2)

    step = state.apply(2, "challenge")
    assert step.events[0] == ChallengeResolved(2, 1, guilty, False)


@pytest.mark.parametrize(
    ("extra", "guilty"),
    [
        pytest.param("R7", True, id="r-chal-2-reveal-guilty"),
        pytest.param("B7", False, id="r-chal-2-reveal-innocent"),
    ],
)
def test_r_chal_2_hand_revealed_to_the_challenger_alone(extra: str, guilty: bool) -> None:
    start = hand([["W4", "G3", extra], ["Y2", "B8", "B9"], ["R9", "G8", "B6"]], "R1", PILE)
    state, _ = run(start.state, (0, "W4=B"))
    offender_hand = state.hands[0]

    events = state.apply(1, "challenge").events

    revealed = [e for e in events if isinstance(e, HandRevealed)]
    assert len(revealed) == 1
    shown = revealed[0]
    assert (shown.seat, shown.viewer, shown.cards) == (0, 1, offender_hand)
    expected = ["R7", "G3"] if extra == "R7" else ["G3", extra]
    assert received(state, shown) == expected
    assert shown.audience == frozenset({1})
    assert shown in events_for(events, 1)
    for other in (0, 2, None):
        assert not any(isinstance(e, HandRevealed) for e in events_for(events, other))
    assert events[0] == ChallengeResolved(1, 0, guilty, False)


@pytest.mark.parametrize(
    ("extra", "guilty"),
    [
        pytest.param("R7", True, id="r-chal-2-reveal-nobody-guilty"),
        pytest.param("B7", False, id="r-chal-2-reveal-nobody-innocent"),
    ],
)
def test_r_chal_2_reveal_nobody_shows_no_hand(extra: str, guilty: bool) -> None:
    start = hand(
        [["W4", "G3", extra], ["Y2", "B8", "B9"], ["R9", "G8", "B6"]],
        "R1",
        PILE,
        challenge_reveal="nobody",
    )
    state, _ = run(start.state, (0, "W4=B"))

    events = state.apply(1, "challenge").events

    assert "HandRevealed" not in kinds(events)
    assert events[0] == ChallengeResolved(1, 0, guilty, False)


# Red cards on top of the pile: whatever the offender draws after the W4 is of the prior colour.
RED_PILE = ["R2", "R3", "G1", "G2", "B1", "B2", "Y6", "Y7"]


@pytest.mark.parametrize(
    ("options", "moves", "drawn_kinds"),
    [
        pytest.param(
            {},
            [(1, "catch@0")],
            ["UnoCaught", "CardsDrawn", "CardsReceived"],
            id="r-chal-2-after-an-uno-catch",
        ),
        pytest.param(
            {"false_call_penalty": True},
            [(0, "uno")],
            ["UnoCalled", "CardsDrawn", "CardsReceived"],
            id="r-chal-2-after-a-false-uno-call",
        ),
        pytest.param(
            {"uno_penalty": "automatic"},
            [],
            [],
            id="r-chal-2-after-the-automatic-uno-penalty",
        ),
    ],
)
def test_r_chal_2_cards_drawn_after_the_wild_draw_four_do_not_make_it_guilty(
    options: dict[str, object], moves: list[tuple[int, str]], drawn_kinds: list[str]
) -> None:
    """R-TURN-3/R-CHAL-3: guilt is holding a card of the prior colour when the W4 was played.

    Cards the offender draws afterwards (an UNO penalty) cannot have been played instead.
    """
    # Seat 0 holds no red when it plays W4=B on R1 (with a false call: two cards left).
    offender = ["W4", "G3", "G4"] if moves == [(0, "uno")] else ["W4", "G3"]
    start = hand(
        [offender, ["Y2", "B7", "B9"], ["R9", "G8", "B6"]], "R1", RED_PILE, **options
    ).state
    state, events = run(start, (0, "W4=B"), *moves)
    assert kinds(events)[1:] == drawn_kinds
    assert state.phase is Phase.CHALLENGE
    assert legal(state) == {**({0: ["uno"]} if not moves else {}), 1: ["draw", "challenge"]}

    after, events = run(state, (1, "challenge"))

    resolved = next(e for e in events if isinstance(e, ChallengeResolved))
    assert resolved == ChallengeResolved(1, 0, False, False)  # honest when played
    assert after.current == 2  # the challenger drew 6 and lost the turn


# -- R-CHAL-3 guilty --------------------------------------------------------------------------


def guilty_table(**options: object) -> GameState:
    """Seat 0 plays W4=B on R1 while holding R7: guilty."""
    start = hand(
        [["W4", "R7", "G3"], ["R8", "Y2", "B7"], ["R9", "G8", "B6"]], "R1", PILE, **options
    ).state
    state, _ = run(start, (0, "W4=B"))
    return state


def test_r_chal_3_guilty_offender_draws_four_challenger_plays_normally() -> None:
    state = guilty_table()

    step = state.apply(1, "challenge")
    after, events = step.state, step.events

    assert kinds(events) == ["ChallengeResolved", "HandRevealed", "CardsDrawn", "CardsReceived"]
    assert events[0] == ChallengeResolved(1, 0, True, False)
    assert_drew(events[2], 0, 4, DrawCause.CHALLENGE)
    assert events[3].seat == 0
    assert received(after, events[3]) == ["Y6", "Y7", "G1", "G2"]
    assert faces(after, 0) == ["R7", "Y6", "Y7", "G1", "G2", "G3"]
    assert faces(after, 1) == ["R8", "Y2", "B7"]  # the challenger draws nothing
    assert faces(after, 2) == ["R9", "G8", "B6"]
    assert (after.top.notation, after.colour, after.current, after.clockwise) == (
        "W4",
        B,
        1,
        True,
    )
    assert (after.phase, after.pending, after.offender) == (Phase.PLAY, 0, None)
    assert legal(after) == {1: ["B7", "draw"]}  # still the challenger's turn


def test_r_chal_3_guilty_retract_takes_the_card_back_and_the_colour_reverts() -> None:
    state = guilty_table(challenge_guilty="retract")

    step = state.apply(1, "challenge")
    after, events = step.state, step.events

    assert kinds(events) == ["ChallengeResolved", "HandRevealed", "CardsDrawn", "CardsReceived"]
    assert events[0] == ChallengeResolved(1, 0, True, True)
    assert events[2].seat == 0
    assert events[2].count == 4
    assert received(after, events[3]) == ["Y6", "Y7", "G1", "G2"]
    assert faces(after, 0) == ["R7", "Y6", "Y7", "G1", "G2", "G3", "W4"]
    assert faces(after, 1) == ["R8", "Y2", "B7"]
    assert (after.top.notation, after.colour, after.current, after.clockwise) == (
        "R1",
        R,
        1,
        True,
    )
    assert len(after.discard) == 1
    assert after.phase is Phase.PLAY
    assert legal(after) == {1: ["R8", "draw"]}  # playing on the previous top card


def test_r_chal_3_retract_reverts_to_the_colour_named_by_a_wild_below() -> None:
    start = hand(
        [["W", "B3", "B4"], ["W4", "Y3", "G5"], ["G2", "B8", "Y9"]],
        "R1",
        PILE,
        challenge_guilty="retract",
    ).state
    state, _ = run(start, (0, "W=G"), (1, "W4=Y"))

    after, events = run(state, (2, "challenge"))

    assert events[0] == ChallengeResolved(2, 1, True, True)
    assert (after.top.notation, after.colour, after.current) == ("W", G, 2)
    assert faces(after, 1) == ["Y3", "Y6", "Y7", "G1", "G2", "G5", "W4"]
    assert legal(after) == {2: ["G2", "draw"]}


# -- R-CHAL-4 innocent ------------------------------------------------------------------------


def test_r_chal_4_innocent_challenger_draws_six_and_loses_the_turn() -> None:
    state, _ = run(w4_table(), (0, "W4=B"))

    step = state.apply(1, "challenge")
    after, events = step.state, step.events

    assert kinds(events) == [
        "ChallengeResolved",
        "HandRevealed",
        "CardsDrawn",
        "CardsReceived",
        "TurnSkipped",
    ]
    assert events[0] == ChallengeResolved(1, 0, False, False)
    assert_drew(events[2], 1, 6, DrawCause.CHALLENGE)
    assert received(after, events[3]) == PILE[:6]
    assert events[4] == TurnSkipped(1)
    assert faces(after, 0) == ["G3", "B4"]
    assert faces(after, 1) == ["Y2", "Y6", "Y7", "G1", "G2", "B1", "B2", "B7", "B9"]
    assert (after.top.notation, after.colour, after.current, after.clockwise) == (
        "W4",
        B,
        2,
        True,
    )
    assert (after.phase, after.pending) == (Phase.PLAY, 0)
    assert legal(after) == {2: ["B6", "draw"]}


def test_r_chal_4_innocent_with_two_players_the_offender_plays_again() -> None:
    start = hand([["W4", "G3", "B4"], ["Y2", "B7", "B9"]], "R1", PILE).state
    state, _ = run(start, (0, "W4=B"))

    after, events = run(state, (1, "challenge"))

    assert events[0] == ChallengeResolved(1, 0, False, False)
    assert_drew(events[2], 1, 6, DrawCause.CHALLENGE)
    assert events[-1] == TurnSkipped(1)
    assert len(after.hands[1]) == 9
    assert (after.current, after.phase) == (0, Phase.PLAY)
    assert legal(after) == {0: ["B4", "draw"]}


# -- R-CHAL-5 no challenge against a plain Wild ------------------------------------------------


def test_r_chal_5_no_challenge_against_a_plain_wild() -> None:
    start = hand([["W", "R7", "G3"], ["Y2", "B7", "B9"], ["R9", "G8", "B6"]], "R1").state
    state, _ = run(start, (0, "W=B"))  # seat 0 held red: a Wild is always allowed

    assert state.phase is Phase.PLAY
    assert legal(state) == {1: ["B7", "B9", "draw"]}
    refuse(state, 1, "challenge", Reason.NOTHING_TO_CHALLENGE)


def test_r_chal_5_no_challenge_against_a_start_wild() -> None:
    start = hand([["R7", "G3", "B5"], ["Y2", "B7", "B9"], ["R9", "G8", "B6"]], "W").state
    assert start.phase is Phase.CHOOSE_COLOUR
    refuse(start, 0, "challenge", Reason.NOTHING_TO_CHALLENGE)


# -- R-CHAL + R-END-1: a Wild Draw Four as the last card ------------------------------------


def last_w4_table() -> GameState:
    start = hand([["W4"], ["R8", "Y2", "B7"], ["G8", "B6", "Y1"]], "R1", PILE).state
    step = start.apply(0, "W4=B")
    state, events = step.state, step.events
    assert kinds(events) == ["CardPlayed", "PlayerWentOut"]
    assert events[1] == PlayerWentOut(0, 1)
    assert faces(state, 0) == []
    assert (state.phase, state.current, state.pending, state.colour) == (
        Phase.CHALLENGE,
        1,
        4,
        B,
    )
    assert legal(state) == {1: ["draw", "challenge"]}  # no UNO window: seat 0 is out
    return state


def test_r_chal_4_r_end_1_challenge_of_a_last_wild_draw_four_is_innocent() -> None:
    state = last_w4_table()

    step = state.apply(1, "challenge")
    after, events = step.state, step.events

    assert kinds(events) == [
        "ChallengeResolved",
        "HandRevealed",
        "CardsDrawn",
        "CardsReceived",
        "TurnSkipped",
        "HandEnded",
    ]
    assert events[0] == ChallengeResolved(1, 0, False, False)
    assert events[1] == HandRevealed(0, 1, ())
    assert_drew(events[2], 1, 6, DrawCause.CHALLENGE)
    assert len(after.hands[1]) == 9
    assert after.phase is Phase.HAND_OVER
    assert legal(after) == {}
    outcome = after.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.WENT_OUT
    assert outcome.ranking == (0, 2, 1)
    assert outcome.winner == 0
    assert events[-1] == HandEnded(Termination.WENT_OUT, (0, 2, 1))
    refuse(after, 2, "draw", Reason.HAND_OVER)


def test_r_act_5_r_end_1_last_wild_draw_four_taken_ends_the_hand() -> None:
    state = last_w4_table()

    after, events = run(state, (1, "draw"))

    assert kinds(events) == ["CardsDrawn", "CardsReceived", "TurnSkipped", "HandEnded"]
    assert_drew(events[0], 1, 4, DrawCause.PENALTY)
    assert len(after.hands[1]) == 7
    assert after.phase is Phase.HAND_OVER
    assert after.outcome() is not None
    assert after.ranking[0] == 0


def test_r_act_6_r_end_1_no_stacking_on_a_last_wild_draw_four() -> None:
    start = hand(
        [["W4"], ["BD2", "W4", "B7"], ["G8", "B6", "Y1"]], "R1", PILE, stacking="cumulative"
    ).state
    state, _ = run(start, (0, "W4=B"))
    assert legal(state) == {1: ["draw", "challenge"]}
    refuse(state, 1, "BD2", Reason.CANNOT_STACK)


def test_r_act_6_r_end_1_last_draw_two_is_drawn_at_once_even_with_stacking() -> None:
    start = hand(
        [["RD2"], ["BD2", "B7", "B9"], ["R9", "G8", "B6"]], "R1", ["G1", "G2"], stacking="deflect"
    ).state

    state, events = run(start, (0, "RD2"))

    assert kinds(events) == [
        "CardPlayed",
        "PlayerWentOut",
        "CardsDrawn",
        "CardsReceived",
        "TurnSkipped",
        "HandEnded",
    ]
    assert_drew(events[2], 1, 2, DrawCause.PENALTY)
    assert faces(state, 1) == ["G1", "G2", "B7", "B9", "BD2"]
    assert state.phase is Phase.HAND_OVER
    assert state.ranking == (0, 2, 1)
    assert legal(state) == {}


# -- R-TEAM-1 two players -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "start_card", "moves", "drawn", "event_kinds"),
    [
        pytest.param(
            "BR", "B1", [(0, "BR")], 0, ["CardPlayed", "TurnSkipped"], id="r-team-1-reverse"
        ),
        pytest.param("BS", "B1", [(0, "BS")], 0, ["CardPlayed", "TurnSkipped"], id="r-team-1-skip"),
        pytest.param(
            "BD2",
            "B1",
            [(0, "BD2")],
            2,
            ["CardPlayed", "CardsDrawn", "CardsReceived", "TurnSkipped"],
            id="r-team-1-draw-two",
        ),
        pytest.param(
            "W4",
            "R1",
            [(0, "W4=B"), (1, "draw")],
            4,
            ["CardPlayed", "CardsDrawn", "CardsReceived", "TurnSkipped"],
            id="r-team-1-wild-draw-four",
        ),
    ],
)
def test_r_team_1_two_players_the_opponent_loses_the_turn(
    first: str,
    start_card: str,
    moves: list[tuple[int, str]],
    drawn: int,
    event_kinds: list[str],
) -> None:
    start = hand([[first, "Y5", "G3", "B4"], ["Y2", "G7", "Y9"]], start_card, PILE).state
    assert start.current == 0

    state, events = run(start, *moves)

    assert faces(state, 0) == ["Y5", "G3", "B4"]
    assert faces(state, 1) == sorted(
        ["Y2", "G7", "Y9", *PILE[:drawn]], key=lambda f: ("RYGB".index(f[0]), f)
    )
    assert (state.top.notation, state.colour, state.current, state.clockwise) == (
        first,
        B,
        0,
        True,
    )
    assert state.phase is Phase.PLAY
    assert legal(state) == {0: ["B4", "draw"]}  # the player plays again
    assert kinds(events) == event_kinds
    assert events[-1] == TurnSkipped(1)
    if drawn:
        assert_drew(events[-3], 1, drawn, DrawCause.PENALTY)


def test_r_team_1_two_of_three_seats_still_playing_reverse_acts_as_skip() -> None:
    # docs/engine.md: the two-player rules apply whenever two players are left in the hand.
    start = hand([["BR", "Y5", "G3", "B4"], [], ["Y2", "G7", "Y9"]], "B1").state
    assert (start.current, start.playing) == (0, (True, False, True))

    state, events = run(start, (0, "BR"))

    assert kinds(events) == ["CardPlayed", "TurnSkipped"]
    assert events[1] == TurnSkipped(2)
    assert (state.current, state.clockwise) == (0, True)
    assert legal(state) == {0: ["B4", "draw"]}
