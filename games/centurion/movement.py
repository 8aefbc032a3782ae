"""Centurion movement: reachable hexes, terrain costs, stacking, ZOC, facing.

This module owns the movement *engine* both versions share, and the staged
Movement Phase decisions ("choose a unit or done" -> "choose a destination"
(-> "choose a facing" in the Full Simulation)). Rules it serves:

- ``cen:basic.movement`` cases A-J: one Movement Factor per hex, more or less
  per the Terrain Effects Chart (``terrain.toml``); move each unit once (I);
  never into or through enemy units (G); never off the map (J).
- ``cen:basic.stacking`` / ``cen:full.stacking``: at most three units (fewer
  for some types in the Full Simulation) in a hex at any time, passing through
  included; Command units do not count.
- ``cen:basic.zoc``: stop on entering an enemy-controlled hex (A); a unit
  already adjacent to an enemy that controls its hex may not move at all (B);
  lone Command units exert no ZOC (E).
- ``cen:full.movement``: no ZOC (the cross-river and missile rules are the
  Full Simulation's, passed in through :class:`MoveHooks`); road rate from road
  hex to road hex only, fractions lost on leaving the road (G, H); units in
  contact may not break off (``cen:full.contact``); dispersed units do not move.
- ``cen:full.facing``: units move only to their front, may turn 60 degrees in
  each hex entered or passed for free, more costs one Movement Factor (F, G);
  a unit that has spent its whole allowance may turn at most 60 degrees (E).
- ``cen:full.square`` E, F (through :attr:`MoveHooks.extra_cost`): extra
  Movement Factors to join a square; D (through :attr:`MoveHooks.moves_with`):
  a square moves only whole, offered as one stack.
- ``cen:full.cavalry``: for units that charge, the path shown (and logged) is,
  among the cheapest ones to the chosen hex and facing, one ending in the
  longest straight run in that facing, up to the unit's charge length
  (:meth:`_Search._straight`), so it shows the charge the unit makes.

Refusals name their rule: a destination out of reach states the Movement
Factors it would need (the same search run with a larger allowance) against
those the unit has; a facing it may not end with names the turn rule
(``cen:full.facing`` E, F, G) and the Movement Factors again.

How the search works (and why it is fast). Costs are integer "ticks"
(Movement Factors scaled by the terrain chart's common denominator, so road
halves stay exact). Per (map, chart, markers) and unit kind, every step is
precomputed once over integer hex indices (:class:`_Graph`); a search is
Dial's algorithm (one bucket per tick) over hex indices (Basic) or over nodes
``hex index << 3 | facing`` (Full), with lists, not dictionaries, for labels.
The Full search skips relaxations that provably fail (see
:func:`_reach_full`); friendly stacks are checked for room only when the
search reaches them; final facings and paths are worked out only for the
destination the player picks. Results are identical to the plain search the
engine used before (``tests/test_movement_speed.py`` holds it as the
reference): the same costs, facings, paths and tie-breaks, hence the same
games.

Why not ``ancients_kit.movement.reachable``: its ``cost(a, b)`` is added to
the cost so far, so it cannot express the loss of road fractions on leaving a
road (movement H: the step's price depends on the cost already spent), and
its nodes are hexes, not the Full Simulation's (hex, facing) states.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable, Iterator, Mapping
from fractions import Fraction
from math import lcm
from typing import Any

import attrs

from ancients_kit.errors import IllegalAnswer
from ancients_kit.hexgrid import Hex, direction_to
from ancients_kit.session import Context, Decision, Option

from ancients_games.centurion.state import SHARED_EXTRA, CenturionState, Unit, log

__all__ = [
    "CostTable",
    "MoveHooks",
    "Reach",
    "cost_table",
    "movable_reason",
    "movement_phase",
    "reachable",
    "stack_room",
    "step_ticks",
    "straight_run",
    "terrain_open",
]

DONE = "done"
LAST_REACH = "move_last_reach"
"""``state.extra`` key: (unit id, ``state.rev``, facing, :class:`Reach`) of the
last single unit chosen in a Movement Phase, taken before it moved, so an
``after_move`` hook that needs the same search again (the Full Simulation's
charge measure, cen:full.cavalry) can reuse it when nothing else has changed."""
SHARED_EXTRA.add(LAST_REACH)  # never changed once stored: state copies share it


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
    graphs: dict[str, _Graph] = attrs.field(factory=dict)
    """Unit kind -> the same edges over integer hex indices and (hex, facing)
    nodes, built on first use (:func:`_graph`)."""


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


_FREE = tuple((1 << f) | (1 << ((f + 1) % 6)) | (1 << ((f - 1) % 6)) for f in range(6))
"""Directions a unit facing ``f`` may enter without paying for a turn (cen:full.facing G, H)."""
_DIRS = tuple(tuple(g for g in range(6) if m >> g & 1) for m in range(64))
"""Direction mask -> its directions, lowest first."""


@attrs.frozen
class _Graph:
    """One unit kind's movement graph over integer hex indices.

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


def _graph(ct: CostTable, kind: str) -> _Graph:
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
                    turn = 0 if _FREE[f] >> g & 1 else scale
                    row.append((index[e[0]] << 3 | g, turn + e[1], e[2]))
            turn_out[i << 3 | f] = tuple(row)
    graph = _Graph(hexes, index, tuple(out), tuple(turn_out), tuple(free))
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


# ------------------------------------------------------------------ reachability


