"""A player's own settings in the cogs (cogs/uno/_own.py): when a turn pings, the options read,
the summary in each language, and the memory that spares every click a database trip."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from cogs.uno._i18n import LANGUAGES, speaking
from cogs.uno._own import (
    KEEP_SECONDS,
    KEPT,
    PlayerPrefs,
    alert_delay,
    changed,
    describe,
)
from storage import GameRepository, PlayerSettings, PlayerSettingsStore
from tables import TableError

NOW, NEVER = PlayerSettings(alerts="now"), PlayerSettings(alerts="never")


def test_alerts_follow_the_player_within_what_the_server_allows() -> None:
    default = PlayerSettings()
    assert alert_delay(25.0, default, held=False) == 25.0  # the server's delay
    assert alert_delay(25.0, NOW, held=False) == 0.0
    assert alert_delay(25.0, NEVER, held=False) is None
    # A server that pings no one stays quiet, whatever the player chose.
    assert alert_delay(None, NOW, held=False) is None
    assert alert_delay(None, default, held=False) is None


def test_r_time_3_a_held_seat_is_pinged_at_once_unless_its_person_said_never() -> None:
    assert alert_delay(25.0, PlayerSettings(), held=True) == 0.0
    assert alert_delay(None, PlayerSettings(), held=True) == 0.0  # as before: they may return
    assert alert_delay(25.0, NEVER, held=True) is None


def test_options_change_only_what_they_name() -> None:
    current = PlayerSettings(alerts="never", language="de", hand_picture=False)
    same = changed(current, alerts=None, language=None, hand_picture=None)
    assert same == current
    assert changed(current, alerts="delay", language=None, hand_picture=None).alerts is None
    assert changed(current, alerts="now", language=None, hand_picture=None).alerts == "now"
    back = changed(current, alerts=None, language="discord", hand_picture="on")
    assert back == PlayerSettings(alerts="never")


@pytest.mark.parametrize(
    ("option", "value"),
    [("alerts", "sometimes"), ("language", "klingon"), ("hand_picture", "maybe")],
)
def test_nonsense_is_refused_by_name(option: str, value: str) -> None:
    given = {"alerts": None, "language": None, "hand_picture": None, option: value}
    with pytest.raises(TableError) as refused:
        changed(PlayerSettings(), **given)
    assert refused.value.code == "bad_option"
    assert refused.value.params == {"option": option}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_summary_speaks_each_language_and_names_a_quiet_server(language: str) -> None:
    chosen = PlayerSettings(alerts="now", language="pt-BR", hand_picture=False)
    with speaking(language):
        shown = describe(chosen, saved=False, server_quiet=False).splitlines()
        quiet = describe(chosen, saved=True, server_quiet=True).splitlines()
    assert len(shown) == 4
    assert "Português (Brasil)" in shown[2]
    assert len(quiet) == 5  # the server's pings are off: said once, at the end
    assert quiet[0].startswith("✅")
    with speaking(language):
        never = describe(NEVER, saved=False, server_quiet=True)
    assert len(never.splitlines()) == 4  # nothing to add for a player who wants no pings


class CountingStore(PlayerSettingsStore):
    """The real store, counting its reads."""

    reads = 0

    async def get(self, user_id: int) -> PlayerSettings:
        self.reads += 1
        return await super().get(user_id)


@pytest.fixture
async def store() -> AsyncIterator[CountingStore]:
    repo = await GameRepository.open(":memory:")
    yield CountingStore(repo.db)
    await repo.close()


async def test_a_players_settings_are_read_once_then_kept(store: CountingStore) -> None:
    now = [0.0]
    prefs = PlayerPrefs(store, clock=lambda: now[0])
    for _ in range(5):  # five clicks: one database read
        assert await prefs.of(7) == PlayerSettings()
    assert store.reads == 1
    await prefs.save(7, NEVER)  # a change here is kept at once, without a read
    assert await prefs.of(7) == NEVER
    assert store.reads == 1
    # Another process of the bot changed them: read again once the memory is old.
    await store.set(7, NOW)
    now[0] += KEEP_SECONDS + 1
    assert await prefs.of(7) == NOW
    assert store.reads == 2
    await prefs.forget(7)  # /uno forget-me
    await store.delete(7)
    assert await prefs.of(7) == PlayerSettings()
    assert store.reads == 3


async def test_the_memory_is_bounded(store: CountingStore) -> None:
    prefs = PlayerPrefs(store)
    for user in range(KEPT + 10):
        prefs.remember(user, PlayerSettings())
    assert len(prefs) == KEPT
    await prefs.of(0)  # among the first, gone: read again
    assert store.reads == 1
