"""Legality: what each seat may do now, and why an action is refused.

:func:`legal_actions` lists the actions of any seat (not only the current one) in a stable
order; :func:`check` explains a refusal with a reason code. ``apply`` accepts exactly what
:func:`legal_actions` lists (a property test keeps the two in agreement). The rules read here
are R-TURN (what matches, drawing), R-ACT-6/7 (stacking, jump-in), R-CHAL-1, R-UNO-1/2/6 and
R-END-2; under the alternative rules (RULES.md §13) their phases and filters come from
:mod:`engine.variants`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import (
    ACTION_TYPES,
    CALL_UNO,
    CHALLENGE,
    CHOICE_ACTIONS,
    DRAW,
    PASS,
    Action,
    CallUno,
    CatchUno,
    ChooseColour,
    Draw,
    Pass,
    Play,
)
from .cards import CLASSIC_COLOURS, CardFace, Kind, matches
from .errors import IllegalActionError, InvalidActionError, Reason
from .hand import (
    ANSWERING,
    NO_ALT,
    Hand,
    Phase,
    finish_blocked,
    hand_complete,
    has_playable,
    nothing_to_draw,
)
from .rules import MAX_SEATS, Stacking, UnoPenalty
from .tables import SWAP_PLAYS, tables_for
from .variants import CHOICE_PHASES, choice_reason, quiet_only, with_windows

CATCHES = tuple(CatchUno(seat) for seat in range(MAX_SEATS))
_JUMP_IN_PHASES = (Phase.PLAY, Phase.PENALTY)


# -- shared predicates -------------------------------------------------------------------


def _matches(state: Hand, face: CardFace) -> bool:
    """R-TURN-1/2 on the state's top card and colour (:func:`engine.cards.matches`)."""
    return matches(face, state.deck.sides[state.side][state.discard[-1]], state.colour)


def _can_stack(state: Hand, face: CardFace) -> bool:
    """R-ACT-6: may this face answer the pending Draw Two / Wild Draw Four?"""
    stacking = state.rules.stacking
    if stacking is Stacking.OFF or hand_complete(state):
        return False
    top = state.top
    if face.kind is Kind.DRAW_TWO:
        if top.kind is Kind.DRAW_TWO:
            return True
        return top.kind is Kind.WILD_DRAW_FOUR and face.colour is state.colour
    return face.kind is Kind.WILD_DRAW_FOUR and stacking is Stacking.CUMULATIVE


def _jump_in_allowed(state: Hand, seat: int, face: CardFace) -> bool:
    """R-ACT-7: an identical card played out of turn."""
    if not state.rules.jump_in or state.phase not in _JUMP_IN_PHASES:
        return False
    top = state.top
    if top.is_wild or (face is not top and face != top):
        return False
    if state.phase is Phase.PENALTY and not _can_stack(state, face):
        return False
    return not finish_blocked(state, face, seat)


def _others(state: Hand, seat: int) -> list[int]:
    return [s for s in range(state.seats) if s != seat and state.playing[s]]


# -- legality ----------------------------------------------------------------------------


def _check_play_shape(state: Hand, seat: int, play: Play) -> None:
    face = play.face
    if not isinstance(face, CardFace):
        raise InvalidActionError("a play names a card face")
    if face.is_wild:
        if play.colour is None:
            raise IllegalActionError(Reason.COLOUR_REQUIRED, f"{face} needs a colour")
        if play.colour not in state.deck.colours[state.side]:
            raise IllegalActionError(Reason.COLOUR_NOT_ALLOWED, f"{play.colour} is not in play")
    elif play.colour is not None:
        raise IllegalActionError(Reason.COLOUR_NOT_ALLOWED, f"{face} has its own colour")
    if face.kind is Kind.SWAP_HANDS:
        if play.target is None:
            raise IllegalActionError(Reason.TARGET_REQUIRED, "Swap Hands names an opponent")
        if not (0 <= play.target < state.seats and play.target != seat):
            raise IllegalActionError(Reason.BAD_TARGET, f"seat {play.target}")
        if not state.playing[play.target]:
            raise IllegalActionError(Reason.BAD_TARGET, f"seat {play.target} is not playing")
    elif play.target is not None:
        raise IllegalActionError(Reason.BAD_TARGET, f"{face} names no opponent")
    faces = state.deck.sides[state.side]
    if not any(faces[c] is face or faces[c] == face for c in state.hands[seat]):
        raise IllegalActionError(Reason.CARD_NOT_IN_HAND, str(face))
    if finish_blocked(state, face, seat):
        raise IllegalActionError(Reason.NO_ACTION_FINISH, str(face))


