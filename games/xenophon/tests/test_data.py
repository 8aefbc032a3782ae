"""XEN-A data checks: map, roster and set-ups against every fact the rulebook fixes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ancients_games.xenophon.model import UNIT_TYPES, load, row_source

DATA = load()
MAP = DATA.map
SATRAPIES = sorted(r.name for r in DATA.roster.satrapy)
ISLAND_OWNER = {"Crimea": "Colchis", "Cyprus": "Cilicia", "Rhodes": "Ionia", "Crete": "Ionia", "Aegean": "Ionia"}


@pytest.mark.rule("xen:errata", "xen:components")
def test_generator_reproduces_map_byte_for_byte() -> None:
    tool = Path(__file__).resolve().parents[1] / "tools" / "make_map.py"
    done = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.rule("xen:components")
def test_54_cities_of_three_kinds() -> None:
    assert len(MAP.hexes_where("city")) == 54
    assert len(MAP.hexes_where("city", "city")) == 44
    treasury = {n for n in ("Memphis", "Tyre", "Athens", "Byzantion", "Sardis", "Halikarnassos", "Merv")}
    assert {MAP.to_id(h) for h in MAP.hexes_where("city", "treasury")} == {MAP.to_id(MAP.place(n)) for n in treasury}
    capitals = {MAP.to_id(MAP.place(n)) for n in ("Ekbatana", "Susa", "Persepolis")}
    assert {MAP.to_id(h) for h in MAP.hexes_where("city", "capital")} == capitals
    assert MAP.place("Sardis") in MAP.region("Lydia")
    for name, sat in (("Ekbatana", "Media"), ("Susa", "Elam"), ("Persepolis", "Persis")):
        assert MAP.place(name) in MAP.region(sat)


@pytest.mark.rule("xen:errata")
def test_printed_hex_numbers() -> None:
    assert MAP.to_id(MAP.place("Taxila")) == "2443"
    for i in ("2808", "2243"):
        h = MAP.from_id(i)
        assert MAP.terrain(h) != "sea" and MAP.value(h, "city") is None


@pytest.mark.rule("xen:control", "xen:components")
def test_34_satrapies_connected_and_holding_their_cities() -> None:
    assert len(MAP.regions) == 34 and set(MAP.regions) == set(SATRAPIES)
    owners: dict = {}
    for name, hexes in MAP.regions.items():
        for h in hexes:
            assert h not in owners, f"{MAP.to_id(h)} in {owners.get(h)} and {name}"
            owners[h] = name
            assert MAP.terrain(h) != "sea"
    land = [h for h in MAP.hexes() if MAP.terrain(h) != "sea"]
    assert set(land) == set(owners)
    for name, hexes in MAP.regions.items():
        main = {h for h in hexes if MAP.value(h, "island") is None}
        start = next(iter(sorted(main)))
        seen, stack = {start}, [start]
        while stack:
            for n in MAP.neighbors(stack.pop()):
                if n in main and n not in seen:
                    seen.add(n)
                    stack.append(n)
        assert seen == main, f"{name} is not connected"
        row = DATA.row(name)
        kinds = [MAP.value(h, "city") for h in hexes if MAP.value(h, "city")]
        assert (kinds.count("city"), kinds.count("treasury"), kinds.count("capital")) == (
            row.cities, row.treasury_cities, row.capital_cities)
    for h in MAP.hexes_where("island"):
        assert owners[h] == ISLAND_OWNER[MAP.value(h, "island")]
    aegean = [h for h in MAP.hexes_where("island") if MAP.value(h, "island") == "Aegean"]
    assert len(aegean) == 5  # Ionia's 5 unnamed Aegean islands, one hex each
    for name in ("Cyprus", "Rhodes", "Crete", "Crimea"):
        assert any(MAP.value(h, "island") == name for h in MAP.hexes_where("island"))


@pytest.mark.rule("xen:control", "xen:scenario.cyrus-revolt")
def test_initial_control_15_8_11() -> None:
    ctl = [r.control for r in DATA.roster.satrapy]
    assert (ctl.count("empire"), ctl.count("rebel"), ctl.count("neutral")) == (15, 8, 11)
    for r in DATA.scenarios.setup:
        assert DATA.row(r.satrapy).control == r.control


@pytest.mark.rule("xen:components", "xen:errata")
def test_roster_totals_and_printed_rows() -> None:
    assert sum(r.total for r in DATA.roster.satrapy) == 179
    assert sum(r.total_cities for r in DATA.roster.satrapy) == 54
    a = DATA.row("Alarodia")
    assert (a.levy_value, a.light, a.militia, a.total, a.total_cities) == (1, 1, 2, 3, 1)
    assert row_source(DATA.roster_meta, DATA.roster.provenance, "Alarodia").source == "rulebook"
    sources = [row_source(DATA.roster_meta, DATA.roster.provenance, s).source for s in SATRAPIES]
    assert sources.count("rulebook") == 1 and sources.count("reconstructed") == 33
    assert DATA.row("Scythia").levy_value == 2
    e = DATA.row("Egypt")
    assert (e.phalanx, e.light) == (1, 2)


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:scenario.kings-war")
def test_setup_lists() -> None:
    rows = {r.satrapy: r for r in DATA.scenarios.setup}
    assert len(rows) == 34
    by = {c: sum(r.total for r in rows.values() if r.control == c) for c in ("empire", "neutral", "rebel")}
    printed_empire = by["empire"] - sum(rows[s].total for s in ("Gandara", "Parikania", "Persian India"))
    assert (printed_empire, by["neutral"], by["rebel"]) == (33, 29, 33)
    for s in ("Gandara", "Parikania", "Persian India"):
        assert row_source(DATA.scenarios_meta, DATA.scenarios.provenance, s).source == "reconstructed"
    assert (rows["Sparta"].militia, rows["Sparta"].phalanx, rows["Sparta"].fleet) == (1, 2, 1)
    assert (rows["Greater India"].militia, rows["Greater India"].light, rows["Greater India"].elephant) == (4, 2, 1)
    sides = {s.name: s for s in DATA.scenarios.side}
    assert (sides["empire"].treasury, sides["empire"].chits, sides["rebel"].treasury, sides["rebel"].chits) == (40, 2, 10, 6)
    assert [s.turns for s in DATA.scenarios.scenario] == [7, 15]
    assert MAP.place(sides["rebel"].guard_city) in MAP.region("Lydia")
    assert (sides["rebel"].guard.phalanx, sides["rebel"].guard.light, sides["empire"].guard.cavalry) == (3, 1, 3)
    for r in rows.values():
        assert DATA.row(r.satrapy).covers(r), f"{r.satrapy}: the roster holds fewer units than its set-up"


def _capacity(hexes, satrapy: str) -> int:
    # xen:supply: FV per hex; desert always feeds one unit of its own satrapy.
    return sum(max(MAP.value(h, "forage"), 1 if MAP.value(h, "desert") else 0) for h in hexes)


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:supply")
def test_every_setup_fits_forage_and_cities() -> None:
    sides = {s.name: s for s in DATA.scenarios.side}
    for r in DATA.scenarios.setup:
        hexes = MAP.region(r.satrapy)
        cities = [h for h in hexes if MAP.value(h, "city")]
        assert len(cities) <= r.total, f"{r.satrapy}: {len(cities)} cities, {r.total} units"
        extra = 0
        if r.satrapy == "Lydia":  # the Rebel guard, Cyrus and Ariaos start in Sardis
            g = sides["rebel"].guard
            extra = g.phalanx + g.light + 1 + len(sides["rebel"].leaders)
            assert MAP.value(MAP.place("Sardis"), "forage") >= extra + 1
        assert _capacity(hexes, r.satrapy) >= r.total + extra


@pytest.mark.rule("xen:components")
def test_unit_types_known() -> None:
    assert set(UNIT_TYPES) == {"phalanx", "cavalry", "light", "militia", "barbarian_horde", "elephant", "fleet"}


def _road_reach(start):
    seen, stack = {start}, [start]
    while stack:
        h = stack.pop()
        for n in MAP.neighbors(h):
            if n not in seen and MAP.has_feature(h, n, "road"):
                seen.add(n)
                stack.append(n)
    return seen


@pytest.mark.rule("xen:movement", "xen:errata")
def test_roads_join_the_royal_cities() -> None:
    # The Royal Road runs from Sardis to Susa (Herodotus 5.52-54); the trunk roads on to Persepolis,
    # Ekbatana, Merv and Taxila.
    reach = _road_reach(MAP.place("Sardis"))
    for city in ("Susa", "Persepolis", "Babylon", "Ekbatana", "Merv", "Baktra", "Taxila", "Tarsos"):
        assert MAP.place(city) in reach, city
    for side in MAP.hexsides_with("road"):
        assert MAP.terrain(side.a) != "sea" and MAP.terrain(side.b) != "sea"


@pytest.mark.rule("xen:movement", "xen:naval")
def test_straits_join_europe_and_asia() -> None:
    straits = MAP.hexsides_with("strait")
    assert len(straits) == 2
    for side in straits:
        (a,), (b,) = MAP.regions_of(side.a), MAP.regions_of(side.b)
        assert "Thrace" in (a, b) and a != b
    for side in MAP.hexsides_with("river") | MAP.hexsides_with("lake"):
        assert MAP.terrain(side.a) != "sea" and MAP.terrain(side.b) != "sea"
