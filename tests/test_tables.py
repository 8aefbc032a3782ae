"""Tests for ancients_kit.tables: odds, differential and lookup tables.

The tables in tests/data/tables are test fixtures (meta.note says so): their
shapes follow the rulebooks, their cells are made up, so tests here check
the mechanics (columns, rounding, shifts, clamping, distributions), never
the printed charts.
"""

from __future__ import annotations

import importlib
import shutil
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ancients_kit.chance import Chance, Roll, die_distribution
from ancients_kit.data import DataError, DataStore, Variant, read_toml
from ancients_kit.tables import (
    Automatic,
    Column,
    DifferentialTable,
    LookupTable,
    OddsRefused,
    OddsTable,
    TableError,
    load_table,
    load_table_file,
    parse_band,
    parse_odds,
    table_from_document,
)

DATA = Path(__file__).parent / "data" / "tables"


def _load(name: str) -> Any:
    return load_table_file(DATA / name)


LDF = _load("ldf_crt.toml")
CEN = _load("centurion_crt.toml")
XEN = _load("xenophon_crt.toml")
DIPLO = _load("diplomacy.toml")
PILLAGE = _load("pillage.toml")
EVENTS = _load("events.toml")
DISBAND = _load("disband.toml")
TERRAIN = _load("terrain.toml")


def test_fixture_kinds_and_provenance() -> None:
    assert isinstance(LDF, OddsTable) and isinstance(CEN, OddsTable) and isinstance(XEN, OddsTable)
    assert isinstance(DIPLO, DifferentialTable) and isinstance(PILLAGE, DifferentialTable)
    assert all(isinstance(t, LookupTable) for t in (EVENTS, DISBAND, TERRAIN))
    for t in (LDF, CEN, XEN, DIPLO, PILLAGE, EVENTS, DISBAND, TERRAIN):
        assert t.meta.source == "reconstructed" and "test fixture" in t.meta.note


# ------------------------------------------------------------- odds: known values


@pytest.mark.rule("ldf:13.2")
def test_ldf_13_vs_4_is_3_to_1() -> None:
    assert LDF.odds(13, 4) == Column(4, "3:1")
    res = LDF.resolve(13, 4, 1)
    assert res.column == "3:1" and res.final_column == "3:1" and res.ratio == Fraction(13, 4)
    assert res.rules == ("ldf:13.2", "ldf:13.15")
    assert res.explain().startswith("13:4 = 3.25 -> 3:1 (rounded for the defender), roll 1 -> ")


@pytest.mark.rule("cen:basic.combat")
def test_centurion_26_vs_9_rounds_by_side() -> None:
    # Case I: for the defender 26:9 is 2-1; case J: with a command unit near, 3-1.
    assert CEN.odds(26, 9) == Column(2, "2-1")
    assert CEN.odds(26, 9, rounding="attacker") == Column(3, "3-1")
    assert CEN.position(26, 9, "defender") < CEN.position(26, 9, "attacker")


@pytest.mark.rule("cen:basic.combat")
def test_centurion_rounding_below_even_odds() -> None:
    # 5 against 8 is 1 to 1.6: the defender's rounding gives 1-2, the attacker's 1-1.
    assert CEN.odds(5, 8) == Column(0, "1-2")
    assert CEN.odds(5, 8, rounding="attacker") == Column(1, "1-1")


@pytest.mark.rule("cen:basic.combat")
def test_centurion_non_viable_below_1_2_is_refused() -> None:
    with pytest.raises(OddsRefused, match=r"test\.centurion-crt.*4:9.*1-2.*cen:basic\.combat"):
        CEN.odds(4, 9)
    with pytest.raises(OddsRefused):
        CEN.distribution(4, 9)
    # rounded for the attacker, 4:9 (1 to 2.25) reaches 1-2
    assert CEN.odds(4, 9, rounding="attacker") == Column(0, "1-2")
    assert not CEN.is_allowed(4, 9) and CEN.is_allowed(4, 9, rounding="attacker")
    assert LDF.is_allowed(1, 9)  # LDF gives an automatic AE instead of refusing
    assert isinstance(OddsRefused("x"), ValueError)


