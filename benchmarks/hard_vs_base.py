"""This tree's ``hard`` against ``hard`` as it was at an earlier commit, on duplicate deals.

The ``players`` package of ``--base`` (a git revision of this repository) is extracted into
a temporary directory as the package ``players_base`` (its modules import one another
relatively, so nothing is rewritten) and plays the other seats. Deal ``d`` (seed
``seed * 1_000_003 + d``, dealer ``d mod n``) is played once with this tree's ``hard`` in
every seat, the deck and the dealer the same, so the luck of the deal cancels. Both read the
hand's history as their seat saw it (:class:`players.arena.LevelPolicy`). Prints the rate
of hands won by this tree's ``hard`` with a Wilson 95 % interval, and the p50/p99 CPU time
of its turn decisions (``time.thread_time``).

    python benchmarks/hard_vs_base.py [--base bf0994d] [--seats 2] [--hands 1000] [--jobs 2]
"""

from __future__ import annotations

import argparse
import importlib
import io
import multiprocessing
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_bench import TimedLevel, percentile, wilson

from engine import Action, PlayerView, Rules
from engine.events import Event
from players.arena import LevelPolicy, play_hand

ROOT = Path(__file__).resolve().parent.parent
BASE: ModuleType | None = None


def load_base(revision: str) -> ModuleType:
    """The ``players`` package of ``revision``, imported as ``players_base``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "players"],
        check=True,
        capture_output=True,
    ).stdout
    target = Path(tempfile.mkdtemp(prefix="players_base_"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    (target / "players").rename(target / "players_base")
    sys.path.insert(0, str(target))
    return importlib.import_module("players_base")


class BaseLevel(LevelPolicy):
    """``hard`` of the base revision, with the history of its seat."""

    def __call__(
        self, view: PlayerView, rng: random.Random, history: Sequence[Event] = ()
    ) -> Action | None:
        assert BASE is not None
        action: Action | None = BASE.decide(self.level, view, rng, history)
        return action


def _chunk(job: tuple[int, int, int, int, str]) -> tuple[list[int], list[float]]:
    seats, seed, first, count, preset = job
    rules = Rules.from_preset(preset)
    ours, theirs = TimedLevel("hard"), BaseLevel("hard")
    won: list[int] = []
    for deal in range(first, first + count):
        wins = 0
        for me in range(seats):
            policies = [ours if s == me else theirs for s in range(seats)]
            state = play_hand(rules, policies, seed=seed * 1_000_003 + deal, dealer=deal % seats)
            wins += bool(state.ranking) and state.ranking[0] == me
        won.append(wins)
    return won, ours.cpu


def main(argv: Sequence[str] | None = None) -> int:
    global BASE
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--base", default="bf0994d", help="git revision of the old hard")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--hands", type=int, default=1000, help="hands in all (deals x seats)")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    BASE = load_base(args.base)
    deals = max(1, args.hands // args.seats)
    size = max(1, min(10, deals // (args.jobs * 4) or 1))
    jobs = [
        (args.seats, args.seed, first, min(size, deals - first), args.preset)
        for first in range(0, deals, size)
    ]
    started = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = pool.map(_chunk, jobs)
    else:
        results = [_chunk(job) for job in jobs]
    won = [w for r in results for w in r[0]]
    cpu = [t for r in results for t in r[1]]
    played = len(won) * args.seats
    wins = sum(won)
    low, high = wilson(wins, played)
    print(
        f"{args.preset} hard vs hard@{args.base} {args.seats}p duplicate:"
        f" {wins / played:.1%} of {played} hands ({len(won)} deals)"
        f"  95% CI [{low:.1%}, {high:.1%}]  (even: {1 / args.seats:.0%})"
    )
    print(
        f"turn decisions {len(cpu)}: CPU p50 {percentile(cpu, 0.5) * 1e3:.1f} ms"
        f" p99 {percentile(cpu, 0.99) * 1e3:.1f} ms"
        f"  ({time.perf_counter() - started:.0f} s wall)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
