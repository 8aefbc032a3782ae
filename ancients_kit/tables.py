"""Combat and lookup tables, read from data files, with exact odds.

This module owns the three table shapes the four games use and the arithmetic
around them; the result codes and their meanings belong to each game's data:

* :class:`OddsTable`: odds-ratio CRTs (LDF 13.2/13.15, Centurion basic combat
  cases I and J, Xenophon's three CRTs). Odds are exact fractions, rounded for
  the defender by default or for the attacker when a rule says so; column
  shifts, automatic results past the ends, clamped die modifiers.
* :class:`DifferentialTable`: columns by an integer (attack minus defence,
  Xenophon diplomacy; or any count such as Xenophon's pillage "units in force").
* :class:`LookupTable`: a die roll to an entry (random events, revolt,
  disband) or a key to an entry (terrain effects).

Every roll table resolves a roll into a :class:`Resolution` (with
:meth:`Resolution.explain`) and gives its exact outcome distribution as
fractions summing to 1.

The parts beneath the table types, one purpose each (this module re-exports
their public names, so ``ancients_kit.tables`` stays the one import):
:mod:`ancients_kit.table_labels` (bands, odds labels, the odds ladder),
:mod:`ancients_kit.table_results` (columns, automatic results, rows, the
:class:`Resolution`, the errors), :mod:`ancients_kit.provenance` (sources per row
or cell), :mod:`ancients_kit.table_schema` (the document as written and the
checks of its rows) and :mod:`ancients_kit.probability` (exact probabilities as
text). This module builds and loads tables and reads them.

Data shape (one TOML document per table)::

    [meta]
    id = "ldf.crt"
    source = "reconstructed"
    rules = ["ldf:13.2", "ldf:13.15"]
    note = "..."

    [table]
    kind = "odds"                  # "odds" | "differential" | "lookup"
    die = "d6"                     # "d6" | "2d6" | "d66"
    columns = ["1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"]
    below = "AE"                   # result code, or "first"; omitted: refused
    above = "DE"                   # result code, or "last" (the default)
    rounding = "defender"          # default rounding of this table
    refuse_rule = ""               # rule ID quoted when odds below are refused

    [table.results]                # row (die roll or band) -> one code per column
    1 = ["AS", "AS", "DR", ...]
    "6+" = [...]

    [codes]                        # every code used, with its meaning
    AE = "Attacker eliminated"

    [[provenance]]                 # optional: rows or cells whose source differs
    rows = [4, 5, 6]               # row labels of [table.results] (or entries = [...])
    columns = ["3:1", "4:1"]       # optional: only these cells of the rows
    source = "reconstructed"       # "rulebook", "reconstructed" or "variant"
    note = "Not printed in our text; rebuilt from ..."

Provenance per row or cell: ``meta.source`` stays the document's source and
is the source of every cell no ``[[provenance]]`` entry marks; each entry
marks whole rows (or keyed entries) or some cells of them, with its own
source, note and outside ``sources``. A cell may be marked once; a
reconstructed mark, like a reconstructed document, must say what it was built
from. :attr:`Table.provenance <OddsTable.provenance>` answers per cell, a
:class:`Resolution` of a marked table says where the cell it read comes from,
and ``ancients tables`` and ``docs/sources.md`` list the marks.

Column labels: odds ``"a:b"`` or ``"a-b"`` (attacker to defender), optionally
``"≤1:3"`` first / ``"≥4:1"`` last meaning the column also covers everything
beyond it (Xenophon's CRT). Differential columns and rows are integer bands:
``"3"``, ``"3-4"``, ``"-2--1"``, ``"6+"``, ``"≤0"``/``"<=0"``, ``"≥5"``/``">=5"``.
A lookup table has ``die`` and single-code ``results``, or ``entries``
(key -> code) and no die.

Rounding, precisely. The odds ``r = attack / defense`` are placed on the
columns: *for the defender* the column is the largest column ratio <= r, *for
the attacker* the smallest column ratio >= r. So 13:4 -> 3:1 (LDF 13.2);
26:9 -> 2:1 for the defender, 3:1 for the attacker (Centurion I, J); 5:8 ->
1:2 for the defender, 1:1 for the attacker. Odds outside the printed columns
lie on the virtual continuation of the usual odds ladder (..., 1:4, 1:3, 1:2,
1:1, 2:1, 3:1, ...), rounded the same way, so 7:1 is one column past 6:1 and
6.5:1 rounded for the defender is still 6:1. Shifts (``+`` toward the
attacker) move along that extended row of columns, and only the final
(shifted) position decides whether an automatic result applies: LDF 13.15,
"apply all applicable odds shifters prior to looking at the CRT". A final
position below the first column gives ``below`` (refused if omitted); above
the last gives ``above`` (the last column if omitted). An open-ended column
(``≤``/``≥``) absorbs everything beyond it before shifts are applied.

Die modifiers are added to the roll and the sum is clamped to the rows the
table prints (a band such as ``"6+"`` is open and needs no clamping).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import attrs

from ancients_kit.chance import Chance, die_distribution, die_values
from ancients_kit.data import DataError, DataStore, Meta, read_file, read_toml, split_meta, structure
from ancients_kit.probability import probability_decimal, probability_percent, probability_text
from ancients_kit.provenance import Provenance, ProvenanceMark, resolve_provenance
from ancients_kit.table_labels import Band, ceil_rung, floor_rung, parse_band, parse_odds
from ancients_kit.table_results import Automatic, Column, OddsRefused, Resolution, Row, TableError
from ancients_kit.table_schema import RESERVED_CODES, TableDocument, TableSpec, build_rows, check_edge

__all__ = [
    "Automatic",
    "Band",
    "Column",
    "DifferentialTable",
    "LookupTable",
    "OddsRefused",
    "OddsTable",
    "Provenance",
    "ProvenanceMark",
    "Resolution",
    "Row",
    "Table",
    "TableDocument",
    "TableError",
    "TableSpec",
    "build_table",
    "load_table",
    "load_table_with_codes",
    "load_table_file",
    "parse_band",
    "parse_odds",
    "probability_decimal",
    "probability_percent",
    "probability_text",
    "table_from_document",
    "table_provenance",
]

Rounding = Literal["defender", "attacker"]

_FAR = 10**6
"""Column steps used for infinite odds (attack 0 or defence 0)."""


class _Documented:
    """What every table says of itself: its data ID, the rules it serves, its codes."""

    meta: Meta
    codes: Mapping[str, str]

    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def rules(self) -> tuple[str, ...]:
        return self.meta.rules

    def meaning(self, code: str) -> str:
        return self.codes.get(code, "")

    provenance: Provenance | None

    def _cell_source(self, row: str, column: int) -> str | None:
        """The cell's source for a :class:`Resolution`: only when the table marks cells."""
        prov = self.provenance
        if prov is None or not prov.marks:
            return None
        return prov.cell(row, column).source


