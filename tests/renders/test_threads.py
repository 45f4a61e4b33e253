"""Renders run in several threads at once (no global lock, issue 11): same bytes as alone."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from engine import Colour, Rules
from renders import (
    LeaderRow,
    assets,
    card,
    grid,
    render_hand,
    render_leaderboard,
    render_stats,
    render_table,
    table,
    text,
)

from .states import hand_of, seated, stacked

NAMES = ["🤖 Ada", "محمد 🎲", "李小龍", "क्षत्रिय", "Zoë", "👩‍👩‍👧‍👦", "שלום", "한국어"]


def jobs() -> list[Callable[[], bytes]]:
    out: list[Callable[[], bytes]] = []
    for count in (3, 7, 12, 25):
        view = hand_of(count, seed=count).view_for(0)
        out.append(lambda view=view: render_hand(view))
    for seats in (2, 4, 6, 8):
        public = seated([1 + i % 5 for i in range(seats)], seed=seats).public_view()
        names = NAMES[:seats]
        out.append(lambda public=public, names=names: render_table(public, names))
    flip = stacked([["R1", "G2"], ["B1"]], rules=Rules(flip=True))
    out.append(lambda: render_table(flip.public_view(), NAMES[:2]))
    rows = [LeaderRow(i + 1, NAMES[i % 8], (str(i),)) for i in range(12)]
    out.append(lambda: render_leaderboard("Top", ["#", "Name", "Wins"], rows, 2, "p. 1"))
    out.append(lambda: render_stats("Stats", NAMES[1], [("a", "1")] * 6, Colour.BLUE))
    return out


def empty_caches() -> None:
    for cache in (
        text.shape,
        text._layout,
        text.fit_text,
        text.face_font,
        grid.prepare,
        card.render_card,
        card.card_sprite,
        card.render_back,
        card.render_mini,
        card.card_shadow,
        card.symbol_image,
        table._base,
        table._fan,
        table._face_fan,
        assets.font,
    ):
        cache.cache_clear()


def test_parallel_renders_from_cold_caches_give_the_same_bytes() -> None:
    work = jobs()
    alone = [job() for job in work]
    for _ in range(3):
        empty_caches()  # every thread races to build fonts, card art and text
        with ThreadPoolExecutor(4) as pool:
            together = list(pool.map(lambda job: job(), work * 3))
        assert together == alone * 3
