"""LDF's modules in one order (docs/architecture.md, HOUSE "Each game in one shape"): imports run
one way, none hides inside a function, none takes another module's private name, and no module
outgrows a thousand lines.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

from ancients_games.ldf import model

GAME_DIR = Path(model.__file__).resolve().parent
MODULES = {p.stem: p for p in sorted(GAME_DIR.glob("*.py"))}
PACKAGE = "ancients_games.ldf"


def _sibling(node: ast.ImportFrom) -> str | None:
    """The sibling module an import reads from (``from .economy import x``, ``from . import x``
    answer per name below), or ``None`` for another package's."""
    if node.level == 1:
        return node.module or ""
    if node.module and (node.module == PACKAGE or node.module.startswith(PACKAGE + ".")):
        return node.module.removeprefix(PACKAGE).removeprefix(".")
    return None


def _imports(path: Path) -> list[tuple[ast.ImportFrom, list[str], str]]:
    """Every import of a sibling module in ``path``: the node, the modules it reads, the names it takes."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        mod = _sibling(node)
        if mod is None:
            continue
        if mod:
            out.append((node, [mod.split(".")[0]], ",".join(a.name for a in node.names)))
        else:
            out.append((node, [a.name for a in node.names if a.name in MODULES], ""))
    return out


def test_the_imports_run_one_way() -> None:
    graph = {name: {m for _, mods, _ in _imports(path) for m in mods if m in MODULES and m != name}
             for name, path in MODULES.items()}
    try:
        order = list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as e:  # pragma: no cover - the failure's message
        pytest.fail(f"an import circle in games/ldf: {e.args[1]}")
    assert order.index("state") < order.index("stacking") < order.index("politics") < order.index("economy") \
        < order.index("movement") < order.index("chit_events") < order.index("actions") \
        < order.index("sequence") < order.index("game")


def test_no_import_hides_inside_a_function() -> None:
    found = []
    for name, path in MODULES.items():
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found += [f"{name}.py:{n.lineno} in {fn.name}" for n in ast.walk(fn)
                          if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert not found, f"imports inside functions: {found}"


def test_no_module_takes_another_ones_private_names() -> None:
    found = []
    for name, path in MODULES.items():
        for node, mods, names in _imports(path):
            found += [f"{name}.py:{node.lineno} takes {n} from {mods[0]}" for n in names.split(",")
                      if n.startswith("_") and n != "__version__"]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{name}.py:{n.lineno} reads {n.value.id}.{n.attr}" for n in ast.walk(tree)
                  if isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__")
                  and isinstance(n.value, ast.Name) and n.value.id in MODULES and n.value.id != name]
    assert not found, f"private names across modules: {found}"


def test_no_module_is_over_a_thousand_lines() -> None:
    sizes = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()}
    assert not {n: s for n, s in sizes.items() if s > 1000}
