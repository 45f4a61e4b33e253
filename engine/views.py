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
from .state import GameState, Phase


@dataclass(frozen=True, slots=True)
class TableView:
    """What everyone at the table may see (R-UNO-5: every hand's size, never its cards)."""

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


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat may see: the table, its own hand and its legal actions."""

    seat: int
    table: TableView
    hand: tuple[tuple[int, CardFace], ...]  # (card id, face), in card-id order
    legal: tuple[Action, ...]
    drawn: int | None  # the card just drawn, while deciding whether to play it


def table_view(state: GameState) -> TableView:
    """The public projection of ``state``."""
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
    )


def player_view(state: GameState, seat: int) -> PlayerView:
    """The projection of ``state`` for ``seat``."""
    if not 0 <= seat < state.seats:
        raise ValueError(f"no seat {seat}")
    return PlayerView(
        seat=seat,
        table=table_view(state),
        hand=tuple((c, state.face(c)) for c in state.hands[seat]),
        legal=state.legal_actions(seat),
        drawn=state.drawn if seat == state.current else None,
    )
