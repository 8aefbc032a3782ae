"""What the players' table needs of Xenophon beyond the rules (issue 22): the log numbered by
game turn, and every question that concerns a place naming its hexes for the map."""

from __future__ import annotations

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session
from ancients_kit.tui.view import log_rows

from ancients_games.xenophon import GAME


@pytest.mark.rule("xen:sequence")
def test_log_rows_carry_the_game_turn() -> None:
    """Every event after the set-up is numbered with the turn it happened in (both player-turns of
    a turn under one number), so the table's log filter by turn shows that turn."""
    s = Session(GAME, "cyrus-revolt", seed=2031)
    play_out(s, RandomBot(), max_decisions=3_000)
    assert s.state.turn >= 2
    rows = log_rows(s.log, None)
    starts = [r for r in rows if r.kind == "turn"]
    assert [r.turn for r in starts][:4] == [1, 1, 2, 2]
    assert all(r.turn == 0 for r in rows[: starts[0].index])  # the set-up comes before turn 1
    for r in rows:
        if r.kind == "turn-end":
            assert r.text.startswith(f"Turn {r.turn} ends")
    assert {r.turn for r in rows} == set(range(s.state.turn + 1))
    assert log_rows(s.log, None, turn=2) and all(r.turn == 2 for r in log_rows(s.log, None, turn=2))
