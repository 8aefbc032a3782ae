"""The house's shape, checked: imports run one way, layer by layer (docs/architecture.md).

Every import between the project's own modules counts, wherever it stands: at
the top, under ``TYPE_CHECKING`` or inside a function. Then:

- no import circle anywhere (core, games, between them);
- the core never imports a game, and each core module imports only modules of
  its own layer or below (:data:`CORE_LAYERS`, the table in docs/architecture.md);
- an import inside a function says why with a comment (an optional library,
  start-up time), and no module takes another one's private name;
- no production file is longer than :data:`MOST_LINES`.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MOST_LINES = 1_000
CORE_LAYERS: dict[str, int] = {
    # 0: base and rules kit
    **dict.fromkeys(
        ["errors", "log", "data", "paths", "files", "chance", "hexgrid", "hexmap", "movement", "walks", "geometry",
         "places", "occupancy", "packing", "stats", "text", "probability", "table_labels", "table_results",
         "provenance", "table_schema", "tables", "bookkeeping", "battles"], 0),
    # 1: the decision protocol, the contract, the rules kit that asks questions, pictures
    **dict.fromkeys(["protocol", "plugin", "windows", "choice", "secret", "picture", "render"], 1),
    # 2: the session, and what stands on the contract without running a game
    **dict.fromkeys(["session", "highlight", "compare", "translations", "sweep", "tui.view"], 2),
    # 3: bots and search
    **dict.fromkeys(["bots", "search", "checkpoints"], 3),
    # 4: the save format, the test kit, outputs, studies, charts, drawings
    **dict.fromkeys(["savefile", "testing", "outputs", "study", "plots", "drawing"], 4),
    # 5: the command line and the full-screen table
    **dict.fromkeys(["cli", "cli.ui", "cli.common", "cli.listing", "cli.odds", "cli.play", "cli.simulate",
                     "cli.teach", "cli.main", "tui", "tui.keys", "tui.layout", "tui.widgets", "tui.app"], 5),
}
"""Each core module's layer (``ancients_kit.`` left out); the package faces stand with their modules."""


def _modules() -> dict[str, Path]:
    """Production modules by dotted name (``ancients_kit.session``, ``ancients_games.ldf.chits``)."""
    out = {}
    for top, pkg in (("ancients_kit", "ancients_kit"), ("games", "ancients_games")):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT / top)
            if "tests" in rel.parts or "tools" in rel.parts:
                continue
            parts = [pkg, *rel.with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _package(name: str) -> str:
    return name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]


def _imports(name: str) -> list[tuple[ast.stmt, str, list[str], bool]]:
    """Each import of a project module in ``name``: the node, the module imported, the names
    taken, and whether it stands inside a function."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    inside: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside.update(id(n) for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom)))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in MODULES:
                    found.append((node, a.name, [], id(node) in inside))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = _package(name).split(".")
                pkg = pkg[: len(pkg) - node.level + 1]
                base = ".".join(pkg + ([node.module] if node.module else []))
            names = [a.name for a in node.names]
            subs = [f"{base}.{n}" for n in names if f"{base}.{n}" in MODULES]
            if subs:
                found += [(node, s, [], id(node) in inside) for s in subs]
            if base in MODULES and len(subs) < len(names):
                found.append((node, base, [n for n in names if f"{base}.{n}" not in MODULES], id(node) in inside))
    return found


IMPORTS = {name: _imports(name) for name in MODULES}


def _where(name: str, node: ast.stmt) -> str:
    return f"{MODULES[name].relative_to(ROOT)}:{node.lineno}"


def test_no_import_circle_anywhere() -> None:
    graph = {name: {target for _, target, _, _ in IMPORTS[name] if target != name and target != _package(name)}
             for name in MODULES}
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"an import circle: {' -> '.join(exc.args[1])}")


def test_the_core_imports_no_game_and_no_layer_above_its_own() -> None:
    wrong = []
    for name in MODULES:
        if not name.startswith("ancients_kit"):
            continue
        short = name.removeprefix("ancients_kit").removeprefix(".")
        if short == "":
            continue
        assert short in CORE_LAYERS, f"{name}: a core module without a layer (add it to CORE_LAYERS and the doc)"
        for node, target, _, _ in IMPORTS[name]:
            if target.startswith("ancients_games"):
                wrong.append(f"{_where(name, node)} imports the game {target}")
                continue
            other = target.removeprefix("ancients_kit").removeprefix(".")
            if other and CORE_LAYERS[other] > CORE_LAYERS[short]:
                wrong.append(f"{_where(name, node)}: {short} (layer {CORE_LAYERS[short]}) imports {other} "
                             f"(layer {CORE_LAYERS[other]})")
    assert not wrong, "\n".join(wrong)


def _has_reason(lines: list[str], node: ast.stmt) -> bool:
    """A comment on the import's line or on one of the three lines above it."""
    return any("#" in lines[i] for i in range(max(0, node.lineno - 4), node.end_lineno or node.lineno))


def test_an_import_inside_a_function_says_why() -> None:
    silent = []
    for name, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                silent += [_where(name, n) for n in ast.walk(fn)
                           if isinstance(n, (ast.Import, ast.ImportFrom)) and not _has_reason(lines, n)]
    assert not silent, "imports inside functions without a comment saying why:\n" + "\n".join(sorted(set(silent)))


def test_no_module_takes_another_ones_private_name() -> None:
    taken = [f"{_where(name, node)} takes {n} from {target}"
             for name in MODULES for node, target, names, _ in IMPORTS[name]
             for n in names if n.startswith("_") and not n.startswith("__")]
    assert not taken, "\n".join(taken)


def test_no_production_file_is_over_a_thousand_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in MODULES.values()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long, f"over {MOST_LINES} lines: {long}"
