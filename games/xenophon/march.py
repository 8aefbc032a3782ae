"""A force and its movement in the Operations phase: the steps it may take, the hexes it may
reach on its OP and the move options a player is offered (``xen:forces``, ``xen:movement``,
``xen:zoc``, ``xen:naval-transport``, ``xen:stacking``).

- :class:`Force`: a force conducting operations, its OP left and its state of movement
  (halted in an EZOC, Royal Road, the coastal march's OP given up);
- :func:`step_options`: the hexes it may step into now, one hex at a time, with their OP;
- :func:`destinations` / :func:`destination_options`: every hex it may reach on its OP left,
  by the cheapest path (the Terrain Effects Chart, :mod:`.movement`; a road hexside at 1/4 OP
  with Royal Road, a rebuilt chit), stopping on entering an EZOC (:mod:`.zoc`), each move's
  warnings before a mistake in its text (:mod:`.warnings`);
- :func:`neighbour_ids`: the map's neighbours in the order of the search (the bots' fields).

Under :mod:`.operations`, which rolls the OP, offers the action menu and conducts each force.
"""

from __future__ import annotations

import math
from fractions import Fraction
from heapq import heappop, heappush
from math import lcm
from typing import Any

import attrs

from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap
from ancients_kit.movement import MP
from ancients_kit.protocol import Option

from . import movement as mv
from .state import XenState
from .warnings import move_warning_lines, warning_text

__all__ = [
    "FORCE_LIMIT",
    "Force",
    "ROYAL_ROAD",
    "ROYAL_ROAD_COST",
    "destination_options",
    "destinations",
    "neighbour_ids",
    "step_options",
]

FORCE_LIMIT = mv.STACK_LIMIT
"""xen:forces, xen:stacking: a force is at most the ten units a hex may hold."""
ROYAL_ROAD = "Royal Road"
ROYAL_ROAD_COST = Fraction(1, 4)
"""Royal Road (a rebuilt chit, stratagems.toml): 1/4 OP a road hexside for a force moving only along roads."""

_FREE, _ZONE, _CLOSED = 0, 1, 2
"""What the search knows of a hex (:func:`_status`): free, in the enemy zone of control, never entered."""


# ---------------------------------------------------------------- the force and its steps


@attrs.define
class Force:
    """A force conducting operations (xen:forces)."""

    side: str
    units: list[str]
    hex: str
    start: str
    """Where its operations began (its naval rate, its leave-an-EZOC exception)."""
    op: MP
    naval: bool
    rate: int = 1
    """OP a hex by sea: 1 from a port, 2 otherwise (xen:naval-transport)."""
    halted: bool = False
    """It entered an EZOC by movement (xen:zoc): no more moves until that EZOC is gone."""
    halted_by_land: bool = False
    """The EZOC it stopped in is the land units' (a land force, or a coastal march)."""
    moved: bool = False
    royal_road: bool = False
    """Royal Road was played for it: road hexsides at 1/4 OP while it keeps to the road."""
    land_gap: int = 0
    """OP given up on its first coastal march by land: the fleets' OV minus the lowest OV of all its
    units (:func:`.naval.land_gap`; xen:operations, errata); 0 once paid."""
    marched: bool = False
    """Its last step was a march by land: its land units end ashore, not embarked (xen:zoc)."""
    visited: list[str] = attrs.field(factory=list)
    """The hexes it has stood in or passed through in these operations (a hint for bots)."""


def _blocked(state: XenState, side: str, hex_id: str) -> bool:
    occ = state.occupier(hex_id)
    return occ is not None and occ != side


