"""Ranked tables: the server leaderboard and the standings of a hand, a match or a tournament.

Both are one table under a title: a header line, then a line per row on alternating stripes.
They take plain strings the caller has already worded and formatted in the reader's language,
so nothing drawn here is a word of ours. Columns are fitted to the width by
:func:`renders.grid.share`: a long or exotic name is cleaned and cut with an ellipsis, figures
keep their width and are right-aligned.

- :func:`render_leaderboard`: medals on ranks 1–3, the reader's line outlined (also when it is
  off the page and appended under a dashed separator as ``extra_row``);
- :func:`render_standings`: the first ``winner_rows`` lines carry a gold star and outline.

At most :data:`MAX_ROWS` lines are drawn; the text copy beside the image carries them all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import grid, theme
from .assets import encode_png

MAX_ROWS = 25

_W = 640
_PAD = 14
_INSET = 10  # text inside a line's box
_GAP = 14  # between columns
_TITLE_H, _HEAD_H, _ROW_H, _SEP_H, _FOOT_H = 50, 28, 32, 18, 30
_TITLE_PX, _HEAD_PX, _ROW_PX, _FOOT_PX = 24, 14, 18, 14
_MEDAL = 26
_STAR = 20
_GUTTER = 28  # room for the winners' star in the standings


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One line of a leaderboard: its rank, the name and the other cells, already formatted.

    ``values`` fill the columns after rank and name, in order. ``highlight`` outlines this
    line whatever ``highlight_rank`` says (tied players share a rank).
    """

    rank: int
    name: str
    values: tuple[str, ...] = ()
    highlight: bool = False


@dataclass(frozen=True, slots=True)
class _Line:
    cells: tuple[str, ...]
    medal: int = 0  # 1–3: a medal behind the first cell
    fill: theme.RGB | None = None  # an outlined box instead of the stripe
    edge: theme.RGB = grid.CALLER_EDGE
    star: bool = False


def _cells(row: Sequence[str], count: int) -> tuple[str, ...]:
    """``row`` made exactly ``count`` cells long: missing ones blank, extra ones dropped."""
    return tuple(row[:count]) + ("",) * max(0, count - len(row))


@dataclass(frozen=True)
class _Columns:
    """Where each column of a board stands: its left edge, width and alignment."""

    xs: list[int]
    widths: list[int]
    aligns: list[grid.Align]


def _columns(
    head_cells: Sequence[grid.Prepared],
    cells: Sequence[Sequence[grid.Prepared]],
    numeric: Sequence[bool],
    *,
    gutter: int,
    medals: bool,
) -> _Columns:
    """Each column as wide as its widest text; the spare room goes to the widest column of
    words (the names), pushing the figures right."""
    count = len(head_cells)
    # Text lengths have fractions of a pixel: round up, or the longest cell would be cut.
    naturals = [
        math.ceil(
            max(head_cells[c][1], *(row[c][1] for row in cells), _MEDAL if medals and not c else 0)
        )
        for c in range(count)
    ]
    left = _PAD + _INSET + gutter
    room = _W - left - _PAD - _INSET - _GAP * (count - 1)
    words = [c for c in range(count) if not numeric[c] and not (medals and c == 0)]
    flex = max(words, key=lambda c: naturals[c]) if words else None
    widths = grid.share(naturals, room, flex)
    xs = [left + sum(widths[:c]) + _GAP * c for c in range(count)]
    aligns: list[grid.Align] = [
        "centre" if medals and c == 0 else "right" if numeric[c] else "left" for c in range(count)
    ]
    return _Columns(xs, widths, aligns)


