"""The computer players' docstring examples are tests too."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import players

MODULES = sorted(name for _, name, _ in pkgutil.walk_packages(players.__path__, prefix="players."))


@pytest.mark.parametrize("name", ["players", *MODULES])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0
