"""The rules of one hand: dealing (R-SETUP), turns (R-TURN), actions (R-ACT), challenges
(R-CHAL), UNO (R-UNO) and the end of a hand (R-END).

:func:`check` says whether an action is legal (raising with a reason code if not),
:func:`legal_actions` lists them for any seat, and :func:`apply` performs one on a draft
of the next state (:mod:`engine.step`, which holds the mechanics) and freezes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import rng
from .actions import (
    ACTION_TYPES,
    CALL_UNO,
    CHALLENGE,
    CHOICES,
    DRAW,
    PASS,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Pass,
    Play,
    parse_action,
)
from .cards import CLASSIC_COLOURS, CardFace, Deck, matches
from .errors import EngineError, IllegalActionError, InvalidActionError, Reason
from .events import (
    CardsDealt,
    ColourChosen,
    Event,
    HandStarted,
    Passed,
    PlayerLeft,
    StartCardReturned,
    TurnSkipped,
)
from .members import (
    CAUSE_PENALTY,
    END_ABANDONED,
    END_TIME_LIMIT,
    END_WENT_OUT,
    KIND_DRAW_ONE,
    KIND_DRAW_TWO,
    KIND_FLIP,
    KIND_REVERSE,
    KIND_SKIP,
    KIND_SWAP_HANDS,
    KIND_WILD_DRAW_FOUR,
    KIND_WILD_DRAW_TWO,
    PHASE_CHALLENGE,
    PHASE_CHOOSE_COLOUR,
    PHASE_DRAWN,
    PHASE_HAND_OVER,
    PHASE_PENALTY,
    PHASE_PLAY,
    SKIP_VARIANT_OFF,
    STACKING_CUMULATIVE,
    STACKING_OFF,
    UNO_PENALTY_AUTOMATIC,
)
from .rules import MAX_SEATS, Rules, TimeLimitWinner
from .state import GameState, Transition
from .step import (
    ANSWERING,
    Step,
    draft,
    finish_blocked,
    freeze,
    hand_complete,
    has_playable,
    nothing_to_draw,
    replaced,
)
from .tables import SWAP_PLAYS, tables_for

CATCHES = tuple(CatchUno(seat) for seat in range(MAX_SEATS))
_JUMP_IN_PHASES = (PHASE_PLAY, PHASE_PENALTY)


# -- shared predicates -------------------------------------------------------------------


def _matches(state: GameState, face: CardFace) -> bool:
    """R-TURN-1/2 on the state's top card and colour (:func:`engine.cards.matches`)."""
    return matches(face, state.deck.sides[state.side][state.discard[-1]], state.colour)


def _can_stack(state: GameState, face: CardFace) -> bool:
    """R-ACT-6: may this face answer the pending Draw Two / Wild Draw Four?"""
    stacking = state.rules.stacking
    if stacking is STACKING_OFF or hand_complete(state):
        return False
    top = state.top
    if face.kind is KIND_DRAW_TWO:
        if top.kind is KIND_DRAW_TWO:
            return True
        return top.kind is KIND_WILD_DRAW_FOUR and face.colour is state.colour
    return face.kind is KIND_WILD_DRAW_FOUR and stacking is STACKING_CUMULATIVE


def _jump_in_allowed(state: GameState, seat: int, face: CardFace) -> bool:
    """R-ACT-7: an identical card played out of turn."""
    if not state.rules.jump_in or state.phase not in _JUMP_IN_PHASES:
        return False
    top = state.top
    if top.is_wild or (face is not top and face != top):
        return False
    if state.phase is PHASE_PENALTY and not _can_stack(state, face):
        return False
    return not finish_blocked(state, face, seat)


def _others(state: GameState, seat: int) -> list[int]:
    return [s for s in range(state.seats) if s != seat and state.playing[s]]


# -- legality ----------------------------------------------------------------------------


def _check_play_shape(state: GameState, seat: int, play: Play) -> None:
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
    if face.kind is KIND_SWAP_HANDS:
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


def _uno_reason(state: GameState, seat: int, action: CallUno | CatchUno) -> Reason | None:
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
        state.rules.uno_penalty is UNO_PENALTY_AUTOMATIC  # the server punishes, nobody catches
        or window is None
        or target != window
        or seat == target
        or not state.playing[seat]
        or len(state.hands[target]) != 1
        or (state.uno_called and not state.rules.false_call_penalty)
    ):
        return Reason.NOTHING_TO_CATCH
    return None


