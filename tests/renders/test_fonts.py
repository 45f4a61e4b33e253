"""The shipped fonts: every file of the chain is there, documented and licensed."""

from __future__ import annotations

import re

from renders import text

SOURCES = (text.FONT_DIR / "SOURCES.md").read_text(encoding="utf-8")
LICENCES = {
    path.name: path.read_text(encoding="utf-8") for path in text.FONT_DIR.glob("LICENSE-*.txt")
}


def test_every_font_of_the_chain_is_documented_with_its_size() -> None:
    rows = dict(re.findall(r"^\| `([^`]+)` \|.*\| ([\d,]+) \|$", SOURCES, flags=re.MULTILINE))
    shipped = sorted(p.name for p in text.FONT_DIR.iterdir() if p.suffix in (".ttf", ".otf"))
    assert sorted(rows) == shipped == sorted(face.file for face in text.CHAIN)
    for name, size in rows.items():
        assert (text.FONT_DIR / name).stat().st_size == int(size.replace(",", "")), name


def test_every_font_has_its_licence_beside_it() -> None:
    assert set(LICENCES) == {
        "LICENSE-OFL-1.1.txt",
        "LICENSE-Apache-2.0.txt",
        "LICENSE-Twemoji.txt",
    }
    assert "SIL OPEN FONT LICENSE" in LICENCES["LICENSE-OFL-1.1.txt"]
    assert "Apache License" in LICENCES["LICENSE-Apache-2.0.txt"]
    assert "CC-BY-4.0" in LICENCES["LICENSE-Twemoji.txt"]
    for face in text.CHAIN:
        named = [name for name, body in LICENCES.items() if face.file in body]
        if face.file == "DroidSansFallback-Han.ttf":
            assert named == ["LICENSE-Apache-2.0.txt"]
        else:
            assert "LICENSE-OFL-1.1.txt" in named, face.file


def test_the_fonts_are_read_lazily_and_once() -> None:
    assert text.font_bytes(text.PRIMARY) is text.font_bytes(text.PRIMARY)
    assert text.coverage(text.EMOJI) is text.coverage(text.EMOJI)
