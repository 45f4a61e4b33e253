"""The alternative rules that change what a card does or give a player a card, inside a hand
(RULES.md §13): the 0 as a spell (R-ALT-2), the 7 swap (R-ALT-3), the Skip's variants
(R-ALT-4) and a partner's gift (R-ALT-5). :meth:`engine.step.Step.play` calls
:func:`number_played` and :func:`skip_played`; :mod:`engine.variants` the rest.
"""

from __future__ import annotations

from dataclasses import replace

from .actions import Gift, NoGift
from .cards import CardFace
from .events import Event, GiveCause, HandsRotated, HandsSwapped, TurnSkipped
from .exchange import (
    hand_over_to,
    partner_for,
    put_down,
    reopen_windows,
    take,
    turn_order,
    went_out,
)
from .members import CAUSE_PENALTY, PHASE_GIFT, PHASE_GIVE, PHASE_PLAY, PHASE_SWAP
from .rules import SkipVariant, ZeroSpell
from .state import NO_ALT
from .step import Step, has_playable, replaced

# -- R-ALT-2, R-ALT-3: a 0 or a 7 ------------------------------------------------------------


def number_played(step: Step, ev: list[Event], seat: int, face: CardFace) -> None:
    """A number card was played and the hand goes on (``current`` is already the next
    seat): a 0 or a 7 may be a spell. Played as the last card, it casts nothing."""
    if not step.hands[seat]:
        return
    rules = step.rules
    if face.number == 0 and rules.zero_spell is not ZeroSpell.OFF:
        spell = rules.zero_spell
        if spell is ZeroSpell.SWAP:
            _ask_swap(step, ev, seat)
        elif spell is ZeroSpell.ROTATE:
            _rotate(step, ev, seat)
        else:
            _discard_colour(step, ev, seat, face)
    elif face.number == 7 and rules.seven_swap:
        _ask_swap(step, ev, seat)


def _ask_swap(step: Step, ev: list[Event], seat: int) -> None:
    """The player names the opponent to swap with; with only one, the swap is made."""
    targets = turn_order(step, seat)
    if len(targets) == 1:
        swap(step, ev, seat, targets[0])
    else:
        step.phase = PHASE_SWAP
        step.current = seat


def swap(step: Step, ev: list[Event], seat: int, target: int) -> None:
    hands = list(step.hands)
    hands[seat], hands[target] = hands[target], hands[seat]
    step.hands = tuple(hands)
    ev.append(HandsSwapped(seat, target))
    reopen_windows(step, seat, (seat, target))
    step.phase = PHASE_PLAY
    step.current = step.next_seat(seat)


def _rotate(step: Step, ev: list[Event], seat: int) -> None:
    """Every hand passes to the next player in the direction of play."""
    hands = list(step.hands)
    playing = [s for s in range(step.seats) if step.playing[s]]
    for s in playing:
        hands[step.next_seat(s)] = step.hands[s]
    step.hands = tuple(hands)
    ev.append(HandsRotated(seat, step.clockwise))
    reopen_windows(step, seat, playing)


def _discard_colour(step: Step, ev: list[Event], seat: int, zero: CardFace) -> None:
    """Every other card of the 0's colour goes down at once, in card-id order (the last is
    the new top card), without effects."""
    faces = step.faces
    hand = step.hands[seat]
    dumped = tuple(c for c in hand if faces[c].colour is zero.colour)
    if not dumped:
        return
    step.hands = replaced(step.hands, seat, tuple(c for c in hand if c not in dumped))
    put_down(step, ev, seat, dumped, on_top=True)
    if not step.hands[seat]:
        went_out(step, ev, seat)  # the turn has passed on already


# -- R-ALT-4: a Skip that does not skip -----------------------------------------------------


def skip_played(step: Step, ev: list[Event], seat: int) -> None:
    """A Skip was played and the hand goes on. Its last card casts nothing: the turn just
    passes on."""
    if not step.hands[seat]:
        step.current = step.next_seat(seat)
        return
    if step.rules.skip_variant is SkipVariant.GIVE:
        step.phase = PHASE_GIVE
        step.current = seat
        return
    for other in turn_order(step, seat):  # ALL_DRAW
        step.draw(ev, other, 1, CAUSE_PENALTY)
    _after_skip(step, ev, seat)


def start_skip(step: Step, ev: list[Event], first: int) -> None:
    """A Skip turned up at the start, as if the dealer had played it (R-SETUP-5): with
    ``all_draw`` every player but the dealer draws one; with ``give`` nobody gives (the card
    came from no hand). Heads-up the dealer then plays first (R-TEAM-1); otherwise ``first``."""
    dealer = step.dealer
    if step.rules.skip_variant is SkipVariant.ALL_DRAW:
        for other in turn_order(step, dealer):
            step.draw(ev, other, 1, CAUSE_PENALTY)
    if len(turn_order(step, dealer)) == 1:
        ev.append(TurnSkipped(first))
        step.current = dealer
    else:
        step.current = first


def _after_skip(step: Step, ev: list[Event], seat: int) -> None:
    """Heads-up the player of a Skip still plays again (R-TEAM-1); otherwise the next does."""
    others = turn_order(step, seat)
    if len(others) == 1 and step.playing[seat]:
        ev.append(TurnSkipped(others[0]))
        step.current = seat
    else:
        step.current = step.next_seat(seat)


def give(step: Step, ev: list[Event], seat: int, face: CardFace, target: int) -> None:
    card = take(step, seat, face)
    hand_over_to(step, ev, seat, target, (card,), GiveCause.GIVE)
    step.phase = PHASE_PLAY
    if not step.hands[seat] and went_out(step, ev, seat):
        return
    reopen_windows(step, seat, (seat, target))
    _after_skip(step, ev, seat)


# -- R-ALT-5: a partner's gift ----------------------------------------------------------------


def offer_gift(step: Step) -> None:
    """At the start of a turn, once: a player who cannot play is offered a partner's gift."""
    alt = step.alt or NO_ALT
    if alt.gift_checked or step.phase is not PHASE_PLAY or not step.rules.partner_gift:
        return
    seat = step.current
    step.alt = alt = replace(alt, gift_checked=True)
    if has_playable(step, seat):
        return
    giver = partner_for(step, seat)
    if giver is None:
        return
    step.alt = replace(alt, recipient=seat)
    step.phase = PHASE_GIFT
    step.current = giver


def gift(step: Step, ev: list[Event], giver: int, action: Gift | NoGift) -> None:
    alt = step.alt or NO_ALT
    recipient = alt.recipient
    assert recipient is not None
    if isinstance(action, Gift):
        card = take(step, giver, action.face)
        hand_over_to(step, ev, giver, recipient, (card,), GiveCause.GIFT)
        reopen_windows(step, giver, (giver, recipient))
        alt = step.alt or NO_ALT
    step.alt = replace(alt, recipient=None)
    step.phase = PHASE_PLAY
    step.current = recipient
