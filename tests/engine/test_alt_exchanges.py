"""The alternative rules that move cards between hands (RULES.md §13): the 0 as a spell
(R-ALT-2), the 7 swap (R-ALT-3), the Skip's variants (R-ALT-4) and a partner's gift
(R-ALT-5). Every scenario deals exact hands; refusals must change nothing.
"""

from __future__ import annotations

import pytest

from engine import Phase, Reason, Termination
from engine.actions import Give, Swap
from engine.events import (
    CardPlayed,
    CardsDrawn,
    CardsGiven,
    CardsPutDown,
    DrawCause,
    GiveCause,
    GivenCards,
    HandEnded,
    HandsRotated,
    HandsSwapped,
    PlayerWentOut,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    UnoPenalised,
    events_for,
)
from engine.game import remove_seat

from .scenario import faces, hand, kinds, legal, ok, refused, run

# -- R-ALT-2: the 0 as a spell, swap ------------------------------------------------------


def swap_table() -> list[list[str]]:
    return [["R0", "R5", "G2"], ["B1", "B2"], ["Y3"], ["G9", "G8", "G7", "G6"]]


def test_r_alt_2_swap_a_0_asks_for_the_opponent_then_swaps_hands() -> None:
    state = hand(swap_table(), "R9", zero_spell="swap").state
    state, events = run(state, (0, "R0"))
    assert kinds(events) == ["CardPlayed"]
    assert ok(state).phase is Phase.SWAP
    assert state.current == 0  # the hand waits for the player of the 0
    assert legal(state) == {0: ["swap@1", "swap@2", "swap@3"]}
    state, events = run(state, (0, "swap@3"))
    assert events == [HandsSwapped(0, 3)]
    assert faces(ok(state), 0) == ["G9", "G8", "G7", "G6"][::-1]  # card-id order
    assert faces(state, 3) == ["R5", "G2"]
    assert state.phase is Phase.PLAY
    assert state.current == 1
    assert state.top.notation == "R0"


def test_r_alt_2_swap_refuses_other_actions_and_targets() -> None:
    state, _ = run(hand(swap_table(), "R9", zero_spell="swap").state, (0, "R0"))
    refused(state, 0, "swap@0", Reason.BAD_TARGET)
    refused(state, 0, "swap@7", Reason.BAD_TARGET)
    refused(state, 0, "draw", Reason.WRONG_PHASE)
    refused(state, 0, "R5", Reason.WRONG_PHASE)
    refused(state, 1, "swap@2", Reason.NOT_YOUR_TURN)
    refused(state, 0, "give=R5@1", Reason.WRONG_PHASE)


def test_r_alt_2_swap_with_two_players_is_made_at_once() -> None:
    state = hand([["R0", "R5"], ["B1", "B2", "B3"]], "R9", zero_spell="swap").state
    state, events = run(state, (0, "R0"))
    assert kinds(events) == ["CardPlayed", "HandsSwapped"]
    assert faces(ok(state), 0) == ["B1", "B2", "B3"]
    assert faces(state, 1) == ["R5"]
    assert (state.phase, state.current) == (Phase.PLAY, 1)


def test_r_alt_2_a_0_played_as_the_last_card_ends_the_hand_without_a_spell() -> None:
    state = hand([["R0"], ["B1", "B2"], ["Y3"]], "R9", zero_spell="swap").state
    state, events = run(state, (0, "R0"))
    assert kinds(events) == ["CardPlayed", "PlayerWentOut", "HandEnded"]
    assert ok(state).termination is Termination.WENT_OUT


def test_r_alt_2_a_0_turned_up_at_the_start_casts_nothing() -> None:
    state = hand([["R5", "G2"], ["B1", "B2"], ["Y3"]], "R0", zero_spell="rotate").state
    assert faces(ok(state), 0) == ["R5", "G2"]
    assert (state.phase, state.current) == (Phase.PLAY, 0)


