"""render_hand: valid PNGs of the planned size for any hand, playable vs dimmed, the drawn card."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image, ImageStat

from engine import CardFace, Rules
from renders import hand_layout, playable_cards, render_hand, theme
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
        assert y - theme.HAND_RAISE - theme.HAND_MARK >= 0  # room to raise and mark
        assert y + CARD_H <= height
        rows.setdefault(y, []).append(x)
    assert all(len(xs) <= theme.HAND_ROW_MAX for xs in rows.values())
    # Cards are laid out left to right, top to bottom, in hand order.
    assert list(positions) == sorted(positions, key=lambda p: (p[1], p[0]))


def test_big_hands_stay_reasonably_sized() -> None:
    width7, _, _ = hand_layout(7)
    width60, height60, _ = hand_layout(60)
    assert width60 == width7 <= 700  # rows overlap instead of growing wider
    assert height60 <= 520
    assert hand_layout(108)[1] <= 900


def test_same_view_gives_the_same_bytes() -> None:
    view = hand_of(25).view_for(0)
    first = render_hand(view)
    render_card.cache_clear()
    assert render_hand(view) == first


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


def test_highlighting_changes_the_picture() -> None:
    view = hand_of(7).view_for(0)
    ids = [card for card, _ in view.hand]
    all_up = render_hand(view, playable=ids)
    none_up = render_hand(view, playable=())
    default = render_hand(view)
    assert len({all_up, none_up, default}) == 3
    assert render_hand(view, playable=set(ids)) == all_up  # any collection works


def test_only_the_drawn_card_is_playable_and_it_is_marked() -> None:
    # Seat 1 draws Y1, which matches the R1 on top; it also holds another Y1.
    state = stacked([["R1", "R2"], ["G3", "Y1"]], start="R5", draw=["Y1"])
    state = state.apply(0, "R1").state
    state = state.apply(1, "draw").state
    view = state.view_for(1)
    assert view.drawn is not None
    assert playable_cards(view) == {view.drawn}
    marked = render_hand(view)
    unmarked = render_hand(dataclasses.replace(view, drawn=None), playable={view.drawn})
    assert marked != unmarked
    assert open_png(marked).size == hand_layout(len(view.hand))[:2]


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
