"""A player's stats card: a title, the name, the favourite colour, and a grid of figures.

Each fact is a tile: the figure large, its label small beneath. Labels and figures come from
the caller already worded and formatted (English or Italian), so nothing drawn here is a word
of ours. The favourite colour is shown as the table's colour swatch, symbol included
(:func:`renders.card.symbol_image`), so it reads without telling the fills apart; a thin
stripe of it underlines the header.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.cards import DARK_COLOURS, Colour

from . import grid, theme
from .assets import encode_png
from .card import symbol_image

#: At most this many facts are drawn (the text copy beside the image carries them all).
MAX_FACTS = 24
COLUMNS = 3

_W = 640
_PAD = 16
_GAP = 10
_HEAD_H = 92
_TILE_H = 72
_SWATCH = 60
_TITLE_PX, _NAME_PX, _VALUE_PX, _LABEL_PX = 17, 30, 28, 14


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
    ``favourite_colour`` (``None``: none yet) is drawn as its swatch, with
    ``favourite_label`` beside it when given.
    """
    facts = facts[:MAX_FACTS]
    rows = -(-len(facts) // COLUMNS)
    height = _HEAD_H + _PAD + rows * _TILE_H + max(0, rows - 1) * _GAP + _PAD
    image = Image.new("RGB", (_W, height), grid.BG)
    d = ImageDraw.Draw(image)
    d.rectangle((0, 0, _W - 1, _HEAD_H - 1), fill=grid.BAND)

    text_w = _W - 2 * _PAD
    if favourite_colour is not None:
        d.rectangle((0, _HEAD_H - 4, _W - 1, _HEAD_H - 1), fill=theme.fill(favourite_colour))
        swatch = symbol_image(favourite_colour, _SWATCH)
        sx = _W - _PAD - _SWATCH
        image.paste(swatch, (sx, (_HEAD_H - _SWATCH) // 2 - 2), swatch)
        text_w = sx - _PAD - _GAP
        if favourite_label:
            # Beside the swatch; it takes at most a third of the line from the name.
            prepared = grid.prepare(favourite_label, _LABEL_PX)
            label_w = min(math.ceil(prepared[1]), text_w // 3)
            box = (sx - _GAP - label_w, _HEAD_H // 2 - 2, label_w)
            grid.cell(image, prepared, box, _LABEL_PX, grid.INK_SOFT, "right")
            text_w -= label_w + _GAP
    grid.cell(image, title, (_PAD, 22, text_w), _TITLE_PX, grid.INK_SOFT)
    grid.cell(image, name, (_PAD, 58, text_w), _NAME_PX, theme.WHITE)

    tile_w = (_W - 2 * _PAD - (COLUMNS - 1) * _GAP) // COLUMNS
    for i, (label, figure) in enumerate(facts):
        row, col = divmod(i, COLUMNS)
        x = _PAD + col * (tile_w + _GAP)
        y = _HEAD_H + _PAD + row * (_TILE_H + _GAP)
        d.rounded_rectangle((x, y, x + tile_w - 1, y + _TILE_H - 1), radius=10, fill=grid.CARD)
        grid.cell(image, figure, (x + 8, y + 28, tile_w - 16), _VALUE_PX, theme.WHITE, "centre")
        grid.cell(image, label, (x + 8, y + 56, tile_w - 16), _LABEL_PX, grid.INK_SOFT, "centre")
    return encode_png(image, flip=favourite_colour in DARK_COLOURS)
