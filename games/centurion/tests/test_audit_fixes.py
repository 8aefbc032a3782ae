"""Regression tests for the Centurion rules audit (notes/centurion-audit.md, section A).

Each test builds a position on a real scenario state cleared of its set-up (helpers
from ``positions``) and forces dice through ``ctx.chance.force``.
"""

from __future__ import annotations

import pytest

from ancients_kit.hexgrid import direction_to, is_frontal
from ancients_kit.session import Session

from ancients_games.centurion.full import (
    allocation, combat, fire_phase, melee_phase, morale, mounts, movement_hooks, options, units, warriors,
)
from ancients_games.centurion.full.book import book
from ancients_games.centurion.movement import movement_phase
from ancients_games.centurion.tests.positions import clear, gaul_warrior, nth, put


def _daras_cataphract_ring():
    s = Session.new("centurion", "daras", seed=1)
    st, ctx = s.state, s.ctx
    combat.combat_tables(ctx, st)
    clear(st)
    bc = next(u for u in st.units.values() if u.type == "BC")
    side = bc.original_side
    enemy = st.opponent(side)
    st.begin_player_turn(side)
    put(st, bc.id, "1010", "N")
    tgt = put(st, nth(st, enemy, "SP", 0).id, "1009", "S")
    sp = put(st, nth(st, side, "SP", 0).id, "0909", "NE")
    sk = put(st, nth(st, side, "SK", 0).id, "1109", "NW")
    return s, ctx, st, side, bc, sp, sk, tgt


@pytest.mark.rule("cen:full.combat")
def test_a1_a_hex_is_fired_on_once_and_meleed_once_with_cataphract_fire_and_melee():
    s, ctx, st, side, bc, sp, sk, tgt = _daras_cataphract_ring()
    h = st.hex_of("1009")
    A = combat.Attack
    attacks = [A(h, "both", [bc.id]), A(h, "melee", [sp.id]), A(h, "fire", [sk.id])]
    n0 = len(s.log)
    ctx.chance.force(6, 6, 6, 6)
    fire_phase.offensive_fire_phase(ctx, st, side, attacks)
    fire_rolls = [e for e in s.log.since(n0) if e.kind == "roll" and e.text.startswith("d6 ")]
    n1 = len(s.log)
    mg = melee_phase.melee_phase(ctx, st, side, attacks)
    try:
        while True:
            next(mg)
    except StopIteration:
        pass
    melee_rolls = [e for e in s.log.since(n1) if e.kind == "roll" and e.text.startswith("d6 ")]
    # case I: the BC and SK total their fire into one attack; case J: one battle for the hex
    assert len(fire_rolls) == 1, [e.text for e in s.log.since(n0)]
    assert len(melee_rolls) == 1, [e.text for e in s.log.since(n1)]


def _gaul_warrior():
    return gaul_warrior("1515")


@pytest.mark.rule("cen:barb.warrior")
def test_a2_a_barbarian_answered_stay_within_seven_hexes_still_advances():
    s, ctx, st, barb, bi = _gaul_warrior()
    foe = st.hex_of("1510")
    before = bi.hex.distance(foe)
    st.extra["full_move_start_hex"] = {u.id: u.hex for u in st.live_units(barb)}
    gen = movement_phase(ctx, st, barb, movement_hooks.move_hooks(st))
    d = next(gen)
    d = gen.send(bi.id)
    assert "stay" in d.keys
    try:
        gen.send("stay")  # next unit or the end of the phase
    except StopIteration:
        pass
    gen.close()
    assert bi.moved and bi.hex.distance(foe) == before  # "stay" marks it moved, it has not advanced
    warriors.after_movement(ctx, st, barb)
    assert bi.hex.distance(foe) < before


