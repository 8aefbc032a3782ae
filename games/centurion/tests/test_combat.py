"""Centurion Basic Game combat: odds, rounding (cases I and J), stacks, results."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.data import DataStore
from ancients_kit.errors import IllegalAnswer
from ancients_kit.log import Log
from ancients_kit.session import Context
from ancients_kit.tables import OddsRefused

from ancients_games.centurion.combat import (
    DISPERSED_DEFENCE,
    basic_defence,
    combat_phase,
    command_rounding,
    eligible_attackers,
    melee_distribution,
    odds_label,
)
from ancients_games.centurion.equipment import load_all
from ancients_games.centurion.movement import movable_reason
from ancients_games.centurion.setup import sandbox_state

STORE = DataStore("ancients_games.centurion")
CRT = load_all(STORE)["melee"]


def ctx_for(seed: int = 1) -> Context:
    return Context(STORE, {}, seed, Log())


@pytest.mark.rule("cen:basic.combat")
def test_worked_example_26_vs_9_rounds_for_the_defender():
    assert odds_label(CRT, 26, 9, "defender") == "2-1"


@pytest.mark.rule("cen:basic.combat")
def test_worked_example_26_vs_9_with_a_command_unit_within_five_hexes():
    # attackers around 0606; a friendly Command unit five hexes from them
    s = sandbox_state([("red", "SD", "0605"), ("red", "CM", "0610"), ("blue", "BI", "0606")])
    rounding, why = command_rounding(s, [s.hex_of("0605")], s.hex_of("0606"), "red")
    assert rounding == "attacker" and "case J" in why
    assert odds_label(CRT, 26, 9, rounding) == "3-1"
    # six hexes away: no effect
    s2 = sandbox_state([("red", "SD", "0605"), ("red", "CM", "0611"), ("blue", "BI", "0606")])
    assert command_rounding(s2, [s2.hex_of("0605")], s2.hex_of("0606"), "red")[0] == "defender"


@pytest.mark.rule("cen:basic.combat")
def test_worked_example_enemy_command_unit_negates_case_j():
    s = sandbox_state([
        ("red", "SD", "0605"), ("red", "CM", "0602"),
        ("blue", "BI", "0606"), ("blue", "CM", "0609"),
    ])
    rounding, why = command_rounding(s, [s.hex_of("0605")], s.hex_of("0606"), "red")
    assert rounding == "defender" and "negated" in why
    assert odds_label(CRT, 26, 9, rounding) == "2-1"


@pytest.mark.rule("cen:basic.combat")
def test_below_one_to_two_is_non_viable():
    assert odds_label(CRT, 4, 9) == "non-viable"
    with pytest.raises(OddsRefused):
        CRT.odds(4, 9, "defender")
    assert odds_label(CRT, 5, 9, "attacker") == "1-1"


@pytest.mark.rule("cen:basic.combat")
def test_every_column_distribution_sums_to_one():
    for a, d in [(1, 2), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (40, 1)]:
        dist = melee_distribution(CRT, a, d)
        assert sum(dist.values()) == Fraction(1)


@pytest.mark.rule("cen:basic.combat")
def test_defenders_in_a_hex_combine_and_dispersed_ones_count_one():
    s = sandbox_state([("blue", "SD", "0606"), ("blue", "BI", "0606"), ("blue", "CM", "0606")])
    h = s.hex_of("0606")
    assert basic_defence(s, h) == 4 + 2 + 1  # case F: one combined Melee Defense Factor
    s.disperse(s.units["BLU-SD01"])
    s.disperse(s.units["BLU-BI01"])
    assert basic_defence(s, h) == 1 + DISPERSED_DEFENCE


@pytest.mark.rule("cen:basic.combat")
def test_only_adjacent_units_attack():
    s = sandbox_state([("red", "SD", "0605"), ("red", "SD", "0603"), ("blue", "BI", "0606")])
    who = {u.id for u in eligible_attackers(s, "red", s.hex_of("0606"))}
    assert who == {"RED-SD01"}  # case A


def _attack(s, target: str, attackers: list[str], rolls: tuple[int, ...] = (), seed: int = 1):
    ctx = ctx_for(seed)
    if rolls:
        ctx.chance.force(*rolls)
    gen = combat_phase(ctx, s, "red", CRT)
    d = next(gen)
    d = gen.send(target)
    for a in attackers:
        d = gen.send(a)
    try:
        d = gen.send("attack")
    except StopIteration:
        d = None
    return ctx, d


@pytest.mark.rule("cen:basic.combat")
def test_stack_mates_with_different_allowances_may_not_attack_together():
    s = sandbox_state([
        ("red", "SD", "0605"), ("red", "SK", "0605"), ("red", "CM", "0605"), ("blue", "BI", "0606"),
    ])
    ctx = ctx_for()
    gen = combat_phase(ctx, s, "red", CRT)
    d = next(gen)
    assert d.kind == "combat.hex" and "done" in d.keys
    d = gen.send("0606")
    d = gen.send("RED-SD01")
    assert "RED-SK01" not in d.keys  # case G: MFA 5 vs 4
    assert "RED-CM01" in d.keys  # Command units are exempt
    with pytest.raises(IllegalAnswer) as exc:
        d.match("RED-SK01")
    assert exc.value.rule == "cen:basic.combat" and "case G" in str(exc.value)


@pytest.mark.rule("cen:basic.combat")
def test_defender_eliminated_result_removes_the_whole_stack():
    # 8 vs 2 is 4-1; roll 1 is DE on the reconstructed table
    s = sandbox_state([("red", "SD", "0605"), ("red", "SD", "0605"), ("blue", "BI", "0606")])
    assert CRT.resolve(8, 2, 1).result == "DE"
    ctx, _ = _attack(s, "0606", ["RED-SD01", "RED-SD02"], rolls=(1,))
    assert s.units["BLU-BI01"].eliminated
    assert s.lost_units["blue"] == 1
    combat = [e for e in ctx.log if e.kind == "combat"]
    assert combat and "4-1" in combat[0].text and "cen:basic.combat" in combat[0].rules
    assert "rounded for the defender" in combat[0].text


@pytest.mark.rule("cen:basic.combat", "cen:basic.movement")
def test_attacker_dispersed_cannot_move_next_turn_then_recovers():
    s = sandbox_state([("red", "SD", "0605"), ("blue", "SD", "0606")])
    res = CRT.resolve(4, 4, 5)
    assert res.result == "AD"
    _attack(s, "0606", ["RED-SD01"], rolls=(5,))
    u = s.units["RED-SD01"]
    assert u.dispersed
    s.end_player_turn("red")
    s.begin_player_turn("blue")
    s.end_player_turn("blue")
    s.begin_player_turn("red")
    assert u.dispersed and movable_reason(s, u) is not None
    s.end_player_turn("red")
    assert not u.dispersed


@pytest.mark.rule("cen:basic.combat")
def test_each_unit_attacks_once_and_each_hex_is_attacked_once():
    s = sandbox_state([("red", "SD", "0605"), ("blue", "BI", "0606"), ("blue", "BI", "0506")])
    ctx = ctx_for()
    ctx.chance.force(3)
    gen = combat_phase(ctx, s, "red", CRT)
    d = next(gen)
    assert set(d.keys) == {"done", "0606", "0506"}
    d = gen.send("0606")
    d = gen.send("RED-SD01")
    # 4 vs 2 is 2-1; after it, the only attacker has attacked (case D)
    try:
        d = gen.send("attack")
        assert "0606" not in d.keys
    except StopIteration:
        pass
    assert s.units["RED-SD01"].attacked


@pytest.mark.rule("cen:basic.combat")
def test_non_viable_attack_is_not_offered_and_refused_with_a_reason():
    s = sandbox_state([("red", "SK", "0605"), ("blue", "SD", "0606")])
    gen = combat_phase(ctx_for(), s, "red", CRT)
    next(gen)
    d = gen.send("0606")
    d = gen.send("RED-SK01")  # 2 vs 4 is 1-2: viable
    assert "attack" in d.keys
    s2 = sandbox_state([("red", "LC", "0605"), ("blue", "SD", "0606"), ("blue", "SD", "0606")])
    gen = combat_phase(ctx_for(), s2, "red", CRT)
    next(gen)
    d = gen.send("0606")
    d = gen.send("RED-LC01")  # 1 vs 8
    assert "attack" not in d.keys
    with pytest.raises(IllegalAnswer) as exc:
        d.match("attack")
    assert "non-viable" in str(exc.value)