@attrs.frozen
class Reach:
    """Where one unit can move this phase, with path costs.

    ``cost`` is filled at once; ``facings`` (Full Simulation) and paths are
    worked out from the search's arrays when asked for, since a Movement Phase
    asks for them at one destination only.
    """

    unit_id: str
    start: Hex
    scale: int
    cost: dict[Hex, int]
    """Destination hex -> least ticks to end there (legal end hexes only)."""
    facings: Mapping[Hex, dict[int, int]] = attrs.field(factory=dict)
    """Full Simulation: destination -> final facing -> ticks (empty in the Basic Game)."""
    _search: _Search | None = None

    def mf(self, h: Hex) -> Fraction:
        """Movement Factors spent to reach ``h``."""
        return Fraction(self.cost[h], self.scale)

    @property
    def allowance(self) -> Fraction:
        """The Movement Factors the search had to spend (the unit's effective allowance)."""
        s = self._search
        assert s is not None
        return Fraction(s.budget, self.scale)

    def facing_need(self, h: Hex, facing: int) -> tuple[Fraction, bool] | None:
        """Full Simulation: least Movement Factors to end on ``h`` (reached in
        this search) facing ``facing``, the allowance aside, and whether that
        needs a turn of more than 60 degrees after arriving (cen:full.facing
        F, G); None if no arrival is recorded."""
        s = self._search
        assert s is not None and s.stride == 8
        got = s.need(s.graph.index[h], facing % 6)
        if got is None:
            return None
        return Fraction(got[0], self.scale), got[1]

    def path(self, h: Hex, facing: int | None = None) -> list[Hex]:
        """Hexes from the start to ``h`` (both included), cheapest path; in the
        Full Simulation, the cheapest path that can end with ``facing``."""
        if h not in self.cost:
            raise KeyError(h)
        s = self._search
        assert s is not None
        return s.path(h, facing)


class _Search:
    """The arrays one search leaves behind, read back lazily by :class:`Reach`."""

    __slots__ = ("graph", "best", "prev", "stride", "budget", "scale", "start", "f0",
                 "run_cap", "rows", "free", "stops", "exv")

    def __init__(self, graph: _Graph, best: list[int], prev: list[int], stride: int,
                 budget: int, scale: int, start: int, f0: int, run_cap: int = 0,
                 rows: Any = None, free: Any = None, stops: frozenset[int] = frozenset(),
                 exv: list[int] | None = None) -> None:
        self.graph = graph
        self.best = best
        self.prev = prev
        self.stride = stride
        self.budget = budget
        self.scale = scale
        self.start = start
        self.f0 = f0
        self.run_cap = run_cap
        """Full Simulation, charging cavalry: paths prefer the longest final straight run up to this."""
        self.rows = rows
        self.free = free
        self.stops = stops
        self.exv = exv

    def final(self, i: int) -> tuple[dict[int, int], dict[int, int]]:
        """Full Simulation, hex index ``i``: final facing -> (ticks, arrival facing).

        cen:full.facing F, G: a free 60-degree turn on arrival, a bigger one for a
        Movement Factor; E: not at all past 60 degrees once the whole allowance is
        spent. Ties go to the lowest arrival facing (left, straight, right order)."""
        best = self.best
        b = i << 3
        arr = best[b:b + 6]
        budget = self.budget
        m_all, f_all = None, 0
        for f in range(6):
            c = arr[f]
            if c <= budget and (m_all is None or c < m_all):
                m_all, f_all = c, f
        fs: dict[int, int] = {}
        via: dict[int, int] = {}
        for g in range(6):
            if i == self.start and g == self.f0:
                continue  # back where it began, facing as it began: no move
            tot, v = None, None
            for f in ((g - 1) % 6, g, (g + 1) % 6):
                c = arr[f]
                if c <= budget and (tot is None or c < tot):
                    tot, v = c, f
            if m_all is not None and (tot is None or m_all + self.scale < tot):
                tot, v = m_all + self.scale, f_all
            if tot is None or tot > budget:
                continue
            fs[g] = tot
            via[g] = v  # type: ignore[assignment]
        return fs, via

    def need(self, i: int, g: int) -> tuple[int, bool] | None:
        """Ticks to end on hex index ``i`` facing ``g``, the final turn's cost
        counted past the allowance (the rule of :meth:`final` without its last
        budget test), and whether a paid turn (more than 60 degrees,
        cen:full.facing G) is needed."""
        budget = self.budget
        arr = self.best[i << 3:(i << 3) + 6]
        free = [c for f in ((g - 1) % 6, g, (g + 1) % 6) if 0 <= (c := arr[f]) <= budget]
        known = [c for c in arr if 0 <= c <= budget]
        if not known:
            return None
        paid = min(known) + self.scale
        if free and min(free) <= paid:
            return min(free), False
        return paid, True

    def path(self, h: Hex, facing: int | None) -> list[Hex]:
        g = self.graph
        i = g.index[h]
        run: list[Hex] = []
        if self.stride == 1:
            node = i
        else:
            fs, via = self.final(i)
            if facing is None or facing not in fs:
                facing = _cheapest(fs)
            node = i << 3 | via[facing]
            if self.run_cap and self.best[i << 3 | facing] == fs[facing]:
                node, run = self._straight(i, facing, fs[facing])
        prev = self.prev
        hexes = g.hexes
        shift = 0 if self.stride == 1 else 3
        out = []
        while node >= 0:
            out.append(hexes[node >> shift])
            node = prev[node]
        out.reverse()
        out.extend(run)
        return out

    def _passable(self, j: int) -> bool:
        """The search reached hex index ``j`` (so judged it open: not an enemy
        hex, a full stack or a blocked hex) within the allowance."""
        budget = self.budget
        return any(0 <= c <= budget for c in self.best[j << 3:(j << 3) + 6])

    def _straight(self, i: int, d: int, total: int) -> tuple[int, list[Hex]]:
        """cen:full.cavalry: among the paths of ``total`` ticks arriving at hex
        index ``i`` moving in direction ``d``, one ending in the longest straight
        run in ``d`` (up to ``run_cap`` hexes), so the path shown is the charge
        the unit makes. Returns (node the path's prefix ends at, the run's
        hexes after it); among ways into the run's first hex, the least label
        plus turn wins, then the lowest facing (so facings the search left
        unrecorded, which cost more, never matter).

        A run of ``k`` hexes leaves hex ``r_k`` (``k`` hexes back against
        ``d``), turning into ``d`` there (free within 60 degrees, G), and goes
        straight on through hexes the search could pass (not closed, not stop
        hexes), costed exactly as the search costs steps (roads, fractions
        lost off the road, exits, extra costs)."""
        g = self.graph
        index, hexes = g.index, g.hexes
        best, scale, stops, exv = self.best, self.scale, self.stops, self.exv
        back = (d + 3) % 6
        line = [i]
        h = hexes[i]
        for _ in range(self.run_cap):
            h = h.neighbor(back)
            j = index.get(h)
            if j is None:
                break
            line.append(j)
        for k in range(len(line) - 1, 1, -1):
            rk = line[k]
            if (rk in stops and rk != self.start) or any(
                (line[m] in stops and line[m] != self.start) or not self._passable(line[m]) for m in range(1, k)
            ):
                continue
            first = line[k - 1] << 3 | d
            found: tuple[int, int] | None = None
            for f in range(6):
                c = best[rk << 3 | f]
                if c < 0 or c > self.budget:
                    continue
                step = next((e for e in self.rows[rk << 3 | f] if e[0] == first), None)
                if step is None:
                    continue
                key = c + (0 if _FREE[f] >> d & 1 else scale)  # before the step: label and turn
                if found is not None and key >= found[0]:
                    continue
                c = _step(c, exv[rk] if exv is not None else 0, scale, step)
                for m in range(k - 1, 0, -1):
                    e = self.free[line[m] << 3 | d]
                    if e is None:
                        c = total + 1
                        break
                    c = _step(c, exv[line[m]] if exv is not None else 0, scale, e)
                if c == total:
                    found = (key, f)
            if found is not None:
                return rk << 3 | found[1], [hexes[line[m]] for m in range(k - 1, -1, -1)]
        return i << 3 | d, []


