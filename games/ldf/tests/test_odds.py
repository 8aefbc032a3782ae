"""LDF battle odds against the real CRT and map (odds.py): strengths, shifts,
automatic results, German strength mixed over its six values, ``ancients odds ldf``."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.data import DataStore
from ancients_kit.tables import Automatic, Column, OddsTable
from ancients_games.ldf import model, odds


@pytest.fixture(scope="module")
def store() -> DataStore:
    return DataStore(model.PACKAGE)


@pytest.fixture(scope="module")
def crt(store: DataStore) -> OddsTable:
    return model.load_crt(store)


def column(crt: OddsTable, attack: int, defense: int, shift: int = 0) -> Column | Automatic:
    return crt.odds(attack, defense, shift=shift)


@pytest.mark.rule("ldf:13.2", "ldf:14.6", "ldf:1.6")
def test_13_against_4_is_3_to_1_rounded_for_the_defender(crt: OddsTable) -> None:
    """The worked example of 13.2: 13 against 4 is 3.25 to 1, rounded in favour of the defender to 3:1."""
    assert column(crt, 13, 4) == Column(4, "3:1")
    assert column(crt, 15, 4) == Column(4, "3:1")  # 3.75 is still 3:1
    assert column(crt, 5, 8) == Column(1, "1:2")  # 0.625 rounds down to 1:2, not up to 1:1
    assert column(crt, 4, 9) == Column(0, "1:3")


@pytest.mark.rule("ldf:13.15", "ldf:13.2")
def test_automatic_results_past_both_ends(crt: OddsTable) -> None:
    """7:1 is an automatic DE; 2:7 an automatic AE (STRATEGIC_GAMES.md 4.1), no die rolled."""
    assert column(crt, 7, 1) == Automatic("DE", "above", 8)
    assert odds.battle_distribution(crt, 7, 1) == {"DE": 1}
    assert isinstance(column(crt, 2, 7), Automatic) and column(crt, 2, 7).result == "AE"
    assert odds.battle_distribution(crt, 2, 7) == {"AE": 1}
    # 20:3 = 6.67 rounds for the defender to 6:1, which is on the table (ruling 8)
    assert column(crt, 20, 3) == Column(7, "6:1")


@pytest.mark.rule("ldf:13.15", "ldf:13.9", "ldf:13.8")
def test_shifts_apply_before_the_ends_are_looked_at(crt: OddsTable) -> None:
    """13.15: every shifter applies first; a shift past an end gives the automatic result."""
    assert column(crt, 6, 1, shift=1).result == "DE"  # 6:1 with a leader
    assert column(crt, 1, 3, shift=-1).result == "AE"  # 1:3 across the river
    assert column(crt, 5, 1, shift=1) == Column(7, "6:1")  # 5:1 with a leader
    assert column(crt, 9, 4, shift=-1) == Column(2, "1:1")  # 9:4 = 2:1, -1
    # and back: a shift can bring odds past an end onto the table
    assert column(crt, 7, 1, shift=-1) == Column(7, "6:1")
    assert column(crt, 1, 4, shift=1) == Column(0, "1:3")


@pytest.mark.rule("ldf:13.9", "ldf:8.4")
def test_leader_shift_and_its_cancellation() -> None:
    assert odds.leader_shift(True, False).amount == 1
    assert odds.leader_shift(False, True).amount == -1
    both = odds.leader_shift(True, True)
    assert both is not None and both.amount == 0 and "cancel" in both.why
    assert odds.leader_shift(False, False) is None


@pytest.mark.rule("ldf:13.8")
def test_german_attack_across_the_rhine_or_danube_is_one_column_left(crt: OddsTable) -> None:
    s = odds.river_shift(True)
    assert s is not None and s.amount == -1 and s.rules == ("ldf:13.8",)
    assert odds.river_shift(False) is None
    # 4 against 2 is 2:1; across the river it is read on 1:1
    assert odds.battle_distribution(crt, 4, 2, shift=-1) == crt.distribution(2, 2)


@pytest.mark.rule("ldf:2.6")
def test_german_strength_is_d6_plus_1_each_value_one_sixth() -> None:
    assert odds.GERMAN_STRENGTHS == (2, 3, 4, 5, 6, 7)
    mix = odds.german_mix(1, 0)
    assert mix == {(v, 0): Fraction(1, 6) for v in range(2, 8)}
    both = odds.german_mix(1, 1)
    assert len(both) == 36 and sum(both.values()) == 1
    assert odds.german_mix(0, 0) == {(0, 0): 1}


@pytest.mark.rule("ldf:2.6", "ldf:13.2", "ldf:13.15")
def test_a_battle_with_a_german_tribe_mixes_six_distributions_exactly(crt: OddsTable) -> None:
    """Two vexillations (2) against one tribe (d6+1): the mix of 2:2 ... 2:7 (the last an automatic AE)."""
    dist = odds.battle_distribution(crt, 2, 0, defense_germans=1)
    expected: dict[str, Fraction] = {}
    for g in range(2, 8):
        for code, p in crt.distribution(2, g).items():
            expected[code] = expected.get(code, Fraction(0)) + p / 6
    assert dist == expected
    assert sum(dist.values()) == 1
    assert dist["AE"] == Fraction(17, 36)  # 2:7 automatic (1/6) + 1:3 twice (1/2 each) + 1:2 twice (1/3) + 1:1 (1/6)


@pytest.mark.rule("ldf:13.10", "ldf:2.6")
def test_garrison_strengths_from_the_map(store: DataStore) -> None:
    """Rome/Ostia 4, hex 4521 2, hex 4119 5, Ctesiphon 8, each Caucasus hex 1 (13.10)."""
    game_map = model.load_map(store)
    def g(hex_id: str) -> int:
        return model.garrison_strength(game_map, game_map.from_id(hex_id))
    assert (g("3318"), g("4521"), g("4119"), g("5020")) == (4, 2, 5, 8)
    assert {g(game_map.to_id(h)) for h in game_map.region("caucasus")} == {1}
    r = odds.odds(store, {"attack": "4", "garrison": "3318"})
    assert r.distribution == model.load_crt(store).distribution(4, 4)
    assert "ldf:13.10" in r.rules


@pytest.mark.rule("ldf:14.3")
def test_they_shall_not_pass_turns_dr_into_as_and_siege_doubles(crt: OddsTable) -> None:
    base = odds.battle_distribution(crt, 3, 1, shift=-1)
    tsnp = odds.battle_distribution(crt, 3, 1, shift=-1, not_pass=True)
    assert "DR" in base and "DR" not in tsnp
    assert tsnp["AS"] == base.get("AS", 0) + base["DR"]
    assert odds.battle_distribution(crt, 3, 2, double_attack=True) == crt.distribution(6, 2)


@pytest.mark.rule("ldf:13.2", "ldf:13.15", "ldf:2.6", "ldf:13.8", "ldf:13.9")
def test_odds_command_parameters(store: DataStore) -> None:
    r = odds.odds(store, {"attack": "13", "defense": "4"})
    assert r.distribution == model.load_crt(store).distribution(13, 4)
    assert any("3:1" in line for line in r.explain)
    r = odds.odds(store, {"attack": "7", "defence": "1"})
    assert r.distribution == {"DE": 1}
    r = odds.odds(store, {"attack": "0", "german_attack": "1", "defense": "2", "river": "yes",
                          "attacker_leader": "no", "defender_leader": "yes"})
    assert r.distribution == odds.battle_distribution(model.load_crt(store), 0, 2, attack_germans=1, shift=-2)
    fixed = odds.odds(store, {"attack": "2", "german_defense_factor": "5"})
    assert fixed.distribution == model.load_crt(store).distribution(2, 5)
    both = odds.odds(store, {"attack": "2", "defense": "2", "attacker_leader": "yes", "defender_leader": "yes"})
    assert both.distribution == model.load_crt(store).distribution(2, 2)
    assert any("cancel" in line for line in both.explain)


@pytest.mark.rule("ldf:13.8", "ldf:13.10", "ldf:2.6")
@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"defense": "2"}, "missing attack"),
        ({"attack": "x", "defense": "2"}, "not a whole number"),
        ({"attack": "2", "defense": "2", "river": "yes"}, "ldf:13.8"),
        ({"attack": "2", "garrison": "9999"}, "not a hex"),
        ({"attack": "2", "german_defense_factor": "8"}, "ldf:2.6"),
        ({"attack": "2", "defense": "2", "colour": "red"}, "unknown parameter"),
        ({"attack": "2", "defense": "0"}, "nothing to attack"),
    ],
)
def test_odds_command_refuses_bad_input_in_one_line(store: DataStore, params: dict[str, str], words: str) -> None:
    with pytest.raises(ValueError, match=words) as info:
        odds.odds(store, params)
    assert "\n" not in str(info.value)


@pytest.mark.rule("ldf:13.8", "ldf:13.10", "ldf:2.6", "ldf:13.2", "ldf:14.3")
@pytest.mark.parametrize(
    ("params", "key", "rule"),
    [
        ({"defense": "2"}, "attack", ""),
        ({"attack": "2", "defense": "2", "river": "maybe"}, "river", ""),
        ({"attack": "2", "defense": "2", "river": "yes"}, "river", "ldf:13.8"),
        ({"attack": "2", "garrison": "9999"}, "garrison", ""),
        ({"attack": "2", "garrison": "2518"}, "garrison", "ldf:13.10"),
        ({"attack": "2", "german_defense_factor": "8"}, "german_defense_factor", "ldf:2.6"),
        ({"attack": "2", "german_defense": "2", "german_defense_factor": "3"}, "german_defense_factor", "ldf:2.6"),
        ({"attack": "2", "german_attack": "1", "defense": "2", "siege": "yes"}, "siege", "ldf:14.3"),
        ({"attack": "2", "defense": "2", "colour": "red"}, "colour", ""),
        ({"attack": "2", "defense": "0"}, "defense", "ldf:13.2"),
        ({"attack": "0", "defense": "2"}, "attack", "ldf:2.6"),
    ],
)
def test_odds_command_names_the_parameter_and_the_rule_it_breaks(store: DataStore, params: dict[str, str],
                                                                 key: str, rule: str) -> None:
    """A parameter the user got wrong is a ParameterError (a ValueError the command line reports)
    naming the parameter and, where a rule forbids it, the rule."""
    from ancients_kit.errors import ParameterError

    with pytest.raises(ParameterError) as info:
        odds.odds(store, params)
    assert (info.value.name, info.value.rule) == (key, rule)


# ---------------------------------------------------------------- ancients compare


@pytest.mark.rule("ldf:2.6", "ldf:13.9", "ldf:13.8", "ldf:13.11")
def test_compare_translates_an_engagement(store: DataStore) -> None:
    from ancients_kit.compare import Engagement, class_totals
    from ancients_games.ldf import compare

    crt = model.load_crt(store)
    t = compare.translate(store, Engagement((("heavy-infantry", 2),), (("warband", 1),)))
    assert t.distribution == odds.battle_distribution(crt, 2, 0, defense_germans=1)
    assert sum(class_totals(t).values()) == 1
    led = compare.translate(store, Engagement((("heavy-cavalry", 3),), (("medium-infantry", 1),), attacker_leader=True))
    assert led.distribution == crt.distribution(3, 1, shift=1)
    both = compare.translate(store, Engagement((("heavy-infantry", 3),), (("spearmen", 1),), attacker_leader=True,
                                               defender_leader=True))
    assert both.distribution == crt.distribution(3, 1)
    river = compare.translate(store, Engagement((("warband", 1),), (("heavy-infantry", 2),), terrain="river"))
    assert river.distribution == odds.battle_distribution(crt, 0, 2, attack_germans=1, shift=-1)
    missile = compare.translate(store, Engagement((("archers", 2),), (("medium-infantry", 1),), mode="missile"))
    assert missile.distribution == crt.distribution(2, 1) and "missile" in missile.steps[0]
    for bad in (Engagement((("elephants", 1),), (("warband", 1),)),
                Engagement((("heavy-infantry", 1),), (("warband", 1),), terrain="fort")):
        with pytest.raises(ValueError):
            compare.translate(store, bad)


# ---------------------------------------------------------------- the command line


@pytest.mark.rule("ldf:13.2", "ldf:13.15", "ldf:2.6")
def test_ancients_odds_ldf_on_the_command_line() -> None:
    import json

    from click.testing import CliRunner

    from ancients_kit.cli.main import cli

    r = CliRunner().invoke(cli, ["odds", "ldf", "attack=13", "defense=4", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert {k: v["fraction"] for k, v in out["distribution"].items()} == {"AS": "1/6", "DR": "1/3", "EX": "1/6",
                                                                          "DE": "1/3"}
    r = CliRunner().invoke(cli, ["odds", "ldf", "attack=2", "german_defense=1", "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["distribution"]["AE"]["fraction"] == "17/36"
    r = CliRunner().invoke(cli, ["odds", "ldf", "attack=2", "german_defense_factor=9"])
    assert r.exit_code == 2 and "ldf:2.6" in r.output
    r = CliRunner().invoke(cli, ["odds", "ldf", "help"])
    assert r.exit_code == 0 and "german_attack" in r.output
