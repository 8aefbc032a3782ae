"""Lest Darkness Fall throughput: whole campaigns between bots, and undo at the end of one.

Figures:

- ``random_campaigns_per_minute``: five-turn campaigns (``ldf:5.2``) played to
  their end by two random bots through the full session protocol
  (``concession`` off so that a random player does not give up at once);
- ``random_decisions_per_second`` and the mean decisions per campaign;
- ``greedy_ms_per_decision``: the greedy bot's time per decision on both sides
  (the game's cheap ``score_option``: no look-ahead);
- ``undo_ms_at_end``: one undo at the end of a finished seeded campaign (the
  session rebuilds from its latest checkpoint, ``Game.resume``), and
  ``full_replay_ms`` for rebuilding the same campaign from its answers alone,
  with their ratio (machine-independent).

Run with ``python -m benchmarks.bench_ldf [seconds]`` (or ``python -m benchmarks ldf``).

Measured on the team's shared 2-core machine (others' jobs running), 30 s run:

- the skeleton alone (no movement, combat or politics yet): 491 random campaigns a
  minute, 1208 decisions a second, greedy 1.0 ms a decision, undo at the end 0.4 ms
  against 266 ms for a full replay;
- after merging ldf-move, ldf-combat and ldf-politics: 15.6 random campaigns a
  minute (811 decisions each), 210 decisions a second, greedy 5.2 ms a decision,
  undo at the end of a 655-answer campaign 1.2 ms against 2145 ms for a full
  replay (ratio about 1850). Most of the time goes to the movement search and
  zones of control (``movement.movable_hexes``, ``zoc.ezoc``).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from ancients_kit.bots import GreedyBot, play_out
from ancients_kit.session import Session

from ancients_games.ldf import GAME

from ._rates import random_games, undo_at_end

MAX_DECISIONS = 100_000
OPTIONS = {"concession": False}


def _campaigns(seconds: float) -> dict[str, float]:
    return random_games(GAME, "campaign", seconds, max_decisions=MAX_DECISIONS, options=OPTIONS, noun="campaigns")


def _greedy(seed: int = 1) -> dict[str, float]:
    s = Session(GAME, "campaign", seed=seed, options=OPTIONS)
    t0 = time.perf_counter()
    play_out(s, GreedyBot(), max_decisions=MAX_DECISIONS)
    wall = time.perf_counter() - t0
    return {"greedy_ms_per_decision": round(1000 * wall / max(1, len(s.answers)), 3),
            "greedy_decisions_per_campaign": len(s.answers)}


def _undo(seed: int = 7) -> dict[str, float]:
    return undo_at_end(GAME, "campaign", seed, max_decisions=MAX_DECISIONS, options=OPTIONS, noun="campaign")


def run(seconds: float = 10.0) -> dict[str, Any]:
    out: dict[str, Any] = {}
    out.update(_campaigns(seconds))
    out.update(_greedy())
    out.update(_undo())
    return out


if __name__ == "__main__":
    print(run(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0))
