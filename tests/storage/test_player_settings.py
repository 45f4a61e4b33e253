"""A player's own settings (storage/player_settings.py, ``/uno settings``), on SQLite and
PostgreSQL alike: per Discord user, whatever the server; defaults keep no row."""

from __future__ import annotations

import pytest

from storage import GameRepository, PlayerSettings

ALICE, BRUNO = 11, 12


async def _rows(repo: GameRepository) -> int:
    return int(await repo.db.fetchval("SELECT COUNT(*) FROM player_settings"))


async def test_a_player_who_set_nothing_reads_every_default(repo: GameRepository) -> None:
    settings = await repo.player_settings.get(ALICE)
    assert settings == PlayerSettings(alerts=None, language=None, hand_picture=True)
    assert settings.is_default


async def test_settings_are_saved_replaced_and_kept_per_user(repo: GameRepository) -> None:
    quiet = PlayerSettings(alerts="never", language="de", hand_picture=False)
    await repo.player_settings.set(ALICE, quiet)
    assert await repo.player_settings.get(ALICE) == quiet
    assert await repo.player_settings.get(BRUNO) == PlayerSettings()  # another user's
    loud = PlayerSettings(alerts="now", language=None, hand_picture=True)
    await repo.player_settings.set(ALICE, loud)
    assert await repo.player_settings.get(ALICE) == loud
    assert await _rows(repo) == 1


async def test_going_back_to_every_default_keeps_no_row(repo: GameRepository) -> None:
    await repo.player_settings.set(ALICE, PlayerSettings(hand_picture=False))
    assert await _rows(repo) == 1
    await repo.player_settings.set(ALICE, PlayerSettings())
    assert await _rows(repo) == 0
    assert await repo.player_settings.get(ALICE) == PlayerSettings()


async def test_delete_forgets_the_player_only(repo: GameRepository) -> None:
    await repo.player_settings.set(ALICE, PlayerSettings(language="fr"))
    await repo.player_settings.set(BRUNO, PlayerSettings(alerts="now"))
    assert await repo.player_settings.delete(ALICE) == 1
    assert await repo.player_settings.delete(ALICE) == 0
    assert await repo.player_settings.get(ALICE) == PlayerSettings()
    assert await repo.player_settings.get(BRUNO) == PlayerSettings(alerts="now")


async def test_forget_me_deletes_the_players_settings(repo: GameRepository) -> None:
    from tables import TableService

    await repo.player_settings.set(ALICE, PlayerSettings(alerts="never", hand_picture=False))
    await repo.player_settings.set(BRUNO, PlayerSettings(language="it"))
    assert await TableService(repo).forget(ALICE) >= 1
    assert await repo.player_settings.get(ALICE) == PlayerSettings()
    assert await repo.player_settings.get(BRUNO) == PlayerSettings(language="it")


def test_nonsense_is_refused_before_it_reaches_the_database() -> None:
    with pytest.raises(ValueError, match="alerts"):
        PlayerSettings(alerts="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="language"):
        PlayerSettings(language="")
