"""Blank cards (R-DECK-5) and the effect a table gives them (R-ALT-6), inside a hand:
a chain of plays, a refill, an action dump, taking two cards, a redeal, a colour round,
turns without action cards. :meth:`engine.step.Step.play` calls :func:`blank_played`;
:mod:`engine.variants` the chain's and the colour round's actions.
"""

from __future__ import annotations

from dataclasses import replace

from . import rng
from .actions import Play
from .cards import CardFace, matches
from .events import CardPlayed, Event, GiveCause, HandsRedealt
from .exchange import (
    faces_once,
    hand_over_to,
    put_down,
    reopen_windows,
    take,
    turn_order,
    went_out,
)
from .members import (
    CAUSE_EFFECT,
    KIND_DRAW_TWO,
    KIND_REVERSE,
    KIND_SKIP,
    KIND_SWAP_HANDS,
    PHASE_CHAIN,
    PHASE_COLOUR_ROUND,
    PHASE_PLAY,
)
from .rules import BlankEffect
from .state import NO_ALT, GameState
from .step import Step, finish_blocked, replaced
from .tables import tables_for

#: R-ALT-6 ``action_dump``: what source 000 calls "Jolly" (Skip, Reverse, Draw Two).
DUMPED = frozenset({KIND_SKIP, KIND_REVERSE, KIND_DRAW_TWO})


def blank_played(step: Step, ev: list[Event], seat: int) -> None:
    """A blank card was played, its colour named, and the hand goes on (``current`` is the
    next seat): the table's effect. Played as the last card it does nothing more."""
    if not step.hands[seat]:
        return
    effect = step.rules.blank_effect
    if effect is BlankEffect.CHAIN:
        if chain_plays(step, seat):
            step.phase = PHASE_CHAIN
            step.current = seat
    elif effect is BlankEffect.REFILL:
        victim = step.current
        missing = step.rules.hand_size - len(step.hands[victim])
        if missing > 0:
            step.draw(ev, victim, missing, CAUSE_EFFECT)
    elif effect is BlankEffect.ACTION_DUMP:
        faces = step.faces
        hand = step.hands[seat]
        dumped = tuple(c for c in hand if faces[c].kind in DUMPED)
        if dumped:
            step.hands = replaced(step.hands, seat, tuple(c for c in hand if c not in dumped))
            put_down(step, ev, seat, dumped, on_top=False)
            if not step.hands[seat]:
                went_out(step, ev, seat)  # the turn has passed on already
    elif effect is BlankEffect.TAKE_TWO:
        _take_two(step, ev, seat)
    elif effect is BlankEffect.REDEAL:
        _redeal(step, ev, seat)
    elif effect is BlankEffect.COLOUR_ROUND:
        first, *rest = turn_order(step, seat)
        step.alt = replace(step.alt or NO_ALT, origin=seat, round=tuple(rest))
        step.phase = PHASE_COLOUR_ROUND
        step.current = first
    elif effect is BlankEffect.NO_ACTIONS:
        step.alt = replace(step.alt or NO_ALT, quiet=2)


def _take_two(step: Step, ev: list[Event], seat: int) -> None:
    """Two random cards from the opponent holding the most (ties: the first in turn order),
    never their last one."""
    others = turn_order(step, seat)
    victim = max(others, key=lambda s: (len(step.hands[s]), -others.index(s)))
    hand = step.hands[victim]
    count = min(2, len(hand) - 1)
    if count <= 0:
        return
    taken = tuple(sorted(rng.shuffled(hand, seed=step.seed, counter=step.shuffles)[:count]))
    step.shuffles += 1
    step.hands = replaced(step.hands, victim, tuple(c for c in hand if c not in taken))
    hand_over_to(step, ev, victim, seat, taken, GiveCause.TAKE)
    reopen_windows(step, seat, (seat, victim))


