"""Do the shared choices of the alternative rules help? (players/choices.py, RULES.md §13)

For each rule below, four ``normal`` players play seeded hands; one of them (a different
seat each hand) makes the choices of ``players.choices``, the three others make every such
choice at random (any legal swap, give, gift, chain step or colour-round card). Everything
else is ``normal``'s. With choices that do not matter the tested seat would win a quarter of
the hands; the printed win rate and its 95% Wilson interval say how much they help.

    python benchmarks/choices_bench.py [--hands 400] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_bench import wilson

import players
from engine import Action, PlayerView, Rules
from players import choices
from players.arena import play_hand

RULES: dict[str, dict[str, Any]] = {
    "R-ALT-2 swap": {"zero_spell": "swap"},
    "R-ALT-3 seven_swap": {"seven_swap": True},
    "R-ALT-4 give": {"skip_variant": "give"},
    "R-ALT-5 partner_gift": {"teams": 2, "partner_gift": True},
    "R-ALT-6 chain": {"blank_cards": 4, "blank_effect": "chain"},
    "R-ALT-6 colour_round": {"blank_cards": 4, "blank_effect": "colour_round"},
}


def chooser(view: PlayerView, rng: random.Random) -> Action | None:
    return players.decide("normal", view, rng)


def random_chooser(view: PlayerView, rng: random.Random) -> Action | None:
    if choices.waits_for_choice(view):
        return view.legal[int(rng.random() * len(view.legal))]
    return players.decide("normal", view, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, options in RULES.items():
        rules = Rules.from_preset("classic", **options)
        wins = 0
        for number in range(args.hands):
            tested = number % 4
            policies = [chooser if s == tested else random_chooser for s in range(4)]
            final = play_hand(rules, policies, seed=args.seed * 100_003 + number)
            winner = final.ranking[0]
            # With teams the hand is the team's (R-TEAM-2): the tested seat's partner too.
            teams = rules.teams
            wins += winner == tested or (bool(teams) and winner % teams == tested % teams)
        low, high = wilson(wins, args.hands)
        share = 0.5 if rules.teams else 0.25
        print(
            json.dumps(
                {
                    "rule": name,
                    "hands": args.hands,
                    "wins": wins,
                    "rate": round(wins / args.hands, 3),
                    "wilson95": [round(low, 3), round(high, 3)],
                    "if_choices_did_not_matter": share,
                }
            )
        )


if __name__ == "__main__":
    main()
