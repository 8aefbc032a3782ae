"""Issue 10 (rules fidelity review), Centurion part: departures 16-21 and the readings
settled in docs/games/centurion.md ("Rulings").

Each test builds a position on a real scenario state cleared of its set-up (helpers
from ``positions``) and forces dice through ``ctx.chance.force`` where it rolls.
"""

from __future__ import annotations

import pytest

from ancients_kit.data import DataStore
from ancients_kit.hexgrid import Hex
from ancients_kit.session import Session

from ancients_games.centurion.full import (
    combat, fire, fire_phase, light_cavalry, melee_phase, morale, mounts, movement_hooks, options, start_of_turn,
    units, warriors, works,
)
from ancients_games.centurion.full.book import book
from ancients_games.centurion.model import load_units
from ancients_games.centurion.movement import movement_phase
from ancients_games.centurion.tests.positions import clear, first, fresh, gaul_warrior, put


def _numidia(to_play: str, **opts):
    """Numidia cleared of its set-up, the tables loaded, ``to_play``'s Player-Turn begun."""
    s, ctx, st = fresh(**opts)
    combat.combat_tables(ctx, st)
    clear(st)
    st.begin_player_turn(to_play)
    return s, ctx, st, "romans", "numidians"


@pytest.fixture(scope="module")
def types():
    return load_units(DataStore("ancients_games.centurion"))


# ------------------------------------------------------------------ 21: Command unit fire protection


@pytest.mark.rule("cen:full.fire-protection", "cen:opt.mount-dismount")
def test_21_a_command_unit_with_only_riderless_mounts_keeps_its_fire_protection(types):
    """Case G: Command units lose their FPF only "when stacked with other troops";
    riderless mounts have no Combat Factor (mount-dismount B) and are not troops."""
    o, firer = Hex(0, 0), Hex(0, -1)  # fire from the north, the Command unit faces north
    cm, mt, sk = types["CM"], types["MT"], types["SK"]
    assert fire.stack_fpf(o, [(cm, 0)], [firer]) == 3
    assert fire.stack_fpf(o, [(cm, 0), (mt, None)], [firer]) == 3  # was 0: the mount counted as troops
    assert fire.stack_fpf(o, [(cm, 0), (sk, 0)], [firer]) == 2  # real troops: only theirs counts


# ------------------------------------------------------------------ 18: failed fire attacks count


@pytest.mark.rule("cen:full.demoralization", "cen:full.combat")
def test_18_failed_offensive_fire_counts_among_the_attacks_of_the_turn():
    """"When 80% or more of the attacks made on that turn fail": missile attacks are attacks
    (the Attack Allocation Phase names "the manner in which the attacks will be made (i.e.
    missile or melee)"), so fire that neither destroys nor disperses is a failed attack."""
    s, ctx, st, ro, nu = _numidia("romans")
    sk = put(st, first(st, ro, "SK", 0).id, "1010", "N")
    tgt = put(st, first(st, nu, "SK", 0).id, "1009", "S")
    ctx.chance.force(6)  # 2 against 2 at 1-1: no effect
    fire_phase.offensive_fire_phase(ctx, st, ro, [combat.Attack(tgt.hex, "fire", [sk.id])])
    b = book(st)
    assert (b.attacks, b.failed) == (1, 1)
    morale.end_of_player_turn_morale(ctx, st, ro, {ro: False, nu: True})
    assert sk.demoralized
    assert any("1 of 1 attacks failed" in e.text and e.rules == ("cen:full.demoralization",) for e in s.log.since(0))


@pytest.mark.rule("cen:full.demoralization", "cen:full.combat")
def test_18_fire_that_disperses_is_no_failed_attack():
    s, ctx, st, ro, nu = _numidia("romans")
    sk = put(st, first(st, ro, "SK", 0).id, "1010", "N")
    tgt = put(st, first(st, nu, "SK", 0).id, "1009", "S")
    ctx.chance.force(2)  # 1-1, roll 2: dispersed
    fire_phase.offensive_fire_phase(ctx, st, ro, [combat.Attack(tgt.hex, "fire", [sk.id])])
    assert tgt.dispersed and (book(st).attacks, book(st).failed) == (1, 0)


