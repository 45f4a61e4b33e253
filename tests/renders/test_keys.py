"""Cache keys of pictures (issue 11): equal keys mean byte-identical pictures, and a picture
that changes always changes its key, so a cached image is never shown for a newer state."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Rules
from engine.state import Phase
from engine.views import TableView
from renders import ART_VERSION, assets, hand_key, render_hand, render_table, scenes, table_key

from .states import stacked

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Alice", "🤖 Bob", "محمد", "李小龍"]


def played(rules: Rules, seats: int, seed: int, steps: int) -> list:  # type: ignore[type-arg]
    """The states of one hand played at random from a stacked deal (every seat acts in turn)."""
    from engine.cards import classic_deck, flip_deck

    rng = random.Random(seed)
    deck = flip_deck() if rules.flip else classic_deck()
    pool = [face.notation for face in deck.sides[0]]
    pool.remove("R5")
    rng.shuffle(pool)
    hands = [pool[i * 7 : i * 7 + 7] for i in range(seats)]
    state = stacked(hands, draw=pool[seats * 7 : seats * 7 + 30], rules=rules)
    states = [state]
    for _ in range(steps):
        if state.public_view().phase is Phase.HAND_OVER:
            break
        current = state.public_view().current
        actions = state.legal_actions(current)
        if not actions:
            break
        state = state.apply(current, rng.choice(actions)).state
        states.append(state)
    return states


@pytest.mark.parametrize(
    ("rules", "seats", "seed"),
    [(Rules(), 3, 1), (Rules(), 4, 2), (Rules(flip=True), 3, 3)],
    ids=["classic-3", "classic-4", "flip-3"],
)
def test_a_key_names_exactly_one_picture_through_a_whole_hand(
    rules: Rules, seats: int, seed: int
) -> None:
    pictures: dict[str, bytes] = {}
    tables, hands = set(), set()
    for state in played(rules, seats, seed, steps=60):
        view = state.public_view()
        key = table_key(view, NAMES[:seats])
        picture = render_table(view, NAMES[:seats])
        assert pictures.setdefault(key, picture) == picture  # never two pictures for a key
        tables.add(picture)
        for seat in range(seats):
            player = state.view_for(seat)
            key = hand_key(player)
            picture = render_hand(player)
            assert pictures.setdefault(key, picture) == picture
            hands.add(picture)
    # Nor are keys needlessly specific here (no two keys for one picture), and they vary:
    assert len(set(pictures)) == len(set(pictures.values()))
    assert len(tables) > 5
    assert len(hands) > 5


def test_what_the_picture_does_not_show_leaves_the_key() -> None:
    view = stacked([["R1", "G2"], ["B1", "B2"], ["Y1"]]).public_view()
    later = dataclasses.replace(view, version=view.version + 7, dealer=2, discard_size=9)
    assert table_key(later, NAMES[:3]) == table_key(view, NAMES[:3])
    assert render_table(later, NAMES[:3]) == render_table(view, NAMES[:3])
    player = stacked([["R1", "G2"], ["B1", "B2"]]).view_for(0)
    renumbered = dataclasses.replace(player, hand=tuple((c + 100, f) for c, f in player.hand))
    assert hand_key(renumbered) == hand_key(player)
    # Issue 26: neither the turn, nor what is playable, nor the card just drawn.
    assert hand_key(dataclasses.replace(player, legal=())) == hand_key(player)
    assert hand_key(dataclasses.replace(player, drawn=player.hand[0][0])) == hand_key(player)
    assert render_hand(dataclasses.replace(player, legal=())) == render_hand(player)


def _variants(view: TableView) -> dict[str, TableView]:
    return {
        "current": dataclasses.replace(view, current=1),
        "direction": dataclasses.replace(view, clockwise=not view.clockwise),
        "counts": dataclasses.replace(view, card_counts=(5, *view.card_counts[1:])),
        "pending": dataclasses.replace(view, pending=4),
        "colour": dataclasses.replace(view, colour=None),
        "draw pile": dataclasses.replace(view, draw_size=view.draw_size + 1),
        "uno": dataclasses.replace(view, uno_called=True, uno_seat=2),  # seat 2 holds one card
        "out": dataclasses.replace(view, playing=(True, False, True), out=(1,)),
    }


def test_everything_the_table_shows_changes_its_key() -> None:
    view = stacked([["R1", "G2"], ["B1", "B2"], ["Y1"]], draw=["G7", "B7", "Y7"]).public_view()
    base = table_key(view, NAMES[:3])
    picture = render_table(view, NAMES[:3])
    for what, other in _variants(view).items():
        assert render_table(other, NAMES[:3]) != picture, what  # it is drawn...
        assert table_key(other, NAMES[:3]) != base, what  # ...so the key changes
    assert table_key(view, ["Alicia", *NAMES[1:3]]) != base
    assert table_key(view, NAMES[:2]) != base  # a missing name shows the seat number
    # R-UNO-1: a call the caller remembers after the window closed shows, and keys.
    assert table_key(view, NAMES[:3], called_uno={2}) != base
    assert render_table(view, NAMES[:3], called_uno={2}) != picture
    assert table_key(view, NAMES[:3], called_uno={0}) == base  # two cards: no badge


def test_everything_the_hand_shows_changes_its_key() -> None:
    player = stacked([["R1", "G2", "B9"], ["B1", "B2"]]).view_for(0)
    base = hand_key(player)
    fewer = dataclasses.replace(player, hand=player.hand[:2])
    assert render_hand(fewer) != render_hand(player)
    assert hand_key(fewer) != base
    swapped = dataclasses.replace(player, hand=(player.hand[1], player.hand[0], player.hand[2]))
    assert hand_key(swapped) != base


def test_keys_are_cheap_they_draw_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pixels(*_args: object, **_kwargs: object) -> bytes:
        raise AssertionError("a key must not render")

    monkeypatch.setattr(assets, "quantize", no_pixels)
    view = stacked([["R1"], ["B1", "B2"]]).public_view()
    assert len(table_key(view, NAMES[:2])) == 32
    assert len(hand_key(stacked([["R1"], ["B1"]]).view_for(0))) == 32


def test_keys_are_stable_across_processes() -> None:
    code = (
        "import sys; sys.path.insert(0, '.')\n"
        "from tests.renders.states import stacked\n"
        "from renders import table_key, hand_key\n"
        "s = stacked([['R1', 'W'], ['B1', 'B2']])\n"
        "print(table_key(s.public_view(), ['Ann', '🐸']), hand_key(s.view_for(0)))\n"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
            env={"PYTHONHASHSEED": str(seed), "PATH": "/usr/bin:/bin"},
        ).stdout
        for seed in (1, 2)
    }
    state = stacked([["R1", "W"], ["B1", "B2"]])
    here = f"{table_key(state.public_view(), ['Ann', '🐸'])} {hand_key(state.view_for(0))}\n"
    assert runs == {here}


def test_the_art_version_is_part_of_the_key() -> None:
    scene = scenes.table_scene(stacked([["R1"], ["B1"]]).public_view(), ["a", "b"])
    key = scenes.scene_key(scene)
    assert ART_VERSION >= 2
    original = scenes.ART_VERSION
    try:
        scenes.ART_VERSION = original + 1
        assert scenes.scene_key(scene) != key
    finally:
        scenes.ART_VERSION = original
