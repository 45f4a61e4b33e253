"""Moving cards between hands, for the alternative rules (RULES.md §13): who sits where,
taking and adding cards, putting cards down without effects, going out, and the UNO windows
an exchange of cards opens (R-ALT-2: every player left with one card must call).

These work on a :class:`~engine.step.Step` (a draft of the next state), collecting events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from .cards import CardFace
from .events import (
    CardsGiven,
    CardsPutDown,
    Event,
    GiveCause,
    GivenCards,
    PlayerWentOut,
    UnoPenalised,
)
from .members import CAUSE_UNO, END_WENT_OUT, UNO_PENALTY_AUTOMATIC
from .state import NO_ALT, GameState
from .step import Step, hand_complete, replaced

# -- who is where --------------------------------------------------------------------------


def turn_order(state: GameState | Step, seat: int) -> list[int]:
    """The other seats still in the hand, in turn order from ``seat``."""
    n = state.seats
    step = 1 if state.clockwise else -1
    order = ((seat + step * i) % n for i in range(1, n))
    return [s for s in order if state.playing[s]]


def partner_for(state: GameState | Step, seat: int) -> int | None:
    """R-ALT-5: the partner asked for a gift: the first one after ``seat`` in turn order who
    holds two cards or more (a gift never empties the giver's hand). ``None`` if none."""
    teams = state.rules.teams
    if not teams:
        return None
    for other in turn_order(state, seat):
        if other % teams == seat % teams and len(state.hands[other]) >= 2:
            return other
    return None


def faces_once(state: GameState | Step, seat: int) -> list[tuple[int, CardFace]]:
    """The lowest card id of each face ``seat`` holds, with its face, in card-id order."""
    faces = state.deck.sides[state.side]
    seen: set[CardFace] = set()
    result = []
    for card in state.hands[seat]:
        face = faces[card]
        if face not in seen:
            seen.add(face)
            result.append((card, face))
    return result


# -- UNO windows after an exchange (R-ALT-2) -------------------------------------------------


def reopen_windows(step: Step, actor: int, affected: Iterable[int]) -> None:
    """Every seat of ``affected`` (whose hand changed) left with one card must call UNO and
    may be caught until the next turn begins; the seat whose window was open keeps it if
    its hand did not change."""
    alt = step.alt or NO_ALT
    changed = set(affected)
    ones = [s for s in [actor, *turn_order(step, actor)]
            if s in changed and step.playing[s] and len(step.hands[s]) == 1]  # fmt: skip
    windows = [w for w in alt.windows if w not in changed]
    if step.uno_seat is None or step.uno_seat in changed:
        step.uno_seat = ones[0] if ones else None
        step.uno_called = False
        ones = ones[1:]
    step.alt = replace(alt, windows=tuple(windows + [s for s in ones if s != step.uno_seat]))


def close_windows(step: Step, ev: list[Event], actor: int) -> None:
    """The next turn begins: the windows of :func:`reopen_windows` shut (R-UNO-3 draws for
    the uncalled ones when the penalty is automatic)."""
    alt = step.alt or NO_ALT
    step.alt = replace(alt, windows=())
    if step.rules.uno_penalty is UNO_PENALTY_AUTOMATIC:
        for window in alt.windows:
            if window != actor and step.playing[window] and len(step.hands[window]) == 1:
                ev.append(UnoPenalised(window))
                step.draw(ev, window, 2, CAUSE_UNO)


# -- moving cards --------------------------------------------------------------------------


def take(step: Step, seat: int, face: CardFace) -> int:
    """Remove the lowest card of ``face`` from ``seat``'s hand; its id."""
    hand = step.hands[seat]
    i = step.lowest_index(hand, face)
    step.hands = replaced(step.hands, seat, hand[:i] + hand[i + 1 :])
    return hand[i]


def add(step: Step, seat: int, cards: Sequence[int]) -> None:
    step.hands = replaced(step.hands, seat, tuple(sorted((*step.hands[seat], *cards))))


def went_out(step: Step, ev: list[Event], seat: int) -> bool:
    """``seat`` has no card left (R-END-1); ``True`` when that ended the hand."""
    step.playing = replaced(step.playing, seat, False)
    step.out += (seat,)
    if step.uno_seat == seat:
        step.uno_seat = None
        step.uno_called = False
    ev.append(PlayerWentOut(seat, len(step.out)))
    if hand_complete(step):
        step.finish(ev, END_WENT_OUT)
        return True
    return False


def hand_over_to(step: Step, ev: list[Event], seat: int, target: int, cards: Sequence[int],
                  cause: GiveCause) -> None:  # fmt: skip
    """Move ``cards`` (ids, already out of ``seat``'s hand) into ``target``'s: the count in
    public, the cards to the two of them only."""
    add(step, target, cards)
    ev.append(CardsGiven(seat, target, len(cards), cause))
    ev.append(GivenCards(seat, target, tuple(cards)))


def put_down(step: Step, ev: list[Event], seat: int, cards: Sequence[int], on_top: bool) -> None:
    """Put ``cards`` (ids, already out of the hand) on the discard pile without effects: on
    top in the order given, or beneath the top card."""
    if not cards:
        return
    faces = step.faces
    if on_top:
        step.discard += tuple(cards)
    else:
        step.discard = step.discard[:-1] + tuple(cards) + step.discard[-1:]
    ev.append(CardsPutDown(seat, tuple(cards), tuple(faces[c] for c in cards), on_top))
