"""What a person can do, declared once: every click and every command that makes a move names
its handler here.

A :class:`Move` is one thing a person does — sit down, start, play a card, catch someone, look
at their hand, page through the rules editor. Its entry says how it is reached (the component
verbs of ``_verbs.py``, the ``/uno`` commands), what the person chose (``read``: the
decoded click, a select's value, a command's options), and what happens:

* a **change** of the table (``apply``, a :class:`~tables.Table` method): the cog's one
  ``perform`` loads the table, applies the change under its lock with a compare-and-swap
  save, and answers the mover (``answer``: their hand, or the sentence ``ok.<name>``) — the
  table message follows by itself, the service announces the change;
* or a **showing** (``show``): the hand in some state, the rules editor, the table's
  picture — nothing is changed, or the change is not the table's (a rematch opens a new one).

A click that is one step of a choice — a wild picked from the menu (its colour next), Swap
Hands' colour (its opponent next), the card a Skip gives (its opponent next) — reads as a
:class:`~cogs.uno._messages.HandState`: the hand is shown in that state, and the last step
makes the move.

:func:`for_verb` and :func:`for_command` resolve a click or a command to its entry;
``tests/cogs/test_moves.py`` proves every verb and every command of ours resolves.

Adding a button: its :class:`~cogs.uno._verbs.Verb` (id, label, place), its entry here, its
words in the catalogues.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from engine import Action, CardFace
from engine.actions import CALL_UNO, CHALLENGE, DRAW, PASS, ChooseColour
from players import LEVELS
from tables import Change, Player, StaleClickError, Table, TableError

from ._house import changes_for, page_of
from ._messages import HandState
from ._present import team_name
from ._typed import named_colour, typed_play
from ._verbs import CustomId, actions_of, with_uno


@dataclass(frozen=True, slots=True)
class Act:
    """One person's request: the interaction, and what they clicked or typed."""

    interaction: discord.Interaction[Any]
    cid: CustomId | None = None  # the clicked component's id (None: a command)
    values: tuple[str, ...] = ()  # a select's chosen values
    options: Mapping[str, Any] = field(default_factory=dict)  # a command's options

    @property
    def user(self) -> int:
        return self.interaction.user.id


@dataclass(frozen=True, slots=True)
class Mover:
    """Who makes a move, and what they chose (a card, a level, a player to kick)."""

    user: int
    admin: bool  # Manage Server here: may end or kick at any table
    player: Player  # as they would sit (with their tournament team's role)
    actions: tuple[Action, ...] = ()  # an engine move: the actions, decoded
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Intent:
    """What a person chose, read from their click or command: engine actions and other
    choices (a team, a level, a seat to catch), and the table version they saw."""

    actions: tuple[Action, ...] = ()
    args: Mapping[str, Any] = field(default_factory=dict)
    version: int | None = None  # the version the clicked message showed (None: any)


class Answer(enum.Enum):
    """How the mover is answered (after a change, or by what a move shows). A hand is
    answered by one callback when it is ready in time (``TableDesk.run``)."""

    SENTENCE = "sentence"  # ``ok.<name>`` with the move's words
    HAND = "hand"  # their hand, with what they got and what happened


class Desk(Protocol):
    """What a move's handler may use: the cog that runs it."""

    async def perform(self, act: Act, move: Move, table: Table, intent: Intent) -> None: ...

    async def show_hand(
        self, act: Act, table: Table, *, notes: Sequence[str] = (), ui: HandState | None = None
    ) -> None: ...

    async def show_editor(self, act: Act, table: Table, page: str) -> None: ...

    async def change_rules(
        self, act: Act, table: Table, changes: dict[str, Any], page: str
    ) -> None: ...

    async def rematch(self, act: Act, table: Table) -> None: ...

    async def show_picture(self, act: Act, table: Table) -> None: ...


