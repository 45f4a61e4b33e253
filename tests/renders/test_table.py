"""render_table: seats 2–10, every phase worth drawing, any names, and no hidden information."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from engine import Phase, Rules
from engine.views import TableView
from renders import render_table, theme
from renders.text import clean_name, fit_text, measure

from .states import AWKWARD_NAMES, seated, stacked

SIZE = (theme.TABLE_W, theme.TABLE_H)


def open_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def names(n: int) -> list[str]:
    return [f"Player {i + 1}" for i in range(n)]


@pytest.mark.parametrize("seats", range(2, 11))
def test_two_to_ten_seats(seats: int) -> None:
    view = seated([1 + (3 * i) % 9 for i in range(seats)]).public_view()
    assert view.seats == seats
    data = render_table(view, names(seats))
    image = open_png(data)
    assert image.size == SIZE
    assert image.mode == "P"
    assert len(data) <= 30_000
    assert render_table(view, names(seats)) == data  # deterministic


def test_start_wild_awaiting_a_colour() -> None:
    view = stacked([["R1"], ["G2", "B3"]], start="W").public_view()
    assert view.phase is Phase.CHOOSE_COLOUR
    assert view.colour is None
    assert open_png(render_table(view, ["a", "b"])).size == SIZE


def test_pending_penalty_and_uno() -> None:
    state = stacked([["W4", "R1", "R2"], ["B1", "B2"], ["G1"]])
    challenge = state.apply(0, "W4=B").state.public_view()
    assert challenge.pending == 4
    uno = stacked([["R1", "R2"], ["B1", "B2"]]).apply(0, "R1").state
    called = uno.apply(0, "uno").state.public_view()
    assert called.uno_called
    assert called.uno_seat == 0
    quiet = uno.public_view()
    pictures = {
        render_table(v, names(v.seats))
        for v in (challenge, dataclasses.replace(challenge, pending=0), called, quiet)
    }
    assert len(pictures) == 4  # the "+4" badge and the "UNO!" bubble both show


def test_hand_over() -> None:
    state = stacked([["R1"], ["B1", "B2"], ["G1"]]).apply(0, "R1").state
    view = state.public_view()
    assert view.phase is Phase.HAND_OVER
    assert view.ranking
    assert open_png(render_table(view, names(3))).size == SIZE


def test_direction_is_drawn() -> None:
    view = stacked([["R1"], ["B1", "B2"], ["G1"]]).public_view()
    flipped = dataclasses.replace(view, clockwise=not view.clockwise)
    assert render_table(view, names(3)) != render_table(flipped, names(3))


@pytest.mark.parametrize("name", AWKWARD_NAMES)
def test_any_name_renders(name: str) -> None:
    view = stacked([["R1"], ["B1", "B2"]]).public_view()
    assert open_png(render_table(view, [name, name])).size == SIZE


def test_missing_names_fall_back_to_seat_numbers() -> None:
    view = stacked([["R1"], ["B1", "B2"], ["G1"]]).public_view()
    assert open_png(render_table(view, [])).size == SIZE


def test_names_are_cut_to_fit() -> None:
    assert fit_text("short", 16, 136) == "short"
    cut = fit_text("A" * 80, 16, 136)
    assert cut.endswith("…")
    assert measure(cut, 16) <= 136
    assert "\n" not in clean_name("a\nb")
    assert clean_name("a\nb") == "a b"


def test_the_table_shows_no_hidden_information() -> None:
    """Two states that differ only in what the hands hold (same counts) look the same."""
    assert not any("hand" in f.name for f in dataclasses.fields(TableView))
    one = stacked([["R1", "G2", "B3"], ["Y4", "B7"], ["W", "G9"]], draw=["Y1"])
    two = stacked([["G8", "W4", "Y2"], ["R3", "B9"], ["B4", "B4"]], draw=["Y1"])
    assert one.hands != two.hands
    assert one.public_view() == two.public_view()
    assert render_table(one.public_view(), names(3)) == render_table(two.public_view(), names(3))


def test_counts_not_faces_are_drawn() -> None:
    """More cards in a hand shows as a bigger count, never as a face."""
    view = stacked([["R1", "G2", "B3"], ["Y4", "B7"]]).public_view()
    more = dataclasses.replace(view, card_counts=(9, 2))
    assert render_table(view, names(2)) != render_table(more, names(2))


def test_modern_deck_swap_hands_on_top() -> None:
    rules = Rules(modern_deck=True)
    state = stacked([["WH", "R1"], ["B1", "B2"], ["G1", "G2"]], rules=rules)
    after = state.apply(0, "WH=G@2").state
    assert after.top.notation == "WH"
    assert open_png(render_table(after.public_view(), names(3))).size == SIZE


def test_r_team_2_each_seat_shows_its_team() -> None:
    """Partners sit alternately: the picture tags seat s with team s % teams."""
    from engine import Rules, new_hand
    from renders.scenes import table_scene

    names = ["alice", "🤖 Ada", "bruno", "🤖 Turing"]
    paired = new_hand(Rules.from_preset("classic", teams=2), 4, dealer=0, seed=3).state
    alone = new_hand(Rules.from_preset("classic"), 4, dealer=0, seed=3).state
    assert [s.team for s in table_scene(paired.public_view(), names).seats] == [0, 1, 0, 1]
    assert [s.team for s in table_scene(alone.public_view(), names).seats] == [None] * 4
    assert render_table(paired.public_view(), names) != render_table(alone.public_view(), names)


#: Names as long as Discord allows (32 characters) in many scripts, with emoji.
LONG_NAMES = [
    "Dave the Magnificent Card Shark!",
    "李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小",
    "محمد بن عبد الله بن عبد المطلب",
    "क्षत्रिय हिन्दी देवनागरी नाम है",
    "👩‍👩‍👧‍👦 👍🏽 🇮🇹 family of four, with love",
    "한국어 日本語 ひらがな カタカナ 漢字です",
    "ภาษาไทยภาษาไทยภาษาไทยภาษาไทย🐸🎲",
    "Zoë-Élodie Łukasiewicz-Ørsted III",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
]


@pytest.mark.parametrize("name", LONG_NAMES)
def test_names_are_shown_whole_wrapped_and_smaller(name: str) -> None:
    """Issue 20: a seat's name was cut at about 13 characters; now any name Discord allows
    is shown whole, in up to three lines, at 11 px or more, even between a team tag and a
    medal (the narrowest room a name gets)."""
    from renders.table import NAME_SIZES
    from renders.text import fit_lines

    shown = clean_name(name)
    room = theme.SEAT_W - 16 - 10 - 16
    lines, px = fit_lines(shown, room, NAME_SIZES)
    assert px >= 11
    assert len(lines) <= dict(NAME_SIZES)[px]
    assert all(measure(line, px) <= room for line in lines)
    assert not any(line.endswith("…") for line in lines)
    assert "".join(lines).replace(" ", "") == shown.replace(" ", "")
    view = stacked([["R1"], ["B1", "B2"]]).public_view()
    assert open_png(render_table(view, [name, "Bob"])).size == SIZE


def test_short_names_keep_one_large_line() -> None:
    from renders.table import NAME_SIZES
    from renders.text import fit_lines

    assert fit_lines("Alice", theme.SEAT_W - 20, NAME_SIZES) == (("Alice",), 18)


def test_r_uno_1_the_badge_stays_while_the_one_card_does() -> None:
    """Issue 20: the UNO! badge showed for one turn, while the view remembers the call. With
    the seats the caller knows called, it stays as long as the seat holds that one card."""
    from renders.scenes import table_scene

    state = stacked([["R1", "R2"], ["B1", "R3", "B3"], ["G1", "R4"]], draw=["Y9", "Y8", "Y7"])
    state = state.apply(0, "R1").state.apply(0, "uno").state
    assert [s.uno for s in table_scene(state.public_view(), names(3)).seats] == [True, False, False]
    later = state.apply(1, "R3").state.apply(2, "R4").state  # two turns on: the window closed
    view = later.public_view()
    assert not view.uno_called
    assert view.card_counts[0] == 1
    assert [s.uno for s in table_scene(view, names(3)).seats] == [False, False, False]
    assert [s.uno for s in table_scene(view, names(3), {0}).seats] == [True, False, False]
    assert render_table(view, names(3), called_uno={0}) != render_table(view, names(3))
    drew = later.apply(0, "draw").state.public_view()  # two cards again: the call is spent
    assert drew.card_counts[0] == 2
    assert [s.uno for s in table_scene(drew, names(3), {0}).seats] == [False, False, False]