@attrs.frozen
class _RollTable(_Documented):
    """Shared machinery: rows read by a (modified, clamped) die roll."""

    meta: Meta
    die: str
    rows: tuple[Row, ...]
    codes: Mapping[str, str]
    title: str = ""
    provenance: Provenance | None = attrs.field(default=None, kw_only=True)
    """Source of each row or cell (set by :func:`build_table`)."""

    def _bounds(self) -> tuple[int | None, int | None]:
        return self.rows[0].band.low, self.rows[-1].band.high

    def _read(self, roll: int, modifier: int) -> tuple[int, bool, Row]:
        """Modified roll clamped to the printed rows, and the row it reads."""
        lo, hi = self._bounds()
        v = roll + modifier
        clamped = v
        if lo is not None and clamped < lo:
            clamped = lo
        if hi is not None and clamped > hi:
            clamped = hi
        for row in self.rows:
            if clamped in row.band:
                return clamped, clamped != v, row
        raise TableError(
            f"table {self.id}: modified roll {v} falls between the printed rows "
            f"({', '.join(r.band.label for r in self.rows)})"
        )

    def _check_roll(self, roll: int) -> None:
        if not isinstance(roll, int) or isinstance(roll, bool) or roll not in die_values(self.die):
            raise TableError(f"table {self.id}: {roll!r} is not a {self.die} roll")

    def _column_distribution(self, col: int, modifier: int) -> dict[str, Fraction]:
        out: dict[str, Fraction] = {}
        for v, p in die_distribution(self.die).items():
            _, _, row = self._read(v, modifier)
            code = row.results[col]
            out[code] = out.get(code, Fraction(0)) + p
        return out

    def _resolution(
        self, final: Column | Automatic, roll: int, modifier: int, common: Mapping[str, Any]
    ) -> Resolution:
        """Read the final column: an automatic result, or the (modified, clamped) roll's row."""
        if isinstance(final, Automatic):
            return Resolution(result=final.result, meaning=self.meaning(final.result), automatic=True, **common)
        self._check_roll(roll)
        mod_roll, clamped, row = self._read(roll, modifier)
        code = row.results[final.index]
        return Resolution(
            result=code,
            meaning=self.meaning(code),
            roll=roll,
            modifier=modifier,
            modified_roll=mod_roll,
            clamped=clamped,
            row=row.band.label,
            source=self._cell_source(row.band.label, final.index),
            **common,
        )