def check(state: GameState, seat: int, action: Action) -> None:
    """Raise :class:`IllegalActionError` (with a reason) unless ``action`` is legal for ``seat``."""
    if not isinstance(action, ACTION_TYPES):
        raise InvalidActionError(f"not an action: {action!r}")
    if not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise IllegalActionError(Reason.NOT_PLAYING, f"no seat {seat!r}")
    if state.alt is not None:
        _variants.check(state, seat, action)
        return
    check_classic(state, seat, action)


def check_classic(state: GameState, seat: int, action: Action) -> None:
    """:func:`check` for the actions and phases of the classic rules."""
    if state.phase is PHASE_HAND_OVER:
        raise IllegalActionError(Reason.HAND_OVER)
    if isinstance(action, CHOICES):
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
        if phase is PHASE_PLAY:
            if not _matches(state, face):
                raise IllegalActionError(Reason.DOES_NOT_MATCH, str(face))
        elif phase is PHASE_DRAWN:
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
        if phase is PHASE_PLAY:
            if state.rules.draw_only_if_stuck and has_playable(state, seat):
                raise IllegalActionError(Reason.DRAW_NOT_ALLOWED, "you hold a playable card")
            if nothing_to_draw(state) and has_playable(state, seat):
                # R-TURN-6: there is no card to draw, and the player can play.
                raise IllegalActionError(Reason.DRAW_NOT_ALLOWED, "nothing left to draw")
        elif phase not in ANSWERING:
            raise IllegalActionError(Reason.WRONG_PHASE, phase.value)
    elif isinstance(action, Pass):
        if phase is not PHASE_DRAWN:
            reason = Reason.MUST_ANSWER_PENALTY if phase in ANSWERING else Reason.NOTHING_TO_PASS
            raise IllegalActionError(reason, phase.value)
    elif isinstance(action, ChooseColour):
        if phase is not PHASE_CHOOSE_COLOUR:
            raise IllegalActionError(Reason.WRONG_PHASE, phase.value)
        if action.colour not in state.deck.colours[state.side]:
            raise IllegalActionError(Reason.COLOUR_NOT_ALLOWED, str(action.colour))
    elif phase is not PHASE_CHALLENGE:  # Challenge
        raise IllegalActionError(Reason.NOTHING_TO_CHALLENGE)


def _swap_plays(state: GameState, seat: int, face: CardFace) -> list[Play]:
    return [Play(face, c, t) for c in CLASSIC_COLOURS for t in _others(state, seat)]


def _card_plays(state: GameState, seat: int, card: int) -> Sequence[Play]:
    """Every Play of ``card``'s face: one per colour of the side for wilds."""
    tables = tables_for(state.deck.sides[state.side])
    face = tables.faces[card]
    if face.kind is KIND_SWAP_HANDS:
        return _swap_plays(state, seat, face)
    return tables.plays[card]


def legal_actions(state: GameState, seat: int) -> tuple[Action, ...]:
    """Every legal action of ``seat`` (any seat, not only the current one), in stable order:
    the plays first (in card-id order, a wild once per colour), then the other turn actions
    (draw, pass, challenge, colour), then an UNO call or catch."""
    cached = state.legal_cache
    if cached is not None and cached[0] == seat:
        return cached[1]
    colour = state.colour
    if (
        seat == state.current
        and state.phase is PHASE_PLAY
        and colour is not None
        and state.alt is None
    ):
        # The commonest question, answered here: what the current seat may play or draw.
        # The per-card rows of engine.tables hold R-TURN-1/2 (cards.matches) for each top
        # card and colour, and list each face's plays once, shared by its copies; they need
        # copies of a face on adjacent ids (every deck the engine builds has them) and no
        # R-END-2 check (a last card), else _legal_actions() answers.
        hand = state.hands[seat]
        tables = tables_for(state.deck.sides[state.side])
        if tables.adjacent_copies and (len(hand) > 1 or not state.rules.no_action_finish):
            top = state.discard[-1]
            rows = tables.rows[top] or tables.rows_on(top)  # tables.plays_on(), inlined
            row = rows[tables.colours.index(colour)]
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
            window = state.uno_seat
            # with_uno() adds nothing unless the window is this seat's or the seat that
            # opened it holds one card (the test it starts with, inlined).
            if window is None or (window != seat and len(state.hands[window]) != 1):
                result = tuple(actions)
            else:
                result = with_uno(state, seat, actions)
            _set_legal_cache(state, (seat, result))
            return result
    result = _legal_actions(state, seat)
    _set_legal_cache(state, (seat, result))
    return result