@pytest.mark.rule("cen:basic.combat")
def test_centurion_explain_with_shift_and_modifier() -> None:
    res = CEN.resolve(26, 9, 4, shift=1, modifier=-1)
    expected_code = CEN.rows[2].results[3]  # row 3, column 3-1 of the fixture
    assert res.result == expected_code
    assert res.explain() == (
        f"26:9 = 2.89 -> 2-1 (rounded for the defender), +1 shift -> 3-1, "
        f"roll 4 -1 = 3 -> {expected_code} [cen:basic.combat]"
    )


@pytest.mark.rule("ldf:13.15")
def test_ldf_automatic_results_past_the_ends() -> None:
    assert LDF.odds(1, 4) == Automatic("AE", "below", -1)
    assert LDF.odds(7, 1) == Automatic("DE", "above", 8)
    res = LDF.resolve(1, 5, 6)
    assert res.automatic and res.result == "AE" and res.roll is None
    assert res.meaning == "Attacker eliminated"
    assert "automatic AE" in res.explain()
    assert LDF.distribution(20, 1) == {"DE": Fraction(1)}
    # 13:2 is 6.5 to 1: rounded for the defender it is still the 6:1 column
    assert LDF.odds(13, 2) == Column(7, "6:1")
    assert LDF.odds(13, 2, rounding="attacker") == Automatic("DE", "above", 8)
    # exactly 1:3 is on the table
    assert LDF.odds(3, 9) == Column(0, "1:3")


@pytest.mark.rule("ldf:13.15", "ldf:13.9")
def test_ldf_shifts_apply_before_looking_at_the_crt() -> None:
    # 6:1 plus a leader's shift goes past the table: automatic DE
    assert LDF.odds(6, 1, shift=1) == Automatic("DE", "above", 8)
    # 7:1 is past the table, but a shift back brings it to 6:1
    assert LDF.odds(7, 1, shift=-1) == Column(7, "6:1")
    # 1:4 is below the table; a shift in the attacker's favour reads 1:3
    assert LDF.odds(1, 4, shift=1) == Column(0, "1:3")
    # 1:5 is two columns below: one shift is not enough
    assert LDF.odds(1, 5, shift=1) == Automatic("AE", "below", -1)
    res = LDF.resolve(6, 1, 3, shift=1)
    assert res.automatic and res.column == "6:1" and res.final_column == "above 6:1"


@pytest.mark.rule("ldf:13.8")
def test_ldf_river_shift_one_column_left() -> None:
    plain = LDF.odds(13, 4)
    shifted = LDF.odds(13, 4, shift=-1)
    assert isinstance(plain, Column) and isinstance(shifted, Column)
    assert shifted.index == plain.index - 1 and shifted.label == "2:1"
    assert LDF.odds(1, 3, shift=-1) == Automatic("AE", "below", -1)


@pytest.mark.rule("xen:crt")
def test_xenophon_open_columns_absorb_the_ends() -> None:
    assert XEN.odds(1, 10) == Column(0, "<=1:3")
    assert XEN.odds(50, 1) == Column(6, ">=4:1")
    assert XEN.odds(3, 2) == Column(3, "3:2")
    assert XEN.odds(7, 4) == Column(3, "3:2")  # 1.75 rounded for the defender
    assert XEN.odds(7, 4, rounding="attacker") == Column(4, "2:1")
    # absorbed first, then shifted: 1:10 is the <=1:3 column, +1 reads 1:2
    assert XEN.odds(1, 10, shift=1) == Column(1, "1:2")
    assert XEN.odds(1, 10, shift=-3) == Column(0, "<=1:3")
    assert XEN.odds(50, 1, shift=2) == Column(6, ">=4:1")


def test_odds_input_errors() -> None:
    with pytest.raises(TableError, match="0 against 0"):
        LDF.odds(0, 0)
    with pytest.raises(TableError, match="attack strength"):
        LDF.odds(-1, 3)
    with pytest.raises(TableError, match="defense strength"):
        LDF.odds(3, 2.5)  # type: ignore[arg-type]
    with pytest.raises(TableError, match="not a d6 roll"):
        LDF.resolve(4, 1, 7)
    with pytest.raises(TableError, match="not a d6 roll"):
        LDF.resolve(4, 1, 3.0)  # type: ignore[arg-type]
    with pytest.raises(TableError, match="rounding"):
        LDF.odds(4, 1, rounding="nobody")
    assert LDF.odds(0, 3) == Automatic("AE", "below", -(10**6))
    assert LDF.odds(3, 0) == Automatic("DE", "above", 7 + 10**6)


