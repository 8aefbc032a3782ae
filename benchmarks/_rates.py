"""Shared by the strategic games' benchmarks: whole random games for a while, and their rate."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.plugin import Game
from ancients_kit.session import Session


def random_games(game: Game, scenario: str, seconds: float, *, max_decisions: int,
                 options: Mapping[str, Any] | None = None, noun: str = "games") -> dict[str, float]:
    """Random-vs-random games of ``scenario`` (seeds 1, 2, ...) for about ``seconds`` (at
    least one), each played to its end: games a minute, decisions a second and a game."""
    games = decisions = 0
    seed = 1
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        s = Session(game, scenario, seed=seed, options=dict(options or {}))
        play_out(s, RandomBot(), max_decisions=max_decisions)
        assert s.outcome is not None, f"{scenario} seed {seed} did not end"
        games += 1
        decisions += len(s.answers)
        seed += 1
    wall = time.perf_counter() - start
    one = noun[:-1] if noun.endswith("s") else noun
    return {
        f"random_{noun}_per_minute": round(60 * games / wall, 1),
        "random_decisions_per_second": round(decisions / wall, 1),
        f"random_decisions_per_{one}": round(decisions / games, 1),
        f"random_{noun}": games,
    }


def undo_at_end(game: Game, scenario: str, seed: int, *, max_decisions: int,
                options: Mapping[str, Any] | None = None, noun: str = "game") -> dict[str, float]:
    """One undo at the end of a finished random game, against rebuilding the same game
    from its answers alone; the two logs must agree."""
    opts = dict(options or {})
    s = Session(game, scenario, seed=seed, options=opts)
    play_out(s, RandomBot(), max_decisions=max_decisions)
    answers = list(s.answers)
    t0 = time.perf_counter()
    s.undo()
    undo = time.perf_counter() - t0
    t0 = time.perf_counter()
    again = Session(game, scenario, seed=seed, options=opts, answers=answers[:-1])
    full = time.perf_counter() - t0
    assert again.log.text() == s.log.text(), "undo and a full replay disagree"
    return {"undo_ms_at_end": round(1000 * undo, 2), "full_replay_ms": round(1000 * full, 2),
            "replay_over_undo": round(full / undo, 1) if undo else 0.0, f"answers_in_{noun}": len(answers)}