# ------------------------------------------------------------------ 17: after first blood all barbarians attack


def _gaul_far_warrior():
    """A Gaulish warrior nine hexes from the nearest Roman (beyond the seven-hex limit)."""
    s, ctx, st, barb, bi = gaul_warrior("1519")
    st.extra["full_move_start_hex"] = {u.id: u.hex for u in st.live_units(barb)}
    return s, ctx, st, barb, bi


@pytest.mark.rule("cen:barb.warrior")
def test_17_beyond_seven_hexes_barbarians_manoeuvre_freely_before_first_blood():
    s, ctx, st, barb, bi = _gaul_far_warrior()
    assert not book(st).first_blood
    assert movement_hooks.warrior_destination_problem(st, bi, st.hex_of("1520")) is None
    warriors.after_movement(ctx, st, barb)
    assert bi.hex == st.hex_of("1519")


@pytest.mark.rule("cen:barb.warrior")
def test_17_after_first_blood_every_barbarian_must_advance_to_the_attack():
    """"UNTIL the first blood has been drawn ... At that point all barbarian troops must attack
    if they are physically able": the seven-hex freedom ends with the first combat."""
    s, ctx, st, barb, bi = _gaul_far_warrior()
    foe = st.hex_of("1510")
    book(st).first_blood = True
    why = movement_hooks.warrior_destination_problem(st, bi, st.hex_of("1520"))
    assert why is not None and why[1] == "cen:barb.warrior" and "blood" in why[0]
    warriors.after_movement(ctx, st, barb)
    assert bi.hex.distance(foe) < 9
    assert any("must advance to the attack" in e.text and "cen:barb.warrior" in e.rules for e in s.log.since(0))


# ------------------------------------------------------------------ 19: riderless mounts and terrain


@pytest.mark.rule("cen:opt.mount-dismount", "cen:opt.earthworks", "cen:opt.caltrops")
def test_19_riderless_mounts_are_never_placed_in_earthworks_or_caltrops():
    """Mount-dismount G: "Riderless mounts are subject to all terrain restrictions"; earthworks
    "may be occupied by any unmounted unit" only, and cavalry may not enter caltrops voluntarily."""
    s = Session.new("centurion", "daras", seed=1, options={"mount_dismount": "on"})
    st, ctx = s.state, s.ctx
    clear(st)
    bc = next(u for u in st.units.values() if u.type == "BC")
    side = bc.original_side
    st.begin_player_turn(side)
    put(st, bc.id, "1010", "N")
    behind = bc.hex.neighbor((bc.facing + 3) % 6)
    st.markers.setdefault(behind, set()).add("earthworks")
    st.rev += 1
    mt = mounts.dismount(ctx, st, bc, st.capability["BC"].dismount_as[0])
    assert mt.hex == bc.hex  # not behind, into the works
    bc2 = next(u for u in st.units.values() if u.type == "BC" and u is not bc)
    put(st, bc2.id, "1510", "N")
    behind2 = bc2.hex.neighbor((bc2.facing + 3) % 6)
    st.markers.setdefault(behind2, set()).add("caltrops")
    st.rev += 1
    mt2 = mounts.dismount(ctx, st, bc2, st.capability["BC"].dismount_as[0])
    assert mt2.hex == bc2.hex
    # an open hex behind: there, as before
    bc3 = next(u for u in st.units.values() if u.type == "BC" and u not in (bc, bc2))
    put(st, bc3.id, "2010", "N")
    mt3 = mounts.dismount(ctx, st, bc3, st.capability["BC"].dismount_as[0])
    assert mt3.hex == bc3.hex.neighbor((bc3.facing + 3) % 6)


