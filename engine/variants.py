"""The alternative rules of RULES.md §13 inside a hand: R-ALT-2 … R-ALT-6 and R-DECK-5.

A hand under such rules (:attr:`engine.rules.Rules.alternative`) carries an
:class:`~engine.state.AltState`; the classic code of :mod:`engine.game` and
:mod:`engine.step` asks ``state.alt is None`` once and hands everything else over here:

- :func:`legal_actions` and :func:`check` for every seat and phase (the classic phases
  through :func:`engine.game.turn_actions`, filtered by R-ALT-6's ``no_actions``);
- :func:`before` performs the actions and phases of these rules (swap, give, gift, a chain,
  a colour round) and closes the UNO windows an exchange opened; :func:`after` marks where
  a turn begins (R-ALT-5's gift is offered there, R-ALT-6's quiet turns are counted there);
- :func:`number_played`, :func:`skip_played` and :func:`blank_played` are the effects that
  :meth:`engine.step.Step.play` calls for a 0 or 7, a Skip and a blank card.

``current`` is always the seat the hand waits for, in these phases too (a partner choosing
a gift, the next player of a colour round), so whoever times turns times them unchanged.
Our readings of the rules are in docs/engine.md ("The alternative rules").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from . import events, game, rng
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
from .cards import CardFace, matches
from .construct import builder
from .errors import IllegalActionError, Reason
from .events import Event, GiveCause
from .members import (
    CAUSE_EFFECT,
    CAUSE_PENALTY,
    CAUSE_UNO,
    END_WENT_OUT,
    KIND_DRAW_TWO,
    KIND_NUMBER,
    KIND_REVERSE,
    KIND_SKIP,
    KIND_SWAP_HANDS,
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
from .rules import BlankEffect, Rules, SkipVariant, ZeroSpell
from .state import NO_ALT, AltState, GameState
from .step import Step, finish_blocked, hand_complete, has_playable, replaced
from .tables import tables_for

CardsDrawn = builder(events.CardsDrawn)
CardsGiven = builder(events.CardsGiven)
CardsPutDown = builder(events.CardsPutDown)
CardPlayed = builder(events.CardPlayed)
GivenCards = builder(events.GivenCards)
HandsRedealt = builder(events.HandsRedealt)
HandsRotated = builder(events.HandsRotated)
HandsSwapped = builder(events.HandsSwapped)
Passed = builder(events.Passed)
PlayerWentOut = builder(events.PlayerWentOut)
TurnSkipped = builder(events.TurnSkipped)
UnoCalled = builder(events.UnoCalled)
UnoCaught = builder(events.UnoCaught)
UnoPenalised = builder(events.UnoPenalised)

#: The phases of these rules; the classic phases keep their classic legality.
CHOICE_PHASES = frozenset({PHASE_SWAP, PHASE_GIVE, PHASE_GIFT, PHASE_CHAIN, PHASE_COLOUR_ROUND})
#: Phases in which the turn that began goes on (no new turn has begun after the action).
_TURN_GOES_ON = frozenset({PHASE_DRAWN, PHASE_SWAP, PHASE_GIVE, PHASE_CHAIN, PHASE_HAND_OVER})
#: Actions that never begin a turn: UNO calls and catches, a gift, a colour named.
_NOT_A_TURN = (CallUno, CatchUno, Gift, NoGift, ChooseColour)
#: R-ALT-6 ``action_dump``: what source 000 calls "Jolly" (Skip, Reverse, Draw Two).
_DUMPED = frozenset({KIND_SKIP, KIND_REVERSE, KIND_DRAW_TWO})
#: Cards of a turn that R-ALT-6 ``no_actions`` still allows: numbers only.
_QUIET_KINDS = frozenset({KIND_NUMBER})


def initial(rules: Rules) -> AltState | None:
    """The state a new hand starts with under ``rules`` (``None`` for classic rules)."""
    return NO_ALT if rules.alternative else None


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


def _faces_once(state: GameState | Step, seat: int) -> list[tuple[int, CardFace]]:
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
        return [Give(face, t) for _, face in _faces_once(state, seat) for t in targets]
    if phase is PHASE_GIFT:
        return [*(Gift(face) for _, face in _faces_once(state, seat)), NO_GIFT]
    if phase is PHASE_CHAIN:
        return [*_chain_plays(state, seat), PASS]
    # PHASE_COLOUR_ROUND: a card of the colour called, or draw until one comes.
    colour = state.colour
    tables = tables_for(state.deck.sides[state.side])
    plays: list[Action] = [p for card, face in _faces_once(state, seat) if face.colour is colour
                           for p in tables.plays[card]]  # fmt: skip
    return plays or [DRAW]


def _chain_plays(state: GameState | Step, seat: int) -> list[Play]:
    """R-ALT-6 ``chain``: the cards ``seat`` may play on the top card (R-TURN-1/2, R-END-2),
    put down without effects: a wild names a colour, a Swap Hands no opponent."""
    faces = state.deck.sides[state.side]
    top = faces[state.discard[-1]]
    tables = tables_for(faces)
    plays: list[Play] = []
    for card, face in _faces_once(state, seat):
        if matches(face, top, state.colour) and not finish_blocked(state, face, seat):
            if face.kind is KIND_SWAP_HANDS:
                plays.extend(Play(face, c) for c in tables.colours)
            else:
                plays.extend(tables.plays[card])
    return plays


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
            _close_windows(step, ev, seat)  # R-ALT-2: until the next turn begins
    phase = state.phase
    if isinstance(action, Swap):
        _swap(step, ev, seat, action.target)
    elif isinstance(action, Give):
        _give(step, ev, seat, action.face, action.target)
    elif isinstance(action, Gift | NoGift):
        _gift(step, ev, seat, action)
    elif phase is PHASE_CHAIN:
        if isinstance(action, Play):
            _chain_play(step, ev, seat, action)
        else:
            ev.append(Passed(seat))
            _end_chain(step, seat)
    elif phase is PHASE_COLOUR_ROUND:
        if isinstance(action, Play):
            _round_put_down(step, ev, seat, action.face)
        else:
            _round_draw(step, ev, seat)
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
        _offer_gift(step)


def start(step: Step) -> None:
    """After the deal: the first turn begins (R-ALT-5)."""
    if step.alt is not None and step.phase is not PHASE_HAND_OVER:
        _offer_gift(step)


def _turn_began(step: Step, seat: int, action: Action) -> bool:
    """Whether ``action`` ended a turn, so that a new one has begun (perhaps the same seat's,
    after a heads-up Skip)."""
    if isinstance(action, _NOT_A_TURN) or step.phase in _TURN_GOES_ON:
        return False
    if type(action) is Challenge:
        return step.current != seat  # guilty: the challenger's turn goes on
    return True


# -- UNO windows after an exchange (R-ALT-2) -------------------------------------------------


def _reopen_windows(step: Step, actor: int, affected: Iterable[int]) -> None:
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


def _close_windows(step: Step, ev: list[Event], actor: int) -> None:
    """The next turn begins: the windows of :func:`_reopen_windows` shut (R-UNO-3 draws for
    the uncalled ones when the penalty is automatic)."""
    alt = step.alt or NO_ALT
    step.alt = replace(alt, windows=())
    if step.rules.uno_penalty is UNO_PENALTY_AUTOMATIC:
        for window in alt.windows:
            if window != actor and step.playing[window] and len(step.hands[window]) == 1:
                ev.append(UnoPenalised(window))
                step.draw(ev, window, 2, CAUSE_UNO)


# -- moving cards --------------------------------------------------------------------------


def _take(step: Step, seat: int, face: CardFace) -> int:
    """Remove the lowest card of ``face`` from ``seat``'s hand; its id."""
    hand = step.hands[seat]
    i = step.lowest_index(hand, face)
    step.hands = replaced(step.hands, seat, hand[:i] + hand[i + 1 :])
    return hand[i]


