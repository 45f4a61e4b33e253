"""Seeded random play for tests, fuzzing and the benchmark.

The policy acts for *every* seat and in every phase: each step, with some probability, a seat
other than the current one tries an out-of-turn action (catch UNO, jump in, a late UNO call);
otherwise the current seat picks among its legal actions. Weights favour playing over drawing
(a uniform choice draws so often that hands run to ~1,300 steps), but every legal action
keeps a positive probability, so every rule path is exercised.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .actions import Action, CallUno, CatchUno, Draw, Play
from .match import Match
from .rules import Rules
from .serialize import GameRecord, from_dict, to_dict
from .state import GameState
from .validate import Problem, validate

#: Relative weight of each kind of action for the random policy.
WEIGHTS: dict[type, float] = {Play: 6.0, Draw: 1.0, CallUno: 4.0, CatchUno: 2.0}
OUT_OF_TURN_CHANCE = 0.25
UNO_REFLEX = 0.8


def choose(actions: tuple[Action, ...], rnd: random.Random) -> Action:
    """A weighted random legal action (``Random.random()`` only, for reproducibility)."""
    weights = [WEIGHTS.get(type(a), 1.0) for a in actions]
    x = rnd.random() * sum(weights)
    for action, weight in zip(actions, weights, strict=True):
        x -= weight
        if x < 0:
            return action
    return actions[-1]


def random_step(state: GameState, rnd: random.Random) -> tuple[int, Action]:
    """Pick a seat and one of its legal actions."""
    window = state.uno_seat
    if window is not None and window != state.current and rnd.random() < UNO_REFLEX:
        # Players at one card usually remember to call before the next turn begins.
        calls = state.legal_actions(window)
        if calls:
            return window, choose(calls, rnd)
    if rnd.random() < OUT_OF_TURN_CHANCE:
        seat = int(rnd.random() * state.seats)
        if seat != state.current:
            others = state.legal_actions(seat)
            if others:
                return seat, choose(others, rnd)
    seat = state.current
    return seat, choose(state.legal_actions(seat), rnd)


@dataclass
class SimulationReport:
    """What a simulation measured."""

    preset: str
    players: int
    seed: int
    hands: int = 0
    matches: int = 0
    steps: int = 0
    seconds: float = 0.0
    violations: int = 0
    blocked: int = 0
    problems: list[str] = field(default_factory=list)
    record: GameRecord | None = None

    def summary(self) -> dict[str, object]:
        """The figures as one JSON-ready object."""
        return {
            "preset": self.preset,
            "players": self.players,
            "seed": self.seed,
            "hands": self.hands,
            "matches": self.matches,
            "steps": self.steps,
            "seconds": round(self.seconds, 3),
            "hands_per_s": round(self.hands / self.seconds, 1) if self.seconds else None,
            "us_per_step": round(self.seconds / self.steps * 1e6, 2) if self.steps else None,
            "blocked_hands": self.blocked,
            "violations": self.violations,
        }


def _invariants(state: GameState) -> list[str]:
    problems = []
    flags = validate(state)
    if flags is not Problem.NONE:
        problems.append(f"validate: {flags!r}")
    if not state.is_over and not state.legal_actions(state.current):
        problems.append("the current seat has no legal action")
    return problems


def simulate(
    rules: Rules,
    *,
    preset: str,
    players: int,
    hands: int,
    seed: int,
    check: bool = False,
    keep_record: bool = False,
    clock: Callable[[], float] = time.perf_counter,
) -> SimulationReport:
    """Play ``hands`` hands of seeded random matches; with ``check``, validate every step."""
    report = SimulationReport(preset=preset, players=players, seed=seed)
    rnd = random.Random(seed)
    match_number = 0
    started = clock()
    while report.hands < hands:
        match = Match.new(rules, players, seed=seed * 7919 + match_number).match
        report.matches += 1
        actions: list[tuple[int | None, str]] = []
        while True:
            state = match.hand
            if check:
                report.problems += [f"hand {report.hands}: {p}" for p in _invariants(state)]
            if state.is_over:
                report.hands += 1
                report.blocked += (
                    state.termination is not None and state.termination.value == "blocked"
                )
                if check and to_dict(from_dict(to_dict(match))) != to_dict(match):
                    report.problems.append(f"hand {report.hands}: snapshot round-trip differs")
                if match.is_over or report.hands >= hands:
                    break
                match = match.next_hand().match
                actions.append((None, "next"))
                continue
            seat, action = random_step(state, rnd)
            match = match.apply(seat, action).match
            report.steps += 1
            if keep_record:
                actions.append((seat, str(action)))
        if keep_record and report.record is None:
            report.record = GameRecord(
                rules=rules,
                players=players,
                seed=seed * 7919 + match_number,
                match=True,
                actions=tuple(actions),
            )
        match_number += 1
    report.seconds = clock() - started
    report.violations = len(report.problems)
    return report
