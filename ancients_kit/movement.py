"""Movement: the hexes a unit can reach and the paths it takes to get there.

Games fold their own terrain and hexside rules into one ``cost(a, b)``
function (the entry cost of stepping from ``a`` into the adjacent ``b``, or
``None`` if the step is forbidden), compute the set of hexes in an enemy zone
of control (EZOC) themselves -- which units project ZOC, across which
hexsides -- and pick a :class:`ZocPolicy`. This module then runs one
Dijkstra search and returns a :class:`Reach` with costs and paths.

Rules it serves, as the games parametrise it:

- entry costs, movement allowance, no skipping hexes: ``cen:basic.movement``,
  ``cen:full.movement``, ``ldf:12.2``, ``xen:movement``, ``ccr:base.movement``;
- zones of control, as a :class:`ZocPolicy` the game picks: stop on entering
  an EZOC and never leave one (:data:`ZOC_LOCKING`); stop on entering, may
  leave but not straight into another EZOC (:data:`ZOC_NOT_EZOC_TO_EZOC`);
  plain stop on entering (:data:`ZOC_STOP`); none (:data:`ZOC_IGNORE`);
- stacking: a unit may pass through a hex it may not end in
  (``can_stop``; ``cen:full.stacking`` C, ``xen:stacking``).

Games that move by hexes rather than movement points (C&C: "move up to 2
hexes", terrain that stops a move or bars it) use :func:`reach_in_steps`:
a breadth-first walk on the same idea, where the game says of each hex what
entering it means (:data:`BARRED`, :data:`THROUGH`, :data:`HALT`,
:data:`ONWARD`), on any node type and adjacency.

Games whose step prices depend on more than the hex entered use
:func:`least_costs` and :func:`least_costs_facing`: Dial's algorithm over
integer node ids (a cell index, or ``cell << 3 | facing`` for units that move
to their front and pay for turns) within an integer budget, on successor rows
the game precomputes once per map and unit kind. Their hooks are what
Centurion's Movement Phase needs and nothing game-specific: a step price that
depends on the cost so far (road fractions lost on leaving a road,
``cen:full.movement`` H: a :data:`Step` keeps fractions of a ``quantum`` or
rounds up first), exit costs per cell, stop cells (entered, not left: a zone
of control), closed cells, and a gate asked when a cell is first reached
(enemy units, full stacks: judged there, since most are never reached).

Why the seam is there (rows, not a step function): the game owns the rules
and builds the rows (terrain, hexsides, roads, turns, extra costs), the core
owns the bucket loop and the labels. A step function ``step(node, cost)``
returning successors and prices, called at every expansion, was measured 1.8
times slower than the rows on the Basic Game's positions of seeded games (42
against 75 microseconds a search): the call, the list it builds and the
tuple per successor cost more than the relaxations themselves. With rows the
games' searches run as fast as Centurion's own tuned search did (the same
loop, moved here), and what stays in the game is its rules and reading the
labels back (facings, paths).

Determinism: ties between equal-cost paths are broken by the order in which
neighbours are tried (direction order, or the order of the ``neighbors``
mapping), never by hashing, so paths are the same on every run.

Costs may be ``int`` or ``fractions.Fraction`` (roads at 1/2); the search is
exact, no floats.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from heapq import heappop, heappush
from types import MappingProxyType
from typing import NamedTuple, TypeVar, Union

import attrs

from ancients_kit.hexgrid import DIRECTIONS, Hex

__all__ = [
    "CostFn",
    "HexGraph",
    "MP",
    "Reach",
    "ZOC_IGNORE",
    "ZOC_LOCKING",
    "ZOC_STOP",
    "ZOC_NOT_EZOC_TO_EZOC",
    "ZocPolicy",
    "distances_from",
    "find_path",
    "neighbour_fn",
    "path_cost",
    "reachable",
    "reach_in_steps",
    "BARRED",
    "THROUGH",
    "HALT",
    "ONWARD",
    "Labels",
    "Step",
    "least_costs",
    "least_costs_facing",
]

_N = TypeVar("_N")
_K = TypeVar("_K", bound=Hashable)

MP = Union[int, Fraction]
"""Movement points: an int or an exact Fraction."""
CostFn = Callable[[Hex, Hex], Union[int, Fraction, None]]
"""``cost(a, b)``: MP to step from ``a`` into adjacent ``b``; ``None`` if forbidden."""


@attrs.frozen
class ZocPolicy:
    """How enemy zones of control restrict a move (the game picks one)."""

    stop_on_entry: bool = True
    """A unit must end its move in the first EZOC hex it enters."""
    may_leave: bool = True
    """A unit that starts its move in an EZOC may move out of it."""
    ezoc_to_ezoc: bool = True
    """A unit may step directly from one EZOC hex into another."""
    name: str = ""
    """Short label for logs and error messages."""


ZOC_IGNORE = ZocPolicy(stop_on_entry=False, may_leave=True, ezoc_to_ezoc=True, name="ignore")
"""EZOC has no effect (units that ignore ZOC, or games without it)."""
ZOC_STOP = ZocPolicy(stop_on_entry=True, may_leave=True, ezoc_to_ezoc=True, name="stop")
"""Stop on entering an EZOC; a unit starting in one moves freely out of it."""
ZOC_LOCKING = ZocPolicy(stop_on_entry=True, may_leave=False, ezoc_to_ezoc=False, name="locking")
"""Stop on entering; never leave."""
ZOC_NOT_EZOC_TO_EZOC = ZocPolicy(stop_on_entry=True, may_leave=True, ezoc_to_ezoc=False, name="not-ezoc-to-ezoc")
"""Stop on entering; a unit starting in an EZOC may leave it, but not straight into another."""


class Reach:
    """Result of :func:`reachable`: costs, paths and legal end hexes.

    - ``cost[h]``: least MP spent to enter ``h`` (the start costs 0). Holds
      every hex the unit can pass through, including ones it may not stop in.
    - ``hexes``: the hexes where the unit may end its move, *excluding* the
      start (staying put is always possible and is not a move).
    - ``stopped``: hexes in ``cost`` where the move had to end (EZOC).
    - ``path_to(h)``: the hexes from the start to ``h``, both included.
    """

    __slots__ = ("start", "mp", "cost", "parent", "_can_stop", "_ezoc", "_stops", "_hexes", "_stopped")

    def __init__(
        self,
        start: Hex,
        mp: MP,
        cost: dict[Hex, MP],
        parent: dict[Hex, Hex | None],
        can_stop: Callable[[Hex], bool] | None = None,
        ezoc: Collection[Hex] = frozenset(),
        stops_in_ezoc: bool = False,
    ) -> None:
        self.start = start
        self.mp = mp
        self.cost = cost
        self.parent = parent
        self._can_stop = can_stop
        self._ezoc = ezoc
        self._stops = stops_in_ezoc
        self._hexes: frozenset[Hex] | None = None
        self._stopped: frozenset[Hex] | None = None

    @property
    def hexes(self) -> frozenset[Hex]:
        """Hexes where the unit may end its move, the start excluded."""
        if self._hexes is None:
            ok = self._can_stop
            s = self.start
            self._hexes = frozenset(h for h in self.cost if h != s and (ok is None or ok(h)))
        return self._hexes

    @property
    def stopped(self) -> frozenset[Hex]:
        """Reached hexes where the move had to end (EZOC with a stop-on-entry policy)."""
        if self._stopped is None:
            ez, s = self._ezoc, self.start
            self._stopped = frozenset(h for h in self.cost if h != s and h in ez) if self._stops and ez else frozenset()
        return self._stopped

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def __len__(self) -> int:
        return len(self.hexes)

    def __repr__(self) -> str:
        return f"Reach(start={self.start!r}, mp={self.mp!r}, {len(self.hexes)} end hexes)"

    def remaining(self, h: Hex) -> MP:
        """MP left after reaching ``h`` (never negative)."""
        left = self.mp - self.cost[h]
        return left if left > 0 else 0

    def path_to(self, h: Hex) -> list[Hex]:
        """Hexes from the start to ``h`` inclusive; ``ValueError`` if ``h`` was not reached."""
        if h not in self.parent:
            raise ValueError(f"{h!r} cannot be reached from {self.start!r} with {self.mp} MP")
        out = [h]
        p = self.parent[h]
        while p is not None:
            out.append(p)
            p = self.parent[p]
        out.reverse()
        return out


def neighbour_fn(
    neighbors: Mapping[Hex, Iterable[Hex]] | Callable[[Hex], Iterable[Hex]] | None,
) -> Callable[[Hex], Iterable[Hex]]:
    """The neighbours of a hex as a function: of an adjacency mapping, a function as it is,
    or, for ``None``, the six hexes around (an unbounded grid)."""
    if neighbors is None:
        new = tuple.__new__
        dirs = DIRECTIONS

        def around(h: Hex) -> list[Hex]:
            q, r = h
            return [new(Hex, (q + dq, r + dr)) for dq, dr in dirs]

        return around
    if isinstance(neighbors, (dict, MappingProxyType)) or (
        not callable(neighbors) and isinstance(neighbors, Mapping)
    ):
        return neighbors.__getitem__
    return neighbors


class _NotIndex(Exception):
    """A cost is not an int: leave the bucket queue for the heap."""


class HexGraph:
    """A fixed set of hexes numbered ``0..n-1`` with neighbour index tuples.

    The fast form of an adjacency mapping: searches on it index lists instead
    of hashing coordinate tuples. Build it once per map (``HexMap.graph`` does)
    and pass it as ``neighbors``; a plain mapping passed as ``neighbors`` is
    converted once and cached.
    """

    __slots__ = ("hexes", "index", "nbr", "adjacency", "__weakref__")

    def __init__(self, adjacency: Mapping[Hex, Iterable[Hex]]) -> None:
        hexes: list[Hex] = [h if type(h) is Hex else Hex(*h) for h in adjacency]
        index = {h: i for i, h in enumerate(hexes)}
        adj: dict[Hex, tuple[Hex, ...]] = {}
        for h in list(hexes):
            ns = tuple(n if type(n) is Hex else Hex(*n) for n in adjacency[h])
            for n in ns:
                if n not in index:  # a neighbour that is not a key: a dead end
                    index[n] = len(hexes)
                    hexes.append(n)
            adj[h] = ns
        for h in hexes:
            adj.setdefault(h, ())
        self.hexes: tuple[Hex, ...] = tuple(hexes)
        """Hex of each index."""
        self.index: dict[Hex, int] = index
        """Index of each hex."""
        self.nbr: tuple[tuple[int, ...], ...] = tuple(tuple(index[n] for n in adj[h]) for h in hexes)
        """Neighbour indexes of each index."""
        self.adjacency: dict[Hex, tuple[Hex, ...]] = adj
        """Hex -> neighbour hexes."""

    def __len__(self) -> int:
        return len(self.hexes)

    def __contains__(self, h: object) -> bool:
        return h in self.index


_GRAPHS: dict[int, tuple[object, HexGraph]] = {}


def _graph_for(adjacency: Mapping[Hex, Iterable[Hex]]) -> HexGraph:
    """The cached :class:`HexGraph` of an adjacency mapping (by identity)."""
    hit = _GRAPHS.get(id(adjacency))
    if hit is not None and hit[0] is adjacency:
        return hit[1]
    g = HexGraph(adjacency)
    if len(_GRAPHS) >= 32:
        _GRAPHS.clear()
    _GRAPHS[id(adjacency)] = (adjacency, g)  # holding the mapping keeps its id unique
    return g


_BIG = 1 << 62  # "not reached" in the indexed search: int compares are the fastest


def _search(
    start: Hex,
    mp: MP | None,
    cost: CostFn | Mapping[Hex, MP | None],
    ezoc: Collection[Hex],
    zoc: ZocPolicy,
    can_enter: Callable[[Hex, Hex], bool] | None,
    can_stop: Callable[[Hex], bool] | None,
    in_bounds: Callable[[Hex], bool] | Collection[Hex] | None,
    min_one_hex: bool,
    neighbors: HexGraph | Mapping[Hex, Iterable[Hex]] | Callable[[Hex], Iterable[Hex]] | None,
    goal: Hex | None,
) -> tuple[dict[Hex, MP], dict[Hex, Hex | None]]:
    if type(start) is not Hex:
        start = Hex(*start)
    if ezoc and start in ezoc and not zoc.may_leave:
        return {start: 0}, {start: None}  # ldf:11.4, cen:basic.zoc B: locked in place
    if in_bounds is not None and not callable(in_bounds):
        in_bounds = in_bounds.__contains__
    graph: HexGraph | None = None
    if isinstance(neighbors, HexGraph):
        graph = neighbors
    elif neighbors is not None and not callable(neighbors):
        graph = _graph_for(neighbors)
    if graph is not None and start not in graph.index:
        raise ValueError(f"cannot move from {start!r}: it is not on the map")
    if graph is not None and type(mp) is int and 0 <= mp:
        try:
            return _search_indexed(graph, start, mp, cost, ezoc, zoc, can_enter, can_stop, in_bounds, min_one_hex, goal)
        except _NotIndex:
            pass  # a Fraction (or other) cost: redo exactly with the heap
    around = graph.adjacency.__getitem__ if graph is not None else neighbour_fn(neighbors)
    return _search_heap(start, mp, cost, ezoc, zoc, can_enter, can_stop, in_bounds, min_one_hex, around, goal)


def _search_indexed(
    graph: HexGraph,
    start: Hex,
    mp: int,
    cost: CostFn | Mapping[Hex, MP | None],
    ezoc: Collection[Hex],
    zoc: ZocPolicy,
    can_enter: Callable[[Hex, Hex], bool] | None,
    can_stop: Callable[[Hex], bool] | None,
    in_bounds: Callable[[Hex], bool] | None,
    min_one_hex: bool,
    goal: Hex | None,
) -> tuple[dict[Hex, MP], dict[Hex, Hex | None]]:
    """Dial's algorithm on list indexes: one bucket per integer cost 0..mp.

    Same results as :func:`_search_heap` for integer costs. One loop serves every
    case: a query without EZOC, vetoes, bounds or goal (no game's: the games pass
    their vetoes, or search rows) once had a copy of its own, 5-9% faster on the
    movement benchmark (``benchmarks/results/engine-speed.md``).
    """
    H, nbr = graph.hexes, graph.nbr
    n = len(H)
    best = [_BIG] * n
    parent = [-1] * n
    s = graph.index[start]
    best[s] = 0
    reached = [s]
    buckets: list[list[int]] = [[] for _ in range(mp + 1)]
    by_hex = not callable(cost)
    price = cost.get if by_hex else None  # type: ignore[union-attr]

    # The start first: it alone may overrun the allowance (min_one_hex), and
    # a unit starting in EZOC is not stopped by it.
    s_in_ezoc = start in ezoc if ezoc else False
    no_hop = not zoc.ezoc_to_ezoc
    stop_on_entry = zoc.stop_on_entry
    for j in nbr[s]:
        b = H[j]
        if in_bounds is not None and not in_bounds(b):
            continue
        w = price(b) if by_hex else cost(start, b)  # type: ignore[misc,operator]
        if w is None:
            continue
        over = w > mp
        if (over and not min_one_hex) or w >= best[j]:
            continue
        if can_enter is not None and not can_enter(start, b):
            continue
        if ezoc and b in ezoc:
            if no_hop and s_in_ezoc:
                continue  # xen:zoc: never directly from one EZOC to another
            if stop_on_entry and can_stop is not None and not can_stop(b):
                continue  # would have to stop where it may not end
        if best[j] == _BIG:
            reached.append(j)
        best[j] = w
        parent[j] = s
        if not over:
            try:
                buckets[w].append(j)
            except TypeError:
                raise _NotIndex from None

    for c in range(mp + 1):
        for i in buckets[c]:  # zero-cost steps append to this same list while it is walked
            if best[i] != c:
                continue  # stale (the start is never queued: it was expanded above)
            h = H[i]
            if goal is not None and h == goal:
                break
            h_in_ezoc = h in ezoc if ezoc else False
            if h_in_ezoc and stop_on_entry:
                continue  # must stop here: ldf:11.3, cen:basic.zoc A, xen:zoc
            for j in nbr[i]:
                old = best[j]
                if old <= c:
                    continue
                b = H[j]
                if in_bounds is not None and not in_bounds(b):
                    continue
                w = price(b) if by_hex else cost(h, b)  # type: ignore[misc,operator]
                if w is None:
                    continue
                nc = c + w
                if nc > mp or nc >= old:
                    continue
                if can_enter is not None and not can_enter(h, b):
                    continue
                if ezoc and b in ezoc:
                    if no_hop and h_in_ezoc:
                        continue  # xen:zoc: never directly from one EZOC to another
                    if stop_on_entry and can_stop is not None and not can_stop(b):
                        continue  # would have to stop where it may not end
                if old == _BIG:
                    reached.append(j)
                best[j] = nc
                parent[j] = i
                try:
                    buckets[nc].append(j)
                except TypeError:
                    raise _NotIndex from None
        else:
            continue
        break  # the goal was reached
    costs = {H[i]: best[i] for i in reached}
    parents: dict[Hex, Hex | None] = {H[i]: H[parent[i]] for i in reached if i != s}
    parents[start] = None
    return costs, parents


def _search_heap(
    start: Hex,
    mp: MP | None,
    cost: CostFn | Mapping[Hex, MP | None],
    ezoc: Collection[Hex],
    zoc: ZocPolicy,
    can_enter: Callable[[Hex, Hex], bool] | None,
    can_stop: Callable[[Hex], bool] | None,
    in_bounds: Callable[[Hex], bool] | None,
    min_one_hex: bool,
    around: Callable[[Hex], Iterable[Hex]],
    goal: Hex | None,
) -> tuple[dict[Hex, MP], dict[Hex, Hex | None]]:
    """Dijkstra with a binary heap: any exact costs (Fraction), any limit."""
    best: dict[Hex, MP] = {start: 0}
    parent: dict[Hex, Hex | None] = {start: None}
    by_hex = not callable(cost)
    get = cost.get if by_hex else None  # type: ignore[union-attr]
    stop_on_entry = zoc.stop_on_entry
    no_hop = not zoc.ezoc_to_ezoc
    # (cost, seq, hex): seq keeps ties in discovery order, as the buckets do.
    heap: list[tuple[MP, int, Hex]] = [(0, 0, start)]
    seq = 1
    while heap:
        c, _, h = heappop(heap)
        if c != best[h]:
            continue  # stale entry
        if goal is not None and h == goal:
            break
        h_in_ezoc = h in ezoc if ezoc else False
        if h_in_ezoc and stop_on_entry and h != start:
            continue  # must stop here: ldf:11.3, cen:basic.zoc A, xen:zoc
        first = h == start
        for b in around(h):
            if in_bounds is not None and not in_bounds(b):
                continue
            w = get(b) if by_hex else cost(h, b)  # type: ignore[misc,operator]
            if w is None:
                continue
            nc = c + w
            over = mp is not None and nc > mp
            if over and not (min_one_hex and first):
                continue
            old = best.get(b)
            if old is not None and old <= nc:
                continue
            if can_enter is not None and not can_enter(h, b):
                continue
            if ezoc and b in ezoc:
                if no_hop and h_in_ezoc:
                    continue  # xen:zoc: never directly from one EZOC to another
                if stop_on_entry and can_stop is not None and not can_stop(b):
                    continue  # would have to stop where it may not end
            best[b] = nc
            parent[b] = h
            if not over:
                heappush(heap, (nc, seq, b))
                seq += 1
    return best, parent


def reachable(
    start: Hex,
    mp: MP,
    cost: CostFn | Mapping[Hex, MP | None],
    *,
    ezoc: Collection[Hex] = frozenset(),
    zoc: ZocPolicy = ZOC_STOP,
    can_enter: Callable[[Hex, Hex], bool] | None = None,
    can_stop: Callable[[Hex], bool] | None = None,
    in_bounds: Callable[[Hex], bool] | Collection[Hex] | None = None,
    min_one_hex: bool = False,
    neighbors: HexGraph | Mapping[Hex, Iterable[Hex]] | Callable[[Hex], Iterable[Hex]] | None = None,
) -> Reach:
    """Every hex a unit at ``start`` with ``mp`` movement points can reach.

    ``cost(a, b)``: entry cost from ``a`` into adjacent ``b`` (terrain plus
    hexside, as the game rules say), ``None`` if impassable. Costs must be
    ``>= 0``. ``ezoc``: hexes in an enemy zone of control (the game decides
    who projects ZOC and across which hexsides). ``zoc``: what EZOC does.
    ``can_enter(a, b)``: extra veto on a step (enemy units, stacking when
    passing through is not allowed). ``can_stop(h)``: may the unit end its
    move in ``h`` (stacking limits; it may still pass through).
    ``in_bounds``: a predicate or a set of hexes (the map). ``neighbors``: a
    precomputed adjacency (``HexMap.adjacency``), which also bounds the map.
    ``min_one_hex``: the unit may always enter one adjacent hex whatever its
    cost, if the step is otherwise legal.

    ``cost`` may also be a mapping hex -> entry cost (``None``: impassable)
    when costs depend on the entered hex only. Pass ``neighbors`` as a
    :class:`HexGraph` (``HexMap.graph``) or a map's adjacency for the fast
    indexed search; integer costs with an integer ``mp`` use a bucket queue,
    anything else (Fractions) an exact heap search with identical results.
    """
    best, parent = _search(start, mp, cost, ezoc, zoc, can_enter, can_stop, in_bounds, min_one_hex, neighbors, None)
    s = start if type(start) is Hex else Hex(*start)
    return Reach(s, mp, best, parent, can_stop, ezoc, zoc.stop_on_entry)


def find_path(
    start: Hex,
    goal: Hex,
    cost: CostFn | Mapping[Hex, MP | None],
    *,
    mp: MP | None = None,
    ezoc: Collection[Hex] = frozenset(),
    zoc: ZocPolicy = ZOC_STOP,
    can_enter: Callable[[Hex, Hex], bool] | None = None,
    can_stop: Callable[[Hex], bool] | None = None,
    in_bounds: Callable[[Hex], bool] | Collection[Hex] | None = None,
    neighbors: HexGraph | Mapping[Hex, Iterable[Hex]] | Callable[[Hex], Iterable[Hex]] | None = None,
) -> list[Hex] | None:
    """The cheapest legal path from ``start`` to ``goal`` (both included), or ``None``.

    Same rules as :func:`reachable`; ``mp=None`` means no limit (give
    ``in_bounds`` or ``neighbors`` then, or a ``cost`` that returns ``None``
    off the map, or the search will not end on an unreachable goal). The
    goal must be a hex the unit may stop in.
    """
    goal = Hex(*goal)
    if can_stop is not None and goal != Hex(*start) and not can_stop(goal):
        return None
    best, parent = _search(start, mp, cost, ezoc, zoc, can_enter, can_stop, in_bounds, False, neighbors, goal)
    if goal not in parent:
        return None
    out = [goal]
    p = parent[goal]
    while p is not None:
        out.append(p)
        p = parent[p]
    out.reverse()
    return out


def path_cost(path: list[Hex], cost: CostFn | Mapping[Hex, MP | None]) -> MP | None:
    """Total entry cost of a path, or ``None`` if a step is forbidden or not adjacent."""
    total: MP = 0
    for a, b in zip(path, path[1:]):
        if not Hex(*a).is_adjacent(b):
            return None
        w = cost(a, b) if callable(cost) else cost.get(b)
        if w is None:
            return None
        total += w
    return total


def distances_from(sources: Iterable[_N], neighbours: Callable[[_N], Iterable[_N]]) -> dict[_N, int]:
    """Steps from the nearest of ``sources`` to every node reachable through
    ``neighbours``: a breadth-first walk from all of them at once (a bot's
    distance field to its objectives, on hex IDs or hexes alike)."""
    got: dict[_N, int] = {}
    frontier: list[_N] = []
    for src in sources:
        if src not in got:
            got[src] = 0
            frontier.append(src)
    d = 0
    while frontier:
        d += 1
        nxt: list[_N] = []
        for h in frontier:
            for n in neighbours(h):
                if n not in got:
                    got[n] = d
                    nxt.append(n)
        frontier = nxt
    return got


BARRED = 0
""":func:`reach_in_steps`: the hex may not be entered."""
THROUGH = 1
""":func:`reach_in_steps`: the move may pass through the hex, not end in it (a friendly unit)."""
HALT = 2
""":func:`reach_in_steps`: the move may end in the hex and goes no further (terrain that stops a move)."""
ONWARD = HALT | THROUGH
""":func:`reach_in_steps`: the move may end in the hex or go on."""


def reach_in_steps(
    start: _N, steps: int, neighbours: Mapping[_N, Iterable[_N]], enter: Callable[[_N, int], int],
    asks: Container[_N] | None = None,
) -> dict[_N, int]:
    """Where a move of at most ``steps`` hexes from ``start`` may end, with the hexes it takes.

    ``enter(n, d)`` says what entering ``n`` as the move's ``d``-th hex means:
    :data:`BARRED`, :data:`THROUGH` (go on, never end there), :data:`HALT`
    (end there, go no further) or :data:`ONWARD` (either). Each hex is judged
    once, at the fewest steps that reach it (what entering a hex means may not
    depend on the way in), so the walk is breadth-first: the result maps each
    hex the move may end in, ``start`` excluded, to its least number of steps,
    in the order the walk finds them (``neighbours``' order, the same on every
    run). ``asks``, if given, holds every hex ``enter`` might not call
    :data:`ONWARD` (the units, the terrain that stops or bars, ...): the others
    are not asked, which saves a call per hex on an open field.
    """
    out: dict[_N, int] = {}
    if steps <= 0:
        return out
    frontier = [start]
    seen = {start}
    for d in range(1, steps + 1):
        last = d == steps
        nxt: list[_N] = []
        for h in frontier:
            for n in neighbours[h]:
                if n in seen:
                    continue
                seen.add(n)
                e = enter(n, d) if asks is None or n in asks else ONWARD
                if e & HALT:
                    out[n] = d
                if e & THROUGH and not last:
                    nxt.append(n)
        if not nxt:
            break
        frontier = nxt
    return out


# ------------------------------------------------------------------ least costs over a game's step rows

Step = tuple[int, int, bool]
"""One precomputed step of :func:`least_costs` and :func:`least_costs_facing`: (node entered,
ticks, keeps fractions). A step that keeps fractions (a road step from road hex to road hex)
adds its ticks to the cost so far; any other first rounds the cost so far up to a whole
``quantum`` (a Movement Factor): fractions of one are lost on leaving the road."""

_MASK_DIRS = tuple(tuple(g for g in range(6) if m >> g & 1) for m in range(64))
"""Direction mask -> its directions, lowest first."""


class Labels(NamedTuple):
    """What :func:`least_costs` or :func:`least_costs_facing` leaves behind, for the game to read.

    - ``best[node]``: least ticks to reach the node; ``budget + 1`` if not reached, ``-1`` if
      closed (never entered: blocked, or judged closed by the gate);
    - ``prev[node]``: the node it was reached from (``-1``: none, the start);
    - ``order``: the cells reached, in the order they were first reached, the start and the
      cells the gate closed left out;
    - ``least[cell]``: least label of any node of the cell (the facing search; else ``best``).
    """

    best: list[int]
    prev: list[int]
    order: list[int]
    least: list[int]


def least_costs(
    rows: Sequence[Sequence[Step]],
    start: int,
    budget: int,
    quantum: int = 1,
    exits: Sequence[int] | None = None,
    stops: Iterable[_K] = (),
    closed: Iterable[_K] = (),
    asks: Container[int] = (),
    gate: Callable[[int], bool] | None = None,
    index: Mapping[_K, int] | None = None,
) -> Labels:
    """Least costs from cell ``start`` to every cell within ``budget`` integer ticks.

    Dial's algorithm, one bucket per tick, over cells ``0..len(rows)-1``: ``rows[i]`` are the
    steps out of cell ``i`` (:data:`Step`: cell entered, ticks, keeps fractions), in the order
    ties are to be broken. A step's price depends on the cost so far (``quantum``, see
    :data:`Step`), plus ``exits[i]`` ticks to leave cell ``i`` if given (caltrops). A cell in
    ``stops`` is entered but not left (a move ends there: a zone of control), the start
    excepted; a cell in ``closed`` is never entered (with ``index``, both hold keys of it,
    hexes say, those not in it left out). When the search first reaches a cell in
    ``asks``, ``gate(cell)`` says whether it is closed (enemy units, a full stack): asked
    there, not beforehand, since most such cells are never reached. Ties go to the first
    found: buckets in cost order, each in the order it was filled, rows in their order.
    """
    n = len(rows)
    inf = budget + 1
    best = [inf] * n
    get = None if index is None else index.get
    for k in closed:
        j = k if get is None else get(k)
        if j is not None:
            best[j] = -1
    best[start] = 0
    prev = [-1] * n
    stop = bytearray(n)
    for k in stops:
        j = k if get is None else get(k)
        if j is not None:
            stop[j] = 1
    stop[start] = 0
    order: list[int] = []
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start)
    scale = quantum
    for c in range(budget + 1):
        for i in buckets[c]:
            if best[i] != c or stop[i]:
                continue
            base = c + exits[i] if exits is not None else c
            r = base % scale
            ceil = base - r + scale if r else base  # fractions lost off the road
            for j, sc, keeps in rows[i]:
                nc = (base if keeps else ceil) + sc
                old = best[j]
                if nc < old:
                    if old == inf:  # first reached
                        if j in asks and gate is not None and gate(j):
                            best[j] = -1
                            continue
                        order.append(j)
                    best[j] = nc
                    prev[j] = i
                    buckets[nc].append(j)
    return tuple.__new__(Labels, (best, prev, order, best))  # Labels(...) without its __new__'s call


def least_costs_facing(
    turn_rows: Sequence[Sequence[Step]],
    front_rows: Sequence[Step | None],
    fronts: Sequence[int],
    start: int,
    facing: int,
    budget: int,
    quantum: int = 1,
    exits: Sequence[int] | None = None,
    stops: Iterable[_K] = (),
    closed: Iterable[_K] = (),
    asks: Container[int] = (),
    gate: Callable[[int], bool] | None = None,
    index: Mapping[_K, int] | None = None,
    front_sets: dict[int, tuple[Step, ...]] | None = None,
) -> Labels:
    """:func:`least_costs` over nodes ``cell << 3 | facing`` (facings 0..5): a unit that
    moves only to its front and turns in the hexes it enters.

    ``turn_rows[node]``: every step out of the node (into the neighbour in direction ``g``,
    then facing ``g``), turn included; ``front_rows[cell << 3 | g]``: the step into direction
    ``g`` without a turn (``None``: none); ``fronts[f]``: the directions (a bit mask) a unit
    facing ``f`` enters without a turn. Entering any other direction must cost exactly one
    ``quantum`` more (a turn past the free one). The cells are ``len(turn_rows) >> 3``;
    ``start`` is a cell, ``facing`` the start's. ``closed`` cells close all their nodes;
    ``stops``, ``asks``, ``gate`` and ``index`` are per cell as in :func:`least_costs`.
    ``tests/test_movement.py`` holds it to a plain search over every node and step.

    ``front_sets``: a cache of ``front_rows`` by cell and set of directions (key
    ``cell << 6 | mask``), filled as the search needs them; the caller keeps it with the rows
    it was filled from and hands it to every search over them (None: one for this search
    alone, about an eighth slower on Centurion's positions, as the sets are then gathered
    for nearly every expansion: ``benchmarks/results/engine-speed.md``).

    Two prunings keep the search fast, both dropping only relaxations that would fail (so
    labels, predecessors and the order useful nodes are expanded in are those of the plain
    search over every node and every step). Only the first facing taken out of the queue in a
    cell tries every direction (turns included); a later facing of the same cell, costing no
    less, can improve nothing but the directions to its own front that no earlier facing had
    free, so only those are tried. A facing labelled a whole quantum or more above the cell's
    least (``Labels.least``) is not queued: the other facing, turning, offers every direction
    at no more; labelled more than a whole quantum above, it is not even recorded, as it
    cannot be the way into any final facing either (turning on arrival costs at most one
    quantum).
    """
    n = len(turn_rows) >> 3
    s0 = start << 3 | facing
    inf = budget + 1
    best = [inf] * (n << 3)
    dead = [-1] * 6
    get = None if index is None else index.get
    for k in closed:
        j = k if get is None else get(k)
        if j is not None:
            best[j << 3:(j << 3) + 6] = dead
    start_closed = best[s0] < 0
    best[s0] = 0
    prev = [-1] * (n << 3)
    mask = bytearray(n)
    for k in stops:
        j = k if get is None else get(k)
        if j is not None:
            mask[j] = 127  # every direction already "done": nothing is expanded
    mask[start] = 0
    order: list[int] = []
    lo = [inf] * n  # least label of any facing, per cell (inf: not reached yet)
    lo[start] = 0
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(s0)
    scale = quantum
    free = front_rows
    DIRS = _MASK_DIRS
    sets = {} if front_sets is None else front_sets
    for c in range(budget + 1):
        for node in buckets[c]:
            if best[node] != c:
                continue
            i = node >> 3
            m = mask[i]
            if m:  # a later facing of the cell: only its front directions no earlier facing had
                todo = fronts[node & 7] & ~m
                if not todo:
                    continue
                mask[i] = m | todo
                k = i << 6 | todo
                try:
                    rows = sets[k]
                except KeyError:
                    b = i << 3
                    rows = sets[k] = tuple([e for g in DIRS[todo] if (e := free[b | g]) is not None])
            else:  # the first facing out of the queue: every direction, turns included
                mask[i] = fronts[node & 7]  # never 0: the cell is expanded
                rows = turn_rows[node]
            base = c + exits[i] if exits is not None else c
            r = base % scale
            ceil = base - r + scale if r else base  # fractions lost off the road
            for t, sc, keeps in rows:
                nc = (base if keeps else ceil) + sc
                if nc < best[t]:
                    j = t >> 3
                    x = lo[j]
                    if nc < x:
                        if x == inf:  # first reached
                            if j in asks and gate is not None and gate(j):
                                best[j << 3:(j << 3) + 6] = dead
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
    if start_closed:
        b = start << 3
        for k in range(b, b + 6):
            if best[k] < 0:
                best[k] = inf
    return tuple.__new__(Labels, (best, prev, order, lo))  # Labels(...) without its __new__'s call
