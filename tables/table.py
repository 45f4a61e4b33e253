"""A table: the lobby, who sits where, and the engine's match — pure, no Discord here.

Every change returns a new ``Table`` whose ``version`` is one higher; the service saves it
with a compare-and-swap on that version before anyone sees the result. Errors are
``TableError``s with a code that the presenter turns into a polite sentence.

Time comes in as ``now`` (epoch seconds); the table stores the one deadline at which the clock
must look at it again: the lobby's expiry, the turn's time limit (R-TIME-1), the pause
between hands, or the idle limit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import Action, AfterTimeouts, CatchUno, IllegalActionError, Rules, RulesError
from engine.auto import auto_action
from engine.events import Event
from engine.match import Match
from engine.serialize import match_from_dict, match_to_dict
from storage import ActionRow, MatchResult, TableRecord

from .records import (
    RECENT_EVENTS,
    ClockPaused,
    LobbyExpired,
    NoHumansLeft,
    Reclaimed,
    Replaced,
    TableIdle,
    TimedOut,
    calls_standing,
    records_from_data,
    records_to_data,
    remember,
)
from .results import match_result, tally
from .seats import MAX_PLAYERS, Player, computer_player, seat_teams

__all__ = [
    "IDLE_SECONDS",
    "LOBBY_SECONDS",
    "MAX_PLAYERS",
    "NEXT_HAND_SECONDS",
    "RECENT_EVENTS",
    "TIMEOUTS_IN_A_ROW",
    "Change",
    "Player",
    "Table",
    "TableError",
]

LOBBY_SECONDS = 15 * 60  # a lobby never started closes after this
NEXT_HAND_SECONDS = 15  # the pause between hands to read the scoring (the host may skip it)
IDLE_SECONDS = 60 * 60  # a game no person plays closes this long after their last move
TIMEOUTS_IN_A_ROW = 3  # then R-TIME-3 (a computer holds the seat) or R-TIME-2 (removal)


class TableError(Exception):
    """A refused table operation; ``code`` names the sentence to show."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def refused(error: RulesError) -> TableError:
    """Contradictory or unknown options, with the engine's reason (``rule``: its code)."""
    return TableError("bad_rules", rule=error.code, detail=str(error), **error.params)


@dataclass(frozen=True, slots=True)
class Change:
    """The result of a table operation: the new table, engine events, and log lines."""

    table: Table
    events: tuple[Event, ...] = ()
    log: tuple[ActionRow, ...] = ()


