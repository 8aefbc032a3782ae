"""One reading of yes/no values typed by a user: options, odds and compare parameters."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ancients_kit.cli.main import cli
from ancients_kit.errors import ParameterError
from ancients_kit.plugin import OptionSpec, parse_flag, parse_int


@pytest.mark.parametrize("text", ["yes", "Y", " on ", "1", "TRUE"])
def test_yes_values(text: str) -> None:
    assert parse_flag(text, "leader") is True


@pytest.mark.parametrize("text", ["no", "N", "off", "0", "false"])
def test_no_values(text: str) -> None:
    assert parse_flag(text, "leader") is False


def test_anything_else_is_refused_naming_the_parameter() -> None:
    with pytest.raises(ValueError, match=r"leader takes yes or no, not 'maybe'"):
        parse_flag("maybe", "leader")


@pytest.mark.parametrize("game, args", [
    ("ccancients_rome", ["dice=3", "target=medium", "leader=maybe"]),
    ("ldf", ["attack=13", "defense=4", "river=maybe"]),
])
def test_odds_refuse_a_typo_in_a_flag_instead_of_reading_it_as_no(game: str, args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["odds", game, *args])
    assert result.exit_code == 2, result.output
    assert "takes yes or no, not 'maybe'" in result.output
    assert "Traceback" not in result.output


@pytest.mark.rule("ldf:14.3")
def test_ldf_odds_refuse_siege_equipment_for_german_attackers() -> None:
    result = CliRunner().invoke(cli, ["odds", "ldf", "attack=0", "german_attack=2", "defense=4", "siege=yes"])
    assert result.exit_code == 2 and "only a loyal Roman attack" in result.output, result.output


def test_a_bad_typed_value_is_a_parameter_error_naming_it() -> None:
    with pytest.raises(ParameterError) as flag:
        parse_flag("perhaps", "leader")
    assert flag.value.name == "leader" and isinstance(flag.value, ValueError)
    with pytest.raises(ParameterError, match="must be at least 1") as number:
        parse_int({"dice": "0"}, "dice", lo=1)
    assert number.value.name == "dice"
    with pytest.raises(ParameterError, match="option 'weather' takes one of") as option:
        OptionSpec("weather", "fair", "the weather", choices=("fair", "rain")).parse("snow")
    assert option.value.name == "weather"
