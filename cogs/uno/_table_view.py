"""The public table message as one Components V2 layout: readable on a phone, no upload a move.

The table is a container whose accent colour is the colour in play. At its top a section
says whose turn it is (and until when, as a Discord timestamp that counts down by itself),
the top card, the colour, the direction and the draw pile, with the top card's emoji as the
section's thumbnail: the emoji's image lives on Discord's CDN, uploaded once (``_emojis.py``),
so an ordinary move uploads nothing. Then every seat in words — the name whole, in any script,
at Discord's own text size; the card count; UNO! while the call stands; the team; the level of
a computer — the scores, the last moves, and the buttons. A footer in small print names the
table and its version (tests and support read it).

Between hands and at the end, the scoring card (a Pillow picture) is shown in a media
gallery: one upload per hand. The full table picture of earlier versions stays available on
request: the **Picture** button sends it to whoever asks, in an ephemeral message.

Discord's limits for such a message: 40 components in all (nested ones counted) and 4,000
characters of text; a 20-seat table stays within both (``tests/cogs/test_table_view.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from engine.views import TableView
from renders import render_standings
from tables.table import Table

from ._components import button, select
from ._emojis import CardEmojis
from ._house import differences
from ._i18n import speaking, t
from ._messages import PICTURES, Payload, Shown, scoring_card, standings_key
from ._present import (
    card_name,
    cards_count,
    colour_name,
    describe,
    preset_name,
    rules_summary,
    team_name,
)
from ._verbs import VERBS

#: The accent colour of the container: the colour in play (the lobby and a closed table grey).
ACCENTS: dict[str, int] = {
    "R": 0xE53935,
    "Y": 0xFDD835,
    "G": 0x43A047,
    "B": 0x1E88E5,
    "P": 0xEC407A,  # UNO Flip's dark side
    "T": 0x00897B,
    "O": 0xFB8C00,
    "V": 0x8E24AA,
}
NEUTRAL = 0x2F3136


async def table_layout(
    table: Table, emojis: CardEmojis | None = None, *, showing: Shown | None = None
) -> Payload:
    """The public table message, in the table's language. ``showing``: the picture the
    message shows now (the scoring card); the same one is kept, not drawn or uploaded again."""
    with speaking(table.language):
        return await _layout(table, emojis, showing)


async def _layout(table: Table, emojis: CardEmojis | None, showing: Shown | None) -> Payload:
    view = discord.ui.LayoutView(timeout=None)
    image: bytes | None = None
    picture: str | None = None
    kept: discord.Attachment | None = None
    alt = ""
    match = table.match
    if match is None:
        body = _lobby(table)
        accent = NEUTRAL
    else:
        public = match.hand.public_view()
        accent = ACCENTS.get(public.colour.value, NEUTRAL) if public.colour else NEUTRAL
        if table.status != "playing":
            accent = NEUTRAL
        body = _game(table, public, emojis)
        if public.termination is not None and match.history:
            card = scoring_card(table)
            picture = standings_key(card)
            if showing is not None and showing.key == picture:
                kept = showing.attachment
            else:
                image = await PICTURES.get(picture, lambda: render_standings(*card))
            alt = "; ".join([card[0], *(" ".join(row) for row in card[2])])
    container: discord.ui.Container[Any] = discord.ui.Container(
        accent_colour=discord.Colour(accent)
    )
    for part in body:
        container.add_item(part)
    if picture is not None:
        container.add_item(
            discord.ui.MediaGallery(
                discord.MediaGalleryItem("attachment://standings.png", description=alt[:1000])
            )
        )
    recent = [line for line in (describe(r, table.names()) for r in table.recent[-5:]) if line]
    if recent:
        container.add_item(discord.ui.Separator(spacing=discord.SeparatorSpacing.small))
        lines = [f"**{t('table.recent')}**", *(f"• {line}" for line in recent)]
        container.add_item(discord.ui.TextDisplay("\n".join(lines)))
    for row in _buttons(table):
        container.add_item(row)
    view.add_item(container)
    view.add_item(
        discord.ui.TextDisplay(f"-# {t('table.footer', id=table.id, version=table.version)}")
    )
    view.stop()
    return Payload(None, None, image, "standings.png", alt[:1000], view, picture=picture, kept=kept)


def _title(text: str) -> discord.ui.TextDisplay[Any]:
    return discord.ui.TextDisplay(f"## {text}")


def _rules_line(table: Table) -> str:
    line = t("table.rules", preset=preset_name(table.preset), summary=rules_summary(table.rules))
    changed = differences(table.rules, table.preset)
    if changed:
        line += "\n" + t("table.house_rules", changes="; ".join(changed))
    return line


def _lobby(table: Table) -> list[discord.ui.Item[Any]]:
    title = t("table.title.lobby" if table.status == "lobby" else "table.title.closed")
    lines = [
        _rules_line(table),
        "",
        f"**{t('table.players', count=len(table.players), capacity=table.capacity)}**",
    ]
    teams = table.rules.teams
    for player in table.players:
        name = _plain(player.name)
        if player.user_id == table.host_id:
            name = t("table.host", name=name)
        if player.level is not None:
            name = f"{name} · {t(f'level.{player.level}')}"
        if teams and player.team is not None and player.team < teams:
            name = f"{name} · {team_name(player.team)}"
        lines.append(f"• {name}")
    if table.invited and table.status == "lobby":
        lines.append(t("table.invited", players=", ".join(f"<@{u}>" for u in table.invited)))
    if table.status == "lobby":
        lines.append("")
        lines.append(t("table.lobby_help", capacity=table.capacity))
        if teams:
            lines.append(t("table.teams_help", teams=teams))
    return [_title(title), discord.ui.TextDisplay(_fit("\n".join(lines)))]


def _game(table: Table, public: TableView, emojis: CardEmojis | None) -> list[discord.ui.Item[Any]]:
    match = table.match
    assert match is not None
    names = table.names()
    current = table.players[public.current]
    over = public.termination is not None
    if table.status == "playing":
        title = t("table.title.playing", hand=match.hand_number)
    else:
        title = t(f"table.title.{table.status}")
    top_emoji = emojis.text(public.top, public.side) if emojis is not None else ""
    facts = [f"{top_emoji} {t('table.top', card=card_name(public.top))}".strip()]
    if public.colour is not None:
        facts.append(t("table.colour", colour=colour_name(public.colour)))
    else:
        facts.append(t("table.colour_pending", name=_plain(names[public.current])))
    facts.append(t("table.direction.cw" if public.clockwise else "table.direction.ccw"))
    facts.append(t("table.draw_pile", count=public.draw_size))
    head = [f"## {title}"]
    if table.status == "playing" and not over:
        head.append(f"### {t('table.turn', mention=current.mention or _plain(current.name))}")
        if public.pending:
            head.append(
                t("table.pending", name=_plain(names[public.current]), count=public.pending)
            )
        timed = table.rules.turn_seconds and table.deadline is not None
        if timed and not current.is_automatic:
            head.append(t("table.deadline", at=int(table.deadline or 0)))
    elif table.status == "playing" and table.deadline is not None:
        head.append(t("table.next_hand", at=int(table.deadline)))
    if table.match_ends_at is not None:
        # R-ALT-1: the table shows the time left in a timed match.
        winner = table.rules.time_limit_winner.value
        head.append(t(f"table.match_ends.{winner}", at=int(table.match_ends_at)))
    head.append(" · ".join(facts))
    thumbnail = emojis.url(public.top, public.side) if emojis is not None else None
    top: discord.ui.Item[Any]
    if thumbnail is not None:
        top = discord.ui.Section(
            discord.ui.TextDisplay("\n".join(head)),
            accessory=discord.ui.Thumbnail(thumbnail, description=card_name(public.top)),
        )
    else:
        top = discord.ui.TextDisplay("\n".join(head))
    parts: list[discord.ui.Item[Any]] = [top, discord.ui.Separator()]
    parts.append(discord.ui.TextDisplay(_fit("\n".join(_seats(table, public)))))
    scores = _scores(table)
    if scores:
        parts.append(discord.ui.TextDisplay(_fit("\n".join(scores))))
    return parts


def _seats(table: Table, public: TableView) -> list[str]:
    """One line a seat: the name whole (any script), cards, UNO!, team, level."""
    match = table.match
    assert match is not None
    names = table.names()
    lines = []
    over = public.termination is not None
    for seat, name in enumerate(names):
        marker = "▶" if seat == public.current and not over else "•"
        shown = f"**{_plain(name)}**" if marker == "▶" else _plain(name)
        count = public.card_counts[seat]
        if seat in match.left:
            lines.append(t("table.seat.left", marker=marker, name=shown))
            continue
        if seat in public.out:
            place = public.out.index(seat) + 1
            lines.append(t("table.seat.out", marker=marker, name=shown, place=place))
            continue
        line = t("table.seat", marker=marker, name=shown, cards=cards_count(count))
        if count == 1 and (
            seat in table.called_uno or (public.uno_seat == seat and public.uno_called)
        ):
            line += t("table.uno")
        level = table.players[seat].level
        if level is not None:
            line += f" · 🤖 {t(f'level.{level}')}"
        if match.rules.teams:
            line += f" · {team_name(match.team_of(seat))}"
        lines.append(line)
    return lines


def _scores(table: Table) -> list[str]:
    match = table.match
    assert match is not None
    if not any(match.scores):
        return []
    names = table.names()
    lines = [f"**{t('table.scores')}**"]
    if match.rules.teams:  # R-TEAM-2: partners' points add up
        for team, total in sorted(match.team_scores().items()):
            lines.append(t("table.score_line", name=team_name(team), score=total))
    for standing in match.standings():
        lines.append(t("table.score_line", name=_plain(names[standing.seat]), score=standing.score))
    if match.is_over:
        first = match.ranking[0]
        if match.rules.teams:
            team = match.team_of(first)
            partners = ", ".join(_plain(n) for s, n in enumerate(names) if match.team_of(s) == team)
            lines.append(t("table.winners", team=team_name(team), names=partners))
        else:
            lines.append(t("table.winner", name=_plain(names[first])))
    return lines


def _row(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.ActionRow[Any]:
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    for item in items:
        row.add_item(item)
    return row


def _buttons(table: Table) -> list[discord.ui.ActionRow[Any]]:
    """The table message's buttons, as the verb registry shows them for the table's state,
    and in a lobby of teams the team select."""
    buttons = [
        button(verb.name, table.id, None, label=t(verb.label))
        for verb in VERBS
        if verb.shown is not None and verb.shown(table)
    ]
    rows = [_row(buttons)] if buttons else []
    teams = table.rules.teams
    if teams and table.status == "lobby":
        options = [discord.SelectOption(label=team_name(n), value=str(n)) for n in range(teams)]
        team = select("team", table.id, None, None, placeholder=t("select.team"), options=options)
        rows.append(_row([team]))
    return rows


def _plain(name: str) -> str:
    """A name as text, not markdown (a name may hold ``*`` or ``_``)."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def _fit(text: str, most: int = 1800) -> str:
    """Text of one display, cut with an ellipsis rather than refused (the limit is per message:
    4,000 characters; a 20-seat table's lines stay well below)."""
    return text if len(text) <= most else text[: most - 1] + "…"
