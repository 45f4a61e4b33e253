"""A fast simulator for ``hard``'s rollouts: classic cards on small integers, any table size.

The engine is exact but general; a rollout only needs "who goes out first" under the
``normal`` policy, thousands of times a decision. This module plays the same game on small
integers: a card is ``colour * 16 + kind`` (colours 0-3 in :data:`~players._table.COLOURS`
order, 4 for wilds; kinds 0-9 numbers, then Skip, Reverse, Draw Two, Wild, Wild Draw Four).

Whether a card may be played is the engine's one rule, :func:`engine.cards.matches`: the
table :data:`_MATCH` is built by calling it on the faces of every (card, top card, colour).

Semantics are the engine's for the rules :func:`supports` accepts — the single classic deck
at any table size, with or without ``draw_until_playable`` and an automatic UNO penalty
(everyone calls UNO here). :func:`supports` decides by an allow-list: every option of
:class:`engine.Rules` is either in :data:`ANY_VALUE` (it does not change a hand in progress as
played here) or in :data:`ONLY` with the values modelled; anything else — stacking, jump-in,
Swap Hands, UNO Flip, teams, ``draw_only_if_stuck``, a retracted Wild Draw Four,
``no_action_finish``, ``play_to_last``, every alternative rule of RULES.md §13, blank cards,
and any option added later — is rolled out on the engine by ``hard``:

- a number or a Wild passes the turn on; a Skip skips the next seat; a Reverse turns play
  round (heads-up it is a Skip, R-ACT-3); a Draw Two makes the next seat draw two and skips
  it (R-ACT-1);
- a Wild Draw Four is answered as ``normal`` reasons (R-CHAL): challenged when
  :func:`players.normal.challenge_probability` on the counts the victim sees reaches the bar,
  judged on the offender's actual hand (guilty: it draws 4 and the challenger plays; innocent:
  the challenger draws 6 and is skipped); otherwise the victim draws 4 and is skipped;
- a turn without a play draws one card (or until one is playable) and plays it if it can
  (a Wild Draw Four only honestly);
- the discard pile beneath the top card is reshuffled into an empty draw pile (R-TURN-6).

The policy is ``normal``'s play scoring (:func:`players.normal._best_play`) on these
integers: colour control, holding wilds, action cards, dumping points and attacking a player
at one card; a wild names the colour held most afterwards (ties: more points, then the first).
"""

from __future__ import annotations

import dataclasses
import random

from engine import CardFace, Kind, Rules
from engine.cards import CLASSIC_POINTS, matches
from engine.rules import (
    BlankEffect,
    ChallengeGuilty,
    SkipVariant,
    Stacking,
    TimeLimitWinner,
    ZeroSpell,
)

from ._table import COLOURS, prob_holds_any
from .belief import shuffle
from .normal import BLUFF_PRIOR, CHALLENGE_AT, DRAW_UNLESS_AT, KEEP_WILDS_ABOVE, NAMED_SAME_RATIO

SKIP, REVERSE, DRAW_TWO, WILD, WILD_FOUR = 10, 11, 12, 13, 14
_KIND_CODE = {Kind.SKIP: SKIP, Kind.REVERSE: REVERSE, Kind.DRAW_TWO: DRAW_TWO}
_CODE_KIND = {SKIP: Kind.SKIP, REVERSE: Kind.REVERSE, DRAW_TWO: Kind.DRAW_TWO}
_COLOUR_CODE = {colour: i for i, colour in enumerate(COLOURS)}
#: Cards of one colour, and in all, in the classic deck.
COLOUR_CARDS = 25
DECK_CARDS = 108
#: Points of a kind code (R-DECK-2).
POINTS = tuple(list(range(10)) + [CLASSIC_POINTS[Kind.SKIP]] * 3 + [50, 50])
CODES = 80


