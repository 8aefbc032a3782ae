"""Xenophon data model: the satrapy roster, the scenario set-ups and the map.

Loaded with the core's :class:`~ancients_kit.data.DataStore`; each document
keeps its ``[meta]`` provenance and marks its rebuilt or printed rows with the
core's ``[[provenance]]`` entries (``entries = [satrapy names]``).
Rules: xen:components, xen:control, xen:levy, xen:supply.
"""

from __future__ import annotations

from typing import Literal

import attrs

from ancients_kit.data import DataError, DataStore, Meta
from ancients_kit.hexmap import HexMap
from ancients_kit.tables import ProvenanceMark

from ancients_games.xenophon import PACKAGE

Control = Literal["empire", "rebel", "neutral"]
UNIT_TYPES = ("phalanx", "cavalry", "light", "militia", "barbarian_horde", "elephant", "fleet")


@attrs.frozen
class Units:
    """Counts of satrapy units by type."""

    phalanx: int = 0
    cavalry: int = 0
    light: int = 0
    militia: int = 0
    barbarian_horde: int = 0
    elephant: int = 0
    fleet: int = 0

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
    levy_value: int = 1
    control: Control = "neutral"
    cities: int = 0
    treasury_cities: int = 0
    capital_cities: int = 0

    @property
    def total_cities(self) -> int:
        return self.cities + self.treasury_cities + self.capital_cities


@attrs.frozen
class RosterDoc:
    satrapy: tuple[RosterRow, ...]
    provenance: tuple[ProvenanceMark, ...] = ()


@attrs.frozen
class SetupRow(Units):
    """One satrapy's units in the Scenario 1 set-up list (xen:scenario.cyrus-revolt)."""

    satrapy: str = ""
    control: Control = "neutral"


@attrs.frozen
class Guard:
    phalanx: int = 0
    cavalry: int = 0
    light: int = 0


@attrs.frozen
class Side:
    name: Literal["empire", "rebel"]
    treasury: int
    chits: int
    supreme_leader: str
    leaders: tuple[str, ...] = ()
    guard: Guard = Guard()
    guard_city: str = ""


@attrs.frozen
class Scenario:
    id: str
    title: str
    turns: int
    first_player: Literal["rebel", "empire"]


@attrs.frozen
class ScenariosDoc:
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
    names = {r.name for r in roster.satrapy}
    _check_marks(store.path("roster.toml"), roster.provenance, names)
    _check_marks(store.path("scenarios.toml"), scen.provenance, names)
    for i, r in enumerate(scen.setup):
        if r.satrapy not in names:
            raise DataError(store.path("scenarios.toml"), f"no satrapy {r.satrapy!r} in the roster", f"setup[{i}]")
    return XenophonData(hexmap, rmeta, roster, smeta, scen)
