"""One card, drawn by our own code: faces, the back, and the dimmed / highlighted variants.

A face is a white-bordered rounded card in its colour with the classic tilted white oval, a
big number or action icon in the middle, the index in two opposite corners and, under each
index, the colour's symbol (:mod:`renders.theme`). Wild cards are black with a four-colour
oval whose quadrants carry the four symbols. Icons are drawn with shapes, never with glyphs the
default font might lack: Skip is a barred ring, Reverse two opposed arrows, Swap Hands two
cards with arrows between them; Draw Two and Wild Draw Four read ``+2`` and ``+4``.

UNO Flip (R-FLIP): Draw One, Draw Five and Wild Draw Two read ``+1``, ``+5`` and ``+2`` (the
last on the wild oval), Wild Draw Colour reads ``+?`` on the dark wild oval, Flip is a card
half filled (its two sides) inside a turning arrow, and Skip Everyone is the Skip sign inside
a second ring. Dark-side faces (the dark colours, Wild Draw Colour, and a Wild drawn with
``side=1``) have a black border and a black oval, light ones white (see :mod:`renders.theme`);
a dark face's value is a lighter tint of its colour, outlined in white, so it reads on the
black oval at phone size. A blank wild card (R-DECK-5, ``WX``) is a Wild whose oval has an
empty white middle.

Art is drawn :data:`~renders.theme.SUPERSAMPLE` times larger and reduced, for smooth edges.
Every function here is pure and cached: the images it returns are shared, so callers must
not draw on them (paste them, or ``copy()`` first).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engine.cards import DARK_COLOURS, CardFace, Colour, Kind

from . import theme
from .assets import font
from .text import FREETYPE_LOCK

Point = tuple[float, float]

#: Tilt of the central oval, in degrees clockwise (its top leans right, as on real cards).
OVAL_TILT = 30.0
#: The notation of a blank wild card (R-DECK-5): drawn as a Wild whose oval has an empty
#: white middle. Recognised by notation, so the art does not depend on the engine's kind.
BLANK = "WX"


class Variant(enum.Enum):
    """How a card is shown in a hand."""

    NORMAL = "normal"
    DIMMED = "dimmed"  # not playable now
    HIGHLIGHTED = "highlighted"  # playable now: bright outline (the hand also raises it)


# -- geometry helpers ---------------------------------------------------------------------


def _oval(cx: float, cy: float, a: float, b: float, tilt: float, steps: int = 144) -> list[Point]:
    """Polygon of an ellipse with semi-axes ``a`` (across) and ``b`` (along), tilted."""
    t = math.radians(tilt)
    ct, st = math.cos(t), math.sin(t)
    points: list[Point] = []
    for i in range(steps):
        p = 2 * math.pi * i / steps
        x, y = a * math.cos(p), b * math.sin(p)
        points.append((cx + x * ct - y * st, cy + x * st + y * ct))
    return points


def _rotate(points: Sequence[Point], cx: float, cy: float, degrees: float) -> list[Point]:
    """``points`` rotated clockwise (on screen) around ``(cx, cy)``."""
    t = math.radians(degrees)
    ct, st = math.cos(t), math.sin(t)
    return [
        (cx + (x - cx) * ct - (y - cy) * st, cy + (x - cx) * st + (y - cy) * ct) for x, y in points
    ]


def symbol_points(symbol: theme.Symbol, cx: float, cy: float, r: float) -> list[Point]:
    """Polygon of a colour symbol of "radius" ``r`` (a circle is a 48-gon)."""
    if symbol is theme.Symbol.CIRCLE:
        return [
            (cx + r * math.cos(2 * math.pi * i / 48), cy + r * math.sin(2 * math.pi * i / 48))
            for i in range(48)
        ]
    if symbol is theme.Symbol.TRIANGLE:
        h = r * 1.2
        return [(cx, cy - h), (cx + h * 0.98, cy + h * 0.7), (cx - h * 0.98, cy + h * 0.7)]
    if symbol is theme.Symbol.SQUARE:
        s = r * 0.86
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if symbol is theme.Symbol.DIAMOND:
        d = r * 1.22
        return [(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)]
    return _dark_symbol_points(symbol, cx, cy, r)


def _dark_symbol_points(symbol: theme.Symbol, cx: float, cy: float, r: float) -> list[Point]:
    """The UNO Flip dark-side symbols: heart, cross, star and crescent."""
    if symbol is theme.Symbol.HEART:
        k = r * 1.12 / 16
        points: list[Point] = []
        for i in range(48):
            t = 2 * math.pi * i / 48
            x = 16 * math.sin(t) ** 3
            y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
            points.append((cx + x * k, cy - (y + 2.5) * k))
        return points
    if symbol is theme.Symbol.CROSS:
        s, t = r * 1.12, r * 0.4
        return [
            (cx - t, cy - s),
            (cx + t, cy - s),
            (cx + t, cy - t),
            (cx + s, cy - t),
            (cx + s, cy + t),
            (cx + t, cy + t),
            (cx + t, cy + s),
            (cx - t, cy + s),
            (cx - t, cy + t),
            (cx - s, cy + t),
            (cx - s, cy - t),
            (cx - t, cy - t),
        ]
    if symbol is theme.Symbol.STAR:
        outer, inner = r * 1.3, r * 0.56
        dy = r * 0.12  # the star's middle sits below its top point
        return [
            (
                cx + (outer if i % 2 == 0 else inner) * math.sin(math.pi * i / 5),
                cy + dy - (outer if i % 2 == 0 else inner) * math.cos(math.pi * i / 5),
            )
            for i in range(10)
        ]
    # Crescent: a disc with a smaller disc bitten out of its upper right.
    big, small, off = r * 1.15, r * 0.95, r * 0.62
    ox, oy = off * math.cos(math.radians(-35)), off * math.sin(math.radians(-35))
    x = (off * off + big * big - small * small) / (2 * off)  # the circles meet at x (on the axis)
    t0 = math.acos(x / big)
    f0 = math.acos((x - off) / small)
    axis = math.atan2(oy, ox)
    shift = r * 0.22  # the crescent's weight lies left of the disc's centre
    sx, sy = cx + shift * math.cos(axis), cy + shift * math.sin(axis)
    points = []
    for i in range(33):
        a = axis + t0 + (2 * math.pi - 2 * t0) * i / 32
        points.append((sx + big * math.cos(a), sy + big * math.sin(a)))
    for i in range(1, 32):
        a = axis - f0 - (2 * math.pi - 2 * f0) * i / 32
        points.append((sx + ox + small * math.cos(a), sy + oy + small * math.sin(a)))
    return points


def _dilate(mask: Image.Image, radius: float) -> Image.Image:
    """``mask`` grown by ``radius`` pixels (a union of shifted copies)."""
    grown = mask
    steps = max(8, int(radius * 2.5))
    for ring in (radius, radius * 0.5):
        for i in range(steps):
            a = 2 * math.pi * i / steps
            dx, dy = round(ring * math.cos(a)), round(ring * math.sin(a))
            if dx or dy:
                grown = ImageChops.lighter(grown, ImageChops.offset(mask, dx, dy))
    return grown


def _stamp(
    image: Image.Image,
    mask: Image.Image,
    fill: theme.RGB,
    outline: theme.RGB | None,
    width: float,
    shadow: float = 0.0,
) -> None:
    """Paint ``mask`` in ``fill`` with an ``outline`` ``width`` wide and an optional shadow."""
    bbox = mask.getbbox()
    if bbox is None:
        return
    # Work on the mask's neighbourhood only: dilation is the costly step.
    m = math.ceil(width + shadow) + 2
    left, top = max(0, bbox[0] - m), max(0, bbox[1] - m)
    box = (left, top, min(image.size[0], bbox[2] + m), min(image.size[1], bbox[3] + m))
    part = mask.crop(box)
    region = image.crop(box)
    if outline is not None and width > 0:
        ring = _dilate(part, width)
        if shadow:
            off = round(shadow)
            soft = ImageChops.offset(ring, off, off).point(lambda v: v * 2 // 5)
            region.paste(theme.SHADOW, (0, 0, *region.size), soft)
        region.paste(outline, (0, 0, *region.size), ring)
    region.paste(fill, (0, 0, *region.size), part)
    image.paste(region, box[:2])


def _text_mask(
    size: tuple[int, int], text: str, center: Point, px: int, bold: float
) -> Image.Image:
    mask = Image.new("L", size, 0)
    with FREETYPE_LOCK:
        ImageDraw.Draw(mask).text(
            center, text, fill=255, font=font(px), anchor="mm", stroke_width=bold, stroke_fill=255
        )
    return mask


# -- icons (masks at the supersampled size) ----------------------------------------------


def _skip_mask(size: tuple[int, int], cx: float, cy: float, r: float) -> Image.Image:
    """⊘: a ring with a bar from top-left to bottom-right."""
    mask = Image.new("L", size, 0)
    d = ImageDraw.Draw(mask)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
    inner = r * 0.68
    d.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), fill=0)
    w = r * 0.34
    bar = [(cx - inner - 1, cy - w / 2), (cx + inner + 1, cy - w / 2)]
    bar += [(cx + inner + 1, cy + w / 2), (cx - inner - 1, cy + w / 2)]
    d.polygon(_rotate(bar, cx, cy, 45), fill=255)
    return mask


def _arrow(cx: float, cy: float, length: float, thick: float, head: float) -> list[Point]:
    """A right-pointing arrow centred on ``(cx, cy)``."""
    left, tip = cx - length / 2, cx + length / 2
    neck = tip - head * 1.1
    return [
        (left, cy - thick / 2),
        (neck, cy - thick / 2),
        (neck, cy - head),
        (tip, cy),
        (neck, cy + head),
        (neck, cy + thick / 2),
        (left, cy + thick / 2),
    ]


def _reverse_mask(size: tuple[int, int], cx: float, cy: float, r: float) -> Image.Image:
    """⇄ on the diagonal: one arrow up-right, one down-left."""
    mask = Image.new("L", size, 0)
    d = ImageDraw.Draw(mask)
    length, thick, head = r * 1.9, r * 0.3, r * 0.42
    gap = r * 0.42
    top = _arrow(cx + r * 0.12, cy - gap, length, thick, head)
    bottom = _rotate(
        _arrow(cx - r * 0.12, cy + gap, length, thick, head), cx - r * 0.12, cy + gap, 180
    )
    d.polygon(_rotate(top, cx, cy, -45), fill=255)
    d.polygon(_rotate(bottom, cx, cy, -45), fill=255)
    return mask


def _mini_card(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, tilt: float) -> None:
    h = w * 1.45
    outer = [(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2)]
    outer += [(cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2)]
    t = w * 0.2
    inner = [(cx - w / 2 + t, cy - h / 2 + t), (cx + w / 2 - t, cy - h / 2 + t)]
    inner += [(cx + w / 2 - t, cy + h / 2 - t), (cx - w / 2 + t, cy + h / 2 - t)]
    d.polygon(_rotate(outer, cx, cy, tilt), fill=255)
    d.polygon(_rotate(inner, cx, cy, tilt), fill=0)


def _arc_arrow(
    d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, start: float, end: float
) -> None:
    """An arc of radius ``r`` from ``start`` to ``end`` degrees (clockwise), head at ``end``."""
    thick = r * 0.17
    box = (cx - r, cy - r, cx + r, cy + r)
    d.arc(box, start, end, fill=255, width=max(1, round(thick)))
    mid = r - thick / 2
    t = math.radians(end)
    ex, ey = cx + mid * math.cos(t), cy + mid * math.sin(t)
    tx, ty = -math.sin(t), math.cos(t)  # direction of travel
    nx, ny = math.cos(t), math.sin(t)
    head = r * 0.3
    d.polygon(
        [
            (ex + tx * head, ey + ty * head),
            (ex + nx * head * 0.75, ey + ny * head * 0.75),
            (ex - nx * head * 0.75, ey - ny * head * 0.75),
        ],
        fill=255,
    )


def _swap_mask(size: tuple[int, int], cx: float, cy: float, r: float) -> Image.Image:
    """Swap Hands: two cards inside a ring of two arrows chasing each other."""
    mask = Image.new("L", size, 0)
    d = ImageDraw.Draw(mask)
    w = r * 0.46
    _mini_card(d, cx - r * 0.3, cy, w, -10)
    _mini_card(d, cx + r * 0.3, cy, w, 10)
    _arc_arrow(d, cx, cy, r, 200, 322)
    _arc_arrow(d, cx, cy, r, 20, 142)
    return mask


def _skip_everyone_mask(size: tuple[int, int], cx: float, cy: float, r: float) -> Image.Image:
    """Skip Everyone: the Skip sign inside a second, outer ring."""
    mask = _skip_mask(size, cx, cy, r * 0.7)
    d = ImageDraw.Draw(mask)
    ring = r * 0.17
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=255, width=max(1, round(ring)))
    return mask


def _flip_mask(size: tuple[int, int], cx: float, cy: float, r: float) -> Image.Image:
    """Flip: a card, half filled (its two sides), inside an arrow turning round it."""
    mask = Image.new("L", size, 0)
    d = ImageDraw.Draw(mask)
    w = r * 0.62
    h = w * 1.45
    outer = [(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2)]
    outer += [(cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2)]
    t = w * 0.16
    inner = [(cx + t / 2, cy - h / 2 + t), (cx + w / 2 - t, cy - h / 2 + t)]
    inner += [(cx + w / 2 - t, cy + h / 2 - t), (cx + t / 2, cy + h / 2 - t)]
    d.polygon(_rotate(outer, cx, cy, 20), fill=255)
    d.polygon(_rotate(inner, cx, cy, 20), fill=0)  # the right half hollow
    _arc_arrow(d, cx, cy, r, 300, 215)
    return mask


#: The ``+N`` text of each drawing kind.
_DRAW_TEXT = {
    Kind.DRAW_TWO: "+2",
    Kind.WILD_DRAW_FOUR: "+4",
    Kind.DRAW_ONE: "+1",
    Kind.DRAW_FIVE: "+5",
    Kind.WILD_DRAW_TWO: "+2",
    Kind.WILD_DRAW_COLOUR: "+?",
}


def _icon_mask(
    face: CardFace, size: tuple[int, int], cx: float, cy: float, r: float, *, corner: bool
) -> Image.Image | None:
    """The mask of ``face``'s symbol: big in the middle, or small in a corner."""
    kind = face.kind
    if kind is Kind.NUMBER:
        text = str(face.number)
        px = round(r * (1.05 if corner else 2.15))
        mask = _text_mask(size, text, (cx, cy), px, r * (0.07 if corner else 0.1))
        bbox = mask.getbbox()
        if face.number in (6, 9) and bbox is not None:  # underlined: a 6 is never a 9
            gap, bar, inset = px * 0.025, px * 0.07, (bbox[2] - bbox[0]) * 0.12
            ImageDraw.Draw(mask).rectangle(
                (bbox[0] + inset, bbox[3] + gap, bbox[2] - 1 - inset, bbox[3] + gap + bar),
                fill=255,
            )
        return mask
    if kind is Kind.SKIP:
        return _skip_mask(size, cx, cy, r * (0.5 if corner else 0.78))
    if kind is Kind.REVERSE:
        return _reverse_mask(size, cx, cy, r * (0.55 if corner else 0.8))
    draw_text = _DRAW_TEXT.get(kind)
    if draw_text is not None:
        px = round(r * (0.82 if corner else 1.45))
        return _text_mask(size, draw_text, (cx, cy), px, r * (0.06 if corner else 0.09))
    if kind is Kind.SWAP_HANDS:
        return _swap_mask(size, cx, cy, r * (0.5 if corner else 0.8))
    if kind is Kind.SKIP_EVERYONE:
        return _skip_everyone_mask(size, cx, cy, r * (0.56 if corner else 0.84))
    if kind is Kind.FLIP:
        return _flip_mask(size, cx, cy, r * (0.52 if corner else 0.8))
    return None  # Wild: its oval is its symbol