#: The options of :class:`engine.Rules` that change nothing in a hand in progress as the
#: simulator plays it, whatever their value: the setup before the first turn (the dealer,
#: the first direction, the table size, the hand size), what a challenge shows, what the match
#: counts and how long it lasts in hands or points, the turn clock, and the UNO-call penalties
#: (everyone calls UNO here, as ``normal`` does; nobody makes a false call or catch).
ANY_VALUE: frozenset[str] = frozenset(
    {
        "random_dealer",  # R-SETUP-2
        "clockwise",  # R-SETUP-4: the hand's direction is the state's, passed to Sim
        "players",  # R-SETUP-1: the seats in play are checked apart
        "hand_size",  # R-SETUP-3
        "draw_until_playable",  # R-TURN-5: modelled (Sim.until_playable)
        "challenge_reveal",  # R-CHAL-2: who sees the hand, not what happens
        "uno_penalty",  # R-UNO-3: everyone calls UNO
        "false_call_penalty",  # R-UNO-6: nobody calls or catches falsely
        "scoring",  # R-SCORE: the match, not the hand
        "target",
        "hands",
        "victory_points",
        "turn_seconds",  # R-TIME: the clock, not the hand
        "after_timeouts",
        "max_players",  # R-ALT-8: a seat limit; more than 10 seats need two_decks (below)
    }
)

#: The options the simulator models only at these values; any other value is rolled out on
#: the engine. Every field of :class:`engine.Rules` is in this or :data:`ANY_VALUE` (a test
#: checks it), so a new option falls back to the engine until someone decides otherwise.
ONLY: dict[str, tuple[object, ...]] = {
    "two_decks": (False,),  # R-DECK-3: the single 108-card deck
    "modern_deck": (False,),  # R-DECK-4: no Swap Hands
    "draw_only_if_stuck": (False,),  # R-TURN-4: the policy may draw holding a wild
    "stacking": (Stacking.OFF,),  # R-ACT-6
    "jump_in": (False,),  # R-ACT-7
    "challenge_guilty": (ChallengeGuilty.DRAW,),  # R-CHAL-3: no retracted card
    "no_action_finish": (False,),  # R-END-2
    "play_to_last": (False,),  # R-END-3
    "teams": (0,),  # R-TEAM
    "flip": (False,),  # R-FLIP
    "flip_score_light": (False,),
    "time_limit": (0,),  # R-ALT-1: a hand may end at once on the clock, by the counts
    "time_limit_winner": (TimeLimitWinner.FEWEST_CARDS,),
    "zero_spell": (ZeroSpell.OFF,),  # R-ALT-2
    "seven_swap": (False,),  # R-ALT-3
    "skip_variant": (SkipVariant.OFF,),  # R-ALT-4
    "partner_gift": (False,),  # R-ALT-5
    "blank_cards": (0,),  # R-DECK-5
    "blank_effect": (BlankEffect.WILD,),  # R-ALT-6
}


def supports(rules: Rules, playing: tuple[bool, ...]) -> bool:
    """Whether a hand under ``rules`` with these seats in play can be simulated here: every
    seat still in the hand (at least two), and every option either in :data:`ANY_VALUE` or
    at a value :data:`ONLY` lists. An option in neither (a new one) is not supported."""
    if sum(playing) < 2 or not all(playing):
        return False
    for f in _FIELDS:
        name = f.name
        if name in ANY_VALUE:
            continue
        allowed = ONLY.get(name)
        if allowed is None or getattr(rules, name) not in allowed:
            return False
    return True


_FIELDS = dataclasses.fields(Rules)


def code(face: CardFace) -> int:
    """The integer of a classic face."""
    kind = face.kind
    if kind is Kind.WILD:
        return 4 * 16 + WILD
    if kind is Kind.WILD_DRAW_FOUR:
        return 4 * 16 + WILD_FOUR
    colour = _COLOUR_CODE[face.colour]  # type: ignore[index]
    if kind is Kind.NUMBER:
        return colour * 16 + (face.number or 0)
    return colour * 16 + _KIND_CODE[kind]


