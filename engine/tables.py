"""Per-card facts of one side of a deck, precomputed once for the engine's hot paths.

Listing the plays of a hand and finding the card a play names run on every step; with these
tables each card costs one index instead of a few attribute reads and comparisons.

>>> from engine.cards import CardFace, Colour, classic_deck
>>> faces = classic_deck().sides[0]
>>> t = tables_for(faces)
>>> r7 = faces.index(CardFace.parse("R7"))
>>> t.adjacent_copies, t.plays[r7]
(True, (Play(face=CardFace.parse('R7'), colour=None, target=None),))
>>> t.matching(r7, Colour.BLUE)[faces.index(CardFace.parse("B7"))]
1
"""

from __future__ import annotations

from .actions import Play
from .cards import ALL_COLOURS, CardFace, Colour, Kind, matches

#: ``matching()`` codes: how a card may be played on the top card.
NO, PLAYS, SWAP = 0, 1, 2


class SideTables:
    """What the engine needs to know about each card id on one side of a deck."""

    __slots__ = ("_rows", "adjacent_copies", "colours", "faces", "plays", "runs")

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
        # together). Every deck the engine builds does; the fast paths rely on it.
        runs = [face for card, face in enumerate(faces) if not card or faces[card - 1] != face]
        self.adjacent_copies = len(runs) == len(by_face)
        # Each face's run of ids, by notation (equal faces share it; its hash is cached).
        self.runs: dict[str, tuple[int, int]] = {}
        for card, face in enumerate(faces):
            low, _ = self.runs.get(face.notation, (card, card))
            self.runs[face.notation] = (low, card + 1)
        self._rows: list[tuple[bytes, ...] | None] = [None] * len(faces)

    def matching(self, top: int, colour: Colour) -> bytes:
        """R-TURN-1/2, per card id: NO, PLAYS or SWAP (a Swap Hands, played at a target)
        on ``top`` with ``colour`` in play."""
        row = self._rows[top]
        if row is None:
            row = self._rows[top] = tuple(self._row(self.faces[top], c) for c in self.colours)
        return row[self.colours.index(colour)]

    def _row(self, top: CardFace, colour: Colour) -> bytes:
        codes = bytearray(len(self.faces))
        for card, face in enumerate(self.faces):
            if matches(face, top, colour):  # the rule itself, once per (top, colour, card)
                codes[card] = SWAP if face.kind is Kind.SWAP_HANDS else PLAYS
        return bytes(codes)


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
