"""Palette, colour symbols and sizes shared by every render.

Colour is never the only cue: every card colour also has its own *symbol*, printed on the
card under each corner index, in the colour swatch of the table and in the quadrants of the
wild cards, so players who cannot tell the fills apart can still read the cards.

======  =================  ==========================
colour  fill (RGB)         symbol
======  =================  ==========================
red     ``(218, 37, 46)``  circle ●
yellow  ``(250, 196, 0)``  triangle ▲ (pointing up)
green   ``(40, 158, 72)``  square ■
blue    ``(22, 104, 204)`` diamond ◆
wild    black card         all four, one per quadrant
======  =================  ==========================

The fills also differ in lightness (yellow lightest, blue and red darkest but of opposite
hue), and the symbols differ in outline, so either cue alone tells the colours apart.

UNO Flip (R-FLIP) has a dark side with four more colours, each with a symbol of its own,
distinct in outline from the four above (every symbol is a plain polygon, see
:func:`renders.card.symbol_points`):

======  ==================  ==========================
colour  fill (RGB)          symbol
======  ==================  ==========================
pink    ``(230, 80, 160)``  heart ♥
teal    ``(0, 128, 136)``   cross ✚
orange  ``(250, 150, 30)``  five-pointed star ★
purple  ``(110, 50, 170)``  crescent ☾
wild    dark violet card    all four, one per quadrant
======  ==================  ==========================

Lightness again differs (orange lightest, then pink, teal, purple darkest). Dark-side cards
have a black border and a black central oval (light-side cards: white), so the side of a card
shows even on the smallest fan; the dark Wild has a violet body, a black border and the four
dark colours in its oval. The table shows the side in play without words: a sun on the
classic green felt (light side), a crescent moon on a night-blue felt (dark side).

Nothing here touches Pillow: these are plain values. :mod:`renders.assets` turns them into
fonts and the fixed PNG palette, lazily.
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from engine.cards import CLASSIC_COLOURS, DARK_COLOURS, Colour

RGB = tuple[int, int, int]


class Symbol(enum.Enum):
    """The shape that stands for a colour (see the module docstring)."""

    CIRCLE = "circle"
    TRIANGLE = "triangle"
    SQUARE = "square"
    DIAMOND = "diamond"
    # UNO Flip, dark side
    HEART = "heart"
    CROSS = "cross"
    STAR = "star"
    CRESCENT = "crescent"


class _Look(NamedTuple):
    fill: RGB
    symbol: Symbol


#: Card fill and symbol of every colour: the four classic ones, then UNO Flip's dark side
#: (the two tables of the module docstring). Read them with :func:`fill` and :func:`symbol`.
_LOOK: Final[dict[Colour, _Look]] = {
    Colour.RED: _Look((218, 37, 46), Symbol.CIRCLE),
    Colour.YELLOW: _Look((250, 196, 0), Symbol.TRIANGLE),
    Colour.GREEN: _Look((40, 158, 72), Symbol.SQUARE),
    Colour.BLUE: _Look((22, 104, 204), Symbol.DIAMOND),
    Colour.PINK: _Look((230, 80, 160), Symbol.HEART),
    Colour.TEAL: _Look((0, 128, 136), Symbol.CROSS),
    Colour.ORANGE: _Look((250, 150, 30), Symbol.STAR),
    Colour.PURPLE: _Look((110, 50, 170), Symbol.CRESCENT),
}

#: Card fill of each of the four classic colours.
FILL: Final[dict[Colour, RGB]] = {c: _LOOK[c].fill for c in CLASSIC_COLOURS}
#: Symbol of each of the four classic colours.
SYMBOL: Final[dict[Colour, Symbol]] = {c: _LOOK[c].symbol for c in CLASSIC_COLOURS}

#: Quadrants of the wild oval, in the order top-left, top-right, bottom-left, bottom-right.
WILD_QUADRANTS: Final[tuple[Colour, ...]] = (
    Colour.RED,
    Colour.BLUE,
    Colour.YELLOW,
    Colour.GREEN,
)

#: UNO Flip: card fill of each dark colour.
DARK_FILL: Final[dict[Colour, RGB]] = {c: _LOOK[c].fill for c in DARK_COLOURS}
#: UNO Flip: symbol of each dark colour.
DARK_SYMBOL: Final[dict[Colour, Symbol]] = {c: _LOOK[c].symbol for c in DARK_COLOURS}

#: Quadrants of the dark Wild's oval (same order as :data:`WILD_QUADRANTS`).
DARK_WILD_QUADRANTS: Final[tuple[Colour, ...]] = DARK_COLOURS

WHITE: Final[RGB] = (255, 255, 255)
INK: Final[RGB] = (18, 18, 22)  # outlines and the wild cards' body
EDGE: Final[RGB] = (92, 92, 100)  # the hairline around a card's white border
BACK: Final[RGB] = (30, 30, 34)  # card back body
BACK_OVAL: Final[RGB] = (218, 37, 46)
BACK_TEXT: Final[RGB] = (250, 196, 0)
HIGHLIGHT: Final[RGB] = (255, 214, 64)  # outline of playable cards, current seat
DRAWN_MARK: Final[RGB] = (90, 220, 255)  # the card just drawn
SHADOW: Final[RGB] = (12, 14, 18)

#: Background of the hand image.
HAND_BG: Final[RGB] = (44, 47, 56)
#: Every other row of the boards (the leaderboard, the standings), so a long line is easy to
#: follow.
BOARD_STRIPE: Final[RGB] = (48, 49, 53)
#: UNO Flip, dark side in play: the hand's background, a lit violet, so the dark cards' black
#: borders stand out (on :data:`HAND_BG` they were black on near-black).
NIGHT_HAND_BG: Final[RGB] = (128, 120, 168)
#: How far a card that cannot be played now is blended toward the hand's background (0 = not
#: at all). Low enough that its colour, border and value stay readable on a phone; the
#: playable cards stand out by being raised and outlined instead.
DIM_AMOUNT: Final[float] = 0.3

#: The table: felt outside the table oval, the oval, its rim and the direction arrows.
FELT: Final[RGB] = (20, 62, 50)
TABLE: Final[RGB] = (30, 92, 72)
RIM: Final[RGB] = (14, 44, 36)
ARROW: Final[RGB] = (62, 132, 108)
PANEL: Final[RGB] = (16, 40, 34)
PANEL_CURRENT: Final[RGB] = (58, 70, 40)
PANEL_OUT: Final[RGB] = (60, 66, 66)
TEXT: Final[RGB] = (240, 240, 236)
TEXT_OUT: Final[RGB] = (150, 156, 156)
PENALTY: Final[RGB] = (226, 60, 40)
UNO_BUBBLE: Final[RGB] = (250, 196, 0)
GOLD: Final[RGB] = (255, 196, 40)

#: UNO Flip: the dark Wild's body (its border and every dark card's oval are :data:`INK`).
NIGHT: Final[RGB] = (58, 40, 92)
#: UNO Flip, dark side in play: the table's felt, oval, rim, arrows and seat panels.
NIGHT_FELT: Final[RGB] = (22, 20, 48)
NIGHT_TABLE: Final[RGB] = (44, 38, 88)
NIGHT_RIM: Final[RGB] = (12, 10, 30)
NIGHT_ARROW: Final[RGB] = (96, 86, 156)
NIGHT_PANEL: Final[RGB] = (26, 22, 54)
#: UNO Flip: the sun (light side in play; :data:`GOLD`) and the moon (dark side) on the table.
SUN: Final[RGB] = GOLD
MOON: Final[RGB] = (222, 216, 255)

#: Colours emoji use that the palette lacks otherwise (skin tones, purples, browns, sky and
#: sea blues...), most used first: without them a 💜 would turn grey-blue and a 👍🏽 grey in
#: the palette PNG. Made by ``tools/build_fonts.py --palette`` from the emoji font.
EMOJI_COLOURS: Final[tuple[RGB, ...]] = (
    (59, 136, 195),
    (221, 46, 68),
    (148, 102, 198),
    (87, 172, 232),
    (251, 170, 58),
    (255, 220, 93),
    (244, 145, 14),
    (119, 180, 109),
    (39, 95, 136),
    (182, 109, 87),
    (87, 118, 122),
    (217, 175, 123),
    (164, 204, 213),
    (221, 158, 113),
    (111, 82, 69),
    (214, 83, 81),
    (191, 28, 52),
    (154, 148, 183),
    (141, 88, 70),
    (235, 124, 80),
    (218, 234, 244),
    (246, 188, 131),
    (252, 204, 120),
    (107, 175, 171),
    (59, 148, 216),
    (47, 146, 177),
    (230, 20, 53),
)

# -- sizes (pixels) ------------------------------------------------------------------------

#: Card width in a hand; every card is 2:3.
HAND_CARD_W: Final = 68
#: Gap between cards side by side, and around the image.
HAND_GAP: Final = 8
HAND_PAD: Final = 10
#: Most cards in one row. Cards in a row lie side by side, never overlapping: a phone shows
#: the hand 360 px wide, so a row of 7 (544 px) is drawn at 66 %, where a card is 45 px wide
#: and its value 23 px tall; longer hands take more rows instead of narrower cards.
#: (How wide the picture is in pixels hardly changes that: the card is 7/8 of a row's width
#: whatever its size. 68 px keeps a 25-card hand within 30 KB; 84 px did not.)
HAND_ROW_MAX: Final = 7
#: How far down a card its big central value or icon reaches at most, as a fraction of the
#: card's height (outline included; ``tests/renders/test_hand.py`` measures every face).
VALUE_BOTTOM: Final = 0.76

TABLE_W: Final = 880
TABLE_H: Final = 600
TABLE_CARD_W: Final = 120
SEAT_W: Final = 164
SEAT_H: Final = 84  # room for a name in up to three lines above the fan
SEAT_BACK_W: Final = 18
#: Seats sit on an ellipse of these radii around the centre.
SEAT_RX: Final = 340
SEAT_RY: Final = 228

#: Supersampling factor for card art (drawn large, then reduced: smooth edges).
SUPERSAMPLE: Final = 3


def card_height(width: int) -> int:
    """Cards are 2:3."""
    return (width * 3 + 1) // 2


#: How far the value of a dark-side card is lightened toward white: in the plain colour,
#: purple on the black oval had a contrast of 2.3 and vanished at phone size.
DARK_GLYPH_TINT: Final[float] = 0.45


def dark_glyph(colour: Colour) -> RGB:
    """The fill of a dark-side card's value and icon: its colour lightened (see
    :data:`DARK_GLYPH_TINT`), outlined in white on the card's black oval."""
    r, g, b = fill(colour)
    t = DARK_GLYPH_TINT
    return (round(r + (255 - r) * t), round(g + (255 - g) * t), round(b + (255 - b) * t))


