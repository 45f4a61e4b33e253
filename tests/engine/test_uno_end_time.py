"""Calling UNO (R-UNO), the end of a hand (R-END), timed-out turns (R-TIME-1) and hidden
information (R-UNO-5, views and event audiences).

Every scenario deals exact hands with :func:`tests.engine.scenario.hand`; unless said
otherwise the dealer is the last seat, so seat 0 plays first and play goes 0 → 1 → 2.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from engine import (
    AfterTimeouts,
    CallUno,
    CatchUno,
    ChooseColour,
    Colour,
    Draw,
    DrawCause,
    GameState,
    IllegalActionError,
    Pass,
    Phase,
    Play,
    Reason,
    Rules,
    RulesError,
    TableView,
    Termination,
    UnoPenalty,
    events_for,
)
from engine.auto import auto_action
from engine.events import (
    CardPlayed,
    CardsDealt,
    CardsDrawn,
    CardsReceived,
    ChallengeResolved,
    ColourChosen,
    Event,
    HandEnded,
    HandRevealed,
    HandStarted,
    Passed,
    PlayerWentOut,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    UnoPenalised,
)
from engine.views import PlayerView

from .scenario import faces, hand, kinds, legal, run

# -- helpers -----------------------------------------------------------------------------


def refused(state: GameState, seat: int, action: str, reason: Reason) -> None:
    """``action`` raises IllegalActionError with ``reason`` and changes nothing."""
    before = dataclasses.replace(state)
    legal_before = legal(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, action)
    assert info.value.reason is reason
    assert state == before
    assert state.version == before.version
    assert legal(state) == legal_before


def played(event: Event) -> tuple[int, str, Colour | None]:
    """A CardPlayed event as (seat, face notation, named colour)."""
    assert isinstance(event, CardPlayed)
    return event.seat, event.face.notation, event.colour


def received(state: GameState, event: Event) -> tuple[int, list[str]]:
    """A CardsReceived event as (seat, faces in draw order)."""
    assert isinstance(event, CardsReceived)
    return event.seat, [state.face(c).notation for c in event.cards]


def drawn_events(events: Sequence[Event]) -> list[tuple[int, int, DrawCause]]:
    """Every CardsDrawn event as (seat, count, cause)."""
    return [(e.seat, e.count, e.cause) for e in events if isinstance(e, CardsDrawn)]


def uno_table(**options: object) -> GameState:
    """Seat 0 holds R1 R2 and plays first on R9; Y7 Y8 G9 are on top of the draw pile."""
    return hand(
        [["R1", "R2"], ["R3", "B4"], ["R5", "G6"]], "R9", ["Y7", "Y8", "G9"], **options
    ).state


def after_second_to_last(**options: object) -> GameState:
    """Seat 0 has just played R1 and holds only R2; seat 1 is to play on R1."""
    return uno_table(**options).apply(0, "R1").state


# The next player's turn actions that close the window (R-UNO-1/2): play R3, or draw (the
# pile gives Y7, which does not match R1, so the turn passes by itself).
NEXT_ACTS = [pytest.param("R3", id="next-plays"), pytest.param("draw", id="next-draws")]


# -- R-UNO-1: calling --------------------------------------------------------------------


def test_r_uno_1_window_opens_when_second_to_last_card_lands() -> None:
    state = uno_table()
    assert legal(state) == {0: ["R1", "R2", "draw"]}
    step = state.apply(0, "R1")
    after = step.state
    assert kinds(step.events) == ["CardPlayed"]
    assert played(step.events[0]) == (0, "R1", None)
    assert faces(after, 0) == ["R2"]
    assert after.top.notation == "R1"
    assert after.colour is Colour.RED
    assert after.current == 1
    assert after.phase is Phase.PLAY
    assert after.uno_seat == 0
    assert after.uno_called is False
    assert legal(after) == {0: ["uno"], 1: ["R3", "draw", "catch@0"], 2: ["catch@0"]}


def test_r_uno_1_call_right_after_the_play() -> None:
    state = after_second_to_last()
    step = state.apply(0, "uno")
    after = step.state
    assert kinds(step.events) == ["UnoCalled"]
    assert step.events[0] == UnoCalled(0, false_call=False)
    assert after.uno_called is True
    assert after.uno_seat == 0
    # Calling is not a turn action: nothing else moved.
    assert faces(after, 0) == ["R2"]
    assert after.top.notation == "R1"
    assert after.current == 1
    assert after.phase is Phase.PLAY
    assert legal(after) == {1: ["R3", "draw"]}
    refused(after, 0, "uno", Reason.NO_UNO_TO_CALL)  # once is enough


def test_r_uno_1_a_refused_catch_does_not_close_the_window() -> None:
    """Only a turn action of the next player closes the window."""
    state = after_second_to_last()
    refused(state, 2, "catch@1", Reason.NOTHING_TO_CATCH)
    after, events = run(state, (0, "uno"))
    assert kinds(events) == ["UnoCalled"]
    assert legal(after) == {1: ["R3", "draw"]}


@pytest.mark.parametrize("next_action", NEXT_ACTS)
def test_r_uno_1_window_closes_when_next_player_acts(next_action: str) -> None:
    state = after_second_to_last()
    step = state.apply(1, next_action)
    after = step.state
    assert after.uno_seat != 0
    refused(after, 0, "uno", Reason.NO_UNO_TO_CALL)
    assert faces(after, 0) == ["R2"]  # nobody caught it: no penalty (R-UNO-2)
    if next_action == "R3":
        assert kinds(step.events) == ["CardPlayed"]
        assert faces(after, 1) == ["B4"]
        assert after.top.notation == "R3"
        assert after.current == 2
        # Seat 1 now has its own window; seat 0's is gone.
        assert legal(after) == {0: ["catch@1"], 1: ["uno"], 2: ["R5", "draw", "catch@1"]}
    else:
        assert kinds(step.events) == ["CardsDrawn", "CardsReceived"]
        assert drawn_events(step.events) == [(1, 1, DrawCause.DRAW)]
        assert received(after, step.events[1]) == (1, ["Y7"])
        assert faces(after, 1) == ["R3", "Y7", "B4"]
        assert after.top.notation == "R1"
        assert after.current == 2  # Y7 does not match R1: the turn passed by itself
        assert after.phase is Phase.PLAY
        assert legal(after) == {2: ["R5", "draw"]}


def test_r_uno_1_no_call_before_playing_or_with_two_cards_left() -> None:
    state = uno_table()
    refused(state, 0, "uno", Reason.NO_UNO_TO_CALL)  # two cards, nothing played yet
    three = hand([["R1", "R2", "G3"], ["R3", "B4"], ["R5", "G6"]], "R9").state
    after = three.apply(0, "R1").state
    assert faces(after, 0) == ["R2", "G3"]
    assert legal(after) == {1: ["R3", "draw"]}
    refused(after, 0, "uno", Reason.NO_UNO_TO_CALL)
    refused(after, 1, "catch@0", Reason.NOTHING_TO_CATCH)


def test_r_uno_1_only_the_player_who_reached_one_card_may_call() -> None:
    state = after_second_to_last()
    refused(state, 1, "uno", Reason.NO_UNO_TO_CALL)
    refused(state, 2, "uno", Reason.NO_UNO_TO_CALL)


def test_r_uno_1_a_forced_draw_is_not_the_next_player_beginning_a_turn() -> None:
    """A Draw Two as the second-to-last card: the victim draws and loses the turn, so the
    window stays open until the player after the victim acts."""
    state = hand([["RD2", "R2"], ["R3", "B4"], ["R5", "G6"]], "R9", ["Y7", "Y8", "G9"]).state
    step = state.apply(0, "RD2")
    after = step.state
    assert kinds(step.events) == ["CardPlayed", "CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert drawn_events(step.events) == [(1, 2, DrawCause.PENALTY)]
    assert step.events[3] == TurnSkipped(1)
    assert faces(after, 0) == ["R2"]
    assert faces(after, 1) == ["R3", "Y7", "Y8", "B4"]
    assert after.current == 2
    assert legal(after) == {0: ["uno"], 1: ["catch@0"], 2: ["R5", "draw", "catch@0"]}
    after2, events = run(after, (0, "uno"))
    assert kinds(events) == ["UnoCalled"]
    assert legal(after2) == {2: ["R5", "draw"]}


# -- R-UNO-2: catching -------------------------------------------------------------------


@pytest.mark.parametrize("catcher", [1, 2])
def test_r_uno_2_catch_before_next_player_acts(catcher: int) -> None:
    state = after_second_to_last()
    step = state.apply(catcher, "catch@0")
    after = step.state
    assert kinds(step.events) == ["UnoCaught", "CardsDrawn", "CardsReceived"]
    assert step.events[0] == UnoCaught(catcher, 0, false_catch=False)
    assert drawn_events(step.events) == [(0, 2, DrawCause.UNO)]
    assert received(after, step.events[2]) == (0, ["Y7", "Y8"])
    assert faces(after, 0) == ["R2", "Y7", "Y8"]
    assert faces(after, catcher) == faces(state, catcher)
    # A catch is not a turn action: seat 1 is still to play on R1.
    assert after.top.notation == "R1"
    assert after.colour is Colour.RED
    assert after.current == 1
    assert after.phase is Phase.PLAY
    assert after.uno_seat is None
    assert legal(after) == {1: ["R3", "draw"]}
    refused(after, 0, "uno", Reason.NO_UNO_TO_CALL)
    refused(after, 3 - catcher, "catch@0", Reason.NOTHING_TO_CATCH)


def test_r_uno_2_the_next_player_may_catch_and_then_play() -> None:
    state, events = run(after_second_to_last(), (1, "catch@0"), (1, "R3"))
    assert kinds(events) == ["UnoCaught", "CardsDrawn", "CardsReceived", "CardPlayed"]
    assert faces(state, 0) == ["R2", "Y7", "Y8"]
    assert faces(state, 1) == ["B4"]
    assert state.current == 2
    assert legal(state) == {0: ["catch@1"], 1: ["uno"], 2: ["R5", "draw", "catch@1"]}


def test_r_uno_2_catch_refused_once_the_player_called() -> None:
    state = after_second_to_last().apply(0, "uno").state
    assert legal(state) == {1: ["R3", "draw"]}
    refused(state, 1, "catch@0", Reason.NOTHING_TO_CATCH)
    refused(state, 2, "catch@0", Reason.NOTHING_TO_CATCH)


@pytest.mark.parametrize("next_action", NEXT_ACTS)
def test_r_uno_2_catch_refused_after_next_player_acts(next_action: str) -> None:
    state = after_second_to_last().apply(1, next_action).state
    refused(state, 2, "catch@0", Reason.NOTHING_TO_CATCH)
    refused(state, 1, "catch@0", Reason.NOTHING_TO_CATCH)
    assert all("catch@0" not in actions for actions in legal(state).values())
    assert faces(state, 0) == ["R2"]


def test_r_uno_2_nobody_may_catch_themselves_or_a_seat_without_a_window() -> None:
    state = after_second_to_last()
    refused(state, 0, "catch@0", Reason.NOTHING_TO_CATCH)
    refused(state, 2, "catch@1", Reason.NOTHING_TO_CATCH)
    refused(state, 1, "catch@2", Reason.NOTHING_TO_CATCH)


def test_r_uno_2_nobody_catching_means_no_penalty() -> None:
    state, events = run(after_second_to_last(), (1, "R3"), (2, "R5"))
    assert not [e for e in events if isinstance(e, CardsDrawn)]
    assert faces(state, 0) == ["R2"]
    assert state.current == 0
    step = state.apply(0, "R2")  # the player who never called goes out undisturbed
    assert kinds(step.events) == ["CardPlayed", "PlayerWentOut", "HandEnded"]
    assert step.state.outcome() is not None
    assert step.state.outcome().winner == 0


# -- R-UNO-3: automatic penalty ----------------------------------------------------------


def test_r_uno_3_nobody_can_catch_with_automatic_penalty() -> None:
    state = after_second_to_last(uno_penalty="automatic")
    assert state.rules.uno_penalty is UnoPenalty.AUTOMATIC
    assert legal(state) == {0: ["uno"], 1: ["R3", "draw"]}
    refused(state, 1, "catch@0", Reason.NOTHING_TO_CATCH)
    refused(state, 2, "catch@0", Reason.NOTHING_TO_CATCH)


@pytest.mark.parametrize("next_action", NEXT_ACTS)
def test_r_uno_3_automatic_penalty_when_next_player_begins_turn(next_action: str) -> None:
    state = after_second_to_last(uno_penalty="automatic")
    step = state.apply(1, next_action)
    after = step.state
    assert kinds(step.events)[:3] == ["UnoPenalised", "CardsDrawn", "CardsReceived"]
    assert step.events[0] == UnoPenalised(0)
    assert received(after, step.events[2]) == (0, ["Y7", "Y8"])
    assert faces(after, 0) == ["R2", "Y7", "Y8"]
    refused(after, 0, "uno", Reason.NO_UNO_TO_CALL)
    if next_action == "R3":
        assert kinds(step.events)[3:] == ["CardPlayed"]
        assert drawn_events(step.events) == [(0, 2, DrawCause.UNO)]
        assert faces(after, 1) == ["B4"]
        assert after.top.notation == "R3"
        assert legal(after) == {1: ["uno"], 2: ["R5", "draw"]}
    else:
        assert kinds(step.events)[3:] == ["CardsDrawn", "CardsReceived"]
        assert drawn_events(step.events) == [(0, 2, DrawCause.UNO), (1, 1, DrawCause.DRAW)]
        assert received(after, step.events[4]) == (1, ["G9"])
        assert faces(after, 1) == ["R3", "G9", "B4"]
        assert after.top.notation == "R1"
        assert legal(after) == {2: ["R5", "draw"]}
    assert after.current == 2
    assert after.phase is Phase.PLAY


def test_r_uno_3_no_automatic_penalty_after_a_call() -> None:
    state, events = run(after_second_to_last(uno_penalty="automatic"), (0, "uno"), (1, "R3"))
    assert kinds(events) == ["UnoCalled", "CardPlayed"]
    assert faces(state, 0) == ["R2"]
    assert legal(state) == {1: ["uno"], 2: ["R5", "draw"]}


def test_r_uno_3_online_preset_punishes_automatically() -> None:
    assert Rules.from_preset("online").uno_penalty is UnoPenalty.AUTOMATIC
    state = hand(
        [["R1", "R2"], ["R3", "B4"], ["R5", "G6"]], "R9", ["Y7", "Y8"], preset="online"
    ).state
    state, events = run(state, (0, "R1"), (1, "R3"))
    assert kinds(events) == [
        "CardPlayed",
        "UnoPenalised",
        "CardsDrawn",
        "CardsReceived",
        "CardPlayed",
    ]
    assert faces(state, 0) == ["R2", "Y7", "Y8"]


def test_r_uno_3_heads_up_own_next_turn_is_not_the_next_player() -> None:
    """docs/engine.md: after a heads-up Skip the same player acts again; their own action
    closes the window without the automatic penalty (no next player began a turn)."""
    state = hand([["RS", "R1"], ["B3", "B4"]], "R9", ["G7"], uno_penalty="automatic").state
    step = state.apply(0, "RS")
    after = step.state
    assert kinds(step.events) == ["CardPlayed", "TurnSkipped"]
    assert after.current == 0
    assert legal(after) == {0: ["R1", "draw", "uno"]}
    step = after.apply(0, "draw")
    assert kinds(step.events) == ["CardsDrawn", "CardsReceived"]
    assert drawn_events(step.events) == [(0, 1, DrawCause.DRAW)]
    assert faces(step.state, 0) == ["R1", "G7"]
    assert step.state.current == 1
    assert legal(step.state) == {1: ["draw"]}


# -- R-UNO-4: back to one card -----------------------------------------------------------


def r_uno_4_table() -> GameState:
    """Seat 0 called UNO, could not play, drew Y8 and is about to play it to one card."""
    state = hand(
        [["R1", "B2"], ["R3", "G4", "G5", "Y0"], ["G3", "Y4", "Y6", "B7"]],
        "R9",
        ["Y8", "R7", "R8"],
    ).state
    state, events = run(state, (0, "R1"), (0, "uno"), (1, "R3"), (2, "G3"))
    assert kinds(events) == ["CardPlayed", "UnoCalled", "CardPlayed", "CardPlayed"]
    assert legal(state) == {0: ["draw"]}
    step = state.apply(0, "draw")  # Y8 does not match G3: the turn passes
    state = step.state
    assert drawn_events(step.events) == [(0, 1, DrawCause.DRAW)]
    assert faces(state, 0) == ["Y8", "B2"]
    assert state.current == 1
    state, events = run(state, (1, "G4"), (2, "Y4"))
    assert faces(state, 0) == ["Y8", "B2"]
    assert state.top.notation == "Y4"
    assert state.current == 0
    assert legal(state) == {0: ["Y8", "draw"]}
    return state


def test_r_uno_4_window_reopens_and_calling_again_is_needed() -> None:
    state = r_uno_4_table()
    step = state.apply(0, "Y8")
    after = step.state
    assert kinds(step.events) == ["CardPlayed"]
    assert faces(after, 0) == ["B2"]
    assert after.uno_seat == 0
    assert after.uno_called is False  # the earlier call does not carry over
    assert legal(after) == {0: ["uno"], 1: ["Y0", "draw", "catch@0"], 2: ["catch@0"]}


def test_r_uno_4_caught_again_without_a_new_call() -> None:
    state = r_uno_4_table().apply(0, "Y8").state
    step = state.apply(2, "catch@0")
    assert kinds(step.events) == ["UnoCaught", "CardsDrawn", "CardsReceived"]
    assert drawn_events(step.events) == [(0, 2, DrawCause.UNO)]
    assert faces(step.state, 0) == ["R7", "R8", "B2"]
    assert legal(step.state) == {1: ["Y0", "draw"]}


def test_r_uno_4_a_new_call_protects_again() -> None:
    state, events = run(r_uno_4_table(), (0, "Y8"), (0, "uno"))
    assert kinds(events) == ["CardPlayed", "UnoCalled"]
    assert legal(state) == {1: ["Y0", "draw"]}
    refused(state, 2, "catch@0", Reason.NOTHING_TO_CATCH)


# -- R-UNO-5: card counts are public -----------------------------------------------------


def test_r_uno_5_every_card_count_is_public() -> None:
    state, _ = run(uno_table(), (0, "R1"), (2, "catch@0"), (1, "R3"))
    assert faces(state, 0) == ["R2", "Y7", "Y8"]
    assert state.card_counts() == (3, 1, 2)
    assert state.public_view().card_counts == (3, 1, 2)
    for seat in range(3):
        assert state.view_for(seat).table.card_counts == (3, 1, 2)
        assert state.view_for(seat).table == state.public_view()


def test_r_uno_5_table_view_holds_no_hand_data() -> None:
    names = {f.name for f in dataclasses.fields(TableView)}
    assert names == {
        "seats",
        "dealer",
        "current",
        "phase",
        "clockwise",
        "colour",
        "top",
        "discard_size",
        "draw_size",
        "card_counts",
        "playing",
        "out",
        "pending",
        "uno_seat",
        "uno_called",
        "termination",
        "ranking",
        "version",
        "side",
        "discard",
        "prior_colour",
        "offender",
        "rules",
        "backs",  # UNO Flip: the other side of each hand, seen by all (empty otherwise)
        "draw_back",  # UNO Flip: the other side of the draw pile's top (None otherwise)
        "alt",  # RULES.md §13: public counters and seats only (AltState holds no card)
    }
    # Two tables that differ only in hidden cards look the same to the public.
    one = hand([["R1", "R2"], ["R3", "B4"]], "R9", ["Y7"]).state
    two = hand([["R1", "G2"], ["R3", "Y4"]], "R9", ["B7"]).state
    assert one.hands != two.hands
    assert one.public_view() == two.public_view()
    view = one.public_view()
    assert view.card_counts == (2, 2)
    assert view.top.notation == "R9"
    assert view.discard_size == 1
    assert view.draw_size == 108 - 5


# -- R-UNO-6: false calls and false catches ----------------------------------------------


def three_cards(**options: object) -> GameState:
    """Seat 0 has played R1 and still holds R2 G3; Y7 Y8 are on top of the draw pile."""
    state = hand(
        [["R1", "R2", "G3"], ["R3", "B4"], ["R5", "G6"]], "R9", ["Y7", "Y8"], **options
    ).state
    return state.apply(0, "R1").state


def test_r_uno_6_false_call_costs_two_cards() -> None:
    state = three_cards(false_call_penalty=True)
    assert legal(state) == {0: ["uno"], 1: ["R3", "draw"]}
    step = state.apply(0, "uno")
    after = step.state
    assert kinds(step.events) == ["UnoCalled", "CardsDrawn", "CardsReceived"]
    assert step.events[0] == UnoCalled(0, false_call=True)
    assert drawn_events(step.events) == [(0, 2, DrawCause.FALSE_CALL)]
    assert faces(after, 0) == ["R2", "Y7", "Y8", "G3"]
    assert after.current == 1
    assert after.top.notation == "R1"
    assert legal(after) == {1: ["R3", "draw"]}
    refused(after, 0, "uno", Reason.NO_UNO_TO_CALL)


def test_r_uno_6_false_call_refused_without_the_option() -> None:
    state = three_cards()
    assert legal(state) == {1: ["R3", "draw"]}
    refused(state, 0, "uno", Reason.NO_UNO_TO_CALL)


def test_r_uno_6_false_call_needs_a_play_first() -> None:
    """The option punishes a call "after the play"; with no play there is nothing to call."""
    state = hand([["R1", "R2", "G3"], ["R3", "B4"]], "R9", false_call_penalty=True).state
    refused(state, 0, "uno", Reason.NO_UNO_TO_CALL)
    refused(state, 1, "uno", Reason.NO_UNO_TO_CALL)


def test_r_uno_6_right_call_costs_nothing_with_the_option() -> None:
    state = after_second_to_last(false_call_penalty=True)
    assert legal(state) == {0: ["uno"], 1: ["R3", "draw", "catch@0"], 2: ["catch@0"]}
    step = state.apply(0, "uno")
    assert kinds(step.events) == ["UnoCalled"]
    assert step.events[0] == UnoCalled(0, false_call=False)
    assert faces(step.state, 0) == ["R2"]


def test_r_uno_6_catching_a_player_who_called_costs_the_catcher_two() -> None:
    state = after_second_to_last(false_call_penalty=True).apply(0, "uno").state
    assert legal(state) == {1: ["R3", "draw", "catch@0"], 2: ["catch@0"]}
    step = state.apply(2, "catch@0")
    after = step.state
    assert kinds(step.events) == ["UnoCaught", "CardsDrawn", "CardsReceived"]
    assert step.events[0] == UnoCaught(2, 0, false_catch=True)
    assert drawn_events(step.events) == [(2, 2, DrawCause.FALSE_CALL)]
    assert faces(after, 0) == ["R2"]
    assert faces(after, 2) == ["R5", "Y7", "Y8", "G6"]
    assert after.current == 1
    assert after.phase is Phase.PLAY
    # The window stays open until seat 1 acts: another false catch would cost 2 again.
    assert after.uno_seat == 0
    assert legal(after) == {1: ["R3", "draw", "catch@0"], 2: ["catch@0"]}


def test_r_uno_6_catching_a_player_who_called_refused_without_the_option() -> None:
    state = after_second_to_last().apply(0, "uno").state
    refused(state, 2, "catch@0", Reason.NOTHING_TO_CATCH)


def test_r_uno_6_a_real_catch_still_works_with_the_option() -> None:
    state = after_second_to_last(false_call_penalty=True)
    step = state.apply(2, "catch@0")
    assert step.events[0] == UnoCaught(2, 0, false_catch=False)
    assert drawn_events(step.events) == [(0, 2, DrawCause.UNO)]
    assert faces(step.state, 0) == ["R2", "Y7", "Y8"]


# -- R-END-1: going out ------------------------------------------------------------------


def test_r_end_1_last_card_ends_the_hand() -> None:
    state = hand([["R1"], ["R3", "B4", "W"], ["R5", "G6", "RD2"]], "R9").state
    step = state.apply(0, "R1")
    after = step.state
    assert kinds(step.events) == ["CardPlayed", "PlayerWentOut", "HandEnded"]
    assert step.events[1] == PlayerWentOut(0, 1)
    # Seat 2 holds 5 + 6 + 20 = 31 points, seat 1 holds 3 + 4 + 50 = 57.
    assert step.events[2] == HandEnded(Termination.WENT_OUT, (0, 2, 1))
    assert faces(after, 0) == []
    assert after.top.notation == "R1"
    assert after.phase is Phase.HAND_OVER
    assert after.is_over
    assert after.termination is Termination.WENT_OUT
    assert after.uno_seat is None
    assert legal(after) == {}
    outcome = after.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.WENT_OUT
    assert outcome.ranking == (0, 2, 1)
    assert outcome.winner == 0
    assert outcome.points == (0, 57, 31)
    assert outcome.cards == (0, 3, 3)
    for seat, action in [(1, "R3"), (1, "draw"), (2, "catch@0"), (0, "uno"), (2, "R5")]:
        refused(after, seat, action, Reason.HAND_OVER)


def test_r_end_1_no_outcome_before_the_end() -> None:
    state = uno_table()
    assert state.outcome() is None
    assert state.termination is None
    assert not state.is_over


@pytest.mark.parametrize("stacking", ["off", "deflect", "cumulative"])
def test_r_end_1_last_draw_two_next_player_still_draws(stacking: str) -> None:
    state = hand(
        [["RD2"], ["R3", "BD2"], ["R5", "G6"]], "R9", ["Y7", "Y8"], stacking=stacking
    ).state
    assert legal(state) == {0: ["RD2", "draw"]}
    step = state.apply(0, "RD2")
    after = step.state
    assert kinds(step.events) == [
        "CardPlayed",
        "PlayerWentOut",
        "CardsDrawn",
        "CardsReceived",
        "TurnSkipped",
        "HandEnded",
    ]
    assert drawn_events(step.events) == [(1, 2, DrawCause.PENALTY)]
    assert received(after, step.events[3]) == (1, ["Y7", "Y8"])
    assert step.events[4] == TurnSkipped(1)
    assert faces(after, 1) == ["R3", "Y7", "Y8", "BD2"]
    assert after.phase is Phase.HAND_OVER
    assert legal(after) == {}
    outcome = after.outcome()
    assert outcome is not None
    # The drawn cards count: seat 1 holds 3 + 7 + 8 + 20 = 38, seat 2 holds 5 + 6 = 11.
    assert outcome.points == (0, 38, 11)
    assert outcome.ranking == (0, 2, 1)
    assert step.events[5] == HandEnded(Termination.WENT_OUT, (0, 2, 1))


def last_wild_draw_four(**options: object) -> GameState:
    """Seat 0 has just gone out with W4=G; seat 1 (holding W4 and GD2) must answer."""
    state = hand(
        [["W4"], ["R3", "GD2", "W4"], ["R5", "G6"]], "R9", ["Y1", "Y2", "Y3", "Y4"], **options
    ).state
    step = state.apply(0, "W4=G")
    assert kinds(step.events) == ["CardPlayed", "PlayerWentOut"]
    assert played(step.events[0]) == (0, "W4", Colour.GREEN)
    assert step.events[1] == PlayerWentOut(0, 1)
    return step.state


@pytest.mark.parametrize("stacking", ["off", "deflect", "cumulative"])
def test_r_end_1_last_wild_draw_four_may_still_be_challenged(stacking: str) -> None:
    state = last_wild_draw_four(stacking=stacking)
    assert state.phase is Phase.CHALLENGE
    assert state.current == 1
    assert state.pending == 4
    assert state.colour is Colour.GREEN
    assert state.top.notation == "W4"
    assert faces(state, 0) == []
    assert state.termination is None
    assert state.outcome() is None
    assert legal(state) == {1: ["draw", "challenge"]}  # the hand is over: no stacking
    refused(state, 1, "GD2", Reason.CANNOT_STACK)
    refused(state, 2, "draw", Reason.NOT_YOUR_TURN)
    refused(state, 0, "draw", Reason.NOT_PLAYING)


def test_r_end_1_last_wild_draw_four_taken_then_the_hand_ends() -> None:
    step = last_wild_draw_four().apply(1, "draw")
    after = step.state
    assert kinds(step.events) == ["CardsDrawn", "CardsReceived", "TurnSkipped", "HandEnded"]
    assert drawn_events(step.events) == [(1, 4, DrawCause.PENALTY)]
    assert received(after, step.events[1]) == (1, ["Y1", "Y2", "Y3", "Y4"])
    assert faces(after, 1) == ["R3", "Y1", "Y2", "Y3", "Y4", "GD2", "W4"]
    assert after.phase is Phase.HAND_OVER
    assert legal(after) == {}
    outcome = after.outcome()
    assert outcome is not None
    assert outcome.points == (0, 3 + 10 + 20 + 50, 11)
    assert outcome.ranking == (0, 2, 1)
    assert step.events[3] == HandEnded(Termination.WENT_OUT, (0, 2, 1))


def test_r_end_1_last_wild_draw_four_challenged_is_innocent_then_the_hand_ends() -> None:
    step = last_wild_draw_four().apply(1, "challenge")
    after = step.state
    assert kinds(step.events) == [
        "ChallengeResolved",
        "HandRevealed",
        "CardsDrawn",
        "CardsReceived",
        "TurnSkipped",
        "HandEnded",
    ]
    assert step.events[0] == ChallengeResolved(1, 0, guilty=False)
    assert step.events[1] == HandRevealed(0, 1, ())
    assert drawn_events(step.events) == [(1, 6, DrawCause.CHALLENGE)]
    assert len(faces(after, 1)) == 3 + 6
    assert after.phase is Phase.HAND_OVER
    assert legal(after) == {}
    outcome = after.outcome()
    assert outcome is not None
    assert outcome.ranking[0] == 0
    assert outcome.cards == (0, 9, 2)


# -- R-END-2: no action card as the last card --------------------------------------------


@pytest.mark.parametrize(
    ("face", "action"),
    [
        pytest.param("RS", "RS", id="R-END-2-skip"),
        pytest.param("RR", "RR", id="R-END-2-reverse"),
        pytest.param("RD2", "RD2", id="R-END-2-draw-two"),
        pytest.param("W", "W=R", id="R-END-2-wild"),
        pytest.param("W4", "W4=G", id="R-END-2-wild-draw-four"),
    ],
)
def test_r_end_2_last_action_card_refused(face: str, action: str) -> None:
    state = hand([[face], ["R3", "B4"], ["R5", "G6"]], "R9", ["G7"], no_action_finish=True).state
    assert legal(state) == {0: ["draw"]}
    refused(state, 0, action, Reason.NO_ACTION_FINISH)
    step = state.apply(0, "draw")  # G7 does not match R9: the turn passes
    after = step.state
    assert drawn_events(step.events) == [(0, 1, DrawCause.DRAW)]
    assert faces(after, 0) == sorted([face, "G7"], key=lambda f: f.startswith("W"))
    assert after.current == 1
    assert after.phase is Phase.PLAY
    assert legal(after) == {1: ["R3", "draw"]}


def test_r_end_2_without_the_option_an_action_card_may_finish() -> None:
    state = hand([["RS"], ["R3", "B4"], ["R5", "G6"]], "R9").state
    assert legal(state) == {0: ["RS", "draw"]}
    step = state.apply(0, "RS")
    assert kinds(step.events) == ["CardPlayed", "PlayerWentOut", "HandEnded"]
    assert step.state.phase is Phase.HAND_OVER


def test_r_end_2_a_number_card_may_still_finish() -> None:
    state = hand([["R1"], ["R3", "B4"], ["R5", "G6"]], "R9", no_action_finish=True).state
    assert legal(state) == {0: ["R1", "draw"]}
    step = state.apply(0, "R1")
    assert kinds(step.events) == ["CardPlayed", "PlayerWentOut", "HandEnded"]


def test_r_end_2_a_playable_drawn_card_may_be_played() -> None:
    state = hand([["RS"], ["R3", "B4"], ["R5", "G6"]], "R9", ["R7"], no_action_finish=True).state
    after = state.apply(0, "draw").state
    assert faces(after, 0) == ["R7", "RS"]
    assert after.phase is Phase.DRAWN
    assert after.current == 0
    assert legal(after) == {0: ["R7", "pass"]}
    step = after.apply(0, "R7")
    assert faces(step.state, 0) == ["RS"]
    assert step.state.current == 1
    # RS is now a lone action card: seat 0 will have to draw again.
    assert legal(step.state) == {0: ["uno"], 1: ["R3", "draw", "catch@0"], 2: ["catch@0"]}


def test_r_end_2_must_draw_while_an_uno_window_is_open() -> None:
    state = hand([["R1", "R2"], ["RS"], ["R5", "G6", "B7"]], "R9", no_action_finish=True).state
    after = state.apply(0, "R1").state
    assert after.current == 1
    assert legal(after) == {0: ["uno"], 1: ["draw", "catch@0"], 2: ["catch@0"]}
    refused(after, 1, "RS", Reason.NO_ACTION_FINISH)


# -- R-END-3: play to the last -----------------------------------------------------------


def test_r_end_3_others_play_on_until_one_is_left() -> None:
    state = hand(
        [["R1"], ["R3", "RR", "R4", "R8"], ["R5", "R6", "G7", "B8"]], "R9", play_to_last=True
    ).state
    step = state.apply(0, "R1")
    after = step.state
    assert kinds(step.events) == ["CardPlayed", "PlayerWentOut"]
    assert step.events[1] == PlayerWentOut(0, 1)
    assert after.phase is Phase.PLAY
    assert after.out == (0,)
    assert after.playing == (False, True, True)
    assert after.outcome() is None
    assert after.current == 1
    assert legal(after) == {1: ["R3", "R4", "R8", "RR", "draw"]}
    refused(after, 0, "draw", Reason.NOT_PLAYING)

    # Seat 0 is skipped in turn order: 1 → 2 → 1.
    after, events = run(after, (1, "R3"), (2, "R5"))
    assert kinds(events) == ["CardPlayed", "CardPlayed"]
    assert after.current == 1
    assert legal(after) == {1: ["R4", "R8", "RR", "draw"]}

    # Two remain: Reverse acts as Skip (R-ACT-2, two-player rules).
    step = after.apply(1, "RR")
    after = step.state
    assert kinds(step.events) == ["CardPlayed", "TurnSkipped"]
    assert step.events[1] == TurnSkipped(2)
    assert after.clockwise is True
    assert after.current == 1
    assert legal(after) == {1: ["R4", "R8", "draw"]}

    # Seat 1 reaches one card: seat 2 may catch, seat 0 (out) may not.
    after = after.apply(1, "R4").state
    assert faces(after, 1) == ["R8"]
    assert after.current == 2
    assert legal(after) == {1: ["uno"], 2: ["R6", "draw", "catch@1"]}
    refused(after, 0, "catch@1", Reason.NOTHING_TO_CATCH)

    step = run(after, (1, "uno"), (2, "R6"))[0].apply(1, "R8")
    final = step.state
    assert kinds(step.events) == ["CardPlayed", "PlayerWentOut", "HandEnded"]
    assert step.events[1] == PlayerWentOut(1, 2)
    assert step.events[2] == HandEnded(Termination.WENT_OUT, (0, 1, 2))
    assert final.phase is Phase.HAND_OVER
    assert legal(final) == {}
    outcome = final.outcome()
    assert outcome is not None
    assert outcome.ranking == (0, 1, 2)
    assert outcome.points == (0, 0, 15)
    assert outcome.cards == (0, 0, 2)


def test_r_end_3_tournament_ranks_by_order_of_going_out() -> None:
    """Counter-clockwise four-player table: 0 → 3 → 2 → 1."""
    state = hand(
        [["R1"], ["R4", "R5", "R6"], ["R3", "R7"], ["R2"]], "R9", preset="tournament"
    ).state
    assert state.current == 0
    assert state.clockwise is False
    state, events = run(state, (0, "R1"), (3, "R2"))
    assert [e for e in events if isinstance(e, PlayerWentOut)] == [
        PlayerWentOut(0, 1),
        PlayerWentOut(3, 2),
    ]
    assert state.phase is Phase.PLAY
    assert state.current == 2
    assert legal(state) == {2: ["R3", "R7", "draw"]}
    state, events = run(state, (2, "R3"), (1, "R4"))
    assert state.current == 2  # seats 0 and 3 are skipped
    step = state.apply(2, "R7")
    assert kinds(step.events) == ["CardPlayed", "PlayerWentOut", "HandEnded"]
    assert step.events[2] == HandEnded(Termination.WENT_OUT, (0, 3, 2, 1))
    outcome = step.state.outcome()
    assert outcome is not None
    assert outcome.ranking == (0, 3, 2, 1)
    assert outcome.points == (0, 11, 0, 0)
    assert legal(step.state) == {}


def test_r_end_3_without_the_option_the_first_out_ends_the_hand() -> None:
    state = hand([["R1"], ["R3", "B4"], ["R5", "G6"]], "R9").state
    step = state.apply(0, "R1")
    assert kinds(step.events) == ["CardPlayed", "PlayerWentOut", "HandEnded"]
    assert step.state.phase is Phase.HAND_OVER


# -- R-TIME-1: auto_action ---------------------------------------------------------------


def test_r_time_1_plays_the_lowest_playable_number() -> None:
    state = hand([["R7", "G5", "R3", "RS", "W", "B1"], ["R2", "B4"], ["R5", "G6"]], "R5").state
    assert legal(state)[0] == ["R3", "R7", "RS", "G5", "W=R", "W=Y", "W=G", "W=B", "draw"]
    action = auto_action(state, 0)
    assert action == Play(state.hand_faces(0)[0])
    assert str(action) == "R3"
    step = state.apply(0, action)
    assert played(step.events[0]) == (0, "R3", None)
    assert faces(step.state, 0) == ["R7", "RS", "G5", "B1", "W"]
    assert step.state.top.notation == "R3"
    assert step.state.current == 1
    assert auto_action(step.state, 0) is None


def test_r_time_1_never_plays_an_action_or_wild_then_draws() -> None:
    state = hand([["RS", "W", "W4", "B1"], ["R2", "B4"], ["R5", "G6"]], "R5", ["G7"]).state
    assert legal(state)[0][0] == "RS"
    action = auto_action(state, 0)
    assert action == Draw()
    step = state.apply(0, action)
    assert drawn_events(step.events) == [(0, 1, DrawCause.DRAW)]
    assert faces(step.state, 0) == ["RS", "G7", "B1", "W", "W4"]
    assert step.state.current == 1  # G7 does not match: the turn passed
    assert auto_action(step.state, 0) is None
    assert auto_action(step.state, 1) == Play(step.state.hand_faces(1)[0])  # R2


def test_r_time_1_passes_after_drawing_a_playable_card() -> None:
    state = hand([["B1", "G2"], ["R2", "B4"], ["R5", "G6"]], "R5", ["R8"]).state
    assert auto_action(state, 0) == Draw()
    state = state.apply(0, auto_action(state, 0)).state
    assert state.phase is Phase.DRAWN
    assert legal(state) == {0: ["R8", "pass"]}
    action = auto_action(state, 0)
    assert action == Pass()
    step = state.apply(0, action)
    assert kinds(step.events) == ["Passed"]
    assert step.events[0] == Passed(0)
    assert faces(step.state, 0) == ["R8", "G2", "B1"]
    assert step.state.top.notation == "R5"
    assert step.state.current == 1
    assert step.state.phase is Phase.PLAY


def test_r_time_1_accepts_a_pending_draw_two() -> None:
    state = hand(
        [["RD2", "G1"], ["BD2", "R2", "B4"], ["R5", "G6"]],
        "R5",
        ["Y7", "Y8"],
        stacking="deflect",
    ).state
    state = state.apply(0, "RD2").state
    assert state.phase is Phase.PENALTY
    assert legal(state) == {0: ["uno"], 1: ["BD2", "draw", "catch@0"], 2: ["catch@0"]}
    action = auto_action(state, 1)
    assert action == Draw()  # never stacks, never calls or catches
    step = state.apply(1, action)
    assert drawn_events(step.events) == [(1, 2, DrawCause.PENALTY)]
    assert faces(step.state, 1) == ["R2", "Y7", "Y8", "B4", "BD2"]
    assert step.state.current == 2
    assert step.state.phase is Phase.PLAY


def test_r_time_1_accepts_a_wild_draw_four_without_challenging() -> None:
    state = hand(
        [["W4", "G1", "B2"], ["R2", "B4"], ["R5", "G6"]], "R5", ["Y1", "Y2", "Y3", "Y4"]
    ).state
    state = state.apply(0, "W4=B").state
    assert state.phase is Phase.CHALLENGE
    assert legal(state) == {1: ["draw", "challenge"]}
    action = auto_action(state, 1)
    assert action == Draw()
    step = state.apply(1, action)
    assert kinds(step.events) == ["CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert drawn_events(step.events) == [(1, 4, DrawCause.PENALTY)]
    assert faces(step.state, 1) == ["R2", "Y1", "Y2", "Y3", "Y4", "B4"]
    assert step.state.current == 2
    assert step.state.colour is Colour.BLUE


def test_r_time_1_names_the_colour_most_held_for_a_start_wild() -> None:
    state = hand([["R1", "G2", "G3", "B4", "W"], ["R2", "B4"], ["R5", "G6"]], "W").state
    assert state.phase is Phase.CHOOSE_COLOUR
    assert state.current == 0
    assert legal(state) == {0: ["colour=R", "colour=Y", "colour=G", "colour=B"]}
    assert auto_action(state, 1) is None
    action = auto_action(state, 0)
    assert action == ChooseColour(Colour.GREEN)
    step = state.apply(0, action)
    assert step.events == (ColourChosen(0, Colour.GREEN),)
    assert step.state.colour is Colour.GREEN
    assert step.state.phase is Phase.PLAY
    assert step.state.current == 0
    # The same timed-out turn goes on: now the lowest playable number, G2.
    assert str(auto_action(step.state, 0)) == "G2"


def test_r_time_1_nothing_for_a_seat_whose_turn_it_is_not() -> None:
    state = after_second_to_last()
    assert auto_action(state, 0) is None  # seat 0 may call UNO, but it is not its turn
    assert auto_action(state, 2) is None
    assert auto_action(state, 1) == Play(state.hand_faces(1)[0])  # R3
    over = hand([["R1"], ["R3"]], "R9").state.apply(0, "R1").state
    assert over.is_over
    assert auto_action(over, 0) is None
    assert auto_action(over, 1) is None


def test_r_time_1_a_number_matching_by_value_counts() -> None:
    """Any playable number counts, by value: Y5 matches the number and is lower than R7."""
    state = hand([["R7", "Y5", "G9", "B1"], ["R2"], ["R6"]], "R5").state
    action = auto_action(state, 0)
    assert str(action) == "Y5"
    after = state.apply(0, action).state
    assert after.colour is Colour.YELLOW
    assert faces(after, 0) == ["R7", "G9", "B1"]


# -- R-TIME-2 / R-TIME-3: what repeated timeouts lead to, as a rule option -------------------


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        pytest.param("classic", AfterTimeouts.REPLACE, id="R-TIME-3-classic-replaces"),
        pytest.param("party", AfterTimeouts.REPLACE, id="R-TIME-3-party-replaces"),
        pytest.param("online", AfterTimeouts.REMOVE, id="R-TIME-2-online-removes"),
    ],
)
def test_r_time_2_r_time_3_after_timeouts_is_an_option_the_online_preset_sets(
    preset: str, expected: AfterTimeouts
) -> None:
    assert Rules.from_preset(preset).after_timeouts is expected


def test_r_time_3_after_timeouts_round_trips_and_stays_out_of_old_snapshots() -> None:
    assert "after_timeouts" not in Rules.from_preset("classic").to_dict()
    online = Rules.from_preset("online").to_dict()
    assert online["after_timeouts"] == "remove"
    assert Rules.from_dict(online) == Rules.from_preset("online")
    assert Rules.from_preset("classic", after_timeouts="remove").after_timeouts is (
        AfterTimeouts.REMOVE
    )
    with pytest.raises(RulesError):
        Rules.from_preset("classic", after_timeouts="forgive")


# -- hidden information ------------------------------------------------------------------


def test_hidden_r_uno_5_view_for_shows_only_the_own_hand_and_legal_actions() -> None:
    state = after_second_to_last()
    assert {f.name for f in dataclasses.fields(PlayerView)} == {
        "seat",
        "table",
        "hand",
        "legal",
        "drawn",
    }
    for seat in range(3):
        view = state.view_for(seat)
        assert view.seat == seat
        assert tuple(c for c, _ in view.hand) == state.hands[seat]
        assert [f.notation for _, f in view.hand] == faces(state, seat)
        assert view.legal == state.legal_actions(seat)
        assert view.table == state.public_view()
        assert view.drawn is None
    assert [f.notation for _, f in state.view_for(0).hand] == ["R2"]
    assert [str(a) for a in state.view_for(2).legal] == ["catch@0"]
    assert state.view_for(0).legal == (CallUno(),)
    assert state.view_for(1).legal[-1] == CatchUno(0)
    with pytest.raises(ValueError, match="no seat"):
        state.view_for(3)


def test_hidden_drawn_card_is_seen_by_the_drawer_only() -> None:
    state = hand([["B1", "G2"], ["R2", "B4"], ["R5", "G6"]], "R5", ["R8"]).state
    step = state.apply(0, "draw")
    after = step.state
    assert kinds(step.events) == ["CardsDrawn", "CardsReceived"]
    drawn_card = after.drawn
    assert drawn_card is not None
    assert after.face(drawn_card).notation == "R8"
    assert after.view_for(0).drawn == drawn_card
    assert after.view_for(1).drawn is None
    assert after.view_for(2).drawn is None
    # The public event carries the count only; the card is in the drawer's private event.
    public = events_for(step.events, None)
    assert public == [CardsDrawn(0, 1, DrawCause.DRAW)]
    assert {f.name for f in dataclasses.fields(CardsDrawn)} == {"seat", "count", "cause"}
    assert events_for(step.events, 1) == public
    assert events_for(step.events, 2) == public
    mine = events_for(step.events, 0)
    assert kinds(mine) == ["CardsDrawn", "CardsReceived"]
    assert mine[1] == CardsReceived(0, (drawn_card,))
    assert step.events[1].audience == frozenset({0})
    assert step.events[0].audience is None


def test_hidden_dealt_cards_reach_their_owner_only() -> None:
    step = hand([["R1", "R2"], ["R3", "B4"], ["R5", "G6"]], "R9")
    state = step.state
    assert kinds(step.events) == ["CardsDealt", "CardsDealt", "CardsDealt", "HandStarted"]
    public = events_for(step.events, None)
    assert kinds(public) == ["HandStarted"]
    assert public[0] == HandStarted(2, 0, state.top, clockwise=True)
    for seat in range(3):
        seen = events_for(step.events, seat)
        assert kinds(seen) == ["CardsDealt", "HandStarted"]
        assert seen[0] == CardsDealt(seat, state.hands[seat])


def test_hidden_uno_penalty_cards_reach_the_penalised_only() -> None:
    step = after_second_to_last().apply(2, "catch@0")
    assert kinds(events_for(step.events, None)) == ["UnoCaught", "CardsDrawn"]
    assert kinds(events_for(step.events, 2)) == ["UnoCaught", "CardsDrawn"]
    assert kinds(events_for(step.events, 0)) == ["UnoCaught", "CardsDrawn", "CardsReceived"]


@pytest.mark.parametrize(
    ("reveal", "revealed_to"),
    [pytest.param("challenger", [1], id="challenger"), pytest.param("nobody", [], id="nobody")],
)
def test_hidden_r_chal_2_challenged_hand_is_shown_to_the_challenger_only(
    reveal: str, revealed_to: list[int]
) -> None:
    """R-CHAL-2: a guilty Wild Draw Four hand (it holds R2) is shown per challenge_reveal."""
    state = hand(
        [["W4", "R2", "B3"], ["R3", "B4"], ["R5", "G6"]],
        "R9",
        ["Y1", "Y2", "Y3", "Y4"],
        challenge_reveal=reveal,
    ).state
    state = state.apply(0, "W4=G").state
    step = state.apply(1, "challenge")
    assert step.events[0] == ChallengeResolved(1, 0, guilty=True)
    reveals = [e for e in step.events if isinstance(e, HandRevealed)]
    assert [e.viewer for e in reveals] == revealed_to
    for seat in range(3):
        seen = [e for e in events_for(step.events, seat) if isinstance(e, HandRevealed)]
        if seat in revealed_to:
            assert seen == [HandRevealed(0, seat, state.hands[0])]
        else:
            assert seen == []
    assert not [e for e in events_for(step.events, None) if isinstance(e, HandRevealed)]
    # The offender's four penalty cards are private to the offender.
    assert drawn_events(step.events) == [(0, 4, DrawCause.CHALLENGE)]
    assert [e for e in events_for(step.events, 1) if isinstance(e, CardsReceived)] == []
