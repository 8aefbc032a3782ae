"""Naval operations, naval transport and naval combat.

Rules served:

- ``xen:naval``: fleets enter only coastal and all-sea hexes, never all-land
  hexes nor across all-land hexsides (:func:`.movement.fleet_may_cross`);
  coastal Cities without an anchor are not ports; a Colony on the coast is a
  port (xen:colonisation); a pillaged port is only coast (xen:pillage); fleets
  otherwise conduct operations like land units; fleet EZOC does not block
  land units and land EZOC does not block fleets; embarked land units have no
  ZOC.
- ``xen:naval-transport``: fleets carry friendly land units that start the
  operations in the same coastal hex or port; each fleet carries 3 land units,
  leaders included; the force uses the fleet's OV (a coastal march by land
  does not: :func:`land_gap`); embarking and
  disembarking cost nothing; a force that began in a port pays 1 OP a sea or
  coastal hex, 2 from any other hex; fleets and embarked units count for
  stacking; embarked units may disembark on a coast or port (they are
  dropped off); a force may stay embarked at the end of its operations, even
  at sea.
- ``xen:naval-combat``: as land combat (:func:`.combat.battle`); fleets attack
  and are attacked by fleets in adjacent sea, coastal and port hexes; fleets
  in coastal hexes attack and are attacked by land units next to them; fleets
  at sea attack land units and fleets in adjacent coastal hexes, but land
  units never attack fleets in an all-sea hex; embarked units fight with
  their fleets. :func:`may_attack` says which attacks are legal: exactly the
  steps the attacking force could make (xen:combat: "attacks cannot be made
  into hexes or across hexsides prohibited to the Force to move").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ancients_kit.hexmap import HexMap

from . import movement as mv
from .state import Unit, XenState

__all__ = [
    "CAPACITY",
    "capacity_refusal",
    "embark",
    "is_naval",
    "land_gap",
    "may_attack",
    "naval_ov",
    "ports",
]

CAPACITY = 3
"""xen:naval-transport: each fleet carries 3 land units, leaders included."""


def is_naval(units: Iterable[Unit]) -> bool:
    """A force with one or more fleets moves by sea (its land units embarked)."""
    return any(u.fleet for u in units)


def ports(state: XenState) -> frozenset[str]:
    """Hexes that are ports now: printed ports not pillaged, and coastal Colonies (xen:naval,
    xen:colonisation, xen:pillage)."""
    printed = {h for h in state.data.ports if h not in state.pillaged}
    return frozenset(printed | {h for h in state.colonies if h in state.data.coastal})


def naval_ov(units: Sequence[Unit]) -> int:
    """The OV a force uses: its lowest; with fleets, the lowest fleet's, not the land units'
    (xen:operations, xen:naval-transport)."""
    fleets = [u.ov for u in units if u.fleet]
    return min(fleets) if fleets else min(u.ov for u in units)


def land_gap(units: Sequence[Unit]) -> int:
    """OP a force of fleets and land units gives up when it marches by land along the coast (errata):
    the fleets' OV serves only naval transport ("For Naval transportation, use the OV of the fleet",
    xen:operations), a march uses the lowest OV of all its units, so the difference is lost (0 if none)."""
    if not is_naval(units) or all(u.fleet for u in units):
        return 0
    return naval_ov(units) - min(u.ov for u in units)


def capacity_refusal(units: Sequence[Unit], hex_id: str, state: XenState) -> str | None:
    """Why these units cannot form one force (None: they can), for the transport rules."""
    fleets = [u for u in units if u.fleet]
    land = [u for u in units if not u.fleet]
    sea = state.data.terrain.get(hex_id) == "sea"
    if not fleets:
        if sea:
            return (f"land units in the all-sea hex {hex_id} move only embarked on their fleets "
                    "(xen:naval-transport)")
        return None
    if len(land) > CAPACITY * len(fleets):
        return (f"{len(fleets)} fleet(s) carry at most {CAPACITY * len(fleets)} land units, not {len(land)} "
                "(xen:naval-transport)")
    return None


def embark(state: XenState, units: Sequence[Unit]) -> None:
    """Put the force's land units aboard its fleets, 3 a fleet, in order (no OP cost)."""
    fleets = [u for u in units if u.fleet]
    land = [u for u in units if not u.fleet]
    for i, u in enumerate(land):
        u.embarked = fleets[i // CAPACITY].id


def may_attack(m: HexMap, naval: bool, a: str, b: str) -> bool:
    """Whether a force in ``a`` (by sea if ``naval``) may attack adjacent ``b`` (xen:combat,
    xen:naval-combat): only into a hex and across a hexside the force could move through."""
    ha, hb = m.from_id(a), m.from_id(b)
    if naval:
        return mv.fleet_may_cross(m, ha, hb)
    return mv.land_step_cost(m, mv.terrain_costs(), ha, hb) is not None
