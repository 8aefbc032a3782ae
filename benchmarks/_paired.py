"""Before/after timing shared by the game benchmarks (issue 11 item 5).

``paired(play, scenarios, games, seed0)`` plays each seed twice, with the old
code (``play(scenario, seed, True)``) and the new (``play(..., False)``),
alternating so that load on a shared machine hits both alike, and stops if the
two games differ: ``play`` returns (CPU seconds, decisions, log digest).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Play = Callable[[str, int, bool], tuple[float, int, str]]


def paired(play: Play, scenarios: tuple[str, ...], games: int, seed0: int, unit: str) -> dict[str, Any]:
    """Per-scenario and overall ``unit`` per CPU minute before and after, and their ratio."""
    play(scenarios[0], 1, False)  # imports and first-use caches out of the timing
    out: dict[str, Any] = {}
    tot = [0.0, 0.0, 0]
    for sc in scenarios:
        ref = new = 0.0
        n = 0
        for i in range(games):
            r_cpu, r_n, r_log = play(sc, seed0 + i, True)
            f_cpu, f_n, f_log = play(sc, seed0 + i, False)
            if (r_n, r_log) != (f_n, f_log):
                raise AssertionError(f"{sc} seed {seed0 + i}: the fast code logged a different game")
            ref += r_cpu
            new += f_cpu
            n += f_n
        out[sc] = {f"before_{unit}_per_cpu_minute": round(games * 60 / ref, 1),
                   f"after_{unit}_per_cpu_minute": round(games * 60 / new, 1),
                   "after_decisions_per_cpu_second": round(n / new), "ratio": round(ref / new, 2)}
        tot = [tot[0] + ref, tot[1] + new, tot[2] + n]
    out["before_decisions_per_cpu_second"] = round(tot[2] / tot[0])
    out["after_decisions_per_cpu_second"] = round(tot[2] / tot[1])
    out["ratio"] = round(tot[0] / tot[1], 2)
    out["logs_identical"] = True
    return out
