"""Every question a player meets refuses a wrong answer with a reason and a rule ID.

Random-bot games of several battles are walked decision by decision; at each one, a
few answers that are not options are offered to the decision's refusal function.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from ancients_games.ccancients_rome import GAME
from ancients_kit.bots import RandomBot
from ancients_kit.session import Session

INDEX = Path(__file__).parents[1] / "data" / "rules.index.toml"
RULE_IDS = {r["id"] for r in tomllib.loads(INDEX.read_text(encoding="utf-8"))["rule"]}
JUNK = ("zz", "0101", "1309", "9999", "evade")


@pytest.mark.rule("ccr:sequence", "ccr:base.cards", "ccr:base.movement", "ccr:base.close-combat",
                  "ccr:base.retreat", "ccr:base.evade", "ccr:base.momentum", "ccr:base.leaders")
@pytest.mark.parametrize("battle", ["carrhes", "edessa", "naissus", "mons-graupius"])
def test_every_question_refuses_with_a_reason_and_a_rule(battle: str) -> None:
    s = Session(GAME, battle, seed=5, options={"turn_limit": 14})
    bot = RandomBot()
    kinds: set[str] = set()
    for _ in range(2500):
        d = s.decision
        if d is None:
            break
        kinds.add(d.kind)
        assert d.refuse is not None, f"{d.kind}: {d.prompt} has no refusal"
        for junk in JUNK:
            if junk in d.keys:
                continue
            r = d.refuse(junk)
            assert isinstance(r, tuple) and r[0] and r[1] in RULE_IDS, (d.kind, junk, r)
            assert "not a legal answer" not in r[0], (d.kind, junk, r)
        s.answer(bot.choose(s, d))
    assert {"card", "order.unit", "move.unit", "move.hex", "battle.unit", "battle.target"} <= kinds
