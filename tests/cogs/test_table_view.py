"""The Components V2 table message (cogs/uno/_table_view.py): within Discord's limits for the
largest tables, readable text, no upload on an ordinary move, the top card's emoji."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.uno._i18n import LANGUAGES, speaking
from cogs.uno._table_view import ACCENTS, NEUTRAL, table_layout
from engine import parse_action
from tables.table import Player, Table
from tests.cogs.layouts import check_layout, count_components, layout_text
from tests.tables.tables import act, lobby, stacked, started, user

#: Names as long as Discord allows a display name (32), in several scripts.
LONG_NAMES = [
    "Alessandra Maria Giovanna Rossi",
    "王小明的超级长名字测试玩家一号二号三号四号五号六",
    "Владимир Александрович Петров-Водкин",
    "محمد عبد الرحمن بن عبد الله الأحمد",
    "สมชาย ใจดี มีความสุข ตลอดกาล นะ",
    "ヤマダ タロウ スーパー ロング ネーム テスト",
    "**bold** _under_ `code` ~~strike~~ <@1>",
]


class FakeEmojis:
    """Card emojis as if uploaded: an id per name."""

    ready = SimpleNamespace(is_set=lambda: True)

    def url(self, face: Any, side: int = 0) -> str:
        return "https://cdn.discordapp.com/emojis/123456789012345678.png"

    def text(self, face: Any, side: int = 0) -> str:
        return "<:uno_r7_0011aabb:123456789012345678>"


def twenty_seats() -> Table:
    table = lobby(20, two_decks=True, max_players=20, table_id="z" * 13)
    players = tuple(
        replace(p, name=LONG_NAMES[seat % len(LONG_NAMES)][:32])
        for seat, p in enumerate(table.players)
    )
    table = replace(table, players=players)
    started = table.start(by=user(0), is_admin=False, now=9.0).table
    return replace(started, version=999_999_999)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_r_alt_8_a_twenty_seat_table_fits_discords_limits(language: str) -> None:
    table = replace(twenty_seats(), language=language)
    payload = await table_layout(table, FakeEmojis())  # type: ignore[arg-type]
    ids = check_layout(payload.view)  # type: ignore[arg-type]
    assert ids == [f"uno:1:hand:{table.id}", f"uno:1:picture:{table.id}"]
    text = layout_text(payload.view)  # type: ignore[arg-type]
    for player in table.players:  # every name whole, as text
        assert discord.utils.escape_markdown(player.name) in text or player.name in text
    assert "**bold**" not in text  # a name is not markdown
    assert payload.image is None  # nothing uploaded
    assert count_components(payload.view.to_components()) <= 40


async def test_an_ordinary_move_uploads_nothing_and_shows_the_top_card_emoji() -> None:
    table = stacked([["R1", "R5", "B9"], ["R3", "Y4", "G5"], ["R6", "Y7", "G8"]], "R9")
    moved = act(table, 0, "R1")
    payload = await table_layout(moved, FakeEmojis())  # type: ignore[arg-type]
    assert payload.image is None
    assert payload.files() == []
    thumbnails = [c for c in payload.view.walk_children() if isinstance(c, discord.ui.Thumbnail)]
    assert [t.media.url for t in thumbnails] == [FakeEmojis().url(None)]
    assert payload.edit_kwargs()["attachments"] == []
    container = next(c for c in payload.view.children if isinstance(c, discord.ui.Container))
    assert container.accent_colour == discord.Colour(ACCENTS["R"])  # the colour in play
    with speaking("en"):
        text = layout_text(payload.view)  # type: ignore[arg-type]
    assert f"Turn: <@{user(1)}>" in text
    assert "Top card: **Red 1**" in text
    assert "Ann played Red 1." in text


async def test_without_emojis_the_top_card_is_named_in_words() -> None:
    table = stacked([["R1", "R5"], ["R3", "Y4"]], "R9")
    payload = await table_layout(table)
    assert not [c for c in payload.view.walk_children() if isinstance(c, discord.ui.Thumbnail)]
    assert "Top card: **Red 9**" in layout_text(payload.view)  # type: ignore[arg-type]


async def test_r_uno_1_the_uno_badge_stays_while_the_call_stands() -> None:
    table = stacked([["R1", "R5"], ["R3", "Y4", "G5"], ["R6", "Y7", "G8"]], "R9")
    called = table.act(user(0), parse_action("R1"), parse_action("uno"), now=10.0).table
    assert called.called_uno == (0,)
    later = act(act(called, 1, "R3"), 2, "R6")  # two more turns: the call still stands
    text = layout_text((await table_layout(later)).view)  # type: ignore[arg-type]
    assert "▶ **Ann** — 1 card — **UNO!**" in text  # her turn, her call standing
    drew = later.act(user(0), parse_action("draw"), now=20.0).table  # cards again: gone
    assert drew.called_uno == ()


async def test_between_hands_the_scoring_card_is_the_one_picture() -> None:
    table = stacked([["R1"], ["B2", "B3"]], "R9", target=500)
    ended = act(table, 0, "R1")
    assert ended.match is not None
    assert ended.match.hand.is_over
    payload = await table_layout(ended)
    assert payload.image is not None
    assert payload.filename == "standings.png"
    galleries = [c for c in payload.view.walk_children() if isinstance(c, discord.ui.MediaGallery)]
    assert [item.media.url for item in galleries[0].items] == ["attachment://standings.png"]
    container = next(c for c in payload.view.children if isinstance(c, discord.ui.Container))
    assert container.accent_colour == discord.Colour(ACCENTS["R"])
    ids = check_layout(payload.view)  # type: ignore[arg-type]
    assert ids == [f"uno:1:next:{ended.id}"]


async def test_a_lobby_is_grey_and_lists_its_players() -> None:
    table = lobby(3)
    table = replace(table, players=(*table.players[:2], Player(-1, "🤖 Ada", "hard")))
    payload = await table_layout(table)
    container = next(c for c in payload.view.children if isinstance(c, discord.ui.Container))
    assert container.accent_colour == discord.Colour(NEUTRAL)
    text = layout_text(payload.view)  # type: ignore[arg-type]
    assert "Ann (host)" in text
    assert "🤖 Ada · hard" in text
    assert f"Table {table.id} · version {table.version}" in text


@pytest.mark.parametrize(
    ("winner", "english", "italian"),
    [
        ("fewest_cards", "the fewest cards wins", "meno carte"),
        ("fewest_points", "the fewest points wins", "meno punti"),
    ],
)
async def test_r_alt_1_a_timed_match_shows_when_it_ends(
    winner: str, english: str, italian: str
) -> None:
    table = started(3, time_limit=30, time_limit_winner=winner)
    assert table.started_at is not None
    ends = int(table.started_at + 30 * 60)
    text = layout_text((await table_layout(table)).view)  # type: ignore[arg-type]
    assert f"The match ends <t:{ends}:R>: then whoever holds {english}" in text
    italian_table = replace(table, language="it")
    text = layout_text((await table_layout(italian_table)).view)  # type: ignore[arg-type]
    assert f"La partita finisce <t:{ends}:R>" in text
    assert italian in text


async def test_an_untimed_match_says_nothing_of_its_end() -> None:
    text = layout_text((await table_layout(started(3))).view)  # type: ignore[arg-type]
    assert "match ends" not in text
