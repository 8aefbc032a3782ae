"""Issue 10 (rules fidelity review), Centurion part: departures 16-21 and the readings
settled in docs/games/centurion.md ("Rulings").

Each test builds a position on a real scenario state cleared of its set-up (helpers
from ``positions``) and forces dice through ``ctx.chance.force`` where it rolls.
"""

from __future__ import annotations

import pytest

from ancients_kit.data import DataStore
from ancients_kit.hexgrid import Hex

from ancients_games.centurion.full import fire, morale, sequence
from ancients_games.centurion.full.morale import book
from ancients_games.centurion.model import load_units
from ancients_games.centurion.tests.positions import clear, first, fresh, put


@pytest.fixture(scope="module")
def types():
    return load_units(DataStore("ancients_games.centurion"))


# ------------------------------------------------------------------ 21: Command unit fire protection


@pytest.mark.rule("cen:full.fire-protection", "cen:opt.mount-dismount")
def test_21_a_command_unit_with_only_riderless_mounts_keeps_its_fire_protection(types):
    """Case G: Command units lose their FPF only "when stacked with other troops";
    riderless mounts have no Combat Factor (mount-dismount B) and are not troops."""
    o, firer = Hex(0, 0), Hex(0, -1)  # fire from the north, the Command unit faces north
    cm, mt, sk = types["CM"], types["MT"], types["SK"]
    assert fire.stack_fpf(o, [(cm, 0)], [firer]) == 3
    assert fire.stack_fpf(o, [(cm, 0), (mt, None)], [firer]) == 3  # was 0: the mount counted as troops
    assert fire.stack_fpf(o, [(cm, 0), (sk, 0)], [firer]) == 2  # real troops: only theirs counts


# ------------------------------------------------------------------ 18: failed fire attacks count


@pytest.mark.rule("cen:full.demoralization", "cen:full.combat")
def test_18_failed_offensive_fire_counts_among_the_attacks_of_the_turn():
    """"When 80% or more of the attacks made on that turn fail": missile attacks are attacks
    (the Attack Allocation Phase names "the manner in which the attacks will be made (i.e.
    missile or melee)"), so fire that neither destroys nor disperses is a failed attack."""
    s, ctx, st = fresh()
    sequence._tables(ctx, st)
    clear(st)
    ro, nu = "romans", "numidians"
    st.begin_player_turn(ro)
    sk = put(st, first(st, ro, "SK", 0).id, "1010", "N")
    tgt = put(st, first(st, nu, "SK", 0).id, "1009", "S")
    ctx.chance.force(6)  # 2 against 2 at 1-1: no effect
    sequence.offensive_fire_phase(ctx, st, ro, [sequence.Attack(tgt.hex, "fire", [sk.id])])
    b = book(st)
    assert (b.attacks, b.failed) == (1, 1)
    morale.end_of_player_turn_morale(ctx, st, ro, {ro: False, nu: True})
    assert sk.demoralized
    assert any("1 of 1 attacks failed" in e.text and e.rules == ("cen:full.demoralization",) for e in s.log.since(0))


@pytest.mark.rule("cen:full.demoralization", "cen:full.combat")
def test_18_fire_that_disperses_is_no_failed_attack():
    s, ctx, st = fresh()
    sequence._tables(ctx, st)
    clear(st)
    ro, nu = "romans", "numidians"
    st.begin_player_turn(ro)
    sk = put(st, first(st, ro, "SK", 0).id, "1010", "N")
    tgt = put(st, first(st, nu, "SK", 0).id, "1009", "S")
    ctx.chance.force(2)  # 1-1, roll 2: dispersed
    sequence.offensive_fire_phase(ctx, st, ro, [sequence.Attack(tgt.hex, "fire", [sk.id])])
    assert tgt.dispersed and (book(st).attacks, book(st).failed) == (1, 0)
