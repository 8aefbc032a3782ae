"""The picture of a C&C battlefield draws every unit, leader and section line."""

from __future__ import annotations

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session


@pytest.mark.rule("ccr:units", "ccr:base.sections")
@pytest.mark.parametrize("battle", ["carrhes", "milvian-bridge"])
def test_every_unit_and_leader_is_drawn_where_the_state_has_it(battle: str) -> None:
    s = Session.new("ccancients_rome", battle, seed=5)
    play_out(s, RandomBot(), max_decisions=120)
    bs = s.state.b
    pic = s.game.picture(s.state, None)
    units = {c.hex: c for c in pic.counters if c.code != "Ldr"}
    assert set(units) == set(bs.at)
    for h, u in bs.at.items():
        assert units[h].side == u.side and units[h].code == u.code
        assert units[h].strength == f"{u.blocks} bl."
        assert ("*leader" in units[h].marks) == (bs.leader_with(u) is not None)
    alone = {c.hex for c in pic.counters if c.code == "Ldr"}
    assert alone == {ld.hex for ld in bs.leaders if ld.hex and ld.hex not in bs.at}
    assert len(pic.lines) == 2 and {h.id for h in pic.hexes} == set(bs.board.hexes)