def test_r_alt_2_after_an_exchange_every_player_left_with_one_card_must_call_uno() -> None:
    """Seat 0 keeps one card after its 0 and swaps it for seat 2's single card: both must
    call; each may be caught until the next player begins their turn (R-UNO-1/2)."""
    state = hand([["R0", "R5"], ["B1", "B2"], ["Y3"], ["G9", "G8"]], "R9", zero_spell="swap")
    state, _ = run(state.state, (0, "R0"), (0, "swap@2"))
    assert faces(ok(state), 0) == ["Y3"]
    assert faces(state, 2) == ["R5"]
    assert state.uno_seat == 0
    assert state.alt is not None
    assert state.alt.windows == (2,)
    assert legal(state) == {
        0: ["uno", "catch@2"],
        1: ["draw", "catch@0", "catch@2"],
        2: ["catch@0", "uno"],
        3: ["catch@0", "catch@2"],
    }
    state, events = run(state, (2, "uno"), (3, "catch@0"))
    assert events[0] == UnoCalled(2)
    assert events[1] == UnoCaught(3, 0)
    assert len(ok(state).hands[0]) == 3
    assert state.alt is not None
    assert state.alt.windows == ()
    refused(state, 1, "catch@2", Reason.NOTHING_TO_CATCH)  # seat 2 called


def test_r_alt_2_the_windows_of_an_exchange_close_when_the_next_turn_begins() -> None:
    state = hand([["R0", "R5"], ["B1", "B2"], ["Y3"], ["G9", "G8"]], "R9", zero_spell="swap")
    state, _ = run(state.state, (0, "R0"), (0, "swap@2"), (1, "draw"))
    assert ok(state).uno_seat is None
    assert state.alt is not None
    assert state.alt.windows == ()
    assert all("catch@2" not in actions for actions in legal(state).values())


def test_r_alt_2_r_uno_3_an_automatic_penalty_reaches_every_uncalled_window() -> None:
    state = hand(
        [["R0", "R5"], ["B1", "B2"], ["Y3"], ["G9", "G8"]],
        "R9",
        zero_spell="swap",
        uno_penalty="automatic",
    ).state
    state, events = run(state, (0, "R0"), (0, "swap@2"), (1, "draw"))
    assert [e for e in events if isinstance(e, UnoPenalised)] == [UnoPenalised(2), UnoPenalised(0)]
    assert ok(state).card_counts()[0] == 3
    assert state.card_counts()[2] == 3


def test_r_alt_2_r_act_7_a_jumped_in_0_casts_the_spell_for_the_jumper() -> None:
    state = hand(
        [["R0", "R5", "G2"], ["B1", "B2"], ["R0", "Y3"], ["G9", "G8"]],
        "R9",
        zero_spell="swap",
        jump_in=True,
        two_decks=True,  # two Red 0s
    ).state
    state, _ = run(state, (0, "R0"), (0, "swap@1"))
    assert state.current == 1
    state, events = run(state, (2, "R0"))
    assert isinstance(events[0], CardPlayed)
    assert events[0].jump_in
    assert (ok(state).phase, state.current) == (Phase.SWAP, 2)
    # In turn order from seat 2; holding one card, the jumper may also call UNO.
    assert legal(state)[2] == ["swap@3", "swap@0", "swap@1", "uno"]


# -- R-ALT-2: discard_colour and rotate ---------------------------------------------------


def test_r_alt_2_discard_colour_puts_down_every_card_of_the_colour_without_effects() -> None:
    state = hand(
        [["R0", "R3", "RS", "G2", "W"], ["B1", "B2"], ["Y3", "Y4"]],
        "R9",
        zero_spell="discard_colour",
    ).state
    zero = state.hands[0][0]
    state, events = run(state, (0, "R0"))
    assert kinds(events) == ["CardPlayed", "CardsPutDown"]
    put = events[1]
    assert isinstance(put, CardsPutDown)
    assert [f.notation for f in put.faces] == ["R3", "RS"]
    assert put.on_top
    assert [state.face(c).notation for c in state.discard] == ["R9", "R0", "R3", "RS"]
    assert state.discard[1] == zero
    assert faces(ok(state), 0) == ["G2", "W"]
    assert state.colour is not None
    assert state.colour.value == "R"
    # The Skip put down does nothing: the next player plays.
    assert (state.phase, state.current) == (Phase.PLAY, 1)


def test_r_alt_2_discard_colour_that_empties_the_hand_goes_out() -> None:
    state = hand([["R0", "R3"], ["B1", "B2"], ["Y3"]], "R9", zero_spell="discard_colour").state
    state, events = run(state, (0, "R0"))
    assert kinds(events) == ["CardPlayed", "CardsPutDown", "PlayerWentOut", "HandEnded"]
    assert ok(state).ranking[0] == 0


