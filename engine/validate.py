"""Invariants of a hand, reported as flags (python-chess's ``Status`` idea).

>>> from engine import Rules, new_hand
>>> validate(new_hand(Rules(), 4, dealer=0, seed=1).state)
<Problem.NONE: 0>
"""

from __future__ import annotations

import enum
from collections import Counter

from .state import GameState, Phase
from .variants import CHOICE_PHASES


class Problem(enum.Flag):
    """Broken invariants; ``Problem.NONE`` when the state is consistent."""

    NONE = 0
    CARDS_NOT_CONSERVED = enum.auto()  # every card of the deck exactly once across the piles
    TURN_OWNER = enum.auto()  # exactly one seat, still in the hand, owns the turn
    PHASE = enum.auto()  # the phase agrees with the pending fields
    UNO_WINDOW = enum.auto()  # the window belongs to a seat in the hand
    EMPTY_DISCARD = enum.auto()  # there is always a top card
    OUT_SEATS = enum.auto()  # seats that went out hold no cards and are not playing
    UNSORTED_HAND = enum.auto()  # hands are kept in card-id order
    SEATS = enum.auto()  # per-seat tuples have one entry per seat
    SIDE = enum.auto()  # the side exists and the colour in play is printed on it (R-FLIP)
    ALT = enum.auto()  # the alternative rules' state agrees with the rules and the phase


def validate(state: GameState) -> Problem:
    """Check every invariant of ``state``."""
    problems = Problem.NONE
    n = state.seats
    if len(state.hands) != n or len(state.playing) != n:
        return Problem.SEATS
    every = [*state.draw_pile, *state.discard, *(c for h in state.hands for c in h)]
    if len(every) != state.deck.size or Counter(every) != Counter(range(state.deck.size)):
        problems |= Problem.CARDS_NOT_CONSERVED
    if not state.discard:
        problems |= Problem.EMPTY_DISCARD
    if any(list(h) != sorted(h) for h in state.hands):
        problems |= Problem.UNSORTED_HAND
    for seat in state.out:
        if state.playing[seat] or state.hands[seat]:
            problems |= Problem.OUT_SEATS
    if len(set(state.out)) != len(state.out):
        problems |= Problem.OUT_SEATS
    for seat in range(n):
        if state.playing[seat] and not state.hands[seat]:
            problems |= Problem.OUT_SEATS
    over = state.phase is Phase.HAND_OVER
    if not over and not (0 <= state.current < n and state.playing[state.current]):
        problems |= Problem.TURN_OWNER
    phase = state.phase
    answering = phase in (Phase.PENALTY, Phase.CHALLENGE)
    if (state.pending > 0) != answering:
        problems |= Problem.PHASE
    if (state.offender is not None) != (phase is Phase.CHALLENGE):
        problems |= Problem.PHASE
    if phase is Phase.CHALLENGE and state.prior_colour is None:
        problems |= Problem.PHASE
    if phase is Phase.CHALLENGE and state.discard and not state.top.kind.is_wild:
        problems |= Problem.PHASE  # the card under challenge is on top
    if state.evidence and phase is not Phase.CHALLENGE:
        problems |= Problem.PHASE
    if (state.drawn is not None) != (phase is Phase.DRAWN):
        problems |= Problem.PHASE
    if state.drawn is not None and state.drawn not in state.hands[state.current]:
        problems |= Problem.PHASE
    if not 0 <= state.side < len(state.deck.sides):
        return problems | Problem.SIDE
    if state.colour is not None and state.colour not in state.deck.colours[state.side]:
        problems |= Problem.SIDE
    # A colour is named for a wild start card (or, in UNO Flip, a wild turned up by a Flip);
    # a hand ended by a last Flip may end on such a wild, with no colour named.
    if (state.colour is None) != (phase is Phase.CHOOSE_COLOUR) and not (
        over and state.colour is None and len(state.deck.sides) > 1
    ):
        problems |= Problem.PHASE
    if over != (state.termination is not None) or over != bool(state.ranking):
        problems |= Problem.PHASE
    if not over and state.out and not state.rules.play_to_last and phase is not Phase.CHALLENGE:
        problems |= Problem.PHASE  # someone went out, so the hand should have ended
    if state.uno_seat is not None and not (0 <= state.uno_seat < n):
        problems |= Problem.UNO_WINDOW
    if state.uno_called and state.uno_seat is None:
        problems |= Problem.UNO_WINDOW
    return problems | _alt_problems(state)


def _alt_problems(state: GameState) -> Problem:
    """RULES.md §13: a hand under the alternative rules keeps their state, and only such a
    hand reaches their phases; what the state names agrees with the phase."""
    alt = state.alt
    phase = state.phase
    if alt is None:
        return Problem.ALT if state.rules.alternative or phase in CHOICE_PHASES else Problem.NONE
    if not state.rules.alternative:
        return Problem.ALT
    n = state.seats
    playing = state.playing
    problems = Problem.NONE
    if not 0 <= alt.quiet <= 2:
        problems |= Problem.ALT
    for seat in alt.windows:
        if not (0 <= seat < n and playing[seat]) or seat == state.uno_seat:
            problems |= Problem.UNO_WINDOW
    if len(set(alt.windows)) != len(alt.windows):
        problems |= Problem.UNO_WINDOW
    gift = phase is Phase.GIFT
    if gift != (alt.recipient is not None):
        problems |= Problem.ALT
    if gift and not (
        alt.recipient is not None
        and 0 <= alt.recipient < n
        and playing[alt.recipient]
        and alt.recipient != state.current
        and state.rules.teams
        and alt.recipient % state.rules.teams == state.current % state.rules.teams
    ):
        problems |= Problem.ALT
    round_ = phase is Phase.COLOUR_ROUND
    if round_ != (alt.origin is not None) or (alt.round and not round_):
        problems |= Problem.ALT
    if round_ and (state.current in alt.round or alt.origin == state.current):
        problems |= Problem.ALT
    if phase is Phase.HAND_OVER and (alt.windows or alt.quiet or alt.origin is not None):
        problems |= Problem.ALT
    return problems
