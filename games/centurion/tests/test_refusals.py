"""Refusals in the Full Simulation: every illegal input at a question gets the reason and the rule.

Positions are built on a cleared scenario state; each phase's generator is
driven directly and an illegal answer is matched against its decision
(``Decision.match`` calls the decision's ``refuse`` hook, as the session does).
"""

from __future__ import annotations

import pytest

from ancients_kit.errors import AnswerError
from ancients_kit.session import Session

from ancients_games.centurion.full import allocation, fire_phase, mounts, start_of_turn
from ancients_games.centurion.full.book import book
from ancients_games.centurion.full.combat import Attack

RO, NU = "romans", "numidians"


def fresh(scenario: str = "numidia", **opts):
    s = Session.new("centurion", scenario, seed=3, options=opts)
    st = s.state
    for u in list(st.units.values()):
        if u.hex is not None:
            mounts.withdraw(st, u)
    return s, s.ctx, st


def put(st, side: str, code: str, hid: str, facing: str = "N", n: int = 0):
    u = [x for x in st.units.values() if x.original_side == side and x.type == code and x.hex is None][n]
    u.eliminated = False
    st.move(u, st.hex_of(hid))
    u.facing = st.numbering.direction_from_name(facing)
    return u


def refused(decision, text: str) -> AnswerError:
    with pytest.raises(AnswerError) as exc:
        decision.match(text)
    err = exc.value
    assert "is not a legal answer" not in str(err), f"generic refusal for {text!r}: {err}"
    return err


def _allocation(ctx, st, side):
    st.active = side
    gen = allocation.allocation_phase(ctx, st, side)
    return gen, next(gen)


@pytest.mark.rule("cen:full.combat", "cen:full.facing")
def test_target_refusals_name_distance_range_and_facing():
    s, ctx, st = fresh()
    put(st, RO, "SD", "1510", "S")
    put(st, RO, "SD", "1515", "N")
    put(st, NU, "LC", "1511", "N")  # adjacent to 1510, facing it
    put(st, NU, "SK", "1513", "N")  # two hexes from 1515, range 1
    put(st, NU, "LC", "1516", "S")  # next to 1515 but facing away
    gen, d = _allocation(ctx, st, NU)
    assert d.kind == "attack.target" and "1510" in d.keys and "1515" not in d.keys
    err = refused(d, "1515")
    assert "front" in str(err) and "case M" in str(err) and err.rule == "cen:full.facing"
    put(st, RO, "SD", "1520", "N")
    err = refused(d, "1520")
    assert "case A" in str(err) and "out of range" in str(err) and err.rule == "cen:full.combat"
    err = refused(d, "1512")
    assert "no enemy units" in str(err)


@pytest.mark.rule("cen:full.combat", "cen:full.facing")
def test_unit_refusals_not_adjacent_facing_away_already_allocated_not_yours():
    s, ctx, st = fresh()
    target = put(st, RO, "SD", "1510", "S")
    a = put(st, NU, "LC", "1511", "N")
    away = put(st, NU, "LC", "1609", "NE")  # adjacent to 1510 but facing away
    far = put(st, NU, "LC", "1513", "N")
    gen, d = _allocation(ctx, st, NU)
    d = gen.send("1510")
    assert d.kind == "attack.unit"
    err = refused(d, away.id)
    assert err.rule == "cen:full.facing" and "only to its front" in str(err)
    err = refused(d, far.id)
    assert err.rule == "cen:full.combat" and "case A" in str(err)
    err = refused(d, target.id)
    assert "not yours" in str(err)
    put(st, NU, "SP", "1509", "S")  # a third attacker keeps the question open
    d2 = gen.send(a.id)
    err = refused(d2, a.id)
    assert "already in this attack" in str(err)


@pytest.mark.rule("cen:full.combat", "cen:full.fem")
def test_fire_out_of_range_is_refused_with_the_range():
    s, ctx, st = fresh()
    put(st, RO, "SD", "1510", "S")
    put(st, NU, "SK", "1511", "N")
    far = put(st, NU, "SK", "1512", "N", n=1)
    gen, d = _allocation(ctx, st, NU)
    d = gen.send("1510")
    if d.kind == "attack.mode":
        d = gen.send("fire")
    assert d.kind == "attack.unit"
    err = refused(d, far.id)
    assert "out of range" in str(err) and "range here is 1" in str(err) and err.rule == "cen:full.combat"


@pytest.mark.rule("cen:full.cavalry", "cen:full.combat")
def test_fire_and_melee_together_refused_for_units_other_than_cataphracts():
    s, ctx, st = fresh()
    put(st, RO, "SD", "1510", "S")
    put(st, NU, "SK", "1511", "N")
    gen, d = _allocation(ctx, st, NU)
    d = gen.send("1510")
    assert d.kind == "attack.mode" and "both" not in d.keys
    err = refused(d, "both")
    assert err.rule == "cen:full.cavalry" and "Cataphracts" in str(err)


