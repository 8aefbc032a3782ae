"""Golden replay: the readable log of a whole seeded LDF campaign between random bots, checked in.

A change in the rules or data shows up as a reviewable diff of the file.
It is a golden playthrough (:func:`ancients_kit.testing.check_golden`): the log and
the seed, options and answers that made it. Regenerate it with
``LDF_GOLDEN_UPDATE=1 pytest games/ldf/tests/test_golden.py`` (or
``ANCIENTS_GOLDEN_UPDATE=1`` for every game) and read the diff before committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session
from ancients_kit.testing import check_golden

from ancients_games.ldf import GAME

GOLDEN = Path(__file__).parent / "golden"
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
    """The golden playthrough of a whole seeded campaign (regenerate: LDF_GOLDEN_UPDATE=1)."""
    s = check_golden(_golden_session, GOLDEN / "campaign", update_var="LDF_GOLDEN_UPDATE", max_bytes=MAX_BYTES)
    assert s.outcome is not None, "the golden campaign did not end"
