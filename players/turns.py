"""Who acts next among the computer seats: one protocol for the bot's clock and the arena.

After every change of a hand, the computer seats are asked in this order, and the first one
that wants to act does:

1. the seats whose **UNO window** is open (R-UNO-1), so that a player who has just played its
   second-to-last card calls UNO before anyone can catch it (R-UNO-2) — after an exchange of
   hands (R-ALT-2) every player left with one card, in turn order;
2. the **other seats out of turn**, in turn order from the current seat: catches (R-UNO-2),
   jump-ins (R-ACT-7);
3. the **current seat**, the one the hand waits for; on its turn a level always returns an
   action. Under the alternative rules (RULES.md §13) that seat may not be the one whose turn
   it is: the engine makes ``current`` the partner who may give a card (R-ALT-5), or the
   next player of a colour round (R-ALT-6), so the order above needs nothing more.

A seat that plays its second-to-last card and would call UNO right after does both in one
go (:attr:`Decision.actions`), the way a person plays a card and calls "UNO!" in one breath:
nobody can catch it in between.

>>> import random
>>> import players
>>> from engine import Rules, new_hand
>>> state = new_hand(Rules.from_preset("classic"), 3, dealer=0, seed=7).state
>>> def normal(seat, view):
...     return players.decide("normal", view, random.Random(seat))
>>> decision = next_actor(state, range(3), normal)
>>> decision.seat == state.current
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine import Action, CallUno, GameState, PlayerView
from engine.game import uno_windows

#: How a seat decides: ``decide(seat, view)`` returns an action of ``view.legal`` or ``None``
#: (nothing now). Only the seat's own view is ever passed.
Decide = Callable[[int, PlayerView], Action | None]


@dataclass(frozen=True, slots=True)
class Decision:
    """``seat`` takes ``actions``, in order (an action, then perhaps its UNO call)."""

    seat: int
    actions: tuple[Action, ...]


def ask_order(state: GameState, seats: Iterable[int]) -> list[int]:
    """The seats of ``seats`` to ask, in the order of the protocol above."""
    wanted = set(seats)
    n = state.seats
    current = state.current
    step = 1 if state.clockwise else -1
    order = [(current + step * i) % n for i in range(1, n)]
    order.append(current)
    windows = uno_windows(state)
    if windows:
        order = [*windows, *(seat for seat in order if seat not in windows)]
    return [seat for seat in order if seat in wanted]


def next_actor(state: GameState, seats: Iterable[int], decide: Decide) -> Decision | None:
    """The first seat of ``seats`` that wants to act now, and what it does; ``None`` when none.

    ``None`` is only possible when the current seat is not among ``seats`` (or the hand is
    over): a seat on its turn always acts.
    """
    if state.is_over:
        return None
    for seat in ask_order(state, seats):
        if not state.legal_actions(seat):
            continue
        action = decide(seat, state.view_for(seat))
        if action is None:
            continue
        return Decision(seat, (action, *_uno_call_after(state, seat, action, decide)))
    return None


def _uno_call_after(
    state: GameState, seat: int, action: Action, decide: Decide
) -> tuple[Action, ...]:
    """The UNO call ``seat`` makes right after ``action``, if its window opens and it calls."""
    if isinstance(action, CallUno):
        return ()
    after = state.apply(seat, action).state
    if after.is_over or seat not in uno_windows(after):
        return ()
    if not any(isinstance(a, CallUno) for a in after.legal_actions(seat)):
        return ()
    call = decide(seat, after.view_for(seat))
    return (call,) if isinstance(call, CallUno) else ()
