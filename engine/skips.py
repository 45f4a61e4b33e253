"""A Skip that does not skip (R-ALT-4 ``skip_variant``): its player gives a card of their
choice to an opponent of their choice (``give``, with its phase), or every opponent draws one
(``all_draw``). A heads-up Reverse is still a plain Skip: only the Skip card changes.

The Skip's effect (:mod:`engine.effects`) calls :func:`skip_played`, and :func:`start_skip`
for a Skip turned up at the start; :data:`SKIP_VARIANTS` names what each variant does.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Action, Give
from .events import DrawCause, Event, GiveCause, TurnSkipped
from .exchange import hand_over, reopen_windows
from .hand import Hand, Phase, faces_once, turn_order
from .rules import SkipVariant
from .step import draw, take, went_out


def skip_played(draft: Hand, ev: list[Event], seat: int) -> None:
    """A Skip was played and the hand goes on. Its player's last card casts nothing: the
    turn just passes on."""
    if not draft.hands[seat]:
        draft.current = draft.next_seat(seat)
        return
    SKIP_VARIANTS[draft.rules.skip_variant](draft, ev, seat)


def ask_give(draft: Hand, ev: list[Event], seat: int) -> None:
    """``give``: the player chooses a card and an opponent (phase ``give``)."""
    draft.phase = Phase.GIVE
    draft.current = seat


def all_draw(draft: Hand, ev: list[Event], seat: int) -> None:
    """``all_draw``: every other seat draws one card, in turn order."""
    for other in turn_order(draft, seat):
        draw(draft, ev, other, 1, DrawCause.PENALTY)
    _after_skip(draft, ev, seat)


#: What a Skip does, by the table's ``skip_variant``.
SKIP_VARIANTS: dict[SkipVariant, Callable[[Hand, list[Event], int], None]] = {
    SkipVariant.GIVE: ask_give,
    SkipVariant.ALL_DRAW: all_draw,
}


def start_skip(draft: Hand, ev: list[Event], first: int) -> None:
    """A Skip turned up at the start, as if the dealer had played it (R-SETUP-5): with
    ``all_draw`` every player but the dealer draws one; with ``give`` nobody gives (the card
    came from no hand). Heads-up the dealer then plays first (R-TEAM-1); otherwise ``first``."""
    dealer = draft.dealer
    if draft.rules.skip_variant is SkipVariant.ALL_DRAW:
        for other in turn_order(draft, dealer):
            draw(draft, ev, other, 1, DrawCause.PENALTY)
    if len(turn_order(draft, dealer)) == 1:
        ev.append(TurnSkipped(first))
        draft.current = dealer
    else:
        draft.current = first


def _after_skip(draft: Hand, ev: list[Event], seat: int) -> None:
    """Heads-up the player of a Skip still plays again (R-TEAM-1); otherwise the next does."""
    others = turn_order(draft, seat)
    if len(others) == 1 and draft.playing[seat]:
        ev.append(TurnSkipped(others[0]))
        draft.current = seat
    else:
        draft.current = draft.next_seat(seat)


# -- the give phase ---------------------------------------------------------------------------


def give_actions(hand: Hand, seat: int) -> list[Action]:
    """Phase ``give``: each face held, to each other seat still in the hand."""
    targets = turn_order(hand, seat)
    return [Give(face, t) for _, face in faces_once(hand, seat) for t in targets]


def perform_give(draft: Hand, ev: list[Event], seat: int, action: Action) -> None:
    """Phase ``give``: the card goes to the opponent named. A player left with no card has
    gone out (R-END-1)."""
    assert isinstance(action, Give)
    card = take(draft, seat, action.face)
    hand_over(draft, ev, seat, action.target, (card,), GiveCause.GIVE)
    draft.phase = Phase.PLAY
    if not draft.hands[seat] and went_out(draft, ev, seat):
        return
    reopen_windows(draft, seat, (seat, action.target))
    _after_skip(draft, ev, seat)
