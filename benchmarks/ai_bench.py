"""Strength and speed of the computer players (players/) against independent yardsticks.

Our levels play against two opponents that are not ours, so the figures do not flatter them:

- ``rule``: a port of RLCard 1.2.0's rule agent ``uno-rule-v1``
  (``rlcard/models/uno_rule_models.py``, with the legal actions of ``rlcard/games/uno/round.py``);
  see :func:`rule_agent` for what it does and how RLCard's rules map onto ours.
- ``random``: play-first random: a random playable card (a wild naming a random colour),
  drawing only when nothing is playable, playing a drawn card when it can.
- ``uniform``: uniformly random legal actions (it draws as often as it plays; weak).

A pairing puts one of our levels against the opponent at every other seat (heads-up: one;
``4p``: three). Each hand number ``k`` has one deal (seed ``seed * 1_000_003 + k``), the same
for every pairing (common random deals), and both our seat (``k mod n``) and the dealer
(``k div n mod n``) rotate, so nobody keeps the first move or a seat. Every seat is driven by
:func:`players.next_actor`, the protocol of the bot's clock (the seat whose UNO window is open
is asked first), through :func:`players.arena.play_hand`.

A hand is won by the seat ranked first (R-END-1; a blocked hand by the fewest points,
R-SCORE-6). The win rate per hand is printed with a Wilson 95 % interval (even: 50 %
heads-up, 25 % at 4p), with the median and p99 wall time of our level's turn decisions
(the current seat choosing: where ``hard`` searches). Hands are split over ``--jobs``
processes, so on a busy machine the times include waiting for a core.

``--duplicate`` plays every deal once per seat instead (duplicate deals): deal ``d`` (seed
``seed * 1_000_003 + d``, dealer ``d mod n``) is played with our level in seat 0, then seat 1,
…, the deck and the dealer the same, so the luck of the deal cancels; ``--hands`` counts every
hand played (heads-up, 2,000 hands are 1,000 deals). It reports the win rate over all hands
with its Wilson 95 % interval, the deals won in every seat, in some or in none, and the
decision times of our level's turn decisions p50/p99 both as wall time and as the CPU time
of the deciding thread (``time.thread_time``), which a shared machine does not inflate.

    python benchmarks/ai_bench.py [--levels easy,normal,hard] [--opponents rule,random]
        [--presets classic,party,online,flip] [--seats 2,4] [--hands 2000] [--jobs 2]
        [--seed 1] [--hands-for hard=400] [--duplicate]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import players
from engine import (
    Action,
    CallUno,
    CardFace,
    ChooseColour,
    Colour,
    Draw,
    Kind,
    Pass,
    Phase,
    Play,
    PlayerView,
    Rules,
)
from engine.cards import matches
from engine.events import Event
from players import easy
from players.arena import LevelPolicy, Policy, play_hand

# -- the yardsticks -----------------------------------------------------------------------


def _colours(view: PlayerView) -> list[Colour]:
    """The colours a wild may name at this table (the side in play, for UNO Flip)."""
    return sorted(
        {a.colour for a in view.legal if type(a) is Play and a.colour is not None},
        key=lambda c: c.value,
    )


def _wild_play(view: PlayerView, face: CardFace, colour: Colour) -> Action:
    """The legal play of wild ``face`` naming ``colour`` (first target for Swap Hands)."""
    for action in view.legal:
        if type(action) is Play and action.face == face and action.colour is colour:
            return action
    raise ValueError(f"no legal play of {face} naming {colour}")


#: RLCard's deck prints a colour on every wild: one Wild and one Wild Draw Four of each, in
#: this order. Ours print none; the port reads the k-th wild of a face (card-id order) so.
PRINTED = (Colour.RED, Colour.GREEN, Colour.BLUE, Colour.YELLOW)


def _printed(view: PlayerView, card: int, colours: list[Colour]) -> Colour:
    """The colour RLCard's deck would print on our wild ``card`` (UNO Flip: the first)."""
    faces = view.table.rules.deck().sides[view.table.side]
    rank = sum(1 for c in range(card) if faces[c] == faces[card])
    colour = PRINTED[rank % len(PRINTED)]
    return colour if colour in colours else colours[0]


