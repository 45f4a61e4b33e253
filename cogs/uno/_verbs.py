"""Every button and select of the bot, one registry entry per verb (DESIGN.md §6.7).

A component's custom_id is ``uno:1:<verb>:<table>[:<version>][:<arg>]`` — the key is in the
id, the value is in the database. The id never carries a hand or a user's authority: the seat
always comes from the clicking user, and the engine re-validates the action.

Each :class:`Verb` says what its id looks like (a button or a select, whether it carries the
table version, the pattern of its argument) and, for a verb that stands for an engine action,
how the action is written into the id and read back (:class:`ActionCodec`). Everything else is
derived from this one tuple: the routing of clicks (``_components.py``), the message
builders, the dispatch (a dictionary lookup from verb to handler), and the custom-id tests.

Adding a button: one :class:`Verb` here, plus its handler (an action verb needs none: the
generic one applies its action).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import Action, CardFace, Colour
from engine.actions import (
    CALL_UNO,
    CHALLENGE,
    DRAW,
    PASS,
    CatchUno,
    ChooseColour,
    Gift,
    Give,
    NoGift,
    Play,
    Swap,
)
from tables import Table

from ._house import CONTROLS, PAGE_NAMES

SCHEME = "uno:1"
TABLE = r"[0-9a-z]{1,13}"
VERSION = r"[0-9]{1,9}"
COLOURS = r"[RYGBPTOV]"  # the classic four and UNO Flip's dark ones


class Kind(enum.Enum):
    """The Discord component a verb is."""

    BUTTON = "button"
    SELECT = "select"


class Place(enum.Enum):
    """Where a verb's component lives, which decides how a click is answered."""

    TABLE = "table"  # the public table message: answered with a new ephemeral message
    HAND = "hand"  # a player's ephemeral hand: the hand message itself is updated
    PERSONAL = "personal"  # someone's own ephemeral message, about no table: updated in place


@dataclass(frozen=True, slots=True)
class ActionCodec:
    """How an engine action travels in a component.

    ``offers`` says whether this verb's component stands for an action; ``encode`` writes it:
    a button's id argument (``None`` when the id has none), a select option's value;
    ``decode`` reads the actions back from the id's argument and a select's chosen values —
    one, or a play and its UNO call (R-UNO-1) — or ``()``: not an action yet, e.g. a wild
    whose colour is still to be chosen.
    """

    offers: Callable[[Action], bool]
    encode: Callable[[Action], str | None]
    decode: Callable[[str | None, Sequence[str]], tuple[Action, ...]]


@dataclass(frozen=True, slots=True)
class Verb:
    """One kind of component."""

    name: str
    kind: Kind = Kind.BUTTON
    place: Place = Place.HAND
    versioned: bool = True  # carries the table version: a click on an old state is stale
    arg: str | None = None  # the regular expression of the argument, if any
    action: ActionCodec | None = None  # the engine action it stands for, if any
    # How it looks: the catalogue key of its label and its style (primary, secondary,
    # success, danger). Discord lays the components out in the order they are added.
    label: str = ""
    style: str = "secondary"
    #: A button of the table message: when the table shows it (``None``: it is not one).
    shown: Callable[[Table], bool] | None = None

    @property
    def pattern(self) -> str:
        """The id's regular expression, without groups (discord.py fullmatches it)."""
        parts = [SCHEME, re.escape(self.name), TABLE]
        if self.versioned:
            parts.append(VERSION)
        if self.arg is not None:
            parts.append(f"(?:{self.arg})")
        return ":".join(parts)


def _no_arg(action: Action) -> None:
    return None


def _fixed(action: Action) -> Callable[[str | None, Sequence[str]], tuple[Action, ...]]:
    return lambda arg, values: (action,)


def _is(cls: type[Action]) -> Callable[[Action], bool]:
    return lambda action: type(action) is cls


def _catch(arg: str | None, values: Sequence[str]) -> tuple[Action, ...]:
    return (CatchUno(int(arg or 0)),)


def _encode_catch(action: Action) -> str:
    assert isinstance(action, CatchUno)
    return str(action.target)


