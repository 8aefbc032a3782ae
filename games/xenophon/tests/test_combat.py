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


# ================================================================= battles on the game state

from collections.abc import Callable, Generator, Mapping  # noqa: E402
from typing import Any  # noqa: E402

from ancients_kit import testing  # noqa: E402
from ancients_kit.data import DataStore  # noqa: E402
from ancients_kit.log import Log  # noqa: E402
from ancients_kit.session import Context, Decision  # noqa: E402
from ancients_games.xenophon import PACKAGE  # noqa: E402
from ancients_games.xenophon.odds import parse_force  # noqa: E402
from ancients_games.xenophon.setup import build  # noqa: E402
from ancients_games.xenophon.state import EMPIRE, NEUTRAL, REBEL, XenState, load_data  # noqa: E402

STORE = DataStore(PACKAGE)
XDATA = load_data(STORE)
CENTRE = "0447"  # a clear hex of Greater India whose neighbours and theirs are clear, without hexside features
Answer = str | Callable[[Decision], str]


def fresh(seed: int = 1, **options: Any) -> tuple[Context, XenState]:
    """Cyrus' Revolt with every unit off the map (tests place what they need)."""
    ctx = Context(STORE, options, seed, Log())
    state = build(ctx, XDATA, "cyrus-revolt")
    for u in list(state.on_map()):
        state.to_mix(u.id)
    state.phase = "operations"
    return ctx, state


def units(state: XenState, side: str, type_: str, n: int, guard: bool = False) -> list[str]:
    """``n`` unit IDs of ``side`` and ``type_`` from the counter mix."""
    out = [u.id for u in state.units.values() if u.side == side and u.type == type_ and u.where == "mix"
           and u.guard == guard and not u.leader]
    assert len(out) >= n, (side, type_, n)
    return out[:n]


def put(state: XenState, hex_id: str, *uids: str) -> list[str]:
    for u in uids:
        state.place(u, hex_id)
    return list(uids)


def drive(gen: Generator[Decision, str, Any], answers: Mapping[str, Answer] | None = None) -> tuple[Any, list[Decision]]:
    """Run a rules generator with answers by decision kind (a key or a function of the decision);
    windows not named are declined; returns its value and the decisions asked
    (:func:`ancients_kit.testing.drive` with answers by kind)."""
    asked, value = testing.drive(gen, dict(answers or {}))
    return value, asked


def duel(attack: str, defend: str, seed: int = 1, **options: Any) -> tuple[Context, XenState, str, list[str], list[str]]:
    """Rebel units (``2militia+cavalry``, as ``ancients odds`` reads a force) west of
    :data:`CENTRE` and Empire units in it."""
    ctx, st = fresh(seed, **options)
    origin = west(st, CENTRE)
    att = put(st, origin, *force(st, REBEL, attack))
    return ctx, st, origin, att, put(st, CENTRE, *force(st, EMPIRE, defend))


def force(st: XenState, side: str, text: str) -> list[str]:
    types = parse_force(text, "force", st.data.units)
    return [u for t in dict.fromkeys(types) for u in units(st, side, t, types.count(t))]


def first(d: Decision) -> str:
    return d.options[0].key


def west(state: XenState, h: str) -> str:
    return state.neighbours(h)[0]


@pytest.mark.rule("xen:combat", "xen:crt")
def test_engagement_az_eliminates_the_attackers_and_the_defender_draws_two() -> None:
    ctx, st, origin, att, dfn = duel("2militia", "2militia")
    before = len(st.hands[EMPIRE])
    ctx.chance.force(1)  # the CRT roll: 4 against 4 is 1:1, roll 1 = AZ
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "stand"})
    assert (out.result, out.crt, out.odds) == ("AZ", "engagement", "1:1")
    assert out.attackers == () and out.hex is None and not out.cleared
    assert all(st.unit(u).where == "mix" for u in att) and all(st.unit(u).hex == CENTRE for u in dfn)
    assert len(st.hands[EMPIRE]) == before + 2
    # militia only: Engagement without asking; of the windows (Bribery, Military Advantage, Consult
    # Oracles) only those where a side holds a play ask anything
    assert [d.kind for d in asked if not d.kind.startswith("window.")] == ["combat.withdraw"]
    windows = [d for d in asked if d.kind.startswith("window.")]
    assert [d.kind for d in windows] == ["window.before-odds"]
    assert all(set(d.keys) - {"no", "turn", "never"} for d in windows)
    ev = next(e for e in ctx.log if e.kind == "combat")
    assert "xen:crt" in ev.rules and ev.data["result"] == "AZ"


