"""Golden replay: the readable log of a whole seeded LDF campaign between random bots, checked in.

A change in the rules or data shows up as a reviewable diff of the file.
Regenerate it with ``LDF_GOLDEN_UPDATE=1 pytest games/ldf/tests/test_golden.py``
and read the diff before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session

from ancients_games.ldf import GAME

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("LDF_GOLDEN_UPDATE") == "1"
SEED = 2026
OPTIONS = {"concession": False, "action_limit": 40}
"""No concession, so the random players play the five turns out; at most 40 actions a turn,
so the file stays reviewable and the test cheap."""
MAX_BYTES = 300_000


def _golden_session() -> Session:
    s = Session(GAME, "campaign", seed=SEED, options=OPTIONS)
    play_out(s, RandomBot(), max_decisions=20_000)
    return s


@pytest.mark.rule("ldf:5.2", "ldf:5.5", "ldf:8.1", "ldf:4.3")
def test_golden_campaign() -> None:
    """The log of a whole seeded campaign (regenerate: LDF_GOLDEN_UPDATE=1)."""
    s = _golden_session()
    assert s.outcome is not None, "the golden campaign did not end"
    text = s.log.text()
    assert len(text.encode("utf-8")) < MAX_BYTES
    path = GOLDEN / "campaign.txt"
    if UPDATE or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), (
        f"the campaign's log differs from the golden replay {path} (if the change is intended, regenerate with "
        "LDF_GOLDEN_UPDATE=1 and review the diff)")
    again = Session(GAME, "campaign", seed=SEED, options=OPTIONS, answers=s.answers)
    assert again.log.text() == text
