"""One hand of UNO as data: its fields, its phases, and the questions the rules ask of them.

:class:`~engine.state.GameState` is a :class:`Hand` with the rules' entry points added
(``legal_actions``, ``apply``, the views). Everything between them (the legality, the card
effects, the alternative rules) reads and changes a Hand, so no module below
:mod:`engine.state` needs it: the engine's imports all point down.

Piles are tuples of card ids whose *last* element is the top card, so drawing is a slice.
Seats are numbered 0..n-1 in joining order; "clockwise" is increasing seat number.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .cards import CardFace, Colour, Deck, Kind, matches
from .events import Termination
from .rules import Rules
from .tables import card_points


class Phase(enum.Enum):
    """What the hand waits for. Each sub-step is explicit, so nothing is half-applied."""

    PLAY = "play"  # the current seat plays or draws (R-TURN)
    CHOOSE_COLOUR = "choose_colour"  # the first player names the start Wild's colour (R-SETUP-5)
    DRAWN = "drawn"  # the current seat drew a playable card: play it or pass (R-TURN-5)
    PENALTY = "penalty"  # a Draw Two waits to be taken or stacked (R-ACT-6)
    # A Wild Draw Four (Flip: Two or Colour) waits: challenge, take it or stack (R-CHAL-1).
    CHALLENGE = "challenge"
    HAND_OVER = "hand_over"  # R-END
    # The alternative rules (RULES.md §13); ``current`` is always the seat that must act.
    SWAP = "swap"  # the player of a 0 or 7 names the opponent to swap with (R-ALT-2/3)
    GIVE = "give"  # the player of a Skip gives a card to an opponent (R-ALT-4)
    GIFT = "gift"  # a partner may give the player who cannot play a card (R-ALT-5)
    CHAIN = "chain"  # after a blank card: play on matching cards, or pass (R-ALT-6)
    COLOUR_ROUND = "colour_round"  # each other player puts down a card of a colour (R-ALT-6)


#: The phases in which a penalty waits to be answered (R-ACT-6, R-CHAL-1).
ANSWERING = (Phase.PENALTY, Phase.CHALLENGE)


@dataclass(frozen=True, slots=True)
class AltState:
    """What the alternative rules (RULES.md §13) keep between transitions; all public.

    A hand under such rules (:attr:`engine.rules.Rules.alternative`) always has one, so the
    classic transitions only ever ask ``state.alt is None``.
    """

    #: R-ALT-6 ``no_actions``: turns still played without action or wild cards, this one
    #: included (0: none).
    quiet: int = 0
    #: R-ALT-2: seats other than ``uno_seat`` that were left with one card by an exchange
    #: and have not called UNO yet; they may be caught until the next turn begins.
    windows: tuple[int, ...] = ()
    #: R-ALT-5: whether the turn under way was looked at for a partner's gift (once a turn).
    gift_checked: bool = False
    #: R-ALT-5: in phase ``gift``, the player whose turn it is (``current`` is the partner).
    recipient: int | None = None
    #: R-ALT-6 ``colour_round``: who played the blank card (play goes on after them) ...
    origin: int | None = None
    #: ... and the seats still to put a card down after ``current``, in order.
    round: tuple[int, ...] = ()


NO_ALT = AltState()


@dataclass(slots=True)
class Hand:
    """The fields of one hand. Build a hand with :func:`engine.new_hand`; a transition copies
    it and changes the copy before anyone else sees it (see :mod:`engine.state`)."""

    rules: Rules
    seats: int
    seed: int
    shuffles: int  # reshuffles so far; (seed, shuffles) seeds the next one (R-TURN-6)
    dealer: int
    draw_pile: tuple[int, ...]
    discard: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    playing: tuple[bool, ...]  # seats still holding cards in this hand
    out: tuple[int, ...]  # seats that went out, in order
    current: int
    clockwise: bool
    colour: Colour | None  # the colour in play; None only while a start Wild awaits one
    phase: Phase
    # Cards the current seat must take (PENALTY, CHALLENGE); 1 for a Wild Draw Colour,
    # which draws until its colour (at least one card; the count is known once drawn).
    pending: int = 0
    offender: int | None = None  # who played the Wild Draw Four under challenge
    prior_colour: Colour | None = None  # the colour before that Wild Draw Four (R-CHAL-2)
    # The offender's hand right after playing it: what a challenge checks and reveals, so
    # cards drawn later (an UNO penalty) never count against them.
    evidence: tuple[int, ...] = ()
    drawn: int | None = None  # the card drawn this turn (DRAWN)
    uno_seat: int | None = None  # whose UNO window is open (R-UNO-1/2)
    uno_called: bool = False
    # Turns in a row whose draw found no card at all, drawn by a seat with nothing to play
    # (R-TURN-6); a play, a card drawn or a draw by choice starts the count again.
    dry_draws: int = 0
    last_drawer: int | None = None  # for the R-SCORE-6 tie-break
    termination: Termination | None = None
    ranking: tuple[int, ...] = ()
    version: int = 0
    side: int = 0  # the side of the cards in play (UNO Flip turns it over)
    alt: AltState | None = None  # the alternative rules' own state (None: classic hands)
    deck: Deck = field(kw_only=True, compare=False, repr=False)  # always rules.deck()

    # -- reading ------------------------------------------------------------------------

    @property
    def faces(self) -> tuple[CardFace, ...]:
        """The faces of the side in play, by card id."""
        return self.deck.sides[self.side]

    def face(self, card: int) -> CardFace:
        """The face of ``card`` on the side in play."""
        return self.deck.sides[self.side][card]

    @property
    def top(self) -> CardFace:
        """The face on top of the discard pile."""
        return self.deck.sides[self.side][self.discard[-1]]

    @property
    def is_over(self) -> bool:
        """True once the hand has ended (phase ``hand_over``)."""
        return self.termination is not None

    def hand_faces(self, seat: int) -> tuple[CardFace, ...]:
        """The faces in ``seat``'s hand, in card-id order."""
        faces = self.deck.sides[self.side]
        return tuple(faces[c] for c in self.hands[seat])

    def card_counts(self) -> tuple[int, ...]:
        """How many cards each seat holds (public, R-UNO-5)."""
        return tuple(len(h) for h in self.hands)

    @property
    def scoring_side(self) -> int:
        """The side whose faces score (R-FLIP-7): the side in play, or the light side with
        ``flip_score_light``."""
        return 0 if self.rules.flip_score_light else self.side

    def hand_points(self, seat: int) -> int:
        """Points left in ``seat``'s hand (R-DECK-2), on :attr:`scoring_side`."""
        points = card_points(self.deck, self.scoring_side)
        return sum([points[c] for c in self.hands[seat]])

    def back_faces(self, seat: int) -> tuple[CardFace, ...]:
        """The faces on the back of ``seat``'s cards, in card-id order: in UNO Flip the
        other side, which everyone sees (public); empty for one-sided decks."""
        deck = self.deck
        if len(deck.sides) < 2:
            return ()
        faces = deck.sides[deck.other_side(self.side)]
        return tuple(faces[c] for c in self.hands[seat])

    def next_seat(self, seat: int) -> int:
        """The next seat after ``seat`` still in the hand, in the current direction."""
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