def _redeal(step: Step, ev: list[Event], seat: int) -> None:
    """All hands shuffled together; each player gets back as many cards as they held, dealt
    in seat order."""
    playing = [s for s in range(step.seats) if step.playing[s]]
    pool = sorted(c for s in playing for c in step.hands[s])
    cards = rng.shuffled(pool, seed=step.seed, counter=step.shuffles)
    step.shuffles += 1
    hands = list(step.hands)
    start = 0
    for s in playing:
        count = len(step.hands[s])
        hands[s] = tuple(sorted(cards[start : start + count]))
        start += count
    step.hands = tuple(hands)
    ev.append(HandsRedealt(seat))
    reopen_windows(step, seat, playing)


def chain_plays(state: GameState | Step, seat: int) -> list[Play]:
    """R-ALT-6 ``chain``: the cards ``seat`` may play on the top card (R-TURN-1/2, R-END-2),
    put down without effects: a wild names a colour, a Swap Hands no opponent."""
    faces = state.deck.sides[state.side]
    top = faces[state.discard[-1]]
    tables = tables_for(faces)
    plays: list[Play] = []
    for card, face in faces_once(state, seat):
        if matches(face, top, state.colour) and not finish_blocked(state, face, seat):
            if face.kind is KIND_SWAP_HANDS:
                plays.extend(Play(face, c) for c in tables.colours)
            else:
                plays.extend(tables.plays[card])
    return plays


def chain_play(step: Step, ev: list[Event], seat: int, play: Play) -> None:
    """A card of the chain: played on the top card, without its effect."""
    face = play.face
    card = take(step, seat, face)
    step.discard += (card,)
    step.colour = play.colour if face.colour is None else face.colour
    ev.append(CardPlayed(seat, card, face, play.colour, False))
    step.uno_seat = seat
    step.uno_called = False
    if not step.hands[seat]:
        if not went_out(step, ev, seat):
            step.phase = PHASE_PLAY
            step.current = step.next_seat(seat)
        return
    if not chain_plays(step, seat):
        end_chain(step, seat)


def end_chain(step: Step, seat: int) -> None:
    step.phase = PHASE_PLAY
    step.current = step.next_seat(seat)


def round_put_down(step: Step, ev: list[Event], seat: int, face: CardFace) -> None:
    """A player of the colour round puts down a card of the colour called."""
    step.close_uno_window(ev, seat)
    card = take(step, seat, face)
    put_down(step, ev, seat, (card,), on_top=True)
    _round_next(step, ev, seat)


def round_draw(step: Step, ev: list[Event], seat: int) -> None:
    """A player of the colour round without the colour draws until it comes, and puts that
    card down; with nothing left to draw they put nothing down."""
    step.close_uno_window(ev, seat)
    colour = step.colour
    got = step.draw_until(ev, seat, colour, CAUSE_EFFECT)
    if got and step.faces[got[-1]].colour is colour:
        card = got[-1]
        step.hands = replaced(step.hands, seat, tuple(c for c in step.hands[seat] if c != card))
        put_down(step, ev, seat, (card,), on_top=True)
    _round_next(step, ev, seat)


def _round_next(step: Step, ev: list[Event], seat: int) -> None:
    """After a put-down: the next player of the round, or play goes on after the blank
    card's player."""
    step.uno_seat = seat
    step.uno_called = False
    if not step.hands[seat] and went_out(step, ev, seat):
        return
    round_advance(step)


def round_advance(step: Step) -> None:
    """The next seat of the colour round puts down; after the last, play goes on from the
    player after the one who played the blank card."""
    alt = step.alt or NO_ALT
    rest = [s for s in alt.round if step.playing[s]]
    if rest:
        step.current = rest[0]
        step.alt = replace(alt, round=tuple(rest[1:]))
        return
    assert alt.origin is not None
    step.alt = replace(alt, origin=None, round=())
    step.phase = PHASE_PLAY
    step.current = step.next_seat(alt.origin)
