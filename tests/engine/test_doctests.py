"""The engine's docstring examples are tests too (python-chess runs its README the same way)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine

MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(engine.__path__, prefix="engine.")
    if not name.endswith("__main__")
)


def test_every_engine_module_is_found() -> None:
    assert {"engine.game", "engine.cards", "engine.match", "engine.rules"} <= set(MODULES)


@pytest.mark.parametrize("name", ["engine", *MODULES])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0
