"""A player's stats card: a title, the name, the favourite colour, and a grid of figures.

Each fact is a tile: the figure large, its label small beneath. Labels and figures come from
the caller already worded and formatted in the reader's language, so nothing drawn here is a
word of ours; a label must fit :data:`LABEL_WIDTH` at :data:`LABEL_PX` (longer ones are cut,
and the catalogue tests refuse them). The favourite colour is the first tile: the table's
colour swatch, symbol included (:func:`renders.card.symbol_image`), so it reads without telling
the fills apart, over its label, as every other figure (issue 20: beside the name it had no
room, and often no label); a thin stripe of it underlines the header. The name is made smaller
to fit before it is cut.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.cards import DARK_COLOURS, Colour

from . import grid, theme
from .assets import encode_png
from .card import symbol_image
from .text import clean_name, measure

#: At most this many facts are drawn (the text copy beside the image carries them all).
MAX_FACTS = 24
COLUMNS = 3

_W = 640
_PAD = 16
_GAP = 10
_HEAD_H = 92
_TILE_H = 72
_SWATCH = 36
_TITLE_PX, _VALUE_PX = 17, 28
#: A tile's label: its size in pixels, and the width it is drawn in (longer is cut).
LABEL_PX = 14
_TILE_W = (_W - 2 * _PAD - (COLUMNS - 1) * _GAP) // COLUMNS
LABEL_WIDTH = _TILE_W - 16
#: The name's sizes, largest first: the first it fits at on one line, else cut at the last.
_NAME_SIZES = (30, 28, 26, 24, 22, 20)


def name_size(name: str, width: int) -> int:
    """The largest of :data:`_NAME_SIZES` at which ``name`` fits ``width`` on one line (the
    smallest if none: it is then cut)."""
    return next((px for px in _NAME_SIZES if measure(name, px) <= width), _NAME_SIZES[-1])


def render_stats(
    title: str,
    name: str,
    facts: Sequence[tuple[str, str]],
    favourite_colour: Colour | None,
    *,
    favourite_label: str = "",
) -> bytes:
    """The stats card as PNG bytes.

    ``facts`` are ``(label, figure)`` pairs, drawn left to right, top to bottom.
    ``favourite_colour`` (``None``: none yet) is drawn first, as its swatch over
    ``favourite_label`` (the caller's words, such as "Favourite colour: green").
    """
    facts = facts[:MAX_FACTS]
    tiles = len(facts) + (favourite_colour is not None)
    rows = -(-tiles // COLUMNS)
    height = _HEAD_H + _PAD + rows * _TILE_H + max(0, rows - 1) * _GAP + _PAD
    image = Image.new("RGB", (_W, height), grid.BG)
    d = ImageDraw.Draw(image)
    d.rectangle((0, 0, _W - 1, _HEAD_H - 1), fill=grid.BAND)
    if favourite_colour is not None:
        d.rectangle((0, _HEAD_H - 4, _W - 1, _HEAD_H - 1), fill=theme.fill(favourite_colour))

    text_w = _W - 2 * _PAD
    grid.cell(image, title, (_PAD, 22, text_w), _TITLE_PX, grid.INK_SOFT)
    shown = clean_name(name)
    grid.cell(image, shown, (_PAD, 58, text_w), name_size(shown, text_w), theme.WHITE)

    tile_w = _TILE_W

    def tile(i: int) -> tuple[int, int]:
        row, col = divmod(i, COLUMNS)
        x = _PAD + col * (tile_w + _GAP)
        y = _HEAD_H + _PAD + row * (_TILE_H + _GAP)
        d.rounded_rectangle((x, y, x + tile_w - 1, y + _TILE_H - 1), radius=10, fill=grid.CARD)
        return x, y

    first = 0
    if favourite_colour is not None:
        x, y = tile(0)
        swatch = symbol_image(favourite_colour, _SWATCH)
        image.paste(swatch, (x + (tile_w - _SWATCH) // 2, y + 28 - _SWATCH // 2), swatch)
        label = (x + 8, y + 56, LABEL_WIDTH)
        grid.cell(image, favourite_label, label, LABEL_PX, grid.INK_SOFT, "centre")
        first = 1
    for i, (label_text, figure) in enumerate(facts, start=first):
        x, y = tile(i)
        grid.cell(image, figure, (x + 8, y + 28, tile_w - 16), _VALUE_PX, theme.WHITE, "centre")
        label = (x + 8, y + 56, LABEL_WIDTH)
        grid.cell(image, label_text, label, LABEL_PX, grid.INK_SOFT, "centre")
    return encode_png(image, flip=favourite_colour in DARK_COLOURS)
