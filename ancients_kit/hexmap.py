"""Hex maps: terrain per hex, features per hexside, regions and named places.

A map is a TOML data document (format: "Map format in full" in
``docs/designers-guide.md``), loaded with
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
``[hexkeys.<key>]`` and ``[hexdata."<hex ID>"]``
    typed data per hex (:class:`HexKey`): whole numbers, flags, texts and
    lists, declared once with their bounds or choices and given per hex, per
    key (``values``, ``hexes``) or as an ASCII board (``rows``). Every value
    is checked against its declaration; an error names the file, the hex ID
    and the key. Population centres and their trade points, legion symbols,
    coastal flags, forage values, kinds of city, ports and deserts are such
    keys: the map declares them, the core knows none of them.

Rules it serves: terrain and hexside features read by every game's movement
and combat (``cen:basic.movement``, ``ldf:12.1``, ``xen:movement``,
``ccr:base.terrain``) and the C&C board sections (``ccr:base.sections``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import attrs

from ancients_kit.data import DataError, DataStore, Meta, read_file, read_toml, split_meta, structure
from ancients_kit.hexgrid import Hex, Hexside, HexIdError, Numbering
from ancients_kit.movement import HexGraph

__all__ = [
    "HexKey",
    "HexKeySpec",
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
class _HexKeyDeclaration:
    """What a ``[hexkeys.<key>]`` table declares of a per-hex datum."""

    type: Literal["int", "flag", "text", "list"]
    """``int`` (whole number), ``flag`` (true/false), ``text``, or ``list`` (of ``of``)."""
    of: Literal["int", "text"] | None = None
    """Item type of a ``list`` key."""
    min: int | None = None
    """Lowest allowed whole number (``int`` keys, ``int`` list items)."""
    max: int | None = None
    """Highest allowed whole number."""
    choices: tuple[str, ...] = ()
    """Allowed texts (``text`` keys, ``text`` list items); empty: any text."""
    default: Any = None
    """Value of every hex not given one; omitted: such hexes have none (flags: false)."""
    requires: tuple[str, ...] = ()
    """Keys every hex with this one (true, or any value) must also have."""
    rules: tuple[str, ...] = ()
    """Rule IDs the datum serves."""
    note: str = ""
    """What the datum means and where its values come from."""


@attrs.frozen
class HexKeySpec(_HexKeyDeclaration):
    """One ``[hexkeys.<key>]`` table: the declaration of a per-hex datum, and
    optionally its values (``values``, ``hexes`` or ``rows``)."""

    values: dict[str, Any] = attrs.field(factory=dict)
    """Printed hex ID -> value."""
    hexes: tuple[str, ...] = ()
    """Flag keys: the hexes where the flag is set."""
    rows: tuple[str, ...] = ()
    """ASCII board, one character per hex: a digit (``int`` keys) or a ``legend``
    character; ``.`` is "no value" unless the legend maps it."""
    legend: dict[str, Any] = attrs.field(factory=dict)
    """One character -> value, for ``rows``."""


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
    hexkeys: dict[str, HexKeySpec] = attrs.field(factory=dict)
    """Per-hex data declarations, by key."""
    hexdata: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    """Printed ID -> key -> value."""


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


# ---------------------------------------------------------------- typed data per hex


@attrs.frozen
class HexKey(_HexKeyDeclaration):
    """A declared per-hex datum: its type, bounds or choices, default and rules.

    The map's ``[hexkeys.<name>]`` table declares it; :meth:`check` validates
    one value. The core gives no key a meaning: a game reads its own keys
    (``centres``, ``legions``, ``forage`` ...) through :meth:`HexMap.value`.
    ``HexKey("int", min=0, max=9, default=1, name="forage")``.
    """

    name: str = attrs.field(kw_only=True)
    """The key, as in ``[hexkeys.<name>]``."""

    def describe(self) -> str:
        """The allowed values in words: ``a whole number from 1 to 4``."""
        if self.type == "flag":
            return "true or false"
        if self.type == "list":
            return f"a list of {_describe_item(self, 'int' if self.of == 'int' else 'text', plural=True)}"
        return _describe_item(self, self.type, plural=False)

    def check(self, value: Any) -> Any:
        """``value`` made immutable (lists become tuples); ``ValueError`` if it is not allowed."""
        if self.type == "flag":
            if not isinstance(value, bool):
                raise ValueError(f"expected {self.describe()}, got {value!r}")
            return value
        if self.type == "list":
            if not isinstance(value, (list, tuple)):
                raise ValueError(f"expected {self.describe()}, got {value!r}")
            item = "int" if self.of == "int" else "text"
            for v in value:
                if not _item_ok(self, item, v):
                    raise ValueError(f"expected {self.describe()}, got {v!r} in {list(value)!r}")
            return tuple(value)
        if not _item_ok(self, self.type, value):
            raise ValueError(f"expected {self.describe()}, got {value!r}")
        return value

    @classmethod
    def from_spec(cls, name: str, spec: HexKeySpec) -> HexKey:
        """Validate a declaration (``ValueError`` saying what is wrong with it)."""
        if spec.type == "list" and spec.of is None:
            raise ValueError("a list key needs of = \"int\" or \"text\"")
        if spec.type != "list" and spec.of is not None:
            raise ValueError(f"of applies to list keys only, not to a {spec.type} key")
        ints = spec.type == "int" or spec.of == "int"
        texts = spec.type == "text" or spec.of == "text"
        if (spec.min is not None or spec.max is not None) and not ints:
            raise ValueError(f"min and max apply to whole numbers only, not to a {spec.type} key")
        if spec.min is not None and spec.max is not None and spec.min > spec.max:
            raise ValueError(f"min {spec.min} is above max {spec.max}")
        if spec.choices and not texts:
            raise ValueError(f"choices apply to texts only, not to a {spec.type} key")
        if spec.hexes and spec.type != "flag":
            raise ValueError("hexes lists the hexes of a flag key; give values for a key of another type")
        if spec.legend and not spec.rows:
            raise ValueError("a legend is read by rows, and there are none")
        fields = {f.name: getattr(spec, f.name) for f in attrs.fields(_HexKeyDeclaration)}
        key = cls(**{**fields, "default": None}, name=name)
        if spec.default is not None:
            try:
                default = key.check(spec.default)
            except ValueError as exc:
                raise ValueError(f"default: {exc}") from None
            key = attrs.evolve(key, default=default)
        return key


def _has(v: Any) -> bool:
    """A per-hex value counts as present: not missing and not an unset flag (0 counts)."""
    return v is not None and v is not False


def _item_ok(key: HexKey, kind: str, v: Any) -> bool:
    if kind == "int":
        return (isinstance(v, int) and not isinstance(v, bool)
                and (key.min is None or v >= key.min) and (key.max is None or v <= key.max))
    return isinstance(v, str) and (not key.choices or v in key.choices)


def _describe_item(key: HexKey, kind: str, *, plural: bool) -> str:
    if kind == "int":
        what = "whole numbers" if plural else "a whole number"
        if key.min is not None and key.max is not None:
            return f"{what} from {key.min} to {key.max}"
        if key.min is not None:
            return f"{what} of at least {key.min}"
        if key.max is not None:
            return f"{what} of at most {key.max}"
        return what
    if key.choices:
        return ("texts among " if plural else "one of ") + ", ".join(repr(c) for c in key.choices)
    return "texts" if plural else "a text"


def _row_cells(
    num: Numbering, rows: Sequence[str], keep_spaces: bool, file: str, prefix: str
) -> Iterable[tuple[str, int, Hex, str]]:
    """Walk an ASCII board: ``(key path, column in the string, hex, character)``
    for every hex, after checking the number of rows and of hexes per row."""
    if len(rows) != num.rows:
        raise DataError(file, f"{len(rows)} row strings for a map of {num.rows} rows", prefix)
    for y, line in enumerate(rows):
        path = f"{prefix}[{y}]"
        cells = [(k, ch) for k, ch in enumerate(line, start=1) if keep_spaces or ch != " "]
        want = num.line_length(y)
        if len(cells) != want:
            raise DataError(file, f"{len(cells)} hexes in this row string, the map row has {want}", path)
        row = num.first_row + y
        for x, (k, ch) in enumerate(cells):
            yield path, k, num.from_offset(num.first_column + x, row), ch


def _hex_data(
    num: Numbering,
    keys_spec: Mapping[str, HexKeySpec],
    data_spec: Mapping[str, Mapping[str, Any]],
    file: str,
) -> tuple[dict[str, HexKey], dict[str, dict[Hex, Any]]]:
    """Declarations and values of ``[hexkeys]`` / ``[hexdata]``, validated.

    Every error is a :class:`DataError` naming the file, the key path, and in
    its message the hex ID and the key.
    """
    keys: dict[str, HexKey] = {}
    for name, spec in keys_spec.items():
        try:
            keys[name] = HexKey.from_spec(name, spec)
        except ValueError as exc:
            raise DataError(file, f"key {name!r}: {exc}", f"hexkeys.{name}") from None
    for name, key in keys.items():
        for req in key.requires:
            if req not in keys:
                raise DataError(file, f"key {name!r} requires {req!r}, which is not declared",
                                f"hexkeys.{name}.requires")
    values: dict[str, dict[Hex, Any]] = {name: {} for name in keys}
    given_at: dict[tuple[str, Hex], str] = {}

    def put(name: str, hex_id: Any, raw: Any, path: str) -> None:
        try:
            h = num.from_id(hex_id)
        except HexIdError as exc:
            raise DataError(file, f"{exc} (key {name!r})", path) from None
        key = keys[name]
        try:
            v = key.check(raw)
        except ValueError as exc:
            raise DataError(file, f"hex {hex_id}, key {name!r}: {exc}", path) from None
        if (name, h) in given_at:
            raise DataError(file, f"hex {hex_id}, key {name!r}: given twice (also at {given_at[name, h]})", path)
        given_at[name, h] = path
        values[name][h] = v

    for name, spec in keys_spec.items():
        base = f"hexkeys.{name}"
        for hex_id, raw in spec.values.items():
            put(name, hex_id, raw, f"{base}.values.{hex_id}")
        for i, hex_id in enumerate(spec.hexes):
            put(name, hex_id, True, f"{base}.hexes[{i}]")
        if spec.rows:
            legend = dict(spec.legend)
            for ch in legend:
                if len(ch) != 1:
                    raise DataError(file, f"legend keys must be single characters, got {ch!r}", f"{base}.legend.{ch}")
            if not legend and keys[name].type != "int":
                raise DataError(file, f"rows of a {keys[name].type} key need a legend", f"{base}.legend")
            for path, k, h, ch in _row_cells(num, spec.rows, " " in legend, file, f"{base}.rows"):
                if ch in legend:
                    raw: Any = legend[ch]
                elif ch == ".":
                    continue
                elif keys[name].type == "int" and ch.isdigit():
                    raw = int(ch)
                else:
                    raise DataError(file, f"hex {num.to_id(h)}, key {name!r}: unknown character {ch!r} "
                                    f"at col {k}", path)
                put(name, num.to_id(h), raw, path)
    for hex_id, entries in data_spec.items():
        if not isinstance(entries, Mapping):
            raise DataError(file, f"hex {hex_id}: expected a table of key = value, got {entries!r}", f"hexdata.{hex_id}")
        for name, raw in entries.items():
            path = f"hexdata.{hex_id}.{name}"
            if name not in keys:
                known = ", ".join(sorted(keys)) or "none"
                raise DataError(file, f"hex {hex_id}: key {name!r} is not declared in [hexkeys] (keys: {known})", path)
            put(name, hex_id, raw, path)

    # requires: checked on the final values, defaults included
    for name, key in keys.items():
        for req in key.requires:
            dflt = keys[req].default
            for h, v in values[name].items():
                if not _has(v):
                    continue
                if not _has(values[req].get(h, dflt)):
                    raise DataError(file, f"hex {num.to_id(h)}, key {name!r}: requires {req!r}, which this hex "
                                    "does not have", given_at[name, h])
    return keys, values


def _frozen_values(values: Mapping[str, Mapping[Hex, Any]]) -> Mapping[str, Mapping[Hex, Any]]:
    return MappingProxyType({k: MappingProxyType(dict(v)) for k, v in values.items()})


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
    hex_keys: Mapping[str, HexKey] = attrs.field(factory=dict)
    """Declared per-hex data keys (``[hexkeys]``), by name."""
    hex_values: Mapping[str, Mapping[Hex, Any]] = attrs.field(factory=dict)
    """Key -> hex -> value, only the values the file gives (not defaults)."""
    adjacency: Mapping[Hex, tuple[Hex, ...]] = attrs.field(init=False)
    """Hex -> its on-map neighbours (precomputed)."""
    graph: HexGraph = attrs.field(init=False, repr=False)
    """Indexed adjacency for fast movement searches: ``reachable(..., neighbors=m.graph)``."""
    _by_feature: Mapping[str, frozenset[Hexside]] = attrs.field(init=False, repr=False)
    _where: dict[tuple[str, Any], frozenset[Hex]] = attrs.field(init=False, repr=False, factory=dict)
    """:meth:`hexes_where`'s answers so far (a map never changes)."""
    _ids: dict[Hex, str] = attrs.field(init=False, repr=False, factory=dict)
    """:meth:`to_id`'s answers so far."""

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

    def _named(self, table: Mapping[str, Any], name: str, what: str, plural: str) -> Any:
        """``table[name]``, or a ``ValueError`` naming the map and every known name."""
        try:
            return table[name]
        except KeyError:
            known = ", ".join(sorted(table)) or "none"
            raise ValueError(f"map {self.meta.id!r} has no {what} {name!r} ({plural}: {known})") from None

    def region(self, name: str) -> frozenset[Hex]:
        """Hexes of a region; ``ValueError`` naming the known regions if unknown."""
        return self._named(self.regions, name, "region", "regions")

    def place(self, name: str) -> Hex:
        """Hex of a named place; ``ValueError`` naming the known places if unknown."""
        return self._named(self.places, name, "place", "places")

    # -- typed data per hex

    def hex_key(self, key: str) -> HexKey:
        """The declaration of a per-hex key; ``ValueError`` naming the declared keys if unknown."""
        return self._named(self.hex_keys, key, "per-hex key", "keys")

    def value(self, h: Hex, key: str) -> Any:
        """The value of ``key`` in hex ``h``: as given, else the key's default
        (``None`` if it has none; ``False`` for an unset flag)."""
        decl = self.hex_key(key)
        if h not in self.terrain_of:
            raise ValueError(f"{Hex(*h)!r} is not on map {self.meta.id!r}")
        got = self.hex_values[key].get(h)  # type: ignore[call-overload]
        if got is not None:
            return got
        if decl.default is None and decl.type == "flag":
            return False
        return decl.default

    def hex_data(self, h: Hex) -> dict[str, Any]:
        """Every key with a value in ``h`` (given or default), in declaration order."""
        out: dict[str, Any] = {}
        for key in self.hex_keys:
            v = self.value(h, key)
            if _has(v):
                out[key] = v
        return out

    def hexes_where(self, key: str, value: Any = None) -> frozenset[Hex]:
        """Hexes whose ``key`` equals ``value`` (defaults included); without
        ``value``, the hexes where ``key`` has any value (flags: is set)."""
        self.hex_key(key)
        if isinstance(value, list):
            value = tuple(value)
        def matching() -> frozenset[Hex]:
            if value is None:
                return frozenset(h for h in self.terrain_of if _has(self.value(h, key)))
            return frozenset(h for h in self.terrain_of if self.value(h, key) == value)

        try:
            found = self._where.get((key, value))
        except TypeError:  # a value that cannot be a key: asked each time
            return matching()
        if found is None:
            found = self._where[(key, value)] = matching()
        return found

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
        got = self._ids.get(h)
        if got is None:
            got = self._ids[h] = self.numbering.to_id(h)
        return got

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
        hex_keys: Iterable[HexKey] = (),
        hex_values: Mapping[str, Mapping[Hex, Any]] | None = None,
    ) -> HexMap:
        """A map made in code (tests, benchmarks, generators). Off-map hexes are a ``ValueError``,
        and so is a per-hex value its :class:`HexKey` does not allow."""
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
        keys = {k.name: k for k in hex_keys}
        vals: dict[str, dict[Hex, Any]] = {k: {} for k in keys}
        for name, by_hex in (hex_values or {}).items():
            if name not in keys:
                raise ValueError(f"values given for per-hex key {name!r}, which is not declared")
            for h, v in by_hex.items():
                if h not in hs:
                    raise ValueError(f"key {name!r} given for {h!r}, which is not on the map")
                try:
                    vals[name][Hex(*h)] = keys[name].check(v)
                except ValueError as exc:
                    raise ValueError(f"hex {numbering.to_id(h)}, key {name!r}: {exc}") from None
        return cls(meta, numbering, MappingProxyType(ter), MappingProxyType(feats),
                   MappingProxyType(regs), MappingProxyType(pl), MappingProxyType({}),
                   MappingProxyType(keys), _frozen_values(vals))

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
            for path, k, h, ch in _row_cells(num, spec.terrain.rows, " " in legend, file, "terrain.rows"):
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
        keys, values = _hex_data(num, spec.hexkeys, spec.hexdata, file)

        return cls(
            meta,
            num,
            MappingProxyType(ter),
            MappingProxyType({s: frozenset(f) for s, f in feats.items()}),
            MappingProxyType(regions),
            MappingProxyType(places),
            MappingProxyType(legend),
            MappingProxyType(keys),
            _frozen_values(values),
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
