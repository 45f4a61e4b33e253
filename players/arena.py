"""Play whole hands between computer players: for tests, the benchmark and experiments.

:func:`play_hand` shows how an adapter drives computer seats. After every transition it asks
the seats that could act out of turn (the seat whose UNO window is open first, then the others
in turn order), and the first answer that is not ``None`` is applied; when nobody wants to act
out of turn, the current seat decides. A seat is asked at most once per state, so a level that
declines (returns ``None``) is not asked again until something changes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engine import Action, GameState, PlayerView, Rules, new_hand

Policy = Callable[[PlayerView, random.Random], Action | None]
#: Records one timed decision: (policy index, seconds, whether it was a turn decision).
Timer = Callable[[int, float, bool], None]

MAX_STEPS = 100_000  # a safety net; no hand comes near it


def _ask_order(state: GameState) -> list[int]:
    """Seats that might act out of turn, the UNO window's seat first, then in turn order."""
    n = state.seats
    current = state.current
    step = 1 if state.clockwise else -1
    order = [(current + step * i) % n for i in range(1, n)]
    window = state.uno_seat
    if window is not None and window != current:
        order.remove(window)
        order.insert(0, window)
    return order


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
    ``timer`` (if given) receives the wall time of every decision, for the benchmark.
    """
    seats = len(policies)
    if state is None:
        state = new_hand(rules, seats, dealer=dealer, seed=seed).state
    rngs = [random.Random(seed * 1_000_003 + 7919 * seat + 1) for seat in range(seats)]
    clock = time.perf_counter
    for _ in range(MAX_STEPS):
        if state.is_over:
            break
        actor: int | None = None
        action: Action | None = None
        for seat in _ask_order(state):
            if not state.legal_actions(seat):
                continue
            started = clock()
            action = policies[seat](state.view_for(seat), rngs[seat])
            if timer is not None:
                timer(seat, clock() - started, False)
            if action is not None:
                actor = seat
                break
        if action is None:
            actor = state.current
            started = clock()
            action = policies[actor](state.view_for(actor), rngs[actor])
            if timer is not None:
                timer(actor, clock() - started, True)
            if action is None:
                raise RuntimeError(f"seat {actor} returned no action on its turn")
        assert actor is not None
        state = state.apply(actor, action).state
    return state