@pytest.mark.rule("cen:barb.warrior")
def test_a2_a_barbarian_within_seven_hexes_may_not_move_away_from_the_foe():
    s, ctx, st, barb, bi = _gaul_warrior()
    foe = st.hex_of("1510")
    before = bi.hex.distance(foe)
    gen = movement_phase(ctx, st, barb, movement_hooks.move_hooks(st))
    next(gen)
    d = gen.send(bi.id)
    dests = [st.hex_of(k) for k in d.keys if k not in ("stay", "back")]
    assert dests and all(h.distance(foe) <= before for h in dests)
    away = st.hex_of("1517")
    assert away.distance(foe) > before
    why = d.refuse("1517")
    assert why is not None and why[1] == "cen:barb.warrior"


@pytest.mark.rule("cen:opt.command", "cen:barb.tribe")
def test_a3_an_enemy_command_raises_every_tribe_s_roll_whatever_its_legion():
    s = Session.new("centurion", "gaul", seed=1, options={"command": "on"})
    st = s.state
    clear(st)
    ro = "romans"
    ga = st.opponent(ro)
    cmd = next(u for u in st.units.values() if u.original_side == ro and u.type == "CM" and not u.supreme)
    put(st, cmd.id, "1010")
    bis = [u for u in st.units.values() if u.original_side == ga and u.type == "BI"]
    groups = sorted({b.group for b in bis})
    assert len(groups) > 1
    for g in groups:
        b = next(x for x in bis if x.group == g)
        put(st, b.id, "1012")  # two hexes from the Roman command
        assert combat.command_modifier(st, ga, [b], False)[0] == 1, g
        mounts.withdraw(st, b)


def _two_swordsmen_and_the_commands():
    """Numidia with the Command Unit Rules, the map cleared, two Roman swordsmen at 1010: the state,
    the Roman side, its Command units (off the map) and the two swordsmen."""
    s = Session.new("centurion", "numidia", seed=3, options={"command": "on", "legion_integrity": "off"})
    st = s.state
    clear(st)
    ro = "romans"
    cms = [u for u in st.units.values() if u.original_side == ro and u.type == "CM"]
    return st, ro, cms, put(st, nth(st, ro, "SD", 0).id, "1010"), put(st, nth(st, ro, "SD", 1).id, "1010")


@pytest.mark.rule("cen:opt.command")
def test_a4_only_a_command_taking_part_reaches_five_hexes():
    st, ro, cms, a, b = _two_swordsmen_and_the_commands()
    put(st, cms[0].id, "1014")  # four hexes off, not in the attack
    assert combat.command_modifier(st, ro, [a, b], False)[0] == 0
    part = put(st, cms[1].id, "1020")  # takes part, but ten hexes from the swordsmen
    assert combat.command_modifier(st, ro, [a, b, part], True)[0] == 0
    # the participating command itself within five hexes does give its -1
    put(st, part.id, "1015")
    assert combat.command_modifier(st, ro, [a, b, part], True)[0] == -1


@pytest.mark.rule("cen:opt.command")
def test_a4b_a_command_that_attacked_this_phase_reaches_five_hexes_for_the_later_attacks():
    """Command rule B's five hexes: a Command unit that made a melee attack this Combat Phase lends
    its -1 to a later attack by troops four hexes away (three-hex radius otherwise)."""
    st, ro, cms, a, b = _two_swordsmen_and_the_commands()
    cmd = put(st, cms[0].id, "1014")  # four hexes off
    assert combat.command_modifier(st, ro, [a, b], False)[0] == 0  # it has not fought: three hexes
    book(st).cmd_attacked.add(cmd.id)  # its own melee attack, earlier in this Combat Phase
    assert combat.command_modifier(st, ro, [a, b], False) == (-1, ("cen:opt.command",))
    put(st, cmd.id, "1016")  # six hexes off: out of reach even so
    assert combat.command_modifier(st, ro, [a, b], False)[0] == 0