# The slot's own setter: the frozen dataclass's __setattr__ refuses, object's looks it up.
_set_legal_cache = GameState.__dict__["legal_cache"].__set__


def _legal_actions(state: GameState, seat: int) -> tuple[Action, ...]:
    if state.alt is not None:
        return _variants.legal_actions(state, seat)
    if state.phase is PHASE_HAND_OVER or not 0 <= seat < state.seats:
        return ()
    return with_uno(state, seat, turn_actions(state, seat))


def turn_actions(state: GameState, seat: int) -> list[Action]:
    """The legal actions of ``seat`` in a classic phase, UNO calls and catches left out."""
    phase = state.phase
    actions: list[Action] = []
    faces = state.deck.sides[state.side]
    hand = state.hands[seat]
    if seat == state.current:
        if phase is PHASE_PLAY:  # (the common case is answered by legal_actions itself)
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
        elif phase is PHASE_DRAWN:
            drawn = state.drawn
            assert drawn is not None
            face = faces[drawn]
            if matches(face, faces[state.discard[-1]], state.colour) and not (
                state.rules.no_action_finish and finish_blocked(state, face, seat)
            ):
                actions.extend(_card_plays(state, seat, drawn))
            actions.append(PASS)
        elif phase is PHASE_CHOOSE_COLOUR:
            actions.extend(ChooseColour(c) for c in state.deck.colours[state.side])
        else:  # PENALTY or CHALLENGE
            previous = None
            if state.rules.stacking is not STACKING_OFF:  # else _can_stack() says no to all
                for card in hand:
                    face = faces[card]
                    if face is not previous:
                        previous = face
                        if _can_stack(state, face) and not finish_blocked(state, face, seat):
                            actions.extend(_card_plays(state, seat, card))
            actions.append(DRAW)
            if phase is PHASE_CHALLENGE:
                actions.append(CHALLENGE)
    elif state.rules.jump_in and state.playing[seat] and phase in _JUMP_IN_PHASES:
        top = state.top
        holds_top = any(faces[c] is top for c in hand)
        if holds_top and not top.is_wild and _jump_in_allowed(state, seat, top):
            actions.extend(_card_plays(state, seat, state.discard[-1]))
    return actions


def with_uno(state: GameState, seat: int, actions: list[Action]) -> tuple[Action, ...]:
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


def uno_windows(state: GameState) -> tuple[int, ...]:
    """The seats that may call UNO now and have not (R-UNO-1): the one that just played,
    then those an exchange left with one card (R-ALT-2)."""
    seats = () if state.uno_seat is None or state.uno_called else (state.uno_seat,)
    return seats + state.alt.windows if state.alt is not None else seats


# -- the transition ----------------------------------------------------------------------


def apply(state: GameState, seat: int, action: Action | str) -> Transition:
    """Validate ``action`` for ``seat`` and return the new state with its events."""
    if isinstance(action, str):
        action = parse_action(action)
    cached = state.legal_cache  # legal_actions(), inlined: the policy just asked it
    legal = cached[1] if cached is not None and cached[0] == seat else legal_actions(state, seat)
    for candidate in legal:
        if candidate is action:  # an action legal_actions() handed out: found by identity
            break
    else:
        if action not in legal:  # compares by value: an equal action built elsewhere passes
            check(state, seat, action)  # raises with the precise reason
            raise EngineError(f"internal: {action} passed check() but is not a legal action")
    step = draft(state)
    ev: list[Event] = []
    alt = state.alt
    if alt is not None and _variants.before(step, ev, state, seat, action):
        _variants.after(step, ev, state, seat, action)  # the action was one of theirs
        return freeze(step, ev)
    if isinstance(action, Play):
        jump_in = seat != state.current
        if jump_in:
            step.current = seat
        step.play(ev, seat, action, jump_in)
    elif isinstance(action, Draw):
        if state.phase is PHASE_PLAY:
            step.draw_turn(ev, seat)
        else:
            step.take_penalty(ev, seat)
    elif isinstance(action, Pass):
        step.close_uno_window(ev, seat)
        ev.append(Passed(seat))
        step.phase = PHASE_PLAY
        step.drawn = None
        step.current = step.next_seat(seat)
    elif isinstance(action, ChooseColour):
        step.colour = action.colour
        step.phase = PHASE_PLAY
        ev.append(ColourChosen(seat, action.colour))
    elif isinstance(action, Challenge):
        step.challenge(ev, seat)
    elif isinstance(action, CallUno):
        step.call_uno(ev, seat)
    else:
        assert isinstance(action, CatchUno)
        step.catch_uno(ev, seat, action.target)
    if alt is not None:
        _variants.after(step, ev, state, seat, action)
    step.version += 1  # freeze(), inlined
    step.__class__ = GameState  # type: ignore[assignment]
    return _new_tuple(Transition, (step, tuple(ev)))


