"""Typed errors. The engine emits reason codes, never prose for users: adapters translate."""

from __future__ import annotations

import enum


class Reason(enum.Enum):
    """Why an action is illegal. Adapters map each code to a sentence in the user's language."""

    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    HAND_OVER = "hand_over"
    NOT_PLAYING = "not_playing"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    DOES_NOT_MATCH = "does_not_match"
    COLOUR_REQUIRED = "colour_required"
    COLOUR_NOT_ALLOWED = "colour_not_allowed"
    TARGET_REQUIRED = "target_required"
    BAD_TARGET = "bad_target"
    MUST_PLAY_DRAWN_CARD = "must_play_drawn_card"
    MUST_ANSWER_PENALTY = "must_answer_penalty"
    CANNOT_STACK = "cannot_stack"
    DRAW_NOT_ALLOWED = "draw_not_allowed"
    NOTHING_TO_PASS = "nothing_to_pass"
    NOTHING_TO_CHALLENGE = "nothing_to_challenge"
    NO_UNO_TO_CALL = "no_uno_to_call"
    NOTHING_TO_CATCH = "nothing_to_catch"
    NO_JUMP_IN = "no_jump_in"
    NO_ACTION_FINISH = "no_action_finish"
    ACTIONS_FORBIDDEN = "actions_forbidden"  # R-ALT-6 no_actions: only number cards for now
    MATCH_OVER = "match_over"
    HAND_NOT_OVER = "hand_not_over"


class EngineError(ValueError):
    """Base class of every error the engine raises."""


class RulesError(EngineError):
    """Unknown or contradictory rule options.

    ``code`` names the problem and ``params`` its details, so an adapter can say it in any
    language; the message is the English sentence.
    """

    def __init__(self, message: str, code: str = "invalid", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class InvalidActionError(EngineError):
    """Malformed action text or an action of the wrong shape (python-chess's InvalidMoveError)."""


class IllegalActionError(EngineError):
    """A well-formed action that the rules forbid now. ``reason`` says why."""

    def __init__(self, reason: Reason, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason.value}: {detail}" if detail else reason.value)


class StaleStateError(EngineError):
    """An action aimed at an older version of the state than the current one."""


class SnapshotError(EngineError):
    """A snapshot or record that cannot be read or breaks the engine's invariants."""