@pytest.mark.rule("xen:combat", "xen:crt", "xen:retreats")
def test_dr_retreats_the_defender_one_hex_and_clears_the_hex() -> None:
    ctx, st, origin, att, dfn = duel("4militia", "1militia")  # CS 8 CS 2: 4:1
    ctx.chance.force(2)  # >=4:1, roll 2 = DR
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "stand", "combat.retreat": first})
    assert out.result == "DR" and out.cleared and out.hex == origin
    dest = st.unit(dfn[0]).hex
    assert dest in st.neighbours(CENTRE) and dest not in (*st.neighbours(origin), origin)  # never into the EZOC
    assert any(d.kind == "combat.retreat" for d in asked)


@pytest.mark.rule("xen:crt", "xen:retreats")
def test_ad_loses_half_the_raw_sp_rounded_up_then_retreats_d6_and_the_defender_draws_one() -> None:
    ctx, st = fresh()
    origin = west(st, CENTRE)
    ph = units(st, REBEL, "phalanx", 1)
    mi = units(st, REBEL, "militia", 2)
    att = put(st, origin, *ph, *mi)  # CS 12: need 6
    put(st, CENTRE, *units(st, EMPIRE, "phalanx", 2))  # CS 16: 12:16 is 1:2 -> roll 3 AD
    before = len(st.hands[EMPIRE])
    ctx.chance.force(3, 2)  # CRT roll 3 (AD at 1:2), retreat 2 hexes
    out, asked = drive(combat.battle(ctx, st, att, CENTRE),
                       {"combat.withdraw": "stand", "combat.loss": ph[0], "combat.retreat": first})
    assert out.result == "AD" and out.odds == "1:2"
    assert st.unit(ph[0]).where == "mix" and all(st.unit(u).where == "map" for u in mi)
    assert sum(1 for d in asked if d.kind == "combat.loss") == 1  # 8 SP >= 6: one pick
    walked = next(e for e in ctx.log if e.kind == "retreat")
    assert len(walked.data["path"]) == 3 and len(set(walked.data["path"])) == 3
    assert len(st.hands[EMPIRE]) == before + 1


@pytest.mark.rule("xen:crt")
def test_ad_with_militia_picks_until_half_is_reached() -> None:
    ctx2, st2 = fresh()
    origin = west(st2, CENTRE)
    att = put(st2, origin, *units(st2, REBEL, "militia", 4))  # CS 8 vs 16: 1:2, roll 3 = AD, need 4: two militia
    put(st2, CENTRE, *units(st2, EMPIRE, "phalanx", 2))
    ctx2.chance.force(3, 1)
    out, asked = drive(combat.battle(ctx2, st2, att, CENTRE),
                       {"combat.withdraw": "stand", "combat.loss": first, "combat.retreat": first})
    assert out.result == "AD"
    assert sum(1 for d in asked if d.kind == "combat.loss") == 2
    assert len(out.attackers) == 2


@pytest.mark.rule("xen:combat")
def test_withdrawal_before_battle_walks_exactly_the_roll_and_ends_the_battle() -> None:
    ctx, st, origin, att, dfn = duel("2militia", "1cavalry")  # OV 8 OV 20
    ctx.chance.force(1, 6, 3)  # defender 1 + 20 beats attacker 6 + 8; withdraw 3 hexes
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "withdraw",
                                                            "combat.withdrawal": first})
    assert out.result == "withdrew" and out.cleared and out.crt == ""
    path = next(e for e in ctx.log if e.kind == "withdrawal" and "path" in e.data).data["path"]
    assert path[0] == CENTRE and len(path) == 4 and len(set(path)) == 4
    assert st.unit(dfn[0]).hex == path[-1]
    assert not any(e.kind == "combat" for e in ctx.log)  # no CRT read


