"""The table everyone sees: piles, colour, direction, and every seat with its card count.

Everything drawn comes from a :class:`~engine.views.TableView`, which holds no hand: seats show
how many cards they hold as a fan of card *backs*, never faces. Text is language-neutral:
names, numbers, ``+N`` for a pending penalty, ``?`` while the colour is still to be named,
and the one word "UNO!".

Layout: the draw pile (with its size) and the top card (large, with a halo and a swatch of
the colour in play) in the middle, a curved arrow on each side showing the direction of
play, and the seats on an ellipse around them. Seat 0 sits at the bottom and seat numbers
grow in the clockwise direction, so "clockwise" on screen is the engine's
:attr:`~engine.views.TableView.clockwise`.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.state import Phase
from engine.views import TableView

from . import theme
from .assets import encode_png, font, serialized
from .card import card_shadow, render_back, render_card, symbol_image

_CX, _CY = theme.TABLE_W // 2, theme.TABLE_H // 2 + 6
_PILE_W = 86
_NAME_PX = 18
_COUNT_PX = 24
_MAX_NAME_CHARS = 64


def seat_centres(seats: int) -> tuple[tuple[int, int], ...]:
    """Centre of each seat's panel: seat 0 at the bottom, then clockwise."""
    out: list[tuple[int, int]] = []
    for seat in range(seats):
        angle = math.radians(90 + seat * 360 / seats)
        out.append(
            (
                round(_CX + theme.SEAT_RX * math.cos(angle)),
                round(_CY + theme.SEAT_RY * math.sin(angle)),
            )
        )
    return tuple(out)


def _arc_arrow(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    start: float,
    end: float,
    forward: bool,
    width: float,
    fill: theme.RGB,
) -> None:
    """An elliptic arc from ``start`` to ``end`` degrees with a head at the far end.

    ``forward`` puts the head at ``end`` (clockwise travel), else at ``start``.
    """
    d.arc(box, start, end, fill=fill, width=round(width))
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    rx, ry = (box[2] - box[0]) / 2 - width / 2, (box[3] - box[1]) / 2 - width / 2
    t = math.radians(end if forward else start)
    px, py = cx + rx * math.cos(t), cy + ry * math.sin(t)
    sign = 1 if forward else -1
    tx, ty = -rx * math.sin(t) * sign, ry * math.cos(t) * sign
    norm = math.hypot(tx, ty)
    tx, ty = tx / norm, ty / norm
    head = width * 2.4
    d.polygon(
        [
            (px + tx * head * 1.2, py + ty * head * 1.2),
            (px - ty * head, py + tx * head),
            (px + ty * head, py - tx * head),
        ],
        fill=fill,
    )


@lru_cache(maxsize=2)
def _base(clockwise: bool) -> Image.Image:
    """Felt, the table oval and the direction arrows (shared: copy before drawing)."""
    ss = 2
    w, h = theme.TABLE_W * ss, theme.TABLE_H * ss
    image = Image.new("RGB", (w, h), theme.FELT)
    d = ImageDraw.Draw(image)
    cx, cy = _CX * ss, _CY * ss
    rx, ry = (theme.SEAT_RX + 52) * ss, (theme.SEAT_RY + 22) * ss
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=theme.RIM)
    rim = 10 * ss
    d.ellipse((cx - rx + rim, cy - ry + rim, cx + rx - rim, cy + ry - rim), fill=theme.TABLE)
    ax, ay = 232 * ss, 138 * ss
    box = (cx - ax, cy - ay, cx + ax, cy + ay)
    width = 9 * ss
    _arc_arrow(d, box, 205, 335, clockwise, width, theme.ARROW)
    _arc_arrow(d, box, 25, 155, clockwise, width, theme.ARROW)
    return image.resize((theme.TABLE_W, theme.TABLE_H), Image.Resampling.LANCZOS)


def clean_name(name: str) -> str:
    """``name`` made safe to draw on one line: no control characters, no lone surrogates."""
    text = name[: _MAX_NAME_CHARS * 2].encode("utf-8", "replace").decode("utf-8")
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in text)
    return " ".join(text.split())[:_MAX_NAME_CHARS]


def fit_text(text: str, px: int, width: int) -> str:
    """``text``, cut with an ellipsis so that it is at most ``width`` pixels long."""
    f = font(px)
    if f.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if f.getlength(text[:mid].rstrip() + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


@lru_cache(maxsize=64)
def _fan(count: int) -> Image.Image:
    """A small fan of ``count`` card backs (RGBA)."""
    back = render_back(theme.SEAT_BACK_W)
    bw, bh = back.size
    span = 92
    step = min(8.0, (span - bw) / (count - 1)) if count > 1 else 0.0
    lift = 3
    image = Image.new("RGBA", (round(bw + step * max(count - 1, 0)) + 1, bh + lift), (0, 0, 0, 0))
    for i in range(count):
        # A gentle arc: the middle cards sit a little higher.
        off = 0.0 if count < 3 else (2 * i / (count - 1) - 1) ** 2
        image.alpha_composite(back, (round(i * step), round(lift * off)))
    return image


def _medal(d: ImageDraw.ImageDraw, x: int, y: int, rank: int) -> None:
    r = 13
    fill = theme.GOLD if rank == 1 else theme.TEXT_OUT
    d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=theme.INK, width=2)
    d.text((x, y), str(rank), fill=theme.INK, font=font(16), anchor="mm")


