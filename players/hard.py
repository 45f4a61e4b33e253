"""Level ``hard``: determinized Monte Carlo search with the engine.

When it is this seat's turn and it has a real choice, ``hard``

1. lists the *candidate* actions: every distinct legal play, with a wild naming the colour
   ``normal`` would name and the runner-up colour (Swap Hands: every target, one colour), plus
   drawing, passing, taking the cards or challenging where legal;
2. repeatedly *determinizes* (:mod:`players.determinize`): deals the unseen cards at random
   into the other hands and the draw pile, consistently with every public fact (the hand
   sizes, the discard pile). Facing a Wild Draw Four, the offender's hand is dealt guilty or
   innocent with the probability ``normal``'s reasoned challenge estimates (R-CHAL);
3. applies each candidate to the same determinization and *rolls out* the hand with the
   engine, every seat playing the ``normal`` policy (everyone calls UNO in a rollout), up to
   :data:`ROLLOUT_CAP` steps; the same deal and the same draw pile serve every candidate
   (common random numbers), so the comparison measures the action, not the luck;
4. scores a rollout 1 if this seat wins the hand and 0 otherwise (with ``play_to_last``, its
   place: 1 for first down to 0 for last; a cut-off rollout is scored from the card counts),
   and plays the candidate with the best average. Ties go to ``normal``'s choice, which is
   listed first.

The work is bounded by a budget of engine steps (:data:`STEP_BUDGET`), not by a clock, so a
decision is deterministic given the ``rng``; the budget is sized for well under 150 ms on the
benchmark machine (see ``docs/computer-players.md``). A wall-clock safety net
(:data:`DEADLINE`, 120 ms) stops the sampling early on an overloaded machine; only then does
a decision depend on timing. Out of turn (UNO calls, catches,
jump-ins) and with a single candidate, ``hard`` decides as ``normal`` does.
"""

from __future__ import annotations

import math
import random
import time

from engine import (
    Action,
    CallUno,
    CardFace,
    CatchUno,
    Challenge,
    ChooseColour,
    Colour,
    Draw,
    GameState,
    Kind,
    Pass,
    Phase,
    Play,
    PlayerView,
)
from engine.actions import CALL_UNO

from . import normal
from ._table import COLOURS
from .determinize import determinize

#: Engine steps (candidate applications and rollout steps) one decision may spend.
STEP_BUDGET = 5000
#: A safety net in seconds: the search stops sampling after this long even if budget is left.
#: Only an overloaded machine reaches it (then, and only then, a decision depends on timing).
#: ``None`` turns it off.
DEADLINE: float | None = 0.12
#: What one determinization costs, in engine steps, against the budget.
SAMPLE_COST = 8
#: At most this many determinizations per decision, however cheap the rollouts.
MAX_SAMPLES = 200
#: A candidate replaces ``normal``'s choice only if its mean gain exceeds this many standard
#: errors (paired over the same determinizations).
CONFIDENCE = 1.0
COUNT_EXPONENT = 1.3
TURN_BONUS = math.exp(0.3)
#: A rollout stops after this many steps and is scored from the card counts.
ROLLOUT_CAP = 20


def decide(view: PlayerView, rng: random.Random) -> Action | None:
    """The ``hard`` level's action for ``view``."""
    spot = normal.spot_from_view(view)
    baseline = normal.choose(spot)
    if baseline is None or view.seat != view.table.current:
        return baseline
    if type(baseline) is CallUno or type(baseline) is CatchUno:
        return baseline  # calls and catches first, as ``normal``
    candidates = _candidates(spot, baseline)
    if len(candidates) == 1:
        return candidates[0]
    return search(view, candidates, rng)


def _candidates(spot: normal.Spot, baseline: Action) -> list[Action]:
    """The distinct actions worth searching, ``normal``'s choice first."""
    legal = spot.legal
    result: list[Action] = [baseline]
    seen = {baseline}

    def add(action: Action) -> None:
        if action not in seen and action in legal:
            seen.add(action)
            result.append(action)

    if spot.phase is Phase.CHOOSE_COLOUR:
        for colour in COLOURS:
            add(ChooseColour(colour))
        return result
    wild_faces: set[str] = set()
    # Drawing instead of playing a coloured card is never better in our measurements; it
    # stays a candidate when only wilds match (holding a wild may pay).
    coloured = spot.phase is Phase.PLAY and any(
        type(a) is Play and not a.face.is_wild for a in legal
    )
    for action in legal:
        if type(action) is not Play:
            if type(action) in (Pass, Challenge) or (type(action) is Draw and not coloured):
                add(action)
            continue
        face = action.face
        if not face.is_wild:
            add(action)
            continue
        if face.kind is Kind.SWAP_HANDS:
            if action.colour is _swap_colour(spot, face):
                add(action)
            continue
        if face.notation in wild_faces:
            continue
        wild_faces.add(face.notation)
        rest = list(spot.hand)
        rest.remove(face)
        first = normal.best_colour(spot, rest)
        held = {c: sum(1 for f in rest if f.colour is c) for c in COLOURS}
        second = max((c for c in COLOURS if c is not first), key=lambda c: held[c])
        add(Play(face, first))
        add(Play(face, second))
    return result


