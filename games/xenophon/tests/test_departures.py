"""Issue 23, Xenophon: departures from the book fixed, readings settled, and the warnings.

Each departure's test failed before its fix. Leader losses on every path go
through the leader rules (``leaders.eliminate_units``): the forced-march loss
roll, land units lost at sea with their fleets, a disbanding or mutinous fleet's
passengers, a fleet lost when its satrapy turns neutral. The readings are in
docs/games/xenophon.md, "Rulings: second reading (issue 23)".
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ancients_games.xenophon import diplomacy, events, march, pillage, treasury, warnings, zoc
from ancients_games.xenophon import operations as ops
from ancients_games.xenophon.state import EMPIRE, NEUTRAL, REBEL
from ancients_games.xenophon.chits import chit_key
from ancients_games.xenophon.tests.ops_helpers import Script, drive, empty, give, pick, put

SARDIS, KELAINAI = "2908", "2909"
HALIKARNASSOS, SEA = "2707", "2608"
"""Sardis (Lydia) and its Royal Road neighbour; Halikarnassos (a port) and an all-sea hex off it."""


def _held(st, side: str) -> int:  # type: ignore[no-untyped-def]
    return len(st.hands[side])


# ---------------------------------------------------------------- 1. leader losses


@pytest.mark.rule("xen:forced-march", "xen:supreme-leaders", "xen:leaders")
def test_a_supreme_leader_lost_on_the_forced_march_roll_costs_his_chits() -> None:
    """Forced March's "1-3 = eliminate 1 unit from Force": Cyrus chosen is eliminated like any
    leader, so the Rebel discards every chit held (xen:supreme-leaders)."""
    ctx, st = empty()
    st.player_turn = REBEL
    mil = pick(st, "militia", REBEL)
    put(st, SARDIS, ["Cyrus", *mil])
    assert _held(st, REBEL) > 0
    ctx.chance.force(1, 3)  # the loss roll; the new OP
    f = drive(ops._forced_march(ctx, st, REBEL, ["Cyrus", *mil], SARDIS), Script("Cyrus"))
    assert st.unit("Cyrus").where == "mix" and st.supreme_leader(REBEL) is None
    assert _held(st, REBEL) == 0
    assert any(e.kind == "supreme-leader-eliminated" and "xen:forced-march" in e.rules for e in ctx.log)
    assert f is not None and f.units == mil


@pytest.mark.rule("xen:forced-march", "xen:xenophon", "xen:leaders")
def test_xenophon_lost_on_the_forced_march_roll_makes_his_escape_roll() -> None:
    ctx, st = empty()
    st.player_turn = REBEL
    mil = pick(st, "militia", REBEL, 2)
    put(st, SARDIS, ["Xenophon", mil[0]])
    put(st, KELAINAI, [mil[1]])
    ctx.chance.force(2, 1, 3)  # the loss roll; Xenophon's escape roll (1-3 escapes); the new OP
    drive(ops._forced_march(ctx, st, REBEL, ["Xenophon", mil[0]], SARDIS), Script("Xenophon"))
    assert st.unit("Xenophon").hex == KELAINAI  # the nearest friendly force
    assert any(e.kind == "leader-escapes" for e in ctx.log)
    # killed on 4-6: out of the game for good, never back in the leaders' pool
    ctx.chance.force(1, 5, 3)
    drive(ops._forced_march(ctx, st, REBEL, ["Xenophon", mil[1]], KELAINAI), Script("Xenophon"))
    assert st.unit("Xenophon").where == "removed"


@pytest.mark.rule("xen:disband", "xen:supreme-leaders", "xen:naval-transport")
def test_a_supreme_leader_aboard_a_disbanding_fleet_costs_his_chits() -> None:
    """"Disband/mutiny affects units aboard as well": Cyrus aboard goes by the leader rules."""
    ctx, st = empty()
    put(st, SEA, ["ionia-F1", "Cyrus"])
    st.unit("Cyrus").embarked = "ionia-F1"
    assert _held(st, REBEL) > 0
    ctx.chance.force(3)  # 3 + 1 (a friendly leader in the hex) = 4: disband
    assert drive(treasury.disband_check(ctx, st, "ionia-F1"), Script()) == "disband"
    assert st.unit("ionia-F1").where == "mix" and st.unit("Cyrus").where == "mix"
    assert _held(st, REBEL) == 0
    assert any(e.kind == "supreme-leader-eliminated" and "xen:disband" in e.rules for e in ctx.log)


@pytest.mark.rule("xen:disband", "xen:xenophon", "xen:naval-transport")
def test_xenophon_aboard_a_mutinous_fleet_rolls_and_is_never_back_in_the_pool() -> None:
    ctx, st = empty()
    put(st, SEA, ["ionia-F1", "Xenophon"])
    st.unit("Xenophon").embarked = "ionia-F1"
    ctx.chance.force(1, 6)  # 1 + 1 = 2: mutiny; the escape roll 6: killed
    assert drive(treasury.disband_check(ctx, st, "ionia-F1"), Script()) == "mutiny"
    assert st.unit("Xenophon").where == "removed"
    assert any(e.kind == "leader-killed" for e in ctx.log)


@pytest.mark.rule("xen:naval-transport", "xen:xenophon", "xen:leaders")
def test_xenophon_lost_at_sea_with_the_fleets_makes_his_escape_roll() -> None:
    """Land units with no room aboard are lost at sea with their fleets (ops ruling 12);
    Xenophon among them escapes on 1-3."""
    ctx, st = empty()
    land = pick(st, "militia", REBEL, 5)
    force = put(st, SEA, ["ionia-F1", "ionia-F2", *land, "Xenophon"])
    friend = put(st, SARDIS, pick(st, "militia", REBEL, 1, exclude=land))
    f = march.Force(REBEL, list(force), SEA, SEA, 10, True, 1)
    ops.naval.embark(st, [st.unit(u) for u in force])
    st.eliminate("ionia-F2")  # gone, its passengers not with it (the bare removal)
    ops._alive(st, f)
    ctx.chance.force(2)  # Xenophon's escape roll
    drive(ops._refit(ctx, st, f), Script())
    assert st.unit("Xenophon").hex == SARDIS == st.unit(friend[0]).hex
    assert all(st.unit(u).where == "mix" for u in land[3:])


@pytest.mark.rule("xen:revolt", "xen:control", "xen:supreme-leaders", "xen:naval-transport")
def test_a_fleet_lost_when_its_satrapy_turns_neutral_takes_a_leader_aboard_at_sea() -> None:
    """Ruling 16 eliminates a satrapy's units stacked with a leader when it turns neutral; at sea
    the leader aboard its fleet goes down with it, by the leader rules (no land unit is left at sea
    without a fleet)."""
    ctx, st = empty()
    put(st, SEA, ["ionia-F1", "Cyrus"])
    st.unit("Cyrus").embarked = "ionia-F1"
    assert _held(st, REBEL) > 0
    ctx.chance.force(1)  # the Revolt Table: 1-2 revolt
    drive(events.revolt(ctx, st, ("Ionia",), REBEL), Script())
    assert st.control["Ionia"] == NEUTRAL
    assert st.unit("ionia-F1").where == "mix" and st.unit("Cyrus").where == "mix"
    assert _held(st, REBEL) == 0


@pytest.mark.rule("xen:supply", "xen:naval-transport")
def test_a_fleet_starving_at_sea_takes_the_units_aboard_and_the_phase_asks_no_more() -> None:
    from ancients_games.xenophon import supply

    ctx, st = empty()
    st.player_turn = REBEL
    land = pick(st, "militia", REBEL, 2)
    put(st, SEA, ["ionia-F1", *land])
    for u in land:
        st.unit(u).embarked = "ionia-F1"
    script = Script("ionia-F1")
    drive(supply.supply_phase(ctx, st, REBEL), script)
    assert not st.units_at(SEA)
    assert [d.kind for d in script.asked if not d.kind.startswith("window.")] == ["supply.lose"]


@pytest.mark.rule("xen:leaders")
def test_no_rules_module_removes_a_unit_in_play_but_through_the_leader_rules() -> None:
    """The bare removals (``XenState.eliminate``, ``XenState.to_mix``) are called only by
    ``leaders.eliminate_units`` and the few places that cannot meet a leader: a colonist settling
    (never a leader: pillage.settler_candidates), a satrapy's own units when its control changes
    (leaders belong to no satrapy; their passengers go through control.turn)."""
    allowed = {
        ("leaders.py", "eliminate"), ("leaders.py", "eliminate_units"),
        ("pillage.py", "colonise"), ("control.py", "change_control"),
    }
    root = Path(ops.__file__).parent
    found = set()
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in ("eliminate", "to_mix")
                        and isinstance(node.func.value, ast.Name) and node.func.value.id in ("state", "st", "self")
                        and path.name != "state.py"):
                    found.add((path.name, fn.name))
    assert found <= allowed, sorted(found - allowed)


# ---------------------------------------------------------------- 2. readings


@pytest.mark.rule("xen:opt.reaction", "xen:forced-march")
def test_forced_march_is_not_offered_for_a_reaction_when_no_force_may_react() -> None:
    """With the optional rule, a Forced March with no force left to react is neither offered nor
    spent (before: played, then "no force of yours may react")."""
    ctx, st = empty(reaction=True)
    emp = put(st, "3012", pick(st, "militia", EMPIRE))
    ops._reacted(st).update(emp)  # it has reacted this turn already
    give(st, EMPIRE, "Forced March")
    n = st.hands[EMPIRE].cards.count("Forced March")
    st.player_turn = REBEL
    script = Script(chit_key("Forced March"))
    drive(ops._reaction(ctx, st, EMPIRE), script)
    assert st.hands[EMPIRE].cards.count("Forced March") == n
    assert all(chit_key("Forced March") not in d.keys for d in script.asked)
    # a force that may react: offered
    ops._reacted(st).clear()
    script = Script()
    drive(ops._reaction(ctx, st, EMPIRE), script)
    assert any(chit_key("Forced March") in d.keys for d in script.asked)


@pytest.mark.rule("xen:pillage", "xen:colonisation", "xen:zoc", "xen:naval")
def test_no_pillage_or_colony_in_an_enemy_fleets_zone_of_control() -> None:
    """"A Force may not pillage or colonize if in EZOC" names no kind: an enemy fleet's zone
    forbids it to a land force too (ops ruling 7 said any EZOC; the land force felt only land ZOC)."""
    ctx, st = empty()
    coast = next(h for h in sorted(st.data.coastal) if h not in st.data.city_kind and h not in st.colonies
                 and st.data.terrain.get(h) == "clear"
                 and any(st.data.terrain.get(n) == "sea" for n in st.neighbours(h))
                 and not any(st.is_city(n) for n in [h, *st.neighbours(h)]))
    sea = next(n for n in st.neighbours(coast) if st.data.terrain.get(n) == "sea")
    put(st, coast, pick(st, "phalanx", REBEL))
    assert pillage.pillage_refusal(st, coast, False, False) is None
    assert pillage.colonise_refusal(st, coast, False) is None
    put(st, sea, pick(st, "fleet", EMPIRE))
    assert "zone of control" in (pillage.pillage_refusal(st, coast, False, False) or "")
    assert "zone of control" in (pillage.colonise_refusal(st, coast, False) or "")
    assert zoc.in_any_ezoc(st, REBEL, coast) and not zoc.in_any_ezoc(st, EMPIRE, sea)


@pytest.mark.rule("xen:diplomacy")
def test_a_negative_differential_spends_the_column_shifts_first() -> None:
    """Differential -2 with a +1 shift is -1: column <=0, not column 1 (second reading 3)."""
    table = empty()[1].data.tables["diplomacy"]
    shift = (diplomacy.Shift(1, "test"),)
    res = diplomacy.read_table(table, -2, 1, shift)  # type: ignore[arg-type]
    assert res.result == "2R"  # column <=0, roll 1 (column 1 reads R)
    assert diplomacy.read_table(table, 0, 1, shift).result == "R"  # type: ignore[arg-type]
    assert diplomacy.read_table(table, -1, 4, (*shift, *shift)).result == "D1"  # type: ignore[arg-type]
    dist = diplomacy.outcome_distribution(table, -3, 2)  # type: ignore[arg-type]
    assert dist == diplomacy.outcome_distribution(table, 0, 0)  # type: ignore[arg-type]


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:leaders")
def test_the_three_empire_leaders_set_up_in_three_satrapies() -> None:
    from ancients_games.xenophon.setup import build, deploy
    from ancients_games.xenophon.state import load_data
    from ancients_games.xenophon.tests.core_helpers import STORE, context, run

    for capital in ("persepolis", "susa", "ekbatana"):
        ctx = context()
        st = build(ctx, load_data(STORE), "cyrus-revolt")
        asked: list = []
        run(deploy(ctx, st), [capital], asked=asked, default=lambda d: d.keys[0])
        sats = [st.satrapy_of(st.unit(n).hex) for n in ("Artaxerxes", "Tissaphernes", "Abrokomas")]
        assert len(set(sats)) == 3, (capital, sats)
        first = next(d for d in asked if d.kind == "setup.leader")
        assert all(st.satrapy_of(h) != sats[0] for h in first.keys)


# ---------------------------------------------------------------- 3. warnings


@pytest.mark.rule("xen:supply")
def test_forage_warning_names_the_excess_and_the_supply_train() -> None:
    ctx, st = empty()
    fv = st.forage(KELAINAI)
    force = put(st, SARDIS, pick(st, "militia", REBEL, fv + 2))
    assert warnings.forage_warning(st, REBEL, force[:fv], KELAINAI) is None
    text = warnings.forage_warning(st, REBEL, force, KELAINAI)
    assert text is not None and "2 units out of supply" in text and "(xen:supply)" in text
    assert "no Supply Train" in text and "\n" not in text
    # the friendly units already there count; a Supply Train among them may feed the rest
    put(st, KELAINAI, force[:fv])
    text = warnings.forage_warning(st, REBEL, force[fv:fv + 1], KELAINAI)
    assert text is not None and "1 unit out of supply" in text
    train = put(st, SARDIS, pick(st, "supply_train", REBEL))
    assert "unless a Supply Train" in (warnings.forage_warning(st, REBEL, train, KELAINAI) or "")
    assert warnings.forage_warning(st, NEUTRAL, force, KELAINAI) is None
    st.pillaged.add(KELAINAI)
    assert warnings.forage_warning(st, EMPIRE, pick(st, "militia", EMPIRE), KELAINAI) is not None  # FV 0


@pytest.mark.rule("xen:zoc", "xen:naval", "xen:supply")
def test_stranded_warning_for_a_fleet_stopping_at_sea_in_an_enemy_fleets_zone() -> None:
    ctx, st = empty()
    st.player_turn = REBEL
    fleet = put(st, HALIKARNASSOS, ["ionia-F1"])
    assert warnings.stranded_warning(st, REBEL, fleet, SEA) is None  # no enemy fleet near
    enemy = next(n for n in st.neighbours(SEA) if st.data.terrain.get(n) == "sea" and n != HALIKARNASSOS)
    put(st, enemy, pick(st, "fleet", EMPIRE))
    text = warnings.stranded_warning(st, REBEL, fleet, SEA)
    assert text is not None and text.startswith("stranded:") and "(xen:naval, xen:supply)" in text
    assert warnings.stranded_warning(st, REBEL, pick(st, "militia", REBEL), SEA) is None  # no fleet
    assert warnings.stranded_warning(st, REBEL, fleet, HALIKARNASSOS) is None  # a port: not at sea
    st.player_turn = EMPIRE
    assert warnings.stranded_warning(st, REBEL, fleet, SEA) is None  # reacting: it may sail before its Supply


@pytest.mark.rule("xen:retreats", "xen:combat")
def test_city_retreat_warning_for_an_attack_into_an_unpillaged_city_or_colony() -> None:
    ctx, st = empty()
    assert warnings.city_retreat_warning(st, EMPIRE, SARDIS) is None  # nobody to attack
    put(st, SARDIS, pick(st, "militia", REBEL))
    text = warnings.city_retreat_warning(st, EMPIRE, SARDIS)
    assert text is not None and "(xen:retreats)" in text and "a City" in text
    assert warnings.city_retreat_warning(st, REBEL, SARDIS) is None  # his own units
    field = "3010"  # a clear Lydian hex next to Sardis, no City
    assert not st.is_city(field)
    put(st, field, pick(st, "militia", REBEL, 1, exclude=[u.id for u in st.units_at(SARDIS)]))
    assert warnings.city_retreat_warning(st, EMPIRE, field) is None  # open country
    st.colonies.add(field)
    assert "a Colony" in (warnings.city_retreat_warning(st, EMPIRE, field) or "")
    st.pillaged.add(SARDIS)
    assert warnings.city_retreat_warning(st, EMPIRE, SARDIS) is None  # "treated as clear"


@pytest.mark.rule("xen:retreats", "xen:combat")
def test_the_attack_option_into_a_city_carries_the_retreat_warning() -> None:
    """The warning reaches the player where he chooses: the attack's text, rule in brackets."""
    from ancients_games.xenophon import operations as ops

    ctx, st = empty()
    put(st, SARDIS, pick(st, "militia", REBEL))
    field = next(n for n in st.neighbours(SARDIS) if not st.is_city(n) and st.data.terrain.get(n) == "clear")
    attackers = put(st, field, pick(st, "phalanx", EMPIRE))
    f = march.Force(EMPIRE, attackers, field, field, 10, False)
    opts = {o.key: o.label for o in ops.force_options(st, f, zoc.ezoc_of(st, EMPIRE, False))}
    assert f"attack:{SARDIS}" in opts
    assert "WARNING: city:" in opts[f"attack:{SARDIS}"] and "[xen:retreats]" in opts[f"attack:{SARDIS}"]
    st.pillaged.add(SARDIS)  # a pillaged City is "treated as clear": no warning
    opts = {o.key: o.label for o in ops.force_options(st, f, zoc.ezoc_of(st, EMPIRE, False))}
    assert "WARNING" not in opts[f"attack:{SARDIS}"]