def test_r_alt_2_rotate_passes_every_hand_to_the_next_player() -> None:
    state = hand(
        [["R0", "R5", "G2"], ["B1"], ["Y3", "Y4"]],
        "R9",
        zero_spell="rotate",
    ).state
    state, events = run(state, (0, "R0"))
    assert events[1:] == [HandsRotated(0, True)]
    assert [faces(state, s) for s in range(3)] == [["Y3", "Y4"], ["R5", "G2"], ["B1"]]
    # Seat 2 now holds one card: it must call UNO like any player left with one.
    assert ok(state).uno_seat == 2
    assert legal(state)[2] == ["uno"]
    assert state.current == 1


def test_r_alt_2_rotate_follows_the_direction_of_play() -> None:
    state = hand(
        [["R0", "R5", "G2"], ["B1"], ["Y3", "Y4"]],
        "R9",
        zero_spell="rotate",
        clockwise=False,
    ).state
    assert state.current == 0
    state, events = run(state, (0, "R0"))
    assert events[1:] == [HandsRotated(0, False)]
    # Counter-clockwise the next player of seat 0 is seat 2, of seat 2 seat 1, of 1 seat 0.
    assert [faces(state, s) for s in range(3)] == [["B1"], ["Y3", "Y4"], ["R5", "G2"]]
    assert ok(state).current == 2


# -- R-ALT-3: the 7 swap -------------------------------------------------------------------


def test_r_alt_3_seven_swap_swaps_hands_with_the_opponent_of_ones_choice() -> None:
    state = hand([["R7", "R5", "G2"], ["B1", "B2"], ["Y3"]], "R9", seven_swap=True).state
    state, _ = run(state, (0, "R7"))
    assert legal(ok(state)) == {0: ["swap@1", "swap@2"]}
    state, events = run(state, (0, "swap@1"))
    assert events == [HandsSwapped(0, 1)]
    assert [faces(state, s) for s in range(3)] == [["B1", "B2"], ["R5", "G2"], ["Y3"]]
    assert ok(state).current == 1


def test_r_alt_3_r_alt_2_seven_and_zero_together() -> None:
    """The "7-0" house rule: a 7 swaps with an opponent, a 0 passes every hand along."""
    rules = {"seven_swap": True, "zero_spell": "rotate"}
    state = hand([["R7", "R0", "G2"], ["B1", "B2"], ["Y3", "R4"]], "R9", **rules).state
    state, _ = run(state, (0, "R7"), (0, "swap@2"), (1, "draw"))
    assert faces(state, 0) == ["R4", "Y3"]
    state, events = run(state, (2, "R0"))
    assert HandsRotated(2, True) in events
    assert not any(isinstance(e, HandsSwapped) for e in events)
    assert ok(state).current == 0


def test_r_alt_3_other_numbers_do_nothing() -> None:
    state = hand([["R5", "G2"], ["B1", "B2"], ["Y3"]], "R9", seven_swap=True).state
    state, events = run(state, (0, "R5"))
    assert kinds(events) == ["CardPlayed"]
    assert (ok(state).phase, state.current) == (Phase.PLAY, 1)


def test_r_alt_3_seven_swap_in_uno_flip() -> None:
    """UNO Flip has 7s on both sides: the swap works there too (only the 0 spell needs the
    classic deck)."""
    state = hand([["R7", "R5"], ["B1", "B2", "B3"]], "R9", preset="flip", seven_swap=True).state
    state, events = run(state, (0, "R7"))
    assert kinds(events) == ["CardPlayed", "HandsSwapped"]
    assert faces(ok(state), 0) == ["B1", "B2", "B3"]


# -- R-ALT-4: the Skip's variants ----------------------------------------------------------


def give_table() -> list[list[str]]:
    return [["RS", "G2", "B7", "W"], ["Y1", "Y2"], ["B3"]]