@dataclass(frozen=True, slots=True)
class Table:
    """One table in one channel: a lobby, then a match, then finished or closed."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    preset: str
    options: Mapping[str, Any]
    players: tuple[Player, ...]
    seed: int
    status: str = "lobby"  # lobby | playing | finished | closed
    match: Match | None = None
    version: int = 0
    message_id: int | None = None
    recent: tuple[Event, ...] = ()  # the last public events, for the table message
    deadline: float | None = None  # when the clock must look again (see _next_deadline)
    timeouts: tuple[int, ...] = ()  # consecutive timeouts per seat
    tallies: tuple[Mapping[str, int], ...] = ()  # per seat: calls, catches, … (see results)
    tournament: str | None = None  # the tournament this table reports to
    language: str = "en"  # of the public table message: the server's, not each player's
    created_at: float = 0.0
    updated_at: float = 0.0
    active_at: float = 0.0  # the last move of a person (not of the clock or a computer)
    invited: tuple[int, ...] = ()  # a rematch's players who have not joined yet
    uno_window_at: float | None = None  # when the open UNO window opened (R-UNO-2)
    #: Seats that called UNO and still hold the one card they called it for (R-UNO-1): the
    #: table shows their UNO! as long as it holds, not only until the next player moves.
    called_uno: tuple[int, ...] = ()
    started_at: float | None = None  # when the match began (R-ALT-1: its time limit runs)
    rules: Rules = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", Rules.from_preset(self.preset, **self.options))

    # -- creation -------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        *,
        table_id: str,
        guild_id: int,
        channel_id: int,
        host: Player,
        preset: str,
        options: Mapping[str, Any],
        seed: int,
        now: float,
        language: str = "en",
        tournament: str | None = None,
    ) -> Table:
        """A new lobby with the host seated; raises ``TableError('bad_rules')``."""
        try:
            Rules.from_preset(preset, **options)
        except RulesError as exc:
            raise refused(exc) from None
        table = cls(
            id=table_id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host.user_id,
            preset=preset,
            options=dict(options),
            players=(host,),
            seed=seed,
            language=language,
            tournament=tournament,
            created_at=now,
            updated_at=now,
            active_at=now,
        )
        return replace(table, deadline=table._next_deadline(table, now))

    def rematch(self, *, table_id: str, host: Player, seed: int, now: float) -> Table:
        """A new lobby for a finished match: the same rules and options, the computer players
        seated again, the other people invited (each still confirms by joining)."""
        if self.status != "finished":
            raise TableError("match_not_over")
        if self.seat_of(host.user_id) is None:
            raise TableError("not_seated")
        lobby = Table.open(
            table_id=table_id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host=replace(host, team=self.players[self.seat_of(host.user_id) or 0].team),
            preset=self.preset,
            options=self.options,
            seed=seed,
            now=now,
            language=self.language,
            tournament=self.tournament,
        )
        computers = tuple(p for p in self.players if p.is_computer)
        invited = tuple(
            p.user_id for p in self.players if not p.is_computer and p.user_id != host.user_id
        )
        return replace(lobby, players=(*lobby.players, *computers), invited=invited)

    # -- reading --------------------------------------------------------------------------

    @property
    def is_live(self) -> bool:
        """A lobby or a game in progress."""
        return self.status in ("lobby", "playing")

    @property
    def capacity(self) -> int:
        """How many players may sit (R-SETUP-1: ten; R-ALT-8: up to twenty, two decks)."""
        return self.rules.players or self.rules.max_players

    def seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id``, or ``None``."""
        for seat, player in enumerate(self.players):
            if player.user_id == user_id:
                return seat
        return None

    def playing_seat_of(self, user_id: int) -> int | None:
        """The seat of ``user_id`` if they still play: ``None`` once they left the match."""
        seat = self.seat_of(user_id)
        if seat is not None and self.match is not None and seat in self.match.left:
            return None
        return seat

    def _gone(self) -> set[int]:
        return set(self.match.left) if self.match is not None else set()

    def automatic_seats(self) -> list[int]:
        """Seats the computer plays now, still in the match."""
        gone = self._gone()
        return [
            seat
            for seat, player in enumerate(self.players)
            if player.is_automatic and seat not in gone
        ]

    def present_seats(self) -> list[int]:
        """Seats whose person plays them now (not a computer, not held, not gone)."""
        gone = self._gone()
        return [
            seat
            for seat, player in enumerate(self.players)
            if not player.is_automatic and seat not in gone
        ]

    @property
    def humans_remaining(self) -> int:
        """People still in the match who could play their seat: present, or away while a
        computer holds it (R-TIME-3). None left closes the table."""
        gone = self._gone()
        return sum(
            1
            for seat, player in enumerate(self.players)
            if not player.is_computer and seat not in gone
        )

    def names(self) -> list[str]:
        """Display names by seat."""
        return [p.name for p in self.players]

    def _next_host(self, leaving: int, players: Sequence[Player]) -> int:
        """The host after ``leaving`` goes: unchanged, or the first person who still plays."""
        if leaving != self.host_id:
            return self.host_id
        gone = self._gone()
        for seat, player in enumerate(players):
            if player.user_id != leaving and seat not in gone and not player.is_computer:
                return player.user_id
        return self.host_id

    def _changed(self, now: float, *, by_person: bool = False, **changes: Any) -> Table:
        active_at = now if by_person else self.active_at
        table = replace(
            self, version=self.version + 1, updated_at=now, active_at=active_at, **changes
        )
        window = table._uno_window()
        opened_at = self.uno_window_at if window == self._uno_window() else now
        return replace(
            table,
            deadline=table._next_deadline(self, now),
            uno_window_at=opened_at if window is not None else None,
        )

    def _uno_window(self) -> tuple[int, int, int] | None:
        """The open UNO window (R-UNO-2): who may be caught, in which hand, after which card;
        ``None`` when nobody may be caught."""
        if self.match is None or self.status != "playing":
            return None
        hand = self.match.hand
        if hand.is_over or hand.uno_seat is None or hand.uno_called:
            return None
        return (self.match.hand_number, hand.uno_seat, len(hand.discard))

    def _next_deadline(self, before: Table, now: float) -> float | None:
        """When this table next needs the clock: its own deadline (below), or the end of a
        timed match (R-ALT-1), whichever comes first."""
        own = self._own_deadline(before, now)
        ends = self.match_ends_at
        if ends is None:
            return own
        return ends if own is None else min(own, ends)

    def _own_deadline(self, before: Table, now: float) -> float | None:
        """When this table next needs the clock.

        A lobby expires; between hands the scoring stays up for a pause, then the next hand
        is dealt — unless nobody is present to play it; a person's turn has its time limit
        (R-TIME-1) when the rules set one. Otherwise the table waits for its people: it
        closes when none of them has moved for the idle limit, however much the computers
        play meanwhile.
        """
        if self.status == "lobby":
            return self.created_at + LOBBY_SECONDS
        if self.status != "playing" or self.match is None:
            return None
        idle = self.active_at + IDLE_SECONDS
        hand = self.match.hand
        if hand.is_over:
            if not self.present_seats():
                return idle
            same_pause = (
                before.match is not None
                and before.match.hand.is_over
                and len(before.match.history) == len(self.match.history)
                and before.deadline is not None
                and bool(before.present_seats())
            )
            return before.deadline if same_pause else now + NEXT_HAND_SECONDS
        seconds = self.rules.turn_seconds
        if not seconds or self.players[hand.current].is_automatic:
            return idle
        # R-TIME-1: the clock runs per turn: a new hand, a new turn owner, or a card played
        # (a skipped opponent in a two-player game gives the same seat a new turn).
        turn = (self.match.hand_number, hand.current, len(hand.discard))
        if before.status == "playing" and before.match is not None and before.deadline:
            old = before.match.hand
            same_owner = not before.players[old.current].is_automatic
            if same_owner and (before.match.hand_number, old.current, len(old.discard)) == turn:
                return before.deadline
        return now + seconds

    def _with_player(self, seat: int, player: Player) -> Table:
        players = list(self.players)
        players[seat] = player
        return replace(self, players=tuple(players))

    def _with_timeouts(self, seat: int, count: int) -> Table:
        timeouts = list(self.timeouts) + [0] * (len(self.players) - len(self.timeouts))
        timeouts[seat] = count
        return replace(self, timeouts=tuple(timeouts))

    def _note(self, event: Event) -> Table:
        """Add a table-level event (not the engine's) to the recent moves."""
        return replace(self, recent=remember(self.recent, (event,)))

    def _require_lobby(self) -> None:
        if self.status == "playing":
            raise TableError("game_running")
        if self.status != "lobby":
            raise TableError("table_closed")

    def _require_playing(self) -> Match:
        if self.status != "playing" or self.match is None:
            raise TableError("game_not_running" if self.status == "lobby" else "table_closed")
        return self.match

    # -- the lobby ------------------------------------------------------------------------

    def join(self, player: Player, *, now: float) -> Change:
        """Take the next free seat."""
        self._require_lobby()
        if self.seat_of(player.user_id) is not None:
            raise TableError("already_seated")
        if len(self.players) >= self.capacity:
            raise TableError("table_full", seats=self.capacity)
        invited = tuple(i for i in self.invited if i != player.user_id)
        table = self._changed(now, by_person=True, players=(*self.players, player), invited=invited)
        return Change(table, log=(ActionRow(None, f"join:{player.user_id}"),))

    def add_computer(self, level: str, *, by: int, is_admin: bool, now: float) -> Change:
        """The host seats a computer player of ``level`` (see ``players.LEVELS``)."""
        self._require_lobby()
        if by != self.host_id and not is_admin:
            raise TableError("not_host")
        if len(self.players) >= self.capacity:
            raise TableError("table_full", seats=self.capacity)
        player = computer_player(level, (p.user_id for p in self.players))
        table = self._changed(now, by_person=True, players=(*self.players, player))
        return Change(table, log=(ActionRow(None, f"computer:{level}"),))

    def set_options(
        self, changes: Mapping[str, Any], *, by: int, is_admin: bool, now: float
    ) -> Change:
        """The host changes single options of the preset (RULES.md §12): ``None`` puts an
        option back to the preset's. Contradictions are refused with the engine's reason."""
        self._require_lobby()
        if by != self.host_id and not is_admin:
            raise TableError("not_host")
        options = dict(self.options)
        for name, value in changes.items():
            options[name] = value
            if value is None:
                options.pop(name)
        try:
            rules = Rules.from_preset(self.preset, **options)
        except RulesError as exc:
            raise refused(exc) from None
        preset = Rules.from_preset(self.preset)
        # Only what differs from the preset is an override (the lobby lists them).
        options = {k: v for k, v in options.items() if getattr(rules, k) != getattr(preset, k)}
        needed = rules.players
        if needed is not None and len(self.players) > needed:
            raise TableError("wrong_player_count", needed=needed)
        if options == dict(self.options):
            return Change(self)
        table = self._changed(now, by_person=True, options=options)
        return Change(table, log=(ActionRow(None, f"options:{sorted(changes)}"),))

    def pick_team(self, user_id: int, team: int, *, now: float) -> Change:
        """A player picks their team in the lobby (R-TEAM-2); seating follows at the start."""
        self._require_lobby()
        seat = self.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        if not 0 <= team < self.rules.teams:
            raise TableError("no_such_team")
        if self.players[seat].team == team:
            return Change(self)
        table = self._changed(now, by_person=True)._with_player(
            seat, replace(self.players[seat], team=team)
        )
        return Change(table, log=(ActionRow(None, f"team:{user_id}:{team}"),))

    def rename(self, user_id: int, name: str, *, now: float) -> Change:
        """``user_id`` is called ``name`` here from now on (``/uno forget-me``)."""
        seat = self.seat_of(user_id)
        if seat is None or self.players[seat].name == name:
            return Change(self)
        table = self._changed(now)._with_player(seat, replace(self.players[seat], name=name))
        return Change(table, log=(ActionRow(None, f"rename:{user_id}"),))

    def leave(self, user_id: int, *, now: float) -> Change:
        """Leave the lobby, or a running match (which the leaver then loses, R-TIME-2)."""
        seat = self.playing_seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        if self.status == "playing":
            return self._retire(seat, user_id, now, verb="leave", by_person=True)
        self._require_lobby()
        return self._unseat(user_id, now, verb="leave")

    def kick(self, user_id: int, *, by: int, is_admin: bool, now: float) -> Change:
        """The host (or a server manager) removes a player."""
        if by != self.host_id and not is_admin:
            raise TableError("not_host")
        if user_id == by and not is_admin:
            raise TableError("cannot_kick_self")
        seat = self.playing_seat_of(user_id)
        if seat is None:
            raise TableError("not_seated_other")
        if self.status == "playing":
            return self._retire(seat, user_id, now, verb="kick", by_person=True)
        self._require_lobby()
        return self._unseat(user_id, now, verb="kick")

    def _unseat(self, user_id: int, now: float, *, verb: str) -> Change:
        """Take ``user_id`` out of the lobby; the last one out closes it."""
        players = tuple(p for p in self.players if p.user_id != user_id)
        if not players:
            table = self._changed(now, by_person=True, players=players, status="closed")
        else:
            host = self._next_host(user_id, players)
            table = self._changed(now, by_person=True, players=players, host_id=host)
        return Change(table, log=(ActionRow(None, f"{verb}:{user_id}"),))

    def start(self, *, by: int, is_admin: bool, now: float) -> Change:
        """Deal the first hand of the match."""
        self._require_lobby()
        if by != self.host_id and not is_admin:
            raise TableError("not_host")
        needed = self.rules.players
        if needed is not None and len(self.players) != needed:
            raise TableError("wrong_player_count", needed=needed)
        if len(self.players) < 2:
            raise TableError("too_few_players")
        if all(p.is_computer for p in self.players):
            raise TableError("too_few_players")
        players = self.players
        teams = self.rules.teams
        if teams:
            if len(players) % teams:
                raise TableError("teams_uneven", players=len(players), teams=teams)
            seated = seat_teams(players, teams)
            if seated is None:
                raise TableError("teams_unbalanced", share=len(players) // teams)
            players = seated
        else:
            players = tuple(replace(p, team=None) for p in players)
        step = Match.new(self.rules, len(players), seed=self.seed)
        table = self._changed(
            now,
            by_person=True,
            status="playing",
            players=players,
            match=step.match,
            timeouts=(0,) * len(players),
            invited=(),
            started_at=now,
        )
        table = table._remember(step.events)
        # R-ALT-1: the match's end is a deadline too (_changed set it before started_at).
        table = replace(table, deadline=table._next_deadline(self, now))
        return Change(table, step.events, (ActionRow(None, "start"),))

    @property
    def match_ends_at(self) -> float | None:
        """When a timed match ends (R-ALT-1), if it is one and has begun."""
        minutes = self.rules.time_limit
        if not minutes or self.started_at is None or self.status != "playing":
            return None
        return self.started_at + minutes * 60

    def _time_up(self, now: float) -> Change:
        """R-ALT-1: the match time ran out: the hand in progress ends at once (won by the
        fewest cards, or points) and the match ends with its standings."""
        match = self._require_playing()
        step = match.time_up()
        table = self._changed(now, match=step.match, status="finished")
        table = table._remember(step.events)
        return Change(table, step.events, (ActionRow(None, "time_up"),))

    def end(self, *, by: int, is_admin: bool, now: float) -> Change:
        """Close the table (host or server manager)."""
        if not self.is_live:
            raise TableError("table_closed")
        if by != self.host_id and not is_admin:
            raise TableError("not_host")
        table = self._changed(now, by_person=True, status="closed")
        return Change(table, log=(ActionRow(None, "end"),))

    # -- the game -------------------------------------------------------------------------

    def act(self, user_id: int, *actions: Action, now: float) -> Change:
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

    def act_for(self, seat: int, actions: Sequence[Action], *, now: float) -> Change:
        """A computer's ``actions`` for ``seat`` (a computer player or a held seat)."""
        self._require_playing()
        if not 0 <= seat < len(self.players) or not self.players[seat].is_automatic:
            raise TableError("not_seated")
        return self._apply(seat, actions, now)

    def catch(self, user_id: int, target: int | None, *, now: float) -> Change:
        """``user_id`` catches ``target`` (R-UNO-2); by default whoever is open to a catch."""
        match = self._require_playing()
        if target is None:
            target = match.hand.uno_seat
            if target is None:
                raise TableError("illegal", reason="nothing_to_catch", detail="")
        return self.act(user_id, CatchUno(target), now=now)

    def reclaim(self, user_id: int, *, now: float) -> Change:
        """A person came back to the table (any interaction counts): a seat a computer held
        for them is theirs again (R-TIME-3). No change when nothing was held."""
        seat = self.playing_seat_of(user_id)
        if self.status != "playing" or seat is None or not self.players[seat].is_held:
            return Change(self)
        table = self._reclaimed(seat)._with_timeouts(seat, 0)
        table = table._changed(now, by_person=True)
        return Change(table, log=(ActionRow(None, f"back:{user_id}"),))

    def _reclaimed(self, seat: int) -> Table:
        player = self.players[seat]
        if not player.is_held:
            return self
        return self._with_player(seat, replace(player, level=None))._note(Reclaimed(seat))

    def _apply(
        self, seat: int, actions: Sequence[Action], now: float, *, by_person: bool = False
    ) -> Change:
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

    def deal_next(self, *, by: int, is_admin: bool, now: float) -> Change:
        """The host deals the next hand without waiting for the pause to end."""
        match = self._require_playing()
        if by != self.host_id and not is_admin:
            raise TableError("not_host")
        if not match.hand.is_over:
            raise TableError("illegal", reason="hand_not_over", detail="")
        return self._deal_next(now, by_person=True)

    def _deal_next(self, now: float, *, by_person: bool = False) -> Change:
        match = self._require_playing()
        following = match.next_hand()
        table = self._changed(now, by_person=by_person, match=following.match)
        table = table._remember(following.events)
        return Change(table, following.events, (ActionRow(None, "next"),))

    # -- the clock ------------------------------------------------------------------------

    def is_due(self, now: float) -> bool:
        """Has the deadline passed?"""
        return self.is_live and self.deadline is not None and now >= self.deadline

    def turn_owner(self) -> int | None:
        """The seat of the person whose turn clock runs (R-TIME-1), if one does."""
        if self.status != "playing" or self.match is None or not self.rules.turn_seconds:
            return None
        hand = self.match.hand
        if hand.is_over or self.players[hand.current].is_automatic or self.deadline is None:
            return None
        return hand.current

    def give_back(self, seconds: float, *, now: float) -> Change:
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

    def time_out(self, now: float) -> Change:
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
        table: Table = self
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

    def _close_if_nobody_can_return(self) -> Table:
        """Computers do not play on alone: when no person is left in the match — neither
        playing nor away with a computer holding their seat — the table closes."""
        if self.status == "playing" and self.humans_remaining == 0:
            return replace(self, status="closed", deadline=None)._note(NoHumansLeft())
        return self

    def _expire(self, now: float, reason: Event) -> Change:
        table = self._changed(now, status="closed")._note(reason)
        return Change(table, log=(ActionRow(None, f"close:{type(reason).__name__}"),))

    def _retire(
        self, seat: int, user_id: int, now: float, *, verb: str, by_person: bool = False
    ) -> Change:
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

    def _remember(self, events: Sequence[Event]) -> Table:
        """Keep the public events for the table message, count the events per seat, and
        follow who called UNO."""
        return replace(
            self,
            tallies=tally(self.tallies, len(self.players), events),
            recent=remember(self.recent, events),
            called_uno=calls_standing(self.called_uno, events),
        )

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

    # -- storage --------------------------------------------------------------------------

    def to_record(self) -> TableRecord:
        """The row to store."""
        state = {
            "host_id": self.host_id,
            "preset": self.preset,
            "options": dict(self.options),
            "players": [
                {
                    "user_id": p.user_id,
                    "name": p.name,
                    "level": p.level,
                    "team_role": p.team_role,
                    "team": p.team,
                }
                for p in self.players
            ],
            "invited": list(self.invited),
            "uno_window_at": self.uno_window_at,
            "tournament": self.tournament,
            "deadline": self.deadline,
            "timeouts": list(self.timeouts),
            "tallies": [dict(t) for t in self.tallies],
            "seed": self.seed,
            "match": match_to_dict(self.match) if self.match is not None else None,
            "recent": records_to_data(self.recent),
            "called_uno": list(self.called_uno),
            "started_at": self.started_at,
            "language": self.language,
            "active_at": self.active_at,
        }
        return TableRecord(
            id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            status=self.status,
            version=self.version,
            state=state,
            seats=tuple(p.user_id for p in self.players),
            message_id=self.message_id,
            created_at=self.created_at,
            updated_at=self.updated_at,
        )

    @classmethod
    def from_record(cls, record: TableRecord) -> Table:
        """Rebuild a table from its stored row."""
        state = record.state
        match = state.get("match")
        return cls(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=int(state["host_id"]),
            preset=str(state["preset"]),
            options=dict(state.get("options", {})),
            players=tuple(
                Player(
                    int(p["user_id"]),
                    str(p["name"]),
                    p.get("level"),
                    p.get("team_role"),
                    p.get("team"),
                )
                for p in state["players"]
            ),
            invited=tuple(int(i) for i in state.get("invited", ())),
            uno_window_at=state.get("uno_window_at"),
            tournament=state.get("tournament"),
            deadline=state.get("deadline"),
            timeouts=tuple(int(n) for n in state.get("timeouts", ())),
            tallies=tuple(dict(t) for t in state.get("tallies", ())),
            seed=int(state["seed"]),
            status=record.status,
            match=match_from_dict(match) if match is not None else None,
            version=record.version,
            message_id=record.message_id,
            recent=records_from_data(state.get("recent", ())),
            called_uno=tuple(state.get("called_uno", ())),
            started_at=state.get("started_at"),
            language=str(state.get("language", "en")),
            created_at=record.created_at,
            updated_at=record.updated_at,
            # Tables stored before people's moves were told apart: their last change.
            active_at=float(state.get("active_at", record.updated_at)),
        )
