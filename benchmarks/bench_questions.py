"""Questions a person is asked in the strategic games (issue 23, item 3).

Greedy bot against greedy bot, seeds 1 on, every scenario of Lest Darkness
Fall and Xenophon. Every decision the session puts is counted as a question a
person at the table would have to answer, split into interrupt windows
(``window.*``), moves (LDF's hex-by-hex ``move.step``, Xenophon's ``ops.action``
answered with a move: one hex before issue 23, a whole walk to a destination after)
and the rest; also counted: questions with
a single option (forced answers), and hand-overs (a question for a different
side than the one before, which in hotseat means passing the screen).

Figures are per game and per player-turn (two a game turn: LDF's alternating
actions of a turn are one player-turn per side; Xenophon's Rebel and Empire
player-turns). ``BENCH_QUESTIONS_SEEDS`` sets the games per scenario (default 3).

``python -m benchmarks questions`` prints the figures; ``benchmarks/results/questions.md``
keeps them before and after the work of issue 23.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

MOVE_STEPS = {"move.step"}
"""Kinds that are one step of a force's movement whatever the answer."""


def _is_step(kind: str, key: str) -> bool:
    if kind in MOVE_STEPS:
        return True
    return kind == "ops.action" and key.startswith(("move:", "march:"))


def count_game(game: Any, scenario: str, seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play one greedy-vs-greedy game and count its questions."""
    from ancients_kit.bots import make_bot
    from ancients_kit.session import Session

    s = Session(game, scenario, seed=seed, options=options or {})
    bot = make_bot("greedy")
    kinds: Counter[str] = Counter()
    windows = steps = single = handovers = 0
    last_side: str | None = None
    while s.decision is not None:
        d = s.decision
        key = bot.choose(s, d)
        kinds[d.kind] += 1
        if d.kind.startswith("window."):
            windows += 1
        elif _is_step(d.kind, key):
            steps += 1
        if len(d.options) == 1:
            single += 1
        if last_side is not None and d.side != last_side:
            handovers += 1
        last_side = d.side
        s.answer(key)
    outcome = s.outcome
    turns = int(getattr(outcome, "turn", None) or getattr(s.state, "turn", 1))
    total = sum(kinds.values())
    return {"questions": total, "windows": windows, "move steps": steps, "other": total - windows - steps,
            "single-option": single, "hand-overs": handovers, "turns": turns,
            "per player-turn": round(total / (2 * turns), 1), "kinds": kinds}


def _scenarios() -> list[tuple[str, Any, str, dict[str, Any]]]:
    from ancients_games.ldf import GAME as LDF
    from ancients_games.xenophon import GAME as XEN

    return [("ldf", LDF, "campaign", {"concession": False}),
            ("xenophon", XEN, "cyrus-revolt", {}),
            ("xenophon", XEN, "kings-war", {})]


def run() -> dict[str, object]:
    n = int(os.environ.get("BENCH_QUESTIONS_SEEDS", "3"))
    out: dict[str, object] = {"seeds per scenario": n}
    for game_name, game, scenario, options in _scenarios():
        games = [count_game(game, scenario, seed, options) for seed in range(1, n + 1)]
        mean = {k: round(sum(g[k] for g in games) / n, 1)
                for k in ("questions", "windows", "move steps", "other", "single-option", "hand-overs",
                          "per player-turn")}
        kinds: Counter[str] = sum((g["kinds"] for g in games), Counter())
        mean["top kinds"] = ", ".join(f"{k} {round(v / n)}" for k, v in kinds.most_common(6))
        out[f"{game_name} {scenario}"] = mean
    return out


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:28} {v}")