def _step(c: int, exit_ticks: int, scale: int, edge: tuple[int, int, bool]) -> int:
    """Ticks after one step along ``edge`` from a hex reached at ``c`` ticks, as
    the searches count it (cen:full.movement G, H: road rate from road hex to
    road hex, fractions lost on leaving the road; exits such as caltrops)."""
    base = c + exit_ticks
    if edge[2]:
        return base + edge[1]
    r = base % scale
    return (base - r + scale if r else base) + edge[1]


def _cheapest(fs: dict[int, int]) -> int:
    """The cheapest final facing, lowest direction first (deterministic)."""
    g_best, c_best = -1, 0
    for g, c in fs.items():
        if g_best < 0 or c < c_best:
            g_best, c_best = g, c
    return g_best


class _Facings(Mapping[Hex, dict[int, int]]):
    """Destination -> final facing -> ticks, worked out per hex on demand."""

    __slots__ = ("_cost", "_search", "_done")

    def __init__(self, cost: dict[Hex, int], search: _Search) -> None:
        self._cost = cost
        self._search = search
        self._done: dict[Hex, dict[int, int]] = {}

    def __getitem__(self, h: Hex) -> dict[int, int]:
        got = self._done.get(h)
        if got is None:
            if h not in self._cost:
                raise KeyError(h)
            got = self._done[h] = self._search.final(self._search.graph.index[h])[0]
        return got

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._cost)

    def __len__(self) -> int:
        return len(self._cost)

    def __contains__(self, h: object) -> bool:
        return h in self._cost


def movable_reason(state: CenturionState, unit: Unit, hooks: MoveHooks | None = None) -> tuple[str, str] | None:
    """Why ``unit`` may not move now, as (reason, rule ID), or None if it may."""
    if unit.eliminated or unit.hex is None:
        return f"{unit.id} is no longer on the map", "cen:basic.movement"
    if unit.side != state.active:
        return f"{unit.id} belongs to {unit.side}; no enemy movement in a Movement Phase", "cen:basic.movement"
    if unit.moved:
        rule = "cen:basic.movement" if state.version == "basic" else "cen:full.movement"
        return f"{unit.id} has already moved this phase (case I: a unit moves once)", rule
    if unit.dispersed:
        rule = "cen:basic.combat" if state.version == "basic" else "cen:full.relief"
        return f"{unit.id} at {state.hid(unit.hex)} is dispersed and may not move", rule
    if state.version == "basic":
        if unit.hex in state.zoc_hexes(state.opponent(unit.side)):
            return (
                f"{unit.id} at {state.hid(unit.hex)} is adjacent to the enemy and locked in its Zone of Control (case B)",
                "cen:basic.zoc",
            )
    else:
        if unit.contact:
            return f"{unit.id} at {state.hid(unit.hex)} is in contact with the enemy and may not break off (case K)", "cen:full.contact"
    if hooks is not None and hooks.movable is not None:
        return hooks.movable(state, unit)
    return None


def reachable(state: CenturionState, unit: Unit, hooks: MoveHooks | None = None) -> Reach:
    """Every hex ``unit`` may end its move in, with the least cost (no checks
    on whether it may move at all: see :func:`movable_reason`)."""
    if state.version == "basic":
        return _reach_basic(state, unit, hooks)
    return _reach_full(state, unit, hooks)


class _Stacks:
    """Occupied hexes, judged when the search first reaches each one (most are
    never reached): enemy units are never entered or passed (cen:basic.movement
    G, cen:full.movement A), nor friendly stacks without room for the unit
    (cen:basic.stacking F, cen:full.stacking C)."""

    __slots__ = ("state", "unit", "limit", "pending", "counts")

    def __init__(self, state: CenturionState, unit: Unit, hooks: MoveHooks | None, index: dict[Hex, int]) -> None:
        self.state = state
        self.unit = unit
        self.limit = stack_limit if hooks is None or hooks.stack_limit is None else hooks.stack_limit
        self.counts = state.types[unit.type].counts_for_stacking  # Command units always fit (B)
        self.pending: dict[int, tuple[Hex, list[str]]] = {index[h]: (h, ids) for h, ids in state.stacks.items()}
        self.pending.pop(index[unit.hex], None)  # type: ignore[index]

    def closed(self, j: int) -> bool:
        """True if the unit may not enter the occupied hex with index ``j``."""
        h, ids = self.pending[j]
        state = self.state
        units = state.units
        if units[ids[0]].side != self.unit.side:
            return True
        if not self.counts:
            return False
        types = state.types
        n = 0
        for i in ids:
            if types[units[i].type].counts_for_stacking:
                n += 1
        return n + 1 > self.limit(state, self.unit, h)


