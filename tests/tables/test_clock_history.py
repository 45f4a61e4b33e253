"""The clock follows a hand's public events from ``Table.recent`` for the computer players
(players/belief.py): nothing hidden, nothing lost while each change fits in ``recent``."""

from __future__ import annotations

import random

import players
from engine import Rules, events_for, new_hand
from engine.events import Event
from tables.clock import HandHistory
from tables.records import is_public_record, remember


def test_the_history_rebuilds_the_public_events_of_the_hand() -> None:
    for seed in range(6):
        dealt = new_hand(Rules.from_preset("classic"), 3, dealer=seed % 3, seed=seed)
        state = dealt.state
        public: list[Event] = [e for e in dealt.events if is_public_record(e)]
        recent = remember((), dealt.events)
        history = HandHistory(state.seed, 0, recent)
        rng = random.Random(seed)
        version = 0
        while not state.is_over:
            decision = players.next_actor(
                state, range(3), lambda seat, view, rng=rng: players.decide("normal", view, rng)
            )
            assert decision is not None
            for action in decision.actions:
                transition = state.apply(decision.seat, action)
                state = transition.state
                public.extend(e for e in transition.events if is_public_record(e))
                recent = remember(recent, transition.events)
                version += 1
                history.update(version, recent)
        assert history.events == public
        assert all(e in events_for(history.events, None) for e in history.events)
