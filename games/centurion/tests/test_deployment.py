"""Full Simulation deployment: the shipped scenarios pass the checks; the
optional placement phase refuses illegal placements with reason and rule."""

from __future__ import annotations

import pytest

from ancients_kit.data import DataStore
from ancients_kit.errors import IllegalAnswer
from ancients_kit.hexgrid import arc_side
from ancients_kit.session import Session

from ancients_games.centurion.equipment import load_scenario, scenario_ids
from ancients_games.centurion.full import deployment

STORE = DataStore("ancients_games.centurion")
CHART = [s for s in scenario_ids(STORE) if load_scenario(STORE, s).game.value != "basic"]
OWN_ENTRY = {"teutoburgerwald"}
"""Scenarios whose notes prescribe the second side's entry instead of the 8-12 hex rule."""


@pytest.mark.rule("cen:full.deployment", "cen:full.setup", "cen:scenarios")
@pytest.mark.parametrize("sid", CHART)
def test_every_chart_scenario_deployment_passes_the_checks(sid):
    s = Session.new("centurion", sid, seed=1)
    st = s.state
    assert deployment.check_deployment(st) == []
    assert any(e.kind == "setup" and "checked" in e.text and "cen:full.deployment" in e.rules for e in s.log)
    first = st.scenario.deploys_first
    second = st.opponent(first)
    centre = st.hex_of(st.scenario.side(first).zone.centre)
    # Checked again here without the checker, so a bug in it cannot hide a bad set-up.
    assert all(u.hex.distance(centre) <= 5 for u in st.live_units(first))
    assert deployment.standard_second(st, second) == (sid not in OWN_ENTRY)
    if sid not in OWN_ENTRY:
        enemy = [u.hex for u in st.live_units(first)]
        for u in st.live_units(second):
            assert 8 <= min(u.hex.distance(e) for e in enemy) <= 12, (u.id, st.hid(u.hex))
            assert arc_side(u.hex, u.facing, centre) == 1, (u.id, st.hid(u.hex))


def _placing(**opts):
    s = Session.new("centurion", "numidia", seed=1, options={"placement": True, **opts})
    assert s.decision.kind == "deploy.unit"
    return s


@pytest.mark.rule("cen:full.deployment")
def test_first_side_placement_refused_beyond_five_hexes_of_the_centre_of_mass():
    s = _placing()
    st = s.state
    side = s.decision.side
    assert side == st.scenario.deploys_first
    uid = next(k for k in s.decision.keys if k != "done")
    s.answer(uid)
    assert s.decision.kind == "deploy.hex"
    centre = st.hex_of(st.scenario.side(side).zone.centre)
    far = next(h for h in sorted(st.numbering.hexes()) if h.distance(centre) == 7 and st.side_at(h) is None)
    with pytest.raises(IllegalAnswer) as exc:
        s.answer(st.hid(far))
    assert exc.value.rule == "cen:full.deployment" and "centre of mass" in str(exc.value) and "7 hexes" in str(exc.value)
    with pytest.raises(IllegalAnswer) as exc:
        s.answer("9999")
    assert exc.value.rule == "cen:full.deployment"
    near = next(h for h in sorted(st.numbering.hexes()) if h.distance(centre) == 5 and st.side_at(h) is None)
    s.answer(st.hid(near))  # legal
    assert s.decision.kind == "deploy.facing"


@pytest.mark.rule("cen:full.deployment", "cen:full.stacking")
def test_second_side_placement_refused_too_close_too_far_full_stack_and_facing_away():
    s = _placing()
    st = s.state
    s.answer("done")  # the Romans keep their set-up
    side = s.decision.side
    assert side != st.scenario.deploys_first
    uid = next(k for k in s.decision.keys if k != "done" and st.types[st.units[k].type].counts_for_stacking)
    s.answer(uid)
    enemy = [u.hex for u in st.live_units(st.opponent(side))]

    def at(d):
        return next(h for h in sorted(st.numbering.hexes())
                    if min(h.distance(e) for e in enemy) == d and st.side_at(h) is None)

    with pytest.raises(IllegalAnswer, match="at least 8 hexes") as exc:
        s.answer(st.hid(at(5)))
    assert exc.value.rule == "cen:full.deployment"
    with pytest.raises(IllegalAnswer, match="at most 12 hexes") as exc:
        s.answer(st.hid(at(14)))
    assert exc.value.rule == "cen:full.deployment"
    foe = next(u for u in st.live_units(st.opponent(side)))
    with pytest.raises(IllegalAnswer, match="enemy units"):
        s.answer(st.hid(foe.hex))
    me = st.units[uid]
    full = next((h for h in st.stacks if st.side_at(h) == side and h != me.hex
                 and st.stacking_count(h, side) >= 3), None)
    assert full is not None
    with pytest.raises(IllegalAnswer) as exc:
        s.answer(st.hid(full))
    assert exc.value.rule == "cen:full.stacking"
    s.answer(st.hid(at(10)))
    assert s.decision.kind == "deploy.facing"
    # Facing away from the enemy is refused; facing it is accepted.
    away = [n for n in st.numbering.direction_names if n not in s.decision.keys]
    assert away
    bad = next(n for n in away if not any(k.startswith(n) for k in s.decision.keys))
    with pytest.raises(IllegalAnswer, match="facing the front of his enemy") as exc:
        s.answer(bad)
    assert exc.value.rule == "cen:full.deployment"
    s.answer(s.decision.keys[0])
    assert deployment.hex_problem(st, side, st.units[uid].hex) is None