@pytest.mark.rule("cen:full.panic", "cen:opt.command")
def test_a4c_a_subordinate_command_rallies_only_its_own_legion():
    """"The Supreme COMMAND UNIT and the appropriate sub-ordinate COMMAND UNITS may rally": the
    I Legion's command does not try to rally a panicked II Legion stack; the Supreme Command does."""
    from ancients_games.centurion.tests.positions import fresh

    s, ctx, st = fresh("gaul", command="on")
    clear(st)
    ro = "romans"
    sub = next(u for u in st.units.values() if u.original_side == ro and u.type == "CM" and u.group == "I")
    other = next(u for u in st.units.values() if u.original_side == ro and u.type == "SD" and u.group == "II")
    own = next(u for u in st.units.values() if u.original_side == ro and u.type == "SD" and u.group == "I")
    put(st, other.id, "1010", "S")
    other.panicked = True
    put(st, sub.id, "1011", "N")  # in front of the panicked II Legion swordsmen
    ctx.chance.force(6)
    morale.rally(ctx, st, ro)
    assert other.panicked and not any("rall" in e.text for e in ctx.log if e.kind == "morale")
    mounts.withdraw(st, other)
    put(st, own.id, "1010", "S")
    own.panicked = True
    ctx.chance.force(6)
    morale.rally(ctx, st, ro)
    assert not own.panicked
    # the Supreme Command rallies any legion's troops
    mounts.withdraw(st, own)
    mounts.withdraw(st, sub)
    chief = next(u for u in st.units.values() if u.original_side == ro and u.supreme)
    put(st, other.id, "1010", "S")
    other.panicked = True
    put(st, chief.id, "1011", "N")
    ctx.chance.force(6)
    morale.rally(ctx, st, ro)
    assert not other.panicked


@pytest.mark.rule("cen:opt.weather", "cen:full.square")
def test_a5_swordsmen_in_square_attack_whole_in_mud():
    got = {}
    for w in ("fine", "mud"):
        s = Session.new("centurion", "numidia", seed=3)
        st = s.state
        clear(st)
        ro, nu = "romans", "numidians"
        a = put(st, nth(st, ro, "SD", 0).id, "1010", "N")
        b = put(st, nth(st, ro, "SD", 1).id, "1010", "N")
        a.in_square = b.in_square = True
        put(st, nth(st, nu, "SK", 0).id, "1009", "S")
        book(st).weather = w
        st.begin_player_turn(ro)
        att = combat.Attack(st.hex_of("1009"), "melee", [a.id, b.id])
        got[w] = combat.melee_sides(st, ro, att)[0]
    assert got["fine"] > 0 and got["mud"] == got["fine"]


@pytest.mark.rule("cen:barb.tribe", "cen:full.square")
def test_a6_an_isolated_tribesman_attacks_a_square_at_half():
    texts = {}
    for mate in (False, True):
        s = Session.new("centurion", "gaul", seed=3)
        st, ctx = s.state, s.ctx
        table = combat.combat_tables(ctx, st)[0]
        clear(st)
        ro = "romans"
        ga = st.opponent(ro)
        a = put(st, nth(st, ro, "SD", 0).id, "1010", "N")
        b = put(st, nth(st, ro, "SD", 1).id, "1010", "N")
        a.in_square = b.in_square = True
        bis = [u for u in st.units.values() if u.original_side == ga and u.type == "BI"]
        bi = put(st, bis[0].id, "1009", "S")
        # among units of another tribe (cen:barb.tribe: "isolated units among units of other tribes")
        put(st, next(x for x in bis if x.group and x.group != bi.group).id, st.hid(bi.hex.neighbor(5)), "S")
        if mate:  # a tribe-mate next to it: not isolated
            put(st, next(x for x in bis[1:] if x.group == bi.group).id, "1008", "S")
        assert options.isolated_tribesman(st, bi) is not mate
        st.begin_player_turn(ga)
        n0 = len(s.log)
        ctx.chance.force(6)
        melee_phase._melee_square(ctx, st, ga, combat.Attack(st.hex_of("1010"), "melee", [bi.id]), table)
        texts[mate] = next(e.text for e in s.log.since(n0) if "attack the square" in e.text)
    full = st.types[bi.type].melee_attack
    assert f": {full}:" in texts[True]
    assert f": {full // 2}:" in texts[False], texts[False]


