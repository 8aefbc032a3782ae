"""Attack Allocation never offers an attack no unit may join (issue 13, item 8: every game ends).

``ancients new centurion fantasy --bots --seed 1`` used to loop from answer 91: after a
cataphract "both" attack on 0911, the target list still offered a melee on 0911 because an
Oriental Cavalry unit stacked with the cataphracts fronted it, but case H (melee troops from
one hex at one target are all of one type) bars it from meleeing beside them, so the melee
attack had no eligible unit, ended empty without a word, and the same question came back.
These tests rebuild that position (a cataphract with a stack-mate of another type) on a
cleared Daras map.
"""

from __future__ import annotations

import pytest

from ancients_kit.errors import IllegalAnswer
from ancients_kit.session import Session

from ancients_games.centurion.full import allocation, combat
from ancients_games.centurion.tests.positions import clear, nth, put


def _cataphract_with(mate_type: str):
    """A Byzantine cataphract at 1010 facing north with a ``mate_type`` unit stacked with it,
    and an enemy Skirmisher unit at 1009 in front of both; the cataphract's side is phasing."""
    s = Session.new("centurion", "daras", seed=1)
    st, ctx = s.state, s.ctx
    combat.combat_tables(ctx, st)
    clear(st)
    bc = nth(st, "romans", "BC", 0)
    side = bc.original_side
    st.begin_player_turn(side)
    put(st, bc.id, "1010", "N")
    mate = put(st, nth(st, side, mate_type, 0).id, "1010", "N")
    put(st, nth(st, st.opponent(side), "SK", 0).id, "1009", "S")
    return s, ctx, st, side, bc, mate


def _allocate_both(ctx, st, side, bc):
    """Run Attack Allocation up to the target question after a "both" attack by the cataphract."""
    gen = allocation.allocation_phase(ctx, st, side)
    d = next(gen)
    assert d.kind == "attack.target" and "1009" in d.keys
    d = gen.send("1009")
    assert d.kind == "attack.mode" and "both" in d.keys
    d = gen.send("both")
    assert d.kind == "attack.unit" and bc.id in d.keys
    d = gen.send(bc.id)
    if d.kind == "attack.unit":  # no other unit may join: the allocation then ends by itself
        d = gen.send("done")
    return gen, d


@pytest.mark.rule("cen:full.combat", "cen:full.cavalry", "cen:full.sequence")
def test_after_a_both_attack_a_stacked_oriental_cavalry_may_only_fire_at_the_target():
    s, ctx, st, side, bc, oc = _cataphract_with("OC")
    h = st.hex_of("1009")
    gen, d = _allocate_both(ctx, st, side, bc)
    assert d.kind == "attack.target"
    # case H: the Oriental Cavalry may not melee 1009 beside the cataphract; its fire is free of the rule
    assert allocation.open_targets(st, side, [combat.Attack(h, "both", [bc.id])]) == {h: {"fire"}}
    assert d.option("1009").label.endswith("(fire)")
    d = gen.send("1009")  # one kind of attack left: no melee-or-missile question that leads nowhere
    assert d.kind == "attack.unit" and d.prompt.startswith("fire attack on 1009") and oc.id in d.keys
    with pytest.raises(StopIteration) as end:  # nothing is left to allocate: the phase ends by itself
        gen.send(oc.id)
    assert [(a.mode, a.units) for a in end.value.value] == [("both", [bc.id]), ("fire", [oc.id])]
    assert [e.data.get("mode") for e in s.log if e.kind == "combat"] == ["both", "fire"]


@pytest.mark.rule("cen:full.combat", "cen:full.sequence")
def test_after_a_both_attack_a_stacked_spearman_leaves_no_attack_on_the_target():
    s, ctx, st, side, bc, sp = _cataphract_with("SP")
    put(st, nth(st, st.opponent(side), "SK", 1).id, "1110", "S")  # another enemy the Spearmen front
    gen, d = _allocate_both(ctx, st, side, bc)
    assert d.kind == "attack.target" and d.keys == ("done", "1110")
    with pytest.raises(IllegalAnswer, match=r"case H") as exc:
        d.match("1009")
    assert exc.value.rule == "cen:full.combat" and sp.id in str(exc.value)
    with pytest.raises(StopIteration):
        gen.send("done")
