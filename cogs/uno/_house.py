"""Every house rule a table may change (RULES.md §12, §13), declared once.

A table starts from a preset and may override single options. Each :class:`HouseRule` here is
one thing a host may change: its choices (and the ``Rules`` options each sets), the editor page
that shows it, whether ``/uno new`` and ``/uno-admin settings`` offer it as an option, the words
(catalogue keys ``house.<key>``, ``house.<key>.<choice>``) and the line ``/uno rules`` says
for each choice (``help.house.<key>.<choice>``, when it has one). Everything else is derived:
the editor's selects (``_editor.py``), the slash options' words (:func:`house_rule_options`:
``/uno new`` and ``/uno-admin settings`` name a rule declared with ``slash=`` as a parameter,
and a test holds the two to the declaration), the lobby's list of
changes (:func:`differences`), the explanation (:func:`explain`) and the reading of a choice
(:func:`changes_for`). The engine checks every combination (``Rules``); a refusal carries its
reason, said in the reader's language. ``tests/cogs/test_house.py`` proves every field of
``Rules`` is a house rule's or is listed in :data:`FIXED_FIELDS` with the reason.

Adding a house rule: one :class:`HouseRule` below (with its RULES.md id), its words in the
catalogues; nothing else (with ``slash=``: its parameter in the two commands too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from discord import app_commands

from engine import Rules
from tables import TableError

from ._i18n import known, t, t_plural


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice of a house rule: the options it sets."""

    value: str
    sets: Mapping[str, Any]

    def matches(self, rules: Rules) -> bool:
        """Does ``rules`` hold this choice?"""
        for option, wanted in self.sets.items():
            value = getattr(rules, option)
            if getattr(value, "value", value) != wanted:
                return False
        return True


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house rule (see the module docstring)."""

    key: str
    rule: str  # the RULES.md ids it implements
    page: str  # the editor page that shows it
    choices: tuple[Choice, ...]
    switch: bool = False  # on or off (its choices are "on" and "off"), in the page's switches
    #: When ``/uno new`` and ``/uno-admin settings`` offer it: the option's description.
    slash: str | None = None

    @property
    def label(self) -> str:
        return t(f"house.{self.key}")

    def choice_label(self, choice: Choice) -> str:
        if self.switch:
            return t(f"house.{choice.value}")
        return t(f"house.{self.key}.{choice.value}")

    def current(self, rules: Rules) -> Choice | None:
        """The choice ``rules`` holds (``None``: a value no choice names)."""
        return next((c for c in self.choices if c.matches(rules)), None)

    def choice(self, value: str) -> Choice | None:
        return next((c for c in self.choices if c.value == value), None)

    def is_on(self, rules: Rules) -> bool:
        """A switch: is it on?"""
        current = self.current(rules)
        return current is not None and current.value == "on"

    @property
    def options(self) -> frozenset[str]:
        """The ``Rules`` options it sets."""
        return frozenset(option for choice in self.choices for option in choice.sets)


def switch(
    key: str, rule: str, page: str, *, on: Any = True, off: Any = False, **kw: Any
) -> HouseRule:
    """A house rule that is on or off: one option, ``on`` and ``off`` its values."""
    choices = (Choice("on", {key: on}), Choice("off", {key: off}))
    return HouseRule(key, rule, page, choices, switch=True, **kw)


def one_of(key: str, rule: str, page: str, values: Sequence[Any], **kw: Any) -> HouseRule:
    """A house rule that sets one option to one of ``values``."""
    return HouseRule(key, rule, page, tuple(Choice(str(v), {key: v}) for v in values), **kw)


HOUSE_RULES: tuple[HouseRule, ...] = (
    # -- play -------------------------------------------------------------------------------
    one_of(
        "stacking",
        "R-ACT-6",
        "play",
        ("off", "deflect", "cumulative"),
        slash="Answer a Draw Two or Draw Four with another (R-ACT-6)",
    ),
    switch("jump_in", "R-ACT-7", "play", slash="Play an identical card out of turn (R-ACT-7)"),
    switch(
        "draw_until_playable",
        "R-TURN-5",
        "play",
        slash="Keep drawing until a playable card comes (R-TURN-5)",
    ),
    switch("draw_only_if_stuck", "R-TURN-4", "play"),
    switch("no_action_finish", "R-END-2", "play"),
    switch("play_to_last", "R-END-3", "play"),
    switch("uno_penalty", "R-UNO-3", "play", on="automatic", off="catch"),
    switch("false_call_penalty", "R-UNO-6", "play"),
    switch("two_decks", "R-DECK-3", "play", slash="Shuffle two decks together (R-DECK-3)"),
    switch("modern_deck", "R-DECK-4", "play"),
    switch("after_timeouts", "R-TIME-2 R-TIME-3", "play", on="remove", off="replace"),
    HouseRule(
        "challenge",
        "R-CHAL-2 R-CHAL-3",
        "play",
        tuple(
            Choice(f"{reveal}-{guilty}", {"challenge_reveal": reveal, "challenge_guilty": guilty})
            for reveal in ("challenger", "nobody")
            for guilty in ("draw", "retract")
        ),
    ),
    # -- the match --------------------------------------------------------------------------
    HouseRule(
        "scoring",
        "R-SCORE-1 R-SCORE-2 R-SCORE-3 R-SCORE-4",
        "match",
        (
            Choice("winner_takes", {"scoring": "winner_takes"}),
            Choice("penalty", {"scoring": "penalty"}),
            Choice("elimination", {"scoring": "elimination"}),
            Choice("placement", {"scoring": "placement", "play_to_last": True}),
        ),
    ),
    HouseRule(
        "length",
        "R-SCORE-5",
        "match",
        (
            *(
                Choice(f"target-{n}", {"target": n, "hands": None})
                for n in (100, 200, 300, 500, 1000)
            ),
            *(Choice(f"hands-{n}", {"hands": n, "target": None}) for n in (1, 3, 5, 10)),
        ),
    ),
    one_of(
        "teams", "R-TEAM-2", "match", (0, 2, 3, 4, 5), slash="Play in pairs or teams (R-TEAM-2)"
    ),
    HouseRule(
        "turn",
        "R-TIME-1",
        "match",
        tuple(Choice(str(n), {"turn_seconds": n}) for n in (0, 15, 30, 45, 60, 90, 120)),
    ),
    # -- the alternative rules (RULES.md §13) ----------------------------------------------
    one_of("zero_spell", "R-ALT-2", "variants", ("off", "swap", "discard_colour", "rotate")),
    switch("seven_swap", "R-ALT-3", "variants"),
    one_of("skip_variant", "R-ALT-4", "variants", ("off", "give", "all_draw")),
    switch("partner_gift", "R-ALT-5", "variants"),
    one_of("max_players", "R-ALT-8", "variants", (10, 12, 14, 16, 18, 20)),
    switch("flip_score_light", "R-FLIP-7", "variants"),
    one_of("blank_cards", "R-DECK-5", "extras", (0, 1, 2, 3, 4)),
    one_of(
        "blank_effect",
        "R-ALT-6",
        "extras",
        (
            "wild",
            "chain",
            "refill",
            "action_dump",
            "take_two",
            "redeal",
            "colour_round",
            "no_actions",
        ),
    ),
    one_of("time_limit", "R-ALT-1", "extras", (0, 15, 30, 45, 60, 90, 120)),
    one_of("time_limit_winner", "R-ALT-1", "extras", ("fewest_cards", "fewest_points")),
)

BY_KEY: dict[str, HouseRule] = {rule.key: rule for rule in HOUSE_RULES}

#: The editor's pages, in order.
PAGE_NAMES: tuple[str, ...] = ("play", "match", "variants", "extras")


def controls(page: str) -> list[str]:
    """The editor's controls on ``page``, in order: its switches together in one select
    (``on-<page>``), then each other house rule."""
    rules = [rule for rule in HOUSE_RULES if rule.page == page]
    names = [f"on-{page}"] if any(rule.switch for rule in rules) else []
    return names + [rule.key for rule in rules if not rule.switch]


def switches(page: str) -> list[HouseRule]:
    """The switches shown together on ``page``."""
    return [rule for rule in HOUSE_RULES if rule.page == page and rule.switch]


def page_of(control: str) -> str:
    """The page a control is on."""
    if control.startswith("on-"):
        return control.removeprefix("on-")
    rule = BY_KEY.get(control)
    return rule.page if rule is not None else PAGE_NAMES[0]


#: Every control name the editor's select ids may carry.
CONTROLS: tuple[str, ...] = tuple(name for page in PAGE_NAMES for name in controls(page))
#: The house rules ``/uno new`` and ``/uno-admin settings`` offer as options (the rest live in
#: the editor only: ``/uno`` must stay well under Discord's 4,000 characters in every language).
SLASH_RULES: tuple[HouseRule, ...] = tuple(rule for rule in HOUSE_RULES if rule.slash)

#: The ``Rules`` fields no house rule sets, and why: a table gets them from its preset, or
#: they are the length and time a slash option sets directly.
FIXED_FIELDS: Mapping[str, str] = {
    "random_dealer": "the online preset's dealing (R-SETUP-2)",
    "clockwise": "the tournament preset's direction (R-SETUP-4)",
    "players": "the tournament preset's fixed four seats",
    "hand_size": "seven cards, always (R-SETUP-3)",
    "victory_points": "the online preset's match points (R-SCORE-7)",
    "flip": "the UNO Flip preset's deck (R-FLIP)",
}


def changes_for(control: str, values: Sequence[str]) -> dict[str, Any]:
    """The options a choice in the editor sets: ``control`` names the select, ``values`` what
    was chosen (the switches that are on, or one choice). Raises ``KeyError`` for anything the
    editor never offered."""
    if control.startswith("on-"):
        page = switches(control.removeprefix("on-"))
        if not page:
            raise KeyError(control)
        unknown = set(values) - {rule.key for rule in page}
        if unknown:
            raise KeyError(sorted(unknown)[0])
        changes: dict[str, Any] = {}
        for rule in page:
            chosen = rule.choice("on" if rule.key in values else "off")
            assert chosen is not None
            changes.update(chosen.sets)
        return changes
    rule = BY_KEY[control]
    choice = rule.choice(values[0]) if len(values) == 1 else None
    if choice is None:
        raise KeyError(values)
    return dict(choice.sets)


def slash_options(given: Mapping[str, Any]) -> dict[str, Any]:
    """The options a command's house-rule parameters set (``None``: not given). Raises
    ``KeyError`` for a value no choice names (Discord should not have sent it)."""
    options: dict[str, Any] = {}
    for key, value in given.items():
        if value is None:
            continue
        rule = BY_KEY[key]
        text = ("on" if value else "off") if rule.switch else str(value)
        choice = rule.choice(text)
        if choice is None:
            raise KeyError(key)
        options.update(choice.sets)
    return options


def differences(rules: Rules, preset: str) -> list[str]:
    """Every house rule of ``rules`` that differs from ``preset``, in words ("Jump-in: on")."""
    base = Rules.from_preset(preset)
    lines = []
    for rule in HOUSE_RULES:
        mine, theirs = rule.current(rules), rule.current(base)
        if mine is not None and (theirs is None or mine.value != theirs.value):
            lines.append(f"{rule.label}: {rule.choice_label(mine)}")
        elif mine is None and theirs is not None:
            lines.append(f"{rule.label}: {_custom(rule, rules)}")
    return lines


def explain(rules: Rules) -> list[str]:
    """A line for every house rule whose choice changes how the game goes (``/uno rules``):
    the catalogue's ``help.house.<key>.<choice>``, for the choices that have one."""
    lines = []
    for rule in HOUSE_RULES:
        current = rule.current(rules)
        if current is None:
            continue
        key = f"help.house.{rule.key}.{current.value}"
        if known(key):
            lines.append(t(key, **{option: getattr(rules, option) for option in _NUMBERS}))
    return lines


