"""A partner's gift (R-ALT-5 ``partner_gift``): once a turn, a player who can play nothing
is offered a card by one partner, who gives one (``gift``) or nothing (``nogift``) in phase
``gift``; then the player plays or draws as usual.

:mod:`engine.variants` offers the gift where a turn begins (:func:`offer_gift`).
"""

from __future__ import annotations

from dataclasses import replace

from .actions import NO_GIFT, Action, Gift
from .events import Event, GiveCause
from .exchange import hand_over, reopen_windows
from .hand import NO_ALT, Hand, Phase, faces_once, has_playable, turn_order
from .step import take


def partner_for(hand: Hand, seat: int) -> int | None:
    """The partner asked: the first one after ``seat`` in turn order who holds two cards or
    more (a gift never empties the giver's hand, which would make them go out without
    playing). ``None`` if there is none."""
    teams = hand.rules.teams
    if not teams:
        return None
    for other in turn_order(hand, seat):
        if other % teams == seat % teams and len(hand.hands[other]) >= 2:
            return other
    return None


def offer_gift(draft: Hand) -> None:
    """At the start of a turn, once: a player who cannot play is offered a partner's gift."""
    alt = draft.alt or NO_ALT
    if alt.gift_checked or draft.phase is not Phase.PLAY or not draft.rules.partner_gift:
        return
    seat = draft.current
    draft.alt = alt = replace(alt, gift_checked=True)
    if has_playable(draft, seat):
        return
    giver = partner_for(draft, seat)
    if giver is None:
        return
    draft.alt = replace(alt, recipient=seat)
    draft.phase = Phase.GIFT
    draft.current = giver


# -- the gift phase ---------------------------------------------------------------------------


def gift_actions(hand: Hand, seat: int) -> list[Action]:
    """Phase ``gift``: a gift of each face held, or none."""
    return [*(Gift(face) for _, face in faces_once(hand, seat)), NO_GIFT]


def perform_gift(draft: Hand, ev: list[Event], giver: int, action: Action) -> None:
    """Phase ``gift``: the card (if any) goes to the player, who then plays."""
    alt = draft.alt or NO_ALT
    recipient = alt.recipient
    assert recipient is not None
    if isinstance(action, Gift):
        card = take(draft, giver, action.face)
        hand_over(draft, ev, giver, recipient, (card,), GiveCause.GIFT)
        reopen_windows(draft, giver, (giver, recipient))
        alt = draft.alt or NO_ALT
    draft.alt = replace(alt, recipient=None)
    draft.phase = Phase.PLAY
    draft.current = recipient