def _common(state: CenturionState, unit: Unit, hooks: MoveHooks | None, budget_mf: int | None = None):
    ct = cost_table(state)
    t = state.types[unit.type]
    kind = str(t.kind)
    graph = _graph(ct, kind)
    mfa = t.movement
    if state.version == "basic" and t.basic is not None:
        mfa = t.basic.movement
    if hooks is not None and hooks.mfa is not None:
        mfa = hooks.mfa(state, unit)
    if budget_mf is not None:  # refusals: what a destination would need, past the allowance
        mfa = budget_mf
    budget = mfa * ct.scale
    side = unit.side
    full = _Stacks(state, unit, hooks, graph.index)
    blocked: set[Hex] | frozenset[Hex] = frozenset()
    if hooks is not None and hooks.blocked is not None:
        blocked = hooks.blocked(state, unit)
    stops: frozenset[Hex] | set[Hex] = frozenset()
    if state.version == "basic":
        stops = state.zoc_hexes(state.opponent(side))  # cen:basic.zoc A
    elif hooks is not None and hooks.stop_hexes is not None:
        stops = hooks.stop_hexes(state, unit)
    extra: Mapping[Hex, int | Fraction | None] | None = None
    if hooks is not None and hooks.extra_cost is not None:
        extra = hooks.extra_cost(state, unit)
    return ct, graph, budget, blocked, full, stops, extra


_EXTRA_ROWS: dict[tuple[int, bool, frozenset[tuple[Hex, Any]]], tuple[_Graph, tuple[Any, Any, set[Hex]]]] = {}
"""(graph id, Full?, extra costs) -> (graph, :func:`_with_extra` result): the same
few squares are priced for search after search."""


def _with_extra(
    state: CenturionState, graph: _Graph, scale: int, extra: Mapping[Hex, int | Fraction | None], full: bool
) -> tuple[list[Any], list[Any], set[Hex]]:
    """The graph's edge rows with ``extra`` Movement Factors added to every step
    into the hexes it names (MoveHooks.extra_cost); hexes mapped to None are
    returned to be blocked. Results are shared: callers must not change them."""
    key = (id(graph), full, frozenset(extra.items()))
    got = _EXTRA_ROWS.get(key)
    if got is not None and got[0] is graph:
        return got[1]
    out = _with_extra_rows(state, graph, scale, extra, full)
    if len(_EXTRA_ROWS) > 64:
        _EXTRA_ROWS.clear()
    _EXTRA_ROWS[key] = (graph, out)
    return out


def _with_extra_rows(
    state: CenturionState, graph: _Graph, scale: int, extra: Mapping[Hex, int | Fraction | None], full: bool
) -> tuple[list[Any], list[Any], set[Hex]]:
    index = graph.index
    closed: set[Hex] = set()
    add: dict[int, int] = {}
    for h, x in extra.items():
        j = index.get(h)
        if j is None:
            continue
        if x is None:
            closed.add(h)
            continue
        v = Fraction(x) * scale
        if v.denominator != 1 or v < 0:
            raise ValueError(
                f"extra entry cost {x} MF for {state.hid(h)} is not a non-negative multiple of 1/{scale} MF "
                f"(MoveHooks.extra_cost; cen:full.movement)"
            )
        if v:
            add[j] = int(v)
    rows: list[Any] = list(graph.turn_out if full else graph.out) if add else graph.turn_out if full else graph.out
    free: list[Any] = list(graph.free) if full and add else graph.free
    if not add:
        return rows, free, closed
    hexes = graph.hexes
    for j, x in add.items():
        for nb in hexes[j].neighbors():  # every step into j comes from a neighbour
            p = index.get(nb)
            if p is None:
                continue
            if full:
                for k in range(p << 3, (p << 3) + 6):
                    rows[k] = tuple((e[0], e[1] + x, e[2]) if e[0] >> 3 == j else e for e in rows[k])
                    e = free[k]
                    if e is not None and e[0] >> 3 == j:
                        free[k] = (e[0], e[1] + x, e[2])
            else:
                rows[p] = tuple((e[0], e[1] + x, e[2]) if e[0] == j else e for e in rows[p])
    return rows, free, closed


def _reach_basic(state: CenturionState, unit: Unit, hooks: MoveHooks | None, budget_mf: int | None = None) -> Reach:
    """Dial's algorithm over integer ticks (costs are small whole numbers) and
    integer hex indices."""
    ct, graph, budget, blocked, full, stops, extra = _common(state, unit, hooks, budget_mf)
    scale = ct.scale
    index = graph.index
    out: Any = graph.out
    if extra:
        out, _, closed = _with_extra(state, graph, scale, extra, False)
        blocked = blocked | closed
    start_h = unit.hex
    assert start_h is not None
    start = index[start_h]
    n = len(graph.hexes)
    inf = budget + 1
    best = [inf] * n
    for h in blocked:  # MoveHooks.blocked (squares ...): never entered nor passed
        j = index.get(h)
        if j is not None:
            best[j] = -1
    best[start] = 0
    prev = [-1] * n
    stop = bytearray(n)
    for h in stops:  # cen:basic.zoc A: stop on entering
        j = index.get(h)
        if j is not None:
            stop[j] = 1
    stop[start] = 0
    exv: list[int] | None = None
    if ct.exit_marker:
        exv = [0] * n
        for h, x in ct.exit_marker.items():
            j = index.get(h)
            if j is not None:
                exv[j] = x
    order: list[int] = []
    pend = full.pending
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start)
    for c in range(budget + 1):
        for i in buckets[c]:
            if best[i] != c or stop[i]:
                continue
            base = c + exv[i] if exv is not None else c
            r = base % scale
            ceil = base - r + scale if r else base  # cen:full.movement H: fractions lost off the road
            for j, sc, is_road in out[i]:
                nc = (base if is_road else ceil) + sc
                old = best[j]
                if nc < old:
                    if old == inf:  # first reached
                        if j in pend and full.closed(j):
                            best[j] = -1  # case G: enemy units; case F: a full stack
                            continue
                        order.append(j)
                    best[j] = nc
                    prev[j] = i
                    buckets[nc].append(j)
    hexes = graph.hexes
    cost = dict(zip(map(hexes.__getitem__, order), map(best.__getitem__, order)))
    return Reach(unit.id, start_h, scale, cost, {}, _Search(graph, best, prev, 1, budget, scale, start, 0))


