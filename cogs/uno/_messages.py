"""Discord payloads for the table message and a player's hand.

Images are rendered in a worker thread (never on the event loop). The table message is built
from the public view only; a hand is built for its owner's seat and is only ever sent as an
ephemeral message to that user.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from engine import Phase
from engine.actions import CatchUno, ChooseColour, Draw, Play
from engine.cards import CardFace
from engine.views import PlayerView
from renders import (
    hand_key,
    playable_cards,
    render_hand,
    render_standings,
    render_table,
    table_key,
)
from tables.table import Table

from ._components import button, select
from ._house import differences
from ._i18n import speaking, t
from ._present import (
    card_name,
    cards_word,
    colour_name,
    describe,
    preset_name,
    rules_summary,
    team_name,
)
from ._verbs import BY_NAME, WITH_UNO, verb_for

SELECT_PAGE = 25
COLOUR_STYLES = {
    "R": "danger",
    "Y": "secondary",
    "G": "success",
    "B": "primary",
    # UNO Flip's dark side
    "P": "danger",
    "T": "success",
    "O": "secondary",
    "V": "primary",
}
COLOUR_EMOJI = {
    "R": "🟥",
    "Y": "🟨",
    "G": "🟩",
    "B": "🟦",
    "P": "🌸",
    "T": "🌊",
    "O": "🟧",
    "V": "🟪",
}


@dataclass
class Payload:
    """What to send or edit: text, one embed, one image file and the components.

    The view is stopped as soon as the payload is made: clicks are routed by their custom_id
    alone (the ``Uno`` cog's ``on_interaction``), so the view never needs to listen.
    A listening view would be kept (with a 15-minute timer, for ephemeral messages) by
    discord.py's view store for every message sent — memory, and work for the collector.
    """

    content: str | None
    embed: discord.Embed
    image: bytes | None
    filename: str
    alt: str
    view: discord.ui.View
    mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)

    def __post_init__(self) -> None:
        self.view.stop()

    def files(self) -> list[discord.File]:
        """Fresh file objects (a File can be sent only once)."""
        if self.image is None:
            return []
        return [discord.File(io.BytesIO(self.image), filename=self.filename, description=self.alt)]

    def send_kwargs(self) -> dict[str, Any]:
        """Arguments for ``send``/``send_message``/``followup.send``."""
        return {
            "content": self.content,
            "embed": self.embed,
            "files": self.files(),
            "view": self.view,
            "allowed_mentions": self.mentions,
        }

    def edit_kwargs(self) -> dict[str, Any]:
        """Arguments for ``edit``/``edit_message``/``edit_original_response``."""
        return {
            "content": self.content,
            "embed": self.embed,
            "attachments": self.files(),
            "view": self.view,
            "allowed_mentions": self.mentions,
        }


# -- pictures ---------------------------------------------------------------------------------


class Pictures:
    """Rendered pictures by what they show: a picture is drawn once for each content.

    The keys come from ``renders`` (``table_key``, ``hand_key``: equal keys mean
    byte-identical PNGs), so a cached picture can never show another state than the one
    asked for. A hand's key stands for the hand itself: it stays in memory, never in a log
    or an id. Renders run in a worker thread, never on the event loop.
    """

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._pictures: OrderedDict[str, bytes] = OrderedDict()
        self.hits = 0
        self.misses = 0

    async def get(self, key: str, render: Callable[[], bytes]) -> bytes:
        """The picture of ``key``, rendered by ``render`` if it is not kept."""
        picture = self._pictures.get(key)
        if picture is not None:
            self._pictures.move_to_end(key)
            self.hits += 1
            return picture
        self.misses += 1
        picture = await asyncio.to_thread(render)
        self._pictures[key] = picture
        if len(self._pictures) > self._size:
            self._pictures.popitem(last=False)
        return picture


PICTURES = Pictures()


def standings_key(card: tuple[str, list[str], list[list[str]], int]) -> str:
    """The key of a scoring card: its words and numbers are all it shows."""
    return "standings:" + hashlib.blake2b(repr(card).encode(), digest_size=16).hexdigest()


# -- the table message ------------------------------------------------------------------------


async def table_payload(table: Table) -> Payload:
    """The public table message, in the table's language: image, facts, recent moves, buttons."""
    with speaking(table.language):
        return await _table_payload(table)


async def _table_payload(table: Table) -> Payload:
    names = table.names()
    embed = discord.Embed(colour=discord.Colour.dark_green())
    view = discord.ui.View(timeout=None)
    content = None
    mentions = discord.AllowedMentions.none()
    image: bytes | None = None
    alt = ""
    lines = [t("table.rules", preset=preset_name(table.preset), summary=rules_summary(table.rules))]
    changed = differences(table.rules, table.preset)
    if changed:
        lines.append(t("table.house_rules", changes="; ".join(changed)))
    if table.match is None:
        embed.title = t("table.title.lobby" if table.status == "lobby" else "table.title.closed")
        lines.append("")
        lines.append(f"**{t('table.players', count=len(names), capacity=table.capacity)}**")
        teams = table.rules.teams
        for player in table.players:
            name = player.name
            if player.user_id == table.host_id:
                name = t("table.host", name=name)
            if player.level is not None:
                name = f"{name} · {t(f'level.{player.level}')}"
            if teams and player.team is not None and player.team < teams:
                name = f"{name} · {team_name(player.team)}"
            lines.append(f"• {name}")
        if table.invited and table.status == "lobby":
            invited = ", ".join(f"<@{user}>" for user in table.invited)
            lines.append(t("table.invited", players=invited))
        if table.status == "lobby":
            lines.append("")
            lines.append(t("table.lobby_help", capacity=table.capacity))
            if teams:
                lines.append(t("table.teams_help", teams=teams))
            for verb in ("join", "leave", "start", "computer", "rules"):
                view.add_item(button(verb, table.id, None, label=t(BY_NAME[verb].label)))
            if teams:
                options = [
                    discord.SelectOption(label=team_name(n), value=str(n)) for n in range(teams)
                ]
                view.add_item(
                    select(
                        "team", table.id, None, None, placeholder=t("select.team"), options=options
                    )
                )
    else:
        match = table.match
        public = match.hand.public_view()
        if table.status == "playing":
            embed.title = t("table.title.playing", hand=match.hand_number)
        else:
            embed.title = t(f"table.title.{table.status}")
        lines.extend(_table_facts(table))
        current = table.players[public.current]
        between_hands = table.status == "playing" and public.termination is not None
        if between_hands:
            if table.deadline is not None:
                lines.append("")
                lines.append(t("table.next_hand", at=int(table.deadline)))
            view.add_item(button("next", table.id, None, label=t("button.next_hand")))
        if table.status == "playing" and not public.termination:
            # Mentions in an edited message never notify: the turn's ping is a message of
            # its own (see _pings.py); this one only names whose turn it is.
            content = t("table.turn", mention=current.mention or current.name)
            view.add_item(button("hand", table.id, None, label=t("button.hand")))
        if table.status == "finished":
            view.add_item(button("again", table.id, None, label=t("button.again")))
        if public.termination is not None and match.history:
            # Between hands and at the end: the scoring card instead of the table.
            card = _scoring_card(table)
            image = await PICTURES.get(standings_key(card), lambda: render_standings(*card))
            alt = "; ".join([card[0], *(" ".join(row) for row in card[2])])
        else:
            image = await PICTURES.get(
                table_key(public, names), lambda: render_table(public, names)
            )
            alt = t(
                "table.image_alt",
                card=card_name(public.top),
                turn=t("table.turn", mention=current.name),
            )
    recent = [line for line in (describe(r, names) for r in table.recent[-5:]) if line]
    if recent:
        lines.append("")
        lines.append(f"**{t('table.recent')}**")
        lines.extend(f"• {line}" for line in recent)
    embed.description = "\n".join(lines)[:4000]
    if image is not None:
        embed.set_image(url="attachment://table.png")
    embed.set_footer(text=t("table.footer", id=table.id, version=table.version))
    return Payload(content, embed, image, "table.png", alt[:1000], view, mentions)


def _scoring_card(table: Table) -> tuple[str, list[str], list[list[str]], int]:
    """Title, columns and rows of the hand's scoring with the running totals."""
    match = table.match
    assert match is not None
    last = match.history[-1]
    names = table.names()
    title = (
        t("table.final_standings")
        if match.is_over
        else t("table.hand_scoring", hand=len(match.history))
    )
    columns = [t("board.rank"), t("board.name"), t("table.col.hand"), t("table.col.total")]
    rows = []
    for standing in match.standings():
        gain = last.gains[standing.seat] if standing.seat < len(last.gains) else 0
        rows.append([str(standing.place), names[standing.seat], f"{gain:+d}", str(standing.score)])
    return title, columns, rows, 1


def _table_facts(table: Table) -> list[str]:
    match = table.match
    assert match is not None
    names = table.names()
    public = match.hand.public_view()
    lines = [""]
    lines.append(t("table.top", card=card_name(public.top)))
    if public.colour is not None:
        lines.append(t("table.colour", colour=colour_name(public.colour)))
    else:
        lines.append(t("table.colour_pending", name=names[public.current]))
    lines.append(t("table.direction.cw" if public.clockwise else "table.direction.ccw"))
    lines.append(t("table.draw_pile", count=public.draw_size))
    if public.pending:
        lines.append(t("table.pending", name=names[public.current], count=public.pending))
    timed = table.rules.turn_seconds and table.deadline is not None and table.status == "playing"
    if timed and table.deadline is not None and not table.players[public.current].is_automatic:
        lines.append(t("table.deadline", at=int(table.deadline)))
    lines.append("")
    for seat, name in enumerate(names):
        marker = "▶" if seat == public.current and not public.termination else "•"
        count = public.card_counts[seat]
        if seat in match.left:
            lines.append(t("table.seat.left", marker=marker, name=name))
        elif seat in public.out:
            place = public.out.index(seat) + 1
            lines.append(t("table.seat.out", marker=marker, name=name, place=place))
        else:
            line = t("table.seat", marker=marker, name=name, count=count, cards=cards_word(count))
            level = table.players[seat].level
            if level is not None:
                line += f" · 🤖 {t(f'level.{level}')}"
            if match.rules.teams:
                line += f" · {team_name(match.team_of(seat))}"
            if public.uno_seat == seat and public.uno_called:
                line += t("table.uno")
            lines.append(line)
    if any(match.scores):
        lines.append("")
        lines.append(f"**{t('table.scores')}**")
        if match.rules.teams:  # R-TEAM-2: partners' points add up
            for team, total in sorted(match.team_scores().items()):
                lines.append(t("table.score_line", name=team_name(team), score=total))
        for standing in match.standings():
            lines.append(t("table.score_line", name=names[standing.seat], score=standing.score))
    if match.is_over:
        lines.append("")
        first = match.ranking[0]
        if match.rules.teams:
            team = match.team_of(first)
            partners = ", ".join(n for s, n in enumerate(names) if match.team_of(s) == team)
            lines.append(t("table.winners", team=team_name(team), names=partners))
        else:
            lines.append(t("table.winner", name=names[first]))
    return lines


# -- the hand ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandState:
    """UI state of a hand message that is not game state: a wild waiting for a colour."""

    page: int = 0
    wild: str | None = None  # "W", "W4" or "WH" picked, colour not chosen yet
    swap_colour: str | None = None  # Swap Hands: colour chosen, opponent not yet
    uno: bool = False  # the wild was picked with "and call UNO!" (R-UNO-1)


def hand_signature(table: Table, seat: int) -> tuple[Any, ...]:
    """What ``seat``'s hand message offers: its cards first, then what it may do now.

    An open hand is edited only when this changes — the turn arrives or leaves, a catch or a
    challenge becomes possible, the cards change — not at every move of the others.
    """
    if table.match is None:
        return ((), (), None)
    state = table.match.hand
    view = state.view_for(seat)
    mine = view.table.current == seat and view.table.termination is None
    return (
        tuple(card for card, _ in view.hand),
        tuple(sorted(str(a) for a in view.legal)),
        (view.table.phase, view.table.pending, view.drawn) if mine else None,
        view.table.termination is not None,
    )


async def hand_payload(
    table: Table, seat: int, *, notes: Sequence[str] = (), ui: HandState | None = None
) -> Payload:
    """The ephemeral hand of ``seat``: image, text list and the components to act."""
    ui = ui or HandState()
    match = table.match
    assert match is not None
    state = match.hand
    view = state.view_for(seat)
    names = table.names()
    image = await PICTURES.get(hand_key(view), lambda: render_hand(view))
    playable = playable_cards(view)
    count = len(view.hand)
    embed = discord.Embed(
        title=t("hand.title", count=count, cards=cards_word(count)),
        colour=discord.Colour.blurple(),
    )
    lines = list(notes)
    lines.extend(_status_lines(table, view))
    if view.hand:
        lines.append("")
        lines.extend(
            f"{t('hand.playable') if card in playable else t('hand.unplayable')} {card_name(face)}"
            for card, face in view.hand
        )
    else:
        lines.append(t("hand.no_cards"))
    text = "\n".join(lines)
    embed.description = text[:4000]
    embed.set_image(url="attachment://hand.png")
    embed.set_footer(text=t("hand.footer", id=table.id))
    alt = "; ".join(card_name(face) for _, face in view.hand) or t("hand.no_cards")
    components = _hand_components(table, view, names, ui)
    return Payload(None, embed, image, "hand.png", alt[:1000], components)


def asleep_payload(table_id: str) -> Payload:
    """What an open hand says just before its interaction token expires: it will not change
    any more; the button opens a fresh one."""
    embed = discord.Embed(
        title=t("hand.asleep.title"),
        description=t("hand.asleep"),
        colour=discord.Colour.dark_grey(),
    )
    embed.set_footer(text=t("hand.footer", id=table_id))
    view = discord.ui.View(timeout=None)
    view.add_item(button("hand", table_id, None, label=t("button.fresh_hand")))
    return Payload(None, embed, None, "hand.png", "", view)


def _status_lines(table: Table, view: PlayerView) -> list[str]:
    names = table.names()
    public = view.table
    if public.termination is not None:
        return [t("hand.over")]
    if public.current != view.seat:
        return [t("hand.waiting")]
    if public.phase is Phase.CHOOSE_COLOUR:
        return [t("hand.choose_start_colour")]
    if public.phase is Phase.DRAWN and view.drawn is not None:
        drawn = next(face for card, face in view.hand if card == view.drawn)
        return [t("hand.drawn", card=card_name(drawn))]
    if public.phase is Phase.PENALTY:
        return [t("hand.penalty", count=public.pending)]
    if public.phase is Phase.CHALLENGE:
        offender = table.match.hand.offender if table.match else None
        name = names[offender] if offender is not None else "?"
        return [t("hand.challenge", name=name, count=public.pending)]
    return [t("hand.your_turn")]


def _hand_components(
    table: Table, view: PlayerView, names: Sequence[str], ui: HandState
) -> discord.ui.View:
    """A component for each action the seat may take now (the registry says which)."""
    components = discord.ui.View(timeout=None)
    version = table.version
    legal = view.legal
    if ui.wild is not None and ui.swap_colour is None:
        # The colours this wild may name now (the side in play decides: UNO Flip).
        named = {
            a.colour.value
            for a in legal
            if isinstance(a, Play) and a.face.notation == ui.wild and a.colour is not None
        } or {f.colour.value for f in view.table.rules.deck().sides[view.table.side] if f.colour}
        mark = WITH_UNO if ui.uno else ""
        for colour in (c for c in COLOUR_STYLES if c in named):
            arg = f"{ui.wild}={colour}{mark}"
            components.add_item(_colour_button("colour", table, arg, colour))
        return components
    if ui.swap_colour is not None:
        targets = sorted({a.target for a in legal if isinstance(a, Play) and a.target is not None})
        options = [discord.SelectOption(label=names[s][:100], value=str(s)) for s in targets]
        if options:
            arg = f"WH={ui.swap_colour}"
            components.add_item(
                select(
                    "swap", table.id, version, arg, placeholder=t("select.swap"), options=options
                )
            )
        return components
    pages = _card_select(components, table, view, ui.page)
    for action in legal:
        verb = verb_for(action)
        if verb is None or verb.action is None or verb.name in ("pick", "colour", "swap"):
            continue  # cards are in the select; a wild's colour and target come next
        encoded = verb.action.encode(action)
        if isinstance(action, ChooseColour):
            components.add_item(_colour_button("choose", table, encoded, action.colour.value))
            continue
        label: str
        if isinstance(action, Draw) and view.table.phase in (Phase.PENALTY, Phase.CHALLENGE):
            label = t("button.take", count=view.table.pending)
        elif isinstance(action, CatchUno):
            label = t("button.catch", name=names[action.target])
        else:
            label = t(verb.label)
        components.add_item(button(verb.name, table.id, version, encoded, label=label))
    page = min(ui.page, pages - 1)
    for target, label in ((page - 1, "button.prev"), (page + 1, "button.next")):
        if pages > 1 and 0 <= target < pages:
            components.add_item(button("page", table.id, version, str(target), label=t(label)))
    return components


def _colour_button(verb: str, table: Table, arg: str | None, colour: str) -> discord.ui.Item[Any]:
    return button(
        verb,
        table.id,
        table.version,
        arg,
        label=colour_name(colour),
        style=COLOUR_STYLES[colour],
        emoji=COLOUR_EMOJI[colour],
    )


def _card_select(components: discord.ui.View, table: Table, view: PlayerView, page: int) -> int:
    """The playable cards, one option per distinct face (a page of at most 25); returns the
    number of pages. Wilds pick their colour in a second step. Holding two cards, each play
    is also offered with the UNO call (R-UNO-1), so nobody can catch you in between."""
    faces: dict[str, tuple[CardFace, int]] = {}
    for action in view.legal:
        if isinstance(action, Play) and action.face.notation not in faces:
            copies = sum(1 for _, face in view.hand if face == action.face)
            faces[action.face.notation] = (action.face, copies)
    calls = len(view.hand) == 2
    entries = [
        (face, copies, uno)
        for face, copies in faces.values()
        for uno in ((True, False) if calls and face.notation != "WH" else (False,))
    ]
    pages = max(1, -(-len(entries) // SELECT_PAGE))
    page = min(page, pages - 1)
    shown = entries[page * SELECT_PAGE : (page + 1) * SELECT_PAGE]
    if shown:
        placeholder = (
            t("select.play") if pages == 1 else t("select.play.page", page=page + 1, pages=pages)
        )
        options = [
            discord.SelectOption(
                label=_card_label(face, copies, uno)[:100],
                value=face.notation + (WITH_UNO if uno else ""),
                emoji=COLOUR_EMOJI.get(face.colour.value) if face.colour else "🌈",
            )
            for face, copies, uno in shown
        ]
        components.add_item(
            select(
                "pick", table.id, table.version, str(page), placeholder=placeholder, options=options
            )
        )
    return pages


def _card_label(face: CardFace, copies: int, uno: bool) -> str:
    label = card_name(face) + (f" ×{copies}" if copies > 1 else "")
    return t("select.play_and_uno", card=label) if uno else label


def needs_colour(face: CardFace) -> bool:
    """Wilds take a colour (and Swap Hands an opponent) in a second step."""
    return face.is_wild
