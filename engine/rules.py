"""Rule options as data and the named presets (RULES.md §12).

>>> Rules.from_preset("party").stacking
<Stacking.CUMULATIVE: 'cumulative'>
>>> Rules.from_preset("classic", target=200).target
200
>>> Rules.from_preset("classic", scoring="placement")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.RulesError: placement scoring ranks players by the order they go out, ...
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .cards import Deck, classic_deck, flip_deck
from .errors import RulesError


class Stacking(enum.Enum):
    """R-ACT-6: answering a draw card with another."""

    OFF = "off"
    DEFLECT = "deflect"
    CUMULATIVE = "cumulative"


class UnoPenalty(enum.Enum):
    """R-UNO-2/3: how a missing UNO call is punished."""

    CATCH = "catch"
    AUTOMATIC = "automatic"


class ChallengeReveal(enum.Enum):
    """R-CHAL-2: who sees the challenged hand."""

    CHALLENGER = "challenger"
    NOBODY = "nobody"


class ChallengeGuilty(enum.Enum):
    """R-CHAL-3: what a guilty Wild Draw Four player suffers."""

    DRAW = "draw"
    RETRACT = "retract"


class AfterTimeouts(enum.Enum):
    """R-TIME-2/3: what happens to a player who times out repeatedly."""

    REPLACE = "replace"  # R-TIME-3: a computer player holds the seat until they come back
    REMOVE = "remove"  # R-TIME-2 (the online room, 003): they leave and lose the match


class Scoring(enum.Enum):
    """R-SCORE-1 … R-SCORE-4."""

    WINNER_TAKES = "winner_takes"
    PENALTY = "penalty"
    ELIMINATION = "elimination"
    PLACEMENT = "placement"


_ENUM_FIELDS: dict[str, type[enum.Enum]] = {
    "stacking": Stacking,
    "uno_penalty": UnoPenalty,
    "challenge_reveal": ChallengeReveal,
    "challenge_guilty": ChallengeGuilty,
    "scoring": Scoring,
    "after_timeouts": AfterTimeouts,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """Every option of RULES.md. The defaults are the official rules (preset ``classic``)."""

    # Deck (R-DECK-3, R-DECK-4).
    two_decks: bool = False
    modern_deck: bool = False
    # Setup (R-SETUP-2, R-SETUP-4; the tournament preset plays counter-clockwise).
    random_dealer: bool = False
    clockwise: bool = True
    players: int | None = None  # a fixed table size (tournament: 4), or None for 2-10
    hand_size: int = 7
    # Turn (R-TURN-4, R-TURN-5).
    draw_only_if_stuck: bool = False
    draw_until_playable: bool = False
    # Actions (R-ACT-6, R-ACT-7).
    stacking: Stacking = Stacking.OFF
    jump_in: bool = False
    # Challenge (R-CHAL-2, R-CHAL-3).
    challenge_reveal: ChallengeReveal = ChallengeReveal.CHALLENGER
    challenge_guilty: ChallengeGuilty = ChallengeGuilty.DRAW
    # UNO (R-UNO-3, R-UNO-6).
    uno_penalty: UnoPenalty = UnoPenalty.CATCH
    false_call_penalty: bool = False
    # End of a hand (R-END-2, R-END-3).
    no_action_finish: bool = False
    play_to_last: bool = False
    # Match (R-SCORE, R-TEAM).
    scoring: Scoring = Scoring.WINNER_TAKES
    target: int | None = 500
    hands: int | None = None
    victory_points: bool = False
    teams: int = 0  # 0: everyone for themselves; 2: pairs; N: N teams, partners alternate
    # Time (R-TIME-1): seconds per turn, 0 for none. The engine never reads a clock; the
    # adapter uses this to decide when to apply auto_action(), and ``after_timeouts`` to
    # decide what happens to a player who times out repeatedly (R-TIME-2, R-TIME-3).
    turn_seconds: int = 0
    after_timeouts: AfterTimeouts = AfterTimeouts.REPLACE
    # UNO Flip (R-FLIP): the double-sided deck and its actions; points counted on the light
    # side whatever side is in play (R-FLIP-7). Listed last: snapshots leave them out while
    # off, so classic records read exactly as before (see to_dict).
    flip: bool = False
    flip_score_light: bool = False

    def __post_init__(self) -> None:
        for name, enum_type in _ENUM_FIELDS.items():
            value = getattr(self, name)
            if not isinstance(value, enum_type):
                try:
                    object.__setattr__(self, name, enum_type(value))
                except ValueError:
                    choices = ", ".join(m.value for m in enum_type)
                    raise RulesError(
                        f"{name} must be one of: {choices}; got {value!r}",
                        "bad_choice",
                        option=name,
                        choices=choices,
                    ) from None
        self._check()

    def _check(self) -> None:
        for name in ("two_decks", "modern_deck", "random_dealer", "clockwise",
                     "draw_only_if_stuck", "draw_until_playable", "jump_in",
                     "false_call_penalty", "no_action_finish", "play_to_last",
                     "victory_points", "flip", "flip_score_light"):  # fmt: skip
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false", "not_a_switch", option=name)
        if self.players is not None and not 2 <= self.players <= 10:
            raise RulesError("a table seats 2 to 10 players (R-SETUP-1)", "players_range")
        if not 1 <= self.hand_size <= 20:
            raise RulesError("hand_size must be between 1 and 20", "hand_size_range")
        if self.target is not None and self.target <= 0:
            raise RulesError("target must be a positive number of points", "target_positive")
        if self.hands is not None and self.hands <= 0:
            raise RulesError("hands must be a positive number of hands", "hands_positive")
        if self.target is None and self.hands is None:
            raise RulesError(
                "a match needs a points target, a number of hands, or both", "needs_length"
            )
        if self.turn_seconds < 0:
            raise RulesError("turn_seconds cannot be negative", "turn_seconds_negative")
        if self.teams < 0 or self.teams == 1 or self.teams > 5:
            raise RulesError("teams must be 0 (no teams) or 2 to 5", "teams_range")
        if self.scoring is Scoring.PLACEMENT and not self.play_to_last:
            raise RulesError(
                "placement scoring ranks players by the order they go out, "
                "so it needs play_to_last=True",
                "placement_needs_play_to_last",
            )
        if self.scoring is Scoring.ELIMINATION and self.target is None:
            raise RulesError(
                "elimination scoring needs a target: players are out on reaching it",
                "elimination_needs_target",
            )
        if self.scoring is Scoring.ELIMINATION and self.teams:
            raise RulesError(
                "elimination is played by single players, not teams", "elimination_no_teams"
            )
        if self.teams and self.play_to_last:
            raise RulesError(
                "with teams the hand ends when any partner goes out (R-TEAM-2)",
                "teams_no_play_to_last",
            )
        if self.players is not None and self.teams and self.players % self.teams:
            raise RulesError(
                f"{self.players} players cannot form {self.teams} equal teams",
                "teams_uneven",
                players=self.players,
                teams=self.teams,
            )
        if self.flip and self.stacking is not Stacking.OFF:
            raise RulesError("UNO Flip is played without stacking (R-FLIP-6)", "flip_no_stacking")
        if self.flip_score_light and not self.flip:
            raise RulesError(
                "flip_score_light only applies to UNO Flip (flip=True)",
                "flip_score_light_needs_flip",
            )
        if self.victory_points and self.scoring is Scoring.ELIMINATION:
            raise RulesError(
                "victory points rank a finished table; elimination ranks by exit",
                "victory_points_no_elimination",
            )

    # -- construction and serialization ------------------------------------------------

    @classmethod
    def from_preset(cls, name: str, **overrides: Any) -> Rules:
        """A preset with single options overridden: ``from_preset('classic', target=200)``."""
        try:
            base = PRESETS[name]
        except KeyError:
            raise RulesError(
                f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}",
                "unknown_preset",
                preset=name,
            ) from None
        return base.with_options(**overrides)

    def with_options(self, **overrides: Any) -> Rules:
        """A copy with some options changed; unknown or contradictory options raise."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise RulesError(
                f"unknown rule option(s): {', '.join(unknown)}",
                "unknown_option",
                option=", ".join(unknown),
            )
        return replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """Every option as JSON-ready data. Options added after the first schema appear only
        when they differ from their default, so older snapshots and records read and write
        exactly as before (older readers default them)."""
        data = asdict(self)
        for name in _ENUM_FIELDS:
            data[name] = data[name].value
        for name, default in _LATER_FIELDS.items():
            if data[name] == default:
                del data[name]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`. A ``preset`` key selects the base for the other keys."""
        data = dict(data)
        preset = data.pop("preset", "classic")
        return cls.from_preset(preset, **data)

    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        return next((name for name, rules in PRESETS.items() if rules == self), None)

    def deck(self) -> Deck:
        """The deck these rules play with (UNO Flip has no Swap Hands: ``modern_deck`` has
        no effect on it)."""
        if self.flip:
            return flip_deck(two_decks=self.two_decks)
        return classic_deck(two_decks=self.two_decks, modern_deck=self.modern_deck)

    def __repr__(self) -> str:
        name = self.preset_name()
        if name is not None:
            return f"Rules.from_preset({name!r})"
        changed = {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(CLASSIC, f.name)
        }
        args = ", ".join(
            f"{k}={v.value!r}" if isinstance(v, enum.Enum) else f"{k}={v!r}"
            for k, v in changed.items()
        )
        return f"Rules.from_preset('classic', {args})"


#: Options added after schema 1, with the default that leaves them out of ``to_dict``.
_LATER_FIELDS: dict[str, Any] = {
    "after_timeouts": AfterTimeouts.REPLACE.value,
    "flip": False,
    "flip_score_light": False,
}

CLASSIC = Rules()

#: The named presets of RULES.md §12.
PRESETS: dict[str, Rules] = {
    "classic": CLASSIC,
    "online": Rules(
        random_dealer=True,
        challenge_reveal=ChallengeReveal.NOBODY,
        uno_penalty=UnoPenalty.AUTOMATIC,
        turn_seconds=30,
        after_timeouts=AfterTimeouts.REMOVE,
        victory_points=True,
    ),
    "tournament": Rules(
        players=4,
        clockwise=False,
        play_to_last=True,
        scoring=Scoring.PLACEMENT,
        target=None,
        hands=5,
    ),
    "elimination": Rules(scoring=Scoring.ELIMINATION, target=500),
    "flip": Rules(flip=True, scoring=Scoring.PENALTY, target=500),  # R-FLIP-8
    "party": Rules(stacking=Stacking.CUMULATIVE, jump_in=True, draw_until_playable=True),
}
