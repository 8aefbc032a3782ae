"""Every game ends: a sweep of whole bot games over every installed scenario.

Each scenario of every game the plugin registry holds is played to its end
with the four pairings (random or greedy on the first side, random or greedy on
the others) on seeds ``1..SEEDS``, under the bots' progress watch
(:class:`ancients_kit.bots.ProgressWatch`). Figures:

- ``games``, ``endless`` (games the watch or the cap stopped: each is listed
  in ``endless_games`` with its message) and ``cpu_seconds``;
- ``longest_game``: the most answers one game took (the suite's cap is 60,000
  and the CLI's 200,000);
- ``longest_quiet``: the most answers in a row without a log event (the watch
  stops at 5,000);
- ``closest_cycle``: the largest share of the watch's chance threshold that a
  repeated silent cycle reached (1.0 would stop the game): the margin that
  keeps random bots' take-backs from false alarms;
- per game: games, CPU seconds, the slowest scenario.

``python -m benchmarks game_ends`` (``GAME_ENDS_SEEDS=N`` for more seeds). The
suite plays the fast part of this (tests/test_games.py) and, with ``-m slow``,
seeds 4-7.

Measured on the shared 2-core machine (others' jobs running), after the
Centurion Attack Allocation fix:

- this module, seeds 1-2, four pairings: 376 games (168 Centurion, 208 C&C),
  none endless, 181 CPU seconds (Centurion 143, C&C 21; slowest: philippi
  greedy v greedy, 2.8 s); longest game 4,924 answers (a C&C series), longest
  run without an event 79 answers, closest cycle 0.30 of the threshold;
- seeds 1-3, all-random and all-greedy: 282 games, none endless; greedy games
  repeat no silent cycle at all, random ones at most 5 times (C&C: a unit
  chosen, then ``back``); longest quiet run 47 (a Centurion Basic Game);
- ``ancients simulate ccancients_rome BATTLE --bot greedy`` (50 games) for
  each of the 26 battles and series: every game ends (none stopped).

Before the fix, Fantasy with greedy bots (seed 1) was stopped after answer
112 ("from answer 91": 0911, melee, eleven times); it now ends after 761
answers, and ``ancients simulate centurion fantasy --bot greedy`` (50 games,
which ran past 400 s without ending) takes 217 s of wall time.
"""

from __future__ import annotations

import os
import time
from typing import Any

from ancients_kit.bots import EndlessGame, ProgressWatch, make_bot, play_out
from ancients_kit.data import DataStore
from ancients_kit.plugin import load_games
from ancients_kit.session import Session

SEEDS = int(os.environ.get("GAME_ENDS_SEEDS", "2"))
PAIRINGS = (("random", "random"), ("greedy", "greedy"), ("greedy", "random"), ("random", "greedy"))
CAP = 60_000


def run() -> dict[str, Any]:
    games = endless = 0
    longest = quiet = 0
    closest = 0.0
    stopped: list[str] = []
    per_game: dict[str, dict[str, Any]] = {}
    cpu0 = time.process_time()
    for gid, g in sorted(load_games().items()):
        slowest, slowest_t, g_cpu, g_games = "", 0.0, 0.0, 0
        for info in g.scenarios(DataStore(g.package)):
            for seed in range(1, SEEDS + 1):
                for first, rest in PAIRINGS:
                    s = Session(g, info.id, seed=seed)
                    sides = g.sides(s.state)
                    bots = {side: make_bot(first if i == 0 else rest) for i, side in enumerate(sides)}
                    watch = ProgressWatch()
                    t0 = time.process_time()
                    try:
                        if play_out(s, bots, max_decisions=CAP, watch=watch) is None:
                            raise EndlessGame(f"not over after {CAP} answers", game=gid, scenario=info.id,
                                              seed=seed, answer=len(s.answers))
                    except EndlessGame as exc:
                        endless += 1
                        stopped.append(f"{first} v {rest}: {exc}")
                    dt = time.process_time() - t0
                    games += 1
                    g_games += 1
                    g_cpu += dt
                    if dt > slowest_t:
                        slowest, slowest_t = f"{info.id} seed {seed} {first} v {rest}", dt
                    longest = max(longest, len(s.answers))
                    quiet = max(quiet, watch.longest_quiet)
                    closest = max(closest, watch.closest)
        per_game[gid] = {"games": g_games, "cpu_seconds": round(g_cpu, 1),
                         "slowest": f"{slowest} ({slowest_t:.1f} s)"}
    out: dict[str, Any] = {
        "seeds": SEEDS,
        "games": games,
        "endless": endless,
        "cpu_seconds": round(time.process_time() - cpu0, 1),
        "longest_game": longest,
        "longest_quiet": quiet,
        "closest_cycle": round(closest, 3),
    }
    for gid, figures in per_game.items():
        for k, v in figures.items():
            out[f"{gid}_{k}"] = v
    if stopped:
        out["endless_games"] = stopped
    return out


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:42} {v}")