# ------------------------------------------------------------------ 20: Light Cavalry retreat obeys terrain


def _retreat(ctx, st, side, a):
    gen = light_cavalry.light_cavalry_retreat(ctx, st, side, a)
    try:
        d = next(gen)
        assert d.kind == "retreat"
        gen.send("retreat")
    except StopIteration:
        pass


@pytest.mark.rule("cen:full.cavalry", "cen:opt.earthworks", "cen:opt.caltrops")
def test_20_light_cavalry_retreating_before_combat_never_enters_earthworks_or_caltrops():
    s, ctx, st, ro, nu = _numidia("romans")
    lc = put(st, first(st, nu, "LC", 0).id, "1010", "N")
    sd = put(st, first(st, ro, "SD", 0).id, "1009", "S")
    others = [n for n in lc.hex.neighbors() if n != sd.hex]
    for i, n in enumerate(others):
        st.markers.setdefault(n, set()).add("earthworks" if i % 2 else "caltrops")
    st.rev += 1
    _retreat(ctx, st, ro, combat.Attack(lc.hex, "melee", [sd.id]))
    assert lc.hex == st.hex_of("1010")  # every way out is closed to cavalry: it stays and fights
    # one neighbour opened: it retreats through it
    st.markers[others[0]].clear()
    st.rev += 1
    _retreat(ctx, st, ro, combat.Attack(lc.hex, "melee", [sd.id]))
    assert lc.hex != st.hex_of("1010") and not st.markers.get(lc.hex)


@pytest.mark.rule("cen:full.cavalry", "cen:full.movement", "cen:opt.weather", "cen:opt.caltrops")
def test_20_the_retreat_pays_terrain_within_the_movement_allowance():
    """The retreat is a move: through the north-west forest (3 MF a hex for horses) in heavy
    rain (allowance 9 - 2 = 7) it gets two hexes, not the four of open ground."""
    s, ctx, st, ro, nu = _numidia("romans")
    lc = put(st, first(st, nu, "LC", 0).id, "0504", "S")
    sd = put(st, first(st, ro, "SD", 0).id, "0505", "N")
    book(st).weather = "heavy-rain"
    _retreat(ctx, st, ro, combat.Attack(lc.hex, "melee", [sd.id]))
    assert st.hid(lc.hex) == "0202"  # was 0102, four hexes of forest (12 MF) on a 7 MF allowance
    ev = next(e for e in s.log.since(0) if "retreats before combat" in e.text)
    assert ev.rules == ("cen:full.cavalry", "cen:full.combat")
    # leaving caltrops costs two more (cen:opt.caltrops: "leave it at like cost")
    from ancients_games.centurion.movement_rules import cost_table, step_ticks

    hooks = movement_hooks.move_hooks(st)
    a, b = st.hex_of("1010"), st.hex_of("1011")
    plain = step_ticks(st, lc, a, b, hooks)
    st.markers.setdefault(a, set()).add("caltrops")
    st.rev += 1
    assert step_ticks(st, lc, a, b, hooks) == plain + 2 * cost_table(st).scale


@pytest.mark.rule("cen:full.cavalry", "cen:opt.earthworks")
def test_20_surrounded_light_cavalry_is_pushed_out_only_onto_ground_open_to_cavalry():
    s, ctx, st = fresh()
    clear(st)
    ro, nu = "romans", "numidians"
    st.begin_player_turn(ro)
    lc = put(st, first(st, nu, "LC", 0).id, "1010", "N")
    ring = list(lc.hex.neighbors())
    for i, n in enumerate(ring):
        put(st, first(st, ro, "SD", i).id, st.hid(n), "N")
    near = sorted((h for h in st.numbering.hexes() if h.distance(lc.hex) == 2), key=st.hid)
    for h in near[:-1]:
        st.markers.setdefault(h, set()).add("earthworks")
    st.rev += 1
    pushed = light_cavalry.push_out_light_cavalry(ctx, st)
    assert pushed == [lc] and lc.hex == near[-1]  # was near[0], into earthworks


