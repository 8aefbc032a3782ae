"""A typo in ``ancients odds ccancients_rome ...`` is one line naming the parameter, never a traceback."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ancients_games.ccancients_rome import GAME
from ancients_kit.cli.main import cli
from ancients_kit.data import DataStore
from ancients_kit.errors import ParameterError

BAD = [
    ({"dice": "x", "target": "light"}, "dice", "'x' is not a whole number"),
    ({"dice": "-1", "target": "light"}, "dice", "at least 0"),
    ({"dice": "13", "target": "light"}, "dice", "at most 12 dice"),
    ({"dice": "3", "target": "elephantine"}, "target", "give light, medium, heavy or a unit code"),
    ({"dice": "3", "target": "light", "mode": "sideways"}, "mode", "close or ranged"),
    ({"dice": "3", "target": "light", "attacker": "ZZ"}, "attacker", "give a unit code"),
    ({"dice": "3", "target": "light", "leader": "perhaps"}, "leader", "takes yes or no"),
    ({"dice": "3", "target": "light", "blocks": "two"}, "blocks", "is not a whole number"),
]


@pytest.mark.rule("ccr:base.dice")
@pytest.mark.parametrize(("params", "name", "text"), BAD)
def test_a_bad_parameter_is_a_typed_error_naming_it(params: dict[str, str], name: str, text: str) -> None:
    with pytest.raises(ParameterError, match=text) as info:
        GAME.odds(DataStore(GAME.package), params)
    assert info.value.name == name


@pytest.mark.rule("ccr:base.dice")
@pytest.mark.parametrize(("params", "name", "text"), BAD[:3])
def test_the_command_prints_it_as_one_line(params: dict[str, str], name: str, text: str) -> None:
    res = CliRunner().invoke(cli, ["odds", "ccancients_rome", *(f"{k}={v}" for k, v in params.items())])
    assert res.exit_code == 2
    assert "Traceback" not in res.output
    first = [line for line in res.output.splitlines() if line.strip()][0]
    assert text in first and name in first