# -- the art ----------------------------------------------------------------------------


def _card_base(
    w: int, h: int, body: theme.RGB, border: theme.RGB = theme.WHITE
) -> tuple[Image.Image, float]:
    """A blank card at the supersampled size: ``border`` (white), ``body`` inside."""
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    u = w / 100
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=10 * u, fill=theme.EDGE)
    d.rounded_rectangle(
        (u * 0.8, u * 0.8, w - 1 - u * 0.8, h - 1 - u * 0.8), radius=9.4 * u, fill=border
    )
    d.rounded_rectangle((6 * u, 6 * u, w - 1 - 6 * u, h - 1 - 6 * u), radius=6 * u, fill=body)
    return image, u


def _wild_oval(
    image: Image.Image,
    cx: float,
    cy: float,
    a: float,
    b: float,
    u: float,
    *,
    symbols: bool = True,
    tilt: float = OVAL_TILT,
    quadrants: tuple[Colour, ...] = theme.WILD_QUADRANTS,
) -> None:
    """The four-colour oval, with the four symbols (one per quadrant) unless told not to.

    ``quadrants`` names its colours (:data:`~renders.theme.DARK_WILD_QUADRANTS`: dark Wild).
    """
    size = image.size
    d = ImageDraw.Draw(image)
    d.polygon(_oval(cx, cy, a + 2.2 * u, b + 2.2 * u, tilt), fill=theme.WHITE)
    colours = Image.new("RGB", size, theme.INK)
    cd = ImageDraw.Draw(colours)
    big = b * 3
    quads: list[list[Point]] = [
        [(cx, cy), (cx - big, cy), (cx - big, cy - big), (cx, cy - big)],
        [(cx, cy), (cx, cy - big), (cx + big, cy - big), (cx + big, cy)],
        [(cx, cy), (cx - big, cy), (cx - big, cy + big), (cx, cy + big)],
        [(cx, cy), (cx, cy + big), (cx + big, cy + big), (cx + big, cy)],
    ]
    for colour, quad in zip(quadrants, quads, strict=True):
        cd.polygon(_rotate(quad, cx, cy, tilt), fill=theme.fill(colour))
    oval_mask = Image.new("L", size, 0)
    ImageDraw.Draw(oval_mask).polygon(_oval(cx, cy, a, b, tilt), fill=255)
    image.paste(colours, (0, 0), oval_mask)
    if not symbols:
        return
    # Symbols in the quadrants, placed in the oval's own frame.
    marks = Image.new("L", size, 0)
    sd = ImageDraw.Draw(marks)
    r = a * 0.16
    spots = ((-0.5, -0.62), (0.5, -0.62), (-0.5, 0.62), (0.5, 0.62))
    for colour, (fx, fy) in zip(quadrants, spots, strict=True):
        (px, py), *_ = _rotate([(cx + fx * a, cy + fy * b)], cx, cy, tilt)
        sd.polygon(symbol_points(theme.symbol(colour), px, py, r), fill=255)
    _stamp(image, marks, theme.WHITE, theme.INK, max(1.0, r * 0.28))


