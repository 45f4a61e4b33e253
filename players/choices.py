"""The choices of the alternative rules (RULES.md §13), one heuristic for every level.

When the hand waits for one of these choices (``Phase.SWAP``, ``GIVE``, ``GIFT``, ``CHAIN``,
``COLOUR_ROUND``; :func:`waits_for_choice`), ``easy``, ``normal``, ``hard`` and the UNO Flip
policy all answer with :func:`choose`:

- **swap** (R-ALT-2/3): with the opponent holding the fewest cards (a partner only when no
  opponent is left), the next to play first on a tie;
- **give** (R-ALT-4): to the opponent holding the fewest cards, the card that helps them
  least: a number card rather than an action card, an action card rather than a wild, not
  of the colour in play, from a colour this hand is short of, the higher points first;
- **gift** (R-ALT-5): a card the partner can play on the top card (the one this hand can
  spare best: not a wild while another card will do); no gift when none of them can be
  played, since a card the partner cannot play only adds to their hand;
- **chain** (R-ALT-6): go on while a coloured card matches, the one that keeps the most
  cards to follow; a wild only when at least two cards of the colour it names follow it, or
  the chain can then empty the hand; otherwise stop and keep the wild;
- **colour round** (R-ALT-6): put down a number card (the highest), then a Reverse, a Skip,
  a Draw Two (kept longest: they attack later); draw when the colour is missing.

:func:`play_bonus` adds what these rules change to ``normal``'s scoring of a play: a 0 or 7
that swaps or passes hands is worth the cards it gains (and avoided when it loses some), a
0 that puts down its colour the cards it sheds, a Skip that gives or makes everyone draw a
card more, a blank card its effect.

Everything reads a seat's own hand and the public table, through the attributes of
:class:`Seat` (``normal``'s ``Spot`` has them, from a view or from a full state).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine import (
    Action,
    AltState,
    BlankEffect,
    CardFace,
    Colour,
    Draw,
    Gift,
    Give,
    Kind,
    NoGift,
    Pass,
    Phase,
    Play,
    PlayerView,
    Rules,
    SkipVariant,
    Swap,
    ZeroSpell,
)
from engine.cards import matches

from ._table import COLOURS, next_seat

#: The phases in which the hand waits for one of these choices.
CHOICE_PHASES = frozenset({Phase.SWAP, Phase.GIVE, Phase.GIFT, Phase.CHAIN, Phase.COLOUR_ROUND})
#: How much a card in the receiver's hand helps them, by kind (R-ALT-4's give).
_HELP = {Kind.WILD_DRAW_FOUR: 120.0, Kind.DRAW_TWO: 40.0, Kind.SKIP: 30.0, Kind.REVERSE: 25.0}
_WILD_HELP = 100.0
#: The order a colour round sheds a player's cards in (numbers first, attacks last).
_SHED_LAST = {Kind.NUMBER: 0, Kind.REVERSE: 1, Kind.SKIP: 2, Kind.DRAW_TWO: 3}
#: A card gained or lost by a swap, in ``normal``'s score units (as its Swap Hands).
SWAP_WEIGHT = 1.5


class Seat(Protocol):
    """What the choices read: one seat's hand and the public table."""

    @property
    def seat(self) -> int: ...
    @property
    def legal(self) -> tuple[Action, ...]: ...
    @property
    def hand(self) -> Sequence[CardFace]: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def colour(self) -> Colour | None: ...
    @property
    def top(self) -> CardFace: ...
    @property
    def counts(self) -> Sequence[int]: ...
    @property
    def playing(self) -> Sequence[bool]: ...
    @property
    def clockwise(self) -> bool: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def alt(self) -> AltState | None: ...


def waits_for_choice(view: PlayerView) -> bool:
    """Whether the hand waits for this seat's choice of the alternative rules."""
    t = view.table
    return view.seat == t.current and t.phase in CHOICE_PHASES and bool(view.legal)


