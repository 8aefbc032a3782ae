"""Lest Darkness Fall zones of control (``ldf:11.1``-``ldf:11.5``) and who is whose enemy.

The rules here are functions of the map and a :class:`Position` (the units on
the map, each with its *camp*, and the few political facts ZOC and stacking
depend on), so that movement, stacking, combat and the bots share one answer
and tests can build positions on the real map without a whole game.

Camps (``ldf:1.2``, ``ldf:2.5``):

=============  ===============================================  ==================
camp           units                                             side
=============  ===============================================  ==================
``loyal``      loyal Roman units (red), the emperor, a loyal     Roman
               co-emperor
``client``     the Caucasus garrisons (gold, ``ldf:9.6``)         Roman
``palmyran``   Palmyra's legion-equivalents and garrison          Roman while inactive
               (``ldf:9.1``-``ldf:9.4``)                          or allied, else G-P
``rebel``      non-Gallic rebel Romans (blue) and the rebel       Germano-Parthian
               co-emperor (``ldf:8.3``, ``ldf:8.7``)
``gallic``     the Gallic Empire's rebels (``ldf:9.5``)           Germano-Parthian
``german``     Germanic tribes                                    Germano-Parthian
``parthian``   Parthian gunds and garrisons                       Germano-Parthian
=============  ===============================================  ==================

Two units are *hostile* (:func:`hostile`) when their sides differ, or when
both are Germano-Parthian and exactly one is a rebel Roman: rebel Roman ZOC
pins the Germano-Parthian units "and vice versa" (``ldf:11.4``), and hostile
units never share a hex (``ldf:10.1``, ``ldf:12.3``). Rebels of the Gallic
Empire and of a co-emperor are both rebel Romans, blue on the counter, and are
not hostile to each other (they never meet: ``ldf:9.5`` keeps them apart).

ZOC (``ldf:11.1``): every unit on the map exerts one into the six hexes around
it except leaders and garrison/fortifications (the counter mix's ``zoc``
flag), an inactive Palmyra (``ldf:9.2``), never into an all-sea hex or across
an all-sea hexside, a German's never across a Rhine or Danube hexside in
either direction, a Gallic unit's only into Gallic Empire hexes (``ldf:9.5``).
Stacked units without ZOC do not cancel the others' (``ldf:11.1``); friendly
and enemy units in the hex reached do not cancel it (``ldf:11.2``).
Reciprocity (``ldf:11.5``) is what the symmetric projection gives: two hostile
stacks that both project are in each other's ZOC, "provided it contains one or
more units that project ZOC; see 11.1". At a Rhine or Danube hexside only the
German's ZOC stops (``ldf:11.1``, "with but one exception"): a legion across
the river pins the tribe, the tribe does not pin the legion; at the Gallic
frontier likewise only the other side's ZOC holds (rulings in
``docs/games/ldf.md``, second reading of issue 23).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

import attrs

from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap

from ancients_games.ldf.model import Piece
from ancients_games.ldf.state import LDFState
from ancients_games.ldf.state import Unit as StateUnit
from ancients_games.ldf.vocab import Side

__all__ = [
    "CAMPS",
    "ROMAN_CAMPS",
    "Camp",
    "PalmyraStatus",
    "Position",
    "Unit",
    "camp_of",
    "ezoc",
    "hostile",
    "hex_ids",
    "in_ezoc",
    "land_links",
    "position",
    "projects_zoc",
    "side_of",
    "zoc_of",
]

Camp = Literal["loyal", "client", "palmyran", "rebel", "gallic", "german", "parthian"]
CAMPS: tuple[Camp, ...] = ("loyal", "client", "palmyran", "rebel", "gallic", "german", "parthian")
PalmyraStatus = Literal["inactive", "roman", "germano-parthian"]
"""Palmyra's state (``ldf:9.2``-``ldf:9.4``): passive, allied to Rome, or won over by the G-P player."""

ROMAN_CAMPS: frozenset[str] = frozenset({"loyal", "rebel", "gallic"})
"""Camps of Roman units, loyal or rebel (``ldf:1.2``): the only ones that may enter narrows (``ldf:1.5``)."""
REBEL_CAMPS: frozenset[str] = frozenset({"rebel", "gallic"})
"""Rebel Romans (blue, ``ldf:1.2``): pinned by, and pinning, the other Germano-Parthian units (``ldf:11.4``)."""

