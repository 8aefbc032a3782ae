"""Pure Full Simulation mechanics: fire, FEM, facing/flank, charges, square.

Each test names the rules it exercises; values come from the unit data the
game ships (so a designer's variant changes them, and these tests then show it).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.data import DataStore
from ancients_kit.hexgrid import Hex

from ancients_games.centurion.full import cavalry, fire, melee, square
from ancients_games.centurion.model import load_capability, load_units


@pytest.fixture(scope="module")
def types():
    return load_units(DataStore("ancients_games.centurion"))


@pytest.fixture(scope="module")
def caps():
    return load_capability(DataStore("ancients_games.centurion"))


O = Hex(0, 0)
N, NE, SE, S, SW, NW = range(6)


# ------------------------------------------------------------------ FEM


@pytest.mark.rule("cen:full.fem")
def test_skirmisher_at_stack_of_three_fires_at_six(types):
    # The book's case: "a Skirmishers unit firing at a stack of three in an
    # adjacent hex fires with a factor of six".
    sk, sd = types["SK"], types["SD"]
    assert sk.fire == 2
    assert fire.effective_fire([sk.fire], [sd, sd, sd]) == 6


@pytest.mark.rule("cen:full.fem", "cen:opt.command", "cen:opt.mount-dismount")
def test_fem_ignores_command_units_counts_mounts_half_and_caps_at_three(types):
    sd, cm, mt = types["SD"], types["CM"], types["MT"]
    assert fire.fem_multiplier([sd]) == 1
    assert fire.fem_multiplier([sd, cm]) == 1
    assert fire.fem_multiplier([sd, sd]) == 2
    assert fire.fem_multiplier([sd, mt]) == Fraction(3, 2)
    assert fire.fem_multiplier([cm]) == 1
    # Never more than three times (four swordsmen in a square).
    assert fire.fem_multiplier([sd, sd, sd, sd]) == 3
    assert fire.effective_fire([2, 2], [sd, sd]) == 8  # case I: firers total, then FEM


# ------------------------------------------------------------------ FPF


@pytest.mark.rule("cen:full.fire-protection", "cen:full.facing")
def test_fire_protection_front_flank_and_both_directions(types):
    sd = types["SD"]
    # SD at O facing N; fire from N (front), from S (flank), from both.
    assert fire.stack_fpf(O, [(sd, N)], [O.neighbor(N)]) == 2
    assert fire.stack_fpf(O, [(sd, N)], [O.neighbor(S)]) == 1
    assert fire.stack_fpf(O, [(sd, N)], [O.neighbor(N), O.neighbor(S)]) == 1
    # Accumulated in stacks, each unit by its own facing.
    assert fire.stack_fpf(O, [(sd, N), (sd, S)], [O.neighbor(N)]) == 3


@pytest.mark.rule("cen:full.fire-protection", "cen:opt.command")
def test_command_fire_protection_only_when_alone(types):
    cm, sd = types["CM"], types["SD"]
    assert fire.stack_fpf(O, [(cm, N)], [O.neighbor(N)]) == 3
    assert fire.stack_fpf(O, [(cm, N)], [O.neighbor(S)]) == 2
    assert fire.stack_fpf(O, [(cm, N), (sd, N)], [O.neighbor(N)]) == 2


@pytest.mark.rule("cen:full.fire-protection", "cen:opt.earthworks")
def test_fpf_terrain_multiplier_and_workers_halved(types):
    sd = types["SD"]
    assert fire.stack_fpf(O, [(sd, N)], [O.neighbor(N)], multiplier=Fraction(2)) == 4
    assert fire.stack_fpf(O, [(sd, N), (sd, N)], [O.neighbor(N)], halved=[True, False]) == 3


# ------------------------------------------------------------------ range, arc, weather


@pytest.mark.rule("cen:full.combat")
def test_fire_arc_range_and_hilltop_range_two(types):
    sk = types["SK"]
    assert fire.fire_range(sk, on_hilltop=False) == 1
    assert fire.fire_range(sk, on_hilltop=True) == 2
    assert fire.fire_range(types["SD"], on_hilltop=True) == 0
    nothing = lambda h: False  # noqa: E731
    two_north = O.neighbor(N).neighbor(N)
    assert fire.in_field_of_fire(O, N, O.neighbor(N), 1, False, nothing)
    assert not fire.in_field_of_fire(O, N, O.neighbor(S), 1, False, nothing)  # flank: no fire
    assert not fire.in_field_of_fire(O, N, two_north, 1, False, nothing)
    assert fire.in_field_of_fire(O, N, two_north, 2, True, nothing)


@pytest.mark.rule("cen:full.combat")
def test_no_fire_through_intervening_units_except_from_hilltop():
    two_north = O.neighbor(N).neighbor(N)
    occupied = {O.neighbor(N)}
    blocked = occupied.__contains__
    assert not fire.in_field_of_fire(O, N, two_north, 2, False, blocked)
    assert fire.in_field_of_fire(O, N, two_north, 2, True, blocked)


@pytest.mark.rule("cen:opt.weather", "cen:opt.skirmisher-equipment")
def test_weather_stops_fire(types):
    sk, sl, ar = types["SK"], types["SL"], types["AR"]
    assert fire.fire_allowed(sk, "fine") and fire.fire_allowed(sk, "mud")
    assert not fire.fire_allowed(sk, "heavy-rain")
    assert fire.fire_allowed(sl, "light-rain") and not fire.fire_allowed(ar, "light-rain")
    assert not fire.fire_allowed(sk, "light-rain")
    assert fire.fire_range(sk, on_hilltop=True, weather="fog") == 1


@pytest.mark.rule("cen:full.combat")
def test_whole_odds_keeps_ratio():
    assert fire.whole_odds(Fraction(5, 2), 2) == (5, 4)
    assert fire.whole_odds(6, Fraction(3, 2)) == (12, 3)


# ------------------------------------------------------------------ facing and melee


@pytest.mark.rule("cen:full.facing", "cen:full.combat")
def test_attack_only_to_front():
    assert melee.can_attack_hex(O, N, O.neighbor(N))
    assert melee.can_attack_hex(O, N, O.neighbor(NE))
    assert melee.can_attack_hex(O, N, O.neighbor(NW))
    assert not melee.can_attack_hex(O, N, O.neighbor(S))
    assert not melee.can_attack_hex(O, N, O.neighbor(SE))


@pytest.mark.rule("cen:full.facing", "cen:full.combat")
def test_flank_and_front_flank_attacks_meet_flank_value(types):
    sd = types["SD"]
    d = melee.Defender(sd, N)
    assert melee.defender_factor(d, O, [O.neighbor(N)]) == sd.melee_defence_front
    assert melee.defender_factor(d, O, [O.neighbor(S)]) == sd.melee_defence_flank
    # A flank/front attack reduces the defence as a flank attack does.
    assert melee.defender_factor(d, O, [O.neighbor(N), O.neighbor(SE)]) == sd.melee_defence_flank
    assert sd.melee_defence_flank < sd.melee_defence_front


@pytest.mark.rule("cen:full.combat", "cen:full.facing")
def test_hex_defends_with_every_factor_each_by_its_facing(types):
    sd, sk = types["SD"], types["SK"]
    defenders = [melee.Defender(sd, N), melee.Defender(sk, S)]
    got = melee.defence_total(defenders, O, [O.neighbor(N)])
    assert got == sd.melee_defence_front + sk.melee_defence_flank
    assert melee.defence_total(defenders, O, [O.neighbor(N)], Fraction(2)) == 2 * got


@pytest.mark.rule("cen:full.panic", "cen:full.demoralization", "cen:opt.earthworks", "cen:opt.caltrops",
                  "cen:full.cross-river")
def test_condition_and_terrain_halvings(types):
    sd, bi = types["SD"], types["BI"]
    assert melee.defender_factor(melee.Defender(sd, N, panicked=True), O, [O.neighbor(N)]) == 2
    assert melee.defender_factor(melee.Defender(sd, N, working=True), O, [O.neighbor(N)]) == 2
    assert melee.attacker_factor(melee.Attacker(bi, O)) == 6
    assert melee.attacker_factor(melee.Attacker(bi, O, demoralized=True)) == 3
    assert melee.attacker_factor(melee.Attacker(bi, O, attack_out=Fraction(1, 2))) == 3  # river / caltrops


@pytest.mark.rule("cen:opt.weather", "cen:opt.spearmen")
def test_heavy_rain_halves_spearmen_and_charges(types):
    sp, bc, sd = types["SP"], types["BC"], types["SD"]
    assert melee.attacker_factor(melee.Attacker(sp, O), heavy_rain=True) == 2
    assert melee.attacker_factor(melee.Attacker(bc, O, charge_factor=Fraction(3)), heavy_rain=True) == Fraction(3, 2)
    assert melee.attacker_factor(melee.Attacker(sd, O), heavy_rain=True) == 4


@pytest.mark.rule("cen:full.combat", "cen:rom.legion-integrity")
def test_homogeneity_and_legion_integrity(types):
    sd, sk, cm = types["SD"], types["SK"], types["CM"]
    assert melee.homogeneity_problem([sd, sd, cm]) is None
    assert "one type" in melee.homogeneity_problem([sd, sk])
    assert melee.homogeneity_problem([sd, sd], ["I", "II"]) is None
    assert "legions" in melee.homogeneity_problem([sd, sd], ["I", "II"], legion_integrity=True)


# ------------------------------------------------------------------ cavalry


@pytest.mark.rule("cen:full.cavalry")
def test_charge_factor_full_short_and_minimums(types):
    lc, oc, bc = types["LC"], types["OC"], types["BC"]
    assert (lc.charge_length, oc.charge_length, bc.charge_length) == (1, 2, 3)
    assert cavalry.charge_factor(bc, 3) == 3
    assert cavalry.charge_factor(bc, 5) == 3
    assert cavalry.charge_factor(bc, 2) == 2  # "charging only two hexes are reduced by one"
    assert cavalry.charge_factor(bc, 0) == 2  # never below two
    assert cavalry.charge_factor(lc, 0) == 1  # never below one
    assert cavalry.charge_factor(oc, 2) == 2
    assert cavalry.charge_factor(oc, 1) == 1
    assert cavalry.charge_factor(types["SD"], 0) == 4  # not cavalry: printed factor


@pytest.mark.rule("cen:full.cavalry")
def test_charge_length_counts_trailing_straight_run():
    path = [O, O.neighbor(NE)]
    path.append(path[-1].neighbor(N))
    path.append(path[-1].neighbor(N))
    assert cavalry.charge_length_of_path(path, N) == 2
    assert cavalry.charge_length_of_path(path, NE) == 0  # not facing the way it charged
    # A unit in the way (an intervening hex) breaks the charge.
    mid = path[2]
    assert cavalry.charge_length_of_path(path, N, blocked=lambda h: h == mid) == 1
    assert cavalry.charge_length_of_path([O], N) == 0


@pytest.mark.rule("cen:full.cavalry")
def test_charge_must_end_adjacent_facing_and_not_share_end_hex():
    tgt = O.neighbor(N)
    assert cavalry.charge_problem(O, tgt, N, [], Hex(0, 3)) is None
    assert "facing" in cavalry.charge_problem(O, tgt, S, [], Hex(0, 3))
    assert "adjacent" in cavalry.charge_problem(O, tgt.neighbor(N), N, [], Hex(0, 3))
    assert "same hex" in cavalry.charge_problem(O, tgt, N, [Hex(2, 2)], Hex(0, 3))


# ------------------------------------------------------------------ square


@pytest.mark.rule("cen:full.square")
def test_square_defence_attack_and_casualties(types, caps):
    sd, sk, cm = types["SD"], types["SK"], types["CM"]
    four = [sd, sd, sd, sd]
    assert square.square_defence(four, caps) == 8  # half of 16
    assert square.square_attack(four, caps) == 8
    assert square.square_attack([sd, sd, sk], caps) is None  # a non-swordsman inside
    assert square.square_attack([sd, sd, cm], caps) == 4
    assert square.square_casualties(four, caps) == 2  # only up to half the MDF is struck
    assert square.square_casualties([sd], caps) == 1


@pytest.mark.rule("cen:full.square", "cen:opt.non-roman-swordsmen", "cen:opt.earthworks", "cen:opt.caltrops")
def test_who_may_form_square(types, caps):
    sd, sk, sdn = types["SD"], types["SK"], types["SDN"]
    assert square.form_square_problem([sd, sd, sk], caps, True) is None
    assert "four" in square.form_square_problem([sd] * 5, caps, True).replace("4", "four")
    assert "one non-Swordsmen" in square.form_square_problem([sd, sk, sk], caps, True)
    assert square.form_square_problem([sdn, sdn], caps, True) is not None
    assert "earthworks" in square.form_square_problem([sd], caps, False)


@pytest.mark.rule("cen:full.combat")
def test_dispersed_units_of_a_hex_defend_together_at_one(types):
    sd = types["SD"]
    ds = [melee.Defender(sd, N, dispersed=True), melee.Defender(sd, N, dispersed=True)]
    assert melee.defence_total(ds, O, [O.neighbor(N)]) == 1
    mixed = [melee.Defender(sd, N), melee.Defender(sd, N, dispersed=True)]
    assert melee.defence_total(mixed, O, [O.neighbor(N)]) == sd.melee_defence_front + 1
