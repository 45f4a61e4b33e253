"""Small facts about a table that every level uses: seats in order, what is still unseen.

Everything here reads public information (a :class:`~engine.TableView`) or a seat's own hand;
nothing reads another seat's cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engine import CardFace, Colour, Rules
from engine.cards import CLASSIC_COLOURS

COLOURS: tuple[Colour, ...] = CLASSIC_COLOURS


def next_seat(seat: int, playing: Sequence[bool], clockwise: bool) -> int:
    """The next seat still in the hand after ``seat`` in the direction of play."""
    n = len(playing)
    step = 1 if clockwise else -1
    s = seat
    for _ in range(n):
        s = (s + step) % n
        if playing[s]:
            return s
    return seat


def deck_faces(rules: Rules, side: int = 0) -> tuple[CardFace, ...]:
    """The face of every physical card of the deck these rules play with."""
    return rules.deck().sides[side]


def unseen(
    rules: Rules, side: int, hand: Iterable[CardFace], discard: Iterable[CardFace]
) -> Counter[CardFace]:
    """The faces a seat has not seen: the deck minus its own hand minus the discard pile.

    These are the cards in the other hands and in the draw pile, in unknown places.
    """
    pool = Counter(deck_faces(rules, side))
    pool.subtract(hand)
    pool.subtract(discard)
    return +pool  # drop zero (and, defensively, negative) counts


def prob_holds_any(pool: int, matching: int, hand: int) -> float:
    """Hypergeometric: the chance that ``hand`` cards drawn from ``pool`` hold at least one of
    ``matching`` marked cards."""
    if hand <= 0 or matching <= 0:
        return 0.0
    if hand > pool - matching:
        return 1.0
    none = 1.0
    for i in range(hand):
        none *= (pool - matching - i) / (pool - i)
    return 1.0 - none
