"""Odds before you commit: ``decision_odds`` for a battle (issue 14 item 2).

The report must be the one ``ancients odds ccancients_rome`` gives for the
same dice and target, and the dice it counts must be the dice then rolled.
"""

from __future__ import annotations

import re

import pytest

from ancients_kit.bots import play_until
from ancients_kit.session import Session


def at_battle_target(seed: int) -> Session:
    s = Session.new("ccancients_rome", "tigranocerte", seed=seed)
    play_until(s, "battle.target")
    return s


@pytest.mark.rule("ccr:base.dice", "ccr:base.ranged", "ccr:base.close-combat", "ccr:base.retreat")
@pytest.mark.parametrize("seed", [5, 11])
def test_battle_odds_match_the_calculator_and_the_roll(seed: int) -> None:
    s = at_battle_target(seed)
    d = s.decision
    for key in d.keys:
        report = s.game.decision_odds(s.state, d, key, s.store)
        if key == "back" or key not in s.state.b.at:
            assert report is None
            continue
        assert report is not None
        assert sum(report.distribution.values()) == 1
        cmd = next(x for x in report.explain if x.startswith("same as: ancients odds ccancients_rome "))
        params = dict(p.split("=", 1) for p in cmd.split() if "=" in p)
        assert s.game.odds(s.store, params).distribution == report.distribution
        assert any(x.startswith("P(retreat) = ") for x in report.explain)
        assert any(x.startswith("hits: 0: ") for x in report.explain)
    key = next(k for k in d.keys if k in s.state.b.at)
    report = s.game.decision_odds(s.state, d, key, s.store)
    dice = int(re.match(r"(\d+) dice", report.title).group(1))
    events = s.answer(key)
    roll = next(e for e in events if e.kind == "roll")
    faces = re.match(r"battle dice: (.*?) \(", roll.text)  # the faces rolled, as symbols
    rolled = len([f for f in faces.group(1).split(",") if f.strip()]) if faces else 0
    assert rolled == dice


def test_no_odds_for_questions_that_roll_nothing() -> None:
    s = Session.new("ccancients_rome", "tigranocerte", seed=5)
    d = s.decision
    assert all(s.game.decision_odds(s.state, d, k, s.store) is None for k in d.keys)
