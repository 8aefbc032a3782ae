"""Pillage and colonisation on the real game: columns, points, tables, effects, refusals."""

from __future__ import annotations

import pytest

from ancients_games.xenophon import operations as ops
from ancients_games.xenophon import pillage as pl
from ancients_games.xenophon.state import EMPIRE, REBEL
from ancients_games.xenophon.tests.ops_helpers import Script, drive, empty, pick, put

TYRE, SARDIS = "2414", "2908"


@pytest.mark.rule("xen:pillage", "xen:errata", "xen:operations")
def test_pillage_column_counts_leaders_not_trains() -> None:
    _, st = empty()
    # STRATEGIC_GAMES 4.2: 5 units including a leader, plus a supply train -> column 4-5, 2 OP.
    types = ["phalanx", "phalanx", "militia", "light", "leader", "supply_train"]
    assert pl.pillage_count(types) == 5 and pl.pillage_column(st, types) == "4-5"
    assert pl.pillage_column(st, ["leader"]) == "1" and pl.pillage_column(st, ["militia"] * 7) == "6+"
    assert pl.PILLAGE_OP == 2 and pl.COLONISE_OP == 4 and ops.ATTACK_OP == 2


@pytest.mark.rule("xen:pillage", "xen:supply", "xen:treasury", "xen:remove-pillage")
def test_pillage_of_a_treasury_city_loots_d6_and_destroys_forage() -> None:
    ctx, st = empty()
    force = put(st, TYRE, pick(st, "phalanx", REBEL, 2))
    before = st.treasury[REBEL].value
    ctx.chance.force(5, 4)  # pillage roll 5: P in every column; loot 1d6 = 4
    assert drive(pl.pillage(ctx, st, REBEL, force, TYRE), Script()) == "P"
    assert TYRE in st.pillaged and st.treasury[REBEL].value == before + 4
    lost = pl.forage_destroyed(st, TYRE)
    assert lost[0] == TYRE and all(st.forage(h) == 0 for h in lost)
    assert all(not st.is_city(h) for h in lost[1:]) and len(lost) > 1
    assert any(e.kind == "pillaged" and "xen:supply" in e.rules for e in ctx.log)
    # xen:remove-pillage: a removal gives back the City and its port, never a Colony.
    back = pl.restores(st, TYRE)
    assert back["city"] == "treasury" and back["port"] and back["colony"] is False


@pytest.mark.rule("xen:pillage", "xen:colonisation")
def test_pillage_removes_a_colony_for_one_dollar() -> None:
    ctx, st = empty()
    hex_id = "2809"
    st.colonies.add(hex_id)
    force = put(st, hex_id, pick(st, "militia", EMPIRE))
    before = st.treasury[EMPIRE].value
    ctx.chance.force(5)
    drive(pl.pillage(ctx, st, EMPIRE, force, hex_id), Script())
    assert hex_id not in st.colonies and hex_id in st.pillaged and st.treasury[EMPIRE].value == before + 1


@pytest.mark.rule("xen:pillage", "xen:stratagem")
def test_pillage_reaction_gives_the_other_player_a_chit() -> None:
    ctx, st = empty()
    force = put(st, TYRE, pick(st, "phalanx", REBEL))
    held = len(st.hands[EMPIRE])
    ctx.chance.force(1)  # R in every column
    assert drive(pl.pillage(ctx, st, REBEL, force, TYRE), Script()) == "R"
    assert TYRE not in st.pillaged and len(st.hands[EMPIRE]) == held + 1


@pytest.mark.rule("xen:pillage", "xen:supply")
def test_forage_is_not_destroyed_across_the_water() -> None:
    _, st = empty()
    # 2808 on the Carian coast touches Rhodes (2708) on the grid, across an all-sea hexside.
    lost = pl.forage_destroyed(st, "2808")
    assert "2809" in lost and "2708" not in lost
    assert "2807" not in lost and "2707" not in lost  # Miletos and Halikarnassos are cities


@pytest.mark.rule("xen:pillage", "xen:zoc", "xen:naval-combat")
def test_pillage_refusals() -> None:
    _, st = empty()
    assert "all-sea" in pl.pillage_refusal(st, "2614", False, True)
    st.pillaged.add(TYRE)
    assert "already pillaged" in pl.pillage_refusal(st, TYRE, False, False)
    assert "zone of control" in pl.pillage_refusal(st, SARDIS, True, False)
    assert "coastal" in pl.pillage_refusal(st, SARDIS, False, True)
    assert pl.pillage_refusal(st, SARDIS, False, False) is None


@pytest.mark.rule("xen:pillage", "xen:control")
def test_attempting_to_pillage_a_neutral_satrapy_gives_it_to_the_other_player() -> None:
    ctx, st = empty()
    athens = "2904"
    assert st.control["Athens"] == "neutral"
    force = put(st, athens, pick(st, "phalanx", REBEL))
    ctx.chance.force(2)  # no pillage, but the attempt was made
    drive(pl.pillage(ctx, st, REBEL, force, athens), Script())
    assert st.control["Athens"] == EMPIRE


