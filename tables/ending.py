"""The end of a hand and of the match: the next deal, a timed match's end (R-ALT-1), a
player who leaves a running match (R-TIME-2), the host's end, an idle table's close, and the
finished match's result for the board."""

from __future__ import annotations

from dataclasses import replace
from typing import Self

from engine.events import Event
from storage import ActionRow, MatchResult

from .records import NoHumansLeft
from .results import match_result
from .state import Change, TableError, TableState


class Ending(TableState):
    """What ends a hand, a seat's match, or the table (see the module docstring)."""

    __slots__ = ()

    def end(self, *, by: int, is_admin: bool, now: float) -> Change[Self]:
        """Close the table (host or server manager)."""
        if not self.is_live:
            raise TableError("table_closed")
        self._require_host(by, is_admin)
        table = self._changed(now, by_person=True, status="closed")
        return Change(table, log=(ActionRow(None, "end"),))

    def deal_next(self, *, by: int, is_admin: bool, now: float) -> Change[Self]:
        """The host deals the next hand without waiting for the pause to end."""
        match = self._require_playing()
        self._require_host(by, is_admin)
        if not match.hand.is_over:
            raise TableError("illegal", reason="hand_not_over", detail="")
        return self._deal_next(now, by_person=True)

    def _deal_next(self, now: float, *, by_person: bool = False) -> Change[Self]:
        match = self._require_playing()
        following = match.next_hand()
        table = self._changed(now, by_person=by_person, match=following.match)
        table = table._remember(following.events)
        return Change(table, following.events, (ActionRow(None, "next"),))

    def _time_up(self, now: float) -> Change[Self]:
        """R-ALT-1: the match time ran out: the hand in progress ends at once (won by the
        fewest cards, or points) and the match ends with its standings."""
        match = self._require_playing()
        step = match.time_up()
        table = self._changed(now, match=step.match, status="finished")
        table = table._remember(step.events)
        return Change(table, step.events, (ActionRow(None, "time_up"),))

    def _retire(
        self, seat: int, user_id: int, now: float, *, verb: str, by_person: bool = False
    ) -> Change[Self]:
        """R-TIME-2: the seat leaves the running match; a leaving host passes the table on."""
        match = self._require_playing()
        step = match.remove_player(seat)
        events = list(step.events)
        # The engine's record knows only ``leave@N``; a kick or timeout also logs who went.
        log = [ActionRow(None, f"{verb}:{user_id}")] if verb != "leave" else []
        log.append(ActionRow(None, f"leave@{seat}"))
        match = step.match
        status = "finished" if match.is_over else "playing"
        table = self._changed(now, by_person=by_person, match=match, status=status)
        table = replace(table, host_id=table._next_host(user_id, table.players))
        table = table._remember(events)._close_if_nobody_can_return()
        return Change(table, tuple(events), tuple(log))

    def _expire(self, now: float, reason: Event) -> Change[Self]:
        table = self._changed(now, status="closed")._note(reason)
        return Change(table, log=(ActionRow(None, f"close:{type(reason).__name__}"),))

    def _close_if_nobody_can_return(self) -> Self:
        """Computers do not play on alone: when no person is left in the match — neither
        playing nor away with a computer holding their seat — the table closes."""
        if self.status == "playing" and self.humans_remaining == 0:
            return replace(self, status="closed", deadline=None)._note(NoHumansLeft())
        return self

    def result(self) -> MatchResult | None:
        """The finished match's record for the board (``None`` before the end)."""
        if self.status != "finished" or self.match is None or not self.match.is_over:
            return None
        return match_result(
            table_id=self.id,
            guild_id=self.guild_id,
            preset=self.preset,
            finished_at=self.updated_at,
            match=self.match,
            seats=self.players,
            tallies=self.tallies,
            tournament=self.tournament,
            options=self.options,
        )