RHINE_DANUBE = ("rhine", "danube")

RIVER_PROVINCES = frozenset({"3816", "3215"})
"""Dacia and Germania Decumates: looting either loses riverine movement (``ldf:12.7``)."""


@attrs.frozen
class Unit:
    """One unit on the map as the movement, ZOC and stacking rules see it."""

    id: str
    piece: str
    """The counter mix's piece id (``counters.toml``): ``infantry-vexillation``, ``german-tribe`` ..."""
    hex: Hex
    camp: Camp

    def moved_to(self, h: Hex) -> Unit:
        """The same unit in hex ``h``."""
        return Unit(self.id, self.piece, h, self.camp)


@attrs.frozen
class Position:
    """The units on the map and the political facts that change ZOC, stacking and movement.

    ``pieces`` is the counter mix (``model.load_counters(store).pieces``): it says
    which pieces are leaders, static or mobile, their movement factor and
    whether they exert a ZOC (``ldf:2.6``, ``ldf:11.1``).
    """

    units: tuple[Unit, ...]
    pieces: Mapping[str, Piece]
    palmyra: PalmyraStatus = "inactive"
    gallic_active: bool = False
    """The Gallic Empire is in play (``ldf:9.5``)."""
    cavalry_reserve: bool = False
    """The central cavalry reserve exists (``ldf:10.8``, chit 25)."""
    parthia_collapsed: bool = False
    """Parthian dynastic collapse: no unit may move into Parthia (``ldf:7.3``)."""
    river_movement_lost: bool = False
    """Dacia or Germania Decumates has been looted (``ldf:12.7``)."""
    by_hex: Mapping[Hex, tuple[Unit, ...]] = attrs.field(init=False, eq=False, repr=False)
    by_id: Mapping[str, Unit] = attrs.field(init=False, eq=False, repr=False)
    memo: dict[tuple[Any, ...], tuple[HexMap, Any]] = attrs.field(init=False, eq=False, repr=False, factory=dict)
    """Answers of the rules that depend only on the map and this position (:meth:`remembered`):
    a position never changes, so neither do they."""

    def __attrs_post_init__(self) -> None:
        where: dict[Hex, list[Unit]] = {}
        ids: dict[str, Unit] = {}
        for u in self.units:
            if u.id in ids:
                raise ValueError(f"unit {u.id!r} is on the map twice")
            ids[u.id] = u
            where.setdefault(u.hex, []).append(u)
        object.__setattr__(self, "by_hex", {h: tuple(us) for h, us in where.items()})
        object.__setattr__(self, "by_id", ids)

    def at(self, h: Hex) -> tuple[Unit, ...]:
        """The units in hex ``h`` (empty if none)."""
        return self.by_hex.get(h, ())

    def unit(self, unit_id: str) -> Unit:
        try:
            return self.by_id[unit_id]
        except KeyError:
            raise ValueError(f"no unit {unit_id!r} on the map") from None

    def piece(self, u: Unit) -> Piece:
        return self.pieces[u.piece]

    def kind(self, u: Unit) -> str:
        """``leader``, ``static`` or ``mobile`` (``ldf:2.3``, ``ldf:2.4``)."""
        return self.pieces[u.piece].kind

    def side(self, u: Unit) -> str:
        return side_of(u.camp, self.palmyra)

    def remembered(self, m: HexMap, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """``make()``, worked out once for this position on map ``m`` under the rule's ``key``."""
        hit = self.memo.get((id(m), *key))
        if hit is None or hit[0] is not m:
            hit = self.memo[(id(m), *key)] = (m, make())
        return hit[1]

    def replace(self, units: Iterable[Unit]) -> Position:
        """The same political facts with other units."""
        return attrs.evolve(self, units=tuple(units))


def side_of(camp: str, palmyra: PalmyraStatus = "inactive") -> str:
    """``roman`` or ``germano-parthian``: who commands (or is nominally allied with) a camp (``ldf:1.2``)."""
    if camp in ("loyal", "client"):
        return Side.ROMAN
    if camp == "palmyran":
        return Side.GERMANO_PARTHIAN if palmyra == Side.GERMANO_PARTHIAN else Side.ROMAN
    return Side.GERMANO_PARTHIAN


def hostile(a: str, b: str, palmyra: PalmyraStatus = "inactive") -> bool:
    """Are units of camps ``a`` and ``b`` enemies (``ldf:1.2``, ``ldf:6.8`` note, ``ldf:11.4``)?

    Enemies project EZOC on each other, never share a hex (``ldf:10.1``) and
    may not enter each other's hexes (``ldf:12.3``).
    """
    sa, sb = side_of(a, palmyra), side_of(b, palmyra)
    if sa != sb:
        return True
    if sa == Side.GERMANO_PARTHIAN:
        return (a in REBEL_CAMPS) != (b in REBEL_CAMPS)  # ldf:11.4: rebels and G-P units pin each other
    return False


def projects_zoc(pos: Position, u: Unit) -> bool:
    """Does ``u`` exert a ZOC (``ldf:11.1``: not leaders, not garrison/fortifications;
    ``ldf:9.2``: not an inactive Palmyra)?"""
    if not pos.pieces[u.piece].zoc:
        return False
    if u.camp == "palmyran" and pos.palmyra == "inactive":
        return False
    return True


@attrs.frozen(eq=False)
class _Links:
    """Per-map adjacency the rules use, computed once per map."""

    land: Mapping[Hex, tuple[Hex, ...]]
    german: Mapping[Hex, tuple[Hex, ...]]
    gallic: frozenset[Hex]
    ids: Mapping[Hex, str]


_LINKS: dict[int, tuple[HexMap, _Links]] = {}


def _links(m: HexMap) -> _Links:
    hit = _LINKS.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    land: dict[Hex, tuple[Hex, ...]] = {}
    german: dict[Hex, tuple[Hex, ...]] = {}
    for h in m.hexes():
        if m.terrain(h) == "sea":
            continue
        ns = tuple(n for n in m.neighbors(h) if m.terrain(n) != "sea" and not m.has_feature(h, n, "sea"))
        land[h] = ns
        # ldf:11.1: Germanic ZOC never crosses the Rhine or the Danube, either way
        german[h] = tuple(n for n in ns if not any(m.has_feature(h, n, f) for f in RHINE_DANUBE))
    links = _Links(land, german, m.region("gallic-empire"), {h: m.to_id(h) for h in m.hexes()})
    if len(_LINKS) > 8:
        _LINKS.clear()
    _LINKS[id(m)] = (m, links)
    return links


def land_links(m: HexMap) -> Mapping[Hex, tuple[Hex, ...]]:
    """For every land hex, its land neighbours not across an all-sea hexside.

    Neither ZOC (``ldf:11.1``) nor land movement (``ldf:12.2``, ``ldf:14.5``)
    goes into an all-sea hex or across an all-sea hexside; a narrows hex's
    hexsides are never all-sea (the strait is bridged, ``ldf:12.5``).
    """
    return _links(m).land


def hex_ids(m: HexMap) -> Mapping[Hex, str]:
    """Hex -> printed ID for every hex of ``m`` (cached)."""
    return _links(m).ids


_ZOC_OF: dict[tuple[int, str, str, Hex, bool], tuple[HexMap, Mapping[str, Piece], frozenset[Hex]]] = {}
""":func:`zoc_of` by map, counter, camp, hex and whether Palmyra is inactive (all it reads)."""


def zoc_of(m: HexMap, pos: Position, u: Unit) -> frozenset[Hex]:
    """The hexes ``u``'s zone of control reaches (empty if it exerts none), ``ldf:11.1``, ``ldf:9.5``."""
    key = (id(m), u.piece, u.camp, u.hex, pos.palmyra == "inactive")
    hit = _ZOC_OF.get(key)
    if hit is not None and hit[0] is m and hit[1] is pos.pieces:
        return hit[2]
    if len(_ZOC_OF) > 50_000:
        _ZOC_OF.clear()
    zone = _zoc_of(m, pos, u)
    _ZOC_OF[key] = (m, pos.pieces, zone)
    return zone


def _zoc_of(m: HexMap, pos: Position, u: Unit) -> frozenset[Hex]:
    if not projects_zoc(pos, u):
        return frozenset()
    links = _links(m)
    if u.camp == "german":
        return frozenset(links.german.get(u.hex, ()))  # ldf:11.1: not across the Rhine or Danube
    ns = links.land.get(u.hex, ())
    if u.camp == "gallic":
        return frozenset(n for n in ns if n in links.gallic)  # ldf:9.5 (6): only into Gallic Empire hexes
    return frozenset(ns)


def ezoc(m: HexMap, pos: Position, camp: str, *, ignore: Iterable[str] = ()) -> frozenset[Hex]:
    """Every hex in a zone of control of a unit hostile to ``camp`` (``ldf:11.1``, ``ldf:11.2``).

    ``ignore``: ids of units whose ZOC does not count (units just converted, or
    the defenders a combat result removed).
    """
    skip = frozenset(ignore)
    if skip:
        out: set[Hex] = set()
        for u in pos.units:
            if u.id in skip or not hostile(u.camp, camp, pos.palmyra):
                continue
            out |= zoc_of(m, pos, u)
        return frozenset(out)
    zones = pos.remembered(m, ("zones",), lambda: _zones_by_camp(m, pos))
    return pos.remembered(m, ("ezoc", camp), lambda: frozenset().union(
        *(z for c, z in zones.items() if hostile(c, camp, pos.palmyra))))


def _zones_by_camp(m: HexMap, pos: Position) -> dict[str, frozenset[Hex]]:
    """Every camp's zones of control on the map (once per position: each camp's EZOC is then a
    union of a few)."""
    zones: dict[str, set[Hex]] = {}
    for u in pos.units:
        z = zoc_of(m, pos, u)
        if z:
            zones.setdefault(u.camp, set()).update(z)
    return {c: frozenset(z) for c, z in zones.items()}


def in_ezoc(m: HexMap, pos: Position, h: Hex, camp: str) -> bool:
    """Is hex ``h`` in a ZOC hostile to ``camp`` (``ldf:11.1``, ``ldf:11.5``)? The ZOC of the
    enemy's units as :func:`zoc_of` projects them: a legion's crosses the Rhine and binds a
    tribe beyond it, a tribe's does not cross (``ldf:11.1``'s one exception)."""
    for n in m.neighbors(h):
        for u in pos.at(n):
            if hostile(u.camp, camp, pos.palmyra) and h in zoc_of(m, pos, u):
                return True
    return False


def camp_of(state: LDFState, u: StateUnit) -> Camp:
    """A state unit's camp: :meth:`LDFState.faction_of`, with Palmyra's own garrison (a client
    counter in hex 4720) counted as Palmyran (``ldf:9.1``-``ldf:9.4``)."""
    f = state.faction_of(u)
    if f == "client" and u.hex is not None and state.in_region(u.hex, "palmyra"):
        return "palmyran"
    return f  # type: ignore[return-value]


_POSITIONS: dict[tuple[object, ...], tuple[object, Position]] = {}
"""The last positions built, by everything :func:`position` reads (see there)."""
_KEPT_POSITIONS = 32


def position(state: LDFState) -> Position:
    """The :class:`Position` of a game in progress (every unit on the map).

    Positions are kept by what they are made of (each unit on the map with its
    counter, nationality, hex and loyalty, and the political facts), so the
    rules asking again about an unchanged map get the same object, and with it
    the zones :func:`ezoc` found there, instead of building it anew. The key is
    read from the state at each call: no rule has to say that it changed
    something."""
    key = (state.palmyra, state.gallic_active, state.cavalry_reserve, state.parthia_collapsed,
           tuple(h in state.looted for h in sorted(RIVER_PROVINCES)),
           tuple([(u.id, u.kind, u.nationality, u.hex, u.rebel, u.gallic) for u in state.units.values()
                  if u.where == "map"]))
    hit = _POSITIONS.get(key)
    if hit is not None and hit[0] is state.data:
        return hit[1]
    pos = _position(state)
    if len(_POSITIONS) >= _KEPT_POSITIONS:
        del _POSITIONS[next(iter(_POSITIONS))]
    _POSITIONS[key] = (state.data, pos)
    return pos


def _position(state: LDFState) -> Position:
    ids = state.data.ids
    units = tuple(Unit(u.id, u.kind, ids[u.hex], camp_of(state, u)) for u in state.on_map() if u.hex is not None)
    return Position(
        units, state.data.counters.pieces, palmyra=state.palmyra, gallic_active=state.gallic_active,
        cavalry_reserve=state.cavalry_reserve, parthia_collapsed=state.parthia_collapsed,
        river_movement_lost=bool(RIVER_PROVINCES & state.looted),
    )
