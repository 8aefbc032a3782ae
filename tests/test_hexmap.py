"""Map files: loading through a DataStore, validation errors, board sections."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ancients_kit.data import DataError, DataStore, Meta, Variant, read_toml
from ancients_kit.hexgrid import Hex, Hexside, Numbering
from ancients_kit.hexmap import HexMap, board_sections

MAPS = Path(__file__).parent / "data" / "maps"


class DirStore(DataStore):
    """A DataStore over a plain folder (the fixtures are not a package)."""

    def __init__(self, folder: Path, variants: tuple[Variant, ...] = ()) -> None:
        super().__init__("tests.fixtures", variants)
        self.folder = folder

    def path(self, rel: str) -> str:
        return str(self.folder / rel)

    def raw(self, rel: str) -> dict[str, Any]:
        p = self.folder / rel
        if not p.is_file():
            raise DataError(str(p), "no such data file")
        return read_toml(p.read_text(encoding="utf-8"), file=str(p))


@pytest.fixture
def store() -> DirStore:
    return DirStore(MAPS)


@pytest.fixture
def frontier(store: DirStore) -> HexMap:
    return HexMap.load(store, "frontier.toml")


def test_load_fixture_terrain(frontier: HexMap) -> None:
    n = frontier.numbering
    assert frontier.meta.id == "tests.map.frontier"
    assert frontier.meta.source == "reconstructed"
    assert len(frontier.terrain_of) == 40
    assert frontier.terrain(n.from_id("0301")) == "forest"
    assert frontier.terrain(n.from_id("0602")) == "hill"
    assert frontier.terrain(n.from_id("0204")) == "town"
    assert frontier.terrain(n.from_id("0703")) == "river-hex"
    assert frontier.terrain(n.from_id("0805")) == "clear"
    # [hexes] overrides the ASCII rows
    assert frontier.terrain(n.from_id("0101")) == "hill"
    assert frontier.terrain_names() == {"clear", "forest", "hill", "town", "river-hex"}
    assert len(frontier.hexes_with("forest")) == 4


def test_off_map_terrain_is_a_value_error(frontier: HexMap) -> None:
    with pytest.raises(ValueError, match="not on map 'tests.map.frontier'"):
        frontier.terrain(Hex(-5, 0))


def test_hexside_features_are_undirected(frontier: HexMap) -> None:
    n = frontier.numbering
    a, b, c = n.from_id("0304"), n.from_id("0305"), n.from_id("0405")
    assert frontier.hexside_features(a, b) == {"river", "road"}
    assert frontier.hexside_features(b, a) == {"river", "road"}
    assert frontier.hexside_features(b, c) == {"river"}
    assert frontier.hexside_features(a, n.from_id("0303")) == frozenset()
    assert frontier.has_feature(c, b, "river")
    assert frontier.hexsides_with("river") == {Hexside.between(a, b), Hexside.between(b, c)}
    assert frontier.feature_names() == {"river", "road"}
    with pytest.raises(ValueError, match="not adjacent"):
        frontier.hexside_features(a, n.from_id("0302"))


def test_regions_and_places(frontier: HexMap) -> None:
    n = frontier.numbering
    assert frontier.regions["north"] == {n.from_id(x) for x in ("0101", "0201", "0301")}
    assert frontier.regions_of(n.from_id("0805")) == {"quadrant-se"}
    assert frontier.place("Town of Thala") == n.from_id("0204")
    with pytest.raises(ValueError, match="no place 'Carthage'.*Town of Thala"):
        frontier.place("Carthage")
    with pytest.raises(ValueError, match="no region 'south'"):
        frontier.region("south")


def test_adjacency_stays_on_map(frontier: HexMap) -> None:
    n = frontier.numbering
    corner = n.from_id("0101")
    assert {n.to_id(h) for h in frontier.adjacency[corner]} == {"0201", "0102"}
    for h, ns in frontier.adjacency.items():
        assert all(x in frontier for x in ns)
        assert len(ns) == sum(1 for x in h.neighbors() if x in n)
    assert len(frontier.graph) == len(frontier.terrain_of)


def test_bad_legend_char_names_file_row_and_col(store: DirStore) -> None:
    with pytest.raises(DataError) as err:
        HexMap.load(store, "bad_legend.toml")
    msg = str(err.value)
    assert "bad_legend.toml" in msg
    assert err.value.path == "terrain.rows[3]"
    assert "'X'" in msg and "col 7" in msg and "0704" in msg


def test_non_adjacent_hexside_names_the_pair(store: DirStore) -> None:
    with pytest.raises(DataError) as err:
        HexMap.load(store, "bad_hexside.toml")
    assert "bad_hexside.toml" in str(err.value)
    assert err.value.path == "hexsides[0].between[1]"
    assert "0304 and 0306 are not adjacent" in str(err.value)


def test_unknown_key_is_rejected(store: DirStore) -> None:
    with pytest.raises(DataError) as err:
        HexMap.load(store, "bad_key.toml")
    assert "bad_key.toml" in str(err.value)
    assert "colums" in str(err.value)


def test_place_off_map(store: DirStore) -> None:
    with pytest.raises(DataError) as err:
        HexMap.load(store, "bad_place.toml")
    assert err.value.path == "places.Lost city"
    assert "'0907'" in str(err.value)


def test_short_row_string_length(store: DirStore) -> None:
    with pytest.raises(DataError) as err:
        HexMap.load(store, "bad_rows.toml")
    assert err.value.path == "terrain.rows[1]"
    assert "5 hexes" in str(err.value) and "has 4" in str(err.value)


def test_variant_replaces_the_map(tmp_path: Path) -> None:
    doc = read_toml((MAPS / "frontier.toml").read_text(), file="frontier.toml")
    doc["hexes"] = {"0101": "marsh"}
    del doc["meta"]  # a replacement without its own header is marked "variant"
    v = Variant(path="mine.toml", meta=Meta(id="mine", source="variant", note="wetter"),
                replace={"tests.map.frontier": doc})
    m = HexMap.load(DirStore(MAPS, (v,)), "frontier.toml")
    assert m.terrain(m.from_id("0101")) == "marsh"
    assert m.meta.source == "variant"
    doc["places"] = {"Nowhere": "9999"}
    with pytest.raises(DataError) as err:
        HexMap.load(DirStore(MAPS, (v,)), "frontier.toml")
    assert "mine.toml [replace.tests.map.frontier]" in str(err.value)


def test_from_toml_text() -> None:
    text = (MAPS / "cca_board.toml").read_text()
    m = HexMap.from_toml(text, file="inline")
    assert len(m.terrain_of) == 113
    n = m.numbering
    # indented rows: spaces are skipped, so the row-2 hills land on hexes 6 and 7 of that row
    assert {n.to_id(h) for h in m.hexes_with("hill")} == {"0602", "0702"}
    assert {n.to_id(h) for h in m.hexes_with("forest")} == {"0405", "0505"}


# ------------------------------------------------------------------ C&C sections


@pytest.mark.rule("ccr:base.sections")
def test_cca_sections_from_file(store: DirStore) -> None:
    m = HexMap.load(store, "cca_board.toml")
    left, centre, right = m.regions["left"], m.regions["centre"], m.regions["right"]
    assert left | centre | right == set(m.terrain_of)
    assert not left & right
    n = m.numbering
    for y in range(9):
        row = y + 1
        ids = [n.to_id(n.from_offset(c, row)) for c in range(1, n.line_length(y) + 1)]
        in_left = [i for i in ids if n.from_id(i) in left]
        in_centre = [i for i in ids if n.from_id(i) in centre]
        in_right = [i for i in ids if n.from_id(i) in right]
        if n.line_length(y) == 13:  # full rows: 4 | 5 | 4, no hex shared
            assert (len(in_left), len(in_centre), len(in_right)) == (4, 5, 4)
        else:  # short rows: the 4th and 9th hex are cut by the dotted lines
            shared_lc = sorted(set(in_left) & set(in_centre))
            shared_cr = sorted(set(in_centre) & set(in_right))
            assert shared_lc == [f"04{row:02d}"]
            assert shared_cr == [f"09{row:02d}"]
            assert (len(in_left), len(in_centre), len(in_right)) == (4, 6, 4)


@pytest.mark.rule("ccr:base.sections")
def test_board_sections_flip_and_errors() -> None:
    n = Numbering("pointy", "even", 13, 9, short_rows=True)
    a = board_sections(n)
    b = board_sections(n, flip=True)
    assert a["left"] == b["right"] and a["right"] == b["left"] and a["centre"] == b["centre"]
    assert len(a["left"]) == 5 * 4 + 4 * 4
    with pytest.raises(ValueError, match="need 3 names"):
        board_sections(n, (4, 9), ("a", "b"))
    with pytest.raises(ValueError, match="must increase"):
        board_sections(n, (9, 4))


def test_board_sections_flat_columns() -> None:
    n = Numbering("flat", "odd", 10, 4)
    s = board_sections(n, (3, 7), ("w", "m", "e"))
    assert {n.to_offset(h)[0] for h in s["w"]} == {1, 2, 3}
    assert {n.to_offset(h)[0] for h in s["m"]} == {4, 5, 6, 7}
    assert sum(len(v) for v in s.values()) == 40


def test_build_rejects_off_map() -> None:
    n = Numbering("flat", "even", 3, 3)
    with pytest.raises(ValueError, match="not on the map"):
        HexMap.build(n, terrain={Hex(9, 9): "hill"})
    m = HexMap.build(n, terrain={Hex(1, 1): "hill"}, features={(Hex(0, 0), Hex(0, 1)): ["river"]},
                     regions={"all": n.hexes()}, places={"here": Hex(1, 1)})
    assert m.terrain(Hex(1, 1)) == "hill"
    assert m.hexside_features(Hex(0, 1), Hex(0, 0)) == {"river"}
    assert m.regions["all"] == set(n.hexes())