def _edge(
    table: _RollTable,
    columns: Sequence[str],
    below: str | None,
    above: str | None,
    refuse_rule: str,
    position: int,
    what: str,
) -> Column | Automatic:
    """Column at a (shifted) position, or what the table says past its ends."""
    n = len(columns)
    if 0 <= position < n:
        return Column(position, columns[position])
    # ldf:13.15 automatic results past the ends; cen:basic.combat refuses
    # ("non-viable") attacks below its lowest column.
    if position < 0:
        if below is None:
            rule = refuse_rule or (table.rules[0] if table.rules else "")
            verdict = "the attack is not allowed" if isinstance(table, OddsTable) else "the table gives no result"
            raise OddsRefused(
                f"table {table.id}: {what} falls below the lowest column {columns[0]}; "
                f"{verdict}" + (f" ({rule})" if rule else "")
            )
        if below == "first":
            return Column(0, columns[0])
        return Automatic(below, "below", position)
    if above is None or above == "last":
        return Column(n - 1, columns[-1])
    return Automatic(above, "above", position)


def _edge_label(columns: Sequence[str], choice: Column | Automatic) -> str:
    if isinstance(choice, Column):
        return choice.label
    return f"below {columns[0]}" if choice.side == "below" else f"above {columns[-1]}"


def _strength(x: object, name: str, table_id: str) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or x < 0:
        raise TableError(f"table {table_id}: {name} strength must be a whole number >= 0, not {x!r}")
    return x


