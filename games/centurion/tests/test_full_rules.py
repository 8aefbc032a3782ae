"""Full Simulation procedures on a real scenario state: sequence, fire, morale, victory, options.

Positions are built by clearing the map of a scenario's set-up and placing a
few counters; dice are forced through ``ctx.chance.force``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session

from ancients_games.centurion.full import (
    combat, deployment, end_of_turn, fire_phase, melee_phase, morale, mounts, movement_hooks, options,
    square, start_of_turn, victory, warriors,
)
from ancients_games.centurion.full.book import book
from ancients_games.centurion.full.combat import Attack
from ancients_games.centurion.model import VictoryLevel
from ancients_games.centurion.movement import movable_reason
from ancients_games.centurion.tests.positions import clear, first, fresh, put


# ------------------------------------------------------------------ victory


@pytest.mark.rule("cen:full.victory")
def test_victory_levels_ratios_loss_limits_and_minimum():
    lf = victory.level_for
    assert lf(10, 30, 100) is VictoryLevel.STRATEGIC
    assert lf(10, 29, 100) is VictoryLevel.TACTICAL
    assert lf(20, 21, 100) is VictoryLevel.MARGINAL
    assert lf(26, 80, 100) is VictoryLevel.TACTICAL  # 3 to 1 but over 25 per cent lost
    assert lf(31, 95, 100) is VictoryLevel.MARGINAL  # over 30 per cent
    assert lf(41, 200, 100) is None  # over 40 per cent: a draw
    assert lf(0, 19, 100) is None  # the loser must lose 20 points first
    assert lf(0, 20, 100) is VictoryLevel.STRATEGIC
    assert victory.claimable(VictoryLevel.TACTICAL, ["strategic"]) is None
    assert victory.claimable(VictoryLevel.STRATEGIC, ["strategic"]) is VictoryLevel.STRATEGIC
    assert victory.claimable(VictoryLevel.MARGINAL, []) is VictoryLevel.MARGINAL


@pytest.mark.rule("cen:full.concession", "cen:full.victory")
def test_tactical_concession_caps_the_level_and_needs_two_to_one():
    assert victory.may_withdraw("a", "b", {"a": 40, "b": 20})
    assert not victory.may_withdraw("a", "b", {"a": 39, "b": 20})
    assert victory.cap_level(VictoryLevel.STRATEGIC, VictoryLevel.TACTICAL) is VictoryLevel.TACTICAL
    s, ctx, st = fresh()
    st.lost_points.update({"romans": 0, "numidians": 60})
    out = end_of_turn.final_outcome(st, "test", cap=VictoryLevel.TACTICAL)
    assert out.winner == "romans" and out.level == "tactical"
    assert "cen:full.concession" in out.rules


# ------------------------------------------------------------------ deployment


@pytest.mark.rule("cen:full.deployment", "cen:full.setup")
def test_deployment_radius_and_distance():
    s, ctx, st = fresh()
    first_side = st.scenario.deploys_first
    legal = deployment.legal_hexes(st, first_side)
    centre = st.hex_of(st.scenario.side(first_side).zone.centre)
    assert centre in legal
    far = [h for h in st.numbering.hexes() if h.distance(centre) > 5 and h not in legal]
    assert far
    clear(st)
    cm = first(st, first_side, "CM")
    put(st, cm.id, st.hid(centre))
    other = st.opponent(first_side)
    foe = first(st, other, "CM")
    put(st, foe.id, st.hid(centre.neighbor(0)))  # adjacent: too close
    assert any(foe.id in p for p in deployment.check_deployment(st))
    from ancients_kit.hexgrid import ring

    ten = next(h for h in ring(centre, 10) if h in st.numbering)
    put(st, foe.id, st.hid(ten))
    assert not [p for p in deployment.check_deployment(st) if foe.id in p]


# ------------------------------------------------------------------ fire in the sequence


@pytest.mark.rule("cen:full.defensive-fire", "cen:full.sequence", "cen:full.fem", "cen:full.fire-protection")
def test_defensive_fire_disperses_attackers_and_the_attack_becomes_non_viable():
    s, ctx, st = fresh()
    combat.combat_tables(ctx, st)
    clear(st)
    ro, nu = "romans", "numidians"
    st.active = ro
    sd = put(st, first(st, ro, "SD").id, "1510", "N")
    sk = put(st, first(st, nu, "SK").id, "1509", "S")
    a = Attack(sk.hex, "melee", [sd.id])
    assert combat.viability(st, ro, a) is not None
    gen = fire_phase.defensive_fire_phase(ctx, st, ro, [a])
    d = next(gen)
    assert d.side == nu and "1510" in d.keys
    ctx.chance.force(1)
    with pytest.raises(StopIteration):
        gen.send("1510")
        next(gen)
    assert sd.dispersed or sd.eliminated
    assert combat.viability(st, ro, a) is None  # dropped: no attacker left able to attack


@pytest.mark.rule("cen:full.combat", "cen:full.sequence")
def test_offensive_fire_uses_fem_against_a_stack():
    s, ctx, st = fresh()
    combat.combat_tables(ctx, st)
    clear(st)
    ro, nu = "romans", "numidians"
    st.active = ro
    sk = put(st, first(st, ro, "SK").id, "1510", "N")
    tgt = [put(st, first(st, nu, "SD" if any(u.type == "SD" for u in st.units.values() if u.side == nu) else "SK",
                          i).id, "1509", "S") for i in range(2)]
    ctx.chance.force(1)
    fire_phase.offensive_fire_phase(ctx, st, ro, [Attack(st.hex_of("1509"), "fire", [sk.id])])
    text = " ".join(e.text for e in s.log.since(0) if e.kind == "combat")
    assert "fire 4" in text  # 2 x 2 targets
    assert all(u.eliminated or u.dispersed for u in tgt)


# ------------------------------------------------------------------ melee, contact, cross-river, relief


@pytest.mark.rule("cen:full.contact", "cen:full.combat")
def test_contact_result_locks_units():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    st.active = ro
    sd = put(st, first(st, ro, "SD").id, "1510", "N")
    en = put(st, first(st, nu, "SK").id, "1509", "S")
    melee_phase._apply_melee(ctx, st, ro, "C", [sd], [en], en.hex, ("cen:full.combat",))
    assert en.id in sd.contact and sd.id in en.contact
    why = movable_reason(st, sd, movement_hooks.move_hooks(st))
    assert why is not None and why[1] == "cen:full.contact"


@pytest.mark.rule("cen:full.cross-river")
def test_units_behind_a_river_control_the_hexes_to_their_front():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    st.active = nu
    d = put(st, first(st, ro, "SD").id, "2604", "NE")  # river hexsides 2604-2704 and 2604-2705
    ctl = movement_hooks._river_controlled(st, nu)
    front = {d.hex.neighbor(x % 6) for x in (d.facing - 1, d.facing, d.facing + 1)}
    assert ctl and ctl <= front
    across = [h for h in front if "river" in st.map.hexside_features(d.hex, h)]
    assert set(across) == set(ctl)
    # they are passable (audit A7): not stop hexes; passing bars a flank attack instead
    assert not ctl & movement_hooks._stop_hexes(st, first(st, nu, "SK"))


@pytest.mark.rule("cen:full.relief", "cen:rom.declining", "cen:rom.legion-integrity")
def test_roman_relief_swaps_dispersed_swordsmen():
    s, ctx, st = fresh()
    clear(st)
    ro = "romans"
    st.active = ro
    a = put(st, first(st, ro, "SD", 0).id, "1510")
    b_ = next(u for u in st.units.values() if u.side == ro and u.type == "SD" and u.group == a.group and u is not a)
    put(st, b_.id, "1511")
    a.dispersed = 1
    pairs = start_of_turn._relief_pairs(st, ro)
    assert (a, b_) in pairs
    other = next(u for u in st.units.values() if u.side == ro and u.type == "SD" and u.group != a.group)
    st.options["legion_integrity"] = "on"
    mounts.withdraw(st, b_)
    put(st, other.id, "1511")
    assert start_of_turn._relief_pairs(st, ro) == []
    st.options["legion_integrity"] = "off"
    assert start_of_turn._relief_pairs(st, ro)
    st.options["declining_legion"] = "on"
    assert start_of_turn._relief_pairs(st, ro) == []


# ------------------------------------------------------------------ morale


@pytest.mark.rule("cen:full.panic")
def test_panic_strikes_near_units_not_those_with_command_or_far_once_per_game():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    near = put(st, first(st, ro, "SD", 0).id, "1510")
    guarded = put(st, first(st, ro, "SD", 1).id, "1511")
    put(st, first(st, ro, "CM").id, "1511")
    far = put(st, first(st, ro, "SD", 2).id, "0101")
    put(st, first(st, nu, "SK").id, "1505")
    b = book(st)
    st.lost_points[ro] = b.threshold[ro]
    morale.check_panic(ctx, st)
    assert b.panic_pending[ro]
    got = morale.start_panic(ctx, st, ro)
    assert near in got and near.panicked
    assert not guarded.panicked and not far.panicked
    morale.check_panic(ctx, st)
    assert not b.panic_pending.get(ro)  # once per game


@pytest.mark.rule("cen:full.panic")
def test_threshold_drops_by_twenty_after_a_heavy_turn():
    s, ctx, st = fresh()
    b = book(st)
    before = b.threshold["romans"]
    st.turn_lost_points["romans"] = 20
    morale.threshold_drop(ctx, st)
    assert b.threshold["romans"] == before - 20


@pytest.mark.rule("cen:full.panic", "cen:full.movement")
def test_panicked_units_run_for_the_edge_and_rally_on_three_to_six():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    st.active = ro
    u = put(st, first(st, ro, "SD", 0).id, "1518", "N")
    put(st, first(st, nu, "SK").id, "1514")
    u.panicked = True
    morale.run_for_the_edge(ctx, st, ro)
    assert u.eliminated or st.numbering.to_offset(u.hex)[1] > 18
    v = put(st, first(st, ro, "SD", 1).id, "1010", "S")
    v.panicked = True
    put(st, first(st, ro, "CM").id, "1011", "N")  # the Command unit stands in front of v (panic E)
    ctx.chance.force(2)
    morale.rally(ctx, st, ro)
    assert v.panicked
    ctx.chance.force(3)
    morale.rally(ctx, st, ro)
    assert not v.panicked and v.rallied


@pytest.mark.rule("cen:full.demoralization")
def test_demoralization_when_most_attacks_fail_and_its_effects():
    s, ctx, st = fresh()
    b = book(st)
    b.attacks, b.failed = 5, 4
    morale.end_of_player_turn_morale(ctx, st, "romans", {"romans": False, "numidians": False})
    u = next(st.live_units("romans"))
    assert u.demoralized
    assert combat._dispersal_turns(st, u) == 2
    b.attacks, b.failed = 5, 3
    w = next(st.live_units("numidians"))
    morale.end_of_player_turn_morale(ctx, st, "numidians", {"romans": False, "numidians": False})
    assert not w.demoralized


@pytest.mark.rule("cen:full.treachery")
def test_treachery_loyal_leaving_and_defecting():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    a = put(st, first(st, nu, "SK", 0).id, "1005")
    b_ = put(st, first(st, nu, "SK", 1).id, "1007")
    c = put(st, first(st, nu, "SK", 2).id, "1009")
    put(st, first(st, nu, "CM").id, "1011")  # Command units are not rolled for
    lost = st.lost_points[nu]
    ctx.chance.force(2, 4, 6)
    morale.treachery(ctx, st, nu, civil_war=False)
    assert a.treachery == "" and a.side == nu
    assert b_.treachery == "leaving"
    assert c.side == ro and c.treachery == "defected"
    assert st.lost_points[nu] == lost + st.types[c.type].points
    # A deserter destroyed before it leaves is not counted as lost.
    before = st.lost_points[nu]
    combat.eliminate(ctx, st, [b_], ("cen:full.treachery",))
    assert st.lost_points[nu] == before


# ------------------------------------------------------------------ options


@pytest.mark.rule("cen:opt.fortune", "cen:opt.weather", "cen:opt.command", "cen:opt.earthworks", "cen:opt.caltrops",
                  "cen:opt.skirmisher-equipment", "cen:opt.non-roman-swordsmen", "cen:opt.spearmen",
                  "cen:barb.cavalry", "cen:barb.warrior", "cen:barb.tribe", "cen:rom.green",
                  "cen:rom.legion-integrity", "cen:rom.millenarian", "cen:rom.mixed-legion", "cen:rom.declining",
                  "cen:opt.mount-dismount", "cen:full.treachery", "cen:full.deployment")
def test_every_optional_rule_is_an_option_naming_its_rule():
    rules = {r for spec in options.OPTION_SPECS for r in spec.rules}
    wanted = {
        "cen:opt.fortune", "cen:opt.earthworks", "cen:opt.caltrops", "cen:opt.skirmisher-equipment",
        "cen:opt.weather", "cen:opt.command", "cen:opt.non-roman-swordsmen", "cen:opt.spearmen",
        "cen:barb.cavalry", "cen:barb.warrior", "cen:barb.tribe", "cen:rom.green", "cen:rom.legion-integrity",
        "cen:rom.millenarian", "cen:rom.mixed-legion", "cen:rom.declining", "cen:opt.mount-dismount",
    }
    assert wanted <= rules
    s, ctx, st = fresh()
    assert options.active(st, "cen:rom.legion-integrity")  # the chart requires it
    st.options["legion_integrity"] = "off"
    assert not options.active(st, "cen:rom.legion-integrity")


@pytest.mark.rule("cen:rom.green", "cen:opt.skirmisher-equipment", "cen:opt.spearmen", "cen:full.units")
def test_set_up_readings_retype_counters_and_reprice_the_army():
    s, ctx, st = fresh(green_romans="on", skirmisher_equipment="on")
    types = {u.type for u in st.units.values() if u.side == "romans"}
    groups = {u.group for u in st.units.values() if u.side == "romans" and u.type.startswith("SD")}
    if "I" in groups:
        assert "SD-I" in types
    if "III" in groups:
        assert "SD-III" in types
    assert st.types["SD-I"].melee_attack == 5 and st.types["SD-III"].melee_attack == 3
    assert not {"SK"} & types and {"LI", "AR", "SL"} & types
    pts = sum(st.types[u.type].points for u in st.units.values() if u.original_side == "romans")
    assert st.start_points["romans"] == pts


@pytest.mark.rule("cen:opt.weather")
def test_weather_roll_three_is_fog():
    s = Session.new("centurion", "numidia", seed=3, options={"weather": "fog"})
    assert book(s.state).weather == "fog"
    s2 = Session.new("centurion", "numidia", seed=3, options={"weather": "mud"})
    u = next(s2.state.live_units("romans"))
    assert movement_hooks.movement_allowance(s2.state, u) == s2.state.types[u.type].movement - 2


@pytest.mark.rule("cen:opt.fortune")
def test_fortune_rounds_for_the_fortunate_side():
    s, ctx, st = fresh(fortune="first")
    b = book(st)
    assert b.fortune == st.sides[0]
    assert combat.fire_rounding(st, b, st.sides[0]) == "attacker"
    assert combat.fire_rounding(st, b, st.sides[1]) == "defender"


@pytest.mark.rule("cen:opt.command")
def test_command_units_modify_die_rolls():
    s, ctx, st = fresh(command="on")
    clear(st)
    ro, nu = "romans", "numidians"
    sd = put(st, first(st, ro, "SD").id, "1510")
    put(st, first(st, ro, "CM").id, "1512")
    mod, rules = combat.command_modifier(st, ro, [sd], False)
    assert mod == -1 and "cen:opt.command" in rules
    put(st, first(st, nu, "CM").id, "1508")
    mod, _ = combat.command_modifier(st, ro, [sd], False)
    assert mod == 0


@pytest.mark.rule("cen:opt.earthworks", "cen:opt.caltrops", "cen:full.combat")
def test_earthworks_double_and_caltrops_halve_and_bar_cavalry():
    s, ctx, st = fresh()
    h = st.hex_of("1510")
    assert combat.hex_defence_multiplier(st, h, [st.hex_of("1509")]) == 1
    st.markers[h] = {"earthworks"}
    assert combat.hex_defence_multiplier(st, h, [st.hex_of("1509")]) == 2
    st.markers[h] = {"caltrops"}
    assert combat.attack_out(st, h, st.hex_of("1509")) == Fraction(1, 2)
    lc = first(st, "romans", "LC")
    assert h in movement_hooks._blocked(st, lc)


@pytest.mark.rule("cen:barb.tribe", "cen:barb.warrior", "cen:full.stacking")
def test_barbarian_tribes_and_warriors():
    s, ctx, st = fresh("gaul", barbarian_tribe="on", barbarian_warrior="on")
    barb = next(x for x in st.sides if options.is_barbarian(st, x))
    other = st.opponent(barb)
    clear(st)
    bis = [u for u in st.units.values() if u.side == barb and u.type == "BI"]
    a = bis[0]
    put(st, a.id, "1510", "N")
    a.group = a.group or "I"
    assert not options.isolated_tribesman(st, a)  # alone, not "among units of other tribes"
    stranger = next(u for u in bis[1:] if u.group and u.group != a.group)
    put(st, stranger.id, "1610", "N")
    assert options.isolated_tribesman(st, a)
    mate = next((u for u in bis[1:] if u.group == a.group), bis[1])
    mate.group = a.group
    put(st, mate.id, "1511", "N")
    assert not options.isolated_tribesman(st, a)
    foe = next(u for u in st.units.values() if u.side == other and u.type != "CM")
    put(st, foe.id, "1509", "S")
    st.active = barb
    attacks: list[Attack] = []
    warriors.barbarian_must_attack(ctx, st, barb, attacks)
    assert attacks and a.id in attacks[0].units
    alien = next((u for u in bis if u.group and u.group != a.group), None)
    if alien is not None:
        assert st.hex_of("1510") in movement_hooks._blocked(st, alien)


@pytest.mark.rule("cen:rom.millenarian", "cen:full.stacking", "cen:full.square")
def test_millenarian_stack_of_four_and_square_movement():
    s, ctx, st = fresh(millenarian="on")
    clear(st)
    sds = [u for u in st.units.values() if u.side == "romans" and u.type == "SD" and u.group == "I"][:4]
    for u in sds[:3]:
        put(st, u.id, "1510")
    assert movement_hooks._stack_limit(st, sds[3], st.hex_of("1510")) == 4
    st.options["millenarian"] = "off"
    assert movement_hooks._stack_limit(st, sds[3], st.hex_of("1510")) == 3
    sds[0].in_square = True
    assert square.moves_one_hex(st, sds[0])  # cen:full.square D: one hex a turn (stop on the first entered)
    assert set(sds[0].hex.neighbors()) <= movement_hooks._stop_hexes(st, sds[0])


@pytest.mark.rule("cen:rom.mixed-legion", "cen:barb.cavalry", "cen:opt.non-roman-swordsmen")
def test_cataphract_readings_by_army():
    s = Session.new("centurion", "hadrianopolis", seed=1, options={"barbarian_cavalry": "on", "mixed_legion": "on"})
    st = s.state
    for u in st.units.values():
        if st.types[u.type].base_counter == "BC" or u.type == "BC":
            if options.is_barbarian(st, u.original_side):
                assert u.type == "BHC"
            elif options.is_roman(st, u.original_side):
                assert u.type in ("BCL", "BHC")
    cap = st.capability
    assert cap["BCL"].fire_and_melee != "same-target" and cap["BHC"].fire_and_melee != "same-target"
    assert not cap["SDN"].form_square and not cap["SDN"].relief


@pytest.mark.rule("cen:opt.mount-dismount")
def test_dismount_places_riderless_mounts_and_mount_takes_them_back():
    sc = next(x for x in ("daras", "busta-gallorum", "ctesiphon", "fantasy")
              if any(u.type == "BC" for u in Session.new("centurion", x, seed=1).state.units.values()))
    s = Session.new("centurion", sc, seed=1, options={"mount_dismount": "on"})
    st, ctx = s.state, s.ctx
    bc = next(u for u in st.units.values() if u.type == "BC")
    mt = mounts.dismount(ctx, st, bc, "DSK")
    assert bc.type == "DSK" and mt.type == "MT" and mt.on_map
    assert st.types["DSK"].melee_defence_front == 2
    mounts.mount(ctx, st, bc)
    assert bc.type == "BC" and not mt.on_map


# ------------------------------------------------------------------ whole games


@pytest.mark.rule("cen:full.sequence", "cen:full.movement", "cen:full.facing", "cen:full.cavalry", "cen:full.square")
def test_random_bots_finish_full_games_deterministically():
    outs = []
    for _ in range(2):
        s = Session.new("centurion", "numidia", seed=11)
        out = play_out(s, RandomBot(), max_decisions=50_000)
        assert out is not None
        outs.append((out.text, len(s.answers)))
        kinds = {e.kind for e in s.log.since(0)}
        assert "turn" in kinds and "move" in kinds
        assert all(e.rules for e in s.log.since(0) if e.kind in ("combat", "loss", "result", "morale"))
    assert outs[0] == outs[1]
