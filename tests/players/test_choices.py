"""Computer players and the alternative rules (RULES.md §13): the shared choices
(players.choices) for every level, what they add to a play's score, and whole hands of
every level under every rule."""

from __future__ import annotations

import random
from typing import Any

import pytest

import players
from engine import Action, GameState, Phase, PlayerView, Rules
from engine.game import deal
from players import fastsim, hard, normal
from players.arena import play_hand
from players.turns import ask_order, next_actor

LEVELS = ("easy", "normal", "hard")


def table(
    hands: list[list[str]], start: str, draw: tuple[str, ...] = (), **options: Any
) -> GameState:
    rules = Rules.from_preset("classic", **options)
    return deal(rules, hands, start, list(draw), dealer=len(hands) - 1).state


def moved(state: GameState, *moves: tuple[int, str]) -> GameState:
    for seat, text in moves:
        state = state.apply(seat, text).state
    return state


def every_level(state: GameState) -> set[str]:
    """What each level chooses for the seat the hand waits for (the same for all)."""
    view = state.view_for(state.current)
    answers = {str(players.decide(level, view, random.Random(1))) for level in LEVELS}
    answers.add(str(hard.decide(view, random.Random(1))))
    answers.add(str(normal.choose(normal.spot_from_state(state, state.current))))
    return answers


# -- R-ALT-2/3: whom to swap with -----------------------------------------------------------


def test_r_alt_2_every_level_swaps_with_the_opponent_holding_the_fewest_cards() -> None:
    state = table(
        [["R0", "R5", "G2", "B4"], ["B1", "B2", "B3"], ["Y3", "Y4"], ["G9", "G8"]],
        "R9",
        zero_spell="swap",
    )
    state = moved(state, (0, "R0"))
    assert state.phase is Phase.SWAP
    # Seats 2 and 3 hold two cards each: seat 2 plays next after seat 1, so seat 2.
    assert every_level(state) == {"swap@2"}


def test_r_alt_3_with_teams_the_swap_goes_to_an_opponent_before_a_partner() -> None:
    state = table(
        [["R7", "R5", "G2", "B4"], ["B1", "B2", "B3"], ["Y3"], ["G9", "G8"]],
        "R9",
        seven_swap=True,
        teams=2,
    )
    state = moved(state, (0, "R7"))
    # Seat 2 (one card) is seat 0's partner: the fewest cards among opponents is seat 3.
    assert every_level(state) == {"swap@3"}


# -- R-ALT-4: what to give, and to whom -------------------------------------------------------


def test_r_alt_4_every_level_gives_the_least_helpful_card_to_the_leader() -> None:
    state = table(
        [["RS", "R3", "G9", "BD2", "W"], ["Y1", "Y2", "Y4"], ["B3", "B5"]],
        "R9",
        skip_variant="give",
    )
    state = moved(state, (0, "RS"))
    assert state.phase is Phase.GIVE
    # Seat 2 holds the fewest. The Red 3 is of the colour in play (it could play it at
    # once), the Draw Two and the Wild would help it: the Green 9 goes.
    assert every_level(state) == {"give=G9@2"}


# -- R-ALT-5: a partner's gift --------------------------------------------------------------


def gift_state(giver: list[str]) -> GameState:
    state = table(
        [["G5", "G6", "G7"], ["R1", "Y2"], ["B5", "B6"], giver],
        "G9",
        teams=2,
        partner_gift=True,
    )
    return moved(state, (0, "G5"))


def test_r_alt_5_every_level_gifts_its_partner_a_card_it_can_play() -> None:
    state = gift_state(["W", "G8", "Y9", "R4"])
    assert (state.phase, state.current) == (Phase.GIFT, 3)
    # The Green 8 plays on the Green 5; the Wild would too, but is worth keeping.
    assert every_level(state) == {"gift=G8"}


def test_r_alt_5_without_a_playable_card_no_gift() -> None:
    assert every_level(gift_state(["Y9", "R4"])) == {"nogift"}


def test_r_alt_5_next_actor_asks_the_partner_whose_turn_it_is_not() -> None:
    """The hand waits for seat 3 (``current``) while it is seat 1's turn: the computer
    partner is asked and answers; the player then plays the gift."""
    state = gift_state(["G8", "Y9", "R4"])

    def normal_seat(seat: int, view: PlayerView) -> Action | None:
        return players.decide("normal", view, random.Random(seat))

    assert ask_order(state, range(4))[-1] == 3
    decision = next_actor(state, range(4), normal_seat)
    assert decision is not None
    assert (decision.seat, [str(a) for a in decision.actions]) == (3, ["gift=G8"])
    state = moved(state, (3, "gift=G8"))
    decision = next_actor(state, range(4), normal_seat)
    assert decision is not None
    assert (decision.seat, [str(a) for a in decision.actions]) == (1, ["G8"])


# -- R-ALT-6: chain and colour round --------------------------------------------------------