@pytest.mark.rule("xen:combat")
def test_a_tied_withdrawal_roll_stands_and_fights() -> None:
    ctx, st, origin, att, dfn = duel("2militia", "2militia")
    ctx.chance.force(4, 4, 3)  # 4 + 8 ties 4 + 8: no withdrawal; CRT roll 3 at 1:1 = AR
    out, _ = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "withdraw", "combat.retreat": first})
    assert out.result == "AR" and out.hex != origin and out.hex in st.neighbours(origin)


@pytest.mark.rule("xen:combat", "xen:crt")
def test_attacking_neutral_units_gives_their_satrapy_to_the_other_player() -> None:
    ctx, st = fresh()
    origin = west(st, CENTRE)
    assert st.control["Greater India"] == NEUTRAL
    att = put(st, origin, *units(st, REBEL, "phalanx", 2))
    dfn = put(st, CENTRE, *[u.id for u in st.units.values() if u.satrapy == "Greater India"][:1])
    ctx.chance.force(3)
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "stand", "combat.retreat": first})
    assert st.control["Greater India"] == EMPIRE and st.unit(dfn[0]).side == EMPIRE
    assert next(d for d in asked if d.kind == "combat.withdraw").side == EMPIRE  # the new owner decides
    assert any(e.kind == "control" and "xen:control" in e.rules for e in ctx.log)


@pytest.mark.rule("xen:combat", "xen:crt", "xen:retreats")
def test_a_city_doubles_the_defender_and_lets_it_ignore_a_retreat() -> None:
    ctx, st = fresh()
    city = st.data.map.to_id(st.data.map.place("Sardis"))
    origin = next(n for n in st.neighbours(city) if st.data.terrain[n] == "clear" and not st.is_city(n))
    att = put(st, origin, *units(st, REBEL, "phalanx", 4))  # CS 32
    dfn = put(st, city, *units(st, EMPIRE, "cavalry", 2))  # CS 12 x2 (a City) = 24: 4:3 is 1:1
    ctx.chance.force(3)  # roll 3 at 1:1 = AR: the attacker retreats
    out, asked = drive(combat.battle(ctx, st, att, city), {"combat.withdraw": "stand", "combat.retreat": first})
    assert out.odds == "1:1" and out.result == "AR" and out.hex != origin
    ev = next(e for e in ctx.log if e.kind == "combat")
    assert "32 against 24" in ev.text and "a City" in ev.text
    ctx, st = fresh()
    att = put(st, origin, *units(st, REBEL, "phalanx", 4))  # 32 against 12: 2:1, roll 2 = DR
    dfn = put(st, city, *units(st, EMPIRE, "cavalry", 1))
    ctx.chance.force(2)
    out, asked = drive(combat.battle(ctx, st, att, city), {"combat.withdraw": "stand", "combat.hold": "hold"})
    assert out.result == "DR" and all(st.unit(u).hex == city for u in dfn) and not out.cleared


@pytest.mark.rule("xen:retreats")
def test_a_force_with_no_retreat_is_eliminated() -> None:
    ctx, st, origin, att, dfn = duel("4militia", "1militia")
    # every other neighbour of the defender is next to a Rebel unit: all EZOC
    for n in st.neighbours(CENTRE):
        if n != origin:
            for nn in st.neighbours(n):
                if nn != CENTRE and not st.units_at(nn):
                    put(st, nn, *units(st, REBEL, "militia", 1))
    ctx.chance.force(2)  # DR
    out, _ = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "stand"})
    assert out.result == "DR" and st.unit(dfn[0]).where == "mix" and out.cleared


@pytest.mark.rule("xen:combat", "xen:leaders")
def test_crt_choice_is_asked_when_the_composition_allows_more_than_one() -> None:
    ctx, st = fresh()
    origin = west(st, CENTRE)
    att = put(st, origin, *units(st, REBEL, "phalanx", 2), *units(st, REBEL, "cavalry", 2), "Ariaos")
    put(st, CENTRE, *units(st, EMPIRE, "militia", 4))
    ctx.chance.force(6)
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "stand", "combat.crt": "skirmish",
                                                            "combat.loss": first, "combat.retreat": first})
    crt = next(d for d in asked if d.kind == "combat.crt")
    assert crt.keys == ("engagement", "skirmish", "combined-arms")
    # (16 + 12 + 4) x2 (a leader) = 64 against 8: >=4:1 on the Skirmish CRT, roll 6 (rebuilt row) = DD
    assert out.crt == "skirmish" and out.odds == ">=4:1" and out.result == "DD"


