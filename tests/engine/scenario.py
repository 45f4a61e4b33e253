"""Helpers to build exact situations with stacked decks and read results in notation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engine import GameState, IllegalActionError, Reason, Rules, Transition, parse_action
from engine.events import Event
from engine.game import deal
from engine.serialize import to_dict
from engine.validate import Problem, validate


def rules(preset: str = "classic", **options: Any) -> Rules:
    """A preset with options overridden."""
    return Rules.from_preset(preset, **options)


def hand(
    hands: Sequence[Sequence[str]],
    start: str,
    draw: Sequence[str] = (),
    *,
    dealer: int | None = None,
    preset: str = "classic",
    seed: int = 0,
    **options: Any,
) -> Transition:
    """Deal exactly these hands (faces in notation), turn up ``start``, stack ``draw`` on top.

    By default the dealer is the last seat, so seat 0 (left of the dealer) plays first.
    """
    table = rules(preset, **options)
    if dealer is None:
        dealer = len(hands) - 1 if table.clockwise else 1 % len(hands)
    return deal(table, [list(h) for h in hands], start, list(draw), dealer=dealer, seed=seed)


def legal(state: GameState) -> dict[int, list[str]]:
    """Every seat's legal actions in notation (seats with none are left out)."""
    result = {}
    for seat in range(state.seats):
        actions = [str(a) for a in state.legal_actions(seat)]
        if actions:
            result[seat] = actions
    return result


def faces(state: GameState, seat: int) -> list[str]:
    """A seat's hand as face notations, in card-id order."""
    return [f.notation for f in state.hand_faces(seat)]


def kinds(events: Sequence[Event]) -> list[str]:
    """The event class names, in order."""
    return [type(e).__name__ for e in events]


def run(state: GameState, *moves: tuple[int, str]) -> tuple[GameState, list[Event]]:
    """Apply several ``(seat, action)`` moves; return the final state and all events."""
    events: list[Event] = []
    for seat, text in moves:
        step = state.apply(seat, text)
        state = step.state
        events.extend(step.events)
    return state, events


def ok(state: GameState) -> GameState:
    """``state``, after checking every invariant of ``engine.validate``."""
    problems = validate(state)
    assert problems is Problem.NONE, problems
    return state


def refused(state: GameState, seat: int, action: str, reason: Reason) -> None:
    """``action`` is illegal for ``seat`` with ``reason``, and nothing changes."""
    before = to_dict(state)
    legal_before = legal(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, action)
    assert info.value.reason is reason, info.value
    assert not state.is_legal(seat, parse_action(action))
    assert to_dict(state) == before
    assert legal(state) == legal_before