def _reach_full(state: CenturionState, unit: Unit, hooks: MoveHooks | None, budget_mf: int | None = None) -> Reach:
    """(hex, facing) search: move only to the front (cen:full.facing H), a free
    60-degree turn in each hex, more costs one Movement Factor (F, G).

    Dial's algorithm over nodes ``hex index << 3 | facing``. Only the first
    facing taken out of the queue in a hex tries every direction (turns
    included); a later facing of the same hex, costing no less, can improve
    nothing but the directions to its own front that no earlier facing had
    free, so only those are tried. A facing labelled a whole Movement Factor
    or more above another facing of its hex is not queued at all: the other
    facing, turning, offers every direction at no more; labelled more than a
    whole Movement Factor above, it is not even recorded, as it cannot be the
    way into any final facing either (see :meth:`_Search.final`). Both prunings drop
    only relaxations that would fail, so the labels, the predecessors and the
    order in which useful nodes are expanded (hence paths and tie-breaks) are
    those of the plain search.
    """
    ct, graph, budget, blocked, full, stops, extra = _common(state, unit, hooks, budget_mf)
    scale = ct.scale
    index = graph.index
    turn_out: Any = graph.turn_out
    free: Any = graph.free
    if extra:
        turn_out, free, closed = _with_extra(state, graph, scale, extra, True)
        blocked = blocked | closed
    start_h = unit.hex
    assert start_h is not None
    start = index[start_h]
    f0 = unit.facing % 6
    s0 = start << 3 | f0
    n = len(graph.hexes)
    inf = budget + 1
    best = [inf] * (n << 3)
    dead = [-1] * 6
    for h in blocked:
        j = index.get(h)
        if j is not None:
            best[j << 3:(j << 3) + 6] = dead
    start_blocked = best[s0] < 0
    best[s0] = 0
    prev = [-1] * (n << 3)
    mask = bytearray(n)
    for h in stops:  # cen:full.cross-river: stop on entering
        j = index.get(h)
        if j is not None:
            mask[j] = 127  # every direction already "done": nothing is expanded
    mask[start] = 0
    exv: list[int] | None = None
    if ct.exit_marker:
        exv = [0] * n
        for h, x in ct.exit_marker.items():
            j = index.get(h)
            if j is not None:
                exv[j] = x
    order: list[int] = []
    pend = full.pending
    lo = [inf] * n  # least label of any facing, per hex (inf: not reached yet)
    lo[start] = 0
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(s0)
    FREE = _FREE
    DIRS = _DIRS
    for c in range(budget + 1):
        for node in buckets[c]:
            if best[node] != c:
                continue
            i = node >> 3
            m = mask[i]
            if m:
                todo = FREE[node & 7] & ~m
                if not todo:
                    continue
                mask[i] = m | todo
                base = c + exv[i] if exv is not None else c
                r = base % scale
                ceil = base - r + scale if r else base  # cen:full.movement H
                # The relaxation below is written out again in the else-branch (turns
                # within the hex): one copy per loop keeps a call out of the hottest path.
                for g in DIRS[todo]:
                    e = free[i << 3 | g]
                    if e is None:
                        continue
                    t, sc, is_road = e
                    nc = (base if is_road else ceil) + sc
                    if nc < best[t]:
                        j = t >> 3
                        x = lo[j]
                        if nc < x:
                            if x == inf:  # first reached
                                if j in pend and full.closed(j):
                                    best[j << 3:(j << 3) + 6] = dead  # cen:full.movement A, cen:full.stacking C
                                    continue
                                order.append(j)
                            lo[j] = nc
                            best[t] = nc
                            prev[t] = node
                            buckets[nc].append(t)
                        elif nc < x + scale:
                            best[t] = nc
                            prev[t] = node
                            buckets[nc].append(t)
                        elif nc == x + scale:  # dominated, but may yet be the final facing's way in
                            best[t] = nc
                            prev[t] = node
            else:
                mask[i] = FREE[node & 7]  # never 0: the hex is expanded
                base = c + exv[i] if exv is not None else c
                r = base % scale
                ceil = base - r + scale if r else base  # cen:full.movement H
                for t, sc, is_road in turn_out[node]:
                    nc = (base if is_road else ceil) + sc
                    if nc < best[t]:
                        j = t >> 3
                        x = lo[j]
                        if nc < x:
                            if x == inf:  # first reached
                                if j in pend and full.closed(j):
                                    best[j << 3:(j << 3) + 6] = dead  # cen:full.movement A, cen:full.stacking C
                                    continue
                                order.append(j)
                            lo[j] = nc
                            best[t] = nc
                            prev[t] = node
                            buckets[nc].append(t)
                        elif nc < x + scale:
                            best[t] = nc
                            prev[t] = node
                            buckets[nc].append(t)
                        elif nc == x + scale:  # dominated, but may yet be the final facing's way in
                            best[t] = nc
                            prev[t] = node
    if start_blocked:
        b = start << 3
        for k in range(b, b + 6):
            if best[k] < 0:
                best[k] = inf
    t = state.types[unit.type]
    run_cap = 0 if unit.dismounted else t.charge_length  # cen:full.cavalry: paths show the charge
    stop_idx = frozenset(j for j in (index.get(h) for h in stops) if j is not None)
    search = _Search(graph, best, prev, 8, budget, scale, start, f0, run_cap, turn_out, free, stop_idx, exv)
    hexes = graph.hexes
    cost: dict[Hex, int] = {}
    fs, _ = search.final(start)
    if fs:
        cost[start_h] = min(fs.values())
    # the cheapest arrival ends facing that way for free
    cost.update(zip(map(hexes.__getitem__, order), map(lo.__getitem__, order)))
    return Reach(unit.id, start_h, scale, cost, _Facings(cost, search), search)