def step_options(state: XenState, f: Force, ezoc: frozenset[str],
                 land_ezoc: frozenset[str] = frozenset()) -> list[Option]:
    """The hexes the force may step into now, with their OP (xen:movement, xen:zoc, xen:stacking).

    ``move:<hex>`` in the force's own way (by land, or by sea for a force with
    fleets); a force of fleets and land units may also ``march:<hex>`` by land
    from coast to coast, the fleets following the shore (errata), paying the
    land costs and feeling the land EZOC (``land_ezoc``).
    """
    if f.halted:
        return []
    m = state.map
    here = m.from_id(f.hex)
    costs = mv.terrain_costs()
    out: list[Option] = []
    marching = f.naval and any(not state.unit(u).fleet for u in f.units) and f.hex in state.data.coastal
    for n in m.neighbors(here):
        nid = m.to_id(n)
        if _blocked(state, f.side, nid):
            continue  # xen:movement: never into enemy or neutral units
        if not mv.stack_room(len(state.units_at(nid)), len(f.units)):
            continue  # xen:stacking
        if f.naval:
            ways = [("move", mv.naval_step_cost(m, f.rate, here, n), ezoc)]
            if marching and nid in state.data.coastal and mv.fleet_may_cross(m, here, n):
                ways.append(("march", mv.land_step_cost(m, costs, here, n), land_ezoc))
        else:
            ways = [("move", mv.land_step_cost(m, costs, here, n), ezoc)]
        for way, cost, zone in ways:
            by_land = way == "march" or not f.naval
            road = by_land and "road" in m.hexside_features(here, n)
            if road and f.royal_road and cost is not None:
                cost = ROYAL_ROAD_COST  # the Royal Road chit (stratagems.toml)
            if cost is None:
                continue
            into = nid in zone
            if into and f.hex in zone:
                continue  # xen:zoc: never straight from one EZOC to another
            if into:
                cost += costs.zoc  # errata: entering an EZOC costs 0 (the chart's value)
            if cost + (f.land_gap if way == "march" else 0) > f.op:
                continue  # a march is paid from the OP on the lowest OV of all units (naval.land_gap)
            if into and by_land and "strait" in m.hexside_features(here, n):
                continue  # xen:movement: a strait is not crossed straight into an EZOC
            note = ", EZOC: the force stops" if into else ""
            what = "move to" if way == "move" else "march along the coast to"
            gap = f" + {f.land_gap} OP for the land units' OV" if way == "march" and f.land_gap else ""
            out.append(Option(f"{way}:{nid}", f"{what} {nid} ({cost} OP{gap}{note})", data=(cost, into, road)))
    return out


# ---------------------------------------------------------------- the search: every hex the force may reach


_EDGES: dict[tuple[int, int], tuple[HexMap, Any, Any]] = {}
"""_edges by the map and chart they were built from (kept alive with them, so ids stay theirs)."""


def _edges(m: HexMap, costs: Any) -> tuple[int, dict[str, tuple[tuple[str, int | None, bool, bool, bool], ...]]]:
    """:func:`_build_edges`, built once per map and terrain chart."""
    key = (id(m), id(costs))
    got = _EDGES.get(key)
    if got is None:
        if len(_EDGES) > 8:
            _EDGES.clear()
        got = _EDGES[key] = (m, costs, _build_edges(m, costs))
    return got[2]  # type: ignore[no-any-return]


def _build_edges(m: HexMap, costs: Any) -> tuple[int, dict[str, tuple[tuple[str, int | None, bool, bool, bool], ...]]]:
    """The map's steps, which depend on the map alone: for each hex, its neighbours with the land
    step's cost (None: no land step), whether a road or a strait crosses the hexside, and
    whether a fleet may cross it (xen:movement, xen:naval). Costs are whole numbers of
    ``1/scale`` OP, the scale (the first item) making every cost of the chart and the Royal
    Road whole, so the search adds integers, not fractions."""
    values = [Fraction(ROYAL_ROAD_COST), Fraction(costs.road), Fraction(costs.zoc), Fraction(costs.river),
              Fraction(costs.lake), *(Fraction(v) for v in costs.hex_cost.values())]
    scale = lcm(*(v.denominator for v in values))
    out: dict[str, tuple[tuple[str, int | None, bool, bool, bool], ...]] = {}
    crossed: dict[tuple[Hex, Hex], bool] = {}  # fleet_may_cross is the same both ways across a hexside
    for h in m.hexes():
        row = []
        for n in m.neighbors(h):
            land = mv.land_step_cost(m, costs, h, n)
            feats = m.hexside_features(h, n)
            fleet = crossed.pop((n, h), None)
            if fleet is None:
                fleet = crossed[h, n] = mv.fleet_may_cross(m, h, n)
            row.append((m.to_id(n), None if land is None else int(land * scale),
                        "road" in feats, "strait" in feats, fleet))
        out[m.to_id(h)] = tuple(row)
    return scale, out


