"""What a user can get wrong in Centurion is refused with the core's typed errors
(:mod:`ancients_kit.errors`), each naming its rule, and the command line shows it as one
line, never a traceback: ``ancients odds centurion`` parameters, a compare engagement, an
option, a scenario id, a typed answer and a variant file's values."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ancients_kit.cli.main import cli
from ancients_kit.compare import parse_engagement
from ancients_kit.data import DataStore
from ancients_kit.errors import IllegalAnswer, InvalidAnswer, ParameterError

from ancients_games.centurion import GAME, model
from ancients_games.centurion.compare import translate

DATA = Path(__file__).resolve().parents[1] / "data"


def _run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def _error_line(res: Result) -> str:
    """The ``Error: ...`` line of a refused command (the core may add a hint below it)."""
    assert "Traceback" not in res.output, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    lines = [ln for ln in res.output.splitlines() if ln.startswith("Error: ")]
    assert len(lines) == 1, res.output
    return lines[0]


# ---------------------------------------------------------------- ancients odds centurion


@pytest.mark.rule("cen:basic.combat")
@pytest.mark.parametrize(("params", "name", "rule", "text"), [
    ({"attack": "x", "defense": "3"}, "attack", "cen:basic.combat", "attack must be a whole number, not 'x'"),
    ({"attack": "-1", "defense": "3"}, "attack", "cen:basic.combat", "attack must not be negative, got -1"),
    ({"defense": "3"}, "attack", "cen:basic.combat", "missing attack=N"),
    ({"attack": "4", "defense": "2", "command": "maybe"}, "command", "cen:basic.combat",
     "command takes yes or no, not 'maybe'"),
    ({"attack": "4", "defense": "2", "foo": "1"}, "foo", "cen:basic.combat", "unknown parameter(s) foo"),
    ({"attack": "4", "defense": "2", "modifier": "z"}, "modifier", "cen:basic.combat",
     "modifier must be a whole number, not 'z'"),
    ({"attack": "4", "defense": "2", "crt": "ranged"}, "crt", "cen:full.combat", "crt is melee or fire"),
    ({"attack": "4", "defense": "2", "rounding": "up"}, "rounding", "cen:basic.combat",
     "rounding is attacker or defender, not 'up'"),
])
def test_an_unreadable_odds_parameter_is_a_parameter_error(params: dict[str, str], name: str, rule: str,
                                                           text: str) -> None:
    with pytest.raises(ParameterError) as got:
        GAME.odds(DataStore(GAME.package), params)
    assert got.value.rule == rule and got.value.name == name and text in str(got.value)
    assert rule in str(got.value)
    line = _error_line(res := _run("odds", "centurion", *(f"{k}={v}" for k, v in params.items())))
    assert res.exit_code == 2 and text in line and rule in line


@pytest.mark.rule("cen:basic.combat", "cen:full.defensive-fire")
def test_a_non_viable_attack_is_a_parameter_error_naming_the_rule() -> None:
    with pytest.raises(ParameterError) as got:
        GAME.odds(DataStore(GAME.package), {"attack": "2", "defense": "9"})
    assert got.value.rule == "cen:basic.combat" and got.value.name == "attack"
    res = _run("odds", "centurion", "attack=2", "defense=9")
    line = _error_line(res)
    assert res.exit_code == 2 and "below 1-2 an attack is non-viable (cen:basic.combat" in line


# ---------------------------------------------------------------- ancients compare


@pytest.mark.rule("cen:full.units", "cen:full.combat", "cen:full.cross-river", "cen:basic.combat")
@pytest.mark.parametrize(("params", "rule", "text"), [
    ({"attacker": "elephants", "defender": "warband"}, "", "Centurion has no elephants"),
    ({"attacker": "heavy-infantry", "defender": "warband", "mode": "missile"}, "cen:full.combat",
     "no attacking unit has a Fire Combat Factor [cen:full.combat]"),
    ({"attacker": "heavy-infantry", "defender": "warband", "terrain": "river"}, "cen:full.cross-river",
     "Centurion units do not stand in a river hex [cen:full.cross-river]"),
    ({"attacker": "light-infantry", "defender": "heavy-infantry*6"}, "cen:basic.combat",
     "2 against 24: table centurion.crt.melee: 2:24 falls below the lowest column 1-2"),
])
def test_an_engagement_centurion_cannot_fight_is_an_illegal_answer(params: dict[str, str], rule: str,
                                                                  text: str) -> None:
    with pytest.raises(IllegalAnswer) as got:
        translate(DataStore(GAME.package), parse_engagement(params))
    assert got.value.rule == rule and text in str(got.value)
    res = _run("compare", *(f"{k}={v}" for k, v in params.items()))
    assert res.exit_code == 0 and "Traceback" not in res.output, res.output
    said = " ".join(res.output.split())
    assert re.search(r"Centurion[^\n]*: cannot be compared \(" + re.escape(text), said), said


# ---------------------------------------------------------------- options, scenarios, answers


@pytest.mark.rule("cen:full.treachery", "cen:basic.sequence")
def test_a_full_simulation_option_in_the_basic_game_is_one_line(tmp_path: Path) -> None:
    res = _run("new", "centurion", "basic-gaul", "-o", "treachery=both", "--bots", "--no-map", "--seed", "1",
               "--save", str(tmp_path / "g.json"))
    line = _error_line(res)
    assert res.exit_code == 2 and "does not apply to the Basic Game" in line and "cen:full.treachery" in line


@pytest.mark.rule("cen:scenarios")
def test_an_unknown_scenario_is_an_invalid_answer(tmp_path: Path) -> None:
    with pytest.raises(InvalidAnswer) as got:
        model.load_scenario(DataStore(GAME.package), "atlantis")
    assert got.value.rule == "cen:scenarios" and got.value.answer == "atlantis"
    res = _run("new", "centurion", "atlantis", "--bots", "--no-map", "--save", str(tmp_path / "g.json"))
    assert res.exit_code == 2 and "no scenario 'atlantis'" in _error_line(res)


@pytest.mark.rule("cen:full.deployment")
def test_a_typed_answer_a_rule_refuses_is_one_line_naming_the_rule(tmp_path: Path) -> None:
    res = _run("new", "centurion", "numidia", "-o", "placement=yes", "--hotseat", "--no-map", "--plain",
               "--seed", "1", "--save", str(tmp_path / "h.json"), input="ROM-SD01\n0101\nquit\n")
    assert res.exit_code == 0 and "Traceback" not in res.output, res.output
    said = " ".join(res.output.split())
    assert "illegal: 0101 is 25 hexes from the centre of mass 2116" in said and "[cen:full.deployment]" in said


# ---------------------------------------------------------------- variant files


def _variant(tmp_path: Path, data_id: str, body: str) -> Path:
    (tmp_path / "doc.toml").write_text(body, encoding="utf-8")
    v = tmp_path / "v.toml"
    v.write_text(f'[meta]\nid = "v"\nsource = "variant"\nnote = "x"\n[replace."{data_id}"]\nfile = "doc.toml"\n',
                 encoding="utf-8")
    return v


@pytest.mark.rule("cen:full.deployment", "cen:scenarios", "cen:full.movement")
@pytest.mark.parametrize(("rel", "data_id", "old", "new", "text"), [
    ("scenarios/numidia.toml", "centurion.scenario.numidia", 'centre = "2116"', 'centre = "9999"',
     "zone.centre: hex '9999' is not on the map"),
    ("scenarios/numidia.toml", "centurion.scenario.numidia", "count = 1", "count = 2",
     "side[0].units[0]: unit group CM: 2 counters but 1 hexes listed"),
    ("terrain.toml", "centurion.terrain", 'cost_by_kind = { cavalry = "3", mount = "3" }',
     'cost_by_kind = { cavalry = 2.5, mount = "3" }', "expected an integer or a fraction string"),
])
def test_a_variant_value_that_breaks_the_data_is_a_one_line_data_error(tmp_path: Path, rel: str, data_id: str,
                                                                       old: str, new: str, text: str) -> None:
    body = (DATA / rel).read_text(encoding="utf-8")
    assert old in body
    v = _variant(tmp_path, data_id, body.replace(old, new, 1))
    res = _run("new", "centurion", "numidia", "--bots", "--no-map", "--seed", "1", "--variant", str(v),
               "--save", str(tmp_path / "g.json"))
    line = _error_line(res)
    assert res.exit_code == 2 and "v.toml" in line and text in line
