"""Which rules ``players.fastsim`` models (an allow-list over every option of
:class:`engine.Rules`), that it plays those exactly as the engine does, and that ``hard``
falls back to the engine for everything else (RULES.md §13, R-ALT-1 … R-ALT-8)."""

from __future__ import annotations

import dataclasses
import enum
import random
from typing import Any

import pytest

import players
from engine import CallUno, Draw, GameState, Pass, Phase, Play, Rules, events_for, new_hand
from engine.errors import RulesError
from engine.events import Event
from players import fastsim, hard, normal
from players._table import COLOURS

FIELDS = [f.name for f in dataclasses.fields(Rules)]


def _values(name: str) -> list[Any]:
    """The non-default values worth trying for an option (every choice of an enum)."""
    default = getattr(Rules(), name)
    if isinstance(default, enum.Enum):
        return [m for m in type(default) if m is not default]
    if isinstance(default, bool):
        return [not default]
    return {
        "players": [2, 4],
        "hand_size": [1, 5, 12],
        "target": [200, None],
        "hands": [5],
        "teams": [2, 3],
        "turn_seconds": [30],
        "time_limit": [1, 30],
        "blank_cards": [1, 4],
        "max_players": [4, 20],
    }[name]


# Options a value needs others to be valid with (RULES.md's own constraints).
_COMPANIONS: dict[str, dict[str, Any]] = {
    "flip_score_light": {"flip": True},
    "time_limit_winner": {"time_limit": 30},
    "partner_gift": {"teams": 2},
    "blank_effect": {"blank_cards": 2},
    "max_players": {"two_decks": True},
}


def _rules(name: str, value: Any) -> Rules:
    """Classic with ``name=value`` and whatever it needs to be valid."""
    try:
        return Rules(**{name: value})
    except RulesError:
        extra = dict(_COMPANIONS.get(name, {}))
        if name == "target" and value is None:
            extra = {"hands": 5}
        return Rules(**{name: value}, **extra)


def test_every_rules_option_is_classified_for_the_fast_simulator() -> None:
    """A new option of ``engine.Rules`` must be sorted into ANY_VALUE or ONLY before it can be
    played by ``hard``: unclassified options fail here (and fall back to the engine)."""
    classified = set(fastsim.ANY_VALUE) | set(fastsim.ONLY)
    assert set(FIELDS) - classified == set(), "classify these in players/fastsim.py"
    assert classified - set(FIELDS) == set(), "these are not Rules options any more"
    assert not set(fastsim.ANY_VALUE) & set(fastsim.ONLY)
    for name, allowed in fastsim.ONLY.items():
        assert getattr(Rules(), name) in allowed, f"{name}: the default must be modelled"


def test_an_unclassified_option_is_not_supported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fastsim, "ANY_VALUE", fastsim.ANY_VALUE - {"hand_size"})
    assert not fastsim.supports(Rules(), (True, True))


UNSUPPORTED = [
    pytest.param(name, value, id=f"{name}={getattr(value, 'value', value)}")
    for name in fastsim.ONLY
    for value in _values(name)
    if value not in fastsim.ONLY[name]
]


@pytest.mark.parametrize(("name", "value"), UNSUPPORTED)
def test_r_alt_1_to_8_options_the_simulator_does_not_model_fall_back(name: str, value: Any) -> None:
    """R-ALT-1 (time_limit), R-ALT-2 (zero_spell), R-ALT-3 (seven_swap), R-ALT-4
    (skip_variant), R-ALT-5 (partner_gift), R-ALT-6 / R-DECK-5 (blank cards and effects),
    R-ACT-6/7, R-TURN-4, R-CHAL-3, R-END-2/3, R-TEAM, R-FLIP, R-DECK-3/4: not simulated."""
    rules = _rules(name, value)
    for seats in (2, 4):
        assert not fastsim.supports(rules, (True,) * seats)


def test_r_alt_8_twenty_seats_with_two_decks_fall_back() -> None:
    rules = Rules(two_decks=True, max_players=20)
    assert not fastsim.supports(rules, (True,) * 12)


def test_a_hand_with_a_seat_out_falls_back() -> None:
    assert not fastsim.supports(Rules(), (True, False, True))
    assert not fastsim.supports(Rules(), (True,))


SUPPORTED = [
    pytest.param(name, value, id=f"{name}={getattr(value, 'value', value)}")
    for name in sorted(fastsim.ANY_VALUE)
    for value in _values(name)
    # placement needs play_to_last; more than ten seats need two decks (both fall back)
    if not (name == "scoring" and value.value == "placement")
    and not (name == "max_players" and value > 10)
]


