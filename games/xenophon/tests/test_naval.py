"""Naval operations on the real game: transport, the fleet's OV, port rates, disembarking, naval combat."""

from __future__ import annotations

import pytest

from ancients_games.xenophon import march, naval, zoc
from ancients_games.xenophon import operations as ops
from ancients_games.xenophon.state import EMPIRE, REBEL
from ancients_games.xenophon.tests.ops_helpers import Script, drive, empty, pick, put

HALIKARNASSOS, AEGEAN, SEA = "2707", "2706", "2608"


def _ionians(st, n):  # type: ignore[no-untyped-def]
    return [u.id for u in st.units.values() if u.satrapy == "Ionia" and not u.fleet][:n]


@pytest.mark.rule("xen:naval-transport", "xen:operations")
def test_a_fleet_carries_three_and_the_force_uses_the_fleets_ov() -> None:
    ctx, st = empty()
    force = put(st, HALIKARNASSOS, ["ionia-F1", *_ionians(st, 3)])
    units = [st.unit(u) for u in force]
    assert naval.capacity_refusal(units, HALIKARNASSOS, st) is None
    extra = put(st, HALIKARNASSOS, _ionians(st, 4)[3:])
    assert "at most 3" in naval.capacity_refusal([*units, st.unit(extra[0])], HALIKARNASSOS, st)
    ctx.chance.force(2)
    assert drive(ops.ops_points(ctx, st, force), Script()) == 16 + 2  # the fleet's OV 16, not the militia's 8
    assert "xen:naval-transport" in [e for e in ctx.log if e.kind == "op"][-1].rules
    # The whole stack (1 fleet, 4 land units) cannot sail as one: the force offered is the land units.
    st.player_turn = REBEL
    ctx.chance.force(1)
    script = Script(f"choose:{HALIKARNASSOS}")
    drive(ops.operations_phase(ctx, st, REBEL), script)
    force_q = [d for d in script.asked if d.kind == "ops.force"][0]
    assert "ionia-F1" not in force_q.option(f"force:{HALIKARNASSOS}").label  # the force offered in one answer
    group = [d for d in script.asked if d.kind == "ops.force-units"][0]
    assert "ionia-F1" not in group.context["chosen"] and len(group.context["chosen"]) == 4


@pytest.mark.rule("xen:naval-transport", "xen:naval")
def test_one_op_a_hex_from_a_port_two_from_another_coast() -> None:
    ctx, st = empty()
    assert HALIKARNASSOS in naval.ports(st) and AEGEAN not in naval.ports(st) and AEGEAN in st.data.coastal
    put(st, HALIKARNASSOS, ["ionia-F1"])
    put(st, AEGEAN, ["ionia-F2"])
    st.player_turn = REBEL
    ctx.chance.force(1, 1)
    script = Script(f"force:{HALIKARNASSOS}", "stop", f"force:{AEGEAN}")
    drive(ops.operations_phase(ctx, st, REBEL), script)
    acts = [d for d in script.asked if d.kind == "ops.action"]
    port_costs = {o.data[0] for o in acts[0].options if o.key.startswith("move:") and len(o.data[3]) == 1}
    coast_costs = {o.data[0] for o in acts[1].options if o.key.startswith("move:") and len(o.data[3]) == 1}
    assert port_costs == {1} and coast_costs == {2}
    for d in acts:
        assert all(st.map.terrain(st.map.from_id(k[5:])) == "sea" or k[5:] in st.data.coastal
                   for k in d.keys if k.startswith("move:"))
    # A pillaged port is only coast; a Colony on the coast is a port.
    st.pillaged.add(HALIKARNASSOS)
    st.colonies.add(AEGEAN)
    assert HALIKARNASSOS not in naval.ports(st) and AEGEAN in naval.ports(st)


@pytest.mark.rule("xen:naval-transport", "xen:movement")
def test_embarked_units_disembark_only_on_a_coast_and_may_stay_aboard_at_sea() -> None:
    ctx, st = empty()
    land = _ionians(st, 2)
    force = put(st, HALIKARNASSOS, ["ionia-F1", *land])
    st.player_turn = REBEL
    ctx.chance.force(3)
    script = Script(f"force:{HALIKARNASSOS}", f"move:{SEA}")
    drive(ops.operations_phase(ctx, st, REBEL), script)
    at_sea = [d for d in script.asked if d.kind == "ops.action"][-1]
    assert not [k for k in at_sea.keys if k.startswith("drop:") and k[5:] in land]
    assert all(st.unit(u).hex == SEA and st.unit(u).embarked == "ionia-F1" for u in land)
    # Next phase: the fleet sails back to the coast and drops one of them off there.
    ctx.chance.force(3)
    script = Script(f"force:{SEA}", f"move:{HALIKARNASSOS}", f"drop:{land[0]}")
    st.effects.clear()
    drive(ops.operations_phase(ctx, st, REBEL), script)
    assert st.unit(land[0]).hex == HALIKARNASSOS and st.unit(land[0]).embarked is None
    assert st.unit(force[0]).hex == HALIKARNASSOS


