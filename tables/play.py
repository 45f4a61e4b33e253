"""Play: a person's actions, a computer's, a catch (R-UNO-2), a held seat taken back
(R-TIME-3), and the clock's turn: time given back after an outage, a turn that ran out
(R-TIME-1) — with what three timeouts in a row bring (R-TIME-2, R-TIME-3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Self

from engine import Action, AfterTimeouts, CatchUno, IllegalActionError
from engine.auto import auto_action
from engine.events import Event
from storage import ActionRow

from .ending import Ending
from .records import ClockPaused, LobbyExpired, Reclaimed, Replaced, TableIdle, TimedOut
from .state import TIMEOUTS_IN_A_ROW, Change, TableError


class Play(Ending):
    """The moves of a running match (see the module docstring)."""

    __slots__ = ()

    def act(self, user_id: int, *actions: Action, now: float) -> Change[Self]:
        """Apply ``actions`` for the seat of ``user_id``: the first must be legal, the
        others (a UNO call after the play, say) are applied while they are legal. A hand
        that ends pauses on its scoring (see :meth:`time_out`).

        A person whose seat a computer holds (R-TIME-3) takes it back by acting.
        """
        self._require_playing()
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        table = self._reclaimed(seat)._with_timeouts(seat, 0)
        return table._apply(seat, actions, now, by_person=True)

    def act_for(self, seat: int, actions: Sequence[Action], *, now: float) -> Change[Self]:
        """A computer's ``actions`` for ``seat`` (a computer player or a held seat)."""
        self._require_playing()
        if not 0 <= seat < len(self.players) or not self.players[seat].is_automatic:
            raise TableError("not_seated")
        return self._apply(seat, actions, now)

    def catch(self, user_id: int, target: int | None, *, now: float) -> Change[Self]:
        """``user_id`` catches ``target`` (R-UNO-2); by default whoever is open to a catch."""
        match = self._require_playing()
        if target is None:
            target = match.hand.uno_seat
            if target is None:
                raise TableError("illegal", reason="nothing_to_catch", detail="")
        return self.act(user_id, CatchUno(target), now=now)

    def reclaim(self, user_id: int, *, now: float) -> Change[Self]:
        """A person came back to the table (any interaction counts): a seat a computer held
        for them is theirs again (R-TIME-3). No change when nothing was held."""
        seat = self.playing_seat_of(user_id)
        if self.status != "playing" or seat is None or not self.players[seat].is_held:
            return Change(self)
        table = self._reclaimed(seat)._with_timeouts(seat, 0)
        table = table._changed(now, by_person=True)
        return Change(table, log=(ActionRow(None, f"back:{user_id}"),))

    def _reclaimed(self, seat: int) -> Self:
        player = self.players[seat]
        if not player.is_held:
            return self
        return self._with_player(seat, replace(player, level=None))._note(Reclaimed(seat))

    def _apply(
        self, seat: int, actions: Sequence[Action], now: float, *, by_person: bool = False
    ) -> Change[Self]:
        match = self._require_playing()
        events: list[Event] = []
        log: list[ActionRow] = []
        for index, action in enumerate(actions):
            if index and (match.is_over or not match.hand.is_legal(seat, action)):
                continue  # a follow-up (a UNO call) that no longer applies
            try:
                step = match.apply(seat, action)
            except IllegalActionError as exc:
                raise TableError("illegal", reason=exc.reason.value, detail=exc.detail) from None
            events.extend(step.events)
            log.append(ActionRow(seat, str(action)))
            match = step.match
        status = "finished" if match.is_over else "playing"
        # A hand that ends leaves the table showing its scoring until the next deal
        # (NEXT_HAND_SECONDS, or the host's "Next hand").
        table = self._changed(now, by_person=by_person, match=match, status=status)
        return Change(table._remember(events), tuple(events), tuple(log))

    def give_back(self, seconds: float, *, now: float) -> Change[Self]:
        """The turn's owner could not act for ``seconds`` of their turn (the bot could not hear
        them): their turn clock gets that time back — the deadline moves by ``seconds``, so
        they have the time that was left when they lost touch. Only a person's running turn
        clock moves."""
        seat = self.turn_owner()
        if seat is None or self.deadline is None or self.deadline + seconds < now + 1:
            raise TableError("not_due")  # nothing left to give: they had their whole time
        deadline = self.deadline + seconds
        table = replace(self, version=self.version + 1, updated_at=now, deadline=deadline)
        table = table._note(ClockPaused(seat, round(seconds)))
        return Change(table, log=(ActionRow(None, f"pause:{seat}:{round(seconds)}"),))

    def time_out(self, now: float) -> Change[Self]:
        """The deadline passed: close an expired lobby or an idle game, deal the next hand,
        or end the turn.

        R-TIME-1: the turn's owner is played for by :func:`engine.auto.auto_action`. After
        :data:`TIMEOUTS_IN_A_ROW` timeouts in a row the rules decide (``after_timeouts``): a
        computer holds the seat until its person comes back (R-TIME-3), or the player is
        removed and loses the match (R-TIME-2).
        """
        if not self.is_due(now):
            raise TableError("not_due")
        ends = self.match_ends_at
        if ends is not None and now >= ends:
            return self._time_up(now)
        match = self.match
        if self.status == "lobby" or match is None:
            return self._expire(now, LobbyExpired())
        if match.hand.is_over:
            if not self.present_seats():
                return self._expire(now, TableIdle())
            return self._deal_next(now)
        seat = match.hand.current
        if not self.rules.turn_seconds or self.players[seat].is_automatic:
            return self._expire(now, TableIdle())
        table = self
        events: list[Event] = []
        log: list[ActionRow] = [ActionRow(None, f"timeout:{seat}")]
        hand_number = match.hand_number
        while table.status == "playing" and table.match is not None:
            hand = table.match.hand
            if hand.is_over or table.match.hand_number != hand_number or hand.current != seat:
                break
            action = auto_action(hand, seat)
            if action is None:
                break
            change = table._apply(seat, (action,), now)
            table, events, log = change.table, [*events, *change.events], [*log, *change.log]
        count = (self.timeouts[seat] if seat < len(self.timeouts) else 0) + 1
        table = table._with_timeouts(seat, count)._note(TimedOut(seat))
        if count >= TIMEOUTS_IN_A_ROW and table.status == "playing":
            player = table.players[seat]
            if self.rules.after_timeouts is AfterTimeouts.REMOVE:
                retired = table._retire(seat, player.user_id, now, verb="timeout")
                table, events = retired.table, [*events, *retired.events]
                log.extend(retired.log)
            else:
                table = table._with_player(seat, replace(player, level="normal"))
                table = table._note(Replaced(seat))
                table = replace(table, deadline=table._next_deadline(table, now))
        table = table._close_if_nobody_can_return()
        return Change(table, tuple(events), tuple(log))
