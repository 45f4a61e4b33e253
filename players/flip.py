"""UNO Flip for every level: a side-aware heuristic.

``normal`` and ``hard`` model the classic deck (four colours, classic points); UNO Flip
changes colours and points with the side in play (R-FLIP), so at a Flip table every level
plays this policy instead (``easy`` keeps its randomness out of turn):

- out of turn: call UNO when it can, catch whoever forgot; nothing else;
- a Wild Draw Two / Wild Draw Colour aimed at it: accept (it cannot see a bluff);
- on its turn: a coloured card of the colour it holds most (numbers before actions, the
  highest first when an opponent is at one card, to dump points), then a Flip, then a wild
  naming its most-held colour of the side in play; else draw; keep a drawn card only if it
  cannot play it.
"""

from __future__ import annotations

import random
from collections import Counter

from engine import (
    Action,
    CallUno,
    CatchUno,
    ChooseColour,
    Colour,
    Draw,
    Pass,
    Phase,
    Play,
    PlayerView,
)
from engine.cards import Kind


def _held(view: PlayerView) -> Counter[Colour]:
    return Counter(face.colour for _, face in view.hand if face.colour is not None)


def _favourite(view: PlayerView, options: list[Colour]) -> Colour:
    held = _held(view)
    return max(options, key=lambda c: (held[c], -options.index(c)))


def decide(view: PlayerView, rng: random.Random) -> Action | None:
    """The seat's Flip move now, or ``None`` out of turn when it has nothing to call."""
    legal = list(view.legal)
    if not legal:
        return None
    table = view.table
    for action in legal:
        if isinstance(action, CallUno | CatchUno):
            return action
    if view.seat != table.current:
        return None
    if table.phase is Phase.CHOOSE_COLOUR:
        choices = [a for a in legal if isinstance(a, ChooseColour)]
        best = _favourite(view, [a.colour for a in choices])
        return next(a for a in choices if a.colour is best)
    if table.phase is Phase.CHALLENGE:
        return next((a for a in legal if isinstance(a, Draw)), legal[0])
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        held = _held(view)
        danger = any(n == 1 for s, n in enumerate(table.card_counts) if s != view.seat)

        def rank(play: Play) -> tuple[int, int, int, int]:
            face = play.face
            if face.colour is None:  # wilds last, naming the colour held most
                named = play.colour
                return (2, 0, -(held[named] if named is not None else 0), 0)
            kind = 1 if face.kind is Kind.FLIP else 0
            number = face.number if face.number is not None else 10
            return (kind, -held[face.colour], -number if danger else number, 0)

        return min(plays, key=rank)
    for action in legal:
        if isinstance(action, Draw):
            return action
    return next((a for a in legal if isinstance(a, Pass)), legal[0])