# ------------------------------------------------------------- rows and clamping


def test_modifiers_clamp_to_printed_rows() -> None:
    res = LDF.resolve(2, 1, 6, modifier=3)
    assert res.modified_roll == 6 and res.clamped and res.result == LDF.rows[5].results[3]
    assert "roll 6 +3 = 9, read as 6" in res.explain()
    low = CEN.resolve(3, 1, 1, modifier=-1)
    assert low.modified_roll == 1 and low.clamped
    dist = LDF.distribution(2, 1, modifier=-10)
    assert dist == {LDF.rows[0].results[3]: Fraction(1)}


@pytest.mark.rule("xen:disband")
def test_open_row_needs_no_clamp() -> None:
    res = DISBAND.resolve(6, modifier=1)
    assert res.modified_roll == 7 and not res.clamped and res.result == "loyal"
    assert DISBAND.resolve(1, -1).result == "mutiny"
    assert DISBAND.distribution(1) == {
        "mutiny": Fraction(1, 6),
        "disband": Fraction(1, 2),
        "loyal": Fraction(1, 3),
    }


@pytest.mark.rule("xen:random-events")
def test_d66_lookup_rows_skip_impossible_values() -> None:
    assert EVENTS.resolve(23).result == "plague"
    assert EVENTS.resolve(15).result == "attrition" and EVENTS.resolve(16).row == "15-16"
    dist = EVENTS.distribution()
    assert dist["leader"] == Fraction(3, 36) and dist["quiet"] == Fraction(24, 36)
    assert sum(dist.values()) == 1
    with pytest.raises(TableError, match="not a d66 roll"):
        EVENTS.resolve(17)
    with pytest.raises(TableError, match="between the printed rows"):
        EVENTS.resolve(14, modifier=4)  # 18 is no d66 value and no row


# ------------------------------------------------------------- differential


@pytest.mark.rule("xen:diplomacy")
def test_diplomacy_differential_columns() -> None:
    assert DIPLO.column(2) == Column(2, "2")
    res = DIPLO.resolve(3, 1, 3)  # 3 agent chits against 1
    assert res.value == 2 and res.column == "2" and res.result == "D1"
    assert DIPLO.column(-4) == Column(0, "<=0")
    assert DIPLO.column(9) == Column(5, ">=5")
    assert DIPLO.column(9, shift=-1) == Column(4, "4")
    assert DIPLO.resolve(0, 2, 1).result == "2R"
    assert DIPLO.resolve(3, 1, 3).explain() == "3 - 1 = 2 -> column 2, roll 3 -> D1 [xen:diplomacy]"
    assert PILLAGE.resolve_value(3, 2).explain().startswith("value 3 -> column 2-3, roll 2 -> ")
    assert sum(DIPLO.distribution(5, 1).values()) == 1


@pytest.mark.rule("xen:pillage")
def test_pillage_columns_by_count() -> None:
    assert PILLAGE.column(1) == Column(0, "1")
    assert PILLAGE.column(3) == Column(1, "2-3")
    assert PILLAGE.column(12) == Column(3, "6+")
    assert PILLAGE.resolve_value(4, 3).result == "P+R"
    assert PILLAGE.resolve_value(7, 6).row == "5-6"
    with pytest.raises(OddsRefused, match=r"value 0.*lowest column 1.*xen:pillage"):
        PILLAGE.column(0)
    assert PILLAGE.distribution_value(1) == {
        "R": Fraction(1, 6),
        "--": Fraction(3, 6),
        "P": Fraction(2, 6),
    }


# ------------------------------------------------------------- keyed lookup


