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
from dataclasses import dataclass, fields, replace
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


class TimeLimitWinner(enum.Enum):
    """R-ALT-1: who wins the hand in progress when the match time runs out."""

    FEWEST_CARDS = "fewest_cards"
    FEWEST_POINTS = "fewest_points"


class ZeroSpell(enum.Enum):
    """R-ALT-2: what a 0 does."""

    OFF = "off"
    SWAP = "swap"  # swap hands with an opponent of one's choice
    DISCARD_COLOUR = "discard_colour"  # put down every other card of the 0's colour
    ROTATE = "rotate"  # every hand passes to the next player (the "0" of 7-0)


class SkipVariant(enum.Enum):
    """R-ALT-4: what a Skip does instead of skipping."""

    OFF = "off"
    GIVE = "give"  # give a card of one's choice to an opponent of one's choice
    ALL_DRAW = "all_draw"  # every opponent draws one card


class BlankEffect(enum.Enum):
    """R-ALT-6: what the blank cards of R-DECK-5 do after naming a colour."""

    WILD = "wild"  # none chosen: a plain Wild
    CHAIN = "chain"
    REFILL = "refill"
    ACTION_DUMP = "action_dump"
    TAKE_TWO = "take_two"
    REDEAL = "redeal"
    COLOUR_ROUND = "colour_round"
    NO_ACTIONS = "no_actions"


#: R-ALT-8: the most seats a table may have (with two decks); one deck seats 10 (R-SETUP-1).
MAX_SEATS = 20
ONE_DECK_SEATS = 10
#: R-ALT-1: the longest match duration a table may set, in minutes (a day).
MAX_TIME_LIMIT = 24 * 60
#: R-DECK-5: at most this many blank cards.
MAX_BLANK_CARDS = 4

