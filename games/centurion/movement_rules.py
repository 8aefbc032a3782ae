"""Centurion movement rules: what a step costs and where a unit may stand.

The pure helpers the search (:mod:`ancients_games.centurion.reach`) and the
Movement Phase (:mod:`ancients_games.centurion.movement`) share, and the
hooks through which the Full Simulation (``full/``) adds its rules:

- ``cen:basic.movement`` A, J and the Terrain Effects Chart (``terrain.toml``):
  entry costs per unit kind, hexside crossings (rivers, fords, bridges), road
  rates (``cen:full.movement`` G), markers (earthworks, caltrops), all in
  integer "ticks" (Movement Factors scaled by the chart's common denominator,
  so road halves stay exact): :func:`cost_table`;
- the same steps over integer hex indices and (hex, facing) nodes, one
  :class:`MoveGraph` per unit kind, the rows the core's least-cost search runs
  over (:func:`ancients_kit.movement.least_costs`), with the turns of
  ``cen:full.facing`` F, G priced in (:data:`FREE_TURNS`);
- ``cen:basic.stacking`` / ``cen:full.stacking``: at most three units (fewer
  for some types in the Full Simulation) in a hex, Command units not counted:
  :func:`stack_limit`, :func:`stack_room`;
- :class:`MoveHooks`: the Full Simulation's extension points.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from math import lcm
from typing import Any

import attrs

from ancients_kit.hexgrid import Hex, direction_to
from ancients_kit.protocol import Context

from ancients_games.centurion.state import CenturionState, Unit

__all__ = [
    "FREE_TURNS",
    "CostTable",
    "MoveGraph",
    "MoveHooks",
    "cost_table",
    "move_graph",
    "stack_limit",
    "stack_room",
    "step_ticks",
    "terrain_open",
]


# ------------------------------------------------------------------ costs


@attrs.frozen
class CostTable:
    """Movement costs in integer ticks (``scale`` ticks = one Movement Factor)."""

    scale: int
    entry: dict[str, dict[Hex, int | None]]
    """Unit kind -> hex -> ticks to enter (None: may not enter)."""
    crossing: dict[str, dict[tuple[Hex, Hex], int | None]]
    """Unit kind -> (from, to) -> extra ticks to cross the hexside (None: may not)."""
    road: dict[tuple[Hex, Hex], int]
    """(from, to) -> ticks of road movement (replaces the entry cost)."""
    exit_marker: dict[Hex, int]
    """Hex -> extra ticks to leave it (caltrops)."""
    adjacency: dict[Hex, tuple[Hex, ...]]
    edges: dict[str, dict[Hex, tuple[tuple[Hex, int, bool], ...]]] = attrs.field(factory=dict)
    """Unit kind -> hex -> (neighbour, ticks, is road step) for every enterable
    neighbour: the Basic search's inner loop in one precomputed tuple."""
    dir_edges: dict[str, dict[Hex, tuple[tuple[Hex, int, bool] | None, ...]]] = attrs.field(factory=dict)
    """The same per direction 0..5 (None: off the map or not enterable), for
    the Full Simulation's (hex, facing) search."""
    graphs: dict[str, MoveGraph] = attrs.field(factory=dict)
    """Unit kind -> the same edges over integer hex indices and (hex, facing)
    nodes, built on first use (:func:`move_graph`)."""


def _ticks(x: Fraction, scale: int) -> int:
    v = x * scale
    if v.denominator != 1:
        raise ValueError(f"cost {x} is not a multiple of 1/{scale}")
    return int(v)


