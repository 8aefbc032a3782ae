"""The Operations phase, force by force: OP, moves, attacks, pillage, colonies, forced march, reaction.

Rules served (each cited where it is applied):

- ``xen:forces``: a force is a group of units of one hex conducting
  operations together, chosen unit by unit (:func:`ancients_kit.choice.choose_group`),
  at most ten (xen:stacking); several forces may share a hex;
- ``xen:operations``: the phasing player conducts operations with each of
  his forces in turn; a force's OP = the OV of its lowest-OV unit + 1d6, the
  die doubled with a leader and tripled with Xenophon
  (:func:`.leaders.op_multiplier`, xen:leaders, xen:xenophon); with fleets the
  fleets' OV for naval transport (xen:naval-transport), a coastal march by
  land giving up the difference to the lowest OV of all its units
  (:func:`.naval.land_gap`); OP are spent in any order on moves (the
  Terrain Effects Chart, :mod:`.movement`), attacks (2), pillage (2) and
  colonies (4), never kept nor passed on; a unit conducts operations once a
  phase (a unit dropped off conducts no more);
- ``xen:movement``: hex by hex; a force may drop units off (they conduct no
  further operations) but never pick any up; never into enemy or neutral
  units; entering a neutral satrapy does not violate it;
- ``xen:zoc``: stop on entering an EZOC (and go on only once the units
  exerting it are gone); a force that began its operations in an EZOC may
  leave, never straight into another; no pillage or colony in EZOC;
- ``xen:combat``: attacking is voluntary, 2 OP, one adjacent hex, the whole
  force, only where the force could move; the battle is :func:`.combat.battle`;
  an attack on a neutral satrapy's units gives the satrapy to the other
  player (xen:control); a force that retreats keeps its OP left (xen:retreats);
- ``xen:forced-march``: a Forced March chit lets a force (of units that have
  conducted operations, perhaps reorganised in their hex) conduct operations
  again, after the loss roll (1-3: one unit of the force eliminated);
- ``xen:opt.reaction`` (optional rule): after each phasing force's
  operations the non-phasing player may play a Forced March chit and conduct
  operations with one force of his own, without the loss roll; a unit
  reacts once a turn.

The stratagem windows of :mod:`.stratagems` open here: ``operations``
before each force (Forced March text A, Royal Road), ``reaction`` after each
(Forced March text B, Scorched Earth); every die goes through
:func:`.chits.roll` (Consult Oracles).

Decisions are bounded and their keys stable: ``ops.force`` (``force:<hex>``,
``end``), ``ops.forced-march-force`` and ``ops.reaction-force``
(``force:<hex>``), ``ops.force-units`` (:func:`~ancients_kit.choice.choose_group`),
``ops.action`` for a force (``move:<hex>``, ``march:<hex>``, ``attack:<hex>``,
``pillage``, ``colonise``, ``drop:<unit>``, ``stop``). A typed answer not on
offer is refused in one line naming the rule. :func:`score` gives the greedy
bot a cheap value for each (``bot.py`` routes ``ops.*`` here); it reads only
what the asked side may see.
"""

from __future__ import annotations

import math
import re
from collections.abc import Generator, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import attrs

from ancients_kit.choice import choose_group
from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap
from ancients_kit.movement import MP, distances_from
from ancients_kit.session import Context, Decision, Option

from . import movement as mv
from . import chits, naval, negotiations, pillage, stratagems
from .state import NEUTRAL, Unit, XenState, other_side, type_name, unit_value
from .zoc import ezoc_of, zone_exerted

__all__ = [
    "ATTACK_OP",
    "FORCE_LIMIT",
    "Force",
    "can_form",
    "conduct",
    "force_options",
    "op_total",
    "operations_phase",
    "ops_points",
    "score",
    "step_options",
]

ATTACK_OP = 2
"""xen:operations: each attack (battle) costs 2 OP."""
FORCE_LIMIT = mv.STACK_LIMIT
"""xen:forces, xen:stacking: a force is at most the ten units a hex may hold."""
FORCED_MARCH = "Forced March"
ROYAL_ROAD = "Royal Road"
ROYAL_ROAD_COST = Fraction(1, 4)
"""Royal Road (a rebuilt chit, stratagems.toml): 1/4 OP a road hexside for a force moving only along roads."""
RULE = "xen:operations"


# ---------------------------------------------------------------- OP arithmetic


def op_total(lowest_ov: int, roll: int, multiplier: int) -> int:
    """xen:operations: lowest OV + the d6, the die doubled with a leader, tripled with Xenophon."""
    if not 1 <= roll <= 6:
        raise ValueError(f"the OP die is 1-6, not {roll} (xen:operations)")
    if multiplier not in (1, 2, 3):
        raise ValueError(f"the OP die is multiplied by 1, 2 or 3, not {multiplier} (xen:operations, xen:leaders)")
    return lowest_ov + roll * multiplier


def _multiplier(state: XenState, force: Sequence[str]) -> int:
    from .leaders import op_multiplier  # xen-combat's: 1, 2 with a leader, 3 with Xenophon

    return int(op_multiplier(state, list(force)))


