"""Leaderboard, standings, stats card: valid PNGs, any names, highlights, no words of ours."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from engine import Colour
from renders import (
    LeaderRow,
    boards,
    grid,
    render_leaderboard,
    render_standings,
    render_stats,
    stats,
    text,
    theme,
)
from renders.assets import palette_colours
from renders.card import symbol_image

from .states import AWKWARD_NAMES
from .test_budget import median_ms

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Labels:
    """Everything worded that one language gives the renders."""

    title: str
    cols: list[str]
    footer: str
    facts: list[tuple[str, str]]


EN = Labels(
    "Leaderboard — season 3",
    ["#", "Player", "Rating", "Wins", "Matches", "Points"],
    "Page 1 of 5 · 47 players",
    [
        ("Matches played", "42"),
        ("Matches won", "17"),
        ("Win rate", "40.5%"),
        ("Hands", "230"),
        ("Points", "12,345"),
        ("UNO calls", "88"),
        ("Catches made", "12"),
        ("Catches suffered", "7"),
        ("Challenges won", "5"),
        ("Challenges lost", "3"),
        ("Cards drawn", "1,024"),
        ("Best streak", "6"),
    ],
)
IT = Labels(
    "Classifica — stagione 3",
    ["#", "Giocatore", "Punteggio", "Vittorie", "Partite", "Punti"],
    "Pagina 1 di 5 · 47 giocatori",
    [
        ("Partite giocate", "42"),
        ("Partite vinte", "17"),
        ("Vittorie", "40,5%"),
        ("Mani", "230"),
        ("Punti", "12.345"),
        ("Chiamate UNO", "88"),
        ("Prese fatte", "12"),
        ("Prese subite", "7"),
        ("Sfide vinte", "5"),
        ("Sfide perse", "3"),
        ("Carte pescate", "1.024"),
        ("Serie migliore", "6"),
    ],
)
FACTS_EN = EN.facts


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    assert image.mode == "P"
    return image


def colours(data: bytes) -> dict[theme.RGB, int]:
    """Pixels per colour (a palette image has at most 256)."""
    found = open_png(data).convert("RGB").getcolors(256)
    assert found is not None
    return {rgb: n for n, rgb in found}  # type: ignore[misc]


def pixel(data: bytes, x: int, y: int) -> theme.RGB:
    value = open_png(data).convert("RGB").getpixel((x, y))
    assert isinstance(value, tuple)
    return (value[0], value[1], value[2])


def leader_rows(count: int, *, first: int = 1, name: str | None = None) -> list[LeaderRow]:
    return [
        LeaderRow(
            rank=first + i,
            name=name if name is not None else f"Player {first + i}",
            values=(str(1500 - 17 * i), str(40 - i), str(80 - 2 * i), f"{12_000 - 311 * i}"),
        )
        for i in range(count)
    ]


def leaderboard(
    labels: Labels,
    rows: list[LeaderRow],
    *,
    highlight_rank: int | None = None,
    extra_row: LeaderRow | None = None,
) -> bytes:
    return render_leaderboard(
        labels.title, labels.cols, rows, highlight_rank, labels.footer, extra_row
    )


def row_middle(index: int) -> int:
    """The y of the middle of leaderboard line ``index`` (0 = the first)."""
    return (
        boards._PAD + boards._TITLE_H + boards._HEAD_H + boards._ROW_H * index + boards._ROW_H // 2
    )


# -- leaderboard -------------------------------------------------------------------------


def test_a_leaderboard_page_is_a_small_deterministic_png() -> None:
    data = leaderboard(EN, leader_rows(10), highlight_rank=4)
    image = open_png(data)
    assert image.width == boards._W
    assert 300 <= image.height <= 700
    assert len(data) <= 30_000
    for cache in (grid.disc, grid.prepare, text.shape, text.fit_text):
        cache.cache_clear()  # drawn afresh, the same bytes as from the caches
    assert leaderboard(EN, leader_rows(10), highlight_rank=4) == data


def test_fifteen_long_names_fit_and_the_page_grows_by_whole_lines() -> None:
    ten = open_png(leaderboard(EN, leader_rows(10, name="W" * 300)))
    fifteen_data = leaderboard(EN, leader_rows(15, name="Dave the Magnificent 🐸" * 9))
    fifteen = open_png(fifteen_data)
    assert fifteen.width == ten.width == boards._W
    assert fifteen.height - ten.height == 5 * boards._ROW_H
    assert len(fifteen_data) <= 30_000


def test_the_callers_line_is_outlined_where_it_is() -> None:
    plain = leaderboard(EN, leader_rows(10))
    lit = leaderboard(EN, leader_rows(10), highlight_rank=4)
    assert grid.CALLER not in colours(plain)
    assert colours(lit)[grid.CALLER] > 1000
    x = boards._PAD + 5  # inside the outline, left of the rank
    assert pixel(lit, x, row_middle(3)) == grid.CALLER
    assert pixel(lit, x, row_middle(2)) != grid.CALLER
    assert pixel(lit, x, row_middle(4)) != grid.CALLER


def test_the_callers_line_below_the_page_is_outlined_under_a_separator() -> None:
    rows = leader_rows(10, first=11)
    mine = LeaderRow(rank=42, name="Me", values=("1000", "1", "2", "3"))
    data = leaderboard(EN, rows, highlight_rank=42, extra_row=mine)
    image = open_png(data)
    plain = open_png(leaderboard(EN, rows))
    assert image.height - plain.height == boards._SEP_H + boards._ROW_H
    below = row_middle(10) + boards._SEP_H
    assert pixel(data, boards._PAD + 5, below) == grid.CALLER
    assert pixel(data, boards._PAD + 5, row_middle(0)) != grid.CALLER
    # Even without highlight_rank, the extra line is the reader's.
    assert leaderboard(EN, rows, extra_row=mine) == data


def test_tied_ranks_can_single_out_the_caller() -> None:
    rows = leader_rows(3)
    tied = [
        rows[0],
        LeaderRow(2, "A", ("1", "1", "1", "1")),
        LeaderRow(2, "B", ("1", "1", "1", "1")),
    ]
    by_rank = leaderboard(EN, tied, highlight_rank=2)
    by_flag = leaderboard(EN, [*tied[:2], LeaderRow(2, "B", ("1", "1", "1", "1"), highlight=True)])
    assert pixel(by_rank, boards._PAD + 5, row_middle(1)) == grid.CALLER
    assert pixel(by_flag, boards._PAD + 5, row_middle(1)) != grid.CALLER
    assert pixel(by_flag, boards._PAD + 5, row_middle(2)) == grid.CALLER


def test_medals_only_on_the_first_page() -> None:
    first = leaderboard(EN, leader_rows(10))
    second = leaderboard(EN, leader_rows(10, first=11))
    # Left of the rank's digits, inside its medal (the rank column is a medal wide here).
    x = boards._PAD + boards._INSET + boards._MEDAL // 2 - 8
    for i, medal in enumerate(grid.MEDALS):
        assert pixel(first, x, row_middle(i)) == medal
        assert pixel(second, x, row_middle(i)) in (grid.BG, grid.STRIPE)
    assert pixel(first, x, row_middle(3)) in (grid.BG, grid.STRIPE)


def test_a_leaderboard_needs_rank_and_name_columns() -> None:
    with pytest.raises(ValueError, match="rank and name"):
        render_leaderboard("t", ["#"], leader_rows(1), None, "")


def test_rows_past_the_limit_are_not_drawn() -> None:
    many = leader_rows(boards.MAX_ROWS + 10)
    assert leaderboard(EN, many) == leaderboard(EN, many[: boards.MAX_ROWS])


# -- standings ---------------------------------------------------------------------------

PLAYERS = [
    (str(i + 1), f"Player {i + 1}", "Red" if i % 2 else "—", str(300 - 10 * i), "9")
    for i in range(12)
]
HEADS = ["#", "Player", "Team", "Points", "Games"]


def test_standings_are_small_deterministic_pngs() -> None:
    data = render_standings("Spring Cup", HEADS, PLAYERS)
    image = open_png(data)
    assert image.width == boards._W
    assert len(data) <= 30_000
    grid.star.cache_clear()
    assert render_standings("Spring Cup", HEADS, PLAYERS) == data


@pytest.mark.parametrize("winners", [0, 1, 2])
def test_winner_rows_are_outlined_in_gold(winners: int) -> None:
    data = render_standings("Cup", HEADS, PLAYERS, winners)
    for i in range(4):
        lit = pixel(data, boards._PAD + 5, row_middle(i)) == grid.WINNER
        assert lit == (i < winners)


def test_a_hand_score_card_with_few_columns_and_ragged_rows() -> None:
    rows = [("Alice", "+86", "312"), ("Bob", "0"), ("Carol", "—", "77", "dropped")]
    data = render_standings("Hand 4", ["Player", "Hand", "Total"], rows, footer="Target 500")
    assert open_png(data).height < 300
    with pytest.raises(ValueError, match="one column"):
        render_standings("t", [], rows)


# -- stats -------------------------------------------------------------------------------


def test_a_stats_card_is_a_small_deterministic_png() -> None:
    data = render_stats("Statistics · season 3", "Alice", FACTS_EN, Colour.GREEN)
    image = open_png(data)
    assert image.width == stats._W
    assert len(data) <= 30_000
    symbol_image.cache_clear()
    assert render_stats("Statistics · season 3", "Alice", FACTS_EN, Colour.GREEN) == data


def test_the_favourite_colour_shows_as_its_swatch() -> None:
    cards = {c: render_stats("t", "Alice", FACTS_EN, c) for c in [*Colour, None]}
    assert len(set(cards.values())) == 5
    assert all(colours(cards[c]).get(theme.FILL[c], 0) > 500 for c in Colour)
    assert all(colours(cards[None]).get(theme.FILL[c], 0) == 0 for c in Colour)
    labelled = render_stats("t", "Alice", FACTS_EN, Colour.RED, favourite_label="Favourite")
    assert labelled != cards[Colour.RED]


def test_the_favourite_colour_is_a_tile_with_its_label() -> None:
    """Issue 20: the favourite colour has a tile of its own, its label beneath the swatch
    as every figure's, so the label is never squeezed beside the name."""
    twelve = open_png(render_stats("t", "Alice", FACTS_EN, None))
    with_colour = render_stats("t", "Alice", FACTS_EN, Colour.RED, favourite_label="Favourite")
    assert open_png(with_colour).height == twelve.height + stats._TILE_H + stats._GAP
    unlabelled = render_stats("t", "Alice", FACTS_EN, Colour.RED)
    other_label = render_stats("t", "Alice", FACTS_EN, Colour.RED, favourite_label="Preferito")
    assert len({with_colour, unlabelled, other_label}) == 3


