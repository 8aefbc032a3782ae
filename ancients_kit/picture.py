"""Pictures of a position: what a game shows of its map, as plain data.

A game describes a position with a :class:`Picture` (``Game.picture``): the
hexes with their centres, printed IDs and terrain, the hexside features, the
counters (side, type code, strength, facing), markers, lines such as C&C's
section lines, region borders (LDF's regions, Xenophon's satrapies), where north
lies on the sheet, and a legend. :mod:`ancients_kit.drawing` turns any picture
into SVG (and PNG), so every game gets ``ancients show`` and the HTML replay
without drawing code of its own, and the core names no game.

Centres are in units of the hex *size* (centre to corner): neighbouring
hexes lie ``sqrt(3)`` apart. :func:`hexmap_hexes` lays out a core
:class:`~ancients_kit.hexmap.HexMap`; a game with its own board (C&C) uses
:func:`offset_centre`. :func:`region_borders` gives the hexsides between hexes
of different regions.

A picture is laid out as the sheet is printed. A sheet printed with north
elsewhere than at the top (Xenophon's, read with north to the right) says so in
:attr:`Picture.north`; :func:`upright` turns such a picture north up, and the
drawings (the table's grid, the SVG) draw it north up unless asked for the
sheet as printed.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping, Sequence
from typing import Literal

import attrs

from ancients_kit.hexgrid import Hex, Numbering
from ancients_kit.hexmap import HexMap

__all__ = [
    "Counter",
    "Marker",
    "Picture",
    "PictureHex",
    "PictureHexside",
    "PictureLine",
    "direction_angle",
    "hexmap_hexes",
    "offset_centre",
    "region_borders",
    "upright",
]

SQRT3 = math.sqrt(3.0)


@attrs.frozen
class PictureHex:
    """One hex: printed ID, centre (hex-size units), terrain name."""

    id: str
    x: float
    y: float
    terrain: str = "clear"


@attrs.frozen
class PictureHexside:
    """A feature (river, road, wall ...) on the hexside between two hexes."""

    a: str
    b: str
    feature: str


@attrs.frozen
class PictureLine:
    """A line drawn over the map (board section lines), in hex-size units."""

    x1: float
    y1: float
    x2: float
    y2: float
    kind: str = "section"


@attrs.frozen
class Counter:
    """A unit, stack or leader as drawn on its hex."""

    hex: str
    side: str
    """Side ID (the picture's ``sides`` give its name and order)."""
    code: str
    """Short type code shown on the counter (``SD``, ``HI``, ``??`` when hidden)."""
    strength: str = ""
    """Factors or blocks (``6-2-4``, ``3``)."""
    facing: int | None = None
    """Direction 0..5 the counter faces (flat: N NE SE S SW NW; pointy: NE E SE SW W NW)."""
    hidden: bool = False
    """Drawn face down (the viewer may not see what it is)."""
    detail: str = ""
    """Full description for a tooltip (units in the stack, states)."""
    marks: tuple[str, ...] = ()
    """Short state marks drawn on the counter (``dispersed``, ``leader``, ``square``)."""


@attrs.frozen
class Marker:
    """Something on a hex that is not a unit (earthworks, caltrops, a wagon)."""

    hex: str
    text: str


@attrs.frozen
class Picture:
    """Everything needed to draw one position of any game."""

    orientation: Literal["flat", "pointy"]
    hexes: tuple[PictureHex, ...]
    counters: tuple[Counter, ...] = ()
    hexsides: tuple[PictureHexside, ...] = ()
    markers: tuple[Marker, ...] = ()
    lines: tuple[PictureLine, ...] = ()
    sides: tuple[tuple[str, str], ...] = ()
    """``(side ID, name)`` in playing order; the first is drawn in the first colour."""
    title: str = ""
    status: str = ""
    highlight: frozenset[str] = frozenset()
    """Printed IDs of the hexes the current question is about."""
    legend: Mapping[str, str] = attrs.field(factory=dict)
    """Counter codes and marks -> what they mean."""
    borders: tuple[PictureHexside, ...] = ()
    """Region borders: the hexsides between two hexes of different regions (``feature`` names
    the kind of region: ``region``, ``satrapy``). Drawn thinner than hexside features."""
    north: int = 0
    """Where north lies on the sheet as laid out: quarter turns clockwise from the top
    (0 north up; 1 north to the right, as on Xenophon's sheet)."""

    def with_highlight(self, hex_ids: Sequence[str]) -> Picture:
        return attrs.evolve(self, highlight=frozenset(hex_ids))

    def hex_by_id(self) -> dict[str, PictureHex]:
        return {h.id: h for h in self.hexes}


def direction_angle(orientation: str, direction: int) -> float:
    """Screen angle (radians, y pointing down) of direction 0..5 from a hex centre."""
    first = -90.0 if orientation == "flat" else -60.0
    return math.radians(first + 60.0 * (direction % 6))


def offset_centre(orientation: str, column: int, row: int, shifted: bool) -> tuple[float, float]:
    """Centre of the hex in printed column and row (0-based), shifted by half a hex or not."""
    if orientation == "flat":
        return 1.5 * column, SQRT3 * row + (SQRT3 / 2 if shifted else 0.0)
    return SQRT3 * column + (SQRT3 / 2 if shifted else 0.0), 1.5 * row


def _numbering_centre(num: Numbering, h: Hex) -> tuple[float, float]:
    col, row = num.to_offset(h)
    shifted = num.is_shifted(col if num.orientation == "flat" else row)
    return offset_centre(num.orientation, col - num.first_column, row - num.first_row, shifted)


_LAID_OUT: weakref.WeakKeyDictionary[HexMap, tuple[tuple[PictureHex, ...], tuple[PictureHexside, ...]]] = (
    weakref.WeakKeyDictionary())
"""Maps already laid out: a map is immutable, and a replay draws the same map at every step."""


def hexmap_hexes(hexmap: HexMap) -> tuple[tuple[PictureHex, ...], tuple[PictureHexside, ...]]:
    """The hexes (with centres and terrain) and hexside features of a core map
    (computed once per map: the same tuples are returned on every later call)."""
    done = _LAID_OUT.get(hexmap)
    if done is None:
        done = _LAID_OUT[hexmap] = _lay_out(hexmap)
    return done


def _lay_out(hexmap: HexMap) -> tuple[tuple[PictureHex, ...], tuple[PictureHexside, ...]]:
    num = hexmap.numbering
    hexes = tuple(
        PictureHex(num.to_id(h), *_numbering_centre(num, h), terrain=hexmap.terrain(h)) for h in num.hexes()
    )
    sides = []
    for side, feats in sorted(hexmap.features.items()):
        a, b = side.hexes()
        if a not in num or b not in num:
            continue
        for f in sorted(feats):
            sides.append(PictureHexside(num.to_id(a), num.to_id(b), f))
    return hexes, tuple(sides)


def region_borders(hexmap: HexMap, kind: str = "region", *, ignore: frozenset[str] = frozenset(),
                   land_only: bool = True) -> tuple[PictureHexside, ...]:
    """The hexsides between two hexes that do not lie in the same regions (each pair once, by ID).

    A hex's regions are the map's regions holding it, less ``ignore``; two hexes
    are in different regions when those sets differ. With ``land_only`` a hexside
    touching a hex of no region (the sea) is no border: the coast shows itself.
    Computed once per map and kind."""
    key = (kind, ignore, land_only)
    done = _BORDERS.setdefault(hexmap, {})
    got = done.get(key)
    if got is not None:
        return got
    num = hexmap.numbering
    member: dict[Hex, set[str]] = {}
    for name, hexes in hexmap.regions.items():
        if name in ignore:
            continue
        for h in hexes:
            member.setdefault(h, set()).add(name)
    keys = {h: frozenset(r) for h, r in member.items()}
    out = []
    for h in num.hexes():
        for n in hexmap.adjacency[h]:
            if n <= h:  # each pair once
                continue
            a, b = keys.get(h, frozenset()), keys.get(n, frozenset())
            if a == b or (land_only and (not a or not b)):
                continue
            ia, ib = num.to_id(h), num.to_id(n)
            out.append(PictureHexside(min(ia, ib), max(ia, ib), kind))
    got = done[key] = tuple(sorted(out, key=lambda s: (s.a, s.b)))
    return got


_BORDERS: weakref.WeakKeyDictionary[HexMap, dict[tuple[str, frozenset[str], bool], tuple[PictureHexside, ...]]] = (
    weakref.WeakKeyDictionary())


def _turn(x: float, y: float, quarters: int) -> tuple[float, float]:
    """(x, y) turned ``quarters`` quarter turns counter-clockwise on screen (y pointing down)."""
    for _ in range(quarters % 4):
        x, y = y, -x
    return x, y


_UPRIGHT: dict[int, tuple[tuple[PictureHex, ...], tuple[PictureHex, ...]]] = {}
"""id(hexes) -> (those hexes, the same turned north up): the hexes of a map are the same tuple at
every drawing (:func:`hexmap_hexes`), so they are turned once."""


def upright(p: Picture) -> Picture:
    """``p`` turned so that north is at the top (``p`` itself when it already is).

    Hex IDs, counters, hexsides and borders are unchanged; the centres turn (and
    are moved back to start at 0, 0), flat-topped hexes become pointy-topped, counter
    facings keep pointing where they pointed on the ground, and lines turn with the map."""
    q = p.north % 4
    if not q:
        return p
    orientation: Literal["flat", "pointy"] = p.orientation
    if q % 2:
        orientation = "pointy" if p.orientation == "flat" else "flat"
    cached = _UPRIGHT.get(id(p.hexes))
    if cached is not None and cached[0] is p.hexes:
        hexes = cached[1]
    else:
        turned = [(h, *_turn(h.x, h.y, q)) for h in p.hexes]
        x0 = min((x for _, x, _ in turned), default=0.0)
        y0 = min((y for _, _, y in turned), default=0.0)
        hexes = tuple(PictureHex(h.id, round(x - x0, 9), round(y - y0, 9), h.terrain) for h, x, y in turned)
        if len(_UPRIGHT) > 16:
            _UPRIGHT.clear()
        _UPRIGHT[id(p.hexes)] = (p.hexes, hexes)
    # where the turned picture's origin lies, for the lines: the first hex before and after
    if p.hexes:
        fx, fy = _turn(p.hexes[0].x, p.hexes[0].y, q)
        dx, dy = hexes[0].x - fx, hexes[0].y - fy
    else:
        dx = dy = 0.0
    lines = tuple(attrs.evolve(ln, x1=_turn(ln.x1, ln.y1, q)[0] + dx, y1=_turn(ln.x1, ln.y1, q)[1] + dy,
                               x2=_turn(ln.x2, ln.y2, q)[0] + dx, y2=_turn(ln.x2, ln.y2, q)[1] + dy)
                  for ln in p.lines)
    counters = p.counters
    if any(c.facing is not None for c in counters):
        counters = tuple(c if c.facing is None else attrs.evolve(c, facing=_turned_facing(p.orientation, c.facing, q))
                         for c in counters)
    return attrs.evolve(p, orientation=orientation, hexes=hexes, lines=lines, counters=counters, north=0)


def _turned_facing(orientation: str, direction: int, quarters: int) -> int:
    """The direction (in the turned picture's orientation) of ``direction`` once turned."""
    a = direction_angle(orientation, direction) - math.pi / 2 * quarters
    new = ("pointy" if orientation == "flat" else "flat") if quarters % 2 else orientation
    best = min(range(6), key=lambda d: abs(math.remainder(direction_angle(new, d) - a, 2 * math.pi)))
    return best


def hexside_strokes(hexmap: HexMap, borders: Sequence[PictureHexside], border_style: str,
                    features: Mapping[str, str]) -> list[tuple[Hex, Hex, str]]:
    """The strokes of a text map, ``(hex, hex, style)``: the ``borders`` first in
    ``border_style``, then every hexside carrying one of ``features`` (in their order, each
    in its style) over them. Computed once per map, borders and styles."""
    key = (tuple(borders), border_style, tuple(features.items()))
    done = _STROKES.setdefault(hexmap, {})
    got = done.get(key)
    if got is not None:
        return got
    num = hexmap.numbering
    out = [(num.from_id(b.a), num.from_id(b.b), border_style) for b in borders]
    for feature, style in features.items():
        for side in sorted(hexmap.hexsides_with(feature)):
            a, b = side.hexes()
            out.append((a, b, style))
    done.clear()
    done[key] = out
    return out


_STROKES: weakref.WeakKeyDictionary[HexMap, dict[tuple[object, ...], list[tuple[Hex, Hex, str]]]] = (
    weakref.WeakKeyDictionary()
)
