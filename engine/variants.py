"""The alternative rules of RULES.md §13 inside a hand: where they enter the classic play.

A hand under such rules (:attr:`engine.rules.Rules.alternative`) carries an
:class:`~engine.hand.AltState`; the classic code asks ``alt is None`` and hands the rest here.
Each rule lives in its own module, with what it does and its phase: :mod:`engine.spells`
(R-ALT-2/3, ``swap``), :mod:`engine.skips` (R-ALT-4, ``give``), :mod:`engine.gifts` (R-ALT-5,
``gift``), :mod:`engine.blanks` (R-ALT-6, ``chain`` and ``colour_round``). :data:`CHOICE_PHASES` is
the table of those phases. Besides it, this module keeps what concerns them all:

- the UNO windows an exchange of cards opened (R-ALT-2), called, caught or closed;
- where a turn begins (:func:`after`): R-ALT-5's gift is offered there and R-ALT-6's quiet
  turns are counted there;
- what lapses when a player leaves (:func:`leave`).

``current`` is always the seat the hand waits for, in these phases too (a partner choosing
a gift, the next player of a colour round), so whoever times turns times them unchanged.
Our readings of the rules are in docs/engine.md ("The alternative rules").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from . import blanks, gifts, skips, spells
from .actions import (
    CALL_UNO,
    DRAW,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Gift,
    Give,
    NoGift,
    Pass,
    Play,
    Swap,
)
from .cards import Kind
from .errors import Reason
from .events import DrawCause, Event, UnoCalled, UnoCaught
from .exchange import close_windows
from .hand import NO_ALT, AltState, Hand, Phase
from .rules import Rules, UnoPenalty
from .step import draw


class Choice(NamedTuple):
    """A phase of the alternative rules: the actions of the seat it waits for, and what one
    does."""

    actions: Callable[[Hand, int], list[Action]]
    accepts: tuple[type, ...]  # the kinds of action the phase takes (for refusals)
    perform: Callable[[Hand, list[Event], int, Action], None]


#: The phases of the alternative rules, and the rule that answers each.
CHOICE_PHASES: dict[Phase, Choice] = {
    Phase.SWAP: Choice(spells.swap_actions, (Swap,), spells.perform_swap),
    Phase.GIVE: Choice(skips.give_actions, (Give,), skips.perform_give),
    Phase.GIFT: Choice(gifts.gift_actions, (Gift, NoGift), gifts.perform_gift),
    Phase.CHAIN: Choice(blanks.chain_actions, (Play, Pass), blanks.perform_chain),
    Phase.COLOUR_ROUND: Choice(blanks.round_actions, (Play, Draw), blanks.perform_round),
}
#: Phases in which the turn that began goes on (no new turn has begun after the action).
_TURN_GOES_ON = frozenset({Phase.DRAWN, Phase.SWAP, Phase.GIVE, Phase.CHAIN, Phase.HAND_OVER})
#: The phases whose rule takes every action as its own, an UNO call or catch too: a known
#: flaw (a call ends a chain; in a colour round the caller draws for the colour), kept so
#: that stored records replay as they were played.
_EVERY_ACTION_PHASES = (Phase.CHAIN, Phase.COLOUR_ROUND)
#: Actions that never begin a turn: UNO calls and catches, a gift, a colour named.
_NOT_A_TURN = (CallUno, CatchUno, Gift, NoGift, ChooseColour)


def initial(rules: Rules) -> AltState | None:
    """The state a new hand starts with under ``rules`` (``None`` for classic rules)."""
    return NO_ALT if rules.alternative else None


# -- legality (composed with the classic rules by engine.legality) -----------------------------


def quiet_only(hand: Hand, seat: int, actions: list[Action]) -> list[Action]:
    """R-ALT-6 ``no_actions``: only number cards may be played; a seat left with nothing to
    play may draw (R-TURN-4, R-TURN-6 as usual)."""
    plays = [a for a in actions if type(a) is not Play or a.face.kind is Kind.NUMBER]
    if (
        seat == hand.current
        and hand.phase is Phase.PLAY
        and DRAW not in plays
        and not any(type(a) is Play for a in plays)
    ):
        plays.append(DRAW)
    return plays


def with_windows(hand: Hand, seat: int, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """``actions`` and the calls and catches of the windows an exchange opened (R-ALT-2)."""
    alt = hand.alt or NO_ALT
    extra: list[Action] = []
    for window in alt.windows:
        if len(hand.hands[window]) != 1:
            continue
        if seat == window:
            if CALL_UNO not in actions:
                extra.append(CALL_UNO)
        elif hand.playing[seat] and hand.rules.uno_penalty is not UnoPenalty.AUTOMATIC:
            extra.append(CatchUno(window))
    return (*actions, *extra) if extra else actions


def choice_reason(hand: Hand, seat: int, action: Action) -> Reason:
    """Why ``action`` is refused in one of the phases of :data:`CHOICE_PHASES`."""
    if type(action) not in CHOICE_PHASES[hand.phase].accepts:
        return Reason.WRONG_PHASE
    target = getattr(action, "target", None)
    if target is not None and (
        not 0 <= target < hand.seats or target == seat or not hand.playing[target]
    ):
        return Reason.BAD_TARGET
    face = getattr(action, "face", None)
    if face is not None and not any(f == face for f in hand.hand_faces(seat)):
        return Reason.CARD_NOT_IN_HAND
    if type(action) is Draw:
        return Reason.DRAW_NOT_ALLOWED  # a card of the colour is held: it must be put down
    if type(action) is Play and (action.colour is not None or action.target is not None):
        return Reason.COLOUR_NOT_ALLOWED if action.colour is not None else Reason.BAD_TARGET
    if type(action) is Play and face is not None and face.is_wild:
        return Reason.COLOUR_REQUIRED
    return Reason.DOES_NOT_MATCH


# -- transitions -------------------------------------------------------------------------------


def perform(draft: Hand, ev: list[Event], seat: int, action: Action) -> bool:
    """Perform ``action`` if it belongs to these rules (a call or catch of an exchange's
    window, the action of a phase of :data:`CHOICE_PHASES`), closing the exchange's windows when
    it begins a turn; ``True`` when done, so the classic transition has nothing to do."""
    alt = draft.alt or NO_ALT
    if alt.windows:
        if isinstance(action, CallUno) and seat in alt.windows:
            ev.append(UnoCalled(seat, False))
            draft.alt = replace(alt, windows=tuple(w for w in alt.windows if w != seat))
            return True
        if isinstance(action, CatchUno) and action.target in alt.windows:
            target = action.target
            ev.append(UnoCaught(seat, target, False))
            draft.alt = replace(alt, windows=tuple(w for w in alt.windows if w != target))
            draw(draft, ev, target, 2, DrawCause.UNO)
            return True
        if not isinstance(action, _NOT_A_TURN):
            close_windows(draft, ev, seat)  # R-ALT-2: until the next turn begins
    choice = CHOICE_PHASES.get(draft.phase)
    if choice is None:
        return False
    if isinstance(action, CallUno | CatchUno) and draft.phase not in _EVERY_ACTION_PHASES:
        return False
    choice.perform(draft, ev, seat, action)
    return True


def after(draft: Hand, ev: list[Event], prior: Hand, seat: int, action: Action) -> None:
    """Where a new turn has begun: count R-ALT-6's quiet turns and offer R-ALT-5's gift."""
    if draft.phase is Phase.HAND_OVER or draft.alt is None:
        return
    if _turn_began(draft, seat, action):
        quiet = (prior.alt or NO_ALT).quiet
        draft.alt = replace(draft.alt, quiet=max(0, quiet - 1) if quiet else draft.alt.quiet,
                            gift_checked=False)  # fmt: skip
        gifts.offer_gift(draft)


def start(draft: Hand) -> None:
    """After the deal: the first turn begins (R-ALT-5)."""
    if draft.alt is not None and draft.phase is not Phase.HAND_OVER:
        gifts.offer_gift(draft)


def _turn_began(draft: Hand, seat: int, action: Action) -> bool:
    """Whether ``action`` ended a turn, so that a new one has begun (perhaps the same seat's,
    after a heads-up Skip)."""
    if isinstance(action, _NOT_A_TURN) or draft.phase in _TURN_GOES_ON:
        return False
    if type(action) is Challenge:
        return draft.current != seat  # guilty: the challenger's turn goes on
    return True


def leave(draft: Hand, seat: int, was_current: bool) -> None:
    """``seat`` left the hand (R-TIME-2/3; its cards are gone, ``playing`` is false): what
    waited for it lapses, and the phases of these rules go on without it."""
    alt = draft.alt or NO_ALT
    alt = replace(alt, windows=tuple(w for w in alt.windows if w != seat))
    draft.alt = alt
    phase = draft.phase
    if phase is Phase.GIFT and seat in (alt.recipient, draft.current):
        recipient = alt.recipient
        assert recipient is not None
        draft.alt = replace(alt, recipient=None)
        draft.phase = Phase.PLAY
        # The giver left: the recipient plays; the recipient left: the turn passes on.
        draft.current = recipient if draft.playing[recipient] else draft.next_seat(recipient)
    elif phase is Phase.COLOUR_ROUND:
        draft.alt = replace(alt, round=tuple(s for s in alt.round if s != seat))
        if was_current:
            blanks.round_advance(draft)
    elif phase in CHOICE_PHASES and was_current:  # SWAP, GIVE, CHAIN: the choice lapses
        draft.phase = Phase.PLAY
        draft.current = draft.next_seat(seat)
    if was_current and draft.phase is Phase.PLAY:
        draft.alt = replace(draft.alt or NO_ALT, gift_checked=False)
        gifts.offer_gift(draft)