def _uno_reason(state: Hand, seat: int, action: CallUno | CatchUno) -> Reason | None:
    """Why ``seat`` may not call or catch UNO now, or ``None`` when it may."""
    window = state.uno_seat
    if isinstance(action, CallUno):
        if window != seat or state.uno_called:
            return Reason.NO_UNO_TO_CALL
        if len(state.hands[seat]) != 1 and not state.rules.false_call_penalty:
            return Reason.NO_UNO_TO_CALL
        return None
    target = action.target
    if (
        state.rules.uno_penalty is UnoPenalty.AUTOMATIC  # the server punishes, nobody catches
        or window is None
        or target != window
        or seat == target
        or not state.playing[seat]
        or len(state.hands[target]) != 1
        or (state.uno_called and not state.rules.false_call_penalty)
    ):
        return Reason.NOTHING_TO_CATCH
    return None


def check(state: Hand, seat: int, action: Action) -> None:
    """Raise :class:`IllegalActionError` (with a reason) unless ``action`` is legal for ``seat``."""
    if not isinstance(action, ACTION_TYPES):
        raise InvalidActionError(f"not an action: {action!r}")
    if not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise IllegalActionError(Reason.NOT_PLAYING, f"no seat {seat!r}")
    if state.alt is None:
        check_classic(state, seat, action)
    elif action not in legal_actions(state, seat):
        raise _alternative_refusal(state, seat, action)


def check_classic(state: Hand, seat: int, action: Action) -> None:
    """:func:`check` for the actions and phases of the classic rules."""
    if state.phase is Phase.HAND_OVER:
        raise IllegalActionError(Reason.HAND_OVER)
    if isinstance(action, CHOICE_ACTIONS):
        raise IllegalActionError(Reason.WRONG_PHASE, state.phase.value)
    if isinstance(action, CallUno | CatchUno):
        reason = _uno_reason(state, seat, action)
        if reason is not None:
            raise IllegalActionError(reason)
        return
    if not state.playing[seat]:
        raise IllegalActionError(Reason.NOT_PLAYING, f"seat {seat} is not in the hand")
    phase = state.phase
    if seat != state.current:
        if isinstance(action, Play) and state.rules.jump_in:
            _check_play_shape(state, seat, action)
            if not _jump_in_allowed(state, seat, action.face):
                raise IllegalActionError(Reason.NO_JUMP_IN, str(action.face))
            return
        raise IllegalActionError(Reason.NOT_YOUR_TURN)
    if isinstance(action, Play):
        _check_play_shape(state, seat, action)
        face = action.face
        if phase is Phase.PLAY:
            if not _matches(state, face):
                raise IllegalActionError(Reason.DOES_NOT_MATCH, str(face))
        elif phase is Phase.DRAWN:
            assert state.drawn is not None
            if state.face(state.drawn) != face:
                raise IllegalActionError(Reason.MUST_PLAY_DRAWN_CARD, str(face))
            if not _matches(state, face):
                raise IllegalActionError(Reason.DOES_NOT_MATCH, str(face))
        elif phase in ANSWERING:
            if not _can_stack(state, face):
                raise IllegalActionError(Reason.CANNOT_STACK, str(face))
        else:
            raise IllegalActionError(Reason.WRONG_PHASE, phase.value)
    elif isinstance(action, Draw):
        if phase is Phase.PLAY:
            if state.rules.draw_only_if_stuck and has_playable(state, seat):
                raise IllegalActionError(Reason.DRAW_NOT_ALLOWED, "you hold a playable card")
            if nothing_to_draw(state) and has_playable(state, seat):
                # R-TURN-6: there is no card to draw, and the player can play.
                raise IllegalActionError(Reason.DRAW_NOT_ALLOWED, "nothing left to draw")
        elif phase not in ANSWERING:
            raise IllegalActionError(Reason.WRONG_PHASE, phase.value)
    elif isinstance(action, Pass):
        if phase is not Phase.DRAWN:
            reason = Reason.MUST_ANSWER_PENALTY if phase in ANSWERING else Reason.NOTHING_TO_PASS
            raise IllegalActionError(reason, phase.value)
    elif isinstance(action, ChooseColour):
        if phase is not Phase.CHOOSE_COLOUR:
            raise IllegalActionError(Reason.WRONG_PHASE, phase.value)
        if action.colour not in state.deck.colours[state.side]:
            raise IllegalActionError(Reason.COLOUR_NOT_ALLOWED, str(action.colour))
    elif phase is not Phase.CHALLENGE:  # Challenge
        raise IllegalActionError(Reason.NOTHING_TO_CHALLENGE)


