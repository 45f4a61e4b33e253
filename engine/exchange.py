"""Cards that move between hands, or go down without effect, under the alternative rules
(RULES.md §13), and the UNO windows an exchange opens (R-ALT-2: every player left with one
card must call). The rules that move cards (:mod:`engine.spells`, :mod:`engine.skips`,
:mod:`engine.gifts`, :mod:`engine.blanks`) use these on the draft of the next state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from .events import CardsGiven, CardsPutDown, DrawCause, Event, GiveCause, GivenCards, UnoPenalised
from .hand import NO_ALT, Hand, turn_order
from .rules import UnoPenalty
from .step import draw, replaced


def hand_over(
    draft: Hand, ev: list[Event], seat: int, target: int, cards: Sequence[int], cause: GiveCause
) -> None:
    """Move ``cards`` (ids, already out of ``seat``'s hand) into ``target``'s: the count in
    public, the cards to the two of them only."""
    draft.hands = replaced(draft.hands, target, tuple(sorted((*draft.hands[target], *cards))))
    ev.append(CardsGiven(seat, target, len(cards), cause))
    ev.append(GivenCards(seat, target, tuple(cards)))


def put_down(draft: Hand, ev: list[Event], seat: int, cards: Sequence[int], on_top: bool) -> None:
    """Put ``cards`` (ids, already out of the hand) on the discard pile without effects: on
    top in the order given, or beneath the top card."""
    if not cards:
        return
    if on_top:
        draft.discard += tuple(cards)
    else:
        draft.discard = draft.discard[:-1] + tuple(cards) + draft.discard[-1:]
    faces = draft.faces
    ev.append(CardsPutDown(seat, tuple(cards), tuple(faces[c] for c in cards), on_top))


def reopen_windows(draft: Hand, actor: int, affected: Iterable[int]) -> None:
    """Every seat of ``affected`` (whose hand changed) left with one card must call UNO and
    may be caught until the next turn begins; the seat whose window was open keeps it if
    its hand did not change."""
    alt = draft.alt or NO_ALT
    changed = set(affected)
    ones = [s for s in [actor, *turn_order(draft, actor)]
            if s in changed and draft.playing[s] and len(draft.hands[s]) == 1]  # fmt: skip
    windows = [w for w in alt.windows if w not in changed]
    if draft.uno_seat is None or draft.uno_seat in changed:
        draft.uno_seat = ones[0] if ones else None
        draft.uno_called = False
        ones = ones[1:]
    draft.alt = replace(alt, windows=tuple(windows + [s for s in ones if s != draft.uno_seat]))


def close_windows(draft: Hand, ev: list[Event], actor: int) -> None:
    """The next turn begins: the windows of :func:`reopen_windows` shut (R-UNO-3 draws for
    the uncalled ones when the penalty is automatic)."""
    alt = draft.alt or NO_ALT
    draft.alt = replace(alt, windows=())
    if draft.rules.uno_penalty is UnoPenalty.AUTOMATIC:
        for window in alt.windows:
            if window != actor and draft.playing[window] and len(draft.hands[window]) == 1:
                ev.append(UnoPenalised(window))
                draw(draft, ev, window, 2, DrawCause.UNO)
