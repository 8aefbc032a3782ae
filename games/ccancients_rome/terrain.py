"""The battlefield: hex geometry, board sections, terrain effects and line of sight.

Owns :class:`TerrainSpec` (``data/terrain.toml``) and :class:`Board`, the
13 x 9 pointy-top board of printed CCRR hex IDs with precomputed neighbours,
sections and distances. Serves ``ccr:base.sections`` (left/centre/right,
shared hexes on the dotted lines), ``ccr:base.terrain`` (stop, impassable,
dice caps, sight), ``ccr:bridge`` and ``ccr:ford``.

A small local geometry is kept here (the core hexmap was being written at the
same time): even rows sit half a hex to the right, as in the scenario schema.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from ancients_kit.data import DataError, DataStore, Meta, bounded, document_file
from ancients_kit.hexgrid import Hex, line_candidates

from .packaged import load_packaged
from .scenario import BOARD_ROWS, TERRAIN, Battle, board_hex_ids, parse_hex_id

__all__ = ["SECTIONS", "Board", "TerrainSpec", "TerrainTable", "load_terrain"]

SECTIONS = ("left", "centre", "right")
"""Board sections, named from the bottom player's seat (ccr:base.sections)."""


_cap = bounded(0, 9, rule="ccr:base.terrain")
"""Dice caps of the terrain chart: 0 = none, the printed ones are 1 to 3."""


@attrs.frozen
class TerrainSpec:
    """Effects of one terrain (ccr:base.terrain, ccr:bridge, ccr:ford)."""

    stop: bool = False
    impassable: bool = False
    no_battle_on_entry: bool = False
    battle_on_entry_units: tuple[str, ...] = ()
    cap_in: int = attrs.field(default=0, validator=_cap)
    """Most battle dice into the hex (0 = no cap)."""
    cap_out: int = attrs.field(default=0, validator=_cap)
    cap_uphill: int = attrs.field(default=0, validator=_cap)
    cap_out_foot: int = attrs.field(default=0, validator=_cap)
    ranged_cap_out: int = attrs.field(default=0, validator=_cap)
    ranged_cap_in: int = attrs.field(default=0, validator=_cap)
    blocks_los: bool = False
    ignore_flag_foot: bool = False
    sink: bool = False
    """A unit entering rolls one die and loses a block on its own symbol; a lone leader is lost on a
    leader symbol (marsh, ccr:base.terrain)."""
    leave_adjacent: bool = False
    """A unit leaving the hex moves only to an adjacent hex (marsh, ccr:base.terrain)."""
    barred: tuple[str, ...] = ()
    """Unit codes that may never enter the hex, nor retreat onto it (war machines in a marsh, ccr:base.terrain)."""
    source: str = ""


_NO_EFFECT = TerrainSpec()
"""The effects of a terrain the chart does not list: none (frozen, so one serves every board)."""


@attrs.frozen
class TerrainTable:
    meta: Meta
    terrain: Mapping[str, TerrainSpec]


@attrs.frozen
class _TerrainFile:
    terrain: Mapping[str, TerrainSpec]


def load_terrain(store: DataStore) -> TerrainTable:
    """``data/terrain.toml``: effects by terrain name, each a terrain the battles' boards know
    (:data:`scenario.TERRAIN`); a renamed line would leave its terrain without effects."""
    meta, doc = load_packaged(store, "terrain.toml", _TerrainFile)
    for name in doc.terrain:
        if name not in TERRAIN:
            raise DataError(document_file(store, "terrain.toml", meta.id), f"{name!r} is no terrain of the "
                            f"boards (known: {', '.join(TERRAIN)}) [ccr:base.terrain]", f"terrain.{name}")
    return TerrainTable(meta, dict(doc.terrain))


def _axial(h: str) -> tuple[int, int]:
    col, row = parse_hex_id(h)
    x = 2 * col - 1 + (1 if row % 2 == 0 else 0)  # doubled-width column
    return (x - row) // 2, row


