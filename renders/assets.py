"""Lazily built, cached assets: fonts, the fixed PNG palette, and PNG encoding.

Nothing is built at import time. Fonts are Pillow's own scalable default font
(``ImageFont.load_default(size=...)``, Pillow ≥ 10.1), so no font file and no system font is
needed, and every machine draws the same glyphs.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from functools import lru_cache, wraps
from typing import ParamSpec, TypeVar

from PIL import Image, ImageFont

from engine.cards import CLASSIC_COLOURS, DARK_COLOURS

from . import theme

P = ParamSpec("P")
R = TypeVar("R")

# Renders run in worker threads (asyncio.to_thread). A FreeType face must not be used by two
# threads at once, and the caches share images, so public renders take turns; each takes
# milliseconds.
_RENDER_LOCK = threading.RLock()


def serialized(function: Callable[P, R]) -> Callable[P, R]:
    """Run ``function`` under the renders' lock (see above)."""

    @wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with _RENDER_LOCK:
            return function(*args, **kwargs)

    return wrapper


#: zlib level of the PNGs: palette images compress so well that 6 adds little but time.
COMPRESS_LEVEL = 6


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
        add(_mix(c, theme.WHITE, 0.5))
    fills = [theme.DARK_FILL[c] for c in DARK_COLOURS]
    for c in [*fills, *(theme.dim(f) for f in fills)]:
        for t in (0.25, 0.75):
            add(_mix(c, theme.INK, t))
    for c in (theme.EDGE, theme.HIGHLIGHT, theme.SHADOW, theme.INK):
        for bg in (theme.NIGHT_FELT, theme.NIGHT_TABLE, theme.NIGHT_PANEL):
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


def encode_png(image: Image.Image, *, flip: bool = False) -> bytes:
    """Encode an RGB image as a palette PNG: no metadata, the same bytes every time.

    ``flip`` selects UNO Flip's palette (the classic one plus the dark side's colours).
    """
    quantized = image.quantize(palette=palette_image(flip), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    quantized.save(buffer, format="PNG", compress_level=COMPRESS_LEVEL)
    return buffer.getvalue()
