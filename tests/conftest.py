"""Shared fixtures: the test plugin registered through a real entry point."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PLUGINS = Path(__file__).parent / "plugins"


@pytest.fixture
def race_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Install the "race" test game exactly as a third-party package would:
    an importable package plus a dist-info folder declaring the entry point."""
    dist = tmp_path / "race_game_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: race-game-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[ancients_kit.games]\nrace = race_game:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(PLUGINS))
    sys.modules.pop("race_game", None)
    yield "race"
    sys.modules.pop("race_game", None)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Run on every core by default: ``-n auto --dist worksteal`` unless ``-n`` or
    ``--dist`` was given (``-n 0`` runs serially) or xdist is off (``-p no:xdist``)
    or missing. Set here rather than in addopts, where ``-n`` breaks
    ``-p no:xdist``; runs before xdist's own hook, and not in its workers.

    worksteal hands each worker an even run of the tests in collection order
    (mostly whole modules, so a module's fixtures are mostly built once) and lets
    an idle worker take tests from a busy one. No test may count on sharing a
    worker or on its order: ``xdist_group`` does not group under ``--dist
    loadgroup`` with pytest 9.2 (pytest-xdist issue 1386)."""
    if not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput"):
        return
    if config.option.numprocesses is None and not config.option.tx:
        config.option.numprocesses = "auto"
    if config.option.dist == "no" and config.option.numprocesses != 0:
        config.option.dist = "worksteal"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` (wide sweeps of whole games) run only when asked for:
    ``-m slow`` or ``ANCIENTS_SLOW=1``."""
    import os

    if os.environ.get("ANCIENTS_SLOW") == "1" or "slow" in (config.getoption("markexpr", "") or ""):
        return
    skip = pytest.mark.skip(reason="slow sweep: run with -m slow or ANCIENTS_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