def _add(step: Step, seat: int, cards: Sequence[int]) -> None:
    step.hands = replaced(step.hands, seat, tuple(sorted((*step.hands[seat], *cards))))


def _went_out(step: Step, ev: list[Event], seat: int) -> bool:
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


def _hand_over_to(step: Step, ev: list[Event], seat: int, target: int, cards: Sequence[int],
                  cause: GiveCause) -> None:  # fmt: skip
    """Move ``cards`` (ids, already out of ``seat``'s hand) into ``target``'s: the count in
    public, the cards to the two of them only."""
    _add(step, target, cards)
    ev.append(CardsGiven(seat, target, len(cards), cause))
    ev.append(GivenCards(seat, target, tuple(cards)))


def _put_down(step: Step, ev: list[Event], seat: int, cards: Sequence[int], on_top: bool) -> None:
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


# -- R-ALT-2, R-ALT-3: a 0 or a 7 ------------------------------------------------------------


def number_played(step: Step, ev: list[Event], seat: int, face: CardFace) -> None:
    """A number card was played and the hand goes on (``current`` is already the next
    seat): a 0 or a 7 may be a spell. Played as the last card, it casts nothing."""
    if not step.hands[seat]:
        return
    rules = step.rules
    if face.number == 0 and rules.zero_spell is not ZeroSpell.OFF:
        spell = rules.zero_spell
        if spell is ZeroSpell.SWAP:
            _ask_swap(step, ev, seat)
        elif spell is ZeroSpell.ROTATE:
            _rotate(step, ev, seat)
        else:
            _discard_colour(step, ev, seat, face)
    elif face.number == 7 and rules.seven_swap:
        _ask_swap(step, ev, seat)


