"""A player's own settings (``GameRepository.player_settings``): ``/uno settings``.

Stored per Discord user, whatever the server: when to be pinged for one's turn, the language
of one's private answers, and whether one's hand comes as a picture. A player who keeps every
default has no row; ``/uno forget-me`` deletes the row (:meth:`PlayerSettingsStore.delete`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ._db import Database

#: When a player is pinged for their turn: at once, or never (``None``: after the server's
#: delay).
Alerts = Literal["now", "never"]
ALERTS: tuple[Alerts, ...] = ("now", "never")


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    """One player's settings; ``None`` means "the default"."""

    alerts: Alerts | None = None
    #: A language code of the bot's (the cogs know which); ``None``: the user's Discord's.
    language: str | None = None
    hand_picture: bool = True

    def __post_init__(self) -> None:
        if self.alerts is not None and self.alerts not in ALERTS:
            raise ValueError(f"alerts is one of {ALERTS}, or None")
        if self.language is not None and not (0 < len(self.language) <= 16):
            raise ValueError("a language is a short code")

    @property
    def is_default(self) -> bool:
        """Does the player keep every default (and so need no row)?"""
        return self == PlayerSettings()


class PlayerSettingsStore:
    """Reads and writes :class:`PlayerSettings` on the repository's connection."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, user_id: int) -> PlayerSettings:
        """The player's settings (all defaults if they never set any): one query."""
        row = await self._db.fetchone(
            "SELECT alerts, language, hand_picture FROM player_settings WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return PlayerSettings()
        alerts = row["alerts"]
        return PlayerSettings(
            alerts=alerts if alerts in ALERTS else None,
            language=row["language"],
            hand_picture=bool(row["hand_picture"]),
        )

    async def set(self, user_id: int, settings: PlayerSettings) -> None:
        """Replace the player's settings (every default: no row is kept)."""
        async with self._db.transaction() as tx:
            if settings.is_default:
                await tx.execute("DELETE FROM player_settings WHERE user_id = ?", (user_id,))
                return
            await tx.execute(
                "INSERT INTO player_settings (user_id, alerts, language, hand_picture)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " alerts = excluded.alerts, language = excluded.language,"
                " hand_picture = excluded.hand_picture",
                (user_id, settings.alerts, settings.language, int(settings.hand_picture)),
            )

    async def delete(self, user_id: int) -> int:
        """Forget the player's settings (``/uno forget-me``); the rows deleted (0 or 1)."""
        async with self._db.transaction() as tx:
            return await tx.execute("DELETE FROM player_settings WHERE user_id = ?", (user_id,))