def _seat(
    canvas: Image.Image,
    d: ImageDraw.ImageDraw,
    view: TableView,
    seat: int,
    name: str,
    centre: tuple[int, int],
) -> None:
    x, y = centre[0] - theme.SEAT_W // 2, centre[1] - theme.SEAT_H // 2
    box = (x, y, x + theme.SEAT_W, y + theme.SEAT_H)
    playing = view.playing[seat]
    over = view.phase is Phase.HAND_OVER
    current = seat == view.current and not over and playing
    winner = over and bool(view.ranking) and view.ranking[0] == seat
    fill = theme.PANEL_CURRENT if current else theme.PANEL if playing else theme.PANEL_OUT
    if current or winner:
        glow = (box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4)
        d.rounded_rectangle(glow, radius=15, fill=theme.HIGHLIGHT)
    d.rounded_rectangle(box, radius=11, fill=fill, outline=theme.INK, width=1)
    ink = theme.TEXT if playing else theme.TEXT_OUT
    ranking = view.ranking if view.ranking else view.out
    uno = view.uno_called and view.uno_seat == seat
    # Leave room on the right for the medal or the UNO! bubble.
    room = theme.SEAT_W - 20 - (62 if uno else 16 if seat in ranking else 0)
    d.text((x + 10, y + 7), fit_text(name, _NAME_PX, room), fill=ink, font=font(_NAME_PX))
    count = view.card_counts[seat]
    if count:
        fan = _fan(min(count, 12))
        canvas.paste(fan, (x + 10, y + theme.SEAT_H - fan.height - 7), fan)
    d.text(
        (x + theme.SEAT_W - 10, y + theme.SEAT_H - 20),
        str(count),
        fill=ink,
        font=font(_COUNT_PX),
        anchor="rm",
        stroke_width=1 if playing else 0,
        stroke_fill=theme.INK,
    )
    if seat in ranking:
        _medal(d, box[2] - 4, box[1] + 2, ranking.index(seat) + 1)
    if uno:
        bx, by = box[2] - 62, box[1] - 16
        d.rounded_rectangle(
            (bx, by, bx + 66, by + 26), radius=9, fill=theme.UNO_BUBBLE, outline=theme.INK, width=2
        )
        d.text((bx + 33, by + 13), "UNO!", fill=theme.INK, font=font(18), anchor="mm")


def _centre(canvas: Image.Image, d: ImageDraw.ImageDraw, view: TableView) -> None:
    # Draw pile: a few backs stacked, its size below.
    back = render_back(_PILE_W)
    px, py = _CX - 150, _CY - back.height // 2 - 8
    layers = 0 if view.draw_size == 0 else min(3, 1 + view.draw_size // 20)
    if layers == 0:
        d.rounded_rectangle(
            (px, py, px + back.width, py + back.height), radius=9, outline=theme.ARROW, width=2
        )
    shadow = card_shadow(_PILE_W)
    for i in range(layers):
        off = (layers - 1 - i) * 3
        canvas.paste(shadow, (px + off + 3, py + off + 4), shadow)
        canvas.paste(back, (px + off, py + off), back)
    d.text(
        (px + back.width // 2, py + back.height + 20),
        str(view.draw_size),
        fill=theme.TEXT,
        font=font(22),
        anchor="mm",
        stroke_width=2,
        stroke_fill=theme.RIM,
    )
    # Top card, on a halo of the colour in play.
    top = render_card(view.top, theme.TABLE_CARD_W)
    tx, ty = _CX - 20, _CY - top.height // 2
    if view.colour is not None:
        halo = (tx - 7, ty - 7, tx + top.width + 7, ty + top.height + 7)
        d.rounded_rectangle(
            halo, radius=18, fill=theme.FILL[view.colour], outline=theme.INK, width=2
        )
    shadow = card_shadow(theme.TABLE_CARD_W)
    canvas.paste(shadow, (tx + 4, ty + 5), shadow)
    canvas.paste(top, (tx, ty), top)
    # The colour in play as a swatch with its symbol ("?" while a start Wild awaits one).
    sx, sy = tx + top.width + 44, _CY - 38
    swatch = symbol_image(view.colour, 56)
    canvas.paste(swatch, (sx - 28, sy - 28), swatch)
    if view.colour is None:
        d.text(
            (sx, sy),
            "?",
            fill=theme.WHITE,
            font=font(34),
            anchor="mm",
            stroke_width=3,
            stroke_fill=theme.INK,
        )
    if view.pending > 0:
        r = 27
        by = _CY + 36
        d.ellipse((sx - r, by - r, sx + r, by + r), fill=theme.PENALTY, outline=theme.INK, width=2)
        d.text(
            (sx, by),
            f"+{view.pending}",
            fill=theme.WHITE,
            font=font(24),
            anchor="mm",
            stroke_width=2,
            stroke_fill=theme.INK,
        )


@serialized
def render_table(view: TableView, names: Sequence[str]) -> bytes:
    """The table as PNG bytes; ``names[seat]`` labels each seat (a missing name: its number)."""
    canvas = _base(view.clockwise).copy()
    d = ImageDraw.Draw(canvas)
    _centre(canvas, d, view)
    for seat, centre in enumerate(seat_centres(view.seats)):
        name = clean_name(names[seat]) if seat < len(names) else ""
        _seat(canvas, d, view, seat, name or str(seat + 1), centre)
    return encode_png(canvas)