@pytest.mark.rule("cen:full.cross-river")
def test_a7_units_may_pass_river_controlled_hexes_but_then_not_attack_the_flank():
    s = Session.new("centurion", "numidia", seed=3)
    st, ctx = s.state, s.ctx
    clear(st)
    ro, nu = "romans", "numidians"
    d = put(st, nth(st, ro, "SD", 0).id, "2604", "NE")  # river hexsides 2604-2704 and 2604-2705
    st.begin_player_turn(nu)
    ctl = sorted(movement_hooks._river_controlled(st, nu), key=st.hid)
    assert ctl
    lc = nth(st, nu, "LC", 0)
    assert not set(ctl) & movement_hooks._stop_hexes(st, lc)  # "they may pass through if they wish"
    flank = next(h for h in d.hex.neighbors()
                 if not is_frontal(d.hex, d.facing, h) and st.side_at(h) is None)
    start = next(h for h in ctl[0].neighbors() if h not in ctl and h != d.hex and st.side_at(h) is None)
    put(st, lc.id, st.hid(flank))
    lc.facing = direction_to(flank, d.hex)
    assert allocation._melee_problem(st, lc, d.hex) is None  # came another way: may attack the flank
    movement_hooks._after_move(ctx, st, lc, [start, ctl[0], flank])
    why = allocation._melee_problem(st, lc, d.hex)
    assert why is not None and why[1] == "cen:full.cross-river"
    assert d.hex not in units.melee_targets(st, lc)


@pytest.mark.rule("cen:full.treachery")
def test_a9_only_allied_troops_of_a_roman_army_are_liable_outside_civil_wars():
    s = Session.new("centurion", "numidia", seed=3)
    st = s.state
    ro, nu = "romans", "numidians"
    from ancients_games.centurion.full import morale

    kinds = {u.type for u in st.units.values() if u.original_side == ro}
    assert "SK" in kinds and "SD" in kinds
    for code in sorted(kinds):
        u = nth(st, ro, code)
        if code == "CM":
            continue
        assert morale._may_betray(st, u, False) is (code in {"BI", "LC", "SP", "PK"}), code
        assert morale._may_betray(st, u, True)
    assert morale._may_betray(st, nth(st, nu, "SK"), False)


@pytest.mark.rule("cen:full.combat", "cen:full.defensive-fire")
def test_a11_a_unit_left_standing_next_to_missile_troops_is_not_fired_on():
    s = Session.new("centurion", "numidia", seed=3)
    st, ctx = s.state, s.ctx
    combat.combat_tables(ctx, st)
    clear(st)
    ro, nu = "romans", "numidians"
    st.begin_player_turn(ro)
    sk = put(st, nth(st, nu, "SK").id, "1509", "S")
    stood = put(st, nth(st, ro, "SD", 0).id, "1510", "N")
    other = next(h for h in (sk.hex.neighbor((sk.facing + k) % 6) for k in (-1, 1)) if h != stood.hex)
    came = put(st, nth(st, ro, "SD", 1).id, st.hid(other), "N")
    st.extra["full_move_start_hex"] = {stood.id: stood.hex, came.id: st.hex_of("1413")}
    stood.moved = came.moved = True  # "stay" marks a unit moved too
    gen = fire_phase.defensive_fire_phase(ctx, st, ro, [])
    d = next(gen)
    assert d.side == nu
    targets = set(d.keys) - {"done"}
    assert st.hid(other) in targets  # moved adjacent without attacking: liable
    assert "1510" not in targets, targets  # left standing: not a move adjacent


