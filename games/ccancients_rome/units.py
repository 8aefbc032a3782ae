"""Unit types: the unit table and the die symbols that hit each unit.

Owns :class:`UnitSpec` (one row of ``data/units.toml``) and its loader. Serves
``ccr:units`` (blocks, symbol colours), ``ccr:base.dice`` (which face hits
which unit), ``ccr:base.movement``, ``ccr:base.ranged``,
``ccr:base.close-combat``, ``ccr:base.retreat``, ``ccr:base.evade``, the
elephant rules of the base game (dice as the target's, swords, no leader
helmets, rampage; flagged per type in the data) and the expansion types
``ccr:heavy-cataphract`` and ``ccr:cataphract-camel``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import attrs

from ancients_kit.data import DataError, DataStore, Meta, bounded, document_file

from .packaged import load_packaged
from .scenario import UNIT_TYPES

__all__ = ["SYMBOLS", "UnitSpec", "UnitTable", "load_units"]

SYMBOLS = ("light", "medium", "heavy", "leader", "flag", "swords")
"""The six faces of the battle die (ccr:base.dice)."""

HEAVY_MOUNTED = frozenset({"HC", "HCC", "EL", "HCH"})
ELEPHANTS = frozenset({"EL"})
LIGHT_FOOT = frozenset({"LI", "LS", "LB"})


MAX_HEXES = 12
"""Most hexes a figure of the unit table may count (move, range, retreat): the board
is 13 hexes wide, so 12 crosses it (ruling on data ranges, docs/games/ccancients_rome.md)."""

MAX_DICE = 9
"""Most battle dice a unit-table figure may give: printed units roll 1 to 5, card and
leader bonuses add 1 or 2 (ruling on data ranges, docs/games/ccancients_rome.md)."""

_move = bounded(1, MAX_HEXES, rule="ccr:base.movement")
_hexes = bounded(0, MAX_HEXES, rule="ccr:base.movement")
_range = bounded(0, MAX_HEXES, rule="ccr:base.ranged")
_dice = bounded(1, MAX_DICE, rule="ccr:base.close-combat")
_extra_dice = bounded(0, MAX_DICE, rule="ccr:base.close-combat")
_retreat = bounded(1, MAX_HEXES, rule="ccr:base.retreat")
_ignore = bounded(0, MAX_DICE, rule="ccr:base.close-combat")


@attrs.frozen
class UnitSpec:
    """One unit type (ccr:units and the base-game unit table)."""

    name: str
    symbol: Literal["light", "medium", "heavy"]
    """Die face that hits this unit: light, medium or heavy (ccr:base.dice); another name was taken and
    no die face ever hit the unit (issue 27 item 3)."""
    mounted: bool
    move: int = attrs.field(validator=_move)
    close: int = attrs.field(validator=_dice)
    """Close combat dice when attacking (ccr:base.close-combat)."""
    retreat: int = attrs.field(validator=_retreat)
    """Hexes retreated per flag (ccr:base.retreat)."""
    range: int = attrs.field(default=0, validator=_range)
    """Ranged combat range; 0 = no ranged combat (ccr:base.ranged)."""
    close_def: int = attrs.field(default=0, validator=_extra_dice)
    """Dice when battling back (0 = same as ``close``)."""
    close_damaged: int = attrs.field(default=0, validator=_extra_dice)
    """Close dice once the unit has lost a block (warriors, ccr:base.close-combat)."""
    close_as_target: bool = False
    """Rolls the dice its target would roll (elephants, ccr:base.close-combat)."""
    close_vs: Mapping[str, int] = attrs.field(factory=dict, validator=_dice)
    """Close dice against these unit codes ('leader' = a lone leader), overriding the rest (ccr:base.close-combat)."""
    leader_bonus: bool = True
    """Leader symbols hit when a leader is attached or it is the Guard; elephants get no help (ccr:base.close-combat)."""
    ignore_all_swords: bool = False
    """Sword symbols never hit it in close combat (elephants, ccr:base.close-combat)."""
    sword_hits: bool = True
    """Its own sword symbols score hits in close combat; light foot and light cavalry score none (ccr:base.dice)."""
    ignore_flag_full: bool = False
    """May ignore one flag until the combat after its first block loss (warriors, light barbarian chariots,
    ccr:base.retreat)."""
    reroll_swords: bool = False
    """Each die that scores a sword hit is rolled again, and again (elephants, ccr:base.close-combat)."""
    rampage: bool = False
    """Rampages when it retreats: adjacent units take dice, blocking units take its losses (ccr:base.retreat)."""
    momentum_extra: int = attrs.field(default=0, validator=bounded(0, MAX_HEXES, rule="ccr:base.momentum"))
    """Extra hexes it may move after a momentum advance, before any bonus combat (light cavalry, ccr:base.momentum)."""
    move_no_battle: int = attrs.field(default=0, validator=_hexes)
    move_charge: int = attrs.field(default=0, validator=_hexes)
    no_battle_after_move: bool = False
    evade: tuple[str, ...] = ()
    ignore_swords: int = attrs.field(default=0, validator=_ignore)
    ignore_vs_mounted: int = attrs.field(default=0, validator=_ignore)
    extra_retreat_vs: tuple[str, ...] = ()
    source: str = ""
    blocks: int = 0
    """Filled from the scenario schema's UNIT_TYPES (the book's block counts, ccr:units)."""

    @property
    def foot(self) -> bool:
        return not self.mounted

    @property
    def battle_back_dice(self) -> int:
        return self.close_def or self.close


@attrs.frozen
class UnitTable:
    meta: Meta
    types: Mapping[str, UnitSpec]


@attrs.frozen
class _UnitsFile:
    types: Mapping[str, UnitSpec]
    meta: Meta | None = None


def load_units(store: DataStore) -> UnitTable:
    """Load ``data/units.toml``; every scenario unit code must be present (ccr:units)."""
    meta, doc = load_packaged(store, "units.toml", _UnitsFile)
    types: dict[str, UnitSpec] = {}
    for code, spec in doc.types.items():
        blocks = UNIT_TYPES[code].blocks if code in UNIT_TYPES else 3
        types[code] = attrs.evolve(spec, blocks=blocks)
    missing = set(UNIT_TYPES) - set(types)
    if missing:
        raise DataError(document_file(store, "units.toml", meta.id),
                        f"lacks unit codes {sorted(missing)} [ccr:units]", "types")
    return UnitTable(meta, types)


def can_evade(defender: UnitSpec, attacker_code: str, attacker: UnitSpec) -> bool:
    """May ``defender`` evade a close combat by ``attacker`` (ccr:base.evade)?"""
    for e in defender.evade:
        if e == "any":
            return True
        if e == "foot" and attacker.foot:
            return True
        if e == "heavy-mounted" and attacker_code in HEAVY_MOUNTED:
            return True
        if e == "elephant" and attacker_code in ELEPHANTS:
            return True
    return False
