"""Hex grid geometry: coordinates, directions, hexsides, rings, lines, facing, numbering.

This module owns the geometry every game shares. It knows nothing of terrain or
units. Rules it serves: movement adjacency (``cen:basic.movement``,
``ldf:12.2``, ``xen:movement``, ``ccr:base.movement``), facing and frontal
attacks (``cen:full.facing``), line of sight (``ccr:base.ranged``).

Coordinates
-----------
Inside the core a hex is :class:`Hex` ``(q, r)``, axial coordinates (the third
cube coordinate is ``s = -q - r``). Printed hex IDs such as ``"3318"`` exist only
at the edges, through a map's :class:`Numbering` (``to_id`` / ``from_id``).

Directions
----------
A direction is an ``int`` 0..5, counted **clockwise** from the first named
direction of the map's orientation:

========  ====  ====  ====  ====  ====  ====
index      0     1     2     3     4     5
flat       N     NE    SE    S     SW    NW
pointy     NE    E     SE    SW    W     NW
========  ====  ====  ====  ====  ====  ====

The axial axes are laid so that the same six vectors (:data:`DIRECTIONS`) mean
these names in both orientations; a direction index therefore has the same
meaning for neighbours, hexsides, facing and turning everywhere. ``d + 3`` is
the opposite direction.

Facing (``cen:full.facing``): a unit faces one hexside, i.e. a direction ``f``.
Its front is the three hexsides ``f - 1, f, f + 1``; the other three are its
flank. Turning by one hexside is 60 degrees.

Lines (line of sight)
---------------------
:func:`line` gives the ``distance + 1`` hexes a straight line from centre to
centre passes through. Where the line runs exactly along a hexside it touches
two hexes equally; :func:`line_candidates` returns both, so a game can apply
its own rule (C&C: sight is blocked only if both are blocking; a player's
choice elsewhere).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Literal, NamedTuple

import attrs

__all__ = [
    "DIRECTIONS",
    "FLAT_DIRECTION_NAMES",
    "POINTY_DIRECTION_NAMES",
    "Hex",
    "HexIdError",
    "Hexside",
    "Numbering",
    "Orientation",
    "Parity",
    "arc_side",
    "direction_to",
    "flank_directions",
    "flank_hexes",
    "front_directions",
    "front_hexes",
    "hex_range",
    "in_front_arc",
    "is_frontal",
    "line",
    "line_candidates",
    "ring",
    "spiral",
    "turn",
    "turn_distance",
]

Orientation = Literal["flat", "pointy"]
"""``flat``: flat-top hexes in vertical columns; ``pointy``: pointy-top hexes in rows."""
Parity = Literal["odd", "even"]
"""Which printed columns (flat) or rows (pointy) sit shifted by half a hex."""

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""Axial ``(dq, dr)`` of directions 0..5, clockwise (see the module docstring)."""

FLAT_DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
"""Names of directions 0..5 on a flat-top map."""
POINTY_DIRECTION_NAMES: tuple[str, ...] = ("NE", "E", "SE", "SW", "W", "NW")
"""Names of directions 0..5 on a pointy-top map."""

# Cube (q, r, s) of each direction, for dot products and arcs.
_CUBE_DIRS = tuple((dq, dr, -dq - dr) for dq, dr in DIRECTIONS)
_DIR_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}


