"""Card faces as Discord application emojis: small square pictures that read at 22 pixels.

Discord shows an emoji 22 px tall in text, up to 48 px in a message made of emojis alone,
and about 20 px on a button; it accepts images up to 256 KB and recommends 128 × 128. So a
card emoji is not a card reduced (a 2:3 card would be 15 px wide, its number 6 px): it is a
rounded *tile* the size of the whole square, in the card's colour, with one big white-edged
glyph on the card's tilted oval, and the colour's symbol (:mod:`renders.theme`) in two
corners for players who cannot tell the fills apart.

Each side of UNO Flip keeps its own look, as on the cards (:mod:`renders.card`): a light
face has a white border and a white oval, a dark face a black border and a black oval with
its glyph in a lighter tint of its colour, so a pink 5 and a red 5 differ at a glance even
at 22 px. Wilds are black (the dark Wild violet) around the four-colour oval of their side.
A blank wild card (R-DECK-5, notation ``WX``) is the wild with its oval left white and
empty: the four colours round it say "wild", the empty middle says "blank".

:func:`emoji_set` lists every emoji the bot needs, with a stable name and a fingerprint of
what its picture is drawn from (:func:`art_fingerprint`: the code that draws it, with its
theme and sizes, and the Pillow and FreeType that draw its digits), so the bot finds its
emojis again by name, and replaces them when their art changed, without drawing any: the
list costs no pixels, and a picture is drawn only when it must be uploaded
(:attr:`EmojiArt.png`). Pictures are deterministic: the same Pillow gives the same bytes on
every run.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import PIL
from PIL import Image, ImageChops, ImageDraw, features

from engine.cards import ALL_COLOURS, CardFace, Kind, classic_deck, flip_deck

from . import theme
from .assets import png_bytes
from .card import (
    BLANK,
    OVAL_TILT,
    _back_mark,
    _icon_mask,
    _oval,
    _stamp,
    _text_mask,
    _wild_oval,
    blank_middle,
    is_dark,
)
from .card import symbol_points as _symbol_points

#: Side of the square emoji, in pixels (Discord's recommended emoji size).
EMOJI_SIZE = 128
#: Discord refuses emoji images larger than this many bytes.
EMOJI_MAX_BYTES = 256 * 1024
#: Prefix of every emoji name, so the bot's emojis sort together and never clash.
PREFIX = "uno_"
#: A valid Discord emoji name: 2-32 letters, digits and underscores.
NAME_PATTERN = re.compile(r"[A-Za-z0-9_]{2,32}")
#: Hex digits of :func:`art_fingerprint` in an emoji's name.
FINGERPRINT_HEX = 8
#: The modules whose code draws an emoji (with the sizes and colours they hold): a change in
#: any of them may change the pictures, so it changes every emoji's name.
DRAWN_BY = ("renders.emoji", "renders.card", "renders.theme", "renders.assets")

#: The tilted oval's half-axes, in hundredths of the tile: narrow enough that the card's
#: colour shows on both sides of it, which is what reads first at 22 px.
_OVAL_A, _OVAL_B = 27.0, 50.0
_SS = 2  # drawn this many times larger, then reduced: smooth edges
_COMPRESS = 6  # zlib's default: level 9 took 4.6 times its CPU for 2 % fewer bytes

Face = CardFace | str | None


@dataclass(frozen=True, slots=True)
class EmojiArt:
    """One emoji the bot needs: its Discord name, what it shows, and the fingerprint of what
    its picture is drawn from.

    ``face`` is the face's notation (``"R7"``, ``"WX"`` for a blank card) or ``None`` for
    the card back; ``side`` is the UNO Flip side it is seen on (0 light, 1 dark; it only
    changes the look of a Wild). ``fingerprint`` is :func:`art_fingerprint`: when it differs
    from the one in the name of the emoji the bot uploaded, the art may have changed.
    """

    name: str
    face: str | None
    side: int
    fingerprint: str

    @property
    def versioned_name(self) -> str:
        """``name`` and the fingerprint's first :data:`FINGERPRINT_HEX` hex digits
        (``uno_r7_1a2b3c4d``), still a valid emoji name: a bot that keeps no record finds its
        emoji by this name, and reads which art it shows from the name itself
        (``name.rpartition("_")``)."""
        return f"{self.name}_{self.fingerprint[:FINGERPRINT_HEX]}"

    @property
    def png(self) -> bytes:
        """The picture, drawn now (and cached): only an emoji to upload needs it."""
        return render_card_emoji(self.face, self.side)


def _notation(face: Face) -> str | None:
    return face.notation if isinstance(face, CardFace) else face


def _parse(notation: str) -> CardFace | None:
    """The engine's face for ``notation``; ``None`` for a blank card (drawn by notation, so it
    works whether or not this engine knows blank cards)."""
    if notation.strip().upper() == BLANK:
        return None
    return CardFace.parse(notation)


def _dark(notation: str, side: int) -> bool:
    face = _parse(notation)
    return side == 1 if face is None else is_dark(face, side)


def emoji_name(face: Face, side: int = 0) -> str:
    """The emoji name of ``face`` (a face, its notation, or ``None`` for the back) seen on
    ``side``: ``uno_`` and the notation in lower case (``uno_r7``, ``uno_w4``, ``uno_pse`` for
    pink Skip Everyone); a Wild seen on the dark side adds ``_dark``.

    >>> emoji_name("R7"), emoji_name("W", 1), emoji_name("TSE", 1), emoji_name(None)
    ('uno_r7', 'uno_w_dark', 'uno_tse', 'uno_back')
    """
    notation = _notation(face)
    if notation is None:
        return PREFIX + "back"
    key = notation.strip().upper()
    parsed = _parse(key)
    # Only the wilds whose look follows the side (see renders.card.is_dark) get a suffix.
    follows_side = parsed is None or (
        parsed.colour is None and parsed.kind not in (Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_COLOUR)
    )
    suffix = "_dark" if follows_side and side == 1 else ""
    return PREFIX + key.lower() + suffix


# -- drawing ---------------------------------------------------------------------------------


def _tile(s: int, body: theme.RGB, border: theme.RGB) -> tuple[Image.Image, float]:
    """A rounded square ``s`` wide: a hairline edge, the ``border``, the ``body`` inside."""
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    u = s / 100
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=16 * u, fill=theme.EDGE)
    d.rounded_rectangle((u, u, s - 1 - u, s - 1 - u), radius=15 * u, fill=border)
    inset = 7 * u
    d.rounded_rectangle((inset, inset, s - 1 - inset, s - 1 - inset), radius=10 * u, fill=body)
    return image, u


def glyph_colours(face: CardFace, dark: bool) -> tuple[theme.RGB, theme.RGB, theme.RGB]:
    """``(glyph fill, glyph outline, oval)`` of a coloured face's emoji: light faces as the
    cards, the colour outlined in ink on white; dark faces a tint of the colour outlined in
    white on black (the tests measure their contrast)."""
    assert face.colour is not None
    fill = theme.fill(face.colour)
    if dark:
        return theme.dark_glyph(face.colour), theme.WHITE, theme.INK
    return fill, theme.INK, theme.WHITE


def _corner_symbols(image: Image.Image, face: CardFace, u: float) -> None:
    """The colour's symbol in the top-left corner and, turned over, the bottom-right."""
    assert face.colour is not None
    mask = Image.new("L", image.size, 0)
    points = _symbol_points(theme.symbol(face.colour), 19 * u, 19 * u, 7.5 * u)
    ImageDraw.Draw(mask).polygon(points, fill=255)
    mask = ImageChops.lighter(mask, mask.transpose(Image.Transpose.ROTATE_180))
    _stamp(image, mask, theme.WHITE, theme.INK, 2.2 * u)


