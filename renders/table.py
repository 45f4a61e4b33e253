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

UNO Flip (R-FLIP): the side in play shows without words: a sun in the top-left corner of the
classic green felt (light side), a crescent moon on a night-blue felt and table (dark side).
Every card is drawn on the side in play; and, as at a physical table, where everyone sees
the other side of every hand and of the draw pile, each seat's fan shows the faces of
:attr:`~engine.views.TableView.backs` (the side not in play) instead of plain backs, and the
draw pile shows :attr:`~engine.views.TableView.draw_back`. Flip tables use the Flip palette
(:func:`renders.assets.palette_colours`); classic tables are drawn exactly as before.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import CardFace, Colour
from engine.views import TableView

from . import theme
from .assets import encode_png
from .card import (
    card_shadow,
    render_back,
    render_card,
    render_mini,
    symbol_image,
    symbol_points,
)
from .scenes import FAN_MAX, SeatScene, TableScene, table_scene
from .text import draw_text, fit_lines

_CX, _CY = theme.TABLE_W // 2, theme.TABLE_H // 2 + 6
_PILE_W = 86
#: The sizes a seat's name is tried at, ``(px, lines)``, largest first: a name is shown whole
#: (Discord allows 32 characters) by wrapping and shrinking it, never cut short.
NAME_SIZES: tuple[tuple[int, int], ...] = (
    (18, 1),
    (16, 1),
    (15, 2),
    (14, 2),
    (13, 2),
    (12, 3),
    (11, 3),
)
_NAME_TOP = 5  # below the top of a seat's panel
_COUNT_PX = 24


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


class _Look:
    """The table's colours: classic, or those of the UNO Flip side in play."""

    def __init__(self, flip_side: int | None) -> None:
        dark = flip_side == 1
        self.flip_side = flip_side
        self.felt = theme.NIGHT_FELT if dark else theme.FELT
        self.table = theme.NIGHT_TABLE if dark else theme.TABLE
        self.rim = theme.NIGHT_RIM if dark else theme.RIM
        self.arrow = theme.NIGHT_ARROW if dark else theme.ARROW
        self.panel = theme.NIGHT_PANEL if dark else theme.PANEL


def _sun_or_moon(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, dark: bool) -> None:
    """The side in play as a picture: a sun with eight rays, or a crescent moon with a star."""
    outline = max(1, round(r * 0.09))
    if dark:
        moon = symbol_points(theme.Symbol.CRESCENT, cx - r * 0.12, cy + r * 0.05, r * 0.78)
        d.polygon(moon, fill=theme.MOON, outline=theme.INK, width=outline)
        star = symbol_points(theme.Symbol.STAR, cx + r * 0.62, cy - r * 0.55, r * 0.22)
        d.polygon(star, fill=theme.MOON, outline=theme.INK, width=max(1, outline // 2))
        return
    for i in range(8):
        a = math.pi * i / 4
        ca, sa = math.cos(a), math.sin(a)
        tip, base, half = r, r * 0.62, r * 0.17
        ray = [
            (cx + ca * tip, cy + sa * tip),
            (cx + ca * base - sa * half, cy + sa * base + ca * half),
            (cx + ca * base + sa * half, cy + sa * base - ca * half),
        ]
        d.polygon(ray, fill=theme.SUN, outline=theme.INK, width=outline)
    core = r * 0.56
    d.ellipse(
        (cx - core, cy - core, cx + core, cy + core),
        fill=theme.SUN,
        outline=theme.INK,
        width=outline,
    )


@lru_cache(maxsize=6)
def _base(clockwise: bool, flip_side: int | None = None) -> Image.Image:
    """Felt, the table oval and the direction arrows (shared: copy before drawing).

    ``flip_side`` (UNO Flip only) adds the sun or the moon and, dark side, the night colours.
    """
    look = _Look(flip_side)
    ss = 2
    w, h = theme.TABLE_W * ss, theme.TABLE_H * ss
    image = Image.new("RGB", (w, h), look.felt)
    d = ImageDraw.Draw(image)
    cx, cy = _CX * ss, _CY * ss
    rx, ry = (theme.SEAT_RX + 52) * ss, (theme.SEAT_RY + 22) * ss
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=look.rim)
    rim = 10 * ss
    d.ellipse((cx - rx + rim, cy - ry + rim, cx + rx - rim, cy + ry - rim), fill=look.table)
    ax, ay = 232 * ss, 138 * ss
    box = (cx - ax, cy - ay, cx + ax, cy + ay)
    width = 9 * ss
    _arc_arrow(d, box, 205, 335, clockwise, width, look.arrow)
    _arc_arrow(d, box, 25, 155, clockwise, width, look.arrow)
    if flip_side is not None:
        _sun_or_moon(d, 44 * ss, 44 * ss, 30 * ss, flip_side == 1)
    return image.resize((theme.TABLE_W, theme.TABLE_H), Image.Resampling.LANCZOS)


def _fan_of(cards: Sequence[Image.Image]) -> Image.Image:
    """A small fan of ``cards`` (RGBA, all :data:`~renders.theme.SEAT_BACK_W` wide)."""
    count = len(cards)
    bw, bh = cards[0].size
    span = 92
    step = min(8.0, (span - bw) / (count - 1)) if count > 1 else 0.0
    lift = 3
    image = Image.new("RGBA", (round(bw + step * max(count - 1, 0)) + 1, bh + lift), (0, 0, 0, 0))
    for i, card in enumerate(cards):
        # A gentle arc: the middle cards sit a little higher.
        off = 0.0 if count < 3 else (2 * i / (count - 1) - 1) ** 2
        image.alpha_composite(card, (round(i * step), round(lift * off)))
    return image


@lru_cache(maxsize=64)
def _fan(count: int) -> Image.Image:
    """A small fan of ``count`` card backs (RGBA)."""
    return _fan_of([render_back(theme.SEAT_BACK_W)] * count)


@lru_cache(maxsize=512)
def _face_fan(faces: tuple[CardFace, ...], side: int) -> Image.Image:
    """UNO Flip: a small fan of ``faces`` seen on ``side`` (a hand's other side, RGBA)."""
    return _fan_of([render_mini(face, theme.SEAT_BACK_W, side=side) for face in faces])


def _medal(image: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, rank: int) -> None:
    r = 13
    fill = theme.GOLD if rank == 1 else theme.TEXT_OUT
    d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=theme.INK, width=2)
    draw_text(image, (x, y), str(rank), 16, theme.INK, anchor="mm")