_new_tuple = tuple.__new__


# A policy calls GameState.legal_actions and .apply on every step: make them these very
# functions, one call fewer than the forwarding methods (which stay as their documentation).
for _method in (legal_actions, apply):
    setattr(GameState, _method.__name__, _method)


def remove_seat(state: GameState, seat: int) -> Transition:
    """A player leaves the hand (R-TIME-2/3): their cards go under the draw pile.

    If it was their turn, the turn passes and whatever they were answering (a penalty, a
    challenge, a drawn card) lapses; a Wild Draw Four they played can no longer be
    challenged and its penalty lapses too. With one player left the hand ends, abandoned.
    """
    if state.is_over:
        raise IllegalActionError(Reason.HAND_OVER)
    if not 0 <= seat < state.seats or not state.playing[seat]:
        raise IllegalActionError(Reason.NOT_PLAYING, f"seat {seat} is not in the hand")
    step = draft(state)
    ev: list[Event] = []
    cards = step.hands[seat]
    step.hands = replaced(step.hands, seat, ())
    step.draw_pile = cards[::-1] + step.draw_pile  # the bottom of the pile is its start
    step.playing = replaced(step.playing, seat, False)
    ev.append(PlayerLeft(seat, len(cards)))
    if step.uno_seat == seat:
        step.uno_seat = None
        step.uno_called = False
    answering_them = step.offender == seat
    was_current = seat == step.current
    choosing = step.alt is not None and step.phase in _variants.CHOICE_PHASES
    if not choosing and (was_current or answering_them):
        if was_current:
            step.current = step.next_seat(seat)
        if step.phase is not PHASE_CHOOSE_COLOUR:
            step.phase = PHASE_PLAY
        step.pending = 0
        step.offender = step.prior_colour = step.drawn = None
        step.evidence = ()
    if step.alt is not None:
        _variants.leave(step, seat, was_current)  # R-ALT: what waited for the seat
    if sum(step.playing) <= 1 or hand_complete(step):
        ending = END_ABANDONED if sum(step.playing) <= 1 else END_WENT_OUT
        step.finish(ev, ending)
    return freeze(step, ev)


def end_by_time(state: GameState) -> Transition:
    """R-ALT-1: the match time ran out during this hand, which ends at once. The player
    with the fewest cards wins it (``time_limit_winner = fewest_points``: the fewest points
    in hand); ties go to fewer points (fewer cards), then the player who drew last loses,
    then the lower seat (R-SCORE-6 has a tie-break hand, which a match out of time cannot
    play). Those who went out already (R-END-3) rank first."""
    if state.is_over:
        raise IllegalActionError(Reason.HAND_OVER)
    step = draft(state)
    ev: list[Event] = []
    by_cards = state.rules.time_limit_winner is TimeLimitWinner.FEWEST_CARDS
    step.finish(ev, END_TIME_LIMIT, by_cards=by_cards)
    return freeze(step, ev)


# -- dealing -----------------------------------------------------------------------------


