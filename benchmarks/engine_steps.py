"""Where an engine step goes: CPU time of each part, on recorded play-first hands.

Plays ``--hands`` 4-player classic hands with the play-first policy of
``benchmarks/engine_bench.py``, keeps every (state, seat, action), then times, each over all
of them and as the best of ``--repeat`` passes (CPU time):

- ``legal_actions``: the question the policy asks, its cache emptied first;
- ``draft``: the copy of a state that a transition changes and returns, the price of
  immutable states;
- ``apply``: the validated transition, by kind of action (the legal actions cached);
- ``new_hand``: a seeded deal, per hand.

    python benchmarks/engine_steps.py [--hands 200] [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Action, Draw, GameState, Phase, Play, Rules, new_hand
from engine.game import legal_actions
from engine.state import draft

#: The legal-actions cache's own setter (see engine.game): emptied before each timing.
_set_cache = GameState.__dict__["legal_cache"].__set__

Record = tuple[GameState, int, Action]


def record(hands: int, seed: int) -> list[Record]:
    """The (state, seat, action) of every step of ``hands`` play-first hands."""
    rules = Rules.from_preset("classic")
    pick = random.Random(seed).random
    steps: list[Record] = []
    for number in range(hands):
        state = new_hand(rules, 4, dealer=number % 4, seed=seed * 100_003 + number).state
        while not state.is_over:
            seat = state.current
            legal = state.legal_actions(seat)
            plays = [a for a in legal if type(a) is Play]
            if plays:
                action = plays[int(pick() * len(plays))]
            elif state.phase is Phase.CHOOSE_COLOUR:
                action = legal[int(pick() * len(legal))]
            else:
                action = legal[0]
            steps.append((state, seat, action))
            state = state.apply(seat, action).state
    return steps


def best(run: Callable[[], None], repeat: int) -> float:
    """The lowest CPU seconds of ``repeat`` calls of ``run``."""
    times = []
    for _ in range(repeat):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return min(times)


def kind(state: GameState, action: Action) -> str:
    """A label for the kind of step."""
    if type(action) is Play:
        if state.phase is Phase.DRAWN:
            return "apply: play the card just drawn"
        return (
            "apply: play a number"
            if action.face.number is not None
            else "apply: play an action card or wild"
        )
    if type(action) is Draw:
        return "apply: draw on one's turn" if state.phase is Phase.PLAY else "apply: take a penalty"
    return "apply: other"


def main() -> None:
    """Time each part and print one JSON line per part."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    steps = record(args.hands, args.seed)

    def ask() -> None:
        for state, seat, _ in steps:
            _set_cache(state, None)
            legal_actions(state, seat)

    def copy() -> None:
        for state, _, _ in steps:
            draft(state)  # the copy apply() changes and returns

    parts: dict[str, tuple[float, int]] = {
        "legal_actions": (best(ask, args.repeat), len(steps)),
        "draft": (best(copy, args.repeat), len(steps)),
    }
    ask()  # every state's cache now holds its seat's answer, as after the policy's question
    by_kind: dict[str, list[Record]] = {}
    for entry in steps:
        by_kind.setdefault(kind(entry[0], entry[2]), []).append(entry)
    for label, entries in sorted(by_kind.items()):

        def apply_all(entries: list[Record] = entries) -> None:
            for state, seat, action in entries:
                state.apply(seat, action)

        parts[label] = (best(apply_all, args.repeat), len(entries))
    rules = Rules.from_preset("classic")

    def deal() -> None:
        for number in range(args.hands):
            new_hand(rules, 4, dealer=number % 4, seed=args.seed * 100_003 + number)

    parts["new_hand (per hand)"] = (best(deal, args.repeat), args.hands)
    print(json.dumps({"hands": args.hands, "steps": len(steps)}))
    for label, (seconds, count) in parts.items():
        print(
            json.dumps({"part": label, "count": count, "us_each": round(seconds / count * 1e6, 2)})
        )


if __name__ == "__main__":
    main()