def _swap_plays(state: Hand, seat: int, face: CardFace) -> list[Play]:
    return [Play(face, c, t) for c in CLASSIC_COLOURS for t in _others(state, seat)]


def _card_plays(state: Hand, seat: int, card: int) -> Sequence[Play]:
    """Every Play of ``card``'s face: one per colour of the side for wilds."""
    tables = tables_for(state.deck.sides[state.side])
    face = tables.faces[card]
    if face.kind is Kind.SWAP_HANDS:
        return _swap_plays(state, seat, face)
    return tables.plays[card]


def legal_actions(state: Hand, seat: int) -> tuple[Action, ...]:
    """Every legal action of ``seat`` (any seat, not only the current one), in stable order:
    the plays first (in card-id order, a wild once per colour), then the other turn actions
    (draw, pass, challenge, colour), then an UNO call or catch."""
    colour = state.colour
    if (
        seat == state.current
        and state.phase is Phase.PLAY
        and colour is not None
        and state.alt is None
    ):
        # The commonest question, answered here: what the current seat may play or draw.
        # The per-card rows of engine.tables hold R-TURN-1/2 (cards.matches) for each top
        # card and colour, and list each face's plays once, shared by its copies; they need
        # copies of a face on adjacent ids (every deck the engine builds has them) and no
        # R-END-2 check (a last card), else the general path below answers.
        hand = state.hands[seat]
        tables = tables_for(state.deck.sides[state.side])
        if tables.adjacent_copies and (len(hand) > 1 or not state.rules.no_action_finish):
            row = tables.plays_on(state.discard[-1], colour)
            actions: list[Action] = []
            last: tuple[Play, ...] = ()
            for card in hand:
                plays = row[card]
                if plays and plays is not last:  # the copies of a face share one tuple
                    last = plays
                    if plays is SWAP_PLAYS:
                        actions.extend(_swap_plays(state, seat, tables.faces[card]))
                    else:
                        actions += plays
            # R-TURN-4 (draw_only_if_stuck) and R-TURN-6: with nothing to draw, no draw.
            if not actions or not (
                state.rules.draw_only_if_stuck or (not state.draw_pile and len(state.discard) < 2)
            ):
                actions.append(DRAW)
            return with_uno(state, seat, actions)
    if state.phase is Phase.HAND_OVER or not 0 <= seat < state.seats:
        return ()
    if state.alt is not None:
        return _alternative_actions(state, seat)
    return with_uno(state, seat, turn_actions(state, seat))


def turn_actions(state: Hand, seat: int) -> list[Action]:
    """The legal actions of ``seat`` in a classic phase, UNO calls and catches left out."""
    phase = state.phase
    actions: list[Action] = []
    faces = state.deck.sides[state.side]
    hand = state.hands[seat]
    if seat == state.current:
        if phase is Phase.PLAY:  # (the common case is answered by legal_actions itself)
            single = len(hand) == 1 and state.rules.no_action_finish
            colour = state.colour
            top = faces[state.discard[-1]]
            listed: set[CardFace] = set()  # one entry per face, adjacent ids or not
            for card in hand:
                face = faces[card]
                if face in listed:
                    continue
                listed.add(face)
                if single and face.kind.is_action:
                    continue
                if matches(face, top, colour):
                    actions.extend(_card_plays(state, seat, card))
            if not actions or not (state.rules.draw_only_if_stuck or nothing_to_draw(state)):
                actions.append(DRAW)  # R-TURN-4, R-TURN-6
        elif phase is Phase.DRAWN:
            drawn = state.drawn
            assert drawn is not None
            face = faces[drawn]
            if matches(face, faces[state.discard[-1]], state.colour) and not (
                state.rules.no_action_finish and finish_blocked(state, face, seat)
            ):
                actions.extend(_card_plays(state, seat, drawn))
            actions.append(PASS)
        elif phase is Phase.CHOOSE_COLOUR:
            actions.extend(ChooseColour(c) for c in state.deck.colours[state.side])
        else:  # PENALTY or CHALLENGE
            previous = None
            if state.rules.stacking is not Stacking.OFF:  # else _can_stack() says no to all
                for card in hand:
                    face = faces[card]
                    if face is not previous:
                        previous = face
                        if _can_stack(state, face) and not finish_blocked(state, face, seat):
                            actions.extend(_card_plays(state, seat, card))
            actions.append(DRAW)
            if phase is Phase.CHALLENGE:
                actions.append(CHALLENGE)
    elif state.rules.jump_in and state.playing[seat] and phase in _JUMP_IN_PHASES:
        top = state.top
        holds_top = any(faces[c] is top for c in hand)
        if holds_top and not top.is_wild and _jump_in_allowed(state, seat, top):
            actions.extend(_card_plays(state, seat, state.discard[-1]))
    return actions


