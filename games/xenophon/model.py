"""Xenophon data model: the satrapy roster, the scenario set-ups and the map.

Loaded with the core's :class:`~ancients_kit.data.DataStore`; each document
keeps its ``[meta]`` provenance and marks its rebuilt or printed rows with the
core's ``[[provenance]]`` entries (``entries = [satrapy names]``).
Rules: xen:components, xen:control, xen:levy, xen:supply.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

import attrs

from ancients_kit.data import DataError, DataStore, Meta, bounded, document_file, first_repeat
from ancients_kit.hexmap import HexMap
from ancients_kit.tables import (DifferentialTable, LookupTable, OddsTable, ProvenanceMark, Table, load_table,
                                 load_table_with_codes)

from ancients_games.xenophon import PACKAGE

Control = Literal["empire", "rebel", "neutral"]
UNIT_TYPES = ("phalanx", "cavalry", "light", "militia", "barbarian_horde", "elephant", "fleet")
FACTOR_TYPES = (*UNIT_TYPES, "siege_train", "supply_train", "leader")
"""Every kind of counter of the mix: ``units.toml`` gives each its factors and costs (xen:components)."""


def _count(high: int, rule: str, default: int = 0) -> Any:
    """A whole number field from 0 to ``high`` (the data's bounds, checked when the file loads)."""
    return attrs.field(default=default, validator=bounded(0, high, rule=rule))


@attrs.frozen
class Units:
    """Counts of satrapy units by type."""

    phalanx: int = _count(99, "xen:components")
    cavalry: int = _count(99, "xen:components")
    light: int = _count(99, "xen:components")
    militia: int = _count(99, "xen:components")
    barbarian_horde: int = _count(99, "xen:components")
    elephant: int = _count(99, "xen:components")
    fleet: int = _count(99, "xen:components")

    @property
    def total(self) -> int:
        return sum(getattr(self, t) for t in UNIT_TYPES)

    def covers(self, other: Units) -> bool:
        """True if every type count is at least ``other``'s."""
        return all(getattr(self, t) >= getattr(other, t) for t in UNIT_TYPES)


@attrs.frozen
class RosterRow(Units):
    """One row of the Unit and City Summary Roster (xen:components, xen:levy)."""

    name: str = ""
    levy_value: int = _count(9, "xen:levy", 1)
    control: Control = "neutral"
    cities: int = _count(20, "xen:components")
    treasury_cities: int = _count(20, "xen:components")
    capital_cities: int = _count(20, "xen:components")

    @property
    def total_cities(self) -> int:
        return self.cities + self.treasury_cities + self.capital_cities


@attrs.frozen
class RosterDoc:
    """``roster.toml``: the 34 rows and their provenance marks."""

    satrapy: tuple[RosterRow, ...]
    provenance: tuple[ProvenanceMark, ...] = ()
    """Marks by satrapy name (``entries``): which rows are printed, which rebuilt."""


@attrs.frozen
class SetupRow(Units):
    """One satrapy's units in the Scenario 1 set-up list (xen:scenario.cyrus-revolt)."""

    satrapy: str = ""
    control: Control = "neutral"


@attrs.frozen
class Guard:
    """A side's Guard units set up at the start (xen:guards, xen:scenario.cyrus-revolt)."""

    phalanx: int = _count(20, "xen:guards")
    cavalry: int = _count(20, "xen:guards")
    light: int = _count(20, "xen:guards")


@attrs.frozen
class Side:
    """One player's start: treasury, chits, leaders and guard (xen:scenario.cyrus-revolt)."""

    name: Literal["empire", "rebel"]
    treasury: int = attrs.field(validator=bounded(0, 10_000, rule="xen:treasury"))
    """Starting $ (Empire 40, Rebel 10)."""
    chits: int = attrs.field(validator=bounded(0, 30, rule="xen:chits"))
    """Chits drawn at the start (Empire 2, Rebel 6)."""
    supreme_leader: str
    """Artaxerxes or Cyrus (xen:supreme-leaders)."""
    leaders: tuple[str, ...] = ()
    """The other leaders set up."""
    guard: Guard = Guard()
    guard_city: str = ""
    """The city the whole guard starts in (Sardis), or empty: one unit a friendly satrapy."""


@attrs.frozen
class Scenario:
    """A scenario's length and play order; both use the same set-up."""

    id: str
    title: str
    turns: int = attrs.field(validator=bounded(1, 50, rule="xen:sequence"))
    """Game-turns: 7 (Cyrus' Revolt) or 15 (The King's War)."""
    first_player: Literal["rebel", "empire"]


@attrs.frozen
class ScenariosDoc:
    """``scenarios.toml``: both scenarios, the two sides and the 34 set-up rows."""

    scenario: tuple[Scenario, ...]
    side: tuple[Side, ...]
    setup: tuple[SetupRow, ...]
    provenance: tuple[ProvenanceMark, ...] = ()


def _check_marks(file: str, marks: tuple[ProvenanceMark, ...], names: set[str]) -> None:
    seen: set[str] = set()
    for i, m in enumerate(marks):
        if m.source == "reconstructed" and not m.note.strip():
            raise DataError(file, "reconstructed rows must say what they were built from", f"provenance[{i}].note")
        for j, e in enumerate(m.entries):
            if e not in names:
                raise DataError(file, f"no satrapy {e!r}", f"provenance[{i}].entries[{j}]")
            if e in seen:
                raise DataError(file, f"{e} is marked twice", f"provenance[{i}].entries[{j}]")
            seen.add(e)


def row_source(meta: Meta, marks: tuple[ProvenanceMark, ...], name: str) -> ProvenanceMark:
    """The provenance of one row: its mark, or the document's own."""
    for m in marks:
        if name in m.entries:
            return m
    return ProvenanceMark(meta.source, meta.note, meta.sources)


@attrs.frozen
class XenophonData:
    """Everything XEN-A provides, loaded and cross-checked."""

    map: HexMap
    roster_meta: Meta
    roster: RosterDoc
    scenarios_meta: Meta
    scenarios: ScenariosDoc

    def row(self, satrapy: str) -> RosterRow:
        for r in self.roster.satrapy:
            if r.name == satrapy:
                return r
        raise KeyError(f"no satrapy {satrapy!r} in the roster (xen:components)")

    def setup(self, satrapy: str) -> SetupRow:
        for r in self.scenarios.setup:
            if r.satrapy == satrapy:
                return r
        raise KeyError(f"no set-up row for {satrapy!r} (xen:scenario.cyrus-revolt)")


def load(store: DataStore | None = None) -> XenophonData:
    """Load map, roster and scenarios; raise :class:`DataError` on bad data."""
    store = store or DataStore(PACKAGE)
    hexmap = HexMap.load(store, "map.toml")
    rmeta, roster = store.load("roster.toml", RosterDoc)
    smeta, scen = store.load("scenarios.toml", ScenariosDoc)
    # a check names the variant replacing the document it reads, not the packaged file
    roster_file = document_file(store, "roster.toml", rmeta.id)
    scenarios_file = document_file(store, "scenarios.toml", smeta.id)
    _check_entries(roster_file, roster.provenance, [r.name for r in roster.satrapy], "satrapy")
    names = {r.name for r in roster.satrapy}
    _check_marks(scenarios_file, scen.provenance, names)
    for i, r in enumerate(scen.setup):
        if r.satrapy not in names:
            raise DataError(scenarios_file, f"no satrapy {r.satrapy!r} in the roster ({roster_file})", f"setup[{i}]")
    for i, side in enumerate(scen.side):
        if side.guard_city and side.guard_city not in hexmap.places:
            raise DataError(scenarios_file, f"no city {side.guard_city!r} on the map "
                            f"({document_file(store, 'map.toml', hexmap.meta.id)})", f"side[{i}].guard_city")
    _check_unique(scenarios_file, "side", [s.name for s in scen.side], "name")
    if sorted(s.name for s in scen.side) != ["empire", "rebel"]:
        raise DataError(scenarios_file, "the two sides are the empire and the rebel, one row each "
                        "(xen:scenario.cyrus-revolt)", "side")
    _check_unique(scenarios_file, "scenario", [s.id for s in scen.scenario], "id")
    for i, side in enumerate(scen.side):
        _check_unique(scenarios_file, f"side[{i}].leaders", [side.supreme_leader, *side.leaders], "leader")
    named = [ld for side in scen.side for ld in (side.supreme_leader, *side.leaders)]
    _check_unique(scenarios_file, "side", named, "leader")
    _check_unique(scenarios_file, "setup", [r.satrapy for r in scen.setup], "satrapy")
    _check_unique(roster_file, "satrapy", [r.name for r in roster.satrapy], "name")
    _check_map(document_file(store, "map.toml", hexmap.meta.id), hexmap, roster_file, roster)
    rows = {r.name: r for r in roster.satrapy}
    for i, r in enumerate(scen.setup):
        for t in UNIT_TYPES:
            if getattr(r, t) > getattr(rows[r.satrapy], t):
                raise DataError(scenarios_file, f"the set-up of {r.satrapy} needs {getattr(r, t)} {t}, its roster row "
                                f"({roster_file}) has {getattr(rows[r.satrapy], t)} [xen:roster]", f"setup[{i}].{t}")
    return XenophonData(hexmap, rmeta, roster, smeta, scen)


MAP_KEYS = ("city", "forage", "port", "coastal", "desert")
"""Per-hex keys the rules read: cities and their kind, Forage Values, ports, coasts, deserts (xen:components)."""

MAP_PLACES = ("Sardis", "Persepolis", "Susa", "Ekbatana")
"""Cities the set-up names (xen:scenario.cyrus-revolt): the Rebel's Sardis, the Empire's three capitals."""


def _check_map(file: str, hexmap: HexMap, roster_file: str, roster: RosterDoc) -> None:
    """The map holds what the rules read by name: its per-hex keys, the set-up's cities and a region
    for each satrapy of the roster."""
    missing = [k for k in MAP_KEYS if k not in hexmap.hex_keys]
    if missing:
        raise DataError(file, f"no per-hex key {', '.join(missing)}: the rules read it [xen:components]", "hexkeys")
    missing = [p for p in MAP_PLACES if p not in hexmap.places]
    if missing:
        raise DataError(file, f"no place {', '.join(missing)}: the set-up names it [xen:scenario.cyrus-revolt]",
                        "places")
    missing = [r.name for r in roster.satrapy if r.name not in hexmap.regions]
    if missing:
        raise DataError(file, f"no region for satrapy {', '.join(missing)} of the roster ({roster_file}) "
                        "[xen:components]", "regions")


def _check_unique(path: Any, table: str, values: list[str], key: str) -> None:
    """Each ``values`` entry once: a second row with the same name is refused, naming it."""
    repeat = first_repeat(values)
    if repeat is not None:
        i, v = repeat
        raise DataError(path, f"{v!r} appears twice; each {key} names one row", f"{table}[{i}].{key}")


# ---------------------------------------------------------------------------
# Chits, unit factors and tables

Phase = Literal["diplomacy", "treasury", "levy", "recruit", "operations", "combat", "any", "none"]


@attrs.frozen
class Chit:
    """One kind of Stratagem chit and how many of it the pool holds (xen:chits)."""

    name: str
    count: int = attrs.field(validator=bounded(1, 40, rule="xen:chits"))
    phase: Phase
    text: str


@attrs.frozen
class ChitsDoc:
    """``stratagems.toml``: the chit kinds, marked printed or rebuilt by name."""

    chit: tuple[Chit, ...]
    provenance: tuple[ProvenanceMark, ...] = ()


@attrs.frozen
class UnitFactor:
    """Combat Strength, Operations Value and costs of a unit type (xen:components, xen:treasury-chart)."""

    type: str
    cs: int = attrs.field(validator=bounded(0, 50, rule="xen:components"))
    ov: int = attrs.field(validator=bounded(0, 50, rule="xen:components"))
    recruit: int = attrs.field(validator=bounded(0, 100, rule="xen:treasury-chart"))
    upkeep: int = attrs.field(validator=bounded(0, 100, rule="xen:treasury-chart"))


@attrs.frozen
class UnitsDoc:
    """``units.toml``: one row per unit type, marked printed or rebuilt by type."""

    unit: tuple[UnitFactor, ...]
    provenance: tuple[ProvenanceMark, ...] = ()


TABLES = {
    "engagement": "tables/crt_engagement.toml",
    "skirmish": "tables/crt_skirmish.toml",
    "combined-arms": "tables/crt_combined_arms.toml",
    "diplomacy": "tables/diplomacy.toml",
    "pillage": "tables/pillage.toml",
    "colonisation": "tables/colonisation.toml",
    "disband": "tables/disband.toml",
    "revolt": "tables/revolt.toml",
    "random-events": "tables/events.toml",
    "terrain": "tables/terrain.toml",
}
"""Table name -> data file, loaded with :func:`ancients_kit.tables.load_table`."""

POOL_SIZE = 40  # xen:components: 40 Stratagem chits, the blank included


def _check_entries(file: str, marks: tuple[ProvenanceMark, ...], names: list[str], what: str) -> None:
    if len(set(names)) != len(names):
        raise DataError(file, f"a {what} is listed twice")
    _check_marks(file, marks, set(names))
    missing = set(names) - {e for m in marks for e in m.entries}
    if missing:
        raise DataError(file, f"no provenance mark for {', '.join(sorted(missing))}", "provenance")


def load_chits(store: DataStore | None = None) -> tuple[Meta, ChitsDoc]:
    """The chit pool; refuses a pool that is not 40 chits (xen:components)."""
    store = store or DataStore(PACKAGE)
    meta, doc = store.load("stratagems.toml", ChitsDoc)
    file = document_file(store, "stratagems.toml", meta.id)
    _check_entries(file, doc.provenance, [c.name for c in doc.chit], "chit")
    total = sum(c.count for c in doc.chit)
    if total != POOL_SIZE:
        raise DataError(file, f"the pool holds {total} chits, not {POOL_SIZE} (xen:components)", "chit")
    return meta, doc


def load_units(store: DataStore | None = None) -> tuple[Meta, UnitsDoc]:
    """Unit factors and costs, one row per type."""
    store = store or DataStore(PACKAGE)
    meta, doc = store.load("units.toml", UnitsDoc)
    file = document_file(store, "units.toml", meta.id)
    _check_entries(file, doc.provenance, [u.type for u in doc.unit], "unit type")
    missing = [t for t in FACTOR_TYPES if t not in {u.type for u in doc.unit}]
    if missing:
        raise DataError(file, f"no row for {', '.join(missing)}: the counter mix has such units [xen:components]", "unit")
    return meta, doc


def load_tables(store: DataStore | None = None) -> dict[str, Table]:
    """Every table of :data:`TABLES`, with its provenance per row or cell; each of the kind its rules
    read (:data:`TABLE_KINDS`), giving only results they carry out (:data:`TABLE_RESULTS`), and the
    Terrain Effects Chart with every movement cost (:data:`TERRAIN_COSTS`)."""
    store = store or DataStore(PACKAGE)
    out: dict[str, Table] = {}
    for name, rel in TABLES.items():
        table = load_table(store, rel)
        kind, die, rule = TABLE_KINDS[name]
        if not isinstance(table, kind) or table.die != die:
            raise DataError(document_file(store, rel, table.meta.id), f"the {name} table is a {kind.__name__} "
                            f"read by {die or 'no die'}, not a {type(table).__name__} read by "
                            f"{table.die or 'no die'} [{rule}]", "table")
        if name in TABLE_RESULTS:
            codes, rule = TABLE_RESULTS[name]
            table = load_table_with_codes(store, rel, codes, rule)
        out[name] = table
    _check_terrain_costs(out["terrain"], document_file(store, TABLES["terrain"], out["terrain"].meta.id))
    return out


def _check_terrain_costs(chart: Table, file: str) -> None:
    entries = getattr(chart, "entries", {})
    for key in TERRAIN_COSTS:
        text = entries.get(key)
        try:
            cost = Fraction(str(text).strip().lstrip("+"))
        except (ValueError, ZeroDivisionError):
            cost = None
        if text is None or cost is None or not 0 <= cost <= 99:
            raise DataError(file, f"{'no entry' if text is None else repr(text)}: the movement cost is a number "
                            "0..99 ('1', '+2', '1/2') [xen:movement]", f"table.entries.{key}")


CRTS = ("engagement", "skirmish", "combined-arms")
"""The three Combat Results Tables (xen:crt)."""
CRT_RESULTS = ("--", "AZ", "AR", "AD", "DZ", "DR", "DD", "AM", "DM")
"""The results combat carries out (``combat.apply_result``): any other code is refused when a CRT loads."""

EVENT_RESULTS = ("leader-arises", "troops-rally", "attrition", "mediterranean-war", "plague", "dissent",
                 "revolt-hellas", "revolt-anatolia", "revolt-levant", "revolt-north", "revolt-heartland",
                 "revolt-upper", "revolt-india", "satrapy-resists", "satrapy-resists-enemy", "tribute", "stratagem",
                 "quiet", "quiet-late", "persian-gold", "mercenaries", "unpaid-troops", "famine", "omens", "conspiracy")
"""The Random Events the rules carry out (``events.HANDLERS``)."""

TABLE_RESULTS: dict[str, tuple[tuple[str, ...], str]] = {
    **{name: (CRT_RESULTS, "xen:crt") for name in CRTS},
    "diplomacy": (("--", "R", "2R", "D1", "D2", "D3"), "xen:diplomacy"),
    "pillage": (("--", "R", "P", "P+R"), "xen:pillage"),
    "colonisation": (("--", "R", "C", "C+R"), "xen:colonisation"),
    "disband": (("mutiny", "disband", "loyal"), "xen:disband"),
    "revolt": (("revolt", "none"), "xen:revolt"),
    "random-events": (EVENT_RESULTS, "xen:random-events"),
}
"""Table name -> the results its rules carry out, and the rule: another code is refused when the table loads
(a code no handler knows was a KeyError mid-game)."""

TABLE_KINDS: dict[str, tuple[type, str | None, str]] = {
    **{name: (OddsTable, "d6", "xen:crt") for name in CRTS},
    "diplomacy": (DifferentialTable, "d6", "xen:diplomacy"),
    "pillage": (DifferentialTable, "d6", "xen:pillage"),
    "colonisation": (DifferentialTable, "d6", "xen:colonisation"),
    "disband": (LookupTable, "d6", "xen:disband"),
    "revolt": (LookupTable, "d6", "xen:revolt"),
    "random-events": (LookupTable, "d66", "xen:random-events"),
    "terrain": (LookupTable, None, "xen:movement"),
}
"""Table name -> the kind of table and the die its rules read it by."""

TERRAIN_COSTS = ("clear", "desert", "rough", "pass", "river", "lake", "strait", "road", "zoc")
"""The Terrain Effects Chart entries movement reads as costs (``movement.terrain_costs``)."""
