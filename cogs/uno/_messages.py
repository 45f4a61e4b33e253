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
from engine.actions import CatchUno, ChooseColour, Draw, Gift, Give, NoGift, Play, Swap
from engine.cards import CardFace
from engine.views import PlayerView
from renders import (
    hand_key,
    playable_cards,
    render_hand,
    render_table,
    table_key,
)
from tables.table import Table

from ._components import button, select
from ._emojis import CardEmojis
from ._i18n import t, t_plural
from ._present import (
    card_name,
    cards_count,
    colour_name,
)
from ._verbs import WITH_UNO, verb_for

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


@dataclass(frozen=True)
class Shown:
    """The picture a message shows now: its key (``renders.hand_key``, ``standings_key``) and
    its attachment there. An edit that shows the same picture keeps that attachment instead
    of uploading the picture again (Discord keeps the attachments an edit lists by id)."""

    key: str
    attachment: discord.Attachment


@dataclass
class Payload:
    """What to send or edit: text, one embed, one image file and the components — or a
    Components V2 layout (``view`` a ``LayoutView``: no text or embed beside it) and its file.

    ``picture`` is the key of the image (what it shows), ``kept`` the attachment of the
    message to be edited that shows it already: then ``image`` is not even drawn, and an edit
    lists that attachment instead of uploading a file (:meth:`edit_kwargs`).

    The view is stopped as soon as the payload is made: clicks are routed by their custom_id
    alone (the ``Uno`` cog's ``on_interaction``), so the view never needs to listen.
    A listening view would be kept (with a 15-minute timer, for ephemeral messages) by
    discord.py's view store for every message sent — memory, and work for the collector.
    """

    content: str | None
    embed: discord.Embed | None
    image: bytes | None
    filename: str
    alt: str
    view: discord.ui.View | discord.ui.LayoutView
    mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)
    picture: str | None = None
    kept: discord.Attachment | None = None

    def __post_init__(self) -> None:
        self.view.stop()

    def shown_on(self, message: discord.Message | None) -> Shown | None:
        """What ``message`` (as Discord answered a send or an edit of this payload) shows:
        this payload's picture and its attachment there, when it has one."""
        if self.picture is None or message is None:
            return None
        found = next((a for a in message.attachments if a.filename == self.filename), None)
        return Shown(self.picture, found) if found is not None else None

    @property
    def layout(self) -> bool:
        """A Components V2 message?"""
        return isinstance(self.view, discord.ui.LayoutView)

    def files(self) -> list[discord.File]:
        """Fresh file objects (a File can be sent only once)."""
        if self.image is None:
            return []
        return [discord.File(io.BytesIO(self.image), filename=self.filename, description=self.alt)]

    def attachments(self) -> list[discord.Attachment | discord.File]:
        """What an edit leaves on the message: the picture already there (``kept``: nothing
        uploaded), or a new file; any other attachment goes."""
        if self.kept is not None:
            return [self.kept]
        return list(self.files())

    def send_kwargs(self) -> dict[str, Any]:
        """Arguments for ``send``/``send_message``/``followup.send``."""
        if self.kept is not None:
            raise ValueError("a new message has no attachment to keep: draw the picture")
        kwargs: dict[str, Any] = {
            "files": self.files(),
            "view": self.view,
            "allowed_mentions": self.mentions,
        }
        if not self.layout:
            kwargs.update(content=self.content, embed=self.embed)
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Arguments for ``edit``/``edit_message``/``edit_original_response`` — the same for
        an edit through a token and for a callback that updates the clicked message (an
        UPDATE_MESSAGE response). A layout clears text and embeds: a message that had them
        becomes a Components V2 message."""
        return {
            "content": None if self.layout else self.content,
            "embeds": [] if self.layout or self.embed is None else [self.embed],
            "attachments": self.attachments(),
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


# -- the table picture, on request ------------------------------------------------------------


async def picture_payload(table: Table) -> Payload:
    """The table as a picture (the **Picture** button): what the message says, drawn."""
    match = table.match
    assert match is not None
    names = table.names()
    public = match.hand.public_view()
    called = table.called_uno
    image = await PICTURES.get(
        table_key(public, names, called_uno=called),
        lambda: render_table(public, names, called_uno=called),
    )
    current = table.players[public.current]
    turn = t("table.turn", mention=current.name)
    alt = t("table.image_alt", card=card_name(public.top), turn=turn)
    embed = discord.Embed(colour=discord.Colour.dark_green())
    embed.set_image(url="attachment://table.png")
    embed.set_footer(text=t("table.footer", id=table.id, version=table.version))
    return Payload(None, embed, image, "table.png", alt[:1000], discord.ui.View(timeout=None))


def scoring_card(table: Table) -> tuple[str, list[str], list[list[str]], int]:
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


# -- the hand ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandState:
    """UI state of a hand message that is not game state: a wild waiting for a colour."""

    page: int = 0
    wild: str | None = None  # "W", "W4" or "WH" picked, colour not chosen yet
    swap_colour: str | None = None  # Swap Hands: colour chosen, opponent not yet
    uno: bool = False  # the wild was picked with "and call UNO!" (R-UNO-1)
    give: str | None = None  # R-ALT-4: the card to give chosen, its opponent not yet


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
    table: Table,
    seat: int,
    *,
    notes: Sequence[str] = (),
    ui: HandState | None = None,
    emojis: CardEmojis | None = None,
    showing: Shown | None = None,
    picture: bool = True,
) -> Payload:
    """The ephemeral hand of ``seat``: image, text list and the components to act.

    ``showing``: the picture the message to be edited shows now. When it is this hand's
    picture (the cards did not change: the picture shows nothing else), the payload keeps
    that attachment and nothing is drawn or uploaded. Without ``picture`` (its player's
    ``/uno settings hand_picture off``) the hand is its text and card emojis alone: nothing
    is drawn, and no attachment is sent or kept."""
    ui = ui or HandState()
    match = table.match
    assert match is not None
    state = match.hand
    view = state.view_for(seat)
    names = table.names()
    key: str | None = hand_key(view) if picture else None
    kept = showing.attachment if showing is not None and showing.key == key else None
    image = None
    if key is not None and kept is None:
        image = await PICTURES.get(key, lambda: render_hand(view))
    playable = playable_cards(view)
    count = len(view.hand)
    embed = discord.Embed(
        title=t("hand.title", cards=cards_count(count)),
        colour=discord.Colour.blurple(),
    )
    lines = list(notes)
    lines.extend(_status_lines(table, view))
    if view.hand:
        lines.append("")
        side = view.table.side
        for card, face in view.hand:
            mark = t("hand.playable") if card in playable else t("hand.unplayable")
            emoji = emojis.text(face, side) if emojis is not None else ""
            lines.append(
                f"{mark} {emoji} {card_name(face)}" if emoji else f"{mark} {card_name(face)}"
            )
    else:
        lines.append(t("hand.no_cards"))
    text = "\n".join(lines)
    embed.description = text[:4000]
    if key is not None:
        embed.set_image(url="attachment://hand.png")
    embed.set_footer(text=t("hand.footer", id=table.id))
    alt = "; ".join(card_name(face) for _, face in view.hand) or t("hand.no_cards")
    components = _hand_components(table, view, names, ui, emojis)
    return Payload(None, embed, image, "hand.png", alt[:1000], components, picture=key, kept=kept)


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
    alt = public.alt
    if public.phase is Phase.SWAP:  # R-ALT-2, R-ALT-3
        return [t("hand.swap")]
    if public.phase is Phase.GIVE:  # R-ALT-4
        return [t("hand.give")]
    if public.phase is Phase.GIFT and alt is not None and alt.recipient is not None:  # R-ALT-5
        return [t("hand.gift", name=names[alt.recipient])]
    if public.phase is Phase.CHAIN:  # R-ALT-6 chain
        return [t("hand.chain")]
    if public.phase is Phase.COLOUR_ROUND and public.colour is not None:  # R-ALT-6
        return [t("hand.colour_round", colour=colour_name(public.colour))]
    if alt is not None and alt.quiet:  # R-ALT-6 no_actions
        return [t("hand.your_turn"), t_plural("hand.quiet", alt.quiet)]
    return [t("hand.your_turn")]


def _seat_options(names: Sequence[str], view: PlayerView, seats: Sequence[int]) -> list[Any]:
    counts = view.table.card_counts
    return [
        discord.SelectOption(label=f"{names[s]} — {cards_count(counts[s])}"[:100], value=str(s))
        for s in seats
    ]


def _face_options(
    view: PlayerView, faces: Sequence[CardFace], emojis: CardEmojis | None
) -> list[Any]:
    return [
        discord.SelectOption(
            label=card_name(face)[:100],
            value=face.notation,
            emoji=_card_emoji(face, view.table.side, emojis),
        )
        for face in faces
    ]


def _choice_menus(
    table: Table,
    view: PlayerView,
    names: Sequence[str],
    ui: HandState,
    emojis: CardEmojis | None,
) -> list[discord.ui.Item[Any]] | None:
    """The menus of the alternative rules' choices, when the hand waits for one: the
    opponent to swap hands with (R-ALT-2, R-ALT-3), the card a Skip gives and to whom
    (R-ALT-4), a partner's gift (R-ALT-5). ``None`` for any other phase."""
    legal = view.legal

    def menu(
        verb: str, arg: str | None, options: list[discord.SelectOption]
    ) -> discord.ui.Select[Any]:
        return select(
            verb, table.id, table.version, arg, placeholder=t(f"select.{verb}"), options=options
        )

    swaps = sorted({a.target for a in legal if isinstance(a, Swap)})
    if swaps:
        return [menu("exchange", None, _seat_options(names, view, swaps))]
    gives = [a for a in legal if isinstance(a, Give)]
    if gives:
        if ui.give is not None:
            targets = sorted({a.target for a in gives if a.face.notation == ui.give})
            if targets:
                return [menu("giveto", ui.give, _seat_options(names, view, targets))]
        faces = list(dict.fromkeys(a.face for a in gives))[:SELECT_PAGE]
        return [menu("give", None, _face_options(view, faces, emojis))]
    gifts = [a for a in legal if isinstance(a, Gift)]
    if gifts or any(isinstance(a, NoGift) for a in legal):
        items: list[discord.ui.Item[Any]] = []
        faces = list(dict.fromkeys(a.face for a in gifts))[:SELECT_PAGE]
        if faces:
            items.append(menu("gift", None, _face_options(view, faces, emojis)))
        items.append(button("nogift", table.id, table.version, None, label=t("button.nogift")))
        return items
    return None


