"""Centurion throughput: complete random-vs-random games per minute.

Figures:

- ``basic_games_per_minute``: Basic Games (``cen:basic.*``) played to the end
  by two random bots through the full session protocol, averaged over the
  four Basic Game deployments (target: at least 300 a minute on a 2-core
  machine);
- ``full_games_per_minute``: one Full Simulation scenario (``numidia``) the
  same way, when the Full Simulation rules are installed;
- ``decisions_per_second`` for each, and the mean decisions per game;
- ``bare_ratio``: the Basic Game driven without session or bot (the rules
  generator answered directly with the same random choices) over the session
  figure -- the protocol's overhead, machine-independent.

Run with ``python -m benchmarks.bench_centurion`` (or ``python -m benchmarks centurion``).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.chance import Rng
from ancients_kit.log import Log
from ancients_kit.session import Context, Session

from ancients_games.centurion import GAME

BASIC = ("basic-civil-war", "basic-carrhae", "basic-gaul", "basic-servile-war")
FULL = "numidia"
MAX_DECISIONS = 50_000


def _games(scenarios: tuple[str, ...], seconds: float, options: dict[str, Any] | None = None) -> dict[str, float]:
    games = decisions = unfinished = 0
    start = time.perf_counter()
    seed = 1
    while time.perf_counter() - start < seconds or games < len(scenarios):
        sc = scenarios[games % len(scenarios)]
        s = Session(GAME, sc, seed=seed, options=options)
        out = play_out(s, RandomBot(), max_decisions=MAX_DECISIONS)
        unfinished += out is None
        decisions += len(s.answers)
        games += 1
        seed += 1
    dt = time.perf_counter() - start
    return {
        "games": games,
        "games_per_minute": round(games / dt * 60, 1),
        "decisions_per_second": round(decisions / dt),
        "mean_decisions": round(decisions / games, 1),
        "unfinished": unfinished,
    }


def _bare(seconds: float) -> float:
    """Basic Games per minute driving the rules generator directly."""
    from ancients_kit.data import DataStore

    store = DataStore(GAME.package)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games < 2:
        sc = BASIC[games % len(BASIC)]
        ctx = Context(store, {o.name: o.default for o in GAME.option_specs(store, sc)}, games + 1, Log())
        state = GAME.setup(ctx, sc)
        gen = GAME.play(ctx, state)
        rng = Rng(games + 1)
        try:
            d = next(gen)
            while True:
                d = gen.send(d.options[rng.below(len(d.options))].key)
        except StopIteration:
            pass
        games += 1
    return games / (time.perf_counter() - start) * 60


def run(seconds: float = 6.0) -> dict[str, Any]:
    out: dict[str, Any] = {}
    basic = _games(BASIC, seconds)
    out.update({f"basic_{k}": v for k, v in basic.items()})
    bare = _bare(seconds / 2)
    out["basic_bare_games_per_minute"] = round(bare, 1)
    out["bare_ratio"] = round(bare / basic["games_per_minute"], 2) if basic["games_per_minute"] else None
    out["basic_target_met"] = basic["games_per_minute"] >= 300
    try:
        full = _games((FULL,), seconds, options={"version": "full"})
        out.update({f"full_{k}": v for k, v in full.items()})
        out["full_scenario"] = FULL
    except Exception as exc:  # the Full Simulation may not be installed yet
        out["full_error"] = f"{type(exc).__name__}: {exc}"
    return out


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 6.0
    for k, v in run(secs).items():
        print(f"  {k:34} {v}")
