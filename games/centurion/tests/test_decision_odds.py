"""Odds before you commit: ``decision_odds`` for a Basic Game attack (issue 14 item 2)."""

from __future__ import annotations

import pytest

from ancients_kit.bots import play_until
from ancients_kit.session import Session
from ancients_games.centurion.combat import (
    basic_attack_factor,
    basic_defence,
    best_group,
    command_rounding,
    eligible_attackers,
)


def at_combat(seed: int = 5) -> Session:
    s = Session.new("centurion", "basic-carrhae", seed=seed)
    play_until(s, "combat.hex")
    return s


@pytest.mark.rule("cen:basic.combat")
def test_target_odds_are_the_strongest_group_on_the_crt() -> None:
    s = at_combat()
    d, st = s.decision, s.state
    assert s.game.decision_odds(st, d, "done", s.store) is None
    for key in d.keys[1:]:
        h = st.hex_of(key)
        group = best_group(st, eligible_attackers(st, d.side, h))
        attack = sum(basic_attack_factor(st, u) for u in group)
        rounding, _ = command_rounding(st, {u.hex for u in group}, h, d.side)
        report = s.game.decision_odds(st, d, key, s.store)
        if not report.distribution:  # below 1-2: said, not computed
            assert "non-viable" in report.title and "1-2" in report.explain[0]
            continue
        expected = s.game.odds(s.store, {"attack": str(attack), "defense": str(basic_defence(st, h)),
                                         "rounding": rounding})
        assert report.distribution == expected.distribution
        assert f"on {key}" in report.title


@pytest.mark.rule("cen:basic.combat")
def test_attacker_toggles_and_the_attack_itself() -> None:
    s = at_combat()
    d = s.decision
    key = d.keys[1]
    s.answer(key)
    d = s.decision
    assert d.kind == "combat.attackers"
    assert s.game.decision_odds(s.state, d, "cancel", s.store) is None
    unit = next(k for k in d.keys if k in s.state.units)
    one = s.game.decision_odds(s.state, d, unit, s.store)
    s.answer(unit)
    d = s.decision
    assert d.context["chosen"] == [unit]
    if "attack" in d.keys:
        now = s.game.decision_odds(s.state, d, "attack", s.store)
        assert now.distribution == one.distribution
        col = now.title.split(" at ")[1].split(":")[0]
        events = s.answer("attack")
        combat = next(e for e in events if e.kind == "combat")
        assert combat.data["column"] == col  # the column shown is the column read
