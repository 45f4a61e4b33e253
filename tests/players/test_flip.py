"""UNO Flip: every level plays only legal actions on both sides, and hands end (R-FLIP)."""

from __future__ import annotations

import pytest

from engine import Rules
from players.arena import play_hand

from .test_legality import checked


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("seats", [2, 4])
def test_r_flip_every_level_plays_legal_flip_hands_to_the_end(level: str, seats: int) -> None:
    rules = Rules.from_preset("flip")
    flipped = 0
    for seed in range(8 if level != "hard" else 2):
        seen: list[int] = []
        state = play_hand(rules, [checked(level, seen)] * seats, seed=seed, dealer=seed % seats)
        assert state.is_over
        assert seen
        flipped += state.side
    if level != "hard":  # over eight hands the dark side comes up (R-FLIP-4)
        assert flipped > 0
