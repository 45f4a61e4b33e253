"""Lazily built, cached assets: the card art's font, the fixed PNG palette, PNG encoding.

Nothing is built at import time. The card art's font is Pillow's own scalable default font
(``ImageFont.load_default(size=...)``, Pillow ≥ 10.1); text (names, figures, labels) is
drawn by :mod:`renders.text` with the fonts shipped in ``renders/fonts``. No system font is
needed, and every machine draws the same glyphs.

Renders run in worker threads, several at once, with no lock of their own: every cache
here and in the other modules holds immutable results (images that are pasted, never drawn
on), ``functools.lru_cache`` is safe to share, and Pillow releases the GIL while it
composes, quantizes and compresses, so two renders use two cores. FreeType faces are the
one shared mutable thing; :mod:`renders.text` and :func:`renders.card` take a lock around
them, only when something new must be rasterized.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageFont

from engine.cards import CLASSIC_COLOURS, DARK_COLOURS

from . import theme

#: zlib level of the PNGs, chosen by measurement (``benchmarks/render_bench.py --png``, see
#: docs/performance.md). Level 6, zlib's default, spent about half of a render compressing;
#: level 3 (zlib's fastest matcher, as 1 and 2) takes 0.41× its CPU for 1.18× the bytes and
#: keeps hands, tables up to 8 seats and the boards within :data:`SIZE_BUDGET`, where levels
#: 1 and 2 push 10-seat tables over it more often.
COMPRESS_LEVEL = 3
#: A picture larger than this at :data:`COMPRESS_LEVEL` (a crowded 10-seat table, a 60-card
#: hand) is encoded again at :data:`FALLBACK_LEVEL`: the budget of issue 11 is 30 KB.
SIZE_BUDGET = 30_000
FALLBACK_LEVEL = 4
#: zlib strategy: the default one (0). "Filtered" is the same for palette images, "fixed"
#: 12–33 % larger at the same speed, RLE 60 % larger; Pillow applies no row filter to
#: palette images, which is also the best one for them.
COMPRESS_TYPE = 0


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The default font at ``size`` pixels."""
    loaded = ImageFont.load_default(size=size)
    assert isinstance(loaded, ImageFont.FreeTypeFont)  # Pillow ≥ 10.1 with FreeType
    return loaded


def _mix(a: theme.RGB, b: theme.RGB, t: float) -> theme.RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def palette_colours(flip: bool = False) -> list[theme.RGB]:
    """The colours of every PNG we write (at most 256).

    The art is flat: a few dozen key colours (:func:`renders.theme.key_colours`) plus the
    anti-aliased edges between them. So the palette holds the keys, the midpoints of each
    key with white and with ink (the outlines), finer steps for the card fills (the oval and
    number edges, the most common ones), the edges of cards on the backgrounds, and a short
    grey ramp. Fewer colours compress better: each one added costs bytes on every edge.

    The colours of emoji (:data:`renders.theme.EMOJI_COLOURS`), which names may hold, come
    last. ``flip`` gives the palette of UNO Flip renders: the same colours, in the same
    order, followed by the dark side's (:func:`renders.theme.flip_key_colours`) and their
    edges, so classic colours keep their indices.
    """
    keys = theme.key_colours()
    out: list[theme.RGB] = []

    def add(c: theme.RGB) -> None:
        if c not in out:
            out.append(c)

    for c in keys:
        add(c)
    for c in keys:
        add(_mix(c, theme.WHITE, 0.5))
        add(_mix(c, theme.INK, 0.5))
    fills = [theme.FILL[c] for c in CLASSIC_COLOURS]
    for c in [*fills, *(theme.dim(f) for f in fills), theme.WHITE, theme.dim(theme.WHITE)]:
        for other in (theme.WHITE, theme.INK):
            for t in (0.25, 0.75):
                add(_mix(c, other, t))
    edges = (theme.EDGE, theme.HIGHLIGHT, theme.SHADOW, theme.DRAWN_MARK, theme.WHITE)
    for c in edges:
        for bg in (theme.HAND_BG, theme.TABLE, theme.FELT, theme.PANEL):
            add(_mix(c, bg, 0.5))
    for v in range(0, 256, 32):
        add((v, v, v))
    add(theme.BOARD_STRIPE)
    for c in theme.EMOJI_COLOURS:
        add(c)
    if flip:
        _add_flip(add)
    if len(out) > 256:
        raise AssertionError("the palette holds at most 256 colours")
    return out


def _add_flip(add: Callable[[theme.RGB], None]) -> None:
    """Add UNO Flip's colours: its keys, their outlines, dark-card edges, dark-table edges."""
    keys = theme.flip_key_colours()
    for c in keys:
        add(c)
    for c in keys:
        add(_mix(c, theme.INK, 0.5))
    # White edges only where white meets them: a dark card's value outline, and the white
    # of the sun and moon (the table's felts never touch white). The palette has 256 places.
    glyphs = [theme.dark_glyph(c) for c in DARK_COLOURS]
    for c in [*glyphs, *(theme.dim(g, 1) for g in glyphs), theme.SUN, theme.MOON]:
        add(_mix(c, theme.WHITE, 0.5))
    for c in [theme.DARK_FILL[c] for c in DARK_COLOURS]:
        for t in (0.25, 0.75):
            add(_mix(c, theme.INK, t))
    for c in (theme.EDGE, theme.HIGHLIGHT, theme.SHADOW, theme.INK):
        for bg in (theme.NIGHT_FELT, theme.NIGHT_TABLE, theme.NIGHT_PANEL, theme.NIGHT_HAND_BG):
            add(_mix(c, bg, 0.5))


@lru_cache(maxsize=2)
def palette_image(flip: bool = False) -> Image.Image:
    """A 1×1 "P" image carrying :func:`palette_colours`, for ``Image.quantize(palette=...)``."""
    image = Image.new("P", (1, 1))
    colours = palette_colours(flip)
    # Pad with the last colour: the unused entries must never be nearer than a real one.
    colours += [colours[-1]] * (256 - len(colours))
    image.putpalette([v for c in colours for v in c])
    return image


def quantize(image: Image.Image, *, flip: bool = False) -> Image.Image:
    """``image`` (RGB) mapped onto the fixed palette, without dithering (flat art, crisp).

    ``flip`` selects UNO Flip's palette (the classic one plus the dark side's colours).
    """
    return image.quantize(palette=palette_image(flip), dither=Image.Dither.NONE)


def png_bytes(
    image: Image.Image, level: int = COMPRESS_LEVEL, strategy: int = COMPRESS_TYPE
) -> bytes:
    """``image`` (a palette image) as PNG bytes: no metadata, the same bytes every time."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=level, compress_type=strategy)
    return buffer.getvalue()


def encode_png(image: Image.Image, *, flip: bool = False) -> bytes:
    """Encode an RGB image as a palette PNG (:func:`quantize`, then
    :func:`encode_palette_png`)."""
    return encode_palette_png(quantize(image, flip=flip))


def encode_palette_png(palette: Image.Image) -> bytes:
    """A palette image (already on the fixed palette) as PNG bytes (:func:`png_bytes`),
    again at :data:`FALLBACK_LEVEL` if it comes out larger than :data:`SIZE_BUDGET`."""
    data = png_bytes(palette)
    if len(data) > SIZE_BUDGET:
        data = png_bytes(palette, FALLBACK_LEVEL)
    return data
