"""Check ``ai_bench``'s port of RLCard's ``uno-rule-v1`` against the original, decision by decision.

Hands are played on our engine (classic rules) with the port at every seat (and, with
``--mix``, ``normal`` at every other seat, for states the port would not reach by itself).
At every decision the port takes on its turn where RLCard's game has the same decision, the
same state is written in RLCard's terms and given to RLCard 1.2.0's own code:

- **a turn** (``Phase.PLAY``): the hand (in the view's order) as ``UnoCard`` strings, the top
  card with the colour in play as RLCard's ``target``, the legal actions from RLCard's own
  ``UnoRound.get_legal_actions``, and ``UNORuleAgentV1.step`` decides;
- **a card drawn** (``Phase.DRAWN``): RLCard's game, not its agent, decides what happens to
  a drawn card (``UnoRound._perform_draw_action``: a wild is played naming a random colour, a
  card of the colour in play is played, anything else is kept); the round is run on the
  same target with the drawn card on its deck.

The agent draws at random among its legal non-wild entries (``np.random.choice``), so both
sides are compared as **distributions**, exactly, with no sampling: RLCard's by running
``step`` once for every element ``np.random.choice`` could return (the function is replaced,
for the call, by one that returns the k-th element), the port's by running it with a
generator whose ``random()`` makes ``int(x * n)`` return each index in turn. A state agrees
to the extent the two distributions overlap (one minus their total variation distance); a
state where both are certain (draw, a Wild Draw Four, a single legal card, a drawn card
kept) agrees or not. RLCard's wild cards are printed with a colour letter (its deck has one
Wild and one Wild Draw Four of each colour); ours have none, so the k-th Wild (Wild Draw
Four) of our deck, in card-id order, is written with RLCard's k-th colour ``r, g, b, y``.

Needs RLCard (``pip install -e ".[bench]"``); without it the check says so and exits 0.

    python benchmarks/rule_agent_check.py [--hands 300] [--seats 2,4] [--seed 1] [--mix]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_bench import rule_agent

from engine import (
    Action,
    CardFace,
    Colour,
    Draw,
    Kind,
    Pass,
    Phase,
    Play,
    PlayerView,
    Rules,
    new_hand,
)
from players import decide
from players.arena import transitions

LETTERS = {Colour.RED: "r", Colour.GREEN: "g", Colour.BLUE: "b", Colour.YELLOW: "y"}
PRINTED = ("r", "g", "b", "y")  # RLCard's colour order: the k-th wild of a kind is printed so
TRAITS = {
    Kind.SKIP: "skip",
    Kind.REVERSE: "reverse",
    Kind.DRAW_TWO: "draw_2",
    Kind.WILD: "wild",
    Kind.WILD_DRAW_FOUR: "wild_draw_4",
}


def load_rlcard() -> Any | None:
    """RLCard's modules, or ``None`` when it is not installed."""
    try:
        import numpy
        from rlcard.games.uno import round as uno_round
        from rlcard.games.uno.card import UnoCard
        from rlcard.models.uno_rule_models import UNORuleAgentV1
    except ImportError:
        return None
    return argparse.Namespace(numpy=numpy, round=uno_round, card=UnoCard, agent=UNORuleAgentV1())


def printed(deck_faces: Sequence[CardFace]) -> dict[int, str]:
    """The colour letter RLCard would print on each of our wild cards (by card id)."""
    letters: dict[int, str] = {}
    rank: dict[Kind, int] = {}
    for card, face in enumerate(deck_faces):
        if face.is_wild:
            k = rank.get(face.kind, 0)
            rank[face.kind] = k + 1
            letters[card] = PRINTED[k % 4]
    return letters


def to_card(rl: Any, face: CardFace, letter: str | None = None) -> Any:
    """Our face as an ``UnoCard`` (a wild with ``letter``, its printed or named colour)."""
    if face.is_wild:
        return rl.card("wild", letter, TRAITS[face.kind])
    assert face.colour is not None
    if face.kind is Kind.NUMBER:
        return rl.card("number", LETTERS[face.colour], str(face.number))
    return rl.card("action", LETTERS[face.colour], TRAITS[face.kind])