@pytest.mark.rule("xen:combat")
def test_bad_attacks_are_refused_naming_the_rule() -> None:
    ctx, st = fresh()
    origin = west(st, CENTRE)
    att = put(st, origin, *units(st, REBEL, "militia", 1))
    with pytest.raises(ValueError, match="xen:combat"):
        next(combat.battle(ctx, st, att, CENTRE))  # nothing there
    far = st.neighbours(st.neighbours(CENTRE)[3])[3]
    put(st, far, *units(st, EMPIRE, "militia", 1))
    with pytest.raises(ValueError, match="adjacent"):
        next(combat.battle(ctx, st, att, far))
    with pytest.raises(ValueError, match="xen:combat"):
        next(combat.battle(ctx, st, [], CENTRE))


@pytest.mark.rule("xen:combat")
def test_the_bot_scores_prefer_withdrawing_from_a_lost_battle_and_the_best_crt() -> None:
    ctx, st = fresh()
    origin = west(st, CENTRE)
    att = put(st, origin, *units(st, REBEL, "phalanx", 2), *units(st, REBEL, "cavalry", 2))
    put(st, CENTRE, *units(st, EMPIRE, "light", 1))  # OV 24 against 20: P 26/36 to get away
    gen = combat.battle(ctx, st, att, CENTRE)
    d = next(gen)
    while d.kind.startswith("window."):
        d = gen.send("no")
    assert d.kind == "combat.withdraw"
    assert combat.score(st, d, "withdraw") > combat.score(st, d, "stand")  # 28 against 4
    d = gen.send("stand")
    while d.kind.startswith("window."):
        d = gen.send("no")
    assert d.kind == "combat.crt"
    scores = {k: combat.score(st, d, k) for k in d.keys}
    assert max(scores, key=scores.get) == combat.best_crt(st.data.tables, d.keys, 28, 4)
    assert combat.score(st, Decision("rebel", "x", (combat.Option("a"),), kind="move"), "a") is None


@pytest.mark.rule("xen:combat", "xen:crt")
def test_battle_report_before_declaring() -> None:
    ctx, st, origin, att, dfn = duel("2militia", "2militia")
    r = combat.battle_report(st, att, CENTRE)
    assert r.distribution == TABLES["engagement"].distribution(4, 4)
    assert "P = 15/36" in r.explain[1] or "P = 5/12" in r.explain[1]
    with pytest.raises(ValueError, match="xen:combat"):
        combat.battle_report(st, att, origin)


@pytest.mark.rule("xen:crt")
def test_dz_dm_and_dd_against_the_defender() -> None:
    # DZ: Combined Arms at >=4:1, roll 4 (rebuilt row): every defender eliminated, the attacker draws 2
    ctx, st = fresh()
    origin = west(st, CENTRE)
    att = put(st, origin, *units(st, REBEL, "phalanx", 2), *units(st, REBEL, "light", 2))  # 24
    dfn = put(st, CENTRE, *units(st, EMPIRE, "militia", 2))  # 4: >=4:1
    n = len(st.hands[REBEL])
    ctx.chance.force(4)
    out, _ = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "stand", "combat.crt": "combined-arms"})
    assert out.result == "DZ" and out.cleared and all(st.unit(u).where == "mix" for u in dfn)
    assert len(st.hands[REBEL]) == n + 2
    # DM: Skirmish at 3:1, roll 2: the defender picks the unit it loses
    ctx, st = fresh()
    att = put(st, origin, *units(st, REBEL, "cavalry", 2))  # 12
    dfn = put(st, CENTRE, *units(st, EMPIRE, "militia", 1), *units(st, EMPIRE, "light", 1))  # 2 + 4 = 6: 2:1
    ctx.chance.force(3)  # Skirmish 2:1 roll 3 = DM
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "stand", "combat.crt": "skirmish",
                                                            "combat.loss": dfn[0]})
    assert out.result == "DM" and st.unit(dfn[0]).where == "mix" and st.unit(dfn[1]).hex == CENTRE
    assert next(d for d in asked if d.kind == "combat.loss").side == EMPIRE
    # DD: Combined Arms 2:1 roll 3: half the defender's SP, survivors retreat d6, the attacker draws 1
    ctx, st = fresh()
    att = put(st, origin, *units(st, REBEL, "phalanx", 2), *units(st, REBEL, "light", 2))  # 24
    dfn = put(st, CENTRE, *units(st, EMPIRE, "cavalry", 1), *units(st, EMPIRE, "militia", 3))  # 12: 2:1
    n = len(st.hands[REBEL])
    ctx.chance.force(3, 2)
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "stand", "combat.crt": "combined-arms",
                                                            "combat.loss": dfn[0], "combat.retreat": first})
    assert out.result == "DD" and st.unit(dfn[0]).where == "mix"  # the cavalry's 6 SP is half of 12
    assert all(st.unit(u).where == "map" and st.unit(u).hex != CENTRE for u in dfn[1:]) and out.cleared
    assert len(st.hands[REBEL]) == n + 1


