"""Options: one definition each, accepted by the CLI, honoured or refused by the Basic Game."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ancients_kit.cli.main import cli
from ancients_kit.data import DataStore
from ancients_kit.errors import IllegalAnswer
from ancients_kit.session import Session

from ancients_games.centurion import GAME
from ancients_games.centurion.combat import basic_attack_factor, basic_defence, command_rounding
from ancients_games.centurion.full.options import OPTION_SPECS
from ancients_games.centurion.options import BASE_OPTIONS, BASIC_GAME_OPTIONS, BASIC_REFUSALS
from ancients_games.centurion.reach import reachable
from ancients_games.centurion.setup import sandbox_state

STORE = DataStore("ancients_games.centurion")
SPECS = GAME.option_specs(STORE, "numidia")


def _switched_on(spec):
    """A value that switches the option on (the first non-default choice)."""
    if isinstance(spec.default, bool):
        return "yes"
    return next(str(c) for c in spec.choices if c != spec.default and c not in ("off", "none", "fine"))


@pytest.mark.rule("cen:scenarios", "cen:opt.fortune", "cen:opt.weather", "cen:full.treachery")
def test_every_option_is_defined_once():
    names = [s.name for s in SPECS]
    assert len(names) == len(set(names))
    base = {b[0] for b in BASE_OPTIONS}
    full = {s.name for s in OPTION_SPECS}
    assert base == {"version"} and not base & full
    assert set(names) == base | full
    assert set(BASIC_REFUSALS) | BASIC_GAME_OPTIONS == set(names)


@pytest.mark.rule("cen:scenarios", "cen:full.sequence")
@pytest.mark.parametrize("spec", [s for s in SPECS if s.name != "version"], ids=lambda s: s.name)
def test_new_accepts_every_option_for_a_full_simulation_scenario(spec):
    value = _switched_on(spec)
    s = Session.new("centurion", "numidia", seed=1, options={spec.name: value})
    assert s.options[spec.name] == spec.parse(value)
    assert s.decision is not None


@pytest.mark.rule("cen:basic.sequence")
@pytest.mark.parametrize("name", sorted(BASIC_REFUSALS))
def test_basic_game_refuses_full_simulation_options_naming_the_rule(name):
    spec = next(s for s in SPECS if s.name == name)
    with pytest.raises(IllegalAnswer) as exc:
        Session.new("centurion", "basic-gaul", seed=1, options={name: _switched_on(spec)})
    assert exc.value.rule == spec.rules[0]
    assert spec.rules[0] in str(exc.value) and "Basic Game" in str(exc.value)
    # Switched off, or left to the scenario, it is accepted.
    off = "off" if "off" in spec.choices else "no" if isinstance(spec.default, bool) else str(spec.default)
    assert Session.new("centurion", "basic-gaul", seed=1, options={name: off}).decision is not None


@pytest.mark.rule("cen:basic.sequence", "cen:scenarios")
def test_cli_new_refuses_with_the_rule_and_scenarios_lists():
    r = CliRunner().invoke(cli, ["new", "centurion", "basic-gaul", "--seed", "1", "-o", "command=on", "--bots",
                                 "--stop-after", "0", "--save", "/dev/null"])
    assert r.exit_code != 0 and "cen:opt.command" in r.output
    r = CliRunner().invoke(cli, ["scenarios", "centurion"])
    assert r.exit_code == 0


@pytest.mark.rule("cen:opt.fortune", "cen:basic.combat")
def test_basic_game_honours_the_fortune_factor():
    st = sandbox_state([("red", "SD", "0605"), ("blue", "SD", "0606")], options={"fortune": "first"})
    assert command_rounding(st, [st.hex_of("0605")], st.hex_of("0606"), "red")[0] == "attacker"
    assert command_rounding(st, [st.hex_of("0606")], st.hex_of("0605"), "blue")[0] == "defender"
    s = Session.new("centurion", "basic-gaul", seed=1, options={"fortune": "second"})
    assert any("cen:opt.fortune" in e.rules for e in s.log)


@pytest.mark.rule("cen:opt.weather", "cen:basic.movement", "cen:basic.combat")
def test_basic_game_honours_heavy_rain_and_mud():
    dry = Session.new("centurion", "basic-gaul", seed=1)
    wet = Session.new("centurion", "basic-gaul", seed=1, options={"weather": "mud"})
    assert any("cen:opt.weather" in e.rules for e in wet.log)
    d = wet.decision
    uid = next(k for k in d.keys if k in wet.state.units)
    wet.answer(uid)
    dry.answer(uid)
    assert len(wet.decision.options) < len(dry.decision.options)  # fewer hexes in reach
    # Spearmen are halved in attack and defence.
    st = sandbox_state([("red", "SP", "0605"), ("blue", "SP", "0606")])
    full_a, full_d = basic_attack_factor(st, st.units["RED-SP01"]), basic_defence(st, st.hex_of("0606"))
    st.extra["basic_weather"] = "heavy-rain"
    assert basic_attack_factor(st, st.units["RED-SP01"]) * 2 == full_a
    assert basic_defence(st, st.hex_of("0606")) * 2 == full_d
    # Fog stops only fire: no effect on movement.
    fog = Session.new("centurion", "basic-gaul", seed=1, options={"weather": "fog"})
    u = fog.state.units[uid]
    assert reachable(fog.state, u).cost.keys() == reachable(dry.state, dry.state.units[uid]).cost.keys()


@pytest.mark.rule("cen:basic.sequence", "cen:rom.legion-integrity")
def test_a_chart_scenario_played_as_basic_logs_its_unused_special_rules():
    s = Session.new("centurion", "numidia", seed=1, options={"version": "basic"})
    ev = [e for e in s.log if e.kind == "setup" and "not used in the Basic Game" in e.text]
    assert ev and "cen:rom.legion-integrity" in ev[0].rules
