"""Issue 10 (rules fidelity review), Centurion part: departures 16-21 and the readings
settled in docs/games/centurion.md ("Rulings").

Each test builds a position on a real scenario state cleared of its set-up (helpers
from ``positions``) and forces dice through ``ctx.chance.force`` where it rolls.
"""

from __future__ import annotations

import pytest

from ancients_kit.data import DataStore
from ancients_kit.hexgrid import Hex

from ancients_games.centurion.full import fire
from ancients_games.centurion.model import load_units


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