def hand_bg(side: int = 0) -> RGB:
    """The hand's background when ``side`` is in play (1: UNO Flip's dark side)."""
    return NIGHT_HAND_BG if side == 1 else HAND_BG


def dim(rgb: RGB, side: int = 0) -> RGB:
    """``rgb`` as it looks on a dimmed card of a hand played on ``side``."""
    a = DIM_AMOUNT
    r, g, b = rgb
    tr, tg, tb = hand_bg(side)
    return (round(r + (tr - r) * a), round(g + (tg - g) * a), round(b + (tb - b) * a))


def key_colours() -> tuple[RGB, ...]:
    """Every flat colour the art uses; the PNG palette is built around these."""
    base: list[RGB] = [FILL[c] for c in CLASSIC_COLOURS]
    base += [WHITE, INK, EDGE, BACK, HIGHLIGHT, DRAWN_MARK, SHADOW]
    dimmed = [dim(c) for c in base[:4]] + [dim(WHITE), dim(INK)]
    table = [FELT, TABLE, RIM, ARROW, PANEL, PANEL_CURRENT, PANEL_OUT, TEXT_OUT, PENALTY]
    table += [GOLD, HAND_BG]
    out: list[RGB] = []
    for c in [*base, *dimmed, *table]:
        if c not in out:
            out.append(c)
    return tuple(out)