Read = Callable[[Act, Table], "Intent | HandState"]
Apply = Callable[[Table, Mover, float], Change[Table]]
Show = Callable[[Desk, Act, Table], Awaitable[None]]
Words = Callable[[Change[Table], Mover], Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class Move:
    """One thing a person can do (see the module docstring)."""

    name: str
    apply: Apply | None = None  # the change of the table
    show: Show | None = None  # or what is shown instead
    read: Read = lambda act, table: Intent()
    answer: Answer = Answer.SENTENCE
    #: The component verbs that reach it, and its commands: qualified name → the English
    #: description of a command built from this entry (it takes no option), or "" for one
    #: its cog writes out (it reads options).
    verbs: tuple[str, ...] = ()
    commands: Mapping[str, str] = field(default_factory=dict)
    #: The sentence's parameters (``ok.<name>``), and notes shown above the mover's hand.
    words: Words = lambda change, mover: {}
    notes: tuple[str, ...] = ()


# -- reading what was chosen ------------------------------------------------------------------


def _clicked(act: Act, table: Table) -> Intent | HandState:
    """An engine action from a hand's component, on the version the message showed (the
    verb's codec decodes it); a step of a choice shows the hand in its next state."""
    cid = act.cid
    assert cid is not None
    if cid.version != table.version:
        raise StaleClickError(table)
    step = _step(cid, act.values)
    if step is not None:
        return step
    try:
        actions = actions_of(cid, act.values)
    except ValueError:  # a select value the message never offered
        raise StaleClickError(table) from None
    if not actions:
        raise StaleClickError(table)
    return Intent(actions, version=cid.version)


def _step(cid: CustomId, values: Sequence[str]) -> HandState | None:
    """The next state of the hand when a click is one step of a choice, else ``None``."""
    try:
        if cid.verb == "pick" and values:  # a wild from the menu: its colour next
            notation, uno = with_uno(values[0])
            face = CardFace.parse(notation)
            return HandState(wild=face.notation, uno=uno) if face.is_wild else None
        if cid.verb == "colour":  # Swap Hands' colour: its opponent next
            wild, _, colour = with_uno(cid.arg or "")[0].partition("=")
            return HandState(swap_colour=colour) if wild == "WH" else None
        if cid.verb == "give" and values:  # the card a Skip gives: its opponent next
            return HandState(give=CardFace.parse(values[0]).notation)
    except ValueError:
        return None
    return None


def _catch_target(act: Act, table: Table) -> Intent | HandState:
    """Whom to catch: the clicked button's seat, or the command's player (default: whoever
    is open to a catch, R-UNO-2)."""
    if act.cid is not None:
        intent = _clicked(act, table)
        if isinstance(intent, HandState):
            return intent
        target = getattr(intent.actions[0], "target", None)
        return Intent(args={"target": target}, version=intent.version)
    return Intent(args={"target": _seat_of(table, act.options.get("player"))})


def _seat_of(table: Table, user: discord.abc.User | None) -> int | None:
    """The seat of another user named in a command (``None``: nobody named)."""
    if user is None:
        return None
    seat = table.seat_of(user.id)
    if seat is None:
        raise TableError("not_seated_other")
    return seat


def _team(act: Act, table: Table) -> Intent:
    if not act.values or not act.values[0].isdigit():
        raise TableError("no_such_team")
    return Intent(args={"team": int(act.values[0])})


def _level(act: Act, table: Table) -> Intent:
    level = str(act.options.get("level", "normal"))
    if level not in LEVELS:
        raise TableError("unknown_level")
    return Intent(args={"level": level})


def _kicked(act: Act, table: Table) -> Intent:
    player = act.options["player"]
    name = getattr(player, "display_name", None) or player.name
    return Intent(args={"player": player.id, "name": name})


def _fixed(action: Action) -> Read:
    """A command that stands for one action (``/uno draw``); a click decodes its own."""

    def read(act: Act, table: Table) -> Intent | HandState:
        return _clicked(act, table) if act.cid is not None else Intent((action,))

    return read


def _typed_play(act: Act, table: Table) -> Intent | HandState:
    """A card: clicked, or typed (``/uno play``: notation or name, any language, perhaps a
    colour, an UNO call, the opponent of Swap Hands)."""
    if act.cid is not None:
        return _clicked(act, table)
    given = act.options
    target = _seat_of(table, given.get("swap_with"))
    play = typed_play(table, str(given["card"]), given.get("colour"), target)
    return Intent((play, CALL_UNO) if given.get("uno") else (play,))


def _typed_colour(act: Act, table: Table) -> Intent | HandState:
    """The colour of a Wild turned up at the start (R-SETUP-5): clicked, or typed."""
    if act.cid is not None:
        return _clicked(act, table)
    return Intent((ChooseColour(named_colour(table, str(act.options["colour"]))),))


# -- changing the table -----------------------------------------------------------------------


def _act(table: Table, mover: Mover, now: float) -> Change[Table]:
    return table.act(mover.user, *mover.actions, now=now)


def _by_host(method: Callable[..., Change[Table]]) -> Apply:
    """A change only the host (or a server manager) may make: start, the next hand, the end."""
    return lambda table, mover, now: method(table, by=mover.user, is_admin=mover.admin, now=now)


def _seat(change: Change[Table], mover: Mover) -> Mapping[str, Any]:
    seat = change.table.seat_of(mover.user)
    return {"seat": (seat or 0) + 1}


def _computer(change: Change[Table], mover: Mover) -> Mapping[str, Any]:
    return {"name": change.table.players[-1].name}


def _team_words(change: Change[Table], mover: Mover) -> Mapping[str, Any]:
    return {"team": team_name(int(mover.args["team"]))}


def _kicked_words(change: Change[Table], mover: Mover) -> Mapping[str, Any]:
    return {"name": str(mover.args["name"])[:100]}


def _play_move(
    name: str,
    read: Read,
    *,
    verbs: Sequence[str] = (),
    command: str | None = None,
    description: str = "",
) -> Move:
    """A move of the hand: engine actions, answered with the mover's hand; its command is
    ``/uno <name>`` unless told otherwise (``""``: none)."""
    command = name if command is None else command
    return Move(
        name,
        apply=_act,
        read=read,
        answer=Answer.HAND,
        verbs=tuple(verbs) or (name,),
        commands={f"uno {command}": description} if command else {},
    )


# -- showing ----------------------------------------------------------------------------------


async def _hand(desk: Desk, act: Act, table: Table) -> None:
    await desk.show_hand(act, table)


async def _page(desk: Desk, act: Act, table: Table) -> None:
    cid = act.cid
    assert cid is not None
    await desk.show_hand(act, table, ui=HandState(page=int(cid.arg or 0)))


async def _editor(desk: Desk, act: Act, table: Table) -> None:
    """The lobby's **Rules** button, and the editor's page buttons (**Back to the preset**
    undoes every change)."""
    cid = act.cid
    page = (cid.arg if cid is not None else None) or "play"
    if page == "reset":
        await desk.change_rules(act, table, dict.fromkeys(table.options), "play")
    else:
        await desk.show_editor(act, table, page)


async def _rule(desk: Desk, act: Act, table: Table) -> None:
    """A choice in the rules editor: saved at once, then the editor again."""
    control = act.cid.arg if act.cid is not None else None
    try:
        changes = changes_for(control or "", act.values)
    except KeyError:  # a value the editor never offered
        raise TableError("bad_option", option=control or "?") from None
    await desk.change_rules(act, table, changes, page_of(control or ""))


async def _again(desk: Desk, act: Act, table: Table) -> None:
    await desk.rematch(act, table)


async def _picture(desk: Desk, act: Act, table: Table) -> None:
    await desk.show_picture(act, table)


MOVES: tuple[Move, ...] = (
    # -- the lobby --------------------------------------------------------------------------
    Move(
        "join",
        apply=lambda tb, m, now: tb.join(m.player, now=now),
        words=_seat,
        verbs=("join",),
        commands={"uno join": "Sit down at this channel's table"},
    ),
    Move(
        "leave",
        apply=lambda tb, m, now: tb.leave(m.user, now=now),
        verbs=("leave",),
        commands={"uno leave": "Leave this channel's table"},
    ),
    Move(
        "addbot",
        apply=lambda tb, m, now: tb.add_computer(
            str(m.args["level"]), by=m.user, is_admin=m.admin, now=now
        ),
        read=_level,
        words=_computer,
        verbs=("addbot",),
        commands={"uno addbot": ""},
    ),
    Move(
        "team",
        apply=lambda tb, m, now: tb.pick_team(m.user, int(m.args["team"]), now=now),
        read=_team,
        words=_team_words,
        verbs=("team",),
    ),
    Move(
        "start",
        apply=_by_host(Table.start),
        answer=Answer.HAND,
        notes=("ok.start",),
        verbs=("start",),
        commands={"uno start": "Deal the first hand (host only)"},
    ),
    Move("rules", show=_editor, verbs=("rules", "ruleset")),  # the host's rules editor
    Move("rule", show=_rule, verbs=("rule",)),
    # -- a hand -----------------------------------------------------------------------------
    Move(
        "hand",
        show=_hand,
        answer=Answer.HAND,
        verbs=("hand",),
        commands={"uno hand": "Show your hand (only you see it)"},
    ),
    Move("page", show=_page, verbs=("page",)),
    Move("picture", show=_picture, verbs=("picture",)),
    _play_move("play", _typed_play, verbs=("play", "pick", "colour", "swap")),
    _play_move("draw", _fixed(DRAW), description="Draw a card (or take the pending penalty)"),
    _play_move("pass", _fixed(PASS), description="Keep the card you just drew"),
    _play_move("uno", _fixed(CALL_UNO), description="Call UNO!"),
    _play_move(
        "challenge", _fixed(CHALLENGE), description="Challenge the Wild Draw Four played on you"
    ),
    _play_move("choose", _typed_colour, command="colour"),  # R-SETUP-5: a start Wild's colour
    # The alternative rules' choices (RULES.md §13): menus in the hand only.
    _play_move("exchange", _clicked, command=""),  # R-ALT-2, R-ALT-3
    _play_move("give", _clicked, verbs=("give", "giveto"), command=""),  # R-ALT-4
    _play_move("gift", _clicked, verbs=("gift", "nogift"), command=""),  # R-ALT-5
    Move(
        "catch",
        apply=lambda tb, m, now: tb.catch(m.user, m.args.get("target"), now=now),
        read=_catch_target,
        answer=Answer.HAND,
        verbs=("catch",),
        commands={"uno catch": ""},
    ),
    # -- between hands and after the match -------------------------------------------------
    Move(
        "next",
        apply=_by_host(Table.deal_next),
        answer=Answer.HAND,
        verbs=("next",),
    ),
    Move("again", show=_again, verbs=("again",)),
    # -- the host and the server's managers ------------------------------------------------
    Move(
        "end",
        apply=_by_host(Table.end),
        commands={
            "uno end": "Close this channel's table (host or managers)",
            "uno-admin end": "Close this channel's table, whoever hosts it",
        },
    ),
    Move(
        "kick",
        apply=lambda tb, m, now: tb.kick(
            int(m.args["player"]), by=m.user, is_admin=m.admin, now=now
        ),
        read=_kicked,
        words=_kicked_words,
        commands={"uno kick": "", "uno-admin kick": ""},
    ),
)

#: The move each command and each table verb resolves to.
_BY_VERB: dict[str, Move] = {verb: move for move in MOVES for verb in move.verbs}
_BY_COMMAND: dict[str, Move] = {name: move for move in MOVES for name in move.commands}
#: Components about no table: the person's own business (``/uno forget-me``'s buttons).
PERSONAL_VERBS = ("forget",)


def for_verb(verb: str) -> Move:
    """The move a component verb makes or shows (``KeyError``: none, a personal verb)."""
    return _BY_VERB[verb]


def for_command(qualified_name: str) -> Move:
    """The move a command makes (``KeyError``: the command is not a move)."""
    return _BY_COMMAND[qualified_name]


def built_commands(group: str) -> list[tuple[str, str, Move]]:
    """The commands of ``/<group>`` built from this registry (they take no option): each
    one's name, description and move."""
    return [
        (name.partition(" ")[2], description, move)
        for move in MOVES
        for name, description in move.commands.items()
        if description and name.partition(" ")[0] == group
    ]
