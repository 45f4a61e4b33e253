"""render_hand: valid PNGs of the planned size for any hand, showing the cards and nothing else."""

from __future__ import annotations

import dataclasses
import io
import itertools

import pytest
from PIL import Image, ImageStat

from engine import CardFace, Rules
from engine.cards import flip_deck
from renders import card, hand_key, hand_layout, playable_cards, render_hand, theme
from renders.card import Variant, render_card

from .states import hand_of, stacked

CARD_H = theme.card_height(theme.HAND_CARD_W)


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("count", [1, 7, 25, 60, 108])
def test_any_hand_size_gives_a_png_of_the_planned_size(count: int) -> None:
    view = hand_of(count).view_for(0)
    assert len(view.hand) == count
    image = open_png(render_hand(view))
    width, height, positions = hand_layout(count)
    assert image.format == "PNG"
    assert image.mode == "P"
    assert image.size == (width, height)
    assert len(positions) == count


@pytest.mark.parametrize("count", [0, 1, 2, 7, 8, 12, 13, 25, 26, 60, 108, 216])
def test_layout_keeps_every_card_inside_and_rows_short(count: int) -> None:
    width, height, positions = hand_layout(count)
    assert len(positions) == count
    assert len(set(positions)) == count
    rows: dict[int, list[int]] = {}
    for x, y in positions:
        assert x >= 0
        assert x + theme.HAND_CARD_W <= width
        assert y >= theme.HAND_PAD
        assert y + CARD_H <= height
        rows.setdefault(y, []).append(x)
    assert all(len(xs) <= theme.HAND_ROW_MAX for xs in rows.values())
    # Cards are laid out left to right, top to bottom, in hand order.
    assert list(positions) == sorted(positions, key=lambda p: (p[1], p[0]))


#: The width of the column Discord gives a picture on a phone, in CSS pixels (issue 20).
PHONE = 360


@pytest.mark.parametrize("count", [7, 8, 13, 25, 60, 108, 216])
def test_long_hands_wrap_into_rows_and_keep_their_size_on_a_phone(count: int) -> None:
    """Issue 20: a long hand takes more rows, never narrower or overlapping cards, so on a
    360-px phone column every card is as large as in a 7-card hand: 44 px wide or more."""
    width, _, positions = hand_layout(count)
    assert width == hand_layout(7)[0]
    assert theme.HAND_CARD_W * PHONE / width >= 44
    rows: dict[int, list[int]] = {}
    for x, y in positions:
        rows.setdefault(y, []).append(x)
    for xs in rows.values():  # side by side, never overlapping
        assert all(b - a >= theme.HAND_CARD_W + theme.HAND_GAP for a, b in itertools.pairwise(xs))


def test_the_next_row_never_hides_the_value_of_the_card_above_it() -> None:
    """Rows overlap only below the value: the next row's cards start under it."""
    _, _, positions = hand_layout(25)
    tops = sorted({y for _, y in positions})
    for upper, lower in itertools.pairwise(tops):
        assert lower - upper >= CARD_H * theme.VALUE_BOTTOM


def test_value_bottom_holds_for_every_face() -> None:
    """:data:`theme.VALUE_BOTTOM` is measured: no face's value or icon, with its outline,
    reaches lower down the card (the geometry of ``renders.card._draw_face``)."""
    faces = {*Rules(modern_deck=True).deck().sides[0], *flip_deck().sides[0]}
    faces |= set(flip_deck().sides[1])
    ss = theme.SUPERSAMPLE
    w, h = theme.HAND_CARD_W * ss, CARD_H * ss
    u = w / 100
    lowest = 0.0
    for face in faces:
        mask = card._icon_mask(face, (w, h), w / 2, h / 2, 30 * u, corner=False)
        if mask is None:
            continue  # the Wild: its oval is its symbol
        bbox = mask.getbbox()
        assert bbox is not None
        lowest = max(lowest, (bbox[3] + 2.6 * u) / h)
    assert 0.7 < lowest <= theme.VALUE_BOTTOM


