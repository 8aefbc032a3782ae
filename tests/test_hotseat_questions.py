"""A whole strategic game in hotseat at the full-screen table, counted (issue 23).

Two people share the table (both sides ``human``); what each types is the
greedy bot's answer, typed key by key through the Textual pilot, and every
hand-over screen is passed with Enter. The test counts the questions the table
put and the hand-overs it showed, checks them against the question benchmark's
count of the same game (``benchmarks/bench_questions.py``: the table asks
exactly what the session asks, nothing more), and against the figures of
before issue 23: at most a third of them.

The before figures are the benchmark's means over seeds 1-3 at commit a173346
(``benchmarks/results/questions.md``). Both run under the ``slow`` marker
(``ANCIENTS_SLOW=1``): the table takes about 0.2 s an answer here, LDF's
campaign (515 answers) about two minutes, Cyrus' Revolt (3,312 answers and their
hand-overs) 25 minutes on a shared two-core machine (measured 2026-12-02).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from ancients_kit.bots import make_bot
from ancients_kit.cli.play import PlayLoop
from ancients_kit.session import Session
from ancients_kit.tui.app import HandOver, TableApp

from benchmarks.bench_questions import count_game
from tests.test_table_keys import fast_type

BEFORE = {("ldf", "campaign"): (2_381, 271.8), ("xenophon", "cyrus-revolt"): (10_881, 777.2)}
"""Questions a game and per player-turn before issue 23 (greedy against greedy)."""


def _hotseat(game: str, scenario: str, seed: int, tmp_path: Path) -> dict[str, Any]:
    s = Session.new(game, scenario, seed=seed)
    loop = PlayLoop(s, {x: "human" for x in s.game.sides(s.state)}, tmp_path / "h.json")
    app = TableApp(loop)
    bot = make_bot("greedy")
    got = {"questions": 0, "hand-overs": 0}

    async def go() -> None:
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            while s.decision is not None:
                if isinstance(app.screen, HandOver):
                    got["hand-overs"] += 1
                    while isinstance(app.screen, HandOver):
                        await pilot.press("enter")
                        await pilot.pause()
                    continue
                d = s.decision
                key = bot.choose(s, d)
                n = len(s.answers)
                await fast_type(pilot, app, key)
                assert s.answers[n:n + 1] == [key], (d.kind, key, app.message)
                got["questions"] += 1
            assert s.outcome is not None

    asyncio.run(go())
    got["turns"] = int(getattr(s.outcome, "turn", None) or s.state.turn)
    return got


@pytest.mark.parametrize(("game", "scenario"), [
    pytest.param("ldf", "campaign", marks=pytest.mark.slow),
    pytest.param("xenophon", "cyrus-revolt", marks=pytest.mark.slow),
])
def test_a_hotseat_game_asks_at_most_a_third_of_the_questions_of_before(game: str, scenario: str,
                                                                         tmp_path: Path) -> None:
    from ancients_kit.plugin import load_games

    played = _hotseat(game, scenario, 1, tmp_path)
    bench = count_game(load_games()[game], scenario, 1)
    assert played["questions"] == bench["questions"]  # the table asks what the session asks
    assert played["hand-overs"] <= bench["hand-overs"] + 1  # + the first player's screen
    total, per_turn = BEFORE[(game, scenario)]
    assert played["questions"] <= total / 3, played
    assert played["questions"] / (2 * played["turns"]) <= per_turn / 3, played
