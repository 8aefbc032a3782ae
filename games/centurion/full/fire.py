"""Missile fire in the Full Simulation: protection, multiplication, range and odds.

Rules served:

* ``cen:full.fire-protection`` (combat case G): every unit but a Command unit
  protects itself with 2 when the fire comes through its front and 1 through a
  flank; fire from both directions leaves it 1 (its flank value). Command units
  protect with 3 front / 2 flank, and only when no other troops share the hex
  (riderless mounts are no troops: they have no Combat Factor, cen:opt.mount-dismount B).
  The per-type values come from ``units.toml`` (``fire_protection_front`` /
  ``fire_protection_flank``) so a designer can change them.
* ``cen:full.fem``: the fire factor is multiplied by the number of target units
  in the hex (Command units not counted, riderless mounts count one-half,
  ``cen:opt.mount-dismount`` C), never by more than three. The book's case: a
  Skirmisher (fire 2) at a stack of three fires at 6.
* ``cen:full.combat`` cases B, C, D, I: fire only into the front arc, range 1,
  range 2 from a hilltop (and then over intervening units and obstacles);
  otherwise never through intervening units; firers on several hexes at one
  target hex total their factors into one attack.
* ``cen:opt.weather``: fog (no fire beyond basic range), light rain (only
  Slingers fire), heavy rain (no fire).

All arithmetic is exact (:class:`fractions.Fraction`); odds tables want whole
numbers, so :func:`whole_odds` scales both sides by a common denominator.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from math import lcm

from ancients_kit.hexgrid import Hex, arc_side, in_front_arc, is_frontal, line

from ancients_games.centurion.model import UnitKind, UnitType

__all__ = [
    "FEM_CAP",
    "Weather",
    "fem_multiplier",
    "effective_fire",
    "fire_allowed",
    "fire_range",
    "fire_targets_in_reach",
    "in_field_of_fire",
    "stack_fpf",
    "unit_fpf",
    "whole_odds",
]

FEM_CAP = 3
"""The FEM factor is never more than three times the basic Fire Combat Factor (cen:full.fem)."""

Weather = str
"""``fine``, ``fog``, ``light-rain``, ``heavy-rain``, ``mud`` (cen:opt.weather)."""

SLINGER_CODES = frozenset({"SL"})
"""Unit codes that may fire in light rain (cen:opt.weather 4, cen:opt.skirmisher-equipment)."""


def whole_odds(attack: Fraction | int, defence: Fraction | int) -> tuple[int, int]:
    """Scale an exact attack:defence pair to whole numbers with the same ratio.

    ``whole_odds(Fraction(5, 2), 2) == (5, 4)``. Odds tables read whole numbers.
    """
    a, d = Fraction(attack), Fraction(defence)
    m = lcm(a.denominator, d.denominator)
    return int(a * m), int(d * m)


def unit_fpf(unit: UnitType, frontal: bool) -> int:
    """Fire Protection Factor of one unit (cen:full.fire-protection, case G)."""
    return unit.fire_protection_front if frontal else unit.fire_protection_flank


def fire_is_frontal(target_hex: Hex, facing: int | None, firer_hexes: Iterable[Hex]) -> bool:
    """True if every firing hex lies to the target unit's front.

    Fire from both front and flank counts as flank fire ("when receiving fire
    from both directions the FPF is 1", case G). A unit without facing (a
    riderless mount) is never fired on through its front. Beyond one hex
    (hilltop fire), the front is the half-plane ahead of the unit's front line;
    a firer exactly on that line counts as front (the defender's reading).
    """
    if facing is None:
        return False
    for fh in firer_hexes:
        if target_hex.distance(fh) == 1:
            if not is_frontal(target_hex, facing, fh):
                return False
        elif arc_side(target_hex, facing, fh) < 0:
            return False
    return True


def stack_fpf(
    target_hex: Hex,
    targets: Sequence[tuple[UnitType, int | None]],
    firer_hexes: Sequence[Hex],
    multiplier: Fraction = Fraction(1),
    halved: Sequence[bool] | None = None,
    all_round: Sequence[bool] | None = None,
) -> Fraction:
    """Total Fire Protection Factor of a target hex (cen:full.fire-protection).

    ``targets`` are ``(unit type, facing)`` for every unit in the hex.
    ``multiplier`` is the terrain/marker factor (woods, town, earthworks);
    ``halved`` marks units working on earthworks (cen:opt.earthworks: half
    their Fire Protection Factor). Command units count only when the hex holds
    no other troops (case G: "when stacked with other troops"); riderless mounts
    are not troops (no facing nor Combat Factor, cen:opt.mount-dismount B).
    ``all_round`` marks units in a square (cen:full.square A, C: an "all-around
    defensive formation" whose front is every side): fire reaches them through
    their front whatever its direction (our reading).
    """
    has_troops = any(u.kind not in (UnitKind.COMMAND, UnitKind.MOUNT) for u, _ in targets)
    total = Fraction(0)
    for i, (u, facing) in enumerate(targets):
        if u.kind is UnitKind.COMMAND and has_troops:
            continue
        frontal = bool(all_round is not None and all_round[i]) or fire_is_frontal(target_hex, facing, firer_hexes)
        v = Fraction(unit_fpf(u, frontal))
        if halved is not None and halved[i]:
            v /= 2
        total += v
    return total * multiplier


def fem_multiplier(targets: Iterable[UnitType]) -> Fraction:
    """Fire Effect Multiplication factor for a target hex (cen:full.fem).

    The number of target units, Command units not counted, riderless mounts
    one-half each (cen:opt.mount-dismount C); at least 1, at most 3.
    """
    n = Fraction(0)
    for u in targets:
        if u.kind is UnitKind.COMMAND:
            continue
        n += Fraction(1, 2) if u.kind is UnitKind.MOUNT else 1
    return min(max(n, Fraction(1)), Fraction(FEM_CAP))


def effective_fire(fire_factors: Iterable[Fraction | int], targets: Iterable[UnitType]) -> Fraction:
    """Total Fire Combat Factor against a hex after FEM (cen:full.fem, case I).

    Firers on different hexes at one target hex total their factors into one
    attack (combat case I); the total is multiplied by the FEM factor.
    """
    return sum((Fraction(f) for f in fire_factors), Fraction(0)) * fem_multiplier(targets)


def fire_allowed(unit: UnitType, weather: Weather) -> bool:
    """May this unit fire at all in this weather (cen:opt.weather)?"""
    if unit.fire <= 0:
        return False
    if weather == "heavy-rain":
        return False
    if weather == "light-rain":
        return unit.code in SLINGER_CODES
    return True


def fire_range(unit: UnitType, on_hilltop: bool, weather: Weather = "fine", hill_bonus: int = 1) -> int:
    """Missile range in hexes: the unit's basic range, plus the hilltop bonus
    (range 2, cen:full.combat D) except in fog (cen:opt.weather 3)."""
    if unit.fire <= 0 or unit.fire_range <= 0:
        return 0
    r = unit.fire_range
    if on_hilltop and weather != "fog":
        r += hill_bonus
    return r


@functools.lru_cache(maxsize=4096)
def _field(origin: Hex, facing: int, reach: int) -> dict[Hex, tuple[Hex, ...]]:
    """The hexes within ``reach`` in the 120-degree front arc of a unit at
    ``origin`` facing ``facing``, each with the hexes between (cen:full.combat
    B, D). Pure geometry, so kept: missile units ask about the same few
    fields position after position."""
    out: dict[Hex, tuple[Hex, ...]] = {}
    for dq in range(-reach, reach + 1):
        for dr in range(max(-reach, -dq - reach), min(reach, -dq + reach) + 1):
            target = Hex(origin[0] + dq, origin[1] + dr)
            if target != origin and in_front_arc(origin, facing, target):
                out[target] = tuple(line(origin, target)[1:-1])
    return out


def in_field_of_fire(
    origin: Hex,
    facing: int,
    target: Hex,
    reach: int,
    fires_over: bool,
    blocked: Callable[[Hex], bool],
) -> bool:
    """Can a missile unit at ``origin`` facing ``facing`` fire at ``target``?

    cen:full.combat B, D: the target must be within ``reach`` in the
    120-degree front arc; a unit not on a hilltop may not fire through
    intervening hexes for which ``blocked`` is true (units, obstacles); from a
    hilltop (``fires_over``) it may.
    """
    if reach <= 0:
        return False
    between = _field(origin, facing % 6, reach).get(target)
    if between is None:
        return False
    if fires_over or not between:
        return True
    return not any(blocked(h) for h in between)


def fire_targets_in_reach(
    origin: Hex,
    facing: int,
    reach: int,
    fires_over: bool,
    enemy_hexes: Iterable[Hex],
    blocked: Callable[[Hex], bool],
) -> list[Hex]:
    """Enemy-occupied hexes a missile unit can fire at, sorted (cen:full.combat B, D)."""
    if reach <= 0:
        return []
    field = _field(origin, facing % 6, reach)
    out = []
    for h in enemy_hexes:
        between = field.get(h)
        if between is not None and (fires_over or not between or not any(blocked(x) for x in between)):
            out.append(h)
    out.sort()
    return out