def face_of(card: int) -> CardFace | None:
    """The classic face of a code, or ``None`` for a code no card has."""
    c, k = card >> 4, card & 15
    if c == 4:
        if k == WILD:
            return CardFace.of(None, Kind.WILD)
        if k == WILD_FOUR:
            return CardFace.of(None, Kind.WILD_DRAW_FOUR)
        return None
    if k > DRAW_TWO or c > 4:
        return None
    if k < 10:
        return CardFace.of(COLOURS[c], Kind.NUMBER, k)
    return CardFace.of(COLOURS[c], _CODE_KIND[k])


def _match_table() -> bytes:
    """``_MATCH[card * 320 + top * 4 + colour]``: :func:`engine.cards.matches` on the faces."""
    faces = [face_of(c) for c in range(CODES)]
    table = bytearray(CODES * CODES * 4)
    for card, face in enumerate(faces):
        if face is None:
            continue
        for top, top_face in enumerate(faces):
            if top_face is None:
                continue
            for colour in range(4):
                if matches(face, top_face, COLOURS[colour]):
                    table[card * 320 + top * 4 + colour] = 1
    return bytes(table)


_MATCH = _match_table()


def playable(card: int, top: int, colour: int) -> bool:
    """R-TURN-1/2 (:func:`engine.cards.matches`) on codes."""
    return _MATCH[card * 320 + top * 4 + colour] == 1


def best_colour(hand: list[int]) -> int:
    """The colour held most in ``hand`` (ties: more points, then the first colour)."""
    held = [0, 0, 0, 0, 0]
    points = [0, 0, 0, 0, 0]
    for card in hand:
        c = card >> 4
        held[c] += 1
        points[c] += POINTS[card & 15]
    best = 0
    for c in (1, 2, 3):
        if held[c] > held[best] or (held[c] == held[best] and points[c] > points[best]):
            best = c
    return best


def _wild_score(kind: int, held: list[int], other: int, danger: bool) -> float:
    """``normal``'s score for a wild of ``kind`` (``held``: cards per colour code)."""
    score = float(max(held[:4])) - (8.0 if kind == WILD else 6.0)
    if kind == WILD_FOUR:
        score += 2.0 if other <= 2 else 0.5
    if not danger:
        return score + 0.5
    score += 7.5
    if other <= 1 and kind == WILD_FOUR:
        score += 5.0
    return score


def _coloured_score(
    kind: int, follow: int, other: int, prev: int, danger: bool, heads_up: bool
) -> float:
    """``normal``'s score for a coloured card of ``kind`` with ``follow`` cards of its colour
    left: colour control, points to dump, and an action card's attack."""
    score = float(follow)
    if kind < 10:
        return score + 0.02 * kind + (0.15 * kind if danger else 0.01 * kind)
    if heads_up:
        attack = 2.5 if follow > 0 else 0.5
        if kind == DRAW_TWO:
            attack += 1.5
    else:
        attack = 1.0 if kind == DRAW_TWO else 0.5 if kind == SKIP else 0.0
        if other <= 2 and (kind != REVERSE or prev > 2):
            attack += 3.0
    score += attack
    if not danger:
        return score + 0.2
    return score + (8.0 if other <= 1 else 3.0)


