"""What each card does: played (R-ACT, R-DECK-4/5, R-FLIP) or turned up at the start
(R-SETUP-5). One function per kind; :data:`EFFECTS` and :data:`START_EFFECTS` dispatch to
them.

:func:`play_card` does what every play does (the card goes from the hand to the discard pile,
the colour, the UNO window, going out), then the card's effect, then ends the hand if the
player went out (R-END-1). An alternative rule that changes what a card does is named in
that card's effect and lives in its own module: a 0 or a 7 as a spell
(:mod:`engine.spells`, R-ALT-2/3), the Skip's variants (:mod:`engine.skips`, R-ALT-4), a
blank card's effect (:mod:`engine.blanks`, R-ALT-6).

Each effect gets the draft of the next state (after the card left the hand), the events so
far, the seat that played, the play, and the state *before* it (``prior``: the colour in
play and the penalty the card may have answered).
"""

from __future__ import annotations

from collections.abc import Callable

from . import blanks, skips, spells
from .actions import Play
from .cards import CardFace, Kind
from .events import (
    CardPlayed,
    DirectionReversed,
    DrawCause,
    Event,
    HandsSwapped,
    Termination,
    TurnSkipped,
)
from .hand import ANSWERING, Hand, Phase, hand_complete
from .rules import SkipVariant, Stacking, UnoPenalty
from .step import close_uno_window, draw, finish, flip, go_out, replaced, skip, take

Effect = Callable[[Hand, list[Event], int, Play, Hand], None]
StartEffect = Callable[[Hand, list[Event], int], None]


