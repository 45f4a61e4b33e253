"""The UNO extension: ``/uno`` commands, restart-proof components, tables in SQLite.

Helper modules start with ``_``; only this package is an extension.
"""

from __future__ import annotations

from typing import Any

from discord.ext import commands

from ._cog import Uno
from ._service import TableService

__all__ = ["TableService", "Uno", "setup"]


async def setup(bot: commands.Bot) -> None:
    """Add the cog; the bot provides its ``tables`` service (see ``bot.py``)."""
    service: Any = getattr(bot, "tables", None)
    if not isinstance(service, TableService):
        raise RuntimeError("the bot must create its TableService before loading cogs.uno")
    await bot.add_cog(Uno(bot, service))
