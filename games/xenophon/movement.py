"""Xenophon movement: terrain costs, hexsides, zones of control, stacking.

Rules served (each cited where it is applied):

- ``xen:movement``: a force pays OP to enter an adjacent hex (Terrain Effects
  Chart, ``data/tables/terrain.toml``): clear 1, desert 2, rough 3, a pass 1
  from a hex at its ends and 3 from a rough hex (ruling 9 of
  docs/games/xenophon.md), +2 across a river or lake hexside, +4 across a
  strait at its crossing arrow, 1/2 along a road, which overrides every other
  hex and hexside cost (errata: "roads negate other terrain in hex; a road
  crossing a river is a bridge"); never into hexes holding enemy or neutral
  units; land units never into all-sea hexes nor across all-sea hexsides;
- ``xen:zoc``: the six hexes around a player-controlled unit; neutral units
  and land units embarked on fleets have none; land ZOCs do not extend into
  all-sea hexes or across all-sea hexsides, fleet ZOCs not into all-land hexes
  or across all-land hexsides; land EZOC does not block fleets and fleet EZOC
  does not block land units; ZOCs extend into occupied hexes but never into a
  City or Colony held by the other side or by neutrals; entering costs 0
  (errata); stop on entering, and never straight from one EZOC to another
  (a force beginning its operations in EZOC may leave):
  :data:`ZOC` (the core's ``ZOC_NOT_EZOC_TO_EZOC``); a strait may not be crossed
  straight into an EZOC;
- ``xen:stacking``: at most 10 units a hex, leaders, trains, fleets and
  embarked units included; friendly, enemy and neutral units never together;

Map facts the rules use and the map file leaves implicit (rulings under
"Rulings: operations" in docs/games/xenophon.md):

- an *all-sea hexside* is the side between an island hex (Cyprus, Rhodes,
  Crete, an Aegean island) and any land hex that is not of the same island;
  the Crimea is a peninsula and joins Scythia by land;
- an *all-land hexside* is a side between two land hexes that touches no
  water: neither of the two hexes at its ends is a sea hex, it is no strait
  and no all-sea hexside. Fleets move between coastal hexes only along sides
  that touch the water.

Everything here is a pure function of the map (cached per map) and of the
sets the caller passes; the operations loop (:mod:`.operations`) supplies the
positions.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from fractions import Fraction
from functools import lru_cache

import attrs

from ancients_kit.data import DataStore
from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap
from ancients_kit.movement import MP, ZOC_NOT_EZOC_TO_EZOC, Reach, reachable

from ancients_games.xenophon.model import load_tables

__all__ = [
    "STACK_LIMIT",
    "ZOC",
    "TerrainCosts",
    "all_land_hexside",
    "all_sea_hexside",
    "enemy_zoc",
    "fleet_may_cross",
    "fleet_may_enter",
    "force_reach",
    "island_ids",
    "land_step_cost",
    "naval_rate",
    "naval_step_cost",
    "stack_room",
    "terrain_costs",
    "zoc_of",
]

ZOC = ZOC_NOT_EZOC_TO_EZOC
"""xen:zoc: stop on entering an enemy zone of control, and never straight from one to another
(a force beginning its operations in one may leave it)."""
STACK_LIMIT = 10
"""xen:stacking: at most 10 units a hex, leaders and supply included, markers ignored."""
SEA = "sea"
ROUGH = "rough"
PASS = "pass"


@attrs.frozen
class TerrainCosts:
    """The Terrain Effects Chart as numbers (``data/tables/terrain.toml``, xen:movement)."""

    hex_cost: dict[str, MP]
    """OP to enter a hex of each land terrain (clear, desert, rough, pass)."""
    river: MP
    """Added across a river hexside (+2)."""
    lake: MP
    """Added across a lake hexside (+2)."""
    strait: MP
    """Added across a strait at its crossing arrow (+4)."""
    road: MP
    """A road hexside: 1/2 OP, whatever the hex and hexside (errata)."""
    zoc: MP
    """Entering an EZOC costs this much more: 0 (errata: "ZOCs cost 0, not 1")."""


def _number(text: str) -> MP:
    f = Fraction(text.strip().lstrip("+"))
    return int(f) if f.denominator == 1 else f


@lru_cache(maxsize=4)
def _costs_for(store: DataStore | None) -> TerrainCosts:
    chart = load_tables(store)["terrain"]
    e = chart.entries  # type: ignore[union-attr]
    return TerrainCosts(
        hex_cost={t: _number(e[t]) for t in ("clear", "desert", ROUGH, PASS)},
        river=_number(e["river"]),
        lake=_number(e["lake"]),
        strait=_number(e["strait"]),
        road=_number(e["road"]),
        zoc=_number(e["zoc"]),
    )


def terrain_costs(store: DataStore | None = None) -> TerrainCosts:
    """The chart read from the game's data (or a variant's ``store``)."""
    return _costs_for(store)


# ---------------------------------------------------------------- hexsides and water


@lru_cache(maxsize=4)
def _islands(m: HexMap) -> dict[Hex, str]:
    """Island hexes by island (the Crimea is a peninsula, not an island: see the module doc)."""
    out: dict[Hex, str] = {}
    for h, name in m.hex_values.get("island", {}).items():
        if name == "Crimea":
            continue
        out[h] = name if name != "Aegean" else f"Aegean-{m.to_id(h)}"  # five separate islands
    return out


@lru_cache(maxsize=4)
def island_ids(m: HexMap) -> frozenset[str]:
    """The printed IDs of the island hexes of :func:`all_sea_hexside`: a hexside touching none
    of them is never all-sea."""
    return frozenset(m.to_id(h) for h in _islands(m))


def all_sea_hexside(m: HexMap, a: Hex, b: Hex) -> bool:
    """True if the side between land hexes ``a`` and ``b`` is water (an island's shore)."""
    isl = _islands(m)
    ia, ib = isl.get(a), isl.get(b)
    return (ia is not None or ib is not None) and ia != ib


def _common(m: HexMap, a: Hex, b: Hex) -> tuple[Hex, ...]:
    nb = set(m.neighbors(b))
    return tuple(n for n in m.neighbors(a) if n in nb)


def all_land_hexside(m: HexMap, a: Hex, b: Hex) -> bool:
    """True if the side between adjacent ``a`` and ``b`` touches no water (fleets may not cross it)."""
    if m.terrain(a) == SEA or m.terrain(b) == SEA:
        return False
    if "strait" in m.hexside_features(a, b) or all_sea_hexside(m, a, b):
        return False
    return not any(m.terrain(n) == SEA for n in _common(m, a, b))


def fleet_may_enter(m: HexMap, h: Hex) -> bool:
    """xen:naval: fleets enter only coastal and all-sea hexes."""
    return m.terrain(h) == SEA or bool(m.value(h, "coastal"))


def fleet_may_cross(m: HexMap, a: Hex, b: Hex) -> bool:
    """xen:naval: a fleet may step from ``a`` into adjacent ``b`` (both coastal or sea, a water side)."""
    return fleet_may_enter(m, a) and fleet_may_enter(m, b) and not all_land_hexside(m, a, b)


def land_step_cost(m: HexMap, costs: TerrainCosts, a: Hex, b: Hex) -> MP | None:
    """OP for a land force to step from ``a`` into adjacent ``b``; None if forbidden (xen:movement).

    The cost of the terrain entered plus the hexside; a road hexside costs 1/2
    whatever else is there (errata: roads negate other terrain, a road over a
    river is a bridge). Entering an EZOC adds ``costs.zoc`` (0) and is not
    priced here.
    """
    tb = m.terrain(b)
    if tb == SEA or m.terrain(a) == SEA or all_sea_hexside(m, a, b):
        return None  # xen:movement: no all-sea hexes or hexsides without naval transport
    feats = m.hexside_features(a, b)
    if "road" in feats:
        return costs.road
    if tb == PASS and m.terrain(a) == ROUGH:
        cost: MP = costs.hex_cost[ROUGH]  # ruling 9: 3 OP into a pass from the mountainside
    else:
        cost = costs.hex_cost[tb]
    if "river" in feats:
        cost += costs.river
    if "lake" in feats:
        cost += costs.lake
    if "strait" in feats:
        cost += costs.strait
    return cost


def naval_rate(m: HexMap, start: Hex, ports: Collection[Hex]) -> int:
    """xen:naval-transport: OP per sea or coastal hex, 1 if the force began in a port, else 2."""
    return 1 if start in ports else 2


def naval_step_cost(m: HexMap, rate: int, a: Hex, b: Hex) -> int | None:
    """OP for a naval force (fleets, perhaps carrying land units) to step from ``a`` into ``b``."""
    return rate if fleet_may_cross(m, a, b) else None


# ---------------------------------------------------------------- zones of control


def zoc_of(m: HexMap, h: Hex, fleet: bool) -> tuple[Hex, ...]:
    """The hexes a player-controlled unit in ``h`` exerts ZOC into (xen:zoc), before cities are shielded.

    Land units: not into all-sea hexes nor across all-sea hexsides. Fleets:
    not into all-land hexes nor across all-land hexsides.
    """
    return _zoc_of(m, h, fleet)


@lru_cache(maxsize=8192)
def _zoc_of(m: HexMap, h: Hex, fleet: bool) -> tuple[Hex, ...]:
    if fleet:
        return tuple(n for n in m.neighbors(h) if fleet_may_enter(m, n) and not all_land_hexside(m, h, n))
    if m.terrain(h) == SEA:
        return ()
    return tuple(n for n in m.neighbors(h) if m.terrain(n) != SEA and not all_sea_hexside(m, h, n))


def enemy_zoc(m: HexMap, sources: Iterable[tuple[Hex, bool]], shielded: Collection[Hex] = ()) -> frozenset[Hex]:
    """The EZOC hexes of ``sources``, ``(hex, is_fleet)`` of each enemy unit that has a ZOC (xen:zoc).

    Leave out neutral units and land units embarked on fleets (they have no
    ZOC). ``shielded``: Cities and Colonies held by the moving side or by
    neutrals, where "ZOCs never extend".
    """
    out: set[Hex] = set()
    for h, fleet in sources:
        out.update(zoc_of(m, h, fleet))
    return frozenset(out.difference(shielded))


# ---------------------------------------------------------------- reach (plans, bots, withdrawal checks)


def force_reach(
    m: HexMap,
    start: Hex,
    op: MP,
    *,
    rate: int | None = None,
    costs: TerrainCosts | None = None,
    ezoc: Collection[Hex] = frozenset(),
    blocked: Collection[Hex] = frozenset(),
    room: dict[Hex, int] | None = None,
    size: int = 1,
) -> Reach:
    """Every hex a force of ``size`` units with ``op`` OP can reach from ``start``.

    By land (``rate`` None: the chart's ``costs``) or by sea at ``rate`` OP a
    sea or coastal hex (xen:naval-transport). ``ezoc``: the land units' EZOC for
    a land force, the fleets' for a naval one (xen:naval). ``blocked``: hexes
    holding enemy or neutral units (xen:movement). ``room``: free stacking
    places per hex where fewer than 10 are free (xen:stacking); the force never
    enters a hex it would overstack. EZOC per :data:`ZOC`; a land
    force never crosses a strait straight into an EZOC.
    """
    chart = costs or terrain_costs()

    def cost(a: Hex, b: Hex) -> MP | None:
        return land_step_cost(m, chart, a, b) if rate is None else naval_step_cost(m, rate, a, b)

    def can_enter(a: Hex, b: Hex) -> bool:
        if b in blocked:
            return False
        if room is not None and room.get(b, STACK_LIMIT) < size:
            return False
        return rate is not None or not (b in ezoc and "strait" in m.hexside_features(a, b))

    return reachable(start, op, cost, ezoc=ezoc, zoc=ZOC, can_enter=can_enter, neighbors=m.graph)


# ---------------------------------------------------------------- stacking


def stack_room(count_in_hex: int, arriving: int) -> bool:
    """xen:stacking: may ``arriving`` units join a hex holding ``count_in_hex`` friendly units?"""
    return count_in_hex + arriving <= STACK_LIMIT
