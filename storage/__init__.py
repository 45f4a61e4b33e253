"""Persistence: the only package that talks SQL (aiosqlite).

``GameRepository`` stores each table's JSON state with a compare-and-swap on its version and
logs every action in the same transaction; migrations are numbered ``.sql`` files.
"""

from .repository import ActionRow, ChannelBusyError, GameRepository, TableRecord

__all__ = ["ActionRow", "ChannelBusyError", "GameRepository", "TableRecord"]
