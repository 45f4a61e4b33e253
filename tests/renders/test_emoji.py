"""Card emojis (issue 20): one per face the bot can show, valid names, Discord's size limits,
the same bytes on every run, and a glyph that reads at 22 pixels on both UNO Flip sides;
named by the fingerprint of what they are drawn from, so listing them draws none (issue 26)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine import CardFace
from engine.cards import DARK_COLOURS, Kind, classic_deck, flip_deck
from renders import emoji, theme
from renders.card import BLANK, render_card
from renders.emoji import (
    EMOJI_MAX_BYTES,
    EMOJI_SIZE,
    NAME_PATTERN,
    EmojiArt,
    emoji_name,
    emoji_set,
    glyph_colours,
    render_card_emoji,
)

ROOT = Path(__file__).resolve().parents[2]
#: What Discord shows an emoji at in running text.
INLINE_PX = 22


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def by_name() -> dict[str, EmojiArt]:
    return {art.name: art for art in emoji_set()}


@pytest.mark.parametrize(
    ("deck", "sides"),
    [
        pytest.param(classic_deck(), (0,), id="R-DECK-1"),
        pytest.param(classic_deck(two_decks=True), (0,), id="R-DECK-3"),
        pytest.param(classic_deck(modern_deck=True), (0,), id="R-DECK-4"),
        pytest.param(flip_deck(), (0, 1), id="R-FLIP-1"),
    ],
)
def test_every_face_of_every_deck_has_an_emoji(deck: object, sides: tuple[int, ...]) -> None:
    names = by_name()
    for side in sides:
        for face in deck.sides[side]:  # type: ignore[attr-defined]
            art = names[emoji_name(face, side)]
            assert art.face == face.notation
            assert art.png == render_card_emoji(face, side)


def test_r_deck_5_the_blank_card_has_its_emoji_and_looks_like_no_other() -> None:
    art = by_name()["uno_wx"]
    assert art.face == BLANK
    assert art.side == 0
    others = {a.png for a in emoji_set() if a.name != "uno_wx"}
    assert art.png not in others


def test_r_deck_5_a_blank_card_in_a_hand_is_drawn_blank() -> None:
    """Runs once the engine knows blank cards (the alternative rules); it parses ``WX``."""
    if not hasattr(Kind, "BLANK"):
        pytest.skip("this engine has no blank cards yet")
    blank, wild = CardFace.parse(BLANK), CardFace.parse("W")
    assert render_card(blank, 84).tobytes() != render_card(wild, 84).tobytes()
    assert emoji_name(blank) == "uno_wx"


def test_the_flip_wild_has_a_look_per_side_and_the_other_wilds_one() -> None:
    names = by_name()
    assert names["uno_w"].png != names["uno_w_dark"].png
    assert emoji_name("W", 1) == "uno_w_dark"
    assert emoji_name("W2", 1) == emoji_name("W2", 0) == "uno_w2"  # light by nature
    assert emoji_name("WC", 0) == emoji_name("WC", 1) == "uno_wc"  # dark by nature
    assert emoji_name("P5", 0) == emoji_name("P5", 1) == "uno_p5"
    assert render_card_emoji("P5", 0) == render_card_emoji("P5", 1)


def test_names_are_valid_unique_and_stable() -> None:
    arts = emoji_set()
    names = [art.name for art in arts]
    assert len(set(names)) == len(names)
    for art in arts:
        assert NAME_PATTERN.fullmatch(art.name), art.name
        assert NAME_PATTERN.fullmatch(art.versioned_name), art.versioned_name
        base, _, tag = art.versioned_name.rpartition("_")
        assert base == art.name
        assert art.fingerprint.startswith(tag)
        assert art.name == emoji_name(art.face, art.side)
    # The examples the bot's code and docs use.
    assert {"uno_r7", "uno_w4", "uno_wh", "uno_bd2", "uno_rd1", "uno_pse", "uno_back"} <= set(names)
    # Classic, modern, blank; Flip light adds D1, F, W2 per colour; dark its own; the back.
    assert len(arts) == 4 * 13 + 4 + 4 * 2 + 1 + 4 * 13 + 2 + 1


def test_every_picture_is_a_square_png_within_discords_limits() -> None:
    for art in emoji_set():
        assert len(art.png) <= EMOJI_MAX_BYTES
        image = open_png(art.png)
        assert image.format == "PNG"
        assert image.size == (EMOJI_SIZE, EMOJI_SIZE)
        assert image.mode == "RGBA"
        assert image.getpixel((0, 0))[3] == 0  # type: ignore[index]  # rounded corners
        c = EMOJI_SIZE // 2
        assert image.getpixel((c, c))[3] == 255  # type: ignore[index]
    assert len({art.png for art in emoji_set()}) == len(emoji_set())  # no two alike


def test_listing_the_emojis_draws_none() -> None:
    """Issue 26: a start with its emojis uploaded compares names only: nothing is drawn."""
    emoji._emoji_png.cache_clear()
    emoji.emoji_set.cache_clear()
    emoji.art_fingerprint.cache_clear()
    arts = emoji_set()
    assert len(arts) > 100
    assert emoji._emoji_png.cache_info().misses == 0
    assert {art.fingerprint for art in arts} == {emoji.art_fingerprint()}
    assert len(emoji.art_fingerprint()) == 32
    assert arts[0].png == render_card_emoji(arts[0].face, arts[0].side)  # drawn when read
    assert emoji._emoji_png.cache_info().misses == 1


def test_the_fingerprint_follows_every_input_of_the_art(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The drawing code with its sizes and colours (a changed constant in any module that
    draws), and the Pillow and FreeType that draw: any change gives new names."""
    before = emoji.art_fingerprint()
    for module in (emoji, theme):
        changed = tmp_path / f"{module.__name__}.py"
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        changed.write_text(source.replace("\n", "\n# one more line\n", 1), encoding="utf-8")
        with monkeypatch.context() as patch:
            patch.setattr(module, "__file__", str(changed))
            emoji.art_fingerprint.cache_clear()
            assert emoji.art_fingerprint() != before, module.__name__
    for library in ("Pillow", "FreeType"):
        with monkeypatch.context() as patch:
            if library == "FreeType":
                patch.setattr(emoji.features, "version", lambda name: "0.0")
            else:
                patch.setattr(emoji.PIL, "__version__", "0.0")
            emoji.art_fingerprint.cache_clear()
            assert emoji.art_fingerprint() != before, library
    emoji.art_fingerprint.cache_clear()
    assert emoji.art_fingerprint() == before