#: Team tags (R-TEAM-2): a letter on a colour of the classic deck, then the moon's.
_TEAM_FILLS = (
    theme.FILL[Colour.RED],
    theme.FILL[Colour.BLUE],
    theme.FILL[Colour.GREEN],
    theme.FILL[Colour.YELLOW],
    theme.MOON,
)


def _team_tag(image: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, team: int) -> None:
    """The seat's team: a lettered disc on the seat's top-left corner."""
    r = 12
    fill = _TEAM_FILLS[team % len(_TEAM_FILLS)]
    d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=theme.INK, width=2)
    draw_text(image, (x, y), "ABCDE"[team % 5], 16, theme.INK, anchor="mm")


def _seat(
    canvas: Image.Image,
    d: ImageDraw.ImageDraw,
    look: _Look,
    seat: SeatScene,
    centre: tuple[int, int],
) -> None:
    x, y = centre[0] - theme.SEAT_W // 2, centre[1] - theme.SEAT_H // 2
    box = (x, y, x + theme.SEAT_W, y + theme.SEAT_H)
    panel = look.panel if seat.playing else theme.PANEL_OUT
    fill = theme.PANEL_CURRENT if seat.current else panel
    if seat.current or seat.winner:
        glow = (box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4)
        d.rounded_rectangle(glow, radius=15, fill=theme.HIGHLIGHT)
    d.rounded_rectangle(box, radius=11, fill=fill, outline=theme.INK, width=1)
    ink = theme.TEXT if seat.playing else theme.TEXT_OUT
    if seat.fan is not None and look.flip_side is not None:
        fan = _face_fan(seat.fan, 1 - look.flip_side)
        canvas.paste(fan, (x + 10, y + theme.SEAT_H - fan.height - 7), fan)
    elif seat.count:
        fan = _fan(min(seat.count, FAN_MAX))
        canvas.paste(fan, (x + 10, y + theme.SEAT_H - fan.height - 7), fan)
    # The name after the fan: deep descenders (Arabic, Devanagari) stay readable over it.
    # Leave room on the right for the medal, and on the left for the team tag.
    left = 16 if seat.team is not None else 10
    room = theme.SEAT_W - left - 10 - (16 if seat.rank is not None else 0)
    lines, px = fit_lines(seat.name, room, NAME_SIZES)
    step = round(px * 1.15)
    for i, line in enumerate(lines):
        draw_text(canvas, (x + left, y + _NAME_TOP + i * step), line, px, ink, anchor="la")
    draw_text(
        canvas,
        (x + theme.SEAT_W - 10, y + theme.SEAT_H - 22),
        str(seat.count),
        _COUNT_PX,
        ink,
        anchor="rm",
        stroke=1 if seat.playing else 0,
        stroke_fill=theme.INK,
    )
    if seat.rank is not None:
        _medal(canvas, d, box[2] - 4, box[1] + 2, seat.rank)
    if seat.team is not None:
        _team_tag(canvas, d, box[0] + 2, box[1] + 2, seat.team)
    if seat.uno:
        # Above the panel's top-right corner, clear of the name.
        bx, by = box[2] - 66, box[1] - 24
        d.rounded_rectangle(
            (bx, by, bx + 66, by + 26), radius=9, fill=theme.UNO_BUBBLE, outline=theme.INK, width=2
        )
        draw_text(canvas, (bx + 33, by + 13), "UNO!", 18, theme.INK, anchor="mm")


