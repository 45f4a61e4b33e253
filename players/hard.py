"""Level ``hard``: belief tracking and information-set search (determinized rollouts).

When it is this seat's turn and it has a real choice, ``hard``

1. lists the *candidate* actions: every distinct legal play, with a wild naming the colour
   ``normal`` would name and the runner-up colour (Swap Hands: every target, one colour), plus
   drawing (when only wilds match), passing, taking the cards or challenging where legal;
   ``normal``'s choice comes first;
2. reads what it has learned from the hand's history (:class:`players.belief.Belief`: the
   colours each player could not follow when it drew, a Wild Draw Four found innocent, a hand
   revealed to it after a challenge) and *deals* the unseen cards into the other hands and the
   draw pile consistently with it and with everything public (:func:`players.belief.deal`;
   in UNO Flip the backs of every hand and of the draw pile). Facing a Wild Draw Four, the
   offender's hand is dealt guilty or innocent with the chance :func:`guilt_probability`
   gives;
3. applies each candidate to the same deal with the engine and *rolls out* the hand, every
   seat playing the ``normal`` policy (everyone calls UNO in a rollout); the same deal and the
   same reshuffle seed serve every candidate (common random numbers), so the comparison
   measures the action, not the luck. Rollouts run on :mod:`players.fastsim` wherever it
   models the rules (the classic deck without stacking or jump-in, at any table size) and on
   the engine otherwise (stacking, jump-in, Swap Hands, Flip, teams, play to the last);
4. scores a rollout 1 if this seat wins the hand and 0 otherwise (with ``play_to_last``, its
   place: 1 for first down to 0 for last; a cut-off rollout is scored from the card counts),
   and plays the candidate whose mean gain over ``normal``'s choice (paired over the same
   deals) exceeds one standard error; otherwise ``normal``'s choice.

On the fast simulator the candidates *race* (:func:`_race`): each deal is dealt once and every
candidate still in the race is applied to it on the simulator and rolled out; every
:data:`RACE_EVERY` deals a candidate behind the leader by more than :data:`RACE_Z` paired
standard errors drops out, and the race ends when one is left, after :data:`RACE_BUDGET`
rollouts or :data:`RACE_MAX_DEALS` deals; then the rule of 4. picks among the candidates left
(if ``normal``'s choice dropped out, the one with the best mean). An obvious choice costs a
few deals, a close one gets the budget. On the engine each deal rolls out every candidate
(:data:`ENGINE_SIMULATIONS` rollouts a decision, at least :data:`MIN_ENGINE_SAMPLES` deals).

The work is a fixed number of simulations, not a time: given the ``rng`` and the history, a
decision is the same on an idle and a busy machine. A wall-clock safety net
(:data:`DEADLINE`) stops the sampling only on a machine so overloaded that a decision would
otherwise take far too long.
Out of turn (UNO calls, catches, jump-ins) and with a single candidate, ``hard`` decides as
``normal`` does.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

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
    Rules,
)
from engine.actions import CALL_UNO
from engine.events import Event

from . import choices, fastsim, flip, normal
from ._table import COLOURS
from .belief import Belief, Dealer

#: Without racing (``RACE = False``), fast rollouts per decision, all candidates together
#: (each deal rolls out every candidate), at least :data:`MIN_SAMPLES` deals.
SIMULATIONS = 240
#: Racing on the simulator (:func:`_race`): at most this many rollouts per decision, all
#: candidates together ...
RACE = True
RACE_BUDGET = 720
#: ... and at most this many deals, however few candidates are left.
RACE_MAX_DEALS = 300
#: Every this many deals, drop candidates behind the leader by more than RACE_Z errors.
RACE_EVERY = 8
RACE_Z = 2.0
#: Rollouts per decision where they run on the engine (slower: stacking, jump-in, Flip…).
ENGINE_SIMULATIONS = 64
#: At least this many deals per decision on the engine, however many candidates.
MIN_ENGINE_SAMPLES = 2
#: At least this many deals per decision, however many candidates.
MIN_SAMPLES = 12
#: A safety net in seconds: sampling stops after this long even if simulations are left.
#: Sized so that only a badly overloaded machine reaches it; ``None`` turns it off.
DEADLINE: float | None = 0.6
#: A candidate replaces ``normal``'s choice only if its mean gain exceeds this many standard
#: errors (paired over the same deals).
CONFIDENCE = 1.0
#: A fast rollout stops after this many turns and is scored from the card counts.
FAST_CAP = 40
#: An engine rollout stops after this many steps and is scored from the card counts.
ROLLOUT_CAP = 20
COUNT_EXPONENT = 1.3
TURN_BONUS = math.exp(0.3)
#: The share of Wild Draw Four players ``hard`` expects to bluff (see guilt_probability).
BLUFF_PRIOR = 0.05


class PairedDifferences:
    """Each candidate's value minus candidate 0's (``normal``'s choice), over common deals."""

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
        if samples == 0:
            return 0
        best, best_mean = 0, 0.0
        for i in range(1, len(self.sums)):
            mean = self.sums[i] / samples
            var = max(0.0, self.squares[i] / samples - mean * mean)
            error = math.sqrt(var / samples) if samples > 1 else float("inf")
            if mean > best_mean and mean > confidence * error:
                best, best_mean = i, mean
        return best


def decide(view: PlayerView, rng: random.Random, history: Sequence[Event] = ()) -> Action | None:
    """The ``hard`` level's action for ``view``, given the hand's ``history`` as this seat saw
    it (:func:`engine.events_for`; empty: it knows only the table)."""
    if choices.waits_for_choice(view):  # RULES.md §13: the choices every level shares
        return choices.choose(normal.spot_from_view(view))
    if view.table.rules.flip:
        baseline = flip.decide(view, rng)
        if baseline is None or view.seat != view.table.current:
            return baseline
        if type(baseline) is CallUno or type(baseline) is CatchUno:
            return baseline
        candidates = _flip_candidates(view, baseline)
    else:
        spot = normal.spot_from_view(view)
        baseline = normal.choose(spot)
        if baseline is None or view.seat != view.table.current:
            return baseline
        if type(baseline) is CallUno or type(baseline) is CatchUno:
            return baseline  # calls and catches first, as ``normal``
        candidates = _candidates(spot, baseline)
    if len(candidates) == 1:
        return candidates[0]
    t = view.table
    belief = Belief.from_events(view.seat, t.seats, history, t.rules.deck())
    return search(view, candidates, rng, belief)


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


def _flip_candidates(view: PlayerView, baseline: Action) -> list[Action]:
    """UNO Flip: every distinct legal action, a wild naming the colour the Flip heuristic
    names (the one held most), ``flip``'s choice first."""
    result: list[Action] = [baseline]
    seen = {baseline}
    favourite: dict[CardFace, Action] = {}
    for action in view.legal:
        if type(action) is CallUno or type(action) is CatchUno:
            continue
        if type(action) is Play and action.face.is_wild:
            options = [
                a.colour
                for a in view.legal
                if type(a) is Play and a.face == action.face and a.colour is not None
            ]
            if action.face in favourite or not options:
                continue
            best = flip._favourite(view, options)
            if action.colour is not best:
                continue
            favourite[action.face] = action
        if action not in seen:
            seen.add(action)
            result.append(action)
    return result


def _swap_colour(spot: normal.Spot, face: CardFace) -> Colour:
    """The colour ``normal`` names with Swap Hands: the one its remaining hand lacks most."""
    rest = list(spot.hand)
    rest.remove(face)
    held = {c: sum(1 for f in rest if f.colour is c) for c in COLOURS}
    return min(COLOURS, key=lambda c: held[c])


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


def search(
    view: PlayerView, candidates: list[Action], rng: random.Random, belief: Belief | None
) -> Action:
    """Determinized rollouts over ``candidates`` (module docstring)."""
    t = view.table
    me = view.seat
    guilt = None
    if t.phase is Phase.CHALLENGE and not t.rules.flip:
        guilt = guilt_probability(normal.spot_from_view(view))
    # The fast simulator models the classic deck only (an allow-list of options): the
    # alternative rules (RULES.md §13), blank cards and the rest are rolled out on the engine.
    fast = fastsim.supports(t.rules, t.playing)
    stats = PairedDifferences(len(candidates))
    if fast:
        samples = max(MIN_SAMPLES, SIMULATIONS // len(candidates))
    else:
        samples = max(MIN_ENGINE_SAMPLES, ENGINE_SIMULATIONS // len(candidates))
    dealer = Dealer(view, belief)
    # On the simulator, a play, a draw or a pass is applied to the dealt hand directly
    # (fastsim's transitions are the engine's: tests/players/test_fastsim_rules.py).
    moves = _sim_moves(view, candidates) if fast else None
    started = time.perf_counter()
    if moves is not None and RACE:
        return candidates[_race(view, dealer, rng, moves, started)]
    for _ in range(samples):
        if DEADLINE is not None and time.perf_counter() - started > DEADLINE:
            break  # a badly overloaded machine: decide with what we have
        if moves is not None:
            base = _root_sim(view, dealer, rng)
            seed = int(rng.random() * 2**31)
            values = [_sim_value(base, me, move, seed) for move in moves]
            stats.add(values)
            time.sleep(0)
            continue
        guilty = None if guilt is None else rng.random() < guilt
        root = root_state(view, dealer, rng, guilty)
        seed = int(rng.random() * 2**31)
        values = []
        for action in candidates:
            state = root.apply(me, action).state
            values.append(rollout_value(state, me, seed, fast))
        stats.add(values)
        # Let other threads run between deals: the bot decides in a worker thread, and the
        # event loop should not wait for Python's 5 ms switch interval each time it wakes.
        time.sleep(0)
    return candidates[stats.best(CONFIDENCE)]


def _race(
    view: PlayerView,
    dealer: Dealer,
    rng: random.Random,
    moves: list[SimMove],
    started: float,
) -> int:
    """Racing on the simulator: every candidate alive is rolled out on each deal; every
    :data:`RACE_EVERY` deals a candidate whose paired deficit to the leader exceeds
    :data:`RACE_Z` standard errors drops out, so the budget (:data:`RACE_BUDGET` rollouts)
    goes to the candidates that may be best. The index of the candidate to play."""
    me = view.seat
    width = len(moves)
    alive = list(range(width))
    values: list[list[float]] = [[] for _ in range(width)]
    used = deals = 0
    while len(alive) > 1 and used + len(alive) <= RACE_BUDGET and deals < RACE_MAX_DEALS:
        if DEADLINE is not None and time.perf_counter() - started > DEADLINE:
            break  # a badly overloaded machine: decide with what we have
        base = _root_sim(view, dealer, rng)
        seed = int(rng.random() * 2**31)
        for i in alive:
            values[i].append(_sim_value(base, me, moves[i], seed))
        used += len(alive)
        deals += 1
        time.sleep(0)
        if deals % RACE_EVERY == 0:
            leader = max(alive, key=lambda i: (sum(values[i]), -i))
            alive = [
                i for i in alive if i == leader or not _behind(values[leader], values[i], RACE_Z)
            ]
    if 0 in alive:
        baseline = values[0]
        best, best_mean = 0, 0.0
        for i in alive[1:]:
            mean, error = _paired(values[i], baseline)
            if mean > best_mean and mean > CONFIDENCE * error:
                best, best_mean = i, mean
        return best
    return max(alive, key=lambda i: (sum(values[i]), -i))


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """The mean of ``a - b`` over common deals and its standard error."""
    n = len(a)
    if n == 0:
        return 0.0, math.inf
    total = squares = 0.0
    for x, y in zip(a, b, strict=True):
        d = x - y
        total += d
        squares += d * d
    mean = total / n
    if n < 2:
        return mean, math.inf
    var = max(0.0, squares / n - mean * mean)
    return mean, math.sqrt(var / n)


def _behind(leader: list[float], other: list[float], z: float) -> bool:
    """Whether ``other`` is behind ``leader`` by more than ``z`` standard errors."""
    mean, error = _paired(leader, other)
    return mean > z * error


#: A candidate on the simulator: (card code to play or -1, colour named; -1 draw, -2 pass).
SimMove = tuple[int, int]


def _sim_moves(view: PlayerView, candidates: list[Action]) -> list[SimMove] | None:
    """The candidates as simulator moves, or ``None`` when one of them (or the phase) is not
    a plain play, draw or pass the simulator applies itself."""
    phase = view.table.phase
    if phase is not Phase.PLAY and phase is not Phase.DRAWN:
        return None
    if view.table.colour is None:
        return None
    moves: list[SimMove] = []
    for action in candidates:
        kind = type(action)
        if kind is Play:
            face = action.face  # type: ignore[union-attr]
            named = face.colour if face.colour is not None else action.colour  # type: ignore[union-attr]
            if named is None or face.kind is Kind.SWAP_HANDS:
                return None
            moves.append((fastsim.code(face), COLOURS.index(named)))
        elif kind is Draw and phase is Phase.PLAY:
            moves.append((-1, -1))
        elif kind is Pass and phase is Phase.DRAWN:
            moves.append((-1, -2))
        else:
            return None
    return moves


def _root_sim(view: PlayerView, dealer: Dealer, rng: random.Random) -> fastsim.Sim:
    """A deal consistent with ``view`` and the belief of ``dealer``, on the simulator (the
    current seat, this one, to move)."""
    t = view.table
    codes = _deck_codes(t.rules)
    hands, pile, discard = dealer.deal(rng)
    top = discard[-1]
    colour = t.colour
    assert colour is not None  # _sim_moves checked it
    return fastsim.Sim(
        [[codes[c] for c in hand] for hand in hands],
        [codes[c] for c in pile],
        [codes[c] for c in discard[:-1]],
        COLOURS.index(colour),
        codes[top],
        t.current,
        0,  # the root itself is never played on: each rollout is a copy with its own seed
        clockwise=t.clockwise,
        until_playable=t.rules.draw_until_playable,
    )


def _sim_value(base: fastsim.Sim, me: int, move: SimMove, seed: int) -> float:
    """The value for ``me`` of ``move`` on a copy of ``base``, played on with the policy."""
    sim = base.copy(seed)
    card, colour = move
    if card >= 0:
        hand = sim.hands[me]
        if sim.play(me, hand.index(card), colour):
            return 1.0
    elif colour == -1:
        if sim.draw_turn(me):
            return 1.0
    else:
        sim.current = sim.next(me)
    winner, _ = sim.run(FAST_CAP)
    if winner >= 0:
        return 1.0 if winner == me else 0.0
    return _count_value([len(h) for h in sim.hands], sim.current, me)


def root_state(
    view: PlayerView, dealer: Dealer, rng: random.Random, guilty: bool | None = None
) -> GameState:
    """A full state consistent with ``view`` and the belief of ``dealer``.

    ``guilty`` conditions the hand of the player whose Wild Draw Four is under challenge:
    ``True`` gives it at least one card of the previous colour (R-CHAL-2), ``False`` none
    (when the unseen cards allow it), ``None`` leaves it to the deal.
    """
    t = view.table
    deck = t.rules.deck()
    faces = deck.sides[t.side]
    hands, pile, discard = dealer.deal(rng)
    offender, prior = t.offender, t.prior_colour
    if offender is not None and offender != view.seat and guilty is not None and prior:
        _condition(hands[offender], pile, faces, prior, guilty, t.draw_back is None)
    return GameState(
        rules=t.rules,
        seats=t.seats,
        seed=int(rng.random() * 2**31),
        shuffles=1,
        dealer=t.dealer,
        draw_pile=tuple(pile),
        discard=tuple(discard),
        hands=tuple(tuple(sorted(h)) for h in hands),
        playing=t.playing,
        out=t.out,
        current=t.current,
        clockwise=t.clockwise,
        colour=t.colour,
        phase=t.phase,
        pending=t.pending,
        offender=offender,
        prior_colour=prior,
        evidence=tuple(sorted(hands[offender])) if offender is not None else (),
        drawn=view.drawn if t.phase is Phase.DRAWN else None,
        uno_seat=t.uno_seat,
        uno_called=t.uno_called,
        dry_draws=0,
        last_drawer=None,
        termination=t.termination,
        ranking=t.ranking,
        version=t.version,
        side=t.side,
        alt=t.alt,
        deck=deck,
    )


def _condition(
    hand: list[int],
    pile: list[int],
    faces: Sequence[CardFace],
    prior: Colour,
    guilty: bool,
    swappable: bool,
) -> None:
    """Exchange cards between ``hand`` and ``pile`` so that the hand holds (``guilty``) or
    lacks the colour ``prior``, where the pile allows it (never in UNO Flip: backs show)."""
    if not swappable or not hand:
        return
    held = [i for i, c in enumerate(hand) if faces[c].colour is prior]
    if guilty and not held:
        j = next((j for j, c in enumerate(pile) if faces[c].colour is prior), None)
        if j is not None:
            hand[0], pile[j] = pile[j], hand[0]
    elif not guilty:
        for i in held:
            j = next((j for j, c in enumerate(pile) if faces[c].colour is not prior), None)
            if j is None:
                return
            hand[i], pile[j] = pile[j], hand[i]


def rollout_value(state: GameState, me: int, seed: int, fast: bool) -> float:
    """The value for ``me`` of playing ``state`` on with the ``normal`` policy everywhere."""
    if state.is_over:
        return value(state, me)
    if fast:
        sim = to_sim(state, seed)
        if sim is not None:
            winner, _ = sim.run(FAST_CAP)
            if winner >= 0:
                return 1.0 if winner == me else 0.0
            return _count_value([len(h) for h in sim.hands], sim.current, me)
    return value(rollout(state, me, seed), me)


def to_sim(state: GameState, seed: int) -> fastsim.Sim | None:
    """``state`` on the fast simulator, its pending decision taken as ``normal`` would;
    ``None`` when the simulator cannot take it over (a phase it does not model)."""
    phase = state.phase
    if state.colour is None or phase not in (Phase.PLAY, Phase.DRAWN, Phase.CHALLENGE):
        return None
    codes = _codes(state)
    hands = [[codes[c] for c in hand] for hand in state.hands]
    discard = [codes[c] for c in state.discard]
    top = discard.pop()
    sim = fastsim.Sim(
        hands,
        [codes[c] for c in state.draw_pile],
        discard,
        COLOURS.index(state.colour),
        top,
        state.current,
        seed,
        clockwise=state.clockwise,
        until_playable=state.rules.draw_until_playable,
    )
    if phase is Phase.CHALLENGE:
        offender = state.offender
        prior = state.prior_colour
        if offender is None or prior is None or top != 4 * 16 + fastsim.WILD_FOUR:
            return None
        sim.wild_four(offender, state.current, COLOURS.index(prior))
    elif phase is Phase.DRAWN:
        seat = state.current
        hand = sim.hands[seat]
        drawn = codes[state.drawn] if state.drawn is not None else -1
        if drawn < 0 or drawn not in hand:
            return None
        honest = drawn & 15 != fastsim.WILD_FOUR or not any(
            c >> 4 == sim.colour for c in hand if c != drawn
        )
        if honest:
            index = hand.index(drawn)
            rest = hand[:index] + hand[index + 1 :]
            named = fastsim.best_colour(rest) if drawn >> 4 == 4 else drawn >> 4
            if sim.play(seat, index, named):
                return _Done(sim, seat)
        else:
            sim.current = sim.next(seat)
    return sim


_CODES: dict[str, list[int]] = {}


def _codes(state: GameState) -> list[int]:
    """The simulator's code of every card id of the state's (classic) deck."""
    return _deck_codes(state.rules)


def _deck_codes(rules: Rules) -> list[int]:
    """The simulator's code of every card id of the (classic) deck of ``rules``."""
    deck = rules.deck()
    codes = _CODES.get(deck.name)
    if codes is None:
        codes = _CODES[deck.name] = [fastsim.code(f) for f in deck.sides[0]]
    return codes


class _Done(fastsim.Sim):
    """A simulation whose hand already ended: ``run`` reports the winner at once."""

    __slots__ = ("winner",)

    def __init__(self, sim: fastsim.Sim, winner: int) -> None:
        self.hands = sim.hands
        self.current = winner
        self.winner = winner

    def run(self, cap: int) -> tuple[int, int]:
        return self.winner, 0


def rollout(state: GameState, me: int, seed: int = 0) -> GameState:
    """Play ``state`` on with the ``normal`` policy for every seat (the engine), at most
    :data:`ROLLOUT_CAP` steps; the state reached."""
    del seed  # the state's own seed drives its reshuffles
    play_to_last = state.rules.play_to_last
    flip_rules = state.rules.flip
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
        if state.phase in choices.CHOICE_PHASES:
            action: Action | None = choices.choose(normal.spot_from_state(state, seat))
        elif flip_rules:
            action = flip.decide(_FlipView(state, seat), _NO_RANDOM)  # type: ignore[arg-type]
        else:
            action = normal.rollout_action(state, seat)
        if action is None:  # cannot happen for the current seat; be safe
            break
        state = state.apply(seat, action).state
        steps += 1
        if play_to_last and not state.playing[me]:
            break
    return state


_NO_RANDOM = random.Random(0)  # the Flip heuristic draws no random numbers


class _FlipView:
    """What :func:`players.flip.decide` reads of a view, from a full state (for rollouts:
    the seat's own hand, its legal actions and public counts only)."""

    __slots__ = ("hand", "legal", "seat", "table")

    def __init__(self, state: GameState, seat: int) -> None:
        self.seat = seat
        self.legal = state.legal_actions(seat)
        faces = state.deck.sides[state.side]
        self.hand = tuple((c, faces[c]) for c in state.hands[seat])
        self.table = _FlipTable(state)


class _FlipTable:
    __slots__ = ("card_counts", "current", "phase")

    def __init__(self, state: GameState) -> None:
        self.current = state.current
        self.phase = state.phase
        self.card_counts = state.card_counts()


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
    counts = [len(h) if state.playing[s] else -1 for s, h in enumerate(state.hands)]
    return _count_value(counts, state.current, me)


def _count_value(counts: Sequence[int], current: int, me: int) -> float:
    """A cut-off hand's value: the chance to go out first, estimated from the card counts.

    Fitted on ``normal`` self-play heads-up: P(win) = sigmoid(1.3 ln((o + 1) / (m + 1)) + 0.3)
    for the player to move with m cards against o; a softmax generalises it to more seats.
    A count below zero marks a seat out of the hand.
    """
    weights = [(n + 1.0) ** -COUNT_EXPONENT if n >= 0 else 0.0 for n in counts]
    weights[current] *= TURN_BONUS
    total = sum(weights)
    return weights[me] / total if total else 0.0