def play_card(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """``seat`` plays ``play``: on its turn, or out of turn as a jump-in (R-ACT-7), whose card
    takes its full effect and from which play goes on."""
    face = play.face
    window = draft.uno_seat
    if window is not None and window != seat and draft.rules.uno_penalty is UnoPenalty.AUTOMATIC:
        # Only an automatic penalty makes closing the window do more than what is set
        # below anyway (a new window, for this seat).
        close_uno_window(draft, ev, seat)
    card = _take_played(draft, seat, face)
    draft.discard += (card,)
    draft.colour = play.colour if face.colour is None else face.colour
    ev.append(CardPlayed(seat, card, face, play.colour, seat != prior.current))
    draft.phase = Phase.PLAY
    draft.pending = 0
    draft.offender = draft.prior_colour = draft.drawn = None
    draft.evidence = ()
    draft.dry_draws = 0
    draft.current = seat
    draft.uno_seat = seat  # R-UNO-1: whatever they hold now
    draft.uno_called = False
    if not draft.hands[seat]:
        go_out(draft, ev, seat)
    if not hand_complete(draft):
        EFFECTS[face.kind](draft, ev, seat, play, prior)
        return
    # R-END-1: the player went out and the hand ends. A last draw card still hits the next
    # player, a last wild draw card may still be challenged (or taken) first, a last Flip
    # still turns the cards over; any other card does nothing more.
    if face.kind in LAST_CARD_EFFECTS:
        EFFECTS[face.kind](draft, ev, seat, play, prior)
    if draft.phase is not Phase.CHALLENGE:
        finish(draft, ev, Termination.WENT_OUT)


def _take_played(draft: Hand, seat: int, face: CardFace) -> int:
    """Take the card played out of the hand: the card just drawn (R-TURN-5), else the lowest
    id showing ``face``."""
    card = draft.drawn
    if card is None:
        return take(draft, seat, face)
    hand = draft.hands[seat]
    i = hand.index(card)
    draft.hands = replaced(draft.hands, seat, hand[:i] + hand[i + 1 :])
    return card


# -- the effects, by kind ----------------------------------------------------------------------


def number(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """The turn passes on; under R-ALT-2/3 a 0 or a 7 may be a spell."""
    draft.current = draft.next_seat(seat)
    if draft.alt is not None:
        spells.number_played(draft, ev, seat, play.face)


def skip_card(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """R-ACT-2: the next player loses the turn (heads-up the player plays again, R-TEAM-1);
    under R-ALT-4 the Skip does something else."""
    if draft.alt is not None and draft.rules.skip_variant is not SkipVariant.OFF:
        skips.skip_played(draft, ev, seat)
    else:
        skip(draft, ev, draft.next_seat(seat))


def reverse(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """R-ACT-3: play changes direction; with two players in the hand it is a Skip."""
    if sum(draft.playing) + (not draft.hands[seat]) == 2:  # heads-up when it was played
        skip(draft, ev, draft.next_seat(seat))
        return
    draft.clockwise = not draft.clockwise
    ev.append(DirectionReversed(draft.clockwise))
    draft.current = draft.next_seat(seat)


def draw_two(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """R-ACT-1: the next player draws two and loses the turn. R-ACT-6: with stacking they may
    answer it first (``cumulative``: the totals add up); a last Draw Two is drawn at once."""
    victim = draft.next_seat(seat)
    stacking = draft.rules.stacking
    total = 2 + _stacked(prior) if stacking is Stacking.CUMULATIVE else 2
    if stacking is not Stacking.OFF and not hand_complete(draft):
        draft.phase = Phase.PENALTY
        draft.pending = total
        draft.current = victim
    else:
        draw(draft, ev, victim, total, DrawCause.PENALTY)
        skip(draft, ev, victim)


def wild(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """A Wild names the colour (in the play); the turn passes on."""
    draft.current = draft.next_seat(seat)


def wild_draw_four(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """R-ACT-5, R-CHAL-1: the next player takes four, or challenges (or, stacking, answers)."""
    stacked = _stacked(prior) if draft.rules.stacking is Stacking.CUMULATIVE else 0
    _await_challenge(draft, seat, 4 + stacked, prior)


def swap_hands(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """R-DECK-4: swap hands with the opponent named; one who went out with it (and plays to
    the last, R-END-3) swaps nothing."""
    if draft.hands[seat]:
        assert play.target is not None
        target = play.target
        hands = list(draft.hands)
        hands[seat], hands[target] = hands[target], hands[seat]
        draft.hands = tuple(hands)
        ev.append(HandsSwapped(seat, target))
    draft.current = draft.next_seat(seat)


def blank(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """R-DECK-5: a Wild; then the table's ``blank_effect`` (R-ALT-6)."""
    draft.current = draft.next_seat(seat)
    if draft.alt is not None:
        blanks.blank_played(draft, ev, seat)


def draw_cards(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """UNO Flip's Draw One and Draw Five (R-FLIP-3, R-FLIP-5): the next player draws and loses
    the turn."""
    victim = draft.next_seat(seat)
    draw(draft, ev, victim, play.face.kind.draw_amount, DrawCause.PENALTY)
    skip(draft, ev, victim)


def wild_draw_flip(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """UNO Flip's Wild Draw Two and Wild Draw Colour (R-FLIP-3, R-FLIP-5): like a Wild Draw
    Four, challenged or taken; a Wild Draw Colour draws until its colour (at least one)."""
    _await_challenge(draft, seat, play.face.kind.draw_amount or 1, prior)


def skip_everyone(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """R-FLIP-5: every other seat loses its turn and the player plays again (with
    ``play_to_last``, one who went out with it hands the turn to the first seat after)."""
    first = victim = draft.next_seat(seat)
    while True:
        ev.append(TurnSkipped(victim))
        victim = draft.next_seat(victim)
        if victim in (seat, first):
            break
    draft.current = seat if draft.playing[seat] else first


def flip_card(draft: Hand, ev: list[Event], seat: int, play: Play, prior: Hand) -> None:
    """R-FLIP-4: everything turns over (after a last card, the hand is scored on the new
    side)."""
    draft.current = draft.next_seat(seat)
    flip(draft, ev)


def _stacked(prior: Hand) -> int:
    """The penalty a draw card answered (R-ACT-6), else 0."""
    return prior.pending if prior.phase in ANSWERING else 0


def _await_challenge(draft: Hand, seat: int, pending: int, prior: Hand) -> None:
    """The next player may challenge the wild draw card ``seat`` just played (R-CHAL-1): the
    hand cannot end before (R-END-1). The evidence is the hand as it is now (R-CHAL-2)."""
    draft.phase = Phase.CHALLENGE
    draft.pending = pending
    draft.offender = seat
    draft.prior_colour = prior.colour
    draft.evidence = draft.hands[seat]
    draft.current = draft.next_seat(seat)


#: The kinds whose effect still takes place when the card ends the hand (R-END-1).
LAST_CARD_EFFECTS = frozenset(
    {
        Kind.DRAW_TWO,
        Kind.WILD_DRAW_FOUR,
        Kind.DRAW_ONE,
        Kind.DRAW_FIVE,
        Kind.WILD_DRAW_TWO,
        Kind.WILD_DRAW_COLOUR,
        Kind.FLIP,
    }
)

#: What each kind does when played.
EFFECTS: dict[Kind, Effect] = {
    Kind.NUMBER: number,
    Kind.SKIP: skip_card,
    Kind.REVERSE: reverse,
    Kind.DRAW_TWO: draw_two,
    Kind.WILD: wild,
    Kind.WILD_DRAW_FOUR: wild_draw_four,
    Kind.SWAP_HANDS: swap_hands,
    Kind.BLANK: blank,
    Kind.DRAW_ONE: draw_cards,
    Kind.DRAW_FIVE: draw_cards,
    Kind.WILD_DRAW_TWO: wild_draw_flip,
    Kind.WILD_DRAW_COLOUR: wild_draw_flip,
    Kind.SKIP_EVERYONE: skip_everyone,
    Kind.FLIP: flip_card,
}


# -- the start card (R-SETUP-5) ------------------------------------------------------------------


def start_wild(draft: Hand, ev: list[Event], first: int) -> None:
    """A Wild (a Swap Hands, which swaps nothing here; a blank card): the first player names
    the colour."""
    draft.phase = Phase.CHOOSE_COLOUR


def start_reverse(draft: Hand, ev: list[Event], first: int) -> None:
    """The dealer plays first, the other way round."""
    draft.clockwise = not draft.clockwise
    draft.current = draft.dealer


def start_skip(draft: Hand, ev: list[Event], first: int) -> None:
    """The first player loses the turn (R-ALT-4 changes that)."""
    if draft.alt is not None and draft.rules.skip_variant is not SkipVariant.OFF:
        skips.start_skip(draft, ev, first)
    else:
        skip(draft, ev, first)


def start_draw(draft: Hand, ev: list[Event], first: int) -> None:
    """A Draw Two (Flip: Draw One) is drawn at once, stacking or not; the first player loses
    the turn."""
    draw(draft, ev, first, draft.top.kind.draw_amount, DrawCause.PENALTY)
    skip(draft, ev, first)


def start_flip(draft: Hand, ev: list[Event], first: int) -> None:
    """R-FLIP-4 as if the dealer played it: play starts on the dark side, on this card's dark
    face, which has no effect (it was not played); a wild one is named by the first player."""
    flip(draft, ev)


#: What each kind does when turned up as the start card; the others do nothing. (A Wild
#: Draw Four or Wild Draw Two goes back and another card is turned: see engine.game.)
START_EFFECTS: dict[Kind, StartEffect] = {
    Kind.WILD: start_wild,
    Kind.SWAP_HANDS: start_wild,
    Kind.BLANK: start_wild,
    Kind.REVERSE: start_reverse,
    Kind.SKIP: start_skip,
    Kind.DRAW_TWO: start_draw,
    Kind.DRAW_ONE: start_draw,
    Kind.FLIP: start_flip,
}
