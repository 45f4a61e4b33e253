"""A server's house presets (``GameRepository.presets``): a table's rules saved under a name.

A house preset is a built-in preset (``base``) and the house rules over it (``options``), as
a lobby's rules editor left them. Names are the server's own, unique regardless of case, at
most :data:`NAME_LENGTH` characters; a server keeps at most :data:`MOST` of them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._db import Database

#: The longest name a house preset may have (it is a slash option's value).
NAME_LENGTH = 40
#: How many house presets one server may keep (Discord's autocomplete shows 25 at a time).
MOST = 50


class PresetLimitError(Exception):
    """The server keeps :data:`MOST` house presets already."""


@dataclass(frozen=True, slots=True)
class HousePreset:
    """One house preset of a server."""

    name: str
    base: str
    options: Mapping[str, Any] = field(default_factory=dict)


class HousePresets:
    """Reads and writes :class:`HousePreset` on the repository's connection."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, guild_id: int, name: str) -> HousePreset | None:
        """The server's house preset called ``name`` (any case), if there is one."""
        row = await self._db.fetchone(
            "SELECT name, base, options FROM house_presets WHERE guild_id = ? AND key = ?",
            (guild_id, _key(name)),
        )
        return None if row is None else _preset(row)

    async def all(self, guild_id: int) -> list[HousePreset]:
        """The server's house presets, by name."""
        rows = await self._db.fetchall(
            "SELECT name, base, options FROM house_presets WHERE guild_id = ? ORDER BY key",
            (guild_id,),
        )
        return [_preset(row) for row in rows]

    async def save(self, guild_id: int, preset: HousePreset, now: float) -> bool:
        """Save (or replace) ``preset``; returns whether it replaced one of the same name.
        Raises :class:`PresetLimitError` when the server keeps too many already."""
        name = preset.name.strip()[:NAME_LENGTH]
        async with self._db.transaction() as tx:
            existing = await tx.fetchone(
                "SELECT name FROM house_presets WHERE guild_id = ? AND key = ?",
                (guild_id, _key(name)),
            )
            if existing is None:
                count = await tx.fetchone(
                    "SELECT COUNT(*) AS n FROM house_presets WHERE guild_id = ?", (guild_id,)
                )
                if count is not None and int(count["n"]) >= MOST:
                    raise PresetLimitError(MOST)
            await tx.execute(
                "INSERT INTO house_presets (guild_id, key, name, base, options, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, key) DO UPDATE SET"
                " name = excluded.name, base = excluded.base, options = excluded.options,"
                " created_at = excluded.created_at",
                (
                    guild_id,
                    _key(name),
                    name,
                    preset.base,
                    json.dumps(dict(preset.options), sort_keys=True),
                    now,
                ),
            )
        return existing is not None

    async def delete(self, guild_id: int, name: str) -> bool:
        """Forget the house preset called ``name``; returns whether there was one."""
        async with self._db.transaction() as tx:
            removed = await tx.execute(
                "DELETE FROM house_presets WHERE guild_id = ? AND key = ?",
                (guild_id, _key(name)),
            )
        return removed > 0


def _key(name: str) -> str:
    return name.strip()[:NAME_LENGTH].casefold()


def _preset(row: Any) -> HousePreset:
    return HousePreset(row["name"], row["base"], json.loads(row["options"] or "{}"))