def destinations(state: XenState, f: Force, ezoc: frozenset[str]) -> dict[str, tuple[MP, bool, bool, tuple[str, ...]]]:
    """Every hex the force may reach in its own way with the OP it has, by the cheapest path:
    ``hex -> (cost, ends in an EZOC, Royal Road rate still held, path)`` (the path's hexes after
    the start, the destination last).

    Nothing on the way interrupts a move (no window opens, no roll is made between two hexes),
    so a walk of several hexes is one answer; the walk stops by itself where a rule does: an
    enemy zone of control entered ends it (xen:zoc). Step by step, the force could reach
    exactly these hexes: every step obeys the rules of :func:`step_options` (enemy and
    neutral units, the stacking limit in every hex passed through, EZOC to EZOC, straits,
    the Royal Road rate while on the road); a test compares the two on played positions."""
    scale, found = _reach(state, f, ezoc)
    return {h: (_op(c, scale), z, r, p) for h, (c, z, r, p) in found.items()}


def _op(c: int, scale: int) -> MP:
    """``c`` of ``1/scale`` OP as OP: a whole number when it is one, else a fraction."""
    return Fraction(c, scale) if c % scale else c // scale


@attrs.frozen
class _Graph:
    """The map's steps of :func:`_edges` by hex number, for the search of :func:`_reach`: the
    hexes numbered in the order of their IDs (so a number sorts as its ID does)."""

    scale: int
    """Costs are whole numbers of ``1/scale`` OP (:func:`_build_edges`)."""
    ids: tuple[str, ...]
    """Hex number -> hex ID, in the order of the IDs."""
    index: dict[str, int]
    """Hex ID -> its number."""
    land: tuple[tuple[tuple[int, int, bool], ...], ...]
    """Hex number -> its land steps: (neighbour, cost, a strait crossed)."""
    road: tuple[frozenset[int], ...]
    """Hex number -> the neighbours it reaches across a road hexside."""
    sea: tuple[tuple[int, ...], ...]
    """Hex number -> the neighbours a fleet may step into."""
    positive: bool
    """Every land step costs something (the chart's costs do): a search may then take the
    hexes cost by cost (:func:`_reach_by_cost`)."""
    by_sea: dict[int, tuple[tuple[tuple[int, int, bool], ...], ...]] = attrs.field(factory=dict)
    """Naval rate -> :attr:`sea` as steps of :attr:`land`'s shape (built when first asked)."""

    def sea_steps(self, rate: int) -> tuple[tuple[tuple[int, int, bool], ...], ...]:
        got = self.by_sea.get(rate)
        if got is None:
            cost = rate * self.scale
            got = self.by_sea[rate] = tuple(tuple((j, cost, False) for j in row) for row in self.sea)
        return got


_GRAPHS: dict[tuple[int, int], tuple[HexMap, Any, _Graph]] = {}
"""_graph by the map and chart it was built from (kept alive with them, so ids stay theirs)."""


def _graph(m: HexMap, costs: Any) -> _Graph:
    """:func:`_edges` numbered for the search, built once per map and terrain chart."""
    key = (id(m), id(costs))
    got = _GRAPHS.get(key)
    if got is None:
        if len(_GRAPHS) > 8:
            _GRAPHS.clear()
        scale, edges = _edges(m, costs)
        ids = tuple(sorted(edges))
        index = {h: i for i, h in enumerate(ids)}
        land = tuple(tuple((index[n], c, strait) for n, c, _, strait, _ in edges[h] if c is not None) for h in ids)
        road = tuple(frozenset(index[n] for n, c, road, _, _ in edges[h] if c is not None and road) for h in ids)
        sea = tuple(tuple(index[n] for n, _, _, _, fleet_ok in edges[h] if fleet_ok) for h in ids)
        positive = all(c >= 1 for row in land for _, c, _ in row)
        got = _GRAPHS[key] = (m, costs, _Graph(scale, ids, index, land, road, sea, positive))
    return got[2]


_Found = dict[str, tuple[int, bool, bool, tuple[str, ...]]]
"""Hex ID -> (cost in whole ``1/scale`` OP, ends in an EZOC, Royal Road rate still held, path)."""


