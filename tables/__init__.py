"""The application layer: tables, their clock and their results — Discord-free.

A :class:`Table` is one channel's lobby and match; every operation returns a
:class:`Change` (the new table, the engine's events, the log lines) without touching
anything. :class:`TableService` loads a table, applies an operation under the table's lock
and saves it with a compare-and-swap before anyone sees the result. :class:`Clock` wakes
tables whose turn timed out or whose computer players should act; both it and the adapter's
display hear every saved version from the service. :class:`Outages` records when players
could not act (the clock pauses and gives their time back). ``results`` turns a finished
match into what the boards record; ``records`` keeps the public log of a table as typed events.

Imports ``engine``, ``storage`` and ``players``; never ``discord`` (a test enforces it).
"""

from .clock import DEFAULT_PAUSE, Clock
from .outages import Outages
from .service import StaleClickError, TableService
from .shards import Shards, shard_of
from .table import Change, Player, Table, TableError, refused

__all__ = [
    "DEFAULT_PAUSE",
    "Change",
    "Clock",
    "Outages",
    "Player",
    "Shards",
    "StaleClickError",
    "Table",
    "TableError",
    "TableService",
    "refused",
    "shard_of",
]
