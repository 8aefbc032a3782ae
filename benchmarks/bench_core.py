"""Core throughput: CRT resolutions, exact distributions, and the session.

Reference runs in the same process make the figures comparable across
machines:

- CRT resolution against a naive float-odds dict look-up (what hobby code
  often does); our exact-fraction resolution is expected to be slower, and
  the ratio says by how much it costs to be exact.
- Session decisions per second for random self-play of the test plugin,
  against driving the same rules generator bare (no session, no bot): the
  ratio is the protocol's overhead.
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from ancients_kit.chance import Rng
from ancients_kit.tables import load_table_file

ROOT = Path(__file__).resolve().parent.parent
CRT = ROOT / "tests" / "data" / "tables" / "ldf_crt.toml"


def _rate(fn: Callable[[], int], seconds: float = 1.0) -> float:
    """Calls per second of ``fn`` (which returns how many operations it did)."""
    done = 0
    start = time.perf_counter()
    while True:
        done += fn()
        el = time.perf_counter() - start
        if el >= seconds:
            return done / el


def bench_tables() -> dict[str, Any]:
    table = load_table_file(CRT)
    rng = Rng(1)
    pairs = [(rng.randint(1, 40), rng.randint(1, 20), rng.randint(1, 6)) for _ in range(2000)]

    def ours() -> int:
        for a, d, r in pairs:
            table.resolve(a, d, r)
        return len(pairs)

    # Naive reference: float odds, truncated to an integer column, dict look-up.
    naive_rows = {r: list(range(8)) for r in range(1, 7)}

    def naive() -> int:
        for a, d, r in pairs:
            x = a / d
            col = int(x) + 2 if x >= 1 else (0 if x < 0.5 else 1)
            naive_rows[r][min(col, 7)]
        return len(pairs)

    def dists() -> int:
        for a, d, _ in pairs[:200]:
            dist = table.distribution(a, d)
            assert sum(dist.values()) == Fraction(1)
        return 200

    ours_rate, naive_rate = _rate(ours), _rate(naive)
    return {
        "crt_resolutions_per_s": round(ours_rate),
        "naive_float_lookups_per_s": round(naive_rate),
        "crt_exact_vs_naive_ratio": round(ours_rate / naive_rate, 3),
        "exact_distributions_per_s": round(_rate(dists)),
    }


def bench_session() -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "tests" / "plugins"))
    from race_game import GAME  # the core's test plugin

    from ancients_kit.bots import RandomBot, play_out
    from ancients_kit.session import Session

    seeds = iter(range(10**9))

    def with_session() -> int:
        s = Session(GAME, "short", seed=next(seeds))
        play_out(s, RandomBot())
        return len(s.answers)

    def bare() -> int:
        # The same rules driven directly: generator + Chance + uniform choice.
        from ancients_kit.log import Log
        from ancients_kit.session import Context
        from ancients_kit.data import DataStore

        seed = next(seeds)
        ctx = Context(DataStore("race_game"), {"target": 0}, seed, Log())
        state = GAME.setup(ctx, "short")
        gen = GAME.play(ctx, state)
        rng = Rng(seed ^ 0x5EED)
        n = 0
        try:
            d = next(gen)
            while True:
                n += 1
                d = gen.send(d.options[rng.below(len(d.options))].key)
        except StopIteration:
            return n

    s_rate, b_rate = _rate(with_session), _rate(bare)
    return {
        "session_decisions_per_s": round(s_rate),
        "bare_generator_decisions_per_s": round(b_rate),
        "session_overhead_ratio": round(b_rate / s_rate, 2),
    }


def run() -> dict[str, Any]:
    return {**bench_tables(), **bench_session()}


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:40} {v}")