def _choose(arg: str | None, values: Sequence[str]) -> tuple[Action, ...]:
    return (ChooseColour(Colour(arg)),)


def _encode_choose(action: Action) -> str:
    assert isinstance(action, ChooseColour)
    return str(action.colour.value)


def _encode_face(action: Action) -> str:
    assert isinstance(action, Play)
    return action.face.notation


def _encode_target(action: Action) -> str:
    assert isinstance(action, Play)
    assert action.target is not None
    return str(action.target)


#: Marks a play that also calls UNO (R-UNO-1): a select value ``R7+uno``, an id ``W4=B+uno``.
WITH_UNO = "+uno"


def with_uno(text: str) -> tuple[str, bool]:
    """``text`` without the UNO mark, and whether it had one."""
    return (text.removesuffix(WITH_UNO), True) if text.endswith(WITH_UNO) else (text, False)


def _and_uno(play: Play, uno: bool) -> tuple[Action, ...]:
    return (play, CALL_UNO) if uno else (play,)


def _card_from_select(arg: str | None, values: Sequence[str]) -> tuple[Action, ...]:
    """A picked card (and perhaps its UNO call): played at once; ``()`` for a wild, whose
    colour comes next. A value the select never offered raises ``ValueError``."""
    if not values:
        return ()
    notation, uno = with_uno(values[0])
    face = CardFace.parse(notation)
    return () if face.is_wild else _and_uno(Play(face), uno)


def _wild_colour(arg: str | None, values: Sequence[str]) -> tuple[Action, ...]:
    """A wild and its colour (and perhaps the UNO call); Swap Hands still needs its
    opponent (``()``)."""
    text, uno = with_uno(arg or "")
    face_text, _, colour = text.partition("=")
    face = CardFace.parse(face_text)
    return () if face.notation == "WH" else _and_uno(Play(face, Colour(colour)), uno)


def _swap(arg: str | None, values: Sequence[str]) -> tuple[Action, ...]:
    colour = (arg or "").partition("=")[2]
    if not values or not values[0].isdigit():
        return ()
    return (Play(CardFace.parse("WH"), Colour(colour), int(values[0])),)


def _encode_wild(action: Action) -> str | None:
    assert isinstance(action, Play)
    assert action.colour is not None
    return f"{action.face.notation}={action.colour.value}"


def _card_from_button(arg: str | None, values: Sequence[str]) -> tuple[Action, ...]:
    """A card button: the card (and perhaps its UNO call), played at once."""
    notation, uno = with_uno(arg or "")
    face = CardFace.parse(notation)
    return () if face.is_wild else _and_uno(Play(face), uno)


def _exchange(arg: str | None, values: Sequence[str]) -> tuple[Action, ...]:
    """The opponent to swap hands with (R-ALT-2, R-ALT-3), the chosen value."""
    return (Swap(int(values[0])),) if values and values[0].isdigit() else ()


def _encode_target_seat(action: Action) -> str:
    assert isinstance(action, Swap | Give)
    return str(action.target)


def _encode_given(action: Action) -> str:
    assert isinstance(action, Give | Gift)
    return action.face.notation


def _give_to(arg: str | None, values: Sequence[str]) -> tuple[Action, ...]:
    """A Skip's gift (R-ALT-4): the card in the id, the opponent the chosen value."""
    if not values or not values[0].isdigit():
        return ()
    return (Give(CardFace.parse(arg or ""), int(values[0])),)


def _gift(arg: str | None, values: Sequence[str]) -> tuple[Action, ...]:
    """A partner's gift (R-ALT-5): the chosen card."""
    return (Gift(CardFace.parse(values[0])),) if values else ()


def _no_decision(arg: str | None, values: Sequence[str]) -> tuple[Action, ...]:
    return ()  # a step: what comes next decides


def _is_plain_play(action: Action) -> bool:
    return type(action) is Play and not action.face.is_wild


def _is_wild_play(action: Action) -> bool:
    return type(action) is Play and action.face.is_wild and action.target is None