def ops_points(ctx: Context, state: XenState, force: Sequence[str]) -> Generator[Decision, Any, int]:
    """Roll a force's OP (xen:operations; xen:leaders, xen:xenophon, xen:naval-transport as they apply).

    The die goes through :func:`.chits.roll` (Consult Oracles may reroll it)."""
    units = [state.unit(u) for u in force]
    ov = naval.naval_ov(units)
    k = _multiplier(state, force)
    rules: tuple[str, ...] = (RULE,)
    if k >= 2:
        rules += ("xen:leaders",) + (("xen:xenophon",) if k == 3 else ())
    if naval.is_naval(units) and any(not u.fleet for u in units):
        rules += ("xen:naval-transport",)
    roll = yield from chits.roll(ctx, state, f"OP of the force in {units[0].hex}", rules)
    total = op_total(ov, roll, k)
    times = "" if k == 1 else f" x{k}"
    ctx.event("op", f"{units[0].side}: the force of {', '.join(force)} in {units[0].hex} has {ov} + {roll}{times} "
                    f"= {total} OP", rules, side=units[0].side, force=list(force), op=total)
    return total


# ---------------------------------------------------------------- zones, rooms, steps


@lru_cache(maxsize=4)
def _hexes(m: HexMap) -> dict[str, Hex]:
    return {m.to_id(h): h for h in m.hexes()}


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
    from math import lcm

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


_FREE, _ZONE, _CLOSED = 0, 1, 2
"""What the search knows of a hex (:func:`_status`): free, in the enemy zone of control, never entered."""

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
    from heapq import heappop, heappush

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


_RULE_IN_PARENS = re.compile(r"\((xen:[a-z0-9.-]+(?:, xen:[a-z0-9.-]+)*)\)")


def _warned(found: list[str]) -> str:
    """The warnings of a move (issue 23, item 5) as the end of its text, each naming its rule
    in square brackets, where a player's table shows rule IDs."""
    return "".join("; WARNING: " + _RULE_IN_PARENS.sub(r"[\1]", w) for w in found)


def destination_options(state: XenState, f: Force, ezoc: frozenset[str],
                        land_ezoc: frozenset[str] = frozenset()) -> list[Option]:
    """The force's moves, one option a destination (``move:<hex>``, path and cost in the text,
    nearest first), and for a force of fleets and land units the coastal marches of one hex
    (``march:<hex>``, :func:`step_options`)."""
    from .warnings import move_warning_lines

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
                end = ends[lines] = _warned(list(lines))
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
""":func:`_warned` by the warnings it is given (the same lines recur move after move)."""


def _attack_options(state: XenState, f: Force) -> list[Option]:
    from .warnings import city_retreat_warning

    if f.op < ATTACK_OP:
        return []
    # xen:negotiations: an agreement not to initiate combat may be broken ("If broken, the violator rolls
    # 1d6 and loses that many Chits"): the attack stays on offer, its text warns, the battle's window
    # applies the penalty (negotiations.attack_declared; docs, Rulings: operations 9)
    agreed = negotiations.may_attack(state, f.side)
    warn = f"; this BREAKS the agreement: {agreed}" if agreed is not None else ""
    m = state.map
    out = []
    for nid in state.neighbours(f.hex):
        occ = state.occupier(nid)
        if occ is None or occ == f.side:
            continue
        if not naval.may_attack(m, f.naval, f.hex, nid):
            continue
        what = "neutral" if occ == NEUTRAL else "enemy"
        city = city_retreat_warning(state, f.side, nid)
        held = _warned([city]) if city else ""
        out.append(Option(f"attack:{nid}", f"attack the {what} units in {nid} ({ATTACK_OP} OP{warn}{held})"))
    return out


def _drop_options(state: XenState, f: Force) -> list[Option]:
    if len(f.units) < 2:
        return []
    sea = state.data.terrain.get(f.hex) == "sea"
    units = [state.unit(u) for u in f.units]
    out = []
    for u in units:
        rest = [x for x in units if x is not u]
        if not u.fleet and sea:
            continue  # xen:naval-transport: land units disembark only on a coast or port
        if naval.capacity_refusal(rest, f.hex, state) is not None:
            continue  # a fleet is dropped only if the others can carry its passengers (_refit moves them)
        out.append(Option(f"drop:{u.id}", f"drop off {u.id} ({type_name(u.type)}) in {f.hex}"))
    return out


def _may_land(state: XenState, f: Force) -> bool:
    """A force carried by its fleets stands on a coast (not a sea hex): its land units may land."""
    return (f.naval and not f.marched and state.data.terrain.get(f.hex) != "sea"
            and any(not state.unit(u).fleet for u in f.units))


def force_options(state: XenState, f: Force, ezoc: frozenset[str],
                  land_ezoc: frozenset[str] = frozenset()) -> list[Option]:
    """Everything the force may do now; ``stop`` first."""
    if _may_land(state, f):  # naval transport ends on a coast: ashore unless they stay aboard (issue 23)
        opts = [Option("stop", f"end the operations of this force, its land units come ashore in {f.hex} "
                               f"({f.op} OP left are lost)"),
                Option("stop:aboard", f"end the operations of this force, its land units stay aboard "
                                      f"({f.op} OP left are lost)")]
    else:
        opts = [Option("stop", f"end the operations of this force ({f.op} OP left are lost)")]
    opts += destination_options(state, f, ezoc, land_ezoc)
    opts += _attack_options(state, f)
    in_ezoc = f.hex in ezoc or f.hex in land_ezoc  # xen:zoc: "may not pillage or colonize if in EZOC", any EZOC
    counted = pillage.pillage_count(state.unit(u).type for u in f.units)
    if f.op >= pillage.PILLAGE_OP and counted and pillage.pillage_refusal(state, f.hex, in_ezoc, f.naval) is None:
        opts.append(Option("pillage", f"pillage {f.hex} ({pillage.PILLAGE_OP} OP)"))
    if f.op >= pillage.COLONISE_OP and pillage.colonise_refusal(state, f.hex, in_ezoc) is None:
        clear = state.data.terrain.get(f.hex) == "clear"
        pts = pillage.colonisation_points((state.unit(u).type for u in f.units), clear)
        if pts >= 1:
            opts.append(Option("colonise", f"colonise {f.hex} ({pillage.COLONISE_OP} OP, {pts} points)"))
    opts += _drop_options(state, f)
    return opts


