"""Pictures of a position: what a game shows of its map, as plain data.

A game describes a position with a :class:`Picture` (``Game.picture``): the
hexes with their centres, printed IDs and terrain, the hexside features, the
counters (side, type code, strength, facing), markers, lines such as C&C's
section lines, and a legend. :mod:`ancients_kit.drawing` turns any picture
into SVG (and PNG), so every game gets ``ancients show`` and the HTML replay
without drawing code of its own, and the core names no game.

Centres are in units of the hex *size* (centre to corner): neighbouring
hexes lie ``sqrt(3)`` apart. :func:`hexmap_hexes` lays out a core
:class:`~ancients_kit.hexmap.HexMap`; a game with its own board (C&C) uses
:func:`offset_centre`.
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
