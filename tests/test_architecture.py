"""Static guards on the layering (DESIGN.md §6.1): the engine is standard library only."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

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