def _take(view: PlayerView) -> Action:
    """Drawing (taking a penalty) or passing, whichever is legal."""
    for action in view.legal:
        if type(action) is Draw:
            return action
    for action in view.legal:
        if type(action) is Pass:
            return action
    return view.legal[0]


def rule_agent(view: PlayerView, rng: random.Random) -> Action | None:
    """A port of RLCard 1.2.0's ``UNORuleAgentV1`` (``uno-rule-v1``), from its seat's view.

    RLCard's legal actions (``UnoRound.get_legal_actions``): every card in hand that matches
    the colour or the symbol of the top card, one entry *per card* (two Red 5s: two entries);
    if it holds a Wild, the four ``colour-wild`` entries; a Wild Draw Four only when nothing
    else is legal (its four colours); ``draw`` only when nothing at all is. The agent
    (``UNORuleAgentV1.step``):

    1. ``draw`` if it is legal;
    2. a legal Wild Draw Four, naming the colour it holds most of (its non-wild cards; ties:
       the first such card in hand order — here card-id order; holding only wilds, it counts
       the colour letters RLCard's deck prints on them: see :data:`PRINTED`);
    3. otherwise a uniformly random entry of the legal actions without the wilds, unless only
       wilds are legal: then a random ``colour-wild`` (a Wild naming a random colour).

    RLCard then plays a drawn card at once if it is a wild (a random colour) or has the colour
    in play, and keeps it otherwise (even when its symbol matches): so does the port. What
    RLCard's game does not have, the port does as RLCard's game would: it takes every Draw
    Two and Wild Draw Four (no stacking, no challenge), names a random colour for a Wild
    turned up at the start, always calls UNO (RLCard has no penalty for it), never catches
    and never jumps in. UNO Flip's Wild Draw Two and Wild Draw Colour count as its Wild Draw
    Four, its Flip card as a coloured action card.
    """
    table = view.table
    legal = view.legal
    if not legal:
        return None
    if view.seat != table.current:
        return next((a for a in legal if type(a) is CallUno), None)
    phase = table.phase
    if phase is Phase.CHOOSE_COLOUR:
        options = [a for a in legal if type(a) is ChooseColour]
        return options[int(rng.random() * len(options))]
    if phase in (Phase.PENALTY, Phase.CHALLENGE):
        return _take(view)
    colours = _colours(view)
    hand = [face for _, face in view.hand]
    if phase is Phase.DRAWN:
        drawn = next((f for c, f in view.hand if c == view.drawn), None)
        plays = [a for a in legal if type(a) is Play]
        if drawn is not None and plays:
            if drawn.is_wild:
                return _wild_play(view, drawn, colours[int(rng.random() * len(colours))])
            if drawn.colour is table.colour:
                return next(a for a in plays if a.face == drawn)
        return _take(view)
    # Phase.PLAY: RLCard's legal actions from the hand.
    top = table.top
    coloured = [f for f in hand if not f.is_wild and matches(f, top, table.colour)]
    wilds = [f for f in hand if f.kind is Kind.WILD]
    draw_wilds = [f for f in hand if f.is_wild and f.kind is not Kind.WILD]
    if coloured or wilds:
        if coloured:  # filter_wild removes the wild entries when anything else is legal
            face = coloured[int(rng.random() * len(coloured))]
            return next(a for a in legal if type(a) is Play and a.face == face)
        return _wild_play(view, wilds[0], colours[int(rng.random() * len(colours))])
    if draw_wilds:
        counts: dict[Colour, int] = {}
        for face in hand:
            if face.colour is not None:
                counts[face.colour] = counts.get(face.colour, 0) + 1
        if counts:
            colour = max(counts, key=counts.__getitem__)
        else:  # only wilds: RLCard counts the colour letters printed on them
            colour = _printed(view, next(c for c, f in view.hand if f.is_wild), colours)
        return _wild_play(view, draw_wilds[0], colour)
    return _take(view)


