"""Golden replays: the readable log of a seeded random-bot game per scenario, checked in.

A change in the rules or data shows up as a reviewable diff of these files.
Regenerate them with ``CEN_GOLDEN_UPDATE=1 pytest games/centurion/tests/test_golden.py``
(as ``games/ccancients_rome/tests/test_play.py`` does with CCR_GOLDEN_UPDATE)
and read the diff before committing.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session

from ancients_games.centurion import GAME

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CEN_GOLDEN_UPDATE") == "1"
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
    """The readable log of a seeded random-bot game (regenerate: CEN_GOLDEN_UPDATE=1)."""
    s = _golden_session(scenario)
    text = s.log.text()
    assert len(text.encode("utf-8")) < MAX_BYTES
    path = GOLDEN / f"{scenario}.txt"
    if UPDATE or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), (
        f"{scenario}: log differs from the golden replay {path} (if the change is intended, regenerate with "
        f"CEN_GOLDEN_UPDATE=1 and review the diff)")
    # replaying the answers reproduces it
    again = Session(GAME, scenario, seed=SEED, options=GOLDEN_GAMES[scenario], answers=s.answers)
    assert again.log.text() == text
