"""Card faces as application emojis: uploaded once, found again by name, replaced when the
art changes.

An application may own up to 2,000 emojis, usable in any server the bot is in (discord.py
2.5: ``Client.create_application_emoji``). The bot needs about 120 — every face of the
classic, modern and blank-card decks and both sides of UNO Flip, and a card back — listed by
``renders.emoji_set`` and drawn from the project's own card art. Each is uploaded under its
name and the first eight hex digits of the fingerprint of its art's inputs
(``uno_r7_3fa2c9e1``: ``renders.emoji.art_fingerprint``, the drawing code and the Pillow
that runs it), so a later start finds every emoji by name without drawing one (drawing all
of them took 0.9 s of CPU at every start), and an emoji whose art changed is replaced (the
old one deleted, the new one drawn, in a worker thread, and uploaded). The table message
then shows the top card as a thumbnail (the emoji's image URL: no picture is uploaded per
move), and hands and buttons show cards as emojis.

Uploading happens in the background after start-up; until an emoji is there, the messages
name the card in words only. Several processes of one bot may start together: an upload
refused because the name exists already is followed by a fresh look at the emojis.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from engine import CardFace
from renders import EmojiArt, emoji_name, emoji_set

from ._delivery import trouble

log = logging.getLogger(__name__)


class CardEmojis:
    """The bot's card emojis, by the name ``renders.emoji_name`` gives a face."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._emojis: dict[str, discord.Emoji] = {}
        self.drawn = 0
        self.uploaded = 0
        self.replaced = 0
        self.ready = asyncio.Event()

    def get(self, face: CardFace | None, side: int = 0) -> discord.Emoji | None:
        """The emoji of ``face`` as shown on ``side`` (``None``: the card back), if uploaded."""
        return self._emojis.get(emoji_name(face, side))

    def text(self, face: CardFace | None, side: int = 0) -> str:
        """The emoji of ``face`` in message text (``""`` while it is not uploaded)."""
        emoji = self.get(face, side)
        return str(emoji) if emoji is not None else ""

    def url(self, face: CardFace | None, side: int = 0) -> str | None:
        """The image address of ``face``'s emoji (a thumbnail can show it)."""
        emoji = self.get(face, side)
        return emoji.url if emoji is not None else None

    async def ensure(self) -> None:
        """Find the emojis uploaded before; upload what is missing or changed."""
        try:
            await self._ensure()
        except Exception as exc:
            log.warning("Card emojis not ready (%s); cards are named in words", trouble(exc))
        finally:
            self.ready.set()

    async def _ensure(self) -> None:
        wanted = emoji_set()
        existing = {emoji.name: emoji for emoji in await self.client.fetch_application_emojis()}
        by_base: dict[str, list[discord.Emoji]] = {}
        for name, emoji in existing.items():
            base, _, _ = name.rpartition("_")
            by_base.setdefault(base, []).append(emoji)
        for art in wanted:
            if art.versioned_name in existing:
                continue  # only what must be uploaded is drawn
            # Off the event loop, one picture at a time: a bot told to stop meanwhile stops
            # after the picture in hand, not after all of them (asyncio.run waits for the
            # worker threads' work before it returns; ~120 take seconds on a busy core).
            picture = await asyncio.to_thread(_png, art)
            self.drawn += 1
            found = await self._upload(art, picture, by_base.get(art.name, []), existing)
            if found is not None:
                existing[art.versioned_name] = found
        for art in wanted:
            if art.versioned_name in existing:
                self._emojis[art.name] = existing[art.versioned_name]
        log.info(
            "Card emojis ready: %d (%d drawn, %d uploaded, %d replaced)",
            len(self._emojis),
            self.drawn,
            self.uploaded,
            self.replaced,
        )

    async def _upload(
        self,
        art: EmojiArt,
        picture: bytes,
        older: list[discord.Emoji],
        existing: dict[str, discord.Emoji],
    ) -> discord.Emoji | None:
        """Upload ``art``; an older picture of the same face goes first (its art changed).

        Refused because the name is taken: another process of the bot (a shard starting at
        the same time) uploaded it meanwhile; that one is taken, and ``existing`` learns every
        emoji uploaded by then, so the ones the other process did are not tried again."""
        for old in older:
            await old.delete()
            self.replaced += 1
        try:
            emoji = await self.client.create_application_emoji(
                name=art.versioned_name, image=picture
            )
        except discord.HTTPException as exc:
            again = await self.client.fetch_application_emojis()
            existing.update((e.name, e) for e in again)
            emoji_found = existing.get(art.versioned_name)
            if emoji_found is None:
                log.warning("Could not upload the emoji %s (%s)", art.versioned_name, trouble(exc))
            return emoji_found
        self.uploaded += 1
        return emoji


def _png(art: EmojiArt) -> bytes:
    """The emoji's picture (drawn in a worker thread)."""
    return art.png
