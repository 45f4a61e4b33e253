"""The alternative rules of RULES.md §13 inside a hand: R-ALT-2 … R-ALT-6 and R-DECK-5.

A hand under such rules (:attr:`engine.rules.Rules.alternative`) carries an
:class:`~engine.state.AltState`; the classic code of :mod:`engine.game` and
:mod:`engine.step` asks ``state.alt is None`` once and hands everything else over here:

- :func:`legal_actions` and :func:`check` for every seat and phase (the classic phases
  through :func:`engine.game.turn_actions`, filtered by R-ALT-6's ``no_actions``);
- :func:`before` performs the actions and phases of these rules (swap, give, gift, a chain,
  a colour round) and closes the UNO windows an exchange opened; :func:`after` marks where
  a turn begins (R-ALT-5's gift is offered there, R-ALT-6's quiet turns are counted there);
- the effects live beside: :mod:`engine.spells` (a 0 or 7, a Skip, a partner's gift),
  :mod:`engine.blanks` (blank cards) and :mod:`engine.exchange` (moving cards between
  hands, and the UNO windows that opens); :meth:`engine.step.Step.play` calls them.

``current`` is always the seat the hand waits for, in these phases too (a partner choosing
a gift, the next player of a colour round), so whoever times turns times them unchanged.
Our readings of the rules are in docs/engine.md ("The alternative rules").
"""

from __future__ import annotations

from dataclasses import replace