@pytest.mark.parametrize(("name", "value"), SUPPORTED)
def test_options_that_do_not_change_a_hand_are_simulated(name: str, value: Any) -> None:
    rules = _rules(name, value)
    assert fastsim.supports(rules, (True, True))
    assert fastsim.supports(rules, (True,) * 4)


# -- differential: the simulator's transitions are the engine's ------------------------


def _turn_start(state: GameState) -> bool:
    """A turn begins: the current seat plays or draws, no UNO call is waiting."""
    window = state.uno_seat
    return (
        not state.is_over
        and state.phase is Phase.PLAY
        and state.colour is not None
        and not (window is not None and not state.uno_called and len(state.hands[window]) == 1)
    )


def _step(state: GameState) -> GameState:
    """One engine step with ``normal`` everywhere (UNO called first, as in a rollout)."""
    window = state.uno_seat
    if window is not None and not state.uno_called and len(state.hands[window]) == 1:
        legal = state.legal_actions(window)
        call = next((a for a in legal if type(a) is CallUno), None)
        if call is not None:
            return state.apply(window, call).state
    action = normal.rollout_action(state, state.current)
    assert action is not None
    return state.apply(state.current, action).state


def _snapshot(sim: fastsim.Sim) -> tuple[object, ...]:
    """Everything a simulated hand's future depends on (the direction only at 3+ seats,
    where it means something)."""
    return (
        [sorted(h) for h in sim.hands],
        list(sim.pile),
        list(sim.discard),
        sim.card,
        sim.colour,
        sim.current,
        sim.step if sim.n > 2 else 0,
        list(sim.seen),
    )


def _named(play: Play) -> int:
    face = play.face
    colour = face.colour if face.colour is not None else play.colour
    assert colour is not None
    return COLOURS.index(colour)


def _mirror(sim: fastsim.Sim, seat: int, moves: list[tuple[int, Any]]) -> bool:
    """Apply to ``sim`` the turn ``seat`` played on the engine (``moves``: every (seat,
    action) up to the next turn start). The simulator resolves what follows a play itself
    (draw cards, skips, a Reverse, the answer to a Wild Draw Four). True if it went out."""
    mine = [a for s, a in moves if s == seat and type(a) in (Play, Draw, Pass)]
    first = mine[0]
    hand = sim.hands[seat]
    if type(first) is Play:
        return sim.play(seat, hand.index(fastsim.code(first.face)), _named(first))
    assert type(first) is Draw
    while True:  # R-TURN-4/5: one card, or until a playable one with draw_until_playable
        card = sim.draw(seat, 1)
        if card < 0 or fastsim.playable(card, sim.card, sim.colour) or not sim.until_playable:
            break
    then = mine[1] if len(mine) > 1 else None
    if type(then) is Play:
        assert card >= 0
        assert fastsim.code(then.face) == card
        return sim.play(seat, len(hand) - 1, _named(then))
    sim.current = sim.next(seat)
    return False


def _turn(state: GameState) -> tuple[GameState, list[tuple[int, Any]]]:
    """Play the engine with ``normal`` everywhere from one turn start to the next (UNO called
    in its window, as in ``hard``'s rollouts); the state reached and the moves made."""
    moves: list[tuple[int, Any]] = []
    while True:
        window = state.uno_seat
        seat = state.current
        action: Any = None
        if window is not None and not state.uno_called and len(state.hands[window]) == 1:
            action = next((a for a in state.legal_actions(window) if type(a) is CallUno), None)
            if action is not None:
                seat = window
        if action is None:
            action = normal.rollout_action(state, seat)
        assert action is not None
        state = state.apply(seat, action).state
        moves.append((seat, action))
        if state.is_over or _turn_start(state):
            return state, moves


