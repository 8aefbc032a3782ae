"""Where a save finds its variants (issue 13 item 6; issue 27 item 2): a save
carries its variants' texts and reads no file; an older save that names them
by path only reads a file only to match it by hash, and quotes nothing of it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ancients_kit import savefile
from ancients_kit.errors import ReplayError
from ancients_kit.session import Session

VARIANT = ('[meta]\nid = "quick"\nsource = "variant"\nnote = "shorter race"\n\n'
           '[replace."race.short"]\ntitle = "Race to five"\nsides = ["Red", "Blue"]\ntarget = 5\n')


def _game(race_plugin: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (folder / "v.toml").write_text(VARIANT)
    monkeypatch.chdir(folder)
    s = Session.new(race_plugin, "short", seed=3, variants=["v.toml"])
    s.answer(s.decision.keys[0])
    return savefile.save(s, folder / "g.json")


def test_a_save_records_absolute_variant_paths_and_loads_from_anywhere(
        race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = _game(race_plugin, tmp_path, monkeypatch)
    rec = json.loads(save.read_text())
    assert rec["variants"][0]["path"] == str((tmp_path / "v.toml").resolve())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert savefile.load(save).answers == rec["answers"]


def _older(rec: dict) -> dict:
    """``rec`` as a save written before saves carried their variants."""
    for v in rec["variants"]:
        del v["text"], v["includes"]
    return rec


def test_a_relative_variant_path_is_looked_up_beside_the_save(
        race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = _game(race_plugin, tmp_path, monkeypatch)
    rec = _older(json.loads(save.read_text()))
    moved = tmp_path / "moved"
    moved.mkdir()
    (moved / "v.toml").write_text(VARIANT)
    rec["variants"][0]["path"] = "v.toml"
    (moved / "g.json").write_text(json.dumps(rec))
    monkeypatch.chdir(tmp_path.parent)
    assert savefile.load(moved / "g.json").variants[0].path == str(moved / "v.toml")


def test_a_save_cannot_read_a_file_whose_content_it_does_not_already_know(
        race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = _game(race_plugin, tmp_path, monkeypatch)
    rec = _older(json.loads(save.read_text()))
    secret = tmp_path / "secret.toml"
    for text in ('[meta]\nid = "quick"\nsource = "variant"\nnote = "not the variant"\n',
                 '[secret]\npassword = "hunter2"\n', 'password = hunter2 not toml\n'):
        secret.write_text(text)
        rec["variants"][0]["path"] = os.fspath(secret)
        save.write_text(json.dumps(rec))
        with pytest.raises(ReplayError, match="is not the variant this game was saved with") as err:
            savefile.load(save)
        assert "not the variant\"" not in str(err.value) and "password" not in str(err.value)
        assert "secret]" not in str(err.value) and "hunter2" not in str(err.value)


def test_a_save_carries_its_variant_and_reads_no_file(
        race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The variant file may be edited, moved or replaced by anything: the save
    replays from the text it carries and never opens the path it names."""
    save = _game(race_plugin, tmp_path, monkeypatch)
    rec = json.loads(save.read_text())
    assert rec["variants"][0]["text"] == VARIANT and rec["variants"][0]["includes"] == {}
    (tmp_path / "v.toml").unlink()
    os.mkfifo(tmp_path / "v.toml")  # opening this for reading would block the load
    loaded = savefile.load(save)
    assert loaded.answers == rec["answers"] and loaded.replay_matches
    assert loaded.variants[0].sources == (("", VARIANT),)
    resaved = tmp_path / "again.json"
    savefile.save(loaded, resaved)
    assert json.loads(resaved.read_text())["variants"] == rec["variants"]


def test_included_files_are_carried_in_the_order_read(
        race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "race.toml").write_text('title = "Race to six"\nsides = ["Red", "Blue"]\ntarget = 6\n\n'
                                                   '[meta]\nid = "race.short"\nsource = "variant"\nnote = "n"\n')
    (tmp_path / "w.toml").write_text('[meta]\nid = "parts"\nsource = "variant"\nnote = "n"\n\n'
                                     '[replace."race.short"]\nfile = "parts/race.toml"\n')
    monkeypatch.chdir(tmp_path)
    s = Session.new(race_plugin, "short", seed=3, variants=["w.toml"])
    s.answer(s.decision.keys[0])
    save = savefile.save(s, tmp_path / "g.json")
    rec = json.loads(save.read_text())
    assert list(rec["variants"][0]["includes"]) == ["parts/race.toml"]
    (tmp_path / "parts" / "race.toml").unlink()
    loaded = savefile.load(save)
    assert loaded.replay_matches and loaded.state.target == 6


@pytest.mark.parametrize("edit, message", [
    (lambda v: v.update(text=v["text"] + "# edited\n"), "does not match its sha256"),
    (lambda v: v.update(includes={"x.toml": "a = 1\n"}), "does not match its sha256"),
    (lambda v: v.update(text=5), "expected a string"),
    (lambda v: v.update(includes={"x.toml": "a" * (4 * 1024 * 1024 + 1)}), "at most 4194304 characters"),
    (lambda v: v.update(id="other"), "the save names 'other'"),
])
def test_an_edited_carried_variant_is_refused_by_its_hash_before_it_is_read(
        race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit, message: str) -> None:
    save = _game(race_plugin, tmp_path, monkeypatch)
    rec = json.loads(save.read_text())
    edit(rec["variants"][0])
    save.write_text(json.dumps(rec))
    with pytest.raises(ReplayError, match=message) as err:
        savefile.load(save)
    assert "\n" not in str(err.value)


def test_a_carried_variant_whose_hash_is_forged_still_loads_only_as_a_variant(
        race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Someone who edits the text and its hash together hands over a variant
    like any other: it is checked as `--variant` checks one, nothing more."""
    import hashlib

    save = _game(race_plugin, tmp_path, monkeypatch)
    rec = json.loads(save.read_text())
    v = rec["variants"][0]
    v["text"] += '\n[bogus]\nx = 1\n'
    v["sha256"] = hashlib.sha256(v["text"].encode()).hexdigest()
    save.write_text(json.dumps(rec))
    with pytest.raises(ReplayError, match=r"variants\[0\].*unknown key\(s\): bogus") as err:
        savefile.load(save)
    assert "\n" not in str(err.value)