def _is_swap(action: Action) -> bool:
    return type(action) is Play and action.target is not None


def _in_lobby(table: Table) -> bool:
    return table.status == "lobby"


def _in_a_hand(table: Table) -> bool:
    return table.status == "playing" and table.match is not None and not table.match.hand.is_over


def _between_hands(table: Table) -> bool:
    return table.status == "playing" and table.match is not None and table.match.hand.is_over


def _finished(table: Table) -> bool:
    return table.status == "finished"


def _table_button(
    name: str, label: str, shown: Callable[[Table], bool], style: str = "secondary"
) -> Verb:
    """A button of the public table message (no version: it does not depend on the state
    shown), in the order the message shows them."""
    return Verb(name, place=Place.TABLE, versioned=False, label=label, style=style, shown=shown)


VERBS: tuple[Verb, ...] = (
    # The public table message: its buttons, each shown when the table is in its state.
    _table_button("join", "button.join", _in_lobby, style="success"),
    _table_button("leave", "button.leave", _in_lobby),
    _table_button("start", "button.start", _in_lobby, style="primary"),
    _table_button("addbot", "button.addbot", _in_lobby),
    _table_button("rules", "button.rules", _in_lobby),  # the host's rules editor
    _table_button("next", "button.next_hand", _between_hands, style="primary"),
    _table_button("hand", "button.hand", _in_a_hand, style="primary"),
    _table_button("picture", "button.picture", _in_a_hand),
    _table_button("again", "button.again", _finished, style="success"),
    Verb("team", kind=Kind.SELECT, place=Place.TABLE, versioned=False, label="select.team"),
    # The lobby's rules editor (ephemeral, the host's): a control, and its page buttons.
    Verb("rule", kind=Kind.SELECT, versioned=False, arg="|".join(CONTROLS)),
    Verb("ruleset", versioned=False, arg="|".join((*PAGE_NAMES, "reset"))),
    # /uno forget-me's confirmation: the "table" part holds the asker's id, in base 36.
    Verb("forget", place=Place.PERSONAL, versioned=False, arg="yes|no"),
    # A hand's actions: the hand message offers a component for each legal action.
    Verb(
        "pick",
        kind=Kind.SELECT,
        arg=r"[0-9]{1,2}",  # the page of the select; the card is the chosen value
        action=ActionCodec(_is_plain_play, _encode_face, _card_from_select),
        label="select.play",
    ),
    Verb(
        "play",
        arg=r"[A-Z0-9]{1,3}(?:\+uno)?",  # one click a card: its face, perhaps its UNO call
        action=ActionCodec(_is_plain_play, _encode_face, _card_from_button),
    ),
    Verb(
        "draw",
        action=ActionCodec(_is(type(DRAW)), _no_arg, _fixed(DRAW)),
        label="button.draw",
    ),
    Verb(
        "pass",
        action=ActionCodec(_is(type(PASS)), _no_arg, _fixed(PASS)),
        label="button.pass",
    ),
    Verb(
        "challenge",
        action=ActionCodec(_is(type(CHALLENGE)), _no_arg, _fixed(CHALLENGE)),
        label="button.challenge",
        style="danger",
    ),
    Verb(
        "uno",
        action=ActionCodec(_is(type(CALL_UNO)), _no_arg, _fixed(CALL_UNO)),
        label="button.uno",
        style="danger",
    ),
    Verb(
        "catch",
        arg=r"[0-9]",  # a seat
        action=ActionCodec(_is(CatchUno), _encode_catch, _catch),
        label="button.catch",
        style="danger",
    ),
    Verb(
        "choose",
        arg=COLOURS,  # the colour of a Wild turned up at the start (R-SETUP-5)
        action=ActionCodec(_is(ChooseColour), _encode_choose, _choose),
    ),
    Verb(
        "colour",
        arg=rf"(?:W|W4|WH|W2|WC|WX)={COLOURS}(?:\+uno)?",  # a wild, its colour, perhaps UNO
        action=ActionCodec(_is_wild_play, _encode_wild, _wild_colour),
    ),
    Verb(
        "swap",
        kind=Kind.SELECT,
        arg=r"WH=[RYGB]",  # Swap Hands and its colour; the opponent is the chosen value
        action=ActionCodec(_is_swap, _encode_target, _swap),
        label="select.swap",
    ),
    Verb("page", arg=r"[0-9]{1,2}"),  # another page of the card select
    # The alternative rules' choices (RULES.md §13).
    Verb(
        "exchange",
        kind=Kind.SELECT,  # the opponent to swap hands with is the chosen value (R-ALT-2/3)
        action=ActionCodec(_is(Swap), _encode_target_seat, _exchange),
        label="select.exchange",
    ),
    Verb(
        "give",
        kind=Kind.SELECT,  # the card a Skip gives away; its opponent next (R-ALT-4)
        action=ActionCodec(_is(Give), _encode_given, _no_decision),
        label="select.give",
    ),
    Verb(
        "giveto",
        kind=Kind.SELECT,
        arg=r"[A-Z0-9]{1,3}",  # the card given; the opponent is the chosen value
        action=ActionCodec(lambda action: False, _encode_target_seat, _give_to),
        label="select.giveto",
    ),
    Verb(
        "gift",
        kind=Kind.SELECT,  # the card a partner gives (R-ALT-5)
        action=ActionCodec(_is(Gift), _encode_given, _gift),
        label="select.gift",
    ),
    Verb(
        "nogift",
        action=ActionCodec(_is(NoGift), _no_arg, _fixed(NoGift())),
        label="button.nogift",
    ),
)