class Hex(NamedTuple):
    """A hex in axial coordinates ``(q, r)``; hashable, ordered, cheap.

    ``repr`` can be pasted back as code: ``Hex(q=3, r=-1)``. Equal to the plain
    tuple ``(q, r)``, so dicts keyed by ``Hex`` accept tuples too.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """Third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def neighbor(self, direction: int) -> Hex:
        """The adjacent hex in ``direction`` (0..5, taken modulo 6)."""
        dq, dr = DIRECTIONS[direction % 6]
        return Hex(self.q + dq, self.r + dr)

    def neighbors(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in direction order 0..5."""
        q, r = self
        return tuple(Hex(q + dq, r + dr) for dq, dr in DIRECTIONS)

    def distance(self, other: tuple[int, int]) -> int:
        """Number of hex steps between the two hexes."""
        dq = self.q - other[0]
        dr = self.r - other[1]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def shifted(self, dq: int, dr: int) -> Hex:
        """This hex moved by an axial vector."""
        return Hex(self.q + dq, self.r + dr)

    def is_adjacent(self, other: tuple[int, int]) -> bool:
        """True if the hexes share a hexside."""
        return (other[0] - self.q, other[1] - self.r) in _DIR_INDEX


def direction_to(a: Hex, b: Hex) -> int:
    """The direction from ``a`` to the adjacent hex ``b``.

    Raises ``ValueError`` if the hexes are not adjacent.
    """
    try:
        return _DIR_INDEX[(b[0] - a[0], b[1] - a[1])]
    except KeyError:
        raise ValueError(f"{b!r} is not adjacent to {a!r}") from None


class Hexside(NamedTuple):
    """The edge shared by two adjacent hexes (a river or road lies on it).

    Undirected: ``a < b`` always, so ``Hexside.between(x, y) ==
    Hexside.between(y, x)``. Build it with :meth:`between` or :meth:`of`.
    """

    a: Hex
    b: Hex

    @classmethod
    def between(cls, a: tuple[int, int], b: tuple[int, int]) -> Hexside:
        """The hexside between two adjacent hexes (``ValueError`` if not adjacent)."""
        a, b = Hex(*a), Hex(*b)
        if (b.q - a.q, b.r - a.r) not in _DIR_INDEX:
            raise ValueError(f"{a!r} and {b!r} are not adjacent: they share no hexside")
        return cls(a, b) if a < b else cls(b, a)

    @classmethod
    def of(cls, h: tuple[int, int], direction: int) -> Hexside:
        """The hexside of ``h`` in ``direction``."""
        h = Hex(*h)
        n = h.neighbor(direction)
        return cls(h, n) if h < n else cls(n, h)

    def hexes(self) -> tuple[Hex, Hex]:
        """The two hexes sharing this hexside."""
        return (self.a, self.b)

    def other(self, h: tuple[int, int]) -> Hex:
        """The hex across this hexside from ``h``."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h!r} is not on either side of {self!r}")

    def direction_from(self, h: tuple[int, int]) -> int:
        """The direction in which this hexside lies, seen from ``h``."""
        return direction_to(Hex(*h), self.other(h))


