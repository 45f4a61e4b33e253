"""Every move a person makes at a table, declared once: one intent, one move.

A :class:`Move` is one thing a person can do that changes a table — sit down, start, play a
card, catch someone, kick a player. Its name is the name of its button (the component verb,
``_verbs.py``), of its ``/uno`` command (``_slash.py``) and of its answer's words
(``ok.<name>`` in the catalogues); it says which ``Table`` method makes the change and how the
mover is answered. :meth:`cogs.uno._play.Uno.perform` does the glue for every move: load the
table (and bring a held seat back), apply the change under the table's lock with a
compare-and-swap save, answer the mover (their hand, or one sentence) — the table message
follows by itself, the service announces the change. A move reached by more than one
component (a card is played from its button, the card menu, a wild's colour button or Swap
Hands' opponent menu) or by a command of another name lists them (``verbs``, ``commands``).

``tests/cogs/test_moves.py`` ties every component verb and every ``/uno`` command to a move,
or to the short list of what is not a move at a table (:data:`NOT_MOVES`).

Adding a move: one :class:`Move` here (the ``Table`` method it calls), its component in
``_verbs.py`` if it has one, its command in ``_slash.py`` if it has one, its words in both
catalogues.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import Action
from tables import Change, Player, Table

from ._present import team_name


@dataclass(frozen=True, slots=True)
class Mover:
    """Who makes a move, and what they chose (a card, a level, a player to kick)."""

    user: int
    admin: bool  # Manage Server here: may end or kick at any table
    player: Player  # as they would sit (with their tournament team's role)
    actions: tuple[Action, ...] = ()  # an engine move: the actions, decoded
    args: Mapping[str, Any] = field(default_factory=dict)


Apply = Callable[[Table, Mover, float], Change]
Words = Callable[[Change, Mover], Mapping[str, Any]]


def _nothing(change: Change, mover: Mover) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True, slots=True)
class Move:
    """One move (see the module docstring)."""

    name: str
    apply: Apply
    #: The answer: the mover's hand (a move in a running hand), or the sentence ``ok.<name>``.
    shows_hand: bool = False
    #: The component verbs and ``/uno`` commands that make it (default: its own name).
    verbs: tuple[str, ...] | None = None
    commands: tuple[str, ...] | None = None
    #: The sentence's parameters.
    words: Words = _nothing

    @property
    def components(self) -> tuple[str, ...]:
        return (self.name,) if self.verbs is None else self.verbs

    @property
    def slash(self) -> tuple[str, ...]:
        return (self.name,) if self.commands is None else self.commands


def _act(table: Table, mover: Mover, now: float) -> Change:
    return table.act(mover.user, *mover.actions, now=now)


def _seat(change: Change, mover: Mover) -> Mapping[str, Any]:
    seat = change.table.seat_of(mover.user)
    return {"seat": (seat or 0) + 1}


def _computer(change: Change, mover: Mover) -> Mapping[str, Any]:
    return {"name": change.table.players[-1].name}


def _team(change: Change, mover: Mover) -> Mapping[str, Any]:
    return {"team": team_name(int(mover.args["team"]))}


def _kicked(change: Change, mover: Mover) -> Mapping[str, Any]:
    return {"name": str(mover.args["name"])[:100]}


MOVES: tuple[Move, ...] = (
    # -- the lobby --------------------------------------------------------------------------
    Move("join", lambda tb, m, now: tb.join(m.player, now=now), words=_seat),
    Move("leave", lambda tb, m, now: tb.leave(m.user, now=now)),
    Move(
        "addbot",
        lambda tb, m, now: tb.add_computer(
            str(m.args.get("level", "normal")), by=m.user, is_admin=m.admin, now=now
        ),
        words=_computer,
    ),
    Move(
        "team",
        lambda tb, m, now: tb.pick_team(m.user, int(m.args["team"]), now=now),
        commands=(),
        words=_team,
    ),
    Move(
        "start",
        lambda tb, m, now: tb.start(by=m.user, is_admin=m.admin, now=now),
        shows_hand=True,
    ),
    # -- a hand -----------------------------------------------------------------------------
    Move("play", _act, shows_hand=True, verbs=("play", "pick", "colour", "swap")),
    Move("draw", _act, shows_hand=True),
    Move("pass", _act, shows_hand=True),
    Move("uno", _act, shows_hand=True),
    Move("challenge", _act, shows_hand=True),
    Move("choose", _act, shows_hand=True, commands=("colour",)),  # R-SETUP-5: a start Wild
    # The alternative rules' choices (RULES.md §13): menus in the hand only.
    Move("exchange", _act, shows_hand=True, commands=()),  # R-ALT-2, R-ALT-3
    Move("give", _act, shows_hand=True, verbs=("give", "giveto"), commands=()),  # R-ALT-4
    Move("gift", _act, shows_hand=True, verbs=("gift", "nogift"), commands=()),  # R-ALT-5
    Move(
        "catch",
        lambda tb, m, now: tb.catch(m.user, m.args.get("target"), now=now),
        shows_hand=True,
    ),
    Move(
        "next",
        lambda tb, m, now: tb.deal_next(by=m.user, is_admin=m.admin, now=now),
        shows_hand=True,
        commands=(),
    ),
    # -- the host and the server's managers ------------------------------------------------
    Move("end", lambda tb, m, now: tb.end(by=m.user, is_admin=m.admin, now=now), verbs=()),
    Move(
        "kick",
        lambda tb, m, now: tb.kick(int(m.args["player"]), by=m.user, is_admin=m.admin, now=now),
        verbs=(),
        words=_kicked,
    ),
)

BY_VERB: dict[str, Move] = {verb: move for move in MOVES for verb in move.components}
BY_COMMAND: dict[str, Move] = {name: move for move in MOVES for name in move.slash}
BY_NAME: dict[str, Move] = {move.name: move for move in MOVES}

#: What is not a move at a table (each has its own handler): showing something (a hand, a
#: page of it, the rules editor, the picture), changing the rules in the editor, opening a
#: table (a rematch, /uno new), the boards, a person's own data. Components, then commands.
NOT_MOVES: tuple[str, ...] = (
    "hand",
    "page",
    "rules",
    "rule",
    "ruleset",
    "picture",
    "again",
    "forget",
)
NOT_MOVE_COMMANDS: tuple[str, ...] = (
    "new",
    "hand",
    "table",
    "rules",
    "leaderboard",
    "stats",
    "forget-me",
    "tournament standings",
)
