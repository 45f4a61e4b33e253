"""Blank cards (R-DECK-5) and what a table makes them do (R-ALT-6): chain, refill,
action_dump, take_two, redeal, colour_round, no_actions. A blank card is a wild (``WX``,
50 points); the player names the colour, then the effect follows.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine import CardFace, Phase, Reason, Rules, RulesError, Termination
from engine.cards import Kind, classic_deck
from engine.events import (
    CardPlayed,
    CardsDrawn,
    CardsGiven,
    CardsPutDown,
    DrawCause,
    GiveCause,
    GivenCards,
    HandsRedealt,
    TurnSkipped,
    events_for,
)

from .scenario import faces, hand, kinds, legal, ok, refused, run

WX = CardFace.parse("WX")


def blank(hands: list[list[str]], start: str, draw: tuple[str, ...] = (), **options: Any) -> Any:
    """A stacked deal with four blank cards doing ``blank_effect`` (seat 0 plays first)."""
    return hand(hands, start, draw, blank_cards=4, **options).state


# -- R-DECK-5: the cards ------------------------------------------------------------------


def test_r_deck_5_blank_cards_are_added_after_the_other_cards() -> None:
    for count in range(5):
        deck = classic_deck(blank_cards=count)
        assert deck.size == 108 + count
        assert Counter(deck.sides[0])[WX] == count
        assert all(face is WX for face in deck.sides[0][108:])
    assert classic_deck(two_decks=True, blank_cards=3).size == 219  # 0-4 in all
    modern = classic_deck(modern_deck=True, blank_cards=2)
    assert [f.notation for f in modern.sides[0][107:]] == ["W4", "WH", "WX", "WX"]


def test_r_deck_5_a_blank_card_is_a_wild_worth_50_points() -> None:
    assert WX.is_wild
    assert WX.kind is Kind.BLANK
    assert str(WX) == "WX"
    assert classic_deck(blank_cards=1).value(WX) == 50
    assert Rules(blank_cards=1).deck().name == "classic+blank1"


@pytest.mark.parametrize("count", [-1, 5])
def test_r_deck_5_zero_to_four_blank_cards(count: int) -> None:
    with pytest.raises(RulesError) as info:
        Rules(blank_cards=count)
    assert info.value.code == "blank_cards_range"


def test_r_deck_5_without_an_effect_a_blank_card_is_a_plain_wild() -> None:
    state = blank([["WX", "G2"], ["B1", "B2"], ["Y3"]], "R9")
    assert state.alt is None  # nothing alternative is played: the classic hand
    assert legal(state)[0] == ["WX=R", "WX=Y", "WX=G", "WX=B", "draw"]
    state, events = run(state, (0, "WX=G"))
    assert events == [CardPlayed(0, 108, WX, state.colour)]
    assert (ok(state).colour.value, state.current) == ("G", 1)  # type: ignore[union-attr]


def test_r_deck_5_r_setup_5_a_blank_card_turned_up_is_a_start_wild() -> None:
    state = blank([["R5", "G2"], ["B1", "B2"]], "WX", blank_effect="refill")
    assert (ok(state).phase, state.current) == (Phase.CHOOSE_COLOUR, 0)
    assert state.card_counts() == (2, 2)  # no effect: nobody played it


def test_r_alt_6_a_blank_card_played_as_the_last_card_does_nothing_more() -> None:
    state = blank([["WX"], ["B1", "B2"], ["Y3"]], "R9", blank_effect="refill")
    state, events = run(state, (0, "WX=G"))
    assert kinds(events) == ["CardPlayed", "PlayerWentOut", "HandEnded"]
    assert ok(state).card_counts() == (0, 2, 1)


def test_r_alt_6_blank_effect_needs_blank_cards() -> None:
    with pytest.raises(RulesError) as info:
        Rules(blank_effect="chain")
    assert info.value.code == "blank_effect_needs_blank_cards"
    with pytest.raises(RulesError) as info:
        Rules(blank_effect="noises", blank_cards=1)
    assert info.value.code == "bad_choice"  # the ideas that need talking are not offered


# -- chain --------------------------------------------------------------------------------


def chain_table() -> Any:
    return blank(
        [["WX", "G2", "G5", "B5", "GD2", "Y7"], ["B1", "B2"], ["Y3", "Y4"]],
        "R9",
        blank_effect="chain",
    )


def test_r_alt_6_chain_the_player_goes_on_playing_matching_cards() -> None:
    state, events = run(chain_table(), (0, "WX=G"))
    assert kinds(events) == ["CardPlayed"]
    assert (ok(state).phase, state.current) == (Phase.CHAIN, 0)
    assert legal(state) == {0: ["G2", "G5", "GD2", "pass"]}
    state, _ = run(state, (0, "G5"))
    assert legal(state) == {0: ["G2", "GD2", "B5", "pass"]}  # a 5 matches the Green 5
    state, events = run(state, (0, "GD2"), (0, "G2"))
    # Cards of a chain take no effect: nobody drew for the Draw Two, nobody was skipped.
    assert kinds(events) == ["CardPlayed", "CardPlayed"]
    assert faces(ok(state), 0) == ["Y7", "B5"]
    # Nothing matches the Green 2 any more: the chain ended by itself.
    assert (state.phase, state.current) == (Phase.PLAY, 1)


def test_r_alt_6_chain_stops_by_passing_and_play_goes_on() -> None:
    state, _ = run(chain_table(), (0, "WX=G"), (0, "G5"))
    state, events = run(state, (0, "pass"))
    assert kinds(events) == ["Passed"]
    assert (ok(state).phase, state.current) == (Phase.PLAY, 1)
    assert faces(state, 0) == ["Y7", "G2", "GD2", "B5"]


def test_r_alt_6_chain_ends_by_itself_when_nothing_matches() -> None:
    state = blank([["WX", "G2", "Y7"], ["B1", "B2"], ["Y3", "Y4"]], "R9", blank_effect="chain")
    state, _ = run(state, (0, "WX=G"))
    assert ok(state).phase is Phase.CHAIN
    state, events = run(state, (0, "G2"))
    assert kinds(events) == ["CardPlayed"]
    assert (ok(state).phase, state.current) == (Phase.PLAY, 1)
    # A blank naming a colour nothing else of the hand matches starts no chain at all.
    state = blank([["WX", "G2", "Y7"], ["B1", "B2"], ["Y3", "Y4"]], "R9", blank_effect="chain")
    state, _ = run(state, (0, "WX=B"))
    assert (ok(state).phase, state.current) == (Phase.PLAY, 1)


def test_r_alt_6_chain_a_wild_names_a_colour_and_swap_hands_swaps_nothing() -> None:
    state = blank(
        [["WX", "WH", "G2", "B3"], ["B1", "B2"], ["Y3", "Y4"]],
        "R9",
        blank_effect="chain",
        modern_deck=True,
    )
    state, _ = run(state, (0, "WX=G"))
    assert legal(state)[0] == ["G2", "WH=R", "WH=Y", "WH=G", "WH=B", "pass"]
    state, events = run(state, (0, "WH=B"))
    assert kinds(events) == ["CardPlayed"]
    assert faces(ok(state), 1) == ["B1", "B2"]  # no swap
    assert legal(state)[0] == ["B3", "pass"]
    refused(state, 0, "draw", Reason.WRONG_PHASE)


def test_r_alt_6_chain_playing_the_last_card_goes_out() -> None:
    state = blank([["WX", "G2", "G3"], ["B1", "B2"], ["Y3"]], "R9", blank_effect="chain")
    state, events = run(state, (0, "WX=G"), (0, "G2"), (0, "G3"))
    assert kinds(events)[-2:] == ["PlayerWentOut", "HandEnded"]
    assert ok(state).termination is Termination.WENT_OUT


# -- refill ---------------------------------------------------------------------------------


def test_r_alt_6_refill_the_next_player_draws_until_they_hold_seven_and_plays() -> None:
    state = blank(
        [["WX", "G2"], ["B1", "B2"], ["Y3"]],
        "R9",
        ("G4", "G5", "G6", "G7", "G8"),
        blank_effect="refill",
    )
    state, events = run(state, (0, "WX=G"))
    assert events[1] == CardsDrawn(1, 5, DrawCause.EFFECT)
    assert ok(state).card_counts() == (1, 7, 1)
    assert (state.phase, state.current) == (Phase.PLAY, 1)  # not skipped


def test_r_alt_6_refill_a_player_holding_seven_or_more_draws_nothing() -> None:
    hands = [["WX", "G2"], ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"], ["Y3"]]
    state, events = run(blank(hands, "R9", blank_effect="refill"), (0, "WX=G"))
    assert kinds(events) == ["CardPlayed"]
    assert ok(state).card_counts() == (1, 8, 1)


# -- action_dump --------------------------------------------------------------------------


def test_r_alt_6_action_dump_puts_skip_reverse_draw_two_beneath_the_blank() -> None:
    state = blank(
        [["WX", "RS", "GR", "BD2", "Y7"], ["B1", "B2"], ["Y3", "Y4"]],
        "R9",
        blank_effect="action_dump",
    )
    state, events = run(state, (0, "WX=Y"))
    assert kinds(events) == ["CardPlayed", "CardsPutDown"]
    put = events[1]
    assert isinstance(put, CardsPutDown)
    assert not put.on_top
    assert [f.notation for f in put.faces] == ["RS", "GR", "BD2"]
    assert [state.face(c).notation for c in state.discard] == ["R9", "RS", "GR", "BD2", "WX"]
    assert faces(ok(state), 0) == ["Y7"]
    assert state.colour is not None
    assert state.colour.value == "Y"
    assert (state.phase, state.current) == (Phase.PLAY, 1)  # no Skip, no Draw Two
    assert state.card_counts() == (1, 2, 2)


def test_r_alt_6_action_dump_that_empties_the_hand_goes_out() -> None:
    state = blank([["WX", "RS"], ["B1", "B2"], ["Y3"]], "R9", blank_effect="action_dump")
    state, events = run(state, (0, "WX=Y"))
    assert kinds(events) == ["CardPlayed", "CardsPutDown", "PlayerWentOut", "HandEnded"]
    assert ok(state).ranking[0] == 0


# -- take_two -------------------------------------------------------------------------------


def test_r_alt_6_take_two_takes_two_random_cards_from_the_biggest_hand() -> None:
    hands = [["WX", "G2"], ["B1", "B2", "B3"], ["Y3", "Y4", "Y5", "Y6"], ["R1", "R2"]]
    state = blank(hands, "R9", blank_effect="take_two")
    before = state.hands[2]
    step = state.apply(0, "WX=G")
    given = step.events[1]
    assert given == CardsGiven(2, 0, 2, GiveCause.TAKE)
    seen = step.events[2]
    assert isinstance(seen, GivenCards)
    assert set(seen.cards) <= set(before)
    after = ok(step.state)
    assert after.card_counts() == (3, 3, 2, 2)
    assert set(after.hands[0]) == {state.hands[0][0], *seen.cards}  # the Green 2 and those
    # Only the two players concerned see which cards moved.
    assert [type(e).__name__ for e in events_for(step.events, 1)] == ["CardPlayed", "CardsGiven"]
    assert seen in events_for(step.events, 2)
    assert seen in events_for(step.events, 0)
    # The same seed takes the same cards.
    assert state.apply(0, "WX=G").state == after
    assert after.shuffles == state.shuffles + 1


def test_r_alt_6_take_two_ties_go_to_the_first_in_turn_order_and_never_the_last_card() -> None:
    hands = [["WX", "G2"], ["B1", "B2", "B3"], ["Y3", "Y4", "Y5"]]
    step = blank(hands, "R9", blank_effect="take_two").apply(0, "WX=G")
    assert step.events[1] == CardsGiven(1, 0, 2, GiveCause.TAKE)
    hands = [["WX", "G2"], ["B1"], ["Y3"]]
    step = blank(hands, "R9", blank_effect="take_two").apply(0, "WX=G")
    assert kinds(step.events) == ["CardPlayed"]  # a single card is never taken
    hands = [["WX", "G2"], ["B1", "B2"], ["Y3"]]
    step = blank(hands, "R9", blank_effect="take_two").apply(0, "WX=G")
    assert step.events[1] == CardsGiven(1, 0, 1, GiveCause.TAKE)


# -- redeal ---------------------------------------------------------------------------------


def test_r_alt_6_redeal_shuffles_the_hands_together_and_keeps_their_sizes() -> None:
    hands = [["WX", "G2", "G3"], ["B1", "B2", "B3"], ["Y3", "Y4", "Y5", "Y6"]]
    state = blank(hands, "R9", blank_effect="redeal")
    pool = sorted(c for h in state.hands for c in h if state.face(c) is not WX)
    step = state.apply(0, "WX=G")
    assert step.events[1:] == (HandsRedealt(0),)
    after = ok(step.state)
    assert after.card_counts() == (2, 3, 4)
    assert sorted(c for h in after.hands for c in h) == pool
    assert after.hands != (state.hands[0][1:], *state.hands[1:])  # seed 0 moves cards
    assert after.current == 1


# -- colour_round ---------------------------------------------------------------------------


def round_table(**options: Any) -> Any:
    return blank(
        [["WX", "G2", "Y1"], ["B1", "B2", "RS"], ["Y3", "Y4"], ["R1", "R2", "G8"]],
        "R9",
        ("B6", "Y7", "B8"),
        blank_effect="colour_round",
        **options,
    )


def test_r_alt_6_colour_round_every_other_player_puts_down_a_card_of_the_colour() -> None:
    state, events = run(round_table(), (0, "WX=B"))
    assert kinds(events) == ["CardPlayed"]
    assert (ok(state).phase, state.current) == (Phase.COLOUR_ROUND, 1)
    assert state.alt is not None
    assert (state.alt.origin, state.alt.round) == (0, (2, 3))
    assert legal(state) == {1: ["B1", "B2"]}
    refused(state, 1, "RS", Reason.DOES_NOT_MATCH)
    refused(state, 1, "draw", Reason.DRAW_NOT_ALLOWED)
    state, events = run(state, (1, "B2"))
    assert kinds(events) == ["CardsPutDown"]
    assert (ok(state).phase, state.current) == (Phase.COLOUR_ROUND, 2)
    # Seat 2 has no blue: it draws until blue comes (Blue 6) and puts that down.
    assert legal(state)[2] == ["draw"]
    state, events = run(state, (2, "draw"))
    assert kinds(events) == ["CardsDrawn", "CardsReceived", "CardsPutDown"]
    assert events[0] == CardsDrawn(2, 1, DrawCause.EFFECT)
    assert state.top.notation == "B6"
    state, events = run(state, (3, "draw"))  # Yellow 7, then Blue 8
    assert events[0] == CardsDrawn(3, 2, DrawCause.EFFECT)
    assert faces(state, 3) == ["R1", "R2", "Y7", "G8"]
    # The round is over: play goes on from the player after the blank card's.
    assert (ok(state).phase, state.current) == (Phase.PLAY, 1)
    assert state.colour is not None
    assert state.colour.value == "B"
    assert state.card_counts() == (2, 2, 2, 4)


def test_r_alt_6_colour_round_putting_down_the_last_card_goes_out() -> None:
    state = blank([["WX", "G2", "Y1"], ["B1"], ["Y3", "Y4"]], "R9", blank_effect="colour_round")
    state, events = run(state, (0, "WX=B"), (1, "B1"))
    assert kinds(events)[-2:] == ["PlayerWentOut", "HandEnded"]
    assert ok(state).ranking[0] == 1


def test_r_alt_6_colour_round_r_uno_2_a_put_down_opens_an_uno_window() -> None:
    """A player left with one card by a put-down must call UNO before the next player of
    the round puts down."""
    state = blank(
        [["WX", "G2", "Y1"], ["B1", "R2"], ["B3", "Y4"], ["B4", "G8"]],
        "R9",
        blank_effect="colour_round",
    )
    state, _ = run(state, (0, "WX=B"), (1, "B1"))
    assert ok(state).uno_seat == 1
    assert legal(state) == {0: ["catch@1"], 1: ["uno"], 2: ["B3", "catch@1"], 3: ["catch@1"]}
    state, _ = run(state, (2, "B3"))
    assert ok(state).uno_seat == 2
    refused(state, 3, "catch@1", Reason.NOTHING_TO_CATCH)


# -- no_actions -----------------------------------------------------------------------------


def quiet_table() -> Any:
    return blank(
        [["WX", "G2", "GS"], ["G1", "GS", "W"], ["GR", "G3", "W4"], ["G4", "GD2", "B5"]],
        "R9",
        ("B9", "Y9"),
        blank_effect="no_actions",
    )


def test_r_alt_6_no_actions_for_two_turns_only_number_cards_may_be_played() -> None:
    state, _ = run(quiet_table(), (0, "WX=G"))
    assert ok(state).alt is not None
    assert state.alt.quiet == 2
    assert legal(state) == {1: ["G1", "draw"]}
    refused(state, 1, "GS", Reason.ACTIONS_FORBIDDEN)
    refused(state, 1, "W=G", Reason.ACTIONS_FORBIDDEN)
    state, _ = run(state, (1, "G1"))
    assert ok(state).alt is not None
    assert state.alt.quiet == 1
    assert legal(state) == {2: ["G3", "draw"]}
    state, _ = run(state, (2, "G3"))
    # Two turns are over: seat 3 may play its Draw Two again.
    assert ok(state).alt is not None
    assert state.alt.quiet == 0
    assert legal(state) == {3: ["G4", "GD2", "draw"]}


def test_r_alt_6_no_actions_a_player_with_only_action_cards_draws() -> None:
    state = blank(
        [["WX", "G2", "B2"], ["GS", "W"], ["G3", "Y3"]],
        "R9",
        ("Y5", "R6"),
        blank_effect="no_actions",
    )
    state, _ = run(state, (0, "WX=G"))
    assert legal(state) == {1: ["draw"]}
    state, events = run(state, (1, "draw"))  # a Yellow 5: cannot be played on green
    assert kinds(events) == ["CardsDrawn", "CardsReceived"]
    assert (ok(state).current, state.alt and state.alt.quiet) == (2, 1)


def test_r_alt_6_no_actions_a_drawn_action_card_cannot_be_played_either() -> None:
    state = blank(
        [["WX", "G2"], ["Y1", "Y2"], ["G3", "Y3"]], "R9", ("GS",), blank_effect="no_actions"
    )
    state, events = run(state, (0, "WX=G"), (1, "draw"))
    assert kinds(events)[-2:] == ["CardsDrawn", "CardsReceived"]
    assert (ok(state).phase, state.current) == (Phase.PLAY, 2)


def test_r_alt_6_no_actions_a_draw_two_after_the_quiet_turns_acts_again() -> None:
    state, events = run(quiet_table(), (0, "WX=G"), (1, "G1"), (2, "G3"), (3, "GD2"))
    assert events[-3:] == [
        CardsDrawn(0, 2, DrawCause.PENALTY),
        events[-2],
        TurnSkipped(0),
    ]
    assert ok(state).current == 1