BY_NAME: dict[str, Verb] = {verb.name: verb for verb in VERBS}


def base36(number: int) -> str:
    """A Discord id in the 13 characters an id's "table" part allows."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = digits[digit] + text
        if not number:
            return text


_COMPILED = {verb.name: re.compile(verb.pattern) for verb in VERBS}


@dataclass(frozen=True, slots=True)
class CustomId:
    """A decoded custom_id."""

    verb: str
    table: str
    version: int | None = None
    arg: str | None = None

    def encode(self) -> str:
        """The custom_id text (at most 100 characters); ``ValueError`` outside the grammar."""
        parts = [SCHEME, self.verb, self.table]
        if self.version is not None:
            parts.append(str(self.version))
        if self.arg is not None:
            parts.append(self.arg)
        text = ":".join(parts)
        if decode(text) != self:
            raise ValueError(f"not a valid custom_id: {text!r}")
        return text


def decode(custom_id: str) -> CustomId | None:
    """Parse a custom_id; ``None`` when it is not one of ours in the current scheme."""
    if not custom_id.startswith(SCHEME + ":"):
        return None
    name = custom_id[len(SCHEME) + 1 :].partition(":")[0]
    pattern = _COMPILED.get(name)
    if pattern is None or pattern.fullmatch(custom_id) is None:
        return None
    verb = BY_NAME[name]
    fields = custom_id.split(":")[3:]
    table = fields.pop(0)
    version = int(fields.pop(0)) if verb.versioned else None
    arg = ":".join(fields) if verb.arg is not None else None
    return CustomId(name, table, version, arg)


def template(kind: Kind) -> str:
    """The grammar of every verb of ``kind`` as one regular expression (the tests prove the
    kinds' grammars disjoint, so an id names its kind of component)."""
    return "(?:" + "|".join(v.pattern for v in VERBS if v.kind is kind) + ")"


def verb_for(action: Action) -> Verb | None:
    """The verb whose component offers ``action`` (``None``: no component does)."""
    for verb in VERBS:
        if verb.action is not None and verb.action.offers(action):
            return verb
    return None


def actions_of(cid: CustomId, values: Sequence[str] = ()) -> tuple[Action, ...]:
    """The engine actions a click on ``cid`` (with a select's ``values``) stands for: ``()``
    when it is not an action (yet). Raises ``ValueError`` for a value never offered."""
    verb = BY_NAME[cid.verb]
    if verb.action is None:
        return ()
    return verb.action.decode(cid.arg, values)