def test_a_sixty_card_hand_stays_within_discord_limits() -> None:
    image_bytes = render_hand(hand_of(60).view_for(0))
    image = open_png(image_bytes)
    assert len(image_bytes) <= 8 * 1024 * 1024  # Discord's smallest upload limit
    width, height = image.size
    assert width == hand_layout(7)[0]
    assert height <= 4 * width  # a phone scrolls it; it is not a sliver


def test_same_view_gives_the_same_bytes() -> None:
    view = hand_of(25).view_for(0)
    first = render_hand(view)
    render_card.cache_clear()
    assert render_hand(view) == first


@pytest.mark.parametrize("side", [0, 1], ids=["classic", "R-FLIP-1-dark"])
def test_a_row_laid_out_from_tiles_is_the_blended_picture_to_the_byte(side: int) -> None:
    """One row of cards is pasted from cached tiles (each card already on the background and
    the palette); it must give exactly the picture blended card by card."""
    from renders.hand import draw_blended, draw_hand
    from renders.scenes import HandScene

    faces = list(dict.fromkeys(flip_deck().sides[side] if side else Rules().deck().sides[0]))
    for count in range(theme.HAND_ROW_MAX + 1):
        for start in (0, 11, 37):
            chosen = tuple(faces[(start + i * 5) % len(faces)] for i in range(count))
            scene = HandScene(chosen, side, flip=side == 1)
            assert draw_hand(scene) == draw_blended(scene), (count, start)


def test_every_face_of_the_modern_deck_renders_in_a_hand() -> None:
    deck = Rules(modern_deck=True).deck()
    faces = list(dict.fromkeys(f.notation for f in deck.sides[0]))
    assert "WH" in faces
    assert "W4" in faces
    assert "BD2" in faces
    faces.remove("R5")
    state = stacked([faces, ["R5"]], start="G5", rules=Rules(modern_deck=True))
    view = state.view_for(0)
    assert {f.notation for _, f in view.hand} == set(faces)
    image = open_png(render_hand(view))
    assert image.size == hand_layout(len(faces))[:2]


def test_default_playable_cards_are_those_a_legal_play_names() -> None:
    state = stacked([["R1", "R9", "G5", "B2", "W4"], ["Y1"]], start="R5")
    view = state.view_for(0)
    names = {card: face.notation for card, face in view.hand}
    assert sorted(names[c] for c in playable_cards(view)) == ["G5", "R1", "R9", "W4"]
    # Not your turn: nothing to play, everything dimmed.
    assert playable_cards(state.view_for(1)) == frozenset()


def test_the_others_moves_never_change_the_picture() -> None:
    """Issue 26: a hand's picture shows its cards only. Seat 1's turn coming (its playable
    cards changing from none to some) leaves its picture and key as they were."""
    state = stacked([["R1", "R2"], ["G3", "R9", "B4"], ["Y5"]], start="R5")
    waiting = state.view_for(1)
    state = state.apply(0, "R1").state  # now seat 1 may play R9
    playing = state.view_for(1)
    assert playable_cards(waiting) == frozenset()
    assert playable_cards(playing)
    assert render_hand(playing) == render_hand(waiting)
    assert hand_key(playing) == hand_key(waiting)
    # Seat 0's own cards changed: its picture did too.
    assert render_hand(state.view_for(0)) != render_hand(
        stacked([["R1", "R2"], ["G3"]]).view_for(0)
    )


def test_only_the_drawn_card_is_playable_and_the_picture_shows_just_the_cards() -> None:
    # Seat 1 draws Y1, which matches the R1 on top; it also holds another Y1.
    state = stacked([["R1", "R2"], ["G3", "Y1"]], start="R5", draw=["Y1"])
    state = state.apply(0, "R1").state
    before = state.view_for(1)
    state = state.apply(1, "draw").state
    view = state.view_for(1)
    assert view.drawn is not None
    assert playable_cards(view) == {view.drawn}
    # The text says what was drawn; the picture is the hand, in the hand's order.
    drawn = render_hand(view)
    assert drawn == render_hand(dataclasses.replace(view, drawn=None))
    assert drawn != render_hand(before)
    assert open_png(drawn).size == hand_layout(len(view.hand))[:2]


