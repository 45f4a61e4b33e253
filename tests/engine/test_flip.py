"""UNO Flip (RULES.md §11, R-FLIP-1 … R-FLIP-8) with stacked decks.

The pairing of light and dark faces is fixed (engine.cards.flip_pairs, docs/notation.md);
deals may name a card by either face, so ``"P7"`` is the card whose light face is ``R7``.
Pairs used below (light/dark): R5/O6 R7/P7 R8/T7 R9/O7 RD1/V7 RR/PSE RS/TSE RF/OSE Y2/P8
Y3/T8 Y4/O8 Y6/P9 Y7/T9 YR/TF YF/VF G1/W G3/WC G5/P1 G6/T1 G7/O1 G8/V1 GS/V2 GF/P3 B1/T3
B2/O3 B3/V3 B4/PD5 B6/OD5 B8/P4 B9/T4 BR/V4 BF/T5 W2/PR.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from engine import PRESETS, GameState, Phase, Rules, Termination, new_hand
from engine.auto import auto_action
from engine.cards import (
    ALL_COLOURS,
    CLASSIC_COLOURS,
    DARK_COLOURS,
    CardFace,
    Colour,
    Kind,
    classic_deck,
    flip_deck,
    flip_pairs,
)
from engine.errors import IllegalActionError, Reason, RulesError
from engine.events import (
    CardsDrawn,
    CardsFlipped,
    ChallengeResolved,
    DrawCause,
    Event,
    HandStarted,
    PileReshuffled,
    StartCardReturned,
    TurnSkipped,
    events_for,
)
from engine.game import deal
from engine.match import Match
from engine.serialize import GameRecord, from_dict, replay, to_dict
from engine.simulate import simulate
from engine.validate import Problem, validate

from .scenario import faces, hand, kinds, legal, run

PINK, TEAL, ORANGE, PURPLE = DARK_COLOURS


def flip(
    cards: Sequence[Sequence[str]], start: str, draw: Sequence[str] = (), **options: object
) -> GameState:
    """A stacked UNO Flip deal (preset ``flip``); seat 0 plays first."""
    return hand(cards, start, draw, preset="flip", **options).state


def drawn(events: Sequence[Event]) -> list[tuple[int, int, DrawCause]]:
    return [(e.seat, e.count, e.cause) for e in events if isinstance(e, CardsDrawn)]


def skipped(events: Sequence[Event]) -> list[int]:
    return [e.seat for e in events if isinstance(e, TurnSkipped)]


def restack(state: GameState, top: Sequence[str]) -> GameState:
    """The same state with the draw-pile cards showing ``top`` (side in play) on top, in
    that order (top first); the rest of the pile keeps its order."""
    pile = list(state.draw_pile)
    chosen = []
    for text in top:
        face = CardFace.parse(text)
        card = next(c for c in reversed(pile) if state.face(c) is face)
        pile.remove(card)
        chosen.append(card)
    new = dataclasses.replace(state, draw_pile=(*pile, *reversed(chosen)))
    assert validate(new) is Problem.NONE
    return new


def dark_table(**options: object) -> GameState:
    """Two seats: seat 0 flips with RF on R5; play goes on on the dark side, top O6.

    Seat 0 then holds P8 T8 WC PD5, seat 1 holds O7 V9 OD5 TSE.
    """
    state = flip([["RF", "P8", "T8", "WC", "PD5"], ["O7", "V9", "OD5", "TSE"]], "R5", **options)
    return state.apply(0, "RF").state


# -- R-FLIP-1: the deck ------------------------------------------------------------------


def test_r_flip_1_the_deck_has_112_double_sided_cards() -> None:
    deck = flip_deck()
    assert deck.size == 112
    assert len(deck.sides) == 2
    light = Counter(f.notation for f in deck.sides[0])
    dark = Counter(f.notation for f in deck.sides[1])
    for colour, (d1, flip_kind) in zip("RYGB", [("D1", "F")] * 4, strict=True):
        for n in range(1, 10):
            assert light[f"{colour}{n}"] == 2
        for suffix in (d1, "R", "S", flip_kind):
            assert light[colour + suffix] == 2
        assert light[f"{colour}0"] == 0  # no zeros
    assert light["W"] == 4
    assert light["W2"] == 4
    assert sum(light.values()) == 112
    for colour in "PTOV":
        for n in range(1, 10):
            assert dark[f"{colour}{n}"] == 2
        for suffix in ("D5", "R", "SE", "F"):
            assert dark[colour + suffix] == 2
    assert dark["W"] == 4
    assert dark["WC"] == 4
    assert sum(dark.values()) == 112
    assert deck.colours == (CLASSIC_COLOURS, DARK_COLOURS)


def test_r_flip_1_the_pairing_is_fixed_and_keeps_copies_adjacent() -> None:
    pairs = flip_pairs()
    assert len(pairs) == 56
    assert pairs == flip_pairs()
    assert [f"{a}/{b}" for a, b in pairs[:4]] == ["R1/OR", "R2/VR", "R3/P6", "R4/T6"]
    deck = flip_deck()
    for card in range(deck.size):
        light, dark = pairs[card // 2]
        assert (deck.face(card, 0), deck.face(card, 1)) == (light, dark)
    for side in deck.sides:  # every face's copies are one run of ids, on both sides
        runs = [f for i, f in enumerate(side) if not i or side[i - 1] != f]
        assert len(runs) == len(set(runs))
    # Both copies of a pair show the same faces: a hand's backs name its fronts.
    assert len(set(pairs)) == 56


def test_r_flip_1_notation_round_trips_and_never_collides_with_classic() -> None:
    deck = flip_deck()
    flip_faces = set(deck.sides[0]) | set(deck.sides[1])
    for face in flip_faces:
        assert CardFace.parse(str(face)) is face
        assert CardFace.parse(str(face).lower()) is face
    for side in (0, 1):
        for card in range(deck.size):
            assert deck.parse_card(deck.card_notation(card, side), side) == card
    classic = set(classic_deck(modern_deck=True).sides[0])
    # The dark side shares only the plain Wild with the classic deck; the light side adds
    # Draw One, Flip and Wild Draw Two to classic faces of the same meaning.
    assert set(deck.sides[1]) & classic == {CardFace.parse("W")}
    new_light = {f.kind for f in set(deck.sides[0]) - classic}
    assert new_light == {Kind.DRAW_ONE, Kind.FLIP, Kind.WILD_DRAW_TWO}
    assert set(deck.sides[0]) & set(deck.sides[1]) == {CardFace.parse("W")}
    notations = {f.notation for f in flip_faces | classic}
    assert len(notations) == len(flip_faces | classic)  # one notation, one face
    assert len({c.value for c in ALL_COLOURS} | {"W"}) == 9  # colour letters never clash
    assert [c.value for c in DARK_COLOURS] == ["P", "T", "O", "V"]
    assert Colour.parse("pink") is Colour.PINK
    assert Colour("V") is Colour.PURPLE
    assert list(Colour) == list(CLASSIC_COLOURS)  # iteration keeps the classic colours


def test_r_flip_1_options_and_preset() -> None:
    assert Rules.from_preset("flip").deck() == flip_deck()
    assert Rules.from_preset("flip", two_decks=True).deck().size == 224
    with pytest.raises(RulesError):
        Rules.from_preset("flip", stacking="deflect")  # R-FLIP-6: no stacking
    with pytest.raises(RulesError):
        Rules(flip_score_light=True)
    # Classic snapshots do not mention the Flip options; Flip ones do and round-trip.
    assert "flip" not in Rules().to_dict()
    data = Rules.from_preset("flip", flip_score_light=True).to_dict()
    assert data["flip"] is True
    assert Rules.from_dict(data).flip_score_light


# -- R-FLIP-2: setup ---------------------------------------------------------------------


def test_r_flip_2_play_starts_on_the_light_side() -> None:
    for seed in range(20):
        state = new_hand(Rules.from_preset("flip"), 4, dealer=0, seed=seed).state
        start = state.deck.face(state.discard[0], 0)
        assert state.side == (1 if start.kind is Kind.FLIP else 0)
        assert validate(state) is Problem.NONE
        if state.side == 0:
            assert all(f.colour in (None, *CLASSIC_COLOURS) for f in state.hand_faces(1))
    for seed in range(10):
        match = Match.new(Rules.from_preset("flip"), 4, seed=seed).match
        # Light side unless the start card was a Flip (R-FLIP-4 at the start, see below).
        started = match.hand.deck.face(match.hand.discard[0], 1 - match.hand.side)
        assert match.hand.side == (1 if started.kind is Kind.FLIP else 0)


# -- R-FLIP-3: light actions -------------------------------------------------------------


def test_r_flip_3_draw_one() -> None:
    state = flip([["RD1", "R2"], ["B4", "B5"], ["G8"]], "R9", ["Y7", "Y6"])
    step = state.apply(0, "RD1")
    assert drawn(step.events) == [(1, 1, DrawCause.PENALTY)]
    assert skipped(step.events) == [1]
    assert faces(step.state, 1) == ["Y7", "B4", "B5"]
    assert step.state.current == 2
    # It matches by colour or by another Draw One.
    state = flip([["R1", "BD1", "B2"], ["B4"]], "GD1")
    assert state.current == 1  # the start Draw One hit seat 0
    state = flip([["Y2", "B3", "B5"], ["BD1", "G4"]], "B9").apply(0, "B3").state
    assert legal(state)[1] == ["BD1", "draw"]  # by colour
    state = flip([["Y2", "GD1"], ["BD1", "G4"]], "G9").apply(0, "GD1").state
    assert state.current == 0  # by symbol would be next; seat 1 was hit
    state = flip([["Y2", "GD1"], ["BD1", "G4"], ["R1"]], "G9").apply(0, "GD1").state
    assert state.current == 2
    assert legal(state)[2] == ["draw", "catch@0"]
    state = flip([["RD1", "B2"], ["BD1", "Y5"]], "R9").apply(0, "RD1").state
    assert state.current == 0
    assert legal(state)[1] == ["catch@0"]


def test_r_flip_3_draw_one_turned_at_the_start() -> None:
    step = hand([["R1"], ["R2"], ["R3"]], "GD1", ["Y7"], preset="flip")
    assert kinds(step.events)[-4:] == ["HandStarted", "CardsDrawn", "CardsReceived", "TurnSkipped"]
    assert faces(step.state, 0) == ["R1", "Y7"]
    assert step.state.current == 1


def test_r_flip_3_wild_draw_two_turned_at_the_start_goes_back() -> None:
    step = hand([["R1"], ["R2"]], "W2", ["Y7"], preset="flip")
    assert isinstance(step.events[2], StartCardReturned)
    assert step.events[2].face.notation == "W2"
    assert step.state.top.kind is not Kind.WILD_DRAW_TWO
    assert validate(step.state) is Problem.NONE


def test_r_flip_3_wild_and_wild_draw_two_name_light_colours() -> None:
    state = flip([["W", "W2", "B1"], ["B4"]], "R9")
    assert legal(state)[0] == ["W=R", "W=Y", "W=G", "W=B", "W2=R", "W2=Y", "W2=G", "W2=B", "draw"]
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, "W=P")
    assert info.value.reason is Reason.COLOUR_NOT_ALLOWED


def test_r_flip_3_wild_draw_two_taken() -> None:
    state = flip([["W2", "B1"], ["B4", "G5"], ["Y1"]], "R9", ["Y7", "Y6"]).apply(0, "W2=G").state
    assert state.phase is Phase.CHALLENGE
    assert state.pending == 2
    assert state.colour is Colour.GREEN
    assert legal(state)[1] == ["draw", "challenge", "catch@0"]
    step = state.apply(1, "draw")
    assert drawn(step.events) == [(1, 2, DrawCause.PENALTY)]
    assert step.state.current == 2


def test_r_flip_3_wild_draw_two_challenge_guilty() -> None:
    # Seat 0 still holds R2, a card of the colour before (red): guilty, draws 2 instead.
    state = flip([["W2", "R2"], ["B4", "G5"], ["Y1"]], "R9", ["Y7", "Y6"]).apply(0, "W2=G").state
    step = state.apply(1, "challenge")
    resolved = [e for e in step.events if isinstance(e, ChallengeResolved)]
    assert resolved[0].guilty
    assert drawn(step.events) == [(0, 2, DrawCause.CHALLENGE)]
    assert step.state.current == 1
    assert step.state.phase is Phase.PLAY
    assert sorted(faces(step.state, 1)) == ["B4", "G5"]


def test_r_flip_3_wild_draw_two_challenge_innocent() -> None:
    state = flip([["W2", "B2"], ["B4", "G5"], ["Y1"]], "R9", ["Y7", "Y6", "Y4", "Y3"])
    state = state.apply(0, "W2=G").state
    step = state.apply(1, "challenge")
    assert drawn(step.events) == [(1, 4, DrawCause.CHALLENGE)]  # 2 + 2
    assert skipped(step.events) == [1]
    assert step.state.current == 2


# -- R-FLIP-4: the Flip card -------------------------------------------------------------


def test_r_flip_4_a_flip_turns_everything_over() -> None:
    before = flip([["RF", "P8", "T8", "WC", "PD5"], ["O7", "V9", "OD5", "TSE"]], "R5", ["Y6", "B8"])
    assert faces(before, 0) == ["RF", "Y2", "Y3", "G3", "B4"]
    assert before.public_view().backs[0] == tuple(
        CardFace.parse(t) for t in ("OSE", "P8", "T8", "WC", "PD5")
    )
    assert before.public_view().draw_back == CardFace.parse("P9")  # Y6's dark face
    step = before.apply(0, "RF")
    state = step.state
    assert kinds(step.events) == ["CardPlayed", "CardsFlipped"]
    event = step.events[1]
    assert isinstance(event, CardsFlipped)
    assert event.side == 1
    assert (event.top.notation, event.colour) == ("O6", Colour.ORANGE)
    assert state.side == 1
    assert state.colour is Colour.ORANGE
    assert state.current == 1
    # The discard pile turned over as a whole: R5 (now O6) on top, the Flip beneath.
    assert state.discard == (before.hands[0][0], before.discard[0])
    assert [str(f) for f in state.public_view().discard] == ["OSE", "O6"]
    assert state.draw_pile == before.draw_pile[::-1]  # the draw pile turned over too
    # The same cards (ids, in id order), now showing their dark faces.
    assert state.hands == (before.hands[0][1:], before.hands[1])
    assert faces(state, 0) == ["P8", "T8", "WC", "PD5"]
    assert faces(state, 1) == ["O7", "TSE", "V9", "OD5"]
    backs = state.public_view().backs[1]
    assert backs == tuple(CardFace.parse(t) for t in ("R9", "RS", "Y9", "B6"))
    assert legal(state)[1] == ["O7", "OD5", "draw"]
    assert validate(state) is Problem.NONE
    assert to_dict(from_dict(to_dict(state))) == to_dict(state)
    assert from_dict(to_dict(state)) == state


def test_r_flip_4_flip_matches_by_colour_or_by_flip() -> None:
    assert legal(flip([["BF", "GF", "Y2"], ["B4"]], "R9"))[0] == ["draw"]
    assert legal(flip([["BF", "RF", "Y2"], ["B4"]], "R9"))[0] == ["RF", "draw"]
    state = flip([["BF", "GF", "Y2"], ["YF", "B4"]], "Y9").apply(0, "Y2").state
    assert legal(state)[1] == ["YF", "draw"]
    state = flip([["GF", "B1", "Y2"], ["YF", "B4"]], "Y9").apply(0, "Y2").state
    state = state.apply(1, "YF").state  # to the dark side: Y9 (V9) on top
    assert state.side == 1
    assert state.top.notation == "V9"
    # A Flip on a Flip of another colour: back to the light side.
    state = flip([["YF", "B1", "Y2"], ["GF", "B4"]], "Y9").apply(0, "YF").state
    assert state.side == 1
    assert state.top.notation == "V9"
    assert "VF" not in legal(state)[1]  # seat 1's GF shows P3 now, seat 0's YF was played


def test_r_flip_4_flipping_back_to_the_light_side() -> None:
    # OF (light YS) in seat 1: after seat 0's RF, it flips the table back.
    state = flip([["RF", "B3", "Y2"], ["OF", "V9", "T9"]], "R5")
    dark = state.apply(0, "RF").state
    assert dark.side == 1
    assert legal(dark)[1] == ["OF", "draw"]
    step = dark.apply(1, "OF")
    light = step.state
    flipped = [e for e in step.events if isinstance(e, CardsFlipped)]
    assert light.side == 0
    assert flipped[0].side == 0
    # Turned twice: R5 is at the bottom again, and the top is seat 0's RF (light).
    assert [str(f) for f in light.public_view().discard] == ["YS", "R5", "RF"]
    assert light.top.notation == "RF"
    assert light.colour is Colour.RED
    assert light.draw_pile == state.draw_pile  # twice reversed
    assert faces(light, 0) == ["Y2", "B3"]
    assert light.current == 0
    assert validate(light) is Problem.NONE


def test_r_flip_4_a_flip_played_as_the_last_card() -> None:
    # Seat 0 goes out with RF: the cards turn over, then the hand is scored on the dark side.
    state = flip([["RF"], ["O7", "VSE", "O5"]], "R5")  # VSE is Y1, O5 is a light Wild
    step = state.apply(0, "RF")
    assert kinds(step.events) == ["CardPlayed", "PlayerWentOut", "CardsFlipped", "HandEnded"]
    end = step.state
    assert end.side == 1
    assert end.is_over
    assert end.termination is Termination.WENT_OUT
    outcome = end.outcome()
    assert outcome is not None
    # Seat 1 holds O7 (7), VSE (30), O5 (5): scored on the dark side (a Wild, 40, light).
    assert sorted(faces(end, 1)) == ["O5", "O7", "VSE"]
    assert outcome.points == (0, 42)
    assert validate(end) is Problem.NONE


def test_r_flip_4_a_flip_turned_at_the_start() -> None:
    step = hand([["R1", "R2"], ["R3"]], "YF", ["B7"], preset="flip")  # YF's dark face: VF
    state = step.state
    assert kinds(step.events)[-2:] == ["HandStarted", "CardsFlipped"]
    assert isinstance(step.events[-2], HandStarted)
    assert step.events[-2].start.notation == "YF"
    assert state.side == 1
    assert state.top.notation == "VF"
    assert state.colour is Colour.PURPLE
    assert state.current == 0
    assert faces(state, 0) == ["OR", "VR"]


def test_r_flip_4_a_wild_turned_up_by_a_flip_lets_the_next_player_name_a_colour() -> None:
    # G1's dark face is a Wild: flipping with the start card G1 at the bottom shows it.
    state = flip([["GF", "Y2"], ["P1", "T1"], ["B3"]], "G1")  # P1 is G5, T1 is G6
    step = state.apply(0, "GF")
    assert step.state.phase is Phase.CHOOSE_COLOUR
    assert step.state.colour is None
    assert step.state.current == 1
    assert legal(step.state)[1][:4] == ["colour=P", "colour=T", "colour=O", "colour=V"]
    state = step.state.apply(1, "colour=T").state
    assert state.phase is Phase.PLAY
    assert state.colour is Colour.TEAL
    assert legal(state)[1][:2] == ["T1", "draw"]


# -- R-FLIP-5: dark actions --------------------------------------------------------------


def test_r_flip_5_draw_five() -> None:
    state = dark_table()
    state, _ = run(state, (1, "OD5"))  # orange on orange: seat 0 draws five, seat 1 again
    assert state.current == 1
    assert len(state.hands[0]) == 9
    state = dark_table()
    state = state.apply(1, "O7").state
    step = state.apply(0, "PD5") if "PD5" in legal(state).get(0, []) else None
    assert step is None  # PD5 matches neither orange nor a 7
    three = flip([["RF", "B1"], ["OD5", "T1"], ["O1", "V1"]], "R5")  # O1 G7, V1 G8, T1 G6
    three = three.apply(0, "RF").state  # dark, top O6; seat 1's turn
    step = three.apply(1, "OD5")
    assert drawn(step.events) == [(2, 5, DrawCause.PENALTY)]
    assert skipped(step.events) == [2]
    assert step.state.current == 0
    assert len(step.state.hands[2]) == 7


def test_r_flip_5_skip_everyone_with_two_players() -> None:
    state = dark_table()
    step = state.apply(1, "TSE") if "TSE" in legal(state)[1] else None
    assert step is None  # teal on orange does not match
    # Seat 1 holds the other RF card, whose dark face is OSE.
    state = flip([["RF", "B1", "B2"], ["OSE", "T1", "O1"]], "R5").apply(0, "RF").state
    step = state.apply(1, "OSE")
    assert skipped(step.events) == [0]
    assert step.state.current == 1


def test_r_flip_5_skip_everyone_with_four_players() -> None:
    state = flip([["RF", "B1"], ["OSE", "T1"], ["G7", "B8"], ["G8", "B9"]], "R5")
    state = state.apply(0, "RF").state
    assert state.current == 1
    step = state.apply(1, "OSE")
    assert skipped(step.events) == [2, 3, 0]
    assert step.state.current == 1
    assert step.state.phase is Phase.PLAY
    # Counter-clockwise the skipped seats follow the direction.
    state = flip([["RF", "B1"], ["OSE", "T1"], ["G7", "B8"], ["G8", "B9"]], "R5")
    state = dataclasses.replace(state, clockwise=False)
    state = state.apply(0, "RF").state
    assert state.current == 3
    state = dataclasses.replace(state, current=1)
    step = state.apply(1, "OSE")
    assert skipped(step.events) == [0, 3, 2]
    assert step.state.current == 1


def test_r_flip_5_skip_everyone_played_by_one_going_out_with_play_to_last() -> None:
    rules = Rules.from_preset("flip", play_to_last=True, scoring="placement", target=None, hands=1)
    cards = [["RF", "B1"], ["OSE"], ["G7", "B8"], ["G8", "B9"]]
    state = deal(rules, cards, "R5", dealer=3).state
    state = state.apply(0, "RF").state
    step = state.apply(1, "OSE")
    assert skipped(step.events) == [2, 3, 0]
    assert step.state.current == 2
    assert validate(step.state) is Problem.NONE


def wdc_table(**options: object) -> GameState:
    """Dark side, seat 0 to play: it holds P8 T8 WC PD5 (no orange) on O7 (orange)."""
    return dark_table(**options).apply(1, "O7").state


def test_r_flip_5_wild_draw_colour_taken() -> None:
    state = wdc_table().apply(0, "WC=T").state
    assert state.phase is Phase.CHALLENGE
    assert state.pending == 1
    assert state.colour is TEAL
    assert state.offender == 0
    assert state.prior_colour is ORANGE
    state = restack(state, ["P1", "O1", "W", "T1", "V1"])
    step = state.apply(1, "draw")
    assert drawn(step.events) == [(1, 4, DrawCause.PENALTY)]  # P1 O1 W T1: teal found
    assert skipped(step.events) == [1]
    assert step.state.current == 0
    assert Counter(faces(step.state, 1)) == Counter(["V9", "OD5", "TSE", "P1", "O1", "W", "T1"])


def test_r_flip_5_wild_draw_colour_challenge_guilty() -> None:
    # Seat 0 holds an orange card (O3, light B2) when playing WC on orange: guilty.
    state = flip([["RF", "O3", "WC", "P8"], ["O7", "V9"]], "R5").apply(0, "RF").state
    state = state.apply(1, "O7").state.apply(0, "WC=P").state
    state = restack(state, ["T1", "P1", "V1"])
    step = state.apply(1, "challenge")
    event = next(e for e in step.events if isinstance(e, ChallengeResolved))
    assert event.guilty
    assert drawn(step.events) == [(0, 2, DrawCause.CHALLENGE)]  # until pink: T1 P1
    assert step.state.current == 1
    assert step.state.colour is PINK
    assert "P1" in faces(step.state, 0)


def test_r_flip_5_wild_draw_colour_challenge_innocent() -> None:
    state = wdc_table().apply(0, "WC=P").state
    state = restack(state, ["T1", "O1", "P1", "V1", "T3", "P4"])
    step = state.apply(1, "challenge")
    event = next(e for e in step.events if isinstance(e, ChallengeResolved))
    assert not event.guilty
    # Until pink (T1 O1 P1), then 2 more (V1 T3); the turn is lost.
    assert drawn(step.events) == [(1, 5, DrawCause.CHALLENGE)]
    assert skipped(step.events) == [1]
    assert step.state.current == 0
    assert validate(step.state) is Problem.NONE


def test_r_flip_5_wild_draw_colour_with_the_pile_running_out() -> None:
    state = wdc_table().apply(0, "WC=T").state
    # Leave two non-teal cards in the draw pile and the rest beneath the top of the discard.
    pile = list(state.draw_pile)
    keep = [c for c in pile if state.face(c).colour is ORANGE][:2]
    rest = [c for c in pile if c not in keep]
    state = dataclasses.replace(state, draw_pile=tuple(keep), discard=(*rest, *state.discard))
    assert validate(state) is Problem.NONE
    teal_below = any(state.face(c).colour is TEAL for c in rest)
    assert teal_below
    step = state.apply(1, "draw")
    assert "PileReshuffled" in kinds(step.events)
    count = drawn(step.events)[0][1]
    assert count >= 3
    received = step.state.hands[1]
    assert sum(state.face(c).colour is TEAL for c in received) >= 2  # TSE + the one drawn
    assert validate(step.state) is Problem.NONE


def test_r_flip_5_wild_draw_colour_when_no_card_of_the_colour_is_left() -> None:
    state = wdc_table().apply(0, "WC=T").state
    # Every teal card goes to seat 0's hand: seat 1 draws everything there is, then stops.
    teal = [c for c in state.draw_pile if state.face(c).colour is TEAL]
    pile = tuple(c for c in state.draw_pile if c not in teal)
    state = dataclasses.replace(
        state,
        draw_pile=pile,
        hands=(tuple(sorted(state.hands[0] + tuple(teal))), state.hands[1]),
        evidence=tuple(sorted(state.hands[0] + tuple(teal))),
    )
    assert validate(state) is Problem.NONE
    before = len(state.draw_pile) + len(state.discard) - 1
    step = state.apply(1, "draw")
    assert drawn(step.events) == [(1, before, DrawCause.PENALTY)]
    assert step.state.draw_pile == ()
    assert len(step.state.discard) == 1
    assert step.state.current == 0
    assert validate(step.state) is Problem.NONE
    assert any(isinstance(e, PileReshuffled) for e in step.events)


def test_r_flip_5_wild_draw_colour_as_the_last_card_still_draws() -> None:
    state = flip([["RF", "WC"], ["O7", "V9"]], "R5").apply(0, "RF").state
    state = state.apply(1, "O7").state
    step = state.apply(0, "WC=V")
    assert step.state.phase is Phase.CHALLENGE
    assert not step.state.is_over
    state = restack(step.state, ["P1", "V1"])
    end = state.apply(1, "draw").state
    assert end.is_over
    assert end.ranking[0] == 0
    assert len(end.hands[1]) == 3


# -- R-FLIP-6: two players, no stacking --------------------------------------------------


def test_r_flip_6_reverse_with_two_players_is_a_skip() -> None:
    step = flip([["RR", "B1"], ["Y4", "B5"]], "R9").apply(0, "RR")
    assert skipped(step.events) == [1]
    assert step.state.current == 0
    assert step.state.clockwise  # the direction did not change
    # The dark Reverse alike (W2/PR: seat 1's light W2 is a pink Reverse on the dark side).
    state = flip([["RF", "P8", "B1"], ["W2", "T1"]], "R5").apply(0, "RF").state
    state = state.apply(1, "draw").state
    if state.phase is Phase.DRAWN:
        state = state.apply(1, "pass").state
    state = dataclasses.replace(state, colour=PINK)
    step = state.apply(0, "P8")
    step = step.state.apply(1, "PR")
    assert skipped(step.events) == [0]
    assert step.state.current == 1


def test_r_flip_6_reverse_with_three_players_reverses() -> None:
    step = flip([["RR", "B1"], ["Y4"], ["B5"]], "R9").apply(0, "RR")
    assert not step.state.clockwise
    assert step.state.current == 2


def test_r_flip_6_no_stacking_on_draw_cards() -> None:
    state = flip([["RD1", "B1"], ["BD1", "B5"], ["Y1"]], "R9", ["Y7"]).apply(0, "RD1").state
    assert state.phase is Phase.PLAY
    assert state.current == 2


# -- R-FLIP-7: points --------------------------------------------------------------------


def test_r_flip_7_points_of_every_kind() -> None:
    deck = flip_deck()
    values = {f.notation: deck.value(f) for side in deck.sides for f in side}
    assert values["R7"] == 7
    assert values["P9"] == 9
    assert values["RD1"] == 10
    assert values["PD5"] == 20
    assert values["RR"] == 20
    assert values["TR"] == 20
    assert values["GS"] == 20
    assert values["OSE"] == 30
    assert values["BF"] == 20
    assert values["VF"] == 20
    assert values["W"] == 40
    assert values["W2"] == 50
    assert values["WC"] == 60


def test_r_flip_7_points_are_counted_on_the_side_in_play() -> None:
    # Light side: seat 0 goes out with R2, seat 1 holds RD1 (10) + B4 (4) + W2 (50).
    end = flip([["R2"], ["RD1", "B4", "W2"]], "R9").apply(0, "R2").state
    outcome = end.outcome()
    assert outcome is not None
    assert outcome.points == (0, 64)
    # Dark side: the same cards show V7 (7) + PD5 (20) + PR (20).
    state = flip([["RF", "O1"], ["RD1", "B4", "W2"]], "R5").apply(0, "RF").state
    state = state.apply(1, "draw").state
    if state.phase is Phase.DRAWN:
        state = state.apply(1, "pass").state
    end = state.apply(0, "O1").state if state.colour is ORANGE else state
    assert end.is_over
    outcome = end.outcome()
    assert outcome is not None
    assert outcome.points[1] == sum(end.deck.value(f) for f in end.hand_faces(1))
    assert end.side == 1


def test_r_flip_7_flip_score_light_counts_the_light_faces() -> None:
    state = flip([["RF", "O1"], ["RD1", "B4", "W2"]], "R5", flip_score_light=True)
    state = state.apply(0, "RF").state.apply(1, "draw").state
    if state.phase is Phase.DRAWN:
        state = state.apply(1, "pass").state
    end = state.apply(0, "O1").state
    assert end.is_over
    assert end.side == 1
    assert end.scoring_side == 0
    outcome = end.outcome()
    assert outcome is not None
    deck = end.deck
    assert outcome.points[1] == sum(deck.value(deck.face(c, 0)) for c in end.hands[1])


# -- R-FLIP-8: the preset ----------------------------------------------------------------


def test_r_flip_8_the_flip_preset_scores_penalty_to_500() -> None:
    rules = PRESETS["flip"]
    assert rules.flip
    assert rules.scoring.value == "penalty"
    assert rules.target == 500
    assert not rules.flip_score_light
    assert rules.stacking.value == "off"
    assert Rules.from_preset("flip").preset_name() == "flip"
    match = Match.new(rules, 3, seed=11).match
    rnd = random.Random(5)
    from engine.simulate import random_step

    while not match.is_over:
        state = match.hand
        if state.is_over:
            match = match.next_hand().match
            continue
        seat, action = random_step(state, rnd)
        before = match.scores
        match = match.apply(seat, action).match
        outcome = match.hand.outcome()
        if outcome is not None:
            gains = tuple(a - b for a, b in zip(match.scores, before, strict=True))
            assert gains == outcome.points  # everyone scores what they hold
    assert max(match.scores) >= 500
    assert match.scores[match.ranking[0]] == min(match.scores)  # the lowest total wins


# -- the rest of the engine on both sides ------------------------------------------------


def test_events_and_views_on_the_dark_side() -> None:
    state = dark_table()
    view = state.public_view()
    assert view.side == 1
    assert view.top.notation == "O6"
    assert view.backs == tuple(state.back_faces(s) for s in range(2))
    assert view.draw_back is not None
    assert view.draw_back == state.deck.face(state.draw_pile[-1], 0)
    mine = state.view_for(1)
    assert [f.notation for _, f in mine.hand] == ["O7", "TSE", "V9", "OD5"]
    # The flip event is public.
    step = flip([["RF", "B1"], ["O7"]], "R5").apply(0, "RF")
    assert [type(e).__name__ for e in events_for(step.events, None)] == [
        "CardPlayed",
        "CardsFlipped",
    ]
    # Classic tables show no backs.
    classic = hand([["R1"], ["R2"]], "R3").state.public_view()
    assert classic.backs == ()
    assert classic.draw_back is None


def test_auto_action_on_the_dark_side_plays_the_lowest_number() -> None:
    state = flip([["RF", "Y2"], ["O7", "O1", "OD5", "O3"]], "R5").apply(0, "RF").state
    assert str(auto_action(state, 1)) == "O1"
    state = wdc_table().apply(0, "WC=T").state
    assert str(auto_action(state, 1)) == "draw"
    wild = flip([["GF", "Y2"], ["P1", "T1", "T3"], ["B3"]], "G1").apply(0, "GF").state
    assert str(auto_action(wild, 1)) == "colour=T"  # the colour seat 1 holds most of


def test_records_replay_and_snapshots_round_trip_through_flips() -> None:
    report = simulate(
        Rules.from_preset("flip"), preset="flip", players=3, hands=3, seed=2, keep_record=True
    )
    assert report.record is not None
    record = GameRecord.from_dict(report.record.to_dict())
    final = replay(record)
    assert isinstance(final, Match)
    assert to_dict(from_dict(to_dict(final))) == to_dict(final)


def test_simulated_flip_hands_keep_every_invariant() -> None:
    for players in (2, 4, 10):
        report = simulate(
            Rules.from_preset("flip"),
            preset="flip",
            players=players,
            hands=30,
            seed=7,
            check=True,
        )
        assert report.violations == 0, report.problems[:3]


def test_simulated_flip_hands_visit_both_sides() -> None:
    rules = Rules.from_preset("flip")
    rnd = random.Random(1)
    from engine.simulate import random_step

    seen: Counter[str] = Counter()
    for seed in range(30):
        state = new_hand(rules, 4, dealer=0, seed=seed).state
        while not state.is_over:
            seat, action = random_step(state, rnd)
            step = state.apply(seat, action)
            for e in step.events:
                if isinstance(e, CardsFlipped):
                    seen[f"flip-to-{e.side}"] += 1
                elif type(e).__name__ == "CardPlayed":
                    seen[e.face.kind.name] += 1  # type: ignore[attr-defined]
            state = step.state
    for name in ("flip-to-0", "flip-to-1", "DRAW_FIVE", "SKIP_EVERYONE", "WILD_DRAW_COLOUR",
                 "DRAW_ONE", "WILD_DRAW_TWO"):  # fmt: skip
        assert seen[name] > 0, name
