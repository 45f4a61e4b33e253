"""Card emojis drawn for upload (cogs/uno/_emojis.py): a bot told to stop while it draws them
stops after the picture in hand. ``asyncio.run`` waits for the worker threads' work before it
returns, so one job that drew all ~120 held the stop for as long as the drawing took."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.uno import _emojis
from cogs.uno._emojis import CardEmojis
from renders import emoji_set


class EmptyApplication:
    """A Discord application with no emoji yet, whose uploads succeed at once."""

    async def fetch_application_emojis(self) -> list[Any]:
        return []

    async def create_application_emoji(self, *, name: str, image: bytes) -> Any:
        return SimpleNamespace(name=name, id=len(image))


async def test_a_stop_while_emojis_are_drawn_leaves_only_the_picture_in_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[str] = []
    second_started = threading.Event()
    release = threading.Event()
    draw = _emojis._png

    def held_drawing(art: Any) -> bytes:
        drawn.append(art.name)
        if len(drawn) == 2:  # the second picture: hold it until the test has stopped the bot
            second_started.set()
            release.wait(timeout=60)
        return draw(art)

    monkeypatch.setattr(_emojis, "_png", held_drawing)
    emojis = CardEmojis(EmptyApplication())  # type: ignore[arg-type]
    task = asyncio.create_task(emojis.ensure())
    await asyncio.to_thread(second_started.wait, 60)
    task.cancel()  # the bot stops (its cog cancels the task)
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.get_running_loop().shutdown_default_executor()  # what asyncio.run awaits
    assert len(drawn) == 2 < len(emoji_set())
    assert emojis.uploaded == 1  # the first one, drawn and uploaded before the stop
