"""The state of one hand: a frozen value with explicit phases.

Piles are tuples of card ids whose *last* element is the top card, so drawing is a slice.
Seats are numbered 0..n-1 in joining order; "clockwise" is increasing seat number.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from .actions import Action
from .cards import CardFace, Colour, Deck
from .events import Event, Termination
from .rules import Rules
from .tables import card_points

if TYPE_CHECKING:
    from .views import PlayerView, TableView


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


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """How a finished hand ended: the ranking and what every hand still held."""

    termination: Termination
    ranking: tuple[int, ...]
    points: tuple[int, ...]  # points left in each seat's hand (R-DECK-2)
    cards: tuple[int, ...]  # cards left in each seat's hand

    @property
    def winner(self) -> int:
        """The seat ranked first."""
        return self.ranking[0]


@dataclass(frozen=True, slots=True)
class GameState:
    """One hand of UNO. Build it with :func:`engine.new_hand`; change it with :meth:`apply`."""

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
    # The last legal_actions() answer, (seat, actions): the policy that picks an action and
    # apply() that validates it ask the same question of the same immutable state.
    # Not an __init__ argument, so dataclasses.replace() never copies a stale answer.
    legal_cache: tuple[int, tuple[Action, ...]] | None = field(
        default=None, init=False, compare=False, repr=False
    )

    # -- reading ------------------------------------------------------------------------

    def face(self, card: int) -> CardFace:
        """The face of ``card`` on the side in play."""
        return self.deck.sides[self.side][card]

    @property
    def top(self) -> CardFace:
        """The face on top of the discard pile."""
        return self.deck.sides[self.side][self.discard[-1]]

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.phase is _HAND_OVER

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

    # -- the rules (implemented in engine.game) -------------------------------------------

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now, in a stable order; empty when none."""
        return _game.legal_actions(self, seat)

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``apply(seat, action)`` would succeed."""
        try:
            _game.check(self, seat, action)
        except ValueError:
            return False
        return True

    def apply(self, seat: int, action: Action | str) -> Transition:
        """Validate and apply an action; the state itself never changes."""
        return _game.apply(self, seat, action)

    def outcome(self) -> HandOutcome | None:
        """The result once the hand is over, else ``None``."""
        if self.termination is None:
            return None
        return HandOutcome(
            termination=self.termination,
            ranking=self.ranking,
            points=tuple(self.hand_points(s) for s in range(self.seats)),
            cards=self.card_counts(),
        )

    def view_for(self, seat: int) -> PlayerView:
        """What ``seat`` may see: its own hand and everything public."""
        return _views.player_view(self, seat)

    def public_view(self) -> TableView:
        """What everyone may see: no hand at all."""
        return _views.table_view(self)


_HAND_OVER = Phase.HAND_OVER  # a global: reading Phase.HAND_OVER is slow on CPython 3.11


class Transition(NamedTuple):
    """The result of :meth:`GameState.apply`: the new state and what happened.

    A named tuple because one is built on every transition (``state, events = ...`` works).
    """

    state: GameState
    events: tuple[Event, ...]


# Imported last: both modules need GameState, and the methods above need them at call time.
from . import game as _game  # noqa: E402
from . import views as _views  # noqa: E402
