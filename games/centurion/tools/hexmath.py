"""Small standalone hex arithmetic for the Centurion data generators and data tests.

Flat-top hexes in vertical columns, printed IDs ``CCRR``, even columns sit half
a hex lower (``shifted = "even"`` in map.toml). Kept independent of the core
so the data can be rebuilt and checked without it; the data tests cross-check
it against ``ancients_kit.hexgrid`` when that is available.
"""

from __future__ import annotations

from collections.abc import Iterator

DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")
"""Flat-top direction names, clockwise; index = direction number."""

_AXIAL = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def parse_id(hid: str) -> tuple[int, int]:
    if len(hid) != 4 or not hid.isdigit():
        raise ValueError(f"not a CCRR hex ID: {hid!r}")
    return int(hid[:2]), int(hid[2:])


def to_axial(col: int, row: int) -> tuple[int, int]:
    """Printed (column, row) -> axial (q, r) for even-shifted flat-top columns."""
    return col, row - (col - 1) // 2


def from_axial(q: int, r: int) -> tuple[int, int]:
    return q, r + (q - 1) // 2


def distance(a: str, b: str) -> int:
    q1, r1 = to_axial(*parse_id(a))
    q2, r2 = to_axial(*parse_id(b))
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbor(hid: str, direction: int) -> str:
    q, r = to_axial(*parse_id(hid))
    dq, dr = _AXIAL[direction % 6]
    c, rr = from_axial(q + dq, r + dr)
    if c < 1 or rr < 1:
        return ""
    return hex_id(c, rr)


def neighbors(hid: str, columns: int, rows: int) -> Iterator[str]:
    for d in range(6):
        n = neighbor(hid, d)
        if n and on_map(n, columns, rows):
            yield n


def on_map(hid: str, columns: int, rows: int) -> bool:
    c, r = parse_id(hid)
    return 1 <= c <= columns and 1 <= r <= rows


def centre_xy(hid: str) -> tuple[float, float]:
    """Pixel-like centre (x east, y south) for a hex of size 1 (generator geometry only)."""
    c, r = parse_id(hid)
    x = 1.5 * c
    y = 3**0.5 * (r + (0.5 if c % 2 == 0 else 0.0))
    return x, y


def line(a: str, b: str) -> list[str]:
    """Hexes a straight line from ``a`` to ``b`` passes through (generator use)."""
    n = distance(a, b)
    q1, r1 = to_axial(*parse_id(a))
    q2, r2 = to_axial(*parse_id(b))
    out: list[str] = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        fq = q1 + (q2 - q1) * t + 1e-6
        fr = r1 + (r2 - r1) * t + 1e-6
        fs = -fq - fr
        rq, rr, rs = round(fq), round(fr), round(fs)
        dq, dr, ds = abs(rq - fq), abs(rr - fr), abs(rs - fs)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        hid = hex_id(*from_axial(rq, rr))
        if not out or out[-1] != hid:
            out.append(hid)
    return out