def test_a_long_name_is_made_smaller_before_it_is_cut() -> None:
    name = "W" * 32  # as long and wide as Discord allows
    text_w = stats._W - 2 * stats._PAD
    assert text.measure(name, stats._NAME_SIZES[0]) > text_w  # too long at the largest size
    px = stats.name_size(name, text_w)
    assert px < stats._NAME_SIZES[0]
    assert text.measure(name, px) <= text_w  # whole, no ellipsis
    assert stats.name_size("Alice", text_w) == stats._NAME_SIZES[0]


def test_the_card_grows_by_rows_of_tiles() -> None:
    none = open_png(render_stats("t", "Alice", [], None))
    three = open_png(render_stats("t", "Alice", FACTS_EN[:3], None))
    twelve = open_png(render_stats("t", "Alice", FACTS_EN, None))
    assert three.height > none.height
    assert twelve.height - three.height == 3 * (stats._TILE_H + stats._GAP)


# -- shared ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", AWKWARD_NAMES)
def test_any_name_renders_everywhere(name: str) -> None:
    rows = [LeaderRow(1, name, (name, "1", "2", "3")), *leader_rows(2, first=2)]
    open_png(leaderboard(EN, rows, highlight_rank=1, extra_row=LeaderRow(9, name, ())))
    open_png(render_standings(name, [name, name], [(name, name), ("1", name)]))
    open_png(render_stats(name, name, [(name, name)], Colour.BLUE, favourite_label=name))