# ---------------------------------------------------------------- one force


def _done(state: XenState) -> set[str]:
    key = f"ops:done:{state.turn}:{state.player_turn}"
    for k in [k for k in state.effects if k.startswith("ops:done:") and k != key]:
        del state.effects[k]
    return state.effects.setdefault(key, set())  # type: ignore[no-any-return]


def _reacted(state: XenState) -> set[str]:
    key = f"ops:reacted:{state.turn}"
    for k in [k for k in state.effects if k.startswith("ops:reacted:") and k != key]:
        del state.effects[k]
    return state.effects.setdefault(key, set())  # type: ignore[no-any-return]


def _alive(state: XenState, f: Force) -> None:
    """Drop from the force the units no longer on the map; follow a retreat (xen:retreats)."""
    units = [state.unit(u) for u in f.units]
    live = [u for u in units if u.on_map]
    if live:
        f.hex = str(live[0].hex)
    apart = [u for u in live if u.hex != f.hex]
    if apart:  # scattered by a retreat: those elsewhere conduct no further operations
        _done(state).update(u.id for u in apart)
    f.units = [u.id for u in live if u.hex == f.hex]


def _refusal(state: XenState, f: Force, ezoc: frozenset[str], land_ezoc: frozenset[str]) -> Any:
    """Why an action typed by a player is not on offer: one line naming the rule."""

    def refuse(text: str) -> tuple[str, str] | None:
        t = text.strip().lower()
        what, _, arg = t.partition(":")
        if what in ("move", "march", "attack"):
            if arg not in state.data.neighbours:
                return f"{text.strip()!r}: no hex {arg!r} on the map", "xen:movement"
            if arg not in state.neighbours(f.hex):
                return f"{text.strip()!r}: {arg} is not adjacent to {f.hex}", "xen:movement"
            occ = state.occupier(arg)
            if what == "attack":
                if occ is None or occ == f.side:
                    return f"{text.strip()!r}: no enemy or neutral units in {arg}", "xen:combat"
                if f.op < ATTACK_OP:
                    return f"{text.strip()!r}: an attack costs {ATTACK_OP} OP, {f.op} left", "xen:operations"
                return f"{text.strip()!r}: the force could not move there, so it may not attack there", "xen:combat"
            if f.halted:
                return f"{text.strip()!r}: the force entered an enemy zone of control and must stop", "xen:zoc"
            if occ is not None and occ != f.side:
                return f"{text.strip()!r}: {occ} units in {arg}; a force never enters them", "xen:movement"
            if not mv.stack_room(len(state.units_at(arg)), len(f.units)):
                return f"{text.strip()!r}: {arg} would hold more than {mv.STACK_LIMIT} units", "xen:stacking"
            zone = land_ezoc if what == "march" else ezoc
            if f.hex in zone and arg in zone:
                return f"{text.strip()!r}: never straight from one enemy zone of control to another", "xen:zoc"
            if what == "march" and not f.naval:
                return f"{text.strip()!r}: only a force of fleets and land units marches along the coast", "xen:errata"
            return (f"{text.strip()!r}: the force may not enter {arg} ({state.data.terrain.get(arg)}), or the cost is "
                    f"more than its {f.op} OP", "xen:naval" if f.naval else "xen:movement")
        if t == "pillage":
            why = pillage.pillage_refusal(state, f.hex, f.hex in ezoc or f.hex in land_ezoc, f.naval)
            return (why, "xen:pillage") if why else (f"'pillage': costs {pillage.PILLAGE_OP} OP", "xen:pillage")
        if t == "colonise":
            why = pillage.colonise_refusal(state, f.hex, f.hex in ezoc or f.hex in land_ezoc)
            return ((why, "xen:colonisation") if why
                    else (f"'colonise': costs {pillage.COLONISE_OP} OP and colonisation points", "xen:colonisation"))
        return None

    return refuse