@pytest.mark.rule("cen:full.treachery", "cen:full.stacking")
def test_a12_loyal_stack_mates_of_defectors_step_to_the_nearest_hex_with_room_and_stay_on_the_map():
    s = Session.new("centurion", "numidia", seed=3)
    st, ctx = s.state, s.ctx
    clear(st)
    ro, nu = "romans", "numidians"
    h = st.hex_of("1009")
    traitor = put(st, nth(st, nu, "SK", 0).id, "1009")
    loyal = put(st, nth(st, nu, "SK", 1).id, "1009")
    ns = sorted(st.neighbors(h), key=st.hid)
    full, rest = ns[0], ns[1:]
    pool = [u for u in st.units.values() if u.original_side == nu and u.type in ("SK", "LC") and u.hex is None]
    for u in pool[:3]:
        put(st, u.id, st.hid(full))
    assert st.stacking_count(full, nu) == 3
    romans = [u for u in st.units.values() if u.original_side == ro and u.type != "CM"]
    for u, n in zip(romans, rest):
        put(st, u.id, st.hid(n))
    pts = st.lost_points[nu]
    morale.defect(ctx, st, [traitor], ro, 6)
    assert traitor.side == ro and loyal.on_map and loyal.side == nu
    assert loyal.hex.distance(h) == 2  # ring one is enemy-held or full
    assert st.stacking_count(full, nu) == 3
    assert st.lost_points[nu] == pts + st.types[traitor.type].points  # the traitor only


@pytest.mark.rule("cen:opt.mount-dismount", "cen:full.stacking")
def test_a12_riderless_mounts_are_placed_only_where_there_is_stacking_room():
    s = Session.new("centurion", "daras", seed=1, options={"mount_dismount": "on"})
    st, ctx = s.state, s.ctx
    clear(st)
    bc = next(u for u in st.units.values() if u.type == "BC")
    side = bc.original_side
    put(st, bc.id, "1010", "N")
    behind = bc.hex.neighbor((bc.facing + 3) % 6)
    bc2 = next(u for u in st.units.values() if u.type == "BC" and u is not bc)
    foot = [u for u in st.units.values() if u.original_side == side and u.hex is None and u is not bc2
            and st.types[u.type].stack_limit >= 3 and st.types[u.type].counts_for_stacking]
    for u in foot[:3]:
        put(st, u.id, st.hid(behind))
    assert st.stacking_count(behind, side) == 3
    st.begin_player_turn(side)
    assert bc in mounts.dismountable(st, side)
    mt = mounts.dismount(ctx, st, bc, st.capability["BC"].dismount_as[0])
    assert mt.hex == bc.hex  # behind is full: the mounts stand in the rider's own hex
    # a second cataphract with both hexes full may not dismount at all
    put(st, bc2.id, "1510", "N")
    behind2 = bc2.hex.neighbor((bc2.facing + 3) % 6)
    for u in foot[3:6]:
        put(st, u.id, st.hid(behind2))
    put(st, foot[6].id, "1510")
    put(st, foot[7].id, "1510")
    assert bc2 not in mounts.dismountable(st, side)
    with pytest.raises(ValueError, match="cen:opt.mount-dismount"):
        mounts.dismount(ctx, st, bc2, st.capability["BC"].dismount_as[0])


@pytest.mark.rule("cen:full.panic", "cen:full.movement")
def test_a13_fleeing_units_pay_river_hexsides():
    from ancients_games.centurion.setup import sandbox_state
    from ancients_games.centurion.movement_rules import cost_table

    # a river along the whole map between rows 3 and 4; the top edge is the nearest
    probe = sandbox_state([("red", "SD", "0604", "N")], version="full", columns=12, rows=12)
    row = {h: int(probe.hid(h)[2:]) for h in probe.numbering}
    feats = {(probe.hid(a), probe.hid(b)): ["river"] for a in probe.numbering if row[a] == 4
             for b in probe.neighbors(a) if row[b] == 3}
    st = sandbox_state([("red", "SD", "0604", "N")], version="full", features=feats, columns=12, rows=12)
    u = st.units["RED-SD01"]
    river = st.terrain_chart["river"].cost
    assert river is not None and river >= 1
    path, left = morale.flee_step_path(st, u)
    ct = cost_table(st)
    steps = {(a, n): c for a in ct.edges["foot"] for n, c, _ in ct.edges["foot"][a]}
    spent = sum(steps[(a, b)] for a, b in zip(path, path[1:]))
    assert len(path) > 1 and spent <= st.types["SD"].movement * ct.scale
    assert not left  # three clear hexes would reach the edge; the river costs more