def test_r_alt_4_give_the_player_of_a_skip_gives_a_card_to_an_opponent() -> None:
    state = hand(give_table(), "R9", skip_variant="give").state
    state, events = run(state, (0, "RS"))
    assert kinds(events) == ["CardPlayed"]
    assert (ok(state).phase, state.current) == (Phase.GIVE, 0)
    assert legal(state) == {
        0: ["give=G2@1", "give=G2@2", "give=B7@1", "give=B7@2", "give=W@1", "give=W@2"]
    }
    wild = state.hands[0][-1]
    step = state.apply(0, "give=W@2")
    assert step.events == (
        CardsGiven(0, 2, 1, GiveCause.GIVE),
        GivenCards(0, 2, (wild,)),
    )
    after = ok(step.state)
    assert faces(after, 0) == ["G2", "B7"]
    assert faces(after, 2) == ["B3", "W"]
    # The Skip no longer skips: the next player plays.
    assert (after.phase, after.current) == (Phase.PLAY, 1)


def test_r_alt_4_give_the_card_is_seen_only_by_the_two_players_concerned() -> None:
    state, _ = run(hand(give_table(), "R9", skip_variant="give").state, (0, "RS"))
    events = state.apply(0, "give=W@2").events
    assert events_for(events, 1) == [CardsGiven(0, 2, 1, GiveCause.GIVE)]
    assert events_for(events, None) == [CardsGiven(0, 2, 1, GiveCause.GIVE)]
    for seat in (0, 2):
        assert any(isinstance(e, GivenCards) for e in events_for(events, seat))
    # The public view changes only in the counts.
    assert state.apply(0, "give=W@2").state.public_view().card_counts == (2, 2, 2)


def test_r_alt_4_give_refuses_bad_choices() -> None:
    state, _ = run(hand(give_table(), "R9", skip_variant="give").state, (0, "RS"))
    refused(state, 0, "give=R5@1", Reason.CARD_NOT_IN_HAND)
    refused(state, 0, "give=G2@0", Reason.BAD_TARGET)
    refused(state, 0, "swap@1", Reason.WRONG_PHASE)
    refused(state, 1, "give=Y1@0", Reason.NOT_YOUR_TURN)


def test_r_alt_4_give_with_two_players_the_player_plays_again() -> None:
    state = hand([["RS", "G2", "B7"], ["Y1", "Y2"]], "R9", skip_variant="give").state
    state, events = run(state, (0, "RS"), (0, "give=G2@1"))
    assert events[-1] == TurnSkipped(1)
    assert (ok(state).phase, state.current) == (Phase.PLAY, 0)


def test_r_alt_4_a_skip_as_the_last_card_ends_the_hand() -> None:
    state = hand([["RS"], ["Y1", "Y2"], ["B3"]], "R9", skip_variant="give").state
    state, events = run(state, (0, "RS"))
    assert kinds(events) == ["CardPlayed", "PlayerWentOut", "HandEnded"]
    assert ok(state).is_over


def test_r_alt_4_giving_the_last_card_away_goes_out() -> None:
    state = hand([["RS", "G2"], ["Y1", "Y2"], ["B3"]], "R9", skip_variant="give").state
    state, events = run(state, (0, "RS"), (0, "give=G2@2"))
    assert PlayerWentOut(0, 1) in events
    assert isinstance(events[-1], HandEnded)
    assert ok(state).ranking[0] == 0


def test_r_alt_4_all_draw_every_opponent_draws_one_and_the_next_plays() -> None:
    state = hand(give_table(), "R9", ["G5", "G6"], skip_variant="all_draw").state
    state, events = run(state, (0, "RS"))
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert drawn == [CardsDrawn(1, 1, DrawCause.PENALTY), CardsDrawn(2, 1, DrawCause.PENALTY)]
    assert faces(ok(state), 1) == ["Y1", "Y2", "G5"]
    assert faces(state, 2) == ["G6", "B3"]
    assert not any(isinstance(e, TurnSkipped) for e in events)
    assert (state.phase, state.current) == (Phase.PLAY, 1)