#: The numbers a ``help.house.…`` sentence may name.
_NUMBERS = ("time_limit", "blank_cards", "max_players", "turn_seconds")


def _custom(rule: HouseRule, rules: Rules) -> str:
    """A value none of the choices names (set from a slash command, say)."""
    if rule.key == "length":
        if rules.hands is not None:
            return t_plural("summary.hands", rules.hands)
        return str(rules.target)
    if rule.key == "turn":
        return t("summary.turn_seconds", seconds=rules.turn_seconds)
    if len(rule.options) == 1:
        value = getattr(rules, next(iter(rule.options)))
        return str(getattr(value, "value", value))
    return "—"


F = TypeVar("F")


def house_rule_options(command: F) -> F:
    """Describe a command's house-rule parameters (those declared with ``slash=``) and give
    their choices, from the declaration."""
    described = app_commands.describe(**{rule.key: rule.slash or rule.key for rule in SLASH_RULES})
    choices = {
        rule.key: [
            app_commands.Choice(
                name=app_commands.locale_str(choice.value, key=f"house.{rule.key}.{choice.value}"),
                value=choice.value,
            )
            for choice in rule.choices
        ]
        for rule in SLASH_RULES
        if not rule.switch
    }
    return app_commands.choices(**choices)(described(command))


def house_options(given: Mapping[str, Any]) -> dict[str, Any]:
    """The rule options a command's house-rule parameters set (``None``: not given). A value
    Discord should not have sent is refused politely."""
    try:
        return slash_options({rule.key: given.get(rule.key) for rule in SLASH_RULES})
    except KeyError as exc:
        raise TableError("bad_option", option=str(exc.args[0])) from None
