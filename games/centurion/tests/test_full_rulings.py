"""Full Simulation rules finished after the first release: re-defection, earthworks
recapture, destroying one's own mounts, Light Cavalry never surrounded.

Positions are built on a real scenario state cleared of its set-up; dice are
forced through ``ctx.chance.force``.
"""

from __future__ import annotations

import pytest

from ancients_kit.session import Session

from ancients_games.centurion.full import (
    combat, light_cavalry, morale, mounts, movement_hooks, options, start_of_turn, works,
)
from ancients_games.centurion.tests.positions import clear, fresh, nth, put


def troops(state, side: str) -> list:
    return sorted((u for u in state.units.values() if u.original_side == side and u.type != "CM"),
                  key=lambda u: u.id)


def events(s, since: int, rule: str) -> list[str]:
    return [e.text for e in s.log.since(since) if rule in e.rules]


# ------------------------------------------------------------------ (a) re-defection


@pytest.mark.rule("cen:full.treachery")
def test_turncoats_re_defect_to_their_original_side_and_points_are_regained():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    a = put(st, nth(st, nu, "SK", 0).id, "1005")
    b = put(st, nth(st, nu, "SK", 1).id, "1009")
    base_nu, base_ro = st.lost_points[nu], st.lost_points[ro]
    ctx.chance.force(6, 6)
    morale.treachery(ctx, st, nu, civil_war=False)
    assert a.side == b.side == ro and a.treachery == b.treachery == "defected"
    pts = st.types["SK"].points
    assert st.lost_points[nu] == base_nu + 2 * pts
    # Later treachery is invoked against the Romans: the turncoats are rolled for
    # with the Romans' own troops; a 6 sends one back, a 2 keeps the other.
    sd = put(st, nth(st, ro, "LC", 0).id, "1507")
    n0 = len(s.log)
    ctx.chance.force(6, 2, 1)  # hexes in ID order: 1005, 1009, 1507
    morale.treachery(ctx, st, ro, civil_war=False)
    assert a.side == nu and a.treachery == "returned"
    assert b.side == ro and b.treachery == "defected"
    assert sd.side == ro
    assert st.lost_points[nu] == base_nu + pts  # regained
    assert st.lost_points[ro] == base_ro  # the Romans never counted them
    text = " ".join(events(s, n0, "cen:full.treachery"))
    assert "re-defect" in text and "regained" in text
    # A re-defected unit is not rolled for again.
    assert not morale._may_betray(st, a, False)


@pytest.mark.rule("cen:full.treachery", "cen:opt.command")
def test_turncoats_are_rolled_by_hex_not_with_a_command_of_the_side_they_serve():
    s, ctx, st = fresh("gaul", command="on")
    side, g = next((x, g) for x in st.sides for g in morale.command_groups(st, x))
    other = st.opponent(side)
    tc = next(u for u in st.live_units(other) if u.group == g and morale._may_betray(st, u, True))
    st.change_side(tc, side)
    tc.treachery = "defected"
    assert morale.is_turncoat(tc)
    # The command's one roll does not take the turncoat along ...
    ctx.chance.force(1)
    morale.treachery_of_command(ctx, st, side, g, civil_war=False)
    assert tc.side == side
    # ... it is rolled for with its hex in the general treachery roll.
    cmd_groups = morale.command_groups(st, side)
    hexes = sorted({u.hex for u in st.live_units(side) if morale._may_betray(st, u, False)
                    and (u.group not in cmd_groups or morale.is_turncoat(u))})
    assert tc.hex in hexes


# ------------------------------------------------------------------ (b) earthworks recapture


