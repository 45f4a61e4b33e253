"""The table's clock (R-TIME): timed-out turns, replacement or removal, expiring lobbies and
idle games, and computer players seated in the lobby — pure table logic, no Discord."""

from __future__ import annotations

import pytest

from engine import CardFace
from engine.auto import auto_action
from tables.records import LobbyExpired, NoHumansLeft, Reclaimed, Replaced, TableIdle, TimedOut
from tables.table import IDLE_SECONDS, LOBBY_SECONDS, Table, TableError

from .tables import act, lobby, player, stacked, user

HANDS = [["R1", "R5", "RS", "G7"], ["B3", "B4", "Y5", "G2"], ["Y1", "Y2", "Y3", "G9"]]


def timed(preset: str = "classic", seconds: int = 30) -> Table:
    table = stacked(HANDS, "R9", ["G1", "G3", "G4", "G5", "G6", "G8"], preset=preset)
    if table.rules.turn_seconds != seconds:
        table = stacked(
            HANDS,
            "R9",
            ["G1", "G3", "G4", "G5", "G6", "G8"],
            preset=preset,
            turn_seconds=seconds,
        )
    return table


def test_r_time_1_the_deadline_is_stored_and_not_due_before_it() -> None:
    table = timed()
    assert table.deadline == 50.0 + 30
    assert not table.is_due(79.9)
    with pytest.raises(TableError) as excinfo:
        table.time_out(79.9)
    assert excinfo.value.code == "not_due"
    again = Table.from_record(table.to_record())
    assert again.deadline == table.deadline  # survives a restart


def test_r_time_1_a_timed_out_turn_plays_the_lowest_number_card() -> None:
    table = timed()
    change = table.time_out(80.0)
    after = change.table
    assert after.match is not None
    hand = after.match.hand
    assert hand.public_view().top == CardFace.parse("R1")
    assert CardFace.parse("R1") not in hand.hand_faces(0)
    assert hand.current == 1
    assert after.timeouts[0] == 1
    assert after.recent[-1] == TimedOut(0)
    assert after.deadline == 80.0 + 30  # the next player's turn has its own time
    assert change.log[0].action == "timeout:0"


def test_r_time_1_the_clock_runs_per_turn_not_per_action() -> None:
    table = stacked(HANDS, "R9", ["R2", "G3"], turn_seconds=30)
    # Seat 0 draws a playable Red 2: the turn (and its clock) goes on until it plays or passes.
    drawn = act(table, 0, "draw")
    assert drawn.match is not None
    assert drawn.match.hand.current == 0
    assert drawn.deadline == table.deadline


def test_r_time_1_acting_yourself_resets_your_timeouts() -> None:
    table = timed().time_out(80.0).table
    # Seats 1 and 2 time out as well; seat 0 then plays by hand.
    table = table.time_out(110.0).table.time_out(140.0).table
    assert table.timeouts == (1, 1, 1)
    assert table.match is not None
    assert table.match.hand.current == 0
    table = table.act(user(0), table.match.hand.legal_actions(0)[0], now=150.0).table
    assert table.timeouts[0] == 0


def others_act_until_seat_0(table: Table) -> Table:
    """Seats 1 and 2 play their own turns (what the clock would play, but by hand)."""
    assert table.match is not None
    while table.match.hand.current != 0:
        seat = table.match.hand.current
        action = auto_action(table.match.hand, seat)
        assert action is not None
        table = table.act(user(seat), action, now=table.updated_at + 1).table
        assert table.match is not None
    return table


def three_timeouts(preset: str) -> Table:
    table = timed(preset)
    for _ in range(3):
        table = others_act_until_seat_0(table)
        table = table.time_out(table.deadline or 0.0).table
        table = Table.from_record(table.to_record())  # a restart between timeouts changes nothing
    return table