def fill(colour: Colour) -> RGB:
    """Card fill of any colour, light (:data:`FILL`) or dark (:data:`DARK_FILL`)."""
    return _LOOK[colour].fill


def symbol(colour: Colour) -> Symbol:
    """Symbol of any colour, light (:data:`SYMBOL`) or dark (:data:`DARK_SYMBOL`)."""
    return _LOOK[colour].symbol


def flip_key_colours() -> tuple[RGB, ...]:
    """The flat colours UNO Flip adds to :func:`key_colours` (the dark side and the table)."""
    fills = [DARK_FILL[c] for c in DARK_COLOURS]
    glyphs = [dark_glyph(c) for c in DARK_COLOURS]
    cards = [*fills, *glyphs, NIGHT, WHITE, INK]
    base = [*fills, *glyphs, NIGHT, NIGHT_HAND_BG, *(dim(c, 1) for c in cards)]
    base += [NIGHT_FELT, NIGHT_TABLE, NIGHT_RIM, NIGHT_ARROW, NIGHT_PANEL, SUN, MOON]
    known = set(key_colours())
    out: list[RGB] = []
    for c in base:
        if c not in out and c not in known:
            out.append(c)
    return tuple(out)


def luminance(rgb: RGB) -> float:
    """Relative luminance of an sRGB colour (WCAG 2), 0 for black to 1 for white."""

    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio of two colours: 1 (the same) to 21 (black on white). Text and
    symbols need 3 to be read when large, 4.5 when small."""
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)
