"""What an answer showing a hand sends (issue 26): the picture the message already shows is
kept, not uploaded again; a click on the hand that still wants its first answer is answered by
one callback that updates it (``TableMessages.show_hand``), with the same payload as an edit.

Discord is stood in for by the two calls a hand uses — an edit of the interaction's response,
and the UPDATE_MESSAGE callback — which answer with the message as Discord would: its
attachments, a kept one by its id, a new upload with a new id.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import discord

from cogs.uno._table_message import TableMessages
from tables.table import Table
from tests.tables.tables import act, stacked

IDS = itertools.count(1000)


@dataclass
class Attachment:
    """An attachment as discord.py reads it from Discord's answer."""

    id: int
    filename: str


class Message(discord.Message):
    """A message as discord.py reads it from Discord's answer: its id and attachments (the
    rest of a real message is not needed here)."""

    def __init__(self, message_id: int) -> None:
        self.id = message_id
        self.attachments: list[Any] = []
        self.flags = discord.MessageFlags(ephemeral=True)

    def apply(self, kwargs: dict[str, Any]) -> Message:
        """The message after an edit: listed attachments kept, new files uploaded."""
        kept = []
        for item in kwargs["attachments"]:
            if isinstance(item, discord.File):
                kept.append(Attachment(next(IDS), item.filename or ""))
            else:
                assert item in self.attachments, "an edit may keep only the message's own files"
                kept.append(item)
        self.attachments = kept
        return self


class Response:
    def __init__(self, message: Message, kind: discord.InteractionResponseType | None) -> None:
        self.message = message
        self.type = kind
        self.callbacks: list[dict[str, Any]] = []

    def is_done(self) -> bool:
        return self.type is not None

    async def edit_message(self, **kwargs: Any) -> Any:
        assert not self.is_done(), "an interaction is answered once"
        self.type = discord.InteractionResponseType.message_update
        self.callbacks.append(kwargs)
        return SimpleNamespace(resource=self.message.apply(kwargs))

    async def send_message(self, *, ephemeral: bool, **kwargs: Any) -> Any:
        assert not self.is_done(), "an interaction is answered once"
        assert ephemeral, "a hand is only ever shown to its owner"
        self.type = discord.InteractionResponseType.channel_message
        self.callbacks.append(kwargs)
        created = Message(next(IDS))
        created.attachments = [Attachment(next(IDS), f.filename or "") for f in kwargs["files"]]
        return SimpleNamespace(resource=created)


class Interaction:
    """A click on ``clicked`` (None: a slash command), answered as ``deferred`` says."""

    def __init__(
        self, clicked: Message | None, deferred: discord.InteractionResponseType | None
    ) -> None:
        self.id = next(IDS)
        self.message = clicked
        self.original = clicked or Message(next(IDS))  # a deferred "thinking" makes a new one
        self.response = Response(self.original, deferred)
        self.created_at = discord.utils.utcnow()
        self.edits: list[dict[str, Any]] = []

    async def edit_original_response(self, **kwargs: Any) -> Message:
        self.edits.append(kwargs)
        return self.original.apply(kwargs)


def uploads(kwargs: dict[str, Any]) -> list[discord.File]:
    return [a for a in kwargs["attachments"] if isinstance(a, discord.File)]


def messages() -> TableMessages:
    return TableMessages(SimpleNamespace(), SimpleNamespace())  # type: ignore[arg-type]


async def show(messages: TableMessages, interaction: Interaction, table: Table, **kw: Any) -> None:
    await messages.show_hand(interaction, table, 0, **kw)  # type: ignore[arg-type]


async def test_a_hand_shown_again_keeps_its_picture_until_the_cards_change() -> None:
    table = stacked([["R1", "R5", "B9"], ["R3", "Y4", "G5"], ["R6", "Y7", "G8"]], "R9")
    surfaces = messages()
    opened = Interaction(None, discord.InteractionResponseType.deferred_channel_message)
    await show(surfaces, opened, table)
    (first,) = opened.edits
    assert [f.filename for f in uploads(first)] == ["hand.png"]  # a new message: uploaded
    hand = opened.original
    picture = hand.attachments[0]
    # Alice's move changes her cards: a click on her hand uploads the new picture.
    moved = act(table, 0, "R1")
    click = Interaction(hand, discord.InteractionResponseType.deferred_message_update)
    await show(surfaces, click, moved)
    assert len(uploads(click.edits[0])) == 1
    picture = hand.attachments[0]
    # Bruno's move changes nothing of hers: shown again, the picture is kept, not uploaded.
    later = act(moved, 1, "R3")
    again = Interaction(hand, discord.InteractionResponseType.deferred_message_update)
    await show(surfaces, again, later)
    assert again.edits[0]["attachments"] == [picture]
    assert hand.attachments == [picture]
    # A new message (the table's button, a slash command) always carries the picture.
    fresh = Interaction(None, discord.InteractionResponseType.deferred_channel_message)
    await show(surfaces, fresh, later)
    assert len(uploads(fresh.edits[0])) == 1
    surfaces.stop()


async def test_a_click_on_the_hand_is_answered_by_one_callback() -> None:
    table = stacked([["R1", "R5", "B9"], ["R3", "Y4", "G5"], ["R6", "Y7", "G8"]], "R9")
    surfaces = messages()
    opened = Interaction(None, discord.InteractionResponseType.deferred_channel_message)
    await show(surfaces, opened, table)
    hand = opened.original
    picture = hand.attachments[0]
    later = act(act(table, 0, "R1"), 1, "R3")
    # Not deferred: one UPDATE_MESSAGE callback carries the new hand, no edit follows.
    click = Interaction(hand, None)
    await show(surfaces, click, later)
    assert click.edits == []
    (answer,) = click.response.callbacks
    assert len(uploads(answer)) == 1  # Alice's cards changed
    picture = hand.attachments[0]
    assert picture.filename == "hand.png"
    assert answer["embeds"][0].title == "Your hand — 2 cards"
    # The same hand again by callback: the picture the message has is kept.
    still = act(later, 2, "R6")
    again = Interaction(hand, None)
    await show(surfaces, again, still)
    assert again.response.callbacks[0]["attachments"] == [picture]
    surfaces.stop()


async def test_show_my_hand_is_answered_by_one_callback_with_a_new_message() -> None:
    """The table's button or ``/uno hand`` without a deferral: one callback, a new ephemeral
    message with the picture (a new message keeps nothing)."""
    table = stacked([["R1", "R5", "B9"], ["R3", "Y4", "G5"], ["R6", "Y7", "G8"]], "R9")
    surfaces = messages()
    command = Interaction(None, None)
    await show(surfaces, command, table)
    (answer,) = command.response.callbacks
    assert [f.filename for f in answer["files"]] == ["hand.png"]
    assert command.response.type is discord.InteractionResponseType.channel_message
    assert command.edits == []
    surfaces.stop()