def blank_middle(image: Image.Image, cx: float, cy: float, a: float, b: float, u: float) -> None:
    """The blank card's mark: the middle of its wild oval (half-axes ``a``, ``b``) left
    white, ringed in ink, the space a table writes its own rule on."""
    d = ImageDraw.Draw(image)
    d.polygon(_oval(cx, cy, a * 0.64, b * 0.72, OVAL_TILT), fill=theme.INK)
    ring = 2.5 * u
    d.polygon(_oval(cx, cy, a * 0.64 - ring, b * 0.72 - ring, OVAL_TILT), fill=theme.WHITE)


def _corners(
    face: CardFace, image: Image.Image, u: float, dark: bool = False, index: bool = True
) -> None:
    """Index and colour symbol in the top-left corner and, turned over, the bottom-right
    (without ``index``: the symbol alone, a little larger)."""
    size = image.size
    cx, cy = 17 * u, 19 * u
    mask = _icon_mask(face, size, cx, cy, 23 * u, corner=True) if index else None
    glyphs = mask if mask is not None else Image.new("L", size, 0)
    if face.colour is not None:
        d = ImageDraw.Draw(glyphs)
        at, r = (41 * u, 5.6 * u) if index else (cy - 2 * u, 7 * u)
        d.polygon(symbol_points(theme.symbol(face.colour), cx, at, r), fill=255)
    glyphs = ImageChops.lighter(glyphs, glyphs.transpose(Image.Transpose.ROTATE_180))
    _stamp(image, glyphs, theme.WHITE, theme.INK, 1.3 * u)
    if index and (face.kind is Kind.WILD or face.notation == BLANK):
        # A small four-colour oval stands for "Wild" (and a blank wild) in the corners.
        small = Image.new("RGBA", size, (0, 0, 0, 0))
        quadrants = theme.DARK_WILD_QUADRANTS if dark else theme.WILD_QUADRANTS
        _wild_oval(
            small, cx, cy + 2 * u, 6.5 * u, 11 * u, u * 0.4, symbols=False, quadrants=quadrants
        )
        image.alpha_composite(small)
        image.alpha_composite(small.transpose(Image.Transpose.ROTATE_180))


