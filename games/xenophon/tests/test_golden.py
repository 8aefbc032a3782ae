"""Golden replays: the readable log of a whole seeded game of each scenario between random bots, checked in.

A change in the rules or data shows up as a reviewable diff of the files.
Each is a golden playthrough (:func:`ancients_kit.testing.check_golden`): the log and
the seed, options and answers that made it. Regenerate them with
``XEN_GOLDEN_UPDATE=1 pytest games/xenophon/tests/test_golden.py`` (or
``ANCIENTS_GOLDEN_UPDATE=1`` for every game) and read the diff before committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session
from ancients_kit.testing import check_golden

from ancients_games.xenophon import GAME

GOLDEN = Path(__file__).parent / "golden"
SEEDS = {"cyrus-revolt": 2031, "kings-war": 2034}
"""Seeds whose random players play every turn (random players often agree to end the game early,
xen:negotiations; these do not, so the replays cover all 7 and all 15 turns)."""
MAX_BYTES = 800_000


def _golden_session(scenario: str) -> Session:
    s = Session(GAME, scenario, seed=SEEDS[scenario])
    play_out(s, RandomBot(), max_decisions=50_000)
    return s


@pytest.mark.rule("xen:sequence", "xen:scenario.cyrus-revolt", "xen:scenario.kings-war", "xen:victory")
@pytest.mark.parametrize("scenario", ["cyrus-revolt", "kings-war"])
def test_golden_game(scenario: str) -> None:
    """The golden playthrough of a whole seeded game (regenerate: XEN_GOLDEN_UPDATE=1)."""
    s = check_golden(lambda: _golden_session(scenario), GOLDEN / scenario, update_var="XEN_GOLDEN_UPDATE",
                     max_bytes=MAX_BYTES)
    assert s.outcome is not None, f"the golden {scenario} game did not end"
    assert s.state.turn == s.state.last_turn, f"the golden {scenario} game ended in turn {s.state.turn}"
    # Undo at the end (from the latest checkpoint) against a full replay of the answers but the last.
    answers = list(s.answers)
    s.undo()
    again = Session(GAME, scenario, seed=SEEDS[scenario], answers=answers[:-1])
    assert again.log.text() == s.log.text()
