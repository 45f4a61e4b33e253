"""A player's hand: every card of :attr:`PlayerView.hand`, in order, and nothing else.

The picture shows the cards the player holds and does not depend on anything else: not on
whose turn it is, nor on which cards are playable now, nor on the card just drawn (issue 26).
So the others' moves never change it, and the bot uploads a new picture only when the
player's own cards change; the hand message's buttons say what may be played now, and its
text what was just drawn. (The cards used to be raised and outlined when playable, dimmed
otherwise: every turn that came or went redrew and re-uploaded an unchanged hand.)

Drawn for a phone (issue 20): Discord shows the picture 360 px wide there, so cards never
overlap side by side (in a hand of 8 or more, an overlapped card showed a 25-px strip, its
corner index 9 px tall). Rows of at most :data:`~renders.theme.HAND_ROW_MAX` cards wrap
instead, and each row shows its cards down to below their value
(:data:`~renders.theme.VALUE_BOTTOM`) above the next. A hand of 7 or more cards is always
544 px wide, shown at 66 % on a phone whatever its length (a card 45 px wide, its value
23 px tall): a 60-card hand is taller, never smaller (``benchmarks/render_bench.py
--phone``). Cards have no corner index (the value in the middle is never covered), only the
colour's symbol in two corners. Each card is pasted from its cached sprite
(:func:`~renders.card.card_sprite`: the card and its shadow, drawn once per face and side).
:func:`hand_layout` is the pure geometry, so tests can check it.

UNO Flip (R-FLIP): the cards show the side in play (:attr:`~engine.views.TableView.side`).
On the dark side the background is a lit violet (:data:`~renders.theme.NIGHT_HAND_BG`), so
the dark cards' black borders stand out, and the image uses the Flip palette.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image

from engine.cards import CardFace
from engine.views import PlayerView

from . import theme
from .assets import encode_palette_png, encode_png, quantize
from .card import card_sprite
from .scenes import HandScene, hand_scene

Layout = tuple[int, int, tuple[tuple[int, int], ...]]


def _rows(count: int) -> list[int]:
    """Cards per row, balanced, earlier rows taking the odd ones."""
    rows = max(1, math.ceil(count / theme.HAND_ROW_MAX))
    base, extra = divmod(count, rows)
    return [base + (1 if r < extra else 0) for r in range(rows)]


def row_step() -> int:
    """Pixels from one row of cards to the next: the next row leaves the value of the card
    above it whole."""
    h = theme.card_height(theme.HAND_CARD_W)
    return math.ceil(h * theme.VALUE_BOTTOM) + 2


@lru_cache(maxsize=128)
def hand_layout(count: int) -> Layout:
    """``(width, height, positions)`` of a hand of ``count`` cards.

    ``positions[i]`` is the top-left corner of card ``i``. An empty hand gets the size of a
    one-card hand. Cards in a row never overlap; rows are centred.
    """
    if count < 0:
        raise ValueError("a hand cannot hold fewer than no cards")
    w = theme.HAND_CARD_W
    h = theme.card_height(w)
    gap, pad = theme.HAND_GAP, theme.HAND_PAD
    rows = _rows(count)
    widest = max(rows[0], 1) if len(rows) == 1 else theme.HAND_ROW_MAX
    width = 2 * pad + widest * w + (widest - 1) * gap
    top = pad
    step = row_step()
    height = top + (len(rows) - 1) * step + h + pad
    positions: list[tuple[int, int]] = []
    for r, n in enumerate(rows):
        row_width = n * w + (n - 1) * gap
        x0 = (width - row_width) // 2
        y = top + r * step
        positions.extend((x0 + i * (w + gap), y) for i in range(n))
    return width, height, tuple(positions)


def render_hand(view: PlayerView) -> bytes:
    """The hand of ``view.seat`` as PNG bytes: its cards, in order. Drawn from
    :func:`renders.scenes.hand_scene` alone, so :func:`renders.scenes.hand_key` tells when
    the picture would be the same."""
    return draw_hand(hand_scene(view))


def draw_hand(scene: HandScene) -> bytes:
    """The hand of ``scene`` as PNG bytes (:func:`render_hand` without the view).

    A hand of one row (up to :data:`~renders.theme.HAND_ROW_MAX` cards, most hands) is laid
    out from cached tiles, each card already on the background and on the palette: nothing
    is blended or mapped onto the palette per picture, only copied and compressed. Longer
    hands, whose rows overlap, are blended card by card (:func:`draw_blended`); both give
    the same bytes where both apply (``tests/renders/test_hand.py``).
    """
    if len(_rows(len(scene.faces))) > 1:
        return draw_blended(scene)
    width, height, positions = hand_layout(len(scene.faces))
    canvas = _background(width, height, scene.side, scene.flip).copy()
    for face, xy in zip(scene.faces, positions, strict=True):
        canvas.paste(_tile(face, scene.side, scene.flip), xy)
    return encode_palette_png(canvas)


def draw_blended(scene: HandScene) -> bytes:
    """:func:`draw_hand` by blending every card and its shadow onto the background, then
    mapping the picture onto the palette: right for any hand, rows overlapping or not."""
    width, height, positions = hand_layout(len(scene.faces))
    canvas = Image.new("RGB", (width, height), theme.hand_bg(scene.side))
    w = theme.HAND_CARD_W
    for face, (x, y) in zip(scene.faces, positions, strict=True):
        # The card and its shadow; no corner index: nothing covers the value in the middle.
        sprite = card_sprite(face, w, side=scene.side)
        canvas.paste(sprite, (x, y), sprite)
    return encode_png(canvas, flip=scene.flip)


@lru_cache(maxsize=512)
def _tile(face: CardFace, side: int, flip: bool) -> Image.Image:
    """A card and its shadow blended onto the hand's background and mapped onto the
    palette, once per face, side and palette. Cards of one row lie
    :data:`~renders.theme.HAND_GAP` apart, wider than a shadow: tiles never overlap."""
    sprite = card_sprite(face, theme.HAND_CARD_W, side=side)
    tile = Image.new("RGB", sprite.size, theme.hand_bg(side))
    tile.paste(sprite, (0, 0), sprite)
    return quantize(tile, flip=flip)


@lru_cache(maxsize=16)
def _background(width: int, height: int, side: int, flip: bool) -> Image.Image:
    """The empty hand, on the palette (copied before cards are pasted on it)."""
    return quantize(Image.new("RGB", (width, height), theme.hand_bg(side)), flip=flip)
