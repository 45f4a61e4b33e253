"""What the board renders share: their colours, fitting columns to a width, cells and medals.

The leaderboard, the standings and the stats card are text on flat panels. Every flat colour
here is an entry of the fixed PNG palette (:func:`renders.assets.palette_colours`), so the
palette encoding never shifts a panel to a neighbouring colour; only glyph edges are rounded
to the nearest entry. Nothing here holds a word: every label comes from the caller, who
speaks the reader's language.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from . import theme
from .text import clean_name, fit_text, measure, origin, paste_line, shape

Align = Literal["left", "right", "centre"]

BG: theme.RGB = theme.HAND_BG
STRIPE: theme.RGB = theme.BOARD_STRIPE
BAND: theme.RGB = theme.BACK  # behind the title
CARD: theme.RGB = (55, 55, 61)  # a stats tile
RULE: theme.RGB = theme.EDGE  # hairlines: under the headers, the "your rank" separator
INK_SOFT: theme.RGB = theme.TEXT_OUT  # headers, footers, labels
CALLER: theme.RGB = theme.PANEL_CURRENT  # the reader's own row, as the current seat on a table
CALLER_EDGE: theme.RGB = theme.HIGHLIGHT
WINNER: theme.RGB = theme.PANEL_CURRENT
WINNER_EDGE: theme.RGB = theme.GOLD
#: Medal fills for ranks 1–3. The palette has no true bronze, so a dark gold stands in; the
#: rank number printed on each medal tells them apart without colour anyway.
MEDALS: tuple[theme.RGB, ...] = (theme.GOLD, (192, 192, 192), (192, 152, 6))

#: Every flat colour the board renders paint (the tests check each is in the palette).
COLOURS: tuple[theme.RGB, ...] = (
    BG,
    STRIPE,
    BAND,
    CARD,
    RULE,
    INK_SOFT,
    CALLER,
    CALLER_EDGE,
    WINNER,
    WINNER_EDGE,
    *MEDALS,
    theme.WHITE,
    theme.INK,
)

#: Characters a figure may hold besides digits: signs, separators of every language, units.
_FIGURE_CHARS = frozenset("0123456789+-−–—.,:/%()# \u00a0\u202f×")


def is_figure(text: str) -> bool:
    """Whether ``text`` reads as a number (``1.234``, ``56,7 %``, ``+20``), or is a dash."""
    return bool(text) and all(ch in _FIGURE_CHARS for ch in text)


def numeric_columns(columns: int, rows: Sequence[Sequence[str]]) -> list[bool]:
    """Which columns hold only figures (and at least one digit): those are right-aligned."""
    out = []
    for c in range(columns):
        cells = [row[c] for row in rows if c < len(row) and row[c]]
        digits = any(any(ch.isdigit() for ch in cell) for cell in cells)
        out.append(digits and all(is_figure(cell) for cell in cells))
    return out


def share(naturals: Sequence[int], room: int, flex: int | None = None) -> list[int]:
    """Widths for columns that would like ``naturals`` pixels, within ``room`` in all.

    If they do not fit, the widest are cut to a common width and the narrow ones keep theirs
    ("water-filling"): a long name gives way before a short figure ever does. If they fit,
    column ``flex`` (if any) takes the room left, so figures line up on the right edge.
    """
    if sum(naturals) <= room:
        widths = list(naturals)
        if flex is not None:
            widths[flex] += room - sum(naturals)
        return widths
    left, count = room, len(naturals)
    for i, wanted in enumerate(sorted(naturals)):
        cap = max(0, left // (count - i))
        if wanted > cap:
            return [min(w, cap) for w in naturals]
        left -= wanted
    return list(naturals)  # not reached: the widths did not fit


Prepared = tuple[str, float]


@lru_cache(maxsize=2048)
def prepare(text: str, px: int) -> Prepared:
    """``text`` as it will be drawn (:func:`printable`) and its length at ``px`` pixels.

    A table measures each cell once, to size its column, and hands the result to :func:`cell`,
    which then measures again only the cells it must cut. Cached, as the laid-out lines are
    (:func:`renders.text.shape`): ranks, figures, headers and the names on a board's first
    page come back on every render.
    """
    shown = clean_name(text)
    return shown, measure(shown, px)


def cell(
    image: Image.Image,
    text: str | Prepared,
    box: tuple[int, int, int],
    px: int,
    fill: theme.RGB,
    align: Align = "left",
) -> None:
    """``text`` cleaned and cut to fit ``box`` = ``(x, centre y, width)``, aligned in it."""
    x, y, width = box
    shown, length = prepare(text, px) if isinstance(text, str) else text
    if length > width:
        shown = fit_text(shown, px, width)
    if not shown:
        return
    line = shape(shown, px)
    if align == "right":
        x += round(width - line.width)
    elif align == "centre":
        x += round((width - line.width) / 2)
    paste_line(image, line, origin(line, (x, y), "lm"), fill)


@lru_cache(maxsize=8)
def disc(colour: theme.RGB, size: int) -> Image.Image:
    """A smooth round medal ``size`` pixels across (RGBA), outlined in ink."""
    ss = theme.SUPERSAMPLE
    s = size * ss
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse(
        (0, 0, s - 1, s - 1), fill=colour, outline=theme.INK, width=round(1.6 * ss)
    )
    return image.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4)
def star(size: int) -> Image.Image:
    """A gold five-pointed star ``size`` pixels across (RGBA): a winner's mark, not a word."""
    ss = theme.SUPERSAMPLE
    s = size * ss
    c, outer, inner = s / 2, s / 2 - ss, s / 5
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = math.radians(-90 + 36 * i)
        points.append((c + r * math.cos(a), c + 0.06 * s + r * math.sin(a)))
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(image).polygon(points, fill=WINNER_EDGE, outline=theme.INK, width=ss)
    return image.resize((size, size), Image.Resampling.LANCZOS)
