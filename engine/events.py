"""Past-tense events that a transition emits, each public or visible to given seats only.

Adapters turn events into words; :func:`events_for` filters a list for one seat so that a
revealed hand (R-CHAL-2) or a drawn card only ever reaches its viewer.

An event is a value that nothing changes once emitted. Events are not ``frozen=True``
dataclasses: a frozen dataclass's ``__init__`` writes each field through
``object.__setattr__``, and a step emits one or two events, so on CPython 3.11 that alone
cost a tenth of a step (docs/engine.md). ``unsafe_hash`` keeps them hashable, as values.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from .cards import CardFace, Colour


class Termination(enum.Enum):
    """How a hand ended."""

    WENT_OUT = "went_out"  # a player (or, with play_to_last, all but one) went out
    BLOCKED = "blocked"  # nobody can play and nothing is left to draw (R-SCORE-6)
    ABANDONED = "abandoned"  # every other player left the table
    TIME_LIMIT = "time_limit"  # the match time ran out (R-ALT-1)


class DrawCause(enum.Enum):
    """Why cards were drawn."""

    DRAW = "draw"  # a voluntary or forced draw on one's turn
    PENALTY = "penalty"  # a Draw Two / Wild Draw Four (stack included); Flip's draw cards
    CHALLENGE = "challenge"  # the loser of a Wild Draw Four (Two, Colour) challenge
    UNO = "uno"  # caught, or the automatic UNO penalty
    FALSE_CALL = "false_call"  # R-UNO-6
    EFFECT = "effect"  # a blank card's refill or colour round (R-ALT-6)


class GiveCause(enum.Enum):
    """Why cards went from one hand to another (R-ALT-4, R-ALT-5, R-ALT-6)."""

    GIVE = "give"  # a Skip under skip_variant=give: the player gave a card to an opponent
    GIFT = "gift"  # a partner's gift to a player who could not play
    TAKE = "take"  # a blank card's take_two: the receiver took the cards from the giver


class Event:
    """Base class: public unless a subclass names its audience."""

    __slots__ = ()

    @property
    def audience(self) -> frozenset[int] | None:
        """The seats that may see this event, or ``None`` when everyone may."""
        return None


@dataclass(slots=True, unsafe_hash=True)
class HandStarted(Event):
    """Cards are dealt; ``start`` was turned up and ``first`` plays first."""

    dealer: int
    first: int
    start: CardFace
    clockwise: bool


@dataclass(slots=True, unsafe_hash=True)
class CardsDealt(Event):
    """The cards dealt to ``seat`` (private)."""

    seat: int
    cards: tuple[int, ...]

    @property
    def audience(self) -> frozenset[int] | None:
        """Only the owner."""
        return frozenset((self.seat,))


@dataclass(slots=True, unsafe_hash=True)
class StartCardReturned(Event):
    """A Wild Draw Four turned up at the start went back into the pile (R-SETUP-5)."""

    face: CardFace


@dataclass(slots=True, unsafe_hash=True)
class CardPlayed(Event):
    """``seat`` played ``face`` (card id ``card``), naming ``colour`` if it is a wild."""

    seat: int
    card: int
    face: CardFace
    colour: Colour | None
    jump_in: bool = False


@dataclass(slots=True, unsafe_hash=True)
class ColourChosen(Event):
    """``seat`` named ``colour`` for a Wild turned up at the start."""

    seat: int
    colour: Colour


@dataclass(slots=True, unsafe_hash=True)
class CardsDrawn(Event):
    """``seat`` drew ``count`` cards (public: the count only)."""

    seat: int
    count: int
    cause: DrawCause


@dataclass(slots=True, unsafe_hash=True)
class CardsReceived(Event):
    """The cards ``seat`` drew (private)."""

    seat: int
    cards: tuple[int, ...]

    @property
    def audience(self) -> frozenset[int] | None:
        """Only the owner."""
        return frozenset((self.seat,))


@dataclass(slots=True, unsafe_hash=True)
class PileReshuffled(Event):
    """The discard pile but its top was shuffled into a new draw pile (R-TURN-6)."""

    size: int


@dataclass(slots=True, unsafe_hash=True)
class DrawSkipped(Event):
    """No card was left to draw, so the draw was skipped (R-TURN-6)."""

    seat: int


@dataclass(slots=True, unsafe_hash=True)
class TurnSkipped(Event):
    """``seat`` lost the turn."""

    seat: int


@dataclass(slots=True, unsafe_hash=True)
class DirectionReversed(Event):
    """Play now goes clockwise or not."""

    clockwise: bool


@dataclass(slots=True, unsafe_hash=True)
class Passed(Event):
    """``seat`` kept the card just drawn and ended the turn."""

    seat: int


@dataclass(slots=True, unsafe_hash=True)
class ChallengeResolved(Event):
    """``challenger`` challenged ``challenged``'s Wild Draw Four."""

    challenger: int
    challenged: int
    guilty: bool
    retracted: bool = False  # the card went back to the guilty hand and the colour reverted