@pytest.mark.rule("cen:full.cavalry")
def test_charges_ending_on_one_hex_from_different_places_are_refused():
    s, ctx, st = fresh()
    put(st, RO, "SD", "1510", "S")
    a = put(st, NU, "LC", "1511", "N")
    b = put(st, NU, "LC", "1511", "N", n=1)
    for u, start in ((a, "1512"), (b, "1612")):
        u.charged_this_turn = True
        u.charge_length = 1
        book(st).charge_start[u.id] = st.hex_of(start)
    put(st, NU, "SP", "1509", "S")  # a third attacker keeps the question open
    gen, d = _allocation(ctx, st, NU)
    d = gen.send("1510")
    assert "full charge of 1 straight hexes" in d.option(a.id).label
    d = gen.send(a.id)
    err = refused(d, b.id)
    assert err.rule == "cen:full.cavalry" and "different locations" in str(err) and "straight" in str(err)


@pytest.mark.rule("cen:full.square", "cen:opt.mount-dismount", "cen:opt.earthworks")
def test_square_with_non_swordsmen_and_actions_not_open_are_refused():
    s, ctx, st = fresh()
    put(st, RO, "SD", "1510")
    put(st, RO, "SK", "1512")
    put(st, RO, "LC", "1512")
    put(st, RO, "SD", "1514")
    put(st, RO, "SK", "1514")
    put(st, RO, "LC", "1514")
    st.active = RO
    gen = start_of_turn.start_of_turn_actions(ctx, st, RO)
    d = next(gen)
    assert "square" in d.keys
    err = refused(d, "dismount")
    assert err.rule == "cen:opt.mount-dismount" and "not in force" in str(err)
    err = refused(d, "earthworks")
    assert err.rule == "cen:opt.earthworks"
    d = gen.send("square")
    assert d.keys == ("1510",)
    err = refused(d, "1512")
    assert err.rule == "cen:full.square" and "needs Roman Swordsmen" in str(err) and "Skirmishers" in str(err)
    err = refused(d, "1514")
    assert err.rule == "cen:full.square" and "one non-Swordsmen unit" in str(err)


@pytest.mark.rule("cen:full.square")
def test_non_roman_armies_are_told_only_romans_form_square():
    s, ctx, st = fresh()
    st.active = NU
    assert start_of_turn.start_action_problem(st, NU, "square")[1] == "cen:full.square"
    assert "Roman" in start_of_turn.start_action_problem(st, NU, "square")[0]


@pytest.mark.rule("cen:full.defensive-fire")
def test_defensive_fire_refuses_hexes_that_do_not_attack():
    s, ctx, st = fresh()
    sk = put(st, RO, "SK", "1510", "S")
    att = put(st, NU, "LC", "1511", "N")
    put(st, NU, "LC", "1509", "S")  # behind the skirmisher, not attacking, not moved
    st.active = NU
    gen = fire_phase.defensive_fire_phase(ctx, st, NU, [Attack(sk.hex, "melee", [att.id])])
    d = next(gen)
    assert d.kind == "fire.defensive" and "1511" in d.keys
    err = refused(d, "1509")
    assert err.rule == "cen:full.defensive-fire" and "combat E" in str(err)


@pytest.mark.rule("cen:full.stacking", "cen:full.movement")
def test_movement_refuses_a_full_stack_and_a_hex_too_far():
    s = Session.new("centurion", "numidia", seed=3)
    d = s.decision
    assert d.kind == "move.unit"
    s.answer("NUM-SK01")
    err = refused(s.decision, "2105")
    assert err.rule == "cen:full.stacking"
    err = refused(s.decision, "1908")
    assert err.rule == "cen:full.movement" and "Movement Factors" in str(err)


@pytest.mark.rule("cen:full.square", "cen:opt.earthworks", "cen:opt.mount-dismount")
def test_second_stage_start_actions_refuse_with_reasons():
    s, ctx, st = fresh(earthworks="on", mount_dismount="on")
    sd = put(st, RO, "SD", "1510")
    sk = put(st, RO, "SK", "1510")
    sd.in_square = sk.in_square = True
    put(st, RO, "SD", "1512")
    st.markers.setdefault(st.hex_of("1512"), set()).add("earthworks")
    ap = start_of_turn.answer_problem
    why = ap(st, RO, "leave", sd.id)
    assert why[1] == "cen:full.square" and "disbanding" in why[0]
    assert ap(st, RO, "leave", sk.id)[1] == "cen:full.square"
    assert "already has earthworks" in ap(st, RO, "earthworks", "1512")[0]
    assert ap(st, RO, "earthworks", "1520") == ("no unit of yours at 1520", "cen:opt.earthworks")
    assert "only cataphracts dismount" in ap(st, RO, "dismount", sd.id)[0]
    assert "not a riderless mount" in ap(st, RO, "destroy-mounts", sd.id)[0]
    assert ap(st, RO, "mount", sd.id)[0].endswith("is not a dismounted rider")