def with_uno(state: Hand, seat: int, actions: list[Action]) -> tuple[Action, ...]:
    """``actions`` and the UNO call or catch open to ``seat``, as a tuple."""
    window = state.uno_seat
    if window is not None:
        # The window seat may call; the others may catch (the common case, inlined: this
        # runs on nearly every state, since every play opens a window).
        if seat == window:
            if _uno_reason(state, seat, CALL_UNO) is None:
                actions.append(CALL_UNO)
        elif len(state.hands[window]) == 1:
            catch = CATCHES[window]
            if _uno_reason(state, seat, catch) is None:
                actions.append(catch)
    return tuple(actions)


def uno_windows(state: Hand) -> tuple[int, ...]:
    """The seats that may call UNO now and have not (R-UNO-1): the one that just played,
    then those an exchange left with one card (R-ALT-2)."""
    seats = () if state.uno_seat is None or state.uno_called else (state.uno_seat,)
    return seats + state.alt.windows if state.alt is not None else seats


# -- under the alternative rules (RULES.md §13) ------------------------------------------------


def _alternative_actions(state: Hand, seat: int) -> tuple[Action, ...]:
    """:func:`legal_actions` for a hand under the alternative rules: the actions of their
    phases, or the classic ones (R-ALT-6's quiet turns: number cards only), and the UNO
    calls and catches of the windows an exchange opened."""
    alt = state.alt or NO_ALT
    actions: list[Action]
    choice = CHOICE_PHASES.get(state.phase)
    if choice is not None:
        actions = choice.actions(state, seat) if seat == state.current else []
    else:
        actions = turn_actions(state, seat)
        if alt.quiet:
            actions = quiet_only(state, seat, actions)
    uno = with_uno(state, seat, actions)
    return with_windows(state, seat, uno) if alt.windows else uno


def _alternative_refusal(state: Hand, seat: int, action: Action) -> IllegalActionError:
    """Why an action :func:`legal_actions` does not list is refused under the alternative
    rules: the classic reason, or one of these rules'."""
    phase = state.phase
    if phase is Phase.HAND_OVER:
        return IllegalActionError(Reason.HAND_OVER)
    if type(action) in (CallUno, CatchUno):
        reason = Reason.NO_UNO_TO_CALL if type(action) is CallUno else Reason.NOTHING_TO_CATCH
        return IllegalActionError(reason)
    if not state.playing[seat]:
        return IllegalActionError(Reason.NOT_PLAYING, f"seat {seat} is not in the hand")
    jump_in = type(action) is Play and state.rules.jump_in and phase not in CHOICE_PHASES
    if seat != state.current and not jump_in:
        return IllegalActionError(Reason.NOT_YOUR_TURN)
    if phase in CHOICE_PHASES:
        return IllegalActionError(choice_reason(state, seat, action), phase.value)
    if isinstance(action, CHOICE_ACTIONS):
        return IllegalActionError(Reason.WRONG_PHASE, phase.value)
    try:
        check_classic(state, seat, action)  # the classic reason, if there is one
    except IllegalActionError as classic:
        return classic
    if type(action) is Play and (state.alt or NO_ALT).quiet:
        return IllegalActionError(Reason.ACTIONS_FORBIDDEN, str(action))
    return IllegalActionError(Reason.WRONG_PHASE, phase.value)