@pytest.mark.rule("xen:combat")
def test_fleets_and_land_units_roll_together_but_withdraw_apart() -> None:
    ctx, st = fresh()
    coast = "0218"  # a clear coastal hex of Egypt, two sea hexes beside it
    origin = "0217"
    att = put(st, origin, *units(st, EMPIRE, "militia", 2))
    fleet = units(st, REBEL, "fleet", 1)
    land = units(st, REBEL, "light", 1)
    put(st, coast, *fleet, *land)
    ctx.chance.force(6, 1, 1)  # defender 6 + 24 beats 1 + 8; 1 hex each
    out, _ = drive(combat.battle(ctx, st, att, coast), {"combat.withdraw": "withdraw", "combat.withdrawal": first})
    assert out.result == "withdrew" and out.cleared
    fh, lh = st.unit(fleet[0]).hex, st.unit(land[0]).hex
    assert fh != lh and (st.data.terrain[fh] == "sea" or fh in st.data.coastal)
    assert st.data.terrain[lh] != "sea" and lh not in combat.ezoc(st, REBEL, False)
    # land EZOC does not block fleets, so the fleet could go where the light troops could not
    walks = [e for e in ctx.log if e.kind == "withdrawal" and "path" in e.data]
    assert len(walks) == 2


def _give(state: XenState, side: str, chit: str) -> None:
    state.pool.remove(chit)
    state.hands[side].add(chit)


@pytest.mark.rule("xen:combat", "xen:stratagem")
def test_bribery_forbids_the_withdrawal_and_military_advantage_multiplies() -> None:
    ctx, st, origin, att, dfn = duel("2militia", "1light")  # 4, x2 with Military Advantage 4
    st.hands[REBEL] = type(st.hands[REBEL])(REBEL, 15, limit_rule="xen:stratagem")
    _give(st, REBEL, "Bribery")
    _give(st, REBEL, "Military Advantage")

    def window(d: Decision) -> str:
        want = {"window.battle": "bribery", "window.before-odds": "military-advantage"}.get(d.kind, "no")
        return want if want in d.keys else "no"

    ctx.chance.force(6)
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {
        "window.battle": window, "window.before-odds": window, "window.after-roll": "no",
        "combat.loss": first, "combat.retreat": first})
    assert not any(d.kind == "combat.withdraw" for d in asked)  # Bribery: no withdrawal offered
    ev = next(e for e in ctx.log if e.kind == "combat")
    assert "8 against 4" in ev.text and "Military Advantage" in ev.text and "xen:stratagem" in ev.rules
    assert len(st.hands[REBEL]) == 1  # both played, back to the pool; DD drew one


@pytest.mark.rule("xen:combat")
def test_decision_odds_for_an_attack_option() -> None:
    from ancients_games.xenophon import GAME

    ctx, st, origin, att, dfn = duel("2militia", "2militia")
    d = Decision(REBEL, "act", (combat.Option(f"attack:{CENTRE}"), combat.Option("end")), kind="ops.action",
                 context={"force": tuple(att)})
    r = GAME.decision_odds(st, d, f"attack:{CENTRE}")
    assert r is not None and r.distribution == TABLES["engagement"].distribution(1, 1)
    assert GAME.decision_odds(st, d, "end") is None
    gen = combat.battle(ctx, st, att, CENTRE)
    w = next(gen)
    while w.kind != "combat.withdraw":
        w = gen.send("no")
    r = GAME.decision_odds(st, w, "withdraw")
    assert r is not None and r.distribution == {"withdraws": Fraction(15, 36), "stands": Fraction(21, 36)}