def new_hand(
    rules: Rules,
    seats: int,
    *,
    dealer: int,
    seed: int,
    order: Sequence[int] | None = None,
    playing: Sequence[bool] | None = None,
) -> Transition:
    """Shuffle, deal and turn up the start card (R-SETUP-3/4/5).

    ``order`` stacks the deck (card ids, top first) instead of shuffling; ``playing`` leaves
    seats out of the hand (eliminated players). The start card's effect is applied as if the
    dealer had played it.
    """
    _check_seats(rules, seats)
    in_hand = list(playing) if playing is not None else [True] * seats
    if len(in_hand) != seats or sum(in_hand) < 2 or not in_hand[dealer]:
        raise EngineError("the dealer and at least two seats must play")
    deck = rules.deck()
    if rules.hand_size * sum(in_hand) >= deck.size:
        raise EngineError(f"the {deck.size} cards cannot deal {sum(in_hand)} hands")
    shuffles = 0
    if order is None:
        pile = rng.shuffled(range(deck.size), seed=seed, counter=0)
        shuffles = 1
    else:
        pile = list(order)
        if sorted(pile) != list(range(deck.size)):
            raise EngineError("a stacked deck must hold every card of the deck exactly once")
    # One card at a time to each seat in turn from the top (``pile`` lists it top first):
    # seat_order[j] gets cards j, j + m, j + 2m, ... of the dealt block.
    seat_order = _deal_order(seats, dealer, rules.clockwise, in_hand)
    m = len(seat_order)
    dealt = rules.hand_size * m
    hands: list[tuple[int, ...]] = [()] * seats
    for j, seat in enumerate(seat_order):
        hands[seat] = tuple(sorted(pile[j:dealt:m]))
    step = _blank_step(rules, seats, seed, dealer, deck)
    step.shuffles = shuffles
    step.draw_pile = tuple(reversed(pile[dealt:]))  # the top of the pile is its end
    step.hands = tuple(hands)
    step.playing = tuple(in_hand)
    ev: list[Event] = [CardsDealt(s, hands[s]) for s in seat_order]
    _turn_start_card(step, ev)
    return freeze(step, ev)


def _check_seats(rules: Rules, seats: int) -> None:
    """R-SETUP-1, R-ALT-8: 2 to 10 seats, up to 20 when the rules allow them."""
    if not 2 <= seats <= rules.max_players:
        raise EngineError(f"a hand needs 2 to {rules.max_players} seats (R-SETUP-1, R-ALT-8)")


def _blank_step(rules: Rules, seats: int, seed: int, dealer: int, deck: Deck) -> Step:
    """A draft of a hand before the deal: empty piles, the dealer to move, every other field
    at its default (copied from a template state; ``GameState.__init__`` costs more)."""
    step = draft(_TEMPLATE)
    step.rules = rules
    step.seats = seats
    step.seed = seed
    step.dealer = dealer
    step.current = dealer
    step.clockwise = rules.clockwise
    step.deck = deck
    step.alt = _variants.initial(rules)
    step.version = -1  # freeze() makes it 0
    return step


_TEMPLATE = GameState(
    Rules(),
    2,
    0,
    0,
    0,
    (),
    (),
    ((), ()),
    (True, True),
    (),
    0,
    True,
    None,
    PHASE_PLAY,
    deck=Rules().deck(),
)


def _deal_order(seats: int, dealer: int, clockwise: bool, playing: list[bool]) -> list[int]:
    step = 1 if clockwise else -1
    order = [(dealer + step * i) % seats for i in range(1, seats + 1)]
    return [s for s in order if playing[s]]


def _turn_start_card(step: Step, ev: list[Event]) -> None:
    """R-SETUP-5: the start card takes effect as if the dealer had played it."""
    faces = step.faces
    while True:
        card = step.draw_pile[-1]
        step.draw_pile = step.draw_pile[:-1]
        face = faces[card]
        if face.kind is not KIND_WILD_DRAW_FOUR and face.kind is not KIND_WILD_DRAW_TWO:
            break
        # Put it back, reshuffle and turn another (R-SETUP-5, R-FLIP-3).
        ev.append(StartCardReturned(face))
        cards = rng.shuffled((*step.draw_pile, card), seed=step.seed, counter=step.shuffles)
        step.shuffles += 1
        step.draw_pile = tuple(cards)
    step.discard = (card,)
    dealer = step.dealer
    first = step.next_seat(dealer)
    step.current = first
    step.colour = face.colour
    extra: list[Event] = []
    kind = face.kind
    if face.is_wild:  # Wild (and Swap Hands, which swaps nothing here): first names a colour
        step.phase = PHASE_CHOOSE_COLOUR
    elif kind is KIND_REVERSE:  # the dealer plays first, the other way round
        step.clockwise = not step.clockwise
        step.current = dealer
    elif kind is KIND_SKIP:
        if step.alt is not None and step.rules.skip_variant is not SKIP_VARIANT_OFF:
            _spells.start_skip(step, extra, first)  # R-ALT-4
        else:
            extra.append(TurnSkipped(first))
            step.current = step.next_seat(first)
    elif kind is KIND_DRAW_TWO or kind is KIND_DRAW_ONE:
        step.draw(extra, first, kind.draw_amount, CAUSE_PENALTY)
        extra.append(TurnSkipped(first))
        step.current = step.next_seat(first)
    elif kind is KIND_FLIP:
        # R-FLIP-4 as if the dealer played it: play starts on the dark side, on this card's
        # dark face. That face has no effect (it was not played); a wild one lets the first
        # player name the colour, like a start Wild.
        step.flip(extra)
    ev.append(HandStarted(dealer, step.current, face, step.clockwise))
    ev.extend(extra)
    if step.alt is not None:
        _variants.start(step)