def test_r_time_3_three_timeouts_in_a_row_hand_the_seat_to_a_computer() -> None:
    """R-TIME-3: the seat goes to a computer player until its owner acts again."""
    table = three_timeouts("classic")
    assert table.players[0].level == "normal"
    assert table.players[0].user_id == user(0)
    assert Replaced(0) in table.recent
    assert table.status == "playing"
    # The computer now plays seat 0, and the human takes it back by acting.
    assert 0 in table.automatic_seats()
    table = others_act_until_seat_0(table)
    assert table.match is not None
    action = table.match.hand.legal_actions(0)[0]
    computer = table.act_for(0, [action], now=1000.0).table
    assert computer.players[0].level == "normal"
    back = table.act(user(0), action, now=1000.0).table
    assert back.players[0].level is None
    assert back.timeouts[0] == 0


def test_r_time_2_the_online_room_removes_a_player_who_times_out_three_times() -> None:
    table = three_timeouts("online")
    assert table.match is not None
    assert 0 in table.match.left
    assert table.playing_seat_of(user(0)) is None
    assert table.host_id == user(1)  # the host's seat went, so the table passed on


def test_a_lobby_nobody_starts_closes_after_fifteen_minutes() -> None:
    table = lobby(2)
    assert table.deadline == table.created_at + LOBBY_SECONDS
    closed = table.time_out(table.created_at + LOBBY_SECONDS).table
    assert closed.status == "closed"
    assert closed.recent[-1] == LobbyExpired()
    assert closed.deadline is None


def test_a_game_without_turn_time_closes_after_an_idle_hour() -> None:
    table = stacked(HANDS, "R9")
    assert table.rules.turn_seconds == 0
    table = act(table, 0, "R1")
    assert table.deadline is not None
    assert table.deadline == table.updated_at + IDLE_SECONDS
    closed = table.time_out(table.deadline).table
    assert closed.status == "closed"
    assert closed.recent[-1] == TableIdle()


# -- computer players in the lobby --------------------------------------------------------------


def test_the_host_seats_computer_players() -> None:
    table = lobby(1)
    table = table.add_computer("easy", by=user(0), is_admin=False, now=1.0).table
    table = table.add_computer("hard", by=user(0), is_admin=False, now=2.0).table
    computers = table.players[1:]
    assert [p.level for p in computers] == ["easy", "hard"]
    assert all(p.is_computer for p in computers)
    assert len({p.user_id for p in table.players}) == 3
    assert computers[0].name.startswith("🤖")
    started = table.start(by=user(0), is_admin=False, now=3.0).table
    assert started.automatic_seats() == [1, 2]
    assert started.humans_remaining == 1


def test_only_the_host_seats_computer_players() -> None:
    table = lobby(2)
    with pytest.raises(TableError) as excinfo:
        table.add_computer("normal", by=user(1), is_admin=False, now=1.0)
    assert excinfo.value.code == "not_host"


def test_a_full_table_takes_no_computer_player() -> None:
    table = lobby(2, preset="tournament")
    table = table.join(player(2), now=3.0).table.join(player(3), now=4.0).table
    with pytest.raises(TableError) as excinfo:
        table.add_computer("normal", by=user(0), is_admin=False, now=5.0)
    assert excinfo.value.code == "table_full"


def test_when_the_last_human_leaves_the_computers_do_not_play_on() -> None:
    table = lobby(1).add_computer("normal", by=user(0), is_admin=False, now=1.0).table
    table = table.add_computer("normal", by=user(0), is_admin=False, now=2.0).table
    table = table.start(by=user(0), is_admin=False, now=3.0).table
    closed = table.leave(user(0), now=4.0).table
    assert closed.status == "closed"
    assert closed.recent[-1] == NoHumansLeft()


# -- a seat held for an absent person keeps the table alive (R-TIME-3) ---------------------------


def alone_with_computers(seconds: int = 5) -> Table:
    """A person (seat 0) with two computer players, turn timer on, started."""
    table = lobby(1, turn_seconds=seconds)
    for n in range(2):
        table = table.add_computer("normal", by=user(0), is_admin=False, now=1.0 + n).table
    return table.start(by=user(0), is_admin=False, now=3.0).table


