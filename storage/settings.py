"""Per-server defaults for new tables (``GameRepository.settings``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ._db import Database

#: ``GuildSettings.turn_ping`` when the server wants no turn mentions.
NEVER = -1


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's defaults; ``None`` means "not set: use the bot's own default"."""

    preset: str | None = None
    target: int | None = None
    turn_seconds: int | None = None  # 0: no time limit
    #: Seconds after a person's turn begins before the bot mentions them (0: at once;
    #: :data:`NEVER`: no mention; ``None``: the bot's default).
    turn_ping: int | None = None
    language: str | None = None
    #: House rules for new tables (RULES.md §12): option name → value, over the preset's.
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.target is not None and self.target <= 0:
            raise ValueError("the target must be positive")
        if self.turn_seconds is not None and self.turn_seconds < 0:
            raise ValueError("turn seconds cannot be negative")
        if self.turn_ping is not None and self.turn_ping < NEVER:
            raise ValueError("turn_ping is a number of seconds, or NEVER")


class GuildSettingsStore:
    """Reads and writes :class:`GuildSettings` on the repository's connection."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (all defaults if it never set any)."""
        row = await self._db.fetchone(
            "SELECT preset, target, turn_seconds, turn_ping, language, options"
            " FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings()
        return GuildSettings(
            preset=row["preset"],
            target=row["target"],
            turn_seconds=row["turn_seconds"],
            turn_ping=row["turn_ping"],
            language=row["language"],
            options=json.loads(row["options"] or "{}"),
        )

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Replace the server's settings."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings"
                " (guild_id, preset, target, turn_seconds, turn_ping, ping_turns, language,"
                " options) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " preset = excluded.preset, target = excluded.target,"
                " turn_seconds = excluded.turn_seconds, turn_ping = excluded.turn_ping,"
                " ping_turns = excluded.ping_turns,"
                " language = excluded.language, options = excluded.options",
                (
                    guild_id,
                    settings.preset,
                    settings.target,
                    settings.turn_seconds,
                    settings.turn_ping,
                    int(settings.turn_ping is not None and settings.turn_ping != NEVER),
                    settings.language,
                    json.dumps(dict(settings.options), sort_keys=True),
                ),
            )
