"""Blank cards (R-DECK-5) and the effect a table gives them (R-ALT-6 ``blank_effect``): a
chain of plays, a refill, an action dump, taking two cards, a redeal, a colour round, turns
without action cards; and the phases of the chain (``chain``) and the colour round
(``colour_round``).

The blank card's effect (:mod:`engine.effects`) calls :func:`blank_played`;
:data:`BLANK_EFFECTS` names what each ``blank_effect`` does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from . import rng
from .actions import DRAW, PASS, Action, Play
from .cards import Kind, matches
from .events import CardPlayed, DrawCause, Event, GiveCause, HandsRedealt, Passed
from .exchange import hand_over, put_down, reopen_windows
from .hand import NO_ALT, Hand, Phase, faces_once, finish_blocked, turn_order
from .rules import BlankEffect
from .step import close_uno_window, draw, draw_until, replaced, take, went_out
from .tables import tables_for


def blank_played(draft: Hand, ev: list[Event], seat: int) -> None:
    """A blank card was played, its colour named, and the hand goes on (``current`` is the
    next seat): the table's effect. Played as the last card it does nothing more."""
    if draft.hands[seat]:
        BLANK_EFFECTS[draft.rules.blank_effect](draft, ev, seat)


def start_chain(draft: Hand, ev: list[Event], seat: int) -> None:
    """``chain``: the player plays on cards matching the top card, without their effects,
    until ``pass`` or until nothing matches (phase ``chain``)."""
    if chain_plays(draft, seat):
        draft.phase = Phase.CHAIN
        draft.current = seat


def refill(draft: Hand, ev: list[Event], seat: int) -> None:
    """``refill``: the next player draws up to the hand size, then plays normally."""
    victim = draft.current
    missing = draft.rules.hand_size - len(draft.hands[victim])
    if missing > 0:
        draw(draft, ev, victim, missing, DrawCause.EFFECT)


#: R-ALT-6 ``action_dump``: what source 000 calls "Jolly" (Skip, Reverse, Draw Two).
DUMPED = frozenset({Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO})


def action_dump(draft: Hand, ev: list[Event], seat: int) -> None:
    """``action_dump``: the player's Skip, Reverse and Draw Two cards go beneath the blank
    card, which stays on top with its colour."""
    faces = draft.faces
    hand = draft.hands[seat]
    dumped = tuple(c for c in hand if faces[c].kind in DUMPED)
    if dumped:
        draft.hands = replaced(draft.hands, seat, tuple(c for c in hand if c not in dumped))
        put_down(draft, ev, seat, dumped, on_top=False)
        if not draft.hands[seat]:
            went_out(draft, ev, seat)  # the turn has passed on already


def take_two(draft: Hand, ev: list[Event], seat: int) -> None:
    """``take_two``: two random cards from the opponent holding the most (ties: the first in
    turn order), never their last one."""
    others = turn_order(draft, seat)
    victim = max(others, key=lambda s: (len(draft.hands[s]), -others.index(s)))
    hand = draft.hands[victim]
    count = min(2, len(hand) - 1)
    if count <= 0:
        return
    taken = tuple(sorted(rng.shuffled(hand, seed=draft.seed, counter=draft.shuffles)[:count]))
    draft.shuffles += 1
    draft.hands = replaced(draft.hands, victim, tuple(c for c in hand if c not in taken))
    hand_over(draft, ev, victim, seat, taken, GiveCause.TAKE)
    reopen_windows(draft, seat, (seat, victim))


def redeal(draft: Hand, ev: list[Event], seat: int) -> None:
    """``redeal``: all hands shuffled together; each player gets back as many cards as they
    held, dealt in seat order."""
    playing = [s for s in range(draft.seats) if draft.playing[s]]
    pool = sorted(c for s in playing for c in draft.hands[s])
    cards = rng.shuffled(pool, seed=draft.seed, counter=draft.shuffles)
    draft.shuffles += 1
    hands = list(draft.hands)
    start = 0
    for s in playing:
        count = len(draft.hands[s])
        hands[s] = tuple(sorted(cards[start : start + count]))
        start += count
    draft.hands = tuple(hands)
    ev.append(HandsRedealt(seat))
    reopen_windows(draft, seat, playing)


def colour_round(draft: Hand, ev: list[Event], seat: int) -> None:
    """``colour_round``: every other seat in turn order puts down a card of the colour named
    (phase ``colour_round``); then the player after the blank card's player plays."""
    first, *rest = turn_order(draft, seat)
    draft.alt = replace(draft.alt or NO_ALT, origin=seat, round=tuple(rest))
    draft.phase = Phase.COLOUR_ROUND
    draft.current = first