# ---------------------------------------------------------------- areas


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from ``center`` (``6 * radius`` of them).

    Radius 0 gives ``[center]``. The order walks the ring clockwise.
    """
    if radius < 0:
        raise ValueError(f"ring radius must be >= 0, got {radius}")
    if radius == 0:
        return [Hex(*center)]
    dq, dr = DIRECTIONS[4]
    q, r = center[0] + dq * radius, center[1] + dr * radius
    out: list[Hex] = []
    for i in range(6):
        sq, sr = DIRECTIONS[i]
        for _ in range(radius):
            out.append(Hex(q, r))
            q += sq
            r += sr
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """The hexes within ``radius``, ring by ring from the centre outward."""
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(ring(center, k))
    return out


def hex_range(center: Hex, radius: int) -> list[Hex]:
    """The ``3n(n+1)+1`` hexes within ``radius`` of ``center`` (inclusive)."""
    if radius < 0:
        raise ValueError(f"range radius must be >= 0, got {radius}")
    cq, cr = center
    out: list[Hex] = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append(Hex(cq + dq, cr + dr))
    return out


# ---------------------------------------------------------------- lines

_EPS = 1e-6


def _cube_round(fq: float, fr: float, fs: float) -> Hex:
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def _nudged_line(a: Hex, b: Hex, sign: int) -> list[Hex]:
    n = a.distance(b)
    e1, e2 = sign * _EPS, sign * 2 * _EPS
    aq, ar, as_ = a[0] + e1, a[1] + e2, -a[0] - a[1] - e1 - e2
    bq, br, bs = b[0] + e1, b[1] + e2, -b[0] - b[1] - e1 - e2
    if n == 0:
        return [Hex(*a)]
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(_cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t))
    return out


def line(a: Hex, b: Hex) -> list[Hex]:
    """The ``distance + 1`` hexes on the straight line from ``a`` to ``b``.

    Consecutive hexes are adjacent. Where the line runs along a hexside this
    picks one of the two hexes consistently; use :func:`line_candidates` when
    the rule cares.
    """
    return _nudged_line(Hex(*a), Hex(*b), 1)


def line_candidates(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    """For each step of the line from ``a`` to ``b``, the hex(es) it passes through.

    Each entry holds one hex, or two when the line runs exactly along the
    hexside they share (``ccr:base.ranged``: such a pair blocks sight only if
    both hexes block). The first and last entries are ``(a,)`` and ``(b,)``.
    """
    plus = _nudged_line(Hex(*a), Hex(*b), 1)
    minus = _nudged_line(Hex(*a), Hex(*b), -1)
    return [(p,) if p == m else (p, m) for p, m in zip(plus, minus)]


# ---------------------------------------------------------------- facing


def front_directions(facing: int) -> tuple[int, int, int]:
    """The three directions a unit facing ``facing`` fronts upon (``cen:full.facing``)."""
    f = facing % 6
    return ((f - 1) % 6, f, (f + 1) % 6)


def flank_directions(facing: int) -> tuple[int, int, int]:
    """The three flank/rear directions of a unit facing ``facing`` (``cen:full.facing``)."""
    f = facing % 6
    return ((f + 2) % 6, (f + 3) % 6, (f + 4) % 6)


def front_hexes(h: Hex, facing: int) -> tuple[Hex, Hex, Hex]:
    """The three hexes adjacent to ``h`` through its front hexsides (``cen:full.facing``)."""
    a, b, c = front_directions(facing)
    return (h.neighbor(a), h.neighbor(b), h.neighbor(c))


def flank_hexes(h: Hex, facing: int) -> tuple[Hex, Hex, Hex]:
    """The three hexes adjacent to ``h`` through its flank hexsides (``cen:full.facing``)."""
    a, b, c = flank_directions(facing)
    return (h.neighbor(a), h.neighbor(b), h.neighbor(c))


def is_frontal(defender_hex: Hex, defender_facing: int, attacker_hex: Hex) -> bool:
    """True if an adjacent attacker strikes the defender through a front hexside.

    ``cen:full.facing``: a unit defends at full strength only against attacks on
    its front. Raises ``ValueError`` if the attacker is not adjacent.
    """
    d = direction_to(Hex(*defender_hex), Hex(*attacker_hex))
    return (d - defender_facing) % 6 in (0, 1, 5)


def turn_distance(f1: int, f2: int) -> int:
    """Hexsides turned (0..3) to change facing from ``f1`` to ``f2`` (60 degrees each)."""
    k = (f2 - f1) % 6
    return min(k, 6 - k)


def turn(facing: int, steps: int) -> int:
    """The facing after turning ``steps`` hexsides clockwise (negative: counter-clockwise)."""
    return (facing + steps) % 6


def arc_side(origin: Hex, facing: int, target: Hex) -> int:
    """Which side of a unit's front line ``target`` lies on, at any distance.

    ``1``: in front of the line through the unit's two flank-front vertices;
    ``-1``: behind it; ``0``: exactly on it. For adjacent hexes this agrees with
    :func:`is_frontal` (never 0).
    """
    dq, dr = target[0] - origin[0], target[1] - origin[1]
    fq, fr, fs = _CUBE_DIRS[facing % 6]
    dot = dq * fq + dr * fr + (-dq - dr) * fs
    return (dot > 0) - (dot < 0)


def in_front_arc(origin: Hex, facing: int, target: Hex) -> bool:
    """True if ``target`` lies in the 120-degree arc ahead of a unit.

    The arc is bounded by the rays through the centres of the two outer front
    hexes (``cen:full.combat``: fire into "the 120 degree arc of fire
    indicated by the unit's front"). At distance 1 it is exactly the three
    front hexes; at distance ``n`` it holds ``2n + 1`` hexes, edges included.
    The origin itself is not in its own arc.
    """
    q, r = target[0] - origin[0], target[1] - origin[1]
    s = -q - r
    for _ in range(facing % 6):  # rotate counter-clockwise until facing is 0
        q, r, s = -s, -q, -r
    return (q, r) != (0, 0) and r <= 0 and s >= 0


# ---------------------------------------------------------------- numbering


class HexIdError(ValueError):
    """A printed hex ID cannot be read or is not on the map."""


def _check_orientation(inst: object, att: attrs.Attribute, value: str) -> None:
    if value not in ("flat", "pointy"):
        raise ValueError(f"orientation must be 'flat' or 'pointy', got {value!r}")


def _check_parity(inst: object, att: attrs.Attribute, value: str) -> None:
    if value not in ("odd", "even"):
        raise ValueError(f"shifted must be 'odd' or 'even', got {value!r}")


def _positive(inst: object, att: attrs.Attribute, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{att.name} must be a positive integer, got {value!r}")


def _non_negative(inst: object, att: attrs.Attribute, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{att.name} must be an integer >= 0, got {value!r}")


MAX_DIGITS = 4
"""Widest half of a printed hex ID (``CCRR`` is 2; 4 numbers 9999 columns)."""

MAX_MAP_HEXES = 250_000
"""Most hexes one map may hold (500 x 500; the largest printed map has about 2,000)."""


@attrs.frozen
class Numbering:
    """How a map prints its hex IDs: the ``[grid]`` table of a map file.

    Converts between axial :class:`Hex` and printed ``CCRR`` IDs, knows which
    hexes exist, and names the directions. ``Hex(0, 0)`` is always the
    top-left printed hex (``first_column``, ``first_row``).
    """

    orientation: Orientation = attrs.field(validator=_check_orientation)
    """``flat`` (columns, Centurion/LDF/Xenophon) or ``pointy`` (rows, C&C)."""
    shifted: Parity = attrs.field(validator=_check_parity)
    """Printed columns (flat: half a hex lower) or rows (pointy: half a hex right) that are shifted."""
    columns: int = attrs.field(validator=_positive)
    """Hexes across (in an unshortened row)."""
    rows: int = attrs.field(validator=_positive)
    """Hexes down."""
    first_column: int = attrs.field(default=1, validator=_non_negative)
    """Printed number of the leftmost column."""
    first_row: int = attrs.field(default=1, validator=_non_negative)
    """Printed number of the top row."""
    digits: int = attrs.field(default=2, validator=_positive)
    """Zero-padded width of each half of the printed ID (``0304``: 2)."""
    short_rows: bool = False
    """Pointy only: shifted rows hold one hex fewer (C&C: 13 and 12)."""
    _all: tuple[Hex, ...] = attrs.field(init=False, repr=False, eq=False, hash=False)
    _set: frozenset[Hex] = attrs.field(init=False, repr=False, eq=False, hash=False)

    def __attrs_post_init__(self) -> None:
        if self.short_rows and self.orientation != "pointy":
            raise ValueError("short_rows applies to pointy maps only")
        # Bounded before anything is built: digits = 2**63 or a map of 10**8 columns
        # would otherwise hang the loader (issue 13, variant files validated).
        if self.digits > MAX_DIGITS:
            raise ValueError(f"digits {self.digits} is out of range 1..{MAX_DIGITS}")
        if self.columns * self.rows > MAX_MAP_HEXES:
            raise ValueError(f"{self.columns} x {self.rows} hexes is more than a map may hold ({MAX_MAP_HEXES})")
        top = 10**self.digits
        if self.first_column + self.columns - 1 >= top or self.first_row + self.rows - 1 >= top:
            raise ValueError(f"{self.digits} digit(s) cannot print every column/row of this map")
        out: list[Hex] = []
        for y in range(self.rows):
            for x in range(self.line_length(y)):
                out.append(self.from_offset(self.first_column + x, self.first_row + y))
        object.__setattr__(self, "_all", tuple(out))
        object.__setattr__(self, "_set", frozenset(out))

    # -- shape

    @property
    def _p(self) -> int:
        return 1 if self.shifted == "odd" else 0

    def _lift(self, n: int) -> int:
        # Increases by one exactly after each shifted column/row number.
        return (n + 1 - self._p) // 2

    def is_shifted(self, number: int) -> bool:
        """True if printed column (flat) or row (pointy) ``number`` is a shifted one."""
        return number % 2 == self._p

    def line_length(self, y: int) -> int:
        """Hexes in row ``y`` (0-based from the top); fewer on short pointy rows."""
        if self.orientation == "pointy" and self.short_rows and self.is_shifted(self.first_row + y):
            return self.columns - 1
        return self.columns

    @property
    def direction_names(self) -> tuple[str, ...]:
        """Names of directions 0..5 for this orientation."""
        return FLAT_DIRECTION_NAMES if self.orientation == "flat" else POINTY_DIRECTION_NAMES

    def direction_name(self, direction: int) -> str:
        """Name of ``direction`` (``"NE"`` ...)."""
        return self.direction_names[direction % 6]

    def direction_from_name(self, name: str) -> int:
        """Direction index of a name such as ``"se"`` (case-insensitive)."""
        try:
            return self.direction_names.index(name.strip().upper())
        except ValueError:
            names = ", ".join(self.direction_names)
            raise ValueError(f"unknown direction {name!r} on a {self.orientation} map (use {names})") from None

    # -- conversions

    def to_offset(self, h: tuple[int, int]) -> tuple[int, int]:
        """Printed ``(column, row)`` numbers of ``h`` (whether or not it is on the map)."""
        q, r = h
        if self.orientation == "flat":
            c = q + self.first_column
            return c, r + self._lift(c) - self._lift(self.first_column) + self.first_row
        # pointy: axial q = Q + y, r = -Q where Q is the standard "E" axis
        y = q + r
        row = y + self.first_row
        x = -r + self._lift(row) - self._lift(self.first_row)
        return x + self.first_column, row

    def from_offset(self, column: int, row: int) -> Hex:
        """The hex at printed ``(column, row)`` (not checked against the map)."""
        if self.orientation == "flat":
            return Hex(column - self.first_column, row - self.first_row - self._lift(column) + self._lift(self.first_column))
        y = row - self.first_row
        big_q = column - self.first_column - self._lift(row) + self._lift(self.first_row)
        return Hex(big_q + y, -big_q)

    def to_id(self, h: tuple[int, int]) -> str:
        """Printed ID such as ``"0304"`` (column then row, zero-padded)."""
        c, r = self.to_offset(h)
        if c < 0 or r < 0 or c >= 10**self.digits or r >= 10**self.digits:
            raise HexIdError(f"{Hex(*h)!r} has no printed ID on this map (column {c}, row {r})")
        return f"{c:0{self.digits}d}{r:0{self.digits}d}"

    def from_id(self, hex_id: str, *, on_map: bool = True) -> Hex:
        """The hex printed as ``hex_id``; ``HexIdError`` (a ``ValueError``) naming it if invalid.

        With ``on_map`` (the default) the hex must also exist on this map.
        """
        d = self.digits
        text = hex_id if isinstance(hex_id, str) else ""
        if len(text) != 2 * d or not text.isascii() or not text.isdigit():
            example = f"{self.first_column:0{d}d}{self.first_row:0{d}d}"
            raise HexIdError(f"invalid hex ID {hex_id!r}: expected {2 * d} digits, column then row (e.g. {example!r})")
        h = self.from_offset(int(text[:d]), int(text[d:]))
        if on_map and h not in self._set:
            raise HexIdError(f"hex ID {hex_id!r} is not on this map ({self.describe()})")
        return h

    def describe(self) -> str:
        """Short human description: ``flat, columns 01-30, rows 01-20``."""
        d = self.digits
        c0, r0 = self.first_column, self.first_row
        return (
            f"{self.orientation}, columns {c0:0{d}d}-{c0 + self.columns - 1:0{d}d}, "
            f"rows {r0:0{d}d}-{r0 + self.rows - 1:0{d}d}" + (", short rows" if self.short_rows else "")
        )

    # -- membership

    def contains(self, h: tuple[int, int]) -> bool:
        """True if ``h`` is a hex of this map."""
        return h in self._set

    def __contains__(self, h: object) -> bool:
        return h in self._set

    def hexes(self) -> tuple[Hex, ...]:
        """Every hex of the map, in reading order (top row first, left to right)."""
        return self._all

    def hex_set(self) -> frozenset[Hex]:
        """Every hex of the map as a frozenset (fast membership)."""
        return self._set

    def __len__(self) -> int:
        return len(self._all)

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._all)

    def on_map_neighbors(self, h: Hex) -> list[Hex]:
        """The neighbours of ``h`` that exist on this map."""
        return [n for n in h.neighbors() if n in self._set]

    def ids(self, hexes: Iterable[tuple[int, int]]) -> list[str]:
        """Printed IDs of several hexes, sorted."""
        return sorted(self.to_id(h) for h in hexes)