def _glyph(face: CardFace, size: tuple[int, int], c: float, u: float) -> Image.Image | None:
    """The big symbol of ``face`` (a number, ``+2``, or an action icon), about half the tile."""
    if face.kind is Kind.NUMBER:
        mask = _text_mask(size, str(face.number), (c, c + 2 * u), round(74 * u), 2.4 * u)
        bbox = mask.getbbox()
        if face.number in (6, 9) and bbox is not None:  # underlined: a 6 is never a 9
            inset = (bbox[2] - bbox[0]) * 0.14
            top = bbox[3] + 2.5 * u
            ImageDraw.Draw(mask).rectangle(
                (bbox[0] + inset, top, bbox[2] - 1 - inset, top + 5 * u), fill=255
            )
        return mask
    return _icon_mask(face, size, c, c, 34 * u, corner=False)


def _draw_coloured(face: CardFace, s: int, dark: bool) -> Image.Image:
    assert face.colour is not None
    body = theme.fill(face.colour)
    image, u = _tile(s, body, theme.INK if dark else theme.WHITE)
    c = s / 2
    fill, outline, oval = glyph_colours(face, dark)
    ImageDraw.Draw(image).polygon(_oval(c, c, _OVAL_A * u, _OVAL_B * u, OVAL_TILT), fill=oval)
    _corner_symbols(image, face, u)
    mask = _glyph(face, image.size, c, u)
    if mask is not None:
        _stamp(image, mask, fill, outline, 3.6 * u, shadow=2.4 * u)
    return image