DIFFERENTIAL_RULES = [
    pytest.param(Rules(), id="classic"),
    *(
        pytest.param(Rules(**{name: value}), id=f"{name}={getattr(value, 'value', value)}")
        for name in sorted(fastsim.ANY_VALUE)
        for value in _values(name)
        # match-level options: a hand plays as classic (checked once with scoring=penalty)
        if name not in ("players", "target", "hands", "max_players", "turn_seconds")
        and not (name == "scoring" and value.value == "placement")
    ),
    pytest.param(Rules.from_preset("online"), id="online"),
]


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("rules", DIFFERENTIAL_RULES)
def test_r_turn_r_act_r_chal_the_simulator_plays_every_supported_rule_as_the_engine(
    rules: Rules, seats: int
) -> None:
    """Differential (R-TURN-1…6, R-ACT-1…5, R-CHAL-1…4, R-END-1): seeded hands played by the
    engine with ``normal`` everywhere; at every turn the simulator, built from the engine's
    state, lists the same playable cards as the engine's legal plays, and after mirroring the
    seat's own move (the simulator resolves the rest itself: draw cards, skips, reversals, the
    victim's challenge) it reaches exactly the engine's next turn — hands, draw pile, discard
    pile, top card, colour, next seat, direction — or the same winner. A reshuffle (R-TURN-6)
    is seeded differently in the two, so the turn that reshuffles is not compared."""
    assert fastsim.supports(rules, (True,) * seats)
    compared = 0
    for seed in range(200):
        if compared >= 150:
            break
        state = new_hand(rules, seats, dealer=seed % seats, seed=1000 + seed).state
        while not state.is_over and not _turn_start(state):
            state, _ = _turn(state)
        for _ in range(400):
            if state.is_over:
                break
            seat = state.current
            sim = hard.to_sim(state, seed)
            assert sim is not None
            hand = sim.hands[seat]
            legal = {fastsim.code(a.face) for a in state.legal_actions(seat) if type(a) is Play}
            assert {c for c in hand if fastsim.playable(c, sim.card, sim.colour)} == legal
            after, moves = _turn(state)
            if after.shuffles == state.shuffles:
                out = _mirror(sim, seat, moves)
                if after.is_over:
                    assert out
                    assert after.ranking[0] == seat
                else:
                    assert not out
                    expected = hard.to_sim(after, seed)
                    assert expected is not None
                    assert _snapshot(sim) == _snapshot(expected), (seed, moves)
                compared += 1
            state = after
    assert compared >= 150


# -- hard under every alternative rule: the engine fallback decides legally ---------------

ALTERNATIVES = [
    pytest.param(Rules(time_limit=30), 2, id="R-ALT-1-time_limit"),
    pytest.param(
        Rules(time_limit=30, time_limit_winner="fewest_points"), 3, id="R-ALT-1-fewest_points"
    ),
    *(
        pytest.param(Rules(zero_spell=v), 3, id=f"R-ALT-2-zero_spell={v}")
        for v in ("swap", "discard_colour", "rotate")
    ),
    pytest.param(Rules(seven_swap=True), 3, id="R-ALT-3-seven_swap"),
    *(
        pytest.param(Rules(skip_variant=v), 3, id=f"R-ALT-4-skip_variant={v}")
        for v in ("give", "all_draw")
    ),
    pytest.param(Rules(teams=2, partner_gift=True), 4, id="R-ALT-5-partner_gift"),
    *(
        pytest.param(Rules(blank_cards=4, blank_effect=v), 3, id=f"R-ALT-6-blank_effect={v}")
        for v in (
            "wild",
            "chain",
            "refill",
            "action_dump",
            "take_two",
            "redeal",
            "colour_round",
            "no_actions",
        )
    ),
    pytest.param(Rules(two_decks=True, max_players=20), 12, id="R-ALT-8-twelve_seats"),
]


@pytest.mark.parametrize(("rules", "seats"), ALTERNATIVES)
def test_r_alt_hard_decides_legally_under_every_alternative_rule(rules: Rules, seats: int) -> None:
    """``hard`` at every seat of a table with an alternative rule (the simulator declines it:
    rollouts on the engine) answers with one of its legal actions at every step."""
    assert not fastsim.supports(rules, (True,) * seats)
    asked = 0
    for seed in range(3):
        state = new_hand(rules, seats, dealer=0, seed=seed).state
        logs: list[list[Event]] = [[] for _ in range(seats)]
        rngs = [random.Random(seed * 31 + s) for s in range(seats)]

        def decide(seat: int, view: Any, logs: list[list[Event]] = logs, rngs: Any = rngs) -> Any:
            nonlocal asked
            action = players.decide("hard", view, rngs[seat], logs[seat])
            assert action is None or action in view.legal
            if seat == view.table.current:
                assert action is not None
                asked += 1
            return action

        for _ in range(60 if seats < 10 else 25):
            if state.is_over:
                break
            decision = players.next_actor(state, range(seats), decide)
            assert decision is not None
            for action in decision.actions:
                transition = state.apply(decision.seat, action)
                state = transition.state
                for s in range(seats):
                    logs[s].extend(events_for(transition.events, s))
    assert asked >= 20
