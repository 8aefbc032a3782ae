"""Lest Darkness Fall Roman sea and riverine movement (``ldf:12.6``, ``ldf:12.7``).

- ``ldf:12.6`` sea movement: coastal population centre to friendly-controlled
  coastal population centre, never Petra, the whole action;
- ``ldf:12.7`` river movement: Rhine/Danube bank hex to bank hex, either bank,
  not for Gallic units, lost once Dacia or Germania Decumates is looted.

Only Roman mobile units and leaders use them; stacking and the closed hexes of
:mod:`.land_movement` hold at the far end, EZOC does not.
"""

from __future__ import annotations

from collections.abc import Sequence

from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap

from .land_movement import closed_hex, force_camps, stop_problem
from .zoc import ROMAN_CAMPS, Position, Unit, hex_ids, hostile

__all__ = ["PETRA", "ports", "river_destinations", "riverbank_hexes", "sea_destinations"]

PETRA = "4623"
"""No sea movement ever starts or ends at Petra (``ldf:12.6``)."""


def ports(m: HexMap) -> frozenset[Hex]:
    """Coastal population centres, Petra excepted (``ldf:12.6``)."""
    petra = m.from_id(PETRA)
    return frozenset(h for h in m.hexes_where("coastal") if h != petra)


def riverbank_hexes(m: HexMap) -> frozenset[Hex]:
    """The hexes on either bank of the Rhine or the Danube (``ldf:12.7``)."""
    out: set[Hex] = set()
    for f in ("rhine", "danube"):
        for side in m.hexsides_with(f):
            out.update(side)
    return frozenset(out)


def _roman_realm(m: HexMap) -> frozenset[Hex]:
    return m.region("core") | m.region("caucasus") | m.region("trans-river")


def _transport_problem(m: HexMap, pos: Position, units: Sequence[Unit], rule: str) -> tuple[str, str] | None:
    camps = force_camps(units)
    if not camps <= ROMAN_CAMPS:
        return ("only Roman mobile units and leaders may use it", rule)
    return None


def _friendly_port(m: HexMap, pos: Position, units: Sequence[Unit], h: Hex) -> bool:
    """Is ``h`` friendly controlled for the force (``ldf:12.6``; ruling in ``docs/games/ldf.md``)?"""
    camps = force_camps(units)
    there = [u for u in pos.at(h) if u.id not in {x.id for x in units}]
    if any(hostile(v.camp, c, pos.palmyra) for v in there for c in camps):
        return False
    if there:
        return True
    if "gallic" in camps:
        return h in m.region("gallic-empire")
    if "loyal" in camps:
        if pos.gallic_active and h in m.region("gallic-empire"):
            return False
        return h in _roman_realm(m)
    return False  # a non-Gallic rebel force controls only hexes its own units hold


def sea_destinations(m: HexMap, pos: Position, units: Sequence[Unit]) -> tuple[list[Hex], tuple[str, str] | None]:
    """The ports the force may reach by sea movement (``ldf:12.6``), or why none.

    It must begin the action in a coastal population centre (not Petra) and goes
    straight to another friendly-controlled one; EZOC at either end does not
    matter; stacking and the Gallic and Palmyran closures do.
    """
    bad = _transport_problem(m, pos, units, "ldf:12.6")
    if bad:
        return [], bad
    at = units[0].hex
    harbours = ports(m)
    if at not in harbours:
        why = "Petra: no sea movement starts there" if m.to_id(at) == PETRA else "not a coastal population centre"
        return [], (f"{m.to_id(at)} is {why}", "ldf:12.6")
    out = []
    for h in sorted(harbours, key=hex_ids(m).__getitem__):
        if h == at or not _friendly_port(m, pos, units, h):
            continue
        if closed_hex(m, pos, units, h) or stop_problem(m, pos, units, h):
            continue
        out.append(h)
    return out, None if out else (f"no friendly-controlled port can receive the force from {m.to_id(at)}", "ldf:12.6")


def river_destinations(m: HexMap, pos: Position, units: Sequence[Unit]) -> tuple[list[Hex], tuple[str, str] | None]:
    """The bank hexes the force may reach by river movement (``ldf:12.7``), or why none."""
    bad = _transport_problem(m, pos, units, "ldf:12.7")
    if bad:
        return [], bad
    if any(u.camp == "gallic" for u in units):
        return [], ("Gallic Empire units may never use riverine movement", "ldf:12.7")
    if pos.river_movement_lost:
        return [], ("riverine movement was lost when Dacia or Germania Decumates was looted", "ldf:12.7")
    at = units[0].hex
    banks = riverbank_hexes(m)
    if at not in banks:
        return [], (f"{m.to_id(at)} is not on the Rhine or the Danube", "ldf:12.7")
    out = [h for h in sorted(banks, key=hex_ids(m).__getitem__)
           if h != at and not closed_hex(m, pos, units, h) and not stop_problem(m, pos, units, h)]
    return out, None if out else (f"no bank hex can receive the force from {m.to_id(at)}", "ldf:12.7")
