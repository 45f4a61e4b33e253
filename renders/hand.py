"""A player's hand: every card of :attr:`PlayerView.hand`, playable ones raised and outlined.

Rows wrap, so any hand size works: up to :data:`~renders.theme.HAND_ROW_SPREAD` cards lie side
by side; more overlap (the corner index and colour symbol stay visible) in rows of at most
:data:`~renders.theme.HAND_ROW_MAX`, and rows overlap too, each showing the top of its cards.
:func:`hand_layout` is the pure geometry, so tests can check it.

UNO Flip (R-FLIP): the cards show the side in play (:attr:`~engine.views.TableView.side`), so
the dark side's cards have their black borders and dark colours; the image uses the Flip
palette. Classic hands are drawn exactly as before.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from functools import lru_cache

from PIL import Image

from engine.views import PlayerView

from . import theme
from .assets import encode_png
from .card import Variant, card_sprite, marker
from .scenes import HandScene, hand_scene

Layout = tuple[int, int, tuple[tuple[int, int], ...]]


def _rows(count: int) -> list[int]:
    """Cards per row, balanced, earlier rows taking the odd ones."""
    rows = max(1, math.ceil(count / theme.HAND_ROW_MAX))
    base, extra = divmod(count, rows)
    return [base + (1 if r < extra else 0) for r in range(rows)]


@lru_cache(maxsize=128)
def hand_layout(count: int) -> Layout:
    """``(width, height, positions)`` of a hand of ``count`` cards.

    ``positions[i]`` is the top-left corner of card ``i`` when not raised (a playable card is
    drawn :data:`~renders.theme.HAND_RAISE` pixels higher; the top margin leaves room for
    that and for the drawn-card marker). An empty hand gets the size of a one-card hand.
    """
    if count < 0:
        raise ValueError("a hand cannot hold fewer than no cards")
    w = theme.HAND_CARD_W
    h = theme.card_height(w)
    gap, pad = theme.HAND_GAP, theme.HAND_PAD
    rows = _rows(count)
    widest = max(rows[0], 1)
    spread = theme.HAND_ROW_SPREAD
    if widest <= spread:
        step = float(w + gap)
        width = 2 * pad + widest * w + (widest - 1) * gap
    else:
        inner = spread * w + (spread - 1) * gap
        step = (inner - w) / (widest - 1)
        width = 2 * pad + inner
    top = pad + theme.HAND_RAISE + theme.HAND_MARK
    row_step = round(h * theme.HAND_ROW_SHOW)
    height = top + (len(rows) - 1) * row_step + h + pad
    positions: list[tuple[int, int]] = []
    for r, n in enumerate(rows):
        row_width = w + (n - 1) * step
        x0 = (width - row_width) / 2
        y = top + r * row_step
        positions.extend((round(x0 + i * step), y) for i in range(n))
    return width, height, tuple(positions)


def render_hand(view: PlayerView, *, playable: Collection[int] | None = None) -> bytes:
    """The hand of ``view.seat`` as PNG bytes.

    Cards in ``playable`` (default: :func:`playable_cards`) are raised with a bright outline,
    the others dimmed; the card just drawn (``view.drawn``) gets a marker above it. Drawn
    from :func:`renders.scenes.hand_scene` alone, so :func:`renders.scenes.hand_key` tells
    when the picture would be the same.
    """
    return draw_hand(hand_scene(view, playable))


def draw_hand(scene: HandScene) -> bytes:
    """The hand of ``scene`` as PNG bytes (:func:`render_hand` without the view)."""
    width, height, positions = hand_layout(len(scene.faces))
    canvas = Image.new("RGB", (width, height), theme.HAND_BG)
    w = theme.HAND_CARD_W
    placed: list[tuple[int, int]] = []
    for face, up, (x, y) in zip(scene.faces, scene.raised, positions, strict=True):
        if up:
            y -= theme.HAND_RAISE
        variant = Variant.HIGHLIGHTED if up else Variant.DIMMED
        sprite = card_sprite(face, w, variant, side=scene.side)  # the card and its shadow
        canvas.paste(sprite, (x, y), sprite)
        placed.append((x, y))
    if scene.drawn is not None:
        i = scene.drawn
        x, y = placed[i]
        # Centre the marker over the part of the card that the next one leaves visible.
        visible = w
        if i + 1 < len(positions) and positions[i + 1][1] == positions[i][1]:
            visible = min(w, positions[i + 1][0] - x)
        mark = marker(theme.HAND_MARK, theme.DRAWN_MARK)
        canvas.paste(mark, (x + visible // 2 - mark.width // 2, y - mark.height - 1), mark)
    return encode_png(canvas, flip=scene.flip)