#: Rows of card buttons a hand may fill; the last of Discord's five rows holds the other
#: actions (draw, pass, UNO!, catch, challenge).
CARD_ROWS = 4


def _card_buttons(
    table: Table, view: PlayerView, emojis: CardEmojis | None
) -> list[discord.ui.Item[Any]] | None:
    """A button for every playable card, in the hand's order — a wild one for every colour it
    may name, so it too takes one click; holding two cards, a button plays and calls UNO at
    once (R-UNO-1). ``None`` when they do not fit :data:`CARD_ROWS` rows of five."""
    playable: dict[str, list[Play]] = {}
    for action in view.legal:
        if isinstance(action, Play) and action.target is None:
            playable.setdefault(action.face.notation, []).append(action)
    swap = any(isinstance(a, Play) and a.target is not None for a in view.legal)
    mark = WITH_UNO if len(view.hand) == 2 else ""
    buttons: list[discord.ui.Item[Any]] = []
    shown: set[str] = set()
    side = view.table.side
    for _, face in view.hand:
        notation = face.notation
        if notation in shown or (notation not in playable and not (notation == "WH" and swap)):
            continue
        shown.add(notation)
        emoji = emojis.get(face, side) if emojis is not None else None
        if face.is_wild:
            colours = {a.colour.value for a in playable.get(notation, []) if a.colour is not None}
            if notation == "WH":  # Swap Hands: its colour now, its opponent next (R-DECK-4)
                colours = {f.colour.value for f in view.table.rules.deck().sides[side] if f.colour}
            for colour in (c for c in COLOUR_STYLES if c in colours):
                arg = f"{notation}={colour}{mark if notation != 'WH' else ''}"
                label = t("button.wild", card=card_name(face), colour=colour_name(colour))
                buttons.append(
                    button(
                        "colour",
                        table.id,
                        table.version,
                        arg,
                        label=label,
                        style=COLOUR_STYLES[colour],
                        emoji=emoji or _card_emoji(face, side, None),
                    )
                )
            continue
        copies = sum(1 for _, f in view.hand if f == face)
        label = card_name(face) + (f" ×{copies}" if copies > 1 else "")
        if mark:
            label = t("button.play_and_uno", card=label)
        colour = face.colour.value if face.colour else ""
        buttons.append(
            button(
                "play",
                table.id,
                table.version,
                notation + mark,
                label=label,
                style=COLOUR_STYLES.get(colour),
                emoji=emoji or _card_emoji(face, side, None),
            )
        )
    return buttons if len(buttons) <= CARD_ROWS * 5 else None