@pytest.mark.rule("xen:naval", "xen:zoc")
def test_fleet_and_land_zones_of_control_are_separate() -> None:
    _, st = empty()
    put(st, SEA, ["syria-F1"])  # an Empire fleet at sea
    assert st.unit("syria-F1").side == EMPIRE
    assert HALIKARNASSOS not in zoc.ezoc_of(st, REBEL, False)  # fleet EZOC does not block land units
    assert HALIKARNASSOS in zoc.ezoc_of(st, REBEL, True)
    # Land units embarked on fleets have no ZOC.
    emp = pick(st, "militia", EMPIRE)
    put(st, SEA, emp)
    st.unit(emp[0]).embarked = "syria-F1"
    assert zoc.ezoc_of(st, REBEL, False) == frozenset()


@pytest.mark.rule("xen:naval-combat", "xen:combat")
def test_who_may_attack_whom_by_sea() -> None:
    m = empty()[1].map
    assert not naval.may_attack(m, False, "2714", "2614")  # land units never attack fleets at sea
    assert naval.may_attack(m, True, "2614", "2714")  # fleets at sea attack the coast
    assert naval.may_attack(m, False, "2715", "2714")  # fleets on a coast are attacked from the land
    assert not naval.may_attack(m, True, "2713", "2813")  # fleets never attack inland


@pytest.mark.rule("xen:naval-combat", "xen:combat", "xen:operations")
def test_a_naval_force_attacks_an_enemy_fleet_for_two_op() -> None:
    ctx, st = empty()
    put(st, HALIKARNASSOS, ["ionia-F1", "ionia-F2"])
    put(st, SEA, ["syria-F1"])
    st.player_turn = REBEL
    ctx.chance.force(4)  # OP 16 + 4 = 20
    script = Script(f"force:{HALIKARNASSOS}", f"attack:{SEA}")
    drive(ops.operations_phase(ctx, st, REBEL), script)
    attack = next(e for e in ctx.log if e.kind == "attack")
    assert "xen:naval-combat" in attack.rules and "18 left" in attack.text
    assert any(e.kind == "battle" for e in ctx.log)


@pytest.mark.rule("xen:errata", "xen:naval", "xen:zoc")
def test_fleets_and_land_units_march_together_along_the_coast() -> None:
    ctx, st = empty()
    tarsos = "2713"
    land = [u.id for u in st.units.values() if u.satrapy == "Cilicia" and not u.fleet][:2]
    force = put(st, tarsos, ["cilicia-F1", *land])
    f = march.Force(REBEL, force, tarsos, tarsos, 10, True, 1)
    opts = {o.key: o.data for o in march.step_options(st, f, frozenset(), frozenset())}
    marches = [k for k in opts if k.startswith("march:")]
    assert marches and all(k[6:] in st.data.coastal for k in marches)
    m = st.map
    for k in marches:
        assert opts[k][0] == ops.mv.land_step_cost(m, ops.mv.terrain_costs(), m.from_id(tarsos), m.from_id(k[6:]))
    # A land EZOC stops the march, not the sailing.
    dest = marches[0][6:]
    land_zone = frozenset({dest})
    opts = {o.key: o.data for o in march.step_options(st, f, frozenset(), land_zone)}
    assert opts[f"march:{dest}"][1] is True and (f"move:{dest}" not in opts or opts[f"move:{dest}"][1] is False)


@pytest.mark.rule("xen:naval-transport", "xen:forces")
def test_at_sea_a_fleet_takes_its_passengers_ashore_it_may_leave_them() -> None:
    ctx, st = empty()
    land = _ionians(st, 2)
    put(st, SEA, ["ionia-F1", *land])
    for u in land:
        st.unit(u).embarked = "ionia-F1"
    assert drive(ops._start(ctx, st, REBEL, ["ionia-F1"], SEA, "test", ("xen:operations",)), Script()) is None
    assert any(e.kind == "force-refused" and "passengers" in e.text for e in ctx.log)
    for u in [*land, "ionia-F1"]:
        st.place(u, HALIKARNASSOS)
    ctx.chance.force(2)
    f = drive(ops._start(ctx, st, REBEL, ["ionia-F1"], HALIKARNASSOS, "test", ("xen:operations",)), Script())
    assert f is not None and all(st.unit(u).embarked is None for u in land)


