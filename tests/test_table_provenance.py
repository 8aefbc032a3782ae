"""Provenance per row or cell of a table: [[provenance]] marks, resolutions, listings."""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ancients_kit.data import DataError, DataStore, Meta, Variant, read_toml
from ancients_kit.tables import Provenance, load_table, load_table_file, table_from_document, table_provenance

ROOT = Path(__file__).resolve().parent.parent
TABLES = Path(__file__).parent / "data" / "tables"
MARKED = TABLES / "diplomacy_marked.toml"


def _doc(path: Path) -> dict[str, Any]:
    return read_toml(path.read_text(encoding="utf-8"), file=path.name)


@pytest.mark.rule("xen:diplomacy")
def test_rows_and_cells_carry_their_source() -> None:
    t = load_table_file(MARKED)
    prov = t.provenance
    assert isinstance(prov, Provenance)
    assert t.meta.source == "reconstructed"  # the document's source is kept
    assert prov.cell(1, ">=5").source == "rulebook"
    assert prov.cell("3", 0).source == "rulebook"
    assert prov.cell(4, "2").source == "rulebook"
    assert prov.cell(4, "3").source == "reconstructed" and prov.cell(4, "3") is prov.document
    assert prov.cell(6, "1").source == "reconstructed"
    assert prov.row(2) is prov.marks[0]
    assert prov.row(4) is None  # mixed
    assert prov.row(5) is prov.document
    assert prov.sources_used() == {"rulebook", "reconstructed"}
    assert prov.summary() == "rows 1, 2, 3: rulebook; row 4, columns <=0, 1, 2: rulebook; the rest: reconstructed"
    assert prov.marks[1].describe() == (
        "row 4, columns <=0, 1, 2: rulebook (Row 4 is printed for its first three columns only.)")
    with pytest.raises(ValueError, match="no column '7'"):
        prov.cell(4, "7")
    with pytest.raises(ValueError, match="no row '9' \\(rows: 1, 2, 3, 4, 5, 6\\)"):
        prov.cell(9, "1")


@pytest.mark.rule("xen:diplomacy")
def test_a_resolution_says_where_its_cell_comes_from() -> None:
    t = load_table_file(MARKED)
    printed = t.resolve_value(2, 4)
    rebuilt = t.resolve_value(3, 4)
    assert (printed.result, printed.source) == ("D2", "rulebook")
    assert (rebuilt.result, rebuilt.source) == ("D2", "reconstructed")
    assert rebuilt.explain() == "value 3 -> column 3, roll 4 -> D2 (reconstructed cell) [xen:diplomacy]"
    # modifiers clamp onto printed rows; the cell read decides
    assert t.resolve_value(0, 6, modifier=-5).source == "rulebook"
    # a table without marks: no source on its resolutions, explanations unchanged
    plain = load_table_file(TABLES / "diplomacy.toml")
    r = plain.resolve_value(3, 4)
    assert r.source is None and "cell" not in r.explain()
    assert plain.provenance is not None and plain.provenance.marks == ()
    assert plain.provenance.summary() == "reconstructed"


@pytest.mark.rule("xen:movement")
def test_keyed_lookup_marks_entries() -> None:
    t = load_table_file(TABLES / "terrain_marked.toml")
    assert t.resolve_key("desert").source == "reconstructed"
    assert t.resolve_key("road").source == "rulebook"
    assert t.provenance.summary() == "entry desert: reconstructed; the rest: rulebook"


def test_every_existing_table_file_loads_as_before() -> None:
    for path in sorted(TABLES.glob("*.toml")):
        t = load_table_file(path)
        if "marked" not in path.name:
            assert t.provenance is not None and t.provenance.marks == (), path.name


