"""Level ``easy``: random legal play.

On its turn it plays a random legal card whenever it has one (each playable face equally
likely, a wild's colour and Swap Hands' target at random), and draws only when it has none —
so hands against it last as long as ordinary hands. Everything else is uniformly random
among the legal actions: after a draw it plays the card if it can, facing a Draw Two or Wild
Draw Four it stacks, takes the cards or challenges at random, a start Wild gets a random
colour. Out of turn it picks among the legal actions *and* doing nothing, so it calls UNO,
catches and jumps in about half of the times it is asked. It bluffs a Wild Draw Four as
often as chance has it.
"""

from __future__ import annotations

import random

from engine import Action, Phase, Play, PlayerView


def _pick(options: list[Action], rng: random.Random) -> Action:
    return options[int(rng.random() * len(options))]


def decide(view: PlayerView, rng: random.Random) -> Action | None:
    """A random legal action (playing first); ``None`` only when it is not this seat's turn."""
    legal = list(view.legal)
    if not legal:
        return None
    if view.seat != view.table.current:
        options: list[Action | None] = [*legal, None]
        return options[int(rng.random() * len(options))]
    plays = [a for a in legal if type(a) is Play]
    if plays and view.table.phase in (Phase.PLAY, Phase.DRAWN):
        faces = sorted({p.face.notation for p in plays})
        face = faces[int(rng.random() * len(faces))]
        return _pick([p for p in plays if p.face.notation == face], rng)
    return _pick(legal, rng)


def uniform(view: PlayerView, rng: random.Random) -> Action | None:
    """A uniformly random legal action (plus doing nothing out of turn): the "random" baseline
    of the benchmark. It draws about as often as it plays, so its hands run long."""
    options: list[Action | None] = list(view.legal)
    if not options:
        return None
    if view.seat != view.table.current:
        options.append(None)
    return options[int(rng.random() * len(options))]
