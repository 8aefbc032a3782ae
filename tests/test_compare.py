"""``ancients compare``: one engagement under every installed game, exactly."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from ancients_kit.cli.main import cli
from ancients_kit.compare import CLASSES, CompareError, class_totals, parse_engagement
from ancients_kit.data import DataStore
from ancients_kit.plugin import load_games


@pytest.fixture
def run():
    runner = CliRunner()
    return lambda *args: runner.invoke(cli, list(args), catch_exceptions=False)


def test_engagements_are_parsed_and_bad_ones_refused() -> None:
    e = parse_engagement({"attacker": "heavy-infantry*2,light-cavalry", "defender": "warband", "terrain": "hill",
                          "leader": "yes"})
    assert e.attacker == (("heavy-infantry", 2), ("light-cavalry", 1)) and e.attacker_leader
    with pytest.raises(CompareError, match="unknown unit kind 'hoplites'"):
        parse_engagement({"attacker": "hoplites", "defender": "warband"})
    with pytest.raises(CompareError, match="missing defender"):
        parse_engagement({"attacker": "warband"})
    with pytest.raises(CompareError, match="terrain: 'swamp'"):
        parse_engagement({"attacker": "warband", "defender": "warband", "terrain": "swamp"})
    with pytest.raises(CompareError, match="give 1 to 12"):
        parse_engagement({"attacker": "warband*0", "defender": "warband"})


@pytest.mark.parametrize("terrain", ["clear", "hill", "forest"])
@pytest.mark.parametrize("mode", ["melee", "missile"])
def test_every_translation_is_a_whole_distribution(terrain: str, mode: str) -> None:
    att = "archers*2" if mode == "missile" else "heavy-infantry*2"
    e = parse_engagement({"attacker": att, "defender": "medium-infantry", "terrain": terrain, "mode": mode})
    seen = 0
    for g in load_games().values():
        t = g.compare(DataStore(g.package), e)
        if t is None:
            continue
        seen += 1
        tot = class_totals(t)
        assert set(tot) == set(CLASSES) and sum(tot.values()) == 1
    assert seen >= 2


@pytest.mark.rule("cen:basic.combat", "cen:opt.command")
def test_centurion_translation_reads_the_same_cells_as_its_odds_calculator() -> None:
    g = load_games()["centurion"]
    store = DataStore(g.package)
    e = parse_engagement({"attacker": "heavy-infantry*2", "defender": "warband", "terrain": "hill", "leader": "yes"})
    t = g.compare(store, e)
    # 2 Roman Swordsmen (4 each) against Barbarian Infantry (2) doubled on the hill: 8 against 4.
    assert g.odds(store, {"attack": "8", "defense": "4", "rounding": "attacker"}).distribution == t.distribution
    assert any("8 : 4 -> column 2-1" in s for s in t.steps)


@pytest.mark.rule("ccr:base.terrain", "ccr:base.close-combat")
def test_cca_translation_caps_dice_uphill_and_reads_its_odds() -> None:
    g = load_games()["ccancients_rome"]
    store = DataStore(g.package)
    e = parse_engagement({"attacker": "heavy-infantry", "defender": "warband", "terrain": "hill", "support": "yes"})
    t = g.compare(store, e)
    want = g.odds(store, {"dice": "2", "target": "WA", "attacker": "HI", "support": "yes"})
    assert t.distribution == want.distribution
    assert any("at most 2 dice" in s for s in t.steps)


def test_a_kind_a_game_lacks_is_said_not_hidden(run) -> None:
    res = run("compare", "attacker=elephants", "defender=heavy-infantry")
    assert res.exit_code == 0, res.output
    assert "cannot be compared (Centurion has no elephants)" in res.output
    assert "C&C: Ancients" in res.output


def test_compare_json_and_plot(run, tmp_path) -> None:
    res = run("compare", "attacker=heavy-infantry*2", "defender=warband", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    games = {g["game"] for g in data["games"]}
    assert {"Centurion", "C&C: Ancients"} <= games
    for g in data["games"]:
        assert sum(Fraction(v["exact"]) for v in g["classes"].values()) == 1
    chart = tmp_path / "c.svg"
    res = run("compare", "attacker=heavy-infantry*2", "defender=warband", "--plot", str(chart))
    assert res.exit_code == 0, res.output
    assert chart.read_text().lstrip().startswith("<?xml")
    res = run("compare", "attacker=heavy-infantry", "defender=warband", "flanks=yes")
    assert res.exit_code == 2 and "unknown key(s) flanks" in res.output