def _swap_colour(spot: normal.Spot, face: CardFace) -> Colour:
    """The colour ``normal`` names with Swap Hands: the one its remaining hand lacks most."""
    rest = list(spot.hand)
    rest.remove(face)
    held = {c: sum(1 for f in rest if f.colour is c) for c in COLOURS}
    return min(COLOURS, key=lambda c: held[c])


def search(view: PlayerView, candidates: list[Action], rng: random.Random) -> Action:
    """Determinized Monte Carlo over ``candidates`` (module docstring)."""
    me = view.seat
    guilt = None
    if view.table.phase is Phase.CHALLENGE:
        guilt = normal.challenge_probability(normal.spot_from_view(view))
    width = len(candidates)
    diffs = [0.0] * width  # sums of (value of candidate i - value of candidate 0)
    squares = [0.0] * width
    steps = 0
    samples = 0
    started = time.perf_counter()
    while steps < STEP_BUDGET and samples < MAX_SAMPLES:
        if DEADLINE is not None and time.perf_counter() - started > DEADLINE:
            break  # an overloaded machine: decide with what we have
        guilty = None if guilt is None else rng.random() < guilt
        root = determinize(view, rng, guilty=guilty)
        values = []
        for action in candidates:
            state = root.apply(me, action).state
            result, used = rollout(state, me)
            values.append(result)
            steps += used + 1
        base = values[0]
        for i in range(1, width):
            d = values[i] - base
            diffs[i] += d
            squares[i] += d * d
        samples += 1
        steps += SAMPLE_COST
    # Leave normal's choice only for a candidate that is better beyond the noise.
    best, best_mean = 0, 0.0
    for i in range(1, width):
        mean = diffs[i] / samples
        var = max(0.0, squares[i] / samples - mean * mean)
        error = math.sqrt(var / samples) if samples > 1 else float("inf")
        if mean > best_mean and mean > CONFIDENCE * error:
            best, best_mean = i, mean
    return candidates[best]


def rollout(state: GameState, me: int) -> tuple[float, int]:
    """Play ``state`` on with the ``normal`` policy for every seat; (value for ``me``, steps)."""
    play_to_last = state.rules.play_to_last
    steps = 0
    while not state.is_over and steps < ROLLOUT_CAP:
        window = state.uno_seat
        if (
            window is not None
            and not state.uno_called
            and len(state.hands[window]) == 1
            and CALL_UNO in state.legal_actions(window)
        ):
            state = state.apply(window, CALL_UNO).state
            steps += 1
            continue
        seat = state.current
        action = normal.rollout_action(state, seat)
        if action is None:  # cannot happen for the current seat; be safe
            break
        state = state.apply(seat, action).state
        steps += 1
        if play_to_last and not state.playing[me]:
            break
    return value(state, me), steps


def value(state: GameState, me: int) -> float:
    """1 for winning the hand, 0 for losing; a place, or an estimate, in between."""
    play_to_last = state.rules.play_to_last
    if state.is_over:
        ranking = state.ranking
        if me not in ranking:
            return 0.0
        if play_to_last:
            return 1.0 - ranking.index(me) / max(1, len(ranking) - 1)
        return 1.0 if ranking[0] == me else 0.0
    if play_to_last and me in state.out:
        in_hand = len(state.out) + sum(state.playing)
        return 1.0 - state.out.index(me) / max(1, in_hand - 1)
    # Cut off: the chance to go out first, estimated from the card counts. Fitted on
    # ``normal`` self-play heads-up: P(win) = sigmoid(1.3 * ln((o + 1) / (m + 1)) + 0.3) for
    # the player to move with m cards against o; a softmax generalises it to more seats.
    weights = [
        (len(state.hands[s]) + 1) ** -COUNT_EXPONENT if state.playing[s] else 0.0
        for s in range(state.seats)
    ]
    weights[state.current] *= TURN_BONUS
    total = sum(weights)
    return weights[me] / total if total else 0.0
