"""Deterministic shuffles from ``(seed, counter)``.

Python guarantees that ``random.Random(int).random()`` gives the same numbers on every
version; ``shuffle``, ``randrange`` and ``choice`` carry no such promise. So this module
builds everything on ``random()`` alone, and a stored game never depends on it anyway: the
snapshot keeps the actual order of every pile.

>>> shuffled(range(5), seed=7, counter=0) == shuffled(range(5), seed=7, counter=0)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def stream(seed: int, counter: int) -> random.Random:
    """A generator for the ``counter``-th random event of the game seeded by ``seed``."""
    # Mixing in the counter with a large odd multiplier keeps nearby (seed, counter) pairs
    # apart; integer seeding is stable across Python versions.
    return random.Random(seed * 1_000_003 + counter)


def shuffled(items: Iterable[T], *, seed: int, counter: int) -> list[T]:
    """Fisher-Yates on ``Random.random()`` only."""
    result = list(items)
    rnd = stream(seed, counter).random
    for i in range(len(result) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        result[i], result[j] = result[j], result[i]
    return result
