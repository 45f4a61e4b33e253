"""Matches: dealer choice and rotation, scoring methods, endings, tie-breaks, victory points,
teams and presets (RULES.md R-SETUP-2, R-SCORE-1 … R-SCORE-7, R-TEAM-2, R-TEAM-3, §12).

Where RULES.md is open, docs/engine.md ("Matches") is the reading under test.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from engine import (
    PRESETS,
    CardFace,
    ChallengeReveal,
    EngineError,
    Event,
    IllegalActionError,
    Kind,
    Reason,
    Rules,
    RulesError,
    Scoring,
    Stacking,
    Termination,
    UnoPenalty,
)
from engine.events import TurnSkipped
from engine.game import deal
from engine.match import (
    DealerChosen,
    DealerDraw,
    HandRecord,
    HandScored,
    Match,
    MatchEnded,
    PlayerEliminated,
    choose_dealer,
    hand_gains,
    team_standings,
)
from engine.simulate import random_step
from engine.state import GameState, HandOutcome

from .scenario import hand

# -- helpers -------------------------------------------------------------------------------


def new_match(
    players: int,
    preset: str = "classic",
    *,
    dealer: int | None = None,
    seed: int = 1,
    **options: Any,
) -> Match:
    """A fresh match of ``preset`` with options overridden."""
    rules = Rules.from_preset(preset, **options)
    return Match.new(rules, players, seed=seed, dealer=dealer).match


def stacked(
    match: Match,
    hands: Sequence[Sequence[str]],
    start: str = "R1",
    *,
    draw: Sequence[str] = (),
    scores: Sequence[int] | None = None,
    **changes: Any,
) -> Match:
    """``match`` whose current hand is this stacked deal (dealt by the match's dealer).

    Calls ``engine.game.deal`` (what ``scenario.hand`` wraps) with the match's own rules:
    the rule option ``hands`` would clash with ``scenario.hand``'s ``hands`` argument.
    """
    dealt = deal(match.rules, [list(h) for h in hands], start, list(draw), dealer=match.dealer)
    state = dealt.state
    if scores is not None:
        changes["scores"] = tuple(scores)
    return replace(match, hand=state, **changes)


def play(match: Match, *moves: tuple[int, str]) -> tuple[Match, list[Event]]:
    """Apply ``(seat, action)`` moves through the match; return it and all events."""
    events: list[Event] = []
    for seat, action in moves:
        step = match.apply(seat, action)
        match = step.match
        events.extend(step.events)
    return match, events


def of(events: Sequence[Event], kind: type[Event]) -> list[Any]:
    """The events of one class, in order."""
    return [e for e in events if isinstance(e, kind)]


def play_out(match: Match, seed: int, *, max_steps: int = 100_000) -> tuple[Match, list[Event]]:
    """Play the whole match with the seeded random policy; deal each next hand."""
    rnd = random.Random(seed)
    events: list[Event] = []
    for _ in range(max_steps):
        if match.is_over:
            return match, events
        if match.hand.is_over:
            step = match.next_hand()
        else:
            seat, action = random_step(match.hand, rnd)
            step = match.apply(seat, action)
        match = step.match
        events.extend(step.events)
    raise AssertionError("the match did not end")


def outcome(
    ranking: Sequence[int],
    points: Sequence[int],
    cards: Sequence[int] | None = None,
    termination: Termination = Termination.WENT_OUT,
) -> HandOutcome:
    return HandOutcome(
        termination=termination,
        ranking=tuple(ranking),
        points=tuple(points),
        cards=tuple(cards) if cards is not None else tuple(1 if p else 0 for p in points),
    )


def record(
    cards_left: Sequence[int], last_drawer: int | None = None, winner: int = 0
) -> HandRecord:
    seats = len(cards_left)
    return HandRecord(
        dealer=0,
        winner=winner,
        ranking=tuple(range(seats)),
        gains=(0,) * seats,
        cards_left=tuple(cards_left),
        last_drawer=last_drawer,
    )


def ranked(match: Match) -> tuple[int, ...]:
    """The seats in standings order."""
    return tuple(s.seat for s in match.standings())


# Three seats, dealer 2: seat 0 plays first and goes out with R5 on R1.
# Seat 1 holds 59 points (2 cards), seat 2 holds 22 points (2 cards).
THREE = [["R5"], ["B9", "W"], ["Y2", "GS"]]


# -- R-SCORE-1 winner_takes ----------------------------------------------------------------


def test_r_score_1_hand_gains_winner_scores_all_other_hands() -> None:
    result = outcome(ranking=(1, 0, 2, 3), points=(12, 0, 50, 20))
    assert hand_gains(Rules(), result, [0, 1, 2, 3]) == (0, 82, 0, 0)


def test_r_score_1_winner_takes_end_to_end_below_target() -> None:
    match = stacked(new_match(3, dealer=2), THREE)
    assert match.hand.current == 0
    match, events = play(match, (0, "R5"))
    assert of(events, HandScored) == [HandScored(1, 0, (81, 0, 0), (81, 0, 0))]
    assert not of(events, MatchEnded)
    assert not match.is_over
    assert match.scores == (81, 0, 0)
    assert match.hands_won == (1, 0, 0)
    assert match.history[-1].gains == (81, 0, 0)
    assert match.history[-1].cards_left == (0, 2, 2)


def test_r_score_1_reaching_target_ends_match_with_ranking() -> None:
    match = stacked(new_match(3, dealer=2), THREE, scores=(430, 450, 100))
    match, events = play(match, (0, "R5"))
    assert of(events, HandScored) == [HandScored(1, 0, (81, 0, 0), (511, 450, 100))]
    assert of(events, MatchEnded) == [MatchEnded((0, 1, 2))]
    assert match.is_over
    assert match.ranking == (0, 1, 2)
    assert [(s.place, s.seat, s.score) for s in match.standings()] == [
        (1, 0, 511),
        (2, 1, 450),
        (3, 2, 100),
    ]


def test_r_score_1_exactly_reaching_target_ends_match() -> None:
    """'The first to reach the target wins': 419 + 81 = 500 is enough."""
    match = stacked(new_match(3, dealer=2), THREE, scores=(419, 0, 0))
    match, events = play(match, (0, "R5"))
    assert match.scores[0] == 500
    assert of(events, MatchEnded) == [MatchEnded((0, 1, 2))]


# -- R-SCORE-2 penalty ---------------------------------------------------------------------


def test_r_score_2_hand_gains_everyone_scores_own_hand() -> None:
    result = outcome(ranking=(1, 0, 2), points=(12, 0, 50))
    assert hand_gains(Rules(scoring=Scoring.PENALTY), result, [0, 1, 2]) == (12, 0, 50)


@pytest.mark.parametrize(
    "target", [pytest.param(200, id="R-SCORE-2-to-200"), pytest.param(500, id="R-SCORE-2-to-500")]
)
def test_r_score_2_penalty_lowest_total_wins_at_target(target: int) -> None:
    base = new_match(3, dealer=2, scoring="penalty", target=target)
    # Seat 1 (59 in hand) crosses the target; seat 0 went out and scores 0, but seat 2
    # still has the lowest total and wins the match.
    match = stacked(base, THREE, scores=(target - 30, target - 58, target - 80))
    match, events = play(match, (0, "R5"))
    totals = (target - 30, target + 1, target - 58)
    assert of(events, HandScored) == [HandScored(1, 0, (0, 59, 22), totals)]
    assert of(events, MatchEnded) == [MatchEnded((2, 0, 1))]
    assert ranked(match) == (2, 0, 1)


def test_r_score_2_penalty_below_target_goes_on() -> None:
    match = stacked(new_match(3, dealer=2, scoring="penalty", target=200), THREE)
    match, events = play(match, (0, "R5"))
    assert match.scores == (0, 59, 22)
    assert not match.is_over
    assert not of(events, MatchEnded)


# -- R-SCORE-3 elimination -----------------------------------------------------------------


def test_r_score_3_eliminated_player_sits_out_then_heads_up_then_last_one_wins() -> None:
    match = stacked(new_match(3, "elimination", dealer=2), THREE, scores=(0, 441, 100))
    match, events = play(match, (0, "R5"))
    assert match.scores == (0, 500, 122)  # at the target is enough
    assert of(events, PlayerEliminated) == [PlayerEliminated(1)]
    assert not match.is_over
    assert match.eliminated == (1,)

    # The next hand is dealt without seat 1; the deal passes to seat 0.
    match = match.next_hand().match
    assert match.dealer == 0
    assert match.hand.playing == (True, False, True)
    assert match.hand.hands[1] == ()
    assert len(match.hand.hands[0]) >= 7
    assert len(match.hand.hands[2]) >= 7
    assert match.hand.current != 1
    assert 1 not in {seat for seat in range(3) if match.hand.legal_actions(seat)}

    # Heads-up (R-ACT-2, R-TEAM-1): a Reverse acts as a Skip.
    match = stacked(match, [["Y2", "G3"], [], ["R5", "RR"]], scores=(495, 500, 122))
    assert match.hand.current == 2
    match, events = play(match, (2, "RR"))
    assert of(events, TurnSkipped) == [TurnSkipped(0)]
    assert match.hand.current == 2
    assert match.hand.clockwise  # no change of direction
    match, events = play(match, (2, "R5"))
    assert of(events, PlayerEliminated) == [PlayerEliminated(0)]
    # The survivor first, then the eliminated in reverse order of elimination.
    assert of(events, MatchEnded) == [MatchEnded((2, 0, 1))]
    assert match.ranking == (2, 0, 1)
    assert ranked(match) == (2, 0, 1)


def test_r_score_3_below_target_nobody_is_eliminated() -> None:
    match = stacked(new_match(3, "elimination", dealer=2), THREE, scores=(0, 440, 477))
    match, events = play(match, (0, "R5"))
    assert match.scores == (0, 499, 499)
    assert not of(events, PlayerEliminated)
    assert match.eliminated == ()


def test_r_score_3_two_over_at_once_highest_leaves_first_and_ranks_last() -> None:
    match = stacked(new_match(3, "elimination", dealer=2), THREE, scores=(0, 450, 490))
    match, events = play(match, (0, "R5"))
    assert match.scores == (0, 509, 512)
    assert of(events, PlayerEliminated) == [PlayerEliminated(2), PlayerEliminated(1)]
    assert of(events, MatchEnded) == [MatchEnded((0, 1, 2))]


def test_r_score_3_ranking_survivor_then_eliminated_in_reverse_order() -> None:
    match = replace(
        new_match(4, "elimination", dealer=0),
        scores=(510, 300, 550, 520),
        eliminated=(3, 0, 2),
        history=(record((0, 0, 0, 0)),),
    )
    assert match._rank() == (1, 2, 0, 3)
    assert ranked(match) == (1, 2, 0, 3)


def test_r_score_3_deal_skips_eliminated_seat() -> None:
    match = replace(new_match(3, "elimination", dealer=1), eliminated=(2,))
    match = stacked(match, [["R5"], ["B9"], []], scores=(0, 0, 510))
    assert match.hand.current == 0  # seat 2 is out of the hand
    match, events = play(match, (0, "R5"))
    assert match.scores == (0, 9, 510)
    assert not of(events, PlayerEliminated)
    match = match.next_hand().match
    # From seat 1 the next seat (2) is out of the match: the deal goes on to seat 0.
    assert match.dealer == 0
    assert match.hand.playing == (True, True, False)


def test_r_score_3_full_random_match() -> None:
    match = new_match(4, "elimination", seed=3)
    rnd = random.Random(3)
    events: list[Event] = []
    while not match.is_over:
        if match.hand.is_over:
            match = match.next_hand().match
            for seat in match.eliminated:
                assert not match.hand.playing[seat]
                assert match.hand.hands[seat] == ()
            assert match.dealer not in match.eliminated
            continue
        seat, action = random_step(match.hand, rnd)
        step = match.apply(seat, action)
        match = step.match
        events.extend(step.events)
    assert [e.seat for e in of(events, PlayerEliminated)] == list(match.eliminated)
    assert len(match.eliminated) == 3
    assert all(match.scores[s] >= 500 for s in match.eliminated)
    survivor = next(s for s in range(4) if s not in match.eliminated)
    assert match.ranking == (survivor, *reversed(match.eliminated))
    assert of(events, MatchEnded) == [MatchEnded(match.ranking)]


# -- R-SCORE-4 placement -------------------------------------------------------------------


def test_r_score_4_hand_gains_by_going_out_order() -> None:
    rules = Rules.from_preset("tournament")
    result = outcome(ranking=(2, 0, 3, 1), points=(0, 30, 0, 0))
    assert hand_gains(rules, result, [0, 1, 2, 3]) == (3, 1, 4, 2)


def test_r_score_4_hand_gains_n_down_to_1_for_other_sizes() -> None:
    rules = Rules.from_preset("tournament", players=None)
    result = outcome(ranking=(1, 2, 0), points=(5, 0, 0))
    assert hand_gains(rules, result, [0, 1, 2]) == (1, 3, 2)


def test_r_score_4_stacked_hand_counter_clockwise_play_to_last() -> None:
    match = new_match(4, "tournament", dealer=1)
    match = stacked(match, [["R5"], ["B9"], ["R7"], ["R6"]])
    assert match.hand.current == 0
    assert not match.hand.clockwise
    match, events = play(match, (0, "R5"))
    assert not of(events, HandScored)  # play_to_last: the others play on
    assert match.hand.current == 3
    match, events = play(match, (3, "R6"), (2, "R7"))
    assert of(events, HandScored) == [HandScored(1, 0, (4, 1, 2, 3), (4, 1, 2, 3))]
    assert match.history[-1].ranking == (0, 3, 2, 1)
    assert not match.is_over


def test_r_score_4_tournament_ends_after_five_hands_with_game_points() -> None:
    match, events = play_out(new_match(4, "tournament", seed=5), seed=5)
    scored = of(events, HandScored)
    assert len(scored) == 5
    assert len(match.history) == 5
    for record_, event in zip(match.history, scored, strict=True):
        assert sorted(event.gains) == [1, 2, 3, 4]
        assert [event.gains[s] for s in record_.ranking] == [4, 3, 2, 1]
    assert sum(match.scores) == 50
    assert of(events, MatchEnded) == [MatchEnded(match.ranking)]
    standings = match.standings()
    assert [s.game_points for s in standings] == [4, 3, 2, 1]
    assert [s.score for s in standings] == sorted(match.scores, reverse=True)
    with pytest.raises(IllegalActionError) as err:
        match.next_hand()
    assert err.value.reason is Reason.MATCH_OVER


# -- R-SCORE-5 match length ----------------------------------------------------------------


def test_r_score_5_fixed_hands_without_target() -> None:
    match, events = play_out(new_match(3, hands=3, target=None, seed=2), seed=2)
    assert len(of(events, HandScored)) == 3
    assert len(match.history) == 3
    assert of(events, MatchEnded) == [MatchEnded(match.ranking)]
    # Most points wins.
    assert match.scores[match.ranking[0]] == max(match.scores)


def test_r_score_5_fixed_hands_ignore_points() -> None:
    """A fixed-hands match goes on whatever the totals are."""
    match = new_match(3, dealer=2, hands=3, target=None)
    match = stacked(match, THREE, scores=(5000, 0, 0))
    match, events = play(match, (0, "R5"))
    assert not match.is_over
    assert not of(events, MatchEnded)


def test_r_score_5_points_target_ends_when_passed() -> None:
    match, events = play_out(new_match(3, target=200, seed=4), seed=4)
    scored = of(events, HandScored)
    assert max(scored[-1].totals) >= 200
    assert all(max(e.totals) < 200 for e in scored[:-1])
    assert of(events, MatchEnded) == [MatchEnded(match.ranking)]
    assert match.ranking[0] == max(range(3), key=lambda s: match.scores[s])


def test_r_score_5_both_set_target_first() -> None:
    match = new_match(3, dealer=2, hands=3, target=500)
    match = stacked(match, THREE, scores=(450, 0, 0))
    match, events = play(match, (0, "R5"))
    assert len(match.history) == 1
    assert of(events, MatchEnded) == [MatchEnded((0, 1, 2))]


def test_r_score_5_both_set_hands_first() -> None:
    match = new_match(3, dealer=2, hands=3, target=500)
    match = stacked(match, THREE, history=(record((0, 3, 4)), record((2, 0, 4), winner=1)))
    match, events = play(match, (0, "R5"))
    assert len(match.history) == 3
    assert match.scores == (81, 0, 0)
    assert of(events, MatchEnded) == [MatchEnded((0, 1, 2))]


def test_r_score_5_both_set_random_match_ends_by_hands() -> None:
    match, events = play_out(new_match(3, hands=2, target=10_000, seed=6), seed=6)
    assert len(of(events, HandScored)) == 2
    assert max(match.scores) < 10_000
    assert match.is_over


# -- R-SCORE-6 ties ------------------------------------------------------------------------

TIE_RULES = [
    pytest.param({"hands": 3, "target": None}, id="R-SCORE-6-fixed-hands"),
    pytest.param({"target": 500}, id="R-SCORE-6-points"),
]


@pytest.mark.parametrize("options", TIE_RULES)
def test_r_score_6_equal_points_more_hands_won(options: dict[str, Any]) -> None:
    match = replace(
        new_match(3, dealer=0, **options),
        scores=(600, 600, 100),
        hands_won=(1, 2, 0),
        history=(record((0, 1, 1), last_drawer=1),),
    )
    assert match._rank() == (1, 0, 2)
    assert ranked(match) == (1, 0, 2)


@pytest.mark.parametrize("options", TIE_RULES)
def test_r_score_6_then_fewer_cards_at_end_of_last_hand(options: dict[str, Any]) -> None:
    match = replace(
        new_match(3, dealer=0, **options),
        scores=(600, 600, 600),
        hands_won=(2, 2, 2),
        history=(record((5, 0, 2), last_drawer=1),),
    )
    assert match._rank() == (1, 2, 0)


@pytest.mark.parametrize("options", TIE_RULES)
@pytest.mark.parametrize(("drew_last", "expected"), [(0, (1, 2, 0)), (1, (0, 2, 1))])
def test_r_score_6_then_the_player_who_drew_last_loses(
    options: dict[str, Any], drew_last: int, expected: tuple[int, ...]
) -> None:
    match = replace(
        new_match(3, dealer=0, **options),
        scores=(600, 600, 600),
        hands_won=(1, 1, 1),
        history=(record((3, 3, 3), last_drawer=drew_last),),
    )
    assert match._rank() == expected
    assert ranked(match) == expected


def test_r_score_6_points_come_before_tie_breaks() -> None:
    match = replace(
        new_match(3, dealer=0),
        scores=(600, 601, 0),
        hands_won=(5, 0, 0),
        history=(record((0, 9, 9), last_drawer=1),),
    )
    assert match._rank() == (1, 0, 2)


def test_r_score_6_penalty_ties_lowest_first_then_tie_breaks() -> None:
    match = replace(
        new_match(3, dealer=0, scoring="penalty", target=500),
        scores=(120, 120, 90),
        hands_won=(1, 2, 0),
        history=(record((0, 3, 3)),),
    )
    assert match._rank() == (2, 1, 0)


def test_r_score_6_fewer_cards_at_end_of_last_hand_end_to_end() -> None:
    """Seats 0 and 1 tie on 0 points and 0 hands won; seat 0 holds fewer cards at the end."""
    match = new_match(3, dealer=1, hands=1, target=None)
    match = stacked(match, [["R1", "Y0"], ["R2", "R7", "B3"], ["R5"]], "R9")
    assert match.hand.current == 2
    match, events = play(match, (2, "R5"))
    assert match.history[-1].cards_left == (2, 3, 0)
    assert of(events, MatchEnded) == [MatchEnded((2, 0, 1))]


def test_r_score_6_drew_last_loses_end_to_end() -> None:
    """Seats 0 and 1 end with 2 cards and 0 points each; seat 0 drew last and ranks last."""
    match = new_match(3, dealer=2, hands=1, target=None)
    match = stacked(match, [["Y0"], ["R2", "B3", "G4"], ["R5"]], "R9", draw=["B5"])
    assert match.hand.current == 0
    match, events = play(match, (0, "draw"), (1, "R2"), (2, "R5"))
    assert match.history[-1].cards_left == (2, 2, 0)
    assert match.history[-1].last_drawer == 0
    assert match.scores[0] == match.scores[1] == 0
    assert of(events, MatchEnded) == [MatchEnded((2, 1, 0))]


def blocked(hands: Sequence[Sequence[str]], start: str, last_drawer: int | None) -> GameState:
    """A hand where nobody can play and nothing is left to draw (R-TURN-6)."""
    state = hand(hands, start).state
    return replace(state, draw_pile=(), last_drawer=last_drawer)


def test_r_score_6_blocked_hand_won_on_fewest_points_then_fewest_cards() -> None:
    match = new_match(3, dealer=2)
    # Seat 0: 3 points in 2 cards; seat 1: 3 points in 1 card; seat 2: 9 points.
    state = blocked([["R1", "R2"], ["B3"], ["Y9"]], "G5", last_drawer=None)
    match = replace(match, hand=state)
    match, events = play(match, (0, "draw"), (1, "draw"), (2, "draw"))
    assert match.hand.termination is Termination.BLOCKED
    assert match.hand.ranking == (1, 0, 2)
    assert of(events, HandScored) == [HandScored(1, 1, (0, 12, 0), (0, 12, 0))]
    assert match.hands_won == (0, 1, 0)


@pytest.mark.parametrize(("drew_last", "expected"), [(0, (1, 0, 2)), (1, (0, 1, 2))])
def test_r_score_6_blocked_hand_drew_last_loses_a_tie(
    drew_last: int, expected: tuple[int, ...]
) -> None:
    state = blocked([["R1", "R2"], ["B1", "B2"], ["Y9"]], "G5", last_drawer=drew_last)
    match = replace(new_match(3, dealer=2), hand=state)
    match, _ = play(match, (0, "draw"), (1, "draw"), (2, "draw"))
    assert match.hand.termination is Termination.BLOCKED
    assert match.hand.ranking == expected
    assert match.history[-1].winner == expected[0]


def test_r_score_6_blocked_outcome_gains() -> None:
    result = outcome(
        ranking=(1, 0, 2), points=(3, 3, 9), cards=(2, 1, 1), termination=Termination.BLOCKED
    )
    assert hand_gains(Rules(), result, [0, 1, 2]) == (0, 12, 0)


# -- R-SCORE-7 victory points --------------------------------------------------------------


def test_r_score_7_online_preset_four_players_12_6_2_0() -> None:
    match = replace(new_match(4, "online", seed=1), ranking=(2, 0, 3, 1))
    assert [(s.seat, s.victory_points) for s in match.standings()] == [
        (2, 12),
        (0, 6),
        (3, 2),
        (1, 0),
    ]


def test_r_score_7_pairs_10_6_4_0() -> None:
    match = replace(new_match(4, "online", seed=1, teams=2), ranking=(0, 2, 1, 3))
    assert [s.victory_points for s in match.standings()] == [10, 6, 4, 0]


def test_r_score_7_online_full_match_victory_points() -> None:
    match, _ = play_out(new_match(4, "online", seed=8), seed=8)
    assert [s.victory_points for s in match.standings()] == [12, 6, 2, 0]
    assert ranked(match) == match.ranking


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        pytest.param(2, [12, 0], id="R-SCORE-7-two"),
        pytest.param(3, [12, 6, 0], id="R-SCORE-7-three"),
        pytest.param(5, [12, 6, 2, 0, 0], id="R-SCORE-7-five"),
    ],
)
def test_r_score_7_other_table_sizes(players: int, expected: list[int]) -> None:
    match = replace(new_match(players, "online", seed=1), ranking=tuple(range(players)))
    assert [s.victory_points for s in match.standings()] == expected


def test_r_score_7_no_victory_points_without_the_option() -> None:
    match = replace(new_match(4, seed=1), ranking=(0, 1, 2, 3))
    assert [s.victory_points for s in match.standings()] == [None] * 4


# -- R-TEAM-2 pairs and teams --------------------------------------------------------------

# Four seats, dealer 3: seat 0 goes out with R5 on R1. Opponents hold 59 (seat 1) and
# 7 (seat 3); the partner (seat 2) holds 22.
FOUR = [["R5"], ["B9", "W"], ["Y2", "GS"], ["G7"]]


def test_r_team_2_hand_gains_count_opponents_only() -> None:
    result = outcome(ranking=(0, 3, 2, 1), points=(0, 59, 22, 7))
    assert hand_gains(Rules(teams=2), result, [0, 1, 0, 1]) == (66, 0, 0, 0)


def test_r_team_2_team_of_partners_sit_alternately() -> None:
    match = new_match(4, dealer=3, teams=2)
    assert [match.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    match6 = new_match(6, dealer=0, teams=3)
    assert [match6.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]


def test_r_team_2_going_out_wins_for_the_team() -> None:
    match = stacked(new_match(4, dealer=3, teams=2), FOUR)
    match, events = play(match, (0, "R5"))
    assert match.hand.is_over
    assert of(events, HandScored) == [HandScored(1, 0, (66, 0, 0, 0), (66, 0, 0, 0))]
    assert match.team_scores() == {0: 66, 1: 0}


def test_r_team_2_target_applies_to_team_total() -> None:
    match = stacked(new_match(4, dealer=3, teams=2), FOUR, scores=(300, 100, 150, 100))
    match, events = play(match, (0, "R5"))
    assert match.scores == (366, 100, 150, 100)  # nobody alone reached 500
    assert match.team_scores() == {0: 516, 1: 200}
    assert match.is_over
    # Team 0 first (seat 0 won the hand); then seat 3 (1 card left) before seat 1 (2 cards).
    assert of(events, MatchEnded) == [MatchEnded((0, 2, 3, 1))]


def test_r_team_2_below_team_target_goes_on() -> None:
    match = stacked(new_match(4, dealer=3, teams=2), FOUR, scores=(300, 100, 100, 100))
    match, events = play(match, (0, "R5"))
    assert match.team_scores() == {0: 466, 1: 200}
    assert not match.is_over
    assert not of(events, MatchEnded)


# -- R-TEAM-3 team standings ---------------------------------------------------------------


def test_r_team_3_awards_5_3_2_1_by_summed_points() -> None:
    assert team_standings({"a": 10, "b": 30, "c": 20, "d": 5}) == [
        ("b", 30, 5),
        ("c", 20, 3),
        ("a", 10, 2),
        ("d", 5, 1),
    ]


def test_r_team_3_ties_share_the_higher_award() -> None:
    assert team_standings({"a": 20, "b": 20, "c": 10, "d": 5}) == [
        ("a", 20, 5),
        ("b", 20, 5),
        ("c", 10, 2),
        ("d", 5, 1),
    ]
    assert team_standings({"a": 30, "b": 20, "c": 20, "d": 20}) == [
        ("a", 30, 5),
        ("b", 20, 3),
        ("c", 20, 3),
        ("d", 20, 3),
    ]


def test_r_team_3_beyond_fourth_place_gets_nothing() -> None:
    result = team_standings({"a": 50, "b": 40, "c": 30, "d": 20, "e": 10})
    assert [award for _, _, award in result] == [5, 3, 2, 1, 0]


# -- R-SETUP-2 dealer ----------------------------------------------------------------------


def dealer_value(face: str) -> int:
    parsed = CardFace.parse(face)
    if parsed.kind is Kind.NUMBER and parsed.number is not None:
        return parsed.number
    return -1


def check_dealer_draw(players: int, events: list[Event], dealer: int) -> int:
    """Replay R-SETUP-2 from the DealerDraw events; return the number of rounds."""
    draws = of(events, DealerDraw)
    contenders = list(range(players))
    rounds = max(d.round for d in draws)
    for number in range(1, rounds + 1):
        this = [d for d in draws if d.round == number]
        assert [d.seat for d in this] == contenders
        best = max(dealer_value(d.face) for d in this)
        contenders = [d.seat for d in this if dealer_value(d.face) == best]
        assert (len(contenders) == 1) == (number == rounds)
    assert contenders == [dealer]
    assert of(events, DealerChosen) == [DealerChosen(dealer, at_random=False)]
    return rounds


@pytest.mark.parametrize("players", [2, 4, 7])
def test_r_setup_2_highest_number_deals(players: int) -> None:
    for seed in range(40):
        step = Match.new(Rules(), players, seed=seed)
        check_dealer_draw(players, list(step.events), step.match.dealer)
        assert step.match.hand.dealer == step.match.dealer


def test_r_setup_2_action_cards_count_as_no_number() -> None:
    found = False
    for seed in range(500):
        events: list[Event] = []
        dealer = choose_dealer(Rules(), 2, seed, events)
        first = [d for d in of(events, DealerDraw) if d.round == 1]
        values = [dealer_value(d.face) for d in first]
        if -1 in values and 0 in values:  # a zero beats an action card or a wild
            assert first[values.index(0)].seat == dealer
            found = True
            break
    assert found


def test_r_setup_2_ties_draw_again() -> None:
    for seed in range(1000):
        events: list[Event] = []
        dealer = choose_dealer(Rules(), 4, seed, events)
        if max(d.round for d in of(events, DealerDraw)) > 1:
            break
    else:
        pytest.fail("no seed in range produced a tie")
    first = [d for d in of(events, DealerDraw) if d.round == 1]
    second = [d for d in of(events, DealerDraw) if d.round == 2]
    best = max(dealer_value(d.face) for d in first)
    tied = [d.seat for d in first if dealer_value(d.face) == best]
    assert len(tied) >= 2
    assert [d.seat for d in second] == tied  # only the tied players draw again
    assert check_dealer_draw(4, events, dealer) >= 2


def test_r_setup_2_all_action_cards_is_a_tie() -> None:
    for seed in range(5000):
        events: list[Event] = []
        dealer = choose_dealer(Rules(), 2, seed, events)
        first = [d for d in of(events, DealerDraw) if d.round == 1]
        if all(dealer_value(d.face) == -1 for d in first):
            break
    else:
        pytest.fail("no seed in range drew two action cards")
    assert [d.seat for d in of(events, DealerDraw) if d.round == 2] == [0, 1]
    check_dealer_draw(2, events, dealer)


def test_r_setup_2_random_dealer_is_seeded() -> None:
    dealers = set()
    for seed in range(40):
        step = Match.new(Rules.from_preset("online"), 4, seed=seed)
        assert of(step.events, DealerDraw) == []
        assert of(step.events, DealerChosen) == [DealerChosen(step.match.dealer, at_random=True)]
        again = Match.new(Rules.from_preset("online"), 4, seed=seed)
        assert again.match.dealer == step.match.dealer
        assert again.events == step.events
        dealers.add(step.match.dealer)
    assert dealers == {0, 1, 2, 3}


def test_r_setup_2_given_dealer_skips_the_draw() -> None:
    step = Match.new(Rules(), 3, seed=1, dealer=1)
    assert step.match.dealer == 1
    assert not of(step.events, DealerDraw)
    assert not of(step.events, DealerChosen)
    with pytest.raises(EngineError):
        Match.new(Rules(), 3, seed=1, dealer=3)


@pytest.mark.parametrize(
    ("preset", "players", "step"),
    [
        pytest.param("classic", 3, 1, id="R-SETUP-2-clockwise"),
        pytest.param("tournament", 4, -1, id="R-SETUP-2-counter-clockwise-tournament"),
    ],
)
def test_r_setup_2_deal_passes_to_next_seat(preset: str, players: int, step: int) -> None:
    match = new_match(players, preset, seed=11)
    dealers = [match.dealer]
    rnd = random.Random(11)
    for _ in range(4):
        while not match.hand.is_over:
            seat, action = random_step(match.hand, rnd)
            match = match.apply(seat, action).match
        if match.is_over:
            break
        assert match.history[-1].dealer == dealers[-1]
        match = match.next_hand().match
        assert match.hand.dealer == match.dealer
        dealers.append(match.dealer)
    assert len(dealers) >= 3
    assert dealers == [(dealers[0] + step * i) % players for i in range(len(dealers))]


def test_r_setup_2_next_hand_dealer_from_stacked_hand() -> None:
    match = stacked(new_match(3, dealer=2), THREE)
    match, _ = play(match, (0, "R5"))
    nxt = match.next_hand().match
    assert nxt.dealer == 0
    assert nxt.hand.dealer == 0
    assert nxt.hand_number == 2


# -- errors --------------------------------------------------------------------------------


def test_r_score_5_apply_after_match_over_raises_match_over() -> None:
    match = stacked(new_match(3, dealer=2), THREE, scores=(450, 0, 0))
    match, _ = play(match, (0, "R5"))
    assert match.is_over
    with pytest.raises(IllegalActionError) as err:
        match.apply(1, "draw")
    assert err.value.reason is Reason.MATCH_OVER
    with pytest.raises(IllegalActionError) as err:
        match.next_hand()
    assert err.value.reason is Reason.MATCH_OVER


def test_r_setup_2_next_hand_before_hand_over_raises_hand_not_over() -> None:
    match = new_match(3, seed=1)
    with pytest.raises(IllegalActionError) as err:
        match.next_hand()
    assert err.value.reason is Reason.HAND_NOT_OVER


# -- presets (RULES.md §12) ----------------------------------------------------------------

PRESET_TABLE = [
    pytest.param("classic", {}, id="S12-classic"),
    pytest.param(
        "online",
        {
            "random_dealer": True,
            "challenge_reveal": ChallengeReveal.NOBODY,
            "uno_penalty": UnoPenalty.AUTOMATIC,
            "turn_seconds": 30,
            "victory_points": True,
        },
        id="S12-online",
    ),
    pytest.param(
        "tournament",
        {
            "players": 4,
            "clockwise": False,
            "play_to_last": True,
            "scoring": Scoring.PLACEMENT,
            "target": None,
            "hands": 5,
        },
        id="S12-tournament",
    ),
    pytest.param("elimination", {"scoring": Scoring.ELIMINATION}, id="S12-elimination"),
    pytest.param(
        "party",
        {"stacking": Stacking.CUMULATIVE, "jump_in": True, "draw_until_playable": True},
        id="S12-party",
    ),
]


@pytest.mark.parametrize(("name", "changes"), PRESET_TABLE)
def test_preset_options_match_the_table(name: str, changes: dict[str, Any]) -> None:
    preset = Rules.from_preset(name)
    assert preset == PRESETS[name]
    classic = Rules()
    differ = {
        field: getattr(preset, field)
        for field in classic.to_dict()
        if getattr(preset, field) != getattr(classic, field)
    }
    assert differ == changes
    assert preset.preset_name() == name


def test_preset_classic_is_winner_takes_to_500() -> None:
    classic = Rules.from_preset("classic")
    assert classic == Rules()
    assert classic.scoring is Scoring.WINNER_TAKES
    assert classic.target == 500
    assert classic.hands is None
    assert classic.stacking is Stacking.OFF
    assert classic.clockwise
    assert not classic.random_dealer
    assert classic.uno_penalty is UnoPenalty.CATCH


def test_preset_elimination_eliminates_at_500() -> None:
    rules = Rules.from_preset("elimination")
    assert rules.scoring is Scoring.ELIMINATION
    assert rules.target == 500


def test_preset_from_preset_overrides() -> None:
    rules = Rules.from_preset("classic", target=200, scoring="penalty")
    assert rules.target == 200
    assert rules.scoring is Scoring.PENALTY
    assert rules.preset_name() is None
    assert Rules.from_preset("online", turn_seconds=60).random_dealer
    assert Rules.from_preset("party", jump_in=False).stacking is Stacking.CUMULATIVE
    assert PRESETS["classic"].target == 500  # the preset itself is untouched


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        pytest.param("classic", {"scoring": "placement"}, id="R-SCORE-4-placement-without-ptl"),
        pytest.param(
            "classic", {"scoring": "elimination", "target": None}, id="R-SCORE-3-no-target"
        ),
        pytest.param("classic", {"teams": 2, "play_to_last": True}, id="R-TEAM-2-play-to-last"),
        pytest.param("tournament", {"teams": 2}, id="R-TEAM-2-tournament-teams"),
        pytest.param("classic", {"bogus": 1}, id="S12-unknown-option"),
        pytest.param("classic", {"stacking": "huge"}, id="R-ACT-6-bad-enum"),
        pytest.param("classic", {"scoring": "most"}, id="R-SCORE-1-bad-scoring"),
        pytest.param("classic", {"players": 11}, id="R-SETUP-1-players-11"),
        pytest.param("classic", {"players": 1}, id="R-SETUP-1-players-1"),
        pytest.param("classic", {"target": None, "hands": None}, id="R-SCORE-5-no-end"),
        pytest.param("classic", {"target": 0}, id="R-SCORE-5-target-zero"),
        pytest.param("classic", {"hands": 0}, id="R-SCORE-5-hands-zero"),
        pytest.param("classic", {"teams": 1}, id="R-TEAM-2-one-team"),
        pytest.param("classic", {"players": 5, "teams": 2}, id="R-TEAM-2-uneven-teams"),
        pytest.param("classic", {"jump_in": "yes"}, id="R-ACT-7-not-bool"),
    ],
)
def test_preset_contradictory_options_rejected(preset: str, options: dict[str, Any]) -> None:
    with pytest.raises(RulesError):
        Rules.from_preset(preset, **options)


def test_preset_unknown_preset_rejected() -> None:
    with pytest.raises(RulesError):
        Rules.from_preset("speed")


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_to_dict_from_dict_round_trip(name: str) -> None:
    rules = Rules.from_preset(name)
    assert Rules.from_dict(rules.to_dict()) == rules
    # JSON-ready as it is: every option a scalar (to_dict copies them flat, no deep copy).
    assert json.loads(json.dumps(rules.to_dict())) == rules.to_dict()
    changed = rules.with_options(turn_seconds=45)
    assert Rules.from_dict(changed.to_dict()) == changed


def test_preset_from_dict_with_preset_key() -> None:
    rules = Rules.from_dict({"preset": "party", "jump_in": False})
    assert rules == Rules.from_preset("party", jump_in=False)
    with pytest.raises(RulesError):
        Rules.from_dict({"preset": "nope"})
    with pytest.raises(RulesError):
        Rules.from_dict({"colour_blind": True})


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    [
        pytest.param("tournament", 3, {}, id="S12-tournament-3"),
        pytest.param("tournament", 5, {}, id="S12-tournament-5"),
        pytest.param("classic", 5, {"teams": 2}, id="R-TEAM-2-odd-pairs"),
        pytest.param("classic", 11, {}, id="R-SETUP-1-eleven"),
        pytest.param("classic", 1, {}, id="R-SETUP-1-one"),
    ],
)
def test_preset_match_new_rejects_player_count(
    preset: str, players: int, options: dict[str, Any]
) -> None:
    with pytest.raises(EngineError):
        Match.new(Rules.from_preset(preset, **options), players, seed=1)


def test_preset_match_new_accepts_allowed_counts() -> None:
    assert Match.new(Rules.from_preset("tournament"), 4, seed=1).match.players == 4
    assert Match.new(Rules(), 10, seed=1).match.players == 10
    assert Match.new(Rules(), 2, seed=1).match.players == 2
