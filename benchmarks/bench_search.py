"""The ``mcts`` search bot against the greedy bot (issue 11, item 9).

Plays Centurion Basic Games and C&C battles, MCTS against greedy with the
sides swapped every other game (so neither seat's advantage counts), and
prints for each game: MCTS wins, draws, losses, the win rate with its 95%
Wilson interval (computed here), the iterations per decision and the mean
seconds per searched decision (decisions with one option are not searched).

The budget is iterations per decision (deterministic); the figures say what
one decision cost on this machine. Environment: ``BENCH_SEARCH_ITERATIONS``
(default 16), ``BENCH_SEARCH_PLIES`` (turns searched ahead, default 2), ``BENCH_SEARCH_GAMES``
(games per game system, default 6), ``BENCH_SEARCH_SECONDS`` (stop starting
games after this many seconds per game system, default 240),
``BENCH_SEARCH_ONLY`` (``centurion`` or ``cc``), ``BENCH_SEARCH_VERBOSE``
(one line per game on stderr).
"""

from __future__ import annotations

import math
import os
import sys
import time
from typing import Any

from ancients_kit.bots import GreedyBot, play_out
from ancients_kit.plugin import find_game
from ancients_kit.search import MCTSBot
from ancients_kit.session import Decision, Session

CENTURION_BASIC = ("basic-civil-war", "basic-gaul", "basic-carrhae", "basic-servile-war")
CC_BATTLES = ("first-bedriacum", "tigranocerte", "carrhes", "cilician-gates")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


class _Timed:
    """Wraps the MCTS bot to count searched decisions and their time."""

    def __init__(self, bot: MCTSBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.searched = 0
        self.seconds = 0.0

    def choose(self, session: Session, decision: Decision) -> str:
        if len(decision.options) == 1:
            return decision.options[0].key
        t = time.perf_counter()
        key = self.bot.choose(session, decision)
        self.seconds += time.perf_counter() - t
        self.searched += 1
        return key


def _series(game_id: str, scenarios: tuple[str, ...], games: int, budget: float, iterations: int,
            plies: int) -> dict[str, Any]:
    game = find_game(game_id)
    wins = draws = losses = 0
    played = 0
    timed = _Timed(MCTSBot(iterations=iterations, plies=plies))
    start = time.perf_counter()
    for i in range(games):
        if i and time.perf_counter() - start > budget:
            break
        scenario = scenarios[(i // 2) % len(scenarios)]
        s = Session(game, scenario, seed=100 + i)
        sides = game.sides(s.state)
        mcts_side = sides[i % 2]
        bots = {side: (timed if side == mcts_side else GreedyBot()) for side in sides}
        out = play_out(s, bots)  # type: ignore[arg-type]
        played += 1
        if out is None or out.winner is None:
            draws += 1
        elif out.winner == mcts_side:
            wins += 1
        else:
            losses += 1
        if os.environ.get("BENCH_SEARCH_VERBOSE"):
            print(f"{game_id} {scenario} seed {100 + i} mcts={mcts_side}: {out.text if out else 'unfinished'}"
                  f" [{wins}-{draws}-{losses}, {timed.seconds / max(1, timed.searched):.3f}s/decision]",
                  file=sys.stderr, flush=True)
    score = wins + 0.5 * draws
    lo, hi = wilson(wins, played)
    return {
        "games": played,
        "mcts_wins": wins,
        "draws": draws,
        "mcts_losses": losses,
        "win_rate": round(wins / played, 3) if played else None,
        "win_rate_95": f"[{lo:.3f}, {hi:.3f}]",
        "score_rate": round(score / played, 3) if played else None,
        "seconds_per_decision": round(timed.seconds / timed.searched, 3) if timed.searched else None,
        "searched_decisions": timed.searched,
        "wall_seconds": round(time.perf_counter() - start, 1),
    }


def run() -> dict[str, Any]:
    iterations = int(os.environ.get("BENCH_SEARCH_ITERATIONS", "16"))
    plies = int(os.environ.get("BENCH_SEARCH_PLIES", "2"))
    games = int(os.environ.get("BENCH_SEARCH_GAMES", "6"))
    budget = float(os.environ.get("BENCH_SEARCH_SECONDS", "240"))
    out: dict[str, Any] = {"iterations_per_decision": iterations, "plies": plies}
    only = os.environ.get("BENCH_SEARCH_ONLY", "")
    if only in ("", "centurion"):
        for k, v in _series("centurion", CENTURION_BASIC, games, budget, iterations, plies).items():
            out[f"centurion_basic_{k}"] = v
    if only in ("", "cc"):
        for k, v in _series("ccancients_rome", CC_BATTLES, games, budget, iterations, plies).items():
            out[f"cc_{k}"] = v
    return out


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:42} {value}")
