"""Xenophon throughput: whole games between bots per scenario, greedy decisions, undo at the end.

Figures:

- ``<scenario>.random_games_per_minute``: Cyrus' Revolt (7 turns) and The
  King's War (15 turns) played to their end by two random bots through the
  full session protocol; with the decisions per second and per game;
- ``greedy_ms_per_decision``: the greedy bot's time per decision on both sides
  of a Cyrus' Revolt (the game's cheap ``score_option``: no look-ahead), and
  ``greedy_over_random`` its ratio to the random bot's time per decision in
  the same process (machine-independent);
- ``undo_ms_at_end``: one undo at the end of a finished King's War (the
  session rebuilds from its latest checkpoint, ``Game.resume``), against
  ``full_replay_ms`` for rebuilding the same game from its answers alone, and
  their ratio ``replay_over_undo`` (machine-independent).

Run with ``python -m benchmarks.bench_xenophon [seconds]`` (or ``python -m benchmarks xenophon``).
``python -m benchmarks.bench_xenophon balance [random] [greedy]`` plays the balance check of the
reconstructed tables instead: that many random-vs-random and greedy-vs-greedy games of Cyrus'
Revolt (seeds 1...), and prints each side's wins and the levels of victory.
Measured figures: docs/games/xenophon.md ("Balance and speed").
"""

from __future__ import annotations

import sys
import time
from typing import Any

from ancients_kit.bots import GreedyBot, RandomBot, play_out
from ancients_kit.session import Session

from ancients_games.xenophon import GAME

from ._rates import random_games, undo_at_end

MAX_DECISIONS = 200_000
SCENARIOS = ("cyrus-revolt", "kings-war")


def _games(scenario: str, seconds: float) -> dict[str, float]:
    return random_games(GAME, scenario, seconds, max_decisions=MAX_DECISIONS)


def _per_decision(bot: Any, seed: int) -> tuple[float, int]:
    s = Session(GAME, "cyrus-revolt", seed=seed)
    t0 = time.perf_counter()
    play_out(s, bot, max_decisions=MAX_DECISIONS)
    return time.perf_counter() - t0, len(s.answers)


def _greedy(seeds: int = 3) -> dict[str, float]:
    g_t = g_n = r_t = r_n = 0.0
    for seed in range(1, seeds + 1):
        t, n = _per_decision(GreedyBot(), seed)
        g_t, g_n = g_t + t, g_n + n
        t, n = _per_decision(RandomBot(), seed)
        r_t, r_n = r_t + t, r_n + n
    greedy = g_t / max(1, g_n)
    rand = r_t / max(1, r_n)
    return {"greedy_ms_per_decision": round(1000 * greedy, 3), "random_ms_per_decision": round(1000 * rand, 3),
            "greedy_over_random": round(greedy / rand, 2) if rand else 0.0,
            "greedy_decisions_per_game": round(g_n / seeds, 1)}


def _undo(seed: int = 7) -> dict[str, float]:
    return undo_at_end(GAME, "kings-war", seed, max_decisions=MAX_DECISIONS)


def balance(randoms: int = 20, greedies: int = 8, scenario: str = "cyrus-revolt") -> dict[str, Any]:
    """Wins per side (and draws) and the levels of victory, random and greedy self-play."""
    out: dict[str, Any] = {}
    for name, bot, n in (("random", RandomBot, randoms), ("greedy", GreedyBot, greedies)):
        wins: dict[str, int] = {}
        levels: dict[str, int] = {}
        margins = []
        agreed = 0
        t0 = time.perf_counter()
        for seed in range(1, n + 1):
            s = Session(GAME, scenario, seed=seed)
            o = play_out(s, bot(), max_decisions=MAX_DECISIONS)
            assert o is not None, f"{scenario} seed {seed} did not end"
            wins[o.winner or "draw"] = wins.get(o.winner or "draw", 0) + 1
            levels[o.level] = levels.get(o.level, 0) + 1
            margins.append(o.scores.get("rebel", 0) - o.scores.get("empire", 0))
            agreed += "agreement" in o.text
        out[name] = {"games": n, "wins": wins, "levels": levels, "ended_by_agreement": agreed,
                     "mean_rebel_margin": round(sum(margins) / max(1, len(margins)), 1),
                     "seconds": round(time.perf_counter() - t0, 1)}
    return out


def run(seconds: float = 10.0) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for sc in SCENARIOS:
        out[sc] = _games(sc, seconds / 2)
    out.update(_greedy())
    out.update(_undo())
    return out


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "balance":
        print(balance(*(int(a) for a in sys.argv[2:4])))
    else:
        print(run(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0))
