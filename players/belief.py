"""What one seat has learned about the other hands from the hand's history, and deals that
agree with it.

A seat sees its own hand, the public table (:class:`~engine.TableView`) and the events of the
hand addressed to it (:func:`engine.events_for`: the public ones, its own draws, a hand
revealed to it). From the events, :class:`Belief` keeps, for every other seat:

- **voids**: when a seat draws on its turn (R-TURN-4), it held nothing that matched the top
  card and the colour in play (players draw when stuck; a person may draw by choice, so a
  deal may break a void when the unseen cards leave no other way). With ``draw_until_playable``
  every card drawn before the last did not match either; and when the player neither plays
  the card drawn nor keeps it on purpose (``Passed``), the engine passed the turn on because
  it could not be played (R-TURN-5), so the void covers it too. A Wild Draw Four found innocent
  after a challenge (R-CHAL-2) proves its player held none of the colour before it. A void
  covers the cards held then: each card drawn afterwards is unknown, each card played that
  the void allows may have been one of them.
- **known cards**: a hand revealed to this seat after a challenge (R-CHAL-2), until played.

A Swap Hands or a Flip turns every hand over, and what was learned about it is dropped; so
do the exchanges of the alternative rules (RULES.md §13: swaps, a rotation, a redeal) for
the hands they change, and a card given, gifted or taken (R-ALT-4/5/6) for both hands.

:func:`deal` then gives every other seat exactly its count of unseen cards, honouring the
known cards and voids where the unseen cards allow it, and the rest to the draw pile; in UNO
Flip each card also shows its public other side (``TableView.backs``) and the draw pile's top
back (``draw_back``), and the deal matches them. Nothing here reads another seat's cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine import CardFace, Colour, Deck, Kind, PlayerView
from engine.cards import matches
from engine.events import (
    CardPlayed,
    CardsDrawn,
    CardsFlipped,
    CardsGiven,
    CardsPutDown,
    CardsReceived,
    ChallengeResolved,
    ColourChosen,
    DrawCause,
    Event,
    HandRevealed,
    HandsRedealt,
    HandsRotated,
    HandsSwapped,
    HandStarted,
    Passed,
)

from .likelihoods import LIKELIHOOD

#: Read a wild as a sign: a plain Wild (or Swap Hands) is played when no coloured card
#: matched, a Wild Draw Four (UNO Flip: Wild Draw Two or Colour) when none of the colour in
#: play was held. Most players do; a deal breaks the belief when the cards leave no choice.
WILD_MEANS_STUCK = True
#: Evidence that makes cards likelier rather than ruling them out (never read as a void).
LIKINGS = ("named", "kept")
#: Weigh what actions say (players/likelihoods.py) instead of reading them as rules.
WEIGHED = True


#: The categories of a card against a top card and a colour (:func:`category`).
CATEGORIES = ("colour", "symbol", "wild", "draw wild", "other")


def category(face: CardFace, top: CardFace | None, colour: Colour | None) -> int:
    """The index in :data:`CATEGORIES` of ``face`` on ``top`` with ``colour`` in play: a card
    of the colour, one of the same symbol, a plain wild (Wild, Swap Hands, blank), a draw wild,
    anything else."""
    if face.colour is None:
        return 2 if face.kind in (Kind.WILD, Kind.SWAP_HANDS, Kind.BLANK) else 3
    if face.colour is colour:
        return 0
    if top is not None and face.symbol == top.symbol:
        return 1
    return 4


@dataclass(slots=True)
class Void:
    """A seat held no card that matched ``top`` with ``colour`` in play (with
    ``colour_only``: no card of ``colour``; with ``coloured``: no coloured card that
    matched), except ``free`` of the cards it holds now."""

    top: CardFace | None
    colour: Colour | None
    colour_only: bool
    free: int  # cards the seat may have got since (drawn after, or the last card drawn)
    coloured: bool = False
    #: What it was learned from: "drew" (on its turn), "innocent" (a challenge, a fact),
    #: "wild" / "wd4" (a plain / draw wild played), "named" (the colour a wild named).
    source: str = "drew"
    #: At most this many of the cards held (0: no limit): a card kept covers only itself,
    #: the last slots of a dealt hand, apart from the cards the other voids cover.
    covers: int = 0

    def weight(self, face: CardFace) -> float:
        """How likely a covered card is ``face`` against chance (players/likelihoods.py);
        a fact (``innocent``), or without :data:`WEIGHED`, 0 or 1."""
        if self.source == "innocent" or not WEIGHED:
            return 0.0 if self.rule(face) else 1.0
        return LIKELIHOOD[self.source][category(face, self.top, self.colour)]

    def forbids(self, face: CardFace) -> bool:
        """Whether ``face`` is unlikely among the covered cards (a liking forbids nothing)."""
        if self.source in LIKINGS:
            return False
        if WEIGHED and self.source != "innocent":
            return self.weight(face) < 0.5
        return self.rule(face)

    def rule(self, face: CardFace) -> bool:
        """The void read as a rule: ``face`` is not among the covered cards."""
        if self.source in LIKINGS:
            return False
        if self.colour_only:
            return face.colour is self.colour and face.colour is not None
        assert self.top is not None
        if self.coloured and face.colour is None:
            return False
        return matches(face, self.top, self.colour)


@dataclass(slots=True)
class Belief:
    """What ``seat`` believes about the others, kept up to date by :meth:`observe`."""

    seat: int
    seats: int
    voids: list[list[Void]] = field(default_factory=list)
    known: list[Counter[CardFace]] = field(default_factory=list)
    top: CardFace | None = None
    colour: Colour | None = None
    before: list[tuple[CardFace | None, Colour | None]] = field(default_factory=list)
    #: The seat that just drew when stuck, and whose drawn card's fate is not known yet.
    drawer: int | None = None

    def __post_init__(self) -> None:
        if not self.voids:
            self.voids = [[] for _ in range(self.seats)]
            self.known = [Counter() for _ in range(self.seats)]

    @classmethod
    def from_events(cls, seat: int, seats: int, events: Iterable[Event], deck: Deck) -> Belief:
        """The belief of ``seat`` after ``events`` (those of the hand it may see, in order)."""
        belief = cls(seat, seats)
        side = 0
        for event in events:
            if isinstance(event, CardsFlipped):
                side = event.side
            belief.observe(event, deck, side)
        return belief

    def observe(self, event: Event, deck: Deck, side: int = 0) -> None:
        """Learn from one event (public, or addressed to this seat)."""
        if self.drawer is not None and isinstance(event, CardPlayed | CardsDrawn | Passed):
            self._after_draw(event, self.drawer)
        if isinstance(event, HandStarted):
            self.__init__(self.seat, self.seats)  # type: ignore[misc]
            self.top, self.colour = event.start, event.start.colour
        elif isinstance(event, CardPlayed):
            self.before.append((self.top, self.colour))
            del self.before[:-4]
            self.top = event.face
            self.colour = event.colour if event.face.colour is None else event.face.colour
            seat = event.seat
            if seat != self.seat and 0 <= seat < self.seats:
                known = self.known[seat]
                if known[event.face] > 0:
                    known[event.face] -= 1
                for void in self.voids[seat]:
                    if void.forbids(event.face):
                        void.free = max(0, void.free - 1)
                top, colour = self.before[-1]
                face = event.face
                if face.is_wild and not event.jump_in and top is not None and WILD_MEANS_STUCK:
                    if face.kind in (Kind.WILD, Kind.SWAP_HANDS, Kind.BLANK):
                        # A Wild is played when nothing coloured matches (players keep them).
                        self.voids[seat].append(Void(top, colour, False, 0, True, "wild"))
                    elif colour is not None:
                        # A draw wild is played honestly: none of the colour it replaced.
                        self.voids[seat].append(Void(top, colour, True, 0, source="wd4"))
                if face.is_wild and not event.jump_in and event.colour is not None and WEIGHED:
                    # The colour a wild names is most often the one its player holds most of.
                    self.voids[seat].append(Void(None, event.colour, True, 0, source="named"))
        elif isinstance(event, ColourChosen):
            self.colour = event.colour
        elif isinstance(event, CardsDrawn):
            seat = event.seat
            if seat == self.seat or not 0 <= seat < self.seats:
                return
            for void in self.voids[seat]:
                void.free += event.count
            if event.cause is DrawCause.DRAW and self.top is not None:
                # Stuck: nothing matched; with draw_until_playable the cards drawn before
                # the last did not match either. Only the last card drawn is unknown.
                self.voids[seat].append(Void(self.top, self.colour, False, 1))
                self.drawer = seat
        elif isinstance(event, ChallengeResolved):
            if event.retracted and self.before:
                self.top, self.colour = self.before.pop()
            if not event.guilty and len(self.before) >= 1:
                seat = event.challenged
                prior = self.before[-1][1]
                if seat != self.seat and prior is not None and 0 <= seat < self.seats:
                    # The evidence is the hand right after the Wild Draw Four.
                    self.voids[seat].append(Void(None, prior, True, 0, source="innocent"))
        elif isinstance(event, HandRevealed):
            if event.viewer == self.seat and event.seat != self.seat:
                faces = deck.sides[side]
                self.known[event.seat] = Counter(faces[c] for c in event.cards)
                self.voids[event.seat] = []
        elif isinstance(event, HandsSwapped | CardsGiven):
            for seat in (event.seat, event.target):
                if 0 <= seat < self.seats:
                    self.voids[seat] = []
                    self.known[seat] = Counter()
        elif isinstance(event, HandsRotated | HandsRedealt):
            self.voids = [[] for _ in range(self.seats)]
            self.known = [Counter() for _ in range(self.seats)]
        elif isinstance(event, CardsPutDown):
            if event.on_top and event.faces:  # the last card put down is the new top
                self.top = event.faces[-1]
        elif isinstance(event, CardsFlipped):
            self.top, self.colour = event.top, event.colour
            self.voids = [[] for _ in range(self.seats)]
            self.known = [Counter() for _ in range(self.seats)]
        elif isinstance(event, CardsReceived):
            return

    def _after_draw(self, event: CardPlayed | CardsDrawn | Passed, drawer: int) -> None:
        """What the next move says about the card ``drawer`` just drew when stuck."""
        self.drawer = None
        jump_in = isinstance(event, CardPlayed) and event.jump_in
        if event.seat != drawer and self.voids[drawer] and not jump_in:
            # The seat that drew did not play, and no card was kept on purpose (that is
            # a Passed): the engine passed the turn on because the card drawn could not
            # be played (R-TURN-5), so it matches nothing either and the void covers it.
            self.voids[drawer][-1].free = 0
        elif isinstance(event, Passed) and event.seat == drawer and WEIGHED:
            # Kept on purpose: the card drawn says something of its own (likelihoods).
            drew = self.voids[drawer][-1] if self.voids[drawer] else None
            if drew is not None and drew.source == "drew":
                kept = Void(drew.top, drew.colour, False, 0, source="kept", covers=1)
                self.voids[drawer].append(kept)

    def constraints(self, seat: int, held: int) -> list[tuple[Void, int]]:
        """The voids of ``seat`` with how many of its ``held`` cards each still covers."""
        result = []
        for void in self.voids[seat]:
            covered = held - void.free
            if void.covers:
                covered = min(covered, void.covers)
            if covered > 0:
                result.append((void, covered))
        result.sort(key=lambda item: -item[1])
        return result

    def is_void(self, seat: int, colour: Colour, held: int) -> bool:
        """Whether ``seat`` is believed to hold no card of ``colour`` at all now."""
        return any(
            covered >= held and void.colour is colour and void.source not in LIKINGS
            for void, covered in self.constraints(seat, held)
        )


_IDS: dict[tuple[str, int], dict[CardFace, tuple[int, ...]]] = {}


def _ids(deck: Deck, side: int) -> dict[CardFace, tuple[int, ...]]:
    """The card ids of every face of ``deck`` on ``side`` (cached)."""
    key = (deck.name, side)
    ids = _IDS.get(key)
    if ids is None:
        found: dict[CardFace, list[int]] = {}
        for card, face in enumerate(deck.sides[side]):
            found.setdefault(face, []).append(card)
        ids = _IDS[key] = {face: tuple(cards) for face, cards in found.items()}
    return ids


class Dealer:
    """Deals consistent with one view and belief; the work that does not depend on the deal
    is done once, in the constructor, so that :meth:`deal` can run hundreds of times.

    Raises :class:`ValueError` when the view does not fit the deck.
    """

    def __init__(self, view: PlayerView, belief: Belief | None) -> None:
        t = view.table
        deck = t.rules.deck()
        side = t.side
        faces = deck.sides[side]
        self.me = me = view.seat
        self.seats = t.seats
        mine = [c for c, _ in view.hand]
        own = set(mine)
        free = {face: [c for c in ids if c not in own] for face, ids in _ids(deck, side).items()}
        discard: list[int] = []
        try:
            for face in t.discard:
                discard.append(free[face].pop())
        except (KeyError, IndexError):
            raise ValueError("the discard pile does not fit the deck and the hand") from None
        pool = sorted(c for cards in free.values() for c in cards)
        counts = t.card_counts
        if sum(counts[s] for s in range(t.seats) if s != me) + t.draw_size != len(pool):
            raise ValueError("the card counts do not fit the deck")
        self.mine = mine
        self.discard = discard
        self.pool = pool
        flip = len(deck.sides) > 1 and bool(t.backs)
        other = deck.sides[deck.other_side(side)] if flip else faces
        self.flip = flip
        self.back = list(other) if flip else []
        self.draw_back = t.draw_back if flip and t.draw_size else None
        # Per seat: known faces, then for each slot the chance that a card of the pool is
        # accepted there, by card id (None: any card).
        order = [s for s in range(t.seats) if s != me and counts[s]]
        self.plan: list[tuple[int, list[CardFace], list[Accept | None], list[CardFace]]]
        self.plan = []
        weight: dict[int, int] = {}
        for seat in order:
            held = counts[seat]
            known: list[CardFace] = []
            slots: list[Accept | None] = [None] * held
            if belief is not None:
                known = list(belief.known[seat].elements())[:held]
                hidden = held - len(known)
                slots = _slots(belief.constraints(seat, hidden), hidden, pool, faces)
            weight[seat] = sum(1 for s in slots if s is not None) + 2 * len(known)
            self.plan.append((seat, known, slots, list(t.backs[seat]) if flip else []))
        self.plan.sort(key=lambda item: -weight[item[0]])
        self.faces = faces

    def deal(self, rng: random.Random) -> tuple[list[list[int]], list[int], list[int]]:
        """Card ids for every hand, the draw pile (top last) and the discard pile (bottom
        first)."""
        pool = list(self.pool)
        shuffle(pool, rng)
        faces = self.faces
        flip = self.flip
        other = self.back
        taken: set[int] = set()

        rnd = rng.random

        def take(allowed: Accept | None, back: CardFace | None) -> int | None:
            for card in pool:
                if card in taken:
                    continue
                if allowed is not None:
                    chance = allowed[card]
                    if chance < 1.0 and (chance <= 0.0 or rnd() >= chance):
                        continue
                if back is not None and other[card] != back:
                    continue
                taken.add(card)
                return card
            return None

        def add(hand: list[int], allowed: Accept | None, needs: list[CardFace]) -> None:
            """One more card for ``hand``: by ``allowed`` and the next back it ``needs``,
            else by the back only, else any card left."""
            back = needs[0] if flip and needs else None
            got = take(allowed, back)
            if got is None and allowed is not None:
                got = take(None, back)
            if got is None:
                got = take(None, None)
            if got is None:
                raise ValueError("not enough unseen cards")
            hand.append(got)
            if flip and other[got] in needs:
                needs.remove(other[got])

        reserved = take(None, self.draw_back) if self.draw_back is not None else None
        hands: list[list[int]] = [[] for _ in range(self.seats)]
        hands[self.me] = list(self.mine)
        for seat, known, slots, backs in self.plan:
            needs = list(backs)
            hand = hands[seat]
            for face in known:
                for card in pool:
                    if card not in taken and faces[card] == face:
                        if flip and other[card] not in needs:
                            continue
                        taken.add(card)
                        hand.append(card)
                        if flip:
                            needs.remove(other[card])
                        break
            for allowed in slots:
                if len(hand) >= len(slots) + len(known):
                    break
                add(hand, allowed, needs)
            while len(hand) < len(slots) + len(known):  # a known face was not found
                add(hand, None, needs)
        pile = [c for c in pool if c not in taken]
        if reserved is not None:
            pile.append(reserved)
        return hands, pile, list(self.discard)


#: For each card id, the chance it is accepted in a slot (its weight over the largest).
Accept = list[float]


def _slots(
    rules: list[tuple[Void, int]], count: int, pool: list[int], faces: Sequence[CardFace]
) -> list[Accept | None]:
    """Per slot of a hand (the voids covering the most cards first), the chance each card of
    ``pool`` is accepted there: the product of the weights of the voids that cover the slot,
    over the largest such product in the pool (None where nothing is known)."""
    if not rules:
        return [None] * count
    slots: list[Accept | None] = []
    cache: dict[int, Accept | None] = {}
    size = max(pool, default=-1) + 1
    for slot in range(count):
        picked = [
            i
            for i, (void, covered) in enumerate(rules)
            if (slot >= count - covered if void.covers else slot < covered)
        ]
        key = sum(1 << i for i in picked)
        if key not in cache:
            active = [rules[i][0] for i in picked]
            chances = [1.0] * size
            for card in pool:
                w = 1.0
                for void in active:
                    w *= void.weight(faces[card])
                chances[card] = w
            top = max((chances[c] for c in pool), default=0.0)
            if top <= 0.0 or all(chances[c] == top for c in pool):
                cache[key] = None
            else:
                cache[key] = [w / top for w in chances]
        slots.append(cache[key])
    return slots


def deal(
    view: PlayerView, belief: Belief | None, rng: random.Random
) -> tuple[list[list[int]], list[int], list[int]]:
    """One deal consistent with ``view`` and ``belief`` (see :class:`Dealer`)."""
    return Dealer(view, belief).deal(rng)


def shuffle(items: list[int], rng: random.Random) -> None:
    """Fisher-Yates on ``Random.random()`` only (stable across Python versions)."""
    rnd = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]
