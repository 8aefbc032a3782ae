"""Tests of Centurion's data documents and the two Scenario Chart formulas.

They check the data against the rulebook where it prints values (unit
figures, the Numidia row) and against the rules that constrain reconstructed
data (stacking, deployment distances, CRT shape, terrain facts); see
docs/games/centurion-reconstruction.md. Rules served: cen:basic.unit-types,
cen:scenarios, cen:full.panic, cen:full.victory, cen:basic.stacking,
cen:full.stacking, cen:full.deployment, cen:basic.deployment,
cen:basic.combat, cen:full.combat and the optional-rule IDs named per test.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ancients_kit.data import DataStore
from ancients_games.centurion import model
from ancients_games.centurion.model import (
    GameVersion,
    ScenarioError,
    UnitGroup,
    UnitKind,
    army_point_value,
    crossing_effect,
    list_scenarios,
    load_capability,
    load_scenario,
    load_terrain,
    load_units,
    panic_threshold,
    point_value,
    unit_points,
    validate_scenario,
)

GAME_DIR = Path(model.__file__).resolve().parent
DATA = GAME_DIR / "data"
sys.path.insert(0, str(GAME_DIR / "tools"))
import hexmath  # noqa: E402

RULEBOOK = GAME_DIR.parents[2] / "shared" / "rules" / "centurion.txt"
"""../shared/rules/centurion.txt seen from the repository root."""

CHART_SCENARIOS = [
    "numidia", "vercellae", "servile-war", "lycus", "carrhae", "gaul", "pharsalus", "philippi",
    "teutoburgerwald", "boudicca", "mons-graupius", "ctesiphon", "hadrianopolis",
    "campus-mauriacus", "daras", "busta-gallorum", "fantasy",
]
BASIC_SCENARIOS = ["basic-servile-war", "basic-gaul", "basic-carrhae", "basic-civil-war"]
FLAT_DIRECTIONS = {"N", "NE", "SE", "S", "SW", "NW"}


@pytest.fixture(scope="module")
def store() -> DataStore:
    return DataStore("ancients_games.centurion")


@pytest.fixture(scope="module")
def units(store: DataStore) -> dict[str, model.UnitType]:
    return load_units(store)


@pytest.fixture(scope="module")
def grid() -> dict[str, object]:
    return tomllib.loads((DATA / "map.toml").read_text(encoding="utf-8"))["grid"]


def rulebook_text() -> str:
    if not RULEBOOK.exists():
        pytest.skip(f"rulebook text not present at {RULEBOOK}")
    return RULEBOOK.read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- loading


def test_every_data_file_is_listed_and_loads(store: DataStore) -> None:
    files = store.listing()
    for must in ("units.toml", "capability.toml", "terrain.toml", "crt_melee.toml", "crt_fire.toml", "map.toml"):
        assert must in files
    assert load_units(store) and load_capability(store) and load_terrain(store)
    for sid in list_scenarios(store):
        load_scenario(store, sid)
    for f in files:
        if f == "rules.index.toml":  # the rule index copy kept by the rules code, not a data document
            continue
        meta = store.raw(f)["meta"]
        assert meta["source"] in ("rulebook", "reconstructed")
        assert all(r.startswith("cen:") for r in meta.get("rules", [])), f
        if meta["source"] == "reconstructed":
            assert meta["note"].strip(), f


def test_every_rule_id_cited_by_the_data_exists(store: DataStore) -> None:
    index = RULEBOOK.with_suffix(".index.toml")
    if not index.exists():
        pytest.skip("rule index not present")
    known = {r["id"] for r in tomllib.loads(index.read_text(encoding="utf-8"))["rule"]}
    cited: set[str] = set()
    for f in store.listing():
        if f == "rules.index.toml":
            continue
        doc = store.raw(f)
        cited |= set(doc["meta"].get("rules", []))
        for key in ("unit", "terrain"):
            rows = doc.get(key, [])
            for row in rows if isinstance(rows, list) else []:
                cited |= set(row.get("rules", []))
        for s in doc.get("side", []):
            cited |= set(s.get("options", []))
        cited |= set(doc.get("scenario", {}).get("options", []))
    assert cited - known == set()


def test_scenario_set_is_complete(store: DataStore) -> None:
    assert sorted(list_scenarios(store)) == sorted(CHART_SCENARIOS + BASIC_SCENARIOS)


def test_unknown_scenario_is_refused_with_the_known_names(store: DataStore) -> None:
    with pytest.raises(ValueError, match="numidia"):
        load_scenario(store, "cannae")


# ----------------------------------------------------------------------------- units


@pytest.mark.rule("cen:basic.unit-types")
def test_basic_unit_figures_match_the_rulebook(units: dict[str, model.UnitType]) -> None:
    text = rulebook_text()
    printed = dict(re.findall(r"^[A-Z][A-Za-z ]+ \(([A-Z]{2})\): (\d+-\d+-\d+)$", text, flags=re.M))
    assert set(printed) == {"BI", "SD", "SP", "SK", "BC", "OC", "LC", "CM"}
    for code, figures in printed.items():
        u = units[code]
        assert u.basic is not None and str(u.basic) == figures, code
        a, d, m = (int(x) for x in figures.split("-"))
        # the Full Simulation counter carries the same three bold figures
        assert (u.melee_attack, u.melee_defence_front, u.movement) == (a, d, m), code
        assert u.source == "rulebook"


@pytest.mark.rule("cen:rom.green", "cen:opt.skirmisher-equipment", "cen:opt.mount-dismount")
def test_optional_rule_figures_match_the_rulebook(units: dict[str, model.UnitType]) -> None:
    text = rulebook_text()
    assert "as if it were comprised of 5-5-4 Swordsmen" in text and "3-3-4 Swordsmen" in text
    assert (units["SD-I"].melee_attack, units["SD-I"].melee_defence_front) == (5, 5)
    assert (units["SD-III"].melee_attack, units["SD-III"].melee_defence_front) == (3, 3)
    assert '"Light Infantry," having factors of 2-2-5' in text and '"Slingers" at 0-1-5' in text
    for code, fig in (("LI", "2-2-5"), ("AR", "0-1-5"), ("SL", "0-1-5")):
        u = units[code]
        assert f"{u.melee_attack}-{u.melee_defence_front}-{u.movement}" == fig
    assert "a Melee Defense Factor of two (2)" in text and "0-0-9 riderless mount" in text
    assert (units["DSK"].melee_defence_front, units["MT"].movement) == (2, 9)
    assert "(3-3-9, -2-)" in text and units["BC"].fire == 2


@pytest.mark.rule("cen:full.fire-protection", "cen:full.fem", "cen:full.cavalry")
def test_values_fixed_by_the_full_simulation_text(units: dict[str, model.UnitType]) -> None:
    text = rulebook_text()
    assert 'of "2" per unit facing front and "1" per unit facing to flank' in text
    for u in units.values():
        if u.kind is UnitKind.COMMAND:
            assert (u.fire_protection_front, u.fire_protection_flank) == (3, 2)
        elif u.kind is not UnitKind.MOUNT:
            assert (u.fire_protection_front, u.fire_protection_flank) == (2, 1), u.code
    # FEM example: a Skirmishers unit firing at a stack of three fires with a factor of six
    assert "fires with a factor of six" in text and units["SK"].fire * 3 == 6
    # cavalry attack factor equals the charge length; short-charge floors BC 2, LC 1
    for code, length in (("LC", 1), ("OC", 2), ("BC", 3)):
        assert units[code].charge_length == length == units[code].melee_attack
    assert units["BC"].min_charge_attack == 2 and units["LC"].min_charge_attack == 1


@pytest.mark.rule("cen:full.stacking", "cen:opt.spearmen", "cen:barb.cavalry", "cen:opt.non-roman-swordsmen")
def test_stacking_limits_per_type(units: dict[str, model.UnitType]) -> None:
    limits = {c: u.stack_limit for c, u in units.items()}
    assert limits["BI"] == limits["SP"] == limits["BHC"] == limits["SDN"] == 2
    assert limits["SD"] == limits["PK"] == limits["SK"] == 3
    assert not units["CM"].counts_for_stacking and units["SD"].counts_for_stacking


def test_reconstructed_fields_are_real_field_names(units: dict[str, model.UnitType]) -> None:
    names = {a.name for a in model.UnitType.__attrs_attrs__}  # type: ignore[attr-defined]
    for u in units.values():
        assert set(u.reconstructed) <= names, u.code
        assert u.melee_defence_flank <= u.melee_defence_front, u.code


# ----------------------------------------------------------------------------- formulas


@pytest.mark.rule("cen:full.victory")
def test_unit_points_follow_the_victory_rule(units: dict[str, model.UnitType]) -> None:
    for u in units.values():
        assert u.points == unit_points(u), u.code
    assert unit_points(units["CM"]) == 15
    assert unit_points(units["BI"]) == 6  # melee 6 beats fire 0
    assert unit_points(units["AR"]) == 2  # fire 2 beats melee 0
    assert unit_points(units["MT"]) == 0  # mounts are not part of an army's value


@pytest.mark.rule("cen:scenarios", "cen:full.panic")
def test_numidia_point_value_153_and_panic_threshold_60_from_the_formula(
    store: DataStore, units: dict[str, model.UnitType]
) -> None:
    row = {"CM": 3, "SD": 20, "SK": 10, "LC": 8}
    pv = point_value((units[c], n) for c, n in row.items())
    assert pv == 153
    assert panic_threshold(pv) == 60
    romans = load_scenario(store, "numidia").side("romans")
    assert dict(romans.order_of_battle) == row
    assert (romans.point_value, romans.panic_threshold) == (153, 60)


@pytest.mark.rule("cen:scenarios")
def test_numidia_row_matches_the_printed_chart(store: DataStore) -> None:
    text = rulebook_text()
    header, row = None, None
    for line in text.splitlines():
        if line.startswith("Battle\tArmy"):
            header = line.split("\t")
        if line.startswith("Numidia (106 BC)"):
            row = line.split("\t")
    assert header and row
    cells = dict(zip(header, row))
    romans = load_scenario(store, "numidia").side(cells["Army"].lower())
    ob = {k: int(cells[k]) for k in ("CM", "SD", "BI", "SP", "SK", "LC", "BC", "OC") if cells[k]}
    assert dict(romans.order_of_battle) == ob
    assert romans.point_value == int(cells["PV"]) and romans.panic_threshold == int(cells["PT"])
    marked = [lvl for lvl, col in (("marginal", "Mg"), ("tactical", "Tc"), ("strategic", "St")) if cells[col] == "x"]
    assert [str(v) for v in romans.victory_levels] == marked
    assert romans.source == "rulebook"


@pytest.mark.rule("cen:full.panic")
@given(st.integers(min_value=0, max_value=2000))
def test_panic_threshold_is_forty_percent_rounded_down_to_five(points: int) -> None:
    pt = panic_threshold(points)
    assert pt % 5 == 0
    assert pt <= Fraction(2, 5) * points < pt + 5


def test_formulas_refuse_bad_input(units: dict[str, model.UnitType]) -> None:
    with pytest.raises(ValueError, match="cen:full.panic"):
        panic_threshold(-1)
    with pytest.raises(ValueError, match="negative"):
        point_value([(units["SD"], -2)])
    with pytest.raises(ValueError, match="XX"):
        army_point_value({"XX": 1}, units)


# ----------------------------------------------------------------------------- capability


@pytest.mark.rule("cen:full.combat", "cen:full.square", "cen:full.relief", "cen:basic.zoc")
def test_capability_chart_covers_every_type_and_agrees_with_the_rules(
    store: DataStore, units: dict[str, model.UnitType]
) -> None:
    cap = load_capability(store)
    assert set(cap) == set(units)
    for code, c in cap.items():
        u = units[code]
        assert (c.fire_offence or c.fire_defence) == (u.fire > 0), code
        assert c.charge == (u.kind is UnitKind.CAVALRY), code
        assert set(c.dismount_as) <= set(units)
        if u.kind in (UnitKind.CAVALRY, UnitKind.MOUNT):
            assert not c.occupy_earthworks and c.enter_caltrops == "involuntary-only"
    assert {c for c, r in cap.items() if r.form_square} == {"SD", "SD-I", "SD-III"}
    assert not cap["SD-III"].relief and cap["SD"].relief and not cap["SDN"].relief
    assert cap["BC"].fire_and_melee == "same-target"
    assert cap["SK"].fire_and_melee == cap["OC"].fire_and_melee == cap["BHC"].fire_and_melee == "defence-only"
    assert cap["LC"].retreat_before_combat == 4
    assert cap["CM"].melee_offence == "dispersed-or-command" and not cap["CM"].zoc_basic


# ----------------------------------------------------------------------------- terrain and map


@pytest.mark.rule("cen:opt.caltrops", "cen:opt.earthworks", "cen:full.combat", "cen:full.movement", "cen:full.cross-river")
def test_terrain_chart_holds_the_facts_the_rules_state(store: DataStore, units: dict[str, model.UnitType]) -> None:
    tec = load_terrain(store)
    cal = tec["caltrops"]
    assert cal.entry_cost(UnitKind.FOOT) == 2 and cal.exit_cost == 2
    assert cal.melee_defence == 1 and cal.melee_attack_out == Fraction(1, 2) and not cal.square_allowed
    ew = tec["earthworks"]
    assert ew.melee_defence == 2 and ew.entry_cost(UnitKind.CAVALRY) is None and ew.entry_cost("foot") == 0
    assert ew.charge_into and not ew.charge_through and not ew.square_allowed
    # hilltop: missile range 2 and fire over intervening units
    assert units["SK"].fire_range + tec["hill"].fire_range_bonus == 2 and tec["hill"].fires_over
    assert tec["road"].cost == Fraction(1, 2)
    assert tec["river"].controls_front and tec["clear"].entry_cost(UnitKind.CAVALRY) == 1


@pytest.mark.rule("cen:full.cross-river", "cen:basic.movement")
def test_crossing_effect_precedence_on_the_map(store: DataStore) -> None:
    tec = load_terrain(store)
    doc = store.raw("map.toml")
    features: dict[tuple[str, str], set[str]] = {}
    for h in doc["hexsides"]:
        for a, b in h["between"]:
            features.setdefault((a, b), set()).add(h["feature"])
    bridge = next(k for k, v in features.items() if "bridge" in v)
    ford = next(k for k, v in features.items() if "ford" in v)
    plain = next(k for k, v in features.items() if v == {"river"})
    assert {"river", "road"} <= features[bridge]
    assert crossing_effect(features[bridge], tec) is tec["bridge"]
    assert crossing_effect(features[ford], tec) is tec["ford"]
    assert crossing_effect(features[plain], tec) is tec["river"]
    assert crossing_effect({"road"}, tec) is None and crossing_effect(set(), tec) is None
    # a ford is cheaper to cross than the open river and does not halve the attack
    assert tec["ford"].cost < tec["river"].cost and tec["ford"].melee_attack_out > tec["river"].melee_attack_out


def test_scenario_meta_ids_follow_the_file_names(store: DataStore) -> None:
    for sid in list_scenarios(store):
        sc = load_scenario(store, sid)
        assert sc.meta.id == f"centurion.scenario.{sid}" and sc.id == sid


def test_map_terrain_and_features_all_have_chart_lines(store: DataStore) -> None:
    tec = load_terrain(store)
    doc = store.raw("map.toml")
    used = set(doc["terrain"]["legend"].values()) | {doc["terrain"]["default"]}
    used |= set(doc.get("hexes", {}).values())
    assert used <= {t for t, e in tec.items() if e.placement == "hex"}
    features = {h["feature"] for h in doc["hexsides"]}
    assert features <= {t for t, e in tec.items() if e.placement == "hexside"}


@pytest.mark.rule("cen:scenarios")
def test_map_has_the_size_and_features_the_scenario_notes_name(store: DataStore, grid: dict[str, object]) -> None:
    doc = store.raw("map.toml")
    cols, rows = int(grid["columns"]), int(grid["rows"])  # type: ignore[call-overload]
    assert (grid["orientation"], cols, rows) == ("flat", 30, 20)
    assert len(doc["terrain"]["rows"]) == rows and all(len(r) == cols for r in doc["terrain"]["rows"])
    board = "".join(doc["terrain"]["rows"])
    for ch in "FHT":
        assert ch in board
    regions = {k: set(v) for k, v in doc["regions"].items()}
    every = {hexmath.hex_id(c, r) for c in range(1, cols + 1) for r in range(1, rows + 1)}
    quads = [regions[q] for q in ("NE", "NW", "SE", "SW")]
    assert set().union(*quads) == every and sum(len(q) for q in quads) == len(every)
    for name in ("north-central-hills", "central-hills", "nw-hills", "nw-forest", "town"):
        assert regions[name] and regions[name] <= every, name
    sides = {h["feature"]: [tuple(p) for p in h["between"]] for h in doc["hexsides"]}
    for feature, pairs in sides.items():
        for a, b in pairs:
            assert hexmath.distance(a, b) == 1 and a in every and b in every, (feature, a, b)
    river = set(sides["river"])
    assert sides["ford"] and set(sides["ford"]) <= river and set(sides["bridge"]) <= river
    assert set(doc["places"].values()) <= every


def test_own_hex_arithmetic_agrees_with_the_core(grid: dict[str, object]) -> None:
    hexgrid = pytest.importorskip("ancients_kit.hexgrid")
    num = hexgrid.Numbering(**{k: grid[k] for k in ("orientation", "shifted", "columns", "rows")})
    samples = ["0101", "0202", "0515", "1509", "2206", "2207", "3020", "1510", "2920"]
    for a in samples:
        ha = num.from_id(a)
        assert {num.to_id(n) for n in num.on_map_neighbors(ha)} == set(hexmath.neighbors(a, 30, 20)), a
        for b in samples:
            assert ha.distance(num.from_id(b)) == hexmath.distance(a, b)
        for d, name in enumerate(num.direction_names):
            n = hexmath.neighbor(a, hexmath.DIRECTIONS.index(name))
            if n and hexmath.on_map(n, 30, 20):
                assert num.to_id(ha.neighbor(d)) == n, (a, name)


# ----------------------------------------------------------------------------- CRTs

ORDER = {"AE": 0, "AD": 1, "NE": 2, "C": 2, "DD": 3, "DE": 4}


@pytest.mark.rule("cen:basic.combat", "cen:full.combat", "cen:full.defensive-fire", "cen:opt.command")
@pytest.mark.parametrize("name", ["crt_melee.toml", "crt_fire.toml"])
def test_crt_shape(store: DataStore, name: str) -> None:
    doc = store.raw(name)
    table = doc["table"]
    assert table["kind"] == "odds" and table["die"] == "d6"
    assert table["columns"][0] == "1-2" and "below" not in table  # below 1-2: non-viable
    assert sorted(table["results"], key=int) == ["1", "2", "3", "4", "5", "6"]
    for row in table["results"].values():
        assert len(row) == len(table["columns"])
        assert set(row) <= set(doc["codes"])
    # low rolls favour the roller: down a column never improves; right along a row never worsens
    res = [[ORDER[c] for c in table["results"][str(r)]] for r in range(1, 7)]
    for r in range(6):
        for c in range(len(res[r]) - 1):
            assert res[r][c] <= res[r][c + 1], (name, r + 1, c)
    for c in range(len(res[0])):
        for r in range(5):
            assert res[r][c] >= res[r + 1][c], (name, r + 2, c)


@pytest.mark.rule("cen:full.combat")
def test_fire_table_is_the_melee_table_read_for_fire(store: DataStore) -> None:
    melee = store.raw("crt_melee.toml")["table"]
    fire = store.raw("crt_fire.toml")["table"]
    assert melee["columns"] == fire["columns"]
    as_fire = {"AE": "NE", "AD": "NE", "C": "NE", "DD": "DD", "DE": "DE"}
    for r, row in melee["results"].items():
        assert [as_fire[c] for c in row] == fire["results"][r]


@pytest.mark.rule("cen:basic.combat")
def test_rulebook_odds_examples_on_the_melee_crt(store: DataStore) -> None:
    tables = pytest.importorskip("ancients_kit.tables")
    crt = tables.load_table(store, "crt_melee.toml")
    # case I: 26 to 9 is 2-1; case J: 3-1 with a friendly Command unit within five hexes
    assert crt.distribution(26, 9) == crt.distribution(2, 1)
    assert crt.distribution(26, 9, rounding="attacker") == crt.distribution(3, 1)
    assert not crt.is_allowed(4, 9) and crt.is_allowed(5, 9)


# ----------------------------------------------------------------------------- scenarios


def _stacks(side: model.Side) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for g in side.units:
        for h in g.hexes:
            out.setdefault(h, []).append(g.type)
    return out


@pytest.mark.rule("cen:scenarios", "cen:basic.deployment", "cen:basic.stacking", "cen:full.stacking", "cen:full.victory", "cen:full.panic")
@pytest.mark.parametrize("sid", CHART_SCENARIOS + BASIC_SCENARIOS)
def test_scenario_is_consistent_and_fits_the_map(
    store: DataStore, units: dict[str, model.UnitType], sid: str
) -> None:
    sc = load_scenario(store, sid)
    assert sc.id == sid and len(sc.sides) == 2
    ids = {s.id for s in sc.sides}
    assert len(ids) == 2 and sc.first_player in ids and sc.deploys_first in ids
    assert sc.turns >= sc.min_turns > 0
    basic = sc.game is GameVersion.BASIC
    occupied: dict[str, str] = {}
    for side in sc.sides:
        ob = Counter[str]()
        for g in side.units:
            assert g.type in units, (sid, g.type)
            ob[g.type] += g.count
            for h in g.hexes:
                assert hexmath.on_map(h, 30, 20), (sid, side.id, h)
            if basic:
                assert g.facing == "" and units[g.type].basic is not None
            else:
                assert g.facing in FLAT_DIRECTIONS, (sid, side.id, g.type)
            assert not g.supreme or g.type == "CM"
        assert dict(ob) == dict(side.order_of_battle), (sid, side.id)
        assert side.point_value == army_point_value(side.order_of_battle, units), (sid, side.id)
        assert side.panic_threshold == panic_threshold(side.point_value), (sid, side.id)
        assert sum(g.count for g in side.units if g.supreme) == 1, (sid, side.id)
        for h, types in _stacks(side).items():
            combat = [t for t in types if units[t].counts_for_stacking]
            assert combat, f"{sid}/{side.id}: command unit alone in {h}"
            limit = 3 if basic else min(units[t].stack_limit for t in combat)
            assert len(combat) <= limit, (sid, side.id, h, combat)
            assert occupied.setdefault(h, side.id) == side.id, f"{sid}: both sides in {h}"
        if side.zone.hexes:
            assert {h for g in side.units for h in g.hexes} <= set(side.zone.hexes), (sid, side.id)
        for h in side.earthworks:
            assert any(h in g.hexes and not units[g.type].mounted for g in side.units if g.type != "CM")
        if not basic:
            assert side.victory_levels, (sid, side.id)
    if sc.civil_war:
        assert all(len(s.victory_levels) == 3 for s in sc.sides)


@pytest.mark.rule("cen:full.deployment")
@pytest.mark.parametrize("sid", [s for s in CHART_SCENARIOS if s != "teutoburgerwald"])
def test_full_deployment_distances(store: DataStore, sid: str) -> None:
    sc = load_scenario(store, sid)
    first = sc.side(sc.deploys_first)
    second = sc.opponent(sc.deploys_first)
    first_hexes = {h for g in first.units for h in g.hexes}
    for h in first_hexes:
        assert hexmath.distance(h, first.zone.centre) <= first.zone.radius, (sid, h)
    for g in second.units:
        for h in g.hexes:
            nearest = min(hexmath.distance(h, e) for e in first_hexes)
            assert 8 <= nearest <= 12, (sid, g.type, h, nearest)


@pytest.mark.rule("cen:basic.deployment", "cen:basic.victory")
@pytest.mark.parametrize("sid", BASIC_SCENARIOS)
def test_basic_deployments_are_stacks_of_three_or_two(store: DataStore, units: dict[str, model.UnitType], sid: str) -> None:
    sc = load_scenario(store, sid)
    assert sc.turns == 10 and sc.game is GameVersion.BASIC
    for side in sc.sides:
        for h, types in _stacks(side).items():
            combat = [t for t in types if t != "CM"]
            assert len(combat) in (2, 3) and len(set(combat)) == 1, (sid, side.id, h, types)


@pytest.mark.rule("cen:basic.deployment")
def test_basic_deployments_move_first_as_printed(store: DataStore) -> None:
    text = rulebook_text()
    printed = {
        "basic-servile-war": "Servile War 71 BC (Romans, move first",
        "basic-gaul": "Gaul 57 BC (Caesar, move first",
        "basic-carrhae": "Carrhae 53 BC (Parthians, move first",
        "basic-civil-war": "Hypothetical Civil War (Loyalists, move first",
    }
    for sid, phrase in printed.items():
        assert phrase in text
        sc = load_scenario(store, sid)
        mover = sc.side(sc.first_player).name
        assert phrase.split("(")[1].split(",")[0] in mover, (sid, mover)


@pytest.mark.rule("cen:scenarios", "cen:rom.legion-integrity")
def test_chart_scenarios_follow_the_printed_notes(store: DataStore) -> None:
    for sid in CHART_SCENARIOS:
        sc = load_scenario(store, sid)
        assert "cen:rom.legion-integrity" in sc.options, sid  # 'All scenarios require the Legion Integrity Rule'
        assert sc.game is GameVersion.FULL and sc.deployment_note
    for sid in ("numidia", "vercellae", "servile-war", "lycus", "carrhae", "ctesiphon", "hadrianopolis", "campus-mauriacus"):
        sc = load_scenario(store, sid)
        first = sc.side(sc.deploys_first)
        assert sc.first_player != sc.deploys_first, sid  # 'first group deploys first, second moves first'
        assert all(int(h[:2]) >= 16 and int(h[2:]) >= 11 for g in first.units for h in g.hexes), sid
    gaul = load_scenario(store, "gaul")
    assert gaul.deploys_first == gaul.first_player == "nervii"
    daras = load_scenario(store, "daras")
    assert daras.first_player == "persians" and 0 < len(daras.side("romans").earthworks) <= 6
    for sid in ("pharsalus", "philippi"):
        sc = load_scenario(store, sid)
        assert sc.civil_war and sc.fight_to_death
    assert load_scenario(store, "philippi").first_player == "triumvirs"
    for sid, sd, facing in (("philippi", "senators", {"S"}), ("boudicca", "romans", {"S"}), ("gaul", "nervii", {"S"}),
                            ("mons-graupius", "caledonians", {"NE", "SE"}), ("busta-gallorum", "romans", {"NE", "SE"})):
        side = load_scenario(store, sid).side(sd)
        assert {g.facing for g in side.units} <= facing, (sid, sd)


def _with_units(sc: model.Scenario, side_id: str, groups: list[UnitGroup], ob: dict[str, int] | None = None) -> model.Scenario:
    sides = []
    for s in sc.sides:
        if s.id == side_id:
            s = attrs.evolve(s, units=tuple(groups), order_of_battle=ob if ob is not None else dict(s.order_of_battle))
        sides.append(s)
    return attrs.evolve(sc, sides=tuple(sides))


@pytest.mark.rule("cen:scenarios", "cen:full.stacking", "cen:basic.stacking", "cen:opt.command")
def test_validation_refuses_broken_scenarios_naming_the_rule(store: DataStore, units: dict[str, model.UnitType]) -> None:
    hexgrid = pytest.importorskip("ancients_kit.hexgrid")
    num = hexgrid.Numbering(orientation="flat", shifted="even", columns=30, rows=20)
    sc = load_scenario(store, "numidia")
    validate_scenario(sc, units, num)  # the packaged scenario passes
    cm = UnitGroup(type="CM", count=1, hexes=("2116",), facing="N", supreme=True)

    def refused(bad: model.Scenario, rule: str, text: str) -> None:
        with pytest.raises(ScenarioError, match=re.escape(rule)) as info:
            validate_scenario(bad, units, num)
        assert text in str(info.value) and "numidia" in str(info.value)

    four = UnitGroup(type="SD", count=4, hexes=("2216",) * 4, facing="N")
    refused(_with_units(sc, "romans", [cm, four], {"CM": 1, "SD": 4}), "cen:full.stacking", "2216")
    three_bi = UnitGroup(type="BI", count=3, hexes=("2216",) * 3, facing="N")
    refused(_with_units(sc, "romans", [cm, three_bi], {"CM": 1, "BI": 3}), "cen:full.stacking", "3 BI")
    basic = attrs.evolve(sc, game=GameVersion.BASIC)
    validate_scenario(_with_units(basic, "romans", [cm, three_bi], {"CM": 1, "BI": 3}), units, num)
    refused(_with_units(basic, "romans", [cm, four], {"CM": 1, "SD": 4}), "cen:basic.stacking", "2216")
    sd = UnitGroup(type="SD", count=2, hexes=("2216", "2217"), facing="N")
    refused(_with_units(sc, "romans", [cm, sd], {"CM": 1, "SD": 3}), "cen:scenarios", "order of battle")
    refused(_with_units(sc, "romans", [sd], {"SD": 2}), "cen:opt.command", "0 Supreme")
    refused(_with_units(sc, "romans", [cm, attrs.evolve(sd, type="XX")], {"CM": 1, "XX": 2}), "cen:scenarios", "XX")
    off = UnitGroup(type="SD", count=1, hexes=("3121",), facing="N")
    refused(_with_units(sc, "romans", [cm, off], {"CM": 1, "SD": 1}), "cen:scenarios", "3121")
    enemy_hex = sc.side("numidians").units[-1].hexes[0]
    clash = UnitGroup(type="SD", count=1, hexes=(enemy_hex,), facing="N")
    refused(_with_units(sc, "romans", [cm, clash], {"CM": 1, "SD": 1}), "cen:basic.movement", enemy_hex)
    refused(attrs.evolve(sc, first_player="carthaginians"), "cen:scenarios", "carthaginians")


def test_generated_files_are_what_the_generators_build() -> None:
    """map.toml and scenarios/*.toml are rebuilt by tools/ scripts; keep them in step."""
    import build_map
    import build_scenarios

    assert build_map.render(build_map.build()) == (DATA / "map.toml").read_text(encoding="utf-8")
    built = build_scenarios.generate()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in (DATA / "scenarios").glob("*.toml")}
    assert set(built) == set(on_disk)
    for name, (text, _) in built.items():
        assert text == on_disk[name], f"{name} differs from tools/build_scenarios.py output; rerun the script"


@pytest.mark.rule("cen:full.units", "cen:full.movement")
@pytest.mark.parametrize(("rel", "data_id", "old", "new", "message"), [
    ("capability.toml", "centurion.capability", 'code = "SD"', 'code = "BI"',
     r"capability\[1\]\.code: capability 'BI' has a row already \[cen:full\.units\]"),
    ("terrain.toml", "centurion.terrain", 'id = "woods"', 'id = "clear"',
     r"terrain\[\d+\]\.id: terrain 'clear' has a row already \[cen:full\.movement\]"),
])
def test_a_chart_row_given_twice_is_refused(tmp_path: Path, rel: str, data_id: str, old: str, new: str,
                                            message: str) -> None:
    """The second row silently replaced the first (issue 27 item 3: unique ids)."""
    from ancients_kit.data import DataError, Variant

    body = (DATA / rel).read_text(encoding="utf-8")
    assert old in body
    (tmp_path / "doc.toml").write_text(body.replace(old, new, 1), encoding="utf-8")
    (tmp_path / "v.toml").write_text(f'[meta]\nid = "v"\nsource = "variant"\nnote = "x"\n'
                                     f'[replace."{data_id}"]\nfile = "doc.toml"\n', encoding="utf-8")
    store = DataStore("ancients_games.centurion", (Variant.from_file(tmp_path / "v.toml"),))
    load = model.load_capability if rel == "capability.toml" else model.load_terrain
    with pytest.raises(DataError, match=rf"v\.toml \[replace\.{data_id}\]: {message}"):
        load(store)


@pytest.mark.rule("cen:basic.combat")
def test_a_crt_result_the_combat_rules_do_not_carry_out_is_refused(tmp_path: Path) -> None:
    """A melee CRT giving 'DR' (another game's defender retreat) played it as a contact without a
    word (issue 27 item 3: result codes against the game's own)."""
    from ancients_kit.data import DataError, Variant
    from ancients_games.centurion.equipment import load_crt

    body = (DATA / "crt_melee.toml").read_text(encoding="utf-8")
    old = '1 = ["DD", "DE",'
    assert old in body and "[codes]\n" in body
    body = body.replace(old, '1 = ["DR", "DE",', 1).replace("[codes]\n", '[codes]\nDR = "Defender retreats"\n', 1)
    (tmp_path / "doc.toml").write_text(body, encoding="utf-8")
    (tmp_path / "v.toml").write_text('[meta]\nid = "v"\nsource = "variant"\nnote = "x"\n'
                                     '[replace."centurion.crt.melee"]\nfile = "doc.toml"\n', encoding="utf-8")
    store = DataStore("ancients_games.centurion", (Variant.from_file(tmp_path / "v.toml"),))
    with pytest.raises(DataError, match=r"v\.toml \[replace\.centurion\.crt\.melee\]: table\.rows\[0\]\[0\]: result 'DR' "
                                        r"is not one this game carries out \(AD, AE, C, DD, DE\) \[cen:basic\.combat\]"):
        load_crt(store, "crt_melee.toml")


@pytest.mark.rule("cen:full.units")
@pytest.mark.parametrize(("old", "new", "message"), [
    ('code = "SD"', 'code = "SDX"', r"capability: no row for unit type SD of ancients_games/centurion/data/units\.toml"),
    ('dismount_as = ["DSD"', 'dismount_as = ["DSX"', r"capability\[\d+\]\.dismount_as\[0\]: 'DSX' is no unit type of"),
])
def test_the_capability_chart_and_the_unit_types_name_each_other(tmp_path: Path, old: str, new: str,
                                                                 message: str) -> None:
    """A renamed row was never read and its unit type played without one (issue 27 item 3)."""
    from ancients_kit.data import DataError, Variant
    from ancients_games.centurion.equipment import load_all

    body = (DATA / "capability.toml").read_text(encoding="utf-8")
    assert old in body
    (tmp_path / "doc.toml").write_text(body.replace(old, new, 1), encoding="utf-8")
    (tmp_path / "v.toml").write_text('[meta]\nid = "v"\nsource = "variant"\nnote = "x"\n'
                                     '[replace."centurion.capability"]\nfile = "doc.toml"\n', encoding="utf-8")
    store = DataStore("ancients_games.centurion", (Variant.from_file(tmp_path / "v.toml"),))
    with pytest.raises(DataError, match=rf"v\.toml \[replace\.centurion\.capability\]: {message}"):
        load_all(store)
