"""The mechanics every rule uses on the draft of the next state: drawing (and reshuffling),
losing a turn, the UNO window, going out, turning UNO Flip's cards over, ending the hand.

A transition copies the state (:meth:`engine.state.GameState.apply`) and changes the copy,
the *draft*, through these functions and the ones built on them, before anyone else sees
it. Each takes the transition's list of events and appends what happened.
"""

from __future__ import annotations

from typing import TypeVar

from . import rng
from .cards import CardFace, Colour
from .errors import EngineError
from .events import (
    CardsDrawn,
    CardsFlipped,
    CardsReceived,
    DrawCause,
    Event,
    HandEnded,
    PileReshuffled,
    PlayerWentOut,
    Termination,
    TurnSkipped,
    UnoPenalised,
)
from .hand import NO_ALT, Hand, Phase, hand_complete
from .rules import UnoPenalty
from .tables import card_points

T = TypeVar("T")


def replaced(seats: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    """``seats`` with the entry of ``seat`` replaced."""
    entries = list(seats)  # faster than slicing and concatenating for a few seats
    entries[seat] = value
    return tuple(entries)


# -- drawing ---------------------------------------------------------------------------------


def reshuffle(draft: Hand, ev: list[Event]) -> bool:
    """R-TURN-6: the discard pile but its top becomes the new draw pile."""
    if len(draft.discard) <= 1:
        return False
    cards = rng.shuffled(draft.discard[:-1], seed=draft.seed, counter=draft.shuffles)
    draft.shuffles += 1
    draft.draw_pile = tuple(cards)
    draft.discard = draft.discard[-1:]
    ev.append(PileReshuffled(len(cards)))
    return True


def draw(draft: Hand, ev: list[Event], seat: int, count: int, cause: DrawCause) -> tuple[int, ...]:
    """Move up to ``count`` cards from the draw pile to ``seat``'s hand."""
    pile = draft.draw_pile
    got: tuple[int, ...]
    if 0 < count <= len(pile):  # the common case: the pile holds enough
        got = pile[: -count - 1 : -1]  # top first
        draft.draw_pile = pile[:-count]
    else:
        got = ()
        while len(got) < count:
            if not draft.draw_pile and not reshuffle(draft, ev):
                break
            take = min(count - len(got), len(draft.draw_pile))
            got += draft.draw_pile[: -take - 1 : -1]
            draft.draw_pile = draft.draw_pile[:-take]
        if not got:
            return got
    _receive(draft, ev, seat, got, cause)
    return got


def draw_until(
    draft: Hand, ev: list[Event], seat: int, colour: Colour | None, cause: DrawCause, extra: int = 0
) -> tuple[int, ...]:
    """R-FLIP-5: ``seat`` draws until a card of ``colour`` comes, then ``extra`` more.

    Reshuffles as any draw does (R-TURN-6); if no card is left at all it stops short.
    One CardsDrawn/CardsReceived pair reports the whole draw.
    """
    faces = draft.faces
    got: list[int] = []
    wanted = True
    while wanted or extra > 0:
        if not draft.draw_pile and not reshuffle(draft, ev):
            break
        card = draft.draw_pile[-1]
        draft.draw_pile = draft.draw_pile[:-1]
        got.append(card)
        if wanted:
            wanted = faces[card].colour is not colour
        else:
            extra -= 1
    if got:
        _receive(draft, ev, seat, tuple(got), cause)
    return tuple(got)


def _receive(
    draft: Hand, ev: list[Event], seat: int, cards: tuple[int, ...], cause: DrawCause
) -> None:
    draft.hands = replaced(draft.hands, seat, tuple(sorted(draft.hands[seat] + cards)))
    draft.last_drawer = seat
    ev.append(CardsDrawn(seat, len(cards), cause))
    ev.append(CardsReceived(seat, cards))


# -- turns, UNO windows, going out -------------------------------------------------------------


def skip(draft: Hand, ev: list[Event], victim: int) -> None:
    """``victim`` loses the turn; the seat after them plays."""
    ev.append(TurnSkipped(victim))
    draft.current = draft.next_seat(victim)


def close_uno_window(draft: Hand, ev: list[Event], actor: int) -> None:
    """``actor`` begins a turn: the window to call or catch UNO shuts (R-UNO-1/2/3).

    When the actor is the window's own seat (it plays again after a heads-up Skip), the
    window just closes: no *next* player has begun a turn, so nothing is automatic.
    The actor's own hand never changes here.
    """
    seat = draft.uno_seat
    if seat is None:
        return
    if (
        seat != actor
        and draft.rules.uno_penalty is UnoPenalty.AUTOMATIC
        and not draft.uno_called
        and len(draft.hands[seat]) == 1
    ):
        ev.append(UnoPenalised(seat))
        draw(draft, ev, seat, 2, DrawCause.UNO)
    draft.uno_seat = None
    draft.uno_called = False


def take(draft: Hand, seat: int, face: CardFace) -> int:
    """Remove the lowest card showing ``face`` from ``seat``'s hand; its id. Actions name
    faces, so the log stays exact whichever copy a player holds."""
    hand = draft.hands[seat]
    faces = draft.faces
    for i, card in enumerate(hand):
        if faces[card] is face or faces[card] == face:
            draft.hands = replaced(draft.hands, seat, hand[:i] + hand[i + 1 :])
            return card
    raise EngineError(f"internal: {face} is not in the hand")


def go_out(draft: Hand, ev: list[Event], seat: int) -> None:
    """``seat`` has no card left: it leaves the hand in the next place (R-END-1, R-END-3)."""
    draft.playing = replaced(draft.playing, seat, False)
    draft.out += (seat,)
    if draft.uno_seat == seat:
        draft.uno_seat = None
        draft.uno_called = False
    ev.append(PlayerWentOut(seat, len(draft.out)))


def went_out(draft: Hand, ev: list[Event], seat: int) -> bool:
    """:func:`go_out`, and end the hand if that completed it; ``True`` when it did."""
    go_out(draft, ev, seat)
    if hand_complete(draft):
        finish(draft, ev, Termination.WENT_OUT)
        return True
    return False


# -- UNO Flip ------------------------------------------------------------------------------


def flip(draft: Hand, ev: list[Event]) -> None:
    """R-FLIP-4: turn everything over. Hands keep their cards (ids) and show the other
    side; the discard pile and the draw pile are each turned over as a whole, so their
    order reverses: the discard pile's old bottom card is its new top, and the colour in
    play becomes that face's colour (a wild: the seat whose turn it is names one)."""
    side = draft.side = draft.deck.other_side(draft.side)
    draft.discard = draft.discard[::-1]
    draft.draw_pile = draft.draw_pile[::-1]
    top = draft.deck.sides[side][draft.discard[-1]]
    draft.colour = top.colour
    if top.colour is None:
        draft.phase = Phase.CHOOSE_COLOUR
    ev.append(CardsFlipped(side, top, top.colour))


# -- the end of a hand -----------------------------------------------------------------------


def finish(draft: Hand, ev: list[Event], termination: Termination, by_cards: bool = False) -> None:
    """End the hand: rank who went out first, then the rest by what they hold (with
    ``by_cards``, fewer cards before fewer points: R-ALT-1)."""
    points = card_points(draft.deck, draft.scoring_side)
    hands = draft.hands
    last_drawer = draft.last_drawer

    def held(seat: int) -> tuple[int, int]:
        """R-SCORE-6 (R-FLIP-7 for the side): fewer points, then fewer cards."""
        cards = len(hands[seat])
        total = sum([points[c] for c in hands[seat]])
        return (cards, total) if by_cards else (total, cards)

    # Whoever drew last loses a tie; then the lower seat.
    playing = (s for s in range(draft.seats) if draft.playing[s])
    rest = sorted(playing, key=lambda s: (held(s), s == last_drawer, s))
    if draft.alt is not None:
        draft.alt = NO_ALT  # nothing of the alternative rules outlives the hand
    draft.ranking = draft.out + tuple(rest)
    draft.termination = termination
    draft.phase = Phase.HAND_OVER
    draft.pending = 0
    draft.offender = draft.prior_colour = draft.drawn = None
    draft.evidence = ()
    draft.uno_seat = None
    draft.uno_called = False
    ev.append(HandEnded(termination, draft.ranking))
