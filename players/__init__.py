"""Computer players: three levels that decide from a seat's view only.

The whole API the bot needs::

    >>> import random
    >>> from engine import Rules, new_hand
    >>> import players
    >>> players.LEVELS
    ('easy', 'normal', 'hard')
    >>> state = new_hand(Rules.from_preset("classic"), 2, dealer=0, seed=7).state
    >>> action = players.decide("normal", state.view_for(state.current), random.Random(1))
    >>> action in state.legal_actions(state.current)
    True

``decide(level, view, rng) -> Action | None`` returns the action the seat of ``view`` wants
to take *now*, always one of ``view.legal``, or ``None`` when it wants to do nothing now
(only possible when it is not the seat's turn: nothing to call, catch or jump in with, or
``easy`` declining). It covers every phase and every out-of-turn chance the engine lists:
calling UNO (R-UNO-1), catching (R-UNO-2), jumping in (R-ACT-7), stacking and taking a
penalty (R-ACT-6), challenging or taking a Wild Draw Four (R-CHAL), naming a start Wild's
colour (R-SETUP-5), choosing a Swap Hands target (R-DECK-4), playing or keeping a drawn card
(R-TURN-5), and every choice of the alternative rules (RULES.md §13: the opponent to swap
with or give to, the card to give, a partner's gift, a chain, a colour round), which all
levels make alike (:mod:`players.choices`). The same ``view`` and an ``rng`` in the same
state give the same answer.

It reads only the :class:`~engine.PlayerView`: its own hand, its legal actions and the public
table (card counts, the discard pile's faces, the colour before a Wild Draw Four under
challenge, the rules) — never another seat's cards and never the :class:`~engine.GameState`.
Nothing is mutated.

How to drive it: :func:`players.turns.next_actor` is the one protocol — the bot's clock and
:func:`players.arena.play_hand` both use it. After every change of the state it asks the
computer seats that have legal actions — the seat whose UNO window is open first (so it
calls UNO before anyone can catch it), then the others out of turn, then the current seat,
which always returns an action — and the first answer is applied. Ask again after each
change; a ``None`` means "nothing now", not "never".

Levels (``docs/computer-players.md`` has the measured strength and speed):

- ``easy`` (:mod:`players.easy`): a casual player (a random playable card; forgets one UNO
  call in three; never challenges);
- ``normal`` (:mod:`players.normal`): a documented heuristic, well under a millisecond;
- ``hard`` (:mod:`players.hard`): belief tracking from the hand's history
  (:mod:`players.belief`) and determinized rollouts on the fast simulator
  (:mod:`players.fastsim`) or the engine, a fixed number of simulations a decision.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import Action, PlayerView
from engine.events import Event

from . import choices, easy, flip, hard, normal
from .turns import Decision, ask_order, next_actor

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

_DECIDERS = {"easy": easy.decide, "normal": normal.decide, "hard": hard.decide}


def decide(
    level: str, view: PlayerView, rng: random.Random, history: Sequence[Event] = ()
) -> Action | None:
    """The action the seat of ``view`` takes now at ``level``, or ``None`` for nothing now.

    ``history`` is the hand so far as this seat saw it: the events of every transition since
    the deal, filtered by :func:`engine.events_for` for the seat. ``hard`` learns from it
    (:mod:`players.belief`); without it, it knows only what the table shows.

    Raises :class:`ValueError` for an unknown level.
    """
    try:
        decider = _DECIDERS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(LEVELS)}") from None
    if choices.waits_for_choice(view):  # RULES.md §13: one heuristic for every level
        return choices.choose(normal.spot_from_view(view))
    if level == "hard":
        return hard.decide(view, rng, history)
    if level == "normal" and not view.table.rules.flip:
        return normal.decide(view, rng, history)
    if view.table.rules.flip and level != "easy":
        # normal models the classic deck; UNO Flip changes colours and points by side, so
        # it plays the side-aware Flip heuristic (players/flip.py).
        return flip.decide(view, rng)
    return decider(view, rng)


__all__ = ["LEVELS", "Decision", "ask_order", "decide", "next_actor"]
