"""Packaging: one install gives the core, the CLI and every game."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_package_folder_is_listed() -> None:
    cfg = _pyproject()["tool"]["setuptools"]
    listed = set(cfg["packages"])
    mapping = cfg["package-dir"]
    found = set()
    for name, folder in mapping.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            if "tests" in rel.parts or "tools" in rel.parts:
                continue  # test and tool folders are not installed as packages
            found.add(".".join((name, *rel.parts)) if rel.parts else name)
    assert found <= listed, f"add to pyproject [tool.setuptools] packages: {sorted(found - listed)}"


def test_games_register_through_entry_points_only() -> None:
    eps = _pyproject()["project"]["entry-points"]["ancients_kit.games"]
    assert set(eps) >= {"centurion", "ccancients_rome"}
    core = ROOT / "ancients_kit"
    for py in core.rglob("*.py"):
        for line in py.read_text().splitlines():
            code = line.strip()
            if code.startswith(("import ", "from ")):
                assert "ancients_games" not in code, f"the core must not import a game: {py}: {code}"


def test_no_bare_top_level_games_package() -> None:
    mapping = _pyproject()["tool"]["setuptools"]["package-dir"]
    assert "games" not in mapping and "ancients_games" in mapping