def choose(spot: Seat) -> Action:
    """The choice for ``spot`` in one of :data:`CHOICE_PHASES` (module docstring)."""
    phase = spot.phase
    if phase is Phase.SWAP:
        return swap(spot)
    if phase is Phase.GIVE:
        return give(spot)
    if phase is Phase.GIFT:
        return gift(spot)
    if phase is Phase.CHAIN:
        return chain(spot)
    return colour_round(spot)


# -- whom ----------------------------------------------------------------------------------


def _turn_order(spot: Seat) -> list[int]:
    """The other seats in the hand, in turn order from this one."""
    order = []
    s = spot.seat
    for _ in range(len(spot.playing)):
        s = next_seat(s, spot.playing, spot.clockwise)
        if s == spot.seat:
            break
        order.append(s)
    return order


def _is_partner(spot: Seat, other: int) -> bool:
    teams = spot.rules.teams
    return bool(teams) and other % teams == spot.seat % teams


def _leader(spot: Seat, targets: Sequence[int]) -> int:
    """Of ``targets``, the opponent holding the fewest cards (partners last), the next to
    play first on a tie."""
    order = {s: i for i, s in enumerate(_turn_order(spot))}
    return min(
        targets, key=lambda s: (_is_partner(spot, s), spot.counts[s], order.get(s, len(order)))
    )


def swap(spot: Seat) -> Action:
    """R-ALT-2/3: swap with the opponent holding the fewest cards."""
    targets = [a.target for a in spot.legal if isinstance(a, Swap)]
    return Swap(_leader(spot, targets))


# -- what -----------------------------------------------------------------------------------


def _held(faces: Sequence[CardFace]) -> dict[Colour | None, int]:
    held: dict[Colour | None, int] = {}
    for face in faces:
        held[face.colour] = held.get(face.colour, 0) + 1
    return held


def _help(face: CardFace, colour: Colour | None, held: dict[Colour | None, int]) -> float:
    """How much ``face`` helps the opponent who gets it, and hurts this hand to lose."""
    if face.colour is None:
        score = _HELP.get(face.kind, _WILD_HELP)
    else:
        score = _HELP.get(face.kind, 0.0)
        if face.colour is colour:
            score += 10.0  # they may play it at once
        score += 2.0 * (held.get(face.colour, 0) - 1)  # a colour this hand follows with
    points = face.number if face.number is not None else 20
    return score - 0.1 * points


def give(spot: Seat) -> Action:
    """R-ALT-4: the least helpful card to the opponent holding the fewest cards."""
    gives = [a for a in spot.legal if isinstance(a, Give)]
    target = _leader(spot, sorted({a.target for a in gives}))
    held = _held(spot.hand)
    options = [a for a in gives if a.target == target]
    return min(options, key=lambda a: (_help(a.face, spot.colour, held), str(a)))


def _playable_for_partner(spot: Seat, face: CardFace) -> bool:
    quiet = spot.alt is not None and spot.alt.quiet > 0
    return matches(face, spot.top, spot.colour) and (not quiet or face.kind is Kind.NUMBER)


def gift(spot: Seat) -> Action:
    """R-ALT-5: a card the partner can play, the one this hand misses least."""
    held = _held(spot.hand)
    playable = [
        a for a in spot.legal if isinstance(a, Gift) and _playable_for_partner(spot, a.face)
    ]
    if not playable:
        return next(a for a in spot.legal if isinstance(a, NoGift))
    return min(
        playable,
        key=lambda a: (
            a.face.is_wild,
            held.get(a.face.colour, 0),  # a colour this hand is short of
            -(a.face.number if a.face.number is not None else 20),
            str(a),
        ),
    )


def _follow(faces: Sequence[CardFace], colour: Colour | None, symbol: object) -> int:
    """Cards of ``faces`` that could follow a card of ``colour`` and ``symbol``."""
    return sum(1 for f in faces if f.colour is None or f.colour is colour or f.symbol == symbol)


