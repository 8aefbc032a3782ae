"""Provenance per row or cell of a table document.

``meta.source`` stays the document's source and is the source of every cell no
``[[provenance]]`` entry marks; each entry marks whole rows (or keyed entries)
or some cells of them, with its own source, note and outside ``sources``. A
cell may be marked once; a reconstructed mark, like a reconstructed document,
must say what it was built from. :func:`resolve_provenance` checks the marks
against the table's rows, columns and entries; :class:`Provenance` answers per
cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from ancients_kit.data import DataError, Meta, Source
from ancients_kit.table_results import TableError

__all__ = ["Provenance", "ProvenanceMark", "resolve_provenance"]


def _labels(value: object) -> tuple[str, ...]:
    """Row or column labels as written: strings, or whole numbers read as labels (``4``)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise ValueError(f"expected an array of labels, got {type(value).__name__} {value!r}")
    out = []
    for x in value:
        if isinstance(x, bool) or not isinstance(x, (int, str)):
            raise ValueError(f"a label is a string or a whole number, not {type(x).__name__} {x!r}")
        out.append(str(x))
    return tuple(out)


@attrs.frozen
class ProvenanceMark:
    """Where some rows or cells of a table come from: one ``[[provenance]]``
    entry as written, or (with no rows, columns or entries) the document's own
    ``meta`` source and note."""

    source: Source
    """``rulebook``, ``reconstructed`` or ``variant``."""
    note: str = ""
    """What these rows or cells were taken or rebuilt from."""
    sources: tuple[str, ...] = ()
    """Outside references the values were taken from."""
    rows: tuple[str, ...] = attrs.field(default=(), converter=_labels)
    """Row labels as in ``[table.results]`` (``4``, ``"5-6"``, ``"6+"``); numbers are read as labels."""
    columns: tuple[str, ...] = attrs.field(default=(), converter=_labels)
    """Column labels: only these cells of the rows; empty: the whole rows."""
    entries: tuple[str, ...] = attrs.field(default=(), converter=_labels)
    """Keys of a keyed lookup's ``entries``."""

    def where(self) -> str:
        """The marked part in words: ``row 4, columns 3, 4, >=5``."""
        parts: list[str] = []
        if self.rows:
            parts.append(("row " if len(self.rows) == 1 else "rows ") + ", ".join(self.rows))
        if self.columns:
            parts.append(("column " if len(self.columns) == 1 else "columns ") + ", ".join(self.columns))
        if self.entries:
            parts.append(("entry " if len(self.entries) == 1 else "entries ") + ", ".join(self.entries))
        return ", ".join(parts) or "the whole table"

    def describe(self) -> str:
        """``row 4, columns 3, 4, >=5: reconstructed (note)``."""
        note = " ".join(self.note.split())
        return f"{self.where()}: {self.source}" + (f" ({note})" if note else "")