def _refit(ctx: Context, state: XenState, f: Force) -> Generator[Decision, Any, None]:
    """After fleets are lost or dropped: the land units aboard go on the fleets left, 3 a fleet;
    those with no room are left ashore on a coast, and at sea go down with their fleets
    (xen:naval-transport; the Disband Table's "units aboard" share their fleet's fate), a
    leader by the leader rules (xen:leaders; :func:`.leaders.eliminate_units`)."""
    if not f.naval:
        return
    units = [state.unit(u) for u in f.units]
    fleets = [u for u in units if u.fleet]
    land = [u for u in units if not u.fleet]
    extra = land[naval.CAPACITY * len(fleets):]
    if extra:
        sea = state.data.terrain.get(f.hex) == "sea"
        for u in extra:
            f.units.remove(u.id)
            if not sea:
                u.embarked = None
                _done(state).add(u.id)
        what = "lost at sea with their fleets" if sea else "left ashore"
        ids = [u.id for u in extra]
        if sea:
            from .leaders import eliminate_units

            def announce(plain: list[str]) -> None:
                ctx.event("eliminated", f"{f.side}: {', '.join(plain)}: no room aboard, {what} in {f.hex}",
                          ("xen:naval-transport",), side=f.side, units=plain)

            yield from eliminate_units(ctx, state, ids, f"no room aboard, {what} in {f.hex}",
                                       ("xen:naval-transport",), announce=announce)
        else:
            ctx.event("drop", f"{f.side}: {', '.join(ids)}: no room aboard, {what} in {f.hex}",
                      ("xen:naval-transport",), side=f.side, units=ids)
    f.naval = bool(fleets)
    if f.naval:
        naval.embark(state, [state.unit(u) for u in f.units])


def conduct(ctx: Context, state: XenState, f: Force) -> Generator[Decision, Any, None]:
    """Conduct one force's operations until its OP are spent or its owner stops (xen:operations)."""
    side = f.side
    if f.naval:
        naval.embark(state, [state.unit(u) for u in f.units])
    else:
        for u in f.units:
            state.unit(u).embarked = None
    aboard = False
    while f.units:
        ezoc = ezoc_of(state, side, f.naval)
        land_ezoc = ezoc_of(state, side, False) if f.naval else ezoc
        if f.halted and not zone_exerted(state, side, f.naval and not f.halted_by_land, f.hex):
            f.halted = False  # xen:zoc: the units exerting it are gone
        opts = force_options(state, f, ezoc, land_ezoc)
        key = yield Decision(side, f"the force of {', '.join(f.units)} in {f.hex} has {f.op} OP: what next?",
                             tuple(opts), rule=RULE, kind="ops.action", refuse=_refusal(state, f, ezoc, land_ezoc),
                             context={"highlight": (f.hex,), "force": tuple(f.units),
                                      "visited": (f.hex, *f.visited)})
        if key in ("stop", "stop:aboard"):
            aboard = key == "stop:aboard"
            break
        if key.startswith(("move:", "march:")):
            dest = key.split(":", 1)[1]
            data = next(o.data for o in opts if o.key == key)
            cost, stop = data[0], data[1]
            path: tuple[str, ...] = data[3] if key.startswith("move:") else (dest,)
            still = data[2]  # a move: the Royal Road rate held to the end; a march: by road
            if not still:
                f.royal_road = False  # it left the road: the chit's rate ends
            by_sea = f.naval and key.startswith("move:")
            gap = 0 if by_sea else f.land_gap
            f.op -= cost + gap
            f.land_gap = 0 if not by_sea else f.land_gap
            f.marched = f.naval and not by_sea
            for u in f.units:
                state.place(u, dest)
            rules = ("xen:movement",) + (("xen:naval", "xen:naval-transport") if by_sea else ())
            if f.naval and not by_sea:
                rules += ("xen:errata", "xen:naval") + (("xen:operations",) if gap else ())
            if stop:
                f.halted, f.halted_by_land = True, not by_sea
                rules += ("xen:zoc",)
            f.visited += (f.hex, *path)
            f.hex, f.moved = dest, True
            paid = f"{cost} OP" + (f" and {gap} OP (its land units' lower OV)" if gap else "")
            by = f" by {', '.join(path[:-1])}" if len(path) > 1 else ""
            ctx.event("move", f"{side}: the force moves to {dest}{by} for {paid} ({f.op} left)"
                      + ("; it enters an enemy zone of control and stops" if stop else ""), rules,
                      side=side, force=list(f.units), hex=dest, path=list(path))
        elif key.startswith("attack:"):
            yield from _attack(ctx, state, f, key.split(":", 1)[1])
        elif key == "pillage":
            f.op -= pillage.PILLAGE_OP
            yield from pillage.pillage(ctx, state, side, list(f.units), f.hex)
        elif key == "colonise":
            f.op -= pillage.COLONISE_OP
            _, removed = yield from pillage.colonise(ctx, state, side, list(f.units), f.hex)
            if removed in f.units:
                f.units.remove(removed)
        elif key.startswith("drop:"):
            uid = key.split(":", 1)[1]
            f.units.remove(uid)
            u = state.unit(uid)
            if not u.fleet:
                u.embarked = None
            _done(state).add(uid)
            ctx.event("drop", f"{side}: {uid} is dropped off in {f.hex} and conducts no further operations",
                      ("xen:movement", "xen:forces"), side=side, unit=uid, hex=f.hex)
        _alive(state, f)
        yield from _refit(ctx, state, f)
    ashore = not aboard and f.units and _may_land(state, f)
    if not f.naval or f.marched or ashore:
        for u in f.units:  # xen:zoc: after a land march its land units are ashore, with their ZOC
            state.unit(u).embarked = None
    if ashore:
        land = [u for u in f.units if not state.unit(u).fleet]
        ctx.event("ashore", f"{side}: {', '.join(land)} come ashore in {f.hex}", ("xen:naval-transport",),
                  side=side, units=land, hex=f.hex)