def cost_table(state: CenturionState) -> CostTable:
    """Precompute every movement cost of ``state``'s map (cached on the state).

    cen:basic.movement A/J and the Terrain Effects Chart: hex entry costs per
    unit kind; river/ford/bridge hexside costs (bridge overrides ford overrides
    river); roads (cen:full.movement G); markers (earthworks, caltrops).
    """
    mkey = tuple(sorted((h, tuple(sorted(v))) for h, v in state.markers.items() if v))
    ckey = (id(state.map), id(state.terrain_chart), id(state.types), mkey)
    cached = _COST_CACHE.get(ckey)
    if cached is not None and cached[0] is state.map and cached[1] is state.terrain_chart:
        return cached[2]
    chart = state.terrain_chart
    denoms = [1]
    for t in chart.values():
        for c in (t.cost, t.exit_cost, *t.cost_by_kind.values()):
            if c is not None:
                denoms.append(Fraction(c).denominator)
    scale = lcm(*denoms)
    kinds = sorted({str(t.kind) for t in state.types.values()})
    m = state.map
    adjacency: dict[Hex, tuple[Hex, ...]] = dict(getattr(m, "adjacency", None) or {
        h: tuple(state.neighbors(h)) for h in m.numbering.hexes()
    })
    entry: dict[str, dict[Hex, int | None]] = {}
    for k in kinds:
        em: dict[Hex, int | None] = {}
        for h in m.numbering.hexes():
            ter = chart.get(m.terrain(h))
            if ter is None:
                raise ValueError(f"map terrain {m.terrain(h)!r} at {state.hid(h)} is not in the Terrain Effects Chart")
            c = ter.entry_cost(k)
            v = None if c is None else _ticks(c, scale)
            for mk in state.markers.get(h, ()):
                mt = chart.get(mk)
                if mt is None or v is None:
                    continue
                mc = mt.entry_cost(k)
                v = None if mc is None else max(v, _ticks(mc, scale))
            em[h] = v
        entry[k] = em
    crossing: dict[str, dict[tuple[Hex, Hex], int | None]] = {k: {} for k in kinds}
    road: dict[tuple[Hex, Hex], int] = {}
    feats = getattr(m, "features", None)
    items = feats.items() if feats is not None else ()
    for side, names in items:
        a, b = side
        if "road" in names and "road" in chart:
            rc = chart["road"].cost
            if rc is not None:
                road[(a, b)] = road[(b, a)] = _ticks(rc, scale)
        crossing_feature = next((f for f in ("bridge", "ford", "river") if f in names and f in chart), None)
        if crossing_feature is None:
            continue
        ft = chart[crossing_feature]
        for k in kinds:
            c = ft.entry_cost(k)
            v = None if c is None else _ticks(c, scale)
            crossing[k][(a, b)] = crossing[k][(b, a)] = v
    exit_marker: dict[Hex, int] = {}
    for h, mks in state.markers.items():
        for mk in mks:
            mt = chart.get(mk)
            if mt is not None and mt.exit_cost:
                exit_marker[h] = exit_marker.get(h, 0) + _ticks(mt.exit_cost, scale)
    edges: dict[str, dict[Hex, tuple[tuple[Hex, int, bool], ...]]] = {}
    dir_edges: dict[str, dict[Hex, tuple[tuple[Hex, int, bool] | None, ...]]] = {}
    for k in kinds:
        ek: dict[Hex, tuple[tuple[Hex, int, bool], ...]] = {}
        dk: dict[Hex, tuple[tuple[Hex, int, bool] | None, ...]] = {}
        em = entry[k]
        ck = crossing[k]
        for h in adjacency:
            per_dir: list[tuple[Hex, int, bool] | None] = []
            for n in h.neighbors():
                if n not in em:
                    per_dir.append(None)
                    continue
                rc = road.get((h, n))
                if rc is not None:
                    per_dir.append((n, rc, True))
                    continue
                e = em[n]
                x = ck.get((h, n), 0)
                per_dir.append(None if e is None or x is None else (n, e + x, False))
            dk[h] = tuple(per_dir)
            ek[h] = tuple(e for e in per_dir if e is not None)
        edges[k] = ek
        dir_edges[k] = dk
    table = CostTable(scale, entry, crossing, road, exit_marker, adjacency, edges, dir_edges)
    if len(_COST_CACHE) > 64:
        _COST_CACHE.clear()
    _COST_CACHE[ckey] = (state.map, state.terrain_chart, table)
    return table


_COST_CACHE: dict[tuple[Any, ...], tuple[Any, Any, CostTable]] = {}
"""Cost tables by (map, chart, unit types, markers): maps and charts are immutable
and shared between sessions by the game's data cache, so games reuse them."""


# ------------------------------------------------------------------ per-kind search graphs


FREE_TURNS = tuple((1 << f) | (1 << ((f + 1) % 6)) | (1 << ((f - 1) % 6)) for f in range(6))
"""Directions a unit facing ``f`` may enter without paying for a turn (cen:full.facing G, H)."""