def _hand_components(
    table: Table,
    view: PlayerView,
    names: Sequence[str],
    ui: HandState,
    emojis: CardEmojis | None = None,
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
    choices = _choice_menus(table, view, names, ui, emojis)
    if choices is not None:  # a choice of the alternative rules (RULES.md §13)
        for item in choices:
            components.add_item(item)
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
    cards = _card_buttons(table, view, emojis)
    if cards is not None:  # one click a card
        pages = 1
        for item in cards:
            components.add_item(item)
    else:  # more cards than buttons fit: the menu
        pages = _card_select(components, table, view, ui.page, emojis)
    for action in legal:
        verb = verb_for(action)
        if verb is None or verb.action is None or verb.name in ("pick", "play", "colour", "swap"):
            continue  # the cards are above; a wild's target comes next
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


def _card_select(
    components: discord.ui.View,
    table: Table,
    view: PlayerView,
    page: int,
    emojis: CardEmojis | None = None,
) -> int:
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
                emoji=_card_emoji(face, view.table.side, emojis),
            )
            for face, copies, uno in shown
        ]
        components.add_item(
            select(
                "pick", table.id, table.version, str(page), placeholder=placeholder, options=options
            )
        )
    return pages


def _card_emoji(face: CardFace, side: int, emojis: CardEmojis | None) -> Any:
    """A card's own emoji, or its colour's square while the card emojis are not uploaded."""
    emoji = emojis.get(face, side) if emojis is not None else None
    if emoji is not None:
        return emoji
    return COLOUR_EMOJI.get(face.colour.value) if face.colour else "🌈"


def _card_label(face: CardFace, copies: int, uno: bool) -> str:
    label = card_name(face) + (f" ×{copies}" if copies > 1 else "")
    return t("select.play_and_uno", card=label) if uno else label
