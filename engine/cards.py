"""Cards, faces and decks (R-DECK-1 … R-DECK-4).

A *face* is what is printed on one side of a card: a colour (none for wilds), a kind and, for
number cards, a number. Faces are interned values with a short notation that round-trips::

    >>> CardFace.parse("R7")
    CardFace.parse('R7')
    >>> str(CardFace.parse("BD2")), CardFace.parse("W4").is_wild
    ('BD2', True)

A *physical card* is an integer id into a :class:`Deck`. The deck maps each id to one face per
side; classic decks have one side, and UNO Flip (a later variant) gives each card two, so a
hand of ids stays the same when the table turns over and only the side in play changes.

UNO Flip (R-FLIP) adds the dark colours pink ``P``, teal ``T``, orange ``O`` and purple ``V``
and the kinds Draw One ``D1``, Flip ``F``, Wild Draw Two ``W2`` (light side), Draw Five
``D5``, Skip Everyone ``SE`` and Wild Draw Colour ``WC`` (dark side); see docs/notation.md::

    >>> str(CardFace.parse("TSE")), CardFace.parse("PD5").kind, CardFace.parse("WC").is_wild
    ('TSE', <Kind.DRAW_FIVE: 'D5'>, True)
    >>> flip_deck().size, str(flip_deck().face(0, 1))
    (112, 'OR')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar


class Colour(enum.Enum):
    """A card colour. The value is the one-letter notation.

    Iterating ``Colour`` lists the four classic (UNO Flip: light) colours only, as it always
    did; the dark colours of UNO Flip (``PINK``, ``TEAL``, ``ORANGE``, ``PURPLE``) are
    ``Colour`` members too, but listed in :data:`DARK_COLOURS` (all eight:
    :data:`ALL_COLOURS`). Which colours a hand plays with is ``Deck.colours[side]``.
    """

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    # The dark colours, added below as members outside the iteration (see the docstring).
    PINK: ClassVar[Colour]
    TEAL: ClassVar[Colour]
    ORANGE: ClassVar[Colour]
    PURPLE: ClassVar[Colour]

    @classmethod
    def parse(cls, text: str) -> Colour:
        """Parse a colour from its letter (``R``, ``P``) or English name (``red``, ``pink``)."""
        key = text.strip().upper()
        for colour in ALL_COLOURS:
            if key in (colour.value, colour.name):
                return colour
        raise ValueError(f"unknown colour {text!r}")


def _hidden_member(cls: type[Colour], name: str, value: str) -> Colour:
    """A member reachable as ``Colour.NAME``, ``Colour(value)`` and ``Colour[NAME]`` (and so
    by pickle and copy), but left out of ``iter(Colour)`` and ``len(Colour)``."""
    member = object.__new__(cls)
    member._value_ = value
    member._name_ = name
    object.__setattr__(member, "__objclass__", cls)
    type.__setattr__(cls, name, member)  # before the member map: EnumType refuses after
    cls._member_map_[name] = member
    cls._value2member_map_[value] = member
    return member


CLASSIC_COLOURS: tuple[Colour, ...] = (Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE)
#: The light side of UNO Flip plays the classic colours.
LIGHT_COLOURS = CLASSIC_COLOURS
#: The dark side of UNO Flip (R-FLIP-1): pink, teal, orange, purple.
DARK_COLOURS: tuple[Colour, ...] = tuple(
    _hidden_member(Colour, name, value)
    for name, value in (("PINK", "P"), ("TEAL", "T"), ("ORANGE", "O"), ("PURPLE", "V"))
)
ALL_COLOURS: tuple[Colour, ...] = CLASSIC_COLOURS + DARK_COLOURS


class Kind(enum.Enum):
    """What a face does. The value is the notation suffix (numbers use their digit)."""

    NUMBER = "#"
    SKIP = "S"
    REVERSE = "R"
    DRAW_TWO = "D2"
    WILD = "W"
    WILD_DRAW_FOUR = "W4"
    SWAP_HANDS = "WH"
    BLANK = "WX"  # R-DECK-5: a blank wild; what it does is the table's ``blank_effect``
    # UNO Flip (R-FLIP-3/4/5). Reverse, Skip and Wild are the classic kinds on both sides.
    DRAW_ONE = "D1"
    FLIP = "F"
    WILD_DRAW_TWO = "W2"
    DRAW_FIVE = "D5"
    SKIP_EVERYONE = "SE"
    WILD_DRAW_COLOUR = "WC"

    @property
    def is_wild(self) -> bool:
        """Wild kinds have no printed colour and can be played on anything."""
        return self in _WILD_KINDS

    @property
    def is_action(self) -> bool:
        """Everything but a number card (R-END-2 and R-TIME-1 treat these alike)."""
        return self is not Kind.NUMBER

    @property
    def draw_amount(self) -> int:
        """Cards the next player must draw when this face takes effect."""
        return _DRAW_AMOUNTS.get(self, 0)


_WILD_KINDS = frozenset(
    {
        Kind.WILD,
        Kind.WILD_DRAW_FOUR,
        Kind.SWAP_HANDS,
        Kind.BLANK,
        Kind.WILD_DRAW_TWO,
        Kind.WILD_DRAW_COLOUR,
    }
)
# Wild Draw Colour draws "until the named colour": no fixed amount (see engine.step).
_DRAW_AMOUNTS = {
    Kind.DRAW_TWO: 2,
    Kind.WILD_DRAW_FOUR: 4,
    Kind.DRAW_ONE: 1,
    Kind.DRAW_FIVE: 5,
    Kind.WILD_DRAW_TWO: 2,
}
_COLOURED_SUFFIXES = {
    k.value: k
    for k in (
        Kind.SKIP,
        Kind.REVERSE,
        Kind.DRAW_TWO,
        Kind.DRAW_ONE,
        Kind.FLIP,
        Kind.DRAW_FIVE,
        Kind.SKIP_EVERYONE,
    )
}
_WILD_NOTATIONS = {k.value: k for k in _WILD_KINDS}


@dataclass(frozen=True, slots=True)
class CardFace:
    """One printed face. Build faces with :meth:`parse` or :meth:`of`; they are interned."""

    colour: Colour | None
    kind: Kind
    number: int | None = None
    # ``symbol`` is what "matches by number or symbol" compares (R-TURN-1): the digit for
    # number cards, the kind otherwise. Precomputed because matching is the engine's hot path.
    symbol: object = field(init=False, compare=False, repr=False)
    notation: str = field(init=False, compare=False, repr=False)

    _interned: ClassVar[dict[str, CardFace]] = {}

    def __post_init__(self) -> None:
        if self.kind is Kind.NUMBER:
            if self.number is None or not 0 <= self.number <= 9 or self.colour is None:
                raise ValueError("a number card needs a colour and a number 0-9")
            text = f"{self.colour.value}{self.number}"
        else:
            if self.number is not None:
                raise ValueError("only number cards carry a number")
            if self.kind.is_wild != (self.colour is None):
                raise ValueError("wild cards have no colour and coloured cards have one")
            text = self.kind.value if self.colour is None else self.colour.value + self.kind.value
        object.__setattr__(self, "symbol", self.number if self.kind is Kind.NUMBER else self.kind)
        object.__setattr__(self, "notation", text)

    @classmethod
    def of(cls, colour: Colour | None, kind: Kind, number: int | None = None) -> CardFace:
        """Return the interned face with these properties."""
        face = cls(colour, kind, number)
        return cls._interned.setdefault(face.notation, face)

    @classmethod
    def parse(cls, text: str) -> CardFace:
        """Parse the short notation: ``R7``, ``GS``, ``YR``, ``BD2``, ``W``, ``W4``, ``WH``, ``WX``;
        UNO Flip: ``RD1``, ``BF``, ``W2``, ``P7``, ``TD5``, ``OSE``, ``VR``, ``WC``."""
        key = text.strip().upper()
        face = cls._interned.get(key)
        if face is not None:
            return face
        if key in _WILD_NOTATIONS:
            return cls.of(None, _WILD_NOTATIONS[key])
        if len(key) >= 2:
            try:
                colour = Colour(key[0])
            except ValueError:
                colour = None
            rest = key[1:]
            if colour is not None:
                if rest.isdigit() and len(rest) == 1:
                    return cls.of(colour, Kind.NUMBER, int(rest))
                if rest in _COLOURED_SUFFIXES:
                    return cls.of(colour, _COLOURED_SUFFIXES[rest])
        raise ValueError(f"not a card: {text!r}")

    @property
    def is_wild(self) -> bool:
        """True for Wild, Wild Draw Four, Swap Hands and blank cards (Flip: Wild Draw Two and
        Colour)."""
        return self.colour is None

    def __hash__(self) -> int:
        # Faces key the engine's caches; the notation's string hash is cached by Python.
        return hash(self.notation)

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"CardFace.parse({self.notation!r})"


def matches(face: CardFace, top: CardFace, colour: Colour | None) -> bool:
    """R-TURN-1/2: whether ``face`` may be played on ``top`` while ``colour`` is in play: a
    wild, the same colour, or the same number or symbol.

    The engine's one statement of the rule. Its fast paths read it from the per-card tables
    of :mod:`engine.tables`, which are built by calling this function.

    >>> red_7, blue_7 = CardFace.parse("R7"), CardFace.parse("B7")
    >>> matches(blue_7, red_7, Colour.RED), matches(CardFace.parse("BS"), red_7, Colour.RED)
    (True, False)
    >>> matches(CardFace.parse("W4"), red_7, Colour.RED)
    True
    """
    return face.colour is None or face.colour is colour or face.symbol == top.symbol


#: Points of each kind in a classic deck (R-DECK-2); number cards score their number.
CLASSIC_POINTS: dict[Kind, int] = {
    Kind.SKIP: 20,
    Kind.REVERSE: 20,
    Kind.DRAW_TWO: 20,
    Kind.WILD: 50,
    Kind.WILD_DRAW_FOUR: 50,
    Kind.SWAP_HANDS: 50,
    Kind.BLANK: 50,  # R-DECK-5
}


@dataclass(frozen=True, slots=True)
class Deck:
    """An ordered set of physical cards: card id ``i`` shows ``sides[side][i]``.

    ``sides`` has one entry per side of the cards (one for classic decks). ``points`` gives
    the value of each non-number kind. ``colours[side]`` lists the colours printed on that
    side (the colours a wild may name there), in :data:`ALL_COLOURS` order.
    """

    name: str
    sides: tuple[tuple[CardFace, ...], ...]
    points: dict[Kind, int] = field(compare=False, hash=False)
    colours: tuple[tuple[Colour, ...], ...] = field(
        init=False, compare=False, hash=False, repr=False
    )

    def __post_init__(self) -> None:
        colours = tuple(
            tuple(c for c in ALL_COLOURS if any(f.colour is c for f in faces))
            for faces in self.sides
        )
        object.__setattr__(self, "colours", colours)

    @property
    def size(self) -> int:
        """Number of physical cards."""
        return len(self.sides[0])

    def face(self, card: int, side: int = 0) -> CardFace:
        """The face of card ``card`` on ``side``."""
        return self.sides[side][card]

    def value(self, face: CardFace) -> int:
        """Points of a face (R-DECK-2)."""
        return face.number if face.number is not None else self.points[face.kind]

    def other_side(self, side: int) -> int:
        """The side facing away when ``side`` is in play (the same side for one-sided decks)."""
        return (side + 1) % len(self.sides)

    def card_notation(self, card: int, side: int = 0) -> str:
        """A physical card written as ``face#id``, for example ``R7#12``."""
        return f"{self.sides[side][card].notation}#{card}"

    def parse_card(self, text: str, side: int = 0) -> int:
        """Inverse of :meth:`card_notation`; checks that the id shows that face."""
        face_text, sep, id_text = text.partition("#")
        if not sep or not id_text.isdigit():
            raise ValueError(f"not a physical card: {text!r}")
        card = int(id_text)
        if not 0 <= card < self.size:
            raise ValueError(f"card id {card} is not in the {self.name} deck")
        if self.sides[side][card] is not CardFace.parse(face_text):
            raise ValueError(f"card #{card} is {self.sides[side][card]}, not {face_text}")
        return card