def time_out_the_person(table: Table, times: int) -> Table:
    """Let the computers play (as the clock would) and the person's turns run out."""
    for _ in range(times):
        for _ in range(500):
            assert table.match is not None
            hand = table.match.hand
            if hand.is_over:
                table = table.deal_next(by=user(0), is_admin=False, now=table.updated_at).table
                continue
            if hand.current == 0 and not table.players[0].is_automatic:
                break
            seat = hand.current
            action = auto_action(hand, seat)
            assert action is not None
            table = table.act_for(seat, [action], now=table.updated_at + 1).table
        table = table.time_out(table.deadline or 0.0).table
    return table


def test_r_time_3_a_person_alone_with_computers_keeps_the_table_after_timeouts() -> None:
    """The table said a computer holds the seat, then at once closed: no more."""
    table = time_out_the_person(alone_with_computers(), 3)
    assert table.status == "playing"
    assert table.players[0].is_held
    assert Replaced(0) in table.recent
    assert NoHumansLeft() not in table.recent
    assert table.humans_remaining == 1  # away, but could come back
    assert table.present_seats() == []


def test_r_time_3_any_interaction_takes_the_seat_back() -> None:
    table = time_out_the_person(alone_with_computers(), 3)
    back = table.reclaim(user(0), now=table.updated_at + 1)
    assert not back.table.players[0].is_automatic
    assert back.table.timeouts[0] == 0
    assert back.table.recent[-1] == Reclaimed(0)
    assert back.table.version == table.version + 1
    # Nothing to take back: no change, no save.
    again = back.table.reclaim(user(0), now=back.table.updated_at + 1)
    assert again.table is back.table
    assert table.reclaim(user(1), now=1.0).table is table  # not seated


def test_r_time_3_idle_is_measured_from_the_last_persons_move() -> None:
    """Computers playing a held seat do not keep an abandoned table open for ever."""
    table = time_out_the_person(alone_with_computers(), 3)
    limit = table.active_at + IDLE_SECONDS
    assert table.match is not None
    seat = table.match.hand.current
    action = auto_action(table.match.hand, seat)
    assert action is not None
    later = table.act_for(seat, [action], now=table.active_at + 600).table
    assert later.active_at == table.active_at
    assert later.deadline == limit
    closed = later.time_out(limit).table
    assert closed.status == "closed"
    assert closed.recent[-1] == TableIdle()


def test_r_time_2_after_timeouts_remove_is_a_rule_not_a_preset_name() -> None:
    table = stacked(
        HANDS, "R9", ["G1", "G3", "G4", "G5", "G6", "G8"], turn_seconds=30, after_timeouts="remove"
    )
    for _ in range(3):
        table = others_act_until_seat_0(table)
        table = table.time_out(table.deadline or 0.0).table
    assert table.match is not None
    assert 0 in table.match.left


def test_r_alt_1_a_timed_match_ends_when_its_time_runs_out() -> None:
    table = stacked(HANDS, "R9", ["G1", "G3"], time_limit=15)
    assert table.started_at == 50.0
    assert table.match_ends_at == 50.0 + 15 * 60
    assert table.deadline == table.match_ends_at  # no turn time: the match's end is next
    assert not table.is_due(949.0)
    change = table.time_out(950.0)
    ended = change.table
    assert ended.status == "finished"
    assert ended.match is not None
    assert ended.match.is_over
    assert change.log[0].action == "time_up"
    # R-ALT-1: the hand was won by the fewest cards: seat 0, 1 and 2 hold four each, so the
    # tie goes by R-SCORE-6; whoever won, the match has a ranking and a result.
    assert ended.result() is not None
    again = Table.from_record(ended.to_record())
    assert again.started_at == table.started_at


def test_r_alt_1_the_turn_time_and_the_match_time_whichever_comes_first() -> None:
    table = stacked(HANDS, "R9", turn_seconds=30, time_limit=1)
    assert table.deadline == 50.0 + 30  # the turn ends first
    late = timed_tail(table)
    assert late.deadline == table.match_ends_at  # the match's end comes before the next turn's


def timed_tail(table: Table) -> Table:
    """Seat 0 plays at 100 s: the next turn's time (130 s) is past the match's end (110 s)."""
    return table.act(user(0), table.match.hand.legal_actions(0)[0], now=100.0).table  # type: ignore[union-attr]
