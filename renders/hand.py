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

from PIL import Image

from engine.actions import Play
from engine.state import Phase
from engine.views import PlayerView

from . import theme
from .assets import encode_png, serialized
from .card import Variant, card_shadow, marker, render_card

Layout = tuple[int, int, tuple[tuple[int, int], ...]]

_SHADOW_OFFSET = (3, 4)


def _rows(count: int) -> list[int]:
    """Cards per row, balanced, earlier rows taking the odd ones."""
    rows = max(1, math.ceil(count / theme.HAND_ROW_MAX))
    base, extra = divmod(count, rows)
    return [base + (1 if r < extra else 0) for r in range(rows)]


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


def playable_cards(view: PlayerView) -> frozenset[int]:
    """Ids of the cards ``view.seat`` may play now: faces named by a legal :class:`Play`.

    While deciding on a card just drawn (R-TURN-5), only that card may be played.
    """
    faces = {action.face for action in view.legal if isinstance(action, Play)}
    if not faces:
        return frozenset()
    if view.drawn is not None and view.table.phase is Phase.DRAWN:
        return frozenset(c for c, face in view.hand if c == view.drawn and face in faces)
    return frozenset(c for c, face in view.hand if face in faces)


@serialized
def render_hand(view: PlayerView, *, playable: Collection[int] | None = None) -> bytes:
    """The hand of ``view.seat`` as PNG bytes.

    Cards in ``playable`` (default: :func:`playable_cards`) are raised with a bright outline,
    the others dimmed; the card just drawn (``view.drawn``) gets a marker above it.
    """
    chosen = playable_cards(view) if playable is None else frozenset(playable)
    width, height, positions = hand_layout(len(view.hand))
    canvas = Image.new("RGB", (width, height), theme.HAND_BG)
    w = theme.HAND_CARD_W
    shadow = card_shadow(w)
    placed: list[tuple[int, int, int]] = []
    for (card, face), (x, y) in zip(view.hand, positions, strict=True):
        up = card in chosen
        if up:
            y -= theme.HAND_RAISE
        variant = Variant.HIGHLIGHTED if up else Variant.DIMMED
        image = render_card(face, w, variant, side=view.table.side)
        canvas.paste(shadow, (x + _SHADOW_OFFSET[0], y + _SHADOW_OFFSET[1]), shadow)
        canvas.paste(image, (x, y), image)
        placed.append((card, x, y))
    if view.drawn is not None:
        for i, (card, x, y) in enumerate(placed):
            if card != view.drawn:
                continue
            # Centre the marker over the part of the card that the next one leaves visible.
            visible = w
            if i + 1 < len(positions) and positions[i + 1][1] == positions[i][1]:
                visible = min(w, positions[i + 1][0] - x)
            mark = marker(theme.HAND_MARK, theme.DRAWN_MARK)
            canvas.paste(mark, (x + visible // 2 - mark.width // 2, y - mark.height - 1), mark)
    return encode_png(canvas, flip=view.table.rules.flip)
