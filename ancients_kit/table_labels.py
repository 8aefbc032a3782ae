"""Row and column labels of tables: integer bands and odds ratios, and the odds ladder.

Bands are ``"3"``, ``"3-4"``, ``"-2--1"``, ``"6+"``, ``"≤0"``/``"<=0"``,
``"≥5"``/``">=5"``; odds are ``"1:3"``, ``"1-2"``, ``"≤1:3"``, ``"≥4:1"``
(attacker to defender). The odds ladder (..., 1:3, 1:2, 1:1, 2:1, 3:1, ...) is
the line odds outside a table's printed columns lie on (see
:mod:`ancients_kit.tables` for how odds are rounded onto it).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import attrs

__all__ = ["Band", "ceil_rung", "floor_rung", "parse_band", "parse_odds"]

_RANGE = re.compile(r"^(-?\d+)\s*[-\u2013]\s*(-?\d+)$")
_SINGLE = re.compile(r"^(-?\d+)$")
_PLUS = re.compile(r"^(-?\d+)\s*\+$")
_LE = re.compile(r"^(?:\u2264|<=)\s*(-?\d+)$")
_GE = re.compile(r"^(?:\u2265|>=)\s*(-?\d+)$")
_ODDS = re.compile(r"^(\u2264|<=|\u2265|>=)?\s*(\d+)\s*[:\-\u2013]\s*(\d+)$")


@attrs.frozen
class Band:
    """A range of integers, open at either end (``low``/``high`` None)."""

    low: int | None
    high: int | None
    label: str

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int):
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def parse_band(label: str) -> Band:
    """Read ``"3"``, ``"3-4"``, ``"-2--1"``, ``"6+"``, ``"≤0"``, ``"≥5"``; ValueError if not."""
    text = str(label).strip()
    if m := _SINGLE.match(text):
        v = int(m.group(1))
        return Band(v, v, text)
    if m := _RANGE.match(text):
        lo, hi = int(m.group(1)), int(m.group(2))
        if lo > hi:
            raise ValueError(f"band {label!r} runs backwards")
        return Band(lo, hi, text)
    if m := _PLUS.match(text):
        return Band(int(m.group(1)), None, text)
    if m := _GE.match(text):
        return Band(int(m.group(1)), None, text)
    if m := _LE.match(text):
        return Band(None, int(m.group(1)), text)
    raise ValueError(f"{label!r} is not a number or a band such as 3-4, 6+, <=0")


def parse_odds(label: str) -> tuple[Fraction, str]:
    """Read an odds label: ``"1:3"``, ``"1-2"``, ``"≥4:1"``.

    Returns the ratio (attacker over defender) and ``""``, ``"<="`` or ``">="``.
    """
    m = _ODDS.match(str(label).strip())
    if not m:
        raise ValueError(f"{label!r} is not an odds ratio such as 1:3, 3-1 or >=4:1")
    a, b = int(m.group(2)), int(m.group(3))
    if a < 1 or b < 1:
        raise ValueError(f"odds {label!r} need positive numbers on both sides")
    mark = {"\u2264": "<=", "<=": "<=", "\u2265": ">=", ">=": ">="}.get(m.group(1) or "", "")
    return Fraction(a, b), mark


# The odds ladder ..., 1:3, 1:2, 1:1, 2:1, 3:1, ... as integer rungs:
# k:1 is rung k-1, 1:k is rung -(k-1).


def floor_rung(x: Fraction) -> int:
    """Rung of the largest ladder value <= x (x > 0)."""
    if x >= 1:
        return math.floor(x) - 1
    return -(math.ceil(1 / x) - 1)


def ceil_rung(x: Fraction) -> int:
    """Rung of the smallest ladder value >= x (x > 0)."""
    if x >= 1:
        return math.ceil(x) - 1
    return -(math.floor(1 / x) - 1)

