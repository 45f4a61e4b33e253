"""Engine speed against RLCard's UNO game core, on a fair loop (docs/performance.md).

Four runs (five with ``--reseeded``), each of 4-player classic hands with a seeded random
*play-first* policy where a policy is ours to choose:

- ``engine``: new hands through ``new_hand`` and the validated ``GameState.apply`` (every
  rule enforced on every step); the policy plays a random legal card, draws only when it has
  none (a drawn card that can be played is played, a Wild Draw Four is taken, never
  challenged), names a random colour for a start Wild.
- ``rlcard``: RLCard 1.2.0's ``UnoGame`` with a random legal action, which is the same
  policy: RLCard lists draw only when nothing is playable, and plays a playable drawn card
  by itself. The legal actions are read from the state that ``init_game`` and ``step``
  return (``step`` computes them anyway), the leanest way to drive RLCard's core.
- ``rlcard-get``: the same, asking ``get_legal_actions()`` before every step as well (the
  loop of the figures in issue 11; RLCard's own env asks it too). Both RLCard runs are
  skipped, with a line saying so, when ``rlcard`` is not installed
  (``pip install -e ".[bench]"``).
- ``rlcard-reseeded`` (with ``--reseeded``): ``rlcard-get`` with a new numpy generator every
  game, the unfair loop this script used to run; ``rlcard-get_vs_rlcard-reseeded`` shows
  what it cost RLCard.
- ``simulate``: what ``python -m engine simulate --preset classic --players 4`` runs: whole
  matches through ``Match.apply`` with the weighted all-seats policy (calls, catches, jump-in
  tries), no ``--check``.

The loop is fair: one random generator per run for each side (an earlier version of this
script gave RLCard a new numpy generator every game, about a quarter of an RLCard game),
every loop inside a function, CPU time (``time.process_time``), and the runs alternate
round by round so a busy machine slows all of them alike. The ratios are taken inside each
round; the median round is printed.

    python benchmarks/engine_bench.py [--hands 2000] [--rounds 5] [--seed 1] [--reseeded]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Phase, Play, Rules, new_hand
from engine.simulate import simulate

#: A run: (hands, seed) -> (steps, CPU seconds).
Run = Callable[[int, int], tuple[int, float]]


def engine_play_first(hands: int, seed: int) -> tuple[int, float]:
    """``hands`` hands of the engine with the play-first policy."""
    rules = Rules.from_preset("classic")
    pick = random.Random(seed).random  # one generator for the whole run
    choose_colour = Phase.CHOOSE_COLOUR
    steps = 0
    started = time.process_time()
    for number in range(hands):
        state = new_hand(rules, 4, dealer=number % 4, seed=seed * 100_003 + number).state
        while not state.is_over:
            seat = state.current
            legal = state.legal_actions(seat)
            if type(legal[0]) is Play:
                # legal_actions lists the plays first (then draw, pass or challenge, then
                # UNO calls and catches): a random one of legal[:plays].
                plays = len(legal)
                while type(legal[plays - 1]) is not Play:
                    plays -= 1
                action = legal[int(pick() * plays)]
            elif state.phase is choose_colour:
                action = legal[int(pick() * len(legal))]
            else:
                action = legal[0]  # draw (or take the penalty); pass never comes first
            state = state.apply(seat, action).state
            steps += 1
    return steps, time.process_time() - started


def rlcard_core(hands: int, seed: int) -> tuple[int, float] | None:
    """``hands`` games of RLCard's UNO game core with a random legal action (None if absent)."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=4)
    game.np_random = np.random.RandomState(seed)  # one generator for the whole run
    pick = random.Random(seed).random
    steps = 0
    started = time.process_time()
    for _ in range(hands):
        state, _ = game.init_game()
        while not game.is_over():
            legal = state["legal_actions"]
            state, _ = game.step(legal[int(pick() * len(legal))])
            steps += 1
    return steps, time.process_time() - started


def rlcard_get_legal(hands: int, seed: int) -> tuple[int, float] | None:
    """As :func:`rlcard_core`, asking ``get_legal_actions()`` before every step."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=4)
    game.np_random = np.random.RandomState(seed)
    pick = random.Random(seed).random
    steps = 0
    started = time.process_time()
    for _ in range(hands):
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[int(pick() * len(legal))])
            steps += 1
    return steps, time.process_time() - started


def rlcard_reseeded(hands: int, seed: int) -> tuple[int, float] | None:
    """The unfair loop this script used to run: a new numpy generator every game."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=4)
    rnd = random.Random(seed)
    steps = 0
    started = time.process_time()
    for _ in range(hands):
        game.np_random = np.random.RandomState(int(rnd.random() * 2**31))
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[int(rnd.random() * len(legal))])
            steps += 1
    return steps, time.process_time() - started


def engine_simulate(hands: int, seed: int) -> tuple[int, float]:
    """``python -m engine simulate --preset classic --players 4`` for ``hands`` hands."""
    report = simulate(
        Rules.from_preset("classic"),
        preset="classic",
        players=4,
        hands=hands,
        seed=seed,
        clock=time.process_time,
    )
    return report.steps, report.seconds


def main() -> None:
    """Run the benchmark; print one JSON line per run and round, then the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--reseeded",
        action="store_true",
        help="also time RLCard with a new numpy generator every game (the old, unfair loop)",
    )
    args = parser.parse_args()
    runs: dict[str, Callable[[int, int], tuple[int, float] | None]] = {
        "engine": engine_play_first,
        "rlcard": rlcard_core,
        "rlcard-get": rlcard_get_legal,
        "simulate": engine_simulate,
    }
    if rlcard_core(1, args.seed) is None:
        print(
            "rlcard is not installed: timing the engine only "
            '(pip install -e ".[bench]" adds RLCard 1.2.0 for the comparison)'
        )
        del runs["rlcard"], runs["rlcard-get"]
    elif args.reseeded:
        runs["rlcard-reseeded"] = rlcard_reseeded
    rates: dict[str, list[float]] = {name: [] for name in runs}
    ratios: dict[str, list[float]] = {
        "engine_vs_rlcard": [],
        "engine_vs_rlcard-get": [],
        "simulate_vs_rlcard": [],
        "rlcard-get_vs_rlcard-reseeded": [],
    }
    for round_number in range(args.rounds):
        order = list(runs) if round_number % 2 == 0 else list(reversed(runs))
        this_round: dict[str, float] = {}
        for name in order:
            result = runs[name](args.hands, args.seed + round_number)
            assert result is not None
            steps, seconds = result
            this_round[name] = args.hands / seconds
            rates[name].append(this_round[name])
            print(
                json.dumps(
                    {
                        "round": round_number + 1,
                        "run": name,
                        "hands": args.hands,
                        "steps_per_hand": round(steps / args.hands, 1),
                        "hands_per_cpu_s": round(this_round[name]),
                        "us_per_step": round(seconds / steps * 1e6, 2),
                    }
                )
            )
        for name in ratios:
            ours, _, theirs = name.partition("_vs_")
            if ours in this_round and theirs in this_round:
                ratios[name].append(this_round[ours] / this_round[theirs])
    summary: dict[str, object] = {
        f"{name}_hands_per_cpu_s": round(statistics.median(values))
        for name, values in rates.items()
    }
    for name, values in ratios.items():
        if values:
            summary[name] = round(statistics.median(values), 2)
    print(json.dumps({"summary": summary, "rounds": args.rounds, "hands": args.hands}))


if __name__ == "__main__":
    main()
