"""A 0 or a 7 that casts a spell (R-ALT-2 ``zero_spell``, R-ALT-3 ``seven_swap``), and the
phase in which its player names the opponent to swap hands with (``swap``).

:func:`number_played` is called by the number card's effect (:mod:`engine.effects`);
:data:`ZERO_SPELLS` names what each ``zero_spell`` does.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Action, Swap
from .cards import CardFace
from .events import Event, HandsRotated, HandsSwapped
from .exchange import put_down, reopen_windows
from .hand import Hand, Phase, turn_order
from .rules import ZeroSpell
from .step import replaced, went_out


def number_played(draft: Hand, ev: list[Event], seat: int, face: CardFace) -> None:
    """A number card was played and the hand goes on (``current`` is already the next seat):
    a 0 or a 7 may be a spell. Played as the last card, it casts nothing."""
    if not draft.hands[seat]:
        return
    rules = draft.rules
    if face.number == 0 and rules.zero_spell is not ZeroSpell.OFF:
        ZERO_SPELLS[rules.zero_spell](draft, ev, seat, face)
    elif face.number == 7 and rules.seven_swap:
        ask_swap(draft, ev, seat, face)


def ask_swap(draft: Hand, ev: list[Event], seat: int, face: CardFace) -> None:
    """R-ALT-2 ``swap``, R-ALT-3: the player names the opponent to swap hands with (phase
    ``swap``); with only one opponent, the swap is made at once."""
    targets = turn_order(draft, seat)
    if len(targets) == 1:
        swap(draft, ev, seat, targets[0])
    else:
        draft.phase = Phase.SWAP
        draft.current = seat


def rotate(draft: Hand, ev: list[Event], seat: int, face: CardFace) -> None:
    """R-ALT-2 ``rotate``: every hand passes to the next player in the direction of play."""
    hands = list(draft.hands)
    playing = [s for s in range(draft.seats) if draft.playing[s]]
    for s in playing:
        hands[draft.next_seat(s)] = draft.hands[s]
    draft.hands = tuple(hands)
    ev.append(HandsRotated(seat, draft.clockwise))
    reopen_windows(draft, seat, playing)


def discard_colour(draft: Hand, ev: list[Event], seat: int, face: CardFace) -> None:
    """R-ALT-2 ``discard_colour``: every other card of the 0's colour goes down at once, in
    card-id order (the last is the new top card), without effects."""
    faces = draft.faces
    hand = draft.hands[seat]
    dumped = tuple(c for c in hand if faces[c].colour is face.colour)
    if not dumped:
        return
    draft.hands = replaced(draft.hands, seat, tuple(c for c in hand if c not in dumped))
    put_down(draft, ev, seat, dumped, on_top=True)
    if not draft.hands[seat]:
        went_out(draft, ev, seat)  # the turn has passed on already


#: What a 0 does, by the table's ``zero_spell``.
ZERO_SPELLS: dict[ZeroSpell, Callable[[Hand, list[Event], int, CardFace], None]] = {
    ZeroSpell.SWAP: ask_swap,
    ZeroSpell.ROTATE: rotate,
    ZeroSpell.DISCARD_COLOUR: discard_colour,
}


# -- the swap phase ---------------------------------------------------------------------------


def swap_actions(hand: Hand, seat: int) -> list[Action]:
    """Phase ``swap``: a swap with each other seat still in the hand."""
    return [Swap(target) for target in turn_order(hand, seat)]


def perform_swap(draft: Hand, ev: list[Event], seat: int, action: Action) -> None:
    """Phase ``swap``: the swap named."""
    assert isinstance(action, Swap)
    swap(draft, ev, seat, action.target)


def swap(draft: Hand, ev: list[Event], seat: int, target: int) -> None:
    """``seat`` and ``target`` swap hands; the turn passes on."""
    hands = list(draft.hands)
    hands[seat], hands[target] = hands[target], hands[seat]
    draft.hands = tuple(hands)
    ev.append(HandsSwapped(seat, target))
    reopen_windows(draft, seat, (seat, target))
    draft.phase = Phase.PLAY
    draft.current = draft.next_seat(seat)
