"""Dealing a hand (R-SETUP-3/4/5), and the ends of a hand that are not plays: a player who
leaves (R-TIME-2/3) and the match time running out (R-ALT-1).

The rules of play are :class:`~engine.state.GameState`'s methods (``legal_actions``,
``apply``); :func:`legal_actions`, :func:`check` and :func:`uno_windows` of
:mod:`engine.legality` can be imported from here too, as functions of a state.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import rng, variants
from .cards import CardFace, Kind
from .effects import START_EFFECTS
from .errors import EngineError, IllegalActionError, Reason
from .events import CardsDealt, Event, HandStarted, PlayerLeft, StartCardReturned, Termination
from .hand import Hand, Phase, hand_complete
from .legality import check, legal_actions, uno_windows
from .rules import Rules, TimeLimitWinner
from .state import GameState, Transition, draft
from .step import finish, replaced

__all__ = [
    "check",
    "deal",
    "end_by_time",
    "faces_to_cards",
    "legal_actions",
    "new_hand",
    "remove_seat",
    "uno_windows",
]


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
    after = draft(state)
    ev: list[Event] = []
    cards = after.hands[seat]
    after.hands = replaced(after.hands, seat, ())
    after.draw_pile = cards[::-1] + after.draw_pile  # the bottom of the pile is its start
    after.playing = replaced(after.playing, seat, False)
    ev.append(PlayerLeft(seat, len(cards)))
    if after.uno_seat == seat:
        after.uno_seat = None
        after.uno_called = False
    answering_them = after.offender == seat
    was_current = seat == after.current
    choosing = after.alt is not None and after.phase in variants.CHOICE_PHASES
    if not choosing and (was_current or answering_them):
        if was_current:
            after.current = after.next_seat(seat)
        if after.phase is not Phase.CHOOSE_COLOUR:
            after.phase = Phase.PLAY
        after.pending = 0
        after.offender = after.prior_colour = after.drawn = None
        after.evidence = ()
    if after.alt is not None:
        variants.leave(after, seat, was_current)  # R-ALT: what waited for the seat
    if sum(after.playing) <= 1 or hand_complete(after):
        ending = Termination.ABANDONED if sum(after.playing) <= 1 else Termination.WENT_OUT
        finish(after, ev, ending)
    return Transition(after, tuple(ev))


def end_by_time(state: GameState) -> Transition:
    """R-ALT-1: the match time ran out during this hand, which ends at once. The player
    with the fewest cards wins it (``time_limit_winner = fewest_points``: the fewest points
    in hand); ties go to fewer points (fewer cards), then the player who drew last loses,
    then the lower seat (R-SCORE-6 has a tie-break hand, which a match out of time cannot
    play). Those who went out already (R-END-3) rank first."""
    if state.is_over:
        raise IllegalActionError(Reason.HAND_OVER)
    after = draft(state)
    ev: list[Event] = []
    by_cards = state.rules.time_limit_winner is TimeLimitWinner.FEWEST_CARDS
    finish(after, ev, Termination.TIME_LIMIT, by_cards=by_cards)
    return Transition(after, tuple(ev))


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
    pile_left = tuple(reversed(pile[dealt:]))  # the top of the pile is its end
    state = _dealt(rules, seats, seed, shuffles, dealer, pile_left, hands, in_hand)
    ev: list[Event] = [CardsDealt(s, hands[s]) for s in seat_order]
    _turn_start_card(state, ev)
    return Transition(state, tuple(ev))


def _check_seats(rules: Rules, seats: int) -> None:
    """R-SETUP-1, R-ALT-8: 2 to 10 seats, up to 20 when the rules allow them."""
    if not 2 <= seats <= rules.max_players:
        raise EngineError(f"a hand needs 2 to {rules.max_players} seats (R-SETUP-1, R-ALT-8)")


def _dealt(
    rules: Rules,
    seats: int,
    seed: int,
    shuffles: int,
    dealer: int,
    pile: tuple[int, ...],
    hands: Sequence[tuple[int, ...]],
    playing: Sequence[bool],
) -> GameState:
    """A hand just dealt, before its start card is turned up: the dealer to move."""
    return GameState(
        rules,
        seats,
        seed,
        shuffles,
        dealer,
        pile,
        (),
        tuple(hands),
        tuple(playing),
        (),
        dealer,
        rules.clockwise,
        None,
        Phase.PLAY,
        alt=variants.initial(rules),
        deck=rules.deck(),
    )


def _deal_order(seats: int, dealer: int, clockwise: bool, playing: list[bool]) -> list[int]:
    step = 1 if clockwise else -1
    order = [(dealer + step * i) % seats for i in range(1, seats + 1)]
    return [s for s in order if playing[s]]


def _turn_start_card(hand: Hand, ev: list[Event]) -> None:
    """R-SETUP-5: the start card takes effect as if the dealer had played it."""
    faces = hand.faces
    while True:
        card = hand.draw_pile[-1]
        hand.draw_pile = hand.draw_pile[:-1]
        face = faces[card]
        if face.kind not in _RETURNED:
            break
        # Put it back, reshuffle and turn another (R-SETUP-5, R-FLIP-3).
        ev.append(StartCardReturned(face))
        cards = rng.shuffled((*hand.draw_pile, card), seed=hand.seed, counter=hand.shuffles)
        hand.shuffles += 1
        hand.draw_pile = tuple(cards)
    hand.discard = (card,)
    first = hand.current = hand.next_seat(hand.dealer)
    hand.colour = face.colour
    effects: list[Event] = []
    effect = START_EFFECTS.get(face.kind)
    if effect is not None:
        effect(hand, effects, first)
    ev.append(HandStarted(hand.dealer, hand.current, face, hand.clockwise))
    ev.extend(effects)
    variants.start(hand)


#: Start cards that go back into the pile for another (R-SETUP-5, R-FLIP-3).
_RETURNED = frozenset({Kind.WILD_DRAW_FOUR, Kind.WILD_DRAW_TWO})


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
    state = _dealt(rules, seats, seed, 1, dealer, pile, [tuple(sorted(h)) for h in dealt], in_hand)
    ev: list[Event] = [CardsDealt(s, state.hands[s]) for s in range(seats) if in_hand[s]]
    _turn_start_card(state, ev)
    return Transition(state, tuple(ev))