def _sections_of(h: str) -> tuple[str, ...]:
    """Sections of a hex seen from the bottom player (ccr:base.sections).

    The dotted lines run at x = 8 and x = 18 in doubled-width coordinates (long
    rows at odd x 1..25, short rows at even x 2..24): between columns 4|5 and
    9|10 of the 13-hex rows, through columns 4 and 9 of the 12-hex rows.
    """
    col, row = parse_hex_id(h)
    x = 2 * col - 1 + (1 if row % 2 == 0 else 0)
    out = []
    if x <= 8:
        out.append("left")
    if 8 <= x <= 18:
        out.append("centre")
    if x >= 18:
        out.append("right")
    return tuple(out)


_MIRROR = {"left": "right", "right": "left", "centre": "centre"}

_Geometry = tuple[tuple[str, ...], dict[str, tuple[int, int]], dict[str, tuple[str, ...]], dict[str, int],
                  dict[str, int], dict[str, tuple[str, ...]], dict[tuple[int, int], str]]
_GEOMETRY: list[_Geometry] = []
_BETWEEN: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}
_DISTANCES: dict[str, dict[str, int]] = {}
"""Hex -> every hex of the battlefield -> the distance between them (geometry only: the same on
every board), each row built on first use: the bots and the ranged-target search ask it in loops."""
_BARRED: dict[tuple[int, int, str], tuple[dict[str, str], Mapping[str, TerrainSpec], frozenset[str]]] = {}
"""(terrain map, terrain chart, unit code) -> the hexes that terrain bars to that code (:meth:`Board.barred_for`)."""
_MIRRORED: dict[tuple[str, ...], tuple[str, ...]] = {}
"""Sections seen from the bottom -> the same from the top player's seat."""
"""(from hex, to hex) -> :meth:`Board.between`: line of sight asks about the same pairs all game long."""


def _geometry() -> _Geometry:
    """Hex IDs, axial coordinates, neighbours, rows, columns, sections and the reverse map of the
    battlefield (every battle uses the same board), built on first use (issue 11 item 5)."""
    if not _GEOMETRY:
        hexes = tuple(board_hex_ids())
        axial = {h: _axial(h) for h in hexes}
        back = {v: k for k, v in axial.items()}
        dirs = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
        neighbors: dict[str, tuple[str, ...]] = {}
        for h, (q, r) in axial.items():
            neighbors[h] = tuple(back[(q + dq, r + dr)] for dq, dr in dirs if (q + dq, r + dr) in back)
        row = {h: parse_hex_id(h)[1] for h in hexes}
        col = {h: parse_hex_id(h)[0] for h in hexes}
        _GEOMETRY.append((hexes, axial, neighbors, row, col, {h: _sections_of(h) for h in hexes}, back))
    return _GEOMETRY[0]


