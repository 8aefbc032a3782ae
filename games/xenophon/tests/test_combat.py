"""Combat (xen:combat, xen:crt, xen:retreats) against the real tables and map."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_games.xenophon import combat
from ancients_games.xenophon.model import load, load_tables

TABLES = load_tables()
DATA = load()
MAP = DATA.map


@pytest.mark.rule("xen:combat")
def test_crt_choice_by_composition_worked_example() -> None:
    # STRATEGIC_GAMES.md 4.2: 4 Phalanx + 2 Cavalry + 2 Militia: Combined Arms but not Skirmish
    force = ["phalanx"] * 4 + ["cavalry"] * 2 + ["militia"] * 2
    assert combat.crt_choices(force) == ("engagement", "combined-arms")


@pytest.mark.rule("xen:combat")
def test_crt_choice_counts_units_not_cs_and_ignores_leaders_and_trains() -> None:
    # 1 cavalry + 1 militia: half mobile -> Skirmish; leaders and trains do not count
    assert combat.crt_choices(["cavalry", "militia", "leader", "siege_train", "supply_train"]) == (
        "engagement", "skirmish")
    # 1 cavalry + 2 militia: a third mobile -> Engagement only
    assert combat.crt_choices(["cavalry", "militia", "militia", "leader", "leader"]) == ("engagement",)
    # fleets count as mobile (xen:combat lists them with cavalry and light troops)
    assert "skirmish" in combat.crt_choices(["fleet", "fleet", "phalanx"])
    # 2 phalanx + 1 light + 1 militia: half phalanx, half the rest mobile -> Combined Arms (and no Skirmish)
    assert combat.crt_choices(["phalanx", "phalanx", "light", "militia"]) == ("engagement", "combined-arms")
    # 2 phalanx + 2 militia: the remainder has no mobile unit
    assert combat.crt_choices(["phalanx", "phalanx", "militia", "militia"]) == ("engagement",)
    # only phalanxes: nothing to combine (ruling)
    assert combat.crt_choices(["phalanx"] * 3) == ("engagement",)
    # a leader alone, or nothing counted: Engagement
    assert combat.crt_choices(["leader"]) == ("engagement",)
    # 1 phalanx + 1 cavalry: both tables
    assert combat.crt_choices(["phalanx", "cavalry"]) == ("engagement", "skirmish", "combined-arms")


@pytest.mark.rule("xen:combat", "xen:crt")
def test_multipliers_worked_example() -> None:
    # CS 10 with a leader, Military Advantage and a siege train, against a defender with terrain -> 40
    att = combat.multipliers(leader=True, advantage=True, siege=True, attacker=True, defender_terrain=True)
    assert len(att) == 3
    assert combat.multiplied(10, len(att)) == 40
    assert [combat.multiplied(10, n) for n in (0, 1, 2, 3)] == [10, 20, 30, 40]
    # the siege train counts only against a defender with the terrain multiplier
    assert combat.multipliers(siege=True, attacker=True, defender_terrain=False) == ()
    # terrain only for the defender, siege only for the attacker
    dfn = combat.multipliers(terrain="a city", siege=True, attacker=False, defender_terrain=True)
    assert [m.why for m in dfn] == ["defending in a city"]
    assert combat.multipliers(terrain="rough", attacker=True) == ()


@pytest.mark.rule("xen:combat")
def test_withdrawal_chances_worked_example() -> None:
    assert combat.withdrawal_chance(16, 16) == Fraction(15, 36)
    assert combat.withdrawal_chance(21, 16) == Fraction(35, 36)
    assert combat.withdrawal_chance(22, 16) == 1
    assert combat.withdrawal_chance(10, 16) == 0
    # a tie stands: every one of the 36 rolls either withdraws, ties or fails
    for diff in range(-6, 7):
        p = combat.withdrawal_chance(10 + diff, 10)
        q = 1 - combat.withdrawal_chance(10, 10 + diff) - p  # ties
        assert q == Fraction(6 - abs(diff), 36) if abs(diff) < 6 else q == 0


@pytest.mark.rule("xen:crt")
def test_engagement_printed_cells_through_the_battle_reading() -> None:
    t = TABLES["engagement"]
    assert combat.column(t, 4, 4) == "1:1"
    d = combat.crt_distribution(t, 4, 4)
    # printed 1/2/3 at 1:1: AZ/AD/AR, each 1/6
    assert d["AZ"] == d["AD"] >= Fraction(1, 6)
    assert combat.column(t, 40, 10) == ">=4:1"
    assert [t.resolve(40, 10, r).result for r in (1, 2, 3)] == ["AR", "DR", "DR"]
    # odds rounded for the defender: 7:5 is 1:1, 5:3 is 3:2, 2:7 is <=1:3
    assert [combat.column(t, a, d) for a, d in ((7, 5), (5, 3), (2, 7), (9, 2))] == ["1:1", "3:2", "<=1:3", ">=4:1"]
    # a defender without CS is read on the last column
    assert combat.column(t, 0, 0) == ">=4:1"
    assert combat.crt_distribution(t, 5, 0) == t.distribution(4, 1)


@pytest.mark.rule("xen:crt")
def test_half_sp_rounded_up() -> None:
    assert [combat.half_sp(n) for n in (0, 1, 7, 8, 30)] == [0, 1, 4, 4, 15]


def _river_without_road() -> tuple:
    for side in sorted(MAP.hexsides_with("river"), key=lambda s: tuple(sorted(s))):
        a, b = sorted(side)
        if "road" not in MAP.hexside_features(a, b) and MAP.terrain(a) != "sea" and MAP.terrain(b) != "sea":
            return a, b
    raise AssertionError("the map has no river hexside off a road")


@pytest.mark.rule("xen:combat", "xen:retreats")
def test_withdrawal_walker_on_the_real_map() -> None:
    a, b = _river_without_road()
    w = combat.walker(MAP, fleet=False, withdrawal=True, blocked=lambda h: False, stops=lambda h: False)
    assert b not in w.next_steps(a, 1).hexes  # never across a river off a road
    rough = next(h for h in MAP.hexes() if MAP.terrain(h) == "rough"
                 and any(MAP.terrain(n) == "clear" and not MAP.hexside_features(h, n) for n in MAP.neighbors(h)))
    start = next(n for n in MAP.neighbors(rough) if MAP.terrain(n) == "clear" and not MAP.hexside_features(rough, n))
    assert rough not in w.next_steps(start, 1).hexes  # a withdrawal never enters rough (not a pass)
    r = combat.walker(MAP, fleet=False, withdrawal=False, blocked=lambda h: False, stops=lambda h: False)
    assert rough in r.next_steps(start, 1).hexes  # a retreat may
    # exactly d6 hexes on a simple path: every walk of 3 has 4 distinct hexes
    for walk in list(w.walks(start, 3))[:200]:
        assert len(walk) == 4 == len(set(walk))
    # a blocked hex (enemy, neutral, EZOC) is never entered
    first = w.next_steps(start, 2).hexes[0]
    w2 = combat.walker(MAP, fleet=False, withdrawal=True, blocked=lambda h: h == first, stops=lambda h: False)
    assert first not in w2.next_steps(start, 2).hexes


@pytest.mark.rule("xen:combat")
def test_fleet_walker_keeps_to_sea_and_coast() -> None:
    port = MAP.place("Tyre")
    w = combat.walker(MAP, fleet=True, withdrawal=True, blocked=lambda h: False, stops=lambda h: False)
    for walk in list(w.walks(port, 2))[:300]:
        assert all(MAP.terrain(h) == "sea" or MAP.value(h, "coastal") for h in walk)
