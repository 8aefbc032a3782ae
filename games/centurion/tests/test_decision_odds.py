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


# ---------------------------------------------------------------- Full Simulation

import re  # noqa: E402

from ancients_kit.bots import make_bot  # noqa: E402

ROLLED = re.compile(r"(\d+):(\d+) = [0-9.]+ -> (\S+) \(rounded for the (\w+)\)")


def _same_as(report) -> dict[str, str]:  # noqa: ANN001
    cmd = next(x for x in report.explain if x.startswith("same as: "))
    return dict(p.split("=") for p in cmd.split() if "=" in p)


@pytest.mark.rule("cen:full.combat", "cen:full.defensive-fire", "cen:full.fem", "cen:full.fire-protection")
def test_full_simulation_attack_questions_show_the_odds_they_roll() -> None:
    """Every attack question of the Full Simulation shows odds for its answers, the
    numbers ``ancients odds centurion`` gives; a defensive fire is rolled on the column
    shown, and a melee whose factors did not change before it was rolled too."""
    s = Session.new("centurion", "carrhae", seed=5)
    bot = make_bot("greedy")
    shown: dict[str, int] = {}
    pending: dict[str, tuple[int, int, str, str]] = {}  # target -> the odds of the melee committed on it
    fired = melee_checked = 0
    while s.decision is not None and s.state.turn <= 3:
        d = s.decision
        reports = {}
        if d.kind in ("attack.target", "attack.mode", "attack.unit", "fire.defensive"):
            for key in d.keys:
                report = s.game.decision_odds(s.state, d, key, s.store)
                if report is None:
                    assert key in ("done", "cancel") or d.kind == "attack.unit"
                    continue
                reports[key] = report
                if report.distribution:
                    assert sum(report.distribution.values()) == 1
                    same = s.game.odds(s.store, _same_as(report))
                    assert same.distribution == report.distribution
                    assert report.title.startswith(same.title)
                    assert "cen:basic.combat" not in report.rules or "rounded for the attacker" in report.explain[1]
                shown[d.kind] = shown.get(d.kind, 0) + 1
        key = bot.choose(s, d)
        events = s.answer(key)
        rep = reports.get(key)
        if rep is not None and rep.distribution and len(rep.distribution) > 1:
            a, dd = (int(_same_as(rep)[k]) for k in ("attack", "defense"))
            col = rep.title.split(" at ")[1].split(":")[0]
            if d.kind == "fire.defensive":
                m = next(ROLLED.search(e.text) for e in events if e.kind == "combat" and ROLLED.search(e.text))
                assert (int(m[1]), int(m[2]), m[3]) == (a, dd, col)
                fired += 1
            elif key in ("done", "all") and "melee" in rep.title.split(":")[0]:
                pending[str(d.context["target"])] = (a, dd, col, rep.title)
        for e in events:
            m = ROLLED.search(e.text)
            tgt = e.data.get("target") if isinstance(e.data, dict) else None
            if e.kind == "combat" and m and " attack " in e.text and tgt in pending:
                a, dd, col, _ = pending.pop(tgt)
                if (int(m[1]), int(m[2])) == (a, dd):  # no fire changed the factors: the column shown is read
                    assert m[3] == col
                    melee_checked += 1
    assert set(shown) == {"attack.target", "attack.mode", "attack.unit", "fire.defensive"}
    assert fired and melee_checked
