"""Level ``easy``: a casual player.

On its turn it plays a random playable card (each playable face equally likely), a wild
naming the colour it holds most of (ties at random), Swap Hands aimed at random; it draws
only when it has nothing to play and plays the card it drew when it can. Facing a Draw Two
or a Wild Draw Four it stacks half of the times it can and otherwise takes the cards; it
**never challenges** (R-CHAL). A start Wild gets the colour it holds most of.

Out of turn it **forgets to call UNO** one time in :data:`FORGET_UNO` (R-UNO-1), catches a
player who forgot half of the times it is asked (R-UNO-2) and jumps in half of the times it
can (R-ACT-7). It never bluffs on purpose, but it does not check either: a Wild Draw Four is
just another playable card to it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine import Action, CallUno, Challenge, ChooseColour, Colour, Draw, Phase, Play, PlayerView

#: The share of UNO calls it forgets (a third: a casual player is often caught).
FORGET_UNO = 1 / 3


def _pick(options: Sequence[Action], rng: random.Random) -> Action:
    return options[int(rng.random() * len(options))]


def _favourite(view: PlayerView, colours: list[Colour], rng: random.Random) -> Colour:
    """The colour of ``colours`` it holds most of (ties at random)."""
    held = Counter(face.colour for _, face in view.hand if face.colour is not None)
    top = max(held[c] for c in colours)
    best = [c for c in colours if held[c] == top]
    return best[int(rng.random() * len(best))]


def decide(view: PlayerView, rng: random.Random) -> Action | None:
    """The casual player's action; ``None`` only when it is not this seat's turn."""
    legal = list(view.legal)
    if not legal:
        return None
    table = view.table
    if view.seat != table.current:
        calls = [a for a in legal if type(a) is CallUno]
        if calls:
            return None if rng.random() < FORGET_UNO else calls[0]
        options: list[Action | None] = [*legal, None]
        return options[int(rng.random() * len(options))]
    if table.phase is Phase.CHOOSE_COLOUR:
        colours = [a.colour for a in legal if type(a) is ChooseColour]
        return ChooseColour(_favourite(view, colours, rng))
    plays = [a for a in legal if type(a) is Play]
    if table.phase in (Phase.PENALTY, Phase.CHALLENGE):
        if plays and rng.random() < 0.5:
            return _pick(plays, rng)
        return next(a for a in legal if type(a) is Draw)
    if plays:
        faces = sorted({p.face.notation for p in plays})
        face = faces[int(rng.random() * len(faces))]
        options_ = [p for p in plays if p.face.notation == face]
        if options_[0].face.is_wild:
            colours = sorted({p.colour for p in options_ if p.colour is not None}, key=str)
            colour = _favourite(view, colours, rng)
            options_ = [p for p in options_ if p.colour is colour] or options_
        return _pick(options_, rng)
    return _pick([a for a in legal if type(a) is not Challenge], rng)


def uniform(view: PlayerView, rng: random.Random) -> Action | None:
    """A uniformly random legal action (plus doing nothing out of turn): the "random" baseline
    of the benchmark. It draws about as often as it plays, so its hands run long."""
    options: list[Action | None] = list(view.legal)
    if not options:
        return None
    if view.seat != view.table.current:
        options.append(None)
    return options[int(rng.random() * len(options))]
