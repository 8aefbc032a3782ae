"""Zones of control (``xen:zoc``): the hexes in the enemy's zone for a force, whether a zone
is still exerted on a hex, and whether a hex lies in any enemy zone (pillage, colonisation and
a naval force's warnings).

A land force feels only enemy land units' ZOC, a naval force only enemy fleets' ("Fleet EZOCs
do not block movement of land units"); neutral and embarked units have none; no ZOC enters a
City or Colony held by the force's side or by neutrals. The hexes a unit's zone covers are
:func:`.movement.zoc_of`'s. Under the operations (:mod:`.march`, :mod:`.operations`),
:mod:`.combat`, :mod:`.pillage` and :mod:`.recruit` (a levy's placement).
"""

from __future__ import annotations

from functools import lru_cache

from ancients_kit.hexmap import HexMap

from . import movement as mv
from .state import EMPIRE, NEUTRAL, REBEL, XenState, other_side

__all__ = ["ezoc_of", "in_any_ezoc", "zone_exerted"]


@lru_cache(maxsize=8192)
def _zoc_ids(m: HexMap, hex_id: str, fleet: bool) -> frozenset[str]:
    return frozenset(m.to_id(h) for h in mv.zoc_of(m, m.from_id(hex_id), fleet))


def ezoc_of(state: XenState, side: str, naval_force: bool) -> frozenset[str]:
    """The hexes in the enemy's zone of control for a force of ``side`` (xen:zoc).

    A land force feels only enemy land units' ZOC, a naval force only enemy
    fleets'; neutral and embarked units have none; no ZOC enters a City or
    Colony held by ``side`` or by neutrals.
    """
    m = state.map
    enemy = other_side(side)
    units, ids_at = state.units, state.ids_at
    out: set[str] = set()
    for h in state.occupied():
        ids = ids_at(h)
        if units[ids[0]].side != enemy:
            continue
        for uid in ids:
            u = units[uid]
            if (u.type == "fleet") == naval_force and u.embarked is None:  # Unit.fleet
                out |= _zoc_ids(m, h, naval_force)
                break
    if not out:
        return frozenset()
    for h in out.intersection(state.data.city_kind) | out.intersection(state.colonies):
        occ = state.occupier(h)
        if occ == side or occ == NEUTRAL:
            out.discard(h)  # no ZOC enters a City or Colony held by the side or by neutrals
    return frozenset(out)


def zone_exerted(state: XenState, side: str, naval_force: bool, hex_id: str) -> bool:
    """Whether enemy units still exert a zone of control of the kind a force of ``side`` feels
    (fleets' for a naval force, land units' else) on ``hex_id``, leaving aside the shield of
    a City or Colony the force now occupies (xen:zoc).

    A force that entered an EZOC must cease movement and "can continue moving only if it
    eliminates/retreats the enemy units exerting that EZOC": a force stopped in an empty City
    that was in EZOC when it entered does not move on because its own presence now shields
    the City from that zone (docs/games/xenophon.md, Rulings: operations 7)."""
    m = state.map
    enemy = other_side(side)
    for n in state.neighbours(hex_id):
        units = state.units_at(n)
        if not units or units[0].side != enemy:
            continue
        if any(u.fleet == naval_force and u.embarked is None for u in units) and hex_id in _zoc_ids(m, n, naval_force):
            return True
    return False


def in_any_ezoc(state: XenState, side: str, hex_id: str, *, fleets_only: bool = False) -> bool:
    """Whether ``hex_id`` lies in a zone of control of ``side``'s enemy, his land units' or his
    fleets' (xen:zoc): "A Force may not pillage or colonize if in EZOC" names no kind, and only
    movement is said to feel one kind alone ("Fleet EZOCs do not block movement of land units").
    Embarked land units and neutral units have no ZOC; no ZOC enters a City or Colony held by
    ``side`` or by neutrals (docs/games/xenophon.md, Rulings: second reading 4).
    ``fleets_only``: an enemy fleet's zone alone (a naval force's move, xen:naval)."""
    if side not in (EMPIRE, REBEL):
        return False
    if state.is_city(hex_id) and state.occupier(hex_id) in (side, NEUTRAL):
        return False
    enemy = other_side(side)
    m = state.map
    target = m.from_id(hex_id)
    for n in state.neighbours(hex_id):
        units = state.units_at(n)
        if not units or units[0].side != enemy:
            continue
        for fleet in {u.fleet for u in units if u.fleet or (u.embarked is None and not fleets_only)}:
            if target in mv.zoc_of(m, m.from_id(n), fleet):
                return True
    return False