def _classic_faces(*, swap_hands: bool, copies: int, blanks: int) -> list[CardFace]:
    # Identical faces get adjacent ids, so a hand sorted by id lists duplicates together:
    # the engine dedupes them with one comparison and hands read grouped by colour.
    faces: list[CardFace] = []
    for colour in CLASSIC_COLOURS:
        faces.extend([CardFace.of(colour, Kind.NUMBER, 0)] * copies)
        for n in range(1, 10):
            faces.extend([CardFace.of(colour, Kind.NUMBER, n)] * (2 * copies))
        for kind in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO):
            faces.extend([CardFace.of(colour, kind)] * (2 * copies))
    faces.extend([CardFace.of(None, Kind.WILD)] * (4 * copies))
    faces.extend([CardFace.of(None, Kind.WILD_DRAW_FOUR)] * (4 * copies))
    if swap_hands:
        # The modern deck (R-DECK-4) adds one Swap Hands wild to each 108 cards.
        faces.extend([CardFace.of(None, Kind.SWAP_HANDS)] * copies)
    # R-DECK-5: the blank cards come last, as many as the table asks for (0-4) whatever the
    # number of decks.
    faces.extend([CardFace.of(None, Kind.BLANK)] * blanks)
    return faces


@cache
def classic_deck(
    *, two_decks: bool = False, modern_deck: bool = False, blank_cards: int = 0
) -> Deck:
    """The 108-card deck (R-DECK-1), doubled for ``two_decks`` (R-DECK-3), plus Swap Hands
    for ``modern_deck`` (R-DECK-4) and ``blank_cards`` blank wilds (R-DECK-5).

    >>> classic_deck().size, classic_deck(two_decks=True).size
    (108, 216)
    >>> deck = classic_deck(blank_cards=4)
    >>> deck.size, deck.name, str(deck.face(111))
    (112, 'classic+blank4', 'WX')
    """
    faces = _classic_faces(swap_hands=modern_deck, copies=2 if two_decks else 1, blanks=blank_cards)
    name = (
        "classic"
        + ("+modern" if modern_deck else "")
        + (f"+blank{blank_cards}" if blank_cards else "")
        + ("x2" if two_decks else "")
    )
    return Deck(name=name, sides=(tuple(faces),), points=CLASSIC_POINTS)


