"""Text in any script: a fallback chain of fonts chosen per character cluster, with bidi.

Names come from Discord and hold anything: Latin, Greek, Cyrillic, Arabic, Hebrew,
Devanagari, Thai, Chinese, Japanese, Korean, symbols and emoji (with skin tones, flags and
joined sequences such as 👩‍👩‍👧‍👦), often mixed. One font covers none of that, and Pillow has no
font fallback, so this module builds it:

1. **Clusters.** The text is cut into user-perceived characters (a simplified Unicode
   grapheme-cluster segmentation, UAX #29): a base with its combining marks, an emoji with
   its modifiers, variation selectors and ``ZWJ``-joined parts, a flag's pair of regional
   indicators, a run of conjoining Hangul jamo. A cluster is never split between fonts.
2. **A font per cluster.** The first font of :data:`CHAIN` whose character map
   (:mod:`renders.coverage`) holds every character of the cluster draws it. Emoji (a
   variation selector 16, a skin tone, a flag, a keycap, a joined sequence, or a character
   whose default presentation is emoji) go to the colour emoji font first; spaces, digits and
   punctuation stay in the font of the text around them when it has them, so a word is not
   broken into two fonts. A cluster no font has is replaced by its compatibility form
   (NFKC: "𝓐𝓭𝓪" and "Ａｄａ" become "Ada") when every character of that has a font; else it is
   *missing* and drawn as the first font's ``.notdef`` box, the usual sign of a character
   that cannot be shown (:attr:`Line.missing` lists them).
3. **Direction.** Levels follow the Unicode bidirectional algorithm (UAX #9) for one
   paragraph without explicit embeddings: the first strong character sets the direction,
   numbers and neutrals are resolved by the rules W1–W7, N1–N2 and I1–I2, trailing spaces
   take the paragraph level (L1), and runs are reordered by rule L2. Explicit embedding,
   override and isolate controls (U+202A–202E, U+2066–2069) are dropped: a name cannot turn
   the text around it backwards.
4. **Shaping.** Each run (one font, one level) is laid out by Pillow. A run that needs
   shaping (:func:`needs_shaping`) goes through its Raqm layout engine (HarfBuzz and
   FriBiDi; :func:`raqm_available`): Arabic letters join, Devanagari conjuncts and vowel
   signs take their places, marks sit on their bases, brackets mirror, and emoji sequences
   become one picture. Other runs use Pillow's basic layout, evenly spaced and cheaper.
   Without Raqm everything takes the basic layout and degrades, never into boxes:
   right-to-left runs are still put in reading order cluster by cluster, but Arabic letters
   stay in their isolated forms, Devanagari is not reordered, invisible joiners and
   selectors are removed, a keycap is its digit and an emoji sequence shows as its parts.

:func:`shape` lays a line out once and caches it (it is pure: the same text, size and
layout give the same pixels); :func:`draw_text` pastes it. Nothing is loaded at import time.
Shaping takes a lock around the shared FreeType faces; drawing a cached line takes none.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont, features

from . import theme
from .coverage import Coverage, read_coverage

FONT_DIR = Path(__file__).resolve().parent / "fonts"


@dataclass(frozen=True, slots=True)
class Face:
    """One font of the chain: its file, whether its glyphs are in colour, and its size."""

    file: str
    colour: bool = False
    #: Size relative to the requested pixel size (emoji sit a little smaller than letters).
    scale: float = 1.0


#: The fallback chain, in order of preference. ``renders/fonts/SOURCES.md`` says where
#: each file comes from and what was kept of it.
CHAIN: tuple[Face, ...] = (
    Face("NotoSans-Regular.ttf"),  # Latin, Greek, Cyrillic (the text font)
    Face("NotoSansArabic-Regular.ttf"),
    Face("NotoSansHebrew-Regular.ttf"),
    Face("NotoSansDevanagari-Regular.ttf"),
    Face("NotoSansThai-Regular.ttf"),
    Face("NotoSansCJKkr-Hangul.otf"),  # Korean
    Face("DroidSansFallback-Han.ttf"),  # Chinese and Japanese
    Face("NotoSansSymbols2-Subset.ttf"),  # ★ ♠ ✓ arrows, shapes, Braille
    Face("NotoSansMath-Subset.ttf"),  # ≈ √ ∞, and the 𝓯𝓪𝓷𝓬𝔂 letters of names
    Face("TwemojiMozilla.ttf", colour=True, scale=0.92),
)
PRIMARY = 0
EMOJI = len(CHAIN) - 1
#: The face of a cluster no font has (drawn with the first font: its ``.notdef`` box).
MISSING = -1

#: Held while FreeType rasterizes: its faces are shared by every thread, and Pillow keeps the
#: GIL while it lays a string out but not across its own Python callbacks, so rasterizing
#: takes turns. Only new text and new card art need it; cached lines are pasted without it.
FREETYPE_LOCK = threading.Lock()

# -- character classes -------------------------------------------------------------------

#: Characters that print nothing and may be missing from any font.
# fmt: off
_INVISIBLE = frozenset((
    0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x180E, 0x200B, 0x200E, 0x200F,
    0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x3164, 0xFEFF, 0xFFA0,
))
# fmt: on
#: Explicit bidi embeddings, overrides and isolates: dropped (see the module docstring).
_BIDI_CONTROLS = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
#: Joiners and selectors: needed by the shaper, but drawn as nothing.
_JOINERS = frozenset(
    [0x200C, 0x200D, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0), *range(0xE0020, 0xE0080)]
)
_ZWJ = 0x200D
_VS15, _VS16 = 0xFE0E, 0xFE0F
_KEYCAP = 0x20E3
#: The emoji font's glyphs for these are blank: they only take part in keycaps (1️⃣).
_KEYCAP_BASES = frozenset(map(ord, "0123456789#*"))
_SKIN_TONES = range(0x1F3FB, 0x1F400)
_REGIONAL = range(0x1F1E6, 0x1F200)
_TAGS = range(0xE0020, 0xE0080)

#: Characters below U+1F000 whose default presentation is emoji (Unicode 15.0
#: emoji-data.txt, property Emoji_Presentation). Above it, only the emoji font has glyphs.
# fmt: off
_EMOJI_PRESENTATION_RANGES = (
    (0x231A, 0x231B), (0x23E9, 0x23EC), (0x23F0, 0x23F0), (0x23F3, 0x23F3),
    (0x25FD, 0x25FE), (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F),
    (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE),
    (0x26C4, 0x26C5), (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA),
    (0x26F2, 0x26F3), (0x26F5, 0x26F5), (0x26FA, 0x26FA), (0x26FD, 0x26FD),
    (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728), (0x274C, 0x274C),
    (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
    (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
)
# fmt: on
_EMOJI_PRESENTATION = frozenset(
    c for lo, hi in _EMOJI_PRESENTATION_RANGES for c in range(lo, hi + 1)
)


def _is_hangul_jamo(code: int) -> bool:
    return 0x1100 <= code <= 0x11FF or 0xA960 <= code <= 0xA97F or 0xD7B0 <= code <= 0xD7FF


def _extends(code: int) -> bool:
    """Whether ``code`` belongs to the cluster before it (marks, joiners, modifiers)."""
    if code in _JOINERS or code in _SKIN_TONES or code == _KEYCAP:
        return True
    return unicodedata.category(chr(code)) in ("Mn", "Me", "Mc")


def clusters(text: str) -> list[str]:
    """``text`` cut into user-perceived characters (see the module docstring)."""
    out: list[str] = []
    regional = 0  # regional indicators in the current cluster
    for ch in text:
        code = ord(ch)
        if out:
            last = ord(out[-1][-1])
            joined = last == _ZWJ  # GB11: the part after a ZWJ joins (emoji, Indic)
            pair = code in _REGIONAL and regional == 1
            hangul = _is_hangul_jamo(code) and (_is_hangul_jamo(last) or 0xAC00 <= last <= 0xD7A3)
            if joined or pair or hangul or _extends(code):
                out[-1] += ch
                regional += code in _REGIONAL
                continue
        out.append(ch)
        regional = 1 if code in _REGIONAL else 0
    return out


def _wants_emoji(cluster: str) -> bool:
    """Whether ``cluster`` should look like an emoji (colour font first)."""
    codes = [ord(c) for c in cluster]
    if _VS15 in codes:
        return False
    if _VS16 in codes or _KEYCAP in codes:
        return True
    if any(c in _SKIN_TONES or c in _REGIONAL or c in _TAGS for c in codes):
        return True
    if _ZWJ in codes and any(c >= 0x1F000 or c in _EMOJI_PRESENTATION for c in codes):
        return True
    return codes[0] >= 0x1F000 or codes[0] in _EMOJI_PRESENTATION


def _needed(cluster: str) -> list[int]:
    """The characters of ``cluster`` a font must have to draw it."""
    return [ord(c) for c in cluster if ord(c) not in _JOINERS]


# -- fonts ---------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def raqm_available() -> bool:
    """Whether Pillow has its Raqm layout engine (with FriBiDi, found at run time)."""
    return bool(features.check("raqm"))


def _engine(basic: bool) -> ImageFont.Layout:
    return ImageFont.Layout.BASIC if basic or not raqm_available() else ImageFont.Layout.RAQM


@cache
def font_bytes(face: int) -> bytes:
    """The file of ``CHAIN[face]``, read once."""
    return (FONT_DIR / CHAIN[face].file).read_bytes()


@cache
def coverage(face: int) -> Coverage:
    """The characters ``CHAIN[face]`` has glyphs for."""
    return read_coverage(font_bytes(face))


@lru_cache(maxsize=256)
def face_font(face: int, px: int, basic: bool = False) -> ImageFont.FreeTypeFont:
    """``CHAIN[face]`` at ``px`` pixels (its :attr:`Face.scale` applied)."""
    size = max(1, round(px * CHAIN[face].scale))
    return ImageFont.truetype(str(FONT_DIR / CHAIN[face].file), size, layout_engine=_engine(basic))


def covers(face: int, cluster: str) -> bool:
    """Whether ``CHAIN[face]`` has a glyph for every character ``cluster`` needs."""
    needed = _needed(cluster)
    if CHAIN[face].colour and needed and needed[0] in _KEYCAP_BASES:
        return ord(cluster[-1]) == _KEYCAP and chr(_VS16) in cluster
    have = coverage(face)
    return all(code in have for code in needed)


def _is_neutral(cluster: str) -> bool:
    return unicodedata.bidirectional(cluster[0]) in ("WS", "ON", "CS", "ES", "ET", "EN", "AN")


def choose_face(cluster: str, previous: int | None = None) -> int:
    """The face that draws ``cluster`` (:data:`MISSING` if none has it); ``previous`` is
    the face of the cluster before it, kept for spaces, digits and punctuation."""
    if not _needed(cluster):
        return PRIMARY if previous is None or previous in (MISSING, EMOJI) else previous
    emoji = _wants_emoji(cluster)
    if emoji and covers(EMOJI, cluster):
        return EMOJI
    if (
        previous is not None
        and previous not in (MISSING, EMOJI)
        and _is_neutral(cluster)
        and covers(previous, cluster)
    ):
        return previous
    for face in range(len(CHAIN)):
        if face == EMOJI and _VS15 in (ord(c) for c in cluster):
            continue
        if covers(face, cluster):
            return face
    return MISSING


# -- bidi ----------------------------------------------------------------------------------


def _bidi_type(cluster: str) -> str:
    kind = unicodedata.bidirectional(cluster[0])
    return "ON" if kind in ("NSM", "BN", "") else kind


def bidi_levels(kinds: Sequence[str]) -> tuple[int, list[int]]:
    """The paragraph level and the level of each item of bidi class ``kinds`` (UAX #9
    rules P2–P3, W1–W7, N1–N2, I1–I2 and L1, without explicit embeddings)."""
    base = 0
    for kind in kinds:
        if kind == "L":
            break
        if kind in ("R", "AL"):
            base = 1
            break
    sos = "R" if base else "L"
    t = list(kinds)
    n = len(t)
    # W2, W3: European numbers after Arabic letters are Arabic numbers; AL is R.
    strong = sos
    for i in range(n):
        if t[i] in ("L", "R", "AL"):
            strong = t[i]
        elif t[i] == "EN" and strong == "AL":
            t[i] = "AN"
    t = ["R" if k == "AL" else k for k in t]
    # W4: one separator between two numbers of the same kind joins them.
    for i in range(1, n - 1):
        if t[i] == "ES" and t[i - 1] == t[i + 1] == "EN":
            t[i] = "EN"
        elif t[i] == "CS" and t[i - 1] == t[i + 1] and t[i - 1] in ("EN", "AN"):
            t[i] = t[i - 1]
    # W5: terminators next to European numbers are numbers.
    for i in range(n):
        if t[i] != "EN":
            continue
        j = i - 1
        while j >= 0 and t[j] == "ET":
            t[j] = "EN"
            j -= 1
        j = i + 1
        while j < n and t[j] == "ET":
            t[j] = "EN"
            j += 1
    # W6: other separators and terminators are neutral.
    t = ["ON" if k in ("ES", "ET", "CS") else k for k in t]
    # W7: European numbers after a left-to-right letter are left-to-right.
    strong = sos
    for i in range(n):
        if t[i] in ("L", "R"):
            strong = t[i]
        elif t[i] == "EN" and strong == "L":
            t[i] = "L"

    # N1, N2: neutrals between two of the same direction take it; others the paragraph's.
    def direction(k: str) -> str:
        return "R" if k in ("R", "EN", "AN") else k

    i = 0
    while i < n:
        if t[i] not in ("ON", "WS", "S", "B"):
            i += 1
            continue
        j = i
        while j < n and t[j] in ("ON", "WS", "S", "B"):
            j += 1
        before = direction(t[i - 1]) if i > 0 else sos
        after = direction(t[j]) if j < n else sos
        fill = before if before == after else sos
        for m in range(i, j):
            t[m] = fill
        i = j
    # I1, I2.
    levels: list[int] = []
    for kind in t:
        if base == 0:
            levels.append(1 if kind == "R" else 2 if kind in ("AN", "EN") else 0)
        else:
            levels.append(2 if kind in ("L", "EN", "AN") else 1)
    # L1: trailing white space takes the paragraph level.
    i = n - 1
    while i >= 0 and kinds[i] in ("WS", "S", "B", "BN"):
        levels[i] = base
        i -= 1
    return base, levels


def visual_order(levels: Sequence[int]) -> list[int]:
    """Indexes of items at ``levels`` in display order, left to right (UAX #9 rule L2)."""
    order = list(range(len(levels)))
    if not levels:
        return order
    highest = max(levels)
    odd = [lv for lv in levels if lv % 2]
    if not odd:
        return order
    for level in range(highest, min(odd) - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < len(order) and levels[order[j]] >= level:
                j += 1
            order[i:j] = reversed(order[i:j])
            i = j
    return order


# -- layout --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Run:
    """Clusters drawn together: one face, one direction. ``text`` is in logical order."""

    text: str
    face: int  # an index into CHAIN, or MISSING
    rtl: bool


def _clean(text: str) -> str:
    return "".join(ch for ch in text if ord(ch) not in _BIDI_CONTROLS and ord(ch) not in _INVISIBLE)


def plan(text: str, basic: bool = False) -> tuple[Run, ...]:
    """The runs of ``text``, in display order, left to right.

    ``basic``: for Pillow's basic layout, which forms no ligatures, a keycap (1️⃣) is its
    digit in the text font, since the emoji font draws a keycap only as a whole.
    """
    if text.isascii() and text.isprintable():
        # Most text (figures, ranks, Latin names) needs neither the chain nor bidi.
        return (Run(text, PRIMARY, False),) if text else ()
    pieces: list[tuple[str, int]] = []
    previous: int | None = None
    for cluster in clusters(_clean(text)):
        if basic and ord(cluster[-1]) == _KEYCAP:
            cluster = cluster[0]
        face = choose_face(cluster, previous)
        if face == MISSING:
            compatible = unicodedata.normalize("NFKC", cluster)
            if compatible != cluster and compatible.strip():
                parts = clusters(compatible)
                faces: list[int] = []
                for part in parts:
                    faces.append(choose_face(part, previous if not faces else faces[-1]))
                if MISSING not in faces:
                    pieces.extend(zip(parts, faces, strict=True))
                    previous = faces[-1]
                    continue
        pieces.append((cluster, face))
        previous = face
    if not pieces:
        return ()
    _, levels = bidi_levels([_bidi_type(c) for c, _ in pieces])
    runs: list[tuple[list[str], int, int]] = []
    for (cluster, face), level in zip(pieces, levels, strict=True):
        if runs and runs[-1][1] == face and runs[-1][2] == level:
            runs[-1][0].append(cluster)
        else:
            runs.append(([cluster], face, level))
    order = visual_order([level for _, _, level in runs])
    return tuple(Run("".join(runs[i][0]), runs[i][1], runs[i][2] % 2 == 1) for i in order)


def _basic_text(run: Run) -> str:
    """A run as Pillow's basic layout must be given it: visual order, no joiners."""
    parts = [
        "".join(c for c in cluster if ord(c) not in _JOINERS) for cluster in clusters(run.text)
    ]
    if run.rtl:
        parts.reverse()
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Line:
    """A line of text laid out and rasterized, ready to paste (shared: never draw on it).

    Coordinates are relative to the *origin*, the left end of the baseline: the images'
    top-left corner is at ``(left, top)`` from it. ``mask`` holds every monochrome glyph,
    ``outline`` the same grown by the stroke (``None`` without one), ``colour`` the colour
    glyphs (``None`` without any). ``ascent`` and ``descent`` are the first font's, so lines
    in different scripts sit on the same baseline and anchor alike.
    """

    text: str
    px: int
    width: float
    ascent: int
    descent: int
    left: int
    top: int
    mask: Image.Image | None
    outline: Image.Image | None
    colour: Image.Image | None
    runs: tuple[Run, ...]

    @property
    def missing(self) -> tuple[str, ...]:
        """The clusters no font has (drawn as boxes)."""
        return tuple(c for run in self.runs if run.face == MISSING for c in clusters(run.text))


#: Faces whose scripts always need shaping: joining (Arabic), reordering and conjuncts
#: (Devanagari), stacked marks (Thai).
_SHAPED_FILES = frozenset(
    ("NotoSansArabic-Regular.ttf", "NotoSansDevanagari-Regular.ttf", "NotoSansThai-Regular.ttf")
)


def needs_shaping(run: Run) -> bool:
    """Whether ``run`` needs Raqm: a script that joins or reorders, a cluster of several
    characters (marks, emoji sequences), or a mirrored bracket in right-to-left text.

    Other runs are laid out by Pillow's basic layout, which positions FreeType's hinted
    glyphs by their hinted advances: even spacing (Raqm's unhinted positions put auto-hinted
    glyphs a pixel off here and there) and about a third less work. What it lacks, kerning
    and the "fi" ligature, changes little at these sizes.
    """
    if run.face >= 0 and CHAIN[run.face].file in _SHAPED_FILES:
        return True
    if run.text.isascii():
        return False
    if any(len(cluster) > 1 for cluster in clusters(run.text)):
        return True
    return run.rtl and any(unicodedata.mirrored(ch) for ch in run.text)


@dataclass(frozen=True, slots=True)
class _Placed:
    """A run with what drawing it needs: its font, its text as given to Pillow, where."""

    run: Run
    face: int
    basic: bool  # laid out by Pillow's basic layout
    shown: str
    direction: str | None
    x: float


@lru_cache(maxsize=4096)
def _layout(text: str, px: int, basic: bool) -> tuple[tuple[_Placed, ...], float]:
    """The runs of ``text`` placed on the line, and its advance: no pixels yet."""
    basic = basic or not raqm_available()
    placed: list[_Placed] = []
    pen = 0.0
    with FREETYPE_LOCK:
        for run in plan(text, basic):
            face = PRIMARY if run.face == MISSING else run.face
            simple = basic or not needs_shaping(run)
            shown = _basic_text(run) if simple else run.text
            direction = None if simple else "rtl" if run.rtl else "ltr"
            placed.append(_Placed(run, face, simple, shown, direction, pen))
            pen += face_font(face, px, simple).getlength(shown, direction=direction)
    return tuple(placed), pen


def measure(text: str, px: int) -> float:
    """How long ``text`` is at ``px`` pixels (its advance), without drawing it."""
    return _layout(text, px, False)[1]


#: Lines kept rasterized: about 2 KB each (measured), so some 4 MB at most; the names and
#: figures of hundreds of live tables fit.
LINE_CACHE = 2048


@lru_cache(maxsize=LINE_CACHE)
def shape(text: str, px: int, stroke: int = 0, basic: bool = False) -> Line:
    """``text`` laid out and rasterized at ``px`` pixels (``stroke``: an outline that many
    pixels wide).

    ``basic`` forces Pillow's basic layout, as on a machine without Raqm (for tests).
    """
    placed, width = _layout(text, px, basic)
    runs = tuple(p.run for p in placed)
    with FREETYPE_LOCK:
        ascent, descent = face_font(PRIMARY, px, basic).getmetrics()
        if not placed:
            return Line(text, px, 0.0, ascent, descent, 0, 0, None, None, None, runs)
        # Draw on a canvas with room for any glyph's overhang (marks above Devanagari and
        # Arabic, deep descenders, the stroke), then keep only the inked part: measuring
        # every run's box first would cost FreeType another layout pass.
        margin = 2 * px + stroke
        left, top = -margin, -2 * margin
        size = (int(width) + 2 * margin, 3 * margin)
        mask = outline = colour = None
        for p in placed:
            font = face_font(p.face, px, p.basic)
            at = (p.x - left, -top)
            if CHAIN[p.face].colour:
                colour = colour or Image.new("RGBA", size, (0, 0, 0, 0))
                ImageDraw.Draw(colour).text(
                    at, p.shown, font=font, anchor="ls", direction=p.direction, embedded_color=True
                )
                continue
            mask = mask or Image.new("L", size, 0)
            ImageDraw.Draw(mask).text(
                at, p.shown, fill=255, font=font, anchor="ls", direction=p.direction
            )
            if stroke:
                outline = outline or Image.new("L", size, 0)
                ImageDraw.Draw(outline).text(
                    at,
                    p.shown,
                    fill=255,
                    font=font,
                    anchor="ls",
                    direction=p.direction,
                    stroke_width=stroke,
                    stroke_fill=255,
                )
    boxes = [b for b in (_inked(outline or mask), _inked(colour)) if b is not None]
    if not boxes:
        return Line(text, px, width, ascent, descent, 0, 0, None, None, None, runs)
    crop = (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )
    return Line(
        text,
        px,
        width,
        ascent,
        descent,
        left + crop[0],
        top + crop[1],
        mask.crop(crop) if mask is not None else None,
        outline.crop(crop) if outline is not None else None,
        colour.crop(crop) if colour is not None else None,
        runs,
    )


def _inked(image: Image.Image | None) -> tuple[int, int, int, int] | None:
    if image is None:
        return None
    return image.getbbox(alpha_only=True) if image.mode == "RGBA" else image.getbbox()


#: Longest name drawn, in characters (a name is cut to fit its box anyway).
MAX_NAME_CHARS = 64


@lru_cache(maxsize=4096)
def clean_name(name: str) -> str:
    """``name`` made safe to draw on one line: no control characters, no lone surrogates,
    white space collapsed, at most :data:`MAX_NAME_CHARS` characters."""
    text = name[: MAX_NAME_CHARS * 2].encode("utf-8", "replace").decode("utf-8")
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in text)
    return " ".join(text.split())[:MAX_NAME_CHARS]


@lru_cache(maxsize=2048)
def fit_text(text: str, px: int, width: int) -> str:
    """``text`` cut at a cluster boundary, with an ellipsis, to at most ``width`` pixels."""
    if measure(text, px) <= width:
        return text
    parts = clusters(text)
    lo, hi = 0, len(parts)
    while lo < hi:  # the longest prefix of clusters that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if measure("".join(parts[:mid]).rstrip() + "…", px) <= width:
            lo = mid
        else:
            hi = mid - 1
    return "".join(parts[:lo]).rstrip() + "…"


def _break_word(word: str, px: int, width: int) -> list[str] | None:
    """``word`` cut at cluster boundaries into pieces each at most ``width`` wide (scripts
    that write no spaces, such as Chinese or Thai, and very long words); ``None`` if one
    cluster alone is wider."""
    pieces, piece = [], ""
    for cluster in clusters(word):
        if measure(piece + cluster, px) <= width:
            piece += cluster
            continue
        if not piece:
            return None
        pieces.append(piece)
        piece = cluster
    return [*pieces, piece] if piece else pieces


@lru_cache(maxsize=2048)
def wrap_text(text: str, px: int, width: int, max_lines: int) -> tuple[str, ...] | None:
    """``text`` in at most ``max_lines`` lines, each at most ``width`` pixels at ``px``:
    broken at spaces, and inside a word only where the word alone is too wide. ``None`` when
    it does not fit. The lines are in reading order (each is laid out on its own, bidi
    included)."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}" if current else word
        if measure(trial, px) <= width:
            current = trial
            continue
        if current:
            lines.append(current)
        pieces = [word] if measure(word, px) <= width else _break_word(word, px, width)
        if pieces is None:
            return None
        lines.extend(pieces[:-1])
        current = pieces[-1] if pieces else ""
        if len(lines) >= max_lines:
            return None
    if current:
        lines.append(current)
    return tuple(lines) if len(lines) <= max_lines else None


@lru_cache(maxsize=2048)
def fit_lines(
    text: str, width: int, sizes: tuple[tuple[int, int], ...]
) -> tuple[tuple[str, ...], int]:
    """``text`` whole in the first ``(px, max_lines)`` of ``sizes`` it fits, as
    ``(lines, px)``. If it fits none, the last size's lines, the last of them cut with an
    ellipsis (:func:`fit_text`): only names longer than Discord allows come to that."""
    for px, max_lines in sizes:
        lines = wrap_text(text, px, width, max_lines)
        if lines is not None:
            return lines, px
    px, max_lines = sizes[-1]
    lines = wrap_text(text, px, width, 10 * max_lines + len(text)) or (text,)
    kept = list(lines[:max_lines])
    rest = " ".join(lines[max_lines - 1 :])
    kept[-1] = fit_text(rest, px, width)
    return tuple(kept), px


Anchor = Literal["la", "ls", "lm", "mm", "rm", "ms", "rs"]


def origin(line: Line, xy: tuple[float, float], anchor: Anchor) -> tuple[int, int]:
    """The origin (left end of the baseline) of ``line`` drawn at ``xy`` with ``anchor``.

    The first letter is horizontal (``l``eft, ``m``iddle, ``r``ight of the advance), the
    second vertical (``a``scender, ``m``iddle of ascender and descender, ``s`` baseline), as
    Pillow's text anchors.
    """
    x, y = xy
    if anchor[0] == "m":
        x -= line.width / 2
    elif anchor[0] == "r":
        x -= line.width
    if anchor[1] == "a":
        y += line.ascent
    elif anchor[1] == "m":
        y += (line.ascent - line.descent) / 2
    return round(x), round(y)


def paste_line(
    image: Image.Image,
    line: Line,
    at: tuple[int, int],
    fill: theme.RGB,
    outline: theme.RGB | None = None,
) -> None:
    """Paste ``line`` with its origin at ``at``: the outline, the glyphs in ``fill``, then
    the colour glyphs as they are."""
    box = (at[0] + line.left, at[1] + line.top)
    if line.outline is not None and outline is not None:
        image.paste(outline, box, line.outline)
    if line.mask is not None:
        image.paste(fill, box, line.mask)
    if line.colour is not None:
        image.paste(line.colour, box, line.colour)


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    px: int,
    fill: theme.RGB,
    *,
    anchor: Anchor = "la",
    stroke: int = 0,
    stroke_fill: theme.RGB | None = None,
) -> Line:
    """Draw ``text`` at ``xy`` (see :func:`origin` for ``anchor``); returns its line."""
    line = shape(text, px, stroke)
    paste_line(image, line, origin(line, xy, anchor), fill, stroke_fill if stroke else None)
    return line