def test_r_alt_6_chain_plays_on_while_coloured_cards_match_then_stops() -> None:
    state = table(
        [["WX", "G2", "G5", "B5", "W", "Y7"], ["B1", "B2"], ["Y3", "Y4"]],
        "R9",
        blank_cards=4,
        blank_effect="chain",
    )
    state = moved(state, (0, "WX=G"))
    # The Green 5 leaves the Blue 5 (and the Wild) to follow it; the Green 2 nothing.
    assert every_level(state) == {"G5"}
    state = moved(state, (0, "G5"))
    assert every_level(state) == {"B5"}
    state = moved(state, (0, "B5"))
    # Only the Wild matches now, and after it the Yellow 7 or the Green 2 at best: one card
    # more is not worth the Wild. The chain stops.
    assert every_level(state) == {"pass"}


def test_r_alt_6_chain_spends_a_wild_for_two_cards_or_the_whole_hand() -> None:
    state = table(
        [["WX", "G5", "W", "Y7", "Y8", "B1"], ["B1", "B2"], ["Y3", "Y4"]],
        "R9",
        blank_cards=4,
        blank_effect="chain",
    )
    state = moved(state, (0, "WX=G"), (0, "G5"))
    assert every_level(state) == {"W=Y"}  # two yellows follow it
    state = table(
        [["WX", "G5", "W", "W4"], ["B1", "B2"], ["Y3", "Y4"]],
        "R9",
        blank_cards=4,
        blank_effect="chain",
    )
    state = moved(state, (0, "WX=G"), (0, "G5"))
    # Only wilds are left: they all go, one after another (the hand empties).
    assert every_level(state) == {"W=R"}


def test_r_alt_6_a_colour_round_sheds_a_number_before_an_attack_card() -> None:
    state = table(
        [["WX", "G2", "Y1"], ["B1", "B7", "BS", "BD2"], ["Y3"]],
        "R9",
        blank_cards=4,
        blank_effect="colour_round",
    )
    state = moved(state, (0, "WX=B"))
    assert every_level(state) == {"B7"}
    state = moved(state, (1, "B7"))
    assert every_level(state) == {"draw"}


# -- plays under these rules ---------------------------------------------------------------


def test_r_alt_2_normal_plays_a_swapping_0_only_when_the_swap_gains_cards() -> None:
    gain = table(
        [["R0", "R5", "R6", "G2", "B4", "Y8"], ["B1"], ["Y3", "Y4", "Y5", "Y6"]],
        "R9",
        zero_spell="swap",
    )
    assert str(normal.choose(normal.spot_from_state(gain, 0))) == "R0"
    loss = table(
        [["R0", "R5"], ["B1", "B2", "B3", "B6"], ["Y3", "Y4", "Y5", "Y6"]],
        "R9",
        zero_spell="swap",
    )
    assert str(normal.choose(normal.spot_from_state(loss, 0))) == "R5"


def test_r_alt_the_fast_simulator_is_used_for_the_classic_cards_only() -> None:
    seats = (True,) * 4
    assert fastsim.supports(Rules(), seats)
    assert not fastsim.supports(Rules(seven_swap=True), seats)
    assert not fastsim.supports(Rules(blank_cards=1), seats)  # a blank card is a Wild there


# -- whole hands ------------------------------------------------------------------------------

ALT_RULES = {
    "R-ALT-2-swap": {"zero_spell": "swap"},
    "R-ALT-2-discard-colour": {"zero_spell": "discard_colour"},
    "R-ALT-2-rotate-R-ALT-3": {"zero_spell": "rotate", "seven_swap": True},
    "R-ALT-4-give": {"skip_variant": "give"},
    "R-ALT-4-all-draw": {"skip_variant": "all_draw"},
    "R-ALT-5-gift": {"teams": 2, "partner_gift": True},
    "R-ALT-6-chain": {"blank_cards": 4, "blank_effect": "chain"},
    "R-ALT-6-colour-round": {"blank_cards": 4, "blank_effect": "colour_round"},
    "R-ALT-6-no-actions": {"blank_cards": 4, "blank_effect": "no_actions"},
    "R-ALT-6-take-two": {"blank_cards": 4, "blank_effect": "take_two"},
}


def legal_only(level: str) -> Any:
    def policy(view: PlayerView, rng: random.Random) -> Action | None:
        action = players.decide(level, view, rng)
        assert action is None or action in view.legal, (level, str(action))
        if view.seat == view.table.current and view.legal:
            assert action is not None
        return action

    return policy


@pytest.mark.parametrize("name", sorted(ALT_RULES))
def test_r_alt_every_level_plays_whole_hands_under_every_rule(name: str) -> None:
    rules = Rules.from_preset("classic", **ALT_RULES[name])
    for seed in range(3):
        final = play_hand(
            rules, [legal_only(level) for level in ("easy", "normal", "hard", "normal")], seed=seed
        )
        assert final.is_over


def test_r_alt_3_hard_plays_uno_flip_with_a_seven_swap() -> None:
    rules = Rules.from_preset("flip", seven_swap=True, skip_variant="give")
    final = play_hand(rules, [legal_only("hard"), legal_only("normal")], seed=4)
    assert final.is_over
