"""Per-card facts of one side of a deck, precomputed once for the engine's hot paths.

Listing the plays of a hand and finding the card a play names run on every step; with these
tables each card costs one index instead of a few attribute reads and comparisons.

>>> from engine.cards import CardFace, Colour, classic_deck
>>> faces = classic_deck().sides[0]
>>> t = tables_for(faces)
>>> r7 = faces.index(CardFace.parse("R7"))
>>> t.adjacent_copies, t.plays[r7]
(True, (Play(face=CardFace.parse('R7'), colour=None, target=None),))
>>> row = t.plays_on(r7, Colour.BLUE)
>>> row[faces.index(CardFace.parse("B7"))] is t.plays[faces.index(CardFace.parse("B7"))]
True
>>> row[faces.index(CardFace.parse("G1"))]
()
"""

from __future__ import annotations

from .actions import Play
from .cards import ALL_COLOURS, CardFace, Colour, Deck, Kind, matches

#: In a :meth:`SideTables.plays_on` row, a Swap Hands that matches: its plays name a target,
#: so they depend on who is still in the hand (see ``engine.legality``).
SWAP_PLAYS: tuple[Play, ...] = (Play(CardFace.of(None, Kind.SWAP_HANDS), ALL_COLOURS[0]),)


class SideTables:
    """What the engine needs to know about each card id on one side of a deck."""

    __slots__ = ("adjacent_copies", "colours", "faces", "plays", "rows")

    def __init__(self, faces: tuple[CardFace, ...]) -> None:
        self.faces = faces
        # The colours printed on this side: what a wild may name (UNO Flip's dark side has
        # its own four). Classic decks: red, yellow, green, blue.
        self.colours = tuple(c for c in ALL_COLOURS if any(f.colour is c for f in faces))
        # The Plays of each card's face that name no target (one per colour for a wild), one
        # tuple shared by every copy: legal_actions() hands out these very objects, so
        # apply() finds them by identity, and copies of a face dedupe by identity too.
        by_face: dict[CardFace, tuple[Play, ...]] = {}
        for face in faces:
            if face not in by_face:
                colours = self.colours if face.is_wild else (None,)
                by_face[face] = tuple(Play(face, c) for c in colours)
        self.plays = tuple(by_face[face] for face in faces)
        # Whether all copies of each face have adjacent ids (so a sorted hand lists them
        # together). Every deck the engine builds does; the fast path of legal_actions relies on it.
        runs = [face for card, face in enumerate(faces) if not card or faces[card - 1] != face]
        self.adjacent_copies = len(runs) == len(by_face)
        # rows[top][i]: plays_on(top, colours[i]), built on first use (engine.legality reads it).
        self.rows: list[tuple[tuple[tuple[Play, ...], ...], ...] | None] = [None] * len(faces)

    def plays_on(self, top: int, colour: Colour) -> tuple[tuple[Play, ...], ...]:
        """R-TURN-1/2 per card id, on ``top`` with ``colour`` in play: the card's
        :attr:`plays` if it matches (:data:`SWAP_PLAYS` for a Swap Hands), else ``()``."""
        rows = self.rows[top]
        if rows is None:
            top_face = self.faces[top]
            rows = self.rows[top] = tuple(self._row(top_face, c) for c in self.colours)
        return rows[self.colours.index(colour)]

    def _row(self, top: CardFace, colour: Colour) -> tuple[tuple[Play, ...], ...]:
        return tuple(
            (SWAP_PLAYS if face.kind is Kind.SWAP_HANDS else plays)
            if matches(face, top, colour)  # the rule itself, once per (top, colour, card)
            else ()
            for face, plays in zip(self.faces, self.plays, strict=True)
        )


_POINTS: dict[int, tuple[Deck, tuple[tuple[int, ...], ...]]] = {}


def card_points(deck: Deck, side: int) -> tuple[int, ...]:
    """The points of each card id on ``side`` of ``deck`` (R-DECK-2), computed once a deck.

    >>> from engine.cards import classic_deck
    >>> deck = classic_deck()
    >>> points = card_points(deck, 0)
    >>> [points[c] for c in (deck.sides[0].index(CardFace.parse(f)) for f in ("R7", "GS", "W4"))]
    [7, 20, 50]
    """
    entry = _POINTS.get(id(deck))
    if entry is None or entry[0] is not deck:
        per_side = tuple(tuple(deck.value(face) for face in faces) for faces in deck.sides)
        entry = _POINTS[id(deck)] = (deck, per_side)
    return entry[1][side]


_TABLES: dict[int, tuple[tuple[CardFace, ...], SideTables]] = {}
_last: tuple[tuple[CardFace, ...], SideTables] | None = None


def tables_for(faces: tuple[CardFace, ...]) -> SideTables:
    """The tables of one side, built on first use (keyed by identity: sides are cached)."""
    global _last
    last = _last
    if last is not None and last[0] is faces:  # nearly always: one deck plays at a time
        return last[1]
    entry = _TABLES.get(id(faces))
    if entry is None or entry[0] is not faces:
        entry = _TABLES[id(faces)] = (faces, SideTables(faces))
    _last = entry
    return entry[1]