def test_dimmed_and_highlighted_cards_differ() -> None:
    face = CardFace.parse("G7")
    dimmed = render_card(face, theme.HAND_CARD_W, Variant.DIMMED)
    lit = render_card(face, theme.HAND_CARD_W, Variant.HIGHLIGHTED)
    plain = render_card(face, theme.HAND_CARD_W, Variant.NORMAL)
    assert dimmed.size == lit.size == plain.size == (theme.HAND_CARD_W, CARD_H)
    assert len({dimmed.tobytes(), lit.tobytes(), plain.tobytes()}) == 3
    # Dimmed is darker on the whole, highlighted keeps the card's own colours inside.
    assert ImageStat.Stat(dimmed.convert("L")).mean < ImageStat.Stat(plain.convert("L")).mean
    w, h = plain.size
    inner = (w // 4, h // 4, 3 * w // 4, 3 * h // 4)
    assert lit.crop(inner).tobytes() == plain.crop(inner).tobytes()


def test_an_empty_hand_still_renders() -> None:
    state = stacked([["R1"], ["B1", "B2"], ["G1"]]).apply(0, "R1").state
    view = state.view_for(0)
    assert view.hand == ()
    assert open_png(render_hand(view)).size == hand_layout(0)[:2]


def test_renders_from_many_threads_match_the_serial_ones() -> None:
    from concurrent.futures import ThreadPoolExecutor

    views = [hand_of(n, seed=n).view_for(0) for n in (3, 9, 14, 30)]
    render_card.cache_clear()
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(render_hand, views * 3))
    assert threaded == [render_hand(v) for v in views] * 3


def _near(colour: tuple[int, int, int], drawn: set[tuple[int, int, int]]) -> bool:
    """``colour`` is among ``drawn``, give or take 3 per channel (a value's outline is under
    2 px wide at this size, so its pixels are all a little blended)."""
    return any(all(abs(a - b) <= 3 for a, b in zip(colour, c, strict=True)) for c in drawn)


@pytest.mark.parametrize("side", [0, 1], ids=["classic", "R-FLIP-1-dark"])
def test_cards_that_cannot_be_played_stay_legible(side: int) -> None:
    """Issue 20: a dimmed card keeps WCAG contrast 4.5 between its value's edge and the oval,
    on the dark side 3 between the value's fill and the oval too (large text), and 3 between
    its border and the hand's background (it was 1.2 on the dark side: black on black).
    The colours measured are the ones drawn."""
    faces = flip_deck().sides[1] if side == 1 else Rules().deck().sides[0]
    bg = theme.hand_bg(side)
    for face in dict.fromkeys(faces):
        if face.colour is None:
            continue
        if side == 1:
            fill, edge, oval, border = (
                theme.dark_glyph(face.colour),
                theme.WHITE,
                theme.INK,
                theme.INK,
            )
        else:
            fill, edge, oval, border = theme.fill(face.colour), theme.INK, theme.WHITE, theme.WHITE
        dim = [theme.dim(c, side) for c in (fill, edge, oval, border)]
        assert theme.contrast(dim[1], dim[2]) >= 4.5, face
        if side == 1:
            assert theme.contrast(dim[0], dim[2]) >= 3, face
        assert theme.contrast(dim[3], bg) >= 3, face
        image = render_card(face, theme.HAND_CARD_W, Variant.DIMMED, side=side, index=False)
        drawn = {c for _, c in image.convert("RGB").getcolors(1 << 16) or []}
        assert all(_near(c, drawn) for c in dim), face


def test_a_dark_hand_with_nothing_to_play_is_not_black_on_black() -> None:
    """R-FLIP: the dark side's hand has a lit background, and its dimmed cards stay apart."""
    dark_bg = theme.hand_bg(1)
    assert theme.contrast(dark_bg, theme.hand_bg(0)) >= 2
    assert theme.contrast(theme.dim(theme.INK, 1), dark_bg) >= 3
