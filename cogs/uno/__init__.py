"""The UNO extension: ``/uno`` and ``/uno-admin``, restart-proof components, table messages.

Only Discord lives here: the ``/uno`` cog (``_play.py``, with the boards of ``_boards.py``)
and the ``/uno-admin`` cog (``_admin.py``), the moves both make (the registry ``_moves.py``,
run by ``_desk.py``), components (``_verbs.py``, ``_components.py``), the one error boundary
(``_replies.py``), payloads (``_messages.py``, ``_table_message.py``, ``_table_view.py``),
words (``_present.py``, ``_i18n.py``). The tables themselves — the lobby, the match, the
clock, the results — are the ``tables`` package.

Helper modules start with ``_``; only this package is an extension. :func:`setup` builds the
whole object graph here, once, each object with what it needs given to its constructor: a
reload re-imports every ``cogs.uno`` module, and objects made from the old modules would not
match the new ones.
"""

from __future__ import annotations

from typing import Any

from discord.ext import commands

from storage import GameRepository
from tables import DEFAULT_PAUSE, Clock, Shards, Table, TableService
from tables.clock import DEFAULT_CATCH_GRACE, DEFAULT_HELD_GRACE

from ._admin import UnoAdmin
from ._desk import TableDesk
from ._emojis import CardEmojis
from ._gateway import GatewayWatch
from ._own import PlayerPrefs, alert_delay
from ._pings import TurnPings
from ._play import Uno
from ._replies import GuildPrefs, Replies
from ._table_message import TableMessages

__all__ = ["Uno", "UnoAdmin", "setup"]


async def setup(bot: commands.Bot) -> None:
    """Build the extension over the bot's ``repo`` and ``settings`` (see ``bot.py``)."""
    repo: Any = getattr(bot, "repo", None)
    if not isinstance(repo, GameRepository):
        raise RuntimeError("open the bot's GameRepository (bot.repo) before loading cogs.uno")
    settings = getattr(bot, "settings", None)
    # The guilds whose tables this process runs: those of its shards (all, unless SHARD_IDS
    # names some of SHARD_COUNT).
    shards = Shards.of(getattr(settings, "shard_count", None), getattr(settings, "shard_ids", None))
    service = TableService(repo, shards=shards)
    prefs = GuildPrefs(repo.settings)
    players = PlayerPrefs(repo.player_settings)
    replies = Replies(prefs, players)

    async def ping_delay(table: Table, seat: int) -> float | None:
        """When a seat's person is pinged: their server's wait, as they chose."""
        person = table.players[seat]
        own = await players.of(person.user_id)
        server = await prefs.turn_ping(table.guild_id)
        return alert_delay(server, own, held=person.is_held)

    watch = GatewayWatch(bot, service.outages, repo, alive_key=f"alive:{shards}")
    emojis = CardEmojis(bot)
    messages = TableMessages(
        bot,
        service,
        pings=TurnPings(bot, ping_delay),
        emojis=emojis,
        first_answer=replies.first_answer,
        answering=replies.answering,
    )
    service.listen(messages.heard)
    # The extension owns the clock: it plays computers and timeouts, and pauses while
    # players cannot be heard (the gateway's watch says when).
    clock = Clock(
        service,
        confirm=watch.confirm,
        causes=watch.causes,
        pause=getattr(settings, "computer_pause", DEFAULT_PAUSE),
        held_grace=getattr(settings, "held_seat_grace", DEFAULT_HELD_GRACE),
        catch_grace=getattr(settings, "catch_grace", DEFAULT_CATCH_GRACE),
    )
    desk = TableDesk(service, replies, messages)
    await bot.add_cog(watch)
    await bot.add_cog(Uno(bot, desk, clock, emojis))
    await bot.add_cog(UnoAdmin(desk, prefs))
