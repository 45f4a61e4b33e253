"""Play whole hands between computer players: for tests, the benchmark and experiments.

:func:`play_hand` drives every seat with the protocol the bot's clock uses,
:func:`transitions` (also for whoever wants to watch each step),
:func:`players.turns.next_actor`: after every transition the seat whose UNO window is open is
asked first, then the others out of turn, then the current seat; the first answer is applied
(with the UNO call a seat makes as it plays its second-to-last card). So the figures measured
here describe the computer players people meet in Discord.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence

from engine import Action, GameState, PlayerView, Rules, Transition, events_for, new_hand
from engine.events import Event

from .turns import Decide, next_actor

Policy = Callable[[PlayerView, random.Random], Action | None]
#: Records one timed decision: (policy index, seconds, whether it was a turn decision).
Timer = Callable[[int, float, bool], None]

MAX_STEPS = 100_000


class LevelPolicy:
    """A level as a policy that also reads the hand's history as its seat saw it."""

    def __init__(self, level: str) -> None:
        self.level = level

    def __call__(
        self, view: PlayerView, rng: random.Random, history: Sequence[Event] = ()
    ) -> Action | None:
        from . import decide  # the package imports this module

        return decide(self.level, view, rng, history)  # a safety net; no hand comes near it


def play_hand(
    rules: Rules,
    policies: Sequence[Policy],
    *,
    seed: int,
    dealer: int = 0,
    timer: Timer | None = None,
    state: GameState | None = None,
) -> GameState:
    """Play one hand with ``policies[seat]`` deciding for each seat; return the final state.

    Every seat gets its own ``random.Random`` derived from ``seed``, so a hand is reproducible.
    A :class:`LevelPolicy` also gets the events of the hand its seat may see.
    ``timer`` (if given) receives the wall time of every decision, for the benchmark.
    """
    seats = len(policies)
    logs: list[list[Event]] = [[] for _ in range(seats)]
    if state is None:
        dealt = new_hand(rules, seats, dealer=dealer, seed=seed)
        state = dealt.state
        for seat in range(seats):
            logs[seat].extend(events_for(dealt.events, seat))
    rngs = [random.Random(seed * 1_000_003 + 7919 * seat + 1) for seat in range(seats)]
    clock = time.perf_counter

    def decide(seat: int, view: PlayerView) -> Action | None:
        started = clock()
        policy = policies[seat]
        if isinstance(policy, LevelPolicy):
            action = policy(view, rngs[seat], logs[seat])
        else:
            action = policy(view, rngs[seat])
        if timer is not None:
            timer(seat, clock() - started, seat == view.table.current)
        return action

    for _, _, transition in transitions(state, seats, decide):
        state = transition.state
        for seat in range(seats):
            logs[seat].extend(events_for(transition.events, seat))
    return state


def transitions(
    state: GameState, seats: int, decide: Decide
) -> Iterator[tuple[int, GameState, Transition]]:
    """Every step of the hand from ``state`` to its end, as (seat, state before, transition):
    the seats are asked by :func:`players.turns.next_actor`, and what the first to answer
    does is applied. A hand still going after :data:`MAX_STEPS` steps just stops."""
    everyone = range(seats)
    for _ in range(MAX_STEPS):
        if state.is_over:
            return
        decision = next_actor(state, everyone, decide)
        if decision is None:
            raise RuntimeError(f"seat {state.current} returned no action on its turn")
        for action in decision.actions:
            transition = state.apply(decision.seat, action)
            yield decision.seat, state, transition
            state = transition.state
