"""What a person types: a card or a colour, by notation or by name in any of our languages.

``/uno play card:`` takes ``R7``, ``red 7`` or ``rosso 7``; ``colour:`` takes ``B``, ``blue`` or
``blu``. A name the table's deck does not play now is refused in words.
"""

from __future__ import annotations

from engine import PRESETS, CardFace, Colour, Rules, classic_deck
from engine.actions import Play
from tables import Table, TableError

from ._i18n import LANGUAGES, speaking
from ._present import card_name, colour_name


def _every_face() -> set[CardFace]:
    """Every face of every deck a preset (or the modern deck, or blank cards) plays with,
    both sides."""
    decks = [
        classic_deck(modern_deck=True, blank_cards=1),
        *(Rules.from_preset(p).deck() for p in PRESETS),
    ]
    return {face for deck in decks for side in deck.sides for face in side}


def _card_lookup() -> dict[str, str]:
    """Every way a user may type a card: notation or its name in any language, any case."""
    names: dict[str, str] = {}
    for face in _every_face():
        names[face.notation.lower()] = face.notation
        for language in LANGUAGES:
            with speaking(language):
                names[card_name(face).lower()] = face.notation
    return names


CARD_NAMES = _card_lookup()
#: Colours a wild may name: the classic four, then UNO Flip's dark ones.
ALL_COLOURS = [*Colour, *sorted({f.colour for f in _every_face() if f.colour} - {*Colour}, key=str)]


def _colour_lookup() -> dict[str, Colour]:
    """Every way a user may give a colour: its letter or its name in any language."""
    names: dict[str, Colour] = {}
    for colour in ALL_COLOURS:
        names[colour.value.lower()] = colour
        for language in LANGUAGES:
            with speaking(language):
                names[colour_name(colour).lower()] = colour
    return names


COLOUR_NAMES = _colour_lookup()


def colours_in_play(table: Table | None) -> tuple[Colour, ...]:
    """The colours a wild may name at ``table`` now (UNO Flip: the side in play's)."""
    if table is None or table.match is None:
        return tuple(Colour)
    state = table.match.hand
    return state.deck.colours[state.side]


def named_colour(table: Table, text: str) -> Colour:
    """The colour ``text`` names, if the table's deck plays it now; refused in words."""
    colour = COLOUR_NAMES.get(text.strip().lower())
    if colour is None:
        raise TableError("unknown_colour", colour=text[:20])
    if colour not in colours_in_play(table):
        raise TableError("colour_not_here", colour=colour_name(colour))
    return colour


def typed_play(table: Table, card: str, colour: str | None, target: int | None) -> Play:
    """The play a user typed: a card by notation or name (any language), its colour."""
    notation = CARD_NAMES.get(card.strip().lower())
    if notation is None:
        raise TableError("unknown_card", card=card[:40])
    face = CardFace.parse(notation)
    named = named_colour(table, colour) if colour is not None else None
    if named is not None and not face.is_wild:
        raise TableError("colour_with_number", card=card_name(face))
    if face.is_wild and named is None:
        raise TableError("colour_needed", card=card_name(face))
    return Play(face, named, target)