# ------------------------------------------------------------------ 16: a square moves as a whole


def _roman_square(hid, n=3):
    """Numidia cleared, the Romans to move, ``n`` Swordsmen in square on ``hid``."""
    s, ctx, st = fresh()
    clear(st)
    st.active = ro = "romans"
    sq = [put(st, first(st, ro, "SD", i).id, hid, "N") for i in range(n)]
    for u in sq:
        u.in_square = True
    return s, ctx, st, ro, sq


def _move_square(gen, frm, to):
    """Move the stack on ``frm`` to ``to`` in a running Movement Phase; the ids that moved."""
    d = gen.send(frm)
    units = set(d.context["units"])
    d = gen.send(to)
    try:
        gen.send(d.options[0].key)
    except StopIteration:
        pass
    gen.close()
    return units


@pytest.mark.rule("cen:full.square", "cen:full.movement")
def test_16_no_swordsmen_unit_leaves_a_square_by_moving_alone():
    """Movement C: "Each unit is moved separately (Exception: Roman Orbis/Testudo Rule)";
    square A, K: a square is formed and disbanded all at once, so its Swordsmen move only with it."""
    s, ctx, st, ro, sq = _roman_square("1510")
    gen = movement_phase(ctx, st, ro, movement_hooks.move_hooks(st))
    d = next(gen)
    assert all(u.id not in d.keys for u in sq) and "1510" in d.keys
    why = d.refuse(sq[0].id)
    assert why is not None and why[1] == "cen:full.square" and "as a whole" in why[0]
    assert _move_square(gen, "1510", "1509") == {u.id for u in sq}
    assert all(u.hex == st.hex_of("1509") and u.in_square for u in sq)


@pytest.mark.rule("cen:full.square", "cen:full.movement")
def test_16_the_other_unit_in_a_square_moves_with_it_or_out_of_it():
    s, ctx, st, ro, sq = _roman_square("1510", 2)
    sk = put(st, first(st, ro, "SK", 0).id, "1510", "N")
    sk.in_square = True
    gen = movement_phase(ctx, st, ro, movement_hooks.move_hooks(st))
    d = next(gen)
    assert sk.id in d.keys and "1510" in d.keys  # out of it alone (F), or with the whole square
    assert _move_square(gen, "1510", "1509") == {u.id for u in [*sq, sk]}
    assert sk.hex == st.hex_of("1509") and sk.in_square and sk.id not in book(st).left_square
    assert not any("leaves the square" in e.text for e in s.log.since(0))


@pytest.mark.rule("cen:full.square", "cen:full.movement")
def test_16_a_square_steps_one_hex_whatever_its_cost_but_not_onto_its_own_troops():
    """Square D: "a movement factor of one hex per turn": one hex, a 2-MF hill included."""
    s, ctx, st, ro, sq = _roman_square("1109")  # next to the hill 1008-1209 (2 MF)
    hooks = movement_hooks.move_hooks(st)
    from ancients_games.centurion.reach import reachable

    r = reachable(st, sq[0], hooks)
    hill = st.hex_of("1108")
    assert st.map.terrain(hill) == "hill" and hill in r.cost
    assert all(h.distance(sq[0].hex) <= 1 for h in r.cost)
    put(st, first(st, ro, "SK", 0).id, "1110", "N")
    r = reachable(st, sq[0], hooks)
    assert st.hex_of("1110") not in r.cost


# ------------------------------------------------------------------ readings: treachery F without the Command rules