@attrs.frozen
class OddsTable(_RollTable):
    """An odds-ratio combat results table."""

    columns: tuple[str, ...] = ()
    ratios: tuple[Fraction, ...] = ()
    open_low: bool = False
    """First column is ``≤``: it covers all lower odds."""
    open_high: bool = False
    """Last column is ``≥``: it covers all higher odds."""
    below: str | None = None
    above: str | None = None
    rounding: Rounding = "defender"
    refuse_rule: str = ""

    def _rounding(self, rounding: str | None) -> Rounding:
        r = rounding or self.rounding
        if r not in ("defender", "attacker"):
            raise TableError(f"table {self.id}: rounding must be 'defender' or 'attacker', not {rounding!r}")
        return r  # type: ignore[return-value]

    def position(self, attack: int, defense: int, rounding: str | None = None) -> int:
        """Column position of the odds before shifts (negative: below the first
        column, >= len(columns): above the last), see the module docstring."""
        attack = _strength(attack, "attack", self.id)
        defense = _strength(defense, "defense", self.id)
        if attack == 0 and defense == 0:
            raise TableError(f"table {self.id}: no odds for 0 against 0")
        rnd = self._rounding(rounding)
        n = len(self.ratios)
        first, last = self.ratios[0], self.ratios[-1]
        if defense == 0:
            pos = n - 1 + _FAR
        elif attack == 0:
            pos = -_FAR
        else:
            r = Fraction(attack, defense)
            # ldf:13.2 / cen:basic.combat case I round for the defender;
            # case J (a command unit near) rounds for the attacker.
            if first <= r <= last:
                if rnd == "defender":
                    pos = max(i for i, c in enumerate(self.ratios) if c <= r)
                else:
                    pos = min(i for i, c in enumerate(self.ratios) if c >= r)
            elif r > last:
                rung = floor_rung(r) if rnd == "defender" else ceil_rung(r)
                pos = n - 1 + max(0, rung - floor_rung(last))
            else:
                rung = floor_rung(r) if rnd == "defender" else ceil_rung(r)
                pos = -max(0, ceil_rung(first) - rung)
        # xen:crt prints "<=1:3" and ">=4:1": the end columns absorb all beyond.
        if self.open_low and pos < 0:
            pos = 0
        if self.open_high and pos > n - 1:
            pos = n - 1
        return pos

    def odds(
        self, attack: int, defense: int, rounding: str | None = None, shift: int = 0
    ) -> Column | Automatic:
        """The column the attack is read on, or the automatic result (LDF 13.15).

        Raises :class:`OddsRefused` when the final odds are below the first
        column and the table has no ``below`` result (Centurion's non-viable
        attacks below 1-2).
        """
        pos = self.position(attack, defense, rounding) + shift
        return _edge(self, self.columns, self.below, self.above, self.refuse_rule, pos, f"{attack}:{defense}")

    def is_allowed(self, attack: int, defense: int, rounding: str | None = None, shift: int = 0) -> bool:
        """False when :meth:`odds` would refuse the attack (Centurion: odds
        below 1-2 are non-viable, cen:basic.combat); never raises for that."""
        try:
            self.odds(attack, defense, rounding, shift)
        except OddsRefused:
            return False
        return True

    def _choose(
        self, attack: int, defense: int, shift: int, rounding: str | None
    ) -> tuple[Column | Automatic, Column | Automatic, Rounding]:
        rnd = self._rounding(rounding)
        base = self.position(attack, defense, rnd)
        what = f"{attack}:{defense}"
        final = _edge(self, self.columns, self.below, self.above, self.refuse_rule, base + shift, what)
        if shift == 0:
            return final, final, rnd
        try:
            raw = _edge(self, self.columns, self.below, self.above, self.refuse_rule, base, what)
        except OddsRefused:
            raw = Automatic("", "below", base)
        return raw, final, rnd

    def resolve(
        self,
        attack: int,
        defense: int,
        roll: int,
        shift: int = 0,
        modifier: int = 0,
        rounding: str | None = None,
    ) -> Resolution:
        """Read the table for ``attack`` against ``defense`` with a die roll."""
        raw, final, rnd = self._choose(attack, defense, shift, rounding)
        common = dict(
            table_id=self.id,
            rules=self.rules,
            attack=attack,
            defense=defense,
            ratio=Fraction(attack, defense) if defense else None,
            rounding=rnd,
            column=_edge_label(self.columns, raw),
            shift=shift,
            final_column=_edge_label(self.columns, final),
        )
        return self._resolution(final, roll, modifier, common)

    def distribution(
        self, attack: int, defense: int, shift: int = 0, modifier: int = 0, rounding: str | None = None
    ) -> dict[str, Fraction]:
        """Exact probability of each result code (sums to 1)."""
        _, final, _ = self._choose(attack, defense, shift, rounding)
        if isinstance(final, Automatic):
            return {final.result: Fraction(1)}
        return self._column_distribution(final.index, modifier)

    def roll(
        self,
        chance: Chance,
        attack: int,
        defense: int,
        shift: int = 0,
        modifier: int = 0,
        rounding: str | None = None,
        reason: str = "",
        rules: Sequence[str] | None = None,
    ) -> Resolution:
        """Roll the table's die through ``chance`` (recorded) and resolve.

        No die is rolled when the result is automatic. The roll cites ``rules``
        when given (the rules this attack applies), else every rule the table serves.
        """
        _, final, _ = self._choose(attack, defense, shift, rounding)
        if isinstance(final, Automatic):
            return self.resolve(attack, defense, die_values(self.die)[0], shift, modifier, rounding)
        value = chance.roll(self.die, reason or f"{self.id} {attack}:{defense}",
                            self.rules if rules is None else tuple(rules))
        return self.resolve(attack, defense, value, shift, modifier, rounding)