@pytest.mark.parametrize(
    ("mutate", "path", "words"),
    [
        (lambda d: d["provenance"][0].update(rows=[7]), "provenance[0].rows[0]", ["no row '7'", "rows: 1, 2"]),
        (lambda d: d["provenance"][1].update(columns=["9"]), "provenance[1].columns[0]", ["no column '9'"]),
        (lambda d: d["provenance"][1].update(rows=[3]), "provenance[1].rows[0]",
         ["3, column <=0 is already marked by provenance[0]"]),
        (lambda d: d["provenance"][1].update(source="reconstructed", note=" "), "provenance[1].note",
         ["must say what they were built from"]),
        (lambda d: d["provenance"][1].update(entries=["x"]), "provenance[1].entries", ["only keyed lookups"]),
        (lambda d: d["provenance"][1].pop("rows"), "provenance[1].rows", ["mark some rows"]),
        (lambda d: d["provenance"][1].update(source="guess"), "provenance", ["guess"]),
        (lambda d: d["provenance"][1].update(rows=[True]), "provenance[1]",
         ["a label is a string or a whole number, not bool True"]),
    ],
    ids=["row", "column", "twice", "no-note", "entries", "no-rows", "bad-source", "bool-row"],
)
def test_bad_marks_name_the_file_and_the_mark(mutate: Any, path: str, words: list[str]) -> None:
    doc = _doc(MARKED)
    mutate(doc)
    with pytest.raises(DataError) as err:
        table_from_document(copy.deepcopy(doc), file="marked.toml")
    assert str(err.value).startswith("marked.toml: ")
    assert err.value.path.startswith(path), err.value
    for w in words:
        assert w in str(err.value), (w, str(err.value))


def test_marks_on_a_keyed_lookup_must_be_entries() -> None:
    doc = _doc(TABLES / "terrain_marked.toml")
    doc["provenance"][0] = {"rows": ["1"], "source": "rulebook"}
    with pytest.raises(DataError, match="marks entries, not rows"):
        table_from_document(doc, file="t.toml")
    doc["provenance"][0] = {"entries": ["swamp"], "source": "rulebook"}
    with pytest.raises(DataError, match="no entry 'swamp'"):
        table_from_document(doc, file="t.toml")


# ------------------------------------------------------------------ listings: a plugin with marked tables

GAME_CODE = '''
from ancients_kit.plugin import Game, TableInfo
from ancients_kit.tables import load_table


class Marked(Game):
    id = "marked"
    title = "Marked tables (test plugin)"
    package = "marked_game"
    rule_prefix = "xen"

    def scenarios(self, store):
        return []

    def tables(self, store):
        out = []
        for rel in ("diplomacy.toml", "plain.toml"):
            t = load_table(store, rel)
            rows = tuple((r.band.label, *r.results) for r in t.rows)
            out.append(TableInfo(t.id, t.title, t.meta, ("roll", *t.columns), rows, dict(t.codes)))
        return out


GAME = Marked()
'''


@pytest.fixture
def marked_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    pkg = tmp_path / "marked_game"
    (pkg / "data").mkdir(parents=True)
    (pkg / "__init__.py").write_text(GAME_CODE)
    (pkg / "data" / "diplomacy.toml").write_text(MARKED.read_text())
    (pkg / "data" / "plain.toml").write_text((TABLES / "diplomacy.toml").read_text())
    dist = tmp_path / "marked_game_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: marked-game-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[ancients_kit.games]\nmarked = marked_game:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("marked_game", None)
    yield "marked_game"
    sys.modules.pop("marked_game", None)


