"""Determinization: one full :class:`~engine.GameState` consistent with what a seat can see.

A seat knows its own hand, the faces on the discard pile, every hand's size, the draw pile's
size and the rest of the public table (:class:`~engine.TableView`). Every other card — the
other hands and the draw pile — is one of the *unseen* cards: the deck minus its own hand
minus the discard pile. A determinization deals the unseen cards at random into the other
hands (each gets exactly as many as it holds) and the draw pile, and copies the public table.
The engine can then play on from it; ``hard`` does, many times.

Card ids: identical faces are interchangeable (a play names a face and the engine takes the
lowest id of it), so the discard pile gets arbitrary ids of the right faces.

Built with the public :class:`~engine.GameState` constructor only; the view is never
modified and no engine state is touched.
"""

from __future__ import annotations

import random

from engine import Deck, GameState, Phase, PlayerView

_IDS: dict[tuple[str, int], dict[str, list[int]]] = {}


def _ids(deck: Deck, side: int) -> dict[str, list[int]]:
    """The card ids of every face (by notation) of ``deck`` on ``side``, cached."""
    key = (deck.name, side)
    ids = _IDS.get(key)
    if ids is None:
        ids = {}
        for card, face in enumerate(deck.sides[side]):
            ids.setdefault(face.notation, []).append(card)
        _IDS[key] = ids
    return ids


def shuffle(items: list[int], rng: random.Random) -> None:
    """Fisher-Yates on ``Random.random()`` only (stable across Python versions)."""
    rnd = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]


def determinize(view: PlayerView, rng: random.Random, *, guilty: bool | None = None) -> GameState:
    """A random full state consistent with ``view``.

    ``guilty`` conditions the hand of the player whose Wild Draw Four is under challenge:
    ``True`` gives it at least one card of the previous colour (R-CHAL-2), ``False`` none
    (when the unseen cards allow it), ``None`` leaves it to chance.

    Raises :class:`ValueError` if the view is inconsistent with the deck, or if another seat
    is deciding about a card it just drew (that card is not public).
    """
    t = view.table
    if t.phase is Phase.DRAWN and view.seat != t.current:
        raise ValueError("the card the current seat just drew is not public")
    rules = t.rules
    deck = rules.deck()
    faces = deck.sides[t.side]
    mine = [c for c, _ in view.hand]
    own = set(mine)
    free = {name: [c for c in cards if c not in own] for name, cards in _ids(deck, t.side).items()}
    discard: list[int] = []
    try:
        for face in t.discard:
            discard.append(free[face.notation].pop())
    except (KeyError, IndexError):
        raise ValueError("the discard pile does not fit the deck and the hand") from None
    unknown = [c for cards in free.values() for c in cards]
    counts = t.card_counts
    me = view.seat
    needed = sum(counts[s] for s in range(t.seats) if s != me) + t.draw_size
    if needed != len(unknown) or counts[me] != len(mine):
        raise ValueError("the card counts do not fit the deck")
    shuffle(unknown, rng)
    hands: list[tuple[int, ...]] = [()] * t.seats
    hands[me] = tuple(mine)
    offender = t.offender
    prior = t.prior_colour
    if offender is not None and offender != me and guilty is not None and prior is not None:
        k = counts[offender]
        marked = [c for c in unknown if faces[c].colour is prior]
        others = [c for c in unknown if faces[c].colour is not prior]
        if guilty and marked and k > 0:
            chosen = marked[:1]
            rest = marked[1:] + others
            shuffle(rest, rng)
            chosen += rest[: k - 1]
            unknown = rest[k - 1 :]
        elif not guilty and len(others) >= k:
            chosen = others[:k]
            unknown = marked + others[k:]
            shuffle(unknown, rng)
        else:
            chosen = unknown[:k]
            unknown = unknown[k:]
        hands[offender] = tuple(sorted(chosen))
    position = 0
    for seat in range(t.seats):
        if seat == me or (seat == offender and hands[seat]):
            continue
        k = counts[seat]
        hands[seat] = tuple(sorted(unknown[position : position + k]))
        position += k
    pile = tuple(unknown[position:])
    return GameState(
        rules=rules,
        seats=t.seats,
        seed=int(rng.random() * 2**31),
        shuffles=1,
        dealer=t.dealer,
        draw_pile=pile,
        discard=tuple(discard),
        hands=tuple(hands),
        playing=t.playing,
        out=t.out,
        current=t.current,
        clockwise=t.clockwise,
        colour=t.colour,
        phase=t.phase,
        pending=t.pending,
        offender=offender,
        prior_colour=prior,
        evidence=hands[offender] if offender is not None else (),
        drawn=view.drawn if t.phase is Phase.DRAWN else None,
        uno_seat=t.uno_seat,
        uno_called=t.uno_called,
        dry_draws=0,
        last_drawer=None,
        termination=t.termination,
        ranking=t.ranking,
        version=t.version,
        side=t.side,
        deck=deck,
    )