class Board:
    """Geometry and terrain of one battlefield (hex IDs are printed CCRR)."""

    def __init__(self, battle: Battle, terrain: TerrainTable) -> None:
        # the geometry is the same for every battlefield: built once, shared read-only by every board
        self.hexes, self.axial, self.neighbors, self.row, self.col, self._sections, self._back = _geometry()
        self.terrain: dict[str, str] = battle.board.terrain_map()
        self.specs = terrain.terrain
        self.impassable: set[str] = {h for h, t in self.terrain.items() if self.spec(h).impassable}
        """Hexes nobody may enter (river by default; scenario rules add more)."""
        self.version = 0
        """Bumped whenever terrain changes (a camp tile removed), for caches."""

    def spec(self, h: str) -> TerrainSpec:
        return self.specs.get(self.terrain[h], _NO_EFFECT)

    def barred_for(self, code: str) -> frozenset[str]:
        """Hexes a unit of ``code`` may never enter by its terrain (war machines and marsh, ccr:base.terrain)."""
        key = (id(self.terrain), id(self.specs), code)
        kept = _BARRED.get(key)
        if kept is None or kept[0] is not self.terrain or kept[1] is not self.specs:
            if len(_BARRED) > 256:
                _BARRED.clear()
            # the terrain map is replaced, never changed in place (:meth:`set_terrain`): kept by identity
            kept = _BARRED[key] = (self.terrain, self.specs, frozenset(
                h for h, t in self.terrain.items() if code in self.specs.get(t, _NO_EFFECT).barred))
        return kept[2]

    def copy(self) -> Board:
        """A copy whose terrain can change on its own (session checkpoints). The geometry is shared, and
        so are the terrain map and the impassable hexes until one board changes them: in play only
        :meth:`set_terrain` does, and it makes new ones (scenario set-up fills them before any copy)."""
        other = Board.__new__(Board)
        other.__dict__.update(self.__dict__)
        return other

    def set_terrain(self, h: str, name: str) -> None:
        self.terrain = {**self.terrain, h: name}  # new maps: a copy of this board may share the old ones
        self.version += 1
        self.impassable = self.impassable | {h} if self.spec(h).impassable else self.impassable - {h}

    def hexes_of_terrain(self, name: str) -> list[str]:
        return sorted(h for h, t in self.terrain.items() if t == name)

    def distance(self, a: str, b: str) -> int:
        got = _DISTANCES.get(a)
        if got is None:
            got = self.distances_from(a)
        return got[b]

    def distances_from(self, a: str) -> dict[str, int]:
        """Every hex of the battlefield -> its distance from ``a`` (shared: never change it)."""
        got = _DISTANCES.get(a)
        if got is None:
            q1, r1 = self.axial[a]
            got = _DISTANCES[a] = {b: (abs(q1 - q2) + abs(r1 - r2) + abs(q1 - q2 + r1 - r2)) // 2
                                   for b, (q2, r2) in self.axial.items()}
        return got

    def sections(self, h: str, side: str) -> tuple[str, ...]:
        """Sections of ``h`` from ``side``'s seat: the top player's left is the bottom player's right."""
        s = self._sections[h]
        if side == "bottom":
            return s
        got = _MIRRORED.get(s)
        if got is None:
            got = _MIRRORED[s] = tuple(_MIRROR[x] for x in s)
        return got

    def baseline_row(self, side: str) -> int:
        return 1 if side == "top" else BOARD_ROWS

    def toward_baseline(self, h: str, side: str) -> tuple[str, ...]:
        """Neighbours one row closer to ``side``'s own baseline (ccr:base.retreat)."""
        r = self.row[h]
        want = r - 1 if side == "top" else r + 1
        return tuple(n for n in self.neighbors[h] if self.row[n] == want)

    def between(self, a: str, b: str) -> list[tuple[str, str]]:
        """Hexes a line from ``a`` to ``b`` crosses, as pairs (two when it runs along an edge)."""
        got = _BETWEEN.get((a, b))
        if got is None:
            got = _BETWEEN[(a, b)] = tuple(self._between(a, b))  # geometry only: the same on every board
        return list(got)

    def _between(self, a: str, b: str) -> list[tuple[str, str]]:
        steps = line_candidates(Hex(*self.axial[a]), Hex(*self.axial[b]))[1:-1]
        back = self._back
        return [(back.get(s[0], ""), back.get(s[-1], "")) for s in steps]

    def edge_hexes(self, edge: str) -> frozenset[str]:
        if edge == "top":
            return frozenset(h for h in self.hexes if self.row[h] == 1)
        if edge == "bottom":
            return frozenset(h for h in self.hexes if self.row[h] == BOARD_ROWS)
        if edge == "left":
            return frozenset(h for h in self.hexes if self.col[h] == 1)
        last = {r: max(self.col[h] for h in self.hexes if self.row[h] == r) for r in range(1, BOARD_ROWS + 1)}
        return frozenset(h for h in self.hexes if self.col[h] == last[self.row[h]])