def _centre(canvas: Image.Image, d: ImageDraw.ImageDraw, look: _Look, scene: TableScene) -> None:
    side = scene.side
    # Draw pile: a few backs stacked, its size below (UNO Flip: its top card's other side).
    back = render_back(_PILE_W)
    if look.flip_side is not None and scene.draw_back is not None:
        back = render_card(scene.draw_back, _PILE_W, side=1 - look.flip_side)
    px, py = _CX - 150, _CY - back.height // 2 - 8
    layers = 0 if scene.draw_size == 0 else min(3, 1 + scene.draw_size // 20)
    if layers == 0:
        d.rounded_rectangle(
            (px, py, px + back.width, py + back.height), radius=9, outline=look.arrow, width=2
        )
    shadow = card_shadow(_PILE_W)
    for i in range(layers):
        off = (layers - 1 - i) * 3
        canvas.paste(shadow, (px + off + 3, py + off + 4), shadow)
        canvas.paste(back, (px + off, py + off), back)
    draw_text(
        canvas,
        (px + back.width // 2, py + back.height + 20),
        str(scene.draw_size),
        22,
        theme.TEXT,
        anchor="mm",
        stroke=2,
        stroke_fill=look.rim,
    )
    # Top card, on a halo of the colour in play.
    top = render_card(scene.top, theme.TABLE_CARD_W, side=side)
    tx, ty = _CX - 20, _CY - top.height // 2
    if scene.colour is not None:
        halo = (tx - 7, ty - 7, tx + top.width + 7, ty + top.height + 7)
        d.rounded_rectangle(
            halo, radius=18, fill=theme.fill(scene.colour), outline=theme.INK, width=2
        )
    shadow = card_shadow(theme.TABLE_CARD_W)
    canvas.paste(shadow, (tx + 4, ty + 5), shadow)
    canvas.paste(top, (tx, ty), top)
    # The colour in play as a swatch with its symbol ("?" while a start Wild awaits one).
    sx, sy = tx + top.width + 44, _CY - 38
    swatch = symbol_image(scene.colour, 56, side)
    canvas.paste(swatch, (sx - 28, sy - 28), swatch)
    if scene.colour is None:
        draw_text(
            canvas, (sx, sy), "?", 34, theme.WHITE, anchor="mm", stroke=3, stroke_fill=theme.INK
        )
    if scene.pending > 0:
        r = 27
        by = _CY + 36
        d.ellipse((sx - r, by - r, sx + r, by + r), fill=theme.PENALTY, outline=theme.INK, width=2)
        draw_text(
            canvas,
            (sx, by),
            f"+{scene.pending}",
            24,
            theme.WHITE,
            anchor="mm",
            stroke=2,
            stroke_fill=theme.INK,
        )


def draw_table(scene: TableScene) -> bytes:
    """The table of ``scene`` as PNG bytes (:func:`render_table` without the view)."""
    look = _Look(scene.flip_side)
    base = (
        _base(scene.clockwise)
        if scene.flip_side is None
        else _base(scene.clockwise, scene.flip_side)
    )
    canvas = base.copy()
    d = ImageDraw.Draw(canvas)
    _centre(canvas, d, look, scene)
    for seat, centre in zip(scene.seats, seat_centres(len(scene.seats)), strict=True):
        _seat(canvas, d, look, seat, centre)
    return encode_png(canvas, flip=scene.flip_side is not None)


def render_table(
    view: TableView, names: Sequence[str], *, called_uno: Collection[int] = ()
) -> bytes:
    """The table as PNG bytes; ``names[seat]`` labels each seat (a missing name: its number),
    shown whole, wrapped and made smaller when long (:data:`NAME_SIZES`).

    A seat holding one card shows the UNO! badge while it has called UNO for that card: the
    view knows of a call until the next player begins their turn, ``called_uno`` lists the
    seats known to have called since (:func:`renders.scenes.calls_uno`). Drawn from
    :func:`renders.scenes.table_scene` alone, so :func:`renders.scenes.table_key` tells when
    the picture would be the same.
    """
    return draw_table(table_scene(view, names, called_uno))
