"""Tables for the adapter tests: lobbies, started matches and stacked hands (no Discord)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine import parse_action
from engine.game import deal
from tables.records import remember
from tables.table import Player, Table

NAMES = (
    *("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"),
    *("Lea", "Max", "Ned", "Ola", "Pia", "Quy", "Rex", "Sam", "Tea", "Udo"),
)
TABLE_ID = "t0"


def player(seat: int) -> Player:
    """The player who sits at ``seat`` in the tables built here (user ids 100, 101, …)."""
    return Player(100 + seat, NAMES[seat])


def user(seat: int) -> int:
    """The Discord user id of ``seat``."""
    return 100 + seat


def lobby(
    players: int = 3,
    *,
    preset: str = "classic",
    table_id: str = TABLE_ID,
    seed: int = 7,
    **options: Any,
) -> Table:
    """A lobby with ``players`` seated, the host (user 100) at seat 0."""
    table = Table.open(
        table_id=table_id,
        guild_id=1,
        channel_id=2,
        host=player(0),
        preset=preset,
        options=options,
        seed=seed,
        now=0.0,
    )
    for seat in range(1, players):
        table = table.join(player(seat), now=float(seat)).table
    return table


def started(players: int = 3, *, preset: str = "classic", **options: Any) -> Table:
    """A match dealt by the table itself."""
    return (
        lobby(players, preset=preset, **options).start(by=user(0), is_admin=False, now=50.0).table
    )


def stacked(
    hands: Sequence[Sequence[str]],
    start: str,
    draw: Sequence[str] = (),
    *,
    dealer: int | None = None,
    preset: str = "classic",
    **options: Any,
) -> Table:
    """A running table whose current hand is exactly these hands (faces in notation).

    By default the dealer is the last seat, so seat 0 plays first.
    """
    table = started(len(hands), preset=preset, **options)
    assert table.match is not None
    if dealer is None:
        dealer = len(hands) - 1 if table.rules.clockwise else 1 % len(hands)
    step = deal(table.rules, [list(h) for h in hands], start, list(draw), dealer=dealer, seed=3)
    match = replace(table.match, hand=step.state, dealer=dealer)
    return replace(table, match=match, recent=remember((), step.events))


def act(table: Table, seat: int, action: str, *, now: float = 100.0) -> Table:
    """``seat`` acts (action notation); the new table."""
    return table.act(user(seat), parse_action(action), now=now).table
