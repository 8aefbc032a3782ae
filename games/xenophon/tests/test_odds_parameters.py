"""A typo in ``ancients odds xenophon ...`` (or an engagement ``ancients compare`` cannot put into
Xenophon) is one line naming the parameter, never a traceback: the core's ParameterError."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ancients_kit.cli.main import cli
from ancients_kit.compare import parse_engagement
from ancients_kit.data import DataStore
from ancients_kit.errors import ParameterError

from ancients_games.xenophon import GAME
from ancients_games.xenophon.compare import KIND_UNITS
from ancients_games.xenophon.render import LAYOUT_ENV, layout_choice

BAD = [
    # the parameters of every calculation
    ({"what": "siege"}, "what", "what='siege': one of battle", ""),
    ({"attack": "4", "defense": "2", "weather": "rain"}, "weather", "unknown parameter(s) for what=battle", ""),
    # numbers and flags (ancients_kit.plugin.parse_int, parse_flag)
    ({"attack": "x", "defense": "2"}, "attack", "'x' is not a whole number", ""),
    ({"attack": "-1", "defense": "2"}, "attack", "at least 0", ""),
    ({"defense": "2"}, "attack", "missing attack=N", ""),
    ({"attack": "4", "defense": "2", "siege": "perhaps"}, "siege", "takes yes or no", ""),
    # forces (xen:forces)
    ({"attackers": "4hoplites", "defense": "2"}, "attackers", "no unit type 'hoplites'", ""),
    ({"attackers": "+", "defense": "2"}, "attackers", "names no units", ""),
    ({"attackers": "11phalanx", "defense": "2"}, "attackers", "at most ten", "xen:forces"),
    ({"attackers": "2phalanx", "attack": "4", "defense": "2"}, "attackers", "not both", ""),
    # a battle (xen:combat, xen:crt)
    ({"attack": "4", "defense": "2", "terrain": "swamp"}, "terrain", "terrain='swamp': one of clear", ""),
    ({"attack": "0", "defense": "0"}, "attack", "neither side has any combat strength", "xen:combat"),
    ({"attack": "4", "defense": "2", "crt": "melee"}, "crt", "crt='melee': one of", ""),
    ({"attackers": "4phalanx", "defense": "2", "crt": "skirmish"}, "crt", "allows only", "xen:combat"),
    # the other calculations
    ({"what": "assassination", "target": "king"}, "target", "target=supreme or target=leader", "xen:diplomacy"),
    ({"what": "pillage", "units": "2", "force": "2phalanx"}, "units", "give units=N or force=FORCE", ""),
    ({"what": "pillage", "force": "supply_train"}, "force", "only trains", "xen:pillage"),
    ({"what": "colonisation", "points": "4", "clear": "yes"}, "clear", "clear=yes goes with force=FORCE", ""),
    ({"what": "diplomacy", "agents": "0"}, "agents", "at least 1", ""),
]


@pytest.mark.rule("xen:combat", "xen:crt", "xen:forces")
@pytest.mark.parametrize(("params", "name", "text", "rule"), BAD, ids=[b[2][:30] for b in BAD])
def test_a_bad_parameter_is_a_typed_error_naming_it(params: dict[str, str], name: str, text: str, rule: str) -> None:
    with pytest.raises(ParameterError) as info:
        GAME.odds(DataStore(GAME.package), params)
    assert text in str(info.value)
    assert info.value.name == name and info.value.rule == rule
    assert not rule or str(info.value).count(rule) == 1  # the rule already in the message: not appended


def test_the_messages_are_as_they_were() -> None:
    """ParameterError adds nothing to a message that names its rule or has none."""
    with pytest.raises(ParameterError) as info:
        GAME.odds(DataStore(GAME.package), {"attackers": "11phalanx", "defense": "2"})
    assert str(info.value) == "attackers: 11 units; a force has at most ten (xen:forces, xen:stacking)"
    with pytest.raises(ParameterError) as info:
        GAME.odds(DataStore(GAME.package), {"what": "assassination", "target": "king"})
    assert str(info.value) == "target=supreme or target=leader (xen:diplomacy: D3)"


@pytest.mark.rule("xen:combat")
@pytest.mark.parametrize(("params", "name", "text", "rule"), [BAD[0], BAD[2], BAD[8]], ids=["what", "int", "force"])
def test_the_command_prints_it_as_one_line(params: dict[str, str], name: str, text: str, rule: str) -> None:
    res = CliRunner().invoke(cli, ["odds", "xenophon", *(f"{k}={v}" for k, v in params.items())])
    assert res.exit_code == 2
    assert "Traceback" not in res.output
    first = [line for line in res.output.splitlines() if line.strip()][0]
    assert text in first and name in first


@pytest.mark.rule("xen:forces", "xen:stacking")
def test_compare_refuses_a_force_over_ten_naming_its_side() -> None:
    e = parse_engagement({"attacker": "heavy-infantry*11", "defender": "warband"})
    with pytest.raises(ParameterError, match="at most ten") as info:
        GAME.compare(DataStore(GAME.package), e)
    assert info.value.name == "attacker" and info.value.rule == "xen:forces"
    res = CliRunner().invoke(cli, ["compare", "attacker=heavy-infantry*11", "defender=warband"])
    assert "Traceback" not in res.output
    assert "the attacker has 11 units" in res.output


def test_compare_refuses_a_kind_it_has_no_unit_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(KIND_UNITS, "elephants")
    e = parse_engagement({"attacker": "elephants", "defender": "warband"})
    with pytest.raises(ParameterError, match="Xenophon has no elephants") as info:
        GAME.compare(DataStore(GAME.package), e)
    assert info.value.name == "attacker"


def test_a_bad_map_layout_names_where_it_came_from(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ParameterError, match="map layout 'sideways'") as info:
        layout_choice("sideways")
    assert info.value.name == "layout"
    monkeypatch.setenv(LAYOUT_ENV, "upside-down")
    with pytest.raises(ParameterError, match="map layout 'upside-down'") as info:
        layout_choice()
    assert info.value.name == LAYOUT_ENV
