"""The table document as written: its ``[table]`` section, its codes and its
``[[provenance]]`` marks (structured by :mod:`ancients_kit.data`), and the checks of
its rows and of its results past the ends. :func:`ancients_kit.tables.build_table`
builds a table from them; the data shape is in :mod:`ancients_kit.tables`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import attrs

from ancients_kit.chance import die_values
from ancients_kit.data import DataError
from ancients_kit.provenance import ProvenanceMark
from ancients_kit.table_labels import parse_band
from ancients_kit.table_results import Row

__all__ = ["RESERVED_CODES", "TableDocument", "TableSpec", "build_rows", "check_edge"]


@attrs.frozen
class TableSpec:
    """The ``[table]`` section of a table document, as written."""

    kind: Literal["odds", "differential", "lookup"]
    """Table shape."""
    die: Literal["d6", "2d6", "d66"] | None = None
    """Die rolled on the table; None only for a keyed lookup."""
    title: str = ""
    columns: tuple[str, ...] = ()
    """Odds labels (``"1:3"``, ``"1-2"``) or integer bands, lowest first."""
    below: str | None = None
    """Code for final odds below the first column, ``"first"`` to use it, or None: refused."""
    above: str | None = None
    """Code for final odds above the last column, or ``"last"``/None to use the last column."""
    rounding: Literal["defender", "attacker"] = "defender"
    """Default rounding of odds (odds tables only)."""
    refuse_rule: str = ""
    """Rule ID quoted when odds below the first column are refused."""
    results: Mapping[str, Any] = attrs.field(factory=dict)
    """Row label -> list of codes per column (a single code for lookups)."""
    entries: Mapping[str, str] = attrs.field(factory=dict)
    """Key -> code, for keyed lookups (no die)."""


@attrs.frozen
class TableDocument:
    """A whole table document but its ``[meta]`` header."""

    table: TableSpec
    codes: Mapping[str, str] = attrs.field(factory=dict)
    """Result code -> meaning."""
    provenance: tuple[ProvenanceMark, ...] = ()
    """Rows or cells whose source is not the document's (optional)."""


RESERVED_CODES = frozenset({"first", "last"})
"""Words ``below`` and ``above`` may hold besides a result code; no code may be one."""


def build_rows(
    spec: TableSpec, codes: Mapping[str, str], width: int | None, file: str
) -> tuple[Row, ...]:
    """Rows from ``[table.results]``; width None means single-code lookup rows."""
    if not spec.results:
        raise DataError(file, "a table read by a die roll needs rows", "table.results")
    assert spec.die is not None
    rows: list[Row] = []
    for label, cells in spec.results.items():
        path = f"table.results.{label}"
        try:
            band = parse_band(label)
        except ValueError as exc:
            raise DataError(file, str(exc), path) from None
        if width is None:
            if not isinstance(cells, str):
                raise DataError(file, f"a lookup row holds one code, not {cells!r}", path)
            results: tuple[str, ...] = (cells,)
        else:
            if not isinstance(cells, list) or not all(isinstance(c, str) for c in cells):
                raise DataError(file, "a row must be a list of result codes", path)
            if len(cells) != width:
                raise DataError(file, f"row has {len(cells)} results but the table has {width} columns", path)
            results = tuple(cells)
        for i, code in enumerate(results):
            if code not in codes:
                where = path if width is None else f"{path}[{i}]"
                raise DataError(file, f"unknown result code {code!r} (not in [codes])", where)
        rows.append(Row(band, results))
    rows.sort(key=lambda r: (r.band.low is not None, r.band.low if r.band.low is not None else 0))
    values = die_values(spec.die)
    for i, row in enumerate(rows):
        path = f"table.results.{row.band.label}"
        if row.band.low is None and i != 0:
            raise DataError(file, "only the lowest row may be open below", path)
        if row.band.high is None and i != len(rows) - 1:
            raise DataError(file, "only the highest row may be open above", path)
        if i:
            prev = rows[i - 1].band
            assert prev.high is not None and row.band.low is not None
            if row.band.low <= prev.high:
                raise DataError(file, f"row overlaps row {prev.label!r}", path)
            gap = list(range(prev.high + 1, row.band.low))
            # d66 rows may skip values no tens-and-units roll shows (17..20, ...)
            if (spec.die != "d66" and gap) or any(v in values for v in gap):
                raise DataError(file, f"rolls {gap[0]}..{gap[-1]} are missing before this row", path)
    lo, hi = rows[0].band.low, rows[-1].band.high
    if (lo is not None and lo > values[0]) or (hi is not None and hi < values[-1]):
        printed = f"{'..' if lo is None else lo}..{'' if hi is None else hi}"
        raise DataError(
            file,
            f"rows cover {printed} but a {spec.die} rolls {values[0]}..{values[-1]}",
            "table.results",
        )
    return tuple(rows)


def check_edge(spec: TableSpec, codes: Mapping[str, str], file: str) -> None:
    for name in ("below", "above"):
        v = getattr(spec, name)
        if v is None:
            continue
        if v in RESERVED_CODES:
            if (name, v) not in (("below", "first"), ("above", "last")):
                raise DataError(file, f"{name} may be a result code or {'first' if name == 'below' else 'last'}", f"table.{name}")
        elif v not in codes:
            raise DataError(file, f"unknown result code {v!r} (not in [codes])", f"table.{name}")