@pytest.mark.rule("xen:combat")
def test_attack_value_weighs_multipliers_and_the_chance_to_get_away() -> None:
    ctx, st, origin, att, dfn = duel("4militia", "1militia")
    strong = combat.attack_value(st, att, CENTRE)
    assert strong > 0
    put(st, origin, "Ariaos")
    assert combat.attack_value(st, [*att, "Ariaos"], CENTRE) >= strong
    assert combat.attack_value(st, att, origin) == 0.0  # not an attack at all
    ctx, st = fresh()
    att = put(st, origin, *units(st, REBEL, "militia", 1))
    put(st, CENTRE, *units(st, EMPIRE, "phalanx", 2))
    assert combat.attack_value(st, att, CENTRE) < 0


@pytest.mark.rule("xen:combat", "xen:naval-combat")
def test_land_units_never_attack_fleets_at_sea_but_fleets_attack_the_coast() -> None:
    ctx, st = fresh()
    coast, sea = "0218", "0318"
    assert st.data.terrain[sea] == "sea"
    land = put(st, coast, *units(st, EMPIRE, "militia", 2))
    fleet = put(st, sea, *units(st, REBEL, "fleet", 1))
    with pytest.raises(ValueError, match="xen:naval-combat"):
        next(combat.battle(ctx, st, land, sea))
    ctx.chance.force(1)
    out, _ = drive(combat.battle(ctx, st, fleet, coast, rule_ids=("xen:naval-combat",)),
                   {"combat.withdraw": "stand", "combat.retreat": first, "combat.loss": first,
                    "combat.crt": "skirmish"})
    assert out.crt == "skirmish"  # a fleet is a Skirmish unit
    assert "xen:naval-combat" in next(e for e in ctx.log if e.kind == "combat").rules


@pytest.mark.rule("xen:retreats", "xen:naval-combat")
def test_a_fleet_retreats_with_its_cargo() -> None:
    ctx, st = fresh()
    coast, sea = "0218", "0318"
    put(st, coast, *units(st, EMPIRE, "militia", 4))  # 8
    fleet = put(st, sea, *units(st, REBEL, "fleet", 1))
    cargo = put(st, sea, *units(st, REBEL, "light", 1))
    st.unit(cargo[0]).embarked = fleet[0]
    ctx.chance.force(3)  # Engagement 8 against 8 (1:1), roll 3 = AR
    out, _ = drive(combat.battle(ctx, st, [*fleet, *cargo], coast, rule_ids=("xen:naval-combat",)),
                   {"combat.withdraw": "stand", "combat.crt": "engagement", "combat.retreat": first})
    assert out.result == "AR" and out.hex != sea
    assert st.unit(cargo[0]).hex == st.unit(fleet[0]).hex == out.hex and st.unit(cargo[0]).embarked == fleet[0]


@pytest.mark.rule("xen:combat")
def test_a_withdrawal_no_roll_can_win_is_not_offered() -> None:
    # "If defender's total is higher, he may withdraw": militia (OV 8) against light infantry
    # (OV 24) can never be higher (8 + 6 < 24 + 1), so trying decides nothing: no question
    ctx, st, origin, att, dfn = duel("light", "militia")
    assert combat.withdrawal_chance(8, 24) == 0
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {"combat.crt": "skirmish", "combat.loss": first,
                                                             "combat.retreat": first, "combat.hold": first})
    assert "combat.withdraw" not in [d.kind for d in asked]
    ev = next(e for e in ctx.log if e.kind == "withdrawal")
    assert "never beats" in ev.text and ev.rules == ("xen:combat",)
    # where a roll can win, the defender is asked
    ctx, st, origin, att, dfn = duel("militia", "militia")
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "stand"})
    assert "combat.withdraw" in [d.kind for d in asked]