@attrs.frozen
class MoveGraph:
    """One unit kind's movement graph over integer hex indices (the rows of the core's
    :func:`~ancients_kit.movement.least_costs` and :func:`~ancients_kit.movement.least_costs_facing`).

    Basic nodes are hex indices ``i``; Full Simulation nodes are ``i << 3 | facing``.
    """

    hexes: tuple[Hex, ...]
    index: dict[Hex, int]
    out: tuple[tuple[tuple[int, int, bool], ...], ...]
    """Basic: hex index -> (neighbour index, ticks, road step) in direction order."""
    turn_out: tuple[tuple[tuple[int, int, bool], ...], ...]
    """Full: node -> (node entered, turn + entry ticks, road step) for every
    direction in order, the turn costing one Movement Factor past 60 degrees (G)."""
    free: tuple[tuple[int, int, bool] | None, ...]
    """Full: ``i << 3 | direction`` -> (node entered, entry ticks, road step) without a turn."""
    front_sets: dict[int, tuple[tuple[int, int, bool], ...]] = attrs.field(factory=dict, eq=False, repr=False)
    """Full: the core's cache of :attr:`free` rows by cell and set of directions, filled by
    its searches (:func:`~ancients_kit.movement.least_costs_facing`'s ``front_sets``)."""


def move_graph(ct: CostTable, kind: str) -> MoveGraph:
    """The search graph of unit ``kind`` on ``ct``'s map (built once, kept on ``ct``)."""
    got = ct.graphs.get(kind)
    if got is not None:
        return got
    hexes = tuple(ct.adjacency)
    index = {h: i for i, h in enumerate(hexes)}
    dedges = ct.dir_edges[kind]
    scale = ct.scale
    out: list[tuple[tuple[int, int, bool], ...]] = []
    free: list[tuple[int, int, bool] | None] = [None] * (len(hexes) << 3)
    turn_out: list[tuple[tuple[int, int, bool], ...]] = [()] * (len(hexes) << 3)
    for i, h in enumerate(hexes):
        per_dir = dedges[h]
        out.append(tuple((index[e[0]], e[1], e[2]) for e in per_dir if e is not None))
        for g, e in enumerate(per_dir):
            if e is not None:
                free[i << 3 | g] = (index[e[0]] << 3 | g, e[1], e[2])
        for f in range(6):
            row = []
            for g, e in enumerate(per_dir):
                if e is not None:
                    turn = 0 if FREE_TURNS[f] >> g & 1 else scale
                    row.append((index[e[0]] << 3 | g, turn + e[1], e[2]))
            turn_out[i << 3 | f] = tuple(row)
    graph = MoveGraph(hexes, index, tuple(out), tuple(turn_out), tuple(free))
    ct.graphs[kind] = graph
    return graph


# ------------------------------------------------------------------ hooks


@attrs.define
class MoveHooks:
    """Extension points the Full Simulation (``full/``) fills in.

    Each is optional; ``None`` means "no such rule in force".
    """

    stop_hexes: Callable[[CenturionState, Unit], frozenset[Hex]] | None = None
    """Hexes where the unit must stop on entering (cen:full.cross-river)."""
    blocked: Callable[[CenturionState, Unit], frozenset[Hex]] | None = None
    """Hexes it may neither enter nor pass through (a square, cen:full.square H)."""
    mfa: Callable[[CenturionState, Unit], int] | None = None
    """Effective Movement Factor Allowance (square 1, weather -2, mount/dismount half)."""
    movable: Callable[[CenturionState, Unit], tuple[str, str] | None] | None = None
    """Extra reason (text, rule ID) a unit may not move this phase."""
    stack_limit: Callable[[CenturionState, Unit, Hex], int] | None = None
    """Most counting units allowed on a hex once ``unit`` is in it (square 4 ...)."""
    after_move: Callable[[Context, CenturionState, Unit, list[Hex]], None] | None = None
    """Called after a unit moved along a path (charges, missile ZOC checks)."""
    refuse_destination: Callable[[CenturionState, Unit, Hex], tuple[str, str] | None] | None = None
    """Why ``unit`` may not end its move on a hex it can reach (text, rule ID), or ``None``: the hex
    stays open to pass through (the barbarian warrior advance, cen:barb.warrior)."""
    extra_cost: Callable[[CenturionState, Unit], Mapping[Hex, int | Fraction | None]] | None = None
    """Extra Movement Factors ``unit`` pays to enter particular hexes this
    search, e.g. 3 (Swordsmen) or 2 (others) to join a square (cen:full.square
    E, F). Called once per search (not per hex, so the search stays on
    integers); hexes left out cost nothing extra. Each value is added to the
    step's usual cost into that hex (terrain, hexside, or road rate) and
    counts towards the allowance like any cost; it must be a multiple of the
    terrain chart's smallest fraction (1/2 MF). ``None`` closes the hex to
    the unit, like ``blocked``. A hex that may be entered but not passed
    through (a square, cen:full.square H) also belongs in ``stop_hexes``."""
    destination_check: Callable[[CenturionState, Unit], Callable[[Hex], tuple[str, str] | None] | None] | None = None
    """:attr:`refuse_destination` for one unit, as a test of one hex, or ``None`` if it refuses no
    hex to that unit: what depends only on the unit worked out once, not at every hex it can
    reach. When set, it must agree with ``refuse_destination`` (the phase filters its
    destinations with it and explains refusals with ``refuse_destination``)."""
    moves_with: Callable[[CenturionState, Unit], tuple[frozenset[str], str, str] | None] | None = None
    """Units that move only all together with ``unit`` (itself included), with the reason and
    rule ID for refusing to move it alone, or ``None``: Swordsmen in square move only with the
    whole square (cen:full.square D; the exception of cen:full.movement C). The phase then offers
    them only as one stack (its hex), and only when every one of them may still move."""