def _reach(state: XenState, f: Force, ezoc: frozenset[str]) -> tuple[int, _Found]:
    """:func:`destinations` with the costs in whole ``1/scale`` OP, and the scale.

    A Dijkstra search from the force's hex, the states taken cheapest first and, at equal
    cost, in the order of their hex IDs (:func:`_reach_by_cost`; :func:`_reach_by_heap`
    while the Royal Road rate is held); each hex's path is its predecessor's plus itself.
    The hexes come nearest first, then by ID, as :func:`destination_options` lists them: in
    that order they are found when every step costs something, else they are sorted."""
    costs = mv.terrain_costs()
    g = _graph(state.map, costs)
    scale = g.scale
    if f.halted or not mv.stack_room(0, len(f.units)):
        return scale, {}  # xen:zoc: a halted force moves no more; xen:stacking: no hex has room
    start = g.index[f.hex]
    in_zone = f.hex in ezoc
    status = _status(state, f, ezoc, g)
    budget = math.floor(f.op * scale)  # whole costs: total > op*scale exactly when total > its floor
    zoc_cost = int(Fraction(costs.zoc) * scale)
    royal = f.royal_road and not f.naval  # by sea no hexside is a road (the rate is for land moves)
    steps = g.sea_steps(f.rate) if f.naval else g.land
    positive = (f.rate >= 1 if f.naval else g.positive) and zoc_cost >= 0  # every step costs 1/scale OP or more
    if positive and not royal:
        return scale, _reach_by_cost(g, steps, start, in_zone, status, budget, zoc_cost)
    found = _reach_by_heap(g, steps, start, royal, in_zone, status, budget, zoc_cost)
    return scale, found if positive else dict(sorted(found.items(), key=_nearest))


def _status(state: XenState, f: Force, ezoc: frozenset[str], g: _Graph) -> bytearray:
    """What the search must know of each hex, by number: ``_CLOSED`` where the force never
    enters (enemy or neutral units, no room for it: xen:movement, xen:stacking; its own hex,
    which the walk never comes back to), ``_ZONE`` in the enemy zone of control ``ezoc``
    (xen:zoc), else ``_FREE``."""
    index = g.index
    status = bytearray(len(g.ids))
    for h in ezoc:
        i = index.get(h)
        if i is not None:
            status[i] = _ZONE
    units, size, side, ids_at = state.units, len(f.units), f.side, state.ids_at
    for h in state.occupied():
        there = ids_at(h)
        if units[there[0]].side != side or not mv.stack_room(len(there), size):
            status[index[h]] = _CLOSED
    status[index[f.hex]] = _CLOSED
    return status


def _reach_by_cost(g: _Graph, steps: Any, start: int, in_zone: bool, status: bytearray, budget: int,
                   zoc_cost: int) -> _Found:
    """:func:`_reach` by a list of hexes for each whole cost (every step costs 1 or more,
    :attr:`_Graph.positive`): a cost's list is complete when it is reached, and taken in the
    order of the hex numbers, so the hexes come in the order a heap of (cost, hex ID) gives."""
    ids = g.ids
    over = budget + 1
    best = [over] * len(ids)
    best[start] = 0
    came: dict[int, int] = {}
    paths: dict[int, tuple[str, ...]] = {start: ()}
    found: _Found = {}
    by_cost: list[list[int]] = [[] for _ in range(over)]
    if by_cost:
        by_cost[0].append(start)
    for spent, hexes in enumerate(by_cost):
        if not hexes:
            continue
        hexes.sort()
        for i in hexes:
            if best[i] != spent:
                continue  # reached more cheaply since
            if i != start:
                hid = ids[i]
                in_zone = status[i] == _ZONE
                path = paths[i] = paths[came[i]] + (hid,)
                found[hid] = (spent, in_zone, False, path)
                if in_zone:
                    continue  # xen:zoc: the force stops on entering an enemy zone of control
            for j, cost, strait in steps[i]:
                st = status[j]
                if st:
                    if st == _CLOSED:
                        continue  # xen:movement: never into enemy or neutral units; xen:stacking
                    if in_zone or strait:
                        continue  # xen:zoc: never straight from one EZOC to another, nor across a strait into one
                    cost += zoc_cost
                total = spent + cost
                if total < best[j]:  # never more than the budget: best starts above it
                    best[j] = total
                    came[j] = i
                    by_cost[total].append(j)
    return found