def _attack(ctx: Context, state: XenState, f: Force, target: str) -> Generator[Decision, Any, None]:
    """xen:combat (2 OP), xen:naval-combat; the battle, the neutral satrapy's change of control
    and the retreats are combat.battle's."""
    from . import combat

    f.op -= ATTACK_OP
    defenders = state.units_at(target)
    rules = ("xen:combat",) + (("xen:naval-combat",) if f.naval or any(u.fleet for u in defenders) else ())
    ctx.event("attack", f"{f.side}: the force in {f.hex} attacks {target} ({ATTACK_OP} OP, {f.op} left)",
              (RULE,) + rules, side=f.side, force=list(f.units), hex=target)
    yield from combat.battle(ctx, state, list(f.units), target, rule_ids=rules)


# ---------------------------------------------------------------- the phase


def _candidates(state: XenState, side: str, hex_id: str, exclude: set[str]) -> list[Option]:
    return [Option(u.id, f"{u.id} ({type_name(u.type)})", data=u)
            for u in _candidate_units(state, side, hex_id, exclude)]


def _candidate_units(state: XenState, side: str, hex_id: str, exclude: set[str]) -> list[Unit]:
    """The units of :func:`_candidates`."""
    return [u for u in state.units_at(hex_id) if u.side == side and u.id not in exclude]


def _group(u: Unit) -> str:
    return f"{u.type}.{u.satrapy or u.side}".replace(" ", "-")


def _default(state: XenState, hex_id: str, cands: list[Option]) -> list[str]:
    """The force offered first: the whole stack if it may move as one; else, on land, its land
    units (the fleets stay), at sea the fleets with what they can carry (xen:naval-transport)."""
    return [u.id for u in _default_units(state, hex_id, [o.data for o in cands])]


def _default_units(state: XenState, hex_id: str, cands: list[Unit]) -> list[Unit]:
    """:func:`_default` of the candidate units themselves."""
    units = cands[:FORCE_LIMIT]
    fleets = [u for u in units if u.fleet]
    if not fleets:
        return units
    land = [u for u in units if not u.fleet]
    if len(land) <= naval.CAPACITY * len(fleets):
        return units
    if state.data.terrain.get(hex_id) != "sea":
        return land
    return fleets + land[: naval.CAPACITY * len(fleets)]


def can_form(state: XenState, side: str, hex_id: str, exclude: set[str]) -> bool:
    """Whether some force of these units may conduct operations (land units stranded at sea may not)."""
    default = _default_units(state, hex_id, _candidate_units(state, side, hex_id, exclude))
    return bool(default) and naval.capacity_refusal(default, hex_id, state) is None


def _group_words(u: Unit) -> str:
    """A group of interchangeable units in words: ``a Lydia militia``, ``a rebel leader``."""
    what = f"{u.satrapy or u.side} {type_name(u.type)}"
    return f"{'an' if what[0].lower() in 'aeiou' else 'a'} {what}"


def _in_words(choosing: Generator[Decision, str, tuple[str, ...]], words: dict[str, str]
              ) -> Generator[Decision, str, tuple[str, ...]]:
    """The staged choice with its groups named in words: choose_group labels an option that
    adds or removes one of several interchangeable units by the group's key (``remove
    leader.rebel``); the key stays (it is the answer), the label reads ``remove a rebel leader``."""
    def label(o: Option) -> Option:
        verb, _, name = o.key.partition(":")
        if name in words and verb in ("add", "remove") and (o.label == f"remove {name}"
                                                             or o.label.startswith(f"add {name} (")):
            return attrs.evolve(o, label=o.label.replace(name, words[name], 1))
        return o

    try:
        d = next(choosing)
        while True:
            d = attrs.evolve(d, options=tuple(label(o) for o in d.options))
            d = choosing.send((yield d))
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]


def _form(state: XenState, side: str, hex_id: str, exclude: set[str], rule: str) -> Generator[
        Decision, Any, list[str]]:
    cands = _candidates(state, side, hex_id, exclude)
    words = {_group(o.data): _group_words(o.data) for o in cands}
    keys = yield from _in_words(choose_group(side, f"form the force in {hex_id}", cands,
                                             at_most=min(FORCE_LIMIT, len(cands)), at_least=1, rule=rule,
                                             kind="ops.force-units", same=lambda o: _group(o.data),
                                             chosen=_default(state, hex_id, cands)), words)
    return list(keys)


def _start(ctx: Context, state: XenState, side: str, units: list[str], hex_id: str, why: str,
           rules: tuple[str, ...], royal_road: bool = False) -> Generator[Decision, Any, Force | None]:
    us = [state.unit(u) for u in units]
    refusal = naval.capacity_refusal(us, hex_id, state)
    left = [u for u in state.units_at(hex_id) if u.id not in units and u.embarked in units]
    if left and refusal is None:
        if state.data.terrain.get(hex_id) == "sea":
            refusal = (f"at sea the fleets' passengers ({', '.join(u.id for u in left)}) go with them "
                       "(xen:naval-transport)")
        else:
            for u in left:
                u.embarked = None  # they stay ashore: disembarking costs nothing
    if refusal is not None:
        ctx.event("force-refused", f"{side}: no force of {', '.join(units)}: {refusal}", ("xen:naval-transport",),
                  side=side)
        return None
    ctx.event("force", f"{side}: {why} the force of {', '.join(units)} in {hex_id}", rules + ("xen:forces",),
              side=side, force=list(units), hex=hex_id)
    op = yield from ops_points(ctx, state, units)
    is_naval = naval.is_naval(us)
    rate = mv.naval_rate(state.map, hex_id, naval.ports(state)) if is_naval else 1
    return Force(side, list(units), hex_id, hex_id, op, is_naval, rate, royal_road=royal_road,
                 land_gap=naval.land_gap(us))