def faces_to_cards(
    rules: Rules, faces: Sequence[Sequence[str]], *, taken: set[int] | None = None
) -> list[list[int]]:
    """Map lists of face notations to physical card ids, lowest unused id first.

    With UNO Flip a dark face names a card by its dark side (``P7``, ``WC``); faces printed
    on both sides (``W``) name the light side. Raises :class:`EngineError` if the deck has
    fewer copies of a face than asked for.
    """
    deck = rules.deck()
    used = taken if taken is not None else set()
    free: dict[CardFace, list[int]] = {}
    light = set(deck.sides[0])
    for side, side_faces in enumerate(deck.sides):
        for card in range(deck.size - 1, -1, -1):
            face = side_faces[card]
            if card not in used and not (side and face in light):
                free.setdefault(face, []).append(card)
    result: list[list[int]] = []
    for group in faces:
        ids: list[int] = []
        for text in group:
            try:
                face = CardFace.parse(text)
            except ValueError as exc:
                raise EngineError(str(exc)) from None
            stock = free.get(face)
            while stock and stock[-1] in used:  # taken by its other face already
                stock.pop()
            if not stock:
                raise EngineError(f"the {deck.name} deck has no more {face} cards")
            card = stock.pop()
            used.add(card)
            ids.append(card)
        result.append(ids)
    return result


def deal(
    rules: Rules,
    hands: Sequence[Sequence[str]],
    start: str,
    draw: Sequence[str] = (),
    *,
    dealer: int = 0,
    seed: int = 0,
    playing: Sequence[bool] | None = None,
) -> Transition:
    """A stacked deal (our FEN): exact hands, start card and top of the draw pile.

    ``hands`` lists each seat's faces (sizes may differ; an empty list leaves a seat out of
    the hand), ``start`` is the card turned up, ``draw`` the draw pile from the top. The rest
    of the deck goes below ``draw`` in seeded random order. The start card then takes effect
    exactly as after a real deal (R-SETUP-5).

    >>> t = deal(Rules(), [["R1", "R2"], ["B3"]], "R5", ["G7"])
    >>> t.state.current, t.state.top, t.state.face(t.state.draw_pile[-1])
    (1, CardFace.parse('R5'), CardFace.parse('G7'))
    """
    seats = len(hands)
    _check_seats(rules, seats)
    in_hand = list(playing) if playing is not None else [bool(h) for h in hands]
    if sum(in_hand) < 2 or not 0 <= dealer < seats:
        raise EngineError("at least two seats must hold cards, and the dealer must be a seat")
    if any(bool(h) != p for h, p in zip(hands, in_hand, strict=True)):
        raise EngineError("exactly the seats in the hand hold cards")
    groups = faces_to_cards(rules, [*hands, [start], draw])
    dealt, top, pile_top = groups[:seats], groups[seats][0], groups[seats + 1]
    deck = rules.deck()
    used = {c for g in groups for c in g}
    rest = rng.shuffled([c for c in range(deck.size) if c not in used], seed=seed, counter=0)
    # Top of the pile last: the start card, then the stacked draw list, then the rest.
    pile = (*rest, *reversed(pile_top), top)
    state = GameState(
        rules,
        seats,
        seed,
        1,
        dealer,
        pile,
        (),
        tuple(tuple(sorted(h)) for h in dealt),
        tuple(in_hand),
        (),
        dealer,
        rules.clockwise,
        None,
        PHASE_PLAY,
        deck=deck,
        version=-1,
        alt=_variants.initial(rules),
    )
    step = draft(state)
    ev: list[Event] = [CardsDealt(s, step.hands[s]) for s in range(seats) if in_hand[s]]
    _turn_start_card(step, ev)
    return freeze(step, ev)


# Imported last: the alternative rules build on this module's legality (see engine.variants).
from . import spells as _spells  # noqa: E402
from . import variants as _variants  # noqa: E402