def is_dark(face: CardFace, side: int = 0) -> bool:
    """Whether ``face`` is drawn as a dark-side (UNO Flip) card when ``side`` is in play.

    Coloured faces belong to the side of their colour and the Flip wilds to their own side
    (Wild Draw Two light, Wild Draw Colour dark); the other wilds (the Wild is on both
    sides) follow ``side``.
    """
    if face.colour is not None:
        return face.colour in DARK_COLOURS
    if face.kind is Kind.WILD_DRAW_COLOUR:
        return True
    if face.kind is Kind.WILD_DRAW_TWO:
        return False
    return side == 1


def _draw_face(
    face: CardFace, w: int, h: int, dark: bool = False, index: bool = True
) -> Image.Image:
    """``face`` at the supersampled size ``w`` × ``h`` (``dark``: its dark-side look;
    ``index``: with the corner indices)."""
    wild_body = theme.NIGHT if dark else theme.INK
    body = wild_body if face.colour is None else theme.fill(face.colour)
    image, u = _card_base(w, h, body, theme.INK if dark else theme.WHITE)
    cx, cy = w / 2, h / 2
    a, b = 34 * u, 64 * u
    if face.colour is None:
        quadrants = theme.DARK_WILD_QUADRANTS if dark else theme.WILD_QUADRANTS
        blank = face.notation == BLANK
        _wild_oval(image, cx, cy, a, b, u, symbols=not blank, quadrants=quadrants)
        if blank:
            blank_middle(image, cx, cy, a, b, u)
        fill, outline = theme.WHITE, theme.INK
    elif dark:
        ImageDraw.Draw(image).polygon(_oval(cx, cy, a, b, OVAL_TILT), fill=theme.INK)
        fill, outline = theme.dark_glyph(face.colour), theme.WHITE
    else:
        ImageDraw.Draw(image).polygon(_oval(cx, cy, a, b, OVAL_TILT), fill=theme.WHITE)
        fill, outline = theme.FILL[face.colour], theme.INK
    mask = _icon_mask(face, image.size, cx, cy, 30 * u, corner=False)
    if mask is not None:
        _stamp(image, mask, fill, outline, 2.6 * u, shadow=2.4 * u)
    _corners(face, image, u, dark, index)
    return image


