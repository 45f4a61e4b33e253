"""UNO Flip renders (issue #6): both sides drawn distinctly, the side in play shown on the table,
every seat's other side fanned out, and the classic renders left byte for byte as they were."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import random

import pytest
from PIL import Image

from engine import CardFace, Colour, GameState, Rules
from engine.cards import ALL_COLOURS, DARK_COLOURS, flip_deck
from engine.game import deal
from renders import render_hand, render_table, theme
from renders.assets import palette_colours
from renders.card import Variant, is_dark, render_back, render_card, symbol_image, symbol_points

from .states import hand_of, seated

SIZE = (theme.TABLE_W, theme.TABLE_H)
FLIP = Rules(flip=True)
NAMES = ["Alice", "Bob 🐸", "Carol", "Dave the Magnificent Card Shark"]


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    assert image.mode == "P"
    return image


def flip_state(counts: list[int], *, seed: int = 3, dark: bool = False) -> GameState:
    """An UNO Flip deal: seat ``i`` holds ``counts[i]`` seeded light faces, seat 0 plays first
    and holds a red Flip; ``dark`` plays it, so the dark side is in play (seat 0 then holds
    ``counts[0] - 1`` cards)."""
    pool = [face.notation for face in flip_deck().sides[0]]
    pool.remove("R5")
    pool.remove("RF")
    random.Random(seed).shuffle(pool)
    hands, at = [], 0
    for seat, n in enumerate(counts):
        take = n - 1 if seat == 0 else n
        hands.append((["RF"] if seat == 0 else []) + pool[at : at + take])
        at += take
    state = deal(FLIP, hands, "R5", dealer=len(counts) - 1).state
    return state.apply(0, "RF").state if dark else state


def light_faces() -> list[CardFace]:
    return list(dict.fromkeys(flip_deck().sides[0]))


def dark_faces() -> list[CardFace]:
    return list(dict.fromkeys(flip_deck().sides[1]))


# -- cards ------------------------------------------------------------------------------------


def test_the_flip_deck_has_every_flip_kind() -> None:
    assert len({f.kind for f in dark_faces()}) == 7  # numbers, D5, R, SE, F, W, WC
    assert len({f.kind for f in light_faces()}) == 7  # numbers, D1, R, S, F, W, W2


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("width", [18, 84, 120])
def test_every_face_of_both_sides_renders_and_all_differ(variant: Variant, width: int) -> None:
    pictures = set()
    faces = [(f, 0) for f in light_faces()] + [(f, 1) for f in dark_faces()]
    for face, side in faces:
        image = render_card(face, width, variant, side=side)
        assert image.mode == "RGBA"
        assert image.size == (width, theme.card_height(width))
        pictures.add(image.tobytes())
    assert len(pictures) == len(faces)  # the shared Wild too: light and dark differ


def test_dark_and_light_wild_differ_and_the_side_only_matters_for_shared_wilds() -> None:
    wild = CardFace.parse("W")
    assert render_card(wild, 84, side=0).tobytes() != render_card(wild, 84, side=1).tobytes()
    assert render_card(wild, 84, side=0).tobytes() == render_card(wild, 84).tobytes()
    assert is_dark(wild, 1)
    assert not is_dark(wild, 0)
    for text in ("W2", "WC", "R7", "P7", "VSE", "GF"):
        face = CardFace.parse(text)
        light, dark = render_card(face, 84, side=0), render_card(face, 84, side=1)
        assert light.tobytes() == dark.tobytes(), text
    assert is_dark(CardFace.parse("WC"), 0)
    assert not is_dark(CardFace.parse("W2"), 1)
    assert not is_dark(CardFace.parse("RD1"), 1)


def test_dark_cards_have_a_dark_border_and_light_cards_a_white_one() -> None:
    def border(face: str) -> tuple[int, ...]:
        pixel = render_card(CardFace.parse(face), 120).getpixel((3, 60))
        assert isinstance(pixel, tuple)
        return pixel[:3]

    for light in ("R1", "BF", "YD1", "W2"):
        assert min(border(light)) > 200, light
    for dark in ("P1", "TF", "OD5", "VSE", "WC"):
        assert max(border(dark)) < 60, dark


def test_the_back_differs_from_every_flip_face() -> None:
    back = render_back(84).tobytes()
    faces = [(f, 0) for f in light_faces()] + [(f, 1) for f in dark_faces()]
    assert all(render_card(f, 84, side=s).tobytes() != back for f, s in faces)


def test_every_colour_has_its_own_fill_and_polygon_symbol() -> None:
    symbols = [theme.symbol(c) for c in ALL_COLOURS]
    fills = [theme.fill(c) for c in ALL_COLOURS]
    assert len(set(symbols)) == len(set(fills)) == 8
    assert set(theme.DARK_SYMBOL) == set(theme.DARK_FILL) == set(DARK_COLOURS)
    shapes = set()
    for symbol in symbols:
        points = symbol_points(symbol, 50, 50, 20)
        assert len(points) >= 3
        assert all(20 <= x <= 80 and 20 <= y <= 80 for x, y in points), symbol
        shapes.add(tuple((round(x), round(y)) for x, y in points))
    assert len(shapes) == 8


def test_swatches_of_all_eight_colours_and_both_wilds_differ() -> None:
    swatches = {symbol_image(c, 40).tobytes() for c in ALL_COLOURS}
    swatches |= {symbol_image(None, 40, side).tobytes() for side in (0, 1)}
    assert len(swatches) == 10


def test_the_flip_palette_extends_the_classic_one() -> None:
    classic, flip = palette_colours(), palette_colours(flip=True)
    assert len(flip) <= 256
    assert flip[: len(classic)] == classic  # classic colours keep their indices
    assert set(theme.flip_key_colours()) <= set(flip)
    assert all(theme.fill(c) in flip for c in ALL_COLOURS)


# -- the table --------------------------------------------------------------------------------


@pytest.mark.parametrize("dark", [False, True])
@pytest.mark.parametrize("seats", [2, 4, 10])
def test_flip_tables_are_valid_deterministic_and_small(dark: bool, seats: int) -> None:
    view = flip_state([2 + (5 * i) % 11 for i in range(seats)], dark=dark).public_view()
    assert view.side == (1 if dark else 0)
    assert len(view.backs) == seats
    names = [f"Player {i + 1}" for i in range(seats)]
    data = render_table(view, names)
    assert open_png(data).size == SIZE
    assert len(data) <= 30_000
    assert render_table(view, names) == data


def test_the_side_in_play_changes_the_whole_table() -> None:
    light = flip_state([7, 5, 3, 9]).public_view()
    dark = dataclasses.replace(light, side=1)
    one, two = render_table(light, NAMES), render_table(dark, NAMES)
    assert one != two
    # Not just the cards: the felt in the corners (the sun or the moon is there too).
    a, b = open_png(one).convert("RGB"), open_png(two).convert("RGB")
    assert a.getpixel((870, 590)) != b.getpixel((870, 590))
    assert a.crop((0, 0, 90, 90)).tobytes() != b.crop((0, 0, 90, 90)).tobytes()


def test_a_flip_table_shows_every_hands_other_side() -> None:
    view = flip_state([7, 5, 3, 9], dark=True).public_view()
    assert all(len(b) == n for b, n in zip(view.backs, view.card_counts, strict=True))
    shown = render_table(view, NAMES)
    plain = dataclasses.replace(view, backs=())
    assert render_table(plain, NAMES) != shown  # plain card backs instead
    # Another face on one seat's other side shows.
    other = list(view.backs)
    first = other[2][0]
    other[2] = (CardFace.parse("B9" if first.colour is not Colour.BLUE else "R9"), *other[2][1:])
    assert other[2] != view.backs[2]
    assert render_table(dataclasses.replace(view, backs=tuple(other)), NAMES) != shown


def test_the_draw_pile_shows_its_top_cards_other_side() -> None:
    view = flip_state([4, 4]).public_view()
    assert view.draw_back is not None
    shown = render_table(view, NAMES)
    assert render_table(dataclasses.replace(view, draw_back=None), NAMES) != shown
    swapped = CardFace.parse("TSE" if view.draw_back.notation != "TSE" else "PSE")
    assert render_table(dataclasses.replace(view, draw_back=swapped), NAMES) != shown


def test_a_dark_wild_awaiting_a_colour_and_a_pending_draw() -> None:
    view = flip_state([5, 5, 5], dark=True).public_view()
    wild = dataclasses.replace(view, top=CardFace.parse("W"), colour=None)
    pending = dataclasses.replace(view, top=CardFace.parse("OD5"), pending=5)
    pictures = {render_table(v, NAMES) for v in (view, wild, pending)}
    assert len(pictures) == 3
    for data in pictures:
        assert open_png(data).size == SIZE


# -- hands ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dark", [False, True])
@pytest.mark.parametrize("count", [7, 25])
def test_flip_hands_are_valid_deterministic_and_small(dark: bool, count: int) -> None:
    state = flip_state([count + (1 if dark else 0), 5], dark=dark)
    view = state.view_for(0)
    assert len(view.hand) == count
    assert all(is_dark(face, view.table.side) == dark for _, face in view.hand)
    data = render_hand(view)
    open_png(data)
    assert len(data) <= 30_000
    assert render_hand(view) == data


def test_a_hand_shows_the_side_in_play() -> None:
    state = flip_state([8, 5], dark=True)
    dark = state.view_for(0)
    light = flip_state([8, 5]).view_for(0)
    assert render_hand(dark) != render_hand(light)
    # The shared Wild follows the side in play.
    with_wild = dataclasses.replace(dark, hand=((999, CardFace.parse("W")),))
    as_light = dataclasses.replace(with_wild, table=dataclasses.replace(dark.table, side=0))
    assert render_hand(with_wild) != render_hand(as_light)


# -- classic renders are untouched --------------------------------------------------------------

#: sha256 prefixes of classic renders (Pillow as pinned). The card art is as before UNO Flip
#: came to renders/; the hand and the table changed deliberately since: the emoji colours
#: of the palette and the font chain for text (issue 13), PNG level 3 and the cards pasted
#: with their shadows in one piece (issue 11); the phone hand (issue 20: rows of whole cards
#: without corner indices, dimmed less, so the palette's dimmed colours moved too) and seat
#: names wrapped in taller panels (issue 20); the hand showing its cards only, none raised,
#: dimmed or marked (issue 26). Bump renders.ART_VERSION with these.
CLASSIC = {
    "hand-7": "68b7a770176c5ca3",
    "table-4": "2fe2ecec167e0d9b",
    "card-R7": "8663a86846d48745",
    "card-W": "d60d83ccbb9d445e",
}


def classic_renders() -> dict[str, bytes]:
    return {
        "hand-7": render_hand(hand_of(7).view_for(0)),
        "table-4": render_table(seated([1, 4, 7, 1]).public_view(), [f"P{i}" for i in range(4)]),
        "card-R7": render_card(CardFace.parse("R7"), 84, Variant.NORMAL).tobytes(),
        "card-W": render_card(CardFace.parse("W"), 120, Variant.NORMAL).tobytes(),
    }


def test_classic_renders_keep_their_bytes() -> None:
    got = {k: hashlib.sha256(v).hexdigest()[:16] for k, v in classic_renders().items()}
    assert got == CLASSIC


def test_classic_renders_ignore_the_flip_additions() -> None:
    view = seated([3, 4]).public_view()
    assert not view.rules.flip
    assert view.backs == ()
    assert view.draw_back is None
    for colour in Colour:
        assert symbol_image(colour, 40).tobytes() == symbol_image(colour, 40, 0).tobytes()
