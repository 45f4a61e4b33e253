"""The engine's shape (docs/engine.md, "Where a rule lives"): every card kind, action and
phase has its entry in one dispatch table, the copy a transition changes carries every field,
and the engine's modules import only downward (no cycle, not even at call time)."""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path

from engine import Kind, Phase
from engine.actions import ACTION_TYPES, CHOICE_ACTIONS
from engine.effects import EFFECTS, LAST_CARD_EFFECTS, START_EFFECTS
from engine.state import GameState, draft
from engine.transition import ACTIONS
from engine.variants import CHOICE_PHASES

ENGINE = Path(__file__).resolve().parents[2] / "engine"

#: The phases the classic rules answer; the others belong to an alternative rule.
CLASSIC_PHASES = {
    Phase.PLAY,
    Phase.CHOOSE_COLOUR,
    Phase.DRAWN,
    Phase.PENALTY,
    Phase.CHALLENGE,
    Phase.HAND_OVER,
}


def test_every_kind_of_card_has_its_effect() -> None:
    assert set(EFFECTS) == set(Kind)
    assert set(EFFECTS) >= LAST_CARD_EFFECTS
    assert set(START_EFFECTS) <= set(Kind)


def test_every_action_has_one_handler() -> None:
    """The classic actions in ACTIONS, the alternative rules' choices in their phases."""
    assert set(ACTIONS) | set(CHOICE_ACTIONS) == set(ACTION_TYPES)
    assert not set(ACTIONS) & set(CHOICE_ACTIONS)
    accepted = {kind for choice in CHOICE_PHASES.values() for kind in choice.accepts}
    assert set(CHOICE_ACTIONS) <= accepted


def test_every_phase_is_classic_or_answered_by_an_alternative_rule() -> None:
    assert set(CHOICE_PHASES) | CLASSIC_PHASES == set(Phase)
    assert not set(CHOICE_PHASES) & CLASSIC_PHASES


def test_the_draft_carries_every_field_one_version_on() -> None:
    """draft() copies field by field: a field it forgot would silently restart from nothing."""
    values = {f.name: object() for f in fields(GameState) if f.init}
    values["version"] = 41
    state = GameState(**values)
    state.legal_cache = (0, ())
    copy = draft(state)
    assert copy is not state
    for name, value in values.items():
        assert getattr(copy, name) is value or name == "version", name
    assert copy.version == 42
    assert copy.legal_cache is None


def _imports(path: Path) -> set[str]:
    """The engine modules ``path`` imports, wherever the import stands (a function body, an
    ``if TYPE_CHECKING:`` block), by module name."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:  # from . import a, b
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine."):
            found.add((node.module or "").split(".")[1])
    return found


def test_the_engine_modules_import_only_downward() -> None:
    """No import cycle among the engine's modules: each can be read knowing only those below."""
    graph = {p.stem: _imports(p) for p in ENGINE.glob("*.py") if p.stem != "__init__"}
    graph = {name: {m for m in deps if m in graph and m != name} for name, deps in graph.items()}
    done: set[str] = set()
    order: list[str] = []
    while len(done) < len(graph):
        ready = sorted(n for n in graph if n not in done and graph[n] <= done)
        assert ready, f"import cycle among {sorted(set(graph) - done)}"
        done.update(ready)
        order.extend(ready)
    assert order.index("cards") < order.index("hand") < order.index("state") < order.index("game")


def test_the_cycle_check_can_fail(tmp_path: Path) -> None:
    """The import reader sees imports inside functions and under TYPE_CHECKING."""
    module = tmp_path / "a.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n"
        "def f() -> None:\n    from . import c\n",
        encoding="utf-8",
    )
    assert _imports(module) == {"b", "c"}