@attrs.frozen
class DifferentialTable(_RollTable):
    """Columns chosen by an integer: attack minus defence, or a plain count."""

    columns: tuple[str, ...] = ()
    bands: tuple[Band, ...] = ()
    below: str | None = None
    above: str | None = None
    refuse_rule: str = ""

    def position(self, value: int) -> int:
        """Column position of ``value`` before shifts (may lie past the ends)."""
        if not isinstance(value, int) or isinstance(value, bool):
            raise TableError(f"table {self.id}: column value must be an int, not {value!r}")
        for i, band in enumerate(self.bands):
            if value in band:
                return i
        first, last = self.bands[0], self.bands[-1]
        if first.low is not None and value < first.low:
            return -(first.low - value)
        assert last.high is not None
        return len(self.bands) - 1 + (value - last.high)

    def column(self, value: int, shift: int = 0) -> Column | Automatic:
        pos = self.position(value) + shift
        return _edge(self, self.columns, self.below, self.above, self.refuse_rule, pos, f"value {value}")

    def resolve_value(self, value: int, roll: int, shift: int = 0, modifier: int = 0) -> Resolution:
        """Read the column for ``value`` (e.g. units in the force) with a roll."""
        return self._resolve(value, roll, shift, modifier, None, None)

    def resolve(
        self, attack: int, defense: int, roll: int, shift: int = 0, modifier: int = 0
    ) -> Resolution:
        """Read the column for ``attack - defense`` with a roll (Xenophon diplomacy:
        phasing Agent chits minus the other side's)."""
        return self._resolve(attack - defense, roll, shift, modifier, attack, defense)

    def _choose(self, value: int, shift: int) -> tuple[Column | Automatic, Column | Automatic]:
        base = self.position(value)
        what = f"value {value}"
        final = _edge(self, self.columns, self.below, self.above, self.refuse_rule, base + shift, what)
        if shift == 0:
            return final, final
        try:
            raw = _edge(self, self.columns, self.below, self.above, self.refuse_rule, base, what)
        except OddsRefused:
            raw = Automatic("", "below", base)
        return raw, final

    def _resolve(
        self, value: int, roll: int, shift: int, modifier: int, attack: int | None, defense: int | None
    ) -> Resolution:
        raw, final = self._choose(value, shift)
        common = dict(
            table_id=self.id,
            rules=self.rules,
            attack=attack,
            defense=defense,
            value=value,
            column=_edge_label(self.columns, raw),
            shift=shift,
            final_column=_edge_label(self.columns, final),
        )
        return self._resolution(final, roll, modifier, common)

    def distribution_value(self, value: int, shift: int = 0, modifier: int = 0) -> dict[str, Fraction]:
        """Exact probability of each code for a column value (sums to 1)."""
        _, final = self._choose(value, shift)
        if isinstance(final, Automatic):
            return {final.result: Fraction(1)}
        return self._column_distribution(final.index, modifier)

    def distribution(self, attack: int, defense: int, shift: int = 0, modifier: int = 0) -> dict[str, Fraction]:
        """Exact probability of each code for ``attack - defense`` (sums to 1)."""
        return self.distribution_value(attack - defense, shift, modifier)

    def roll(
        self,
        chance: Chance,
        attack: int,
        defense: int = 0,
        shift: int = 0,
        modifier: int = 0,
        reason: str = "",
    ) -> Resolution:
        """Roll the table's die through ``chance`` and resolve ``attack - defense``."""
        _, final = self._choose(attack - defense, shift)
        if isinstance(final, Automatic):
            return self.resolve(attack, defense, die_values(self.die)[0], shift, modifier)
        value = chance.roll(self.die, reason or f"{self.id} {attack - defense}", self.rules)
        return self.resolve(attack, defense, value, shift, modifier)


