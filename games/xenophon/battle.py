"""A battle as a record (``xen:combat``): what the chits, the leaders' personal combat and the
optional rules read or change while :mod:`.combat` fights it, and what it leaves behind for the
operation that called it.

Under :mod:`.leaders` (personal combat, ``xen:opt.personal-combat``), :mod:`.stratagems` (the
``battle`` and ``before-odds`` windows: Bribery, Military Advantage) and :mod:`.combat`.
"""

from __future__ import annotations

import attrs

from ancients_kit.battles import BattleRecord

__all__ = ["Battle", "BattleOutcome"]


@attrs.define
class Battle(BattleRecord):
    """One battle being fought: what the chits and the optional rules may read or change.

    The record's fields (:class:`~ancients_kit.battles.BattleRecord`): the ``attackers`` are
    all the units of the attacking force (``xen:combat``: all units of the force attack), the
    ``defenders`` every unit of the hex attacked (``xen:combat``: all are attacked together)."""

    rules: tuple[str, ...] = ("xen:combat",)
    """The rules the caller's attack applies (``xen:naval-combat`` for a naval battle)."""
    no_withdrawal: bool = False
    """The defender may not withdraw (Bribery, set at the ``battle`` window)."""
    advantage: set[str] = attrs.Factory(set)
    """Sides that played Military Advantage (``before-odds`` window): one multiplier each."""
    no_leader_multiplier: set[str] = attrs.Factory(set)
    """Sides that refused personal combat: no leader multiplier this battle (``xen:opt.personal-combat``)."""
    crt: str = ""
    attack: int = 0
    defence: int = 0
    result: str = ""


@attrs.frozen
class BattleOutcome:
    """What a battle left behind, for the operation that called it (xen-ops)."""

    result: str
    """The CRT result, ``withdrew`` (the defender withdrew before battle) or ``none`` (nothing left to fight)."""
    crt: str
    """The CRT read (empty when no CRT was read)."""
    attackers: tuple[str, ...]
    """The attacking units still on the map."""
    hex: str | None
    """Where they are now (they may have retreated; None if none is left). A force of fleets
    and land units that retreated apart is in two hexes: this is the first unit's."""
    defenders: tuple[str, ...]
    """The defending units still on the map (wherever they withdrew or retreated)."""
    cleared: bool
    """The hex attacked holds no defender any more (xen:zoc: the force may move on)."""
    odds: str = ""
    """The column read, e.g. ``3:2``."""
