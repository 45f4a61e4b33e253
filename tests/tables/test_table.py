"""The table domain: lobby, seats, the match, and the stored record (no Discord, no I/O)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine import Draw, Play, Reason, parse_action
from engine.cards import CardFace
from engine.events import CardsDrawn, Passed
from engine.match import PlayerRetired
from engine.simulate import random_step
from storage import ActionRow, TableRecord
from tables.records import RECENT_EVENTS
from tables.table import (
    MAX_PLAYERS,
    NEXT_HAND_SECONDS,
    Change,
    Player,
    Table,
    TableError,
)

from .tables import NAMES, act, lobby, player, stacked, started, user

PRIVATE_EVENTS = {"CardsReceived", "CardsDealt", "HandRevealed", "DealerDraw"}


def codes(excinfo: pytest.ExceptionInfo[TableError]) -> str:
    return excinfo.value.code


# -- open ---------------------------------------------------------------------------------------


def test_open_seats_the_host_in_a_lobby() -> None:
    table = lobby(1)
    assert table.status == "lobby"
    assert table.players == (player(0),)
    assert table.host_id == user(0)
    assert table.version == 0
    assert table.match is None
    assert table.is_live
    assert table.capacity == 10  # R-SETUP-1 (one deck)


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("classic", {"no_such_option": True}),
        ("classic", {"scoring": "placement"}),  # needs play_to_last
        ("classic", {"target": 0}),
        ("classic", {"target": None}),  # neither target nor hands
        ("classic", {"jump_in": "yes"}),
        ("nonsense", {}),
    ],
)
def test_open_with_bad_rules_is_refused(preset: str, options: dict[str, object]) -> None:
    with pytest.raises(TableError) as excinfo:
        lobby(1, preset=preset, **options)
    assert codes(excinfo) == "bad_rules"
    assert excinfo.value.params["detail"]


# -- join ---------------------------------------------------------------------------------------


def test_join_takes_the_next_seat() -> None:
    table = lobby(1)
    change = table.join(player(1), now=5.0)
    assert change.table.players == (player(0), player(1))
    assert change.table.seat_of(user(1)) == 1
    assert change.table.updated_at == 5.0
    assert change.log == (ActionRow(None, f"join:{user(1)}"),)


def test_join_twice_is_refused() -> None:
    with pytest.raises(TableError) as excinfo:
        lobby(2).join(player(1), now=5.0)
    assert codes(excinfo) == "already_seated"


def test_r_setup_1_the_eleventh_player_finds_the_table_full() -> None:
    table = lobby(10)
    assert len(table.players) == 10
    with pytest.raises(TableError) as excinfo:
        table.join(player(10), now=5.0)
    assert codes(excinfo) == "table_full"
    assert excinfo.value.params == {"seats": 10}


def test_r_alt_8_twenty_seats_with_two_decks_and_the_twenty_first_finds_it_full() -> None:
    table = lobby(MAX_PLAYERS, two_decks=True, max_players=20)
    assert table.capacity == MAX_PLAYERS == 20
    with pytest.raises(TableError) as excinfo:
        table.join(player(20), now=5.0)
    assert codes(excinfo) == "table_full"
    started = table.start(by=user(0), is_admin=False, now=9.0).table
    assert started.match is not None
    assert len(started.match.hand.hands) == 20


def test_a_tournament_table_seats_exactly_four() -> None:
    table = lobby(4, preset="tournament")
    assert table.capacity == 4
    with pytest.raises(TableError) as excinfo:
        table.join(player(4), now=5.0)
    assert codes(excinfo) == "table_full"
    assert excinfo.value.params == {"seats": 4}


def test_join_after_the_start_or_the_end_is_refused() -> None:
    with pytest.raises(TableError) as excinfo:
        started(2).join(player(5), now=60.0)
    assert codes(excinfo) == "game_running"
    closed = lobby(2).end(by=user(0), is_admin=False, now=6.0).table
    with pytest.raises(TableError) as excinfo:
        closed.join(player(5), now=7.0)
    assert codes(excinfo) == "table_closed"


# -- leave and kick in the lobby ----------------------------------------------------------------


def test_a_guest_leaves_the_lobby() -> None:
    change = lobby(3).leave(user(1), now=9.0)
    assert change.table.players == (player(0), player(2))
    assert change.table.host_id == user(0)
    assert change.log == (ActionRow(None, f"leave:{user(1)}"),)


def test_when_the_host_leaves_the_next_player_hosts() -> None:
    change = lobby(3).leave(user(0), now=9.0)
    assert change.table.players == (player(1), player(2))
    assert change.table.host_id == user(1)
    assert change.table.status == "lobby"


def test_the_last_player_leaving_closes_the_table() -> None:
    change = lobby(1).leave(user(0), now=9.0)
    assert change.table.players == ()
    assert change.table.status == "closed"
    assert not change.table.is_live


def test_leave_without_a_seat_is_refused() -> None:
    with pytest.raises(TableError) as excinfo:
        lobby(2).leave(user(7), now=9.0)
    assert codes(excinfo) == "not_seated"


def test_the_host_kicks_a_guest() -> None:
    change = lobby(3).kick(user(2), by=user(0), is_admin=False, now=9.0)
    assert change.table.players == (player(0), player(1))
    assert change.log == (ActionRow(None, f"kick:{user(2)}"),)


def test_only_the_host_kicks_unless_admin() -> None:
    table = lobby(3)
    with pytest.raises(TableError) as excinfo:
        table.kick(user(2), by=user(1), is_admin=False, now=9.0)
    assert codes(excinfo) == "not_host"
    change = table.kick(user(2), by=user(1), is_admin=True, now=9.0)
    assert change.table.seat_of(user(2)) is None


def test_an_admin_kicking_the_host_passes_the_table_on() -> None:
    change = lobby(3).kick(user(0), by=999, is_admin=True, now=9.0)
    assert change.table.host_id == user(1)
    assert change.table.players == (player(1), player(2))


def test_the_host_cannot_kick_themself() -> None:
    with pytest.raises(TableError) as excinfo:
        lobby(3).kick(user(0), by=user(0), is_admin=False, now=9.0)
    assert codes(excinfo) == "cannot_kick_self"


def test_kicking_someone_without_a_seat_is_refused() -> None:
    with pytest.raises(TableError) as excinfo:
        lobby(3).kick(user(8), by=user(0), is_admin=False, now=9.0)
    assert codes(excinfo) == "not_seated_other"


def test_an_admin_kicking_the_only_player_closes_the_table() -> None:
    # Regression: kick once looked for the next host in an empty lobby (IndexError).
    change = lobby(1).kick(user(0), by=999, is_admin=True, now=9.0)
    assert change.table.players == ()
    assert change.table.status == "closed"


# -- start --------------------------------------------------------------------------------------


def test_the_host_starts_the_match() -> None:
    table = lobby(3)
    change = table.start(by=user(0), is_admin=False, now=50.0)
    after = change.table
    assert after.status == "playing"
    assert after.match is not None
    assert after.match.players == 3
    assert change.log == (ActionRow(None, "start"),)
    assert any(type(e).__name__ == "HandStarted" for e in change.events)
    assert type(after.recent[-1]).__name__ == "HandStarted"


def test_only_the_host_starts_unless_admin() -> None:
    table = lobby(3)
    with pytest.raises(TableError) as excinfo:
        table.start(by=user(1), is_admin=False, now=50.0)
    assert codes(excinfo) == "not_host"
    assert table.start(by=user(1), is_admin=True, now=50.0).table.status == "playing"


def test_r_setup_1_one_player_is_too_few() -> None:
    with pytest.raises(TableError) as excinfo:
        lobby(1).start(by=user(0), is_admin=False, now=50.0)
    assert codes(excinfo) == "too_few_players"


@pytest.mark.parametrize("players", [2, 3])
def test_a_tournament_needs_exactly_four(players: int) -> None:
    with pytest.raises(TableError) as excinfo:
        lobby(players, preset="tournament").start(by=user(0), is_admin=False, now=50.0)
    assert codes(excinfo) == "wrong_player_count"
    assert excinfo.value.params == {"needed": 4}
    assert started(4, preset="tournament").status == "playing"


def test_start_twice_or_after_the_end_is_refused() -> None:
    with pytest.raises(TableError) as excinfo:
        started(2).start(by=user(0), is_admin=False, now=60.0)
    assert codes(excinfo) == "game_running"
    closed = lobby(2).end(by=user(0), is_admin=False, now=6.0).table
    with pytest.raises(TableError) as excinfo:
        closed.start(by=user(0), is_admin=False, now=7.0)
    assert codes(excinfo) == "table_closed"


def test_the_same_seed_deals_the_same_match() -> None:
    first, second = started(3), started(3)
    assert first.match == second.match


# -- act ----------------------------------------------------------------------------------------


def test_act_applies_the_action_for_the_users_seat() -> None:
    table = stacked([["R1", "G2"], ["R3", "B4"], ["Y5", "Y6"]], "R9")
    change = table.act(user(0), parse_action("R1"), now=70.0)
    assert change.table.match is not None
    assert change.table.match.hand.current == 1
    assert change.log == (ActionRow(0, "R1"),)
    assert [type(e).__name__ for e in change.events] == ["CardPlayed"]
    assert type(change.table.recent[-1]).__name__ == "CardPlayed"


def test_act_without_a_seat_is_refused() -> None:
    table = stacked([["R1", "G2"], ["R3", "B4"]], "R9")
    with pytest.raises(TableError) as excinfo:
        table.act(999, parse_action("R1"), now=70.0)
    assert codes(excinfo) == "not_seated"


def test_act_before_the_start_is_refused() -> None:
    with pytest.raises(TableError) as excinfo:
        lobby(2).act(user(0), Draw(), now=70.0)
    assert codes(excinfo) == "game_not_running"


@pytest.mark.parametrize(
    ("seat", "action", "reason"),
    [
        pytest.param(1, "R3", Reason.NOT_YOUR_TURN, id="R-TURN-1-not-your-turn"),
        pytest.param(0, "G2", Reason.DOES_NOT_MATCH, id="R-TURN-2-does-not-match"),
        pytest.param(0, "B7", Reason.CARD_NOT_IN_HAND, id="card-not-in-hand"),
        pytest.param(0, "pass", Reason.NOTHING_TO_PASS, id="R-TURN-5-nothing-to-pass"),
    ],
)
def test_an_illegal_action_is_refused_with_the_engine_reason(
    seat: int, action: str, reason: Reason
) -> None:
    table = stacked([["R1", "G2"], ["R3", "B4"]], "R9")
    with pytest.raises(TableError) as excinfo:
        act(table, seat, action)
    assert codes(excinfo) == "illegal"
    assert excinfo.value.params["reason"] == reason.value


def test_r_end_1_a_finished_hand_pauses_on_its_scoring_then_deals_the_next_one() -> None:
    table = stacked([["R1"], ["B2", "B3"]], "R9")
    change = table.act(user(0), Play(CardFace.parse("R1")), now=70.0)
    paused = change.table
    assert paused.status == "playing"
    assert paused.match is not None
    assert paused.match.hand.is_over
    assert paused.match.scores[0] == 5
    assert change.log == (ActionRow(0, "R1"),)
    kinds = [type(e).__name__ for e in change.events]
    assert kinds.index("HandEnded") < kinds.index("HandScored")
    assert paused.deadline == 70.0 + NEXT_HAND_SECONDS
    assert paused.version == table.version + 1
    # Nobody may act in the pause; at its end the clock deals the next hand.
    with pytest.raises(TableError):
        act(paused, 1, "draw")
    dealt = paused.time_out(70.0 + NEXT_HAND_SECONDS)
    after = dealt.table
    assert after.match is not None
    assert after.match.hand_number == 2
    assert not after.match.hand.is_over
    assert dealt.log == (ActionRow(None, "next"),)
    assert any(type(e).__name__ == "HandStarted" for e in dealt.events)


def test_r_setup_2_the_host_deals_the_next_hand_at_once() -> None:
    table = stacked([["R1"], ["B2", "B3"]], "R9")
    paused = act(table, 0, "R1")
    with pytest.raises(TableError) as excinfo:
        paused.deal_next(by=user(1), is_admin=False, now=71.0)
    assert codes(excinfo) == "not_host"
    after = paused.deal_next(by=user(0), is_admin=False, now=71.0).table
    assert after.match is not None
    assert after.match.hand_number == 2
    assert paused.match is not None
    assert after.match.dealer != paused.match.dealer  # R-SETUP-2: the deal rotates


def test_r_score_5_a_match_that_ends_finishes_the_table() -> None:
    table = stacked([["R1"], ["B2", "B3"]], "R9", target=1)
    change = table.act(user(0), Play(CardFace.parse("R1")), now=70.0)
    after = change.table
    assert after.status == "finished"
    assert not after.is_live
    assert after.match is not None
    assert after.match.is_over
    assert after.match.ranking[0] == 0
    assert change.log == (ActionRow(0, "R1"),)  # no next hand
    assert type(after.recent[-1]).__name__ == "MatchEnded"
    with pytest.raises(TableError) as excinfo:
        act(after, 1, "draw")
    assert codes(excinfo) == "table_closed"


# -- leaving a running match (R-TIME-2) ----------------------------------------------------------


def test_r_time_2_leaving_mid_game_removes_the_player_from_the_match() -> None:
    table = stacked([["R1", "G2"], ["R3", "B4"], ["Y5", "Y6"]], "R9")
    change = table.leave(user(0), now=80.0)
    after = change.table
    assert after.status == "playing"
    assert after.match is not None
    assert after.match.left == (0,)
    assert not after.match.hand.playing[0]
    assert after.match.hand.current == 1
    assert change.events[0] == PlayerRetired(0)
    assert change.log == (ActionRow(None, "leave@0"),)
    assert after.version == table.version + 1
    assert [type(r).__name__ for r in after.recent][-2:] == ["PlayerRetired", "PlayerLeft"]


def test_r_time_2_a_kicked_player_leaves_the_match_and_ranks_last() -> None:
    table = stacked([["R1", "G2"], ["R3", "B4"], ["Y5", "Y6"]], "R9")
    kicked = table.kick(user(2), by=user(0), is_admin=False, now=80.0).table
    assert kicked.match is not None
    assert kicked.match.left == (2,)
    left = kicked.leave(user(1), now=81.0)
    after = left.table
    assert after.status == "finished"
    assert after.match is not None
    assert after.match.ranking == (0, 1, 2)  # whoever left first ranks lowest
    assert left.events[-1].__class__.__name__ == "MatchEnded"


def test_r_time_2_leaving_heads_up_ends_the_match() -> None:
    table = stacked([["R1", "G2"], ["R3", "B4"]], "R9")
    after = table.leave(user(1), now=80.0).table
    assert after.status == "finished"
    assert after.match is not None
    assert after.match.ranking == (0, 1)


def test_r_time_2_leaving_ends_the_hand_and_the_next_one_is_dealt() -> None:
    # Tournament (play_to_last): seat 0 went out and stays in the match; when two of the
    # three still holding cards leave, the hand is over and, after the pause, the next one
    # is dealt.
    table = stacked([["R1"], ["B2", "B3"], ["G2", "G3"], ["Y2", "Y3"]], "R9", preset="tournament")
    table = act(table, 0, "R1")
    assert table.match is not None
    assert table.match.hand.out == (0,)
    table = table.leave(user(1), now=81.0).table
    change = table.leave(user(2), now=82.0)
    assert change.log == (ActionRow(None, "leave@2"),)
    assert change.table.match is not None
    assert change.table.match.hand.is_over
    after = change.table.time_out(82.0 + NEXT_HAND_SECONDS).table
    assert after.status == "playing"
    assert after.match is not None
    assert after.match.hand_number == 2
    assert after.match.left == (1, 2)
    assert after.match.hand.playing == (True, False, False, True)


def test_r_time_2_leaving_twice_is_a_polite_refusal() -> None:
    # Regression: the engine's IllegalActionError(NOT_PLAYING) once escaped the table.
    table = stacked([["R1", "G2"], ["R3", "B4"], ["Y5", "Y6"]], "R9")
    table = table.leave(user(1), now=80.0).table
    with pytest.raises(TableError) as excinfo:
        table.leave(user(1), now=81.0)
    assert codes(excinfo) == "not_seated"
    assert table.playing_seat_of(user(1)) is None
    assert table.seat_of(user(1)) == 1  # the seat keeps its name for the standings


def test_r_time_2_kicking_a_player_who_left_is_a_polite_refusal() -> None:
    table = stacked([["R1", "G2"], ["R3", "B4"], ["Y5", "Y6"]], "R9")
    table = table.leave(user(1), now=80.0).table
    with pytest.raises(TableError) as excinfo:
        table.kick(user(1), by=user(0), is_admin=False, now=81.0)
    assert codes(excinfo) == "not_seated_other"


def test_r_time_2_a_host_who_leaves_a_running_match_passes_the_table_on() -> None:
    table = stacked([["R1", "G2"], ["R3", "B4"], ["Y5", "Y6"], ["G7", "G8"]], "R9")
    table = table.leave(user(1), now=80.0).table
    change = table.leave(user(0), now=81.0)
    assert change.table.host_id == user(2)  # seat 1 left before, so seat 2 is next
    assert change.table.status == "playing"


def test_r_time_2_a_kick_during_the_match_is_logged_as_a_kick() -> None:
    table = stacked([["R1", "G2"], ["R3", "B4"], ["Y5", "Y6"], ["G7", "G8"]], "R9")
    change = table.kick(user(2), by=user(0), is_admin=False, now=80.0)
    assert change.log == (ActionRow(None, f"kick:{user(2)}"), ActionRow(None, "leave@2"))


def test_r_time_2_a_player_who_left_cannot_act() -> None:
    table = stacked([["R1", "G2"], ["R3", "B4"], ["Y5", "Y6"]], "R9")
    table = table.leave(user(1), now=80.0).table
    with pytest.raises(TableError) as excinfo:
        act(table, 1, "draw")
    assert codes(excinfo) == "illegal"
    assert excinfo.value.params["reason"] == Reason.NOT_PLAYING.value


# -- end ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("factory", [lambda: lobby(3), lambda: started(3)], ids=["lobby", "game"])
def test_the_host_or_an_admin_ends_the_table(factory) -> None:
    table = factory()
    with pytest.raises(TableError) as excinfo:
        table.end(by=user(1), is_admin=False, now=90.0)
    assert codes(excinfo) == "not_host"
    for by, admin in ((user(0), False), (999, True)):
        change = table.end(by=by, is_admin=admin, now=90.0)
        assert change.table.status == "closed"
        assert change.log == (ActionRow(None, "end"),)


def test_a_closed_or_finished_table_cannot_end_again() -> None:
    closed = lobby(2).end(by=user(0), is_admin=False, now=90.0).table
    finished = act(stacked([["R1"], ["B2"]], "R9", target=1), 0, "R1")
    for table in (closed, finished):
        with pytest.raises(TableError) as excinfo:
            table.end(by=user(0), is_admin=True, now=91.0)
        assert codes(excinfo) == "table_closed"


# -- versions -----------------------------------------------------------------------------------


def test_every_operation_moves_the_version_by_exactly_one() -> None:
    operations = [
        lambda tb: tb.join(player(1), now=1.0),
        lambda tb: tb.join(player(2), now=2.0),
        lambda tb: tb.join(player(3), now=3.0),
        lambda tb: tb.leave(user(3), now=4.0),
        lambda tb: tb.join(player(4), now=5.0),
        lambda tb: tb.kick(user(4), by=user(0), is_admin=False, now=6.0),
        lambda tb: tb.start(by=user(0), is_admin=False, now=7.0),
    ]
    table = lobby(1)
    for operation in operations:
        change: Change = operation(table)
        assert change.table.version == table.version + 1
        table = change.table
    rnd = random.Random(5)
    for _ in range(40):
        assert table.match is not None
        seat, action = random_step(table.match.hand, rnd)
        after = table.act(user(seat), action, now=8.0).table
        assert after.version == table.version + 1
        table = after
    assert table.leave(user(1), now=9.0).table.version == table.version + 1
    assert table.end(by=user(0), is_admin=False, now=9.0).table.version == table.version + 1


def test_a_refused_operation_leaves_the_table_untouched() -> None:
    table = lobby(2)
    before = replace(table)
    with pytest.raises(TableError):
        table.join(player(1), now=5.0)
    assert table == before
    assert table.version == 1


# -- records ------------------------------------------------------------------------------------


def through_json(record: TableRecord) -> TableRecord:
    """What the repository stores and gives back."""
    return replace(record, state=json.loads(json.dumps(record.state)))


@pytest.mark.parametrize(
    "factory",
    [
        lambda: lobby(1),
        lambda: lobby(4, preset="party", target=200),
        lambda: started(3, preset="online"),
        lambda: act(stacked([["R1", "W4"], ["B2", "B3"], ["G1"]], "R9"), 0, "W4=G"),
        lambda: (
            stacked([["R1", "G2"], ["R3", "B4"], ["Y5", "Y6"]], "R9").leave(user(1), now=3.0).table
        ),
        lambda: act(stacked([["R1"], ["B2"]], "R9", target=1), 0, "R1"),
        lambda: lobby(2).end(by=user(0), is_admin=False, now=3.0).table,
        lambda: replace(
            lobby(1).add_computer("hard", by=user(0), is_admin=False, now=1.0).table,
            tournament="Spring",
            language="it",
            players=(replace(player(0), team_role=42), Player(-1, "🤖 Ada", "hard")),
        ),
    ],
    ids=["lobby", "options", "running", "challenge", "left", "finished", "closed", "extras"],
)
def test_to_record_from_record_round_trip(factory) -> None:
    table = replace(factory(), message_id=123456789012345678)
    record = table.to_record()
    assert record.id == table.id
    assert record.status == table.status
    assert record.version == table.version
    assert record.seats == tuple(p.user_id for p in table.players)
    assert record.message_id == table.message_id
    assert Table.from_record(record) == table
    again = Table.from_record(through_json(record))
    assert again == table
    assert again.rules == table.rules
    assert again.to_record() == through_json(record)


def test_a_running_match_continues_identically_after_a_round_trip() -> None:
    table = started(4, preset="party")
    rnd_a, rnd_b = random.Random(11), random.Random(11)
    copy = Table.from_record(through_json(table.to_record()))
    for _ in range(60):
        assert table.match is not None
        assert copy.match is not None
        seat, action = random_step(table.match.hand, rnd_a)
        assert random_step(copy.match.hand, rnd_b) == (seat, action)
        table = table.act(user(seat), action, now=1.0).table
        copy = Table.from_record(
            through_json(copy.act(user(seat), action, now=1.0).table.to_record())
        )
        assert copy == table


def test_names_come_back_in_seat_order() -> None:
    table = Table.from_record(through_json(lobby(5).to_record()))
    assert table.names() == list(NAMES[:5])
    assert table.players[3] == Player(103, "Dee")


# -- the public log -----------------------------------------------------------------------------


def test_recent_keeps_only_public_records_and_at_most_recent_events() -> None:
    seen: set[str] = set()
    for preset, players, seed in (("classic", 3, 1), ("party", 4, 2), ("online", 2, 3)):
        table = started(players, preset=preset)
        rnd = random.Random(seed)
        steps = 0
        while table.status == "playing" and steps < 400:
            assert table.match is not None
            if table.match.hand.is_over:  # the pause between hands: the clock deals on
                table = table.time_out(table.deadline or 0.0).table
                continue
            seat, action = random_step(table.match.hand, rnd)
            change = table.act(user(seat), action, now=1.0)
            seen.update(type(e).__name__ for e in change.events)
            table = change.table
            steps += 1
            assert len(table.recent) <= RECENT_EVENTS
            kinds = {type(r).__name__ for r in table.recent}
            assert not kinds & PRIVATE_EVENTS
            for record in table.to_record().state["recent"]:
                json.dumps(record)  # JSON-ready
                assert "cards" not in record or isinstance(record["cards"], int)
    # The private events did happen: the filter had something to remove.
    assert {"CardsReceived", "HandRevealed"} <= seen


def test_recent_holds_the_last_events_in_order() -> None:
    table = stacked([["R1", "R2"], ["B1", "B2"]], "R9")
    for seat in (0, 1) * 5:
        table = act(table, seat, "draw")
        assert table.match is not None
        if table.match.hand.current == seat:  # a playable card was drawn: keep it
            table = act(table, seat, "pass")
    assert len(table.recent) == RECENT_EVENTS
    assert all(isinstance(r, CardsDrawn | Passed) for r in table.recent)
    drawn = [r for r in table.recent if isinstance(r, CardsDrawn)]
    assert all(r.count == 1 for r in drawn)
    assert drawn[-1].seat == 1


# -- house rules, teams and rematches (RULES.md §12, R-TEAM-2) ------------------------------------


def test_the_host_sets_house_rules_and_only_differences_are_kept() -> None:
    table = lobby(3)
    change = table.set_options(
        {"stacking": "cumulative", "jump_in": True, "draw_until_playable": False},
        by=user(0),
        is_admin=False,
        now=5.0,
    )
    assert dict(change.table.options) == {"stacking": "cumulative", "jump_in": True}
    assert change.table.rules.jump_in
    back = change.table.set_options({"jump_in": None}, by=user(0), is_admin=False, now=6.0)
    assert dict(back.table.options) == {"stacking": "cumulative"}
    with pytest.raises(TableError) as excinfo:
        table.set_options({"jump_in": True}, by=user(1), is_admin=False, now=5.0)
    assert codes(excinfo) == "not_host"


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"scoring": "placement"}, "placement_needs_play_to_last"),
        ({"teams": 2, "play_to_last": True}, "teams_no_play_to_last"),
        ({"stacking": "sideways"}, "bad_choice"),
        ({"no_such": 1}, "unknown_option"),
    ],
)
def test_contradictory_house_rules_are_refused_with_the_engines_reason(
    options: dict[str, object], rule: str
) -> None:
    table = lobby(2)
    with pytest.raises(TableError) as excinfo:
        table.set_options(options, by=user(0), is_admin=False, now=5.0)
    assert codes(excinfo) == "bad_rules"
    assert excinfo.value.params["rule"] == rule
    assert table.options == {}


def test_r_team_2_partners_sit_alternately_as_they_picked() -> None:
    table = lobby(4, teams=2)
    # Ann and Bob pick team 0 (partners), Cid picks team 1; Dee is placed automatically.
    for seat, team in ((0, 0), (1, 0), (2, 1)):
        table = table.pick_team(user(seat), team, now=10.0).table
    started_ = table.start(by=user(0), is_admin=False, now=11.0).table
    assert [p.name for p in started_.players] == ["Ann", "Cid", "Bob", "Dee"]
    assert [p.team for p in started_.players] == [0, 1, 0, 1]
    assert started_.match is not None
    assert [started_.match.team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_r_team_2_uneven_picks_or_sizes_are_refused_before_the_deal() -> None:
    three = lobby(3, teams=2)
    with pytest.raises(TableError) as excinfo:
        three.start(by=user(0), is_admin=False, now=11.0)
    assert codes(excinfo) == "teams_uneven"
    four = lobby(4, teams=2)
    for seat in range(3):
        four = four.pick_team(user(seat), 0, now=10.0).table
    with pytest.raises(TableError) as excinfo:
        four.start(by=user(0), is_admin=False, now=11.0)
    assert codes(excinfo) == "teams_unbalanced"
    with pytest.raises(TableError) as excinfo:
        four.pick_team(user(0), 2, now=10.0)
    assert codes(excinfo) == "no_such_team"


def test_r_team_2_every_partner_of_the_winner_wins_on_the_board() -> None:
    table = lobby(4, teams=2, target=1).start(by=user(0), is_admin=False, now=11.0).table
    assert table.match is not None
    rnd = random.Random(3)
    while table.status == "playing":
        assert table.match is not None
        if table.match.hand.is_over:
            table = table.time_out(table.deadline or 0.0).table
            continue
        seat, action = random_step(table.match.hand, rnd)
        table = table.act(user(seat), action, now=20.0).table
    result = table.result()
    assert result is not None
    assert table.match is not None
    winners = {p.user_id for p in result.players if p.won}
    team = table.match.team_of(table.match.ranking[0])
    assert winners == {user(s) for s in range(4) if s % 2 == team}
    assert {p.team for p in result.players} == {0, 1}
    assert dict(result.options) == {"teams": 2, "target": 1}


def test_a_rematch_reopens_the_lobby_with_the_same_rules_and_invites_the_others() -> None:
    table = stacked([["R1"], ["B2", "B3"]], "R9", target=1, jump_in=True)
    finished = act(table, 0, "R1")
    assert finished.status == "finished"
    again = finished.rematch(table_id="t1", host=player(1), seed=9, now=500.0)
    assert again.status == "lobby"
    assert again.host_id == user(1)
    assert [p.user_id for p in again.players] == [user(1)]
    assert again.invited == (user(0),)
    assert dict(again.options) == {"target": 1, "jump_in": True}
    joined = again.join(player(0), now=501.0).table
    assert joined.invited == ()
    with pytest.raises(TableError) as excinfo:
        table.rematch(table_id="t2", host=player(1), seed=9, now=500.0)
    assert codes(excinfo) == "match_not_over"
