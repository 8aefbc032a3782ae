"""More Full Simulation procedures: split battles, squares, charges, commands, barbarians."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.session import Session

from ancients_games.centurion.full import (
    allocation, combat, fire_phase, light_cavalry, melee_phase, morale, movement_hooks, options, square,
    start_of_turn, units, warriors, works,
)
from ancients_games.centurion.full.book import book
from ancients_games.centurion.full.combat import Attack
from ancients_games.centurion.movement import movement_phase
from ancients_games.centurion.reach import reachable
from ancients_games.centurion.tests.positions import clear, first, fresh, put


@pytest.mark.rule("cen:full.combat", "cen:full.facing")
def test_differently_faced_stack_attacked_from_two_sides_fights_separate_battles():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    st.active = ro
    d1 = put(st, first(st, nu, "SK", 0).id, "1510", "N")
    d2 = put(st, first(st, nu, "SK", 1).id, "1510", "S")
    a1 = put(st, first(st, ro, "SD", 0).id, "1509", "S")  # north of the stack
    a2 = put(st, first(st, ro, "SD", 1).id, "1511", "N")  # south of it
    split = melee_phase.split_battles(st, Attack(d1.hex, "melee", [a1.id, a2.id]))
    assert split is not None and len(split) == 2
    pairs = {tuple(u.id for u in att): tuple(d.id for d in dfs) for att, dfs in split}
    assert pairs[(a1.id,)] == (d1.id,) and pairs[(a2.id,)] == (d2.id,)
    # Same facing: one combined battle.
    d2.facing = d1.facing
    assert melee_phase.split_battles(st, Attack(d1.hex, "melee", [a1.id, a2.id])) is None


def _square_at(st, side: str, hid: str, n: int = 2):
    sq = [put(st, first(st, side, "SD", i).id, hid) for i in range(n)]
    for u in sq:
        u.in_square = True
    return sq


def _move(ctx, st, side: str, uid: str, dest: str, facing: str | None = None):
    """Drive one move through the Full Movement Phase; returns the decision after it."""
    gen = movement_phase(ctx, st, side, movement_hooks.move_hooks(st))
    d = next(gen)
    d = gen.send(uid)
    assert dest in [o.key for o in d.options], (dest, [o.key for o in d.options])
    d = gen.send(dest)
    d = gen.send(facing or d.options[0].key)
    return d


@pytest.mark.rule("cen:full.square", "cen:full.movement", "cen:full.stacking")
def test_a_swordsmen_unit_joins_a_square_in_the_movement_phase_for_three_mf():
    s, ctx, st = fresh()
    clear(st)
    ro = "romans"
    st.active = ro
    _square_at(st, ro, "1510")
    j = put(st, first(st, ro, "SD", 2).id, "1511", "N")
    hooks = movement_hooks.move_hooks(st)
    r = reachable(st, j, hooks)
    sq = st.hex_of("1510")
    assert r.mf(sq) == 1 + 3  # clear hex 1 MF + 3 to enter the square (E)
    assert r.path(sq) == [st.hex_of("1511"), sq]
    assert sq in hooks.stop_hexes(st, j) and sq not in hooks.blocked(st, j)  # entered, never passed (H)
    assert st.hex_of("1509") not in r.cost or st.hex_of("1510") not in r.path(st.hex_of("1509"))
    _move(ctx, st, ro, j.id, "1510")
    assert j.hex == sq and j.in_square and j.moved
    assert "1510" in book(st).square_joined
    assert any("joins the square at 1510" in e.text and "cen:full.square" in e.rules for e in s.log.since(0))
    # one Swordsmen unit a turn (E): the next one may neither join nor pass
    k = put(st, first(st, ro, "SD", 3).id, "1511", "N")
    why = square.square_join_problem(st, k, sq)
    assert why is not None and "one a turn" in why
    assert sq not in reachable(st, k, hooks).cost and sq in hooks.blocked(st, k)
    # the next turn it may, and a fifth Swordsmen unit never (B)
    book(st).square_joined.clear()
    assert square.square_join_problem(st, k, sq) is None
    k.in_square = False
    book(st).square_joined.clear()
    _square_at(st, ro, "1510", 0)
    put(st, first(st, ro, "SD", 4).id, "1510").in_square = True
    assert "4 Swordsmen" in square.square_join_problem(st, k, sq)


@pytest.mark.rule("cen:full.square", "cen:full.movement")
def test_one_other_unit_and_any_command_unit_join_a_square_for_two_mf():
    s, ctx, st = fresh()
    clear(st)
    ro = "romans"
    st.active = ro
    _square_at(st, ro, "1510")
    sq = st.hex_of("1510")
    sk = put(st, first(st, ro, "SK", 0).id, "1509", "S")
    sk2 = put(st, first(st, ro, "SK", 1).id, "1511", "N")
    hooks = movement_hooks.move_hooks(st)
    assert reachable(st, sk, hooks).mf(sq) == 1 + 2  # F: two Movement Factors to move in
    _move(ctx, st, ro, sk.id, "1510")
    assert sk.in_square and "1510" not in book(st).square_joined  # E counts Swordsmen only
    why = square.square_join_problem(st, sk2, sq)
    assert why is not None and "non-Swordsmen" in why and "(F)" in why
    assert sq not in reachable(st, sk2, hooks).cost
    cmd = next(u for u in st.units.values() if u.side == ro and st.types[u.type].kind.value == "command")
    put(st, cmd.id, "1511", "N")
    assert square.square_join_problem(st, cmd, sq) is None
    assert reachable(st, cmd, hooks).mf(sq) == 1 + 2
    # units already in a square, or out of one this turn, do not join
    book(st).left_square.add(sk2.id)
    assert "left a square" in square.square_join_problem(st, sk2, sq)


@pytest.mark.rule("cen:full.square")
def test_joining_is_no_start_of_turn_action_any_more_and_leaving_still_is():
    s, ctx, st = fresh()
    clear(st)
    ro = "romans"
    st.active = ro
    sq = _square_at(st, ro, "1510")
    sk = put(st, first(st, ro, "SK", 0).id, "1510")
    sk.in_square = True
    assert sk in square.square_leavers(st, ro) and sq[0] not in square.square_leavers(st, ro)
    why, rule = start_of_turn.start_action_problem(st, ro, "join")
    assert "Movement Phase" in why and rule == "cen:full.square"


@pytest.mark.rule("cen:full.square", "cen:full.defensive-fire")
def test_square_attacks_with_its_defence_and_is_struck_only_by_half():
    s, ctx, st = fresh()
    combat.combat_tables(ctx, st)
    clear(st)
    ro, nu = "romans", "numidians"
    st.active = nu
    sq = [put(st, first(st, ro, "SD", i).id, "1510", "N") for i in range(4)]
    for u in sq:
        u.in_square = True
    assert sum(units.melee_factor(st, u) for u in sq) == 8
    att = put(st, first(st, nu, "SK", 0).id, "1509", "S")
    att2 = put(st, first(st, nu, "SK", 1).id, "1511", "N")
    a = Attack(st.hex_of("1510"), "melee", [att.id, att2.id])
    table = combat.combat_tables(ctx, st)[0]
    ctx.chance.force(1, 1)
    # 2 vs 8 is below 1-2: both attacks are non-viable and nothing happens
    melee_phase._melee_square(ctx, st, nu, a, table)
    assert all(u.on_map and not u.dispersed for u in sq)


@pytest.mark.rule("cen:full.cavalry", "cen:full.movement")
def test_after_move_records_the_straight_charge():
    s, ctx, st = fresh()
    clear(st)
    ro = "romans"
    st.active = ro
    lc = put(st, first(st, ro, "LC").id, "1510", "N")
    path = [st.hex_of("1512"), st.hex_of("1511"), st.hex_of("1510")]
    movement_hooks._after_move(ctx, st, lc, path)
    assert lc.charge_length == 2 and lc.charged_this_turn
    assert units.melee_factor(st, lc) == st.types["LC"].melee_attack
    assert book(st).charge_start[lc.id] == st.hex_of("1512")
    lc.charge_length = 0
    assert units.melee_factor(st, lc) == st.types["LC"].min_charge_attack


@pytest.mark.rule("cen:full.combat", "cen:opt.command")
def test_command_units_attack_only_dispersed_or_command_units_unless_the_command_rules():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    cm = put(st, first(st, ro, "CM").id, "1510", "N")
    en = put(st, first(st, nu, "SK").id, "1509", "S")
    assert units.melee_targets(st, cm) == []
    en.dispersed = 1
    assert units.melee_targets(st, cm) == [en.hex]
    en.dispersed = 0
    st.options["command"] = "on"
    assert units.melee_targets(st, cm) == [en.hex]


@pytest.mark.rule("cen:full.treachery", "cen:opt.command")
def test_multi_commander_treachery_rolls_once_per_command_five_defects():
    s, ctx, st = fresh("gaul", command="on")
    side, g = next((x, g) for x in st.sides for g in morale.command_groups(st, x)
                   if any(morale._may_betray(st, u, False) for u in st.live_units(x) if u.group == g))
    troops = [u for u in st.live_units(side) if u.group == g and morale._may_betray(st, u, False)]
    others = [u for u in st.live_units(side) if u.group != g and not units.is_command(st, u)]
    lost = st.lost_points[side]
    ctx.chance.force(5)
    morale.treachery_of_command(ctx, st, side, g, civil_war=False)
    assert troops and all(u.side != side and u.treachery == "defected" for u in troops)
    assert all(u.side == side for u in others)
    assert st.lost_points[side] == lost + sum(st.types[u.type].points for u in troops)


@pytest.mark.rule("cen:opt.command", "cen:barb.tribe", "cen:full.panic")
def test_losing_a_tribal_chief_panics_that_tribe_only():
    s, ctx, st = fresh("gaul", command="on", barbarian_tribe="on")
    barb = next(x for x in st.sides if options.is_barbarian(st, x))
    chief = next(u for u in st.live_units(barb) if units.is_command(st, u) and not u.supreme and u.group)
    ctx.chance.force(6)  # no fury
    combat.eliminate(ctx, st, [chief], ("cen:full.combat",))
    b = book(st)
    assert chief.group in b.tribe_panic.get(barb, set())
    assert not b.panic_pending.get(barb)


@pytest.mark.rule("cen:barb.warrior", "cen:full.movement")
def test_barbarian_warriors_advance_when_within_seven_hexes():
    s, ctx, st = fresh("gaul", barbarian_warrior="on")
    barb = next(x for x in st.sides if options.is_barbarian(st, x))
    other = st.opponent(barb)
    clear(st)
    st.active = barb
    bi = put(st, next(u for u in st.units.values() if u.side == barb and u.type == "BI").id, "1515", "N")
    put(st, next(u for u in st.units.values() if u.side == other and u.type != "CM").id, "1510", "S")
    before = bi.hex.distance(st.hex_of("1510"))
    st.extra["full_move_start_hex"] = {bi.id: bi.hex}  # it started the Movement Phase here
    warriors.after_movement(ctx, st, barb)
    assert bi.hex.distance(st.hex_of("1510")) < before and bi.moved


@pytest.mark.rule("cen:opt.earthworks")
def test_works_take_three_turns_and_earthworks_may_be_razed():
    s, ctx, st = fresh(earthworks="on")
    clear(st)
    ro = "romans"
    st.active = ro
    u = put(st, first(st, ro, "SD").id, "1510")
    h = u.hex
    u.building = 1
    st.extra.setdefault("full_works", {})[h] = ("earthworks", [u.id])
    for _ in range(2):
        works.progress_works(ctx, st, ro)
        assert "earthworks" not in st.markers.get(h, set())
    works.progress_works(ctx, st, ro)
    assert "earthworks" in st.markers[h] and u.building == 0
    assert movement_hooks._movable(st, u) is None
    u.building = 2
    assert movement_hooks._movable(st, u)[1] == "cen:opt.earthworks"
    assert units.melee_factor(st, u) is None


@pytest.mark.rule("cen:full.cavalry", "cen:full.combat")
def test_light_cavalry_may_retreat_before_combat():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    st.active = nu
    lc = put(st, first(st, ro, "LC").id, "1510", "N")
    att = put(st, first(st, nu, "SK").id, "1509", "S")
    gen = light_cavalry.light_cavalry_retreat(ctx, st, nu, Attack(lc.hex, "melee", [att.id]))
    d = next(gen)
    assert d.side == ro and "retreat" in d.keys
    with pytest.raises(StopIteration):
        gen.send("retreat")
    assert lc.hex.distance(att.hex) > 1


@pytest.mark.rule("cen:full.sequence", "cen:opt.weather", "cen:opt.fortune", "cen:full.treachery")
def test_full_game_with_many_options_finishes():
    from ancients_kit.bots import RandomBot, play_out

    s = Session.new("centurion", "gaul", seed=5, options={
        "weather": "roll", "fortune": "second", "treachery": "both", "command": "on", "earthworks": "on",
        "caltrops": "on", "barbarian_warrior": "on", "barbarian_tribe": "on", "mount_dismount": "on",
        "placement": True})
    out = play_out(s, RandomBot(), max_decisions=50_000)
    assert out is not None and out.rules
    assert Fraction(out.turn) >= 1


@pytest.mark.rule("cen:opt.command")
def test_commands_move_in_order_of_precedence():
    s, ctx, st = fresh("numidia", command="on")
    ro = "romans"
    st.active = ro
    groups = movement_hooks._precedence(st, ro)
    assert groups[0] == "" and len(groups) >= 3
    late = next(u for u in st.live_units(ro) if u.group == groups[-1] and u.type == "SD")
    why = movement_hooks._movable(st, late)
    assert why is not None and why[1] == "cen:opt.command"
    for u in st.live_units(ro):
        if movement_hooks._order_key(st, u, groups) < len(groups) - 1:
            u.moved = True
    assert movement_hooks._movable(st, late) is None
    st.options["command"] = "off"
    for u in st.live_units(ro):
        u.moved = False
    assert movement_hooks._movable(st, late) is None


@pytest.mark.rule("cen:full.sequence", "cen:full.victory")
def test_greedy_bot_scores_full_decisions_and_finishes():
    from ancients_kit.bots import GreedyBot, play_out

    from ancients_games.centurion.full import bots

    s = Session.new("centurion", "servile-war", seed=2)
    out = play_out(s, GreedyBot(), max_decisions=20_000)
    assert out is not None
    st = s.state

    class D:
        kind = "attack.unit"
        side = st.sides[0]

    assert bots.score_option(st, D(), "all") > bots.score_option(st, D(), "done")
    D.kind = "move.hex"
    assert bots.score_option(st, D(), "0101") is None  # left to the engine's heuristic


@pytest.mark.rule("cen:full.panic", "cen:full.combat")
def test_panicked_missile_troops_only_fire_in_defence_at_half():
    s, ctx, st = fresh()
    clear(st)
    sk = put(st, first(st, "romans", "SK").id, "1510")
    assert units.can_fire(st, sk) and units.fire_factor(st, sk) == 2
    sk.panicked = True
    assert not units.can_fire(st, sk)
    assert units.can_fire(st, sk, defensive=True)
    assert units.fire_factor(st, sk) == 1
    assert units.melee_factor(st, sk) is None


@pytest.mark.rule("cen:full.combat", "cen:full.fire-protection")
def test_hilltop_missile_range_two_on_the_map():
    s, ctx, st = fresh()
    clear(st)
    assert st.map.terrain(st.hex_of("1008")) == "hill" and st.map.terrain(st.hex_of("1508")) == "clear"
    sk = put(st, first(st, "romans", "SK").id, "1008", "S")
    put(st, first(st, "numidians", "SK", 0).id, "1010", "N")
    put(st, first(st, "numidians", "SK", 1).id, "1009", "N")  # in the way: a hilltop fires over it
    assert st.hex_of("1010") in units.fire_targets(st, sk)
    low = put(st, first(st, "romans", "SK", 1).id, "1508", "S")
    put(st, first(st, "numidians", "SK", 2).id, "1510", "N")
    assert st.hex_of("1510") not in units.fire_targets(st, low)


@pytest.mark.rule("cen:full.sequence", "cen:full.cavalry", "cen:full.combat", "cen:full.fem")
def test_cataphracts_fire_and_melee_the_same_target_through_the_phases():
    sc = next(x for x in ("daras", "busta-gallorum", "ctesiphon", "fantasy")
              if any(u.type == "BC" for u in Session.new("centurion", x, seed=1).state.units.values()))
    s = Session.new("centurion", sc, seed=1)
    st, ctx = s.state, s.ctx
    combat.combat_tables(ctx, st)
    clear(st)
    bc = next(u for u in st.units.values() if u.type == "BC")
    side = bc.side
    foe_side = st.opponent(side)
    st.active = side
    put(st, bc.id, "1510", "N")
    foe = next(u for u in st.units.values() if u.side == foe_side and st.types[u.type].kind.value == "foot"
               and st.types[u.type].fire == 0)
    put(st, foe.id, "1509", "S")
    gen = allocation.allocation_phase(ctx, st, side)
    d = next(gen)
    assert "1509" in d.keys and "done" in d.keys
    d = gen.send("1509")
    assert d.kind == "attack.mode" and "both" in d.keys
    d = gen.send("both")
    assert d.kind == "attack.unit"
    with pytest.raises(StopIteration) as stop:  # nothing else to allocate: the phase ends by itself
        gen.send("all")
    attacks = stop.value.value
    assert attacks and attacks[0].mode == "both" and attacks[0].units == [bc.id]
    ctx.chance.force(6)  # fire: no effect at these odds
    fire_phase.offensive_fire_phase(ctx, st, side, attacks)
    assert bc.fired_this_turn and foe.on_map
    ctx.chance.force(1)
    mg = melee_phase.melee_phase(ctx, st, side, attacks)
    with pytest.raises(StopIteration):
        next(mg)
    assert foe.eliminated or foe.dispersed
    assert bc.attacked


@pytest.mark.rule("cen:full.square", "cen:full.movement")
def test_a_non_swordsmen_unit_moves_out_of_a_square_for_two_mf():
    s, ctx, st = fresh()
    clear(st)
    ro = "romans"
    st.active = ro
    _square_at(st, ro, "1510")
    sk = put(st, first(st, ro, "SK", 0).id, "1510", "N")
    sk.in_square = True
    hooks = movement_hooks.move_hooks(st)
    mfa = st.types[sk.type].movement
    assert hooks.mfa(st, sk) == mfa - 2  # F: two Movement Factors to move out
    r = reachable(st, sk, hooks)
    assert max(r.mf(h) for h in r.cost) <= mfa - 2
    sq = st.units[first(st, ro, "SD", 0).id]
    assert {h.distance(sq.hex) for h in reachable(st, sq, hooks).cost} <= {0, 1}  # D: one hex a turn
    _move(ctx, st, ro, sk.id, "1509")
    assert not sk.in_square and sk.id in book(st).left_square
    assert any("leaves the square at 1510" in e.text for e in s.log.since(0))
    assert sq.in_square  # the square stays
