"""Movement search: costs, hexsides, ZOC policies, stacking, paths.

The search is checked against a deliberately naive reference (relax every
edge until nothing changes) on random small maps, then on hand-made cases for
each rule the games hand to it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ancients_kit.hexgrid import Hex, Hexside, Numbering
from ancients_kit.hexmap import HexMap
from ancients_kit.movement import (
    BARRED,
    HALT,
    MP,
    ONWARD,
    THROUGH,
    distances_from,
    ZOC_IGNORE,
    ZOC_LOCKING,
    ZOC_STOP,
    ZOC_NOT_EZOC_TO_EZOC,
    HexGraph,
    ZocPolicy,
    find_path,
    least_costs,
    least_costs_facing,
    path_cost,
    reach_in_steps,
    reachable,
)

NUM = Numbering("flat", "even", 7, 6)
HEXES = NUM.hexes()
HEXSET = NUM.hex_set()
GRAPH = HexGraph({h: NUM.on_map_neighbors(h) for h in HEXES})


def reference(
    start: Hex,
    mp: MP,
    cost: Callable[[Hex, Hex], MP | None],
    ezoc: Collection[Hex],
    zoc: ZocPolicy,
    can_stop: Callable[[Hex], bool] | None,
    min_one: bool,
) -> dict[Hex, MP]:
    """Bellman-Ford style: relax every step until no cost improves."""
    best: dict[Hex, MP] = {start: 0}
    if start in ezoc and not zoc.may_leave:
        return best
    changed = True
    while changed:
        changed = False
        for h, c in list(best.items()):
            if h != start and h in ezoc and zoc.stop_on_entry:
                continue
            for b in h.neighbors():
                if b not in HEXSET:
                    continue
                w = cost(h, b)
                if w is None:
                    continue
                nc = c + w
                if nc > mp and not (min_one and h == start):
                    continue
                if b in ezoc:
                    if h in ezoc and not zoc.ezoc_to_ezoc:
                        continue
                    if zoc.stop_on_entry and can_stop is not None and not can_stop(b):
                        continue
                if b not in best or nc < best[b]:
                    best[b] = nc
                    changed = True
    return best


entry_costs = st.sampled_from([1, 1, 1, 2, 3, None, 0])
policies = st.sampled_from([ZOC_IGNORE, ZOC_STOP, ZOC_LOCKING, ZOC_NOT_EZOC_TO_EZOC,
                            ZocPolicy(stop_on_entry=False, may_leave=True, ezoc_to_ezoc=False)])


@st.composite
def scenes(draw: st.DrawFn, fractions: bool = False) -> dict:
    values = [1, 1, 2, 3, None, 0] + ([Fraction(1, 2), Fraction(3, 2)] if fractions else [])
    entry = {h: draw(st.sampled_from(values)) for h in HEXES}
    sides = draw(st.dictionaries(st.tuples(st.sampled_from(HEXES), st.integers(0, 5)),
                                 st.sampled_from([1, 2, None]), max_size=12))
    extra = {Hexside.of(h, d): v for (h, d), v in sides.items()}
    return {
        "start": draw(st.sampled_from(HEXES)),
        "mp": draw(st.integers(0, 8)) if not fractions else draw(st.sampled_from([0, 2, 3, Fraction(5, 2), 6])),
        "entry": entry,
        "extra": extra,
        "ezoc": frozenset(draw(st.lists(st.sampled_from(HEXES), max_size=10))),
        "zoc": draw(policies),
        "nostop": frozenset(draw(st.lists(st.sampled_from(HEXES), max_size=6))),
        "min_one": draw(st.booleans()),
    }


def _cost_fn(scene: dict) -> Callable[[Hex, Hex], MP | None]:
    entry, extra = scene["entry"], scene["extra"]

    def cost(a: Hex, b: Hex) -> MP | None:
        w = entry[b]
        side = extra.get(Hexside.between(a, b), 0)
        if w is None or side is None:
            return None
        return w + side

    return cost


def _check_paths(r, cost, scene) -> None:  # type: ignore[no-untyped-def]
    for h, c in r.cost.items():
        p = r.path_to(h)
        assert p[0] == scene["start"] and p[-1] == h
        assert path_cost(p, cost) == c
        for mid in p[1:-1]:  # nobody moves on out of an EZOC it had to stop in
            assert not (mid in scene["ezoc"] and scene["zoc"].stop_on_entry)


@given(scenes())
@settings(max_examples=150, deadline=None)
def test_matches_reference_with_integer_costs(scene: dict) -> None:
    cost = _cost_fn(scene)
    nostop = scene["nostop"]
    can_stop = (lambda h: h not in nostop) if nostop else None
    want = reference(scene["start"], scene["mp"], cost, scene["ezoc"], scene["zoc"], can_stop, scene["min_one"])
    kw = dict(ezoc=scene["ezoc"], zoc=scene["zoc"], can_stop=can_stop, min_one_hex=scene["min_one"])
    fast = reachable(scene["start"], scene["mp"], cost, neighbors=GRAPH, **kw)
    slow = reachable(scene["start"], scene["mp"], cost, in_bounds=HEXSET, **kw)
    assert fast.cost == want
    assert slow.cost == want
    assert fast.hexes == slow.hexes == {h for h in want if h != scene["start"] and (not nostop or h not in nostop)}
    _check_paths(fast, cost, scene)
    _check_paths(slow, cost, scene)


@given(scenes(fractions=True))
@settings(max_examples=100, deadline=None)
def test_matches_reference_with_fraction_costs(scene: dict) -> None:
    cost = _cost_fn(scene)
    want = reference(scene["start"], scene["mp"], cost, scene["ezoc"], scene["zoc"], None, scene["min_one"])
    kw = dict(ezoc=scene["ezoc"], zoc=scene["zoc"], min_one_hex=scene["min_one"])
    assert reachable(scene["start"], scene["mp"], cost, neighbors=GRAPH, **kw).cost == want
    assert reachable(scene["start"], scene["mp"], cost, in_bounds=HEXSET, **kw).cost == want


@given(st.sampled_from(HEXES), st.integers(0, 6), st.dictionaries(st.sampled_from(HEXES), entry_costs))
@settings(max_examples=80, deadline=None)
def test_mapping_costs_equal_callable_costs(start: Hex, mp: int, changes: dict) -> None:
    entry = {h: 1 for h in HEXES}
    entry.update(changes)
    by_map = reachable(start, mp, entry, neighbors=GRAPH)
    by_fn = reachable(start, mp, lambda a, b: entry[b], neighbors=GRAPH)
    assert by_map.cost == by_fn.cost
    assert by_map.parent == by_fn.parent  # same tie-breaking, same paths


# ------------------------------------------------------------------ hand-made cases


def ids(hexes) -> set[str]:  # type: ignore[no-untyped-def]
    return {NUM.to_id(h) for h in hexes}


def h(hex_id: str) -> Hex:
    return NUM.from_id(hex_id)


def clear(a: Hex, b: Hex) -> int | None:
    return 1 if b in HEXSET else None


def test_plain_range_is_a_hex_range() -> None:
    r = reachable(h("0403"), 2, clear, neighbors=GRAPH)
    assert r.hexes == {x for x in HEXSET if 0 < x.distance(h("0403")) <= 2}
    assert r.cost[h("0403")] == 0 and r.remaining(h("0402")) == 1
    assert h("0403") not in r.hexes  # staying put is not a move


@pytest.mark.rule("cen:basic.movement")
def test_entry_costs_and_path() -> None:
    forest = {h("0303")}

    def cost(a: Hex, b: Hex) -> int:
        return 3 if b in forest else 1

    r = reachable(h("0203"), 3, cost, neighbors=GRAPH)
    assert r.cost[h("0303")] == 3  # straight into the forest
    assert h("0403") in r.hexes and r.cost[h("0403")] == 2  # around the forest is cheaper
    path = r.path_to(h("0403"))
    assert path == [h("0203"), h("0304"), h("0403")]
    assert path_cost(path, cost) == 2
    assert h("0503") in r.hexes and h("0603") not in r.cost
    with pytest.raises(ValueError, match="cannot be reached"):
        r.path_to(h("0703"))


def test_hexside_costs_and_impassable_hexsides() -> None:
    m = HexMap.build(NUM, features={
        Hexside.between(h("0303"), h("0304")): ["river"],
        Hexside.between(h("0303"), h("0403")): ["river"],
        Hexside.between(h("0303"), h("0203")): ["wall"],
    })

    def cost(a: Hex, b: Hex) -> int | None:
        f = m.hexside_features(a, b)
        if "wall" in f:
            return None  # impassable hexside
        return 1 + (2 if "river" in f else 0)  # xen:movement style: +2 to cross a river

    r = reachable(h("0303"), 3, cost, neighbors=m.graph)
    assert r.cost[h("0304")] == 3  # across the river
    assert r.path_to(h("0304")) == [h("0303"), h("0304")]
    assert r.cost[h("0203")] == 2  # not through the wall: around it
    assert len(r.path_to(h("0203"))) == 3
    assert find_path(h("0303"), h("0203"), cost, neighbors=m.graph) == r.path_to(h("0203"))


@pytest.mark.rule("ldf:11.3", "cen:basic.zoc")
def test_stop_on_entering_ezoc() -> None:
    ezoc = frozenset({h("0402"), h("0403"), h("0404")})
    r = reachable(h("0203"), 4, clear, neighbors=GRAPH, ezoc=ezoc, zoc=ZOC_LOCKING)
    assert ezoc <= r.hexes and r.stopped == ezoc
    assert r.cost[h("0403")] == 2
    # nothing reached through an EZOC hex
    for x in r.cost:
        assert not set(r.path_to(x)[1:-1]) & ezoc
    free = reachable(h("0203"), 4, clear, neighbors=GRAPH)
    assert len(free.hexes) > len(r.hexes)


@pytest.mark.rule("ldf:11.4", "cen:basic.zoc")
def test_locking_zoc_never_leaves() -> None:
    ezoc = frozenset({h("0303"), h("0304")})
    r = reachable(h("0303"), 6, clear, neighbors=GRAPH, ezoc=ezoc, zoc=ZOC_LOCKING)
    assert r.hexes == frozenset() and r.cost == {h("0303"): 0}
    # the same unit under a stop-only policy walks out
    assert len(reachable(h("0303"), 6, clear, neighbors=GRAPH, ezoc=ezoc, zoc=ZOC_STOP).hexes) > 10


@pytest.mark.rule("xen:zoc")
def test_xenophon_may_leave_but_not_into_another_ezoc() -> None:
    start = h("0303")
    ezoc = frozenset({start, h("0304"), h("0403")})
    r = reachable(start, 1, clear, neighbors=GRAPH, ezoc=ezoc, zoc=ZOC_NOT_EZOC_TO_EZOC)
    assert h("0304") not in r.cost and h("0403") not in r.cost  # EZOC -> EZOC forbidden
    assert h("0302") in r.hexes  # leaving to a free hex is fine
    # with more OP the force steps out first, then may enter an EZOC (and stops there)
    r = reachable(start, 6, clear, neighbors=GRAPH, ezoc=ezoc, zoc=ZOC_NOT_EZOC_TO_EZOC)
    assert r.cost[h("0304")] == 2 and r.path_to(h("0304"))[1] not in ezoc
    assert h("0304") in r.stopped
    around = reachable(start, 6, clear, neighbors=GRAPH, ezoc=ezoc, zoc=ZOC_STOP)
    assert h("0304") in around.hexes  # a stop-only policy allows the hop


@pytest.mark.rule("ldf:11.1")
def test_zoc_not_projected_is_the_callers_choice() -> None:
    # The game leaves out the hexes a unit does not project ZOC into (across a Rhine hexside,
    # ldf:11.1): with those hexes out of the set the unit moves on through them.
    blocked = frozenset({h("0402"), h("0403"), h("0404")})
    r1 = reachable(h("0203"), 4, clear, neighbors=GRAPH, ezoc=blocked)
    r2 = reachable(h("0203"), 4, clear, neighbors=GRAPH, ezoc=blocked - {h("0403")})
    assert h("0503") not in r1.cost or r1.cost[h("0503")] > 2
    assert r2.cost[h("0503")] == 3


@pytest.mark.rule("cen:full.stacking", "cen:basic.stacking")
def test_stacking_pass_through_but_not_stop() -> None:
    full = {h("0303")}  # a friendly stack of three already there

    def can_stop(x: Hex) -> bool:
        return x not in full

    walls = {h("0302"), h("0402"), h("0404"), h("0304"), h("0204"), h("0202")}

    def cost(a: Hex, b: Hex) -> int | None:
        return None if b in walls or b not in HEXSET else 1

    r = reachable(h("0203"), 2, cost, neighbors=GRAPH, can_stop=can_stop)
    assert h("0303") in r.cost and h("0303") not in r.hexes
    assert h("0403") in r.hexes and r.path_to(h("0403")) == [h("0203"), h("0303"), h("0403")]
    assert find_path(h("0203"), h("0303"), cost, neighbors=GRAPH, can_stop=can_stop) is None
    # an overstacked hex in an EZOC cannot be entered at all: the unit would have to stop there
    r2 = reachable(h("0203"), 2, cost, neighbors=GRAPH, can_stop=can_stop, ezoc=full)
    assert h("0303") not in r2.cost and h("0403") not in r2.cost


def test_can_enter_veto() -> None:
    enemy = {h("0303")}
    r = reachable(h("0203"), 2, clear, neighbors=GRAPH, can_enter=lambda a, b: b not in enemy)
    assert h("0303") not in r.cost
    assert r.cost[h("0403")] == 2 and h("0303") not in r.path_to(h("0403"))


def test_min_one_hex() -> None:
    def cost(a: Hex, b: Hex) -> int | None:
        return 4 if b in HEXSET else None

    assert reachable(h("0303"), 2, cost, neighbors=GRAPH).hexes == frozenset()
    r = reachable(h("0303"), 2, cost, neighbors=GRAPH, min_one_hex=True)
    assert r.hexes == set(GRAPH.adjacency[h("0303")])
    assert all(r.remaining(x) == 0 for x in r.hexes)


def test_fraction_road_costs() -> None:
    road = {h("0203"), h("0303"), h("0403"), h("0503"), h("0603")}

    def cost(a: Hex, b: Hex) -> MP:
        return Fraction(1, 2) if a in road and b in road else 2

    r = reachable(h("0203"), 2, cost, neighbors=GRAPH)
    assert r.cost[h("0603")] == 2 and isinstance(r.cost[h("0603")], Fraction)
    assert r.path_to(h("0603")) == [h("0203"), h("0303"), h("0403"), h("0503"), h("0603")]
    assert r.cost[h("0202")] == 2
    assert h("0204") in r.hexes


def test_find_path_unlimited_and_unreachable() -> None:
    p = find_path(h("0101"), h("0706"), clear, neighbors=GRAPH)
    assert p is not None and len(p) == h("0101").distance(h("0706")) + 1
    walls = {x for x in HEXES if NUM.to_offset(x)[0] == 4}
    assert find_path(h("0101"), h("0706"), lambda a, b: None if b in walls else 1, neighbors=GRAPH) is None
    assert find_path(h("0101"), h("0706"), clear, mp=3, neighbors=GRAPH) is None
    assert find_path(h("0101"), h("0101"), clear, neighbors=GRAPH) == [h("0101")]


def test_infinite_grid_without_neighbours() -> None:
    r = reachable(Hex(0, 0), 3, lambda a, b: 1)
    assert len(r.hexes) == 3 * 3 * 4
    assert path_cost([Hex(0, 0), Hex(2, 0)], lambda a, b: 1) is None


def test_start_off_the_map_is_an_error() -> None:
    with pytest.raises(ValueError, match="not on the map"):
        reachable(Hex(40, 40), 3, clear, neighbors=GRAPH)


def test_benchmark_agrees_with_networkx() -> None:
    pytest.importorskip("networkx")
    from benchmarks.bench_movement import run

    r = run(queries=10)
    assert r["same_reachable_sets"] is True and r["same_costs"] is True
    assert r["mean_reachable_zoc"] < r["mean_reachable"]
    assert 200 <= r["blocked_hexes"] <= 400


def test_distances_from_several_sources_are_the_hex_distance_to_the_nearest() -> None:
    grid = {Hex(q, r) for q in range(-4, 5) for r in range(-4, 5) if abs(q + r) <= 4}
    sources = [Hex(0, 0), Hex(3, -1)]
    got = distances_from(sources, lambda h: (n for n in h.neighbors() if n in grid))
    assert set(got) == grid
    assert all(d == min(h.distance(s) for s in sources) for h, d in got.items())
    assert distances_from([], lambda h: ()) == {}


# -- moves counted in hexes: reach_in_steps --------------------------------------------------------------------

def _line(n: int) -> dict[int, list[int]]:
    """Nodes 0..n-1 in a row, each next to its neighbours."""
    return {i: [j for j in (i - 1, i + 1) if 0 <= j < n] for i in range(n)}


def test_reach_in_steps_counts_hexes_and_stops_at_the_allowance() -> None:
    assert reach_in_steps(0, 3, _line(10), lambda n, d: ONWARD) == {1: 1, 2: 2, 3: 3}
    assert reach_in_steps(0, 0, _line(10), lambda n, d: ONWARD) == {}


def test_reach_in_steps_barred_halt_and_through() -> None:
    line = _line(10)
    assert reach_in_steps(0, 5, line, lambda n, d: BARRED if n == 2 else ONWARD) == {1: 1}
    assert reach_in_steps(0, 5, line, lambda n, d: HALT if n == 2 else ONWARD) == {1: 1, 2: 2}
    # through a hex it may not end in, never ending there, and not on the last step
    assert reach_in_steps(0, 5, line, lambda n, d: THROUGH if n == 2 else ONWARD) == {1: 1, 3: 3, 4: 4, 5: 5}
    assert reach_in_steps(0, 2, line, lambda n, d: THROUGH if n == 2 else ONWARD) == {1: 1}


def test_reach_in_steps_finds_the_fewest_steps_in_neighbour_order() -> None:
    ring = {0: [1, 5], 1: [0, 2], 2: [1, 3], 3: [2, 4], 4: [3, 5], 5: [4, 0]}
    got = reach_in_steps(0, 3, ring, lambda n, d: ONWARD)
    assert got == {1: 1, 5: 1, 2: 2, 4: 2, 3: 3}
    assert list(got) == [1, 5, 2, 4, 3]


def test_reach_in_steps_asks_only_the_hexes_named() -> None:
    asked: list[int] = []

    def enter(n: int, d: int) -> int:
        asked.append(n)
        return BARRED if n == 3 else ONWARD

    assert reach_in_steps(0, 5, _line(10), enter, asks={3}) == {1: 1, 2: 2}
    assert asked == [3]


# -- least costs over a game's step rows: least_costs, least_costs_facing --------------------------------------

_INDEX = GRAPH.index
_CELLS = GRAPH.hexes


def _cell_rows(cost: Callable[[Hex, Hex], MP | None]) -> list[tuple[tuple[int, int, bool], ...]]:
    """Steps out of each cell of GRAPH, in its neighbour order, priced by ``cost``."""
    rows = []
    for i, a in enumerate(_CELLS):
        row = []
        for j in GRAPH.nbr[i]:
            w = cost(a, _CELLS[j])
            if w is not None:
                row.append((j, w, False))
        rows.append(tuple(row))
    return rows


@given(scenes(), st.frozensets(st.sampled_from(HEXES), max_size=6))
@settings(max_examples=120, deadline=None)
def test_least_costs_equal_reachable_with_stops_and_closed_cells(scene: dict, walls: frozenset) -> None:
    cost = _cost_fn(scene)
    start, mp, ezoc = scene["start"], scene["mp"], scene["ezoc"]
    want = reachable(start, mp, cost, neighbors=GRAPH, ezoc=ezoc, zoc=ZOC_STOP,
                     can_enter=lambda a, b: b not in walls)
    best, prev, order, least = least_costs(_cell_rows(cost), _INDEX[start], mp, 1, None, ezoc, walls - {start},
                                           index=_INDEX)
    assert least is best
    got = {start: 0, **{_CELLS[i]: best[i] for i in order}}
    assert got == want.cost and list(got) == list(want.cost)  # the same cells, found in the same order
    assert {_CELLS[i]: _CELLS[prev[i]] for i in order} == {h: p for h, p in want.parent.items() if p is not None}
    assert all(best[_INDEX[w]] == -1 for w in walls - {start})


def _line_rows(steps: list[tuple[int, bool]]) -> list[tuple[tuple[int, int, bool], ...]]:
    """Cells 0..n in a row, cell i stepping into i + 1 for the given (ticks, keeps)."""
    return [((i + 1, t, keeps),) for i, (t, keeps) in enumerate(steps)] + [()]


@pytest.mark.rule("cen:full.movement")
def test_least_costs_keep_fractions_on_road_steps_only() -> None:
    # two ticks to a Movement Factor: a road step of half a factor, then off the road
    assert least_costs(_line_rows([(1, True), (2, False)]), 0, 10, 2).best == [0, 1, 4]
    assert least_costs(_line_rows([(1, True), (1, True)]), 0, 10, 2).best == [0, 1, 2]
    # leaving cell 1 costs two ticks more (caltrops), the fraction still lost
    assert least_costs(_line_rows([(1, True), (2, False)]), 0, 10, 2, [0, 2, 0]).best == [0, 1, 6]
    # the budget bounds the search: not reached is budget + 1
    assert least_costs(_line_rows([(2, False), (2, False)]), 0, 3, 2).best == [0, 2, 4]


def test_least_costs_ask_the_gate_once_at_first_reach_and_stop_cells_end_the_move() -> None:
    rows = [((1, 1, False), (2, 1, False)), ((3, 1, False),), ((3, 1, False),), ((4, 1, False),), ()]
    asked: list[int] = []

    def gate(j: int) -> bool:
        asked.append(j)
        return j == 1

    got = least_costs(rows, 0, 9, asks={1, 3, 4}, gate=gate)
    assert asked == [1, 3, 4]  # 2 is not asked, 3 only once though two ways lead there
    assert got.best == [0, -1, 1, 2, 3] and got.prev[3] == 2 and got.order == [2, 3, 4]
    stopped = least_costs(rows, 0, 9, stops=[2, 0])  # the start is never a stop
    assert stopped.best == [0, 1, 1, 2, 3] and stopped.prev[3] == 1


_FRONT = tuple((1 << f) | (1 << ((f + 1) % 6)) | (1 << ((f - 1) % 6)) for f in range(6))


def _plain_facing(turn_rows, start, facing, budget, stops, closed, gate):  # type: ignore[no-untyped-def]
    """Dial's algorithm over every (cell, facing) node and every step: the reference."""
    n = len(turn_rows) >> 3
    inf = budget + 1
    best = [inf] * (n << 3)
    for j in closed:
        best[j << 3:(j << 3) + 6] = [-1] * 6
    s0 = start << 3 | facing
    best[s0] = 0
    prev = [-1] * (n << 3)
    seen = {start}
    order = []
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(s0)
    for c in range(budget + 1):
        for node in buckets[c]:
            if best[node] != c or (node >> 3 in stops and node >> 3 != start):
                continue
            r = c % 2
            for t, sc, keeps in turn_rows[node]:
                nc = (c if keeps or not r else c + 1) + sc
                if nc < best[t] and nc <= budget:
                    if t >> 3 not in seen:
                        seen.add(t >> 3)
                        if gate(t >> 3):
                            best[(t >> 3) << 3:((t >> 3) << 3) + 6] = [-1] * 6
                            continue
                        order.append(t >> 3)
                    best[t] = nc
                    prev[t] = node
                    buckets[nc].append(t)
    return best, prev, order