def test_the_same_names_and_bytes_in_another_process() -> None:
    here = {art.name: art.versioned_name for art in emoji_set()}
    emoji._emoji_png.cache_clear()
    assert [render_card_emoji(a.face, a.side) for a in emoji_set()] == [a.png for a in emoji_set()]
    code = (
        "from renders.emoji import emoji_set\n"
        "for a in emoji_set(): print(a.name, a.versioned_name)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True, text=True
    ).stdout
    there = dict(line.split() for line in out.splitlines())
    assert there == here


def test_faces_notations_and_sides_are_checked() -> None:
    assert render_card_emoji(CardFace.parse("R7")) == render_card_emoji("r7")
    with pytest.raises(ValueError, match="not a card"):
        render_card_emoji("Z9")
    with pytest.raises(ValueError, match="side"):
        render_card_emoji("R7", 2)


def _rgb(data: bytes, size: int) -> Image.Image:
    """The emoji on Discord's dark background, reduced to ``size`` pixels."""
    image = open_png(data).convert("RGBA")
    ground = Image.new("RGBA", image.size, (49, 51, 56, 255))
    ground.alpha_composite(image)
    return ground.convert("RGB").resize((size, size), Image.Resampling.LANCZOS)


def _ring_luminance(image: Image.Image) -> float:
    """Mean luminance of the tile's border, one pixel inside its edge."""
    w = image.width
    ring = [(x, 1) for x in range(3, w - 3)] + [(1, y) for y in range(3, w - 3)]
    values = [theme.luminance(image.getpixel(p)) for p in ring]  # type: ignore[arg-type]
    return sum(values) / len(values)


def test_r_flip_1_the_sides_differ_at_22_pixels() -> None:
    """A light face has a white border, a dark face a black one: at 22 px the dimmest light
    border still has 3:1 WCAG contrast with the brightest dark one."""
    rings: dict[bool, list[float]] = {False: [], True: []}
    for art in emoji_set():
        if art.face is None:
            continue
        face = None if art.face == BLANK else CardFace.parse(art.face)
        if face is not None and face.colour is not None:
            dark = face.colour in DARK_COLOURS
        else:  # wilds: the dark Wild and Wild Draw Colour
            dark = art.name.endswith("_dark") or art.face == "WC"
        rings[dark].append(_ring_luminance(_rgb(art.png, INLINE_PX)))
    assert len(rings[True]) == 4 * 13 + 2
    assert (min(rings[False]) + 0.05) / (max(rings[True]) + 0.05) >= 3


def test_glyphs_contrast_with_their_oval() -> None:
    """WCAG contrast of each coloured face's glyph with the oval behind it: the glyph's edge
    at least 4.5, and on the dark side (where purple on black was 2.3) the glyph's fill
    itself at least 4.5 too; the colours measured are the ones drawn."""
    light = [*classic_deck().sides[0], *flip_deck().sides[0]]
    for dark, faces in ((False, light), (True, flip_deck().sides[1])):
        for face in dict.fromkeys(faces):
            if face.colour is None:
                continue
            fill, outline, oval = glyph_colours(face, dark)
            assert theme.contrast(outline, oval) >= 4.5, face
            if dark:
                assert theme.contrast(fill, oval) >= 4.5, face
            drawn = open_png(render_card_emoji(face)).convert("RGB").getcolors(1 << 16) or []
            assert {fill, outline, oval} <= {c for _, c in drawn}, face