def to_string(action: Action, view: PlayerView) -> str:
    """Our action in RLCard's words."""
    if type(action) is Draw:
        return "draw"
    if type(action) is Pass:
        return "keep"
    assert type(action) is Play
    face = action.face
    if face.is_wild:
        assert action.colour is not None
        return f"{LETTERS[action.colour]}-{TRAITS[face.kind]}"
    return to_card_string(face)


def to_card_string(face: CardFace) -> str:
    assert face.colour is not None
    trait = str(face.number) if face.kind is Kind.NUMBER else TRAITS[face.kind]
    return f"{LETTERS[face.colour]}-{trait}"


class Probe(float):
    """A ``random()`` value that makes ``int(x * n)`` give index ``k`` and remembers ``n``."""

    def __new__(cls, k: int, seen: list[int]) -> Probe:
        probe = super().__new__(cls, 0.0)
        probe.k, probe.seen = k, seen  # type: ignore[attr-defined]
        return probe

    def __mul__(self, n: object) -> float:
        assert isinstance(n, int)
        self.seen.append(n)  # type: ignore[attr-defined]
        return self.k + 0.5 if self.k < n else 0.5  # type: ignore[attr-defined]


class ProbeRandom(random.Random):
    def __init__(self, ks: list[int]) -> None:
        super().__init__(0)
        self.ks = ks
        self.calls = 0
        self.sizes: list[int] = []

    def random(self) -> float:
        k = self.ks[self.calls] if self.calls < len(self.ks) else 0
        self.calls += 1
        return Probe(k, self.sizes)


def enumerate_choices(run: Callable[[list[int]], tuple[str, list[int]]]) -> dict[str, float]:
    """The exact distribution of ``run``'s answer over the indices its random draws return
    (``run(ks)`` answers with the k-th option at each draw and reports the sizes drawn from)."""
    result: dict[str, float] = {}

    def walk(prefix: list[int], weight: float) -> None:
        answer, sizes = run(prefix)
        if len(sizes) <= len(prefix):
            result[answer] = result.get(answer, 0.0) + weight
            return
        n = sizes[len(prefix)]
        for k in range(n):
            walk([*prefix, k], weight / n)

    walk([], 1.0)
    return result


def port_distribution(view: PlayerView) -> dict[str, float]:
    def run(ks: list[int]) -> tuple[str, list[int]]:
        rng = ProbeRandom(ks)
        action = rule_agent(view, rng)
        assert action is not None
        return to_string(action, view), rng.sizes

    return enumerate_choices(run)


@contextmanager
def scripted_choice(rl: Any, ks: list[int], sizes: list[int]) -> Iterator[None]:
    """Replace ``numpy.random.choice`` (and a round's ``np_random.choice``) by the k-th
    element, recording the sizes chosen from."""
    calls = [0]

    def choice(options: Sequence[Any]) -> Any:
        k = ks[calls[0]] if calls[0] < len(ks) else 0
        calls[0] += 1
        sizes.append(len(options))
        return list(options)[k]

    original = rl.numpy.random.choice
    rl.numpy.random.choice = choice
    try:
        yield
    finally:
        rl.numpy.random.choice = original


def rlcard_turn(rl: Any, view: PlayerView, letters: dict[int, str]) -> dict[str, float]:
    """The distribution of RLCard's agent's action on ``view`` (its turn, Phase.PLAY)."""
    t = view.table
    hand = [to_card(rl, face, letters.get(card)) for card, face in view.hand]
    assert t.colour is not None
    top = to_card(rl, t.top, LETTERS[t.colour])
    game_round = rl.round.UnoRound(None, t.seats, rl.numpy.random)
    game_round.target = top
    player = argparse.Namespace(hand=hand)
    legal = game_round.get_legal_actions([player], 0)
    state = {
        "raw_obs": {"hand": [c.str for c in hand], "target": top.str},
        "raw_legal_actions": legal,
    }

    def run(ks: list[int]) -> tuple[str, list[int]]:
        sizes: list[int] = []
        with scripted_choice(rl, ks, sizes):
            answer = rl.agent.step(state)
        return str(answer), sizes

    return enumerate_choices(run)