def straight_run(path: list[Hex]) -> int:
    """Hexes entered in one straight line at the end of ``path`` (for charges,
    cen:full.cavalry: "move in a straight line")."""
    if len(path) < 2:
        return 0
    d = (path[-1][0] - path[-2][0], path[-1][1] - path[-2][1])
    n = 1
    for i in range(len(path) - 2, 0, -1):
        if (path[i][0] - path[i - 1][0], path[i][1] - path[i - 1][1]) != d:
            break
        n += 1
    return n


# ------------------------------------------------------------------ the phase


_MF_TEXT: dict[tuple[int, int], str] = {}


def _fmt_mf(ticks: int, scale: int) -> str:
    got = _MF_TEXT.get((ticks, scale))
    if got is None:
        f = Fraction(ticks, scale)
        got = str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
        _MF_TEXT[(ticks, scale)] = got
    return got


_HEX_OPTIONS: dict[int, tuple[Any, dict[Hex, int], dict[tuple[Hex, int, int], Option]]] = {}
"""Per map: (map, hex -> rank in hex-ID order, (hex, ticks, scale) -> destination
option). Options are immutable, so sessions on the same map share them."""


def _hex_options(state: CenturionState, dest_cost: dict[Hex, int], scale: int) -> list[Option]:
    """Destination options in hex-ID order, labelled with their cost in MF."""
    m = state.map
    got = _HEX_OPTIONS.get(id(m))
    if got is None or got[0] is not m:
        ids = state._ids()
        if len(_HEX_OPTIONS) > 16:
            _HEX_OPTIONS.clear()
        got = _HEX_OPTIONS[id(m)] = (m, {h: k for k, h in enumerate(sorted(ids, key=ids.__getitem__))}, {})
    rank, made = got[1], got[2]
    out = []
    for h in sorted(dest_cost, key=rank.__getitem__):
        c = dest_cost[h]
        o = made.get((h, c, scale))
        if o is None:
            o = made[(h, c, scale)] = Option(state.hid(h), _fmt_mf(c, scale) + " MF", h)
        out.append(o)
    return out


def _group_room(state: CenturionState, group: list[Unit], h: Hex, hooks: MoveHooks | None) -> bool:
    """True if every unit of ``group`` fits on ``h`` together (stacking)."""
    counting = [u for u in group if state.types[u.type].counts_for_stacking]
    if not counting:
        return True
    n = state.stacking_count(h, group[0].side)
    lim_fn = hooks.stack_limit if hooks is not None and hooks.stack_limit is not None else stack_limit
    lim = min(lim_fn(state, u, h) for u in counting)
    return n + len(counting) <= lim


MOVING_GROUP = "moving_group"
"""``state.extra`` key: ids of the units making the current move together (a stack or a
square), set before the first of them moves, for the ``after_move`` hook."""


def _bound_units(state: CenturionState, movable: list[Unit],
                 hooks: MoveHooks | None) -> dict[str, tuple[frozenset[str], str, str]]:
    """Movable unit id -> (the units it moves only together with, reason, rule ID):
    :attr:`MoveHooks.moves_with` for each unit that is tied to others."""
    if hooks is None or hooks.moves_with is None:
        return {}
    out = {}
    for u in movable:
        got = hooks.moves_with(state, u)
        if got is not None and len(got[0]) > 1:
            out[u.id] = got
    return out


def _moved_count(state: CenturionState, side: str) -> int:
    """How many of ``side``'s units have moved this phase (the checkpoint rule of
    :func:`movement_phase` with ``every``)."""
    return sum(1 for u in state.live_units(side) if u.moved)


