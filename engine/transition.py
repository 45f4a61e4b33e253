"""One action, performed on the draft of the next state: :data:`ACTIONS` maps each kind of
action to what it does. A play is the card's business (:func:`engine.effects.play_card`);
the rest is here: drawing (R-TURN-4/5/6) or taking a penalty (R-ACT-1/5/6), passing, naming
the start Wild's colour (R-SETUP-5), challenging (R-CHAL-2/3/4), calling and catching UNO
(R-UNO).

Under the alternative rules (RULES.md §13) :mod:`engine.variants` takes the actions of its
own phases first, and marks where a new turn began afterwards.

Each handler gets the draft, the events so far, the seat, the action and the state before
it (``prior``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import effects, variants
from .actions import Action, CallUno, CatchUno, Challenge, ChooseColour, Draw, Pass, Play
from .cards import Kind, matches
from .events import (
    ChallengeResolved,
    ColourChosen,
    DrawCause,
    DrawSkipped,
    Event,
    HandRevealed,
    Passed,
    Termination,
    UnoCalled,
    UnoCaught,
)
from .hand import Hand, Phase, hand_complete, has_playable
from .rules import ChallengeGuilty, ChallengeReveal
from .step import close_uno_window, draw, draw_until, finish, replaced, skip


def perform(draft: Hand, ev: list[Event], prior: Hand, seat: int, action: Action) -> None:
    """Perform ``action`` of ``seat`` (already found legal) on ``draft``, a copy of ``prior``."""
    if prior.alt is None:
        ACTIONS[type(action)](draft, ev, seat, action, prior)
        return
    if not variants.perform(draft, ev, seat, action):
        ACTIONS[type(action)](draft, ev, seat, action, prior)
    variants.after(draft, ev, prior, seat, action)


def draw_or_take(draft: Hand, ev: list[Event], seat: int, action: Draw, prior: Hand) -> None:
    """``draw``: a card on one's turn, or the pending penalty."""
    if prior.phase is Phase.PLAY:
        draw_turn(draft, ev, seat)
    else:
        take_penalty(draft, ev, seat)


def draw_turn(draft: Hand, ev: list[Event], seat: int) -> None:
    """R-TURN-4/5/6: draw one card (or until playable) on one's turn. A playable card may be
    played now (phase ``drawn``); otherwise the turn passes on."""
    if draft.uno_seat is not None:
        close_uno_window(draft, ev, seat)
    until_playable = draft.rules.draw_until_playable
    drawn: int | None = None
    while True:
        got = draw(draft, ev, seat, 1, DrawCause.DRAW)
        if not got:
            break
        drawn = got[0]
        if not until_playable or _playable_now(draft, drawn):
            break
    if drawn is None:
        _drew_nothing(draft, ev, seat)
        return
    draft.dry_draws = 0
    if _playable_now(draft, drawn):
        draft.phase = Phase.DRAWN
        draft.drawn = drawn
    else:
        draft.current = draft.next_seat(seat)


def _drew_nothing(draft: Hand, ev: list[Event], seat: int) -> None:
    """R-TURN-6: nothing was left to draw; the turn passes on. When every seat still in the
    hand had nothing to play and nothing to draw in a row, the hand is blocked."""
    ev.append(DrawSkipped(seat))
    if has_playable(draft, seat):
        # A draw by choice (R-TURN-4) says nothing about being stuck: only a full round of
        # seats with nothing to play and nothing to draw blocks the hand.
        draft.dry_draws = 0
    else:
        draft.dry_draws += 1
        if draft.dry_draws >= sum(draft.playing):
            finish(draft, ev, Termination.BLOCKED)
            return
    draft.current = draft.next_seat(seat)


def _playable_now(draft: Hand, card: int) -> bool:
    """R-TURN-1/2: whether ``card`` matches the top card and the colour in play (and, during
    R-ALT-6's ``no_actions`` turns, is a number card)."""
    faces = draft.faces
    if not matches(faces[card], faces[draft.discard[-1]], draft.colour):
        return False
    alt = draft.alt
    return alt is None or not alt.quiet or faces[card].kind is Kind.NUMBER


def take_penalty(draft: Hand, ev: list[Event], seat: int) -> None:
    """Accept the pending Draw Two / Wild Draw Four (stack included) and lose the turn;
    UNO Flip's Wild Draw Two alike, and a Wild Draw Colour draws until its colour."""
    close_uno_window(draft, ev, seat)
    if draft.phase is Phase.CHALLENGE and draft.top.kind is Kind.WILD_DRAW_COLOUR:
        draw_until(draft, ev, seat, draft.colour, DrawCause.PENALTY)
    else:
        draw(draft, ev, seat, draft.pending, DrawCause.PENALTY)
    draft.phase = Phase.PLAY
    draft.pending = 0
    draft.offender = draft.prior_colour = None
    draft.evidence = ()
    skip(draft, ev, seat)
    if hand_complete(draft):
        finish(draft, ev, Termination.WENT_OUT)


