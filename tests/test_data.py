"""Data documents: provenance headers, strict schemas, errors naming file and key, variants."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from ancients_kit.data import DataError, DataStore, Meta, Variant, read_toml, split_meta, structure


@attrs.frozen
class Unit:
    code: str
    attack: int
    defense: int


@attrs.frozen
class Roster:
    units: tuple[Unit, ...]


def test_meta_is_required_and_reconstructed_needs_a_note() -> None:
    with pytest.raises(DataError, match="missing \\[meta\\]"):
        split_meta({"units": []}, file="a.toml")
    with pytest.raises(DataError, match="meta.note"):
        split_meta({"meta": {"id": "x", "source": "reconstructed"}}, file="a.toml")
    meta, body = split_meta({"meta": {"id": "x", "source": "rulebook", "rules": ["cen:basic.unit-types"]}, "a": 1},
                            file="a.toml")
    assert meta == Meta("x", "rulebook", ("cen:basic.unit-types",)) and body == {"a": 1}


def test_unknown_source_is_refused() -> None:
    with pytest.raises(DataError, match="a.toml: meta"):
        split_meta({"meta": {"id": "x", "source": "guess"}}, file="a.toml")


def test_errors_name_the_key_path() -> None:
    doc = {"units": [{"code": "SD", "attack": 4, "defense": 4}, {"code": "SK", "attack": "two", "defense": 1}]}
    with pytest.raises(DataError) as exc:
        structure(doc, Roster, file="units.toml")
    assert exc.value.file == "units.toml"
    assert exc.value.path == "units[1].attack"


def test_unknown_keys_are_errors() -> None:
    doc = {"units": [{"code": "SD", "attack": 4, "defense": 4, "speed": 9}]}
    with pytest.raises(DataError, match="speed") as exc:
        structure(doc, Roster, file="units.toml")
    assert exc.value.path == "units[0]"


def test_missing_key() -> None:
    with pytest.raises(DataError, match="units.toml"):
        structure({"units": [{"code": "SD", "attack": 4}]}, Roster, file="units.toml")


def test_toml_syntax_error_names_file() -> None:
    with pytest.raises(DataError, match="x.toml: not valid TOML"):
        read_toml("a = [", file="x.toml")


def _variant(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "v.toml"
    p.write_text('[meta]\nid = "v"\nsource = "variant"\nnote = "test"\n\n' + body)
    return p


def test_variant_inline_and_file_replacement(tmp_path: Path) -> None:
    (tmp_path / "crt.toml").write_text('[meta]\nid = "g.crt"\nsource = "variant"\n\n[table]\nx = 1\n')
    p = _variant(tmp_path, '[replace."g.crt"]\nfile = "crt.toml"\n\n[replace."g.units"]\nunits = []\n\n[options]\nfog = true\n')
    v = Variant.from_file(p)
    assert set(v.replace) == {"g.crt", "g.units"} and v.options == {"fog": True}
    assert v.replace["g.crt"]["table"] == {"x": 1}
    digest = v.digest
    (tmp_path / "crt.toml").write_text('[meta]\nid = "g.crt"\nsource = "variant"\n\n[table]\nx = 2\n')
    assert Variant.from_file(p).digest != digest  # included files count in the hash


def test_variant_errors(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read variant"):
        Variant.from_file(tmp_path / "nope.toml")
    with pytest.raises(DataError, match="unknown key"):
        Variant.from_file(_variant(tmp_path, "[tables]\nx = 1\n"))
    with pytest.raises(DataError, match="declares meta.id"):
        Variant.from_file(_variant(tmp_path, '[replace."a"]\nmeta = { id = "b" }\n'))


def test_store_applies_override(race_plugin: str, tmp_path: Path) -> None:
    base = DataStore("race_game")
    meta, raw = base.load("short.toml", dict)
    assert meta.id == "race.short" and raw["target"] == 20
    v = Variant.from_file(_variant(tmp_path, '[replace."race.short"]\ntitle = "t"\nsides = ["A", "B"]\ntarget = 3\n'))
    meta2, raw2 = DataStore("race_game", (v,)).load("short.toml", dict)
    assert meta2.source == "variant" and raw2["target"] == 3
    assert DataStore("race_game", (v,)).unused_overrides({"race.other"}) == ["race.short"]
    with pytest.raises(DataError, match="no such data file"):
        base.load("missing.toml", dict)
    assert base.listing() == ["short.toml"]