@attrs.frozen
class LookupTable(_Documented):
    """A die roll to an entry (events, revolt) or a key to an entry (terrain)."""

    meta: Meta
    die: str | None
    rows: tuple[Row, ...]
    entries: Mapping[str, str]
    codes: Mapping[str, str]
    title: str = ""
    provenance: Provenance | None = attrs.field(default=None, kw_only=True)
    """Source of each row or entry (set by :func:`build_table`)."""

    def _roller(self) -> _RollTable:
        if self.die is None:
            raise TableError(f"table {self.id} is looked up by key, not by a die roll")
        return _RollTable(self.meta, self.die, self.rows, self.codes, self.title, provenance=self.provenance)

    def resolve(self, roll: int, modifier: int = 0) -> Resolution:
        """The entry for a roll (plus modifier, clamped to the printed rows)."""
        t = self._roller()
        t._check_roll(roll)
        mod_roll, clamped, row = t._read(roll, modifier)
        code = row.results[0]
        return Resolution(
            table_id=self.id,
            result=code,
            meaning=self.meaning(code),
            rules=self.rules,
            roll=roll,
            modifier=modifier,
            modified_roll=mod_roll,
            clamped=clamped,
            row=row.band.label,
            source=self._cell_source(row.band.label, 0),
        )

    def distribution(self, modifier: int = 0) -> dict[str, Fraction]:
        """Exact probability of each entry (sums to 1)."""
        return self._roller()._column_distribution(0, modifier)

    def roll(self, chance: Chance, modifier: int = 0, reason: str = "") -> Resolution:
        t = self._roller()
        return self.resolve(chance.roll(t.die, reason or self.id, self.rules), modifier)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(self.entries)

    def lookup(self, key: str) -> str:
        """The entry for a key (keyed lookups)."""
        if self.die is not None:
            raise TableError(f"table {self.id} is read by a {self.die} roll, not by key")
        try:
            return self.entries[key]
        except KeyError:
            raise TableError(
                f"table {self.id}: no entry {key!r}; known: {', '.join(self.entries)}"
            ) from None

    def resolve_key(self, key: str) -> Resolution:
        code = self.lookup(key)
        return Resolution(table_id=self.id, result=code, meaning=self.meaning(code), rules=self.rules, key=key,
                          source=self._cell_source(key, 0))


Table = OddsTable | DifferentialTable | LookupTable
"""Any table :func:`load_table` returns."""
def build_table(meta: Meta, doc: TableDocument, file: str) -> Table:
    """Validate a structured document and build its table; ``file`` names it in errors."""
    spec = doc.table
    codes = dict(doc.codes)
    for code in codes:
        if code in RESERVED_CODES:
            raise DataError(file, f"{code!r} is reserved and cannot be a result code", f"codes.{code}")
    title = spec.title or meta.title
    if spec.kind == "lookup":
        if spec.columns or spec.below is not None or spec.above is not None:
            raise DataError(file, "a lookup table has no columns, below or above", "table")
        if spec.die is None:
            if spec.results:
                raise DataError(file, "rows need a die; give table.die or use table.entries", "table.results")
            if not spec.entries:
                raise DataError(file, "a keyed lookup needs entries", "table.entries")
            if codes:
                for key, code in spec.entries.items():
                    if code not in codes:
                        raise DataError(file, f"unknown result code {code!r} (not in [codes])", f"table.entries.{key}")
            prov = resolve_provenance(meta, doc.provenance, (), (), tuple(spec.entries), file)
            return LookupTable(meta, None, (), dict(spec.entries), codes, title, provenance=prov)
        if spec.entries:
            raise DataError(file, "a lookup read by a die has rows, not entries", "table.entries")
        rows = build_rows(spec, codes, None, file)
        prov = resolve_provenance(meta, doc.provenance, [r.band.label for r in rows], (), (), file)
        return LookupTable(meta, spec.die, rows, {}, codes, title, provenance=prov)

    if spec.die is None:
        raise DataError(file, f"an {spec.kind} table needs a die (d6, 2d6 or d66)", "table.die")
    if spec.entries:
        raise DataError(file, "only keyed lookups have entries", "table.entries")
    if not spec.columns:
        raise DataError(file, "the table needs columns", "table.columns")
    check_edge(spec, codes, file)
    rows = build_rows(spec, codes, len(spec.columns), file)
    prov = resolve_provenance(meta, doc.provenance, [r.band.label for r in rows], tuple(spec.columns), (), file)
    below, above = spec.below, spec.above

    if spec.kind == "odds":
        ratios: list[Fraction] = []
        marks: list[str] = []
        for i, label in enumerate(spec.columns):
            try:
                ratio, mark = parse_odds(label)
            except ValueError as exc:
                raise DataError(file, str(exc), f"table.columns[{i}]") from None
            if ratios and ratio <= ratios[-1]:
                raise DataError(
                    file, f"columns must rise: {label!r} is not above {spec.columns[i - 1]!r}", f"table.columns[{i}]"
                )
            if mark == "<=" and i != 0 or mark == ">=" and i != len(spec.columns) - 1:
                raise DataError(file, "only the first column may be <= and only the last >=", f"table.columns[{i}]")
            ratios.append(ratio)
            marks.append(mark)
        open_low, open_high = marks[0] == "<=", marks[-1] == ">="
        if open_low:
            if below not in (None, "first"):
                raise DataError(file, f"column {spec.columns[0]!r} already covers lower odds", "table.below")
            below = "first"
        if open_high:
            if above not in (None, "last"):
                raise DataError(file, f"column {spec.columns[-1]!r} already covers higher odds", "table.above")
            above = "last"
        return OddsTable(
            meta,
            spec.die,
            rows,
            codes,
            title,
            columns=tuple(spec.columns),
            ratios=tuple(ratios),
            open_low=open_low,
            open_high=open_high,
            below=below,
            above=above,
            rounding=spec.rounding,
            refuse_rule=spec.refuse_rule,
            provenance=prov,
        )

    bands: list[Band] = []
    for i, label in enumerate(spec.columns):
        path = f"table.columns[{i}]"
        try:
            band = parse_band(label)
        except ValueError as exc:
            raise DataError(file, str(exc), path) from None
        if band.low is None and i != 0 or band.high is None and i != len(spec.columns) - 1:
            raise DataError(file, "only the first column may be open below and only the last open above", path)
        if bands:
            prev = bands[-1]
            assert prev.high is not None
            if band.low != prev.high + 1:
                raise DataError(file, f"columns must follow on without gap or overlap after {prev.label!r}", path)
        bands.append(band)
    if bands[0].low is None:
        below = below or "first"
    if bands[-1].high is None:
        above = above or "last"
    return DifferentialTable(
        meta,
        spec.die,
        rows,
        codes,
        title,
        columns=tuple(spec.columns),
        bands=tuple(bands),
        below=below,
        above=above,
        refuse_rule=spec.refuse_rule,
        provenance=prov,
    )