# ------------------------------------------------------------------ stacking


def stack_limit(state: CenturionState, unit: Unit, h: Hex) -> int:
    """Most counting units on ``h`` with ``unit`` in it.

    cen:basic.stacking: three of any types. cen:full.stacking A: three, but a
    hex holding Barbarian Infantry (and other two-high types) takes two.
    """
    if state.version == "basic":
        return 3
    types = state.types
    lim = types[unit.type].stack_limit
    for uid in state.stacks.get(h, ()):
        o = state.units[uid]
        t = types[o.type]
        if t.counts_for_stacking and t.stack_limit < lim:
            lim = t.stack_limit
    return lim


def stack_room(state: CenturionState, unit: Unit, h: Hex, hooks: MoveHooks | None = None) -> bool:
    """True if ``unit`` may be on ``h`` without breaking the stacking limit
    (cen:basic.stacking, cen:full.stacking). Command units always fit (B)."""
    t = state.types[unit.type]
    if not t.counts_for_stacking:
        return True
    n = state.stacking_count(h, unit.side)
    if hooks is not None and hooks.stack_limit is not None:
        return n + 1 <= hooks.stack_limit(state, unit, h)
    return n + 1 <= stack_limit(state, unit, h)


def terrain_open(state: CenturionState, unit: Unit, h: Hex, hooks: MoveHooks | None = None) -> bool:
    """May ``unit`` stand on ``h`` as far as terrain goes: the hex is on the map, its
    terrain and counters do not prohibit the unit's kind (earthworks close to cavalry and
    riderless mounts, cen:opt.earthworks, cen:opt.mount-dismount G) and ``hooks.blocked``
    does not close it (caltrops to mounted units, cen:opt.caltrops; squares, cen:full.square H).

    For moves the search does not make: placing mounts, Light Cavalry retreating before
    combat or pushed out of a ring (cen:full.cavalry)."""
    if h not in state.numbering:
        return False
    if cost_table(state).entry[str(state.types[unit.type].kind)].get(h) is None:
        return False
    return not (hooks is not None and hooks.blocked is not None and h in hooks.blocked(state, unit))


def step_ticks(state: CenturionState, unit: Unit, a: Hex, b: Hex, hooks: MoveHooks | None = None) -> int | None:
    """Ticks (``cost_table(state).scale`` to the Movement Factor) for ``unit`` to step from
    ``a`` to the adjacent ``b``: entry, hexside crossing (rivers, fords) or road rate, plus
    the cost of leaving ``a`` (caltrops, cen:opt.caltrops); ``None`` when terrain or
    ``hooks.blocked`` closes the step (see :func:`terrain_open`). Facing is not priced."""
    if not terrain_open(state, unit, b, hooks):
        return None
    ct = cost_table(state)
    edge = ct.dir_edges[str(state.types[unit.type].kind)].get(a, (None,) * 6)[direction_to(a, b)]
    if edge is None:
        return None
    return edge[1] + ct.exit_marker.get(a, 0)
