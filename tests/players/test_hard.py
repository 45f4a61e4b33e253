"""``hard``: deals are consistent with the view and the history (R-UNO-5, R-CHAL-2,
R-TURN-4), the search answers with legal actions and calls UNO like ``normal`` (R-UNO-1), and
a decision never depends on hidden cards."""

from __future__ import annotations

import random

import pytest

import players
from engine import Action, CallUno, GameState, Phase, PlayerView, Rules, events_for, new_hand
from engine.events import Event
from engine.game import deal
from players import hard
from players.arena import LevelPolicy, play_hand
from players.belief import Belief, Dealer
from players.turns import next_actor


def _play(rules: Rules, seats: int, seed: int, steps: int) -> tuple[GameState, list[list[Event]]]:
    """A hand ``steps`` decisions in, played by ``normal``, with each seat's history."""
    dealt = new_hand(rules, seats, dealer=seed % seats, seed=seed)
    state = dealt.state
    logs = [events_for(dealt.events, seat) for seat in range(seats)]
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        decision = next_actor(
            state, range(seats), lambda seat, view: players.decide("normal", view, rng)
        )
        assert decision is not None
        for action in decision.actions:
            transition = state.apply(decision.seat, action)
            state = transition.state
            for seat in range(seats):
                logs[seat].extend(events_for(transition.events, seat))
    return state, logs


@pytest.mark.parametrize("preset", ["classic", "party", "tournament", "flip"])
def test_r_uno_5_r_turn_4_a_deal_shows_the_seat_exactly_its_view(preset: str) -> None:
    rules = Rules.from_preset(preset)
    seats = rules.players or 4
    for seed in range(8):
        state, logs = _play(rules, seats, seed, 25 + seed * 5)
        if state.is_over:
            continue
        for seat in range(seats):
            if state.phase is Phase.DRAWN and seat != state.current:
                continue
            view = state.view_for(seat)
            belief = Belief.from_events(seat, seats, logs[seat], rules.deck())
            dealer = Dealer(view, belief)
            for k in range(3):
                sample = hard.root_state(view, dealer, random.Random(k))
                assert sample.view_for(seat) == view
                cards = [c for h in sample.hands for c in h]
                cards += [*sample.draw_pile, *sample.discard]
                assert sorted(cards) == list(range(sample.deck.size))


def test_r_turn_4_voids_hold_for_players_who_draw_only_when_stuck() -> None:
    """Every void the belief records is true of the actual hand (``normal`` draws only when
    it has nothing to play), for the cards it says are still covered."""
    for preset in ("classic", "party"):
        rules = Rules.from_preset(preset)
        for seed in range(10):
            state, logs = _play(rules, 3, seed, 60)
            belief = Belief.from_events(0, 3, logs[0], rules.deck())
            faces = state.deck.sides[state.side]
            for seat in (1, 2):
                held = len(state.hands[seat])
                for void, covered in belief.constraints(seat, held):
                    if void.source == "wild":
                        continue  # a guess about habits, not a fact
                    # normal may also draw holding only wilds (it keeps them, R-TURN-4):
                    # reading a draw as "stuck" is a habit for the wilds.
                    breaking = sum(
                        1
                        for c in state.hands[seat]
                        if void.forbids(faces[c]) and faces[c].colour is not None
                    )
                    assert breaking <= held - covered


def test_r_chal_2_a_deal_can_be_guilty_or_innocent() -> None:
    rules = Rules()
    state = deal(rules, [["W4", "B1", "G2", "Y3"], ["G1", "G5"]], "R9", dealer=1).state
    state = state.apply(0, "W4=B").state
    view = state.view_for(1)
    dealer = Dealer(view, None)
    for seed in range(20):
        guilty = hard.root_state(view, dealer, random.Random(seed), guilty=True)
        innocent = hard.root_state(view, dealer, random.Random(seed), guilty=False)
        faces = guilty.deck.sides[0]
        assert any(faces[c].colour is state.prior_colour for c in guilty.evidence)
        assert not any(faces[c].colour is state.prior_colour for c in innocent.evidence)
        assert guilty.view_for(1) == view == innocent.view_for(1)


def test_r_uno_1_hard_calls_uno_and_plays_legally(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "SIMULATIONS", 40)
    monkeypatch.setattr(hard, "MIN_SAMPLES", 4)
    monkeypatch.setattr(hard, "RACE_BUDGET", 40)
    state = deal(Rules(), [["R1", "R2"], ["B3", "B4", "G5"]], "R9", dealer=1).state
    action = players.decide("hard", state.view_for(0), random.Random(1))
    assert action in state.legal_actions(0)
    state = state.apply(0, action).state  # type: ignore[arg-type]
    assert players.decide("hard", state.view_for(0), random.Random(1)) == CallUno()


@pytest.mark.parametrize("preset", ["classic", "party", "flip"])
def test_hard_finishes_hands_against_every_level(
    monkeypatch: pytest.MonkeyPatch, preset: str
) -> None:
    monkeypatch.setattr(hard, "SIMULATIONS", 30)
    monkeypatch.setattr(hard, "MIN_SAMPLES", 3)
    monkeypatch.setattr(hard, "RACE_BUDGET", 30)
    rules = Rules.from_preset(preset)
    for seed, other in enumerate(("easy", "normal")):
        for seats in (2, 4):
            policies = [LevelPolicy("hard")] + [LevelPolicy(other)] * (seats - 1)
            assert play_hand(rules, policies, seed=seed, dealer=seed % seats).is_over


