"""Centurion movement: the hexes a unit can reach this phase, at what cost, by which path.

The search behind the Movement Phase (:mod:`ancients_games.centurion.movement`)
and the Full Simulation's hooks. Rules it serves:

- ``cen:basic.movement`` cases A-J: one Movement Factor per hex, more or less
  per the Terrain Effects Chart; never into or through enemy units (G); never
  off the map (J);
- ``cen:basic.stacking`` F / ``cen:full.stacking`` C: never into or through a
  friendly stack without room for the unit;
- ``cen:basic.zoc`` A: stop on entering an enemy-controlled hex;
- ``cen:full.movement``: road rate from road hex to road hex only, fractions
  lost on leaving the road (G, H); stop hexes (``cen:full.cross-river``, a
  square's hex) and closed ones through :class:`MoveHooks`;
- ``cen:full.facing``: units move only to their front, may turn 60 degrees in
  each hex entered or passed for free, more costs one Movement Factor (F, G);
  a unit that has spent its whole allowance may turn at most 60 degrees (E):
  the final facings of :meth:`_Search.final`;
- ``cen:full.cavalry``: for units that charge, the path shown (and logged) is,
  among the cheapest ones to the chosen hex and facing, one ending in the
  longest straight run in that facing, up to the unit's charge length
  (:meth:`_Search._straight`), so it shows the charge the unit makes.

The search itself is the core's: :func:`ancients_kit.movement.least_costs`
(Basic, over hex indices) and :func:`ancients_kit.movement.least_costs_facing`
(Full, over nodes ``hex index << 3 | facing``), Dial's algorithm over integer
ticks on the step rows of :func:`~ancients_games.centurion.movement_rules.move_graph`.
What stays here is the game's: the allowance, the hexes closed, stopped at or
priced extra (:attr:`MoveHooks.extra_cost`), the stacks judged when the search
first reaches them, and reading the labels back: final facings, paths and the
charge tie-break, worked out only for the destination the player picks.
Results are identical to the plain search the engine used before
(``tests/test_movement_speed.py`` holds it as the reference): the same costs,
facings, paths and tie-breaks, hence the same games.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

import attrs

from ancients_kit.hexgrid import Hex
from ancients_kit.movement import least_costs, least_costs_facing

from ancients_games.centurion.movement_rules import (
    FREE_TURNS,
    CostTable,
    MoveGraph,
    MoveHooks,
    cost_table,
    move_graph,
    stack_limit,
)
from ancients_games.centurion.state import CenturionState, Unit

__all__ = ["Reach", "reachable", "reachable_within", "straight_run"]


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

    def __init__(self, graph: MoveGraph, best: list[int], prev: list[int], stride: int,
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
                key = c + (0 if FREE_TURNS[f] >> d & 1 else scale)  # before the step: label and turn
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


def reachable(state: CenturionState, unit: Unit, hooks: MoveHooks | None = None) -> Reach:
    """Every hex ``unit`` may end its move in, with the least cost (no checks
    on whether it may move at all: see
    :func:`ancients_games.centurion.movement.movable_reason`)."""
    if state.version == "basic":
        return _reach_basic(state, unit, hooks)
    return _reach_full(state, unit, hooks)


def reachable_within(state: CenturionState, unit: Unit, hooks: MoveHooks | None, mf: int) -> Reach:
    """:func:`reachable` with an allowance of ``mf`` Movement Factors instead of the unit's:
    what a destination would cost past the allowance, for the phase's refusals."""
    return (_reach_basic if state.version == "basic" else _reach_full)(state, unit, hooks, mf)


class _Stacks:
    """Occupied hexes, judged when the search first reaches each one (most are
    never reached): enemy units are never entered or passed (cen:basic.movement
    G, cen:full.movement A), nor friendly stacks without room for the unit
    (cen:basic.stacking F, cen:full.stacking C)."""

    __slots__ = ("state", "unit", "limit", "pending", "counts", "hexes")

    def __init__(self, state: CenturionState, unit: Unit, hooks: MoveHooks | None, graph: MoveGraph) -> None:
        self.state = state
        self.unit = unit
        self.limit = stack_limit if hooks is None or hooks.stack_limit is None else hooks.stack_limit
        self.counts = state.types[unit.type].counts_for_stacking  # Command units always fit (B)
        self.hexes = graph.hexes
        stacks = state.stacks
        # hex index -> unit ids; the unit's own hex stays in: the search never first reaches its start
        self.pending: dict[int, list[str]] = dict(zip(map(graph.index.__getitem__, stacks), stacks.values()))

    def closed(self, j: int) -> bool:
        """True if the unit may not enter the occupied hex with index ``j``."""
        ids = self.pending[j]
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
        return n + 1 > self.limit(state, self.unit, self.hexes[j])


