"""Render the README's pictures of play: the table everyone sees and one player's hand.

    .venv/bin/python tools/readme_pictures.py          # writes docs/pictures/*.png

Both come from the bot's own renders (``renders.render_table`` and ``renders.render_hand``,
exactly what a table message and a hand message attach) of a real hand: a seeded deal of
the ``classic`` preset, played by ``normal`` computer players until it is the first seat's
turn again. Same code, same seed, same pictures; run it again after the renders change.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from anywhere, like the other tools

import players  # noqa: E402
from engine import Rules, new_hand  # noqa: E402
from engine.state import GameState  # noqa: E402
from renders import render_hand, render_table  # noqa: E402

OUT = ROOT / "docs" / "pictures"
NAMES = ("Alice", "Bruno 🎲", "Carla", "Dario")
SEED = 11
#: Turns played before the pictures: enough for a discard pile and uneven hands.
TURNS = 9


def played_hand() -> GameState:
    """A 4-seat classic hand after :data:`TURNS` turns, with seat 0 to play."""
    state = new_hand(Rules.from_preset("classic"), len(NAMES), dealer=3, seed=SEED).state
    rng = random.Random(SEED)
    turns = 0
    while turns < TURNS or state.current != 0:
        seat = state.current
        action = players.decide("normal", state.view_for(seat), rng)
        if action is None:
            raise RuntimeError(f"seat {seat} had nothing to do on its turn")
        state = state.apply(seat, action).state
        if state.is_over:
            raise RuntimeError("the hand ended before the pictures; choose another SEED")
        turns += state.current != seat
    return state


def main() -> None:
    state = played_hand()
    OUT.mkdir(parents=True, exist_ok=True)
    pictures = {
        "table.png": render_table(state.public_view(), NAMES),
        "hand.png": render_hand(state.view_for(0)),
    }
    for name, data in pictures.items():
        (OUT / name).write_bytes(data)
        print(f"{OUT / name}: {len(data) / 1000:.0f} kB")  # noqa: T201


if __name__ == "__main__":
    main()
