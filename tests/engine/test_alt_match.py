"""The alternative rules at the level of a match and a table (RULES.md §13): the time limit
(R-ALT-1), UNO Flip scored ``winner_takes`` (R-ALT-7), twenty seats with two decks
(R-ALT-8); the options themselves (names, defaults, contradictions); snapshots, records
and events of every choice; what a timed-out seat chooses (R-TIME-1).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from engine import (
    EngineError,
    IllegalActionError,
    Phase,
    Reason,
    Rules,
    RulesError,
    Scoring,
    Termination,
)
from engine.auto import auto_action
from engine.events import HandEnded, events_for
from engine.game import deal, new_hand
from engine.match import HandScored, Match, MatchEnded
from engine.rules import _LATER_FIELDS, CLASSIC
from engine.serialize import (
    GameRecord,
    event_from_dict,
    event_to_dict,
    from_dict,
    hand_from_dict,
    hand_to_dict,
    replay,
    to_dict,
)
from engine.simulate import random_step, simulate

from .scenario import hand, legal, ok, run

# -- the options ----------------------------------------------------------------------------

NEW_OPTIONS = {
    "time_limit": 0,
    "time_limit_winner": "fewest_cards",
    "zero_spell": "off",
    "seven_swap": False,
    "skip_variant": "off",
    "partner_gift": False,
    "blank_cards": 0,
    "blank_effect": "wild",
    "max_players": 10,
}


def test_r_alt_the_options_have_rulesmd_names_are_off_and_stay_out_of_snapshots() -> None:
    rules = Rules()
    for name, default in NEW_OPTIONS.items():
        value = getattr(rules, name)
        assert getattr(value, "value", value) == default, name
        assert _LATER_FIELDS[name] == default
        assert name not in rules.to_dict()
    assert not rules.alternative
    data = Rules(zero_spell="swap", seven_swap=True, time_limit=30).to_dict()
    assert (data["zero_spell"], data["seven_swap"], data["time_limit"]) == ("swap", True, 30)
    assert Rules.from_dict(data) == Rules(zero_spell="swap", seven_swap=True, time_limit=30)


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"time_limit": -1}, "time_limit_range"),
        ({"time_limit": 24 * 60 + 1}, "time_limit_range"),
        ({"time_limit": "soon"}, "not_a_number"),
        ({"time_limit_winner": "fewest_points"}, "time_limit_winner_needs_time_limit"),
        ({"time_limit_winner": "most_cards", "time_limit": 5}, "bad_choice"),
        ({"zero_spell": "swap", "flip": True, "scoring": "penalty"}, "zero_spell_no_flip"),
        ({"zero_spell": "explode"}, "bad_choice"),
        ({"seven_swap": 1}, "not_a_switch"),
        ({"skip_variant": "steal"}, "bad_choice"),
        ({"partner_gift": True}, "partner_gift_needs_teams"),
        ({"blank_cards": 5}, "blank_cards_range"),
        ({"blank_cards": 1, "flip": True}, "blank_cards_no_flip"),
        ({"blank_effect": "redeal"}, "blank_effect_needs_blank_cards"),
        ({"max_players": 21, "two_decks": True}, "max_players_range"),
        ({"max_players": 1}, "max_players_range"),
        ({"max_players": 12}, "max_players_needs_two_decks"),
        ({"players": 12, "two_decks": True}, "players_range"),
        ({"players": 8, "max_players": 6}, "players_range"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_r_alt_combinations_that_make_no_sense_are_refused_with_a_reason(
    options: dict[str, Any], code: str
) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**options)
    assert info.value.code == code


def test_r_alt_sensible_combinations_are_accepted() -> None:
    Rules(seven_swap=True, flip=True)  # R-ALT-3: UNO Flip has 7s
    Rules(skip_variant="give", flip=True)  # R-ALT-4: the light side's Skip
    Rules(partner_gift=True, teams=2, zero_spell="rotate", skip_variant="all_draw")
    Rules(blank_cards=4, blank_effect="chain", modern_deck=True, two_decks=True)
    Rules(time_limit=30, time_limit_winner="fewest_points", scoring="penalty")
    Rules(max_players=20, two_decks=True, players=20)
    assert Rules(seven_swap=True).alternative
    assert not Rules(blank_cards=4).alternative  # a blank card is then a plain Wild


# -- R-ALT-1: the time limit ----------------------------------------------------------------


def timed(*hands: list[str], **options: Any) -> Match:
    """A 3-seat match of these rules whose current hand is dealt exactly so (seat 0 first)."""
    rules = Rules(time_limit=20, **options)
    match = Match.new(rules, len(hands), seed=1, dealer=len(hands) - 1).match
    dealt = deal(rules, [list(h) for h in hands], "R9", dealer=len(hands) - 1).state
    return replace(match, hand=dealt)


def test_r_alt_1_time_up_ends_the_hand_won_by_the_fewest_cards_and_ends_the_match() -> None:
    match = timed(["R1", "R2", "R3"], ["G9", "B9"], ["Y1", "Y2", "Y3", "Y4"])
    step = match.time_up()
    ended = step.match
    assert ended.is_over
    hand_ended = step.events[0]
    assert hand_ended == HandEnded(Termination.TIME_LIMIT, (1, 0, 2))
    assert ok(ended.hand).termination is Termination.TIME_LIMIT
    scored = step.events[1]
    assert isinstance(scored, HandScored)
    # R-SCORE-1, scored as if seat 1 had gone out: the others' points (6 + 10).
    assert scored.gains == (0, 16, 0)
    assert step.events[2] == MatchEnded((1, 0, 2))
    assert [s.seat for s in ended.standings()] == [1, 0, 2]


def test_r_alt_1_fewest_points_wins_with_time_limit_winner() -> None:
    match = timed(
        ["R1", "R2", "R3"],
        ["G9", "B9"],
        ["Y1", "Y2", "Y3", "Y4"],
        time_limit_winner="fewest_points",
    )
    step = match.time_up()
    assert step.events[0] == HandEnded(Termination.TIME_LIMIT, (0, 2, 1))
    assert step.match.ranking[0] == 0


def test_r_alt_1_ties_go_to_fewer_points_then_against_the_last_drawer() -> None:
    match = timed(["R1", "R2"], ["G9", "B9"], ["Y5", "Y6"])
    assert match.time_up().events[0] == HandEnded(Termination.TIME_LIMIT, (0, 2, 1))
    match = timed(["R1", "R2"], ["G1", "B2"], ["Y5", "Y6"])
    match = replace(match, hand=replace(match.hand, last_drawer=0))
    # Seats 0 and 1 hold 3 points each: seat 0 drew last and loses the tie.
    assert match.time_up().events[0] == HandEnded(Termination.TIME_LIMIT, (1, 0, 2))


def test_r_alt_1_penalty_scoring_counts_nothing_for_the_winner() -> None:
    match = timed(["R1", "R2", "R3"], ["G9"], ["Y1", "Y2"], scoring="penalty")
    scored = match.time_up().events[1]
    assert isinstance(scored, HandScored)
    assert scored.gains == (6, 0, 3)  # seat 1's Green 9 counts as gone out


def test_r_alt_1_between_hands_the_match_ends_with_its_standings() -> None:
    match = timed(["R1"], ["G9", "B9"], ["Y1", "Y2"])
    match = match.apply(0, "R1").match
    assert match.hand.is_over
    assert not match.is_over
    step = match.time_up()
    assert [type(e).__name__ for e in step.events] == ["MatchEnded"]
    assert step.match.ranking[0] == 0
    with pytest.raises(IllegalActionError) as info:
        step.match.time_up()
    assert info.value.reason is Reason.MATCH_OVER


def test_r_alt_1_time_up_in_the_middle_of_a_choice_ends_the_hand_cleanly() -> None:
    rules = Rules(time_limit=10, zero_spell="swap")
    match = Match.new(rules, 3, seed=1, dealer=2).match
    dealt = deal(rules, [["R0", "R5"], ["G9", "B9", "B8"], ["Y1"]], "R9", dealer=2).state
    match = replace(match, hand=dealt).apply(0, "R0").match
    assert match.hand.phase is Phase.SWAP
    ended = match.time_up().match
    assert ok(ended.hand).termination is Termination.TIME_LIMIT
    # Seats 0 and 2 hold one card each: the Yellow 1 is worth less than the Red 5.
    assert ended.hand.ranking == (2, 0, 1)
    assert ended.is_over


def test_r_alt_1_time_up_replays_from_a_record() -> None:
    rules = Rules(time_limit=5)
    record = GameRecord(rules, 3, seed=4, match=True, actions=((None, "time_up"),))
    match = replay(record)
    assert isinstance(match, Match)
    assert match.is_over
    assert match.hand.termination is Termination.TIME_LIMIT
    back = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert to_dict(replay(back)) == to_dict(match)


def test_r_alt_1_r_end_3_those_out_already_rank_first() -> None:
    rules = Rules(time_limit=10, play_to_last=True, scoring="placement", target=None, hands=5)
    match = Match.new(rules, 3, seed=1, dealer=2).match
    match = replace(match, hand=deal(rules, [["R1"], ["G9", "B9"], ["Y1"]], "R9", dealer=2).state)
    match = match.apply(0, "R1").match
    step = match.time_up()
    assert step.events[0] == HandEnded(Termination.TIME_LIMIT, (0, 2, 1))


# -- R-ALT-7: UNO Flip scored winner_takes -------------------------------------------------


def test_r_alt_7_uno_flip_winner_takes_the_points_of_every_opponent_hand() -> None:
    rules = Rules.from_preset("flip", scoring="winner_takes")
    assert rules.scoring is Scoring.WINNER_TAKES
    assert rules.flip
    match = Match.new(rules, 3, seed=2, dealer=2).match
    dealt = deal(rules, [["R7"], ["RD1", "W2"], ["Y9", "W"]], "R9", dealer=2).state
    match = replace(match, hand=dealt)
    step = match.apply(0, "R7")
    scored = next(e for e in step.events if isinstance(e, HandScored))
    # R-FLIP-7 points: Draw One 10 + Wild Draw Two 50, Yellow 9 + Wild 40.
    assert scored.gains == (109, 0, 0)
    # The highest total wins (R-SCORE-1).
    later = replace(step.match, scores=(109, 400, 10), ranking=())
    assert [s.seat for s in later.standings()] == [1, 0, 2]


# -- R-ALT-8: up to twenty seats ------------------------------------------------------------


def test_r_alt_8_twenty_players_with_two_decks() -> None:
    rules = Rules(max_players=20, two_decks=True)
    match = Match.new(rules, 20, seed=3).match
    state = ok(match.hand)
    assert state.seats == 20
    assert state.card_counts() == (7,) * 20
    assert len(state.draw_pile) == 216 - 140 - 1
    with pytest.raises(EngineError, match="2 to 20"):
        Match.new(rules, 21, seed=3)
    with pytest.raises(EngineError, match="2 to 10"):
        Match.new(Rules(two_decks=True), 12, seed=3)


def test_r_alt_8_seats_past_ten_can_be_caught_and_targeted() -> None:
    rules = {"max_players": 20, "two_decks": True, "zero_spell": "swap"}
    hands = [["R0", "R5", "G2"], *([f"B{1 + i % 9}", f"Y{1 + i % 9}"] for i in range(14))]
    hands.append(["Y3", "G4"])
    state = hand(hands, "R9", **rules).state
    state, _ = run(state, (0, "R0"))
    assert legal(state)[0][-1] == "swap@15"
    state, _ = run(state, (0, "swap@15"))
    assert state.hands[15]
    assert ok(state).current == 1


def test_r_alt_8_simulate_twenty_seats_with_every_check() -> None:
    rules = Rules(max_players=20, two_decks=True, seven_swap=True, skip_variant="all_draw")
    report = simulate(rules, preset="classic", players=20, hands=6, seed=8, check=True)
    assert report.problems == []
    assert report.hands == 6


# -- snapshots, records, events, hidden information ---------------------------------------------


def test_r_alt_snapshots_keep_the_alternative_state_and_classic_ones_do_not_change() -> None:
    classic = new_hand(CLASSIC, 4, dealer=0, seed=5).state
    assert "alt" not in hand_to_dict(classic)
    state = hand([["R0", "R5"], ["B1", "B2"], ["Y3"], ["G9", "G8"]], "R9", zero_spell="swap").state
    state, _ = run(state, (0, "R0"), (0, "swap@2"))
    data = hand_to_dict(state)
    assert data["alt"] == {
        "quiet": 0,
        "windows": [2],
        "gift_checked": False,
        "recipient": None,
        "origin": None,
        "round": [],
    }
    assert hand_from_dict(json.loads(json.dumps(data))) == state
    assert from_dict(to_dict(state)) == state


def test_r_alt_records_of_every_choice_replay() -> None:
    rules = Rules(
        zero_spell="swap",
        seven_swap=True,
        skip_variant="give",
        teams=2,
        partner_gift=True,
        blank_cards=4,
        blank_effect="chain",
    )
    report = simulate(rules, preset="classic", players=4, hands=6, seed=11, keep_record=True)
    record = report.record
    assert record is not None
    texts = {text.split("@")[0].split("=")[0] for _, text in record.actions}
    assert {"swap", "give", "gift", "nogift"} <= texts
    final = replay(GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))))
    assert to_dict(final) == to_dict(replay(record))


def test_r_alt_events_round_trip_through_json() -> None:
    rules = Rules(
        zero_spell="rotate",
        skip_variant="give",
        teams=2,
        partner_gift=True,
        blank_cards=4,
        blank_effect="take_two",
    )
    match = Match.new(rules, 4, seed=7).match
    rnd = random.Random(7)
    seen: set[str] = set()
    for _ in range(3000):
        if match.hand.is_over:
            if match.is_over:
                break
            match = match.next_hand().match
            continue
        seat, action = random_step(match.hand, rnd)
        step = match.apply(seat, action)
        for event in step.events:
            data = json.loads(json.dumps(event_to_dict(event)))
            assert event_from_dict(data) == event
            seen.add(type(event).__name__)
        match = step.match
    assert {"HandsRotated", "CardsGiven", "GivenCards"} <= seen


def test_r_alt_views_show_the_public_state_and_the_hidden_cards_to_no_one_else() -> None:
    state = hand(
        [["G5", "G6", "G7"], ["R1", "Y2"], ["B5", "B6"], ["G8", "R4", "Y9"]],
        "G9",
        teams=2,
        partner_gift=True,
    ).state
    state, _ = run(state, (0, "G5"))
    view = state.public_view()
    assert view.phase is Phase.GIFT
    assert view.current == 3
    assert view.alt is not None
    assert view.alt.recipient == 1
    step = state.apply(3, "gift=R4")
    assert [type(e).__name__ for e in events_for(step.events, 0)] == ["CardsGiven"]
    assert step.state.view_for(1).hand[0][1].notation == "R1"
    assert len(step.state.view_for(1).hand) == 3


# -- R-TIME-1: what a timed-out seat chooses -------------------------------------------------


def test_r_alt_r_time_1_a_timed_out_choice_is_made_for_the_seat() -> None:
    swap = hand(
        [["R0", "R5", "G2"], ["B1", "B2"], ["Y3"], ["G9", "G8"]], "R9", zero_spell="swap"
    ).state
    swap, _ = run(swap, (0, "R0"))
    assert str(auto_action(swap, 0)) == "swap@2"  # the fewest cards
    give = hand([["RS", "G2", "B7", "W"], ["Y1", "Y2"], ["B3"]], "R9", skip_variant="give").state
    give, _ = run(give, (0, "RS"))
    assert str(auto_action(give, 0)) == "give=W@2"  # the most points to the fewest cards
    gift = hand(
        [["G5", "G6", "G7"], ["R1", "Y2"], ["B5", "B6"], ["G8", "R4", "Y9"]],
        "G9",
        teams=2,
        partner_gift=True,
    ).state
    gift, _ = run(gift, (0, "G5"))
    assert str(auto_action(gift, 3)) == "nogift"
    assert auto_action(gift, 1) is None  # not the seat the hand waits for
    chain = hand(
        [["WX", "G2", "G5"], ["B1", "B2"], ["Y3"]],
        "R9",
        blank_cards=4,
        blank_effect="chain",
    ).state
    chain, _ = run(chain, (0, "WX=G"))
    assert str(auto_action(chain, 0)) == "pass"
    colour_round = hand(
        [["WX", "G2", "G5"], ["B1", "B9", "BS"], ["Y3"]],
        "R9",
        blank_cards=4,
        blank_effect="colour_round",
    ).state
    colour_round, _ = run(colour_round, (0, "WX=B"))
    assert str(auto_action(colour_round, 1)) == "B1"
    colour_round, _ = run(colour_round, (1, "B1"))
    assert str(auto_action(colour_round, 2)) == "draw"
