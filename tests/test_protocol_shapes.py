"""The decision protocol serves the strategic games' shapes of play (chits_game plugin):
alternating actions, chits resolving the instant they are drawn, reactions by the
non-phasing side in the middle of an action, hidden hands, and turns ending on passes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "plugins"))

from chits_game import GAME  # noqa: E402

from ancients_kit.bots import RandomBot, play_out  # noqa: E402
from ancients_kit.session import Session  # noqa: E402


def _session(seed: int = 1) -> Session:
    return Session(GAME, "standard", seed=seed)


def test_actions_alternate_and_two_passes_end_the_turn() -> None:
    s = _session()
    assert s.decision.side == "Romans"
    s.answer("pass")
    assert s.decision.side == "Goths"
    s.answer("pass")
    assert s.state.turn == 2 and s.log[-1].kind == "turn"
    assert s.decision.side == "Romans"


def test_event_chit_resolves_at_once_without_a_question() -> None:
    s = _session()
    s.ctx.chance.force("storm", 4)  # the draw, then the storm's die: even ends the game
    s.answer("draw")
    # No action is asked before the storm resolves, and nobody holds an oracle to
    # consult after its roll: no question at all before the end.
    assert s.finished
    assert s.outcome.winner is None and "storm" in s.outcome.text
    assert [e.kind for e in s.log][-3:] == ["event", "roll", "end"]


def test_reaction_asks_the_other_side_mid_action() -> None:
    s = _session()
    s.answer("pass")
    s.ctx.chance.force("forced-march")
    s.answer("draw")  # the Goths now hold a forced march
    assert s.decision.side == "Romans"
    s.answer("march")
    d = s.decision
    assert d.side == "Goths" and d.kind == "window.reaction" and d.rule == "xen:opt.reaction"
    s.answer("forced-march")
    s.answer("add:cavalry")
    s.answer("done")
    assert s.state.marches == {"Romans": 1, "Goths": 1}
    assert s.decision.side == "Goths"  # the Romans' action is over; the Goths act next


def test_drawn_chits_are_hidden_from_the_other_side() -> None:
    s = _session()
    s.ctx.chance.force("supply")
    s.answer("draw")
    mine, theirs = s.log.text("Romans"), s.log.text("Goths")
    assert "Romans draws supply" in mine
    assert "supply" not in theirs and "Romans draws a chit" in theirs
    assert s.state.hands["Romans"].visible_to("Goths") == 1


@pytest.mark.parametrize("seed", range(8))
def test_random_games_end_and_replay_identically(seed: int) -> None:
    s = _session(seed)
    play_out(s, RandomBot(), max_decisions=5000)
    assert s.finished
    assert Session(GAME, "standard", seed=seed, answers=s.answers).log.digest() == s.log.digest()