def _back_mark(
    image: Image.Image, u: float, oval: tuple[float, float], text: tuple[float, float, float]
) -> None:
    """The back's tilted oval with "UNO" across it, in the middle of ``image`` (a card or its
    emoji): ``oval`` (half-axes) and ``text`` (size, boldness, outline) are in units ``u``."""
    center = (image.size[0] / 2, image.size[1] / 2)
    shape = _oval(*center, oval[0] * u, oval[1] * u, OVAL_TILT)
    ImageDraw.Draw(image).polygon(shape, fill=theme.BACK_OVAL)
    size, bold, outline = text
    mask = _text_mask(image.size, "UNO", center, round(size * u), bold * u)
    mask = mask.rotate(28, resample=Image.Resampling.BICUBIC, center=center)
    _stamp(image, mask, theme.BACK_TEXT, theme.INK, outline * u, shadow=2.2 * u)


def _draw_back(w: int, h: int) -> Image.Image:
    image, u = _card_base(w, h, theme.BACK)
    _back_mark(image, u, oval=(34, 64), text=(34, 1.6, 2.2))
    return image


@lru_cache(maxsize=2)
def _dim_table(side: int) -> list[int]:
    """The lookup table (R, G, B) that maps every channel value as :func:`theme.dim` does."""
    a = theme.DIM_AMOUNT
    return [round(v + (t - v) * a) for t in theme.hand_bg(side) for v in range(256)]


