"""Typed per-hex data in map files: declarations, the three ways to give values, validation."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from ancients_kit.data import DataError, Meta, read_toml, split_meta, structure
from ancients_kit.hexgrid import Hex, Numbering
from ancients_kit.hexmap import HexKey, HexMap, MapSpec
from tests.test_hexmap import DirStore

MAPS = Path(__file__).parent / "data" / "maps"
LDF = MAPS / "strategic_ldf.toml"
XEN = MAPS / "strategic_xen.toml"

TP = {"town": 1, "city": 2, "metropolis": 3}
"""How an LDF-shaped game would read the ``centres`` key (ldf:6.5)."""


def _doc(path: Path) -> dict[str, Any]:
    return read_toml(path.read_text(encoding="utf-8"), file=path.name)


def _load(doc: dict[str, Any], file: str = "mutated.toml") -> HexMap:
    meta, body = split_meta(copy.deepcopy(doc), file=file)
    return HexMap.from_spec(structure(body, MapSpec, file=file), meta, file=file)


@pytest.fixture(scope="module")
def ldf() -> HexMap:
    return HexMap.load(DirStore(MAPS), "strategic_ldf.toml")


@pytest.fixture(scope="module")
def xen() -> HexMap:
    return HexMap.from_file(XEN)


@pytest.mark.rule("ldf:6.5", "ldf:1.4")
def test_population_centres_give_trade_points(ldf: HexMap) -> None:
    rome = ldf.from_id("3318")
    assert ldf.value(rome, "centres") == ("town", "metropolis")
    assert sum(TP[c] for c in ldf.value(rome, "centres")) == 4  # Rome 3 + Ostia 1
    assert sum(TP[c] for c in ldf.value(ldf.from_id("3114"), "centres")) == 2
    assert sum(TP[c] for c in ldf.value(ldf.from_id("3415"), "centres")) == 2  # two towns in one hex
    assert ldf.value(ldf.from_id("3215"), "centres") is None  # no centre, no default
    assert ldf.hexes_where("centres") == {ldf.from_id(x) for x in ("3318", "3114", "3415")}
    assert ldf.hexes_where("centres", ["city"]) == {ldf.from_id("3114")}


@pytest.mark.rule("ldf:1.5", "ldf:12.6")
def test_flags_legions_and_declarations(ldf: HexMap) -> None:
    assert ldf.value(ldf.from_id("3515"), "legions") == 2
    assert ldf.hexes_where("legions", 1) == {ldf.from_id("3318"), ldf.from_id("3114")}
    assert ldf.hexes_where("narrows") == {ldf.from_id("3218"), ldf.from_id("3219")}
    assert ldf.value(ldf.from_id("3217"), "narrows") is False
    assert ldf.hexes_where("coastal") == {ldf.from_id("3318"), ldf.from_id("3415")}
    assert ldf.hex_data(ldf.from_id("3318")) == {"centres": ("town", "metropolis"), "legions": 1, "coastal": True}
    assert ldf.hex_data(ldf.from_id("3516")) == {}
    key = ldf.hex_key("legions")
    assert (key.type, key.min, key.max, key.rules) == ("int", 1, 2, ("ldf:3.2",))
    assert key.describe() == "a whole number from 1 to 2"
    with pytest.raises(ValueError, match="has no per-hex key 'tp'.*centres, coastal, legions, narrows"):
        ldf.value(ldf.from_id("3318"), "tp")
    with pytest.raises(ValueError, match="not on map"):
        ldf.value(Hex(40, 40), "legions")


@pytest.mark.rule("ldf:9.5")
def test_fixture_uses_the_ldf_parity(ldf: HexMap) -> None:
    # 9.5: 3315, 3415 and 3416 meet at one point, which needs odd columns shifted
    a, b, c = (ldf.from_id(x) for x in ("3315", "3415", "3416"))
    assert a.is_adjacent(b) and b.is_adjacent(c) and a.is_adjacent(c)


@pytest.mark.rule("xen:supply", "xen:treasury")
def test_forage_rows_defaults_and_city_kinds(xen: HexMap) -> None:
    assert xen.value(xen.from_id("0101"), "forage") == 2
    assert xen.value(xen.from_id("0401"), "forage") == 1  # a dot: the default
    assert xen.value(xen.from_id("0502"), "forage") == 6
    assert xen.value(xen.from_id("0302"), "forage") == 1
    deserts = xen.hexes_where("desert")
    assert deserts == xen.hexes_with("desert")
    assert all(xen.value(h, "forage") == 0 for h in deserts)  # xen:supply: desert FV 0
    # 0 is a value, not an absence
    assert xen.from_id("0601") in xen.hexes_where("forage")
    assert xen.from_id("0601") in xen.hexes_where("forage", 0)
    assert len(xen.hexes_where("forage", 1)) == sum(1 for h in xen.hexes() if xen.value(h, "forage") == 1)
    assert {xen.to_id(h): xen.value(h, "city") for h in xen.hexes_where("city")} == {
        "0102": "city", "0502": "treasury", "0203": "capital"}
    assert xen.hexes_where("city", "capital") == {xen.from_id("0203")}
    assert xen.hexes_where("port") == {xen.from_id("0502")}


def test_maps_without_hex_data_are_unchanged() -> None:
    m = HexMap.from_file(MAPS / "frontier.toml")
    assert dict(m.hex_keys) == {} and dict(m.hex_values) == {}
    with pytest.raises(ValueError, match="keys: none"):
        m.hexes_where("forage")


def _error(doc: dict[str, Any]) -> DataError:
    with pytest.raises(DataError) as err:
        _load(doc)
    assert str(err.value).startswith("mutated.toml: ")
    return err.value


def test_value_out_of_bounds_names_file_hex_and_key() -> None:
    with pytest.raises(DataError) as err:
        HexMap.load(DirStore(MAPS), "bad_hexdata.toml")
    e = err.value
    assert e.file.endswith("bad_hexdata.toml") and "bad_hexdata.toml" in str(e)
    assert e.path == "hexdata.3318.legions"
    assert "hex 3318, key 'legions': expected a whole number from 1 to 2, got 3" in str(e)


@pytest.mark.parametrize(
    ("mutate", "path", "words"),
    [
        (lambda d: d["hexdata"]["3318"].update(centres=["village"]), "hexdata.3318.centres",
         ["hex 3318", "'centres'", "'village'", "'town', 'city', 'metropolis'"]),
        (lambda d: d["hexdata"]["3318"].update(legions="one"), "hexdata.3318.legions",
         ["hex 3318", "'legions'", "'one'"]),
        (lambda d: d["hexdata"]["3318"].update(tp=4), "hexdata.3318.tp",
         ["hex 3318", "key 'tp' is not declared", "centres, coastal, legions, narrows"]),
        (lambda d: d["hexdata"].update({"9999": {"legions": 1}}), "hexdata.9999.legions",
         ["9999", "'legions'"]),
        (lambda d: d["hexkeys"]["narrows"].update(hexes=["3218", "3218"]), "hexkeys.narrows.hexes[1]",
         ["hex 3218", "'narrows'", "given twice", "hexkeys.narrows.hexes[0]"]),
        (lambda d: d["hexkeys"]["legions"].update(values={"3318": 2}), "hexdata.3318.legions",
         ["hex 3318", "'legions'", "given twice", "hexkeys.legions.values.3318"]),
        (lambda d: d["hexkeys"]["coastal"].update(hexes=["3318", "3516"]), "hexkeys.coastal.hexes[1]",
         ["hex 3516", "'coastal'", "requires 'centres'"]),
        (lambda d: d["hexkeys"]["coastal"].update(requires=["port"]), "hexkeys.coastal.requires",
         ["'coastal' requires 'port'", "not declared"]),
        (lambda d: d["hexkeys"]["legions"].update(min=3), "hexkeys.legions",
         ["'legions'", "min 3 is above max 2"]),
        (lambda d: d["hexkeys"]["centres"].pop("of"), "hexkeys.centres", ["list key needs of"]),
        (lambda d: d["hexkeys"]["narrows"].update(type="int"), "hexkeys.narrows", ["hexes lists the hexes of a flag"]),
        (lambda d: d["hexkeys"]["legions"].update(default=5), "hexkeys.legions", ["default", "got 5"]),
        (lambda d: d["hexkeys"]["legions"].update(choices=["a"]), "hexkeys.legions", ["choices apply to texts"]),
        (lambda d: d["hexkeys"]["narrows"].update(colour="red"), "hexkeys.", ["narrows", "unknown key(s): colour"]),
    ],
    ids=["choice", "type", "undeclared", "off-map", "twice-in-list", "twice-two-ways", "requires",
         "requires-undeclared", "bounds", "list-of", "hexes-not-flag", "default", "choices-on-int", "unknown-field"],
)
def test_bad_hex_data_is_refused_with_its_place(mutate: Any, path: str, words: list[str]) -> None:
    doc = _doc(LDF)
    mutate(doc)
    e = _error(doc)
    assert e.path.startswith(path), e
    for w in words:
        assert w in str(e), (w, str(e))


@pytest.mark.parametrize(
    ("rows", "legend", "path", "words"),
    [
        (["2211.0", "231.60", "00.3.0", "00..0"], None, "hexkeys.forage.rows[3]", ["5 hexes", "has 6"]),
        (["2211.0", "231.60", "00.3.0"], None, "hexkeys.forage.rows", ["3 row strings", "4 rows"]),
        (["2211.0", "231.60", "00.3.0", "00..x0"], None, "hexkeys.forage.rows[3]",
         ["hex 0504", "'forage'", "'x'", "col 5"]),
        (["2211.0", "231.60", "00.3.0", "00..a0"], {"a": 12}, "hexkeys.forage.rows[3]",
         ["hex 0504", "'forage'", "got 12"]),
    ],
    ids=["short-row", "row-count", "unknown-char", "legend-out-of-bounds"],
)
def test_bad_forage_rows(rows: list[str], legend: dict[str, int] | None, path: str, words: list[str]) -> None:
    doc = _doc(XEN)
    doc["hexkeys"]["forage"]["rows"] = rows
    if legend is not None:
        doc["hexkeys"]["forage"]["legend"] = legend
    e = _error(doc)
    assert e.path == path, e
    for w in words:
        assert w in str(e), (w, str(e))


def test_rows_with_a_legend_for_texts() -> None:
    doc = _doc(XEN)
    del doc["hexkeys"]["city"]["values"]
    doc["hexkeys"]["city"]["rows"] = ["......", "C...T.", ".K....", "......"]
    doc["hexkeys"]["city"]["legend"] = {"C": "city", "T": "treasury", "K": "capital"}
    m = _load(doc)
    assert {m.to_id(h): m.value(h, "city") for h in m.hexes_where("city")} == {
        "0102": "city", "0502": "treasury", "0203": "capital"}
    doc["hexkeys"]["city"].pop("legend")
    assert "need a legend" in str(_error(doc))


def test_build_checks_values() -> None:
    num = Numbering(orientation="flat", shifted="odd", columns=3, rows=3)
    fv = HexKey("int", min=0, max=9, default=1, name="forage")
    m = HexMap.build(num, hex_keys=[fv], hex_values={"forage": {Hex(0, 0): 4}},
                     meta=Meta(id="t", source="reconstructed", note="built"))
    assert m.value(Hex(0, 0), "forage") == 4 and m.value(Hex(1, 0), "forage") == 1
    with pytest.raises(ValueError, match="hex 0101, key 'forage': expected a whole number from 0 to 9, got 10"):
        HexMap.build(num, hex_keys=[fv], hex_values={"forage": {Hex(0, 0): 10}})
    with pytest.raises(ValueError, match="not declared"):
        HexMap.build(num, hex_values={"forage": {Hex(0, 0): 1}})


def test_variant_map_errors_name_the_variant() -> None:
    from ancients_kit.data import Variant

    body = _doc(LDF)
    del body["meta"]
    body["hexdata"]["3114"]["legions"] = 0
    v = Variant(path="mine.toml", meta=Meta(id="mine", source="variant"), replace={"tests.map.strategic-ldf": body})
    with pytest.raises(DataError) as err:
        HexMap.load(DirStore(MAPS, (v,)), "strategic_ldf.toml")
    assert str(err.value).startswith("mine.toml [replace.tests.map.strategic-ldf]: hexdata.3114.legions: hex 3114")
    body["hexdata"]["3114"]["legions"] = 2
    m = HexMap.load(DirStore(MAPS, (v,)), "strategic_ldf.toml")
    assert m.meta.source == "variant" and m.value(m.from_id("3114"), "legions") == 2
