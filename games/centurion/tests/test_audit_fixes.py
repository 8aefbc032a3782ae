"""Regression tests for the Centurion rules audit (notes/centurion-audit.md, section A).

Each test builds a position on a real scenario state cleared of its set-up (helpers
from ``test_full_rulings``) and forces dice through ``ctx.chance.force``.
"""

from __future__ import annotations

import pytest

from ancients_kit.session import Session

from ancients_games.centurion.full import sequence
from ancients_games.centurion.tests.test_full_rulings import clear, nth, put


def _daras_cataphract_ring():
    s = Session.new("centurion", "daras", seed=1)
    st, ctx = s.state, s.ctx
    sequence._tables(ctx, st)
    clear(st)
    bc = next(u for u in st.units.values() if u.type == "BC")
    side = bc.original_side
    enemy = st.opponent(side)
    st.begin_player_turn(side)
    put(st, bc.id, "1010", "N")
    tgt = put(st, nth(st, enemy, "SP", 0).id, "1009", "S")
    sp = put(st, nth(st, side, "SP", 0).id, "0909", "NE")
    sk = put(st, nth(st, side, "SK", 0).id, "1109", "NW")
    return s, ctx, st, side, bc, sp, sk, tgt


@pytest.mark.rule("cen:full.combat")
def test_a1_a_hex_is_fired_on_once_and_meleed_once_with_cataphract_fire_and_melee():
    s, ctx, st, side, bc, sp, sk, tgt = _daras_cataphract_ring()
    h = st.hex_of("1009")
    A = sequence.Attack
    attacks = [A(h, "both", [bc.id]), A(h, "melee", [sp.id]), A(h, "fire", [sk.id])]
    n0 = len(s.log)
    ctx.chance.force(6, 6, 6, 6)
    sequence.offensive_fire_phase(ctx, st, side, attacks)
    fire_rolls = [e for e in s.log.since(n0) if e.text.startswith("d6 [")]
    n1 = len(s.log)
    mg = sequence.melee_phase(ctx, st, side, attacks)
    try:
        while True:
            next(mg)
    except StopIteration:
        pass
    melee_rolls = [e for e in s.log.since(n1) if e.text.startswith("d6 [")]
    # case I: the BC and SK total their fire into one attack; case J: one battle for the hex
    assert len(fire_rolls) == 1, [e.text for e in s.log.since(n0)]
    assert len(melee_rolls) == 1, [e.text for e in s.log.since(n1)]