_ENUM_FIELDS: dict[str, type[enum.Enum]] = {
    "stacking": Stacking,
    "uno_penalty": UnoPenalty,
    "challenge_reveal": ChallengeReveal,
    "challenge_guilty": ChallengeGuilty,
    "scoring": Scoring,
    "after_timeouts": AfterTimeouts,
    "time_limit_winner": TimeLimitWinner,
    "zero_spell": ZeroSpell,
    "skip_variant": SkipVariant,
    "blank_effect": BlankEffect,
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
    # The alternative rules of RULES.md §13 (R-ALT), R-DECK-5 and R-ALT-8; every one off by
    # default and, like the Flip options, left out of snapshots while off.
    time_limit: int = 0  # R-ALT-1: minutes the match may last; 0 for no limit
    time_limit_winner: TimeLimitWinner = TimeLimitWinner.FEWEST_CARDS
    zero_spell: ZeroSpell = ZeroSpell.OFF  # R-ALT-2
    seven_swap: bool = False  # R-ALT-3
    skip_variant: SkipVariant = SkipVariant.OFF  # R-ALT-4
    partner_gift: bool = False  # R-ALT-5
    blank_cards: int = 0  # R-DECK-5: 0-4 blank wilds
    blank_effect: BlankEffect = BlankEffect.WILD  # R-ALT-6
    max_players: int = ONE_DECK_SEATS  # R-ALT-8: up to 20 with two decks

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
        """Refuse values out of range and combinations that mean nothing, each with a code
        for the adapters' words."""
        self._check_types()
        self._check_table()
        self._check_match()
        self._check_flip()
        self._check_alternatives()

    def _check_types(self) -> None:
        """Switches are booleans and counts whole numbers (JSON and forms send anything)."""
        for name in ("two_decks", "modern_deck", "random_dealer", "clockwise",
                     "draw_only_if_stuck", "draw_until_playable", "jump_in",
                     "false_call_penalty", "no_action_finish", "play_to_last",
                     "victory_points", "flip", "flip_score_light", "seven_swap",
                     "partner_gift"):  # fmt: skip
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false", "not_a_switch", option=name)
        for name in ("time_limit", "blank_cards", "max_players"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"{name} must be a whole number", "not_a_number", option=name)

    def _check_table(self) -> None:
        """The seats (R-SETUP-1, R-ALT-8) and the size of a hand."""
        if not 2 <= self.max_players <= MAX_SEATS:
            raise RulesError(
                f"max_players must be between 2 and {MAX_SEATS} (R-ALT-8)",
                "max_players_range",
                most=MAX_SEATS,
            )
        if self.max_players > ONE_DECK_SEATS and not self.two_decks:
            raise RulesError(
                f"more than {ONE_DECK_SEATS} players need two decks (R-ALT-8)",
                "max_players_needs_two_decks",
                most=ONE_DECK_SEATS,
            )
        if self.players is not None and not 2 <= self.players <= self.max_players:
            raise RulesError(
                f"a table seats 2 to {self.max_players} players (R-SETUP-1, R-ALT-8)",
                "players_range",
                most=self.max_players,
            )
        if not 1 <= self.hand_size <= 20:
            raise RulesError("hand_size must be between 1 and 20", "hand_size_range")
        if self.turn_seconds < 0:
            raise RulesError("turn_seconds cannot be negative", "turn_seconds_negative")

    def _check_match(self) -> None:
        """The length of a match, its scoring and its teams (R-SCORE, R-TEAM)."""
        if self.target is not None and self.target <= 0:
            raise RulesError("target must be a positive number of points", "target_positive")
        if self.hands is not None and self.hands <= 0:
            raise RulesError("hands must be a positive number of hands", "hands_positive")
        if self.target is None and self.hands is None:
            raise RulesError(
                "a match needs a points target, a number of hands, or both", "needs_length"
            )
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
        if self.victory_points and self.scoring is Scoring.ELIMINATION:
            raise RulesError(
                "victory points rank a finished table; elimination ranks by exit",
                "victory_points_no_elimination",
            )

    def _check_flip(self) -> None:
        """UNO Flip's own options (R-FLIP-6, R-FLIP-7)."""
        if self.flip and self.stacking is not Stacking.OFF:
            raise RulesError("UNO Flip is played without stacking (R-FLIP-6)", "flip_no_stacking")
        if self.flip_score_light and not self.flip:
            raise RulesError(
                "flip_score_light only applies to UNO Flip (flip=True)",
                "flip_score_light_needs_flip",
            )

    def _check_alternatives(self) -> None:
        """The options of RULES.md §13: ranges and the combinations that mean nothing."""
        if not 0 <= self.time_limit <= MAX_TIME_LIMIT:
            raise RulesError(
                f"time_limit is a number of minutes from 0 (none) to {MAX_TIME_LIMIT}",
                "time_limit_range",
                most=MAX_TIME_LIMIT,
            )
        if self.time_limit_winner is not TimeLimitWinner.FEWEST_CARDS and not self.time_limit:
            raise RulesError(
                "time_limit_winner only applies to a match with a time_limit (R-ALT-1)",
                "time_limit_winner_needs_time_limit",
            )
        if self.zero_spell is not ZeroSpell.OFF and self.flip:
            raise RulesError(
                "UNO Flip has no 0 to cast a spell with (R-ALT-2)", "zero_spell_no_flip"
            )
        if self.partner_gift and not self.teams:
            raise RulesError("a partner's gift needs teams (R-ALT-5)", "partner_gift_needs_teams")
        if not 0 <= self.blank_cards <= MAX_BLANK_CARDS:
            raise RulesError(
                f"blank_cards must be between 0 and {MAX_BLANK_CARDS} (R-DECK-5)",
                "blank_cards_range",
                most=MAX_BLANK_CARDS,
            )
        if self.blank_cards and self.flip:
            raise RulesError(
                "blank cards belong to the classic deck, not UNO Flip (R-DECK-5)",
                "blank_cards_no_flip",
            )
        if self.blank_effect is not BlankEffect.WILD and not self.blank_cards:
            raise RulesError(
                "blank_effect needs blank cards in the deck (blank_cards, R-DECK-5)",
                "blank_effect_needs_blank_cards",
            )

    @property
    def alternative(self) -> bool:
        """Whether a rule of RULES.md §13 changes how a hand is played (R-ALT-2 … R-ALT-6):
        such hands keep :class:`engine.state.AltState` beside the classic fields."""
        return (
            self.zero_spell is not ZeroSpell.OFF
            or self.seven_swap
            or self.skip_variant is not SkipVariant.OFF
            or self.partner_gift
            or self.blank_effect is not BlankEffect.WILD
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
        if not overrides:  # a table without house rules: the preset itself (it is frozen)
            return self
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
        # Every option is a scalar or an enum (a test keeps it so): a flat copy is the whole
        # of it, without asdict's deep copy (a save calls this twice; docs/performance.md).
        data = {f.name: getattr(self, f.name) for f in fields(self)}
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
        return classic_deck(
            two_decks=self.two_decks, modern_deck=self.modern_deck, blank_cards=self.blank_cards
        )

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
    "time_limit": 0,
    "time_limit_winner": TimeLimitWinner.FEWEST_CARDS.value,
    "zero_spell": ZeroSpell.OFF.value,
    "seven_swap": False,
    "skip_variant": SkipVariant.OFF.value,
    "partner_gift": False,
    "blank_cards": 0,
    "blank_effect": BlankEffect.WILD.value,
    "max_players": ONE_DECK_SEATS,
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
