"""A server's house presets (storage/presets.py), on SQLite and PostgreSQL alike."""

from __future__ import annotations

import pytest

from storage import GameRepository, HousePreset, PresetLimitError
from storage.presets import MOST, NAME_LENGTH

GUILD = 7


async def test_a_house_preset_is_saved_found_in_any_case_and_replaced(
    repo: GameRepository,
) -> None:
    friday = HousePreset("Friday Night", "party", {"two_decks": True, "jump_in": True})
    assert await repo.presets.save(GUILD, friday, now=1.0) is False
    assert await repo.presets.get(GUILD, "friday night") == friday
    assert await repo.presets.get(GUILD + 1, "Friday Night") is None  # another server's
    replaced = HousePreset("FRIDAY night", "classic", {"zero_spell": "swap"})
    assert await repo.presets.save(GUILD, replaced, now=2.0) is True
    assert await repo.presets.all(GUILD) == [replaced]
    assert await repo.presets.delete(GUILD, "friday NIGHT") is True
    assert await repo.presets.delete(GUILD, "friday night") is False
    assert await repo.presets.all(GUILD) == []


async def test_names_are_cut_to_their_length_and_servers_keep_a_bounded_number(
    repo: GameRepository,
) -> None:
    long = HousePreset("x" * (NAME_LENGTH + 10), "classic")
    await repo.presets.save(GUILD, long, now=1.0)
    assert [p.name for p in await repo.presets.all(GUILD)] == ["x" * NAME_LENGTH]
    for n in range(1, MOST):
        await repo.presets.save(GUILD, HousePreset(f"p{n:02d}", "classic"), now=1.0)
    with pytest.raises(PresetLimitError):
        await repo.presets.save(GUILD, HousePreset("one too many", "classic"), now=1.0)
    await repo.presets.save(GUILD, HousePreset("P01", "flip"), now=2.0)  # replacing is fine
    assert (await repo.presets.get(GUILD, "p01")).base == "flip"  # type: ignore[union-attr]