def _ask_swap(step: Step, ev: list[Event], seat: int) -> None:
    """The player names the opponent to swap with; with only one, the swap is made."""
    targets = turn_order(step, seat)
    if len(targets) == 1:
        _swap(step, ev, seat, targets[0])
    else:
        step.phase = PHASE_SWAP
        step.current = seat


def _swap(step: Step, ev: list[Event], seat: int, target: int) -> None:
    hands = list(step.hands)
    hands[seat], hands[target] = hands[target], hands[seat]
    step.hands = tuple(hands)
    ev.append(HandsSwapped(seat, target))
    _reopen_windows(step, seat, (seat, target))
    step.phase = PHASE_PLAY
    step.current = step.next_seat(seat)


def _rotate(step: Step, ev: list[Event], seat: int) -> None:
    """Every hand passes to the next player in the direction of play."""
    hands = list(step.hands)
    playing = [s for s in range(step.seats) if step.playing[s]]
    for s in playing:
        hands[step.next_seat(s)] = step.hands[s]
    step.hands = tuple(hands)
    ev.append(HandsRotated(seat, step.clockwise))
    _reopen_windows(step, seat, playing)


def _discard_colour(step: Step, ev: list[Event], seat: int, zero: CardFace) -> None:
    """Every other card of the 0's colour goes down at once, in card-id order (the last is
    the new top card), without effects."""
    faces = step.faces
    hand = step.hands[seat]
    dumped = tuple(c for c in hand if faces[c].colour is zero.colour)
    if not dumped:
        return
    step.hands = replaced(step.hands, seat, tuple(c for c in hand if c not in dumped))
    _put_down(step, ev, seat, dumped, on_top=True)
    if not step.hands[seat]:
        _went_out(step, ev, seat)  # the turn has passed on already


# -- R-ALT-4: a Skip that does not skip -----------------------------------------------------


def skip_played(step: Step, ev: list[Event], seat: int) -> None:
    """A Skip was played and the hand goes on. Its last card casts nothing: the turn just
    passes on."""
    if not step.hands[seat]:
        step.current = step.next_seat(seat)
        return
    if step.rules.skip_variant is SkipVariant.GIVE:
        step.phase = PHASE_GIVE
        step.current = seat
        return
    for other in turn_order(step, seat):  # ALL_DRAW
        step.draw(ev, other, 1, CAUSE_PENALTY)
    _after_skip(step, ev, seat)


def start_skip(step: Step, ev: list[Event], first: int) -> None:
    """A Skip turned up at the start, as if the dealer had played it (R-SETUP-5): with
    ``all_draw`` every player but the dealer draws one; with ``give`` nobody gives (the card
    came from no hand). Heads-up the dealer then plays first (R-TEAM-1); otherwise ``first``."""
    dealer = step.dealer
    if step.rules.skip_variant is SkipVariant.ALL_DRAW:
        for other in turn_order(step, dealer):
            step.draw(ev, other, 1, CAUSE_PENALTY)
    if len(turn_order(step, dealer)) == 1:
        ev.append(TurnSkipped(first))
        step.current = dealer
    else:
        step.current = first


def _after_skip(step: Step, ev: list[Event], seat: int) -> None:
    """Heads-up the player of a Skip still plays again (R-TEAM-1); otherwise the next does."""
    others = turn_order(step, seat)
    if len(others) == 1 and step.playing[seat]:
        ev.append(TurnSkipped(others[0]))
        step.current = seat
    else:
        step.current = step.next_seat(seat)


def _give(step: Step, ev: list[Event], seat: int, face: CardFace, target: int) -> None:
    card = _take(step, seat, face)
    _hand_over_to(step, ev, seat, target, (card,), GiveCause.GIVE)
    step.phase = PHASE_PLAY
    if not step.hands[seat] and _went_out(step, ev, seat):
        return
    _reopen_windows(step, seat, (seat, target))
    _after_skip(step, ev, seat)


# -- R-ALT-5: a partner's gift ----------------------------------------------------------------


