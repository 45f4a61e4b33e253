"""renders/ imports only the standard library, PIL and engine; never discord (DESIGN §6.1)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_renders_import_no_discord_and_nothing_but_pil_and_engine() -> None:
    files = sorted((ROOT / "renders").rglob("*.py"))
    assert files
    for path in files:
        names = imports(path)
        assert "discord" not in names, path
        third_party = {n for n in names if n not in sys.stdlib_module_names}
        assert third_party <= {"PIL", "engine"}, (path, third_party)


def test_the_scan_would_catch_discord() -> None:
    probe = ROOT / "renders" / "__init__.py"
    assert "discord" not in imports(probe)
    tree = ast.parse("import discord\nfrom discord.ext import commands\n")
    found = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert found == {"discord"}


def test_nothing_is_built_at_import_time() -> None:
    code = (
        "import renders, renders.card as c, renders.assets as a, renders.table as t\n"
        "caches = [a.font, a.palette_image, c.render_card, c.render_back, c.symbol_image,"
        " t._base, t._fan]\n"
        "assert all(f.cache_info().currsize == 0 for f in caches), caches\n"
        "import sys; assert 'discord' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
