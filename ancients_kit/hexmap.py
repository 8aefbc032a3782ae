"""Hex maps: terrain per hex, features per hexside, regions and named places.

A map is a TOML data document (format: ``notes/MAPFORMAT.md``), loaded with
:meth:`HexMap.load` through an :class:`ancients_kit.data.DataStore`, so a
designer's variant can replace it. The file's ``[grid]`` table is a
:class:`~ancients_kit.hexgrid.Numbering`; printed hex IDs appear only in the
file and at the edges, everything inside works on :class:`Hex`.

Keys this module adds to the format (all optional):

``[sections]``
    ``cuts = [4, 9]``, ``names = ["left", "centre", "right"]``: fill regions
    with board sections computed by :func:`board_sections` (C&C,
    ``ccr:base.sections``). Regions of the same name listed in ``[regions]``
    are an error.
``terrain.rows``
    spaces are ignored unless the legend maps ``" "``, so shifted rows may be
    indented to look like the board.

Rules it serves: terrain and hexside features read by every game's movement
and combat (``cen:basic.movement``, ``ldf:12.1``, ``xen:movement``,
``ccr:base.terrain``) and the C&C board sections (``ccr:base.sections``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any

import attrs

from ancients_kit.data import DataError, DataStore, Meta, read_file, read_toml, split_meta, structure
from ancients_kit.hexgrid import Hex, Hexside, HexIdError, Numbering
from ancients_kit.movement import HexGraph

__all__ = [
    "HexMap",
    "HexsideSpec",
    "MapSpec",
    "SectionSpec",
    "TerrainSpec",
    "board_sections",
]


# ---------------------------------------------------------------- schema (what the TOML holds)


@attrs.frozen
class TerrainSpec:
    """The ``[terrain]`` table."""

    default: str = "clear"
    """Terrain of every hex not given by ``rows`` or ``[hexes]``."""
    legend: dict[str, str] = attrs.field(factory=dict)
    """One character -> terrain name, for ``rows``."""
    rows: tuple[str, ...] = ()
    """Optional ASCII board: one string per map row, one character per hex."""


@attrs.frozen
class HexsideSpec:
    """One ``[[hexsides]]`` entry: a feature lying on several hexsides."""

    feature: str
    """Game-defined name: river, road, ford, bridge, strait, narrows, wall ..."""
    between: tuple[tuple[str, str], ...] = ()
    """Pairs of adjacent printed hex IDs."""


@attrs.frozen
class SectionSpec:
    """Optional ``[sections]`` table: board sections as regions (``ccr:base.sections``)."""

    cuts: tuple[float, ...] = (4, 9)
    """Dividing lines, in hex widths from the left edge of an unshifted row."""
    names: tuple[str, ...] = ("left", "centre", "right")
    """Region names, left to right; one more than ``cuts``."""


@attrs.frozen
class MapSpec:
    """A map document as written (everything but ``[meta]``)."""

    grid: Numbering
    terrain: TerrainSpec = TerrainSpec()
    hexes: dict[str, str] = attrs.field(factory=dict)
    """Printed ID -> terrain, overriding ``terrain.rows``."""
    hexsides: tuple[HexsideSpec, ...] = ()
    regions: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    """Region name -> printed IDs."""
    places: dict[str, str] = attrs.field(factory=dict)
    """Place name -> printed ID."""
    sections: SectionSpec | None = None


# ---------------------------------------------------------------- board sections


def board_sections(
    numbering: Numbering,
    cuts: Sequence[int | Fraction] = (4, 9),
    names: Sequence[str] = ("left", "centre", "right"),
    *,
    flip: bool = False,
) -> dict[str, frozenset[Hex]]:
    """Split a board into side-by-side sections by vertical dividing lines.

    ``ccr:base.sections``. Board facts (C&C: Ancients base game; Memoir '44
    uses the same board): the battlefield is 13 hexes wide and 9 deep, rows
    alternating 13 and 12 hexes; two dotted lines split it into a left flank,
    a centre and a right flank, and a hex a line cuts through is part of both
    sections. The full rows split 4 | 5 | 4, so the lines lie 4 and 9 hex
    widths from the left edge: they run along hexsides in full rows and cut
    through the 4th and 9th hex of every short row. Sources: vassalengine.org
    wiki, "Category:Commands & Colors" (13 x 9 board in 3 sections);
    the C&C Ancients 3rd-edition rulebook (GMT 2009) on the battlefield
    sections; a public Memoir '44 implementation whose section code lists the
    straddling hexes as the 0-based 3rd and 8th hex of each short row, which
    this geometry reproduces (checked in tests/test_hexmap.py).

    ``cuts`` are distances in hex widths from the left edge of an unshifted
    row (pointy) or column indices (flat: a cut ``k`` separates columns
    ``k - 1`` and ``k``, 0-based; flat columns are never shared). A pointy hex
    is in every section its horizontal extent overlaps, so a hex whose middle
    a line crosses is in both neighbouring sections. ``flip`` swaps the names
    (the player at the top of the board sees left and right reversed).
    """
    cuts_f = [Fraction(c) for c in cuts]
    if len(names) != len(cuts_f) + 1:
        raise ValueError(f"board_sections: {len(cuts_f)} cut(s) need {len(cuts_f) + 1} names, got {len(names)}")
    if any(b <= a for a, b in zip(cuts_f, cuts_f[1:])):
        raise ValueError(f"board_sections: cuts must increase, got {list(cuts)}")
    labels = list(reversed(names)) if flip else list(names)
    out: dict[str, set[Hex]] = {n: set() for n in labels}
    half = Fraction(1, 2)
    for h in numbering.hexes():
        col, row = numbering.to_offset(h)
        x = col - numbering.first_column
        if numbering.orientation == "pointy":
            left = x + (half if numbering.is_shifted(row) else 0)
            right = left + 1
        else:
            left, right = Fraction(x), Fraction(x) + half  # a column index, never straddling
        bounds = [Fraction(-(10**9))] + cuts_f + [Fraction(10**9)]
        for i, name in enumerate(labels):
            lo, hi = bounds[i], bounds[i + 1]
            if left < hi and right > lo:
                out[name].add(h)
    return {n: frozenset(s) for n, s in out.items()}


# ---------------------------------------------------------------- the map


@attrs.frozen(eq=False, repr=False)
class HexMap:
    """A loaded map: terrain per hex, features per hexside, regions, places.

    Build it with :meth:`load` (through a DataStore), :meth:`from_toml`,
    :meth:`from_file` or :meth:`build` (programmatic, for tests and tools).
    """

    meta: Meta
    """Provenance of the map document."""
    numbering: Numbering
    """Grid shape and printed IDs."""
    terrain_of: Mapping[Hex, str]
    """Hex -> terrain name for every hex of the map (read-only)."""
    features: Mapping[Hexside, frozenset[str]]
    """Hexside -> feature names, only hexsides that carry any."""
    regions: Mapping[str, frozenset[Hex]]
    """Region name -> hexes (territories, satrapies, board sections)."""
    places: Mapping[str, Hex]
    """Place name -> hex."""
    legend: Mapping[str, str] = attrs.field(factory=dict)
    """The file's legend (character -> terrain), kept for renderers."""
    adjacency: Mapping[Hex, tuple[Hex, ...]] = attrs.field(init=False)
    """Hex -> its on-map neighbours (precomputed)."""
    graph: HexGraph = attrs.field(init=False, repr=False)
    """Indexed adjacency for fast movement searches: ``reachable(..., neighbors=m.graph)``."""
    _by_feature: Mapping[str, frozenset[Hexside]] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        hs = self.numbering.hex_set()
        adj = {h: tuple(n for n in h.neighbors() if n in hs) for h in self.numbering.hexes()}
        object.__setattr__(self, "adjacency", MappingProxyType(adj))
        object.__setattr__(self, "graph", HexGraph(adj))
        by: dict[str, set[Hexside]] = {}
        for side, feats in self.features.items():
            for f in feats:
                by.setdefault(f, set()).add(side)
        object.__setattr__(self, "_by_feature", MappingProxyType({f: frozenset(s) for f, s in by.items()}))

    def __repr__(self) -> str:
        return f"<HexMap {self.meta.id!r}: {self.numbering.describe()}>"

    # -- queries

    @property
    def id(self) -> str:
        """The map's data ID (``meta.id``)."""
        return self.meta.id

    def terrain(self, h: Hex) -> str:
        """Terrain name of hex ``h`` (``ValueError`` if it is off the map)."""
        try:
            return self.terrain_of[h]
        except KeyError:
            raise ValueError(f"{Hex(*h)!r} is not on map {self.meta.id!r}") from None

    def hexside_features(self, a: Hex, b: Hex) -> frozenset[str]:
        """Features on the hexside between adjacent hexes ``a`` and ``b`` (may be empty)."""
        return self.features.get(Hexside.between(a, b), frozenset())

    def has_feature(self, a: Hex, b: Hex, feature: str) -> bool:
        """True if ``feature`` lies on the hexside between ``a`` and ``b``."""
        return feature in self.features.get(Hexside.between(a, b), ())

    def hexsides_with(self, feature: str) -> frozenset[Hexside]:
        """Every hexside carrying ``feature``."""
        return self._by_feature.get(feature, frozenset())

    def feature_names(self) -> frozenset[str]:
        """Every hexside feature name used on this map."""
        return frozenset(self._by_feature)

    def terrain_names(self) -> frozenset[str]:
        """Every terrain name used on this map."""
        return frozenset(self.terrain_of.values())

    def hexes_with(self, terrain: str) -> frozenset[Hex]:
        """Every hex of the given terrain."""
        return frozenset(h for h, t in self.terrain_of.items() if t == terrain)

    def regions_of(self, h: Hex) -> frozenset[str]:
        """Names of the regions containing ``h``."""
        return frozenset(n for n, hexes in self.regions.items() if h in hexes)

    def region(self, name: str) -> frozenset[Hex]:
        """Hexes of a region; ``ValueError`` naming the known regions if unknown."""
        try:
            return self.regions[name]
        except KeyError:
            known = ", ".join(sorted(self.regions)) or "none"
            raise ValueError(f"map {self.meta.id!r} has no region {name!r} (regions: {known})") from None

    def place(self, name: str) -> Hex:
        """Hex of a named place; ``ValueError`` naming the known places if unknown."""
        try:
            return self.places[name]
        except KeyError:
            known = ", ".join(sorted(self.places)) or "none"
            raise ValueError(f"map {self.meta.id!r} has no place {name!r} (places: {known})") from None

    def contains(self, h: Hex) -> bool:
        """True if ``h`` is on the map."""
        return h in self.terrain_of

    def __contains__(self, h: object) -> bool:
        return h in self.terrain_of

    def hexes(self) -> tuple[Hex, ...]:
        """Every hex, in reading order."""
        return self.numbering.hexes()

    def neighbors(self, h: Hex) -> tuple[Hex, ...]:
        """On-map neighbours of ``h``."""
        return self.adjacency[h]

    def to_id(self, h: Hex) -> str:
        """Printed ID of ``h``."""
        return self.numbering.to_id(h)

    def from_id(self, hex_id: str) -> Hex:
        """The on-map hex printed as ``hex_id`` (``ValueError`` naming it if not)."""
        return self.numbering.from_id(hex_id)

    # -- construction

    @classmethod
    def build(
        cls,
        numbering: Numbering,
        *,
        default: str = "clear",
        terrain: Mapping[Hex, str] | None = None,
        features: Mapping[Hexside, Iterable[str]] | None = None,
        regions: Mapping[str, Iterable[Hex]] | None = None,
        places: Mapping[str, Hex] | None = None,
        meta: Meta | None = None,
    ) -> HexMap:
        """A map made in code (tests, benchmarks, generators). Off-map hexes are a ``ValueError``."""
        meta = meta or Meta(id="map.built", source="reconstructed", note="built in code")
        hs = numbering.hex_set()
        ter = {h: default for h in numbering.hexes()}
        for h, t in (terrain or {}).items():
            if h not in hs:
                raise ValueError(f"terrain given for {h!r}, which is not on the map")
            ter[Hex(*h)] = t
        feats: dict[Hexside, frozenset[str]] = {}
        for side, names in (features or {}).items():
            side = Hexside.between(*side)
            if side.a not in hs or side.b not in hs:
                raise ValueError(f"hexside {side!r} is not on the map")
            feats[side] = feats.get(side, frozenset()) | frozenset(names)
        regs = {}
        for n, hexes in (regions or {}).items():
            fs = frozenset(Hex(*h) for h in hexes)
            if not fs <= hs:
                raise ValueError(f"region {n!r} holds hexes not on the map")
            regs[n] = fs
        pl = {}
        for n, h in (places or {}).items():
            if h not in hs:
                raise ValueError(f"place {n!r} is not on the map")
            pl[n] = Hex(*h)
        return cls(meta, numbering, MappingProxyType(ter), MappingProxyType(feats),
                   MappingProxyType(regs), MappingProxyType(pl))

    @classmethod
    def from_spec(cls, spec: MapSpec, meta: Meta, *, file: str) -> HexMap:
        """Validate a structured document; errors are :class:`DataError` naming file and key."""
        num = spec.grid

        def hex_of(hex_id: Any, path: str) -> Hex:
            try:
                return num.from_id(hex_id)
            except HexIdError as exc:
                raise DataError(file, str(exc), path) from None

        # terrain
        legend = dict(spec.terrain.legend)
        for ch in legend:
            if len(ch) != 1:
                raise DataError(file, f"legend keys must be single characters, got {ch!r}", f"terrain.legend.{ch}")
        ter: dict[Hex, str] = {h: spec.terrain.default for h in num.hexes()}
        if spec.terrain.rows:
            if not legend:
                raise DataError(file, "terrain.rows needs a terrain.legend", "terrain.legend")
            if len(spec.terrain.rows) != num.rows:
                raise DataError(file, f"{len(spec.terrain.rows)} row strings for a map of {num.rows} rows", "terrain.rows")
            keep_spaces = " " in legend
            for y, line in enumerate(spec.terrain.rows):
                path = f"terrain.rows[{y}]"
                cells = [(k, ch) for k, ch in enumerate(line, start=1) if keep_spaces or ch != " "]
                want = num.line_length(y)
                if len(cells) != want:
                    raise DataError(file, f"{len(cells)} hexes in this row string, the map row has {want}", path)
                row = num.first_row + y
                for x, (k, ch) in enumerate(cells):
                    h = num.from_offset(num.first_column + x, row)
                    if ch not in legend:
                        raise DataError(
                            file, f"unknown legend character {ch!r} at col {k} (hex {num.to_id(h)})", path
                        )
                    ter[h] = legend[ch]
        for hex_id, t in spec.hexes.items():
            ter[hex_of(hex_id, f"hexes.{hex_id}")] = t

        # hexsides
        feats: dict[Hexside, set[str]] = {}
        for i, hs in enumerate(spec.hexsides):
            for j, pair in enumerate(hs.between):
                path = f"hexsides[{i}].between[{j}]"
                if len(pair) != 2:
                    raise DataError(file, f"expected two hex IDs, got {list(pair)!r}", path)
                a, b = hex_of(pair[0], path), hex_of(pair[1], path)
                try:
                    side = Hexside.between(a, b)
                except ValueError:
                    raise DataError(file, f"hexes {pair[0]} and {pair[1]} are not adjacent", path) from None
                feats.setdefault(side, set()).add(hs.feature)

        # regions, sections, places
        regions: dict[str, frozenset[Hex]] = {}
        for name, ids in spec.regions.items():
            regions[name] = frozenset(hex_of(x, f"regions.{name}[{k}]") for k, x in enumerate(ids))
        if spec.sections is not None:
            try:
                secs = board_sections(num, spec.sections.cuts, spec.sections.names)
            except ValueError as exc:
                raise DataError(file, str(exc), "sections") from None
            for name, hexes in secs.items():
                if name in regions:
                    raise DataError(file, f"region {name!r} is both listed and computed from [sections]", f"regions.{name}")
                regions[name] = hexes
        places = {name: hex_of(x, f"places.{name}") for name, x in spec.places.items()}

        return cls(
            meta,
            num,
            MappingProxyType(ter),
            MappingProxyType({s: frozenset(f) for s, f in feats.items()}),
            MappingProxyType(regions),
            MappingProxyType(places),
            MappingProxyType(legend),
        )

    @classmethod
    def load(cls, store: DataStore, rel: str) -> HexMap:
        """Load ``data/<rel>`` of a game's package, honouring variant replacements."""
        meta, spec = store.load(rel, MapSpec)
        file = store.path(rel)
        hit = store.override(meta.id)
        if hit is not None:
            file = f"{hit[0].path} [replace.{meta.id}]"
        return cls.from_spec(spec, meta, file=file)

    @classmethod
    def from_toml(cls, text: str | bytes, *, file: str = "<map>") -> HexMap:
        """Parse a whole map document (with ``[meta]``) from TOML text."""
        doc = read_toml(text, file=file)
        meta, body = split_meta(doc, file=file)
        spec = structure(body, MapSpec, file=file)
        return cls.from_spec(spec, meta, file=file)

    @classmethod
    def from_file(cls, path: str | Path) -> HexMap:
        """Read a map document from a file on disk (designer tools, tests)."""
        return cls.from_toml(read_file(path, "map file"), file=str(path))
