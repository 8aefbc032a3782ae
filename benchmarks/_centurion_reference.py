"""Centurion code as it was before issue 11 item 5, for the before/after ratios of
``bench_centurion.py`` and for the tests that check the fast code against it
(``games/centurion/tests/test_throughput.py``, ``test_copy_speed.py``). The rules
keep only the fast versions."""

from __future__ import annotations

import attrs

from ancients_games.centurion.full import fire, units
from ancients_games.centurion.state import CenturionState, Unit
from ancients_kit.hexgrid import Hex

__all__ = ["copy_unit", "deserter_hexes", "fire_targets", "memo_targets"]

_UNIT_SLOTS = tuple(f.name for f in attrs.fields(Unit))


def deserter_hexes(state: CenturionState, side: str) -> list[Hex]:
    """``units.deserter_hexes`` as it was: over ``live_units``."""
    out: list[Hex] = []
    for u in state.live_units(side):
        if u.treachery == "leaving" and u.hex is not None and u.hex not in out and all(
                x.side == side and x.treachery == "leaving" for x in state.stack_at(u.hex)):
            out.append(u.hex)
    return out


def fire_targets(state: CenturionState, u: Unit) -> list[Hex]:
    """``units.fire_targets`` as it was: the enemy's hexes from ``occupied_by``."""
    assert u.hex is not None
    targets = list(state.occupied_by(state.opponent(u.side)))
    if u.treachery != "leaving":
        targets.extend(deserter_hexes(state, u.side))
    return fire.fire_targets_in_reach(
        u.hex, u.facing, units.fire_reach(state, u), units.on_hill(state, u.hex), targets, units.fire_blocked(state)
    )


def memo_targets(memo: object, kind: str, state: CenturionState, u: Unit) -> list[Hex]:
    """``allocation.memo_targets`` without the memo."""
    return units.fire_targets(state, u) if kind == "fire" else units.melee_targets(state, u)


def copy_unit(unit: Unit) -> Unit:
    """``Unit.copy`` as it was: a ``setattr`` loop over the fields."""
    other = object.__new__(Unit)
    for name in _UNIT_SLOTS:
        setattr(other, name, getattr(unit, name))
    other.contact = set(unit.contact)
    return other
