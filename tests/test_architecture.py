"""Static guards on the layering (DESIGN.md §6.1, docs/architecture.md).

Each floor imports only from the floors below it: ``engine`` (standard library only) →
``players``, ``storage``, ``renders`` (side by side, never each other) → ``tables`` (the
Discord-free application layer) → ``cogs`` (Discord only) → ``bot.py``.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def top_level_imports(source: str) -> set[str]:
    """Top-level module names that ``source`` imports (relative imports excluded)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def imported_modules(package: str) -> dict[str, set[str]]:
    """Top-level module names imported by each file of ``package``."""
    return {
        str(path.relative_to(ROOT)): top_level_imports(path.read_text(encoding="utf-8"))
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def test_engine_imports_only_the_standard_library() -> None:
    offenders = {
        path: sorted(name for name in names if name not in sys.stdlib_module_names)
        for path, names in imported_modules("engine").items()
    }
    offenders = {path: names for path, names in offenders.items() if names}
    assert offenders == {}


def test_the_boundary_check_sees_third_party_imports() -> None:
    """The check above must be able to fail: a file importing discord is caught."""
    names = top_level_imports("import discord.ui\nfrom PIL import Image\nfrom . import cards\n")
    assert sorted(n for n in names if n not in sys.stdlib_module_names) == ["PIL", "discord"]


def test_engine_reads_no_clock_environment_or_global_randomness() -> None:
    """R-TIME-1 is decided by the adapter; shuffles come from the state's seed only."""
    forbidden = {"time", "datetime", "os", "secrets", "asyncio", "threading"}
    for path, names in imported_modules("engine").items():
        if path.endswith(("simulate.py", "__main__.py")):
            continue  # the command line times itself; the rules never do
        assert not names & forbidden, path
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "engine").rglob("*.py"))
    for call in ("random.shuffle(", "random.choice(", "random.randint(", "random.random("):
        assert call not in source


#: The project's own packages each floor may import (itself included), and the third-party
#: packages it may use. Nothing else: a new import across floors fails here first.
FLOORS: dict[str, tuple[set[str], set[str]]] = {
    "engine": ({"engine"}, set()),
    "players": ({"engine", "players"}, set()),
    "storage": ({"engine", "storage"}, {"aiosqlite", "asyncpg", "openskill"}),
    "renders": ({"engine", "renders"}, {"PIL"}),
    "tables": ({"engine", "players", "storage", "tables"}, set()),
    "cogs": (
        {"engine", "players", "storage", "renders", "tables", "cogs"},
        {"discord", "babel"},
    ),
}
OWN = set(FLOORS) | {"bot", "tests", "benchmarks"}


def offenders(package: str) -> dict[str, list[str]]:
    """Imports of ``package`` that its floor does not allow, by file."""
    own, third_party = FLOORS[package]
    found = {}
    for path, names in imported_modules(package).items():
        bad = sorted(
            name
            for name in names
            if name not in sys.stdlib_module_names
            and not (name in own if name in OWN else name in third_party)
        )
        if bad:
            found[path] = bad
    return found


@pytest.mark.parametrize("package", list(FLOORS))
def test_each_floor_imports_only_from_the_floors_below(package: str) -> None:
    assert imported_modules(package), package
    assert offenders(package) == {}


def test_the_table_layer_never_imports_discord() -> None:
    """tables/ is the application layer: a second adapter (or a test) can drive it alone."""
    for path, names in imported_modules("tables").items():
        assert "discord" not in names, path
    code = "import sys, tables, tables.clock, tables.service\nassert 'discord' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_floor_check_would_catch_a_layer_breach() -> None:
    names = top_level_imports("import discord\nfrom cogs.uno import setup\nfrom storage import X\n")
    own, third_party = FLOORS["tables"]
    bad = {n for n in names if not (n in own if n in OWN else n in third_party)}
    assert bad == {"discord", "cogs"}


#: The names the newcomer's tour of docs/architecture.md walks through: dotted, in
#: backticks, under a package of the bot (or ``bot`` itself).
TOUR_NAME = re.compile(r"`((?:bot|engine|players|storage|renders|tables|hosting|cogs)(?:\.\w+)+)`")


def tour_names() -> list[str]:
    text = (ROOT / "docs" / "architecture.md").read_text()
    tour = text.split("## A newcomer's tour", 1)[1].split("\n## ", 1)[0]
    return sorted(set(TOUR_NAME.findall(tour)))


def test_the_tour_names_enough_of_the_path_of_a_click() -> None:
    names = tour_names()
    assert len(names) >= 20, names
    for floor in ("engine", "tables", "storage", "cogs", "bot"):
        assert any(name.startswith(f"{floor}.") for name in names), floor


@pytest.mark.parametrize("name", tour_names())
def test_every_function_the_tour_names_exists(name: str) -> None:
    """Each name imports: its longest importable module, then the attributes below it."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return
    raise AssertionError(f"nothing of {name} imports")
