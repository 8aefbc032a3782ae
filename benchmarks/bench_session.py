"""The Session at the rules' own speed (issue 24 item 1): random self-play per decision.

For each game, the same seeded random games are played, alternating game by
game in this process, four ways:

- ``bare``: the game's generator driven directly with the answers the Session
  game gave (no Session, no bot, no checkpoints: the rules alone);
- ``replay``: a Session rebuilt from those answers (the Session's own work:
  matching answers, the log, its checkpoints; no bot);
- ``random``: random self-play through the Session (``RandomBot``), as
  ``ancients simulate`` plays it, with the checkpoints as they are now (one
  kept every ``Session.checkpoint_spacing`` answers at most);
- ``every_checkpoint``: the same with ``checkpoint_spacing = 1``, a copy of
  the state at every safe point, as the Session kept them before.

Every way must log the same game (the logs are compared: a difference stops
the run). Printed per game: decisions per CPU second each way, the ratios
against ``bare`` (the figure of item 1: at least 1.0 for ``random`` is the
goal) and ``random`` against ``every_checkpoint`` (what the sparse
checkpoints bought), and the copies of the state made per 100 answers.

    python -m benchmarks session            # every game
    BENCH_SESSION_GAMES=4 python -m benchmarks session
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable
from typing import Any

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.data import DataStore
from ancients_kit.log import Log
from ancients_kit.plugin import Game, find_game
from ancients_kit.session import Context, Session

CASES: tuple[tuple[str, tuple[str, ...], dict[str, Any]], ...] = (
    ("ccancients_rome", ("first-bedriacum", "tigranocerte", "edessa", "milvian-bridge"), {}),
    ("centurion", ("basic-civil-war", "basic-gaul", "servile-war"), {}),
    ("ldf", ("campaign",), {"concession": False}),
    ("xenophon", ("cyrus-revolt",), {}),
)
"""Game, scenarios played in turn, options (LDF: no concession, so that a random player plays on)."""

MAX_DECISIONS = 200_000


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def _bare(game: Game, store: DataStore, scenario: str, seed: int, options: dict[str, Any],
          answers: list[str]) -> Log:
    """The rules driven with ``answers``; forced answers given as a Session gives them."""
    ctx = Context(store, options, seed, Log())
    state = game.setup(ctx, scenario)
    gen = game.play(ctx, state)
    forced = not game.asks_forced
    given = iter(answers)
    try:
        d = next(gen)
        while True:
            d = gen.send(d.options[0].key if forced and len(d.options) == 1 else next(given))
    except StopIteration:
        return ctx.log


def _session(game: Game, scenario: str, seed: int, options: dict[str, Any], spacing: int | None) -> Session:
    s = Session(game, scenario, seed=seed, options=options)
    if spacing is not None:
        s.checkpoint_spacing = spacing
    play_out(s, RandomBot(), max_decisions=MAX_DECISIONS)
    return s


def _copies(game: Game) -> Callable[[], int]:
    """Counts ``game.copy_state`` calls from now on (the state copies of checkpoints and forks)."""
    n = [0]
    original = game.copy_state

    def counted(state: Any) -> Any:
        n[0] += 1
        return original(state)

    game.copy_state = counted  # type: ignore[method-assign]
    return lambda: n[0]


def _case(game_id: str, scenarios: tuple[str, ...], options: dict[str, Any], games: int) -> dict[str, Any]:
    game = find_game(game_id)
    cpu = {"bare": 0.0, "replay": 0.0, "random": 0.0, "every_checkpoint": 0.0}
    copies = {"random": 0, "every_checkpoint": 0}
    decisions = 0
    count = _copies(game)
    try:
        for scenario in scenarios:  # untimed: the data parsed, the caches filled
            _session(game, scenario, 10_000, options, None)
        for i in range(games):
            scenario, seed = scenarios[i % len(scenarios)], 1 + i
            played: dict[str, Session] = {}
            # the two self-play ways in turn first (the machine's speed drifts)
            for way, spacing in (("random", None), ("every_checkpoint", 1))[:: 1 if i % 2 == 0 else -1]:
                gc.collect()
                before = count()
                t, played[way] = _cpu(lambda: _session(game, scenario, seed, options, spacing))
                cpu[way] += t
                copies[way] += count() - before
            s, dense = played["random"], played["every_checkpoint"]
            t, again = _cpu(lambda: Session(game, scenario, seed=seed, options=options, answers=s.answers))
            cpu["replay"] += t
            t, log = _cpu(lambda: _bare(game, s.store, scenario, seed, s.options, s.answers))
            cpu["bare"] += t
            digest = s.log.digest()
            if dense.log.digest() != digest or again.log.digest() != digest or \
                    log.digest() != s.log.digest_of_first(len(log)) or len(log) < len(s.log) - 1:
                raise AssertionError(f"{game_id} {scenario} seed {seed}: the four ways logged different games")
            decisions += len(s.answers)
    finally:
        del game.copy_state  # the class's method again
    out: dict[str, Any] = {"games": games, "decisions": decisions}
    for way, t in cpu.items():
        out[f"{way}_decisions_per_cpu_s"] = round(decisions / t) if t else 0
    for way in ("replay", "random", "every_checkpoint"):
        out[f"{way}_over_bare"] = round(cpu["bare"] / cpu[way], 3) if cpu[way] else 0.0
    out["random_over_every_checkpoint"] = round(cpu["every_checkpoint"] / cpu["random"], 3) if cpu["random"] else 0.0
    for way, n in copies.items():
        out[f"{way}_copies_per_100_answers"] = round(100 * n / decisions, 2) if decisions else 0.0
    return out


def run(games: int | None = None) -> dict[str, Any]:
    n = games if games is not None else int(os.environ.get("BENCH_SESSION_GAMES", "4"))
    out: dict[str, Any] = {"checkpoint_spacing": Session.checkpoint_spacing}
    for game_id, scenarios, options in CASES:
        # the strategic games' campaigns are long: half as many
        k = n if game_id in ("ccancients_rome", "centurion") else max(1, n // 2)
        for key, value in _case(game_id, scenarios, options, k).items():
            out[f"{game_id}.{key}"] = value
    return out


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:50} {v}")
