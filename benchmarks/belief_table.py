"""Measure what a player's actions say about its hidden hand: the table of players/likelihoods.py.

Hands are played on the engine (classic rules, 2 and 4 seats) by a mixed population — the
``uno-rule-v1`` port of ``ai_bench``, ``normal`` and ``easy`` at random seats — and at every
action that says something the script looks at the true hand of its player (the script sees
every card; no player does):

- ``drew``: a seat draws on its turn; its hand before the draw, against the top card and the
  colour in play;
- ``wild`` / ``wd4``: a seat plays a Wild (or Swap Hands) / a draw wild on its turn; its hand
  right after, against the top card and colour it was played on;
- ``named``: the same hand against the colour the wild named;
- ``kept``: a seat keeps the card it drew (``Pass``); that card, against the top card.

Each card of such a hand falls in one of :func:`players.belief.category`'s categories
(colour in play, same symbol, plain wild, draw wild, other). For each action and category
the script sums the cards found and the cards expected had the hand been dealt at random
from what the next seat could not see (the deck less its own hand and the discard pile);
their ratio, divided by the ratio of "other", is the weight :class:`players.belief.Dealer`
gives a card of that category when it deals that player's hidden cards (0: never held, 1:
no information, above 1: more likely than chance).

    python benchmarks/belief_table.py [--hands 3000] [--seed 11]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_bench import rule_agent

from engine import Action, CardFace, Colour, GameState, Kind, PlayerView, Rules, new_hand
from engine.events import CardPlayed, CardsDrawn, DrawCause, Passed
from players import decide
from players.arena import transitions
from players.belief import CATEGORIES, category

KINDS = ("drew", "wild", "wd4", "named", "kept")
POLICIES = ("rule", "normal", "easy")


class Tally:
    def __init__(self) -> None:
        self.found = {k: [0.0] * len(CATEGORIES) for k in KINDS}
        self.expected = {k: [0.0] * len(CATEGORIES) for k in KINDS}
        self.events = dict.fromkeys(KINDS, 0)

    def add(
        self,
        kind: str,
        cards: Sequence[CardFace],
        pool: Sequence[CardFace],
        top: CardFace | None,
        colour: Colour | None,
    ) -> None:
        self.events[kind] += 1
        for face in cards:
            self.found[kind][category(face, top, colour)] += 1
        share = len(cards) / len(pool) if pool else 0.0
        for face in pool:
            self.expected[kind][category(face, top, colour)] += share

    def table(self) -> dict[str, tuple[float, ...]]:
        result = {}
        for kind in KINDS:
            ratios = [
                f / e if e else 1.0
                for f, e in zip(self.found[kind], self.expected[kind], strict=True)
            ]
            other = ratios[-1] or 1.0
            result[kind] = tuple(round(r / other, 3) for r in ratios)
        return result


def observe(tally: Tally, before: GameState, after: GameState, events: Sequence[object]) -> None:
    faces = before.deck.sides[before.side]
    for event in events:
        seat = getattr(event, "seat", None)
        if seat is None:
            continue
        observer = (seat + 1) % before.seats
        hidden = set(range(len(faces))) - set(before.discard) - set(before.hands[observer])
        pool = [faces[c] for c in hidden]
        if isinstance(event, CardsDrawn) and event.cause is DrawCause.DRAW:
            hand = [faces[c] for c in before.hands[seat]]
            tally.add("drew", hand, pool, before.top, before.colour)
        elif isinstance(event, CardPlayed) and event.face.is_wild and not event.jump_in:
            hand = [faces[c] for c in after.hands[seat]]
            draw_wild = event.face.kind not in (Kind.WILD, Kind.SWAP_HANDS, Kind.BLANK)
            tally.add("wd4" if draw_wild else "wild", hand, pool, before.top, before.colour)
            if event.colour is not None:
                tally.add("named", hand, pool, None, event.colour)
        elif isinstance(event, Passed) and before.drawn is not None:
            tally.add("kept", [faces[before.drawn]], pool, before.top, before.colour)


def play(tally: Tally, rules: Rules, seats: int, number: int, seed: int) -> None:
    rng = random.Random(seed * 7919 + number)
    kinds = [POLICIES[int(rng.random() * len(POLICIES))] for _ in range(seats)]
    rngs = [random.Random(seed * 1_000_003 + number * 31 + s) for s in range(seats)]
    state = new_hand(rules, seats, dealer=number % seats, seed=seed * 1_000_003 + number).state

    def ask(seat: int, view: PlayerView) -> Action | None:
        if kinds[seat] == "rule":
            return rule_agent(view, rngs[seat])
        return decide(kinds[seat], view, rngs[seat])

    for _, before, transition in transitions(state, seats, ask):
        observe(tally, before, transition.state, transition.events)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per table size")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    rules = Rules.from_preset("classic")
    tally = Tally()
    for seats in (2, 4):
        for number in range(args.hands):
            play(tally, rules, seats, number, args.seed)
    print("events:", tally.events)
    print("categories:", CATEGORIES)
    for kind, weights in tally.table().items():
        print(f"    {kind!r}: {weights},")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
