"""A pure, deterministic, serializable UNO engine (see ../shared/RULES.md for the R-ids).

Quickstart::

    >>> from engine import Rules, new_hand
    >>> state = new_hand(Rules.from_preset("classic"), 3, dealer=0, seed=7).state
    >>> state.current, len(state.hands[1])
    (1, 7)
    >>> action = state.legal_actions(state.current)[0]
    >>> after = state.apply(state.current, action).state
    >>> after.version
    1
"""

from .actions import (
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Gift,
    Give,
    NoGift,
    Pass,
    Play,
    Swap,
    parse_action,
)
from .cards import DARK_COLOURS, CardFace, Colour, Deck, Kind, classic_deck, flip_deck
from .errors import (
    EngineError,
    IllegalActionError,
    InvalidActionError,
    Reason,
    RulesError,
    SnapshotError,
    StaleStateError,
)
from .events import DrawCause, Event, Termination, events_for
from .game import legal_actions, new_hand
from .hand import AltState, Phase
from .rules import (
    PRESETS,
    AfterTimeouts,
    BlankEffect,
    ChallengeGuilty,
    ChallengeReveal,
    Rules,
    Scoring,
    SkipVariant,
    Stacking,
    TimeLimitWinner,
    UnoPenalty,
    ZeroSpell,
)
from .state import GameState, HandOutcome, Transition
from .views import PlayerView, TableView

__all__ = [
    "DARK_COLOURS",
    "PRESETS",
    "Action",
    "AfterTimeouts",
    "AltState",
    "BlankEffect",
    "CallUno",
    "CardFace",
    "CatchUno",
    "Challenge",
    "ChallengeGuilty",
    "ChallengeReveal",
    "ChooseColour",
    "Colour",
    "Deck",
    "Draw",
    "DrawCause",
    "EngineError",
    "Event",
    "GameState",
    "Gift",
    "Give",
    "HandOutcome",
    "IllegalActionError",
    "InvalidActionError",
    "Kind",
    "NoGift",
    "Pass",
    "Phase",
    "Play",
    "PlayerView",
    "Reason",
    "Rules",
    "RulesError",
    "Scoring",
    "SkipVariant",
    "SnapshotError",
    "Stacking",
    "StaleStateError",
    "Swap",
    "TableView",
    "Termination",
    "TimeLimitWinner",
    "Transition",
    "UnoPenalty",
    "ZeroSpell",
    "classic_deck",
    "events_for",
    "flip_deck",
    "legal_actions",
    "new_hand",
    "parse_action",
]
