"""Names in any script (issue 13, item 6): no character of the hardest names becomes a box.

The proof does not trust the chain's own bookkeeping. For every character a cluster needs,
it draws that character alone with the font the chain chose for it and compares the pixels
with that font's ``.notdef`` glyph (the box FreeType draws for a character the font lacks):
a real glyph differs from the box, and is not blank unless the character is a space. The
same check flags characters the fonts do not have, so it can fail (see the controls).
"""

from __future__ import annotations

import dataclasses
import io
import unicodedata
from functools import cache

import pytest
from PIL import Image, ImageDraw

from renders import render_table, text
from renders.coverage import read_coverage

from .states import stacked

#: The hardest names we know: every script the fonts promise, emoji sequences, marks, bidi.
HARDEST_NAMES = [
    "🤖 Ada",  # a computer player
    "👩‍👩‍👧‍👦 family",  # a ZWJ sequence of four people
    "👍🏽👍🏿 🧑🏿‍🚀 👨🏻‍❤️‍💋‍👨🏼",  # skin tones, in and across ZWJ sequences
    "🇮🇹🇯🇵 🏳️‍🌈 🏴󠁧󠁢󠁳󠁣󠁴󠁿",  # flags: regional pairs, ZWJ, tag sequence
    "1️⃣ #️⃣ ❤️ ★♠ ✓ ⚡☕",  # keycaps, selectors, text and emoji symbols
    "Ζωή Łukasz 李小龍 محمد",  # Greek, Latin, Chinese, Arabic on one line
    "مُحَمَّد بن عَبْد ٱللّٰه 12",  # Arabic with harakat, shadda, digits in RTL
    "שָׁלוֹם עֲלֵיכֶם",  # Hebrew with niqqud
    "क्षत्रिय हिन्दी नमस्ते",  # Devanagari conjuncts, vowel signs, virama
    "日本語 ひらがな カタカナ 한국어 조선말",  # Japanese, Korean
    "ภาษาไทย ไม้เอก",  # Thai with tone marks
    "Привет, мир! Ἀθηνᾶ Nguyễn Thị Ánh",  # Cyrillic, polytonic Greek, Vietnamese
    "e\u0301\u0301\u0301 ñ̃ z̧",  # stacked combining marks
    "𝓐𝓭𝓪 𝕯𝖆𝖗𝖐 ≈√∞ Ｆｕｌｌ",  # mathematical letters, operators, full-width
    "محمد 🎲 Bob שלום 42",  # bidi across fonts: RTL, emoji, LTR, RTL, numbers
    "Dave the Magnificent Card Shark of the Northern Seas " * 2,  # very long
    "🐸" * 40,  # very long, all emoji
]

#: A code point no font maps, drawn as the box by every font.
_NOWHERE = "\U0010ffff"


@cache
def glyph_pixels(face: int, ch: str) -> bytes:
    """``ch`` drawn alone with ``CHAIN[face]`` (basic layout, no shaping), as raw pixels."""
    font = text.face_font(face, 32, basic=True)
    colour = text.CHAIN[face].colour
    image = Image.new("RGBA" if colour else "L", (96, 96), 0)
    ImageDraw.Draw(image).text(
        (24, 24), ch, font=font, fill=None if colour else 255, embedded_color=colour
    )
    return image.tobytes()


def is_box(face: int, code: int) -> bool:
    """Whether ``chr(code)`` comes out of ``CHAIN[face]`` as its ``.notdef`` box or blank."""
    pixels = glyph_pixels(face, chr(code))
    if pixels == glyph_pixels(face, _NOWHERE):
        return True
    blank = not any(pixels)
    return blank and unicodedata.category(chr(code)) != "Zs"


@cache
def sequence_is_box(face: int, cluster: str) -> bool:
    """Whether the emoji sequence ``cluster``, shaped, comes out as the box or blank."""
    font = text.face_font(face, 32)
    image = Image.new("RGBA", (96, 96), 0)
    ImageDraw.Draw(image).text((24, 24), cluster, font=font, embedded_color=True)
    pixels = image.tobytes()
    return not any(pixels) or pixels == glyph_pixels(face, _NOWHERE)


