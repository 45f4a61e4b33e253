"""Card art: every face, the back and the colour swatches render, and all of them differ."""

from __future__ import annotations

import pytest

from engine import CardFace, Colour, Rules
from renders import theme
from renders.card import Variant, render_back, render_card, symbol_image


def all_faces() -> list[CardFace]:
    return list(dict.fromkeys(Rules(modern_deck=True).deck().sides[0]))


def test_the_modern_deck_has_every_kind() -> None:
    kinds = {face.kind for face in all_faces()}
    assert len(kinds) == 7  # numbers, S, R, D2, W, W4, WH


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("width", [18, 84, 120])
def test_every_face_renders_at_every_size(variant: Variant, width: int) -> None:
    pictures = set()
    for face in all_faces():
        image = render_card(face, width, variant)
        assert image.mode == "RGBA"
        assert image.size == (width, theme.card_height(width))
        pictures.add(image.tobytes())
    assert len(pictures) == len(all_faces())  # no two faces look the same


def test_corners_are_transparent_and_the_middle_opaque() -> None:
    image = render_card(CardFace.parse("WH"), 84)
    w, h = image.size
    assert image.getpixel((0, 0))[3] == 0  # type: ignore[index]
    assert image.getpixel((w // 2, h // 2))[3] == 255  # type: ignore[index]


def test_the_back_differs_from_every_face() -> None:
    back = render_back(84).tobytes()
    assert all(render_card(face, 84).tobytes() != back for face in all_faces())


def test_swatches_differ_and_wild_has_its_own() -> None:
    swatches = {symbol_image(colour, 40).tobytes() for colour in [*Colour, None]}
    assert len(swatches) == 5


def test_colour_symbols_are_distinct_for_colour_blind_players() -> None:
    assert len(set(theme.SYMBOL.values())) == len(theme.SYMBOL) == 4
    assert len(set(theme.FILL.values())) == 4


def test_tiny_cards_are_refused() -> None:
    with pytest.raises(ValueError, match="8 pixels"):
        render_card(CardFace.parse("R1"), 4)