def table_from_document(doc: Mapping[str, Any], *, file: str) -> Table:
    """Build a table from a parsed TOML document (``[meta]``, ``[table]``, ``[codes]``)."""
    meta, body = split_meta(doc, file=file)
    spec = structure(body, TableDocument, file=file)
    return build_table(meta, spec, file)


def load_table(store: DataStore, rel_path: str) -> Table:
    """Load a game's table document (honouring variant replacements)."""
    meta, spec = store.load(rel_path, TableDocument)
    file = store.path(rel_path)
    hit = store.override(meta.id)
    if hit is not None:
        file = f"{hit[0].path} [replace.{meta.id}]"
    return build_table(meta, spec, file)


def load_table_with_codes(store: DataStore, rel_path: str, codes: Iterable[str], rule: str) -> Table:
    """:func:`load_table`, refusing a table whose rows or automatic results give a code outside
    ``codes``, the results the game's rules carry out (another game's table, a misspelt code).

    Raises :class:`DataError` naming the file (or the variant replacing it), the row and the rule,
    when the table loads, not when a battle first reads that cell."""
    table = load_table(store, rel_path)
    known = set(codes)
    file = store.path(rel_path)
    hit = store.override(table.meta.id)
    if hit is not None:
        file = f"{hit[0].path} [replace.{table.meta.id}]"
    rows = getattr(table, "rows", ())
    for i, row in enumerate(rows):
        for j, code in enumerate(row.results):
            if code not in known:
                raise DataError(file, f"result {code!r} is not one this game carries out "
                                f"({', '.join(sorted(known))}) [{rule}]", f"table.rows[{i}][{j}]")
    for edge in ("below", "above"):
        code = getattr(table, edge, None)
        if code not in (None, "first", "last") and code not in known:
            raise DataError(file, f"result {code!r} is not one this game carries out "
                            f"({', '.join(sorted(known))}) [{rule}]", f"table.{edge}")
    return table


def load_table_file(path: str | Path) -> Table:
    """Load a table document from a file path (a designer's own table)."""
    raw = read_file(path, "table file")
    return table_from_document(read_toml(raw, file=str(path)), file=str(path))


def table_provenance(store: DataStore, rel_path: str) -> Provenance | None:
    """The provenance of a game's data document if it is a table that marks
    rows or cells (``[[provenance]]``), else None. Honours variant replacements."""
    doc = store.raw(rel_path)
    if "table" not in doc:
        return None
    meta, _ = split_meta(doc, file=store.path(rel_path))
    hit = store.override(meta.id)
    body = hit[1] if hit is not None else doc
    if not body.get("provenance"):
        return None
    prov = load_table(store, rel_path).provenance
    return prov if prov is not None and prov.marks else None