@given(st.data())
@settings(max_examples=120, deadline=None)
def test_least_costs_facing_keep_the_plain_search_labels_within_one_quantum(data: st.DataObject) -> None:
    # two ticks to a Movement Factor; roads along some hexsides at one tick, fractions kept
    entry = {h: data.draw(st.sampled_from([2, 2, 4, 6, None])) for h in HEXES}
    roads = data.draw(st.frozensets(st.tuples(st.sampled_from(HEXES), st.integers(0, 5)), max_size=12))
    turn_rows: list = [()] * (len(_CELLS) << 3)
    front_rows: list = [None] * (len(_CELLS) << 3)
    for i, a in enumerate(_CELLS):
        for g in range(6):
            b = a.neighbor(g)
            if b in _INDEX and entry[b] is not None:
                road = (a, g) in roads
                front_rows[i << 3 | g] = (_INDEX[b] << 3 | g, 1 if road else entry[b], road)
        for f in range(6):
            turn_rows[i << 3 | f] = tuple((e[0], e[1] + (0 if _FRONT[f] >> g & 1 else 2), e[2])
                                          for g in range(6) if (e := front_rows[i << 3 | g]) is not None)
    start = _INDEX[data.draw(st.sampled_from(HEXES))]
    facing = data.draw(st.integers(0, 5))
    budget = data.draw(st.integers(0, 14))
    stops = set(data.draw(st.lists(st.integers(0, len(_CELLS) - 1), max_size=5)))
    closed = set(data.draw(st.lists(st.integers(0, len(_CELLS) - 1), max_size=5))) - {start}
    shut = set(data.draw(st.lists(st.integers(0, len(_CELLS) - 1), max_size=5)))
    want, want_prev, want_order = _plain_facing(turn_rows, start, facing, budget, stops, closed, shut.__contains__)
    got = least_costs_facing(turn_rows, front_rows, _FRONT, start, facing, budget, 2, None, stops, closed,
                             shut, shut.__contains__)
    assert got.order == want_order
    inf = budget + 1
    for j in range(len(_CELLS)):
        labels = [c for c in want[j << 3:(j << 3) + 6] if 0 <= c <= budget]
        lo = min(labels, default=inf)
        assert got.least[j] == lo or j in closed or (j == start and lo == 0)
        for k in range(j << 3, (j << 3) + 6):
            if want[k] < 0 or want[k] > lo + 2:  # closed, or more than a quantum above: not recorded
                assert got.best[k] in (want[k], inf)
            else:
                assert (got.best[k], got.prev[k]) == (want[k], want_prev[k]), k
    # the caller's cache of front rows by direction set, filled by searches from every start,
    # changes no label
    cache: dict = {}
    for s in range(len(_CELLS)):
        if s not in closed:
            least_costs_facing(turn_rows, front_rows, _FRONT, s, facing, budget, 2, None, stops, closed, shut,
                               shut.__contains__, None, cache)
    again = least_costs_facing(turn_rows, front_rows, _FRONT, start, facing, budget, 2, None, stops, closed,
                               shut, shut.__contains__, None, cache)
    assert (again.best, again.prev, again.order, again.least) == (got.best, got.prev, got.order, got.least)
    assert all(rows == tuple(front_rows[k >> 6 << 3 | g] for g in range(6) if (k & 63) >> g & 1
                             and front_rows[k >> 6 << 3 | g] is not None) for k, rows in cache.items())