from . import game
from .actions import (
    CALL_UNO,
    DRAW,
    NO_GIFT,
    PASS,
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
from .blanks import chain_play, chain_plays, end_chain, round_advance, round_draw, round_put_down
from .errors import IllegalActionError, Reason
from .events import Event, Passed, UnoCalled, UnoCaught
from .exchange import close_windows, faces_once, turn_order
from .members import (
    CAUSE_UNO,
    KIND_NUMBER,
    PHASE_CHAIN,
    PHASE_COLOUR_ROUND,
    PHASE_DRAWN,
    PHASE_GIFT,
    PHASE_GIVE,
    PHASE_HAND_OVER,
    PHASE_PLAY,
    PHASE_SWAP,
    UNO_PENALTY_AUTOMATIC,
)
from .rules import Rules
from .spells import gift, give, offer_gift, swap
from .state import NO_ALT, AltState, GameState
from .step import Step
from .tables import tables_for

#: The phases of these rules; the classic phases keep their classic legality.
CHOICE_PHASES = frozenset({PHASE_SWAP, PHASE_GIVE, PHASE_GIFT, PHASE_CHAIN, PHASE_COLOUR_ROUND})
#: Phases in which the turn that began goes on (no new turn has begun after the action).
_TURN_GOES_ON = frozenset({PHASE_DRAWN, PHASE_SWAP, PHASE_GIVE, PHASE_CHAIN, PHASE_HAND_OVER})
#: Actions that never begin a turn: UNO calls and catches, a gift, a colour named.
_NOT_A_TURN = (CallUno, CatchUno, Gift, NoGift, ChooseColour)
#: Cards of a turn that R-ALT-6 ``no_actions`` still allows: numbers only.
_QUIET_KINDS = frozenset({KIND_NUMBER})


def initial(rules: Rules) -> AltState | None:
    """The state a new hand starts with under ``rules`` (``None`` for classic rules)."""
    return NO_ALT if rules.alternative else None


# -- legality ------------------------------------------------------------------------------


def legal_actions(state: GameState, seat: int) -> tuple[Action, ...]:
    """:func:`engine.game.legal_actions` for a hand under the alternative rules."""
    phase = state.phase
    if phase is PHASE_HAND_OVER or not 0 <= seat < state.seats:
        return ()
    alt = state.alt or NO_ALT
    actions: list[Action]
    if phase in CHOICE_PHASES:
        actions = _choices(state, seat) if seat == state.current else []
    else:
        actions = game.turn_actions(state, seat)
        if alt.quiet:
            actions = _quiet(state, seat, actions)
    uno = game.with_uno(state, seat, actions)
    return _with_windows(state, seat, uno, alt) if alt.windows else uno


def _quiet(state: GameState, seat: int, actions: list[Action]) -> list[Action]:
    """R-ALT-6 ``no_actions``: only number cards may be played; a seat left with nothing to
    play may draw (R-TURN-4, R-TURN-6 as usual)."""
    plays = [a for a in actions if type(a) is not Play or a.face.kind in _QUIET_KINDS]
    if (
        seat == state.current
        and state.phase is PHASE_PLAY
        and DRAW not in plays
        and not any(type(a) is Play for a in plays)
    ):
        plays.append(DRAW)
    return plays


def _choices(state: GameState, seat: int) -> list[Action]:
    """The actions of the phases of these rules, for the seat they wait for."""
    phase = state.phase
    if phase is PHASE_SWAP:
        return [Swap(target) for target in turn_order(state, seat)]
    if phase is PHASE_GIVE:
        targets = turn_order(state, seat)
        return [Give(face, t) for _, face in faces_once(state, seat) for t in targets]
    if phase is PHASE_GIFT:
        return [*(Gift(face) for _, face in faces_once(state, seat)), NO_GIFT]
    if phase is PHASE_CHAIN:
        return [*chain_plays(state, seat), PASS]
    # PHASE_COLOUR_ROUND: a card of the colour called, or draw until one comes.
    colour = state.colour
    tables = tables_for(state.deck.sides[state.side])
    plays: list[Action] = [p for card, face in faces_once(state, seat) if face.colour is colour
                           for p in tables.plays[card]]  # fmt: skip
    return plays or [DRAW]


def _with_windows(
    state: GameState, seat: int, actions: tuple[Action, ...], alt: AltState
) -> tuple[Action, ...]:
    """``actions`` and the calls and catches of the windows an exchange opened (R-ALT-2)."""
    extra: list[Action] = []
    hands = state.hands
    for window in alt.windows:
        if len(hands[window]) != 1:
            continue
        if seat == window:
            if CALL_UNO not in actions:
                extra.append(CALL_UNO)
        elif state.playing[seat] and state.rules.uno_penalty is not UNO_PENALTY_AUTOMATIC:
            extra.append(game.CATCHES[window])
    return (*actions, *extra) if extra else actions


def check(state: GameState, seat: int, action: Action) -> None:
    """:func:`engine.game.check` for these hands: legal exactly when listed, and otherwise
    refused with the classic reason or one of these rules'."""
    if action in legal_actions(state, seat):
        return
    phase = state.phase
    if phase is PHASE_HAND_OVER:
        raise IllegalActionError(Reason.HAND_OVER)
    if type(action) in (CallUno, CatchUno):
        reason = Reason.NO_UNO_TO_CALL if type(action) is CallUno else Reason.NOTHING_TO_CATCH
        raise IllegalActionError(reason)
    if not state.playing[seat]:
        raise IllegalActionError(Reason.NOT_PLAYING, f"seat {seat} is not in the hand")
    jump_in = type(action) is Play and state.rules.jump_in and phase not in CHOICE_PHASES
    if seat != state.current and not jump_in:
        raise IllegalActionError(Reason.NOT_YOUR_TURN)
    if phase in CHOICE_PHASES:
        raise IllegalActionError(_choice_reason(state, seat, action), phase.value)
    if type(action) in (Swap, Give, Gift, NoGift):
        raise IllegalActionError(Reason.WRONG_PHASE, phase.value)
    game.check_classic(state, seat, action)  # raises the classic reason, if there is one
    if type(action) is Play and (state.alt or NO_ALT).quiet:
        raise IllegalActionError(Reason.ACTIONS_FORBIDDEN, str(action))
    raise IllegalActionError(Reason.WRONG_PHASE, phase.value)


def _choice_reason(state: GameState, seat: int, action: Action) -> Reason:
    """Why ``action`` is refused in one of these rules' phases."""
    phase = state.phase
    wanted = {
        PHASE_SWAP: (Swap,),
        PHASE_GIVE: (Give,),
        PHASE_GIFT: (Gift, NoGift),
        PHASE_CHAIN: (Play, Pass),
        PHASE_COLOUR_ROUND: (Play, Draw),
    }[phase]
    if type(action) not in wanted:
        return Reason.WRONG_PHASE
    target = getattr(action, "target", None)
    if target is not None and (
        not 0 <= target < state.seats or target == seat or not state.playing[target]
    ):
        return Reason.BAD_TARGET
    face = getattr(action, "face", None)
    if face is not None and not any(f == face for f in state.hand_faces(seat)):
        return Reason.CARD_NOT_IN_HAND
    if type(action) is Draw:
        return Reason.DRAW_NOT_ALLOWED  # a card of the colour is held: it must be put down
    if type(action) is Play and (action.colour is not None or action.target is not None):
        return Reason.COLOUR_NOT_ALLOWED if action.colour is not None else Reason.BAD_TARGET
    if type(action) is Play and face is not None and face.is_wild:
        return Reason.COLOUR_REQUIRED
    return Reason.DOES_NOT_MATCH


# -- transitions ---------------------------------------------------------------------------


def before(step: Step, ev: list[Event], state: GameState, seat: int, action: Action) -> bool:
    """Prepare ``action`` on the draft and perform it if it is one of these rules' actions;
    ``True`` when done (the classic transition then has nothing to do)."""
    alt = step.alt or NO_ALT
    if alt.windows:
        if isinstance(action, CallUno) and seat in alt.windows:
            ev.append(UnoCalled(seat, False))
            step.alt = replace(alt, windows=tuple(w for w in alt.windows if w != seat))
            return True
        if isinstance(action, CatchUno) and action.target in alt.windows:
            target = action.target
            ev.append(UnoCaught(seat, target, False))
            step.alt = replace(alt, windows=tuple(w for w in alt.windows if w != target))
            step.draw(ev, target, 2, CAUSE_UNO)
            return True
        if not isinstance(action, _NOT_A_TURN):
            close_windows(step, ev, seat)  # R-ALT-2: until the next turn begins
    phase = state.phase
    if isinstance(action, Swap):
        swap(step, ev, seat, action.target)
    elif isinstance(action, Give):
        give(step, ev, seat, action.face, action.target)
    elif isinstance(action, Gift | NoGift):
        gift(step, ev, seat, action)
    elif phase is PHASE_CHAIN:
        if isinstance(action, Play):
            chain_play(step, ev, seat, action)
        else:
            ev.append(Passed(seat))
            end_chain(step, seat)
    elif phase is PHASE_COLOUR_ROUND:
        if isinstance(action, Play):
            round_put_down(step, ev, seat, action.face)
        else:
            round_draw(step, ev, seat)
    else:
        return False
    return True


def after(step: Step, ev: list[Event], state: GameState, seat: int, action: Action) -> None:
    """Where a new turn has begun: count R-ALT-6's quiet turns and offer R-ALT-5's gift."""
    if step.phase is PHASE_HAND_OVER or step.alt is None:
        return
    if _turn_began(step, seat, action):
        quiet = (state.alt or NO_ALT).quiet
        step.alt = replace(step.alt, quiet=max(0, quiet - 1) if quiet else step.alt.quiet,
                           gift_checked=False)  # fmt: skip
        offer_gift(step)


def start(step: Step) -> None:
    """After the deal: the first turn begins (R-ALT-5)."""
    if step.alt is not None and step.phase is not PHASE_HAND_OVER:
        offer_gift(step)


def _turn_began(step: Step, seat: int, action: Action) -> bool:
    """Whether ``action`` ended a turn, so that a new one has begun (perhaps the same seat's,
    after a heads-up Skip)."""
    if isinstance(action, _NOT_A_TURN) or step.phase in _TURN_GOES_ON:
        return False
    if type(action) is Challenge:
        return step.current != seat  # guilty: the challenger's turn goes on
    return True


# -- a player leaves (R-TIME-2/3) -------------------------------------------------------------


def leave(step: Step, seat: int, was_current: bool) -> None:
    """``seat`` left the hand (its cards are gone, ``playing`` is false): what waited for
    it lapses, and the phases of these rules go on without it."""
    alt = step.alt or NO_ALT
    alt = replace(alt, windows=tuple(w for w in alt.windows if w != seat))
    step.alt = alt
    phase = step.phase
    if phase is PHASE_GIFT and seat in (alt.recipient, step.current):
        recipient = alt.recipient
        assert recipient is not None
        step.alt = replace(alt, recipient=None)
        step.phase = PHASE_PLAY
        # The giver left: the recipient plays; the recipient left: the turn passes on.
        step.current = recipient if step.playing[recipient] else step.next_seat(recipient)
    elif phase is PHASE_COLOUR_ROUND:
        step.alt = replace(alt, round=tuple(s for s in alt.round if s != seat))
        if was_current:
            round_advance(step)
    elif phase in CHOICE_PHASES and was_current:  # SWAP, GIVE, CHAIN: the choice lapses
        step.phase = PHASE_PLAY
        step.current = step.next_seat(seat)
    if was_current and step.phase is PHASE_PLAY:
        step.alt = replace(step.alt or NO_ALT, gift_checked=False)
        offer_gift(step)
