"""The invite's permissions are enough: the bot plays with exactly those and nothing else.

The fake Discord checks the bot's permissions on every channel request (View Channel, Send
Messages or Send Messages in Threads, Attach Files for a picture, Manage Messages to delete
someone else's message). Here @everyone has no permission at all and the bot's role has
exactly what ``uno-bot invite`` asks for: a table opens, plays, is posted again at the bottom
(its old message deleted) and works in a thread. Without one of them, the same table fails.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fakediscord import BotProcess, FakeDiscord
from hosting.invite import permissions

SEND_MESSAGES = 1 << 11  # Discord's bits (https://discord.com/developers/docs/topics/permissions)


@dataclass
class Server:
    fake: FakeDiscord
    bot: BotProcess
    channel: Any
    thread: Any
    alice: Any
    bruno: Any


@pytest.fixture
async def invited(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Server]:
    granted = getattr(request, "param", permissions().value)
    fake = FakeDiscord()
    guild = fake.add_guild("Invited", bot_permissions=granted, everyone_permissions=0)
    channel = guild.add_text_channel("uno")
    thread = channel.add_thread("uno night")
    alice, bruno = fake.add_user("alice"), fake.add_user("bruno")
    guild.add_member(alice)
    guild.add_member(bruno)
    await fake.start()
    try:
        async with BotProcess(fake, database_path=tmp_path / "uno.sqlite3", dev_guild=guild) as bot:
            yield Server(fake, bot, channel, thread, alice, bruno)
    finally:
        await fake.close()


async def act(server: Server, user: Any, where: Any, command: str, **options: Any) -> Any:
    result = await server.fake.slash(user, where, command, **options)
    await result.done()
    result.assert_answered_within(3.0)
    return result


async def play_a_little(server: Server, where: Any) -> None:
    """Open a table, seat two, start, look at a hand, and post the table again."""
    await act(server, server.alice, where, "uno new")
    await act(server, server.bruno, where, "uno join")
    await act(server, server.alice, where, "uno start")
    await act(server, server.bruno, where, "uno hand")
    await act(server, server.alice, where, "uno table")


def table_messages(server: Server, where: Any) -> list[Any]:
    """The public table messages (the lobby and the game, Components V2), not the answers."""
    return [m for m in server.fake.channel_messages(where) if m.is_components_v2]


async def test_the_invite_permissions_are_enough_in_channels_and_threads(
    invited: Server,
) -> None:
    for where in (invited.channel, invited.thread):
        await play_a_little(invited, where)
        shown = table_messages(invited, where)
        assert len(shown) == 1  # posted again at the bottom, the old one deleted
        assert not shown[0].attachments  # an ordinary move uploads nothing
    invited.fake.assert_clean()
    invited.bot.assert_healthy()


@pytest.mark.parametrize("invited", [permissions().value & ~SEND_MESSAGES], indirect=True)
async def test_one_permission_less_and_the_table_cannot_be_posted(invited: Server) -> None:
    """The check above can fail: the fake does refuse what the bot may not do."""
    await play_a_little(invited, invited.channel)
    refused = [r for r in invited.fake.errors if r.status == 403]
    assert refused
    assert {(r.method, r.route) for r in refused} == {("POST", "/channels/{channel_id}/messages")}
    assert "Discord refused its message" in invited.bot.output_text
