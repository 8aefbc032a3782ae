"""Plane geometry for the tools that rebuild maps from geography.

The map generators of games whose maps are not printed (games/*/tools)
project coastlines, frontiers and regions drawn as polygons of (longitude,
latitude) points onto hexes; they share this one test instead of each
carrying its own.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["point_in_polygon"]


def point_in_polygon(x: float, y: float, polygon: Sequence[tuple[float, float]]) -> bool:
    """Whether ``(x, y)`` lies inside ``polygon`` (even-odd rule, by ray casting).

    A point exactly on an edge may fall either way; the generators place
    hex centres, which never sit on a hand-drawn border.
    """
    hit = False
    j = len(polygon) - 1
    for i in range(len(polygon)):
        xi, yi = polygon[i]
        xj, yj = polygon[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit
