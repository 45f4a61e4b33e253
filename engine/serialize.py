"""Snapshots (``to_dict``/``from_dict``), events, and game records that replay (docs/records.md).

A snapshot is the whole state as JSON-ready data, schema-versioned, with every card written
``face#id`` so rows and fixtures stay readable. A record is the log: rules, seats, seed, an
optional stacked deal and the actions in notation; :func:`replay` rebuilds the exact state.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import events as events_module
from . import rng
from .actions import parse_action
from .cards import CardFace, Colour, Deck
from .errors import EngineError, IllegalActionError, InvalidActionError, SnapshotError
from .events import Event, Termination
from .game import deal, faces_to_cards, new_hand
from .hand import AltState, Phase
from .match import (
    DealerChosen,
    DealerDraw,
    HandRecord,
    HandScored,
    Match,
    MatchEnded,
    PlayerEliminated,
    PlayerRetired,
)
from .rules import Rules
from .state import GameState
from .validate import Problem, validate

SCHEMA = 1
#: A match record's action when the match time ran out (R-ALT-1).
TIME_UP = "time_up"


# -- snapshots -----------------------------------------------------------------------------


def _cards(deck: Deck, cards: Sequence[int], side: int) -> list[str]:
    return [deck.card_notation(c, side) for c in cards]


def _colour(value: Colour | None) -> str | None:
    return value.value if value is not None else None


def hand_to_dict(state: GameState) -> dict[str, Any]:
    """The snapshot of one hand. Piles are listed from the top."""
    deck, side = state.deck, state.side
    return {
        "schema": SCHEMA,
        "type": "hand",
        "rules": state.rules.to_dict(),
        "seats": state.seats,
        "seed": state.seed,
        "shuffles": state.shuffles,
        "dealer": state.dealer,
        "side": side,
        "draw_pile": _cards(deck, state.draw_pile[::-1], side),
        "discard": _cards(deck, state.discard[::-1], side),
        "hands": [_cards(deck, h, side) for h in state.hands],
        "playing": list(state.playing),
        "out": list(state.out),
        "current": state.current,
        "clockwise": state.clockwise,
        "colour": _colour(state.colour),
        "phase": state.phase.value,
        "pending": state.pending,
        "offender": state.offender,
        "prior_colour": _colour(state.prior_colour),
        "evidence": _cards(deck, state.evidence, side),
        "drawn": deck.card_notation(state.drawn, side) if state.drawn is not None else None,
        "uno_seat": state.uno_seat,
        "uno_called": state.uno_called,
        "dry_draws": state.dry_draws,
        "last_drawer": state.last_drawer,
        "termination": state.termination.value if state.termination else None,
        "ranking": list(state.ranking),
        "version": state.version,
        **({} if state.alt is None else {"alt": _alt_to_dict(state.alt)}),
    }


def _alt_to_dict(alt: AltState) -> dict[str, Any]:
    """The alternative rules' state (RULES.md §13); written only for hands under them, so
    classic snapshots read and write exactly as before."""
    return {
        "quiet": alt.quiet,
        "windows": list(alt.windows),
        "gift_checked": alt.gift_checked,
        "recipient": alt.recipient,
        "origin": alt.origin,
        "round": list(alt.round),
    }


def _alt_from_dict(data: Any) -> AltState | None:
    if data is None:
        return None
    return AltState(
        quiet=int(data["quiet"]),
        windows=tuple(int(s) for s in data["windows"]),
        gift_checked=bool(data["gift_checked"]),
        recipient=None if data["recipient"] is None else int(data["recipient"]),
        origin=None if data["origin"] is None else int(data["origin"]),
        round=tuple(int(s) for s in data["round"]),
    )


def _check_schema(data: Any, kind: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise SnapshotError(f"a {kind} snapshot is a JSON object")
    if data.get("schema") != SCHEMA:
        raise SnapshotError(f"unsupported snapshot schema {data.get('schema')!r}")
    if data.get("type") != kind:
        raise SnapshotError(f"not a {kind} snapshot: type {data.get('type')!r}")
    return data


def hand_from_dict(data: Any) -> GameState:
    """Inverse of :func:`hand_to_dict`; raises :class:`SnapshotError` on any inconsistency."""
    data = _check_schema(data, "hand")
    try:
        rules = Rules.from_dict(data["rules"])
        deck = rules.deck()
        side = int(data["side"])

        def cards(items: Sequence[str]) -> tuple[int, ...]:
            return tuple(deck.parse_card(text, side) for text in items)

        def colour(value: str | None) -> Colour | None:
            return Colour(value) if value is not None else None

        drawn = data["drawn"]
        state = GameState(
            rules=rules,
            seats=int(data["seats"]),
            seed=int(data["seed"]),
            shuffles=int(data["shuffles"]),
            dealer=int(data["dealer"]),
            draw_pile=cards(data["draw_pile"])[::-1],
            discard=cards(data["discard"])[::-1],
            hands=tuple(cards(h) for h in data["hands"]),
            playing=tuple(bool(p) for p in data["playing"]),
            out=tuple(int(s) for s in data["out"]),
            current=int(data["current"]),
            clockwise=bool(data["clockwise"]),
            colour=colour(data["colour"]),
            phase=Phase(data["phase"]),
            pending=int(data["pending"]),
            offender=data["offender"],
            prior_colour=colour(data["prior_colour"]),
            evidence=cards(data["evidence"]),
            drawn=deck.parse_card(drawn, side) if drawn is not None else None,
            uno_seat=data["uno_seat"],
            uno_called=bool(data["uno_called"]),
            dry_draws=int(data["dry_draws"]),
            last_drawer=data["last_drawer"],
            termination=Termination(data["termination"]) if data["termination"] else None,
            ranking=tuple(int(s) for s in data["ranking"]),
            version=int(data["version"]),
            side=side,
            alt=_alt_from_dict(data.get("alt")),
            deck=deck,
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, SnapshotError):
            raise
        raise SnapshotError(f"bad hand snapshot: {exc!r}") from None
    problems = validate(state)
    if problems is not Problem.NONE:
        raise SnapshotError(f"the snapshot breaks invariants: {problems!r}")
    return state


def match_to_dict(match: Match) -> dict[str, Any]:
    """The snapshot of a match, with its current hand."""
    return {
        "schema": SCHEMA,
        "type": "match",
        "rules": match.rules.to_dict(),
        "players": match.players,
        "seed": match.seed,
        "dealer": match.dealer,
        "scores": list(match.scores),
        "hands_won": list(match.hands_won),
        "eliminated": list(match.eliminated),
        "left": list(match.left),
        "history": [
            {
                "dealer": h.dealer,
                "winner": h.winner,
                "ranking": list(h.ranking),
                "gains": list(h.gains),
                "cards_left": list(h.cards_left),
                "last_drawer": h.last_drawer,
            }
            for h in match.history
        ],
        "ranking": list(match.ranking),
        "version": match.version,
        "hand": hand_to_dict(match.hand),
    }


def match_from_dict(data: Any) -> Match:
    """Inverse of :func:`match_to_dict`."""
    data = _check_schema(data, "match")
    try:
        hand = hand_from_dict(data["hand"])
        rules = Rules.from_dict(data["rules"])
        if hand.rules != rules:
            raise SnapshotError("the hand's rules differ from the match's")
        return Match(
            rules=rules,
            players=int(data["players"]),
            seed=int(data["seed"]),
            dealer=int(data["dealer"]),
            hand=hand,
            scores=tuple(int(x) for x in data["scores"]),
            hands_won=tuple(int(x) for x in data["hands_won"]),
            eliminated=tuple(int(x) for x in data["eliminated"]),
            left=tuple(int(x) for x in data.get("left", ())),
            history=tuple(
                HandRecord(
                    dealer=int(h["dealer"]),
                    winner=int(h["winner"]),
                    ranking=tuple(h["ranking"]),
                    gains=tuple(h["gains"]),
                    cards_left=tuple(h["cards_left"]),
                    last_drawer=h["last_drawer"],
                )
                for h in data["history"]
            ),
            ranking=tuple(int(x) for x in data["ranking"]),
            version=int(data["version"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, SnapshotError):
            raise
        raise SnapshotError(f"bad match snapshot: {exc!r}") from None


# -- records -------------------------------------------------------------------------------


class ReplayError(EngineError):
    """An action of a record could not be applied; ``index`` is its 0-based position."""

    def __init__(self, index: int, seat: int | None, action: str, error: EngineError) -> None:
        self.index = index
        self.seat = seat
        self.action = action
        self.error = error
        reason = error.reason.value if isinstance(error, IllegalActionError) else "invalid"
        self.reason = reason
        super().__init__(self.describe())

    def describe(self) -> str:
        """One line: which action, whose, and the reason code (with its detail)."""
        detail = getattr(self.error, "detail", "") or (
            "" if isinstance(self.error, IllegalActionError) else str(self.error)
        )
        text = f"action {self.index} (seat {self.seat}, {self.action!r}) is illegal: {self.reason}"
        return f"{text} ({detail})" if detail else text


@dataclass(frozen=True, slots=True)
class Deal:
    """A stacked deal for a record: exact hands, start card and top of the draw pile."""

    hands: tuple[tuple[str, ...], ...]
    start: str
    draw: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The log of a hand or a match (docs/records.md).

    ``actions`` are ``(seat, notation)`` pairs; in a match record ``(None, "next")`` deals the
    next hand, ``(None, "leave@N")`` removes seat N from the match (R-TIME-2) and
    ``(None, "time_up")`` ends it when its time runs out (R-ALT-1, :meth:`Match.time_up`). A hand
    record may stack the deal with ``deal`` (exact hands) or ``deck`` (the order of the deck
    from the top; cards not listed follow in seeded order).
    """

    rules: Rules
    players: int
    seed: int = 0
    dealer: int | None = None
    match: bool = False
    deal: Deal | None = None
    deck: tuple[str, ...] | None = None
    actions: tuple[tuple[int | None, str], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data."""
        data: dict[str, Any] = {
            "format": "uno-record",
            "schema": SCHEMA,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
        }
        if self.dealer is not None:
            data["dealer"] = self.dealer
        if self.match:
            data["match"] = True
        if self.deal is not None:
            data["deal"] = {
                "hands": [list(h) for h in self.deal.hands],
                "start": self.deal.start,
                "draw": list(self.deal.draw),
            }
        if self.deck is not None:
            data["deck"] = list(self.deck)
        data["actions"] = [[seat, text] for seat, text in self.actions]
        return data

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read a record; raises :class:`SnapshotError` when it is malformed."""
        if not isinstance(data, dict) or data.get("format") != "uno-record":
            raise SnapshotError('a record is a JSON object with "format": "uno-record"')
        if data.get("schema", SCHEMA) != SCHEMA:
            raise SnapshotError(f"unsupported record schema {data.get('schema')!r}")
        try:
            deal_data = data.get("deal")
            stacked = None
            if deal_data is not None:
                stacked = Deal(
                    hands=tuple(tuple(h) for h in deal_data["hands"]),
                    start=str(deal_data["start"]),
                    draw=tuple(deal_data.get("draw", ())),
                )
            players = int(data.get("players", len(stacked.hands) if stacked else 0))
            actions = []
            for item in data.get("actions", []):
                seat, text = item
                actions.append((None if seat is None else int(seat), str(text)))
            return cls(
                rules=Rules.from_dict(data.get("rules", {})),
                players=players,
                seed=int(data.get("seed", 0)),
                dealer=None if data.get("dealer") is None else int(data["dealer"]),
                match=bool(data.get("match", False)),
                deal=stacked,
                deck=tuple(data["deck"]) if data.get("deck") is not None else None,
                actions=tuple(actions),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, SnapshotError):
                raise
            raise SnapshotError(f"bad record: {exc!r}") from None

    def start(self) -> GameState | Match:
        """The state before the first action."""
        if self.match:
            if self.deal is not None or self.deck is not None:
                raise SnapshotError("a match record deals from the seed; stack single hands")
            return Match.new(self.rules, self.players, seed=self.seed, dealer=self.dealer).match
        dealer = self.dealer if self.dealer is not None else 0
        if self.deal is not None:
            if len(self.deal.hands) != self.players:
                raise SnapshotError("the deal lists a hand for every seat")
            return deal(
                self.rules,
                self.deal.hands,
                self.deal.start,
                self.deal.draw,
                dealer=dealer,
                seed=self.seed,
            ).state
        order = None
        if self.deck is not None:
            (top,) = faces_to_cards(self.rules, [self.deck])
            used = set(top)
            size = self.rules.deck().size
            rest = rng.shuffled(
                [c for c in range(size) if c not in used], seed=self.seed, counter=0
            )
            order = [*top, *rest]
        return new_hand(self.rules, self.players, dealer=dealer, seed=self.seed, order=order).state


def replay(record: GameRecord) -> GameState | Match:
    """Apply every action of ``record``; raise :class:`ReplayError` at the first illegal one."""
    try:
        state = record.start()
    except EngineError as exc:
        if isinstance(exc, SnapshotError):
            raise
        raise SnapshotError(f"cannot set up the record: {exc}") from None
    for index, (seat, text) in enumerate(record.actions):
        try:
            if isinstance(state, Match):
                if text == "next":
                    state = state.next_hand().match
                    continue
                if text.startswith("leave@") and seat is None:
                    state = state.remove_player(int(text.partition("@")[2])).match
                    continue
                if text == TIME_UP and seat is None:
                    state = state.time_up().match
                    continue
                if seat is None:
                    raise InvalidActionError("only 'next' has no seat")
                state = state.apply(seat, parse_action(text)).match
            else:
                if seat is None:
                    raise InvalidActionError("every action of a hand names its seat")
                state = state.apply(seat, parse_action(text)).state
        except EngineError as exc:
            raise ReplayError(index, seat, text, exc) from None
    return state


def to_dict(state: GameState | Match) -> dict[str, Any]:
    """Snapshot a hand or a match."""
    return match_to_dict(state) if isinstance(state, Match) else hand_to_dict(state)


def from_dict(data: Any) -> GameState | Match:
    """Read a hand or match snapshot."""
    if isinstance(data, dict) and data.get("type") == "match":
        return match_from_dict(data)
    return hand_from_dict(data)


# -- events --------------------------------------------------------------------------------

#: The engine's events by name: what :func:`event_from_dict` reads unless told otherwise.
EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        *(
            value
            for value in vars(events_module).values()
            if isinstance(value, type) and issubclass(value, Event) and value is not Event
        ),
        DealerDraw,
        DealerChosen,
        HandScored,
        PlayerEliminated,
        PlayerRetired,
        MatchEnded,
    )
}

_Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]


def _same(value: Any) -> Any:
    return value


def _codec(hint: Any) -> _Codec:
    """How one field type goes to JSON and back."""
    options = [h for h in typing.get_args(hint) if h is not type(None)]
    if typing.get_origin(hint) in (types.UnionType, typing.Union) and len(options) == 1:
        to, back = _codec(options[0])
        return (
            lambda v: None if v is None else to(v),
            lambda v: None if v is None else back(v),
        )
    if typing.get_origin(hint) is tuple:
        to, back = _codec(typing.get_args(hint)[0])
        return (lambda v: [to(x) for x in v], lambda v: tuple(back(x) for x in v))
    if hint is CardFace:
        return (lambda v: v.notation, CardFace.parse)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return (lambda v: v.value, hint)
    if hint in (int, bool, str):
        return (_same, hint)
    raise TypeError(f"no JSON form for event fields of type {hint!r}")


_FIELDS: dict[type[Event], tuple[tuple[str, _Codec], ...]] = {}


def _fields(cls: type[Event]) -> tuple[tuple[str, _Codec], ...]:
    """Each field of an event class with its codec (worked out once per class)."""
    known = _FIELDS.get(cls)
    if known is None:
        hints = typing.get_type_hints(cls)
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # every event is a dataclass
        known = _FIELDS[cls] = tuple((f.name, _codec(hints[f.name])) for f in fields)
    return known


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as JSON-ready data: ``{"schema": 1, "e": "CardPlayed", "seat": 0, …}``.

    Cards are written in notation and enums by value, so stored logs stay readable:

    >>> from engine.events import CardPlayed
    >>> wild = CardPlayed(seat=1, card=20, face=CardFace.parse("W"), colour=Colour.RED)
    >>> event_to_dict(wild)  # doctest: +NORMALIZE_WHITESPACE
    {'schema': 1, 'e': 'CardPlayed', 'seat': 1, 'card': 20, 'face': 'W', 'colour': 'R',
     'jump_in': False}
    """
    data: dict[str, Any] = {"schema": SCHEMA, "e": type(event).__name__}
    for name, (to, _) in _fields(type(event)):
        data[name] = to(getattr(event, name))
    return data


def event_from_dict(data: Any, types: Mapping[str, type[Event]] = EVENT_TYPES) -> Event:
    """Inverse of :func:`event_to_dict`, for the event classes ``types`` names.

    Records written before events carried a schema read as schema 1. Raises
    :class:`SnapshotError` for an unknown schema, event or field.

    >>> event_from_dict({"e": "UnoCalled", "seat": 2, "false_call": False})
    UnoCalled(seat=2, false_call=False)
    """
    if not isinstance(data, Mapping):
        raise SnapshotError("an event must be a JSON object")
    if data.get("schema", SCHEMA) != SCHEMA:
        raise SnapshotError(f"unsupported event schema {data.get('schema')!r}")
    cls = types.get(str(data.get("e")))
    if cls is None:
        raise SnapshotError(f"unknown event {data.get('e')!r}")
    values: dict[str, Any] = {}
    try:
        for name, (_, back) in _fields(cls):
            if name in data:
                values[name] = back(data[name])
        return cls(**values)
    except (TypeError, ValueError, EngineError) as exc:
        raise SnapshotError(f"malformed {cls.__name__} event: {exc}") from None
