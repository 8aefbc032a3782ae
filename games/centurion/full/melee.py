"""Melee in the Full Simulation: attack and defence factors by facing, terrain and condition.

Rules served:

* ``cen:full.facing``: a unit attacks only into the three hexes it fronts
  upon, and defends with its frontal Melee Defense Factor only against attacks
  on its front; a flank attack, or a flank/front attack, meets the flank value.
* ``cen:full.combat`` cases A, C, H, J, L, N: front-only attacks; a unit is
  used whole; melee troops attacking from one hex at one target are all of one
  type (missile troops and defenders exempt; Command units never count);
  defenders on a hex are totalled and every MDF must defend, each unit with the
  value facing the attack; terrain multiplies factors.
* ``cen:full.cross-river``: attacks across a river hexside are weakened by the
  terrain chart's ``melee_attack_out`` of the hexside.
* ``cen:full.demoralization`` (half Melee Combat Factor), ``cen:full.panic`` B
  (no attack, half MDF), ``cen:opt.earthworks`` (defenders doubled; workers
  halved), ``cen:opt.caltrops`` (attacks out of caltrops halved),
  ``cen:opt.spearmen`` with ``cen:opt.weather`` 5-6 (spearmen halved).
* ``cen:rom.legion-integrity``: Swordsmen of different legions in one hex may
  not attack together.

Differently faced defenders attacked from several sides (case J) fight
separate battles, each attack met by the units fronting it; the melee phase
makes that allotment (``melee_phase.split_battles``, our reading, L) and calls
:func:`defence_total` once per battle. Where no unit fronts an attack, the hex
fights one combined battle, each unit at the value facing the attack.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

import attrs

from ancients_kit.hexgrid import Hex, is_frontal

from ancients_games.centurion.model import UnitKind, UnitType

__all__ = [
    "Attacker",
    "Defender",
    "attack_total",
    "attacker_factor",
    "can_attack_hex",
    "defence_total",
    "defender_factor",
    "homogeneity_problem",
    "is_flank_attack",
]

SPEAR_CODES = frozenset({"SP", "PK"})
"""Spearmen and pikemen (cen:opt.spearmen; halved in heavy rain and mud, cen:opt.weather)."""


@attrs.frozen(slots=True)
class Defender:
    """One unit in an attacked hex, as melee sees it."""

    unit: UnitType
    facing: int | None
    """Direction 0..5; None for a riderless mount (no facing)."""
    dispersed: bool = False
    panicked: bool = False
    working: bool = False
    """Building earthworks or caltrops: defends at half (cen:opt.earthworks)."""


@attrs.frozen(slots=True)
class Attacker:
    """One unit taking part in a melee attack."""

    unit: UnitType
    hex: Hex
    demoralized: bool = False
    charge_factor: Fraction | None = None
    """Cavalry: the attack factor its charge earned (cen:full.cavalry); None = printed MAF."""
    attack_out: Fraction = Fraction(1)
    """Multiplier of its own hex and the hexside it attacks across
    (caltrops 1/2, river 1/2: cen:opt.caltrops, cen:full.cross-river)."""
    halved: bool = False
    """Other halving (heavy rain spearmen, isolated tribesmen: cen:opt.weather, cen:barb.tribe)."""


def can_attack_hex(attacker_hex: Hex, facing: int, target: Hex) -> bool:
    """A unit may melee only into the three hexes of its front (cen:full.facing, combat A, M)."""
    return attacker_hex.distance(target) == 1 and is_frontal(attacker_hex, facing, target)


def is_flank_attack(defender_hex: Hex, facing: int | None, attacker_hexes: Iterable[Hex]) -> bool:
    """True if any attacking hex strikes the unit through a flank (cen:full.facing).

    A front/flank attack counts as a flank attack: it "effectively reduces the
    defensive capability of a unit".
    """
    if facing is None:
        return True
    return any(not is_frontal(defender_hex, facing, h) for h in attacker_hexes)


def defender_factor(d: Defender, defender_hex: Hex, attacker_hexes: Sequence[Hex], dispersed_value: int = 1) -> Fraction:
    """One defending unit's Melee Defense Factor against this battle.

    Frontal or flank value (cen:full.facing); a dispersed unit defends at
    ``dispersed_value`` (reconstructed, see the engine's combat module); a
    panicked unit at half (cen:full.panic B); a unit working on earthworks at
    half (cen:opt.earthworks).
    """
    u = d.unit
    if d.dispersed:
        v = Fraction(min(dispersed_value, u.melee_defence_front))
    elif is_flank_attack(defender_hex, d.facing, attacker_hexes):
        v = Fraction(u.melee_defence_flank)
    else:
        v = Fraction(u.melee_defence_front)
    if d.panicked:
        v /= 2
    if d.working:
        v /= 2
    return v


def defence_total(
    defenders: Sequence[Defender],
    defender_hex: Hex,
    attacker_hexes: Sequence[Hex],
    terrain_multiplier: Fraction = Fraction(1),
    dispersed_value: int = 1,
) -> Fraction:
    """Combined Melee Defense Factor of an attacked hex (combat case J).

    Every MDF on the hex must defend; Command units add their factor like any
    unit; ``terrain_multiplier`` is the hex's (hill, town, earthworks) factor.
    The dispersed units of the hex together add ``dispersed_value`` (the
    engine's reading for both versions: "a dispersed stack defends at 1").
    """
    total = sum(
        (defender_factor(d, defender_hex, attacker_hexes, dispersed_value) for d in defenders if not d.dispersed),
        Fraction(0),
    )
    if any(d.dispersed for d in defenders):
        total += dispersed_value
    return total * terrain_multiplier


def attacker_factor(a: Attacker, heavy_rain: bool = False) -> Fraction:
    """One attacking unit's Melee Attack Factor in this battle.

    Cavalry use the factor their charge earned (cen:full.cavalry; halved in
    heavy rain and mud, cen:opt.weather 5-6); spearmen are halved in heavy rain
    and mud; demoralized units fight at half their Melee Combat Factor
    (cen:full.demoralization); attacks out of caltrops or across a river are
    multiplied by ``attack_out``.
    """
    v = Fraction(a.charge_factor) if a.charge_factor is not None else Fraction(a.unit.melee_attack)
    if heavy_rain and (a.charge_factor is not None or a.unit.code in SPEAR_CODES):
        v /= 2
    if a.demoralized:
        v /= 2
    if a.halved:
        v /= 2
    return v * a.attack_out


def attack_total(attackers: Iterable[Attacker], heavy_rain: bool = False) -> Fraction:
    """Sum of the attackers' factors (combat cases C, I)."""
    return sum((attacker_factor(a, heavy_rain) for a in attackers), Fraction(0))


def homogeneity_problem(
    units: Sequence[UnitType], groups: Sequence[str] = (), legion_integrity: bool = False
) -> str | None:
    """Why these units, attacking from one hex at one target, may not attack together.

    ``None`` if they may. cen:full.combat H: melee troops from one hex at one
    target are all of one type (Command units never count); cen:basic.combat G
    is the Basic Game's reading of the same idea. cen:rom.legion-integrity:
    Swordsmen of different legions may not co-operate from the same hex.
    """
    codes = {u.code for u in units if u.kind is not UnitKind.COMMAND}
    if len(codes) > 1:
        return (
            f"melee troops attacking from one hex at one target must be of one type, not {', '.join(sorted(codes))}"
        )
    if legion_integrity and groups:
        legions = {g for u, g in zip(units, groups) if g and u.kind is not UnitKind.COMMAND}
        if len(legions) > 1:
            return f"Swordsmen of legions {', '.join(sorted(legions))} may not co-operate from the same hex"
    return None
