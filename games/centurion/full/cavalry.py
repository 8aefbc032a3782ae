"""Cavalry charges (cen:full.cavalry).

A cavalry unit attacks at its full Melee Attack Factor only after a charge: a
straight move through as many hexes as that factor (Light Cavalry 1, Oriental
Cavalry 2, Byzantine Cataphracts 3; ``charge_length`` in ``units.toml``). Each
hex short costs one factor, but a short charge never brings a unit below its
floor (``min_charge_attack``: cataphracts 2, light cavalry 1). The charge must
be straight along its whole length, may not pass through units (friendly or
enemy: movement D, cavalry paragraph) nor through terrain the chart closes to
charges, and must end adjacent to the attacked unit, facing it. Charges from
different places may not end on the same hex. Heavy rain and mud halve charges
(cen:opt.weather, applied in :mod:`.melee`).

This module measures a charge from the path a unit moved this turn; the
engine's movement records the path (among equally cheap paths, one ending in
the longest straight run in the final facing), the movement hooks pass it here,
and also counts a longer straight run the unit could have made to the same
hex within its allowance at a higher cost ("ride away ... to gain room",
``movement_hooks._straight_charge_possible``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ancients_kit.hexgrid import Hex, direction_to

from ancients_games.centurion.model import UnitType

__all__ = ["charge_factor", "charge_length_of_path", "charge_problem"]


def charge_length_of_path(
    path: Sequence[Hex],
    facing: int,
    blocked: Callable[[Hex], bool] = lambda h: False,
) -> int:
    """Hexes of straight charge at the end of ``path`` (start hex first).

    Counts the trailing steps taken in the unit's final facing direction (the
    charge must run "straight along its entire length" and the unit must
    finish facing the attacked unit). A hex for which ``blocked`` is true
    (another unit was there, or terrain no charge may pass) breaks the charge:
    only the steps after it count.
    """
    n = 0
    for i in range(len(path) - 1, 0, -1):
        a, b = path[i - 1], path[i]
        try:
            d = direction_to(a, b)
        except ValueError:
            break
        if d != facing % 6:
            break
        if i < len(path) - 1 and blocked(b):
            break
        n += 1
    return n


def charge_factor(unit: UnitType, hexes_charged: int) -> int:
    """Melee Attack Factor a cavalry unit earns for a charge of ``hexes_charged``.

    cen:full.cavalry: full MAF for a charge of ``charge_length`` hexes or more,
    one less per hex short, never below ``min_charge_attack``. A unit that is
    not charging cavalry keeps its printed MAF.
    """
    if unit.charge_length <= 0:
        return unit.melee_attack
    short = max(0, unit.charge_length - max(0, hexes_charged))
    return max(unit.melee_attack - short, unit.min_charge_attack)


def charge_problem(
    charger_hex: Hex,
    target_hex: Hex,
    facing: int,
    start_hexes_ending_here: Sequence[Hex],
    own_start: Hex,
) -> str | None:
    """Why a charge from ``own_start`` ending at ``charger_hex`` is not allowed, or None.

    cen:full.cavalry: the charger must end adjacent to the attacked unit and
    facing it (the target in its front); cavalry charging from different
    locations may not end their charges on the same hex
    (``start_hexes_ending_here`` are the start hexes of other charges that
    ended on ``charger_hex``).
    """
    if charger_hex.distance(target_hex) != 1:
        return "a charge must finish adjacent to the attacked unit"
    d = direction_to(charger_hex, target_hex)
    if (d - facing) % 6 not in (0, 1, 5):
        return "a charge must finish facing the attacked unit"
    if any(s != own_start for s in start_hexes_ending_here):
        return "cavalry charging from different locations may not end their charges on the same hex"
    return None