def choose_play(
    hand: list[int],
    colour: int,
    top: int,
    other: int,
    *,
    heads_up: bool = True,
    prev: int = 99,
    danger: bool | None = None,
    least: int | None = None,
) -> tuple[int, int]:
    """``normal``'s play for ``hand`` on ``top`` (a card code) with ``colour`` in play:
    (index in hand, colour named) or (-1, 0). ``other`` is the next seat's card count,
    ``prev`` the previous seat's, ``danger`` whether any opponent holds one card, ``least``
    the fewest cards an opponent holds (default ``other``). Like ``normal``, with only wilds
    to play it draws instead while it holds more than ``KEEP_WILDS_ABOVE`` cards and no
    opponent is down to ``DRAW_UNLESS_AT``."""
    held = [0, 0, 0, 0, 0]
    for card in hand:
        held[card >> 4] += 1
    if danger is None:
        danger = other <= 1
    base = top * 4 + colour
    best = -1
    best_score = -1e9
    wild_done = 0
    coloured = False
    for i, card in enumerate(hand):
        if not _MATCH[card * 320 + base]:
            continue
        c = card >> 4
        k = card & 15
        if c != 4:
            coloured = True
        if c == 4:
            if k == WILD_FOUR and held[colour]:
                continue  # never a bluff
            if wild_done & (1 << k):
                continue
            wild_done |= 1 << k
            score = _wild_score(k, held, other, danger)
        else:
            score = _coloured_score(k, held[c] - 1, other, prev, danger, heads_up)
        if score > best_score:
            best, best_score = i, score
    if best < 0:
        return -1, 0
    card = hand[best]
    if (
        not coloured
        and len(hand) > KEEP_WILDS_ABOVE
        and (other if least is None else least) > DRAW_UNLESS_AT
    ):
        return -1, 0  # keep the wild, draw
    if card >> 4 == 4:
        rest_hand = hand[:best] + hand[best + 1 :]
        return best, best_colour(rest_hand)
    return best, card >> 4