def _finish(image: Image.Image, width: int, variant: Variant, side: int = 0) -> Image.Image:
    """Reduce the supersampled art and apply the variant (a dimmed card is blended toward
    the background of a hand played on ``side``)."""
    if variant is Variant.HIGHLIGHTED:
        d = ImageDraw.Draw(image)
        w, h = image.size
        u = w / 100
        d.rounded_rectangle(
            (0, 0, w - 1, h - 1), radius=10 * u, outline=theme.HIGHLIGHT, width=round(4.2 * u)
        )
    small = image.resize((width, theme.card_height(width)), Image.Resampling.LANCZOS)
    if variant is Variant.DIMMED:
        alpha = small.getchannel("A")
        rgb = small.convert("RGB").point(_dim_table(side))
        small = rgb.convert("RGBA")
        small.putalpha(alpha)
    return small


@lru_cache(maxsize=1024)
def render_card(
    face: CardFace,
    width: int,
    variant: Variant = Variant.NORMAL,
    *,
    side: int = 0,
    index: bool = True,
) -> Image.Image:
    """``face`` as an RGBA image ``width`` wide (2:3), transparent outside its rounded corners.

    ``side`` is the UNO Flip side the face is seen on (0 light, 1 dark): it decides how a
    Wild looks, the one face both sides share (see :func:`is_dark`), and what a dimmed card
    is blended toward (the hand's background on that side). Without ``index`` the corners
    show only the colour's symbol: where no card covers another (a phone hand), the big value
    in the middle says it all, and the small indices cost a fifth of the picture's bytes.
    Cached per arguments; the image is shared, so do not draw on it.
    """
    if width < 8:
        raise ValueError("a card needs to be at least 8 pixels wide")
    ss = theme.SUPERSAMPLE
    dark = is_dark(face, side)
    art = _draw_face(face, width * ss, theme.card_height(width) * ss, dark, index)
    return _finish(art, width, variant, side)


