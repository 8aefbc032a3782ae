"""Exact probabilities as printed: a certainty or an impossibility is said exactly, and a
near-certainty or a long chance is never rounded into one (issue 22)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner

from ancients_kit.cli.main import cli
from ancients_kit.tables import probability_decimal, probability_percent, probability_text

F = Fraction


@pytest.mark.parametrize(("p", "text", "decimal", "percent"), [
    (F(0), "0", "0", "0%"),
    (F(1), "1", "1", "100%"),
    (0, "0", "0", "0%"),
    (F(1, 2), "1/2 ~ 0.5000", "0.5000", "50.0%"),
    (F(1, 4096), "1/4096 ~ 0.0002", "0.0002", "<0.1%"),
    (F(1, 1679616), "1/1679616 < 0.0001", "< 0.0001", "<0.1%"),
    (F(99999, 100000), "99999/100000 > 0.9999", "> 0.9999", ">99.9%"),
    (F(6305, 6561), "6305/6561 ~ 0.9610", "0.9610", "96.1%"),
])
def test_zero_and_one_are_exact_and_nothing_else_rounds_to_them(p: Fraction, text: str, decimal: str,
                                                                 percent: str) -> None:
    assert probability_text(p) == text
    assert probability_decimal(p) == decimal
    assert probability_percent(p) == percent


def test_fewer_places_keep_the_same_rule() -> None:
    assert probability_decimal(F(1, 800), 3) == "0.001"
    assert probability_decimal(F(1, 4096), 3) == "< 0.001"
    assert probability_decimal(F(1999, 2000), 2) == "> 0.99"
    assert probability_percent(F(1, 300), 0) == "<1%"
    assert probability_percent(F(299, 300), 0) == ">99%"
    assert probability_percent(F(1, 3), 0) == "33%"


@pytest.mark.parametrize("bad", [F(-1, 3), F(4, 3)])
def test_a_value_outside_zero_to_one_is_refused(bad: Fraction) -> None:
    with pytest.raises(ValueError, match="is not a probability"):
        probability_text(bad)
    with pytest.raises(ValueError, match="at least one decimal place"):
        probability_decimal(F(1, 2), 0)


def test_the_odds_table_never_prints_a_long_chance_as_zero() -> None:
    res = CliRunner().invoke(cli, ["odds", "ccancients_rome", "dice=8", "target=light", "blocks=1"],
                             catch_exceptions=False, env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    rows = [line for line in res.output.splitlines() if line.startswith("│")]
    assert any("1/1679616" in r and "< 0.0001" in r for r in rows), res.output
    assert not any("0.0000" in r for r in rows), res.output


@pytest.mark.rule("ccr:base.dice")
def test_an_impossible_elimination_reads_zero_in_the_games_odds() -> None:
    """One die cannot eliminate a four-block unit: the odds say 0, not "0 ~ 0.0000"."""
    from ancients_kit.plugin import find_game

    game = find_game("ccancients_rome")
    from ancients_kit.data import DataStore

    report = game.odds(DataStore(game.package), {"dice": "1", "target": "heavy"})
    assert "P(eliminated) = 0" in report.explain
    assert not any("~ 0.0000" in line or "~ 1.0000" in line for line in report.explain)