@pytest.mark.rule("cen:opt.earthworks")
def test_capturing_earthworks_costs_two_and_recapturing_regains_two():
    s, ctx, st = fresh(earthworks="on")
    clear(st)
    ro, nu = "romans", "numidians"
    h = st.hex_of("1510")
    st.markers.setdefault(h, set()).add("earthworks")
    sd = put(st, nth(st, ro, "SD", 0).id, "1510")
    lost_ro, lost_nu = st.lost_points[ro], st.lost_points[nu]
    n0 = len(s.log)
    combat.eliminate(ctx, st, [sd], ("cen:full.combat",))  # the Numidians capture the works
    assert st.lost_points[ro] == lost_ro + st.types["SD"].points + 2
    assert any("captured" in t for t in events(s, n0, "cen:opt.earthworks"))
    # Numidians occupy the works; the Romans destroy them and recapture.
    sk = put(st, nth(st, nu, "SK", 0).id, "1510")
    n1 = len(s.log)
    combat.eliminate(ctx, st, [sk], ("cen:full.combat",))
    assert st.lost_points[nu] == lost_nu + st.types["SK"].points + 2
    assert st.lost_points[ro] == lost_ro + st.types["SD"].points  # two points gained back
    assert any("recapture" in t for t in events(s, n1, "cen:opt.earthworks"))
    # A second capture by the Numidians is a recapture for them in turn, once.
    sd2 = put(st, nth(st, ro, "SD", 1).id, "1510")
    before = st.lost_points[nu]
    combat.eliminate(ctx, st, [sd2], ("cen:full.combat",))
    assert st.lost_points[nu] == before - 2


@pytest.mark.rule("cen:opt.earthworks")
def test_no_capture_while_defenders_remain_in_the_works():
    s, ctx, st = fresh(earthworks="on")
    clear(st)
    ro = "romans"
    h = st.hex_of("1510")
    st.markers.setdefault(h, set()).add("earthworks")
    a = put(st, nth(st, ro, "SD", 0).id, "1510")
    put(st, nth(st, ro, "SD", 1).id, "1510")
    lost = st.lost_points[ro]
    combat.eliminate(ctx, st, [a], ("cen:full.combat",))
    assert st.lost_points[ro] == lost + st.types["SD"].points


# ------------------------------------------------------------------ (c) destroying one's own mounts


def _cataphract_scenario() -> str:
    return next(x for x in ("daras", "busta-gallorum", "ctesiphon", "fantasy")
                if any(u.type == "BC" for u in Session.new("centurion", x, seed=1).state.units.values()))


@pytest.mark.rule("cen:opt.mount-dismount")
def test_owner_may_destroy_riderless_mounts_for_one_point():
    sc = _cataphract_scenario()
    s = Session.new("centurion", sc, seed=1, options={"mount_dismount": "on"})
    st, ctx = s.state, s.ctx
    bc = next(u for u in st.units.values() if u.type == "BC")
    mt = mounts.dismount(ctx, st, bc, "DSD")
    side = bc.side
    options.book(st).dismounting.clear()
    assert mt in mounts.own_mounts(st, side)
    lost = st.lost_points[side]
    n0 = len(s.log)
    mounts.destroy_mounts(ctx, st, mt)
    assert not mt.on_map and st.lost_points[side] == lost + 1
    assert events(s, n0, "cen:opt.mount-dismount")
    assert bc not in mounts.mountable(st, side)  # the rider can never mount again
    with pytest.raises(ValueError, match="cen:opt.mount-dismount"):
        mounts.destroy_mounts(ctx, st, bc)


@pytest.mark.rule("cen:opt.mount-dismount", "cen:full.sequence")
def test_destroy_mounts_is_offered_at_the_start_of_turn():
    sc = _cataphract_scenario()
    s = Session.new("centurion", sc, seed=1, options={"mount_dismount": "on"})
    st, ctx = s.state, s.ctx
    bc = next(u for u in st.units.values() if u.type == "BC")
    mt = mounts.dismount(ctx, st, bc, "DSD")
    options.book(st).dismounting.clear()
    gen = start_of_turn.start_of_turn_actions(ctx, st, bc.side)
    d = next(gen)
    assert "destroy-mounts" in d.keys
    d = gen.send("destroy-mounts")
    assert d.keys == (mt.id,)
    d = gen.send(mt.id)
    assert not mt.on_map and "destroy-mounts" not in d.keys


# ------------------------------------------------------------------ (d) Light Cavalry never surrounded


