"""Centurion movement engine: terrain costs, stacking, ZOC, roads, facing."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.data import DataStore
from ancients_kit.errors import IllegalAnswer
from ancients_kit.log import Log
from ancients_kit.session import Context

from ancients_games.centurion.movement import movable_reason, movement_phase
from ancients_games.centurion.reach import reachable, straight_run
from ancients_games.centurion.setup import sandbox_state

STORE = DataStore("ancients_games.centurion")


def ctx_for(seed: int = 1) -> Context:
    return Context(STORE, {}, seed, Log())


def ids(state, reach) -> set[str]:
    return {state.hid(h) for h in reach.cost}


@pytest.mark.rule("cen:basic.movement")
def test_clear_terrain_costs_one_per_hex():
    s = sandbox_state([("red", "SD", "0606")])
    r = reachable(s, s.units["RED-SD01"])
    home = s.hex_of("0606")
    dists = {h.distance(home) for h in r.cost}
    assert max(dists) == 4  # MFA 4 (Roman Swordsmen 4-4-4)
    assert all(r.mf(h) == h.distance(home) for h in r.cost)
    assert len(r.cost) == 3 * 4 * 5  # every hex within 4, the start excluded


@pytest.mark.rule("cen:basic.movement")
def test_terrain_entry_costs_from_the_chart():
    hills = {h: "hill" for h in ("0605", "0604", "0603")}
    s = sandbox_state([("red", "SD", "0606")], terrain=hills)
    r = reachable(s, s.units["RED-SD01"])
    up = s.hex_of("0605")
    assert r.mf(up) == 2
    assert r.mf(s.hex_of("0604")) == 4
    assert s.hex_of("0603") not in r.cost  # would be 6 through the hills; around costs 5
    chart = s.terrain_chart["hill"]
    assert chart.cost == 2


@pytest.mark.rule("cen:basic.movement", "cen:full.cross-river")
def test_river_hexside_adds_to_entry_cost_and_bridge_does_not():
    # one column of hexes, so there is no way round
    feats = {("0104", "0103"): ["river"], ("0104", "0105"): ["river", "bridge"]}
    s = sandbox_state([("red", "SD", "0104")], features=feats, columns=1, rows=8)
    r = reachable(s, s.units["RED-SD01"])
    assert r.mf(s.hex_of("0103")) == 1 + s.terrain_chart["river"].cost
    assert r.mf(s.hex_of("0102")) == 4
    assert s.hex_of("0101") not in r.cost
    assert r.mf(s.hex_of("0105")) == 1  # the bridge overrides the river


@pytest.mark.rule("cen:full.movement", "cen:basic.movement")
def test_road_rate_and_fractions_lost_leaving_the_road():
    road = [("0601", "0602"), ("0602", "0603"), ("0603", "0604")]
    s = sandbox_state([("red", "SD", "0601", "S")], features={p: ["road"] for p in road})
    r = reachable(s, s.units["RED-SD01"])
    half = s.terrain_chart["road"].cost
    assert half == Fraction(1, 2)
    assert r.mf(s.hex_of("0604")) == 3 * half
    # leaving the road after 3/2 MF: the half is lost, then 1 for the clear hex
    assert r.mf(s.hex_of("0605")) == 3


@pytest.mark.rule("cen:basic.movement")
def test_enemy_hexes_are_never_entered_or_passed():
    s = sandbox_state([("red", "LC", "0601"), ("blue", "SD", "0610")], columns=6, rows=12)
    r = reachable(s, s.units["RED-LC01"])
    assert s.hex_of("0610") not in r.cost


@pytest.mark.rule("cen:basic.stacking", "cen:basic.movement")
def test_stacking_three_and_command_units_free():
    units = [("red", "SD", "0606")] * 3 + [("red", "SD", "0608"), ("red", "CM", "0608")]
    s = sandbox_state(units)
    mover = s.units["RED-SD04"]
    r = reachable(s, mover)
    assert s.hex_of("0606") not in r.cost  # three already there (case F)
    assert s.stacking_count(s.hex_of("0606")) == 3
    cm = s.units["RED-CM01"]
    assert s.hex_of("0606") in reachable(s, cm).cost  # Command units do not count (B)


@pytest.mark.rule("cen:basic.stacking")
def test_no_passing_through_a_full_stack():
    # a corridor one hex wide: woods are impassable? no -- use enemies to wall it in
    units = [("red", "SD", "0102")] * 3 + [("red", "SD", "0101")]
    s = sandbox_state(units, columns=1, rows=6)
    r = reachable(s, s.units["RED-SD04"])
    assert r.cost == {}
    s2 = sandbox_state([("red", "SD", "0102")] * 2 + [("red", "SD", "0101")], columns=1, rows=6)
    r2 = reachable(s2, s2.units["RED-SD03"])
    assert {s2.hid(h) for h in r2.cost} == {"0102", "0103", "0104", "0105"}


@pytest.mark.rule("cen:basic.zoc")
def test_stop_on_entering_an_enemy_zone_of_control():
    s = sandbox_state([("red", "SD", "0601", "S"), ("blue", "SD", "0605")], columns=12, rows=8)
    r = reachable(s, s.units["RED-SD01"])
    zoc = s.zoc_hexes("blue")
    entered = [h for h in r.cost if h in zoc]
    assert entered  # it may enter the zone ...
    beyond = {h for h in r.cost if any(p in zoc for p in r.path(h)[1:-1])}
    assert not beyond  # ... but never move on from it


@pytest.mark.rule("cen:basic.zoc")
def test_adjacent_units_may_not_move_and_are_refused_with_the_rule():
    s = sandbox_state([("red", "SD", "0605"), ("red", "SD", "0601"), ("blue", "BI", "0606")])
    locked = s.units["RED-SD01"]
    why = movable_reason(s, locked)
    assert why is not None and why[1] == "cen:basic.zoc"
    gen = movement_phase(ctx_for(), s, "red")
    d = next(gen)
    assert "RED-SD01" not in d.keys and "RED-SD02" in d.keys
    with pytest.raises(IllegalAnswer) as exc:
        d.match("RED-SD01")
    assert exc.value.rule == "cen:basic.zoc"


@pytest.mark.rule("cen:basic.zoc")
def test_lone_command_unit_exerts_no_zoc_but_stacked_it_does():
    s = sandbox_state([("red", "SD", "0605"), ("blue", "CM", "0606")])
    assert movable_reason(s, s.units["RED-SD01"]) is None
    assert s.hex_of("0605") not in s.zoc_hexes("blue")
    s2 = sandbox_state([("red", "SD", "0605"), ("blue", "CM", "0606"), ("blue", "SK", "0606")])
    assert s2.hex_of("0605") in s2.zoc_hexes("blue")
    assert movable_reason(s2, s2.units["RED-SD01"])[1] == "cen:basic.zoc"


@pytest.mark.rule("cen:basic.movement", "cen:basic.stacking")
def test_moving_twice_and_overstacking_are_refused_with_rules():
    units = [("red", "SD", "0303")] * 3 + [("red", "SD", "0305"), ("red", "SK", "0308")]
    s = sandbox_state(units)
    gen = movement_phase(ctx_for(), s, "red")
    d = next(gen)
    assert d.kind == "move.unit" and "done" in d.keys
    d = gen.send("RED-SD04")
    assert d.kind == "move.hex"
    with pytest.raises(IllegalAnswer) as exc:
        d.match("0303")
    assert exc.value.rule == "cen:basic.stacking"
    with pytest.raises(IllegalAnswer) as exc:
        d.match("9999")
    assert exc.value.rule == "cen:basic.movement"
    d = gen.send("0306")
    assert s.units["RED-SD04"].hex == s.hex_of("0306")
    assert "RED-SD04" not in d.keys
    with pytest.raises(IllegalAnswer) as exc:
        d.match("RED-SD04")
    assert exc.value.rule == "cen:basic.movement" and "case I" in str(exc.value)


@pytest.mark.rule("cen:full.facing", "cen:full.movement")
def test_full_simulation_moves_to_the_front_and_pays_for_big_turns():
    s = sandbox_state([("red", "SD", "0606", "N")], version="full")
    u = s.units["RED-SD01"]
    r = reachable(s, u)
    north = s.hex_of("0605")
    south = s.hex_of("0607")
    assert r.cost[north] == 1 * r.scale  # straight ahead
    # to the rear: turn 180 degrees first (one Movement Factor), then step
    assert r.cost[south] == 2 * r.scale
    # turning in place by 60 degrees is free, by more costs one MF (F)
    here = r.facings[s.hex_of("0606")]
    assert here[1] == 0 and here[5] == 0 and here[3] == r.scale
    assert 0 not in here  # not moving and not turning is no move


@pytest.mark.rule("cen:full.facing")
def test_full_no_big_turn_after_spending_the_whole_allowance():
    s = sandbox_state([("red", "SD", "0610", "N")], version="full")
    r = reachable(s, s.units["RED-SD01"])
    far = s.hex_of("0606")  # four hexes straight north: the whole MFA
    assert r.cost[far] == 4 * r.scale
    assert set(r.facings[far]) == {5, 0, 1}  # at most 60 degrees on arrival (E)


@pytest.mark.rule("cen:full.contact", "cen:full.movement")
def test_full_units_in_contact_may_not_break_off():
    s = sandbox_state([("red", "SD", "0606"), ("blue", "SD", "0605", "S")], version="full")
    u = s.units["RED-SD01"]
    assert movable_reason(s, u) is None  # no ZOC in the Full Simulation
    u.contact.add("BLU-SD01")
    assert movable_reason(s, u)[1] == "cen:full.contact"


@pytest.mark.rule("cen:full.cavalry")
def test_straight_run_counts_the_final_straight_line():
    s = sandbox_state([("red", "BC", "0610", "N")], version="full")
    r = reachable(s, s.units["RED-BC01"])
    path = r.path(s.hex_of("0607"))
    assert straight_run(path) == 3
    assert straight_run(path[:1]) == 0


@pytest.mark.rule("cen:full.facing", "cen:full.cavalry")
def test_full_path_matches_the_chosen_facing():
    s = sandbox_state([("red", "LC", "0610", "N")], version="full")
    r = reachable(s, s.units["RED-LC01"])
    dest = s.hex_of("0606")
    for g, c in r.facings[dest].items():
        p = r.path(dest, g)
        assert p[0] == s.hex_of("0610") and p[-1] == dest
        assert all(a.is_adjacent(b) for a, b in zip(p, p[1:]))
        assert c >= (len(p) - 1) * r.scale


@pytest.mark.rule("cen:basic.movement")
def test_back_returns_to_the_unit_choice_without_spending_the_move():
    s = sandbox_state([("red", "SD", "0606"), ("red", "SK", "0303")])
    gen = movement_phase(ctx_for(), s, "red")
    next(gen)
    d = gen.send("RED-SD01")
    with pytest.raises(IllegalAnswer) as exc:
        d.match("done")
    assert "not a hex ID" in str(exc.value)
    d = gen.send("back")
    assert d.kind == "move.unit" and "RED-SD01" in d.keys
    assert not s.units["RED-SD01"].moved


@pytest.mark.rule("cen:basic.movement", "cen:basic.stacking")
def test_a_stack_moves_together_within_every_units_reach_and_room():
    units = [("red", "SD", "0606"), ("red", "LC", "0606"), ("red", "SD", "0603"), ("red", "SD", "0603")]
    s = sandbox_state(units)
    gen = movement_phase(ctx_for(), s, "red")
    d = next(gen)
    assert "0606" in d.keys and "0603" in d.keys
    d = gen.send("0606")
    dests = {k for k in d.keys if k not in ("stay", "back")}
    sd_reach = {s.hid(h) for h in reachable(s, s.units["RED-SD01"]).cost}
    assert dests < sd_reach  # the Swordsmen's allowance limits the stack; 0603 lacks room
    assert "0603" not in dests
    with pytest.raises(IllegalAnswer) as exc:
        d.match("0603")
    assert exc.value.rule == "cen:basic.stacking"
    d = gen.send("0605")
    assert s.units["RED-SD01"].hex == s.units["RED-LC01"].hex == s.hex_of("0605")
    assert s.units["RED-SD01"].moved and s.units["RED-LC01"].moved
    assert "0605" not in d.keys


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_HEX = st.tuples(st.integers(1, 8), st.integers(1, 8)).map(lambda cr: f"{cr[0]:02d}{cr[1]:02d}")


@pytest.mark.rule("cen:basic.movement", "cen:basic.zoc", "cen:basic.stacking")
@settings(max_examples=60, deadline=None)
@given(
    mover=st.sampled_from(["SD", "SK", "LC", "CM", "OC"]),
    start=_HEX,
    enemies=st.lists(_HEX, max_size=5),
    hills=st.lists(_HEX, max_size=10),
)
def test_every_reachable_path_is_legal(mover, start, enemies, hills):
    enemies = [e for e in enemies if e != start]
    units = [("red", mover, start)] + [("blue", "SD", e) for e in enemies]
    s = sandbox_state(units, columns=8, rows=8, terrain={h: "hill" for h in hills})
    u = s.units[f"RED-{mover}01"]
    r = reachable(s, u)
    budget = s.types[mover].basic.movement
    zoc = s.zoc_hexes("blue")
    for h, c in r.cost.items():
        assert 0 < c <= budget * r.scale
        p = r.path(h)
        assert p[0] == u.hex and p[-1] == h
        assert all(a.is_adjacent(b) for a, b in zip(p, p[1:]))
        assert not any(s.side_at(x) == "blue" for x in p)  # case G
        assert not any(x in zoc for x in p[1:-1])  # cen:basic.zoc A
        assert sum(s.terrain_chart[s.map.terrain(x)].cost for x in p[1:]) == r.mf(h)


@pytest.mark.rule("cen:full.facing", "cen:full.movement")
def test_full_movement_phase_asks_for_the_facing_and_applies_it():
    s = sandbox_state([("red", "SD", "0606", "N")], version="full")
    ctx = ctx_for()
    gen = movement_phase(ctx, s, "red")
    next(gen)
    d = gen.send("RED-SD01")
    assert "0605" in d.keys
    d = gen.send("0605")
    assert d.kind == "move.facing" and d.rule == "cen:full.facing"
    assert set(d.keys) == {"N", "NE", "SE", "S", "SW", "NW"}  # 3 MF left: any facing
    with pytest.raises(StopIteration):
        gen.send("S")
    u = s.units["RED-SD01"]
    assert u.hex == s.hex_of("0605") and u.facing == 3
    move = [e for e in ctx.log if e.kind == "move"][-1]
    assert "facing S" in move.text and "cen:full.facing" in move.rules and "(2 MF)" in move.text


def _refused(decision, text: str) -> IllegalAnswer:
    with pytest.raises(IllegalAnswer) as exc:
        decision.match(text)
    assert "is not a legal answer" not in str(exc.value), str(exc.value)
    return exc.value


@pytest.mark.rule("cen:full.facing", "cen:full.movement")
def test_full_facing_refusals_name_the_turn_rule_and_the_movement_factors():
    s = sandbox_state([("red", "SD", "0610", "N")], version="full")
    gen = movement_phase(ctx_for(), s, "red")
    next(gen)
    gen.send("RED-SD01")
    d = gen.send("0606")  # four hexes north: the whole allowance spent
    assert set(d.keys) == {"NW", "N", "NE"}
    err = _refused(d, "S")
    assert err.rule == "cen:full.facing"
    assert "more than 60 degrees" in str(err) and "needs 5 Movement Factors" in str(err) and "has 4" in str(err)
    err = _refused(d, "sideways")
    assert err.rule == "cen:full.facing" and "unknown direction" in str(err)


@pytest.mark.rule("cen:full.facing", "cen:full.movement")
def test_full_facing_refusal_at_the_start_hex_is_no_move():
    s = sandbox_state([("red", "SD", "0606", "N")], version="full")
    gen = movement_phase(ctx_for(), s, "red")
    next(gen)
    gen.send("RED-SD01")
    d = gen.send("0606")  # turn in place
    assert "N" not in d.keys and "S" in d.keys
    err = _refused(d, "N")
    assert err.rule == "cen:full.movement" and "no move" in str(err)


@pytest.mark.rule("cen:full.movement", "cen:full.facing")
def test_full_cannot_reach_states_the_movement_factors_needed_and_available():
    s = sandbox_state([("red", "SD", "0610", "N")], version="full", rows=16, terrain={"0607": "hill"})
    gen = movement_phase(ctx_for(), s, "red")
    next(gen)
    d = gen.send("RED-SD01")
    assert "0613" in d.keys  # three hexes behind: a paid turn (G), then three hexes: 4 MF
    err = _refused(d, "0604")  # six hexes north, one of them a hill (2 MF)
    assert err.rule == "cen:full.movement" and "needs 7 Movement Factors and has 4" in str(err)
    err = _refused(d, "0614")  # four hexes behind: a paid turn, then four hexes
    assert "needs 5 Movement Factors and has 4" in str(err) and "60 degrees" in str(err)


@pytest.mark.rule("cen:basic.movement", "cen:basic.zoc")
def test_basic_cannot_reach_states_the_movement_factors_needed_and_available():
    s = sandbox_state([("red", "SD", "0606"), ("blue", "SD", "0604")])
    gen = movement_phase(ctx_for(), s, "red")
    next(gen)
    d = gen.send("RED-SD01")
    err = _refused(d, "0106")  # five hexes west
    assert err.rule == "cen:basic.movement" and "needs 5 Movement Factors and has 4" in str(err)
    # beyond the enemy's Zone of Control: the way round (it may not pass a ZOC hex) is long
    assert "0603" not in d.keys
    err = _refused(d, "0602")
    assert "needs 6 Movement Factors and has 4" in str(err)
    err = _refused(d, "0604")
    assert "enemy units" in str(err) and "case G" in str(err)


@pytest.mark.rule("cen:full.cavalry", "cen:full.facing")
def test_charging_cavalry_paths_end_in_the_longest_straight_run_at_the_same_cost():
    from ancients_kit.hexgrid import direction_to

    s = sandbox_state([("red", "BC", "0610", "N")], version="full", rows=14)
    u = s.units["RED-BC01"]
    r = reachable(s, u)
    dest = s.hex_of("0411")
    # two ways cost 3 MF: NW, SW, S (free turns) or a paid turn to SW, then SW, SW
    assert r.facings[dest][4] == 3 * r.scale
    assert [s.hid(h) for h in r.path(dest, 4)] == ["0610", "0511", "0411"]
    assert straight_run(r.path(dest, 4)) == 2
    longer = 0
    for h in r.cost:
        for g, c in r.facings[h].items():
            p = r.path(h, g)
            # the path shown costs what the destination costs (clear terrain: 1 MF a hex, G: turns)
            spent, face = 0, u.facing
            for a, b in zip(p, p[1:]):
                d = direction_to(a, b)
                spent += 1 + ((d - face) % 6 not in (0, 1, 5))
                face = d
            spent += (g - face) % 6 not in (0, 1, 5)
            assert spent * r.scale == c, (s.hid(h), g, [s.hid(x) for x in p])
            run = straight_run(p) if len(p) > 1 and direction_to(p[-2], p[-1]) == g else 0
            longer += run >= 2
    assert longer > 20