@pytest.mark.rule("xen:naval-transport", "xen:naval-combat")
def test_passengers_without_room_are_lost_at_sea_and_left_on_a_coast() -> None:
    for where, lost in ((SEA, True), (HALIKARNASSOS, False)):
        ctx, st = empty()
        land = _ionians(st, 6)
        force = put(st, where, ["ionia-F1", "ionia-F2", *land])
        f = march.Force(REBEL, list(force), where, where, 10, True, 1)
        ops.naval.embark(st, [st.unit(u) for u in force])
        st.eliminate("ionia-F2")  # sunk in a battle, say
        ops._alive(st, f)
        drive(ops._refit(ctx, st, f), Script())
        assert f.units == ["ionia-F1", *land[:3]]
        assert all(st.unit(u).embarked == "ionia-F1" for u in land[:3])
        if lost:
            assert all(st.unit(u).where == "mix" for u in land[3:])
        else:
            assert all(st.unit(u).hex == where and st.unit(u).embarked is None for u in land[3:])


@pytest.mark.rule("xen:operations", "xen:naval-transport", "xen:errata", "xen:zoc")
def test_a_coastal_march_uses_the_land_units_ov_and_leaves_them_ashore_with_their_zoc() -> None:
    # Audit D10: in the port of Naukratis a militia (OV 8) and a fleet (OV 16) roll OP 16 + 1 = 17, for
    # naval transport only ("For Naval transportation, use the OV of the fleet"); a march by land along
    # the coast is paid from 8 + 1 = 9, and the militia ends ashore, not embarked.
    ctx, st = empty()
    port = "2110"
    mil = put(st, port, pick(st, "militia", REBEL))
    force = put(st, port, ["cilicia-F1", *mil])
    ctx.chance.force(1)
    f = drive(ops._start(ctx, st, REBEL, force, port, "test", ("xen:operations",)), Script())
    assert f is not None and f.op == 17 and f.land_gap == 16 - st.unit(mil[0]).ov
    marches = [o for o in march.step_options(st, f, frozenset(), frozenset()) if o.key.startswith("march:")]
    assert marches and all(o.data[0] + f.land_gap <= 17 for o in marches)
    step = marches[0]
    land_op = st.unit(mil[0]).ov + 1
    drive(ops.conduct(ctx, st, f), Script(step.key))
    assert f.op == land_op - step.data[0]  # the land OP: 9 less the march, not 17 less it
    move = [e for e in ctx.log if e.kind == "move"][-1]
    assert "xen:operations" in move.rules and "lower OV" in move.text
    assert st.unit(mil[0]).embarked is None  # ashore: its ZOC counts again
    assert zoc.ezoc_of(st, EMPIRE, False)  # the militia projects a land ZOC around its hex


@pytest.mark.rule("xen:zoc", "xen:pillage", "xen:colonisation", "xen:naval")
def test_a_naval_force_in_a_land_ezoc_may_not_pillage_or_colonise() -> None:
    # Audit D11: "A Force may not pillage or colonize if in EZOC": the fleet/land separation is for
    # movement only, so a fleet carrying a phalanx next to an Empire militia does neither.
    ctx, st = empty()
    h = next(x for x in sorted(st.data.coastal) if st.data.terrain.get(x) != "sea" and not st.is_city(x)
             and not st.units_at(x) and st.satrapy_of(x) == "Egypt")
    nb = next(n for n in st.neighbours(h) if st.data.terrain.get(n) != "sea" and not st.is_city(n))
    force = put(st, h, pick(st, "fleet", REBEL)) + put(st, h, pick(st, "phalanx", REBEL))
    put(st, nb, pick(st, "militia", EMPIRE))
    f = march.Force(REBEL, force, h, h, 10, True, 1)
    naval.embark(st, [st.unit(x) for x in force])
    fleet_zone, land_zone = zoc.ezoc_of(st, REBEL, True), zoc.ezoc_of(st, REBEL, False)
    assert h in land_zone and h not in fleet_zone
    keys = {o.key for o in ops.force_options(st, f, fleet_zone, land_zone)}
    assert "pillage" not in keys and "colonise" not in keys
    refuse = ops._refusal(st, f, fleet_zone, land_zone)
    assert "zone of control" in refuse("pillage")[0] and "zone of control" in refuse("colonise")[0]