def _offer_gift(step: Step) -> None:
    """At the start of a turn, once: a player who cannot play is offered a partner's gift."""
    alt = step.alt or NO_ALT
    if alt.gift_checked or step.phase is not PHASE_PLAY or not step.rules.partner_gift:
        return
    seat = step.current
    step.alt = alt = replace(alt, gift_checked=True)
    if has_playable(step, seat):
        return
    giver = partner_for(step, seat)
    if giver is None:
        return
    step.alt = replace(alt, recipient=seat)
    step.phase = PHASE_GIFT
    step.current = giver


def _gift(step: Step, ev: list[Event], giver: int, action: Gift | NoGift) -> None:
    alt = step.alt or NO_ALT
    recipient = alt.recipient
    assert recipient is not None
    if isinstance(action, Gift):
        card = _take(step, giver, action.face)
        _hand_over_to(step, ev, giver, recipient, (card,), GiveCause.GIFT)
        _reopen_windows(step, giver, (giver, recipient))
        alt = step.alt or NO_ALT
    step.alt = replace(alt, recipient=None)
    step.phase = PHASE_PLAY
    step.current = recipient


# -- R-ALT-6: blank cards --------------------------------------------------------------------


def blank_played(step: Step, ev: list[Event], seat: int) -> None:
    """A blank card was played, its colour named, and the hand goes on (``current`` is the
    next seat): the table's effect. Played as the last card it does nothing more."""
    if not step.hands[seat]:
        return
    effect = step.rules.blank_effect
    if effect is BlankEffect.CHAIN:
        if _chain_plays(step, seat):
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
        dumped = tuple(c for c in hand if faces[c].kind in _DUMPED)
        if dumped:
            step.hands = replaced(step.hands, seat, tuple(c for c in hand if c not in dumped))
            _put_down(step, ev, seat, dumped, on_top=False)
            if not step.hands[seat]:
                _went_out(step, ev, seat)  # the turn has passed on already
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
    _hand_over_to(step, ev, victim, seat, taken, GiveCause.TAKE)
    _reopen_windows(step, seat, (seat, victim))


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
    _reopen_windows(step, seat, playing)


def _chain_play(step: Step, ev: list[Event], seat: int, play: Play) -> None:
    """A card of the chain: played on the top card, without its effect."""
    face = play.face
    card = _take(step, seat, face)
    step.discard += (card,)
    step.colour = play.colour if face.colour is None else face.colour
    ev.append(CardPlayed(seat, card, face, play.colour, False))
    step.uno_seat = seat
    step.uno_called = False
    if not step.hands[seat]:
        if not _went_out(step, ev, seat):
            step.phase = PHASE_PLAY
            step.current = step.next_seat(seat)
        return
    if not _chain_plays(step, seat):
        _end_chain(step, seat)


def _end_chain(step: Step, seat: int) -> None:
    step.phase = PHASE_PLAY
    step.current = step.next_seat(seat)


def _round_put_down(step: Step, ev: list[Event], seat: int, face: CardFace) -> None:
    """A player of the colour round puts down a card of the colour called."""
    step.close_uno_window(ev, seat)
    card = _take(step, seat, face)
    _put_down(step, ev, seat, (card,), on_top=True)
    _round_next(step, ev, seat)


def _round_draw(step: Step, ev: list[Event], seat: int) -> None:
    """A player of the colour round without the colour draws until it comes, and puts that
    card down; with nothing left to draw they put nothing down."""
    step.close_uno_window(ev, seat)
    colour = step.colour
    got = step.draw_until(ev, seat, colour, CAUSE_EFFECT)
    if got and step.faces[got[-1]].colour is colour:
        card = got[-1]
        step.hands = replaced(step.hands, seat, tuple(c for c in step.hands[seat] if c != card))
        _put_down(step, ev, seat, (card,), on_top=True)
    _round_next(step, ev, seat)


def _round_next(step: Step, ev: list[Event], seat: int) -> None:
    """After a put-down: the next player of the round, or play goes on after the blank
    card's player."""
    step.uno_seat = seat
    step.uno_called = False
    if not step.hands[seat] and _went_out(step, ev, seat):
        return
    _round_advance(step)


def _round_advance(step: Step) -> None:
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
            _round_advance(step)
    elif phase in CHOICE_PHASES and was_current:  # SWAP, GIVE, CHAIN: the choice lapses
        step.phase = PHASE_PLAY
        step.current = step.next_seat(seat)
    if was_current and step.phase is PHASE_PLAY:
        step.alt = replace(step.alt or NO_ALT, gift_checked=False)
        _offer_gift(step)