#: Points of UNO Flip (R-FLIP-7); number cards score their number.
FLIP_POINTS: dict[Kind, int] = {
    Kind.DRAW_ONE: 10,
    Kind.DRAW_FIVE: 20,
    Kind.REVERSE: 20,
    Kind.SKIP: 20,
    Kind.SKIP_EVERYONE: 30,
    Kind.FLIP: 20,
    Kind.WILD: 40,
    Kind.WILD_DRAW_TWO: 50,
    Kind.WILD_DRAW_COLOUR: 60,
}

#: The light ranks per colour (R-FLIP-1), in the order of the light ids.
_LIGHT_RANKS: tuple[int | Kind, ...] = (
    *range(1, 10),
    Kind.DRAW_ONE,
    Kind.REVERSE,
    Kind.SKIP,
    Kind.FLIP,
)
#: The dark ranks, in the order the pairing deals them out (actions spread among numbers).
_DARK_RANKS: tuple[int | Kind, ...] = (
    1,
    2,
    3,
    Kind.DRAW_FIVE,
    4,
    5,
    Kind.REVERSE,
    6,
    7,
    Kind.SKIP_EVERYONE,
    8,
    9,
    Kind.FLIP,
)
#: Light pair ``u`` carries dark pair ``(u + FLIP_PAIRING_OFFSET) % 56`` (docs/notation.md).
FLIP_PAIRING_OFFSET = 26