def movement_phase(
    ctx: Context, state: CenturionState, side: str, hooks: MoveHooks | None = None,
    checkpoint: Hashable | None = None, every: int = 1,
) -> Generator[Decision, str, None]:
    """The staged Movement Phase of ``side``: choose a unit, or a hex to move
    its whole stack (or ``done``), then the destination (then, in the Full
    Simulation, the final facing).

    With ``checkpoint``, each choice of a unit is a session checkpoint of that
    name (``ctx.checkpoint``): what has moved is on the units, so the phase can
    be resumed there by calling it again. With ``every`` above 1, only the choices
    made while the number of ``side``'s units already moved is a multiple of
    ``every`` are checkpoints (a state copy, and the collector's walks over the copies
    a game keeps, cost more than replaying the few answers of a move or two); the
    count is read from the state, so a game resumed there checkpoints alike.

    cen:basic.movement B: movement is voluntary, so ``done`` is always offered.
    A stack move is a convenience: each unit makes the same move it could make
    alone (case C: units move individually), and all must fit where they end.
    Units that :attr:`MoveHooks.moves_with` ties together (a square, the
    exception of cen:full.movement C) are offered only as that one stack.
    """
    full = state.version != "basic"
    rule = "cen:full.movement" if full else "cen:basic.movement"
    stack_rule = "cen:full.stacking" if full else "cen:basic.stacking"
    state.phase = "movement"
    while True:
        if checkpoint is not None and (every == 1 or _moved_count(state, side) % every == 0):
            ctx.checkpoint(checkpoint)
        movable: list[Unit] = []
        for u in state.live_units(side):
            if not u.moved and movable_reason(state, u, hooks) is None:
                movable.append(u)
        if not movable:
            return
        opts = [Option(DONE, "end the Movement Phase")]
        by_hex: dict[Hex, list[Unit]] = {}
        for u in movable:
            by_hex.setdefault(u.hex, []).append(u)  # type: ignore[arg-type]
        ids = state._ids()
        bound = _bound_units(state, movable, hooks)
        for h, group in sorted(by_hex.items(), key=lambda kv: ids[kv[0]]):
            tied = [u for u in group if u.id in bound]
            if tied:
                need, _, _ = bound[tied[0].id]
                if need <= {u.id for u in group}:
                    together = [u for u in group if u.id in need]
                    opts.append(Option(ids[h], f"the stack: {', '.join(u.id for u in together)} (moving as one)",
                                       together))
                continue  # the others there move one by one
            if len(group) > 1:
                opts.append(Option(ids[h], f"the stack: {', '.join(u.id for u in group)}", group))
        for u in movable:
            if u.id not in bound:
                opts.append(Option(u.id, state.describe(u, with_id=False), [u]))

        def refuse_unit(text: str, _state: CenturionState = state) -> tuple[str, str] | None:
            u = _state.units.get(text.strip().upper()) or _state.units.get(text.strip())
            if u is None:
                try:
                    h = _state.hex_of(text.strip())
                except ValueError:
                    return f"{text!r} is neither one of your units nor a hex ID; answer a unit, a hex or done", rule
                here = [x for x in _state.stack_at(h) if x.side == side]
                if not here:
                    return f"no unit of {side} at {text}", rule
                tied = next((bound[x.id] for x in here if x.id in bound), None)
                if tied is not None:
                    done = sorted(i for i in tied[0] if _state.units[i].moved)
                    return f"{tied[1]}, and {', '.join(done)} has made its move this phase", tied[2]
                why = [movable_reason(_state, x, hooks) for x in here]
                return next((w for w in why if w is not None),
                            (f"only one unit at {text} may move: choose it by name", rule))
            why = movable_reason(_state, u, hooks)
            if why is None and u.side != side:
                why = (f"{u.id} is not yours", rule)
            if why is None and u.id in bound:
                why = bound[u.id][1] + f": answer its hex {ids[u.hex]}", bound[u.id][2]  # type: ignore[index]
            return why

        key = yield Decision(
            side,
            f"Movement Phase, turn {state.turn}: choose a unit (or a hex: its stack) to move, or done",
            tuple(opts),
            rule=rule,
            kind="move.unit",
            refuse=refuse_unit,
            context={"highlight": sorted({ids[u.hex] for u in movable if u.hex is not None})},
        )
        if key == DONE:
            return
        group = list(next(o.data for o in opts if o.key == key))
        lead = group[0]
        who = lead.id if len(group) == 1 else f"the stack at {ids[lead.hex]}"  # type: ignore[index]
        reaches = [reachable(state, u, hooks) for u in group]
        if len(group) == 1:  # see LAST_REACH
            state.extra[LAST_REACH] = (lead.id, state.rev, lead.facing, reaches[0])
        if len(group) == 1:
            dest_cost = dict(reaches[0].cost)
        else:
            common = set(reaches[0].cost).intersection(*(r.cost for r in reaches[1:]))
            dest_cost = {
                h: max(r.cost[h] for r in reaches) for h in common if _group_room(state, group, h, hooks)
            }
        if hooks is not None and hooks.destination_check is not None:
            checks = [c for c in (hooks.destination_check(state, u) for u in group) if c is not None]
            if checks:
                dest_cost = {h: c for h, c in dest_cost.items() if all(ck(h) is None for ck in checks)}
        elif hooks is not None and hooks.refuse_destination is not None:
            rd = hooks.refuse_destination
            dest_cost = {h: c for h, c in dest_cost.items() if all(rd(state, u, h) is None for u in group)}
        scale = reaches[0].scale
        if not dest_cost:
            for u in group:
                u.moved = True
            log(ctx, state, "move", f"{who} at {ids[lead.hex]} has nowhere to go and stays", rule,  # type: ignore[index]
                private_to=side, public_text=f"{side}: the stack at {ids[lead.hex]} stays")  # type: ignore[index]
            continue
        hopts = [Option("stay", f"leave {who} where it is (counts as its move)"),
                 Option("back", "choose another unit instead")]
        hopts.extend(_hex_options(state, dest_cost, scale))

        def refuse_hex(text: str, _g: list[Unit] = group, _r: Reach = reaches[0]) -> tuple[str, str] | None:
            if hooks is not None and hooks.refuse_destination is not None:
                try:
                    hd = state.hex_of(text.strip())
                except ValueError:
                    hd = None
                if hd is not None:
                    for u in _g:
                        why = hooks.refuse_destination(state, u, hd)
                        if why is not None:
                            return why
            if len(_g) > 1:
                try:
                    h = state.hex_of(text.strip())
                except ValueError:
                    h = None
                if h is not None and state.side_at(h) == side and not _group_room(state, _g, h, hooks):
                    return f"{text.strip()} has no room for all {len(_g)} units of the stack", stack_rule
                for u, r in zip(_g, reaches):
                    if h is not None and h not in r.cost:
                        return _why_not_reachable(state, u, r, text.strip(), hooks)
            return _why_not_reachable(state, _g[0], _r, text.strip(), hooks)

        dest_key = yield Decision(
            side,
            f"Move {state.describe(lead) if len(group) == 1 else who}: choose a destination hex",
            tuple(hopts),
            rule=rule,
            kind="move.hex",
            refuse=refuse_hex,
            context={"highlight": [o.key for o in hopts[2:]], "unit": lead.id, "units": [u.id for u in group]},
        )
        if dest_key == "back":
            continue
        for u in group:
            u.moved = True
        if dest_key == "stay":
            log(ctx, state, "move", f"{who} stays at {ids[lead.hex]}", rule,  # type: ignore[index]
                units=[u.id for u in group], private_to=side,
                public_text=f"{side}: the stack at {ids[lead.hex]} stays")  # type: ignore[index]
            continue
        dest = state.hex_of(dest_key)
        if dest not in dest_cost:  # defensive: options are the reach
            raise IllegalAnswer(f"{dest_key} is not reachable by {who}", answer=dest_key, rule=rule)
        facing: int | None = None
        if full:
            common_f = set(reaches[0].facings[dest]).intersection(*(r.facings[dest] for r in reaches[1:]))
            fopts = []
            for g in sorted(common_f):
                c = max(r.facings[dest][g] for r in reaches)
                fopts.append(Option(state.numbering.direction_name(g), f"{_fmt_mf(c, scale)} MF", g))
            if not fopts:  # cannot happen: every reachable hex has a facing
                raise IllegalAnswer(f"no common facing at {dest_key}", answer=dest_key, rule="cen:full.facing")
            def refuse_facing(text: str, _g: list[Unit] = group, _rs: list[Reach] = reaches,
                              _dest: Hex = dest) -> tuple[str, str] | None:
                return _why_not_facing(state, _g, _rs, _dest, text.strip())

            fkey = yield Decision(
                side,
                f"{who} to {dest_key}: choose the facing",
                tuple(fopts),
                rule="cen:full.facing",
                kind="move.facing",
                refuse=refuse_facing,
                context={"highlight": [dest_key], "unit": lead.id},
            )
            facing = state.numbering.direction_from_name(fkey)
        state.extra[MOVING_GROUP] = frozenset(u.id for u in group)
        for u, r in zip(group, reaches):
            rules_used: tuple[str, ...] = (rule,)
            if facing is not None:
                spent = r.facings[dest][facing]
                u.facing = facing
                path = r.path(dest, facing)
                rules_used = (rule, "cen:full.facing")
            else:
                spent = r.cost[dest]
                path = r.path(dest)
            frm = u.hex
            if dest != frm:
                state.move(u, dest)
            stop = ""
            if not full and dest in state.zoc_hexes(state.opponent(side)):
                stop = ", stops in the enemy Zone of Control"
                rules_used = (*rules_used, "cen:basic.zoc")
            facing_txt = f" facing {state.numbering.direction_name(u.facing)}" if full else ""
            log(
                ctx,
                state,
                "move",
                f"{u.id} moves {ids[frm]} -> {dest_key}{facing_txt} ({_fmt_mf(spent, scale)} MF){stop}",  # type: ignore[index]
                rules_used,
                unit=u.id,
                path=[ids[h] for h in path],
                # cen:basic.stacking C: unit ids carry the type; the other side reads only where a
                # unit went (the map shows the stack's make-up where the rule lets it)
                private_to=side,
                public_text=f"a {side} unit moves {ids[frm]} -> {dest_key}{facing_txt}{stop}",  # type: ignore[index]
            )
            if hooks is not None and hooks.after_move is not None:
                hooks.after_move(ctx, state, u, path)