def chain(spot: Seat) -> Action:
    """R-ALT-6 ``chain``: play on while it sheds cards; a wild only for two cards or more
    (or the whole hand) after it; stop otherwise."""
    plays = [a for a in spot.legal if isinstance(a, Play)]
    stop = next(a for a in spot.legal if isinstance(a, Pass))
    coloured = [a for a in plays if not a.face.is_wild]
    hand = list(spot.hand)
    if coloured:

        def keeps(play: Play) -> tuple[int, int, str]:
            rest = list(hand)
            rest.remove(play.face)
            follow = _follow(rest, play.face.colour, play.face.symbol)
            return (-follow, -(play.face.number or 0), str(play))

        return min(coloured, key=keeps)
    wilds = [a for a in plays if a.face.is_wild]
    if not wilds:
        return stop
    coloured_left = [f for f in hand if f.colour is not None]
    if not coloured_left:
        return wilds[0]  # wilds only: they go out one after another
    held = _held(coloured_left)
    best = max(COLOURS, key=lambda c: (held.get(c, 0), -COLOURS.index(c)))
    if held[best] < 2 and held[best] < len(coloured_left):
        return stop  # the wild would shed one card more at best: keep it
    face = wilds[0].face
    return next((a for a in wilds if a.face is face and a.colour is best), wilds[0])


def colour_round(spot: Seat) -> Action:
    """R-ALT-6 ``colour_round``: shed a number card first, keep the attack cards."""
    plays = [a for a in spot.legal if isinstance(a, Play)]
    if not plays:
        return next(a for a in spot.legal if isinstance(a, Draw))
    return min(
        plays,
        key=lambda a: (
            _SHED_LAST.get(a.face.kind, 4),
            -(a.face.number if a.face.number is not None else 0),
            str(a),
        ),
    )


# -- what a play is worth under these rules -------------------------------------------------


def play_bonus(spot: Seat, play: Play) -> float:
    """What the alternative rules add to ``normal``'s score of ``play`` (in its units:
    about one per card of colour control)."""
    rules = spot.rules
    face = play.face
    left = len(spot.hand) - 1
    if left <= 0:
        return 0.0  # a last card casts nothing
    others = _turn_order(spot)
    if not others:
        return 0.0
    if face.kind is Kind.NUMBER:
        zero = face.number == 0 and rules.zero_spell is not ZeroSpell.OFF
        if zero and rules.zero_spell is ZeroSpell.DISCARD_COLOUR:
            return float(sum(1 for f in spot.hand if f.colour is face.colour) - 1)
        if zero and rules.zero_spell is ZeroSpell.ROTATE:
            previous = next_seat(spot.seat, spot.playing, not spot.clockwise)
            return SWAP_WEIGHT * (left - spot.counts[previous])
        if zero or (face.number == 7 and rules.seven_swap):
            best = min(spot.counts[s] for s in others)
            return SWAP_WEIGHT * (left - best)
        return 0.0
    if face.kind is Kind.SKIP and rules.skip_variant is not SkipVariant.OFF:
        return 1.0  # a card given away, or a card for every opponent
    if face.kind is Kind.BLANK:
        return _blank_bonus(spot, play, left)
    return 0.0


def _blank_bonus(spot: Seat, play: Play, left: int) -> float:
    effect = spot.rules.blank_effect
    rest = list(spot.hand)
    rest.remove(play.face)
    if effect is BlankEffect.CHAIN:
        return float(sum(1 for f in rest if f.colour is play.colour))
    if effect is BlankEffect.ACTION_DUMP:
        return float(sum(1 for f in rest if f.kind in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO)))
    if effect is BlankEffect.REFILL:
        after = next_seat(spot.seat, spot.playing, spot.clockwise)
        return 0.5 * max(0, spot.rules.hand_size - spot.counts[after])
    if effect is BlankEffect.TAKE_TWO:
        return -2.0  # two more cards for this hand
    if effect is BlankEffect.COLOUR_ROUND:
        return -0.5 * len(_turn_order(spot))  # every other player sheds a card
    del left
    return 0.0
