"""What reading a table gives: the column (or the automatic result past its ends),
the row, and the :class:`Resolution` that explains one use of the table; and the
errors a table raises for bad input.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import attrs

from ancients_kit.probability import decimal_text
from ancients_kit.table_labels import Band

__all__ = ["Automatic", "Column", "OddsRefused", "Resolution", "Row", "TableError"]


class TableError(ValueError):
    """Bad input to a table (negative strength, impossible roll, unknown key)."""


class OddsRefused(TableError):
    """The odds fall below a table's first column and the rules forbid the attack
    (Centurion: below 1-2 an attack is "non-viable")."""


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


@attrs.frozen
class Column:
    """A column of a table, chosen by odds or by value."""

    index: int
    label: str


@attrs.frozen
class Automatic:
    """An automatic result past one end of a table (LDF 13.15)."""

    result: str
    side: Literal["below", "above"]
    position: int
    """Column position relative to the first column (negative below)."""


@attrs.frozen
class Row:
    """One printed row: the rolls it covers and its code per column."""

    band: Band
    results: tuple[str, ...]


@attrs.frozen
class Resolution:
    """How one use of a table came out, with everything needed to explain it."""

    table_id: str
    result: str
    """The result code (the game's data says what it does)."""
    meaning: str
    """The code's meaning from the table's ``[codes]``."""
    rules: tuple[str, ...]
    """Rule IDs of the table (its ``meta.rules``)."""
    automatic: bool = False
    """True when no roll was read: odds past the ends (LDF 13.15)."""
    attack: int | None = None
    defense: int | None = None
    value: int | None = None
    """Differential tables: the value that picked the column."""
    ratio: Fraction | None = None
    """Odds tables: attack / defense exactly (None when defense is 0)."""
    rounding: str | None = None
    column: str | None = None
    """Column read from the odds or value before any shift."""
    shift: int = 0
    final_column: str | None = None
    """Column after shifts (the one read), or a text such as ``"above 6:1"``."""
    roll: int | None = None
    modifier: int = 0
    modified_roll: int | None = None
    """Roll plus modifier, clamped to the printed rows."""
    clamped: bool = False
    row: str | None = None
    """Label of the row read."""
    key: str | None = None
    """Keyed lookups: the key looked up."""
    source: str | None = None
    """Where the cell read comes from (``rulebook``, ``reconstructed``, ``variant``)
    when its table marks rows or cells (``[[provenance]]``); None otherwise."""

    def explain(self) -> str:
        """One line for a player: ``26:9 = 2.89 -> 2-1 (rounded for the
        defender), +1 shift -> 3-1, roll 4 -1 = 3 -> DR``."""
        parts: list[str] = []
        if self.key is not None:
            parts.append(f"{self.key}")
        elif self.ratio is not None or (self.attack is not None and self.value is None):
            ratio = "infinite" if self.ratio is None else decimal_text(self.ratio)
            parts.append(
                f"{self.attack}:{self.defense} = {ratio} -> {self.column} (rounded for the {self.rounding})"
            )
        elif self.value is not None:
            if self.attack is not None:
                parts.append(f"{self.attack} - {self.defense} = {self.value} -> column {self.column}")
            else:
                parts.append(f"value {self.value} -> column {self.column}")
        if self.shift:
            parts.append(f"{_signed(self.shift)} shift -> {self.final_column}")
        if self.automatic:
            if not self.shift and self.final_column != self.column:
                parts.append(f"{self.final_column}")
            parts.append(f"automatic {self.result}")
        elif self.roll is not None:
            text = f"roll {self.roll}"
            if self.modifier:
                text += f" {_signed(self.modifier)} = {self.roll + self.modifier}"
                if self.clamped:
                    text += f", read as {self.modified_roll}"
            parts.append(text)
            parts[-1] += f" -> {self.result}"
        else:
            parts[-1] += f" -> {self.result}"
        text = ", ".join(parts)
        if self.source:
            text += f" ({self.source} cell)"
        if self.rules:
            text += f" [{', '.join(self.rules)}]"
        return text

