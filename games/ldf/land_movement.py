"""Lest Darkness Fall land movement: movement factors and what a land move may not do (``ldf:12.1``-``12.5``, ``ldf:8.4``, ``ldf:8.5``, ``ldf:11.3``, ``ldf:11.4``).

Pure rules on a :class:`~.zoc.Position`, for the move action (:mod:`.movement`),
the sea and river moves (:mod:`.sea_movement`), emergency unstacking
(:mod:`.unstacking`) and combat's advances and retreats:

- ``ldf:2.6`` movement factors: 4, cavalry 8; leaders have none of their own;
  ``ldf:8.4`` a leader adds 1 (4 -> 5, all-cavalry 8 -> 9); ``ldf:8.5`` a mixed
  force with a leader: infantry stop after 5 MP, the leader and cavalry may go
  on to 9 (:func:`movement_caps`);
- ``ldf:8.2``-``8.4`` who may move together (:func:`force_problem`);
- ``ldf:12.1``-``12.4`` one MP a hex whatever the terrain, never into
  enemy-occupied hexes; ``ldf:1.5``, ``ldf:12.5`` only Roman units enter narrows
  hexes; ``ldf:9.2``-``9.5``, ``ldf:7.3`` hexes closed to some units
  (:func:`step_problem`, :func:`closed_hex`, :func:`stop_problem`);
- ``ldf:11.3``, ``ldf:11.4`` enter EZOC at no cost, stop there, never leave one
  by a land move (:func:`land_reach`, :data:`ancients_kit.movement.ZOC_LOCKING`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap
from ancients_kit.movement import ZOC_LOCKING, ZOC_STOP, Reach, reachable

from . import stacking
from .vocab import Side
from .zoc import ROMAN_CAMPS, Position, Unit, ezoc, hostile, land_links

__all__ = [
    "LEADERS",
    "LEADER_BONUS",
    "closed_hex",
    "force_camps",
    "force_problem",
    "is_leader",
    "land_reach",
    "movement_caps",
    "step_problem",
    "stop_problem",
]

LEADER_BONUS = 1
"""A leader adds one to the force's movement factor (``ldf:8.4``)."""


LEADERS = ("emperor", "co-emperor")


def is_leader(u: Unit) -> bool:
    return u.piece in LEADERS


def movement_caps(pos: Position, units: Sequence[Unit], *, bonus: int = 0) -> dict[str, int]:
    """The MP each mobile unit of a force starting a move may spend (``ldf:2.6``, ``ldf:8.4``, ``ldf:8.5``).

    ``bonus``: extra hexes granted to the whole force (chit Inspired Subordinates).
    Leaders are not in the result: they move only with mobile units.
    """
    mobile = [u for u in units if pos.kind(u) == "mobile"]
    leader = any(is_leader(u) for u in units)
    mfs = {pos.piece(u).movement for u in mobile}
    mixed = len(mfs) > 1
    out: dict[str, int] = {}
    for u in mobile:
        base = pos.piece(u).movement
        if mixed and not leader:
            base = min(mfs)  # ldf:8.5: leaderless, the cavalry stops when the infantry do, at 4
        out[u.id] = base + (LEADER_BONUS if leader else 0) + bonus  # ldf:8.4: +1 with a leader
    return out


def force_problem(pos: Position, units: Sequence[Unit], side: str) -> tuple[str, str] | None:
    """Why ``units`` may not set off together as one force of ``side``, or ``None``."""
    if not units:
        return ("a force needs at least one unit", "ldf:8.2")
    hexes = {u.hex for u in units}
    if len(hexes) > 1:
        return ("a force is units of one hex", "ldf:8.2")
    for u in units:
        if pos.side(u) != side:
            return (f"{u.id} is not a {side} unit", "ldf:1.2")
        kind = pos.kind(u)
        if kind == "static":
            return (f"{u.id} is a static unit: it never moves", "ldf:2.4")
        if u.camp == "palmyran" and pos.palmyra == "inactive":
            return (f"{u.id}: an inactive Palmyra's units may not move", "ldf:9.2")
    mobile = [u for u in units if pos.kind(u) == "mobile"]
    if not mobile:
        return ("a leader moves only with one or more friendly mobile units", "ldf:8.4")
    if any(u.camp == "rebel" for u in mobile) and not any(u.piece == "co-emperor" and u.camp == "rebel" for u in units):
        return ("rebel Roman mobile units move only with the rebel co-emperor", "ldf:8.3")
    h = next(iter(hexes))
    ids = {u.id for u in units}
    rest = [u for u in pos.at(h) if u.id not in ids]
    if rest and all(is_leader(u) for u in rest):
        return (f"{rest[0].id} would be left alone: a leader is never without friendly units", "ldf:8.4")
    return None


def force_camps(units: Iterable[Unit]) -> frozenset[str]:
    return frozenset(u.camp for u in units)


def step_problem(m: HexMap, pos: Position, units: Sequence[Unit], a: Hex, b: Hex) -> tuple[str, str] | None:
    """Why the force ``units`` may not step from ``a`` into ``b``, or ``None`` (ZOC and MP aside)."""
    if b not in land_links(m).get(a, ()):
        if b in m and m.terrain(b) == "sea":
            return (f"{m.to_id(b)} is an all-sea hex", "ldf:12.2")
        if b in m and a in m and b in m.neighbors(a):
            return (f"{m.to_id(a)}-{m.to_id(b)} is an all-sea hexside", "ldf:12.2")
        return (f"{m.to_id(b) if b in m else b} is not adjacent to {m.to_id(a)}: no skipping hexes", "ldf:12.2")
    camps = force_camps(units)
    if m.value(b, "narrows") and not camps <= ROMAN_CAMPS:
        return (f"{m.to_id(b)} is a narrows hex: only Roman units may move into or through it", "ldf:1.5")
    return closed_hex(m, pos, units, b)