def _face(colour: Colour | None, rank: int | Kind) -> CardFace:
    if isinstance(rank, int):
        return CardFace.of(colour, Kind.NUMBER, rank)
    return CardFace.of(colour, rank)


def flip_pairs() -> tuple[tuple[CardFace, CardFace], ...]:
    """The 56 pairs of UNO Flip (R-FLIP-1): ``(light, dark)`` faces printed on two cards each.

    The light pairs are listed colour by colour (red, yellow, green, blue: 1-9, Draw One,
    Reverse, Skip, Flip), then Wild, Wild, Wild Draw Two, Wild Draw Two; the dark pairs rank
    by rank (1, 2, 3, Draw Five, 4, 5, Reverse, 6, 7, Skip Everyone, 8, 9, Flip: pink, teal,
    orange, purple each), then Wild, Wild, Wild Draw Colour, Wild Draw Colour. Light pair
    ``u`` is backed by dark pair ``(u + 26) % 56``: a fixed rotation, so both sides keep the
    copies of every face on adjacent ids (the engine's fast paths rely on it).

    >>> [f"{a}/{b}" for a, b in flip_pairs()[:3]]
    ['R1/OR', 'R2/VR', 'R3/P6']
    """
    light = [_face(c, r) for c in LIGHT_COLOURS for r in _LIGHT_RANKS]
    light += [CardFace.of(None, Kind.WILD)] * 2 + [CardFace.of(None, Kind.WILD_DRAW_TWO)] * 2
    dark = [_face(c, r) for r in _DARK_RANKS for c in DARK_COLOURS]
    dark += [CardFace.of(None, Kind.WILD)] * 2 + [CardFace.of(None, Kind.WILD_DRAW_COLOUR)] * 2
    n = len(light)
    return tuple((light[u], dark[(u + FLIP_PAIRING_OFFSET) % n]) for u in range(n))


@cache
def flip_deck(*, two_decks: bool = False) -> Deck:
    """The 112 double-sided cards of UNO Flip (R-FLIP-1): side 0 light, side 1 dark.

    Card ids ``2u`` and ``2u + 1`` carry pair ``u`` of :func:`flip_pairs` (``two_decks``:
    ids ``4u`` to ``4u + 3``).

    >>> deck = flip_deck()
    >>> deck.size, deck.card_notation(0), deck.card_notation(0, 1), deck.colours[1][0]
    (112, 'R1#0', 'OR#0', <Colour.PINK: 'P'>)
    """
    copies = 4 if two_decks else 2
    light: list[CardFace] = []
    dark: list[CardFace] = []
    for light_face, dark_face in flip_pairs():
        light.extend([light_face] * copies)
        dark.extend([dark_face] * copies)
    name = "flip" + ("x2" if two_decks else "")
    return Deck(name=name, sides=(tuple(light), tuple(dark)), points=FLIP_POINTS)
