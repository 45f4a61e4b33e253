"""The house rules a table may change (RULES.md §12).

A table is created from a preset and may override single options. This module lists the
options a host may change — as switches (on or off) and as settings with a few choices — with
the options each choice sets, so the editor's selects, the ``/uno new`` and ``/uno-admin
settings`` options and the lobby's list of changes all come from one place. The engine checks
every combination (``Rules``); a refusal carries its reason, said in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Rules

from ._i18n import t


@dataclass(frozen=True, slots=True)
class Switch:
    """An option that is on or off: ``on`` and ``off`` are the values it takes."""

    option: str
    on: Any = True
    off: Any = False

    @property
    def label(self) -> str:
        return t(f"house.{self.option}")

    def is_on(self, rules: Rules) -> bool:
        value = getattr(rules, self.option)
        return bool(getattr(value, "value", value) == self.on)


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice of a :class:`Setting`: the options it sets (``None``: the preset's)."""

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
class Setting:
    """An option (or a few together) with a handful of choices, offered in one select."""

    key: str
    choices: tuple[Choice, ...]
    fallback: str = field(default="")  # the label when no choice matches (a custom value)

    def current(self, rules: Rules) -> Choice | None:
        return next((c for c in self.choices if c.matches(rules)), None)

    def label(self, choice: Choice) -> str:
        return t(f"house.{self.key}.{choice.value}")

    def choice(self, value: str) -> Choice | None:
        return next((c for c in self.choices if c.value == value), None)


SWITCHES: tuple[Switch, ...] = (
    Switch("jump_in"),  # R-ACT-7
    Switch("draw_until_playable"),  # R-TURN-5
    Switch("draw_only_if_stuck"),  # R-TURN-4
    Switch("no_action_finish"),  # R-END-2
    Switch("play_to_last"),  # R-END-3
    Switch("uno_penalty", "automatic", "catch"),  # R-UNO-3
    Switch("false_call_penalty"),  # R-UNO-6
    Switch("two_decks"),  # R-DECK-3
    Switch("modern_deck"),  # R-DECK-4
)

SETTINGS: dict[str, Setting] = {
    setting.key: setting
    for setting in (
        Setting(  # R-ACT-6
            "stacking",
            tuple(Choice(v, {"stacking": v}) for v in ("off", "deflect", "cumulative")),
        ),
        Setting(  # R-CHAL-2, R-CHAL-3
            "challenge",
            tuple(
                Choice(
                    f"{reveal}-{guilty}", {"challenge_reveal": reveal, "challenge_guilty": guilty}
                )
                for reveal in ("challenger", "nobody")
                for guilty in ("draw", "retract")
            ),
        ),
        Setting(  # R-SCORE-1 … R-SCORE-4
            "scoring",
            (
                Choice("winner_takes", {"scoring": "winner_takes"}),
                Choice("penalty", {"scoring": "penalty"}),
                Choice("elimination", {"scoring": "elimination"}),
                Choice("placement", {"scoring": "placement", "play_to_last": True}),
            ),
        ),
        Setting(  # R-SCORE-5
            "length",
            (
                *(
                    Choice(f"target-{n}", {"target": n, "hands": None})
                    for n in (100, 200, 300, 500, 1000)
                ),
                *(Choice(f"hands-{n}", {"hands": n, "target": None}) for n in (1, 3, 5, 10)),
            ),
        ),
        Setting(  # R-TEAM-2
            "teams",
            tuple(Choice(str(n), {"teams": n}) for n in (0, 2, 3, 4, 5)),
        ),
        Setting(  # R-TIME-1
            "turn",
            tuple(Choice(str(n), {"turn_seconds": n}) for n in (0, 15, 30, 45, 60, 90, 120)),
        ),
    )
}

#: The editor's pages: which controls each shows.
PAGES: dict[str, tuple[str, ...]] = {
    "play": ("switches", "stacking", "challenge"),
    "match": ("scoring", "length", "teams", "turn"),
}


def changes_for(key: str, values: Sequence[str]) -> dict[str, Any]:
    """The options a choice in the editor sets: ``key`` names the control, ``values`` what
    was chosen (the switches that are on, or one choice). Raises ``KeyError`` for anything the
    editor never offered."""
    if key == "switches":
        unknown = set(values) - {s.option for s in SWITCHES}
        if unknown:
            raise KeyError(sorted(unknown)[0])
        return {s.option: s.on if s.option in values else s.off for s in SWITCHES}
    setting = SETTINGS[key]
    choice = setting.choice(values[0]) if len(values) == 1 else None
    if choice is None:
        raise KeyError(values)
    return dict(choice.sets)


def differences(rules: Rules, preset: str) -> list[str]:
    """Every option of ``rules`` that differs from ``preset``, in words ("Jump-in: on")."""
    base = Rules.from_preset(preset)
    lines = []
    for switch in SWITCHES:
        if switch.is_on(rules) != switch.is_on(base):
            state = t("house.on") if switch.is_on(rules) else t("house.off")
            lines.append(f"{switch.label}: {state}")
    for setting in SETTINGS.values():
        mine, theirs = setting.current(rules), setting.current(base)
        if mine is not None and (theirs is None or mine.value != theirs.value):
            lines.append(f"{t(f'house.{setting.key}')}: {setting.label(mine)}")
        elif mine is None and theirs is not None:
            lines.append(f"{t(f'house.{setting.key}')}: {_custom(setting, rules)}")
    return lines


def _custom(setting: Setting, rules: Rules) -> str:
    """A value none of the choices names (set from a slash command, say)."""
    if setting.key == "length":
        if rules.hands is not None:
            return t("summary.hands", hands=rules.hands)
        return str(rules.target)
    if setting.key == "turn":
        return t("summary.turn_seconds", seconds=rules.turn_seconds)
    return "—"
