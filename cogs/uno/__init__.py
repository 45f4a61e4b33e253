"""The UNO extension: ``/uno`` commands, restart-proof components, tables in SQLite.

Helper modules start with ``_``; only this package is an extension. The extension builds its
own :class:`TableService` from the bot's repository: a reload re-imports every ``cogs.uno``
module, and a service made from the old modules would raise exceptions the new cog does not
know.
"""

from __future__ import annotations

from typing import Any

from discord.ext import commands

from storage import GameRepository
from tables.clock import DEFAULT_PAUSE
from tables.service import TableService

from ._cog import Uno

__all__ = ["TableService", "Uno", "setup"]


async def setup(bot: commands.Bot) -> None:
    """Add the cog over the bot's ``repo`` (a :class:`GameRepository`, see ``bot.py``)."""
    repo: Any = getattr(bot, "repo", None)
    if not isinstance(repo, GameRepository):
        raise RuntimeError("open the bot's GameRepository (bot.repo) before loading cogs.uno")
    settings = getattr(bot, "settings", None)
    pause = getattr(settings, "computer_pause", DEFAULT_PAUSE)
    await bot.add_cog(Uno(bot, TableService(repo), computer_pause=pause))