@pytest.mark.rule("cen:full.treachery")
def test_reading_treachery_rolls_per_command_in_a_multi_commander_army_without_the_command_rules():
    """Treachery F: "In multi-commander games each separate COMMAND UNIT is rolled for": the
    army has subordinate commands (its counters carry their keys) whatever the Command option."""
    s = Session.new("centurion", "pharsalus", seed=2, options={"treachery": "both", "command": "off"})
    st, ctx = s.state, s.ctx
    side = st.sides[0]
    assert morale.command_groups(st, side)
    st.turn = 2
    gen = start_of_turn.treachery_step(ctx, st, side)
    d = next(gen)
    assert d.kind == "treachery"
    n0 = len(s.log)
    try:
        gen.send("invoke")
    except StopIteration:
        pass
    texts = [e.text for e in s.log.since(n0)]
    assert any("treachery of command" in t for t in texts), texts


# ------------------------------------------------------------------ readings: Command rule F, tribe rule


@pytest.mark.rule("cen:opt.command")
def test_reading_losing_every_command_keeps_troops_already_dispersed_so_for_two_turns():
    """Command F: for non-barbarians the loss of all Command units "forces 'dispersed' troops to
    remain so for TWO turns": those dispersed already, too, not only later dispersals."""
    s, ctx, st = fresh(command="on")
    ro = "romans"
    sd = first(st, ro, "SD", 0)
    st.disperse(sd, 1)
    cmds = [u for u in st.live_units(ro) if st.types[u.type].kind.value == "command"]
    combat.eliminate(ctx, st, cmds, ("cen:full.combat",))
    assert sd.dispersed == 2
    assert any("remain dispersed for two turns" in e.text and e.rules == ("cen:opt.command",)
               for e in s.log.since(0))


@pytest.mark.rule("cen:barb.tribe")
def test_reading_a_tribesman_is_isolated_only_among_units_of_other_tribes():
    s, ctx, st = fresh("gaul", barbarian_tribe="on")
    barb = next(x for x in st.sides if options.is_barbarian(st, x))
    clear(st)
    bis = [u for u in st.units.values() if u.side == barb and u.type == "BI" and u.group]
    a = put(st, bis[0].id, "1510", "N")
    assert not options.isolated_tribesman(st, a)  # alone in the field: not "among units of other tribes"
    other = put(st, next(u for u in bis if u.group != a.group).id, "1610", "N")
    assert options.isolated_tribesman(st, a)
    put(st, next(u for u in bis if u.group == a.group and u is not a).id, "1511", "N")
    assert not options.isolated_tribesman(st, a) and other.hex is not None


# ------------------------------------------------------------------ readings: rally "adjacent to its front"


@pytest.mark.rule("cen:full.panic")
def test_reading_a_rallier_intercepts_ahead_of_the_panicked_unit_whatever_its_own_facing():
    """Panic E: ralliers "intercept the panicked units by placing themselves in the same hex or
    adjacent to its front": the panicked unit's front, the way it runs."""
    s, ctx, st = fresh()
    clear(st)
    ro = "romans"
    st.active = ro
    v = put(st, first(st, ro, "SD", 1).id, "1010", "S")  # runs south
    v.panicked = True
    cm = put(st, first(st, ro, "CM").id, "1009", "S")  # behind it, facing it
    ctx.chance.force(3)
    morale.rally(ctx, st, ro)
    assert v.panicked  # no attempt from behind
    put(st, cm.id, "1011", "S")  # ahead of it, its back to it
    ctx.chance.force(3)
    morale.rally(ctx, st, ro)
    assert not v.panicked and v.rallied


# ------------------------------------------------------------------ readings: square fire protection


@pytest.mark.rule("cen:full.square", "cen:full.fire-protection")
def test_reading_a_square_is_fired_on_through_its_front_from_every_side():
    """Square A, C: an "all-around defensive formation" has a front on every side, so its
    units protect at their frontal 2 from any direction (case G: "2 per unit facing front")."""
    s, ctx, st, ro, nu = _numidia("numidians")
    sq = [put(st, first(st, ro, "SD", i).id, "1010", "N") for i in range(2)]
    for u in sq:
        u.in_square = True
    sk = put(st, first(st, nu, "SK", 0).id, "1011", "N")  # behind the square's counters
    n0 = len(s.log)
    ctx.chance.force(6)
    fire_phase.offensive_fire_phase(ctx, st, nu, [combat.Attack(sq[0].hex, "fire", [sk.id])])
    text = next(e.text for e in s.log.since(n0) if "fire at 1010" in e.text and "protection" in e.text)
    assert "against protection 4" in text, text  # 2 + 2, not the flank 1 + 1