def _draw_wild(notation: str, s: int, dark: bool) -> Image.Image:
    image, u = _tile(s, theme.NIGHT if dark else theme.INK, theme.INK if dark else theme.WHITE)
    c = s / 2
    quadrants = theme.DARK_WILD_QUADRANTS if dark else theme.WILD_QUADRANTS
    face = _parse(notation)
    _wild_oval(
        image, c, c, _OVAL_A * u, _OVAL_B * u, u, symbols=face is not None, quadrants=quadrants
    )
    if face is None:
        blank_middle(image, c, c, _OVAL_A * u, _OVAL_B * u, u)
        return image
    mask = _glyph(face, image.size, c, u)
    if mask is not None:
        _stamp(image, mask, theme.WHITE, theme.INK, 3.6 * u, shadow=2.4 * u)
    return image


def _draw_back(s: int) -> Image.Image:
    image, u = _tile(s, theme.BACK, theme.WHITE)
    _back_mark(image, u, oval=(36, 52), text=(40, 2.0, 2.6))
    return image


@lru_cache(maxsize=256)
def _emoji_png(notation: str | None, dark: bool) -> bytes:
    s = EMOJI_SIZE * _SS
    if notation is None:
        art = _draw_back(s)
    else:
        face = _parse(notation)
        if face is None or face.colour is None:
            art = _draw_wild(notation, s, dark)
        else:
            art = _draw_coloured(face, s, dark)
    small = art.resize((EMOJI_SIZE, EMOJI_SIZE), Image.Resampling.LANCZOS)
    return png_bytes(small, _COMPRESS)


def render_card_emoji(face: Face, side: int = 0) -> bytes:
    """``face`` (a face, its notation such as ``"R7"`` or ``"WX"``, or ``None`` for the card
    back) as a 128 × 128 RGBA PNG for a Discord emoji, seen on UNO Flip ``side`` (0 light,
    1 dark: it decides the look of a Wild, as in :func:`renders.card.render_card`).

    Cached; deterministic. Raises ``ValueError`` for a notation that is not a card.
    """
    if side not in (0, 1):
        raise ValueError(f"no side {side!r}: 0 (light) or 1 (dark)")
    notation = _notation(face)
    if notation is None:
        return _emoji_png(None, False)
    key = notation.strip().upper()
    return _emoji_png(key, _dark(key, side))


def _order(notation: str) -> tuple[int, int, int, int]:
    """Sort key within a group: colour by colour (wilds last), numbers, then actions."""
    face = _parse(notation)
    if face is None:  # the blank card, after the other wilds
        return (len(ALL_COLOURS), len(Kind), 0, 0)
    colour = len(ALL_COLOURS) if face.colour is None else ALL_COLOURS.index(face.colour)
    return (colour, list(Kind).index(face.kind), face.number or 0, 0)


def _needed() -> list[tuple[str | None, int]]:
    """Every ``(notation, side)`` whose emoji the bot may show, one per distinct picture: the
    classic and modern faces and the blank card, then UNO Flip's light side, its dark side,
    and the back."""
    groups = [
        [(f.notation, 0) for f in classic_deck(modern_deck=True).sides[0]] + [(BLANK, 0)],
        [(f.notation, 0) for f in flip_deck().sides[0]],
        [(f.notation, 1) for f in flip_deck().sides[1]],
    ]
    seen: dict[str, tuple[str | None, int]] = {}
    for group in groups:
        for notation, side in sorted(set(group), key=lambda item: _order(item[0])):
            seen.setdefault(emoji_name(notation, side), (notation, side))
    seen.setdefault(emoji_name(None), (None, 0))
    return list(seen.values())


@lru_cache(maxsize=1)
def art_fingerprint() -> str:
    """A digest of everything an emoji's picture is drawn from: the code of :data:`DRAWN_BY`
    (the drawing, its sizes, colours and PNG settings), and the Pillow and FreeType that draw
    it (the digits are Pillow's own font). Equal fingerprints, equal pictures; it costs
    reading four source files, not drawing 120 pictures (0.9 s of CPU)."""
    parts = [f"Pillow {PIL.__version__}", f"FreeType {features.version('freetype2')}"]
    for module in DRAWN_BY:
        source = Path(importlib.import_module(module).__file__ or "").read_bytes()
        parts.append(source.replace(b"\r\n", b"\n").decode("utf-8"))
    return hashlib.blake2b("\0".join(parts).encode("utf-8"), digest_size=16).hexdigest()


@lru_cache(maxsize=1)
def emoji_set() -> tuple[EmojiArt, ...]:
    """Every emoji the bot needs, in a fixed order: the classic and modern faces and the blank
    card, the light side of UNO Flip, its dark side (with the dark Wild), and the card back.

    Names are unique and valid for Discord (:data:`NAME_PATTERN`), the same on every run
    while the art's inputs are (:func:`art_fingerprint`). Nothing is drawn: an emoji's
    :attr:`~EmojiArt.png` is drawn when it is read.
    """
    fingerprint = art_fingerprint()
    return tuple(
        EmojiArt(emoji_name(notation, side), notation, side, fingerprint)
        for notation, side in _needed()
    )
