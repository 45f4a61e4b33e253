"""Which characters a font file has a glyph for, read from its ``cmap`` table.

Pillow does not say whether a font maps a character (it silently draws the ``.notdef`` box),
so the fallback chain of :mod:`renders.text` reads each font's character map itself, once,
with :mod:`struct`: the Unicode subtables of format 4 (the Basic Multilingual Plane) and 12
(all planes). A character counts as covered when it maps to a glyph other than glyph 0, the
``.notdef`` box.
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Iterable

#: (platform, encoding) of the Unicode subtables, best first: full repertoire, then BMP.
_FULL = ((3, 10), (0, 6), (0, 4))
_BMP = ((3, 1), (0, 3), (0, 2), (0, 1), (0, 0))


class Coverage:
    """A set of code points, kept as sorted, disjoint ``[start, end]`` ranges."""

    __slots__ = ("_ends", "_starts")

    def __init__(self, codes: Iterable[int]) -> None:
        starts: list[int] = []
        ends: list[int] = []
        for code in sorted(set(codes)):
            if ends and code == ends[-1] + 1:
                ends[-1] = code
            else:
                starts.append(code)
                ends.append(code)
        self._starts = starts
        self._ends = ends

    def __contains__(self, code: object) -> bool:
        if not isinstance(code, int):
            return False
        i = bisect.bisect_right(self._starts, code) - 1
        return i >= 0 and code <= self._ends[i]

    def __len__(self) -> int:
        return sum(e - s + 1 for s, e in zip(self._starts, self._ends, strict=True))

    def ranges(self) -> tuple[tuple[int, int], ...]:
        """The ranges, in order."""
        return tuple(zip(self._starts, self._ends, strict=True))


def _table(data: bytes, tag: bytes) -> bytes:
    """The table ``tag`` of an sfnt font file (TrueType or OpenType/CFF)."""
    (count,) = struct.unpack_from(">H", data, 4)
    for i in range(count):
        name, _checksum, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if name == tag:
            return data[offset : offset + length]
    raise ValueError(f"the font has no {tag.decode()} table")


def _format4(table: bytes, at: int) -> set[int]:
    (segments2,) = struct.unpack_from(">H", table, at + 6)
    n = segments2 // 2
    ends = struct.unpack_from(f">{n}H", table, at + 14)
    starts = struct.unpack_from(f">{n}H", table, at + 16 + segments2)
    deltas = struct.unpack_from(f">{n}h", table, at + 16 + 2 * segments2)
    offsets_at = at + 16 + 3 * segments2
    offsets = struct.unpack_from(f">{n}H", table, offsets_at)
    codes: set[int] = set()
    for i in range(n):
        start, end, delta, offset = starts[i], ends[i], deltas[i], offsets[i]
        if start == 0xFFFF:
            continue
        for code in range(start, end + 1):
            if offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                where = offsets_at + 2 * i + offset + 2 * (code - start)
                (glyph,) = struct.unpack_from(">H", table, where)
                if glyph:
                    glyph = (glyph + delta) & 0xFFFF
            if glyph:
                codes.add(code)
    return codes


def _format12(table: bytes, at: int) -> set[int]:
    (groups,) = struct.unpack_from(">I", table, at + 12)
    codes: set[int] = set()
    for g in range(groups):
        start, end, glyph = struct.unpack_from(">III", table, at + 16 + 12 * g)
        # A group maps start..end to consecutive glyphs; only one starting at 0 holds .notdef.
        codes.update(range(start + (1 if glyph == 0 else 0), end + 1))
    return codes


def read_coverage(data: bytes) -> Coverage:
    """The characters the font file ``data`` maps to a real glyph."""
    cmap = _table(data, b"cmap")
    (count,) = struct.unpack_from(">H", cmap, 2)
    subtables: dict[tuple[int, int], int] = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", cmap, 4 + 8 * i)
        subtables.setdefault((platform, encoding), offset)
    for key in _FULL + _BMP:
        at = subtables.get(key)
        if at is None:
            continue
        (fmt,) = struct.unpack_from(">H", cmap, at)
        if fmt == 12:
            return Coverage(_format12(cmap, at))
        if fmt == 4:
            return Coverage(_format4(cmap, at))
    raise ValueError("the font has no Unicode character map of format 4 or 12")
