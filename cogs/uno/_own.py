"""A player's own settings (``/uno settings``): when their turn pings them, the language of
their private answers, and whether their hand comes as a picture.

They are the player's, not a server's: stored per Discord user (``storage.player_settings``)
and deleted by ``/uno forget-me``. Every interaction reads them — its language does not wait
for a table — so :class:`PlayerPrefs` keeps them in memory: a click costs no database trip
once the player's first interaction read them, a change made here is kept at once, and one
made through another process of the bot (a cluster) is read again within
:data:`KEEP_SECONDS`.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from discord import app_commands

from storage import PlayerSettings, PlayerSettingsStore
from storage.player_settings import Alerts
from tables import TableError

from ._i18n import LANGUAGE_NAMES, LANGUAGES, t

#: How long a player's settings are trusted without reading them again (another process of
#: the bot may have changed them).
KEEP_SECONDS = 300.0
#: How many players' settings are kept (the least recently used go first).
KEPT = 50_000

#: ``alerts``: at once, after the server's delay (the default), or never.
ALERT_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(name, key=f"alerts.{value}"), value=value)
    for value, name in (
        ("now", "at once"),
        ("delay", "after the server's delay (default)"),
        ("never", "never"),
    )
]
#: ``language``: Discord's (the default), or one of ours in its own words.
OWN_LANGUAGE_CHOICES = [
    app_commands.Choice(
        name=app_commands.locale_str("Discord's (default)", key="language.discord"),
        value="discord",
    ),
    *(
        app_commands.Choice(name=app_commands.locale_str(n, key=f"language.{v}"), value=v)
        for v, n in LANGUAGE_NAMES.items()
    ),
]
#: ``hand_picture``: on (the default) or off.
PICTURE_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(name, key=f"picture.{value}"), value=value)
    for value, name in (("on", "on (default)"), ("off", "off: text and emojis"))
]


class PlayerPrefs:
    """Each player's own settings, kept in memory (see the module docstring)."""

    def __init__(
        self, store: PlayerSettingsStore, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._store = store
        self._clock = clock
        self._kept: OrderedDict[int, tuple[PlayerSettings, float]] = OrderedDict()

    async def of(self, user_id: int) -> PlayerSettings:
        """The player's settings: from memory, or read once."""
        kept = self._kept.get(user_id)
        now = self._clock()
        if kept is not None and now - kept[1] < KEEP_SECONDS:
            self._kept.move_to_end(user_id)
            return kept[0]
        settings = await self._store.get(user_id)
        self.remember(user_id, settings)
        return settings

    def remember(self, user_id: int, settings: PlayerSettings) -> None:
        """The player's settings as just read or written."""
        self._kept[user_id] = (settings, self._clock())
        self._kept.move_to_end(user_id)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)

    async def save(self, user_id: int, settings: PlayerSettings) -> None:
        """Store the player's new settings, and keep them."""
        await self._store.set(user_id, settings)
        self.remember(user_id, settings)

    def __len__(self) -> int:
        """How many players' settings are kept."""
        return len(self._kept)

    async def forget(self, user_id: int) -> None:
        """``/uno forget-me`` deleted the player's settings."""
        self._kept.pop(user_id, None)


def alert_delay(server: float | None, own: PlayerSettings, *, held: bool) -> float | None:
    """Seconds before a person is pinged for their turn (``None``: never). ``server`` is their
    server's wait (``None``: the server pings no one, and stays quiet whatever the player
    chose); a seat a computer holds for its absent person is pinged at once (R-TIME-3)."""
    if own.alerts == "never":
        return None
    if held:
        return 0.0
    if server is None:
        return None
    return 0.0 if own.alerts == "now" else server


def changed(
    current: PlayerSettings,
    *,
    alerts: str | None,
    language: str | None,
    hand_picture: str | None,
) -> PlayerSettings:
    """``current`` with the options given; nonsense (a value no choice offers) is refused."""
    if alerts not in (None, *(c.value for c in ALERT_CHOICES)):
        raise TableError("bad_option", option="alerts")
    if language not in (None, "discord", *LANGUAGES):
        raise TableError("bad_option", option="language")
    if hand_picture not in (None, "on", "off"):
        raise TableError("bad_option", option="hand_picture")
    own_alerts: Alerts | None = current.alerts
    if alerts is not None:
        own_alerts = "now" if alerts == "now" else "never" if alerts == "never" else None
    return PlayerSettings(
        alerts=own_alerts,
        language=(
            current.language if language is None else None if language == "discord" else language
        ),
        hand_picture=current.hand_picture if hand_picture is None else hand_picture == "on",
    )


def describe(settings: PlayerSettings, *, saved: bool, server_quiet: bool) -> str:
    """The player's settings in words, in the current language (an ephemeral answer)."""
    language = settings.language
    lines = [
        t("own.saved" if saved else "own.shown"),
        t("own.alerts", value=t(f"alerts.{settings.alerts or 'delay'}")),
        t(
            "own.language",
            value=LANGUAGE_NAMES[language] if language in LANGUAGES else t("language.discord"),
        ),
        t("own.picture", value=t("picture.on" if settings.hand_picture else "picture.off")),
    ]
    if server_quiet and settings.alerts != "never":
        lines.append(t("own.server_quiet"))
    return "\n".join(lines)
