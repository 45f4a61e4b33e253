"""Fast construction of the frozen, slotted dataclasses built on every step.

A frozen dataclass sets each field in ``__init__`` through ``object.__setattr__``, which costs
more than the rest of a simple transition (every step builds a
:class:`~engine.state.GameState` of 29 fields and one to three events). Instead, fill an
instance of a *mutable twin* class, which has exactly the same slots, with plain attribute
stores, then turn it into the frozen class by assigning ``__class__``. CPython allows that
assignment between classes with the same base and the same ``__slots__``; the result is an
ordinary, immutable instance, equal to one built by ``cls(...)``.

- :func:`copier` and :func:`publish` let a twin start as a copy of an instance, change, and
  become the frozen class in place (:mod:`engine.step` drafts each new state so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import Field, fields, is_dataclass
from typing import Any, TypeVar, cast

T = TypeVar("T")
D = TypeVar("D")


def copier(cls: type, twin: type[D]) -> Callable[[Any], D]:
    """A function copying an instance of ``cls`` into a new ``twin`` (see :func:`publish`).

    Fields left out of ``__init__`` (caches) restart from their default instead.
    """
    every = _fields(cls)
    if (
        twin.__bases__ != cls.__bases__
        or twin.__dict__.get("__slots__") != cls.__dict__["__slots__"]
    ):
        raise TypeError(f"{twin.__name__} does not have the layout of {cls.__name__}")
    namespace: dict[str, Any] = {"new": object.__new__, "Twin": twin}
    lines = [f"def copy_{cls.__name__}(source):", "    obj = new(Twin)"]
    for f in every:
        if f.init:
            lines.append(f"    obj.{f.name} = source.{f.name}")
        else:
            namespace[f"default_{f.name}"] = f.default
            lines.append(f"    obj.{f.name} = default_{f.name}")
    lines.append("    return obj")
    exec("\n".join(lines), namespace)
    copy: Callable[[Any], D] = namespace[f"copy_{cls.__name__}"]
    return copy


def publish(obj: object, cls: type[T]) -> T:
    """Turn ``obj``, an instance of a twin of ``cls`` built by :func:`copier`, into a
    ``cls`` in place. The caller must hold the only reference to it."""
    obj.__class__ = cls
    return cast(T, obj)


def _fields(cls: type) -> tuple[Field[Any], ...]:
    if not is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} checks its fields in __post_init__")
    return fields(cls)