@dataclass(slots=True, unsafe_hash=True)
class HandRevealed(Event):
    """``seat``'s hand as it was after the Wild Draw Four, shown to ``viewer`` (R-CHAL-2)."""

    seat: int
    viewer: int
    cards: tuple[int, ...]

    @property
    def audience(self) -> frozenset[int] | None:
        """Only the challenger."""
        return frozenset((self.viewer,))


@dataclass(slots=True, unsafe_hash=True)
class UnoCalled(Event):
    """``seat`` called UNO; ``false_call`` when they held more than one card (R-UNO-6)."""

    seat: int
    false_call: bool = False


@dataclass(slots=True, unsafe_hash=True)
class UnoCaught(Event):
    """``catcher`` caught ``target``; ``false_catch`` when the target had called (R-UNO-6)."""

    catcher: int
    target: int
    false_catch: bool = False


@dataclass(slots=True, unsafe_hash=True)
class UnoPenalised(Event):
    """``seat`` reached one card without calling and drew automatically (R-UNO-3)."""

    seat: int


@dataclass(slots=True, unsafe_hash=True)
class HandsSwapped(Event):
    """``seat`` swapped hands with ``target``: Swap Hands (R-DECK-4), a 0 or a 7 as a spell
    (R-ALT-2, R-ALT-3)."""

    seat: int
    target: int


@dataclass(slots=True, unsafe_hash=True)
class HandsRotated(Event):
    """``seat``'s 0 passed every hand to the next player; ``clockwise`` says which way
    (R-ALT-2 ``rotate``)."""

    seat: int
    clockwise: bool


@dataclass(slots=True, unsafe_hash=True)
class HandsRedealt(Event):
    """``seat``'s blank card shuffled every hand together and dealt each player as many
    cards as they held (R-ALT-6 ``redeal``); each seat's new cards are in its view."""

    seat: int


@dataclass(slots=True, unsafe_hash=True)
class CardsGiven(Event):
    """``count`` cards went from ``seat``'s hand to ``target``'s (public: the count only;
    ``cause`` says why: a Skip's give, a partner's gift, a blank card's take)."""

    seat: int
    target: int
    count: int
    cause: GiveCause


@dataclass(slots=True, unsafe_hash=True)
class GivenCards(Event):
    """The cards of :class:`CardsGiven`, seen only by the two players concerned."""

    seat: int
    target: int
    cards: tuple[int, ...]

    @property
    def audience(self) -> frozenset[int] | None:
        """The one who gave and the one who got them."""
        return frozenset((self.seat, self.target))


@dataclass(slots=True, unsafe_hash=True)
class CardsPutDown(Event):
    """``seat`` put ``faces`` (card ids ``cards``) on the discard pile at once and without
    their effects (R-ALT-2 ``discard_colour``, R-ALT-6 ``action_dump`` and ``colour_round``);
    ``on_top`` is false when they went beneath the top card (``action_dump``)."""

    seat: int
    cards: tuple[int, ...]
    faces: tuple[CardFace, ...]
    on_top: bool


@dataclass(slots=True, unsafe_hash=True)
class CardsFlipped(Event):
    """A Flip turned every card over (R-FLIP-4): ``side`` is now in play (0 light, 1 dark)
    and ``top`` is the new top of the discard pile; public.

    The discard pile was turned over as a whole, so its old bottom card is the new top, and
    ``colour`` is that face's colour (``None`` when it is a wild: the player whose turn it is
    names the colour, as for a start Wild).
    """

    side: int
    top: CardFace
    colour: Colour | None


@dataclass(slots=True, unsafe_hash=True)
class PlayerWentOut(Event):
    """``seat`` played their last card and finished in ``place`` (1 = first)."""

    seat: int
    place: int


@dataclass(slots=True, unsafe_hash=True)
class PlayerLeft(Event):
    """``seat`` left the hand; its ``cards`` went under the draw pile."""

    seat: int
    cards: int


@dataclass(slots=True, unsafe_hash=True)
class HandEnded(Event):
    """The hand is over; ``ranking`` lists seats from first to last."""

    termination: Termination
    ranking: tuple[int, ...]


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``None``: the public only)."""
    return [e for e in events if e.audience is None or (seat is not None and seat in e.audience)]
