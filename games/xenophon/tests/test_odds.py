"""``ancients odds xenophon`` and ``ancients compare`` against the real tables."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.compare import Engagement, class_totals
from ancients_kit.data import DataStore
from ancients_games.xenophon import GAME, PACKAGE, compare
from ancients_games.xenophon.model import load_tables

STORE = DataStore(PACKAGE)
TABLES = load_tables(STORE)


def odds(**params: str):
    return GAME.odds(STORE, params)


@pytest.mark.rule("xen:combat", "xen:crt")
def test_battle_odds_match_the_table_and_the_multipliers() -> None:
    r = odds(attack="10", defense="10")
    assert r.distribution == TABLES["engagement"].distribution(1, 1)
    assert r.distribution["AZ"] == Fraction(1, 6)  # printed: 1:1, roll 1
    # CS 10 with a leader, Military Advantage and a siege train against terrain: 40 against 10 -> >=4:1
    r = odds(attack="10", defense="10", attack_leader="yes", attack_advantage="yes", siege="yes", terrain="rough")
    assert r.title.startswith("Xenophon battle: 40 against 20")
    assert any(line.startswith("40:20 -> 2:1 on the Engagement CRT") for line in r.explain)
    assert sum(r.distribution.values()) == 1
    # the siege train needs the defender's terrain
    r = odds(attack="10", defense="10", siege="yes")
    assert r.title.startswith("Xenophon battle: 10 against 10")


@pytest.mark.rule("xen:combat", "xen:crt")
def test_battle_odds_by_composition_choose_the_allowed_crt() -> None:
    r = odds(attackers="4phalanx+2cavalry+2militia", defenders="4militia")
    assert "Combined Arms" in r.title  # 48 against 8: allowed and best
    with pytest.raises(ValueError, match="allows only engagement, combined-arms"):
        odds(attackers="4phalanx+2cavalry+2militia", defenders="4militia", crt="skirmish")
    r = odds(attackers="2cavalry+light", defenders="2militia", crt="skirmish")
    assert r.distribution == TABLES["skirmish"].distribution(16, 4)
    with pytest.raises(ValueError, match="at most ten"):
        odds(attackers="11militia", defense="4")
    with pytest.raises(ValueError, match="no unit type"):
        odds(attackers="3hoplites", defense="4")
    with pytest.raises(ValueError, match="unknown parameter"):
        odds(attack="3", defense="4", agents="2")


@pytest.mark.rule("xen:combat")
def test_withdrawal_odds_worked_example() -> None:
    assert odds(what="withdrawal", defender_ov="16", attacker_ov="16").distribution == {
        "withdraws": Fraction(15, 36), "stands": Fraction(21, 36)}
    assert odds(what="withdrawal", defender_ov="21", attacker_ov="16").distribution["withdraws"] == Fraction(35, 36)
    assert odds(what="withdrawal", defender_ov="22", attacker_ov="16").distribution == {"withdraws": 1}


@pytest.mark.rule("xen:opt.personal-combat", "xen:leaders")
def test_personal_combat_and_assassination_odds() -> None:
    assert odds(what="personal", leader="Cyrus").distribution == {
        "win": Fraction(21, 36), "tie": Fraction(5, 36), "lose": Fraction(10, 36)}
    assert odds(what="assassination", target="supreme").distribution["killed"] == Fraction(1, 3)
    assert odds(what="assassination", target="leader").distribution["killed"] == Fraction(1, 2)


@pytest.mark.rule("xen:diplomacy", "xen:pillage", "xen:colonisation")
def test_diplomacy_pillage_and_colonisation_odds_worked_examples() -> None:
    # 3 Agents against 1 -> column 2; the Supreme Leader in a Capital shifts it to 3
    d = odds(what="diplomacy", agents="3", against="1", shift="1")
    assert d.distribution == TABLES["diplomacy"].distribution_value(3)
    assert "column 3" in d.explain[0]
    # 5 units including a leader, plus a supply train -> column 4-5
    p = odds(what="pillage", force="4militia+leader+supply_train")
    assert p.distribution == TABLES["pillage"].distribution_value(5) and "column 4-5" in p.explain[1]
    # 2 Phalanx + 1 leader in a clear hex = 7 -> column 7+
    c = odds(what="colonisation", force="2phalanx+leader", clear="yes")
    assert c.distribution == TABLES["colonisation"].distribution_value(7) and "7 point(s)" in c.explain[0]
    with pytest.raises(ValueError, match="what="):
        odds(what="siege")


@pytest.mark.rule("xen:combat", "xen:crt")
def test_compare_translates_an_engagement() -> None:
    t = compare.translate(STORE, Engagement((("heavy-infantry", 4), ("heavy-cavalry", 2)), (("medium-infantry", 3),)))
    assert sum(t.distribution.values()) == 1
    assert "combined-arms" in " ".join(t.steps)
    fort = compare.translate(STORE, Engagement((("heavy-infantry", 2),), (("heavy-infantry", 2),), terrain="fort"))
    open_ = compare.translate(STORE, Engagement((("heavy-infantry", 2),), (("heavy-infantry", 2),)))
    # walls double the defender: the attacker does worse
    assert class_totals(fort)["attacker harmed"] > class_totals(open_)["attacker harmed"]
    led = compare.translate(STORE, Engagement((("heavy-infantry", 2),), (("heavy-infantry", 2),), attacker_leader=True))
    assert class_totals(led)["attacker harmed"] < class_totals(open_)["attacker harmed"]
    with pytest.raises(ValueError, match="at most ten"):
        compare.translate(STORE, Engagement((("archers", 11),), (("warband", 1),)))
    assert GAME.compare(STORE, Engagement((("warband", 1),), (("elephants", 1),))).game.startswith("Xenophon")


@pytest.mark.rule("xen:combat", "xen:crt")
def test_ancients_odds_xenophon_on_the_command_line() -> None:
    import json

    from click.testing import CliRunner

    from ancients_kit.cli.main import cli

    r = CliRunner().invoke(cli, ["odds", "xenophon", "what=withdrawal", "defender_ov=16", "attacker_ov=16", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["distribution"]["withdraws"]["fraction"] == "5/12"  # 15/36
    r = CliRunner().invoke(cli, ["odds", "xenophon", "attack=4", "defense=4", "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["distribution"]["AZ"]["fraction"] == "1/6"
    r = CliRunner().invoke(cli, ["odds", "xenophon", "attackers=4militia", "defense=2", "crt=skirmish"])
    assert r.exit_code == 2 and "xen:combat" in r.output
    r = CliRunner().invoke(cli, ["odds", "xenophon", "help"])
    assert r.exit_code == 0 and "what=withdrawal" in r.output