def closed_hex(m: HexMap, pos: Position, units: Sequence[Unit], b: Hex) -> tuple[str, str] | None:
    """Why the force ``units`` may not enter hex ``b`` at all, by land, sea or river (or ``None``):
    enemy units (``ldf:12.3``, ``ldf:10.5``), the other leader (``ldf:8.3``), an inactive
    Palmyra (``ldf:9.2``), the Gallic Empire's frontier (``ldf:9.5``), a collapsed Parthia (``ldf:7.3``)."""
    camps = force_camps(units)
    for v in pos.at(b):
        if any(hostile(v.camp, c, pos.palmyra) for c in camps):
            rule = "ldf:10.5" if {v.camp} | camps <= ROMAN_CAMPS else "ldf:12.3"
            return (f"{m.to_id(b)} holds enemy units ({v.id})", rule)
    if any(is_leader(u) for u in units) and any(is_leader(v) for v in pos.at(b)):
        return (f"{m.to_id(b)} holds the other leader: the two never share or pass through a hex", "ldf:8.3")
    if b in m.region("palmyra"):
        if pos.palmyra == "inactive" and camps & ROMAN_CAMPS:
            return ("Roman units may not move into or through an inactive Palmyra", "ldf:9.2")
    if pos.gallic_active:
        gallic = m.region("gallic-empire")
        if "gallic" in camps and b not in gallic:
            return ("Gallic Empire forces move only into Gallic Empire hexes", "ldf:9.5")
        if b in gallic and camps & {"german", "rebel"}:
            return ("Germanic and non-Gallic rebel units may not move into the Gallic Empire", "ldf:9.5")
    if pos.parthia_collapsed and b in m.region("parthia"):
        return ("while Parthia is collapsed no unit may move into it", "ldf:7.3")
    return None


def stop_problem(m: HexMap, pos: Position, units: Sequence[Unit], h: Hex) -> tuple[str, str] | None:
    """Why ``units`` may not end a move (or be dropped off) in ``h``, or ``None`` (``ldf:10.1``)."""
    ids = {u.id for u in units}
    others = [u for u in pos.at(h) if u.id not in ids]
    if others:
        found = stacking.problems(pos, others + [u.moved_to(h) for u in units])
    else:  # the force alone: the same limits wherever it stands (stacking reads camps and counters)
        found = pos.remembered(m, ("alone", *((u.camp, u.piece) for u in units)),
                               lambda: stacking.problems(pos, units))
    if found:
        return found[0]
    camps = force_camps(units)
    if h in m.region("palmyra"):
        if pos.palmyra == Side.ROMAN and "loyal" in camps:
            return ("loyal Roman units may pass through an allied Palmyra but not end a move there", "ldf:9.3")
        if pos.palmyra == Side.GERMANO_PARTHIAN and "parthian" in camps:
            return ("Parthian units may pass through an allied Palmyra but not end a move there", "ldf:9.4")
    return None


_ONE: dict[int, tuple[HexMap, dict[Hex, int]]] = {}


def _one_mp(m: HexMap) -> dict[Hex, int]:
    """One MP for every land hex entered (``ldf:12.4``: no terrain costs)."""
    hit = _ONE.get(id(m))
    if hit is None or hit[0] is not m:
        hit = (m, {h: 1 for h in land_links(m)})
        _ONE.clear()
        _ONE[id(m)] = hit
    return hit[1]


def land_reach(
    m: HexMap,
    pos: Position,
    units: Sequence[Unit],
    at: Hex,
    mp: int,
    *,
    locked: bool = True,
    ignore_zoc_of: Iterable[str] = (),
    ezoc_hexes: frozenset[Hex] | None = None,
) -> Reach:
    """Where the force ``units``, now in ``at`` with ``mp`` MP left, may end its move.

    One MP a hex (``ldf:12.4``), the vetoes of :func:`step_problem`, the stops of
    :func:`stop_problem`; it stops on entering an EZOC (``ldf:11.3``) and, if
    ``locked``, cannot leave one it is in (``ldf:11.4``); ``locked=False`` after
    the 8.3 conversions freed it (``ldf:8.3``) or for the chit that moves an
    enemy force out of an EZOC. ``ezoc_hexes``: the EZOC already worked out.
    """
    ez: frozenset[Hex] = frozenset()
    if ezoc_hexes is not None:
        ez = ezoc_hexes
    else:
        for c in force_camps(units):
            ez |= ezoc(m, pos, c, ignore=ignore_zoc_of)

    def can_enter(a: Hex, b: Hex) -> bool:
        return step_problem(m, pos, units, a, b) is None

    def can_stop(h: Hex) -> bool:
        return stop_problem(m, pos, units, h) is None

    return reachable(
        at, mp, _one_mp(m), ezoc=ez, zoc=ZOC_LOCKING if locked else ZOC_STOP,
        can_enter=can_enter, can_stop=can_stop, neighbors=land_links(m),
    )
