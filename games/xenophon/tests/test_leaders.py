"""Leaders, Supreme Leaders, Xenophon, assassination and personal combat, on the real game state."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_games.xenophon import combat, leaders
from ancients_games.xenophon.state import EMPIRE, REBEL
from ancients_games.xenophon.tests.test_combat import CENTRE, drive, first, fresh, put, units, west


@pytest.mark.rule("xen:leaders", "xen:xenophon")
def test_op_multiplier_worked_example() -> None:
    # STRATEGIC_GAMES.md 4.2: militia OV 8 and a roll of 4: 12 OP; 16 with a leader; 20 with Xenophon
    ctx, st = fresh()
    m = units(st, REBEL, "militia", 1)
    assert st.unit(m[0]).ov == 8
    assert [8 + 4 * leaders.op_multiplier(st, f) for f in (m, [*m, "Ariaos"], [*m, "Xenophon"])] == [12, 16, 20]
    assert leaders.op_multiplier(st, [*m, "Ariaos", "Xenophon"]) == 3  # Xenophon's triple is not doubled again
    assert leaders.op_multiplier(st, ["Artaxerxes"]) == 2


@pytest.mark.rule("xen:leaders", "xen:combat")
def test_a_leader_adds_his_cs_and_one_multiplier() -> None:
    ctx, st = fresh()
    origin = west(st, CENTRE)
    att = put(st, origin, *units(st, REBEL, "militia", 2), "Ariaos")  # (2 + 2 + 4) x2 = 16
    put(st, CENTRE, *units(st, EMPIRE, "militia", 2))  # 4
    ctx.chance.force(6)
    out, _ = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "stand", "combat.retreat": first,
                                                        "combat.loss": first})
    ev = next(e for e in ctx.log if e.kind == "combat")
    assert "16 against 4" in ev.text and "a leader with the force" in ev.text and "xen:leaders" in ev.rules


@pytest.mark.rule("xen:xenophon", "xen:leaders")
def test_xenophon_escapes_on_1_to_3_and_dies_for_good_on_4_to_6() -> None:
    ctx, st = fresh()
    put(st, CENTRE, "Xenophon")
    friend = st.neighbours(st.neighbours(CENTRE)[2])[2]
    put(st, friend, *units(st, REBEL, "militia", 1))
    ctx.chance.force(3)
    drive(leaders.eliminate(ctx, st, "Xenophon", "test"))
    assert st.unit("Xenophon").hex == friend
    ctx.chance.force(4)
    drive(leaders.eliminate(ctx, st, "Xenophon", "test"))
    assert st.unit("Xenophon").where == "removed"
    assert [e.kind for e in ctx.log if "xen:xenophon" in e.rules and e.kind != "roll"] == [
        "leader-escapes", "leader-killed"]


@pytest.mark.rule("xen:supreme-leaders", "xen:stratagem")
def test_a_supreme_leaders_death_discards_every_chit_and_successor_replaces_him() -> None:
    ctx, st = fresh()
    put(st, CENTRE, "Cyrus", "Ariaos")
    held, pool = len(st.hands[REBEL]), len(st.pool)
    assert held == 6
    drive(leaders.eliminate(ctx, st, "Cyrus", "test"))
    assert len(st.hands[REBEL]) == 0 and len(st.pool) == pool + held
    assert st.supreme_leader(REBEL) is None
    with pytest.raises(ValueError, match="xen:supreme-leaders"):
        leaders.successor(st, REBEL, "Artaxerxes")
    leaders.successor(st, REBEL, "Ariaos")
    assert st.supreme_leader(REBEL).id == "Ariaos"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="still on the map"):
        leaders.successor(st, REBEL, "Ariaos")
    # a plain leader's death costs nothing
    put(st, CENTRE, "Artaxerxes", "Tissaphernes")
    n = len(st.hands[EMPIRE])
    drive(leaders.eliminate(ctx, st, "Tissaphernes", "test"))
    assert len(st.hands[EMPIRE]) == n and st.unit("Tissaphernes").where == "mix"


@pytest.mark.rule("xen:leaders", "xen:supreme-leaders")
def test_assassination_chances_and_rolls() -> None:
    assert leaders.assassination_chance(True) == Fraction(1, 3)
    assert leaders.assassination_chance(False) == Fraction(1, 2)
    ctx, st = fresh()
    put(st, CENTRE, "Artaxerxes", "Tissaphernes")
    ctx.chance.force(3)  # 3 spares a Supreme Leader; the Empire draws a chit
    n = len(st.hands[EMPIRE])
    died, _ = drive(leaders.assassinate(ctx, st, REBEL, "Artaxerxes"))
    assert not died and len(st.hands[EMPIRE]) == n + 1
    ctx.chance.force(3)  # 3 kills a regular leader
    died, _ = drive(leaders.assassinate(ctx, st, REBEL, "Tissaphernes"))
    assert died and st.unit("Tissaphernes").where == "mix"
    with pytest.raises(ValueError, match="xen:diplomacy"):
        drive(leaders.assassinate(ctx, st, REBEL, "Cyrus"))


@pytest.mark.rule("xen:opt.personal-combat")
def test_personal_combat_chances_worked_example() -> None:
    # Cyrus +1 wins 21/36, ties 5/36, loses 10/36
    assert leaders.personal_combat_chances(leaders.PERSONAL_DRM["Cyrus"], 0) == {
        "win": Fraction(21, 36), "tie": Fraction(5, 36), "lose": Fraction(10, 36)}
    even = leaders.personal_combat_chances()
    assert even["win"] == even["lose"] == Fraction(15, 36)


def _leader_battle(seed: int = 1):
    ctx, st = fresh(seed, personal_combat=True)
    origin = west(st, CENTRE)
    att = put(st, origin, *units(st, REBEL, "militia", 2), "Cyrus", "Ariaos")
    dfn = put(st, CENTRE, *units(st, EMPIRE, "militia", 2), "Artaxerxes", "Tissaphernes")
    return ctx, st, att, dfn


@pytest.mark.rule("xen:opt.personal-combat", "xen:combat")
def test_personal_combat_kills_the_low_roller_then_the_battle_goes_on() -> None:
    ctx, st, att, dfn = _leader_battle()
    ctx.chance.force(3, 4, 6)  # Ariaos 3 against Tissaphernes 4: Ariaos dies; the CRT roll 6
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {
        "combat.withdraw": "stand", "combat.personal": "declare", "combat.personal-answer": "accept",
        "combat.personal-leader": lambda d: "Ariaos" if "Ariaos" in d.keys else "Tissaphernes",
        "combat.loss": first, "combat.retreat": first})
    assert st.unit("Ariaos").where == "mix" and st.unit("Tissaphernes").where == "map"
    assert [d.side for d in asked if d.kind.startswith("combat.personal")] == [REBEL, EMPIRE, REBEL, EMPIRE]
    assert any(e.kind == "combat" for e in ctx.log)


@pytest.mark.rule("xen:opt.personal-combat", "xen:supreme-leaders")
def test_cyrus_plus_one_and_the_supreme_leader_rule() -> None:
    ctx, st, att, dfn = _leader_battle()
    ctx.chance.force(4, 5, 1)  # Cyrus 4 + 1 = 5 ties Tissaphernes 5; the CRT roll 1
    out, asked = drive(combat.battle(ctx, st, att, CENTRE), {
        "combat.withdraw": "stand", "combat.personal": "declare", "combat.personal-answer": "accept",
        "combat.personal-leader": lambda d: "Cyrus" if "Cyrus" in d.keys else "Tissaphernes",
        "combat.loss": first, "combat.retreat": first})
    pick = [d for d in asked if d.kind == "combat.personal-leader"][1]
    assert "no leader multiplier" in pick.option("Tissaphernes").label  # he had to match Cyrus with Artaxerxes
    assert st.unit("Cyrus").where == "map" and st.unit("Tissaphernes").where == "map"  # a tie
    ev = next(e for e in ctx.log if e.kind == "combat")
    # Rebel (2 + 2 + 4 + 4) x2 = 24; Empire without a leader multiplier: 2 + 2 + 4 + 4 = 12
    assert "24 against 12" in ev.text


@pytest.mark.rule("xen:opt.personal-combat")
def test_refusing_personal_combat_costs_the_leader_multiplier() -> None:
    ctx, st, att, dfn = _leader_battle()
    ctx.chance.force(1)
    drive(combat.battle(ctx, st, att, CENTRE), {
        "combat.withdraw": "stand", "combat.personal": "declare", "combat.personal-answer": "refuse",
        "combat.loss": first, "combat.retreat": first})
    ev = next(e for e in ctx.log if e.kind == "combat")
    assert "24 against 12" in ev.text
    # without the option nobody is asked
    ctx, st = fresh()
    origin = west(st, CENTRE)
    att = put(st, origin, *units(st, REBEL, "militia", 2), "Cyrus")
    put(st, CENTRE, *units(st, EMPIRE, "militia", 2), "Artaxerxes")
    ctx.chance.force(3)
    _, asked = drive(combat.battle(ctx, st, att, CENTRE), {"combat.withdraw": "stand", "combat.retreat": first,
                                                          "combat.loss": first})
    assert not any(d.kind.startswith("combat.personal") for d in asked)
