"""Every level returns only legal actions, in every preset, at 2, 4 and 10 seats (R-TURN,
R-ACT, R-CHAL, R-UNO, R-SETUP-5, R-END), and never looks past the view."""

from __future__ import annotations

import dataclasses
import random

import pytest

import players
from engine import Action, PlayerView, Rules, new_hand
from players import hard
from players.arena import Policy, play_hand

PRESETS = ("classic", "online", "tournament", "elimination", "party")


def checked(level: str, seen: list[int]) -> Policy:
    """``level``'s policy, asserting that every answer is legal and the view is untouched."""

    def policy(view: PlayerView, rng: random.Random) -> Action | None:
        before = (view.table, view.hand, view.legal, view.drawn)
        action = players.decide(level, view, rng)
        assert (view.table, view.hand, view.legal, view.drawn) == before
        if action is None:
            assert view.seat != view.table.current or not view.legal
        else:
            assert action in view.legal, (level, str(action), [str(a) for a in view.legal])
            seen.append(1)
        return action

    return policy


def seat_counts(preset: str) -> tuple[int, ...]:
    fixed = Rules.from_preset(preset).players
    return (fixed,) if fixed is not None else (2, 4, 10)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_r_turn_r_act_r_chal_r_uno_levels_return_only_legal_actions(
    preset: str, level: str
) -> None:
    rules = Rules.from_preset(preset)
    for seats in seat_counts(preset):
        for seed in range(12):
            seen: list[int] = []
            # The level under test at every seat, and beside the other level at half of them.
            other = "normal" if level == "easy" else "easy"
            levels = [level if s % 2 == 0 or seed % 2 else other for s in range(seats)]
            state = play_hand(
                rules,
                [checked(lv, seen) for lv in levels],
                seed=seed,
                dealer=seed % seats,
            )
            assert state.is_over
            assert seen


@pytest.mark.parametrize("preset", PRESETS)
def test_r_turn_r_act_r_chal_r_uno_hard_returns_only_legal_actions(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        hard, "ENGINE_SIMULATIONS", 20
    )  # the search's width, not its depth, is tested
    monkeypatch.setattr(hard, "SIMULATIONS", 30)
    monkeypatch.setattr(hard, "MIN_SAMPLES", 3)
    rules = Rules.from_preset(preset)
    for seats in seat_counts(preset):
        for seed in range(2):
            seen: list[int] = []
            levels = ["hard" if s == 0 else "normal" for s in range(seats)]
            state = play_hand(
                rules, [checked(lv, seen) for lv in levels], seed=seed, dealer=seed % seats
            )
            assert state.is_over


@pytest.mark.parametrize("level", players.LEVELS)
def test_r_uno_5_decisions_depend_only_on_the_view(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two states that differ only in hidden cards get the same answer (same rng)."""
    monkeypatch.setattr(hard, "ENGINE_SIMULATIONS", 20)
    monkeypatch.setattr(hard, "SIMULATIONS", 30)
    monkeypatch.setattr(hard, "MIN_SAMPLES", 3)
    rules = Rules.from_preset("classic")
    state = new_hand(rules, 3, dealer=2, seed=5).state
    seat = state.current
    view = state.view_for(seat)
    # Swap one card between the two other hands: same counts, same public table.
    a, b = [s for s in range(3) if s != seat]
    hands = list(state.hands)
    hands[a], hands[b] = (
        tuple(sorted((*hands[a][1:], hands[b][0]))),
        tuple(sorted((*hands[b][1:], hands[a][0]))),
    )
    other = dataclasses.replace(state, hands=tuple(hands))
    assert other.hands != state.hands
    assert other.view_for(seat) == view
    first = players.decide(level, view, random.Random(9))
    second = players.decide(level, other.view_for(seat), random.Random(9))
    assert first == second


@pytest.mark.parametrize("level", players.LEVELS)
def test_decisions_are_deterministic_given_the_rng(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hard, "ENGINE_SIMULATIONS", 20)
    rules = Rules.from_preset("party")

    def decide(view: PlayerView, rng: random.Random) -> Action | None:
        return players.decide(level, view, rng)

    one = play_hand(rules, [decide] * 4, seed=21, dealer=1)
    two = play_hand(rules, [decide] * 4, seed=21, dealer=1)
    assert one == two
    assert one.is_over


def test_unknown_level_is_refused() -> None:
    state = new_hand(Rules(), 2, dealer=0, seed=1).state
    with pytest.raises(ValueError, match="unknown level"):
        players.decide("grandmaster", state.view_for(0), random.Random(0))


@pytest.mark.parametrize("level", players.LEVELS)
def test_decide_returns_none_when_there_is_nothing_to_do(level: str) -> None:
    rules = Rules.from_preset("classic")
    state = new_hand(rules, 4, dealer=0, seed=3).state
    idle = [s for s in range(4) if s != state.current]
    for seat in idle:
        view = state.view_for(seat)
        assert view.legal == ()
        assert players.decide(level, view, random.Random(0)) is None
