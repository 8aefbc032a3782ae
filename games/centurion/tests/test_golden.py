"""Golden replays: the readable log of a seeded random-bot game per scenario, checked in.

A change in the rules or data shows up as a reviewable diff of these files.
Each is a golden playthrough (:func:`ancients_kit.testing.check_golden`): the log
and the seed, options and answers that made it. Regenerate them with
``CEN_GOLDEN_UPDATE=1 pytest games/centurion/tests/test_golden.py`` (or
``ANCIENTS_GOLDEN_UPDATE=1`` for every game) and read the diff before committing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session
from ancients_kit.testing import check_golden

from ancients_games.centurion import GAME

GOLDEN = Path(__file__).parent / "golden"
SEED = 2026
MAX_DECISIONS = 3_000
"""Cap on answers, so a golden file stays well under 300 KB (a whole game fits today)."""
MAX_BYTES = 300_000

GOLDEN_GAMES: dict[str, dict[str, Any]] = {
    "basic-gaul": {},
    "numidia": {},
    "carrhae": {"treachery": "both", "weather": "roll", "fortune": "second"},
}
"""Scenario -> options: one Basic Game, two Full Simulation games (one with optional rules)."""

PARAMS = [
    pytest.param("basic-gaul", marks=pytest.mark.rule("cen:basic.sequence", "cen:basic.movement", "cen:basic.combat",
                                                      "cen:basic.victory")),
    pytest.param("numidia", marks=pytest.mark.rule("cen:full.sequence", "cen:full.movement", "cen:full.combat",
                                                   "cen:full.victory")),
    pytest.param("carrhae", marks=pytest.mark.rule("cen:full.sequence", "cen:full.treachery", "cen:opt.weather",
                                                   "cen:opt.fortune")),
]


def _golden_session(scenario: str) -> Session:
    s = Session(GAME, scenario, seed=SEED, options=GOLDEN_GAMES[scenario])
    play_out(s, RandomBot(), max_decisions=MAX_DECISIONS)
    return s


@pytest.mark.parametrize("scenario", PARAMS)
def test_golden_replay(scenario: str) -> None:
    """The golden playthrough of a seeded random-bot game (regenerate: CEN_GOLDEN_UPDATE=1)."""
    check_golden(lambda: _golden_session(scenario), GOLDEN / scenario, update_var="CEN_GOLDEN_UPDATE",
                 max_bytes=MAX_BYTES)