def random_first(view: PlayerView, rng: random.Random) -> Action | None:
    """Play-first random: a random playable card, drawing only when nothing is playable.

    On its turn it picks a random playable card (each card in hand equally likely; a wild
    names a random colour, Swap Hands a random target), stacks a random card on a Draw Two or
    Wild Draw Four when it can (else takes the cards; it never challenges), plays a drawn
    card when it can, names a random start colour. Out of turn it always calls UNO and never
    catches or jumps in.
    """
    table = view.table
    legal = view.legal
    if not legal:
        return None
    if view.seat != table.current:
        return next((a for a in legal if type(a) is CallUno), None)
    plays = [a for a in legal if type(a) is Play]
    if table.phase is Phase.CHOOSE_COLOUR:
        return legal[int(rng.random() * len(legal))]
    if plays:
        cards = [f for _, f in view.hand if any(p.face == f for p in plays)]
        face = cards[int(rng.random() * len(cards))]
        options = [p for p in plays if p.face == face]
        return options[int(rng.random() * len(options))]
    return _take(view)


def policy(name: str) -> Policy:
    """A level's decide function, or a yardstick's."""
    if name == "rule":
        return rule_agent
    if name == "random":
        return random_first
    if name == "uniform":
        return easy.uniform

    if name not in players.LEVELS:
        raise ValueError(f"unknown level or yardstick {name!r}")
    return LevelPolicy(name)


# -- running ------------------------------------------------------------------------------


class TimedLevel(LevelPolicy):
    """One of our levels that times its own turn decisions, in wall and CPU seconds."""

    def __init__(self, level: str) -> None:
        super().__init__(level)
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __call__(
        self, view: PlayerView, rng: random.Random, history: Sequence[Event] = ()
    ) -> Action | None:
        wall, cpu = time.perf_counter(), time.thread_time()
        action = super().__call__(view, rng, history)
        if view.seat == view.table.current:
            self.cpu.append(time.thread_time() - cpu)
            self.wall.append(time.perf_counter() - wall)
        return action


DuplicateJob = tuple[str, str, int, str, int, int, int]


def _duplicate_chunk(job: DuplicateJob) -> tuple[list[int], list[float], list[float]]:
    """Play deals ``first..first+count`` once with our level in every seat; (per deal, the
    seats it won in; our turn times wall; CPU)."""
    level, opponent, seats, preset, seed, first, count = job
    rules = Rules.from_preset(preset)
    theirs = policy(opponent)
    ours = TimedLevel(level)
    won: list[int] = []
    for deal in range(first, first + count):
        dealer = deal % seats
        wins = 0
        for me in range(seats):
            policies = [ours if seat == me else theirs for seat in range(seats)]
            state = play_hand(rules, policies, seed=seed * 1_000_003 + deal, dealer=dealer)
            wins += bool(state.ranking) and state.ranking[0] == me
        won.append(wins)
    return won, ours.wall, ours.cpu