def _hexes_with(state: XenState, side: str, pred: Any) -> list[str]:
    return sorted({str(u.hex) for u in state.side_units(side) if pred(u)})


def operations_phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
    """PHASES["operations"]: the phasing player's forces one by one (xen:operations).

    Before each force the ``operations`` window of :mod:`.stratagems` is
    opened (Forced March text A, Royal Road); after each, the ``reaction``
    window for the other player (Forced March text B with xen:opt.reaction,
    Scorched Earth)."""
    done = _done(state)
    done.clear()
    while not state.over:
        fresh = [h for h in _hexes_with(state, side, lambda u: u.id not in done) if can_form(state, side, h, done)]
        again = [h for h in _hexes_with(state, side, lambda u: u.id in done) if can_form(state, side, h, set())]
        chit = None
        if fresh or again:
            play = yield from chits.open_window(
                ctx, state, "operations", detail=f"the {side} player's next force",
                eligible=lambda s, c: c != FORCED_MARCH or bool(again))
            chit = str(play.option.data) if play is not None else None
        if chit == FORCED_MARCH:
            opts = tuple(Option(f"force:{h}", f"operations again with a force in {h}") for h in again)
            key = yield Decision(side, "Forced March: choose the hex of the force that operates again",
                                 opts, rule="xen:forced-march", kind="ops.forced-march-force",
                                 context={"highlight": tuple(again)})
            hex_id = key.split(":", 1)[1]
            units = yield from _form(state, side, hex_id, set(), "xen:forced-march")
            f = yield from _forced_march(ctx, state, side, units, hex_id)
        else:
            opts = [Option("end", "end the Operations phase")]
            for h in fresh:
                cands = _candidate_units(state, side, h, done)
                whole = [u.id for u in _default_units(state, h, cands)]
                opts.append(Option(f"force:{h}", f"operations with the force in {h}: {', '.join(whole)}"))
                if len(cands) > 1:
                    opts.append(Option(f"choose:{h}", f"operations with a force in {h}: choose its units"))
            key = yield Decision(side, "Operations phase: choose the next force", tuple(opts), rule=RULE,
                                 kind="ops.force", refuse=_force_refusal(state, side, done),
                                 context={"highlight": tuple(fresh)})
            if key == "end":
                ctx.event("operations-end", f"{side} ends the Operations phase", (RULE,), side=side)
                return
            how, _, hex_id = key.partition(":")
            if how == "force":  # the force offered first, in one answer (issue 23: no forced choices)
                units = [u.id for u in _default_units(state, hex_id, _candidate_units(state, side, hex_id, done))]
            else:
                units = yield from _form(state, side, hex_id, done, "xen:forces")
            f = yield from _start(ctx, state, side, units, hex_id, "operations with", (RULE,),
                                  royal_road=chit == ROYAL_ROAD)
        if f is None:
            continue
        done.update(f.units)
        yield from conduct(ctx, state, f)
        done.update(f.units)
        if not state.over:
            yield from _reaction(ctx, state, other_side(side))


def _force_refusal(state: XenState, side: str, done: set[str]) -> Any:
    def refuse(text: str) -> tuple[str, str] | None:
        what, _, h = text.strip().lower().partition(":")
        if what not in ("force", "choose"):
            return None
        mine = [u for u in state.units_at(h) if u.side == side]
        if not mine:
            return f"{text.strip()!r}: no unit of yours in {h}", "xen:forces"
        if all(u.id in done for u in mine):
            return (f"{text.strip()!r}: every unit in {h} has conducted operations this phase (Forced March "
                    "lets them again)", "xen:operations")
        return f"{text.strip()!r}: no force there may move (fleets carry 3 land units each)", "xen:naval-transport"

    return refuse


def _forced_march(ctx: Context, state: XenState, side: str, units: list[str], hex_id: str) -> Generator[
        Decision, Any, Force | None]:
    """xen:forced-march (text A; the chit already played at the window): the loss roll, then new OP.

    The unit lost is eliminated like any other (xen:leaders): a leader through the leader
    rules (Xenophon's escape roll, a Supreme Leader's chits), a fleet with the units aboard
    (:func:`.leaders.eliminate_units`)."""
    from .leaders import eliminate_units

    rules = ("xen:forced-march",)
    roll = yield from chits.roll(ctx, state, "forced march loss roll", rules)
    if stratagems.forced_march_loss(roll):
        opts = tuple(Option(u, f"{u} ({state.unit(u).type})") for u in units)
        lost = opts[0].key if len(opts) == 1 else (yield Decision(
            side, f"forced march roll {roll}: choose the unit of the force that is lost", opts,
            rule="xen:forced-march", kind="ops.forced-march-loss"))

        def announce(plain: list[str]) -> None:
            ctx.event("eliminated", f"forced march roll {roll}: {', '.join(plain)} "
                      f"{'is' if len(plain) == 1 else 'are'} lost", rules, side=side, unit=lost)

        yield from eliminate_units(ctx, state, [lost], f"forced march roll {roll}", rules, announce=announce)
        units = [u for u in units if state.unit(u).where == "map" and state.unit(u).hex == hex_id]
        if not units:
            return None
    else:
        ctx.event("forced-march", f"forced march roll {roll}: no loss", rules, side=side)
    return (yield from _start(ctx, state, side, units, hex_id, "forced march:", rules + (RULE,)))


