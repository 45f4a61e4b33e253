"""A player's hand: every card of :attr:`PlayerView.hand`, playable ones raised and outlined.

Drawn for a phone (issue 20): Discord shows the picture 360 px wide there, so cards never
overlap side by side (in a hand of 8 or more, an overlapped card showed a 25-px strip, its
corner index 9 px tall). Rows of at most :data:`~renders.theme.HAND_ROW_MAX` cards wrap
instead, and each row shows its cards down to below their value
(:data:`~renders.theme.VALUE_BOTTOM`) above the next, even where a card of the next row is
raised. A hand of 7 or more cards is always 544 px wide, shown at 66 % on a phone whatever
its length (a card 45 px wide, its value 23 px tall): a 60-card hand is taller, never
smaller (``benchmarks/render_bench.py --phone``). Cards have no corner index (the value in
the middle is never covered), only the colour's symbol in two corners. The cards that cannot
be played now are dimmed a little (their colour, border and value stay readable); the
playable ones are raised and outlined in gold. :func:`hand_layout` is the pure geometry, so
tests can check it.

UNO Flip (R-FLIP): the cards show the side in play (:attr:`~engine.views.TableView.side`).
On the dark side the background is a lit violet (:data:`~renders.theme.NIGHT_HAND_BG`), so
the dark cards' black borders stand out, and the image uses the Flip palette.
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


def row_step() -> int:
    """Pixels from one row of cards to the next: a raised card of the next row still leaves
    the value of the card above it whole."""
    h = theme.card_height(theme.HAND_CARD_W)
    return math.ceil(h * theme.VALUE_BOTTOM) + theme.HAND_RAISE + 2


@lru_cache(maxsize=128)
def hand_layout(count: int) -> Layout:
    """``(width, height, positions)`` of a hand of ``count`` cards.

    ``positions[i]`` is the top-left corner of card ``i`` when not raised (a playable card is
    drawn :data:`~renders.theme.HAND_RAISE` pixels higher; the top margin leaves room for
    that and for the drawn-card marker). An empty hand gets the size of a one-card hand.
    Cards in a row never overlap; rows are centred.
    """
    if count < 0:
        raise ValueError("a hand cannot hold fewer than no cards")
    w = theme.HAND_CARD_W
    h = theme.card_height(w)
    gap, pad = theme.HAND_GAP, theme.HAND_PAD
    rows = _rows(count)
    widest = max(rows[0], 1) if len(rows) == 1 else theme.HAND_ROW_MAX
    width = 2 * pad + widest * w + (widest - 1) * gap
    top = pad + theme.HAND_RAISE + theme.HAND_MARK
    step = row_step()
    height = top + (len(rows) - 1) * step + h + pad
    positions: list[tuple[int, int]] = []
    for r, n in enumerate(rows):
        row_width = n * w + (n - 1) * gap
        x0 = (width - row_width) // 2
        y = top + r * step
        positions.extend((x0 + i * (w + gap), y) for i in range(n))
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
    canvas = Image.new("RGB", (width, height), theme.hand_bg(scene.side))
    w = theme.HAND_CARD_W
    placed: list[tuple[int, int]] = []
    for face, up, (x, y) in zip(scene.faces, scene.raised, positions, strict=True):
        if up:
            y -= theme.HAND_RAISE
        variant = Variant.HIGHLIGHTED if up else Variant.DIMMED
        # The card and its shadow; no corner index: nothing covers the value in the middle.
        sprite = card_sprite(face, w, variant, side=scene.side, index=False)
        canvas.paste(sprite, (x, y), sprite)
        placed.append((x, y))
    if scene.drawn is not None:
        i = scene.drawn
        x, y = placed[i]
        mark = marker(theme.HAND_MARK, theme.DRAWN_MARK)
        canvas.paste(mark, (x + w // 2 - mark.width // 2, y - mark.height - 1), mark)
    return encode_png(canvas, flip=scene.flip)