# ------------------------------------------------------------------ readings: a square dispersed by fire or by melee


@pytest.mark.rule("cen:full.square", "cen:full.combat")
def test_reading_swordsmen_dispersed_by_fire_drop_out_of_the_square_as_by_melee():
    """Fire strikes the whole hex (square C's half-strength limit is the Melee Defense
    Factor's); dispersed Swordsmen keep no formation, whichever attack dispersed them."""
    s, ctx, st, ro, nu = _numidia("numidians")
    sq = [put(st, first(st, ro, "SD", i).id, "1010", "N") for i in range(2)]
    other = put(st, first(st, ro, "SK", 0).id, "1010", "N")
    for u in (*sq, other):
        u.in_square = True
    sk = put(st, first(st, nu, "SK", 0).id, "1009", "S")
    ctx.chance.force(2)  # 2 x 3 (FEM) against 2 + 2 + 2 at 1-1: roll 2, dispersed
    fire_phase.offensive_fire_phase(ctx, st, nu, [combat.Attack(sq[0].hex, "fire", [sk.id])])
    assert all(u.dispersed for u in (*sq, other))
    assert not any(u.in_square for u in (*sq, other))  # was: still "in square" though dispersed


# ------------------------------------------------------------------ readings: earthworks on turns the builders are attacked


@pytest.mark.rule("cen:opt.earthworks", "cen:full.combat")
def test_reading_a_turn_in_which_the_builders_are_attacked_does_not_count_towards_the_works():
    """Earthworks: "occupying a hex for three turns uninterrupted by combat ... If they survive,
    they may continue working where they left off": the attacked turn is lost, the rest kept."""
    s, ctx, st, ro, nu = _numidia("romans", earthworks="on")
    u = put(st, first(st, ro, "SD").id, "1510", "N")
    h = u.hex
    u.building = 1
    st.extra.setdefault("full_works", {})[h] = ("earthworks", [u.id])
    works.progress_works(ctx, st, ro)
    assert u.building == 2
    st.begin_player_turn(nu)
    sk = put(st, first(st, nu, "SK", 0).id, "1509", "S")
    ctx.chance.force(6)  # no effect: the builders survive
    fire_phase.offensive_fire_phase(ctx, st, nu, [combat.Attack(h, "fire", [sk.id])])
    assert not u.dispersed and not u.eliminated
    st.begin_player_turn(ro)
    works.progress_works(ctx, st, ro)
    assert u.building == 2  # interrupted: this turn does not count, the work done stays
    assert any("interrupted by combat" in e.text and e.rules == ("cen:opt.earthworks",) for e in s.log.since(0))
    works.progress_works(ctx, st, ro)
    works.progress_works(ctx, st, ro)
    assert "earthworks" in st.markers[h] and u.building == 0


# ------------------------------------------------------------------ readings: a barbarian chief without the Command rules


def _gaul_attack(chief_hex: str):
    s = Session.new("centurion", "gaul", seed=3)
    st, ctx = s.state, s.ctx
    combat.combat_tables(ctx, st)
    barb = next(x for x in st.sides if options.is_barbarian(st, x))
    ro = st.opponent(barb)
    assert not options.active(st, "cen:opt.command")
    clear(st)
    st.begin_player_turn(barb)
    bi = put(st, next(u for u in st.units.values() if u.side == barb and u.type == "BI").id, "1010", "N")
    foe = put(st, next(u for u in st.units.values() if u.side == ro and u.type == "SD").id, "1009", "S")
    chief = put(st, next(u for u in st.units.values() if u.side == barb and u.type == "CM").id, chief_hex, "N")
    return s, ctx, st, barb, ro, bi, foe, chief