@pytest.mark.rule("xen:diplomacy")
def test_tables_listing_shows_rows_and_cells(marked_plugin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from ancients_kit.cli import ui
    from ancients_kit.cli.main import cli

    runner = CliRunner()
    r = runner.invoke(cli, ["tables", "marked", "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    listed = {t["id"]: t for t in json.loads(r.output)}
    prov = listed["test.xenophon-diplomacy-marked"]["provenance"]
    assert listed["test.xenophon-diplomacy"]["provenance"] is None
    assert prov["document"] == "reconstructed"
    assert [m["rows"] for m in prov["marks"]] == [["1", "2", "3"], ["4"]]
    assert prov["cells"][3] == ["rulebook"] * 3 + ["reconstructed"] * 3
    assert prov["cells"][0] == ["rulebook"] * 6 and prov["cells"][5] == ["reconstructed"] * 6

    monkeypatch.setattr(ui.out, "width", 160)
    r = runner.invoke(cli, ["tables", "marked"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "rulebook + reconstructed" in r.output

    r = runner.invoke(cli, ["tables", "marked", "test.xenophon-diplomacy-marked"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "D2\u00b2" in r.output  # row 4, column 2: the second mark
    assert "\u00b9 rows 1, 2, 3: rulebook" in r.output
    assert "\u00b2 row 4, columns <=0, 1, 2: rulebook" in r.output
    assert "the rest: reconstructed" in r.output


def test_variant_replacement_keeps_or_drops_marks(marked_plugin: str) -> None:
    store = DataStore(marked_plugin)
    assert table_provenance(store, "plain.toml") is None
    assert table_provenance(store, "diplomacy.toml").marks[0].rows == ("1", "2", "3")
    body = _doc(MARKED)
    del body["meta"]
    body["provenance"] = [{"rows": [6], "source": "variant", "note": "my row 6"}]
    v = Variant(path="mine.toml", meta=Meta(id="mine", source="variant"),
                replace={"test.xenophon-diplomacy-marked": body})
    prov = table_provenance(DataStore(marked_plugin, (v,)), "diplomacy.toml")
    assert prov is not None and prov.document.source == "variant"
    assert prov.cell(6, "1").source == "variant" and prov.cell(1, "1").source == "variant"
    unmarked = {k: v for k, v in body.items() if k != "provenance"}
    v2 = Variant(path="mine.toml", meta=Meta(id="mine", source="variant"),
                 replace={"test.xenophon-diplomacy-marked": unmarked})
    assert table_provenance(DataStore(marked_plugin, (v2,)), "diplomacy.toml") is None
    assert load_table(DataStore(marked_plugin, (v2,)), "diplomacy.toml").provenance.marks == ()


def test_sources_page_lists_marked_rows(marked_plugin: str) -> None:
    spec = importlib.util.spec_from_file_location("build_sources", ROOT / "docs" / "tools" / "build_sources.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    lines = mod.provenance_lines(marked_plugin)
    assert lines[0].startswith("Tables whose rows or cells")
    assert "- `test.xenophon-diplomacy-marked` (`diplomacy.toml`): rows 1, 2, 3: rulebook;" in lines[2]
    assert any("row 4, columns <=0, 1, 2: rulebook" in x for x in lines)
    assert not any("test.xenophon-diplomacy`" in x for x in lines)
    assert mod.provenance_lines("ancients_games.centurion") == []


def test_sources_command_shows_marked_cells(marked_plugin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from ancients_kit.cli import ui
    from ancients_kit.cli.main import cli

    runner = CliRunner()
    r = runner.invoke(cli, ["sources", "marked", "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    rows = {x["id"]: x for x in json.loads(r.output)}
    assert rows["test.xenophon-diplomacy"]["cells"] is None
    assert rows["test.xenophon-diplomacy-marked"]["cells"].startswith("rows 1, 2, 3: rulebook")
    monkeypatch.setattr(ui.out, "width", 250)
    r = runner.invoke(cli, ["sources", "marked"], catch_exceptions=False)
    assert "reconstructed (rows 1, 2, 3: rulebook;" in r.output


def test_sources_command_counts_reconstructed_cells(marked_plugin: str) -> None:
    """A rulebook document with reconstructed cells is listed by --reconstructed."""
    from ancients_kit.cli.main import cli

    import marked_game  # the fixture put it on the path

    data = Path(marked_game.__file__).parent / "data"
    doc = (data / "diplomacy.toml").read_text()
    doc = doc.replace('source = "reconstructed"\nrules', 'source = "rulebook"\nrules', 1)
    doc = doc.replace('source = "rulebook"\nnote = "Printed in the Diplomacy Table', 'source = "reconstructed"\nnote = "Made up', 1)
    (data / "diplomacy.toml").write_text(doc)
    (data / "plain.toml").write_text((data / "plain.toml").read_text().replace('"reconstructed"', '"rulebook"', 1))
    r = CliRunner().invoke(cli, ["sources", "marked", "--json", "--reconstructed"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert [x["id"] for x in json.loads(r.output)] == ["test.xenophon-diplomacy-marked"]
