"""Engine speed: random-legal 4-player ``classic`` hands on one core.

Prints hands/s and µs per step for two seeded random policies:

- ``play-first``: a uniformly random legal play when there is one, else draw (a drawn card
  that can be played is played). This is what RLCard's random agent does, so the figures
  compare with RLCard's UNO game core, which this script also times when ``rlcard`` is
  installed (``pip install rlcard``; not a project dependency).
- ``simulate``: the weighted policy of ``python -m engine simulate`` — every seat acts, out of
  turn included (calls, catches), and drawing stays possible with playable cards.

Every step goes through the validated ``GameState.apply``: every rule is enforced.

    python benchmarks/engine_bench.py [--hands 3000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Draw, Play, Rules, new_hand
from engine.simulate import random_step


def play_first(hands: int, seed: int) -> tuple[int, float]:
    """Play ``hands`` hands with the play-first random policy; return (steps, seconds)."""
    rules = Rules.from_preset("classic")
    rnd = random.Random(seed)
    steps = 0
    started = time.perf_counter()
    for number in range(hands):
        state = new_hand(rules, 4, dealer=number % 4, seed=seed * 100_003 + number).state
        while not state.is_over:
            seat = state.current
            legal = state.legal_actions(seat)
            plays = [a for a in legal if type(a) is Play]
            if plays:
                action = plays[int(rnd.random() * len(plays))]
            else:
                action = next(a for a in legal if type(a) is Draw) if Draw() in legal else legal[0]
            state = state.apply(seat, action).state
            steps += 1
    return steps, time.perf_counter() - started


def simulate_policy(hands: int, seed: int) -> tuple[int, float]:
    """Play ``hands`` hands with the simulate policy; return (steps, seconds)."""
    rules = Rules.from_preset("classic")
    rnd = random.Random(seed)
    steps = 0
    started = time.perf_counter()
    for number in range(hands):
        state = new_hand(rules, 4, dealer=number % 4, seed=seed * 100_003 + number).state
        while not state.is_over:
            seat, action = random_step(state, rnd)
            state = state.apply(seat, action).state
            steps += 1
    return steps, time.perf_counter() - started


def rlcard_core(games: int, seed: int) -> tuple[int, float] | None:
    """RLCard's UNO game core with its random legal policy, for scale (None if absent)."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=4)
    rnd = random.Random(seed)
    steps = 0
    started = time.perf_counter()
    for _ in range(games):
        game.np_random = np.random.RandomState(int(rnd.random() * 2**31))
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            _, _player = game.step(legal[int(rnd.random() * len(legal))])
            steps += 1
    return steps, time.perf_counter() - started


def main() -> None:
    """Run the benchmark and print its figures, one JSON object per line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    runs = {
        "engine play-first": play_first(args.hands, args.seed),
        "engine simulate-policy": simulate_policy(args.hands, args.seed),
        "rlcard game core": rlcard_core(args.hands, args.seed),
    }
    for name, result in runs.items():
        if result is None:
            print(json.dumps({"run": name, "skipped": "rlcard is not installed"}))
            continue
        steps, seconds = result
        print(
            json.dumps(
                {
                    "run": name,
                    "hands": args.hands,
                    "steps": steps,
                    "steps_per_hand": round(steps / args.hands, 1),
                    "hands_per_s": round(args.hands / seconds, 1),
                    "us_per_step": round(seconds / steps * 1e6, 2),
                }
            )
        )


if __name__ == "__main__":
    main()
