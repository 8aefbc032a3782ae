"""Tests of the LDF client states and border provinces (ldf:9.1-9.7, 8.15) on the real data."""

from __future__ import annotations

import pytest

from ancients_games.ldf import clients, economy
from ancients_games.ldf.state import GP, PALMYRA, ROMAN, TRIER
from ancients_games.ldf.tests.politics_helpers import Script, drive, texts, world


@pytest.mark.rule("ldf:9.1", "ldf:9.2", "ldf:6.5")
def test_passive_palmyra_pays_two_and_keeps_everyone_out() -> None:
    ctx, st = world()
    assert st.palmyra == "inactive" and not clients.palmyra_zoc(st)
    assert economy.revenue_hexes(st)[PALMYRA] == 2
    legion = st.of_kind("infantry-vexillation")[0]
    assert "ldf:9.2" in clients.palmyra_forbids(st, legion, PALMYRA, stop=False)
    assert clients.palmyra_forbids(st, legion, "3318", stop=True) is None


@pytest.mark.rule("ldf:9.2", "ldf:9.4")
def test_an_attack_on_passive_palmyra_makes_an_unswerving_roman_ally() -> None:
    ctx, st = world()
    gund = st.of_kind("parthian-gund", where="aside")[0]
    clients.palmyra_attacked(ctx, st, gund, "2812")  # an attack elsewhere (Britain) leaves it passive
    assert st.palmyra == "inactive"
    clients.palmyra_attacked(ctx, st, gund, PALMYRA)
    assert st.palmyra == ROMAN and clients.palmyra_zoc(st)
    st.turn = 4
    assert not clients.can_diplomacy_palmyra(st, GP)  # unswerving (ruling)
    legion = st.of_kind("infantry-vexillation")[0]
    assert clients.palmyra_forbids(st, legion, PALMYRA, stop=False) is None  # may pass through
    assert "ldf:9.3" in clients.palmyra_forbids(st, legion, PALMYRA, stop=True)  # not stop there


@pytest.mark.rule("ldf:9.3", "ldf:8.15", "ldf:9.4")
def test_roman_activation_in_turn_3_only_then_diplomacy_from_turn_4() -> None:
    ctx, st = world()
    for turn, ok in ((2, False), (3, True), (4, False)):
        st.turn = turn
        assert clients.can_activate_palmyra(st, ROMAN) is ok
        assert not clients.can_activate_palmyra(st, GP)
    st.turn = 3
    drive(clients.activate_palmyra(ctx, st, ROMAN), Script())
    assert st.palmyra == ROMAN and st.palmyra_replenishes
    assert not clients.can_diplomacy_palmyra(st, GP)  # Turns 4-5 only
    st.turn = 4
    assert clients.can_diplomacy_palmyra(st, GP)
    ctx.chance.force(4)
    drive(clients.diplomacy_palmyra(ctx, st, GP), Script({"salt": "salt-1"}))  # 4 - 1: fails
    assert st.palmyra == ROMAN
    ctx.chance.force(5)
    drive(clients.diplomacy_palmyra(ctx, st, GP), Script({"salt": "salt-0"}))
    assert st.palmyra == GP and not clients.can_diplomacy_palmyra(st, GP)  # for good
    assert PALMYRA not in economy.revenue_hexes(st)
    gund = st.of_kind("parthian-gund", where="aside")[0]
    assert "ldf:9.4" in clients.palmyra_forbids(st, gund, PALMYRA, stop=True)


@pytest.mark.rule("ldf:9.3", "ldf:9.4", "ldf:7.2")
def test_palmyran_replenishment_until_looted() -> None:
    ctx, st = world()
    st.turn = 3
    drive(clients.activate_palmyra(ctx, st, ROMAN), Script())
    legions = [u for u in st.units_at(PALMYRA) if u.kind == "palmyran-legion"]
    garrison = next(u for u in st.units_at(PALMYRA) if u.garrison)
    for u in legions[:3]:
        st.eliminate(u.id)
    st.eliminate(garrison.id)
    drive(clients.palmyra_replenishment(ctx, st), Script())
    assert sum(u.kind == "palmyran-legion" for u in st.units_at(PALMYRA)) == 8
    assert not any(u.garrison for u in st.units_at(PALMYRA))  # gone for good (8.13)
    st.eliminate(legions[0].id)
    st.looted.add(PALMYRA)
    drive(clients.palmyra_replenishment(ctx, st), Script())
    assert sum(u.kind == "palmyran-legion" for u in st.units_at(PALMYRA)) == 7