def _reaction(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
    """After a phasing force's operations: the ``reaction`` window for ``side``; with
    xen:opt.reaction a Forced March there is a Reaction with one force, no loss roll."""
    reacted = _reacted(state)
    # Forced March is offered (and so spent) only when some force of ``side`` may react:
    # each reacts once a turn, and land units at sea without their fleets form no force
    # (docs/games/xenophon.md, Rulings: second reading 2).
    hexes = ([h for h in _hexes_with(state, side, lambda u: u.id not in reacted) if can_form(state, side, h, reacted)]
             if state.options.reaction else [])
    play = yield from stratagems.reaction_window(ctx, state, side, detail="a force's operations are over",
                                                 eligible=lambda s, c: c != FORCED_MARCH or bool(hexes))
    if play is None or str(play.option.data) != FORCED_MARCH:
        return
    rules = ("xen:opt.reaction", "xen:forced-march")
    opts = tuple(Option(f"force:{h}", f"react with a force in {h}") for h in hexes)
    key = yield Decision(side, "Reaction: choose the hex of the reacting force", opts,
                         rule="xen:opt.reaction", kind="ops.reaction-force", context={"highlight": tuple(hexes)})
    hex_id = key.split(":", 1)[1]
    units = yield from _form(state, side, hex_id, reacted, "xen:opt.reaction")
    f = yield from _start(ctx, state, side, units, hex_id, "reaction with", rules)
    if f is None:
        return
    reacted.update(f.units)
    yield from conduct(ctx, state, f)
    reacted.update(f.units)


# ---------------------------------------------------------------- greedy bot hints


def _targets(state: XenState, side: str) -> list[Hex]:
    """Cities and colonies ``side`` does not hold: where its forces want to go."""
    hexes = _hexes(state.map)
    return [hexes[h] for h in list(state.data.city_kind) + sorted(state.colonies) if state.occupier(h) != side]


_LAST: list[Any] = [None, None, None, None]
"""The decision last scored, its distance field, and (4th) its options' data by key: the greedy
bot scores every option of one decision."""


_FIELDS: dict[tuple[int, frozenset[str]], dict[str, int]] = {}
"""Distance fields by map and target set (the greedy bot's; targets change only with control)."""


def _field(m: HexMap, targets: frozenset[str]) -> dict[str, int]:
    """Hexes from every hex of ``m`` to the nearest of ``targets``, by a breadth-first walk of
    the map's hexes (on the rectangular map, the hex distance)."""
    key = (id(m), targets)
    got = _FIELDS.get(key)
    if got is None:
        if len(_FIELDS) > 64:
            _FIELDS.clear()
        got = distances_from(sorted(targets), _neighbour_ids(m).__getitem__)
        _FIELDS[key] = got
    return got


_NEIGHBOURS: dict[int, tuple[HexMap, dict[str, tuple[str, ...]]]] = {}
"""Each map's hexes -> their neighbours' IDs, in the order of :func:`_edges` (the map kept alive)."""


def _neighbour_ids(m: HexMap) -> dict[str, tuple[str, ...]]:
    got = _NEIGHBOURS.get(id(m))
    if got is None or got[0] is not m:
        _, edges = _edges(m, mv.terrain_costs())
        got = _NEIGHBOURS[id(m)] = (m, {h: tuple(n for n, *_ in row) for h, row in edges.items()})
    return got[1]


def _distance_to_target(state: XenState, side: str, hex_id: str, decision: Decision | None = None) -> int:
    """Hexes from ``hex_id`` to the nearest City or Colony ``side`` does not hold (0 if none);
    the field is kept for the decision being scored."""
    if decision is not None and _LAST[0] is decision:
        field = _LAST[1]
    else:
        field = _field(state.map, frozenset(state.map.to_id(t) for t in _targets(state, side)))
        if decision is not None:
            _LAST[0], _LAST[1] = decision, field
    return field.get(hex_id, 0)


def _move_scores(state: XenState, decision: Decision, keys: list[str]) -> list[float]:
    """The scores of the ``move:`` and ``march:`` answers ``keys`` of one ``ops.action``
    decision: 1 + the hexes gained towards the nearest City or Colony not held, less a
    hundredth of the OP spent (of two equal gains, the cheaper path), less 0.5 for leaving a
    City held by two units or fewer. Leaving a City the force alone holds costs that City's
    VP if the destination is a City worth more not yet held, else it is never worth it; a hex
    the force has stood in or passed through these operations scores -1 (no walking in
    circles). One distance field and one look at the force's hex serve every key
    (:func:`score_options`)."""
    side = decision.side
    here = decision.context.get("highlight", ("",))[0]
    start = _distance_to_target(state, side, here, decision)
    field = _LAST[1]
    if _LAST[3] is None or _LAST[3][0] is not decision:
        _LAST[3] = (decision, {o.key: o.data for o in decision.options})
    data_of = _LAST[3][1]
    alone = _holds_alone(state, side, here, decision.context.get("force", ()))
    here_vp = _city_vp(state, side, here)
    thin = 0.5 if state.is_city(here) and len(state.units_at(here)) <= 2 else 0.0
    visited = set(decision.context.get("visited", ()))
    out = []
    for key in keys:
        dest = key.split(":", 1)[1]
        if dest in visited:  # back where it has been these operations: a walk in circles
            out.append(-1.0)
            continue
        gain = start - field.get(dest, 0)
        data = data_of.get(key)
        spent = float(data[0]) / 100 if data else 0.0
        leave = thin
        if alone:  # the City is lost if this force leaves it: only for a City worth more
            better = _city_vp(state, side, dest) > here_vp and state.occupier(dest) != side
            leave = here_vp if better else _NEVER
        out.append(1.0 + gain - spent - leave)
    return out


_NEVER = 100.0
"""What leaving a City costs the greedy bot when it would lose it for no better one."""


def _city_vp(state: XenState, side: str, hex_id: str) -> int:
    """The VP ``side`` scores for occupying ``hex_id`` at the end (0 for no City or Colony; xen:victory)."""
    from .victory import CITY_VP

    kind = state.city_kind(hex_id)
    return CITY_VP[side][kind] if kind is not None else 0


def _holds_alone(state: XenState, side: str, hex_id: str, units: Sequence[str]) -> bool:
    """Whether ``units`` are all of ``side``'s units in the City or Colony ``hex_id``: if they
    leave, the City is no longer occupied and scores nothing (xen:victory)."""
    if not state.is_city(hex_id):
        return False
    mine = [u.id for u in state.units_at(hex_id) if u.side == side]
    return bool(mine) and set(mine) <= set(units)


def score_options(state: XenState, decision: Decision) -> list[float] | None:
    """:func:`score` of every option of an ``ops.action`` decision at once (the moves share
    one distance field), or None for the other kinds (scored option by option)."""
    if decision.kind != "ops.action":
        return None
    moves = [o.key for o in decision.options if o.key.startswith(("move:", "march:"))]
    scored = iter(_move_scores(state, decision, moves))
    out = []
    for o in decision.options:
        if o.key.startswith(("move:", "march:")):
            out.append(next(scored))
        else:
            value = score(state, decision, o.key)
            out.append(float(value) if value is not None else 0.0)
    return out


def score(state: XenState, decision: Decision, key: str) -> float | None:
    """A cheap value of answering an ``ops.*`` decision with ``key`` (higher is better); None
    for the kinds of other modules.

    Hints for the greedy bot, not rules: move towards the nearest City or
    Colony the side does not hold, stop there, attack what is weaker,
    pillage enemy cities, colonise where allowed.
    """
    side = decision.side
    kind = decision.kind
    if kind == "ops.force":
        if key == "end":
            return 0.0
        if key.startswith("force:"):
            # a lone garrison holds its City: it has nothing better to do (greedy hint)
            hex_id = key.split(":", 1)[1]
            lone = state.is_city(hex_id) and sum(1 for u in state.units_at(hex_id) if u.side == side) == 1
            return -1.0 if lone else 2.0
        return 0.5
    if kind == "ops.force-units":
        return 1.0 if key == "done" else 0.0
    if kind == "ops.action":
        here = decision.context.get("highlight", ("",))[0]
        if key.startswith(("move:", "march:")):
            return _move_scores(state, decision, [key])[0]
        if key == "stop":
            return 0.2 if state.occupier(here) == side and state.is_city(here) else 0.0
        if key == "stop:aboard":
            return 0.1
        if key.startswith("attack:"):
            force = decision.context.get("force", ())
            mine = sum(state.unit(u).cs for u in force)
            theirs = sum(u.cs for u in state.units_at(key.split(":", 1)[1])) or 1
            # breaking a "no combat" agreement costs 1d6 chits (3.5 on average, xen:negotiations)
            breach = 3.5 if negotiations.may_attack(state, side) is not None else 0.0
            return 3.0 * Fraction(mine, theirs).__float__() - 3.0 - breach
        if key == "pillage":
            # A City one holds pays every Treasury phase unpillaged; loot pays once: only a rich
            # enemy City is worth it (and its forage is lost to the force standing there).
            owner = state.control.get(state.satrapy_of(here) or "", NEUTRAL)
            rich = state.city_kind(here) in ("treasury", "capital")
            return 0.8 if rich and owner == other_side(side) else -1.0
        if key == "colonise":
            return 1.5
        if key.startswith("drop:"):
            force = decision.context.get("force", ())
            if len(force) >= 2 and _holds_alone(state, side, here, force):
                # leave a garrison (the least valuable unit) to hold the City the force leaves
                return 50.0 - unit_value(state, state.unit(key.split(":", 1)[1]))
            return -0.5
        return 0.0
    if kind in ("ops.colonist", "ops.forced-march-loss") and key in state.units:
        u = state.unit(key)
        return -(u.cs + u.ov / 8 + (20.0 if u.leader else 0.0))  # give up the least valuable unit
    if kind in ("ops.forced-march-force", "ops.reaction-force") and key.startswith("force:"):
        return -float(_distance_to_target(state, side, key.split(":", 1)[1], decision))
    if kind.startswith("ops."):
        return 0.0
    return None