def run_duplicate(
    level: str,
    opponent: str,
    seats: int,
    deals: int,
    *,
    preset: str,
    seed: int,
    jobs: int,
    pool: multiprocessing.pool.Pool | None,
) -> tuple[list[int], float, list[float], list[float]]:
    """Play ``deals`` deals in every seat; (seats won per deal, wall seconds, turn times wall,
    turn times CPU)."""
    size = max(1, min(10, deals // (jobs * 4) or 1))
    chunks: list[DuplicateJob] = [
        (level, opponent, seats, preset, seed, first, min(size, deals - first))
        for first in range(0, deals, size)
    ]
    started = time.perf_counter()
    if pool is not None:
        results = pool.map(_duplicate_chunk, chunks)
    else:
        results = [_duplicate_chunk(c) for c in chunks]
    won = [w for r in results for w in r[0]]
    wall = [t for r in results for t in r[1]]
    cpu = [t for r in results for t in r[2]]
    return won, time.perf_counter() - started, wall, cpu


def _ms(values: Sequence[float], q: float) -> float:
    return percentile(values, q) * 1e3 if values else 0.0


def duplicate_main(args: argparse.Namespace, overrides: dict[str, int]) -> int:
    """``--duplicate``: every deal once per seat (module docstring)."""
    figures: list[dict[str, object]] = []
    print(f"seed {args.seed}, {args.jobs} process(es), duplicate deals", flush=True)
    ctx = multiprocessing.get_context("fork")
    pool = ctx.Pool(args.jobs) if args.jobs > 1 else None
    try:
        for preset in _split(args.presets):
            for level in _split(args.levels):
                hands = min(
                    overrides.get(level, args.hands),
                    overrides.get(preset, args.hands),
                    overrides.get(f"{level}@{preset}", 10**9),
                )
                for opponent in _split(args.opponents):
                    for seats in (int(s) for s in _split(args.seats)):
                        deals = max(1, hands // seats)
                        played = deals * seats
                        won, wall_s, wall, cpu = run_duplicate(
                            level,
                            opponent,
                            seats,
                            deals,
                            preset=preset,
                            seed=args.seed,
                            jobs=args.jobs,
                            pool=pool,
                        )
                        wins = sum(won)
                        low, high = wilson(wins, played)
                        every = sum(1 for w in won if w == seats)
                        none = sum(1 for w in won if w == 0)
                        times = {
                            "decisions": len(wall),
                            "wall_p50_ms": round(_ms(wall, 0.5), 3),
                            "wall_p99_ms": round(_ms(wall, 0.99), 3),
                            "cpu_p50_ms": round(_ms(cpu, 0.5), 3),
                            "cpu_p99_ms": round(_ms(cpu, 0.99), 3),
                            "cpu_max_ms": round(max(cpu) * 1e3, 3) if cpu else 0.0,
                            "cpu_total_s": round(sum(cpu), 1),
                        }
                        name = f"{preset:<8} {level} vs {opponent} {seats}p duplicate"
                        print(
                            f"{name:<38} {wins / played:6.1%} of {played} hands ({deals} deals)"
                            f"  95% CI [{low:.1%}, {high:.1%}]"
                            f"  deals won in every seat {every}, in none {none}",
                            flush=True,
                        )
                        print(
                            f"{'':<38} turn decisions {times['decisions']}:"
                            f" wall p50 {times['wall_p50_ms']:.2f} ms"
                            f" p99 {times['wall_p99_ms']:.2f} ms;"
                            f" CPU p50 {times['cpu_p50_ms']:.2f} ms"
                            f" p99 {times['cpu_p99_ms']:.2f} ms"
                            f" max {times['cpu_max_ms']:.2f} ms"
                            f"  ({wall_s:.0f} s wall; our decisions {times['cpu_total_s']} s CPU)",
                            flush=True,
                        )
                        figures.append(
                            {
                                "preset": preset,
                                "level": level,
                                "opponent": opponent,
                                "seats": seats,
                                "duplicate": True,
                                "deals": deals,
                                "hands": played,
                                "wins": wins,
                                "rate": round(wins / played, 4),
                                "ci95": [round(low, 4), round(high, 4)],
                                "deals_won_every_seat": every,
                                "deals_won_no_seat": none,
                                "seconds": round(wall_s, 1),
                                **times,
                            }
                        )
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    print(json.dumps({"run": "ai_bench", "seed": args.seed, "pairings": figures}), flush=True)
    return 0


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


Job = tuple[str, str, int, str, int, int, int]


def _chunk(job: Job) -> tuple[int, int, list[float]]:
    """Play hands ``first..first+count`` of a pairing; (our wins, hands, our turn times)."""
    level, opponent, seats, preset, seed, first, count = job
    rules = Rules.from_preset(preset)
    ours, theirs = policy(level), policy(opponent)
    times: list[float] = []
    wins = 0
    for number in range(first, first + count):
        me = number % seats
        dealer = (number // seats) % seats
        policies = [ours if seat == me else theirs for seat in range(seats)]

        def timer(seat: int, seconds: float, turn: bool, me: int = me) -> None:
            if turn and seat == me:
                times.append(seconds)

        state = play_hand(
            rules, policies, seed=seed * 1_000_003 + number, dealer=dealer, timer=timer
        )
        wins += bool(state.ranking) and state.ranking[0] == me
    return wins, count, times


def run(
    level: str,
    opponent: str,
    seats: int,
    hands: int,
    *,
    preset: str,
    seed: int,
    jobs: int,
    pool: multiprocessing.pool.Pool | None,
) -> tuple[int, float, list[float]]:
    """Play ``hands`` hands; (our wins, wall seconds, our turn decision times)."""
    size = max(1, min(25, hands // (jobs * 4) or 1))
    chunks: list[Job] = [
        (level, opponent, seats, preset, seed, first, min(size, hands - first))
        for first in range(0, hands, size)
    ]
    started = time.perf_counter()
    results = pool.map(_chunk, chunks) if pool is not None else [_chunk(c) for c in chunks]
    wins = sum(r[0] for r in results)
    times = [t for r in results for t in r[2]]
    return wins, time.perf_counter() - started, times


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--levels", default=",".join(players.LEVELS))
    parser.add_argument("--opponents", default="rule,random")
    parser.add_argument("--presets", default="classic,party,online,flip")
    parser.add_argument("--seats", default="2,4", help="table sizes, e.g. 2,4")
    parser.add_argument("--hands", type=int, default=2000, help="hands per pairing")
    parser.add_argument(
        "--hands-for",
        action="append",
        default=[],
        metavar="NAME=N",
        help="hands per pairing for one level or preset (repeatable), e.g. hard=400",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="processes (1: this one only)")
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play every deal once per seat (our level in seat 0, then 1, ...): duplicate deals",
    )
    args = parser.parse_args(argv)
    overrides: dict[str, int] = {}
    for item in args.hands_for:
        name, _, count = item.partition("=")
        overrides[name.strip()] = int(count)
    if args.duplicate:
        return duplicate_main(args, overrides)

    figures: list[dict[str, object]] = []
    speed: dict[str, list[float]] = {}
    print(f"seed {args.seed}, {args.jobs} process(es)", flush=True)
    ctx = multiprocessing.get_context("fork")
    pool = ctx.Pool(args.jobs) if args.jobs > 1 else None
    try:
        for preset in _split(args.presets):
            for level in _split(args.levels):
                hands = min(
                    overrides.get(level, args.hands),
                    overrides.get(preset, args.hands),
                    overrides.get(f"{level}@{preset}", 10**9),
                )
                for opponent in _split(args.opponents):
                    for seats in (int(s) for s in _split(args.seats)):
                        wins, wall, times = run(
                            level,
                            opponent,
                            seats,
                            hands,
                            preset=preset,
                            seed=args.seed,
                            jobs=args.jobs,
                            pool=pool,
                        )
                        low, high = wilson(wins, hands)
                        median = statistics.median(times) * 1e3 if times else 0.0
                        p99 = percentile(times, 0.99) * 1e3 if times else 0.0
                        speed.setdefault(f"{level}@{seats}p", []).extend(times)
                        name = f"{preset:<8} {level} vs {opponent} {seats}p"
                        print(
                            f"{name:<28} {wins / hands:6.1%} of {hands} hands"
                            f"  95% CI [{low:.1%}, {high:.1%}]"
                            f"  turn p50 {median:.2f} ms p99 {p99:.2f} ms  ({wall:.0f} s)",
                            flush=True,
                        )
                        figures.append(
                            {
                                "preset": preset,
                                "level": level,
                                "opponent": opponent,
                                "seats": seats,
                                "hands": hands,
                                "wins": wins,
                                "rate": round(wins / hands, 4),
                                "ci95": [round(low, 4), round(high, 4)],
                                "p50_ms": round(median, 3),
                                "p99_ms": round(p99, 3),
                                "seconds": round(wall, 1),
                            }
                        )
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    times_summary = {
        key: {
            "decisions": len(values),
            "p50_ms": round(statistics.median(values) * 1e3, 3),
            "p99_ms": round(percentile(values, 0.99) * 1e3, 3),
        }
        for key, values in speed.items()
        if values
    }
    for key, summary in times_summary.items():
        print(
            f"{key:<12} turn decision: p50 {summary['p50_ms']:8.3f} ms"
            f"  p99 {summary['p99_ms']:8.3f} ms  ({summary['decisions']} decisions)",
            flush=True,
        )
    print(
        json.dumps(
            {"run": "ai_bench", "seed": args.seed, "pairings": figures, "speed": times_summary}
        ),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
