"""A hand of UNO as callers see it: :class:`GameState`, a :class:`~engine.hand.Hand` with the
rules' entry points, and :class:`Transition`, what :meth:`GameState.apply` returns.

A GameState is a value: nothing changes it once it has been returned. :meth:`GameState.apply`
copies it (:func:`draft`), changes the copy through :mod:`engine.transition` and returns it.
It is not a *frozen* dataclass: a frozen one writes each of its fields through
``object.__setattr__`` on construction, and a step builds one, so that alone cost more than
the rest of the step (docs/engine.md, "Choices of shape").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from . import legality, views
from .actions import Action, parse_action
from .errors import EngineError
from .events import Event, Termination
from .hand import Hand, Phase
from .transition import perform

__all__ = ["GameState", "HandOutcome", "Phase", "Transition", "draft"]


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """How a finished hand ended: the ranking and what every hand still held."""

    termination: Termination
    ranking: tuple[int, ...]
    points: tuple[int, ...]  # points left in each seat's hand (R-DECK-2)
    cards: tuple[int, ...]  # cards left in each seat's hand

    @property
    def winner(self) -> int:
        """The seat ranked first."""
        return self.ranking[0]


@dataclass(slots=True, unsafe_hash=True)
class GameState(Hand):
    """One hand of UNO. Build it with :func:`engine.new_hand`; change it with :meth:`apply`."""

    # The last legal_actions() answer, (seat, actions): the policy that picks an action and
    # apply() that validates it ask the same question of the same state. Not an __init__
    # argument, so a copy (draft(), dataclasses.replace()) never carries a stale answer.
    legal_cache: tuple[int, tuple[Action, ...]] | None = field(
        default=None, init=False, compare=False, repr=False
    )

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now, in a stable order; empty when none."""
        cached = self.legal_cache
        if cached is not None and cached[0] == seat:
            return cached[1]
        actions = legality.legal_actions(self, seat)
        self.legal_cache = (seat, actions)
        return actions

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``apply(seat, action)`` would succeed."""
        try:
            legality.check(self, seat, action)
        except ValueError:
            return False
        return True

    def apply(self, seat: int, action: Action | str) -> Transition:
        """Validate and apply an action; the state itself never changes."""
        if isinstance(action, str):
            action = parse_action(action)
        cached = self.legal_cache  # the policy has usually just asked
        legal = cached[1] if cached is not None and cached[0] == seat else self.legal_actions(seat)
        for candidate in legal:
            if candidate is action:  # an action legal_actions() handed out: found by identity
                break
        else:
            if action not in legal:  # an equal action built elsewhere
                legality.check(self, seat, action)  # raises with the precise reason
                raise EngineError(f"internal: {action} passed check() but is not legal")
        after = draft(self)
        ev: list[Event] = []
        perform(after, ev, self, seat, action)
        return Transition(after, tuple(ev))

    def outcome(self) -> HandOutcome | None:
        """The result once the hand is over, else ``None``."""
        if self.termination is None:
            return None
        return HandOutcome(
            termination=self.termination,
            ranking=self.ranking,
            points=tuple(self.hand_points(s) for s in range(self.seats)),
            cards=self.card_counts(),
        )

    def view_for(self, seat: int) -> views.PlayerView:
        """What ``seat`` may see: its own hand and everything public."""
        return views.player_view(self, seat, self.legal_actions(seat))

    def public_view(self) -> views.TableView:
        """What everyone may see: no hand at all."""
        return views.table_view(self)


def draft(state: GameState) -> GameState:
    """A copy of ``state`` one version on: the draft of the next state, which a transition
    changes before anyone else sees it. The copy is made field by field, as ``copy.copy``
    would (calling the constructor with its 29 arguments costs four times as much)."""
    after = _new(GameState)
    after.rules = state.rules
    after.seats = state.seats
    after.seed = state.seed
    after.shuffles = state.shuffles
    after.dealer = state.dealer
    after.draw_pile = state.draw_pile
    after.discard = state.discard
    after.hands = state.hands
    after.playing = state.playing
    after.out = state.out
    after.current = state.current
    after.clockwise = state.clockwise
    after.colour = state.colour
    after.phase = state.phase
    after.pending = state.pending
    after.offender = state.offender
    after.prior_colour = state.prior_colour
    after.evidence = state.evidence
    after.drawn = state.drawn
    after.uno_seat = state.uno_seat
    after.uno_called = state.uno_called
    after.dry_draws = state.dry_draws
    after.last_drawer = state.last_drawer
    after.termination = state.termination
    after.ranking = state.ranking
    after.version = state.version + 1
    after.side = state.side
    after.alt = state.alt
    after.deck = state.deck
    after.legal_cache = None
    return after


_new = object.__new__


class Transition(NamedTuple):
    """The result of :meth:`GameState.apply`: the new state and what happened.

    A named tuple because one is built on every transition (``state, events = ...`` works).
    """

    state: GameState
    events: tuple[Event, ...]
