"""Snapshots and records (docs/records.md): the documented examples, exact round-trips,
broken snapshots, stacked decks, replaying simulated matches, and the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import CardFace, Colour, GameState, Kind, Phase, Rules, SnapshotError, Termination
from engine import rng as engine_rng
from engine.match import Match
from engine.serialize import (
    GameRecord,
    ReplayError,
    from_dict,
    hand_from_dict,
    hand_to_dict,
    match_from_dict,
    match_to_dict,
    replay,
    to_dict,
)
from engine.simulate import random_step, simulate
from fakediscord.patience import PROCESS_PATIENCE
from tests.engine.scenario import faces, hand, run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"


def load(name: str) -> dict[str, Any]:
    """A docs example as parsed JSON."""
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return data


def via_json(data: Any) -> Any:
    """What a database or a file gives back."""
    return json.loads(json.dumps(data))


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run ``python -m engine ARGS`` from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=PROCESS_PATIENCE,
        check=False,
    )


# -- the documented examples -------------------------------------------------------------


def test_short_hand_example_replays_to_the_documented_end() -> None:
    record = GameRecord.from_dict(load("short-hand.json"))
    assert record.players == 2
    assert record.dealer == 1
    assert len(record.actions) == 6
    final = replay(record)
    assert isinstance(final, GameState)
    assert final.is_over
    assert final.termination is Termination.WENT_OUT
    assert final.ranking == (0, 1)
    assert final.out == (0,)
    assert faces(final, 0) == []
    assert faces(final, 1) == ["R8", "Y3", "G8"]  # card-id order
    assert final.colour is Colour.BLUE
    assert final.version == 6
    snapshot = hand_to_dict(final)
    assert snapshot["discard"] == ["B4#82", "G4#57", "G5#59", "R5#9", "R1#1"]
    assert snapshot["hands"] == [[], ["R8#15", "Y3#30", "G8#65"]]
    assert snapshot["phase"] == "hand_over"
    assert snapshot["termination"] == "went_out"


def test_short_hand_example_matches_the_same_moves_on_a_stacked_deal() -> None:
    """The record means exactly what the scenario helpers say (R-UNO-1: call, then go out)."""
    start = hand([["R5", "G5", "B4"], ["Y3", "R8", "G8"]], "R1", ["G4"], seed=7).state
    assert start.current == 0  # left of the dealer plays first (R-SETUP-4)
    state, _ = run(start, (0, "R5"), (1, "draw"), (0, "G5"), (0, "uno"))
    assert state.uno_called
    assert state.uno_seat == 0
    state, _ = run(state, (1, "G4"), (0, "B4"))
    assert state == replay(GameRecord.from_dict(load("short-hand.json")))


def test_illegal_example_differs_by_one_action() -> None:
    good, bad = load("short-hand.json"), load("illegal-action.json")
    differing = [
        i for i, (a, b) in enumerate(zip(good["actions"], bad["actions"], strict=True)) if a != b
    ]
    assert differing == [4]
    assert {k: v for k, v in good.items() if k != "actions"} == {
        k: v for k, v in bad.items() if k != "actions"
    }


def test_illegal_example_raises_replay_error_with_index_and_reason() -> None:
    record = GameRecord.from_dict(load("illegal-action.json"))
    with pytest.raises(ReplayError) as caught:
        replay(record)
    error = caught.value
    assert error.index == 4
    assert error.seat == 1
    assert error.action == "Y3"
    assert error.reason == "does_not_match"
    assert error.describe() == "action 4 (seat 1, 'Y3') is illegal: does_not_match (Y3)"


def test_examples_round_trip_as_records() -> None:
    for name in ("short-hand.json", "illegal-action.json"):
        record = GameRecord.from_dict(load(name))
        again = GameRecord.from_dict(via_json(record.to_dict()))
        assert again == record


# -- snapshots -----------------------------------------------------------------------------


def _states_in_every_phase() -> dict[str, GameState]:
    """Hands stopped in each phase, with an open UNO window and a hand that is over."""
    states: dict[str, GameState] = {}
    states["play"] = hand([["R1", "G2", "B3"], ["R4", "Y5"], ["W", "W4"]], "R9").state
    states["choose_colour"] = hand([["R1", "G2"], ["R4", "Y5"]], "W").state
    states["drawn"] = run(hand([["G1", "B2"], ["Y5"]], "R9", ["R3"]).state, (0, "draw"))[0]
    states["penalty"] = run(
        hand([["RD2", "G2"], ["BD2", "Y5"]], "R9", preset="party").state, (0, "RD2")
    )[0]
    states["challenge"] = run(hand([["W4", "G2"], ["B1", "Y5"]], "R9").state, (0, "W4=B"))[0]
    states["uno_window"] = run(hand([["R1", "G2"], ["R4", "Y5", "B7"]], "R9").state, (0, "R1"))[0]
    over = replay(GameRecord.from_dict(load("short-hand.json")))
    assert isinstance(over, GameState)
    states["over"] = over
    states["left_out"] = hand([["R1", "G2"], [], ["R4", "Y5"]], "R9").state
    states["modern"] = hand([["WH", "G2"], ["R4", "Y5"]], "R9", modern_deck=True).state
    states["two_decks"] = hand([["R1", "R1", "R1"], ["R4"]], "R1", two_decks=True).state
    return states


STATES = _states_in_every_phase()


@pytest.mark.parametrize("name", sorted(STATES))
def test_hand_snapshot_round_trips_exactly(name: str) -> None:
    state = STATES[name]
    data = hand_to_dict(state)
    back = hand_from_dict(via_json(data))
    assert back == state
    assert hand_to_dict(back) == data
    assert from_dict(via_json(to_dict(state))) == state
    for seat in range(state.seats):
        assert back.legal_actions(seat) == state.legal_actions(seat)


def test_hand_snapshot_lists_piles_from_the_top() -> None:
    state = hand([["R1", "G2"], ["R4", "Y5"]], "R9", ["B7", "G3"]).state
    data = hand_to_dict(state)
    assert data["schema"] == 1
    assert data["type"] == "hand"
    assert data["discard"] == ["R9#17"]
    assert data["draw_pile"][:2] == ["B7#88", "G3#55"]
    assert len(data["draw_pile"]) == 108 - 4 - 1
    assert data["hands"] == [["R1#1", "G2#53"], ["R4#7", "Y5#34"]]


def _simulated_match(preset: str, players: int, seed: int, steps: int, **options: Any) -> Match:
    rules = Rules.from_preset(preset, **options)
    rnd = random.Random(seed)
    match = Match.new(rules, players, seed=seed).match
    for _ in range(steps):
        if match.hand.is_over:
            if match.is_over:
                break
            match = match.next_hand().match
            continue
        seat, action = random_step(match.hand, rnd)
        match = match.apply(seat, action).match
    return match


MATCHES = {
    "fresh": Match.new(Rules(), 3, seed=5).match,
    "classic-mid": _simulated_match("classic", 4, 1, 700),
    "elimination-over": _simulated_match("elimination", 3, 2, 10**6, target=100),
    "tournament-over": _simulated_match("tournament", 4, 3, 10**6),
    "party-mid": _simulated_match("party", 5, 4, 400),
    "online-teams": _simulated_match("online", 4, 5, 900, teams=2),
}


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_match_snapshot_round_trips_exactly(name: str) -> None:
    match = MATCHES[name]
    data = match_to_dict(match)
    back = match_from_dict(via_json(data))
    assert back == match
    assert match_to_dict(back) == data
    assert from_dict(via_json(to_dict(match))) == match


def test_simulated_matches_reach_the_interesting_cases() -> None:
    """The fixtures above cover eliminations and finished matches, not only fresh ones."""
    assert MATCHES["elimination-over"].is_over
    assert MATCHES["elimination-over"].eliminated
    assert not all(MATCHES["elimination-over"].hand.playing)
    assert MATCHES["tournament-over"].is_over
    assert len(MATCHES["tournament-over"].history) == 5
    assert MATCHES["classic-mid"].history


def _snapshot() -> dict[str, Any]:
    return hand_to_dict(STATES["play"])


def _duplicate_a_card(data: dict[str, Any]) -> None:
    data["hands"][1][0] = data["hands"][0][0]


def _lose_a_card(data: dict[str, Any]) -> None:
    data["draw_pile"].pop()


def _add_a_card(data: dict[str, Any]) -> None:
    data["hands"][0].append(data["draw_pile"].pop(0))
    data["discard"].append(data["discard"][0])


def _wrong_face(data: dict[str, Any]) -> None:
    face, _, card = data["hands"][0][0].partition("#")
    data["hands"][0][0] = ("B9" if face != "B9" else "R9") + "#" + card


def _bad_id(data: dict[str, Any]) -> None:
    data["draw_pile"][0] = "R1#108"


def _no_id(data: dict[str, Any]) -> None:
    data["draw_pile"][0] = data["draw_pile"][0].partition("#")[0]


def _wrong_schema(data: dict[str, Any]) -> None:
    data["schema"] = 2


def _no_schema(data: dict[str, Any]) -> None:
    del data["schema"]


def _wrong_type(data: dict[str, Any]) -> None:
    data["type"] = "match"


def _missing_field(data: dict[str, Any]) -> None:
    del data["current"]


def _bad_phase(data: dict[str, Any]) -> None:
    data["phase"] = "dancing"


def _inconsistent_phase(data: dict[str, Any]) -> None:
    data["pending"] = 2  # a pending penalty in phase "play"


def _turn_of_a_seat_not_playing(data: dict[str, Any]) -> None:
    data["current"] = 7


def _unknown_rule(data: dict[str, Any]) -> None:
    data["rules"]["gravity"] = True


def _unsorted_hand(data: dict[str, Any]) -> None:
    data["hands"][0].reverse()


BREAKAGES = [
    _duplicate_a_card,
    _lose_a_card,
    _add_a_card,
    _wrong_face,
    _bad_id,
    _no_id,
    _wrong_schema,
    _no_schema,
    _wrong_type,
    _missing_field,
    _bad_phase,
    _inconsistent_phase,
    _turn_of_a_seat_not_playing,
    _unknown_rule,
    _unsorted_hand,
]


@pytest.mark.parametrize("breakage", BREAKAGES, ids=lambda f: f.__name__.strip("_"))
def test_hand_from_dict_rejects_a_broken_snapshot(breakage: Any) -> None:
    data = via_json(_snapshot())
    hand_from_dict(data)  # the unbroken one reads
    breakage(data)
    with pytest.raises(SnapshotError):
        hand_from_dict(data)


@pytest.mark.parametrize("data", [None, [], "hand", 1], ids=repr)
def test_hand_from_dict_rejects_what_is_not_an_object(data: Any) -> None:
    with pytest.raises(SnapshotError):
        hand_from_dict(data)


MATCH_BREAKAGES: dict[str, Callable[[dict[str, Any]], object]] = {
    "type-hand": lambda d: d.update(type="hand"),
    "schema-0": lambda d: d.update(schema=0),
    "rules-differ-from-hand": lambda d: d["rules"].update(target=200),
    "card-missing": lambda d: d["hand"]["draw_pile"].pop(),
    "no-scores": lambda d: d.pop("scores"),
}


@pytest.mark.parametrize("name", sorted(MATCH_BREAKAGES))
def test_match_from_dict_rejects_a_broken_match(name: str) -> None:
    good = via_json(match_to_dict(MATCHES["classic-mid"]))
    match_from_dict(via_json(good))
    MATCH_BREAKAGES[name](good)
    with pytest.raises(SnapshotError):
        match_from_dict(good)


def test_a_match_snapshot_is_not_a_hand_snapshot() -> None:
    with pytest.raises(SnapshotError):
        hand_from_dict(via_json(match_to_dict(MATCHES["fresh"])))


# -- records that stack the deck --------------------------------------------------------


def _deck_prefix(rules: Rules, seed: int, dealt: int) -> list[str]:
    """``dealt`` faces of a seeded shuffle, then a number card to start and two to draw."""
    deck = rules.deck()
    order = [
        deck.face(c).notation for c in engine_rng.shuffled(range(deck.size), seed=seed, counter=0)
    ]
    hands, rest = order[:dealt], order[dealt:]
    start = next(f for f in rest if CardFace.parse(f).kind is Kind.NUMBER)
    rest.remove(start)
    return [*hands, start, *rest[:2]]


@pytest.mark.parametrize(
    ("preset", "players", "dealer", "order"),
    [
        ("classic", 3, 0, [1, 2, 0]),
        ("classic", 4, 2, [3, 0, 1, 2]),
        ("tournament", 4, 2, [1, 0, 3, 2]),  # counter-clockwise: "left" is the seat before
        ("classic", 10, 9, list(range(10))),
    ],
    ids=["3p-dealer0", "4p-dealer2", "tournament-ccw", "10p-dealer9"],
)
def test_r_setup_3_a_deck_record_deals_those_cards_one_at_a_time(
    preset: str, players: int, dealer: int, order: list[int]
) -> None:
    rules = Rules.from_preset(preset)
    size = rules.hand_size
    stacked = _deck_prefix(rules, seed=99, dealt=players * size)
    record = GameRecord(rules=rules, players=players, seed=11, dealer=dealer, deck=tuple(stacked))
    state = record.start()
    assert isinstance(state, GameState)
    for k, seat in enumerate(order):
        expected = sorted(stacked[k::players][:size])
        assert sorted(faces(state, seat)) == expected, seat
    data = hand_to_dict(state)
    assert [c.partition("#")[0] for c in data["discard"]] == [stacked[players * size]]
    assert [c.partition("#")[0] for c in data["draw_pile"][:2]] == stacked[-2:]
    assert state.current == order[0]  # a number start card: left of the dealer plays first
    # The same record read back from JSON deals the same hand.
    assert GameRecord.from_dict(via_json(record.to_dict())).start() == state


def test_a_deck_record_puts_the_rest_in_seeded_order() -> None:
    rules = Rules.from_preset("classic", hand_size=1)
    record = GameRecord(rules=rules, players=2, seed=21, dealer=0, deck=("R1", "R2", "R3", "R4"))
    state = record.start()
    assert isinstance(state, GameState)
    deck = rules.deck()
    top = [1, 3, 5, 7]  # R1, R2, R3, R4: the lowest id of each face
    rest = engine_rng.shuffled([c for c in range(deck.size) if c not in top], seed=21, counter=0)
    data = hand_to_dict(state)
    assert data["hands"] == [["R2#3"], ["R1#1"]]
    assert data["discard"] == ["R3#5"]
    assert data["draw_pile"] == [deck.card_notation(c) for c in [7, *rest]]
    other = GameRecord(rules=rules, players=2, seed=22, dealer=0, deck=record.deck).start()
    assert isinstance(other, GameState)
    assert other.hands == state.hands
    assert other.draw_pile[-1] == state.draw_pile[-1]
    assert other.draw_pile != state.draw_pile


def test_a_deck_record_uses_the_lowest_free_id_of_each_face() -> None:
    rules = Rules.from_preset("classic", hand_size=2)
    record = GameRecord(
        rules=rules, players=2, seed=3, dealer=1, deck=("R7", "R7", "B1", "G5", "Y2", "Y9")
    )
    state = record.start()
    assert isinstance(state, GameState)
    data = hand_to_dict(state)
    # Seat 0 (left of dealer 1) gets the 1st and 3rd card, seat 1 the 2nd and 4th.
    assert data["hands"] == [["R7#13", "B1#76"], ["R7#14", "G5#59"]]
    assert data["discard"] == ["Y2#28"]
    assert data["draw_pile"][0] == "Y9#42"


def test_a_record_cannot_ask_for_more_copies_than_the_deck_has() -> None:
    record = GameRecord.from_dict(
        {"format": "uno-record", "players": 2, "deck": ["R0", "R0"], "actions": []}
    )
    with pytest.raises(SnapshotError):
        replay(record)


def test_a_match_record_cannot_stack_the_deck() -> None:
    record = GameRecord(rules=Rules(), players=2, match=True, deck=("R1",))
    with pytest.raises(SnapshotError):
        replay(record)


def test_a_hand_record_needs_a_seat_for_every_action() -> None:
    data = load("short-hand.json")
    data["actions"][2] = [None, "G5"]
    with pytest.raises(ReplayError) as caught:
        replay(GameRecord.from_dict(data))
    assert caught.value.index == 2
    assert caught.value.reason == "invalid"


def test_malformed_notation_is_reported_as_invalid() -> None:
    data = load("short-hand.json")
    data["actions"][1] = [1, "drew"]
    with pytest.raises(ReplayError) as caught:
        replay(GameRecord.from_dict(data))
    assert (caught.value.index, caught.value.seat, caught.value.reason) == (1, 1, "invalid")


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"players": 2},
        {"format": "uno-record", "schema": 2, "players": 2},
        {"format": "uno-record", "players": 2, "rules": {"preset": "nope"}},
        {"format": "uno-record", "players": 2, "rules": {"stacking": "sideways"}},
        {"format": "uno-record", "players": 2, "actions": [[0]]},
        {"format": "uno-record", "players": 2, "deal": {"start": "R1"}},
    ],
    ids=["null", "no-format", "schema-2", "unknown-preset", "bad-option", "short-action", "deal"],
)
def test_a_malformed_record_is_a_snapshot_error(data: Any) -> None:
    with pytest.raises(SnapshotError):
        GameRecord.from_dict(data)


def test_rules_in_a_record_may_be_a_preset_with_overrides_or_a_full_dict() -> None:
    short = {"format": "uno-record", "players": 3, "rules": {"preset": "party", "target": 200}}
    record = GameRecord.from_dict(short)
    assert record.rules == Rules.from_preset("party", target=200)
    full = dict(short, rules=record.rules.to_dict())
    assert GameRecord.from_dict(full).rules == record.rules
    assert GameRecord.from_dict(dict(short, rules={})).rules == Rules()


# -- replaying simulated matches ------------------------------------------------------------


def _first_match(rules: Rules, players: int, seed: int, hands: int) -> Match:
    """The first match of ``simulate(seed=seed)``, played with the same random choices."""
    rnd = random.Random(seed)
    match = Match.new(rules, players, seed=seed * 7919).match
    done = 0
    while True:
        if match.hand.is_over:
            done += 1
            if match.is_over or done >= hands:
                return match
            match = match.next_hand().match
            continue
        seat, action = random_step(match.hand, rnd)
        match = match.apply(seat, action).match


@pytest.mark.parametrize(
    ("preset", "players", "seed", "options"),
    [
        ("classic", 3, 1, {"target": 150}),
        ("online", 2, 2, {"hands": 3}),
        ("tournament", 4, 3, {}),
        ("elimination", 4, 4, {"target": 100}),
        ("party", 6, 5, {"target": 100}),
    ],
    ids=["classic", "online", "tournament", "elimination", "party"],
)
def test_replaying_a_simulated_match_record_rebuilds_the_final_match(
    preset: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    rules = Rules.from_preset(preset, **options)
    final = _first_match(rules, players, seed, hands=10**6)
    assert final.is_over
    hands = len(final.history)
    report = simulate(
        rules, preset=preset, players=players, hands=hands, seed=seed, keep_record=True
    )
    assert report.matches == 1
    assert report.hands == hands
    record = report.record
    assert record is not None
    assert record.match
    assert sum(1 for seat, _ in record.actions if seat is None) == hands - 1
    assert len(record.actions) == report.steps + hands - 1
    replayed = replay(record)
    assert isinstance(replayed, Match)
    assert to_dict(replayed) == to_dict(final)
    assert replayed == final
    # The record survives JSON, as `--record FILE` writes it.
    again = replay(GameRecord.from_dict(via_json(record.to_dict())))
    assert to_dict(again) == to_dict(final)


def test_a_partial_match_record_replays_to_where_the_simulation_stopped() -> None:
    rules = Rules.from_preset("classic")
    report = simulate(rules, preset="classic", players=4, hands=2, seed=8, keep_record=True)
    assert report.record is not None
    replayed = replay(report.record)
    assert isinstance(replayed, Match)
    assert to_dict(replayed) == to_dict(_first_match(rules, 4, 8, hands=2))


def test_a_hand_record_of_random_moves_replays_exactly() -> None:
    rules = Rules.from_preset("party")
    rnd = random.Random(6)
    record = GameRecord(rules=rules, players=5, seed=6, dealer=2)
    start = record.start()
    assert isinstance(start, GameState)
    state, actions = start, []
    while not state.is_over:
        seat, action = random_step(state, rnd)
        state = state.apply(seat, action).state
        actions.append((seat, str(action)))
    done = GameRecord(rules=rules, players=5, seed=6, dealer=2, actions=tuple(actions))
    assert replay(done) == state
    assert replay(GameRecord.from_dict(via_json(done.to_dict()))) == state


# -- the command line ----------------------------------------------------------------------


def test_cli_simulate_prints_one_json_summary_line() -> None:
    result = cli("simulate", "--preset", "party", "--players", "3", "--hands", "5", "--check")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert isinstance(summary, dict)
    assert {"hands", "steps", "hands_per_s", "violations"} <= set(summary)
    assert summary["hands"] == 5
    assert summary["steps"] > 0
    assert summary["violations"] == 0


def test_cli_simulate_refuses_a_table_the_preset_does_not_seat() -> None:
    result = cli("simulate", "--preset", "tournament", "--players", "3", "--hands", "1")
    assert result.returncode == 2
    assert "exactly 4 players" in result.stderr


def test_r_alt_8_cli_simulate_checks_twenty_seats_with_the_alternative_rules() -> None:
    result = cli(
        "simulate", "--players", "20", "--hands", "4", "--check",
        "--set", "max_players=20", "--set", "two_decks=true", "--set", "zero_spell=rotate",
        "--set", "seven_swap=true", "--set", "skip_variant=give",
        "--set", "blank_cards=4", "--set", "blank_effect=chain",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert (summary["players"], summary["hands"], summary["violations"]) == (20, 4, 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "12"], "at most 10 players"),
        (["--set", "partner_gift=true"], "partner's gift needs teams"),
        (["--set", "no_such_rule=1"], "unknown rule option"),
    ],
)
def test_r_alt_cli_simulate_refuses_options_that_make_no_sense(
    args: list[str], message: str
) -> None:
    result = cli("simulate", "--hands", "1", *args)
    assert result.returncode == 2
    assert message in result.stderr


def test_cli_record_then_replay(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    result = cli(
        "simulate", "--preset", "classic", "--players", "3", "--hands", "2", "--seed", "4",
        "--record", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    record = GameRecord.from_dict(json.loads(out.read_text(encoding="utf-8")))
    assert record.match
    replayed = cli("replay", str(out))
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == to_dict(replay(record))


def test_cli_replay_prints_the_final_snapshot() -> None:
    result = cli("replay", "docs/examples/short-hand.json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    snapshot = json.loads(result.stdout)
    assert snapshot["type"] == "hand"
    assert snapshot["phase"] == "hand_over"
    assert snapshot["ranking"] == [0, 1]
    assert snapshot == to_dict(replay(GameRecord.from_dict(load("short-hand.json"))))
    assert hand_from_dict(snapshot).phase is Phase.HAND_OVER


def test_cli_replay_of_an_illegal_action_exits_2_with_index_and_reason() -> None:
    result = cli("replay", "docs/examples/illegal-action.json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip() == (
        "error: action 4 (seat 1, 'Y3') is illegal: does_not_match (Y3)"
    )


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        '{"players": 2}',
        '{"format": "uno-record", "rules": {"preset": "nope"}, "players": 2}',
        '{"format": "uno-record", "players": 2, "deal": {"hands": [["R1"]], "start": "R4"}}',
        '{"format": "uno-record", "players": 2, "deal": {"hands": [["R1"], ["X2"]],'
        ' "start": "R4"}}',
    ],
    ids=["not-json", "no-format", "unknown-preset", "deal-seats", "unknown-face"],
)
def test_cli_replay_of_a_malformed_file_exits_1(tmp_path: Path, content: str) -> None:
    path = tmp_path / "record.json"
    path.write_text(content, encoding="utf-8")
    result = cli("replay", str(path))
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: cannot read {path}")


def test_cli_replay_of_a_missing_file_exits_1(tmp_path: Path) -> None:
    result = cli("replay", str(tmp_path / "nowhere.json"))
    assert result.returncode == 1
    assert "cannot read" in result.stderr
