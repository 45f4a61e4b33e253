"""Real engine states for the render tests, built with stacked deals (engine.game.deal)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import GameState, Rules
from engine.cards import classic_deck
from engine.game import deal


def stacked(
    hands: Sequence[Sequence[str]],
    start: str = "R5",
    draw: Sequence[str] = (),
    *,
    rules: Rules | None = None,
    dealer: int | None = None,
) -> GameState:
    """Deal exactly ``hands``; the dealer is the last seat, so seat 0 plays first."""
    return deal(
        rules or Rules(),
        [list(h) for h in hands],
        start,
        list(draw),
        dealer=len(hands) - 1 if dealer is None else dealer,
    ).state


def hand_of(count: int, *, seed: int = 1) -> GameState:
    """Seat 0 holds ``count`` cards drawn at random (seeded) from the deck; seat 1 one card.

    Up to 106 cards come from one deck; more need two decks (R-DECK-3).
    """
    two = count > 106
    deck = classic_deck(two_decks=two)
    pool = [f.notation for f in deck.sides[0]]
    pool.remove("R5")
    random.Random(seed).shuffle(pool)
    return stacked([pool[:count], pool[count : count + 1]], rules=Rules(two_decks=two))


def seated(counts: Sequence[int], *, seed: int = 2) -> GameState:
    """One seat per entry of ``counts``, each dealt that many cards (seeded), seat 0 to play."""
    pool = [f.notation for f in classic_deck().sides[0]]
    pool.remove("R5")
    random.Random(seed).shuffle(pool)
    hands, at = [], 0
    for n in counts:
        hands.append(pool[at : at + n])
        at += n
    return stacked(hands)


#: Names that break naive text drawing: emoji, joiners, huge, mixed scripts, combining marks,
#: control characters, a lone surrogate, empty, blank, a right-to-left override.
AWKWARD_NAMES = [
    "🐸🎲🃏 frog",
    "👩‍👩‍👧‍👦 family",
    "W" * 500,
    "Ζωή Łukasz 李小龍 محمد",
    "e\u0301\u0301\u0301 combining",
    "tab\tnew\nline\rzero\u200bwidth\x00nul",
    "\ud800 lone surrogate",
    "",
    "   ",
    "\u202eRTL override",
]
