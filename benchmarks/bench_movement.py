"""Benchmark: movement-range queries against networkx's Dijkstra.

Run with ``python -m benchmarks.bench_movement``; :func:`run` returns the
figures as a dict. The scene: a 60 x 40 flat-top map, entry costs 1-3 by
terrain, a few hundred impassable hexes, 8 MP. Both searches run in this
process on the same graph (the networkx graph is built before timing) and
must agree on the reachable set; the ZOC run (stop on entering an EZOC) is
timed separately since networkx has no notion of it. ``least_costs_*``: the
core's least-cost search over precomputed step rows (what Centurion's search
runs on) on the same scene, rows built once beforehand, ZOC hexes as stop
cells; it must find the same costs as :func:`reachable`.

networkx is an optional benchmark dependency (``pip install .[bench]``);
without it the comparison is skipped with a message.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from ancients_kit.hexgrid import Hex, Numbering
from ancients_kit.hexmap import HexMap
from ancients_kit.movement import ZOC_STOP, least_costs, reachable

COLUMNS, ROWS, MP = 60, 40, 8
REPEAT = 5
COSTS = {"clear": 1, "forest": 2, "hill": 2, "rough": 3, "marsh": 3, "lake": None}


def _mix(*xs: int) -> int:
    """A small deterministic integer hash (no ``random``: results must not vary)."""
    h = 0x9E3779B9
    for x in xs:
        h = ((h ^ (x & 0xFFFFFFFF)) * 0x85EBCA6B) & 0xFFFFFFFF
        h ^= h >> 13
        h = (h * 0xC2B2AE35) & 0xFFFFFFFF
        h ^= h >> 16
    return h


def build_scene() -> tuple[HexMap, dict[Hex, int | None], list[Hex], frozenset[Hex]]:
    """The benchmark map, per-hex entry costs, query starts and an EZOC set."""
    num = Numbering("flat", "even", COLUMNS, ROWS)
    terrain: dict[Hex, str] = {}
    for h in num.hexes():
        k = _mix(h.q, h.r) % 100
        terrain[h] = (
            "lake" if k < 10 else "rough" if k < 18 else "marsh" if k < 22 else
            "forest" if k < 40 else "hill" if k < 52 else "clear"
        )
    hexmap = HexMap.build(num, terrain=terrain)
    entry = {h: COSTS[t] for h, t in hexmap.terrain_of.items()}
    hexes = [h for h in num.hexes() if entry[h] is not None]
    starts = [hexes[_mix(i, 7) % len(hexes)] for i in range(200)]
    enemies = [hexes[_mix(i, 11) % len(hexes)] for i in range(60)]
    ezoc = frozenset(n for e in enemies for n in hexmap.adjacency[e])
    return hexmap, entry, starts, ezoc


def _time(fn: Any, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def run(queries: int = 200) -> dict[str, Any]:
    """Time ``queries`` range queries each way; return the figures."""
    hexmap, entry, starts, ezoc = build_scene()
    starts = starts[:queries]
    adj = hexmap.adjacency
    graph = hexmap.graph
    get = entry.get

    def cost(a: Hex, b: Hex) -> int | None:
        return get(b)

    def ours() -> list[Any]:
        return [reachable(s, MP, cost, neighbors=graph) for s in starts]

    def ours_zoc() -> list[Any]:
        return [reachable(s, MP, cost, neighbors=graph, ezoc=ezoc, zoc=ZOC_STOP) for s in starts]

    out: dict[str, Any] = {
        "map": f"{COLUMNS}x{ROWS} flat",
        "mp": MP,
        "queries": len(starts),
        "blocked_hexes": sum(1 for v in entry.values() if v is None),
        "ezoc_hexes": len(ezoc),
    }
    t_ours = _time(ours)
    t_zoc = _time(ours_zoc)
    hexes, index = graph.hexes, graph.index
    rows = [tuple((j, entry[hexes[j]], False) for j in graph.nbr[i] if entry.get(hexes[j]) is not None)
            for i in range(len(hexes))]
    first = [index[s] for s in starts]

    def rows_plain() -> list[Any]:
        return [least_costs(rows, i, MP) for i in first]

    def rows_zoc() -> list[Any]:
        return [least_costs(rows, i, MP, 1, None, ezoc, (), (), None, index) for i in first]

    def same(got: list[Any], want: list[Any]) -> bool:
        return all({hexes[i]: lab.best[i] for i in [s, *lab.order]} == r.cost
                   for s, lab, r in zip(first, got, want))

    out["least_costs_same_costs"] = same(rows_plain(), ours()) and same(rows_zoc(), ours_zoc())
    t_rows, t_rows_zoc = _time(rows_plain), _time(rows_zoc)
    out["least_costs_us_per_query"] = 1e6 * t_rows / len(starts)
    out["least_costs_zoc_us_per_query"] = 1e6 * t_rows_zoc / len(starts)
    out["ours_s"] = t_ours
    out["ours_zoc_s"] = t_zoc
    out["ours_us_per_query"] = 1e6 * t_ours / len(starts)
    out["ours_zoc_us_per_query"] = 1e6 * t_zoc / len(starts)
    mine = [frozenset(r.cost) for r in ours()]
    out["mean_reachable"] = sum(len(s) for s in mine) / len(starts)
    out["mean_reachable_zoc"] = sum(len(r.cost) for r in ours_zoc()) / len(starts)
    try:
        import networkx as nx
    except ImportError:
        out["networkx"] = "not installed: comparison skipped (pip install .[bench])"
        return out

    g = nx.DiGraph()
    for a, nbrs in adj.items():
        if entry[a] is None:
            continue
        for b in nbrs:
            if entry[b] is not None:
                g.add_edge(a, b, weight=entry[b])

    def theirs() -> list[Any]:
        return [nx.single_source_dijkstra(g, s, cutoff=MP) for s in starts]

    # Interleave the two so a busy machine slows both alike; keep each one's best.
    t_nx = float("inf")
    for _ in range(REPEAT):
        t_nx = min(t_nx, _time(theirs, 1))
        t_ours = min(t_ours, _time(ours, 1))
    theirs_now = theirs()
    same = mine == [frozenset(dist) for dist, _paths in theirs_now]
    out["same_costs"] = all(r.cost == dist for r, (dist, _p) in zip(ours(), theirs_now))
    out["networkx"] = nx.__version__
    out["networkx_s"] = t_nx
    out["networkx_us_per_query"] = 1e6 * t_nx / len(starts)
    out["ours_s"] = t_ours
    out["ours_us_per_query"] = 1e6 * t_ours / len(starts)
    out["same_reachable_sets"] = same
    out["speedup_vs_networkx"] = t_nx / t_ours
    return out


def main() -> int:
    r = run()
    for k, v in r.items():
        print(f"{k:>24}: {v:.4g}" if isinstance(v, float) else f"{k:>24}: {v}")
    if "speedup_vs_networkx" in r:
        ok = r["same_reachable_sets"]
        print(f"movement range: ours is {r['speedup_vs_networkx']:.2f}x networkx (target >= 2x); "
              f"reachable sets {'agree' if ok else 'DIFFER'}")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