def test_keyed_lookup() -> None:
    assert TERRAIN.lookup("rough") == "3"
    assert TERRAIN.keys == ("clear", "pass", "rough")
    assert TERRAIN.resolve_key("pass").explain() == "pass -> 1 [xen:movement]"
    with pytest.raises(TableError, match="no entry 'swamp'"):
        TERRAIN.lookup("swamp")
    with pytest.raises(TableError, match="looked up by key"):
        TERRAIN.resolve(3)
    with pytest.raises(TableError, match="read by a d66 roll"):
        EVENTS.lookup("clear")


# ------------------------------------------------------------- properties

strengths = st.integers(min_value=0, max_value=60)
shifts = st.integers(min_value=-4, max_value=4)
mods = st.integers(min_value=-4, max_value=4)
roundings = st.sampled_from(["defender", "attacker"])


def _by_rolls(fn: Any, die: str) -> dict[str, Fraction]:
    """Distribution by resolving every roll one at a time (independent path)."""
    out: dict[str, Fraction] = {}
    for v, p in die_distribution(die).items():
        code = fn(v).result
        out[code] = out.get(code, Fraction(0)) + p
    return out


@given(st.sampled_from([LDF, CEN, XEN]), strengths, strengths, shifts, mods, roundings)
@settings(max_examples=200, deadline=None)
def test_odds_distributions_sum_to_one(
    table: OddsTable, attack: int, defense: int, shift: int, mod: int, rounding: str
) -> None:
    assume(attack or defense)
    try:
        dist = table.distribution(attack, defense, shift, mod, rounding)
    except OddsRefused:
        assert table.below is None
        return
    assert sum(dist.values()) == 1
    assert all(isinstance(p, Fraction) and p > 0 for p in dist.values())
    assert set(dist) <= set(table.codes)
    assert dist == _by_rolls(lambda r: table.resolve(attack, defense, r, shift, mod, rounding), table.die)


@given(st.sampled_from([DIPLO, PILLAGE]), st.integers(-8, 12), st.integers(0, 6), shifts, mods)
@settings(max_examples=150, deadline=None)
def test_differential_distributions_sum_to_one(
    table: DifferentialTable, attack: int, defense: int, shift: int, mod: int
) -> None:
    try:
        dist = table.distribution(attack, defense, shift, mod)
    except OddsRefused:
        return
    assert sum(dist.values()) == 1
    assert dist == _by_rolls(lambda r: table.resolve(attack, defense, r, shift, mod), table.die)


@given(st.sampled_from([EVENTS, DISBAND]), st.integers(-3, 3))
@settings(max_examples=40, deadline=None)
def test_lookup_distributions_sum_to_one(table: LookupTable, mod: int) -> None:
    try:
        dist = table.distribution(mod)
    except TableError:
        assert table.die == "d66" and mod  # only gaps between d66 rows can fail
        return
    assert sum(dist.values()) == 1


@given(strengths, st.integers(1, 60), st.integers(1, 5))
@settings(max_examples=150)
def test_rounding_is_monotonic(attack: int, defense: int, more: int) -> None:
    for table in (LDF, CEN, XEN):
        d = table.position(attack, defense, "defender")
        a = table.position(attack, defense, "attacker")
        assert d <= a <= d + 1 or attack == 0
        assert table.position(attack + more, defense, "defender") >= d
        assert table.position(attack, defense + more, "attacker") <= a


@given(st.integers(0, 7), st.integers(1, 12))
@settings(max_examples=60)
def test_exact_column_ratio_needs_no_rounding(col: int, k: int) -> None:
    ratio = LDF.ratios[col]
    attack, defense = ratio.numerator * k, ratio.denominator * k
    assert LDF.odds(attack, defense) == LDF.odds(attack, defense, rounding="attacker") == Column(
        col, LDF.columns[col]
    )


# ------------------------------------------------------------- rolling through Chance


@pytest.mark.rule("ldf:13.2")
def test_roll_through_chance_is_recorded() -> None:
    log: list[Roll] = []
    chance = Chance(7, record=log.append)
    chance.force(5)
    res = LDF.roll(chance, 13, 4, reason="attack on Trier")
    assert res.roll == 5 and res.result == LDF.rows[4].results[4]
    assert log[-1].rules == ("ldf:13.2", "ldf:13.15") and log[-1].reason == "attack on Trier"
    # automatic results roll no die
    n = len(log)
    assert LDF.roll(chance, 30, 1).automatic and len(log) == n
    chance.force(2, 3)
    assert EVENTS.roll(chance).result == "plague"
    chance.force(4)
    assert DIPLO.roll(chance, 3, 1).result == "D2"