@pytest.mark.rule("xen:colonisation")
def test_colonisation_points_worked_example() -> None:
    _, st = empty()
    # STRATEGIC_GAMES 4.2: 2 Phalanx + 1 leader in a clear hex = 7 -> column 7+.
    pts = pl.colonisation_points(["phalanx", "phalanx", "leader"], clear=True)
    assert pts == 7 and pl.colonisation_column(st, pts) == "7+"
    assert pl.colonisation_points(["elephant", "fleet", "supply_train"], clear=False) == 0
    assert pl.colonisation_column(st, pl.colonisation_points(["militia"], clear=False)) == "2"


@pytest.mark.rule("xen:colonisation")
def test_colonisation_success_places_a_colony_and_removes_one_unit() -> None:
    ctx, st = empty()
    hex_id = "2811"  # rough, in Phrygia, not next to a city
    assert pl.colonise_refusal(st, hex_id, False) is None
    force = put(st, hex_id, pick(st, "phalanx", REBEL, 2) + ["Ariaos"])
    ctx.chance.force(4)  # 6 points (rough: no +1) -> column 5-6, roll 4: C
    script = Script(force[1])
    result, removed = drive(pl.colonise(ctx, st, REBEL, force, hex_id), script)
    assert result == "C" and removed == force[1]
    assert hex_id in st.colonies and st.unit(force[1]).where == "mix" and st.is_city(hex_id)
    assert st.city_kind(hex_id) == "colony"


@pytest.mark.rule("xen:colonisation", "xen:zoc", "xen:pillage")
def test_colonisation_refusals() -> None:
    _, st = empty()
    assert "next to a City" in pl.colonise_refusal(st, "2808", False)  # Miletos and Halikarnassos next door
    assert "City" in pl.colonise_refusal(st, SARDIS, False)
    desert = next(h for h in sorted(st.data.desert) if not any(st.is_city(n) for n in st.neighbours(h)))
    assert "desert" in pl.colonise_refusal(st, desert, False)
    st.pillaged.add("2809")
    assert "pillaged" in pl.colonise_refusal(st, "2809", False)
    assert "zone of control" in pl.colonise_refusal(st, "2810", True)
    assert "all-sea" in pl.colonise_refusal(st, "2614", False)


@pytest.mark.rule("xen:pillage", "xen:colonisation", "xen:operations")
def test_the_operations_phase_spends_two_op_to_pillage_and_four_to_colonise() -> None:
    ctx, st = empty()
    put(st, "2811", pick(st, "phalanx", REBEL, 2))
    st.player_turn = REBEL
    ctx.chance.force(1, 3)  # OP 16 + 1 = 17; colonise roll 3 at 4 points (column 3-4): no effect
    script = Script("force:2811", "colonise")
    drive(ops.operations_phase(ctx, st, REBEL), script)
    acts = [d for d in script.asked if d.kind == "ops.action"]
    assert "pillage" in acts[0].keys and "colonise" in acts[0].keys
    assert "13 OP" in acts[1].prompt  # 17 - 4


@pytest.mark.rule("xen:colonisation", "xen:leaders", "xen:supreme-leaders")
def test_the_colonist_is_never_a_leader_while_the_force_has_another_unit() -> None:
    # Audit D19: Cyrus and a phalanx found a Colony: the phalanx settles it, Cyrus stays; a lone
    # Supreme Leader who settles one is eliminated with the leader rules (his chits are lost).
    ctx, st = empty()
    hex_id = "2811"
    phalanx = pick(st, "phalanx", REBEL)
    force = put(st, hex_id, ["Cyrus", *phalanx])
    ctx.chance.force(6)  # 4 points: C on a 6
    script = Script()
    result, removed = drive(pl.colonise(ctx, st, REBEL, force, hex_id), script)
    assert result == "C" and removed == phalanx[0]
    assert not [d for d in script.asked if d.kind == "ops.colonist"]  # nothing to choose: no leader offered
    assert st.unit("Cyrus").where == "map" and st.supreme_leader(REBEL) is not None
    assert pl.settler_candidates(st, ["Xenophon", "Cyrus", *phalanx]) == phalanx
    # A lone Supreme Leader: removed through leaders.eliminate, so his hand goes back to the pool.
    ctx, st = empty()
    put(st, hex_id, ["Cyrus"])
    assert st.hands[REBEL]
    ctx.chance.force(6, 6)
    result, removed = drive(pl.colonise(ctx, st, REBEL, ["Cyrus"], hex_id), Script())
    assert result == "C" and removed == "Cyrus"
    assert any(e.kind == "supreme-leader-eliminated" for e in ctx.log) and not st.hands[REBEL]


@pytest.mark.rule("xen:pillage", "xen:errata")
def test_the_pillage_event_cites_the_errata_only_when_a_leader_is_counted() -> None:
    # Audit D13: the errata point applied ("Leaders do count for pillage") matters only with a leader.
    for with_leader in (False, True):
        ctx, st = empty()
        force = put(st, SARDIS, pick(st, "phalanx", REBEL, 2) + (["Ariaos"] if with_leader else []))
        ctx.chance.force(1)
        drive(pl.pillage(ctx, st, REBEL, force, SARDIS), Script())
        event = next(e for e in ctx.log if e.kind == "pillage")
        assert ("xen:errata" in event.rules) is with_leader and "xen:pillage" in event.rules
