"""Benchmark: a balance study on one worker, on every core, and on a local Dask cluster.

Plays the same study (C&C random self-play on First Bedriacum, and the
Centurion Basic Game) with ``--jobs 1``, ``--jobs N`` (N = the machine's
cores) and, when Dask distributed is installed, a local cluster of N
single-threaded workers. Prints games a minute for each and the speed-up
against ``--jobs 1`` measured in the same run (target: 1.7x on 2 cores), and
checks that the three runs gave the same records.

A search-bot study (issue 24 item 5) as well: C&C's First Bedriacum with the
``mcts`` bot, at the game's suggested budget, on both sides, on every core
(``BENCH_STUDY_SEARCH_GAMES`` games, default 10; 0 leaves it out). Printed:
games a minute, processor seconds a game, and the minutes 200 such games
would take on this machine's cores (the goal: under 20 on two cores).

    python benchmarks/bench_study.py [games]

Measured on 4 December 2026 (nothing else running, code of 1f27c3e), the
whole 200 games: ``ancients simulate ccancients_rome first-bedriacum -n 200
--bot mcts -j 2`` took **820 s (13.7 minutes)** of wall time on 2 cores, 262
answers and 19 turns a battle on average; Vitellians won 117 (58.5% [51.6,
65.1]).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

STUDIES: tuple[tuple[str, str], ...] = (
    ("ccancients_rome", "first-bedriacum"),
    ("centurion", "basic-gaul"),
)


def _spec(game: str, scenario: str) -> Any:
    from ancients_kit.plugin import find_game
    from ancients_kit.session import Session
    from ancients_kit.study import StudySpec

    g = find_game(game)
    sides = g.sides(Session(g, scenario, seed=1).state)
    return StudySpec(g.id, scenario, {s: "random" for s in sides})


def _timed(spec: Any, games: int, **how: Any) -> tuple[float, list[Any]]:
    from ancients_kit.study import run_study

    t0 = time.perf_counter()
    recs = run_study(spec, games, seed=1000, **how)
    return time.perf_counter() - t0, recs


def run(games: int = 60) -> dict[str, Any]:
    cores = os.cpu_count() or 1
    out: dict[str, Any] = {"cores": cores}
    try:
        import distributed  # noqa: F401

        have_dask = True
    except ImportError:
        have_dask = False
    for game, scenario in STUDIES:
        try:
            spec = _spec(game, scenario)
        except Exception as exc:  # a scenario renamed: say so, measure the rest
            out[f"{game}: error"] = f"{type(exc).__name__}: {exc}"
            continue
        t1, serial = _timed(spec, games, jobs=1)
        tn, parallel = _timed(spec, games, jobs=cores)
        same = all(a.same_game(b) for a, b in zip(serial, parallel))
        key = f"{game} {scenario}"
        out[f"{key}: games/min --jobs 1"] = round(games / t1 * 60, 1)
        out[f"{key}: games/min --jobs {cores}"] = round(games / tn * 60, 1)
        out[f"{key}: speed-up --jobs {cores} (target 1.7x)"] = round(t1 / tn, 2)
        if have_dask:
            td, on_dask = _timed(spec, games, dask="local")
            same = same and all(a.same_game(b) for a, b in zip(serial, on_dask))
            out[f"{key}: games/min dask local (2 workers, with start-up)"] = round(games / td * 60, 1)
            out[f"{key}: speed-up dask local"] = round(t1 / td, 2)
        out[f"{key}: identical records"] = same
    searched = int(os.environ.get("BENCH_STUDY_SEARCH_GAMES", "10"))
    if searched > 0:
        out.update(_search_study(searched, cores))
    return out


def _search_study(games: int, cores: int) -> dict[str, Any]:
    """The search bot on both sides of a C&C battle, every core: what 200 games would take."""
    from ancients_kit.plugin import find_game
    from ancients_kit.session import Session
    from ancients_kit.study import StudySpec

    game, scenario = "ccancients_rome", "first-bedriacum"
    g = find_game(game)
    spec = StudySpec(g.id, scenario, {s: "mcts" for s in g.sides(Session(g, scenario, seed=1).state)})
    t, recs = _timed(spec, games, jobs=cores)
    key = f"{game} {scenario} mcts v mcts"
    return {
        f"{key}: games": games,
        f"{key}: games/min --jobs {cores}": round(games / t * 60, 2),
        f"{key}: seconds a game (in its worker)": round(sum(r.elapsed for r in recs) / len(recs), 2),
        f"{key}: minutes for 200 games --jobs {cores} (goal: under 20 on 2 cores)": round(200 * t / games / 60, 1),
    }


if __name__ == "__main__":
    for k, v in run(int(sys.argv[1]) if len(sys.argv) > 1 else 60).items():
        print(f"{k:60} {v}")