def _draw_line(
    image: Image.Image,
    line: _Line,
    texts: Sequence[grid.Prepared],
    top: int,
    columns: _Columns,
    *,
    stripe: bool,
) -> None:
    """One row of a board: its highlight or stripe, its star, its medal, its cells."""
    d = ImageDraw.Draw(image)
    box = (_PAD, top + 1, _W - _PAD - 1, top + _ROW_H - 2)
    if line.fill is not None:
        d.rounded_rectangle(box, radius=8, fill=line.fill, outline=line.edge, width=2)
    elif stripe:
        d.rectangle(box, fill=grid.STRIPE)
    mid = top + _ROW_H // 2
    if line.star:
        mark = grid.star(_STAR)
        image.paste(mark, (_PAD + _INSET - 2, mid - _STAR // 2), mark)
    for c, text in enumerate(texts):
        ink = theme.WHITE
        if c == 0 and line.medal:
            disc = grid.disc(grid.MEDALS[line.medal - 1], _MEDAL)
            cx = columns.xs[0] + columns.widths[0] // 2
            image.paste(disc, (cx - _MEDAL // 2, mid - _MEDAL // 2), disc)
            ink = theme.INK
        box3 = (columns.xs[c], mid, columns.widths[c])
        grid.cell(image, text, box3, _ROW_PX, ink, columns.aligns[c])


def _table(
    title: str,
    heads: Sequence[str],
    lines: Sequence[_Line],
    extra: _Line | None,
    footer: str,
    *,
    gutter: int,
    medals: bool,
) -> Image.Image:
    lines = lines[:MAX_ROWS]
    every = [*lines, *([extra] if extra is not None else [])]
    numeric = grid.numeric_columns(len(heads), [line.cells for line in every])
    head_cells = [grid.prepare(head, _HEAD_PX) for head in heads]
    cells = [[grid.prepare(text, _ROW_PX) for text in line.cells] for line in every]
    columns = _columns(head_cells, cells, numeric, gutter=gutter, medals=medals)

    height = _PAD + _TITLE_H + _HEAD_H + _ROW_H * len(lines) + _PAD
    height += (_SEP_H + _ROW_H) if extra is not None else 0
    height += _FOOT_H if footer else 0
    image = Image.new("RGB", (_W, height), grid.BG)
    d = ImageDraw.Draw(image)
    d.rectangle((0, 0, _W - 1, _PAD + _TITLE_H - 8), fill=grid.BAND)
    text_w = _W - 2 * (_PAD + _INSET)
    grid.cell(
        image, title, (_PAD + _INSET, (_PAD + _TITLE_H - 8) // 2, text_w), _TITLE_PX, theme.WHITE
    )
    y = _PAD + _TITLE_H
    for c, head in enumerate(head_cells):
        box = (columns.xs[c], y + _HEAD_H // 2, columns.widths[c])
        grid.cell(image, head, box, _HEAD_PX, grid.INK_SOFT, columns.aligns[c])
    y += _HEAD_H
    d.line((_PAD, y - 1, _W - _PAD - 1, y - 1), fill=grid.RULE)
    for i, line in enumerate(lines):
        _draw_line(image, line, cells[i], y, columns, stripe=i % 2 == 1)
        y += _ROW_H
    if extra is not None:
        # A dashed rule: the reader's line below is not the next rank.
        mid = y + _SEP_H // 2
        for x in range(_PAD + _INSET, _W - _PAD - _INSET, 12):
            d.line((x, mid, x + 5, mid), fill=grid.RULE, width=2)
        _draw_line(image, extra, cells[-1], y + _SEP_H, columns, stripe=False)
        y += _SEP_H + _ROW_H
    if footer:
        grid.cell(
            image, footer, (_PAD + _INSET, y + _FOOT_H // 2 + 2, text_w), _FOOT_PX, grid.INK_SOFT
        )
    return image


def _leader_line(row: LeaderRow, count: int, highlight_rank: int | None) -> _Line:
    caller = row.highlight or (highlight_rank is not None and row.rank == highlight_rank)
    return _Line(
        cells=_cells([str(row.rank), row.name, *row.values], count),
        medal=row.rank if 1 <= row.rank <= len(grid.MEDALS) else 0,
        fill=grid.CALLER if caller else None,
    )


def render_leaderboard(
    title: str,
    columns: Sequence[str],
    rows: Sequence[LeaderRow],
    highlight_rank: int | None,
    footer: str,
    extra_row: LeaderRow | None = None,
) -> bytes:
    """A leaderboard page as PNG bytes.

    ``columns`` head the rank, the name and then each of the rows' ``values``. The line whose
    rank is ``highlight_rank`` (or that has ``highlight`` set) is outlined; ``extra_row`` is
    the reader's own line when it is not on this page, drawn under a separator and outlined.
    """
    if len(columns) < 2:
        raise ValueError("a leaderboard needs at least the rank and name columns")
    count = len(columns)
    lines = [_leader_line(row, count, highlight_rank) for row in rows]
    extra = None
    if extra_row is not None:
        extra = _leader_line(extra_row, count, highlight_rank)
        extra = _Line(extra.cells, extra.medal, grid.CALLER)
    image = _table(title, list(columns), lines, extra, footer, gutter=0, medals=True)
    return encode_png(image)


def render_standings(
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    winner_rows: int = 1,
    *,
    footer: str = "",
) -> bytes:
    """Standings as PNG bytes: one line per row of formatted cells, under ``columns``.

    The first ``winner_rows`` lines (the winner, or a winning team's players) are starred and
    outlined in gold. Rows shorter than ``columns`` get blank cells; longer ones are cut.
    """
    if not columns:
        raise ValueError("standings need at least one column")
    lines = [
        _Line(
            cells=_cells(row, len(columns)),
            fill=grid.WINNER if i < winner_rows else None,
            edge=grid.WINNER_EDGE,
            star=i < winner_rows,
        )
        for i, row in enumerate(rows)
    ]
    image = _table(title, list(columns), lines, None, footer, gutter=_GUTTER, medals=False)
    return encode_png(image)
