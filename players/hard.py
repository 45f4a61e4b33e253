"""Level ``hard``: determinized Monte Carlo search.

When it is this seat's turn and it has a real choice, ``hard``

1. lists the *candidate* actions: every distinct legal play, with a wild naming the colour
   ``normal`` would name and the runner-up colour (Swap Hands: every target, one colour), plus
   drawing, passing, taking the cards or challenging where legal;
2. repeatedly *determinizes*: deals the unseen cards at random into the other hands and the
   draw pile, consistently with every public fact (the hand sizes, the discard pile);
3. applies each candidate to the same determinization and *rolls out* the hand, every seat
   playing the ``normal`` policy (everyone calls UNO in a rollout); the same deal, the same
   draw pile and the same reshuffle seed serve every candidate (common random numbers), so
   the comparison measures the action, not the luck;
4. scores a rollout 1 if this seat wins the hand and 0 otherwise (with ``play_to_last``, its
   place: 1 for first down to 0 for last; a cut-off rollout is scored from the card counts),
   and plays the candidate whose mean gain over ``normal``'s choice (paired over the same
   determinizations) exceeds one standard error; otherwise ``normal``'s choice.

**Heads-up with plain rules** (:func:`players.fastsim.supports`: classic single deck, no
stacking, jump-in, Swap Hands, Flip or teams), on a turn to play or to keep a drawn card, the
rollouts run on :mod:`players.fastsim`, a small integer simulator about seven times faster than
the engine, to the end of the hand (at most :data:`FAST_CAP` turns), within
:data:`FAST_BUDGET` simulated turns: several hundred determinizations a decision. There

- the opponent answers a Wild Draw Four as ``normal`` reasons (it challenges on the counts it
  sees; the challenge is judged on the actual hand), so a bluff or an honest Wild Draw Four
  is valued with its real risk;
- a dealt opponent hand is weighted (rejection sampling, :func:`_likelihood`) by how well
  it explains the top card: heads-up, with a number or a Wild on top at this seat's turn,
  the opponent either played it — ``normal`` would have chosen it, on the card beneath — or
  drew and could not play (it holds nothing playable now).

Everywhere else (more seats, other rules, facing a Wild Draw Four) the rollouts use the
engine (:mod:`players.determinize`), :data:`ROLLOUT_CAP` steps deep within
:data:`STEP_BUDGET` engine steps. Facing a Wild Draw Four, the offender's hand is dealt guilty
or innocent with ``normal``'s estimate taken with the bluff prior of the players ``hard``
models (:func:`guilt_probability`).

The work is bounded by a budget of steps, not by a clock, so a decision is deterministic given
the ``rng``; the budgets are sized for well under 150 ms on the benchmark machine (see
``docs/computer-players.md``). A wall-clock safety net (:data:`DEADLINE`, 120 ms) stops the
sampling early on an overloaded machine; only then does a decision depend on timing. Out of
turn (UNO calls, catches, jump-ins) and with a single candidate, ``hard`` decides as
``normal`` does.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

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

from . import fastsim, normal
from ._table import COLOURS
from .determinize import determinize, shuffle

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


class PairedDifferences:
    """Each candidate's value minus candidate 0's (``normal``'s choice), over common deals.

    Both searches score every candidate on the same determinizations, so the paired
    differences have far less noise than the values themselves.
    """

    def __init__(self, width: int) -> None:
        self.sums = [0.0] * width
        self.squares = [0.0] * width
        self.samples = 0

    def add(self, values: list[float]) -> None:
        base = values[0]
        for i in range(1, len(values)):
            d = values[i] - base
            self.sums[i] += d
            self.squares[i] += d * d
        self.samples += 1

    def best(self, confidence: float) -> int:
        """The candidate to play: 0 unless another is better beyond ``confidence`` errors."""
        samples = self.samples
        best, best_mean = 0, 0.0
        for i in range(1, len(self.sums)):
            mean = self.sums[i] / samples
            var = max(0.0, self.squares[i] / samples - mean * mean)
            error = math.sqrt(var / samples) if samples > 1 else float("inf")
            if mean > best_mean and mean > confidence * error:
                best, best_mean = i, mean
        return best


COUNT_EXPONENT = 1.3
TURN_BONUS = math.exp(0.3)
#: A rollout stops after this many steps and is scored from the card counts.
ROLLOUT_CAP = 20
#: The share of Wild Draw Four players ``hard`` expects to bluff (see guilt_probability).
BLUFF_PRIOR = 0.05


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
    if _fast(view):
        return fast_search(view, candidates, rng)
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
        guilt = guilt_probability(normal.spot_from_view(view))
    stats = PairedDifferences(len(candidates))
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
        stats.add(values)
        samples += 1
        steps += SAMPLE_COST
    # Leave normal's choice only for a candidate that is better beyond the noise.
    return candidates[stats.best(CONFIDENCE)]


def guilt_probability(spot: normal.Spot) -> float:
    """The chance that the Wild Draw Four under challenge is a bluff, for the search.

    ``normal``'s estimate (:func:`players.normal.challenge_probability`) with the bluff prior
    of the players ``hard`` models: its rollouts play every seat as ``normal``, which never
    bluffs, so it assumes :data:`BLUFF_PRIOR` (rare bluffs) rather than ``normal``'s cautious
    one in three.
    """
    p = normal.challenge_probability(spot)
    if p <= 0.0 or p >= 1.0:
        return p
    # normal's formula is linear in its prior on the odds: swap the prior.
    odds = p / (1.0 - p) * (BLUFF_PRIOR / normal.BLUFF_PRIOR)
    return odds / (1.0 + odds)


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


# -- heads-up search on the fast simulator ------------------------------------------------

#: Simulated turns (all candidates together) one heads-up decision may spend.
FAST_BUDGET = 30000
#: A fast rollout stops after this many turns and is scored from the card counts.
FAST_CAP = 60
#: At most this many determinizations per heads-up decision.
FAST_SAMPLES = 2000
#: Like :data:`CONFIDENCE`, for the heads-up search.
FAST_CONFIDENCE = 1.0

#: Deals tried per determinization to match the opponent's last turn (1: no inference).
INFER_TRIES = 12
#: Prior chance that the opponent played the top card (rather than drew and passed).
PLAYED_PRIOR = 0.7
#: The least weight a dealt hand gets, however badly it explains the top card.
INFER_FLOOR = 0.05

_DECK_CODES: dict[str, list[int]] = {}


def _fast(view: PlayerView) -> bool:
    t = view.table
    return (
        t.phase in (Phase.PLAY, Phase.DRAWN)
        and t.colour is not None
        and fastsim.supports(t.rules, t.playing)
    )


def _deck_codes(view: PlayerView) -> list[int]:
    deck = view.table.rules.deck()
    codes = _DECK_CODES.get(deck.name)
    if codes is None:
        codes = _DECK_CODES[deck.name] = [fastsim.code(f) for f in deck.sides[0]]
    return codes


def fast_search(view: PlayerView, candidates: list[Action], rng: random.Random) -> Action:
    """Determinized Monte Carlo on :mod:`players.fastsim` (heads-up, plain rules)."""
    t = view.table
    me = view.seat
    mine = [fastsim.code(f) for _, f in view.hand]
    discard = [fastsim.code(f) for f in t.discard]
    pool: dict[int, int] = {}
    for c in _deck_codes(view):
        pool[c] = pool.get(c, 0) + 1
    for c in mine + discard:
        pool[c] = pool.get(c, 0) - 1
    unseen = [c for c, n in pool.items() for _ in range(max(0, n))]
    opp_count = t.card_counts[1 - me]
    if opp_count + t.draw_size != len(unseen):
        return search(view, candidates, rng)
    colour = COLOURS.index(t.colour)
    top = fastsim.code(t.top) & 15
    under = discard[:-1]
    seen = [0, 0, 0, 0, 0]
    for c in discard:
        seen[c >> 4] += 1
    drawn_index = -1
    if t.phase is Phase.DRAWN:
        drawn_code = next(fastsim.code(f) for c, f in view.hand if c == view.drawn)
        drawn_index = mine.index(drawn_code)
    # Each candidate as (kind, hand index, colour): 0 play, 1 draw, 2 pass.
    moves: list[tuple[int, int, int]] = []
    for action in candidates:
        if type(action) is Play:
            c = fastsim.code(action.face)
            index = drawn_index if drawn_index >= 0 else mine.index(c)
            named = COLOURS.index(action.colour) if action.colour is not None else c >> 4
            moves.append((0, index, named))
        elif type(action) is Draw:
            moves.append((1, 0, 0))
        else:
            moves.append((2, 0, 0))
    infer = _likelihood(discard, colour, top, len(mine)) if INFER_TRIES > 1 else None
    stats = PairedDifferences(len(candidates))
    used = 0
    samples = 0
    started = time.perf_counter()
    while used < FAST_BUDGET and samples < FAST_SAMPLES:
        if DEADLINE is not None and time.perf_counter() - started > DEADLINE:
            break
        for _ in range(INFER_TRIES):
            shuffle(unseen, rng)
            theirs = unseen[:opp_count]
            if infer is None or rng.random() < infer(theirs):
                break
        pile = unseen[opp_count:]
        seed = rng.random()
        values = []
        for kind, index, named in moves:
            sim = fastsim.Sim(
                [list(mine), list(theirs)],
                list(pile),
                list(under),
                colour,
                discard[-1],
                0,
                random.Random(seed),
                list(seen),
            )
            if kind == 0:
                out = sim.play(0, index, named)
            elif kind == 1:
                out = sim.draw_turn(0)
            else:
                sim.current = 1
                out = False
            if out:
                values.append(1.0)
                used += 1
                continue
            winner, turns = sim.run(FAST_CAP)
            used += turns + 1
            if winner >= 0:
                values.append(1.0 if winner == 0 else 0.0)
            else:
                values.append(_count_value(len(sim.hands[0]), len(sim.hands[1]), sim.current))
        stats.add(values)
        samples += 1
    return candidates[stats.best(FAST_CONFIDENCE)]


def _likelihood(
    discard: list[int], colour: int, top: int, mine: int
) -> Callable[[list[int]], float] | None:
    """How well a dealt opponent hand explains the top card, up to a constant.

    Heads-up, when this seat is to move and the top card is a number or a Wild, the turn
    before was the opponent's: either it played that card (``normal`` chose it from its hand
    plus that card, on the card beneath) or it drew and could not play (it holds nothing
    playable now). A hand is weighted by :data:`PLAYED_PRIOR` times the first and
    ``1 - PLAYED_PRIOR`` times the second, never below :data:`INFER_FLOOR` (the opponent may
    not be ``normal``). ``None`` when the top card says nothing.
    """
    if len(discard) < 2:
        return None
    card = discard[-1]
    kind = card & 15
    if kind >= 10 and kind != fastsim.WILD:
        return None  # an action card: who played it is unclear
    below = discard[-2]
    if below >> 4 == 4:
        return None  # the colour named before is not on the table
    before_colour = below >> 4
    before_top = below & 15
    wild = card >> 4 == 4

    def weight(theirs: list[int]) -> float:
        hand = [*theirs, card]
        index = fastsim.choose_play(hand, before_colour, before_top, mine)[0]
        played = index == len(hand) - 1 or (index >= 0 and hand[index] == card)
        if played and wild:
            held = [0, 0, 0, 0, 0]
            for c in theirs:
                held[c >> 4] += 1
            played = held[colour] == max(held[:4])
        stuck = fastsim.choose_play(theirs, colour, top, mine)[0] < 0 and not any(
            c == 4 * 16 + fastsim.WILD_FOUR for c in theirs
        )
        w = PLAYED_PRIOR * played + (1.0 - PLAYED_PRIOR) * stuck
        return max(INFER_FLOOR, w / PLAYED_PRIOR)

    return weight


def _count_value(mine: int, theirs: int, current: int) -> float:
    """:func:`value`'s card-count estimate heads-up, seat 0 being ``me``."""
    a: float = (mine + 1.0) ** -COUNT_EXPONENT
    b: float = (theirs + 1.0) ** -COUNT_EXPONENT
    if current == 0:
        a *= TURN_BONUS
    else:
        b *= TURN_BONUS
    return a / (a + b)
