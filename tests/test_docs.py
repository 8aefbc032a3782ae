"""The documentation stays true: commands it shows exist, figures are regenerated."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from ancients_kit.data import DataStore
from ancients_kit.plugin import load_games

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _load_tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / "tools" / f"{name}.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_mechanics_page_figures_are_current() -> None:
    assert _load_tool("build_mechanics").main(["--check"]) == 0, "run: python docs/tools/build_mechanics.py"


def test_mechanics_figures_are_current() -> None:
    assert _load_tool("build_figures").main(["--check"]) == 0, "run: python docs/tools/build_figures.py"


def test_sources_page_lists_every_document() -> None:
    assert _load_tool("build_sources").main(["--check"]) == 0, "run: python docs/tools/build_sources.py"


def test_scenarios_named_in_docs_exist() -> None:
    games = load_games()
    known = {g: {s.id for s in games[g].scenarios(DataStore(games[g].package))} for g in games}
    pattern = re.compile(r"ancients (?:new|simulate|demo) ([a-z_]+) ([a-z0-9-]+)")
    seen = 0
    for doc in DOCS:
        for game, scenario in pattern.findall(doc.read_text()):
            if game not in known or scenario.isupper():
                continue
            seen += 1
            assert scenario in known[game], f"{doc.name}: {game} has no scenario {scenario!r}"
    assert seen >= 3


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_relative_links_resolve(doc: Path) -> None:
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", doc.read_text()):
        assert (doc.parent / target).exists(), f"{doc.name} links to missing {target}"


@pytest.mark.parametrize("game", ["centurion", "ccancients_rome"])
def test_game_page_lists_every_option(game: str) -> None:
    g = load_games()[game]
    page = (ROOT / "docs" / "games" / f"{game}.md").read_text()
    store = DataStore(g.package)
    scenario = g.scenarios(store)[0].id
    for spec in g.option_specs(store, scenario):
        assert f"`{spec.name}`" in page, f"docs/games/{game}.md does not explain option {spec.name!r}"
