"""Cheap copies of long games: fork and undo from checkpoints against full replay.

A session rebuilds a game from the latest checkpoint (a copy of the state at
a safe point: a C&C turn, a Centurion unit's move) plus the answers since;
without checkpoints it replays every answer from the start. For one long
random-bot battle of C&C: Ancients and the longest Centurion game, at 50% and
90% of the game and at its end:

- ``fork``: ``Session.fork()`` against building the session from its answers
  (what fork did before checkpoints, and still does for games without them);
- ``undo``: ``Session.undo()`` against replaying all answers but the last.

Ratios (full replay time / checkpoint time) are machine-independent. Also
reported: a C&C fork at every 4th answer of the battle (median, 90th
percentile, max), for the target "a fork of a C&C battle at any point under
1 ms", and undo at the end of the longest game (target: under 100 ms).

    python benchmarks/bench_checkpoints.py
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from ancients_kit.chance import Rng
from ancients_kit.session import Session

CCA = ("ccancients_rome", "tigranocerte", 3)
"""A long C&C battle under random bots (about 1,400 answers, 214 turns)."""
CENTURION = ("centurion", "philippi", 3)
"""The longest Centurion game under random bots (about 1,500 answers)."""


def _play(game: str, scenario: str, seed: int) -> Session:
    s = Session.new(game, scenario, seed=seed)
    rng = Rng(5)
    while not s.finished:
        d = s.decision
        assert d is not None
        s.answer(d.options[rng.below(len(d.options))].key)
    return s


def _timed(fn: Callable[[], Any], repeat: int) -> float:
    """Median seconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _figures(played: Session, repeat: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    g, scenario, seed, answers = played.game, played.scenario, played.seed, played.answers
    for label, k in (("50%", len(answers) // 2), ("90%", len(answers) * 9 // 10), ("end", len(answers))):
        s = played.fork()
        s.undo(len(answers) - k)
        fork = _timed(s.fork, repeat)
        last = s.answers[-1]

        def undo_redo() -> float:
            t = time.perf_counter()
            s.undo()
            el = time.perf_counter() - t
            s.answer(last)
            return el

        undo = statistics.median(undo_redo() for _ in range(repeat))
        # the reference: a session built from its answers, as fork and undo did before
        # checkpoints (one answer fewer than a fork: the same work within 0.1%)
        replay = _timed(lambda: Session(g, scenario, seed=seed, answers=answers[: k - 1]), 1)
        out[f"{label} ({k} answers) fork ms"] = round(fork * 1e3, 3)
        out[f"{label} fork ratio (full replay / fork)"] = round(replay / fork, 1)
        out[f"{label} undo ms"] = round(undo * 1e3, 3)
        out[f"{label} undo ratio (full replay / undo)"] = round(replay / undo, 1)
        out[f"{label} full replay ms"] = round(replay * 1e3, 1)
    return out


def _fork_everywhere(game: str, scenario: str, seed: int, answers: list[str], every: int = 4) -> dict[str, Any]:
    s = Session.new(game, scenario, seed=seed)
    times = []
    for i, a in enumerate(answers[:-1]):
        s.answer(a)
        if i % every == 0:
            times.append(_timed(s.fork, 3))
    times.sort()
    return {
        f"fork at every {every}th answer: median ms": round(statistics.median(times) * 1e3, 3),
        "fork p90 ms": round(times[int(len(times) * 0.9)] * 1e3, 3),
        "fork max ms": round(times[-1] * 1e3, 3),
        "forks under 1 ms": f"{sum(t < 1e-3 for t in times)}/{len(times)}",
    }


def run() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    game, scenario, seed = CCA
    played = _play(game, scenario, seed)
    figures["C&C battle"] = f"{scenario}, seed {seed}: {len(played.answers)} answers"
    figures.update({f"C&C {k}": v for k, v in _figures(played, 25).items()})
    figures.update({f"C&C {k}": v for k, v in _fork_everywhere(game, scenario, seed, played.answers).items()})
    game, scenario, seed = CENTURION
    played = _play(game, scenario, seed)
    figures["Centurion game"] = f"{scenario}, seed {seed}: {len(played.answers)} answers"
    figures.update({f"Centurion {k}": v for k, v in _figures(played, 5).items()})
    return figures


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:55} {v}")
    sys.exit(0)
