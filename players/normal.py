"""Level ``normal``: a documented heuristic that decides in microseconds.

The policy, in the order it is applied (see also ``docs/computer-players.md``):

1. **Call UNO** (R-UNO-1) as soon as it holds exactly one card after a play. It never makes a
   false call (R-UNO-6).
2. **Catch** (R-UNO-2) any player who holds one card and has not called. It never makes a
   false catch.
3. **Jump in** (R-ACT-7) whenever the rules let it: an identical card sheds a card for free.
4. **Start Wild** (R-SETUP-5): name the colour it holds most of.
5. **A Draw Two or Wild Draw Four waiting** (R-ACT-6): stack if it can (a Draw Two before a
   Wild Draw Four, which it keeps); otherwise, against a Wild Draw Four, **challenge with
   reason** (R-CHAL): it estimates the chance that the offender held the previous colour from
   what everyone saw — the offender's card count, how many cards of that colour are still
   unseen (deck minus its own hand minus the discard pile), and whether the offender named the
   very colour it replaced (an honest player holds none of it, so naming it is a tell) — with a
   prior that about one Wild Draw Four player in three would bluff. It challenges when that
   chance reaches :data:`CHALLENGE_AT`; otherwise it takes the cards.
6. **Its turn**: every legal play is scored and the best is played; it draws when it has no
   play — and, when only wilds match, while it holds more than :data:`KEEP_WILDS_ABOVE` cards
   and no opponent is down to :data:`DRAW_UNLESS_AT` (it keeps the wild for later). The
   score rewards
   - *colour control*: cards of the resulting colour left in hand (it can follow), and cards of
     the same number or symbol in other colours (it can switch);
   - *the next player's voids*: leaving in play a colour the next player could not follow
     when it last drew (from the hand's history, :mod:`players.belief`), and naming it with
     a wild;
   - *holding wilds*: a Wild, Wild Draw Four or Swap Hands costs a large penalty, so it plays
     one only when nothing else matches; a Wild Draw Four is preferred to a Wild then
     (it hurts), and it never bluffs one (R-TURN-3);
   - *action cards*: heads-up a Skip, Reverse or Draw Two is an extra turn (better with a
     follow-up card); at a bigger table they pay off against a next player with few cards;
   - *dumping points when an opponent is at one card*: the card's points (R-DECK-2) weigh
     heavily, and attack cards (Draw Two, Skip, Wild Draw Four, a Reverse that turns play
     away) score extra when that opponent plays next; otherwise high cards win a tie.
   - A wild names the colour it holds most of afterwards, ties going to the colour with fewest
     unseen cards (the others are less likely to hold it). Swap Hands (R-DECK-4) goes to the
     opponent with fewest cards and names the colour its own remaining hand lacks, since that
     hand goes to the opponent; it is played only when the swap gains cards.
7. **A drawn card** (R-TURN-5) is played when it can be (a Wild Draw Four only honestly).
8. **The alternative rules** (RULES.md §13): their choices (the opponent to swap with or give
   to, the card to give, a partner's gift, a chain, a colour round) are
   :func:`players.choices.choose`'s, and :func:`players.choices.play_bonus` adds what they
   change to the score of a play (a 0 or 7 that swaps hands, a Skip that gives, a blank card).

The same code decides for every seat inside ``hard``'s rollouts, working on a full state
there (:func:`rollout_action`), so ``hard`` models its opponents as ``normal`` players.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from engine import (
    Action,
    AltState,
    CardFace,
    CatchUno,
    ChooseColour,
    Colour,
    Draw,
    GameState,
    Kind,
    Pass,
    Phase,
    Play,
    PlayerView,
    Rules,
    TableView,
)
from engine.actions import CALL_UNO, CHALLENGE, DRAW, PASS
from engine.cards import CLASSIC_POINTS
from engine.events import Event

from . import choices
from ._table import COLOURS, next_seat, prob_holds_any, unseen
from .belief import Belief

#: Challenge a Wild Draw Four when the estimated chance of guilt reaches this. Accepting costs
#: 4 cards and the turn; a lost challenge 6 cards and the turn; a won one costs the offender 4
#: and keeps the turn. In cards, challenging pays from about 2/11 ≈ 0.18; we ask for more,
#: because the estimate is rough.
CHALLENGE_AT = 0.3
#: The prior share of Wild Draw Four players who would bluff (play it holding the colour).
BLUFF_PRIOR = 0.3
#: How much likelier a guilty player is to name the colour the card replaced.
NAMED_SAME_RATIO = 6.0

#: Heads-up, a Skip, Reverse or Draw Two is an extra turn: worth this much with a card to
#: follow it, :data:`HEADS_UP_ATTACK_ALONE` without; a Draw Two :data:`DRAW_TWO_EXTRA` more.
HEADS_UP_ATTACK = 2.5
HEADS_UP_ATTACK_ALONE = 0.5
DRAW_TWO_EXTRA = 1.5
#: Playing a Wild Draw Four costs this (a Wild 8): below 8, it goes before a Wild.
WD4_PENALTY = 6.0
#: How much holding a wild is worth (scales the wild penalties).
WILD_SCALE = 1.0
#: With only wilds to play, draw instead while holding more than this many cards ...
KEEP_WILDS_ABOVE = 3
#: ... and no opponent holds this many cards or fewer.
DRAW_UNLESS_AT = 3
#: Leaving a colour in play that the next player could not follow when it last drew.
VOID_BONUS = 1.5
#: Naming with a wild a colour the next player could not follow counts as this many cards.
VOID_COLOUR = 1.0


def colour_after(play: Play) -> Colour | None:
    """The colour in play after ``play``."""
    return play.colour if play.face.colour is None else play.face.colour


_WILD_PENALTY = {Kind.WILD: 8.0, Kind.WILD_DRAW_FOUR: 6.0, Kind.SWAP_HANDS: 8.0, Kind.BLANK: 8.0}
_ATTACKS = frozenset({Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO})
_COLOUR_INDEX = {colour: i for i, colour in enumerate(COLOURS)}


def _points(face: CardFace) -> int:
    return face.number if face.number is not None else CLASSIC_POINTS[face.kind]


def _held(faces: Sequence[CardFace]) -> list[int]:
    """Cards per colour, in :data:`COLOURS` order (wilds not counted)."""
    held = [0, 0, 0, 0]
    index = COLOURS.index
    for face in faces:
        colour = face.colour
        if colour is not None:
            held[index(colour)] += 1
    return held


_DECK_COLOURS: dict[str, tuple[list[int], int]] = {}


def _deck_colours(rules: Rules) -> tuple[list[int], int]:
    """Cards per colour in the deck, and its size (cached per deck)."""
    deck = rules.deck()
    known = _DECK_COLOURS.get(deck.name)
    if known is None:
        known = _DECK_COLOURS[deck.name] = (_held(deck.sides[0]), deck.size)
    return known


class Spot:
    """One seat's situation, from a view (``normal``) or a full state (rollouts).

    Only the seat's own hand and public facts are kept; :meth:`unseen` computes the unseen
    faces on demand (deck minus own hand minus discard pile).
    """

    __slots__ = (
        "_discard",
        "alt",
        "clockwise",
        "colour",
        "counts",
        "current",
        "drawn",
        "hand",
        "legal",
        "offender",
        "phase",
        "playing",
        "prior_colour",
        "rules",
        "seat",
        "side",
        "top",
        "uno_called",
        "uno_seat",
        "voids",
    )

    seat: int
    legal: tuple[Action, ...]
    hand: list[CardFace]
    phase: Phase
    current: int
    colour: Colour | None
    top: CardFace
    counts: Sequence[int]
    playing: Sequence[bool]
    clockwise: bool
    rules: Rules
    side: int
    drawn: CardFace | None
    uno_called: bool
    uno_seat: int | None
    alt: AltState | None  # the alternative rules' public state (RULES.md §13)
    offender: int | None
    prior_colour: Colour | None
    voids: frozenset[Colour]  # colours the next player is believed to hold none of
    _discard: Callable[[], Sequence[CardFace]]

    def unseen(self) -> Counter[CardFace]:
        """The faces this seat has not seen (in other hands or the draw pile)."""
        return unseen(self.rules, self.side, self.hand, self._discard())

    def unseen_colours(self) -> tuple[list[int], int]:
        """Unseen cards per colour (in :data:`COLOURS` order) and unseen cards in all."""
        deck_held, size = _deck_colours(self.rules)
        hand = _held(self.hand)
        discard = self._discard()
        pile = _held(discard)
        per_colour = [deck_held[i] - hand[i] - pile[i] for i in range(4)]
        return per_colour, size - len(self.hand) - len(discard)


def spot_from_view(view: PlayerView) -> Spot:
    """The situation as ``view`` shows it."""
    t = view.table
    spot = Spot()
    spot.seat = view.seat
    spot.legal = view.legal
    spot.hand = [face for _, face in view.hand]
    _public(spot, t)
    spot.top = t.top
    spot.counts = t.card_counts
    spot.drawn = next((f for c, f in view.hand if c == view.drawn), None)
    spot._discard = lambda: t.discard
    return spot


def _public(spot: Spot, table: TableView | GameState) -> None:
    """What a table view and a state call by the same names: the public facts of the hand."""
    spot.phase = table.phase
    spot.current = table.current
    spot.colour = table.colour
    spot.playing = table.playing
    spot.clockwise = table.clockwise
    spot.rules = table.rules
    spot.side = table.side
    spot.uno_called = table.uno_called
    spot.uno_seat = table.uno_seat
    spot.alt = table.alt
    spot.offender = table.offender
    spot.prior_colour = table.prior_colour
    spot.voids = frozenset()


def spot_from_state(state: GameState, seat: int) -> Spot:
    """The situation of ``seat`` in ``state``, reading only its own hand (for rollouts)."""
    faces = state.deck.sides[state.side]
    spot = Spot()
    spot.seat = seat
    spot.legal = state.legal_actions(seat)
    spot.hand = [faces[c] for c in state.hands[seat]]
    _public(spot, state)
    spot.top = faces[state.discard[-1]]
    spot.counts = [len(h) for h in state.hands]
    spot.drawn = faces[state.drawn] if state.drawn is not None and seat == state.current else None
    spot._discard = lambda: [faces[c] for c in state.discard]
    return spot


def decide(view: PlayerView, rng: random.Random, history: Sequence[Event] = ()) -> Action | None:
    """The ``normal`` level's action for ``view`` (``rng`` is unused: the policy is fixed);
    ``history`` (the hand's events this seat saw) tells it the colours the next player could
    not follow (:mod:`players.belief`)."""
    del rng
    spot = spot_from_view(view)
    if history and view.seat == view.table.current and view.legal:
        spot.voids = next_voids(view, history)
    return choose(spot)


def next_voids(view: PlayerView, history: Sequence[Event]) -> frozenset[Colour]:
    """The colours the next player in turn is believed to hold none of."""
    t = view.table
    belief = Belief.from_events(view.seat, t.seats, history, t.rules.deck())
    after = next_seat(view.seat, t.playing, t.clockwise)
    held = t.card_counts[after]
    if after == view.seat or held == 0:
        return frozenset()
    return frozenset(c for c in COLOURS if belief.is_void(after, c, held))


def rollout_action(state: GameState, seat: int) -> Action | None:
    """The ``normal`` policy for ``seat`` on a full state, reading only that seat's hand."""
    return choose(spot_from_state(state, seat))


# -- the policy --------------------------------------------------------------------------


def choose(spot: Spot) -> Action | None:
    """The policy of the module docstring, on one seat's situation."""
    legal = spot.legal
    if not legal:
        return None
    if spot.phase in choices.CHOICE_PHASES and spot.seat == spot.current:
        return choices.choose(spot)  # R-ALT: the choice the hand waits for
    if CALL_UNO in legal and len(spot.hand) == 1:
        return CALL_UNO
    for action in legal:
        # Never a false catch (R-UNO-6): the seat that just played may have called.
        if type(action) is CatchUno and not (spot.uno_called and action.target == spot.uno_seat):
            return action
    if spot.seat != spot.current:
        jumps = [a for a in legal if type(a) is Play]
        return jumps[0] if jumps else None  # a jump-in is never a wild: one action
    phase = spot.phase
    if phase is Phase.CHOOSE_COLOUR:
        return ChooseColour(best_colour(spot, spot.hand))
    plays = [a for a in legal if type(a) is Play]
    if phase is Phase.PLAY:
        if plays:
            bluff = _bluff(spot)
            honest = [a for a in plays if not (bluff and a.face.kind is Kind.WILD_DRAW_FOUR)]
            if (
                honest
                and DRAW in legal
                and all(a.face.is_wild for a in honest)
                and len(spot.hand) > KEEP_WILDS_ABOVE
                and not any(
                    spot.counts[s] <= DRAW_UNLESS_AT
                    for s in range(len(spot.playing))
                    if spot.playing[s] and s != spot.seat
                )
            ):
                return DRAW  # keep the wild: draw first, it may bring a playable card
            if honest:
                return _best_play(spot, honest)
        if DRAW in legal:
            return DRAW
        if plays:  # draw_only_if_stuck left nothing else
            return _best_play(spot, plays)
    elif phase is Phase.PENALTY or phase is Phase.CHALLENGE:
        if plays:
            return _best_stack(spot, plays)
        if phase is Phase.CHALLENGE and CHALLENGE in legal and challenge_reasoned(spot):
            return CHALLENGE
        return DRAW
    elif phase is Phase.DRAWN:
        if plays and not (plays[0].face.kind is Kind.WILD_DRAW_FOUR and _bluff(spot)):
            return _best_play(spot, plays)
        return PASS
    return next((a for a in legal if type(a) in (Draw, Pass, ChooseColour)), None)


def _bluff(spot: Spot) -> bool:
    """Would a Wild Draw Four be a bluff now (holding the colour in play, R-TURN-3)?"""
    colour = spot.colour
    return any(f.colour is colour for f in spot.hand)


def _rest(hand: Sequence[CardFace], face: CardFace) -> list[CardFace]:
    rest = list(hand)
    rest.remove(face)
    return rest


def best_colour(spot: Spot, faces: Sequence[CardFace]) -> Colour:
    """The colour held most in ``faces``; ties go to more points, then fewest unseen cards."""
    held = [0, 0, 0, 0]
    points = [0, 0, 0, 0]
    index = COLOURS.index
    for f in faces:
        colour = f.colour
        if colour is not None:
            i = index(colour)
            held[i] += 1
            points[i] += _points(f)
    score = [float(n) for n in held]
    if spot.voids:
        for i in range(4):
            if COLOURS[i] in spot.voids:
                score[i] += VOID_COLOUR
    top = max(score)
    tied = [i for i in range(4) if score[i] == top]
    if len(tied) > 1:
        best_points = max(points[i] for i in tied)
        tied = [i for i in tied if points[i] == best_points]
    if len(tied) > 1:
        scarce = spot.unseen_colours()[0]
        return COLOURS[min(tied, key=lambda i: scarce[i])]
    return COLOURS[tied[0]]


def _best_stack(spot: Spot, plays: list[Play]) -> Play:
    """A Draw Two if any (keeping the Wild Draw Four), else the Wild Draw Four in our colour."""
    twos = [p for p in plays if p.face.kind is Kind.DRAW_TWO]
    if twos:
        held = _held(spot.hand)
        return max(twos, key=lambda p: held[_COLOUR_INDEX[p.face.colour]])  # type: ignore[index]
    colour = best_colour(spot, _rest(spot.hand, plays[0].face))
    return next((p for p in plays if p.colour is colour), plays[0])


def challenge_probability(spot: Spot) -> float:
    """The estimated chance that the Wild Draw Four under challenge was a bluff (R-CHAL-2)."""
    offender, prior = spot.offender, spot.prior_colour
    if offender is None or prior is None:
        return 0.0
    held = spot.counts[offender]
    if held == 0:
        return 0.0  # an empty hand is always innocent
    per_colour, total = spot.unseen_colours()
    matching = per_colour[_COLOUR_INDEX[prior]]
    chance = prob_holds_any(total, matching, held)
    guilty = BLUFF_PRIOR * chance
    innocent = 1.0 - chance
    if spot.colour is prior:
        guilty *= NAMED_SAME_RATIO
    if guilty + innocent <= 0.0:
        return 0.0
    return guilty / (guilty + innocent)


def challenge_reasoned(spot: Spot) -> bool:
    """Challenge when the estimated chance of guilt reaches :data:`CHALLENGE_AT`."""
    return challenge_probability(spot) >= CHALLENGE_AT


def _best_play(spot: Spot, plays: Sequence[Play]) -> Play:
    """The highest-scoring play (ties: the first in legal order)."""
    seat = spot.seat
    playing = spot.playing
    counts = spot.counts
    n = len(spot.hand)
    if n == 1:
        play = plays[0]
        return _wild_play(spot, play, plays) if play.face.is_wild else play
    held = _held(spot.hand)
    heads_up = sum(playing) == 2
    next_count = counts[next_seat(seat, playing, spot.clockwise)]
    prev_count = counts[next_seat(seat, playing, not spot.clockwise)]
    danger = any(counts[s] <= 1 for s in range(len(playing)) if playing[s] and s != seat)
    alternative = spot.rules.alternative
    best = plays[0]
    best_score = -1e9
    done: set[CardFace] = set()
    for play in plays:
        face = play.face
        kind = face.kind
        if face.is_wild:
            if face in done:
                continue  # one evaluation per wild face: the colour (and target) are ours
            done.add(face)
            play = _wild_play(spot, play, plays)
            colour = play.colour
            follow = held[_COLOUR_INDEX[colour]] if colour is not None else 0
            score = follow - WILD_SCALE * (
                WD4_PENALTY if kind is Kind.WILD_DRAW_FOUR else _WILD_PENALTY[kind]
            )
            if kind is Kind.SWAP_HANDS and play.target is not None:
                # We keep the target's cards and give away our remaining ones.
                score += 1.5 * ((n - 1) - counts[play.target])
        else:
            follow = held[_COLOUR_INDEX[face.colour]] - 1  # type: ignore[index]
            score = float(follow)
            if kind is Kind.NUMBER:
                score += 0.02 * (face.number or 0)
        if colour_after(play) in spot.voids:
            score += VOID_BONUS
        if alternative:
            score += choices.play_bonus(spot, play)
        if kind in _ATTACKS:
            if heads_up:  # an extra turn (R-ACT-2/3, R-TEAM-1)
                attack = HEADS_UP_ATTACK if follow > 0 else HEADS_UP_ATTACK_ALONE
                if kind is Kind.DRAW_TWO:
                    attack += DRAW_TWO_EXTRA
            else:
                attack = 1.0 if kind is Kind.DRAW_TWO else 0.5 if kind is Kind.SKIP else 0.0
                if next_count <= 2 and (kind is not Kind.REVERSE or prev_count > 2):
                    attack += 3.0
            score += attack
        elif kind is Kind.WILD_DRAW_FOUR:
            score += 2.0 if next_count <= 2 else 0.5
        if danger:
            score += 0.15 * _points(face)
            if next_count <= 1 and kind is not Kind.NUMBER and kind is not Kind.WILD:
                score += 5.0
        else:
            score += 0.01 * _points(face)
        if score > best_score:
            best, best_score = play, score
    return best


def _wild_play(spot: Spot, play: Play, plays: Sequence[Play]) -> Play:
    """The colour (and target) this wild should name."""
    face = play.face
    rest = _rest(spot.hand, face)
    if face.kind is Kind.SWAP_HANDS:
        targets = sorted({p.target for p in plays if p.face is face and p.target is not None})
        target = min(targets, key=lambda s: (spot.counts[s], targets.index(s)))
        return Play(face, swap_colour(rest), target)
    return Play(face, best_colour(spot, rest))


def swap_colour(rest: Sequence[CardFace]) -> Colour:
    """Swap Hands gives our remaining hand away: name the colour it holds least of."""
    held = _held(rest)
    return COLOURS[held.index(min(held))]