@pytest.mark.rule("cen:full.cavalry", "cen:full.combat")
def test_surrounded_light_cavalry_is_pushed_out_of_the_ring():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    lc = put(st, nth(st, ro, "LC", 0).id, "1510")
    ring = [st.hid(n) for n in lc.hex.neighbors()]
    pool = troops(st, nu)
    sds = [put(st, pool[i].id, hid) for i, hid in enumerate(ring)]
    assert light_cavalry.is_surrounded(st, lc)
    lc.contact.add(sds[0].id)
    sds[0].contact.add(lc.id)
    n0 = len(s.log)
    pushed = light_cavalry.push_out_light_cavalry(ctx, st)
    assert pushed == [lc]
    assert lc.hex.distance(st.hex_of("1510")) == 2
    assert not light_cavalry.is_surrounded(st, lc)
    assert st.side_at(lc.hex) != nu and not lc.contact and lc.id not in sds[0].contact
    assert any("pushed out" in t for t in events(s, n0, "cen:full.cavalry"))


@pytest.mark.rule("cen:full.cavalry")
def test_light_cavalry_with_one_free_neighbour_or_other_units_are_not_pushed():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    lc = put(st, nth(st, ro, "LC", 0).id, "1510")
    sd = put(st, nth(st, ro, "SD", 0).id, "1515")
    ring = [st.hid(n) for n in lc.hex.neighbors()]
    pool = troops(st, nu)
    for i, hid in enumerate(ring[:5]):
        put(st, pool[i].id, hid)
    for i, n in enumerate(sd.hex.neighbors()):
        put(st, pool[5 + i].id, st.hid(n))
    assert not light_cavalry.is_surrounded(st, lc)
    assert light_cavalry.push_out_light_cavalry(ctx, st) == []
    assert st.hid(lc.hex) == "1510" and st.hid(sd.hex) == "1515"  # Swordsmen may be surrounded


# ------------------------------------------------------------------ earthworks razed after movement


@pytest.mark.rule("cen:opt.earthworks", "cen:full.sequence")
def test_occupied_earthworks_are_razed_at_the_end_of_the_movement_phase_for_one_point():
    s, ctx, st = fresh(earthworks="on")
    clear(st)
    ro = "romans"
    st.active = ro
    put(st, nth(st, ro, "SD", 0).id, "1510")
    for hid in ("1510", "1512"):
        st.markers.setdefault(st.hex_of(hid), set()).add("earthworks")
    start = next(start_of_turn.start_of_turn_actions(ctx, st, ro), None)
    assert start is None or "raze" not in start.keys  # not before movement
    gen = works.raze_step(ctx, st, ro)
    d = next(gen)
    assert d.kind == "works.raze" and d.keys == ("done", "1510")
    with pytest.raises(ValueError, match="must be occupied") as exc:
        d.match("1512")
    assert exc.value.rule == "cen:opt.earthworks"
    lost = st.lost_points[ro]
    with pytest.raises(StopIteration):
        gen.send("1510")
    assert "earthworks" not in st.markers[st.hex_of("1510")] and st.lost_points[ro] == lost + 1
    assert start_of_turn.start_action_problem(st, ro, "raze")[1] == "cen:opt.earthworks"


# ------------------------------------------------------------------ straight charges


@pytest.mark.rule("cen:full.cavalry", "cen:full.movement")
def test_a_charge_counts_the_straight_run_the_unit_could_have_made_to_its_hex():
    s, ctx, st = fresh("carrhae")
    clear(st)
    side = next(x for x in st.sides if any(u.type == "OC" for u in st.units.values() if u.original_side == x))
    oc = put(st, nth(st, side, "OC", 0).id, "1512", "N")
    start = oc.hex
    zig = [start, start.neighbor(1)]
    zig.append(zig[-1].neighbor(0))
    zig.append(zig[-1].neighbor(5))  # NE, N, NW: ends two hexes north, last step not straight
    dest = zig[-1]
    assert dest == start.neighbor(0).neighbor(0)
    st.extra["full_move_start"] = {oc.id: oc.facing}
    st.move(oc, dest)
    movement_hooks._after_move(ctx, st, oc, zig)
    assert oc.charge_length == 2 and oc.charged_this_turn  # straight north would have charged two hexes
    assert options.book(st).charge_start[oc.id] == start
    # A friendly unit in the way leaves only the last hex of the run.
    st.move(oc, start)
    other = put(st, nth(st, side, "OC", 1).id, st.hid(start.neighbor(0)), "N")
    st.move(oc, dest)
    movement_hooks._after_move(ctx, st, oc, zig)
    assert oc.charge_length == 1 and options.book(st).charge_start[oc.id] == other.hex