@attrs.frozen
class Provenance:
    """The source of every cell of a table: the document's, unless a mark says otherwise."""

    document: ProvenanceMark
    """The document's own ``meta.source`` and note: every unmarked cell."""
    marks: tuple[ProvenanceMark, ...] = ()
    """The ``[[provenance]]`` entries, in file order."""
    cells: Mapping[tuple[str, int], int] = attrs.field(factory=dict)
    """(row label or entry key, column index) -> index into ``marks``."""
    columns: tuple[str, ...] = ()
    """The table's column labels (empty for lookups)."""
    rows: tuple[str, ...] = ()
    """The table's row labels, or a keyed lookup's entry keys."""
    _size: int = 0
    """Number of cells of the table (set by :func:`resolve_provenance`)."""

    def mark_index(self, row: str | int, column: str | int = 0) -> int | None:
        """Index into :attr:`marks` of the mark of one cell, or None: the document's."""
        if isinstance(column, str):
            if column not in self.columns:
                raise TableError(f"no column {column!r} (columns: {', '.join(self.columns) or 'none'})")
            column = self.columns.index(column)
        if self.rows and str(row) not in self.rows:
            raise TableError(f"no row {str(row)!r} (rows: {', '.join(self.rows)})")
        return self.cells.get((str(row), column))

    def cell(self, row: str | int, column: str | int = 0) -> ProvenanceMark:
        """The mark of one cell: row label (or entry key) and column label or index."""
        hit = self.mark_index(row, column)
        return self.document if hit is None else self.marks[hit]

    def row(self, row: str | int) -> ProvenanceMark | None:
        """The mark every cell of a row shares, or None when the row is mixed."""
        found = {id(m): m for m in (self.cell(row, c) for c in range(max(1, len(self.columns))))}
        return next(iter(found.values())) if len(found) == 1 else None

    def sources_used(self) -> frozenset[str]:
        """Every source some cell has (the document's counts only if a cell is left to it)."""
        used = {m.source for m in self.marks}
        return frozenset(used | {self.document.source}) if self._unmarked_left() else frozenset(used)

    def _unmarked_left(self) -> bool:
        return len(self.cells) < self._size

    def summary(self) -> str:
        """One line for listings: every mark, then what the rest is."""
        if not self.marks:
            return self.document.source
        text = "; ".join(f"{m.where()}: {m.source}" for m in self.marks)
        if self._unmarked_left():
            text += f"; the rest: {self.document.source}"
        return text


def resolve_provenance(
    meta: Meta, specs: Sequence[ProvenanceMark], row_labels: Sequence[str], columns: Sequence[str],
    entries: Sequence[str], file: str,
) -> Provenance:
    """Resolve ``[[provenance]]`` against the table's rows, columns and entries."""
    doc = ProvenanceMark(meta.source, meta.note, meta.sources)
    width = max(1, len(columns))
    size = len(entries) if entries else len(row_labels) * width
    marks: list[ProvenanceMark] = []
    cells: dict[tuple[str, int], int] = {}
    for i, spec in enumerate(specs):
        path = f"provenance[{i}]"
        if spec.source == "reconstructed" and not spec.note.strip():
            raise DataError(file, "reconstructed rows or cells must say what they were built from", f"{path}.note")
        rows = spec.rows
        if entries:
            if rows or spec.columns:
                raise DataError(file, "a keyed lookup marks entries, not rows or columns", path)
            if not spec.entries:
                raise DataError(file, "mark some entries", f"{path}.entries")
        else:
            if spec.entries:
                raise DataError(file, "only keyed lookups have entries; mark rows", f"{path}.entries")
            if not rows:
                raise DataError(file, "mark some rows (and optionally columns)", f"{path}.rows")
            if spec.columns and not columns:
                raise DataError(file, "a lookup table has one column; mark rows only", f"{path}.columns")
        targets: list[tuple[str, int, str]] = []
        for j, key in enumerate(spec.entries):
            if key not in entries:
                raise DataError(file, f"no entry {key!r} (entries: {', '.join(entries)})", f"{path}.entries[{j}]")
            targets.append((key, 0, f"{path}.entries[{j}]"))
        col_idx: list[int] = []
        for j, c in enumerate(spec.columns):
            if c not in columns:
                raise DataError(file, f"no column {c!r} (columns: {', '.join(columns)})", f"{path}.columns[{j}]")
            col_idx.append(list(columns).index(c))
        for j, r in enumerate(rows):
            if r not in row_labels:
                raise DataError(file, f"no row {r!r} (rows: {', '.join(row_labels)})", f"{path}.rows[{j}]")
            for c in col_idx or range(width):
                targets.append((r, c, f"{path}.rows[{j}]"))
        for key, c, where in targets:
            if (key, c) in cells:
                col = f", column {columns[c]}" if columns else ""
                raise DataError(file, f"{key}{col} is already marked by provenance[{cells[key, c]}]", where)
            cells[key, c] = len(marks)
        marks.append(spec)
    return Provenance(doc, tuple(marks), cells, tuple(columns), tuple(entries or row_labels), size)

