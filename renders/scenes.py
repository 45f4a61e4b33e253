"""What a picture shows, as plain data: the scenes the renders draw, and their cache keys.

:func:`renders.render_hand` and :func:`renders.render_table` first reduce their view to a
*scene*, the exact set of facts the picture shows, and draw only from it. So a scene is
also the picture's identity: two views with equal scenes give byte-identical PNGs, and
:func:`hand_key` / :func:`table_key` (a digest of the scene, plus :data:`ART_VERSION`) let the
bot skip a render when nothing a picture shows has changed. Keys cost tens of microseconds
(no pixels, no text measured); a render costs milliseconds.

What each picture shows (everything else in a view, such as the version, the dealer, the
discard pile below the top card or a card's id, leaves its key unchanged):

- **hand** (:class:`HandScene`): the hand's faces in order, the UNO Flip side in play and
  whether the table plays UNO Flip (its palette) — nothing about the turn, what is playable
  or the card just drawn, so the others' moves never change a hand's picture.
- **table** (:class:`TableScene`): the direction of play; the UNO Flip side (``None`` at a
  classic table); the draw pile's size and, UNO Flip, the other side of its top card; the
  top card, the colour in play and the pending penalty; and per seat (:class:`SeatScene`) the
  name as drawn (cleaned; a missing name is the seat number), the card count, UNO Flip the
  first 12 faces of the hand's other side, whether the seat is still playing, is the one to
  move, won the hand, its rank when out, whether it shows the UNO! badge (:func:`calls_uno`:
  one card, called for), and its team (R-TEAM-2:
  partners sit alternately, so seat ``s`` plays for team ``s % teams``).
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, fields, is_dataclass

from engine.actions import Play
from engine.cards import CardFace, Colour
from engine.state import Phase
from engine.views import PlayerView, TableView

from .text import clean_name

#: Part of every key: bump it whenever the pictures change for the same scene (new art, new
#: fonts, a new palette, other PNG settings), so no cache serves an old picture.
#: 4: hands without raised, dimmed or marked cards (issue 26).
ART_VERSION = 4

#: Cards of a seat's UNO Flip fan drawn at most.
FAN_MAX = 12


@dataclass(frozen=True, slots=True)
class HandScene:
    """Everything :func:`renders.render_hand` draws."""

    faces: tuple[CardFace, ...]
    side: int  # the UNO Flip side in play (0 at a classic table)
    flip: bool  # an UNO Flip table (its palette)


@dataclass(frozen=True, slots=True)
class SeatScene:
    """One seat of the table, as drawn."""

    name: str
    count: int
    fan: tuple[CardFace, ...] | None  # UNO Flip: the other side of the hand; else backs
    playing: bool
    current: bool
    winner: bool
    rank: int | None  # 1-based place of a seat that is out (or of the hand's ranking)
    uno: bool
    team: int | None = None  # with teams (R-TEAM-2): the seat's team, 0-based


@dataclass(frozen=True, slots=True)
class TableScene:
    """Everything :func:`renders.render_table` draws."""

    clockwise: bool
    flip_side: int | None  # the UNO Flip side in play; None at a classic table
    draw_size: int
    draw_back: CardFace | None  # UNO Flip: the other side of the draw pile's top card
    top: CardFace
    colour: Colour | None
    pending: int
    seats: tuple[SeatScene, ...]

    @property
    def side(self) -> int:
        """The side the cards are seen on (0 at a classic table)."""
        return self.flip_side or 0


def playable_cards(view: PlayerView) -> frozenset[int]:
    """Ids of the cards ``view.seat`` may play now: faces named by a legal :class:`Play`
    (the hand message marks them in words; the picture does not show it).

    While deciding on a card just drawn (R-TURN-5), only that card may be played.
    """
    faces = {action.face for action in view.legal if isinstance(action, Play)}
    if not faces:
        return frozenset()
    if view.drawn is not None and view.table.phase is Phase.DRAWN:
        return frozenset(c for c, face in view.hand if c == view.drawn and face in faces)
    return frozenset(c for c, face in view.hand if face in faces)


def hand_scene(view: PlayerView) -> HandScene:
    """What :func:`renders.render_hand` shows of ``view``: its cards, seen on the side in
    play."""
    return HandScene(
        faces=tuple(face for _, face in view.hand),
        side=view.table.side,
        flip=view.table.rules.flip,
    )


def calls_uno(view: TableView, seat: int, called_uno: Collection[int] = ()) -> bool:
    """Whether ``seat`` shows the UNO! badge: it holds one card and has called UNO for it.

    The view remembers a call only while its window is open (R-UNO-1/2: until the next
    player begins their turn); ``called_uno`` names the seats the caller knows called for
    the card they hold since (its own record of the calls), so the badge stays as long as
    that one card does. A false call (R-UNO-6) shows nothing: the seat holds more cards.
    """
    if view.card_counts[seat] != 1 or not view.playing[seat]:
        return False
    return seat in called_uno or (view.uno_called and view.uno_seat == seat)


def table_scene(
    view: TableView, names: Sequence[str], called_uno: Collection[int] = ()
) -> TableScene:
    """What :func:`renders.render_table` shows of ``view`` with ``names`` (``called_uno`` as
    in :func:`calls_uno`)."""
    flip_side = view.side if view.rules.flip else None
    over = view.phase is Phase.HAND_OVER
    ranking = view.ranking if view.ranking else view.out
    seats = []
    for seat in range(view.seats):
        name = clean_name(names[seat]) if seat < len(names) else ""
        playing = view.playing[seat]
        backs = view.backs[seat] if seat < len(view.backs) else ()
        count = view.card_counts[seat]
        seats.append(
            SeatScene(
                name=name or str(seat + 1),
                count=count,
                fan=backs[:FAN_MAX] if flip_side is not None and count and backs else None,
                playing=playing,
                current=seat == view.current and not over and playing,
                winner=over and bool(view.ranking) and view.ranking[0] == seat,
                rank=ranking.index(seat) + 1 if seat in ranking else None,
                uno=calls_uno(view, seat, called_uno),
                team=seat % view.rules.teams if view.rules.teams else None,
            )
        )
    return TableScene(
        clockwise=view.clockwise,
        flip_side=flip_side,
        draw_size=view.draw_size,
        draw_back=view.draw_back if flip_side is not None else None,
        top=view.top,
        colour=view.colour,
        pending=view.pending,
        seats=tuple(seats),
    )


_PLAIN = (bool, int, str, type(None))
_FIELDS: dict[type, tuple[str, ...]] = {}


def _canonical(value: object) -> str:
    """A stable text of a scene: the same on every run, every machine, every Python."""
    kind = type(value)
    if kind in _PLAIN:
        return repr(value)
    if kind is tuple:
        return "(" + ",".join([_canonical(v) for v in value]) + ")"  # type: ignore[attr-defined]
    if isinstance(value, CardFace):
        return value.notation
    if isinstance(value, enum.Enum):
        return value.name
    if is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS.get(kind)
        if names is None:
            names = _FIELDS.setdefault(kind, tuple(f.name for f in fields(value)))
        inner = ",".join([_canonical(getattr(value, name)) for name in names])
        return f"{kind.__name__}({inner})"
    raise TypeError(f"no canonical form for {kind.__name__}")


def scene_key(scene: HandScene | TableScene) -> str:
    """The cache key of ``scene``: 32 hex digits, equal exactly when the scenes are equal
    (and :data:`ART_VERSION` is), so equal keys mean byte-identical pictures."""
    text = f"{ART_VERSION}:{_canonical(scene)}"
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def hand_key(view: PlayerView) -> str:
    """The key of ``render_hand(view)`` (see the module docstring)."""
    return scene_key(hand_scene(view))


def table_key(view: TableView, names: Sequence[str], *, called_uno: Collection[int] = ()) -> str:
    """The key of ``render_table(view, names, called_uno=called_uno)`` (see the module
    docstring)."""
    return scene_key(table_scene(view, names, called_uno))
