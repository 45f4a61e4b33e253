"""What a seat can do, and the action notation (see docs/notation.md).

=============  =====================================================  ==================
action         meaning                                                notation
=============  =====================================================  ==================
Play           play a card of this face (out of turn: a jump-in)      ``R7``, ``W4=B``,
                                                                      ``WH=G@2``
Draw           draw a card, or take the pending penalty               ``draw``
Pass           keep the card just drawn                               ``pass``
ChooseColour   name the colour of a Wild turned up at the start       ``colour=Y``
Challenge      challenge the Wild Draw Four just played               ``challenge``
CallUno        call "UNO"                                             ``uno``
CatchUno       catch a player who did not call                        ``catch@3``
Swap           swap hands with a seat after a 0 or 7 spell (R-ALT-2/3)  ``swap@2``
Give           give a card to a seat after a Skip (R-ALT-4)           ``give=R5@2``
Gift           give a partner who cannot play a card (R-ALT-5)        ``gift=R5``
NoGift         give the partner nothing (R-ALT-5)                     ``nogift``
=============  =====================================================  ==================

>>> parse_action("W4=B")
Play(face=CardFace.parse('W4'), colour=<Colour.BLUE: 'B'>, target=None)
>>> str(parse_action("catch@3"))
'catch@3'
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CardFace, Colour
from .errors import InvalidActionError


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card of ``face``. Wilds name a ``colour``; Swap Hands also names a ``target``."""

    face: CardFace
    colour: Colour | None = None
    target: int | None = None

    def __str__(self) -> str:
        text = self.face.notation
        if self.colour is not None:
            text += "=" + self.colour.value
        if self.target is not None:
            text += f"@{self.target}"
        return text


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card (R-TURN-4), or accept the pending penalty (R-ACT-1, R-ACT-5, R-ACT-6)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    """Keep the playable card just drawn and end the turn (R-TURN-5); in a blank card's
    chain, stop playing (R-ALT-6)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class ChooseColour:
    """Name the colour when the start card is a Wild (R-SETUP-5)."""

    colour: Colour

    def __str__(self) -> str:
        return f"colour={self.colour.value}"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the Wild Draw Four that hit you (R-CHAL-1)."""

    def __str__(self) -> str:
        return "challenge"


@dataclass(frozen=True, slots=True)
class CallUno:
    """Call "UNO" (R-UNO-1)."""

    def __str__(self) -> str:
        return "uno"


@dataclass(frozen=True, slots=True)
class CatchUno:
    """Catch ``target``, who has one card and did not call (R-UNO-2)."""

    target: int

    def __str__(self) -> str:
        return f"catch@{self.target}"


@dataclass(frozen=True, slots=True)
class Swap:
    """Swap hands with ``target``: the spell of a 0 (R-ALT-2 ``swap``) or a 7 (R-ALT-3)."""

    target: int

    def __str__(self) -> str:
        return f"swap@{self.target}"


@dataclass(frozen=True, slots=True)
class Give:
    """Give a card of ``face`` to ``target`` after playing a Skip (R-ALT-4 ``give``)."""

    face: CardFace
    target: int

    def __str__(self) -> str:
        return f"give={self.face.notation}@{self.target}"


@dataclass(frozen=True, slots=True)
class Gift:
    """Give a card of ``face`` to the partner who cannot play (R-ALT-5)."""

    face: CardFace

    def __str__(self) -> str:
        return f"gift={self.face.notation}"


@dataclass(frozen=True, slots=True)
class NoGift:
    """Give the partner who cannot play nothing: they draw as usual (R-ALT-5)."""

    def __str__(self) -> str:
        return "nogift"


Action = (
    Play | Draw | Pass | ChooseColour | Challenge | CallUno | CatchUno | Swap | Give | Gift | NoGift
)
#: The actions of the alternative rules (RULES.md §13): legal only in their own phases.
CHOICE_ACTIONS = (Swap, Give, Gift, NoGift)
#: Every action class.
ACTION_TYPES = (Play, Draw, Pass, ChooseColour, Challenge, CallUno, CatchUno, *CHOICE_ACTIONS)

DRAW = Draw()
PASS = Pass()
CHALLENGE = Challenge()
CALL_UNO = CallUno()
NO_GIFT = NoGift()

_WORDS: dict[str, Action] = {
    "draw": DRAW,
    "pass": PASS,
    "challenge": CHALLENGE,
    "uno": CALL_UNO,
    "nogift": NO_GIFT,
}


def _seat(text: str, whole: str) -> int:
    if not text.isdigit():
        raise InvalidActionError(f"not a seat number in {whole!r}")
    return int(text)


def _colour(text: str, whole: str) -> Colour:
    try:
        return Colour.parse(text)
    except ValueError:
        raise InvalidActionError(f"not a colour in {whole!r}") from None


def _face(text: str, whole: str) -> CardFace:
    try:
        return CardFace.parse(text)
    except ValueError:
        raise InvalidActionError(f"not a card in {whole!r}") from None


def parse_action(text: str) -> Action:
    """Parse the action notation; raise :class:`InvalidActionError` if it is malformed."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is written as text, not {type(text).__name__}")
    raw = text.strip()
    word = raw.lower()
    if word in _WORDS:
        return _WORDS[word]
    if word.startswith(("colour=", "color=")):
        return ChooseColour(_colour(raw.partition("=")[2], raw))
    if word.startswith("catch@"):
        return CatchUno(_seat(raw.partition("@")[2], raw))
    if word.startswith("swap@"):
        return Swap(_seat(raw.partition("@")[2], raw))
    if word.startswith("give="):
        face_text, at, target_text = raw.partition("=")[2].partition("@")
        if not at:
            raise InvalidActionError(f"give names a seat: {raw!r}")
        return Give(_face(face_text, raw), _seat(target_text, raw))
    if word.startswith("gift="):
        return Gift(_face(raw.partition("=")[2], raw))
    body, at, target_text = raw.partition("@")
    face_text, eq, colour_text = body.partition("=")
    try:
        face = CardFace.parse(face_text)
    except ValueError:
        raise InvalidActionError(f"not an action: {raw!r}") from None
    colour = _colour(colour_text, raw) if eq else None
    target = _seat(target_text, raw) if at else None
    return Play(face, colour, target)
