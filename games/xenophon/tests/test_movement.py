"""Xenophon movement on the real map: terrain costs, hexsides, ZOC, stacking, forced march."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_games.xenophon import movement as mv
from ancients_games.xenophon.model import load

DATA = load()
M = DATA.map
COSTS = mv.terrain_costs()


def H(hex_id: str):  # noqa: N802 - a printed hex ID, as the rules write it
    return M.from_id(hex_id)


@pytest.mark.rule("xen:movement")
def test_chart_read_from_the_data() -> None:
    assert COSTS.hex_cost == {"clear": 1, "desert": 2, "rough": 3, "pass": 1}
    assert (COSTS.river, COSTS.lake, COSTS.strait, COSTS.road, COSTS.zoc) == (2, 2, 4, Fraction(1, 2), 0)


@pytest.mark.rule("xen:movement", "xen:errata")
def test_two_road_hexes_cost_one_op() -> None:
    # The Royal Road out of Sardis: Sardis 2908 - Kelainai 2909 - 2910 (STRATEGIC_GAMES 4.2: two road hexes = 1 OP).
    path = [H("2908"), H("2909"), H("2910")]
    assert sum(mv.land_step_cost(M, COSTS, a, b) for a, b in zip(path, path[1:])) == 1
    reach = mv.force_reach(M, H("2908"), 1)
    assert reach.cost[H("2910")] == 1 and reach.path_to(H("2910")) == path


@pytest.mark.rule("xen:movement", "xen:errata")
def test_river_costs_two_more_and_a_road_bridges_it() -> None:
    a, b = H("2041"), H("2042")
    assert M.has_feature(a, b, "river") and M.terrain(b) == "clear"
    assert mv.land_step_cost(M, COSTS, a, b) == 1 + 2
    # Babylon 2221 - 2320: the road crosses the Euphrates (a bridge): 1/2, the river ignored.
    assert M.hexside_features(H("2221"), H("2320")) == {"road", "river"}
    assert mv.land_step_cost(M, COSTS, H("2221"), H("2320")) == Fraction(1, 2)


@pytest.mark.rule("xen:movement")
def test_lake_hexside_costs_two_more() -> None:
    a, b = H("2821"), H("2822")
    assert M.has_feature(a, b, "lake")
    assert mv.land_step_cost(M, COSTS, a, b) == COSTS.hex_cost[M.terrain(b)] + 2


@pytest.mark.rule("xen:movement")
def test_strait_costs_four_more_and_never_straight_into_ezoc() -> None:
    # The Bosporus at Byzantion (3209-3210) and the Hellespont (3107-3207), clear on both sides.
    assert mv.land_step_cost(M, COSTS, H("3209"), H("3210")) == 1 + 4
    assert mv.land_step_cost(M, COSTS, H("3107"), H("3207")) == 1 + 4
    free = mv.force_reach(M, H("3209"), 5)
    assert H("3210") in free
    # An enemy unit in 3211 puts 3210 in EZOC: the crossing may not end in it.
    ezoc = mv.enemy_zoc(M, [(H("3211"), False)])
    assert H("3210") in ezoc
    assert free.path_to(H("3210")) == [H("3209"), H("3210")] or free.cost[H("3210")] <= 5
    closed = mv.force_reach(M, H("3209"), 5, ezoc=ezoc)
    assert closed.path_to(H("3210")) != [H("3209"), H("3210")]  # overland by 3109 instead (the Marmara is land)
    assert closed.cost[H("3210")] == 2


@pytest.mark.rule("xen:movement")
def test_pass_one_from_its_ends_three_from_rough_and_rough_three() -> None:
    # The Cilician Gates (pass 2814): 1 OP from clear 2913, 3 OP from rough 2813.
    assert M.terrain(H("2814")) == "pass"
    assert mv.land_step_cost(M, COSTS, H("2913"), H("2814")) == 1
    assert mv.land_step_cost(M, COSTS, H("2813"), H("2814")) == 3
    assert M.terrain(H("2813")) == "rough" and mv.land_step_cost(M, COSTS, H("2713"), H("2813")) == 3
    desert = next(h for h in M.hexes_with("desert") if any(M.terrain(n) == "clear" and not M.hexside_features(n, h)
                                                          for n in M.neighbors(h)))
    src = next(n for n in M.neighbors(desert) if M.terrain(n) == "clear" and not M.hexside_features(n, desert))
    assert mv.land_step_cost(M, COSTS, src, desert) == 2


@pytest.mark.rule("xen:movement", "xen:naval")
def test_land_units_never_enter_sea_nor_cross_to_an_island() -> None:
    assert mv.land_step_cost(M, COSTS, H("2714"), H("2614")) is None  # 2614 is sea
    # Salamis on Cyprus (2613) touches Tarsos' coast (2713) on the grid, across the water.
    assert mv.all_sea_hexside(M, H("2613"), H("2713"))
    assert mv.land_step_cost(M, COSTS, H("2713"), H("2613")) is None
    assert H("2613") not in mv.force_reach(M, H("2713"), 30)
    # The Crimea is a peninsula: it joins Scythia by land.
    assert mv.land_step_cost(M, COSTS, H("3812"), H("3712")) == 1


@pytest.mark.rule("xen:naval", "xen:naval-transport")
def test_fleets_keep_to_coast_and_sea() -> None:
    assert mv.fleet_may_enter(M, H("2614")) and mv.fleet_may_enter(M, H("2713"))
    assert not mv.fleet_may_enter(M, H("2908"))  # Sardis is inland
    assert mv.fleet_may_cross(M, H("2713"), H("2613"))  # across the water to Cyprus
    # Two coastal hexes whose common side touches no water: an all-land hexside.
    coast = M.hexes_where("coastal")
    dry = [(a, b) for a in coast for b in M.neighbors(a) if b in coast and mv.all_land_hexside(M, a, b)]
    assert dry and all(not mv.fleet_may_cross(M, a, b) for a, b in dry)
    reach = mv.force_reach(M, H("2904"), 16, rate=1)
    assert reach.hexes and all(mv.fleet_may_enter(M, h) for h in reach.hexes)


@pytest.mark.rule("xen:naval-transport")
def test_naval_rate_one_from_a_port_two_elsewhere() -> None:
    ports = M.hexes_where("port")
    assert H("2904") in ports  # Athens
    assert mv.naval_rate(M, H("2904"), ports) == 1
    coastal_not_port = next(h for h in M.hexes_where("coastal") if h not in ports)
    assert mv.naval_rate(M, coastal_not_port, ports) == 2
    sea = H("2614")
    assert mv.naval_step_cost(M, 2, H("2714"), sea) == 2
    assert mv.naval_step_cost(M, 1, H("2714"), H("2813")) is None  # inland rough


@pytest.mark.rule("xen:zoc")
def test_zoc_land_fleet_and_shielded_cities() -> None:
    land = set(mv.zoc_of(M, H("2713"), False))  # Tarsos: coast of Cilicia
    assert H("2614") not in land and H("2613") not in land  # not to sea, not across to Cyprus
    assert H("2813") in land
    fleet = set(mv.zoc_of(M, H("2713"), True))
    assert H("2614") in fleet and H("2813") not in fleet  # fleets: not into all-land hexes
    # ZOCs never extend into a City held by the other side.
    ez = mv.enemy_zoc(M, [(H("2813"), False)], shielded={H("2713")})
    assert H("2713") not in ez and H("2814") in ez


@pytest.mark.rule("xen:zoc", "xen:errata")
def test_ezoc_costs_nothing_stops_and_no_ezoc_to_ezoc() -> None:
    start = H("2908")  # Sardis
    ez = mv.enemy_zoc(M, [(H("3011"), False)])  # an enemy unit two hexes up the Royal Road
    reach = mv.force_reach(M, start, 6, ezoc=ez)
    free = mv.force_reach(M, start, 6)
    entered = H("2910")
    assert entered in ez
    assert reach.cost[entered] == free.cost[entered]  # entering costs 0 (errata)
    assert entered in reach.stopped
    # Stopped on entering: no path goes on through an EZOC hex.
    assert all(not set(reach.path_to(h)[1:-1]) & ez for h in reach.hexes)
    assert any(entered in free.path_to(h)[1:-1] for h in free.hexes)
    # A force beginning in EZOC may leave, but not straight into another EZOC hex.
    out = mv.force_reach(M, entered, 6, ezoc=ez)
    first_steps = {out.path_to(h)[1] for h in out.hexes}
    assert first_steps and not first_steps & ez


@pytest.mark.rule("xen:stacking", "xen:movement")
def test_stacking_ten_and_enemy_hexes_closed() -> None:
    assert mv.stack_room(7, 3) and not mv.stack_room(8, 3)
    full = {H("2909"): 0}
    reach = mv.force_reach(M, H("2908"), 1, room=full, size=1)
    assert H("2909") not in reach
    blocked = mv.force_reach(M, H("2908"), 1, blocked={H("2909")})
    assert H("2909") not in blocked and H("2909") in mv.force_reach(M, H("2908"), 1)
