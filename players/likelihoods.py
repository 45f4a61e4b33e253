"""What a player's action says about its hidden hand, measured from play.

For each action (``drew``: drew on its turn; ``wild`` / ``wd4``: played a plain / a draw
wild on its turn, the hand right after; ``named``: the colour a wild named; ``kept``: the card
drawn and kept) and each category of :func:`players.belief.category` (in the order of
:data:`players.belief.CATEGORIES`: the colour in play, the same symbol, a plain wild, a draw
wild, anything else), the weight :class:`players.belief.Dealer` gives a card of that category
when it deals that player's hidden cards: how much more often such cards were held than a
random deal of the unseen cards would give, relative to "anything else" (0: never seen held,
1: no information, above 1: more likely than chance).

Produced by ``python benchmarks/belief_table.py --hands 3000 --seed 11`` (classic rules, 2 and 4
seats, 3,000 hands each, every seat one of the ``uno-rule-v1`` port, ``normal`` or ``easy``
at random; see that script). A zero is raised to :data:`FLOOR`: people may draw with a
playable card (R-TURN-4 lets them), so the belief weighs a draw, it does not rule cards out.
"""

from __future__ import annotations

#: The smallest weight a card gets: nothing the rules allow is ruled out.
FLOOR = 0.02

#: action -> weights per category (colour, symbol, wild, draw wild, other).
MEASURED: dict[str, tuple[float, float, float, float, float]] = {
    "drew": (0.0, 0.0, 0.159, 0.155, 1.0),  # 67,193 draws
    "wild": (0.272, 0.245, 0.377, 0.524, 1.0),  # 8,959 plain wilds
    "wd4": (0.234, 0.26, 0.54, 0.381, 1.0),  # 8,528 draw wilds
    "named": (2.846, 1.433, 0.85, 0.852, 1.0),  # 17,487 colours named
    "kept": (0.0, 16.393, 0.0, 0.0, 0.0),  # 1,131 cards drawn and kept
}

LIKELIHOOD: dict[str, tuple[float, ...]] = {
    action: tuple(max(FLOOR, w) for w in weights) for action, weights in MEASURED.items()
}
