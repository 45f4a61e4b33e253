"""Which tables this process runs: those of the guilds of its shards.

Discord splits a bot's guilds into shards by ``(guild_id >> 22) % shard_count`` and sends a
guild's events (its interactions included) only to the gateway connection of that shard. A
table belongs to its guild, so the process that runs the guild's shard is the one that sees
the table's clicks; it also runs the table's clock, its computer players and its message
refreshes. Several processes can then share one database, each with its own shards, without
two of them waking the same table.

Everything else is anyone's: a person's statistics, ``/uno forget-me`` (which changes that
person's tables in every guild through the same compare-and-swap saves), the boards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["EVERY_SHARD", "Shards", "shard_of"]


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard of a guild, by Discord's formula; 0 for a direct message (``guild_id`` 0)."""
    if shard_count < 1:
        raise ValueError("shard_count must be at least 1")
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """The shards a process runs: ``ids`` of ``count``; ``ids=None`` means all of them."""

    count: int = 1
    ids: frozenset[int] | None = None

    @classmethod
    def of(cls, count: int | None, ids: Iterable[int] | None) -> Shards:
        """From the settings: no ``ids`` (one process, however many shards) runs every
        guild."""
        if ids is None or count is None:
            return cls()
        chosen = frozenset(ids)
        if not chosen or any(not 0 <= i < count for i in chosen):
            raise ValueError(f"shard ids {sorted(chosen)} are not shards of {count}")
        return cls(count, None if len(chosen) == count else chosen)

    @property
    def every(self) -> bool:
        """Does this process run every guild?"""
        return self.ids is None

    def owns(self, guild_id: int) -> bool:
        """Is the guild's table this process's to run?"""
        return self.ids is None or shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        if self.ids is None:
            return "every shard"
        return f"shards {','.join(map(str, sorted(self.ids)))} of {self.count}"


#: One process running every guild (the default).
EVERY_SHARD = Shards()