def _common(state: CenturionState, unit: Unit, hooks: MoveHooks | None, budget_mf: int | None,
            faced: bool) -> tuple[CostTable, MoveGraph, int, int, Any, Any, Any, Any, _Stacks, Any]:
    """What both searches start from: (cost table, graph, budget in ticks, start index,
    step rows (the turn rows when ``faced``), front rows, the core's cache of front rows by
    direction sets, closed hexes, stacks, stop hexes),
    the rows priced with :attr:`MoveHooks.extra_cost` (its closed hexes added to the closed)."""
    ct = cost_table(state)
    t = state.types[unit.type]
    kind = str(t.kind)
    graph = move_graph(ct, kind)
    mfa = t.movement
    if state.version == "basic" and t.basic is not None:
        mfa = t.basic.movement
    if hooks is not None and hooks.mfa is not None:
        mfa = hooks.mfa(state, unit)
    if budget_mf is not None:  # refusals: what a destination would need, past the allowance
        mfa = budget_mf
    budget = mfa * ct.scale
    side = unit.side
    full = _Stacks(state, unit, hooks, graph)
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
    rows: Any = graph.turn_out if faced else graph.out
    free: Any = graph.free
    sets = graph.front_sets
    if extra:
        rows, free, sets, closed = _with_extra(state, graph, ct.scale, extra, faced)
        blocked = blocked | closed
    start_h = unit.hex
    assert start_h is not None
    return ct, graph, budget, graph.index[start_h], rows, free, sets, blocked, full, stops


_EXTRA_ROWS: dict[tuple[int, bool, frozenset[tuple[Hex, Any]]], tuple[MoveGraph, tuple[Any, Any, Any, set[Hex]]]] = {}
"""(graph id, Full?, extra costs) -> (graph, :func:`_with_extra` result): the same
few squares are priced for search after search."""


def _with_extra(
    state: CenturionState, graph: MoveGraph, scale: int, extra: Mapping[Hex, int | Fraction | None], full: bool
) -> tuple[list[Any], list[Any], dict[int, Any], set[Hex]]:
    """The graph's edge rows with ``extra`` Movement Factors added to every step
    into the hexes it names (MoveHooks.extra_cost), their front rows and the cache of
    those by direction sets; hexes mapped to None are returned to be blocked. Results
    are shared: callers must not change them."""
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
    state: CenturionState, graph: MoveGraph, scale: int, extra: Mapping[Hex, int | Fraction | None], full: bool
) -> tuple[list[Any], list[Any], dict[int, Any], set[Hex]]:
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
        return rows, free, graph.front_sets, closed
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
    return rows, free, {}, closed


def _exit_ticks(ct: CostTable, index: dict[Hex, int]) -> list[int] | None:
    """Ticks to leave each hex index (caltrops, cen:opt.caltrops), or None if no hex has any."""
    if not ct.exit_marker:
        return None
    exv = [0] * len(index)
    for h, x in ct.exit_marker.items():
        j = index.get(h)
        if j is not None:
            exv[j] = x
    return exv


def _reach_basic(state: CenturionState, unit: Unit, hooks: MoveHooks | None, budget_mf: int | None = None) -> Reach:
    """The Basic Game's search: the core's least costs over integer hex indices, one step per
    neighbour (cen:basic.movement A), stopping on entering an enemy Zone of Control
    (cen:basic.zoc A), never into enemy units or full stacks (case G, cen:basic.stacking F)."""
    ct, graph, budget, start, out, _, _, blocked, full, stops = _common(state, unit, hooks, budget_mf, False)
    scale = ct.scale
    index = graph.index
    # least_costs(rows, start, budget, quantum, exits, stops, closed, asks, gate, index), unpacked
    # at once: keywords and attribute reads would cost about one per cent of a short search
    best, prev, order, _ = least_costs(out, start, budget, scale, _exit_ticks(ct, index), stops, blocked,
                                       full.pending, full.closed, index)
    hexes = graph.hexes
    cost = dict(zip(map(hexes.__getitem__, order), map(best.__getitem__, order)))
    return Reach(unit.id, unit.hex, scale, cost, {},  # type: ignore[arg-type]  # on the map: see _common
                 _Search(graph, best, prev, 1, budget, scale, start, 0))


def _reach_full(state: CenturionState, unit: Unit, hooks: MoveHooks | None, budget_mf: int | None = None) -> Reach:
    """The Full Simulation's (hex, facing) search: the core's least costs over nodes
    ``hex index << 3 | facing``, moving only to the front (cen:full.facing H), a free
    60-degree turn in each hex, more costs one Movement Factor (F, G: the graph's turn rows,
    :data:`FREE_TURNS`); stop hexes (cen:full.cross-river, a square's hex) entered, not left.
    The core's prunings (see :func:`ancients_kit.movement.least_costs_facing`) leave the
    labels, predecessors and tie-breaks of the plain search over every node, as
    ``tests/test_movement_speed.py`` checks."""
    ct, graph, budget, start, turn_out, free, sets, blocked, full, stops = _common(state, unit, hooks, budget_mf, True)
    scale = ct.scale
    index = graph.index
    start_h: Hex = unit.hex  # type: ignore[assignment]  # on the map: see _common
    f0 = unit.facing % 6
    exv = _exit_ticks(ct, index)
    best, prev, order, lo = least_costs_facing(turn_out, free, FREE_TURNS, start, f0, budget, scale, exv, stops,
                                               blocked, full.pending, full.closed, index, sets)  # as in _reach_basic
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