def drawn_boxes(name: str, *, basic: bool = False) -> list[tuple[str, str]]:
    """Every (cluster, character) of ``name`` whose chosen font would draw a box.

    Emoji sequences shaped as one picture (with Raqm) are checked whole: some of their parts,
    such as a keycap's digit, have no picture of their own.
    """
    line = text.shape(text.clean_name(name), 24, basic=basic)
    shaped = text.raqm_available() and not basic
    found = []
    for run in line.runs:
        face = text.PRIMARY if run.face == text.MISSING else run.face
        for cluster in text.clusters(run.text):
            needed = [c for c in cluster if ord(c) not in text._JOINERS]
            if shaped and text.CHAIN[face].colour and len(needed) > 1:
                if sequence_is_box(face, cluster):
                    found.append((cluster, cluster))
                continue
            for ch in cluster:
                if ord(ch) in text._JOINERS:
                    continue  # drawn as nothing, by design (the shaper consumes them)
                if is_box(face, ord(ch)):
                    found.append((cluster, ch))
    return found


def strokes(mask: Image.Image) -> int:
    """How many separate shapes ``mask`` holds (8-connected pixels over half ink)."""
    width = mask.width
    raw = mask.tobytes()
    ink = {(i % width, i // width) for i, v in enumerate(raw) if v > 127}
    count = 0
    while ink:
        count += 1
        todo = [ink.pop()]
        while todo:
            x, y = todo.pop()
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if (x + dx, y + dy) in ink:
                        ink.remove((x + dx, y + dy))
                        todo.append((x + dx, y + dy))
    return count


def test_every_font_draws_a_visible_box_for_what_it_lacks() -> None:
    """The comparison means something: each font's box is there and not blank."""
    for face in range(len(text.CHAIN)):
        assert any(glyph_pixels(face, _NOWHERE)), text.CHAIN[face].file


@pytest.mark.parametrize("name", HARDEST_NAMES)
def test_no_character_of_the_hardest_names_falls_back_to_the_box(name: str) -> None:
    line = text.shape(text.clean_name(name), 24)
    assert line.missing == ()
    assert drawn_boxes(name) == []
    for run in line.runs:
        coverage = text.coverage(run.face)
        assert all(ord(c) in coverage for c in run.text if ord(c) not in text._JOINERS)


@pytest.mark.parametrize("name", HARDEST_NAMES)
def test_without_raqm_the_names_degrade_but_never_to_boxes(name: str) -> None:
    line = text.shape(text.clean_name(name), 24, basic=True)
    assert line.missing == ()
    assert drawn_boxes(name, basic=True) == []


@pytest.mark.parametrize(
    "name",
    [
        "\ue000 private use",
        "\u3400 CJK extension A",
        "\U00017000 Tangut",
        "2\u20e3 keycap without its selector",
    ],
)
def test_controls_characters_no_font_has_are_reported_and_caught(name: str) -> None:
    """The check can fail: what the fonts lack is listed as missing and seen as a box."""
    assert text.shape(name, 24).missing
    assert drawn_boxes(name)


def test_the_check_catches_a_wrong_font_choice() -> None:
    """Hangul, Arabic or an emoji drawn with the Latin font would be boxes, and are seen."""
    for ch in "한م李🤖":
        assert is_box(text.PRIMARY, ord(ch)), ch
        assert text.choose_face(ch) != text.PRIMARY


def test_the_character_maps_read_with_the_standard_library_are_right() -> None:
    """The coverage of every font agrees with what FreeType draws, on a sample."""
    sample = [*range(0x20, 0x250, 7), *range(0x370, 0x530, 5), *range(0x590, 0x700, 3)]
    sample += [*range(0x900, 0x980, 2), *range(0xE00, 0xE60, 2), *range(0x2190, 0x2BFF, 29)]
    sample += [*range(0x3040, 0x3100, 9), *range(0x4E00, 0xA000, 997), *range(0xAC00, 0xD7A4, 353)]
    sample += [*range(0x1D400, 0x1D800, 41), *range(0x1F300, 0x1FA00, 67)]
    for face in range(len(text.CHAIN)):
        coverage = text.coverage(face)
        for code in sample:
            if code in text._JOINERS or unicodedata.category(chr(code)) in ("Cc", "Cn", "Zs"):
                continue
            if text.CHAIN[face].colour and code < 0x2000:
                continue  # the emoji font's digits and '#' are blank keycap bases
            assert (code in coverage) != is_box(face, code), (text.CHAIN[face].file, hex(code))


def test_coverage_reads_format_4_and_12_maps() -> None:
    latin = read_coverage(text.font_bytes(text.PRIMARY))
    emoji = read_coverage(text.font_bytes(text.EMOJI))
    assert ord("A") in latin
    assert 0x1F916 not in latin
    assert 0x1F916 in emoji  # 🤖, above the BMP: format 12
    assert len(latin) == sum(hi - lo + 1 for lo, hi in latin.ranges())


# -- clusters, fonts, direction ----------------------------------------------------------------


def test_clusters_keep_sequences_whole() -> None:
    assert text.clusters("👩‍👩‍👧‍👦a") == ["👩‍👩‍👧‍👦", "a"]
    assert text.clusters("🇮🇹🇯🇵") == ["🇮🇹", "🇯🇵"]
    assert text.clusters("👍🏽!") == ["👍🏽", "!"]
    assert text.clusters("1️⃣2") == ["1️⃣", "2"]
    assert text.clusters("e\u0301\u0301x") == ["e\u0301\u0301", "x"]
    assert text.clusters("\u1100\u1161\u11a8가") == ["\u1100\u1161\u11a8", "가"]
    assert text.clusters("🏴\U000e0067\U000e0062\U000e007f") == ["🏴\U000e0067\U000e0062\U000e007f"]


def test_each_script_goes_to_its_font() -> None:
    files = {
        "A": "NotoSans-Regular.ttf",
        "Ж": "NotoSans-Regular.ttf",
        "م": "NotoSansArabic-Regular.ttf",
        "ש": "NotoSansHebrew-Regular.ttf",
        "क": "NotoSansDevanagari-Regular.ttf",
        "ก": "NotoSansThai-Regular.ttf",
        "한": "NotoSansCJKkr-Hangul.otf",
        "李": "DroidSansFallback-Han.ttf",
        "ひ": "DroidSansFallback-Han.ttf",
        "★": "NotoSansSymbols2-Subset.ttf",
        "√": "NotoSansMath-Subset.ttf",
        "𝓐": "NotoSansMath-Subset.ttf",
        "🤖": "TwemojiMozilla.ttf",
        "❤️": "TwemojiMozilla.ttf",  # VS16 asks for the emoji
        "⚡": "TwemojiMozilla.ttf",  # emoji by default
    }
    for cluster, file in files.items():
        assert text.CHAIN[text.choose_face(cluster)].file == file, cluster
    assert text.choose_face("❤\ufe0e") != text.EMOJI  # VS15 asks for text
    # A space after Arabic stays in the Arabic font; after an emoji it goes back to text.
    arabic = text.choose_face("م")
    assert text.choose_face(" ", arabic) == arabic
    assert text.choose_face(" ", text.EMOJI) == text.PRIMARY


def test_bidi_levels_follow_the_unicode_algorithm() -> None:
    assert text.bidi_levels(["L", "L"]) == (0, [0, 0])
    assert text.bidi_levels(["R", "WS", "R"]) == (1, [1, 1, 1])
    # abc אבג def: the Hebrew word inside is at level 1, the spaces take the outer direction.
    assert text.bidi_levels(["L", "WS", "R", "WS", "L"]) == (0, [0, 0, 1, 0, 0])
    # אבג 12 דהו: numbers in right-to-left text are at level 2.
    assert text.bidi_levels(["R", "WS", "EN", "WS", "R"]) == (1, [1, 1, 2, 1, 1])
    # Arabic letters make the digits after them Arabic numbers (W2), still level 2.
    assert text.bidi_levels(["AL", "WS", "EN"]) == (1, [1, 1, 2])
    # An English word and number in Hebrew: the space between them is left-to-right (N1).
    assert text.bidi_levels(["R", "WS", "L", "WS", "EN"]) == (1, [1, 1, 2, 2, 2])
    # Trailing spaces take the paragraph level (L1).
    assert text.bidi_levels(["L", "WS", "R", "WS"]) == (0, [0, 0, 1, 0])


def test_runs_are_reordered_for_display() -> None:
    assert text.visual_order([0, 0, 1, 1, 1, 0]) == [0, 1, 4, 3, 2, 5]
    assert text.visual_order([1, 1, 2, 2, 1]) == [4, 2, 3, 1, 0]
    runs = text.plan("محمد 🎲 علي")
    # Right to left: the last word is leftmost, the first rightmost, the emoji between.
    assert [r.text.strip() for r in runs if r.text.strip()] == ["علي", "🎲", "محمد"]
    assert all(r.rtl for r in runs)
    # A number after Hebrew belongs to it (W7 finds no Latin letter before it), so it shows
    # on the Hebrew word's left: "Bob 42 שלום", as every bidi-aware program shows it.
    mixed = text.plan("Bob שלום 42")
    assert [r.text for r in mixed] == ["Bob ", "42", "שלום "]
    assert [r.rtl for r in mixed] == [False, False, True]


def test_overrides_cannot_turn_a_name_around() -> None:
    assert [r.text for r in text.plan("\u202eevil")] == ["evil"]
    assert [r.text for r in text.plan("a\u2067b\u2069c")] == ["abc"]


@pytest.mark.skipif(not text.raqm_available(), reason="Pillow has no Raqm layout here")
def test_with_raqm_sequences_join_letters_connect_and_marks_stack() -> None:
    one = text.face_font(text.EMOJI, 24).getlength("🤖")
    for sequence in ("👩‍👩‍👧‍👦", "👍🏽", "🇮🇹", "🏳️‍🌈", "🧑🏿‍🚀", "1️⃣"):
        assert text.shape(sequence, 24).width == one, sequence  # one picture each
    for sequence in ("👩‍👩‍👧‍👦", "👍🏽", "🇮🇹", "🏳️‍🌈", "🧑🏿‍🚀"):
        assert text.shape(sequence, 24, basic=True).width > one, sequence  # parts, without
    assert text.shape("1️⃣", 24, basic=True).runs == text.shape("1", 24).runs  # the digit
    # Arabic letters join: one connected stroke, where the isolated forms are four.
    joined, isolated = text.shape("محمد", 24), text.shape("محمد", 24, basic=True)
    assert joined.mask is not None
    assert isolated.mask is not None
    assert strokes(joined.mask) == 1
    assert strokes(isolated.mask) == 4
    # A Devanagari conjunct is one ligature, not a consonant, a virama and a consonant.
    assert text.shape("क्ष", 24).width < text.shape("क्ष", 24, basic=True).width
    # Combining marks take no room: they sit on their base.
    assert text.shape("e\u0301\u0301", 24).width == text.face_font(0, 24).getlength("e")


def test_long_names_are_cut_between_clusters() -> None:
    name = "👩‍👩‍👧‍👦" * 30
    cut = text.fit_text(name, 18, 120)
    assert cut.endswith("…")
    assert text.measure(cut, 18) <= 120
    assert set(text.clusters(cut[:-1])) == {"👩‍👩‍👧‍👦"}
    arabic = text.fit_text("مُحَمَّد " * 20, 18, 100)
    assert all(not unicodedata.category(c[0]).startswith("M") for c in text.clusters(arabic))


def test_lines_are_deterministic_and_shared() -> None:
    name = HARDEST_NAMES[5]
    first = text.shape(name, 18)
    text.shape.cache_clear()
    again = text.shape(name, 18)
    assert first is not again
    for a, b in ((first.mask, again.mask), (first.colour, again.colour)):
        assert (a is None and b is None) or (a is not None and b is not None)
        if a is not None and b is not None:
            assert a.tobytes() == b.tobytes()


# -- in the pictures ---------------------------------------------------------------------------


def _name_box(data: bytes, seat_centre: tuple[int, int]) -> Image.Image:
    from renders import theme

    image = Image.open(io.BytesIO(data)).convert("RGB")
    x, y = seat_centre[0] - theme.SEAT_W // 2, seat_centre[1] - theme.SEAT_H // 2
    return image.crop((x + 8, y + 6, x + theme.SEAT_W - 8, y + 28))


def test_the_table_draws_the_hardest_names_in_colour_and_within_budget() -> None:
    from renders.table import seat_centres

    view = stacked([["R1"], ["B1", "B2"], ["G1"], ["Y1"]]).public_view()
    for i in range(0, len(HARDEST_NAMES), 4):
        names = HARDEST_NAMES[i : i + 4]
        data = render_table(view, names)
        assert len(data) <= 30_000
        assert render_table(view, names) == data
    frogs = render_table(view, ["a", "🐸🐸🐸", "c", "d"])
    plain = render_table(view, ["a", "frog", "c", "d"])
    centre = seat_centres(4)[1]

    def saturated(box: Image.Image) -> int:
        raw = box.tobytes()
        pixels = (raw[i : i + 3] for i in range(0, len(raw), 3))
        return sum(1 for p in pixels if max(p) - min(p) > 40)

    assert saturated(_name_box(frogs, centre)) > 60  # green frogs, not grey boxes
    assert saturated(_name_box(plain, centre)) < 5  # at most an edge pixel or two


def test_a_name_no_font_has_still_renders() -> None:
    view = stacked([["R1"], ["B1", "B2"]]).public_view()
    assert render_table(view, ["\U00017000\U00017001", "ok"])


def test_runs_are_plain_data() -> None:
    run = text.plan("Ada")[0]
    assert dataclasses.asdict(run) == {"text": "Ada", "face": text.PRIMARY, "rtl": False}
