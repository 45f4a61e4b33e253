"""The UNO extension: ``/uno`` and ``/uno-admin``, restart-proof components, table messages.

Only Discord lives here: commands (``_slash.py``), components (``_verbs.py``,
``_components.py``), the one error boundary (``_replies.py``), payloads (``_messages.py``,
``_table_message.py``), words (``_present.py``, ``_i18n.py``). The tables themselves — the
lobby, the match, the clock, the results — are the ``tables`` package.

Helper modules start with ``_``; only this package is an extension. It builds its own
:class:`~tables.TableService` from the bot's repository: a reload re-imports every
``cogs.uno`` module, and objects made from the old modules would not match the new ones.
"""

from __future__ import annotations

from typing import Any

from discord.ext import commands

from storage import GameRepository
from tables import DEFAULT_PAUSE, Clock, Shards, TableService
from tables.clock import DEFAULT_CATCH_GRACE, DEFAULT_HELD_GRACE

from ._boards import Boards
from ._emojis import CardEmojis
from ._gateway import GatewayWatch
from ._pings import TurnPings
from ._play import Uno
from ._replies import GuildPrefs, Replies
from ._slash import AdminGroup, UnoGroup
from ._table_message import TableMessages

__all__ = ["Uno", "setup", "teardown"]

GROUPS = ("uno", "uno-admin")


async def setup(bot: commands.Bot) -> None:
    """Add the cogs and the command groups over the bot's ``repo`` (see ``bot.py``)."""
    repo: Any = getattr(bot, "repo", None)
    if not isinstance(repo, GameRepository):
        raise RuntimeError("open the bot's GameRepository (bot.repo) before loading cogs.uno")
    settings = getattr(bot, "settings", None)
    # The guilds whose tables this process runs: those of its shards (all, unless SHARD_IDS
    # names some of SHARD_COUNT).
    shards = Shards.of(getattr(settings, "shard_count", None), getattr(settings, "shard_ids", None))
    service = TableService(repo, shards=shards)
    languages = GuildPrefs(repo.settings)
    replies = Replies(languages)
    watch = GatewayWatch(bot, service.outages, repo, alive_key=f"alive:{shards}")
    messages = TableMessages(bot, service)
    messages.pings = TurnPings(bot, languages.turn_ping)
    messages.emojis = CardEmojis(bot)
    service.listen(messages.heard)
    messages.clock = Clock(
        service,
        confirm=watch.confirm,
        causes=watch.causes,
        pause=getattr(settings, "computer_pause", DEFAULT_PAUSE),
        held_grace=getattr(settings, "held_seat_grace", DEFAULT_HELD_GRACE),
        catch_grace=getattr(settings, "catch_grace", DEFAULT_CATCH_GRACE),
    )
    play = Uno(bot, service, replies, messages)
    boards = Boards(repo, replies, languages, service)
    play.personal["forget"] = boards.on_forget
    await bot.add_cog(watch)
    await bot.add_cog(play)
    await bot.add_cog(boards)
    bot.tree.add_command(UnoGroup(play, boards, replies))
    bot.tree.add_command(AdminGroup(play, boards, replies))
    # Commands the tree cannot find (an outdated client, a forged name) are answered too;
    # every command interaction is checked at the edge first (forged options, duplicates, a
    # stopping bot). The tree calls its instance's interaction_check: no subclass needed.
    bot.tree.error(replies.refuse_command)
    bot.tree.interaction_check = replies.check_command  # type: ignore[method-assign]


async def teardown(bot: commands.Bot) -> None:
    """Remove the command groups (the cogs go with the extension)."""
    for name in GROUPS:
        bot.tree.remove_command(name)
    vars(bot.tree).pop("on_error", None)  # back to discord.py's own handler
    vars(bot.tree).pop("interaction_check", None)