@pytest.mark.rule("ldf:9.5", "ldf:8.15")
def test_gallic_empire_from_turn_3_under_its_three_conditions() -> None:
    ctx, st = world()
    gallic = st.region("gallic-empire")
    st.turn = 2
    assert not clients.can_activate_gallic(st, GP)
    st.turn = 3
    assert clients.can_activate_gallic(st, GP) and not clients.can_activate_gallic(st, ROMAN)
    inside = sorted({u.hex for u in st.on_map() if u.hex in gallic and u.nationality == "roman"})
    tribe = st.of_kind("german-tribe", where="aside")[0]
    st.place(tribe.id, inside[0])
    assert not clients.can_activate_gallic(st, GP)  # a German in Gallic territory
    st.remove(tribe.id, "aside")
    st.place("E", inside[0])
    assert not clients.can_activate_gallic(st, GP)  # a Roman leader there
    st.place("E", "3318")
    drive(clients.activate_gallic(ctx, st, GP), Script())
    roman_inside = [u for u in st.on_map() if u.hex in gallic and u.nationality == "roman"]
    assert roman_inside and all(u.gallic and u.rebel and st.side_of(u) == GP for u in roman_inside)
    assert not clients.can_activate_gallic(st, GP)
    g = roman_inside[0]
    assert "ldf:9.5" in clients.gallic_forbids(st, g, "3318")
    assert clients.gallic_forbids(st, g, inside[0]) is None
    assert "ldf:9.5" in clients.gallic_forbids(st, tribe, inside[0])
    assert not clients.gallic_zoc_reaches(st, g, "3318") and clients.gallic_zoc_reaches(st, g, inside[0])


@pytest.mark.rule("ldf:9.5")
def test_gallic_replenishment_and_its_end_at_trier() -> None:
    ctx, st = world()
    st.turn = 3
    drive(clients.activate_gallic(ctx, st, GP), Script())
    vex = next(u for u in st.on_map() if u.gallic and u.kind == "infantry-vexillation")
    where = vex.hex
    st.eliminate(vex.id)
    assert st.units[vex.id].where == "dead" and not st.units[vex.id].gallic
    st.turn = 4
    drive(clients.gallic_replenishment(ctx, st), Script())
    back = [u for u in st.units_at(where) if u.kind == "infantry-vexillation"]
    assert back and all(u.gallic for u in back)
    st.place("E", TRIER)
    drive(economy.on_enter(ctx, st, ["E"], TRIER), Script())
    assert not st.gallic_active and st.gallic_ended
    assert not any(u.gallic or u.rebel for u in st.units.values())
    assert "the Gallic Empire ends" in texts(ctx)


@pytest.mark.rule("ldf:9.6", "ldf:1.2")
def test_the_caucasus_three_states_of_two_hexes() -> None:
    ctx, st = world()
    status = clients.caucasus_status(st)
    assert set(status) == {"colchis", "iberia", "armenia"}
    assert all(len(v) == 2 and set(v.values()) == {"garrisoned"} for v in status.values())
    pay = economy.revenue_hexes(st)
    assert all(pay[h] == 1 for h in st.region("caucasus"))
    h = sorted(st.region("colchis"))[0]
    st.looted.add(h)
    assert clients.caucasus_status(st)["colchis"][h] == "looted" and h not in economy.revenue_hexes(st)
    assert h not in economy.rebuild_hexes(st)  # looted for good (6.4, 9.6)


@pytest.mark.rule("ldf:9.7")
def test_dacia_and_germania_decumates_pay_one_and_stay_looted() -> None:
    ctx, st = world()
    pay = economy.revenue_hexes(st)
    assert pay["3816"] == 1 and pay["3215"] == 1
    assert not st.in_region("3816", "core") and not st.in_region("3215", "core")
    st.looted.add("3215")
    assert "3215" not in economy.revenue_hexes(st) and "3215" not in economy.rebuild_hexes(st)


@pytest.mark.rule("ldf:9.2", "ldf:7.2")
def test_palmyra_brought_in_by_an_attack_replenishes_under_9_2() -> None:
    ctx, st = world()
    gund = st.of_kind("parthian-gund", where="aside")[0]
    clients.palmyra_attacked(ctx, st, gund, PALMYRA)
    legion = next(u for u in st.units_at(PALMYRA) if u.kind == "palmyran-legion")
    st.eliminate(legion.id)
    drive(clients.palmyra_replenishment(ctx, st), Script())
    ev = [e for e in ctx.log if e.kind == "palmyra" and "return to Palmyra" in e.text]
    assert legion.hex == PALMYRA and ev and ev[-1].rules == ("ldf:9.2", "ldf:7.2")  # audit D9: not 9.3/9.4