# ------------------------------------------------------------- parsing


def test_parse_labels() -> None:
    assert parse_odds("1:3") == (Fraction(1, 3), "")
    assert parse_odds("6-1") == (Fraction(6), "")
    assert parse_odds("≥4:1") == (Fraction(4), ">=")
    assert parse_odds("<=1:3") == (Fraction(1, 3), "<=")
    for bad in ("3", "0:1", "a:b", "1:0"):
        with pytest.raises(ValueError):
            parse_odds(bad)
    assert (parse_band("3").low, parse_band("3").high) == (3, 3)
    assert (parse_band("-2--1").low, parse_band("-2--1").high) == (-2, -1)
    assert (parse_band("6+").low, parse_band("6+").high) == (6, None)
    assert (parse_band("≤0").low, parse_band("≤0").high) == (None, 0)
    assert (parse_band(">=5").low, parse_band(">=5").high) == (5, None)
    for bad in ("4-2", "x", "1..3"):
        with pytest.raises(ValueError):
            parse_band(bad)


# ------------------------------------------------------------- validation

BASE = """
[meta]
id = "test.bad"
source = "reconstructed"
rules = ["ldf:13.2"]
note = "test fixture: deliberately broken"

[table]
kind = "odds"
die = "d6"
columns = ["1:1", "2:1"]

[table.results]
1 = ["A", "B"]
2 = ["A", "B"]
3 = ["A", "B"]
4 = ["A", "B"]
5 = ["A", "B"]
6 = ["A", "B"]

[codes]
A = "a"
B = "b"
"""


def _build_error(text: str) -> DataError:
    with pytest.raises(DataError) as info:
        table_from_document(read_toml(textwrap.dedent(text), file="bad.toml"), file="bad.toml")
    assert info.value.file == "bad.toml"
    return info.value


def test_base_document_is_valid() -> None:
    t = table_from_document(read_toml(BASE, file="bad.toml"), file="bad.toml")
    assert isinstance(t, OddsTable) and t.refuse_rule == ""


@pytest.mark.parametrize(
    ("old", "new", "path", "message"),
    [
        ('4 = ["A", "B"]', '4 = ["A"]', "table.results.4", "1 results but the table has 2 columns"),
        ('5 = ["A", "B"]', '5 = ["A", "Z"]', "table.results.5[1]", "unknown result code 'Z'"),
        ('columns = ["1:1", "2:1"]', 'columns = ["2:1", "1:1"]', "table.columns[1]", "columns must rise"),
        ('columns = ["1:1", "2:1"]', 'columns = ["1:1", "two"]', "table.columns[1]", "not an odds ratio"),
        ('6 = ["A", "B"]', "", "table.results", "rows cover 1..5 but a d6 rolls 1..6"),
        ('3 = ["A", "B"]', "", "table.results.4", "rolls 3..3 are missing"),
        ('6 = ["A", "B"]', '"5-6" = ["A", "B"]', "table.results.5-6", "overlaps"),
        ('kind = "odds"', 'kind = "odds"\nbelow = "Q"', "table.below", "unknown result code 'Q'"),
        ('kind = "odds"', 'kind = "odds"\nwidth = 3', "table", "unknown key(s): width"),
        ('kind = "odds"', 'kind = "tally"', "table.kind", "tally"),
        ('die = "d6"', 'die = "d20"', "table.die", "d20"),
        ('columns = ["1:1", "2:1"]', 'columns = ["<=1:1", "<=2:1"]', "table.columns[1]", "only the first"),
        ('"a"', '"a"\nfirst = "x"', "codes.first", "reserved"),
    ],
)
def test_validation_errors_name_file_and_path(old: str, new: str, path: str, message: str) -> None:
    assert old in BASE
    err = _build_error(BASE.replace(old, new, 1))
    assert err.path == path, err
    assert message in err.detail, err


