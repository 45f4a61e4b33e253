"""The mechanics of one transition: a writable draft of the next state and its effects.

:mod:`engine.game` decides *whether* an action is legal; a :class:`Step` carries it out:
draws, skips, reshuffles, UNO windows and the end of a hand, collecting events as it goes.

A Step is a writable twin of :class:`GameState` with the very same slots. :func:`draft`
copies a state's fields into a new one, the action changes what it changes, and
:func:`freeze` turns the Step itself into the new GameState (``__class__`` assignment,
allowed because the layouts match; see :mod:`engine.construct`). Nothing else ever holds a
Step, so states stay immutable from the outside, and no field is copied twice.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TypeVar

from . import rng
from .actions import Play
from .cards import CardFace, Colour, Deck, Kind, matches
from .construct import copier
from .errors import EngineError
from .events import (
    CardPlayed,
    CardsDrawn,
    CardsFlipped,
    CardsReceived,
    ChallengeResolved,
    DirectionReversed,
    DrawCause,
    DrawSkipped,
    Event,
    HandEnded,
    HandRevealed,
    HandsSwapped,
    PileReshuffled,
    PlayerWentOut,
    Termination,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    UnoPenalised,
)
from .members import (
    CAUSE_CHALLENGE,
    CAUSE_DRAW,
    CAUSE_FALSE_CALL,
    CAUSE_PENALTY,
    CAUSE_UNO,
    END_BLOCKED,
    END_WENT_OUT,
    GUILTY_RETRACT,
    KIND_BLANK,
    KIND_DRAW_FIVE,
    KIND_DRAW_ONE,
    KIND_DRAW_TWO,
    KIND_FLIP,
    KIND_NUMBER,
    KIND_REVERSE,
    KIND_SKIP,
    KIND_SKIP_EVERYONE,
    KIND_SWAP_HANDS,
    KIND_WILD,
    KIND_WILD_DRAW_COLOUR,
    KIND_WILD_DRAW_FOUR,
    KIND_WILD_DRAW_TWO,
    PHASE_CHALLENGE,
    PHASE_CHOOSE_COLOUR,
    PHASE_DRAWN,
    PHASE_HAND_OVER,
    PHASE_PENALTY,
    PHASE_PLAY,
    REVEAL_CHALLENGER,
    SKIP_VARIANT_OFF,
    STACKING_CUMULATIVE,
    STACKING_OFF,
    UNO_PENALTY_AUTOMATIC,
)
from .rules import Rules
from .state import NO_ALT, AltState, GameState, Phase, Transition
from .tables import card_points, tables_for

ANSWERING = (PHASE_PENALTY, PHASE_CHALLENGE)
#: UNO Flip kinds that still act when played as the last card (R-END-1, R-FLIP-4).
_LAST_CARD_EFFECTS = frozenset(
    {KIND_DRAW_ONE, KIND_DRAW_FIVE, KIND_WILD_DRAW_TWO, KIND_WILD_DRAW_COLOUR, KIND_FLIP}
)
T = TypeVar("T")


def hand_complete(state: GameState | Step) -> bool:
    """Whether going out has ended the hand (R-END-1, R-END-3)."""
    if not state.out:
        return False
    return not state.rules.play_to_last or sum(state.playing) <= 1


def finish_blocked(state: GameState | Step, face: CardFace, seat: int) -> bool:
    """R-END-2: with ``no_action_finish`` the last card may not be an action or wild."""
    return state.rules.no_action_finish and len(state.hands[seat]) == 1 and face.kind.is_action


def has_playable(state: GameState | Step, seat: int) -> bool:
    """Whether ``seat`` holds a card it could play on its turn (R-TURN-1/2, R-END-2; during
    R-ALT-6's ``no_actions`` turns, number cards only)."""
    faces = state.deck.sides[state.side]
    top = faces[state.discard[-1]]
    colour = state.colour
    quiet = state.alt is not None and state.alt.quiet > 0
    return any(
        matches(faces[c], top, colour)
        and not finish_blocked(state, faces[c], seat)
        and (not quiet or faces[c].kind is KIND_NUMBER)
        for c in state.hands[seat]
    )


def nothing_to_draw(state: GameState | Step) -> bool:
    """R-TURN-6: the draw pile is empty and the discard pile holds nothing to reshuffle."""
    return not state.draw_pile and len(state.discard) < 2


def replaced(seats: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    """``seats`` with the entry of ``seat`` replaced."""
    entries = list(seats)  # faster than slicing and concatenating for a few seats
    entries[seat] = value
    return tuple(entries)


class Step:
    """A writable GameState under construction (see the module docstring).

    Per-seat tuples stay tuples: an action changes one or two entries, so they are replaced
    (:func:`replaced`) rather than copied to lists and back. Methods take the transition's
    event list, which the draft has no slot for.
    """

    __slots__ = GameState.__slots__

    rules: Rules
    seats: int
    seed: int
    shuffles: int
    dealer: int
    draw_pile: tuple[int, ...]
    discard: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    playing: tuple[bool, ...]
    out: tuple[int, ...]
    current: int
    clockwise: bool
    colour: Colour | None
    phase: Phase
    pending: int
    offender: int | None
    prior_colour: Colour | None
    evidence: tuple[int, ...]
    drawn: int | None
    uno_seat: int | None
    uno_called: bool
    dry_draws: int
    last_drawer: int | None
    termination: Termination | None
    ranking: tuple[int, ...]
    version: int
    side: int
    alt: AltState | None
    deck: Deck
    legal_cache: None

    # -- helpers --

    @property
    def faces(self) -> tuple[CardFace, ...]:
        """The faces of the side in play, by card id."""
        return self.deck.sides[self.side]

    def next_seat(self, seat: int) -> int:
        """The next seat still in the hand, in the current direction."""
        step = 1 if self.clockwise else -1
        n = self.seats
        playing = self.playing
        s = (seat + step) % n
        if playing[s]:  # nearly always: nobody between has gone out
            return s
        for _ in range(n - 1):
            s = (s + step) % n
            if playing[s]:
                return s
        return seat

    def reshuffle(self, ev: list[Event]) -> bool:
        """R-TURN-6: the discard pile but its top becomes the new draw pile."""
        if len(self.discard) <= 1:
            return False
        cards = rng.shuffled(self.discard[:-1], seed=self.seed, counter=self.shuffles)
        self.shuffles += 1
        self.draw_pile = tuple(cards)
        self.discard = self.discard[-1:]
        ev.append(PileReshuffled(len(cards)))
        return True

    def draw(self, ev: list[Event], seat: int, count: int, cause: DrawCause) -> tuple[int, ...]:
        """Move up to ``count`` cards from the draw pile to ``seat``'s hand."""
        pile = self.draw_pile
        got: tuple[int, ...]
        if 0 < count <= len(pile):  # the common case: the pile holds enough
            got = pile[: -count - 1 : -1]  # top first
            self.draw_pile = pile[:-count]
        else:
            got = ()
            while len(got) < count:
                if not self.draw_pile and not self.reshuffle(ev):
                    break
                take = min(count - len(got), len(self.draw_pile))
                got += self.draw_pile[: -take - 1 : -1]
                self.draw_pile = self.draw_pile[:-take]
            if not got:
                return got
        self.hands = replaced(self.hands, seat, tuple(sorted(self.hands[seat] + got)))
        self.last_drawer = seat
        ev.append(CardsDrawn(seat, len(got), cause))
        ev.append(CardsReceived(seat, got))
        return got

    def close_uno_window(self, ev: list[Event], actor: int) -> None:
        """``actor`` begins a turn: the window to call or catch UNO shuts (R-UNO-1/2/3).

        When the actor is the window's own seat (it plays again after a heads-up Skip), the
        window just closes: no *next* player has begun a turn, so nothing is automatic.
        The actor's own hand never changes here.
        """
        seat = self.uno_seat
        if seat is None:
            return
        if (
            seat != actor
            and self.rules.uno_penalty is UNO_PENALTY_AUTOMATIC
            and not self.uno_called
            and len(self.hands[seat]) == 1
        ):
            ev.append(UnoPenalised(seat))
            self.draw(ev, seat, 2, CAUSE_UNO)
        self.uno_seat = None
        self.uno_called = False

    def skip(self, ev: list[Event], victim: int) -> None:
        ev.append(TurnSkipped(victim))
        self.current = self.next_seat(victim)

    def finish(self, ev: list[Event], termination: Termination, by_cards: bool = False) -> None:
        """End the hand: rank who went out first, then the rest by what they hold (with
        ``by_cards``, fewer cards before fewer points: R-ALT-1)."""
        points = card_points(self.deck, 0 if self.rules.flip_score_light else self.side)
        hands = self.hands
        last_drawer = self.last_drawer
        playing = (s for s in range(self.seats) if self.playing[s])
        if by_cards:
            rest = sorted(
                playing,
                key=lambda s: (
                    len(hands[s]),
                    sum([points[c] for c in hands[s]]),
                    s == last_drawer,
                    s,
                ),
            )
        else:
            rest = sorted(
                playing,
                # R-SCORE-6 (R-FLIP-7 for the side): fewer points, then fewer cards; whoever
                # drew last loses a tie.
                key=lambda s: (
                    sum([points[c] for c in hands[s]]),
                    len(hands[s]),
                    s == last_drawer,
                    s,
                ),
            )
        if self.alt is not None:
            self.alt = NO_ALT  # nothing of the alternative rules outlives the hand
        self.ranking = self.out + tuple(rest)
        self.termination = termination
        self.phase = PHASE_HAND_OVER
        self.pending = 0
        self.offender = self.prior_colour = self.drawn = None
        self.evidence = ()
        self.uno_seat = None
        self.uno_called = False
        ev.append(HandEnded(termination, self.ranking))

    # -- actions --

    def play(self, ev: list[Event], seat: int, play: Play, jump_in: bool) -> None:
        face = play.face
        window = self.uno_seat
        if (
            window is not None
            and window != seat
            and self.rules.uno_penalty is UNO_PENALTY_AUTOMATIC
        ):
            # Only an automatic penalty can make closing the window do more than what the
            # play sets below anyway (a new window, for this seat).
            self.close_uno_window(ev, seat)
        hand = self.hands[seat]
        if self.drawn is not None:
            card = self.drawn
            i = hand.index(card)
        else:
            tables = tables_for(self.deck.sides[self.side])
            if tables.adjacent_copies:  # the face's copies are one run of ids: bisect
                i = bisect_left(hand, tables.low[face.notation])
            else:
                i = self.lowest_index(hand, face)
            card = hand[i]
        remaining = hand[:i] + hand[i + 1 :]
        hands = list(self.hands)  # replaced(), inlined
        hands[seat] = remaining
        self.hands = tuple(hands)
        self.discard += (card,)
        prior_colour = self.colour
        named = play.colour
        self.colour = named if face.colour is None else face.colour
        ev.append(CardPlayed(seat, card, face, named, jump_in))
        pending_before = self.pending if self.phase in ANSWERING else 0
        self.phase = PHASE_PLAY
        self.pending = 0
        self.offender = self.prior_colour = self.drawn = None
        self.evidence = ()
        self.dry_draws = 0
        self.current = seat
        self.uno_seat = seat
        self.uno_called = False
        rules = self.rules
        if remaining:
            # hand_complete(), inlined: this runs on every play.
            ending = bool(self.out) and (not rules.play_to_last or sum(self.playing) <= 1)
        else:
            self.playing = replaced(self.playing, seat, False)
            self.out += (seat,)
            self.uno_seat = None
            ev.append(PlayerWentOut(seat, len(self.out)))
            ending = not rules.play_to_last or sum(self.playing) <= 1
        kind = face.kind
        if kind is KIND_NUMBER:
            if not ending:
                # next_seat(), its first test inlined: the commonest play passes the turn on.
                s = (seat + (1 if self.clockwise else -1)) % self.seats
                self.current = s if self.playing[s] else self.next_seat(seat)
                if self.alt is not None:  # R-ALT-2/3: a 0 or a 7 may be a spell
                    _spells.number_played(self, ev, seat, face)
        elif kind is KIND_DRAW_TWO:  # R-ACT-1, R-ACT-6
            victim = self.next_seat(seat)
            total = 2 + (pending_before if rules.stacking is STACKING_CUMULATIVE else 0)
            if rules.stacking is not STACKING_OFF and not ending:
                self.phase = PHASE_PENALTY
                self.pending = total
                self.current = victim
            else:
                self.draw(ev, victim, total, CAUSE_PENALTY)
                self.skip(ev, victim)
        elif kind is KIND_WILD_DRAW_FOUR:  # R-ACT-5, R-CHAL-1
            self.phase = PHASE_CHALLENGE
            self.pending = 4 + (pending_before if rules.stacking is STACKING_CUMULATIVE else 0)
            self.offender = seat
            self.prior_colour = prior_colour
            self.evidence = remaining
            self.current = self.next_seat(seat)
            return  # the hand cannot end before the challenge is answered (R-END-1)
        elif ending:
            # R-END-1: a last Flip draw card still hits the next player, a last Flip still
            # turns the cards over (scored on the new side); Skip Everyone does nothing more.
            if kind in _LAST_CARD_EFFECTS and self.flip_action(
                ev, seat, kind, prior_colour, remaining
            ):
                return
        elif kind is KIND_SKIP or (kind is KIND_REVERSE and self._heads_up(went_out=not remaining)):
            if (
                kind is KIND_SKIP
                and self.alt is not None
                and rules.skip_variant is not SKIP_VARIANT_OFF
            ):
                _spells.skip_played(self, ev, seat)  # R-ALT-4: the Skip does something else
            else:
                self.skip(ev, self.next_seat(seat))  # R-ACT-2/3, R-TEAM-1, R-FLIP-6
        elif kind is KIND_REVERSE:
            self.clockwise = not self.clockwise
            ev.append(DirectionReversed(self.clockwise))
            self.current = self.next_seat(seat)
        elif kind is KIND_WILD:
            self.current = self.next_seat(seat)
        elif kind is KIND_SWAP_HANDS:
            # R-DECK-4: one who went out with it swaps nothing (play_to_last goes on here).
            if remaining:
                assert play.target is not None
                target = play.target
                hands = list(self.hands)
                hands[seat], hands[target] = hands[target], hands[seat]
                self.hands = tuple(hands)
                ev.append(HandsSwapped(seat, target))
            self.current = self.next_seat(seat)
        elif kind is KIND_BLANK:  # R-DECK-5: a Wild, then the table's blank_effect (R-ALT-6)
            self.current = self.next_seat(seat)
            if self.alt is not None:
                _blanks.blank_played(self, ev, seat)
        elif self.flip_action(ev, seat, kind, prior_colour, remaining):
            return  # a Wild Draw Two or Colour waits for its challenge
        if ending:
            self.finish(ev, END_WENT_OUT)

    # -- UNO Flip (R-FLIP) --

    def flip_action(
        self,
        ev: list[Event],
        seat: int,
        kind: Kind,
        prior_colour: Colour | None,
        remaining: tuple[int, ...],
    ) -> bool:
        """The effect of UNO Flip's own kinds; True when the card now awaits a challenge
        (so the hand cannot end yet, R-END-1). Other kinds just pass the turn on."""
        if kind is KIND_DRAW_ONE or kind is KIND_DRAW_FIVE:  # R-FLIP-3, R-FLIP-5
            victim = self.next_seat(seat)
            self.draw(ev, victim, kind.draw_amount, CAUSE_PENALTY)
            self.skip(ev, victim)
        elif kind is KIND_WILD_DRAW_TWO or kind is KIND_WILD_DRAW_COLOUR:
            self.phase = PHASE_CHALLENGE
            # Wild Draw Colour draws "until the colour": at least one card.
            self.pending = kind.draw_amount or 1
            self.offender = seat
            self.prior_colour = prior_colour
            self.evidence = remaining
            self.current = self.next_seat(seat)
            return True
        elif kind is KIND_SKIP_EVERYONE:  # R-FLIP-5: every other seat loses its turn
            first = self.next_seat(seat)
            victim = first
            while True:
                ev.append(TurnSkipped(victim))
                victim = self.next_seat(victim)
                if victim in (seat, first):
                    break
            # Back to the player, or (play_to_last, they went out) to the first one skipped.
            self.current = seat if self.playing[seat] else first
        elif kind is KIND_FLIP:
            self.current = self.next_seat(seat)
            self.flip(ev)
        else:
            self.current = self.next_seat(seat)
        return False

    def flip(self, ev: list[Event]) -> None:
        """R-FLIP-4: turn everything over. Hands keep their cards (ids) and show the other
        side; the discard pile and the draw pile are each turned over as a whole, so their
        order reverses: the discard pile's old bottom card is its new top, and the colour in
        play becomes that face's colour (a wild: the seat whose turn it is names one)."""
        side = self.side = self.deck.other_side(self.side)
        self.discard = self.discard[::-1]
        self.draw_pile = self.draw_pile[::-1]
        top = self.deck.sides[side][self.discard[-1]]
        self.colour = top.colour
        if top.colour is None:
            self.phase = PHASE_CHOOSE_COLOUR
        ev.append(CardsFlipped(side, top, top.colour))

    def paid_until_colour(self) -> bool:
        """Whether the penalty under way is a Wild Draw Colour's (R-FLIP-5)."""
        return self.faces[self.discard[-1]].kind is KIND_WILD_DRAW_COLOUR

    def draw_until(
        self, ev: list[Event], seat: int, colour: Colour | None, cause: DrawCause, extra: int = 0
    ) -> tuple[int, ...]:
        """R-FLIP-5: ``seat`` draws until a card of ``colour`` comes, then ``extra`` more.

        Reshuffles as any draw does (R-TURN-6); if no card is left at all it stops short.
        One CardsDrawn/CardsReceived pair reports the whole draw.
        """
        faces = self.faces
        got: list[int] = []
        wanted = True
        while wanted or extra > 0:
            if not self.draw_pile and not self.reshuffle(ev):
                break
            card = self.draw_pile[-1]
            self.draw_pile = self.draw_pile[:-1]
            got.append(card)
            if wanted:
                wanted = faces[card].colour is not colour
            else:
                extra -= 1
        if not got:
            return ()
        cards = tuple(got)
        self.hands = replaced(self.hands, seat, tuple(sorted(self.hands[seat] + cards)))
        self.last_drawer = seat
        ev.append(CardsDrawn(seat, len(cards), cause))
        ev.append(CardsReceived(seat, cards))
        return cards

    def _heads_up(self, *, went_out: bool) -> bool:
        """Whether two seats were in the hand when the card was played (R-ACT-3)."""
        return sum(self.playing) + went_out == 2

    def lowest_index(self, hand: tuple[int, ...], face: CardFace) -> int:
        """Where the lowest id showing ``face`` is in ``hand``: plays name faces, the log
        stays exact. (The scan for decks whose copies are not adjacent; see play().)"""
        faces = self.faces
        for i, card in enumerate(hand):
            if faces[card] is face or faces[card] == face:
                return i
        raise EngineError(f"internal: {face} is not in the hand")

    def draw_turn(self, ev: list[Event], seat: int) -> None:
        """R-TURN-4/5/6: draw one card (or until playable) on one's turn."""
        if self.uno_seat is not None:
            self.close_uno_window(ev, seat)
        until_playable = self.rules.draw_until_playable
        drawn: int | None = None
        while True:
            got = self.draw(ev, seat, 1, CAUSE_DRAW)
            if not got:
                break
            drawn = got[0]
            if not until_playable or self.playable_now(drawn):
                break
        if drawn is None:
            ev.append(DrawSkipped(seat))
            if has_playable(self, seat):
                # A draw by choice (R-TURN-4) says nothing about being stuck: only a full
                # round of seats with nothing to play and nothing to draw blocks the hand.
                self.dry_draws = 0
            else:
                self.dry_draws += 1
                if self.dry_draws >= sum(self.playing):
                    self.finish(ev, END_BLOCKED)
                    return
            self.current = self.next_seat(seat)
            return
        self.dry_draws = 0
        if self.playable_now(drawn):
            self.phase = PHASE_DRAWN
            self.drawn = drawn
        else:
            self.current = self.next_seat(seat)

    def playable_now(self, card: int) -> bool:
        """R-TURN-1/2: whether ``card`` matches the top card and the colour in play (and,
        during R-ALT-6's ``no_actions`` turns, is a number card)."""
        faces = self.deck.sides[self.side]
        if not matches(faces[card], faces[self.discard[-1]], self.colour):
            return False
        alt = self.alt
        return alt is None or not alt.quiet or faces[card].kind is KIND_NUMBER

    def take_penalty(self, ev: list[Event], seat: int) -> None:
        """Accept the pending Draw Two / Wild Draw Four (stack included) and lose the turn;
        UNO Flip's Wild Draw Two alike, and a Wild Draw Colour draws until its colour."""
        self.close_uno_window(ev, seat)
        if self.phase is PHASE_CHALLENGE and self.paid_until_colour():
            self.draw_until(ev, seat, self.colour, CAUSE_PENALTY)
        else:
            self.draw(ev, seat, self.pending, CAUSE_PENALTY)
        self.phase = PHASE_PLAY
        self.pending = 0
        self.offender = self.prior_colour = None
        self.evidence = ()
        self.skip(ev, seat)
        if hand_complete(self):
            self.finish(ev, END_WENT_OUT)

    def challenge(self, ev: list[Event], seat: int) -> None:
        """R-CHAL-2/3/4: the offender's hand as it was after the card, against the colour
        before it. UNO Flip (R-FLIP-3/5): a Wild Draw Two costs 2 (guilty) or 2 + 2, a Wild
        Draw Colour drawing until the colour (guilty) or until it and 2 more."""
        self.close_uno_window(ev, seat)
        offender = self.offender
        assert offender is not None
        prior = self.prior_colour
        faces = self.faces
        kind = faces[self.discard[-1]].kind  # the card challenged (W4, W2 or WC)
        named = self.colour
        evidence = self.evidence
        guilty = any(faces[c].colour is prior for c in evidence)
        retract = guilty and self.rules.challenge_guilty is GUILTY_RETRACT
        ev.append(ChallengeResolved(seat, offender, guilty, retract))
        if self.rules.challenge_reveal is REVEAL_CHALLENGER:
            ev.append(HandRevealed(offender, seat, evidence))
        pending = self.pending
        self.phase = PHASE_PLAY
        self.pending = 0
        self.offender = None
        self.prior_colour = None
        self.evidence = ()
        if guilty:
            if retract:  # the colour reverts and the card goes back (001, 000) ...
                self.colour = prior
                if len(self.discard) > 1:  # ... unless a reshuffle took every card beneath
                    card = self.discard[-1]
                    self.discard = self.discard[:-1]
                    back = tuple(sorted((*self.hands[offender], card)))
                    self.hands = replaced(self.hands, offender, back)
            if kind is KIND_WILD_DRAW_COLOUR:
                self.draw_until(ev, offender, named, CAUSE_CHALLENGE)
            else:
                amount = kind.draw_amount
                self.draw(ev, offender, amount, CAUSE_CHALLENGE)
                rest = pending - amount  # a cumulative stack beneath stays with the challenger
                if rest > 0:
                    self.phase = PHASE_PENALTY
                    self.pending = rest
            self.current = seat
        else:
            if kind is KIND_WILD_DRAW_COLOUR:
                self.draw_until(ev, seat, named, CAUSE_CHALLENGE, extra=2)
            else:
                self.draw(ev, seat, pending + 2, CAUSE_CHALLENGE)
            self.skip(ev, seat)
        if hand_complete(self) and self.phase is not PHASE_HAND_OVER:
            self.finish(ev, END_WENT_OUT)

    def call_uno(self, ev: list[Event], seat: int) -> None:
        false_call = len(self.hands[seat]) != 1
        self.uno_called = True
        ev.append(UnoCalled(seat, false_call))
        if false_call:
            self.draw(ev, seat, 2, CAUSE_FALSE_CALL)

    def catch_uno(self, ev: list[Event], seat: int, target: int) -> None:
        if self.uno_called:  # a false catch (R-UNO-6)
            ev.append(UnoCaught(seat, target, True))
            self.draw(ev, seat, 2, CAUSE_FALSE_CALL)
            return
        ev.append(UnoCaught(seat, target, False))
        self.draw(ev, target, 2, CAUSE_UNO)
        self.uno_seat = None
        self.uno_called = False


draft = copier(GameState, Step)


def freeze(step: Step, ev: list[Event]) -> Transition:
    """Publish ``step`` as the next state, one version on, with the transition's events.

    :func:`draft` already emptied the legal-actions cache; the caller drops its Step.
    """
    step.version += 1
    step.__class__ = GameState  # type: ignore[assignment]  # publish(), inlined
    # tuple.__new__ directly: the NamedTuple's own __new__ is a Python-level wrapper of it.
    return _new_tuple(Transition, (step, tuple(ev)))


_new_tuple = tuple.__new__

# Imported last: the alternative rules' effects work on a Step (see engine.variants).
from . import blanks as _blanks  # noqa: E402
from . import spells as _spells  # noqa: E402
