"""Rebuild the fonts in ``renders/fonts/`` from their published sources (development only).

The renders draw names in any script with a chain of open-licensed fonts shipped in the
repository (see ``renders/fonts/SOURCES.md``). This script makes those files, byte for byte
reproducible, from Debian's font packages and one npm package, and checks every input's
SHA-256 first. Nothing here runs in the bot or in CI: it needs fontTools, which the project
does not depend on.

    mkdir /tmp/fontsrc && cd /tmp/fontsrc
    apt-get download fonts-noto-core=20201225-1 fonts-noto-cjk=1:20220127+repack1-1 \\
        fonts-droid-fallback=1:6.0.1r16-1.1
    npm pack twemoji-colr-font@15.0.3
    pip install "fonttools[woff]==4.68.0"
    python tools/build_fonts.py /tmp/fontsrc

What each output keeps, and why, is in :data:`FONTS`; the emoji font gets one change beyond
subsetting (:func:`_outline_colour_glyphs`).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "renders" / "fonts"

#: The packages the fonts come from, with the SHA-256 of each file as downloaded.
PACKAGES = {
    "fonts-noto-core_20201225-1_all.deb": (
        "58f4f0bb6720f919f92096b3508e1412a0f1544424ade6c5b5bf1eb694dd64ba"
    ),
    "fonts-noto-cjk_1%3a20220127+repack1-1_all.deb": (
        "4a2515eb6db3978b897fef9709ed0d2b1f4c6c4df4d83d6c4ef65f71f1b1f502"
    ),
    "fonts-droid-fallback_1%3a6.0.1r16-1.1_all.deb": (
        "d2096d4edde128fedf6749be2dd204a5810210a6201126d99b8d412344f71056"
    ),
    "twemoji-colr-font-15.0.3.tgz": (
        "10cb935907d7dc3d46e254d6ff54b3e042652eb08f6973c81cd2c4225e6ebac5"
    ),
}

Ranges = tuple[tuple[int, int], ...]

#: Everything a font maps (the subsetter keeps only the cmap's own entries).
EVERYTHING: Ranges = ((0, 0x10FFFF),)

HANGUL: Ranges = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x3130, 0x318F),  # Hangul Compatibility Jamo
    (0xA960, 0xA97F),  # Hangul Jamo Extended-A
    (0xAC00, 0xD7A3),  # Hangul Syllables (all 11,172)
    (0xD7B0, 0xD7FF),  # Hangul Jamo Extended-B
)

HAN_AND_KANA: Ranges = (
    (0x2E80, 0x2EFF),  # CJK Radicals Supplement
    (0x2F00, 0x2FDF),  # Kangxi Radicals
    (0x2FF0, 0x2FFF),  # Ideographic Description Characters
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x3190, 0x31FF),  # Kanbun, Bopomofo Extended, CJK Strokes, Katakana Phonetic Ext.
    (0x3200, 0x33FF),  # Enclosed CJK Letters and Months, CJK Compatibility
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs (the URO; Extension A is left out)
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs
    (0xFE30, 0xFE4F),  # CJK Compatibility Forms
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms
)

SYMBOLS: Ranges = (
    (0x2190, 0x21FF),  # Arrows
    (0x2300, 0x23FF),  # Miscellaneous Technical
    (0x2460, 0x24FF),  # Enclosed Alphanumerics
    (0x2500, 0x25FF),  # Box Drawing, Block Elements, Geometric Shapes
    (0x2600, 0x26FF),  # Miscellaneous Symbols (★ ☆ ♠ ♡ ♪ …)
    (0x2700, 0x27BF),  # Dingbats
    (0x2800, 0x28FF),  # Braille Patterns (used for pictures in names)
    (0x2B00, 0x2BFF),  # Miscellaneous Symbols and Arrows
)

MATH: Ranges = (
    (0x2200, 0x22FF),  # Mathematical Operators (≈ √ ∞ ∑ …)
    (0x27C0, 0x27EF),  # Miscellaneous Mathematical Symbols-A
    (0x2980, 0x2AFF),  # Miscellaneous Mathematical Symbols-B, Supplemental Operators
    (0x1D400, 0x1D7FF),  # Mathematical Alphanumeric Symbols (the 𝓯𝓪𝓷𝓬𝔂 letters of names)
)


@dataclass(frozen=True)
class FontSpec:
    """One output file: where it comes from and what of it is kept."""

    output: str
    package: str
    member: str  # path inside the package
    sha256: str  # of that member
    keep: Ranges
    font_number: int = 0  # inside a collection (.ttc)


NOTO = "usr/share/fonts/truetype/noto/"
FONTS = (
    # Latin (with Vietnamese and IPA), Greek and Cyrillic: the first font of the chain.
    FontSpec(
        "NotoSans-Regular.ttf",
        "fonts-noto-core_20201225-1_all.deb",
        NOTO + "NotoSans-Regular.ttf",
        "89c3c497f618fdaa0b2d1e98fef93582f28c71debd2c4a8cdf41f190ced2909d",
        EVERYTHING,
    ),
    FontSpec(
        "NotoSansArabic-Regular.ttf",
        "fonts-noto-core_20201225-1_all.deb",
        NOTO + "NotoSansArabic-Regular.ttf",
        "504d7407d86875acf7d04dfaa0fd7524d0b8797723bc4aa18022f29db25b0b6e",
        EVERYTHING,
    ),
    FontSpec(
        "NotoSansHebrew-Regular.ttf",
        "fonts-noto-core_20201225-1_all.deb",
        NOTO + "NotoSansHebrew-Regular.ttf",
        "436900d5ad77d33e4234247f3076eaecd25b92b9bea0519514f684140e3566a7",
        EVERYTHING,
    ),
    FontSpec(
        "NotoSansDevanagari-Regular.ttf",
        "fonts-noto-core_20201225-1_all.deb",
        NOTO + "NotoSansDevanagari-Regular.ttf",
        "79a470365ccb210fa3c7d8d8ff2e005ef9d983cfd067f735a0caf7e15070ca9f",
        EVERYTHING,
    ),
    FontSpec(
        "NotoSansThai-Regular.ttf",
        "fonts-noto-core_20201225-1_all.deb",
        NOTO + "NotoSansThai-Regular.ttf",
        "dfbd5ed0f1e68c3cbc51aa08f646d1ab0e68e7c4ceab70a69e465225ff701f93",
        EVERYTHING,
    ),
    FontSpec(
        "NotoSansSymbols2-Subset.ttf",
        "fonts-noto-core_20201225-1_all.deb",
        NOTO + "NotoSansSymbols2-Regular.ttf",
        "876598db5f1e3bef2bc77c4d94c5b0d5d2c1620be4878a06f18fb5434e331688",
        SYMBOLS,
    ),
    FontSpec(
        "NotoSansMath-Subset.ttf",
        "fonts-noto-core_20201225-1_all.deb",
        NOTO + "NotoSansMath-Regular.ttf",
        "8242bd1e55368b27e32455260754cf9aa58f3ad7ea80664b66c21f1b09910d6c",
        MATH,
    ),
    # Korean: Hangul from Noto Sans CJK KR (face 1 of the collection).
    FontSpec(
        "NotoSansCJKkr-Hangul.otf",
        "fonts-noto-cjk_1%3a20220127+repack1-1_all.deb",
        "usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "b76b0433203017ca80401b2ee0dd69350349871c4b19d504c34dbdd80541690a",
        HANGUL,
        font_number=1,
    ),
    # Chinese and Japanese: every ideograph of the URO and the kana, in a third of the bytes
    # Noto Sans CJK needs for them (TrueType outlines, no hinting).
    FontSpec(
        "DroidSansFallback-Han.ttf",
        "fonts-droid-fallback_1%3a6.0.1r16-1.1_all.deb",
        "usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        "acb6440a713d880a13a21b468ba7cd43f5a2b2934972e51be791c880730777b8",
        HAN_AND_KANA,
    ),
    # Emoji: Twemoji (the art Discord itself shows) as a COLRv0 font, all of it.
    FontSpec(
        "TwemojiMozilla.ttf",
        "twemoji-colr-font-15.0.3.tgz",
        "package/twemoji.woff2",
        "598b6867d47954acab46edd6a9773d734b844d221d3a95834da7442d5df64f98",
        EVERYTHING,
    ),
)


def say(line: str) -> None:
    sys.stdout.write(line + "\n")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def member(source: Path, package: str, name: str) -> bytes:
    """The bytes of ``name`` inside ``package`` (a .deb or an npm .tgz) in ``source``."""
    path = source / package
    if sha256(path.read_bytes()) != PACKAGES[package]:
        raise SystemExit(f"{package}: not the file the fonts were built from")
    if package.endswith(".tgz"):
        with tarfile.open(path) as archive:
            extracted = archive.extractfile(name)
            assert extracted is not None, name
            return extracted.read()
    data = subprocess.run(
        ["dpkg-deb", "--fsys-tarfile", str(path)], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        extracted = archive.extractfile("./" + name)
        assert extracted is not None, name
        return extracted.read()


def _outline_colour_glyphs(font: TTFont) -> int:
    """Give every empty COLR base glyph the union of its layers as its outline.

    FreeType draws a COLRv0 glyph's coloured layers, but Pillow sizes the bitmap it draws
    into from the base glyph's own outline, which this font leaves empty: every emoji came
    out blank. A composite of the layer glyphs has the right box (and is a sensible
    monochrome fallback). Returns how many glyphs were changed.
    """
    glyf = font["glyf"]
    changed = 0
    for base, layers in font["COLR"].ColorLayers.items():
        if glyf[base].numberOfContours != 0:
            continue
        composite = Glyph()
        composite.numberOfContours = -1
        composite.components = []
        for layer in layers:
            component = GlyphComponent()
            component.glyphName = layer.name
            component.x = component.y = 0
            component.flags = 0
            composite.components.append(component)
        glyf[base] = composite
        changed += 1
    return changed


def build(spec: FontSpec, source: Path) -> bytes:
    data = member(source, spec.package, spec.member)
    if sha256(data) != spec.sha256:
        raise SystemExit(f"{spec.member}: unexpected contents")
    font = TTFont(io.BytesIO(data), fontNumber=spec.font_number, recalcTimestamp=False)
    font.flavor = None
    options = subset.Options()
    options.layout_features = ["*"]  # shaping (Arabic joining, conjuncts, emoji sequences)
    options.name_IDs = ["*"]  # copyright, licence and trademark notices stay
    options.name_languages = ["*"]
    options.notdef_outline = True  # a visible box, so a missing glyph is never silent
    # No hinting instructions: FreeType's own auto-hinter draws these sizes as well, and the
    # fonts' bytecode made every glyph 3-4 times slower to load (Pillow caches no glyphs).
    options.hinting = False
    options.drop_tables += ["FFTM", "DSIG"]
    codes = [c for lo, hi in spec.keep for c in range(lo, hi + 1)]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codes)
    subsetter.subset(font)
    if "COLR" in font:
        say(f"  {spec.output}: outlined {_outline_colour_glyphs(font)} colour glyphs")
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def emoji_palette() -> list[tuple[int, int, int]]:
    """The colours to add to the renders' PNG palette so emoji keep their look.

    Every emoji of the font (and a thumb in each skin tone, weighted up: people are common in
    names) is drawn at 24 px; the fully opaque pixels are reduced to 48 colours by median
    cut, and those within a distance of 300 (squared RGB) of a colour already in the palette
    or of a colour kept before (most used first) are dropped. The result is
    :data:`renders.theme.EMOJI_COLOURS`.
    """
    from PIL import Image, ImageDraw, ImageFont

    sys.path.insert(0, str(ROOT))
    from renders import assets, theme

    path = OUT / "TwemojiMozilla.ttf"
    codes = sorted(
        c
        for c in TTFont(path).getBestCmap()
        if 0x2000 <= c < 0xE0000
        and c not in (0x200D, 0xFE0F, 0x20E3)
        and c not in range(0x1F3FB, 0x1F400)
    )
    texts = [chr(c) for c in codes]
    texts += [chr(0x1F44D) + chr(tone) for tone in range(0x1F3FB, 0x1F400)] * 20
    columns = 40
    sheet = Image.new("RGBA", (columns * 26, (len(texts) // columns + 1) * 26), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.truetype(str(path), 24)
    for i, text in enumerate(texts):
        draw.text(((i % columns) * 26, (i // columns) * 26), text, font=font, embedded_color=True)
    raw = sheet.tobytes()
    pixels = [tuple(raw[i : i + 3]) for i in range(0, len(raw), 4) if raw[i + 3] == 255]
    flat = Image.new("RGB", (len(pixels), 1))
    flat.frombytes(b"".join(bytes(p) for p in pixels))
    reduced = flat.quantize(colors=48, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette = reduced.getpalette() or []
    ours = set(theme.EMOJI_COLOURS)
    existing = [c for c in assets.palette_colours() if c not in ours]

    def far(c: tuple[int, int, int], others: list[tuple[int, int, int]]) -> bool:
        return all(sum((a - b) ** 2 for a, b in zip(c, o, strict=True)) > 300 for o in others)

    kept: list[tuple[int, int, int]] = []
    for _count, index in sorted(reduced.getcolors() or [], reverse=True):
        colour = (palette[3 * index], palette[3 * index + 1], palette[3 * index + 2])
        if far(colour, existing) and far(colour, kept):
            kept.append(colour)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "source", type=Path, nargs="?", help="the folder holding the downloaded packages"
    )
    parser.add_argument(
        "--palette", action="store_true", help="only print the emoji colours for the palette"
    )
    args = parser.parse_args()
    if args.palette:
        say(repr(emoji_palette()))
        return
    if args.source is None:
        parser.error("name the folder holding the downloaded packages")
    OUT.mkdir(parents=True, exist_ok=True)
    for spec in FONTS:
        data = build(spec, args.source)
        (OUT / spec.output).write_bytes(data)
        say(f"{spec.output}: {len(data):,} bytes, sha256 {sha256(data)}")


if __name__ == "__main__":
    sys.exit(main())