def no_actions(draft: Hand, ev: list[Event], seat: int) -> None:
    """``no_actions``: the next two turns allow number cards only."""
    draft.alt = replace(draft.alt or NO_ALT, quiet=2)


def plain_wild(draft: Hand, ev: list[Event], seat: int) -> None:
    """``wild``: nothing more than a Wild."""


#: What a blank card does, by the table's ``blank_effect``.
BLANK_EFFECTS: dict[BlankEffect, Callable[[Hand, list[Event], int], None]] = {
    BlankEffect.WILD: plain_wild,
    BlankEffect.CHAIN: start_chain,
    BlankEffect.REFILL: refill,
    BlankEffect.ACTION_DUMP: action_dump,
    BlankEffect.TAKE_TWO: take_two,
    BlankEffect.REDEAL: redeal,
    BlankEffect.COLOUR_ROUND: colour_round,
    BlankEffect.NO_ACTIONS: no_actions,
}


# -- the chain phase --------------------------------------------------------------------------


def chain_plays(hand: Hand, seat: int) -> list[Play]:
    """The cards ``seat`` may chain on the top card (R-TURN-1/2, R-END-2), put down without
    effects: a wild names a colour, a Swap Hands no opponent."""
    faces = hand.faces
    top = faces[hand.discard[-1]]
    tables = tables_for(faces)
    plays: list[Play] = []
    for card, face in faces_once(hand, seat):
        if matches(face, top, hand.colour) and not finish_blocked(hand, face, seat):
            if face.kind is Kind.SWAP_HANDS:
                plays.extend(Play(face, c) for c in tables.colours)
            else:
                plays.extend(tables.plays[card])
    return plays


def chain_actions(hand: Hand, seat: int) -> list[Action]:
    """Phase ``chain``: a card that matches, or ``pass`` to stop."""
    return [*chain_plays(hand, seat), PASS]


def perform_chain(draft: Hand, ev: list[Event], seat: int, action: Action) -> None:
    """Phase ``chain``: a card played on the top card without its effect, or ``pass``; the
    chain ends when nothing matches, and going out in it ends the hand."""
    if not isinstance(action, Play):
        ev.append(Passed(seat))
        _end_chain(draft, seat)
        return
    face = action.face
    card = take(draft, seat, face)
    draft.discard += (card,)
    draft.colour = action.colour if face.colour is None else face.colour
    ev.append(CardPlayed(seat, card, face, action.colour, False))
    draft.uno_seat = seat
    draft.uno_called = False
    if not draft.hands[seat]:
        if not went_out(draft, ev, seat):
            _end_chain(draft, seat)
    elif not chain_plays(draft, seat):
        _end_chain(draft, seat)


def _end_chain(draft: Hand, seat: int) -> None:
    draft.phase = Phase.PLAY
    draft.current = draft.next_seat(seat)


# -- the colour round phase -------------------------------------------------------------------


def round_actions(hand: Hand, seat: int) -> list[Action]:
    """Phase ``colour_round``: a card of the colour called, or ``draw`` when none is held."""
    tables = tables_for(hand.faces)
    plays: list[Action] = [p for card, face in faces_once(hand, seat) if face.colour is hand.colour
                           for p in tables.plays[card]]  # fmt: skip
    return plays or [DRAW]


def perform_round(draft: Hand, ev: list[Event], seat: int, action: Action) -> None:
    """Phase ``colour_round``: the seat puts down a card of the colour called; one without
    it draws until it comes and puts that down (nothing, if nothing is left to draw). Each
    put-down opens the seat's UNO window."""
    close_uno_window(draft, ev, seat)
    if isinstance(action, Play):
        put_down(draft, ev, seat, (take(draft, seat, action.face),), on_top=True)
    else:
        colour = draft.colour
        got = draw_until(draft, ev, seat, colour, DrawCause.EFFECT)
        if got and draft.faces[got[-1]].colour is colour:
            card = got[-1]
            draft.hands = replaced(
                draft.hands, seat, tuple(c for c in draft.hands[seat] if c != card)
            )
            put_down(draft, ev, seat, (card,), on_top=True)
    draft.uno_seat = seat
    draft.uno_called = False
    if not draft.hands[seat] and went_out(draft, ev, seat):
        return
    round_advance(draft)


def round_advance(draft: Hand) -> None:
    """The next seat of the colour round puts down; after the last, play goes on from the
    player after the one who played the blank card."""
    alt = draft.alt or NO_ALT
    rest = [s for s in alt.round if draft.playing[s]]
    if rest:
        draft.current = rest[0]
        draft.alt = replace(alt, round=tuple(rest[1:]))
        return
    assert alt.origin is not None
    draft.alt = replace(alt, origin=None, round=())
    draft.phase = Phase.PLAY
    draft.current = draft.next_seat(alt.origin)
