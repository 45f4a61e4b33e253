"""A fast heads-up simulator for ``hard``'s rollouts (classic cards, plain rules only).

The engine is exact but general; a rollout only needs "who goes out first" under the
``normal`` policy, thousands of times a decision. This module plays the same game on small
integers: a card is ``colour * 16 + kind`` (colours 0-3 in :data:`~players._table.COLOURS`
order, 4 for wilds; kinds 0-9 numbers, then Skip, Reverse, Draw Two, Wild, Wild Draw Four).
A Reverse heads-up is a Skip (R-ACT-3); Draw Two and Wild Draw Four also give the player
another turn (the victim draws and is skipped, R-ACT-1/5).

It applies only where those semantics are the engine's (:func:`supports`): two seats in the
hand, no stacking, no jump-in, no Swap Hands, no UNO Flip, no teams, no ``no_action_finish``.
Everyone calls UNO; a Wild Draw Four is challenged as ``normal`` reasons (on the counts the
victim sees), and judged on the offender's actual hand. The policy is ``normal``'s play scoring
(:func:`players.normal._best_play`) on these integers: colour control, holding wilds, extra
turns from action cards, dumping points and attacking an opponent at one card; a wild names
the colour held most afterwards (ties: more points, then the first colour).
"""

from __future__ import annotations

import random

from engine import CardFace, Kind, Rules
from engine.cards import CLASSIC_POINTS

from ._table import COLOURS, prob_holds_any
from .determinize import shuffle
from .normal import BLUFF_PRIOR, CHALLENGE_AT, NAMED_SAME_RATIO

SKIP, REVERSE, DRAW_TWO, WILD, WILD_FOUR = 10, 11, 12, 13, 14
_KIND_CODE = {Kind.SKIP: SKIP, Kind.REVERSE: REVERSE, Kind.DRAW_TWO: DRAW_TWO}
_COLOUR_CODE = {colour: i for i, colour in enumerate(COLOURS)}
#: Cards of one colour, and in all, in the classic deck.
COLOUR_CARDS = 25
DECK_CARDS = 108
#: Points of a kind code (R-DECK-2).
POINTS = tuple(list(range(10)) + [CLASSIC_POINTS[Kind.SKIP]] * 3 + [50, 50])


def supports(rules: Rules, playing: tuple[bool, ...]) -> bool:
    """Whether a hand under ``rules`` with these seats in play can be simulated here."""
    return (
        sum(playing) == 2
        and len(playing) == 2
        and not rules.flip
        and not rules.modern_deck
        and not rules.two_decks
        and not rules.jump_in
        and rules.stacking.value == "off"
        and not rules.teams
        and not rules.no_action_finish
        and not rules.draw_until_playable
    )


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


def choose_play(hand: list[int], colour: int, top: int, other: int) -> tuple[int, int]:
    """``normal``'s play for ``hand`` heads-up: (index in hand, colour named) or (-1, 0)."""
    held = [0, 0, 0, 0, 0]
    for card in hand:
        held[card >> 4] += 1
    danger = other <= 1
    best = -1
    best_score = -1e9
    wild_done = 0
    for i, card in enumerate(hand):
        c = card >> 4
        k = card & 15
        if c == 4:
            if k == WILD_FOUR and held[colour]:
                continue  # never a bluff
            if wild_done & (1 << k):
                continue
            wild_done |= 1 << k
            score = -8.0 if k == WILD else (-6.0 + (2.0 if other <= 2 else 0.5))
            score += max(held[0], held[1], held[2], held[3])
            if danger:
                score += 7.5 + (5.0 if k == WILD_FOUR else 0.0)
            else:
                score += 0.5
        elif c == colour or k == top:
            follow = held[c] - 1
            score = float(follow)
            if k < 10:
                score += 0.02 * k
                score += 0.15 * k if danger else 0.01 * k
            else:
                score += 2.5 if follow > 0 else 0.5
                if k == DRAW_TWO:
                    score += 1.5
                score += 8.0 if danger else 0.2
        else:
            continue
        if score > best_score:
            best, best_score = i, score
    if best < 0:
        return -1, 0
    card = hand[best]
    if card >> 4 == 4:
        rest = hand[:best] + hand[best + 1 :]
        return best, best_colour(rest)
    return best, card >> 4


class Sim:
    """One heads-up hand in progress (mutable; ``me`` is seat 0 of ``hands``)."""

    __slots__ = ("card", "colour", "current", "discard", "hands", "pile", "rng", "seen", "top")

    def __init__(
        self,
        hands: list[list[int]],
        pile: list[int],
        discard: list[int],
        colour: int,
        card: int,
        current: int,
        rng: random.Random,
        seen: list[int] | None = None,
    ) -> None:
        self.hands = hands
        self.pile = pile  # top of the pile last
        self.discard = discard  # under the top card, for reshuffles
        self.colour = colour
        self.card = card  # the top card of the discard pile
        self.top = card & 15  # its kind, for matching
        self.current = current
        self.rng = rng
        if seen is None:  # cards per colour in the discard pile, top included (challenges)
            seen = [0, 0, 0, 0, 0]
            for c in (*discard, card):
                seen[c >> 4] += 1
        self.seen = seen

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
                shuffle(pile, self.rng)
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
        self.top = k
        if not hand:
            self.current = seat
            return True
        other = 1 - seat
        if k < 10 or k == WILD:
            self.current = other
        elif k == DRAW_TWO:
            self.draw(other, 2)
            self.current = seat
        elif k == WILD_FOUR:
            self.wild_four(seat, prior)
        else:  # Skip, or Reverse heads-up
            self.current = seat
        return False

    def wild_four(self, seat: int, prior: int) -> None:
        """The victim answers a Wild Draw Four as ``normal`` does (R-CHAL): it challenges when
        :func:`players.normal.challenge_probability` (on these counts) reaches the bar."""
        victim = 1 - seat
        hand = self.hands[seat]
        theirs = self.hands[victim]
        held = len(hand)
        mine = sum(1 for c in theirs if c >> 4 == prior)
        matching = COLOUR_CARDS - mine - self.seen[prior]
        total = DECK_CARDS - len(theirs) - len(self.discard) - 1
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
        self.current = seat

    def playable(self, card: int) -> bool:
        return card >> 4 == 4 or card >> 4 == self.colour or card & 15 == self.top

    def turn(self) -> bool:
        """The current seat plays its turn with the policy; True if it went out."""
        seat = self.current
        hand = self.hands[seat]
        other = len(self.hands[1 - seat])
        index, colour = choose_play(hand, self.colour, self.top, other)
        if index >= 0:
            return self.play(seat, index, colour)
        return self.draw_turn(seat)

    def draw_turn(self, seat: int) -> bool:
        """Draw one card and play it if it can (a Wild Draw Four only honestly)."""
        card = self.draw(seat, 1)
        if card >= 0 and self.playable(card):
            hand = self.hands[seat]
            honest = card & 15 != WILD_FOUR or not any(c >> 4 == self.colour for c in hand)
            if honest:
                index = len(hand) - 1
                colour = best_colour(hand[:-1]) if card >> 4 == 4 else card >> 4
                return self.play(seat, index, colour)
        self.current = 1 - seat
        return False

    def run(self, cap: int) -> tuple[int, int]:
        """Play on for at most ``cap`` turns: (winner or -1, turns played)."""
        for turns in range(cap):
            if self.turn():
                return self.current, turns + 1
        return -1, cap