def rlcard_drawn(rl: Any, view: PlayerView) -> dict[str, float]:
    """The distribution of what RLCard's game does with the card just drawn."""
    t = view.table
    drawn = next(f for c, f in view.hand if c == view.drawn)
    assert t.colour is not None
    top = to_card(rl, t.top, LETTERS[t.colour])

    def run(ks: list[int]) -> tuple[str, list[int]]:
        sizes: list[int] = []
        card = to_card(rl, drawn, "r")
        filler = [rl.card("number", "r", "1") for _ in range(4)]
        dealer = argparse.Namespace(
            deck=[*filler, card], deal_cards=lambda player, n: None, shuffle=lambda: None
        )
        game_round = rl.round.UnoRound(dealer, t.seats, None)
        chooser = argparse.Namespace()
        game_round.np_random = chooser
        with scripted_choice(rl, ks, sizes):
            chooser.choice = rl.numpy.random.choice
            game_round.target = top
            player = argparse.Namespace(hand=[])
            players = [player] + [argparse.Namespace(hand=[]) for _ in range(t.seats - 1)]
            game_round._perform_draw_action(players)
        if player.hand:
            return "keep", sizes
        if drawn.is_wild:
            return f"{card.color}-{card.trait}", sizes
        return card.str, sizes

    return enumerate_choices(run)


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    return sum(min(p, b.get(k, 0.0)) for k, p in a.items())


def check(rl: Any, hands: int, seats_list: Sequence[int], seed: int, mix: bool) -> int:
    rules = Rules.from_preset("classic")
    letters = printed(rules.deck().sides[0])
    tally: dict[str, list[float]] = {}
    examples: list[str] = []
    for seats in seats_list:
        for number in range(hands):
            dealt = new_hand(rules, seats, dealer=number % seats, seed=seed * 1_000_003 + number)
            rngs = [random.Random(number * 31 + s) for s in range(seats)]

            def ask(seat: int, view: PlayerView, rngs: list[random.Random] = rngs) -> Action | None:
                if mix and seat % 2 == 1:
                    return decide("normal", view, rngs[seat])
                phase = view.table.phase
                if seat == view.table.current and phase in (Phase.PLAY, Phase.DRAWN):
                    theirs = (
                        rlcard_turn(rl, view, letters)
                        if phase is Phase.PLAY
                        else rlcard_drawn(rl, view)
                    )
                    ours = port_distribution(view)
                    kind = "certain" if len(theirs) == 1 and len(ours) == 1 else "random"
                    score = overlap(theirs, ours)
                    tally.setdefault(f"{phase.name.lower()} {kind}", []).append(score)
                    if score < 0.999 and len(examples) < 10:
                        hand = " ".join(str(f) for _, f in view.hand)
                        examples.append(
                            f"{phase.name} top {view.table.top} colour {view.table.colour}"
                            f" hand [{hand}]: RLCard {theirs} port {ours}"
                        )
                return rule_agent(view, rngs[seat])

            for _ in transitions(dealt.state, seats, ask):
                pass  # the hand plays out; ask() compares each of the port's decisions
    total = [s for scores in tally.values() for s in scores]
    for name, scores in sorted(tally.items()):
        print(f"{name:<16} {len(scores):6d} states  agreement {sum(scores) / len(scores):8.3%}")
    print(f"{'all':<16} {len(total):6d} states  agreement {sum(total) / len(total):8.3%}")
    for line in examples:
        print("  disagrees:", line)
    return 0 if sum(total) >= 0.99 * len(total) else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per table size")
    parser.add_argument("--seats", default="2,4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mix", action="store_true", help="normal at every other seat")
    args = parser.parse_args(argv)
    rl = load_rlcard()
    if rl is None:
        print("RLCard is not installed: skipped (pip install -e '.[bench]' to run the check)")
        return 0
    seats = [int(s) for s in args.seats.split(",") if s.strip()]
    return check(rl, args.hands, seats, args.seed, args.mix)


if __name__ == "__main__":
    raise SystemExit(main())
