"""Builders for finished tables and their results, shared by the storage tests."""

from __future__ import annotations

import itertools
from typing import Any

from storage import GameRepository, MatchResult, PlayerResult, TableRecord

GUILD = 1
_channels = itertools.count(10_000)


def seat(user_id: int, place: int, **changes: Any) -> PlayerResult:
    """A human's result; first place wins unless told otherwise."""
    base: dict[str, Any] = {
        "user_id": user_id,
        "name": f"user{user_id}",
        "is_bot": False,
        "place": place,
        "team": None,
        "points": 100 if place == 1 else 0,
        "won": place == 1,
        "left": False,
        "match_points": 1 if place == 1 else 0,
        "hands_played": 3,
        "hands_won": 2 if place == 1 else 0,
    }
    base.update(changes)
    return PlayerResult(**base)


def bot(user_id: int, place: int, **changes: Any) -> PlayerResult:
    """A computer player's result."""
    return seat(user_id, place, is_bot=True, name=f"bot{user_id}", **changes)


def table(table_id: str, *, guild: int = GUILD, version: int = 0, **changes: Any) -> TableRecord:
    """A table record in ``guild``; ``status`` defaults to playing."""
    base: dict[str, Any] = {
        "id": table_id,
        "guild_id": guild,
        "channel_id": next(_channels),
        "status": "playing",
        "version": version,
        "state": {"n": version},
        "seats": (),
        "created_at": 1000.0,
        "updated_at": 1000.0 + version,
    }
    base.update(changes)
    return TableRecord(**base)


def result(
    table_id: str,
    *players: PlayerResult,
    guild: int = GUILD,
    tournament: str | None = None,
    finished_at: float = 2000.0,
) -> MatchResult:
    """The result of ``table_id`` with these players."""
    return MatchResult(
        table_id=table_id,
        guild_id=guild,
        preset="classic",
        finished_at=finished_at,
        players=tuple(players),
        tournament=tournament,
    )


async def finish(
    repo: GameRepository,
    table_id: str,
    *players: PlayerResult,
    guild: int = GUILD,
    tournament: str | None = None,
) -> TableRecord:
    """Create a playing table, then save it finished with its result (the real path)."""
    playing = table(table_id, guild=guild)
    await repo.create(playing)
    done = table(table_id, guild=guild, version=1, status="finished", channel_id=playing.channel_id)
    await repo.save(
        done,
        expected_version=0,
        result=result(table_id, *players, guild=guild, tournament=tournament),
    )
    return done