def test_columns_share_the_width_and_long_text_is_cut() -> None:
    assert grid.share([40, 300, 60], 500) == [40, 300, 60]
    assert grid.share([40, 300, 60], 500, flex=1) == [40, 400, 60]
    assert grid.share([40, 900, 60], 500) == [40, 400, 60]
    assert grid.share([40, 900, 700], 500) == [40, 230, 230]
    assert sum(grid.share([10] * 30, 100)) <= 100
    assert grid.numeric_columns(3, [("1", "Ann", "1.234"), ("2", "Bo", "—")]) == [
        True,
        False,
        True,
    ]
    # The text font has dashes, the times sign and bullets now: they are drawn as written.
    assert grid.clean_name("a\nb — c") == "a b — c"
    for mark in "—–×•·":
        assert text.choose_face(mark) == text.PRIMARY, mark
    assert text.choose_face("−") != text.MISSING  # the minus sign, from another font


def test_the_text_caches_fill_only_when_drawing() -> None:
    code = (
        "import renders, renders.grid as g, renders.text as t\n"
        "caches = [g.prepare, g.disc, g.star, t.shape, t.fit_text, t.coverage]\n"
        "assert all(f.cache_info().currsize == 0 for f in caches), caches\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_every_flat_colour_is_in_the_palette() -> None:
    palette = set(palette_colours())
    assert set(grid.COLOURS) <= palette
    assert all(theme.FILL[c] in palette for c in Colour)  # the favourite stripe


CASES: dict[str, Callable[[Labels], bytes]] = {
    "leaderboard": lambda lab: leaderboard(lab, leader_rows(10), highlight_rank=3),
    "standings": lambda lab: render_standings(lab.title, lab.cols, PLAYERS),
    "stats": lambda lab: render_stats(lab.title, "Alice", lab.facts, Colour.RED),
}


@pytest.mark.parametrize("kind", CASES)
def test_italian_labels_change_the_picture(kind: str) -> None:
    english, italian = CASES[kind](EN), CASES[kind](IT)
    assert english != italian
    assert CASES[kind](EN) == english


#: The only string literals with letters the board renders may hold: Pillow's image modes and
#: text anchors, our own alignment names, and "x", the stand-in for the missing "×" glyph.
TECHNICAL = {"lm", "mm", "rm", "RGB", "RGBA", "L", "left", "right", "centre", "x"}


@pytest.mark.parametrize("module", ["boards", "grid", "stats"])
def test_no_words_of_ours_are_drawn(module: str) -> None:
    """No string literal in these modules holds a word to show.

    Docstrings and exception messages (for developers, never drawn) are left out.
    """
    tree = ast.parse((ROOT / "renders" / f"{module}.py").read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    unshown = docstrings | {
        id(const)
        for node in ast.walk(tree)
        if isinstance(node, ast.Raise)
        for const in ast.walk(node)
    }
    literals = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in unshown
        and any(ch.isalpha() for ch in node.value)
    }
    assert literals <= TECHNICAL, literals - TECHNICAL


def test_boards_are_quick() -> None:
    # Ten times the target medians, as in test_budget: a loaded CI machine must not fail this.
    rows = leader_rows(15, name="Dave the Magnificent Card Shark")
    assert median_ms(lambda: leaderboard(EN, rows, highlight_rank=3)) < 150
    assert median_ms(lambda: render_standings("Cup", HEADS, PLAYERS)) < 150
    assert median_ms(lambda: render_stats("t", "Alice", FACTS_EN, Colour.RED)) < 150
