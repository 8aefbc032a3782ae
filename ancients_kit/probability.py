"""Exact probabilities as people read them, and fractions as fixed-point text.

A probability is an exact :class:`~fractions.Fraction`; the text never passes a
near-certainty off as a certainty (``> 0.9999``, ``<0.1%``). The tables' odds
(:mod:`ancients_kit.tables`), the odds command and the players' table all write
their chances through these functions.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["decimal_text", "probability_decimal", "probability_percent", "probability_text"]


def decimal_text(x: Fraction, places: int = 2) -> str:
    """Fixed-point text of a fraction, rounded half up, without floats."""
    scale = 10**places
    n = (x.numerator * scale * 2 + x.denominator) // (2 * x.denominator)
    whole, frac = divmod(n, scale)
    return f"{whole}.{frac:0{places}d}"


def _probability(p: Fraction | int) -> Fraction:
    p = Fraction(p)
    if not 0 <= p <= 1:
        raise ValueError(f"{p} is not a probability (it must lie from 0 to 1)")
    return p


def probability_decimal(p: Fraction | int, places: int = 4) -> str:
    """A probability as a decimal that never passes a near-certainty off as a certainty.

    Exact ``0`` and ``1`` are written ``0`` and ``1``; anything else to
    ``places`` decimals (as ``f"{float(p):.4f}"`` would), except that a value
    that would round to ``0.0000`` is ``< 0.0001`` and one that would round
    to ``1.0000`` is ``> 0.9999``.
    """
    if places < 1:
        raise ValueError(f"a probability needs at least one decimal place, not {places}")
    p = _probability(p)
    if p == 0 or p == 1:
        return str(p)
    text = f"{float(p):.{places}f}"
    least = Fraction(1, 10**places)
    if float(text) == 0:
        return f"< {float(least):.{places}f}"
    if float(text) == 1:
        return f"> {float(1 - least):.{places}f}"
    return text


def probability_percent(p: Fraction | int, places: int = 1) -> str:
    """A probability as a percentage, by the same rule as :func:`probability_decimal`:
    ``0%``, ``100%``, ``12.5%``, and ``<0.1%`` / ``>99.9%`` rather than ``0.0%`` / ``100.0%``."""
    p = _probability(p)
    if p == 0 or p == 1:
        return f"{p * 100}%"
    text = f"{float(p):.{places}%}"
    least = Fraction(1, 10**places)
    if float(text[:-1]) == 0:
        return f"<{float(least):.{places}f}%"
    if float(text[:-1]) == 100:
        return f">{float(100 - least):.{places}f}%"
    return text


def probability_text(p: Fraction | int, places: int = 4) -> str:
    """An exact probability as people read it: ``0`` and ``1`` as they are, anything
    else as its fraction and a decimal that is never a rounded 0 or 1
    (``1/4096 ~ 0.0002``, ``1/1679616 < 0.0001``, ``6305/6561 ~ 0.9610``)."""
    p = _probability(p)
    if p == 0 or p == 1:
        return str(p)
    decimal = probability_decimal(p, places)
    return f"{p} {decimal}" if decimal[0] in "<>" else f"{p} ~ {decimal}"