@pytest.mark.rule("cen:opt.non-roman-swordsmen")
def test_a15_civil_war_legions_stay_roman_swordsmen_with_the_non_roman_option():
    for sc in ("pharsalus", "philippi"):
        st = Session.new("centurion", sc, seed=1, options={"non_roman_swordsmen": "on"}).state
        assert st.scenario.civil_war
        assert not [u.id for u in st.units.values() if u.type == "SDN"], sc
    # a non-Roman army's swordsmen still become non-Roman Swordsmen
    st = Session.new("centurion", "servile-war", seed=1, options={"non_roman_swordsmen": "on"}).state
    assert any(u.type == "SDN" for u in st.units.values())


@pytest.mark.rule("cen:full.cavalry")
def test_a10_a_second_charge_from_elsewhere_ending_on_the_same_hex_is_no_charge():
    s = Session.new("centurion", "numidia", seed=3)
    st, ctx = s.state, s.ctx
    clear(st)
    ro = "romans"
    st.begin_player_turn(ro)
    a = put(st, nth(st, ro, "LC", 0).id, "1510", "N")
    movement_hooks._after_move(ctx, st, a, [st.hex_of("1512"), st.hex_of("1511"), st.hex_of("1510")])
    assert a.charged_this_turn and a.charge_length == 2
    # a second unit from the same place shares the end hex and keeps its charge
    b = put(st, nth(st, ro, "LC", 1).id, "1510", "N")
    movement_hooks._after_move(ctx, st, b, [st.hex_of("1512"), st.hex_of("1511"), st.hex_of("1510")])
    assert b.charged_this_turn and b.charge_length == 2
    # one whose straight run started elsewhere (1511, one hex) ending there has made no charge,
    # whichever hex it then attacks
    c = put(st, nth(st, ro, "LC", 2).id, "1510", "N")
    movement_hooks._after_move(ctx, st, c, [st.hex_of("1511"), st.hex_of("1510")])
    assert not c.charged_this_turn and c.charge_length == 0
    assert c.id not in book(st).charge_start


@pytest.mark.rule("cen:full.treachery")
def test_a16_loyal_troops_may_attack_deserters_and_only_their_kill_is_not_a_loss():
    s = Session.new("centurion", "numidia", seed=3)
    st, ctx = s.state, s.ctx
    clear(st)
    ro, nu = "romans", "numidians"
    dz = put(st, nth(st, nu, "SK", 0).id, "1009", "S")
    dz.treachery = "leaving"
    loyal = put(st, nth(st, nu, "SP", 0).id, "1010", "N")
    archer = put(st, nth(st, nu, "SK", 1).id, "1008", "S")
    st.begin_player_turn(nu)
    assert dz.hex in units.melee_targets(st, loyal)
    assert dz.hex in units.fire_targets(st, archer)
    assert dz.hex in allocation.open_targets(st, nu, [])
    # a hex of loyal troops is never a target
    friend = put(st, nth(st, nu, "SK", 2).id, st.hid(loyal.hex.neighbor((loyal.facing + 1) % 6)), "N")
    assert friend.hex not in units.melee_targets(st, loyal)
    lost = st.lost_points[nu]
    combat.eliminate(ctx, st, [dz], ("cen:full.treachery",))
    assert st.lost_points[nu] == lost  # destroyed by loyal troops: not counted
    # a deserter destroyed by the enemy, in the enemy's Player-Turn, is a loss as usual
    dz2 = put(st, nth(st, nu, "SK", 3).id, "1509", "S")
    dz2.treachery = "leaving"
    st.end_player_turn(nu)
    st.begin_player_turn(ro)
    lost = st.lost_points[nu]
    combat.eliminate(ctx, st, [dz2], ("cen:full.combat",))
    assert st.lost_points[nu] == lost + st.types[dz2.type].points


