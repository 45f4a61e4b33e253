"""Load → change → save, one table at a time. No Discord here.

Every change to a table runs under that table's lock, checks the version the user acted on,
and is saved (compare-and-swap) before the caller shows anyone the result. Each saved version
is then announced to the service's listeners (the display, the clock), in the order of the
saves, so whoever shows or times a table learns of every change whoever made it.

A change that fails because the database cannot be reached reports an outage of cause
``database`` to :class:`~tables.outages.Outages` (the turn clocks pause: nobody could act), and
the next change that succeeds ends it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from engine import PRESETS, StaleStateError
from storage import ChannelBusyError, GameRepository, is_outage
from storage.boards import FORGOTTEN

from .outages import Outages
from .shards import EVERY_SHARD, Shards
from .table import Change, Player, Table, TableError

log = logging.getLogger(__name__)

#: Hears every saved version of a table (it must not block: it schedules its work).
Listener = Callable[[Table], None]
T = TypeVar("T")

_ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


class StaleClickError(Exception):
    """The user acted on an older version of the table; ``table`` is the current one."""

    def __init__(self, table: Table) -> None:
        super().__init__(table.id)
        self.table = table


def new_table_id(randbits: Callable[[int], int] = secrets.randbits) -> str:
    """Ten base-36 characters (about 51 bits)."""
    value = randbits(51)
    chars = []
    for _ in range(10):
        value, digit = divmod(value, 36)
        chars.append(_ID_ALPHABET[digit])
    return "".join(chars)


class TableService:
    """The tables of the bot, backed by a :class:`GameRepository`.

    ``shards`` names the guilds whose tables this process runs (see :mod:`tables.shards`):
    :meth:`live_tables` lists only theirs. Any table can still be read and changed from
    here — ``/uno forget-me`` renames a person at every table — through the same
    compare-and-swap saves, so a change made by another process is never lost.
    """

    def __init__(
        self,
        repo: GameRepository,
        *,
        clock: Callable[[], float] = time.time,
        randbits: Callable[[int], int] = secrets.randbits,
        shards: Shards = EVERY_SHARD,
        outages: Outages | None = None,
    ) -> None:
        self.repo = repo
        self.shards = shards
        self.outages = outages if outages is not None else Outages(clock)
        self._clock = clock
        self._listeners: list[Listener] = []
        self._randbits = randbits
        self._locks: dict[str, asyncio.Lock] = {}
        # The last copy of each live table this process loaded or saved. It is used only
        # when the stored version and message id still match it (one small query), so a
        # write from elsewhere (another process, a test stacking a deck) is always seen;
        # it spares every click one or two full reads and parses of the snapshot.
        self._copies: dict[str, Table] = {}
        self._channels: dict[int, str] = {}  # channel → its live table, of the copies

    def listen(self, listener: Listener) -> None:
        """Announce every saved version of a table to ``listener`` from now on."""
        self._listeners.append(listener)

    def _announce(self, table: Table) -> None:
        for listener in list(self._listeners):
            try:
                listener(table)
            except Exception:  # a listener's bug must not undo or hide a saved change
                log.exception("A listener of table %s failed", table.id)

    async def _reaching(self, work: Awaitable[T]) -> T:
        """Run ``work`` (database calls); an unreachable database begins an outage, and
        success ends it."""
        try:
            result = await work
        except Exception as exc:
            if is_outage(exc) and self.outages.begin("database"):
                log.warning("The database cannot be reached (%s)", _one_line(exc))
            raise
        if self.outages.down and self.outages.end("database") is not None:
            log.warning("The database is reachable again")
        return result

    async def probe(self) -> None:
        """Ask the database something small: ends a database outage when it answers."""
        await self._reaching(self.repo.version_of(""))

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock of one table (created on first use)."""
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def open_here(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host: Player,
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        language: str = "en",
        tournament: str | None = None,
    ) -> Table:
        """Open a lobby as someone asked: the server's defaults (``/uno settings``) fill what
        they left out, its forced language wins over ``language``, and ``tournament`` must be
        one of the server's (its name as stored)."""
        defaults = await self.repo.settings.get_guild_settings(guild_id)
        chosen, house = await self.house_rules(guild_id, preset or defaults.preset or "classic")
        merged: dict[str, Any] = {**defaults.options, **house}
        if defaults.target is not None:
            merged["target"] = defaults.target
        if defaults.turn_seconds is not None:
            merged["turn_seconds"] = defaults.turn_seconds
        merged.update(options or {})
        name = None
        if tournament is not None:
            found = await self.repo.tournaments.tournament(guild_id, tournament)
            if found is None:
                raise TableError("unknown_tournament", name=tournament[:100])
            name = found.name
        return await self.open(
            guild_id=guild_id,
            channel_id=channel_id,
            host=host,
            preset=chosen,
            options=merged,
            language=defaults.language or language,
            tournament=name,
        )

    async def house_rules(self, guild_id: int, name: str) -> tuple[str, dict[str, Any]]:
        """The built-in preset ``name`` names, and the house rules over it: none for a
        built-in preset, the saved ones for one of the server's house presets."""
        if name in PRESETS:
            return name, {}
        found = await self._reaching(self.repo.presets.get(guild_id, name))
        if found is None or found.base not in PRESETS:
            raise TableError("bad_rules", rule="unknown_preset", preset=name[:40])
        return found.base, dict(found.options)

    async def _create(self, table: Table) -> Table:
        """Store a new table (one live table a channel), then announce it."""
        try:
            await self._reaching(self.repo.create(table.to_record()))
        except ChannelBusyError:
            raise TableError("channel_busy") from None
        self._announce(self._keep(table))
        return table

    async def rematch(self, finished: Table, host: Player) -> Table:
        """Open the lobby of a rematch in ``finished``'s channel (see :meth:`Table.rematch`)."""
        if await self.repo.live_in_channel(finished.channel_id) is not None:
            raise TableError("channel_busy")
        table = finished.rematch(
            table_id=new_table_id(self._randbits),
            host=host,
            seed=self._randbits(53),
            now=self._clock(),
        )
        return await self._create(table)

    async def player_for(
        self, tournament: str | None, guild_id: int, player: Player, roles: Iterable[int]
    ) -> Player:
        """``player`` as they sit at a table of ``tournament``: with the role of their team
        (R-TEAM-3), found among ``roles``."""
        if tournament is None:
            return player
        found = await self.repo.tournaments.tournament(guild_id, tournament)
        held = set(roles)
        for team in found.teams if found is not None else ():
            if team.role_id in held:
                return replace(player, team_role=team.role_id)
        return player

    async def open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host: Player,
        preset: str,
        options: Mapping[str, Any],
        language: str = "en",
        tournament: str | None = None,
    ) -> Table:
        """Open a lobby in a channel that has no live table."""
        if await self.repo.live_in_channel(channel_id) is not None:
            raise TableError("channel_busy")
        table = Table.open(
            table_id=new_table_id(self._randbits),
            guild_id=guild_id,
            channel_id=channel_id,
            host=host,
            preset=preset,
            options=options,
            seed=self._randbits(53),
            now=self._clock(),
            language=language,
            tournament=tournament,
        )
        return await self._create(table)

    async def get(self, table_id: str, *, seen: int | None = None) -> Table | None:
        """The table with this id, if any, as stored now.

        ``seen``: the version a clicked component showed. When it is the version of this
        process's copy, the copy is the answer, without asking the database: a move from that
        click saves with a compare-and-swap on that version, which finds any write from
        elsewhere (and then reads the table again, :meth:`update`), so a move costs one trip
        to the database, not two. A click that saves nothing shows that version, as clicked.
        """
        copy = self._copies.get(table_id)
        if seen is not None and copy is not None and copy.version == seen:
            return copy
        return await self._reaching(self._get(table_id))

    async def _get(self, table_id: str) -> Table | None:
        copy = self._copies.get(table_id)
        if copy is not None and await self.repo.version_of(table_id) == (
            copy.version,
            copy.message_id,
        ):
            return copy
        record = await self.repo.load(table_id)
        if record is None:
            self._copies.pop(table_id, None)
            return None
        table = self._keep(Table.from_record(record))
        if copy is not None and table.version > copy.version:
            self._announce(table)  # changed elsewhere (another process) while we ran
        return table

    def _keep(self, table: Table) -> Table:
        if table.is_live:
            self._copies[table.id] = table
            self._channels[table.channel_id] = table.id
        else:
            self._copies.pop(table.id, None)
            if self._channels.get(table.channel_id) == table.id:
                del self._channels[table.channel_id]
        return table

    def cached_in_channel(self, channel_id: int) -> Table | None:
        """The live table of a channel as this process last saw it, without asking the
        database (for autocomplete, which must answer at once); ``None`` when not known."""
        table_id = self._channels.get(channel_id)
        return self._copies.get(table_id) if table_id is not None else None

    async def live_tables(self) -> list[Table]:
        """Every live table (lobbies and games) of this process's shards, as stored now."""
        return [
            self._keep(Table.from_record(record))
            for record in await self.repo.live_tables()
            if self.shards.owns(record.guild_id)
        ]

    def owns(self, table: Table) -> bool:
        """Does this process run ``table`` (its clock, its computers, its message)?"""
        return self.shards.owns(table.guild_id)

    async def in_channel(self, channel_id: int) -> Table | None:
        """The live table of a channel, if any."""
        table_id = await self._reaching(self.repo.live_id_in_channel(channel_id))
        return await self.get(table_id) if table_id is not None else None

    async def update(
        self,
        table_id: str,
        operation: Callable[[Table, float], Change[Table]],
        *,
        version: int | None = None,
    ) -> Change[Table]:
        """Apply ``operation`` to the current table and save it before returning.

        ``version`` is the table version the user saw (from a button); if the table has moved
        on since, :class:`StaleClickError` is raised and nothing changes.

        The save is a compare-and-swap on the version, so the change starts from this
        process's last copy of the table without asking the database first (a move costs
        one write, no read). Should the copy be old — another writer saved meanwhile — the
        save is refused, the table is read again and the operation tried once more on it.
        """
        return await self._reaching(self._update(table_id, operation, version))

    async def _update(
        self, table_id: str, operation: Callable[[Table, float], Change[Table]], version: int | None
    ) -> Change[Table]:
        async with self.lock(table_id):
            copy = self._copies.get(table_id)
            table = copy if copy is not None else await self._load(table_id)
            try:
                return await self._change(table, operation, version)
            except StaleStateError:
                current = await self._load(table_id)
                if copy is None:
                    raise StaleClickError(current) from None
            try:  # our copy was old: the same operation on the stored table
                return await self._change(current, operation, version)
            except StaleStateError:
                raise StaleClickError(await self._load(table_id)) from None

    async def _load(self, table_id: str) -> Table:
        """The table as stored now (and remembered); ``TableError`` when there is none."""
        self._copies.pop(table_id, None)
        table = await self._get(table_id)
        if table is None:
            raise TableError("unknown_table")
        return table

    async def _change(
        self, table: Table, operation: Callable[[Table, float], Change[Table]], version: int | None
    ) -> Change[Table]:
        if version is not None and version != table.version:
            raise StaleClickError(table)
        change = operation(table, self._clock())
        if change.table.version != table.version:
            # The finishing save also records the match on the board: exactly once.
            await self.repo.save(
                change.table.to_record(),
                expected_version=table.version,
                actions=change.log,
                result=change.table.result() if table.status != "finished" else None,
            )
            self._announce(self._keep(change.table))
        return change

    async def forget(self, user_id: int) -> int:
        """``/uno forget-me``: the person's stats, ratings and results go, their own settings
        (``/uno settings``) too, and their name leaves every stored game record, live tables
        included. Returns the rows changed."""
        removed = await self.repo.boards.forget_user(user_id)
        removed += await self.repo.player_settings.delete(user_id)
        for record in await self.repo.live_tables_of(user_id):
            change = await self.update(
                record.id, lambda tb, now: tb.rename(user_id, FORGOTTEN, now=now)
            )
            removed += int(change.table.version != record.version)
        return removed

    async def reclaim(self, table: Table, user_id: int) -> Table:
        """A person showed up at ``table``: a seat a computer held for them is theirs again
        (R-TIME-3). Saves only when something was held."""
        seat = table.playing_seat_of(user_id)
        if seat is None or not table.players[seat].is_held:
            return table
        change = await self.update(table.id, lambda tb, now: tb.reclaim(user_id, now=now))
        return change.table

    async def set_message(self, table: Table, message_id: int | None) -> Table:
        """Remember where the table's public message is."""
        async with self.lock(table.id):
            await self.repo.set_message(table.id, message_id)
            # What was just written, without reading it back: the copy (the latest this
            # process knows) or the table given, with its new message.
            copy = self._copies.get(table.id, table)
            return self._keep(replace(copy, message_id=message_id))


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