def _why_not_reachable(
    state: CenturionState, unit: Unit, reach: Reach, text: str, hooks: MoveHooks | None
) -> tuple[str, str] | None:
    """Explain an unreachable destination with the rule that forbids it."""
    rule = "cen:basic.movement" if state.version == "basic" else "cen:full.movement"
    try:
        h = state.hex_of(text)
    except ValueError as exc:
        if len(text) == 4 and text.isdigit():
            return f"{exc} (case J: units may not move off the map)", rule
        return f"{text!r} is not a hex ID: answer a destination hex, stay or back", rule
    if h == unit.hex:
        return f"{unit.id} is already at {text}; answer 'stay' to leave it", rule
    occ = state.side_at(h)
    if occ is not None and occ != unit.side:
        return f"{text} holds enemy units: units may never enter a hex containing Enemy units (case G)", rule
    if occ == unit.side and not stack_room(state, unit, h, hooks):
        stack_rule = "cen:basic.stacking" if state.version == "basic" else "cen:full.stacking"
        return f"{text} already holds {state.stacking_count(h, unit.side)} friendly units: stacking limit", stack_rule
    need = _least_mf(state, unit, hooks, h)
    have = reach.allowance
    if need is not None and need > have:
        how = (" (case A: terrain costs per the Terrain Effects Chart)" if state.version == "basic" else
               " (case G: it must have them before entering a hex; moving only to its front, turns of more than "
               "60 degrees included, cen:full.facing)")
        return (f"{unit.id} cannot reach {text}: it needs {_fmt_frac(need)} Movement Factors and has "
                f"{_fmt_frac(have)}{how}", rule)
    if state.version == "basic":
        return (
            f"{unit.id} cannot reach {text}: every way there is blocked "
            f"by enemy units, full friendly stacks or an enemy Zone of Control (it must stop on entering one)",
            "cen:basic.zoc" if any(n in state.zoc_hexes(state.opponent(unit.side)) for n in state.neighbors(h)) else rule,
        )
    return (f"{unit.id} cannot reach {text}: every way there is blocked (enemy units, full stacks, squares it may "
            f"not join, terrain closed to it, or a hex where it must stop first)", rule)


_FAR_MF = 60
"""How far (in Movement Factors) a refusal looks for what a destination would cost."""


def _least_mf(state: CenturionState, unit: Unit, hooks: MoveHooks | None, h: Hex) -> Fraction | None:
    """Least Movement Factors ``unit`` would need to end on ``h`` had it more than
    its allowance (up to ``_FAR_MF``), or None if no way leads there
    (cen:basic.movement A, cen:full.movement, cen:full.facing G)."""
    far = (_reach_basic if state.version == "basic" else _reach_full)(state, unit, hooks, _FAR_MF)
    return far.mf(h) if h in far.cost else None


def _fmt_frac(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _why_not_facing(
    state: CenturionState, group: list[Unit], reaches: list[Reach], dest: Hex, text: str
) -> tuple[str, str]:
    """Explain a facing the unit (or stack) may not end ``dest`` with (cen:full.facing)."""
    rule = "cen:full.facing"
    dk = state.hid(dest)
    try:
        g = state.numbering.direction_from_name(text)
    except ValueError as exc:
        return f"{exc}: answer the facing {', '.join(u.id for u in group)} end with at {dk}", rule
    name = state.numbering.direction_name(g)
    for u, r in zip(group, reaches):
        if g in r.facings[dest]:
            continue
        if dest == u.hex and g == u.facing % 6:
            return (f"{u.id} began at {dk} facing {name}: ending so is no move; choose another facing "
                    f"(or go back to the destination and answer 'stay')", "cen:full.movement")
        got = r.facing_need(dest, g)
        if got is None:  # not expected: dest is reachable
            break
        need, paid = got
        turn = (" a turn of more than 60 degrees after arriving costs one Movement Factor (G), and with its "
                "allowance spent a unit turns at most 60 degrees (E);") if paid else ""
        return (f"{u.id} cannot end at {dk} facing {name}:{turn} that needs {_fmt_frac(need)} Movement Factors "
                f"and it has {_fmt_frac(r.allowance)}", rule)
    return f"{text} is not a facing the whole stack can end with at {dk}", rule
