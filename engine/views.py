"""Projections of a state for hidden information.

Renders and presenters accept only these views, so a bug downstream can never show a hand to
someone who must not see it. :class:`TableView` holds no hand at all; :class:`PlayerView` adds
the viewer's own hand and legal actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import CardFace, Colour
from .events import Termination
from .hand import AltState, Hand, Phase
from .rules import Rules


@dataclass(frozen=True, slots=True)
class TableView:
    """What everyone at the table may see (R-UNO-5: every hand's size, never its cards).

    Besides the counts, the view keeps what every player at a physical table has seen: the
    faces of the discard pile (each was played face up; bottom first, the top last), the
    colour in play before a Wild Draw Four under challenge and who played it (R-CHAL-2), and
    the table's rules. Computer players reason from these (players/).

    UNO Flip (R-FLIP): ``side`` is the side in play (0 light, 1 dark). Every card has a
    face on the other side too, and at a real table everyone sees the back of every hand
    and of the draw pile: ``backs[seat]`` lists the other-side faces of that seat's cards
    (card-id order, so their order tells nothing about the player's arrangement) and
    ``draw_back`` is the other-side face of the draw pile's top card. Both are public by the
    rules of the game, not a leak; for one-sided decks they are empty and ``None``.
    """

    seats: int
    dealer: int
    current: int
    phase: Phase
    clockwise: bool
    colour: Colour | None
    top: CardFace
    discard_size: int
    draw_size: int
    card_counts: tuple[int, ...]
    playing: tuple[bool, ...]
    out: tuple[int, ...]
    pending: int
    uno_seat: int | None
    uno_called: bool
    termination: Termination | None
    ranking: tuple[int, ...]
    version: int
    side: int
    discard: tuple[CardFace, ...]  # the faces of the discard pile, bottom first (top last)
    prior_colour: Colour | None  # the colour before the Wild Draw Four under challenge
    offender: int | None  # who played the Wild Draw Four under challenge
    rules: Rules
    backs: tuple[tuple[CardFace, ...], ...] = ()  # UNO Flip: each hand's other side (public)
    draw_back: CardFace | None = None  # UNO Flip: the other side of the draw pile's top
    #: The alternative rules' state (RULES.md §13): quiet turns left, the seats that owe an
    #: UNO call after an exchange, who a gift is for, a colour round's order; all public.
    alt: AltState | None = None


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat may see: the table, its own hand and its legal actions."""

    seat: int
    table: TableView
    hand: tuple[tuple[int, CardFace], ...]  # (card id, face), in card-id order
    legal: tuple[Action, ...]
    drawn: int | None  # the card just drawn, while deciding whether to play it


def table_view(state: Hand) -> TableView:
    """The public projection of ``state``."""
    faces = state.deck.sides[state.side]
    return TableView(
        seats=state.seats,
        dealer=state.dealer,
        current=state.current,
        phase=state.phase,
        clockwise=state.clockwise,
        colour=state.colour,
        top=state.top,
        discard_size=len(state.discard),
        draw_size=len(state.draw_pile),
        card_counts=state.card_counts(),
        playing=state.playing,
        out=state.out,
        pending=state.pending,
        uno_seat=state.uno_seat,
        uno_called=state.uno_called,
        termination=state.termination,
        ranking=state.ranking,
        version=state.version,
        side=state.side,
        discard=tuple(faces[c] for c in state.discard),
        prior_colour=state.prior_colour,
        offender=state.offender,
        rules=state.rules,
        backs=_backs(state),
        draw_back=_draw_back(state),
        alt=state.alt,
    )


def _backs(state: Hand) -> tuple[tuple[CardFace, ...], ...]:
    if len(state.deck.sides) < 2:
        return ()
    return tuple(state.back_faces(seat) for seat in range(state.seats))


def _draw_back(state: Hand) -> CardFace | None:
    deck = state.deck
    if len(deck.sides) < 2 or not state.draw_pile:
        return None
    return deck.sides[deck.other_side(state.side)][state.draw_pile[-1]]


def player_view(state: Hand, seat: int, legal: tuple[Action, ...]) -> PlayerView:
    """The projection of ``state`` for ``seat``, whose legal actions are ``legal``."""
    if not 0 <= seat < state.seats:
        raise ValueError(f"no seat {seat}")
    return PlayerView(
        seat=seat,
        table=table_view(state),
        hand=tuple((c, state.face(c)) for c in state.hands[seat]),
        legal=legal,
        drawn=state.drawn if seat == state.current else None,
    )
