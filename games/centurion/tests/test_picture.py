"""The picture of a Centurion position draws every stack where the state has it."""

from __future__ import annotations

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session


@pytest.mark.rule("cen:basic.stacking", "cen:full.facing")
@pytest.mark.parametrize("scenario", ["basic-gaul", "numidia"])
def test_every_stack_is_drawn_on_its_hex_with_its_facing(scenario: str) -> None:
    s = Session.new("centurion", scenario, seed=2)
    play_out(s, RandomBot(), max_decisions=80)
    st = s.state
    pic = s.game.picture(st, None)
    by_hex = {c.hex: c for c in pic.counters}
    stacks = {u.hex for u in st.live_units() if u.hex is not None}
    assert set(by_hex) == {st.hid(h) for h in stacks}
    for h in stacks:
        c = by_hex[st.hid(h)]
        units = st.stack_at(h)
        assert c.side == units[0].side
        combat = [u for u in units if not st.types[u.type].is_command] or units
        assert c.code.startswith(combat[0].type[:2])
        assert (c.facing is not None) == (st.version != "basic")
        if c.facing is not None:
            assert c.facing == combat[0].facing % 6


@pytest.mark.rule("cen:basic.stacking")
def test_enemy_stacks_out_of_sight_are_drawn_face_down() -> None:
    s = Session.new("centurion", "basic-gaul", seed=2)
    st = s.state
    viewer = st.sides[0]
    pic = s.game.picture(st, viewer)
    hidden = [c for c in pic.counters if c.hidden]
    assert hidden and all(c.side != viewer and c.code == "??" for c in hidden)
    assert all(not c.hidden for c in s.game.picture(st, None).counters)