@lru_cache(maxsize=128)
def render_mini(face: CardFace, width: int, *, side: int = 0) -> Image.Image:
    """``face`` reduced to what reads on a tiny card (the seats' fans of UNO Flip): its
    border and body, and its colour's symbol in the top-left corner (wilds: their oval).

    Fewer details than :func:`render_card` keep the table's PNG small; ``side`` as there.
    """
    if width < 8:
        raise ValueError("a card needs to be at least 8 pixels wide")
    ss = theme.SUPERSAMPLE
    w, h = width * ss, theme.card_height(width) * ss
    dark = is_dark(face, side)
    wild_body = theme.NIGHT if dark else theme.INK
    body = wild_body if face.colour is None else theme.fill(face.colour)
    image, u = _card_base(w, h, body, theme.INK if dark else theme.WHITE)
    if face.colour is None:
        quadrants = theme.DARK_WILD_QUADRANTS if dark else theme.WILD_QUADRANTS
        _wild_oval(image, w / 2, h / 2, 34 * u, 64 * u, u, symbols=False, quadrants=quadrants)
    else:
        mask = Image.new("L", image.size, 0)
        points = symbol_points(theme.symbol(face.colour), 17 * u, 22 * u, 9 * u)
        ImageDraw.Draw(mask).polygon(points, fill=255)
        _stamp(image, mask, theme.WHITE, theme.INK, 2 * u)
    return _finish(image, width, Variant.NORMAL)