def test_r_alt_4_all_draw_with_two_players_the_player_plays_again() -> None:
    state = hand([["RS", "G2"], ["Y1", "Y2"]], "R9", ["G5"], skip_variant="all_draw").state
    state, events = run(state, (0, "RS"))
    assert kinds(events)[1:] == ["CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert ok(state).current == 0


def test_r_alt_4_r_act_2_a_reverse_heads_up_still_acts_as_a_skip() -> None:
    state = hand([["RR", "G2"], ["Y1", "Y2"]], "R9", skip_variant="give").state
    state, events = run(state, (0, "RR"))
    assert kinds(events) == ["CardPlayed", "TurnSkipped"]
    assert (ok(state).phase, state.current) == (Phase.PLAY, 0)


@pytest.mark.parametrize(
    ("variant", "first", "counts"),
    [("all_draw", 0, (3, 3, 2)), ("give", 0, (2, 2, 2))],
    ids=["all-draw", "give"],
)
def test_r_alt_4_r_setup_5_a_skip_turned_up_at_the_start(
    variant: str, first: int, counts: tuple[int, ...]
) -> None:
    """As if the dealer (seat 2) had played it: all_draw makes every other player draw one;
    give gives nothing (the card came from no hand). Either way nobody is skipped."""
    state = hand(
        [["R5", "G2"], ["Y1", "Y2"], ["B3", "B4"]], "RS", ["G5", "G6"], skip_variant=variant
    ).state
    assert ok(state).current == first
    assert state.card_counts() == counts


def test_r_alt_4_r_setup_5_heads_up_the_dealer_plays_first_after_a_start_skip() -> None:
    state = hand([["R5", "G2"], ["Y1", "Y2"]], "RS", ["G5"], skip_variant="all_draw").state
    assert ok(state).current == 1  # the dealer
    assert state.card_counts() == (3, 2)


def test_r_alt_4_uno_flip_skip_everyone_is_not_affected() -> None:
    """On the dark side Skip Everyone keeps its effect (a Flip turned up starts there:
    the top is the Flip's dark face, an orange Skip Everyone)."""
    state = hand([["PSE", "P3"], ["T3", "T8"]], "RF", preset="flip", skip_variant="all_draw").state
    assert state.side == 1
    state, events = run(state, (0, "PSE"))
    assert kinds(events) == ["CardPlayed", "TurnSkipped"]
    assert ok(state).current == 0
    assert state.card_counts() == (1, 2)


# -- R-ALT-5: a partner's gift ------------------------------------------------------------


def gift_table() -> list[list[str]]:
    """Pairs: seats 0 and 2, seats 1 and 3. Seat 1 cannot play on a green card."""
    return [["G5", "G6", "G7"], ["R1", "Y2"], ["B5", "B6"], ["G8", "R4", "Y9"]]


def test_r_alt_5_a_partner_may_give_a_player_who_cannot_play_a_card() -> None:
    state = hand(gift_table(), "G9", teams=2, partner_gift=True).state
    state, events = run(state, (0, "G5"))
    assert kinds(events) == ["CardPlayed"]
    # Seat 1 cannot play: its partner, seat 3, may give it a card before it draws.
    assert (ok(state).phase, state.current) == (Phase.GIFT, 3)
    assert state.alt is not None
    assert state.alt.recipient == 1
    assert legal(state) == {3: ["gift=R4", "gift=Y9", "gift=G8", "nogift"]}  # card-id order
    state, events = run(state, (3, "gift=G8"))
    gift = state.hands[1]
    assert events[0] == CardsGiven(3, 1, 1, GiveCause.GIFT)
    assert isinstance(events[1], GivenCards)
    assert events[1].cards[0] in gift
    assert (ok(state).phase, state.current) == (Phase.PLAY, 1)
    # The gift is playable: seat 1 may play it (or draw as usual).
    assert legal(state) == {1: ["G8", "draw"]}
    state, _ = run(state, (1, "G8"))
    # Seat 2 cannot play on it either: now its partner, seat 0, is asked.
    assert (ok(state).phase, state.current) == (Phase.GIFT, 0)
    assert state.alt is not None
    assert state.alt.recipient == 2


def test_r_alt_5_the_gift_is_seen_only_by_the_two_partners() -> None:
    state, _ = run(hand(gift_table(), "G9", teams=2, partner_gift=True).state, (0, "G5"))
    events = state.apply(3, "gift=R4").events
    for seat in (0, 2):
        assert events_for(events, seat) == [CardsGiven(3, 1, 1, GiveCause.GIFT)]
    for seat in (1, 3):
        assert len(events_for(events, seat)) == 2


def test_r_alt_5_without_a_gift_the_player_draws_as_usual() -> None:
    state = hand(gift_table(), "G9", ["B9"], teams=2, partner_gift=True).state
    state, events = run(state, (0, "G5"), (3, "nogift"))
    assert kinds(events) == ["CardPlayed"]  # nothing was given
    assert (ok(state).phase, state.current) == (Phase.PLAY, 1)
    assert legal(state)[1] == ["draw"]
    state, _ = run(state, (1, "draw"))
    assert ok(state).current == 2


def test_r_alt_5_one_gift_per_turn() -> None:
    """An unplayable gift leaves the player stuck: no second offer, they draw."""
    state = hand(gift_table(), "G9", ["B9"], teams=2, partner_gift=True).state
    state, _ = run(state, (0, "G5"), (3, "gift=R4"))
    assert (ok(state).phase, state.current) == (Phase.PLAY, 1)
    assert legal(state) == {1: ["draw"]}
    state, _ = run(state, (1, "draw"))
    assert ok(state).phase is Phase.PLAY
    assert state.current == 2


def test_r_alt_5_refusals() -> None:
    state, _ = run(hand(gift_table(), "G9", teams=2, partner_gift=True).state, (0, "G5"))
    refused(state, 3, "gift=B5", Reason.CARD_NOT_IN_HAND)
    refused(state, 1, "draw", Reason.NOT_YOUR_TURN)  # the partner answers first
    refused(state, 2, "gift=B5", Reason.NOT_YOUR_TURN)  # not the partner of seat 1
    refused(state, 3, "draw", Reason.WRONG_PHASE)


def test_r_alt_5_no_offer_when_the_player_can_play_or_no_partner_can_give() -> None:
    # With a red card on top seat 1 can play: no gift.
    state = hand([["R5", "G6", "G7"], ["R1", "Y2"], ["B5", "B6"], ["G8", "Y9"]], "R9", teams=2,
                 partner_gift=True).state  # fmt: skip
    state, _ = run(state, (0, "R5"))
    assert (ok(state).phase, state.current) == (Phase.PLAY, 1)
    # A partner holding a single card never gives it away.
    state = hand([["G5", "G6", "G7"], ["R1", "Y2"], ["B5", "B6"], ["G8"]], "G9", teams=2,
                 partner_gift=True).state  # fmt: skip
    state, _ = run(state, (0, "G5"))
    assert (ok(state).phase, state.current) == (Phase.PLAY, 1)


def test_r_alt_5_the_first_player_of_a_hand_may_be_offered_a_gift() -> None:
    state = hand(gift_table(), "Y9", teams=2, partner_gift=True, dealer=0).state
    # Seat 1 plays first (left of the dealer), holds a Yellow 2: it can play.
    assert (ok(state).phase, state.current) == (Phase.PLAY, 1)
    state = hand(gift_table(), "B9", teams=2, partner_gift=True, dealer=0).state
    assert (ok(state).phase, state.current) == (Phase.GIFT, 3)


def test_r_alt_5_with_more_partners_the_first_one_after_the_player_gives() -> None:
    """Six seats in pairs of teams (seats 1, 3 and 5 are partners): seat 3 holds one card,
    so seat 5 is asked."""
    hands = [["G5", "G6", "G7"], ["R1", "Y2"], ["B5", "B6"], ["Y7"], ["B1", "B2"], ["R4", "Y9"]]
    state = hand(hands, "G9", teams=2, partner_gift=True).state
    state, _ = run(state, (0, "G5"))
    assert (ok(state).phase, state.current) == (Phase.GIFT, 5)


def test_r_alt_5_r_time_2_the_giver_or_the_player_leaving_ends_the_wait() -> None:
    state, _ = run(hand(gift_table(), "G9", teams=2, partner_gift=True).state, (0, "G5"))
    giver_gone = remove_seat(state, 3).state
    assert (ok(giver_gone).phase, giver_gone.current) == (Phase.PLAY, 1)
    player_gone = remove_seat(state, 1).state
    assert (ok(player_gone).phase, player_gone.current) == (Phase.PLAY, 2)


def test_r_alt_5_actions_are_typed_and_write_back() -> None:
    state, _ = run(hand(gift_table(), "G9", teams=2, partner_gift=True).state, (0, "G5"))
    assert [str(a) for a in state.legal_actions(3)] == [
        "gift=R4",
        "gift=Y9",
        "gift=G8",
        "nogift",
    ]
    assert str(Swap(2)) == "swap@2"
    assert str(Give(state.top, 1)) == "give=G5@1"
