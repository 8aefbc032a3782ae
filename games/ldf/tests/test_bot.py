"""The greedy bot's scores are declared per decision kind (games/ldf/bot.py's SCORERS)."""

from __future__ import annotations

from ancients_games.ldf import bot
from ancients_games.ldf.vocab import Kind


def test_every_kind_is_scored_or_left_at_zero_on_purpose() -> None:
    scored, unscored = set(bot.SCORERS), set(bot.UNSCORED)
    assert not scored & unscored, f"both scored and unscored: {sorted(scored & unscored)}"
    missing = set(Kind) - scored - unscored
    assert not missing, f"kinds without a scorer, not listed as scored 0 on purpose: {sorted(missing)}"


def test_a_kind_looks_its_scorer_up_as_its_string() -> None:
    assert bot.SCORERS.get("move.to") is bot.SCORERS[Kind.MOVE_TO]  # type: ignore[call-overload]