@lru_cache(maxsize=32)
def render_back(width: int) -> Image.Image:
    """The back of a card, ``width`` wide (see :func:`render_card`)."""
    if width < 8:
        raise ValueError("a card needs to be at least 8 pixels wide")
    ss = theme.SUPERSAMPLE
    return _finish(_draw_back(width * ss, theme.card_height(width) * ss), width, Variant.NORMAL)


@lru_cache(maxsize=64)
def symbol_image(colour: Colour | None, size: int, side: int = 0) -> Image.Image:
    """A round swatch of ``colour`` with its symbol, ``size`` pixels across (RGBA).

    ``None`` (no colour named yet) gives the four-colour wild swatch of ``side`` (UNO Flip:
    1 gives the dark colours).
    """
    ss = theme.SUPERSAMPLE
    s = size * ss
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    c = s / 2
    d.ellipse((0, 0, s - 1, s - 1), fill=theme.WHITE)
    edge = s * 0.07
    if colour is None:
        quadrants = theme.DARK_WILD_QUADRANTS if side == 1 else theme.WILD_QUADRANTS
        _wild_oval(
            image, c, c, c - edge, c - edge, s / 100, symbols=False, tilt=0.0, quadrants=quadrants
        )
    else:
        d.ellipse((edge, edge, s - 1 - edge, s - 1 - edge), fill=theme.fill(colour))
        mask = Image.new("L", (s, s), 0)
        ImageDraw.Draw(mask).polygon(symbol_points(theme.symbol(colour), c, c, s * 0.2), fill=255)
        _stamp(image, mask, theme.WHITE, theme.INK, s * 0.03)
    return image.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def card_shadow(width: int) -> Image.Image:
    """A soft-edged dark card silhouette, pasted a few pixels below-right of a card."""
    ss = theme.SUPERSAMPLE
    w, h = width * ss, theme.card_height(width) * ss
    image = Image.new("RGBA", (w, h), (*theme.SHADOW, 0))
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, w - 1, h - 1), radius=w / 10, fill=(*theme.SHADOW, 110)
    )
    return image.resize((width, theme.card_height(width)), Image.Resampling.LANCZOS)


#: Where a card's shadow falls, from the card's top-left corner.
SHADOW_OFFSET = (3, 4)


@lru_cache(maxsize=512)
def card_sprite(face: CardFace, width: int, *, side: int = 0) -> Image.Image:
    """:func:`render_card` as a hand shows it (no corner index), with its :func:`card_shadow`
    already under it, as one RGBA image (:data:`SHADOW_OFFSET` larger): a hand pastes each
    card once instead of twice."""
    card = render_card(face, width, side=side, index=False)
    shadow = card_shadow(width)
    dx, dy = SHADOW_OFFSET
    sprite = Image.new("RGBA", (card.width + dx, card.height + dy), (0, 0, 0, 0))
    sprite.alpha_composite(shadow, (dx, dy))
    sprite.alpha_composite(card)
    return sprite