def pass_turn(draft: Hand, ev: list[Event], seat: int, action: Pass, prior: Hand) -> None:
    """R-TURN-5: keep the card just drawn; the turn passes on."""
    close_uno_window(draft, ev, seat)
    ev.append(Passed(seat))
    draft.phase = Phase.PLAY
    draft.drawn = None
    draft.current = draft.next_seat(seat)


def choose_colour(
    draft: Hand, ev: list[Event], seat: int, action: ChooseColour, prior: Hand
) -> None:
    """R-SETUP-5 (R-FLIP-4: a wild turned up by a Flip): the colour is named; play on."""
    draft.colour = action.colour
    draft.phase = Phase.PLAY
    ev.append(ColourChosen(seat, action.colour))


def challenge(draft: Hand, ev: list[Event], seat: int, action: Challenge, prior: Hand) -> None:
    """R-CHAL-2/3/4: the offender's hand as it was after the card, against the colour
    before it. UNO Flip (R-FLIP-3/5): a Wild Draw Two costs 2 (guilty) or 2 + 2, a Wild
    Draw Colour drawing until the colour (guilty) or until it and 2 more."""
    close_uno_window(draft, ev, seat)
    offender = draft.offender
    assert offender is not None
    prior_colour = draft.prior_colour
    faces = draft.faces
    kind = faces[draft.discard[-1]].kind  # the card challenged (W4, W2 or WC)
    named = draft.colour
    evidence = draft.evidence
    guilty = any(faces[c].colour is prior_colour for c in evidence)
    retract = guilty and draft.rules.challenge_guilty is ChallengeGuilty.RETRACT
    ev.append(ChallengeResolved(seat, offender, guilty, retract))
    if draft.rules.challenge_reveal is ChallengeReveal.CHALLENGER:
        ev.append(HandRevealed(offender, seat, evidence))
    pending = draft.pending
    draft.phase = Phase.PLAY
    draft.pending = 0
    draft.offender = draft.prior_colour = None
    draft.evidence = ()
    if guilty:
        if retract:  # the colour reverts and the card goes back (001, 000) ...
            draft.colour = prior_colour
            if len(draft.discard) > 1:  # ... unless a reshuffle took every card beneath
                card = draft.discard[-1]
                draft.discard = draft.discard[:-1]
                back = tuple(sorted((*draft.hands[offender], card)))
                draft.hands = replaced(draft.hands, offender, back)
        if kind is Kind.WILD_DRAW_COLOUR:
            draw_until(draft, ev, offender, named, DrawCause.CHALLENGE)
        else:
            amount = kind.draw_amount
            draw(draft, ev, offender, amount, DrawCause.CHALLENGE)
            rest = pending - amount  # a cumulative stack beneath stays with the challenger
            if rest > 0:
                draft.phase = Phase.PENALTY
                draft.pending = rest
        draft.current = seat
    else:
        if kind is Kind.WILD_DRAW_COLOUR:
            draw_until(draft, ev, seat, named, DrawCause.CHALLENGE, extra=2)
        else:
            draw(draft, ev, seat, pending + 2, DrawCause.CHALLENGE)
        skip(draft, ev, seat)
    if hand_complete(draft) and draft.phase is not Phase.HAND_OVER:
        finish(draft, ev, Termination.WENT_OUT)


def call_uno(draft: Hand, ev: list[Event], seat: int, action: CallUno, prior: Hand) -> None:
    """R-UNO-1; R-UNO-6: a false call (more than one card) costs two cards."""
    false_call = len(draft.hands[seat]) != 1
    draft.uno_called = True
    ev.append(UnoCalled(seat, false_call))
    if false_call:
        draw(draft, ev, seat, 2, DrawCause.FALSE_CALL)


def catch_uno(draft: Hand, ev: list[Event], seat: int, action: CatchUno, prior: Hand) -> None:
    """R-UNO-2: the target draws two and the window closes; R-UNO-6: catching a player who
    called costs the catcher two cards."""
    target = action.target
    if draft.uno_called:
        ev.append(UnoCaught(seat, target, True))
        draw(draft, ev, seat, 2, DrawCause.FALSE_CALL)
        return
    ev.append(UnoCaught(seat, target, False))
    draw(draft, ev, target, 2, DrawCause.UNO)
    draft.uno_seat = None
    draft.uno_called = False


#: What each kind of action does (the alternative rules' own are in engine.variants).
ACTIONS: dict[type, Callable[[Hand, list[Event], int, Any, Hand], None]] = {
    Play: effects.play_card,
    Draw: draw_or_take,
    Pass: pass_turn,
    ChooseColour: choose_colour,
    Challenge: challenge,
    CallUno: call_uno,
    CatchUno: catch_uno,
}
