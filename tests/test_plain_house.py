"""Static guards on a house a newcomer can read (issue 27, docs/architecture.md).

In the product (``engine/ players/ storage/ renders/ tables/ hosting/ cogs/`` and ``bot.py``):
no import cycle, no code generated with ``exec``/``eval``, no instance turned into another
class by assigning ``__class__``, no function over 80 lines and no file over 800. Each guard
is shown to catch what it forbids.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "players", "storage", "renders", "tables", "hosting", "cogs")
MOST_FUNCTION_LINES = 80
MOST_FILE_LINES = 800


def product_files() -> list[Path]:
    files = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    return [*files, ROOT / "bot.py"]


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imported(tree: ast.AST, module: str, is_package: bool, known: Iterable[str]) -> set[str]:
    """The modules of ``known`` that ``module``'s source imports, anywhere in it (under
    ``TYPE_CHECKING`` too: a type-only import is still a tie a reader follows)."""
    known = set(known)
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()

    def add(name: str) -> None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[: len(parts) - (node.level - 1)])
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                add(submodule if submodule in known else base)
    return found


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (module → modules it imports): each strongly connected
    set of more than one module, sorted (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def import_graph(sources: Mapping[Path, str]) -> dict[str, set[str]]:
    modules = {module_of(path): path for path in sources}
    return {
        module: imported(
            ast.parse(sources[path]), module, path.name == "__init__.py", modules.keys()
        )
        for module, path in modules.items()
    }


def long_functions(tree: ast.AST, most: int = MOST_FUNCTION_LINES) -> list[tuple[str, int]]:
    return [
        (node.name, node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > most
    ]


def generated_code(tree: ast.AST) -> list[int]:
    """Lines that call ``exec`` or ``eval``."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("exec", "eval")
    ]


def class_swaps(tree: ast.AST) -> list[int]:
    """Lines that assign ``__class__`` (by ``=``, or through ``setattr``)."""
    lines = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            second = node.args[1]
            if (
                ast.unparse(node.func).endswith(("setattr", "__setattr__"))
                and isinstance(second, ast.Constant)
                and second.value == "__class__"
            ):
                lines.append(node.lineno)
        if any(isinstance(t, ast.Attribute) and t.attr == "__class__" for t in targets):
            lines.append(node.lineno)
    return lines


def sources() -> dict[Path, str]:
    return {path: path.read_text(encoding="utf-8") for path in product_files()}


def test_the_product_has_no_import_cycle() -> None:
    assert cycles(import_graph(sources())) == []


def test_the_cycle_check_would_catch_one(tmp_path: Path) -> None:
    """Two engine modules that import each other (one only for types) are a cycle."""
    fake = {
        ROOT / "engine" / "a.py": "from .b import B\n",
        ROOT / "engine" / "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from engine.a import A\n",
        ROOT / "engine" / "c.py": "from . import a\n",
    }
    assert cycles(import_graph(fake)) == [["engine.a", "engine.b"]]


def test_no_product_function_is_over_80_lines_and_no_file_over_800() -> None:
    long = {}
    for path, source in sources().items():
        where = str(path.relative_to(ROOT))
        lines = source.count("\n")
        if lines > MOST_FILE_LINES:
            long[where] = lines
        for name, length in long_functions(ast.parse(source)):
            long[f"{where}:{name}"] = length
    assert long == {}


def test_the_product_generates_no_code_and_swaps_no_class() -> None:
    found = {
        str(path.relative_to(ROOT)): generated_code(tree) + class_swaps(tree)
        for path, tree in ((p, ast.parse(s)) for p, s in sources().items())
    }
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_the_size_and_code_checks_would_catch_what_they_forbid() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MOST_FUNCTION_LINES))
    tree = ast.parse(f"def long():\n{body}\n\ndef short():\n    pass\n")
    assert long_functions(tree) == [("long", MOST_FUNCTION_LINES + 1)]
    tricks = ast.parse(
        "exec('x = 1')\nvalue = eval('2')\nstate.__class__ = Other\n"
        "object.__setattr__(state, '__class__', Other)\n"
    )
    assert generated_code(tricks) == [1, 2]
    assert class_swaps(tricks) == [3, 4]