def test_validation_more_shapes() -> None:
    err = _build_error(
        """
        [meta]
        id = "t"
        source = "reconstructed"
        note = "test fixture"
        [table]
        kind = "differential"
        die = "d6"
        columns = ["<=0", "1", "3"]
        [table.results]
        "1-6" = ["A", "A", "A"]
        [codes]
        A = "a"
        """
    )
    assert err.path == "table.columns[2]" and "gap" in err.detail
    err = _build_error(
        """
        [meta]
        id = "t"
        source = "reconstructed"
        note = "test fixture"
        [table]
        kind = "lookup"
        die = "d6"
        [table.results]
        "1-6" = ["A"]
        [codes]
        A = "a"
        """
    )
    assert err.path == "table.results.1-6" and "one code" in err.detail
    err = _build_error(
        """
        [meta]
        id = "t"
        source = "reconstructed"
        note = ""
        [table]
        kind = "lookup"
        [table.entries]
        a = "1"
        """
    )
    assert err.path == "meta.note"
    err = _build_error(
        """
        [meta]
        id = "t"
        source = "rulebook"
        [table]
        kind = "lookup"
        [table.entries]
        a = "1"
        [codes]
        B = "b"
        """
    )
    assert err.path == "table.entries.a" and "unknown result code" in err.detail


# ------------------------------------------------------------- DataStore and variants


@pytest.fixture
def fixture_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A throwaway package whose data/tables/ holds the fixture tables."""
    name = "ak_table_fixture_pkg"
    pkg = tmp_path / name
    shutil.copytree(DATA, pkg / "data" / "tables")
    (pkg / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    monkeypatch.delitem(__import__("sys").modules, name, raising=False)
    return name


@pytest.mark.rule("ldf:13.2")
def test_load_table_through_datastore(fixture_package: str) -> None:
    store = DataStore(fixture_package)
    t = load_table(store, "tables/ldf_crt.toml")
    assert isinstance(t, OddsTable) and t.odds(13, 4) == Column(4, "3:1")
    assert store.loaded["test.ldf-crt"].source == "reconstructed"
    assert "tables/ldf_crt.toml" in store.listing("tables")
    with pytest.raises(DataError, match="no such data file"):
        load_table(store, "tables/missing.toml")


def test_variant_replaces_a_table(fixture_package: str, tmp_path: Path) -> None:
    (tmp_path / "my_crt.toml").write_text(
        textwrap.dedent(
            """
            [meta]
            note = "A bloodier CRT: everything is DE."
            [table]
            kind = "odds"
            die = "d6"
            columns = ["1:1", "2:1"]
            below = "AE"
            [table.results]
            "1-6" = ["DE", "DE"]
            [codes]
            AE = "Attacker eliminated"
            DE = "Defender eliminated"
            """
        )
    )
    (tmp_path / "variant.toml").write_text(
        textwrap.dedent(
            """
            [meta]
            id = "bloody"
            source = "variant"
            note = "test fixture"
            [replace."test.ldf-crt"]
            file = "my_crt.toml"
            """
        )
    )
    store = DataStore(fixture_package, (Variant.from_file(tmp_path / "variant.toml"),))
    t = load_table(store, "tables/ldf_crt.toml")
    assert t.meta.source == "variant" and t.meta.id == "test.ldf-crt"
    assert t.distribution(3, 1) == {"DE": Fraction(1)}
    assert t.odds(1, 2) == Automatic("AE", "below", -1)


def test_broken_variant_error_names_variant_file(fixture_package: str, tmp_path: Path) -> None:
    (tmp_path / "variant.toml").write_text(
        textwrap.dedent(
            """
            [meta]
            id = "broken"
            source = "variant"
            [replace."test.xenophon-disband"]
            table = { kind = "lookup", die = "d6", results = { "1-3" = "gone" } }
            codes = { gone = "Gone" }
            """
        )
    )
    store = DataStore(fixture_package, (Variant.from_file(tmp_path / "variant.toml"),))
    with pytest.raises(DataError) as info:
        load_table(store, "tables/disband.toml")
    assert "variant.toml [replace.test.xenophon-disband]" in info.value.file
    assert info.value.path == "table.results" and "rows cover 1..3" in info.value.detail