@pytest.mark.rule("cen:basic.stacking")
def test_a14_the_other_side_reads_moves_without_unit_ids():
    s = Session.new("centurion", "numidia", seed=3)
    st, ctx = s.state, s.ctx
    clear(st)
    ro, nu = "romans", "numidians"
    sd = put(st, nth(st, ro, "SD", 0).id, "1510", "N")
    put(st, nth(st, nu, "SK", 0).id, "0502", "S")
    st.begin_player_turn(ro)
    n0 = len(s.log)
    gen = movement_phase(ctx, st, ro, movement_hooks.move_hooks(st))
    next(gen)
    gen.send(sd.id)
    d = gen.send("1508")
    assert d.kind == "move.facing"
    try:
        gen.send(d.options[0].key)
    except StopIteration:
        pass
    ev = next(e for e in s.log.since(n0) if e.kind == "move" and "1508" in e.text)
    assert sd.id in ev.text_for(ro) and sd.id in ev.text_for(None)
    seen = ev.text_for(nu)
    assert sd.id not in seen and "SD" not in seen and "1510 -> 1508" in seen
    assert "data" not in ev.to_json(nu)


def _two_way_stack(choice: str):
    from ancients_kit.hexgrid import direction_to

    s = Session.new("centurion", "numidia", seed=3)
    st, ctx = s.state, s.ctx
    combat.combat_tables(ctx, st)
    clear(st)
    ro, nu = "romans", "numidians"
    t = st.hex_of("1010")
    d1 = put(st, nth(st, ro, "SD", 0).id, "1010", "N")
    d2 = put(st, nth(st, ro, "SD", 1).id, "1010", "N")
    d2.facing = (d1.facing + 1) % 6
    n_hex, ne_hex = t.neighbor(d1.facing), t.neighbor(d2.facing)
    a1 = put(st, nth(st, nu, "SP", 0).id, st.hid(n_hex))
    a1.facing = direction_to(n_hex, t)
    a2 = put(st, nth(st, nu, "SK", 0).id, st.hid(ne_hex))
    a2.facing = direction_to(ne_hex, t)
    st.begin_player_turn(nu)
    n0 = len(s.log)
    ctx.chance.force(6, 6)
    gen = melee_phase.melee_phase(ctx, st, nu, [combat.Attack(t, "melee", [a1.id, a2.id])])
    d = next(gen)
    try:
        gen.send(choice)
    except StopIteration:
        pass
    battles = [e.text.rsplit("against ", 1)[1] for e in s.log.since(n0) if "separate battle against" in e.text]
    return d, battles, ro


@pytest.mark.rule("cen:full.combat", "cen:full.facing")
def test_a8_the_defender_allots_a_two_way_stack_to_the_attacks():
    d, auto, ro = _two_way_stack("auto")
    assert d.kind == "melee.allot" and d.side == ro
    assert len(d.keys) == 2  # each SD fronts both attacking hexes: two ways to meet them
    _, other, _ = _two_way_stack("a2")
    assert len(auto) == len(other) == 2 and auto != other and sorted(auto) == sorted(other)


@pytest.mark.rule("cen:full.combat")
def test_a1_units_from_one_hex_in_separate_attacks_on_one_target_stay_homogeneous():
    s, ctx, st, side, bc, sp, sk, tgt = _daras_cataphract_ring()
    h = st.hex_of("1009")
    other = put(st, nth(st, side, "SK", 1).id, st.hid(bc.hex), "N")  # stacked with the cataphract
    first = combat.Attack(h, "both", [bc.id])
    cur = combat.Attack(h, "melee")
    mates = allocation._melee_mates(st, [first], cur, h, bc.hex)
    assert mates == [bc]
    why = allocation._join_problem(st, side, other, h, "melee", [first], cur)
    alone = allocation._join_problem(st, side, other, h, "melee", [], cur)
    assert alone is None or "case H" not in alone[0]
    assert why is not None and "case H" in why[0]