def _melee(ctx, st, side, attacks):
    gen = melee_phase.melee_phase(ctx, st, side, attacks)
    try:
        next(gen)
    except StopIteration:
        pass


@pytest.mark.rule("cen:full.demoralization", "cen:full.combat")
def test_reading_without_the_command_rules_a_chief_who_could_not_attack_does_not_demoralize():
    """Demoralization: "A Barbarian COMMAND UNIT fails to participate in an attack during a turn
    when its forces are engaged". Without the Command Unit Rules a Command unit may melee only
    dispersed units and enemy Command units, so a chief with no such attack open has not failed."""
    s, ctx, st, barb, ro, bi, foe, chief = _gaul_attack("1510")
    ctx.chance.force(3)
    _melee(ctx, st, barb, [combat.Attack(foe.hex, "melee", [bi.id])])
    assert book(st).attacks == 1 and chief.id not in book(st).cmd_attacked
    morale.end_of_player_turn_morale(ctx, st, barb, {barb: True, ro: False})
    assert not any("took no part" in e.text for e in s.log.since(0))


@pytest.mark.rule("cen:full.demoralization", "cen:full.combat")
def test_reading_without_the_command_rules_a_chief_who_could_attack_a_dispersed_foe_must():
    s, ctx, st, barb, ro, bi, foe, chief = _gaul_attack("1110")
    chief.facing = st.numbering.direction_from_name("NW")
    st.disperse(foe, 1)
    assert foe.hex in units.melee_targets(st, chief)
    ctx.chance.force(3)
    _melee(ctx, st, barb, [combat.Attack(foe.hex, "melee", [bi.id])])
    morale.end_of_player_turn_morale(ctx, st, barb, {barb: True, ro: False})
    assert any("took no part" in e.text and e.rules == ("cen:full.demoralization",) for e in s.log.since(0))


# ------------------------------------------------------------------ readings: case J with an attack no unit fronts


@pytest.mark.rule("cen:full.combat", "cen:full.facing")
def test_reading_an_attack_no_defender_fronts_is_still_a_separate_battle_met_at_flank_value():
    """Case J: attacks from more than one side "are treated separately ... If this is not possible,
    one or more of the defending units must defend as if on a front/flank attack"."""
    s, ctx, st, ro, nu = _numidia("romans")
    d1 = put(st, first(st, nu, "SP", 0).id, "1510", "N")
    d2 = put(st, first(st, nu, "SK", 0).id, "1510", "NE")
    a1 = put(st, first(st, ro, "SD", 0).id, "1509", "S")  # on both defenders' front
    a2 = put(st, first(st, ro, "SD", 1).id, "1511", "N")  # on neither's front
    split = melee_phase.split_battles(st, combat.Attack(d1.hex, "melee", [a1.id, a2.id]))
    assert split is not None and len(split) == 2  # was None: one combined battle
    met = {tuple(u.id for u in att): [d.id for d in dfs] for att, dfs in split}
    assert len(met[(a1.id,)]) == 1 and len(met[(a2.id,)]) == 1
    flank = st.units[met[(a2.id,)][0]]
    att, dfn, _, _ = combat.melee_sides(st, ro, combat.Attack(d1.hex, "melee", [a2.id]), only_defenders=[flank])
    assert dfn == st.types[flank.type].melee_defence_flank


@pytest.mark.rule("cen:full.square", "cen:full.panic")
def test_16_panicked_swordsmen_drop_out_of_their_square_and_run_alone():
    """Panicked units "turn tail and run" one by one (panic A); a square moves only whole, so
    panic takes its units out of it instead of letting one run off still "in square"."""
    s, ctx, st, ro, sq = _roman_square("1518", 2)
    put(st, first(st, "numidians", "SK").id, "1514", "S")
    broke = morale.start_panic(ctx, st, ro)
    assert set(sq) <= set(broke)
    assert not any(u.in_square for u in sq)
