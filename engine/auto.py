"""R-TIME-1: what the system plays for a seat whose turn timed out.

The engine never reads a clock: the adapter decides *when* a turn timed out and applies
:func:`auto_action` (repeatedly, while it returns an action for that seat).
"""

from __future__ import annotations

from collections import Counter

from .actions import DRAW, NO_GIFT, PASS, Action, ChooseColour, Give, Play, Swap
from .cards import Colour, Kind
from .state import GameState, Phase


def _favourite_colour(state: GameState, seat: int) -> Colour:
    """The colour the seat holds most of (ties in the order red, yellow, green, blue; on
    UNO Flip's dark side pink, teal, orange, purple)."""
    colours = state.deck.colours[state.side]
    held = Counter(f.colour for f in state.hand_faces(seat) if f.colour is not None)
    return max(colours, key=lambda c: (held[c], -colours.index(c)))


def auto_action(state: GameState, seat: int) -> Action | None:
    """The timed-out turn's action for ``seat``, or ``None`` if it has nothing to do.

    R-TIME-1: the playable number card with the lowest value, never an action or wild card;
    if there is none, draw (and then pass); on UNO Flip's dark side alike, with the dark
    side's numbers (a Flip is an action, never played for a timed-out seat). A pending
    penalty is taken, a start Wild gets the colour the player holds most of. Only where the
    rules leave no other legal choice (for example ``draw_only_if_stuck`` with only action
    cards playable) is an action card played.

    The choices of the alternative rules (RULES.md §13), made when time runs out: swap with
    the opponent holding the fewest cards; give the card worth most points to the opponent
    holding the fewest (both: the first such seat in turn order); no gift for a partner;
    stop a chain; in a colour round, the same card a timed-out turn would play (or draw).
    """
    if state.is_over or seat != state.current:
        return None
    legal = state.legal_actions(seat)
    phase = state.phase
    if phase is Phase.SWAP or phase is Phase.GIVE:
        return _fewest_cards_target(state, seat, legal)
    if phase is Phase.GIFT:
        return NO_GIFT
    if phase is Phase.CHAIN:
        return PASS
    if phase is Phase.CHOOSE_COLOUR:
        return ChooseColour(_favourite_colour(state, seat))
    if phase in (Phase.PENALTY, Phase.CHALLENGE):
        return DRAW
    if phase is Phase.DRAWN:
        return PASS
    numbers = [a for a in legal if isinstance(a, Play) and a.face.kind is Kind.NUMBER]
    if numbers:
        return min(numbers, key=lambda a: (a.face.number, str(a)))
    if DRAW in legal:
        return DRAW
    # Nothing but action cards is legal and drawing is not: play the cheapest of them.
    plays = [a for a in legal if isinstance(a, Play)]
    favourite = _favourite_colour(state, seat)
    plays.sort(key=lambda a: (state.deck.value(a.face), a.colour is not favourite, str(a)))
    return plays[0] if plays else None


def _fewest_cards_target(state: GameState, seat: int, legal: tuple[Action, ...]) -> Action:
    """R-ALT-2/3/4 when time runs out: the opponent with the fewest cards (the first in turn
    order on a tie) gets the swap, or the give of the card worth most points."""
    counts = state.card_counts()
    n = state.seats
    step = 1 if state.clockwise else -1
    order = {(seat + step * i) % n: i for i in range(1, n)}
    gives = [a for a in legal if isinstance(a, Give)]
    if gives:
        value = state.deck.value
        return min(gives, key=lambda a: (counts[a.target], order[a.target], -value(a.face), str(a)))
    swaps = [a for a in legal if isinstance(a, Swap)]
    return min(swaps, key=lambda a: (counts[a.target], order[a.target]))