def _hidden_changed(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with the other hands and the draw pile dealt again from the same cards:
    what ``seat`` cannot see changes, what it can see does not."""
    others = [s for s in range(state.seats) if s != seat]
    cards = [c for s in others for c in state.hands[s]] + list(state.draw_pile)
    rng.shuffle(cards)
    hands = list(state.hands)
    position = 0
    for s in others:
        size = len(state.hands[s])
        hands[s] = tuple(sorted(cards[position : position + size]))
        position += size
    return GameState(
        **{
            **{f: getattr(state, f) for f in state.__dataclass_fields__ if f != "legal_cache"},
            "hands": tuple(hands),
            "draw_pile": tuple(cards[position:]),
        }
    )


@pytest.mark.parametrize("level", players.LEVELS)
@pytest.mark.parametrize("seats", [2, 4])
def test_r_uno_5_a_decision_never_depends_on_hidden_cards(level: str, seats: int) -> None:
    """Other seats' hands and the order of the draw pile change; the seat's view and history
    do not; the same seed gives the same decision."""
    rules = Rules.from_preset("classic")
    checked = 0
    for seed in range(10):
        state, logs = _play(rules, seats, seed, 12 + 3 * seed)
        if state.is_over or state.phase is Phase.DRAWN:
            continue
        seat = state.current
        changed = _hidden_changed(state, seat, random.Random(seed))
        assert changed.hands != state.hands or changed.draw_pile != state.draw_pile
        assert changed.view_for(seat) == state.view_for(seat)

        def decide(
            s: int, view: PlayerView, seed: int = seed, logs: list[list[Event]] = logs
        ) -> Action | None:
            return players.decide(level, view, random.Random(seed), logs[s])

        first = next_actor(state, [seat], decide)
        again = next_actor(changed, [seat], decide)
        assert first == again
        checked += 1
    assert checked >= 5


def test_r_turn_5_a_card_drawn_and_not_played_could_not_be_played() -> None:
    """When the card a stuck player drew cannot be played the engine passes the turn on
    (R-TURN-5): the void learned from the draw then covers that card too; a card that could
    be played and was kept (``Passed``) stays unknown."""
    rules = Rules()
    deck = rules.deck()
    for drawn, kept in (("G7", False), ("R7", True)):
        # Seat 1 plays first on a red 9 holding no red, no 9 and no wild: it draws.
        dealt = deal(rules, [["B2", "B7"], ["G3", "Y4", "G5"]], "R9", [drawn], dealer=0)
        state = dealt.state
        assert state.current == 1
        history: list[Event] = list(events_for(dealt.events, 0))
        for seat, action in ((1, "draw"), (1, "pass"), (0, "draw")):
            if seat != state.current:
                continue
            transition = state.apply(seat, action)
            history.extend(events_for(transition.events, 0))
            state = transition.state
        belief = Belief.from_events(0, 2, history, deck)
        held = len(state.hands[1])
        assert held == 4
        (void, covered), *_ = belief.constraints(1, held)
        assert void.source == "drew"
        assert covered == (3 if kept else 4)


def _searched_positions(count: int) -> list[tuple[PlayerView, list[Event]]]:
    """Heads-up classic turns where ``hard`` has more than one candidate on the simulator."""
    rules = Rules()
    found: list[tuple[PlayerView, list[Event]]] = []
    for seed in range(200):
        state, logs = _play(rules, 2, seed, 6 + seed % 17)
        if state.is_over or state.phase is not Phase.PLAY:
            continue
        seat = state.current
        view = state.view_for(seat)
        spot = players.normal.spot_from_view(view)
        baseline = players.normal.choose(spot)
        if baseline is None or type(baseline) is CallUno:
            continue
        if len(hard._candidates(spot, baseline)) > 1:
            found.append((view, logs[seat]))
        if len(found) == count:
            break
    return found


def test_the_race_keeps_to_its_budget_and_repeats_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """Racing on the simulator: never more rollouts than RACE_BUDGET nor deals than
    RACE_MAX_DEALS, fewer when a candidate drops out; the same seed, the same answer."""
    rollouts: list[int] = []
    real = hard._sim_value

    def counted(*args: object) -> float:
        rollouts[-1] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(hard, "_sim_value", counted)
    monkeypatch.setattr(hard, "RACE_BUDGET", 120)
    positions = _searched_positions(24)
    assert len(positions) == 24
    short = 0
    for k, (view, history) in enumerate(positions):
        rollouts.append(0)
        action = players.decide("hard", view, random.Random(k), history)
        assert action in view.legal
        assert rollouts[-1] <= 120
        short += rollouts[-1] < 120 - 10
        assert players.decide("hard", view, random.Random(k), history) == action
    assert short > 0


def test_the_wall_clock_safety_net_decides_with_what_it_has(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a machine so overloaded that the deadline has passed before the first rollout,
    ``hard`` still answers at once, with a legal action and no rollout."""
    rollouts = 0
    real = hard._sim_value

    def counted(*args: object) -> float:
        nonlocal rollouts
        rollouts += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(hard, "_sim_value", counted)
    monkeypatch.setattr(hard, "DEADLINE", 0.0)
    for k, (view, history) in enumerate(_searched_positions(4)):
        assert players.decide("hard", view, random.Random(k), history) in view.legal
    assert rollouts == 0