class Sim:
    """One hand in progress (mutable). Seats keep their numbers; all are in the hand."""

    __slots__ = (
        "card",
        "colour",
        "current",
        "discard",
        "hands",
        "n",
        "pile",
        "rng",
        "seed",
        "seen",
        "step",
        "until_playable",
    )

    def __init__(
        self,
        hands: list[list[int]],
        pile: list[int],
        discard: list[int],
        colour: int,
        card: int,
        current: int,
        seed: int,
        seen: list[int] | None = None,
        *,
        clockwise: bool = True,
        until_playable: bool = False,
    ) -> None:
        self.hands = hands
        self.n = len(hands)
        self.pile = pile  # top of the pile last
        self.discard = discard  # under the top card, for reshuffles
        self.colour = colour
        self.card = card  # the top card of the discard pile
        self.current = current
        self.seed = seed  # of the reshuffles (see chance)
        self.rng: random.Random | None = None
        self.step = 1 if clockwise else -1
        self.until_playable = until_playable
        if seen is None:  # cards per colour in the discard pile, top included (challenges)
            seen = [0, 0, 0, 0, 0]
            for c in (*discard, card):
                seen[c >> 4] += 1
        self.seen = seen

    def copy(self, seed: int) -> Sim:
        """An independent copy of this hand in progress, reshuffling by ``seed``."""
        sim = Sim.__new__(Sim)
        sim.hands = [list(h) for h in self.hands]
        sim.n = self.n
        sim.pile = list(self.pile)
        sim.discard = list(self.discard)
        sim.colour = self.colour
        sim.card = self.card
        sim.current = self.current
        sim.seed = seed
        sim.rng = None
        sim.step = self.step
        sim.until_playable = self.until_playable
        sim.seen = list(self.seen)
        return sim

    def chance(self) -> random.Random:
        """The generator of this hand's reshuffles, seeded on first use: most rollouts never
        reshuffle, and seeding a generator costs about as much as a turn."""
        if self.rng is None:
            self.rng = random.Random(self.seed)
        return self.rng

    def next(self, seat: int) -> int:
        return (seat + self.step) % self.n

    def draw(self, seat: int, count: int) -> int:
        """Move up to ``count`` cards to ``seat``; the last card drawn, or -1 if none."""
        pile = self.pile
        hand = self.hands[seat]
        card = -1
        for _ in range(count):
            if not pile:
                if not self.discard:
                    break
                pile.extend(self.discard)
                self.discard = []
                shuffle(pile, self.chance())
                self.seen = [0, 0, 0, 0, 0]
                self.seen[self.card >> 4] = 1
            card = pile.pop()
            hand.append(card)
        return card

    def play(self, seat: int, index: int, colour: int) -> bool:
        """``seat`` plays ``hands[seat][index]`` naming ``colour``; True if it went out."""
        hand = self.hands[seat]
        card = hand.pop(index)
        self.discard.append(self.card)
        self.card = card
        self.seen[card >> 4] += 1
        prior = self.colour
        k = card & 15
        self.colour = colour if card >> 4 == 4 else card >> 4
        if not hand:
            self.current = seat
            return True
        after = self.next(seat)
        if k < 10 or k == WILD:
            self.current = after
        elif k == DRAW_TWO:
            self.draw(after, 2)
            self.current = self.next(after)
        elif k == WILD_FOUR:
            self.wild_four(seat, after, prior)
        elif k == SKIP or self.n == 2:  # a Reverse heads-up is a Skip (R-ACT-3)
            self.current = self.next(after)
        else:
            self.step = -self.step
            self.current = self.next(seat)
        return False

    def wild_four(self, seat: int, victim: int, prior: int) -> None:
        """The victim answers a Wild Draw Four as ``normal`` does (R-CHAL)."""
        hand = self.hands[seat]
        theirs = self.hands[victim]
        held = len(hand)
        mine = 0
        for c in theirs:
            if c >> 4 == prior:
                mine += 1
        matching = COLOUR_CARDS - mine - self.seen[prior]
        others = sum(len(h) for h in self.hands) - len(theirs)
        total = others + len(self.pile)
        chance = prob_holds_any(total, matching, held)
        guilty = BLUFF_PRIOR * chance
        if self.colour == prior:
            guilty *= NAMED_SAME_RATIO
        innocent = 1.0 - chance
        if guilty + innocent > 0.0 and guilty / (guilty + innocent) >= CHALLENGE_AT:
            if any(c >> 4 == prior for c in hand):
                self.draw(seat, 4)
                self.current = victim
                return
            self.draw(victim, 6)
        else:
            self.draw(victim, 4)
        self.current = self.next(victim)

    def turn(self) -> bool:
        """The current seat plays its turn with the policy; True if it went out."""
        seat = self.current
        hand = self.hands[seat]
        hands = self.hands
        n = self.n
        after = self.next(seat)
        if n == 2:
            index, colour = choose_play(hand, self.colour, self.card, len(hands[after]))
        else:
            before = (seat - self.step) % n
            least = 999
            for s in range(n):
                if s != seat and len(hands[s]) < least:
                    least = len(hands[s])
            index, colour = choose_play(
                hand,
                self.colour,
                self.card,
                len(hands[after]),
                heads_up=False,
                prev=len(hands[before]),
                danger=least <= 1,
                least=least,
            )
        if index >= 0:
            return self.play(seat, index, colour)
        return self.draw_turn(seat)

    def draw_turn(self, seat: int) -> bool:
        """Draw one card (or until playable) and play it if it can (a Wild Draw Four only
        honestly)."""
        while True:
            card = self.draw(seat, 1)
            if card < 0:
                self.current = self.next(seat)
                return False
            if _MATCH[card * 320 + self.card * 4 + self.colour]:
                break
            if not self.until_playable:
                self.current = self.next(seat)
                return False
        hand = self.hands[seat]
        colour = self.colour
        if card & 15 == WILD_FOUR:
            for c in hand:
                if c >> 4 == colour:
                    self.current = self.next(seat)
                    return False
        index = len(hand) - 1
        named = best_colour(hand[:-1]) if card >> 4 == 4 else card >> 4
        return self.play(seat, index, named)

    def run(self, cap: int) -> tuple[int, int]:
        """Play on for at most ``cap`` turns: (winner or -1, turns played)."""
        for turns in range(cap):
            if self.turn():
                return self.current, turns + 1
        return -1, cap