def _reach_by_heap(g: _Graph, steps: Any, start: int, royal: bool, start_in_zone: bool, status: bytearray,
                   budget: int, zoc_cost: int) -> _Found:
    """:func:`_reach` by a heap, over (hex, Royal Road rate held): the Royal Road chit
    (stratagems.toml) gives road hexsides at 1/4 OP while the force keeps to the road. A
    state is its hex's number times 2 plus 1 while the rate is held, a heap entry ``total *
    2N + state``, so entries come off in the order of (cost, hex ID, rate held); at equal
    cost the rate held wins."""
    ids, roads = g.ids, g.road
    rate = int(ROYAL_ROAD_COST * g.scale)
    over = budget + 1
    span = 2 * len(ids)
    origin = 2 * start + (1 if royal else 0)
    best = {origin: 0}
    came: dict[int, int] = {}
    paths: dict[int, tuple[str, ...]] = {origin: ()}
    found: _Found = {}
    heap = [origin]
    while heap:
        spent, k = divmod(heappop(heap), span)
        if best[k] != spent:
            continue  # reached more cheaply since
        i, rr = k >> 1, k & 1
        in_zone = start_in_zone
        if k != origin:
            hid = ids[i]
            in_zone = status[i] == _ZONE
            path = paths[k] = paths[came[k]] + (hid,)
            got = found.get(hid)
            if got is None:
                found[hid] = (spent, in_zone, bool(rr), path)
            elif rr and not got[2] and got[0] == spent:
                found[hid] = (got[0], got[1], True, got[3])
            if in_zone:
                continue  # xen:zoc: the force stops on entering an enemy zone of control
        road = roads[i] if rr else ()
        for j, cost, strait in steps[i]:
            st = status[j]
            if st == _CLOSED:
                continue  # xen:movement: never into enemy or neutral units; xen:stacking
            held = j in road
            if held:
                cost = rate
            if st == _ZONE:
                if in_zone or strait:
                    continue  # xen:zoc: never straight from one EZOC to another, nor across a strait into one
                cost += zoc_cost
            total = spent + cost
            key = 2 * j + held
            if total < best.get(key, over):
                best[key] = total
                came[key] = k
                heappush(heap, total * span + key)
    return found


# ---------------------------------------------------------------- the move options


def destination_options(state: XenState, f: Force, ezoc: frozenset[str],
                        land_ezoc: frozenset[str] = frozenset()) -> list[Option]:
    """The force's moves, one option a destination (``move:<hex>``, path and cost in the text,
    nearest first), and for a force of fleets and land units the coastal marches of one hex
    (``march:<hex>``, :func:`step_options`)."""
    out: list[Option] = []
    scale, found = _reach(state, f, ezoc)
    reach = found.items()  # nearest first, then by name (_reach)
    warned = move_warning_lines(state, f.side, f.units, found)
    if len(_WARNED) > 20000:
        _WARNED.clear()
    ends = _WARNED
    costs = _cost_texts(scale)
    append = out.append
    for dest, (whole, into, rr, path) in reach:
        got = costs.get(whole)
        if got is None:
            cost = _op(whole, scale)
            got = costs[whole] = (cost, f"{cost} OP", f"{cost} OP, EZOC: the force stops")
        lines = warned.get(dest)
        if lines:
            end = ends.get(lines)
            if end is None:
                end = ends[lines] = warning_text(list(lines))
        else:
            end = ""
        paid = got[2] if into else got[1]
        if len(path) > 1:
            label = f"move to {dest} by {', '.join(path[:-1])} ({paid}{end})"
        else:
            label = f"move to {dest} ({paid}{end})"
        append(Option(f"move:{dest}", label, (got[0], into, rr, path)))
    if f.naval:  # only a force of fleets and land units marches along the coast (step_options)
        out += [o for o in step_options(state, f, ezoc, land_ezoc) if o.key.startswith("march:")]
    return out


def _nearest(item: tuple[str, tuple[int, bool, bool, tuple[str, ...]]]) -> tuple[int, str]:
    """Destinations nearest first, then by name."""
    return item[1][0], item[0]


_COST_TEXTS: dict[int, dict[int, tuple[MP, str, str]]] = {}
"""Whole ``1/scale`` OP -> (the OP, as a move's text gives it, and with its EZOC note), by scale."""


def _cost_texts(scale: int) -> dict[int, tuple[MP, str, str]]:
    return _COST_TEXTS.setdefault(scale, {})


_WARNED: dict[tuple[str, ...], str] = {}
""":func:`.warnings.warning_text` by the warnings it is given (the same lines recur move after move)."""


_NEIGHBOURS: dict[int, tuple[HexMap, dict[str, tuple[str, ...]]]] = {}
"""Each map's hexes -> their neighbours' IDs, in the order of :func:`_edges` (the map kept alive)."""


def neighbour_ids(m: HexMap) -> dict[str, tuple[str, ...]]:
    """The map's hexes -> their neighbours' IDs, in the order of the search's steps (built once a map)."""
    got = _NEIGHBOURS.get(id(m))
    if got is None or got[0] is not m:
        _, edges = _edges(m, mv.terrain_costs())
        got = _NEIGHBOURS[id(m)] = (m, {h: tuple(n for n, *_ in row) for h, row in edges.items()})
    return got[1]
