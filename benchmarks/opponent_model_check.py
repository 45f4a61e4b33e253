"""Is the opponent model what ``hard`` lacks? ``hard`` told exactly how its opponents play.

``hard``'s rollouts play every seat as ``normal`` (``players/fastsim.py``), while the
yardstick of ``benchmarks/ai_bench.py``, the ``uno-rule-v1`` port, plays a random matching
card. With ``--model rule`` this script gives ``hard`` what no real table can: its fast
rollouts play every seat but its own exactly as the port does — a random matching coloured
card, else a Wild naming a random colour, else a Wild Draw Four naming the colour held most,
else a draw; a drawn card played when it is a wild or of the colour in play; a Wild Draw
Four always taken, never challenged. Everything else (the belief, the deals, the race, its
own seat's policy) is unchanged. ``--model normal`` is ``ai_bench`` as it is.

The rest of the arguments go to ``ai_bench.py --levels hard --opponents rule --presets
classic --duplicate``; the same ``--seed`` gives the same deals to both models, so the two
rates compare hand for hand. The change lives in this process only (and the processes it
forks): ``players/`` is not modified.

    python benchmarks/opponent_model_check.py --model rule --seats 2 --hands 1000 --seed 2
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai_bench

from engine import PlayerView
from players import fastsim, hard
from players.belief import Dealer


class RuleSeatsSim(fastsim.Sim):
    """A rollout in which every seat but ``me`` plays as the ``uno-rule-v1`` port."""

    __slots__ = ("me",)

    @classmethod
    def adopt(cls, sim: fastsim.Sim, me: int) -> RuleSeatsSim:
        """``sim`` (a plain simulator) as one whose other seats play the port."""
        new = cls.__new__(cls)
        for name in fastsim.Sim.__slots__:
            setattr(new, name, getattr(sim, name))
        new.me = me
        return new

    def copy(self, seed: int) -> RuleSeatsSim:
        return RuleSeatsSim.adopt(super().copy(seed), self.me)

    def turn(self) -> bool:
        seat = self.current
        if seat == self.me:
            return super().turn()
        hand = self.hands[seat]
        top, colour = self.card, self.colour
        matching = [
            i for i, c in enumerate(hand) if c >> 4 != 4 and fastsim.playable(c, top, colour)
        ]
        if matching:
            i = matching[int(self.chance().random() * len(matching))]
            return self.play(seat, i, hand[i] >> 4)
        for i, c in enumerate(hand):
            if c >> 4 == 4 and c & 15 == fastsim.WILD:
                return self.play(seat, i, int(self.chance().random() * 4))
        for i, c in enumerate(hand):
            if c >> 4 == 4:
                return self.play(seat, i, fastsim.best_colour(hand[:i] + hand[i + 1 :]))
        card = self.draw(seat, 1)
        if card >= 0 and (card >> 4 == 4 or card >> 4 == colour):
            named = int(self.chance().random() * 4) if card >> 4 == 4 else colour
            return self.play(seat, len(hand) - 1, named)
        self.current = self.next(seat)
        return False

    def wild_four(self, seat: int, victim: int, prior: int) -> None:
        if victim == self.me:
            super().wild_four(seat, victim, prior)
            return
        self.draw(victim, 4)  # the port takes it: it never challenges
        self.current = self.next(victim)


def tell_hard_the_port() -> None:
    """Make ``hard``'s fast rollouts play the other seats as the port (this process)."""
    root_sim = hard._root_sim

    def knowing(view: PlayerView, dealer: Dealer, rng: random.Random) -> fastsim.Sim:
        return RuleSeatsSim.adopt(root_sim(view, dealer, rng), view.seat)

    hard._root_sim = knowing


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--model", choices=("normal", "rule"), default="rule")
    args, rest = parser.parse_known_args(argv)
    if args.model == "rule":
        tell_hard_the_port()
    print(f"hard's rollouts model the other seats as: {args.model}", flush=True)
    fixed = ["--levels", "hard", "--opponents", "rule", "--presets", "classic", "--duplicate"]
    return ai_bench.main([*fixed, *rest])


if __name__ == "__main__":
    raise SystemExit(main())
