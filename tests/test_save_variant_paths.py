"""Where a save finds its variant files (issue 13 item 6)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ancients_kit.errors import ReplayError
from ancients_kit.session import Session

VARIANT = ('[meta]\nid = "quick"\nsource = "variant"\nnote = "shorter race"\n\n'
           '[replace."race.short"]\ntitle = "Race to five"\nsides = ["Red", "Blue"]\ntarget = 5\n')


def _game(race_plugin: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (folder / "v.toml").write_text(VARIANT)
    monkeypatch.chdir(folder)
    s = Session.new(race_plugin, "short", seed=3, variants=["v.toml"])
    s.answer(s.decision.keys[0])
    return s.save(folder / "g.json")


def test_a_save_records_absolute_variant_paths_and_loads_from_anywhere(
        race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = _game(race_plugin, tmp_path, monkeypatch)
    rec = json.loads(save.read_text())
    assert rec["variants"][0]["path"] == str((tmp_path / "v.toml").resolve())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert Session.load(save).answers == rec["answers"]


def test_a_relative_variant_path_is_looked_up_beside_the_save(
        race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = _game(race_plugin, tmp_path, monkeypatch)
    rec = json.loads(save.read_text())
    moved = tmp_path / "moved"
    moved.mkdir()
    (moved / "v.toml").write_text(VARIANT)
    rec["variants"][0]["path"] = "v.toml"
    (moved / "g.json").write_text(json.dumps(rec))
    monkeypatch.chdir(tmp_path.parent)
    assert Session.load(moved / "g.json").variants[0].path == str(moved / "v.toml")


def test_a_save_cannot_read_a_file_whose_content_it_does_not_already_know(
        race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = _game(race_plugin, tmp_path, monkeypatch)
    rec = json.loads(save.read_text())
    secret = tmp_path / "secret.toml"
    secret.write_text('[meta]\nid = "quick"\nsource = "variant"\nnote = "not the variant"\n')
    rec["variants"][0]["path"] = os.fspath(secret)
    save.write_text(json.dumps(rec))
    with pytest.raises(ReplayError, match="has changed since the game was saved") as err:
        Session.load(save)
    assert "not the variant" not in str(err.value)