# -- what the rules ask of a hand -----------------------------------------------------------


def hand_complete(hand: Hand) -> bool:
    """Whether going out has ended the hand (R-END-1, R-END-3)."""
    if not hand.out:
        return False
    return not hand.rules.play_to_last or sum(hand.playing) <= 1


def finish_blocked(hand: Hand, face: CardFace, seat: int) -> bool:
    """R-END-2: with ``no_action_finish`` the last card may not be an action or wild."""
    return hand.rules.no_action_finish and len(hand.hands[seat]) == 1 and face.kind.is_action


def has_playable(hand: Hand, seat: int) -> bool:
    """Whether ``seat`` holds a card it could play on its turn (R-TURN-1/2, R-END-2; during
    R-ALT-6's ``no_actions`` turns, number cards only)."""
    faces = hand.deck.sides[hand.side]
    top = faces[hand.discard[-1]]
    colour = hand.colour
    quiet = hand.alt is not None and hand.alt.quiet > 0
    return any(
        matches(faces[c], top, colour)
        and not finish_blocked(hand, faces[c], seat)
        and (not quiet or faces[c].kind is Kind.NUMBER)
        for c in hand.hands[seat]
    )


def nothing_to_draw(hand: Hand) -> bool:
    """R-TURN-6: the draw pile is empty and the discard pile holds nothing to reshuffle."""
    return not hand.draw_pile and len(hand.discard) < 2


def turn_order(hand: Hand, seat: int) -> list[int]:
    """The other seats still in the hand, in turn order from ``seat``."""
    n = hand.seats
    step = 1 if hand.clockwise else -1
    order = ((seat + step * i) % n for i in range(1, n))
    return [s for s in order if hand.playing[s]]


def faces_once(hand: Hand, seat: int) -> list[tuple[int, CardFace]]:
    """The lowest card id of each face ``seat`` holds, with its face, in card-id order."""
    faces = hand.deck.sides[hand.side]
    seen: set[CardFace] = set()
    result = []
    for card in hand.hands[seat]:
        face = faces[card]
        if face not in seen:
            seen.add(face)
            result.append((card, face))
    return result
