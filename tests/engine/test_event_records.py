"""Events as stored data: every event of whole matches of every preset survives JSON."""

from __future__ import annotations

import json
import random

import pytest

from engine import PRESETS, CardFace, Rules, SnapshotError
from engine.events import CardPlayed, Event
from engine.match import Match
from engine.serialize import EVENT_TYPES, event_from_dict, event_to_dict
from engine.simulate import random_step


def match_events(preset: str, players: int, seed: int) -> list[Event]:
    """Every event of one match, played with the simulation's random policy."""
    rules = Rules.from_preset(preset)
    step = Match.new(rules, players, seed=seed)
    events = list(step.events)
    match, rnd = step.match, random.Random(seed)
    for _ in range(20_000):
        if match.is_over:
            break
        if match.hand.is_over:
            step = match.next_hand()
        else:
            seat, action = random_step(match.hand, rnd)
            step = match.apply(seat, action)
        events.extend(step.events)
        match = step.match
    return events


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_event_of_a_match_round_trips_through_json(preset: str) -> None:
    players = 4 if preset == "tournament" else 3
    events = match_events(preset, players, seed=11)
    seen = {type(e).__name__ for e in events}
    assert {"HandStarted", "CardPlayed", "CardsDrawn", "HandEnded", "HandScored"} <= seen
    for event in events:
        data = json.loads(json.dumps(event_to_dict(event)))
        assert data["e"] == type(event).__name__
        assert event_from_dict(data) == event


def test_every_engine_event_class_has_a_json_form() -> None:
    assert {"CardsFlipped", "HandRevealed", "MatchEnded", "DealerDraw"} <= set(EVENT_TYPES)
    for name, cls in EVENT_TYPES.items():
        assert cls.__name__ == name


def test_records_written_before_events_had_a_schema_still_read() -> None:
    old = {"e": "CardPlayed", "seat": 0, "card": 3, "face": "R7", "colour": None, "jump_in": False}
    assert event_from_dict(old) == CardPlayed(0, 3, CardFace.parse("R7"), None)


@pytest.mark.parametrize(
    "data",
    [
        {"e": "Nonsense"},
        {"e": "CardPlayed", "schema": 2, "seat": 0},
        {"e": "CardPlayed", "seat": 0, "card": 3, "face": "Q9", "colour": None},
        {"e": "UnoCalled"},
        "CardPlayed",
    ],
)
def test_malformed_event_records_are_refused_with_a_snapshot_error(data: object) -> None:
    with pytest.raises(SnapshotError):
        event_from_dict(data)
