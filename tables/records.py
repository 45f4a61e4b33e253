"""Engine events as small JSON-ready records, for the table's public log.

Only public events are kept: a record never holds a card of anyone's hand. The presenter
turns records into sentences in the reader's language.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from engine.cards import CardFace
from engine.events import CardsDealt, Event

# Public events too noisy for the table log.
_SKIPPED = {"DealerDraw", "CardsDealt"}


def _jsonable(value: Any) -> Any:
    if isinstance(value, CardFace):
        return value.notation
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def public_record(event: Event) -> dict[str, Any] | None:
    """A record of ``event`` for everyone, or ``None`` if it is private or noise."""
    name = type(event).__name__
    if event.audience is not None or name in _SKIPPED or isinstance(event, CardsDealt):
        return None
    record: dict[str, Any] = {"e": name}
    for item in dataclasses.fields(event):  # type: ignore[arg-type]  # every event is one
        record[item.name] = _jsonable(getattr(event, item.name))
    return record
