"""Terminal drawing of hex maps: a compact "brick" layout as rich ``Text``.

Each hex is a cell a few characters wide whose background shows its terrain.
Flat-top maps (Centurion, LDF, Xenophon) draw each hex two lines tall, label
above and terrain glyph below, with shifted columns one line (half a hex)
lower. Pointy-top maps (C&C) draw each row on one line with shifted rows
indented by half a cell. A 30 x 20 flat map fits 120 columns with 4-character
cells.

This module builds ``Text`` only; it never prints (the CLI owns the consoles)
and applies no rule. It serves the display of every game's map.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping

from rich.text import Text

from ancients_kit.hexgrid import Hex, Numbering
from ancients_kit.hexmap import HexMap

__all__ = [
    "DEFAULT_TERRAIN_STYLES",
    "FACING_ARROWS",
    "facing_arrow",
    "render_legend",
    "render_map",
    "terrain_glyph",
    "terrain_style",
]

DEFAULT_TERRAIN_STYLES: dict[str, str] = {
    "clear": "white on grey23",
    "open": "white on grey23",
    "plain": "white on grey23",
    "forest": "white on dark_green",
    "woods": "white on dark_green",
    "hill": "black on dark_khaki",
    "hills": "black on dark_khaki",
    "rough": "white on grey42",
    "broken": "white on grey42",
    "mountain": "black on grey62",
    "pass": "black on orange3",
    "town": "white on dark_red",
    "city": "white on red3",
    "camp": "white on dark_magenta",
    "fort": "white on dark_magenta",
    "river-hex": "white on blue3",
    "river": "white on blue3",
    "lake": "white on navy_blue",
    "sea": "white on navy_blue",
    "water": "white on navy_blue",
    "marsh": "black on cyan3",
    "desert": "black on light_goldenrod3",
    "steppe": "black on wheat4",
}
"""Background styles for common terrain names; unknown names get a fixed fallback colour."""

_FALLBACK = ("white on purple4", "white on dark_orange3", "black on sea_green3", "white on deep_pink4",
             "black on light_slate_blue", "white on orange4")

FACING_ARROWS: dict[str, tuple[str, ...]] = {
    "flat": ("↑", "↗", "↘", "↓", "↙", "↖"),
    "pointy": ("↗", "→", "↘", "↙", "←", "↖"),
}
"""Arrow of each direction 0..5 per orientation, for facing labels."""


def facing_arrow(numbering: Numbering, direction: int) -> str:
    """A one-character arrow for ``direction`` on this map (``cen:full.facing`` labels)."""
    return FACING_ARROWS[numbering.orientation][direction % 6]


def _fallback_style(name: str) -> str:
    # A stable choice (no hash(): it varies between runs).
    return _FALLBACK[sum(name.encode()) % len(_FALLBACK)]


def terrain_style(
    hexmap: HexMap, styles: Mapping[str, str] | None = None
) -> Callable[[Hex], str | None]:
    """A ``style`` callable for :func:`render_map`: each hex's terrain colour."""
    table = dict(DEFAULT_TERRAIN_STYLES)
    table.update(styles or {})
    ter = hexmap.terrain_of

    def style(h: Hex) -> str | None:
        t = ter.get(h)
        if t is None:
            return None
        return table.get(t) or _fallback_style(t)

    return style


_PLAIN_TERRAIN = frozenset({"clear", "open", "plain"})


def terrain_glyph(hexmap: HexMap) -> Callable[[Hex], str]:
    """A ``sublabel`` callable: the map's legend character for the terrain, or its initial.

    Open ground (``clear``, or legend ``.``) stays blank so features stand out.
    """
    back = {}
    for ch, name in hexmap.legend.items():
        back.setdefault(name, ch)
    ter = hexmap.terrain_of

    def glyph(h: Hex) -> str:
        t = ter.get(h, "")
        if t in _PLAIN_TERRAIN and t not in back:
            return ""
        ch = back.get(t) or t[:1]
        return "" if ch in (".", " ") else ch

    return glyph


def _fit(text: str, width: int) -> str:
    text = text[:width]
    return text.center(width)


def render_map(
    hexmap: HexMap,
    label: Callable[[Hex], str] | None = None,
    style: Callable[[Hex], str | None] | None = None,
    highlight: Collection[Hex] = frozenset(),
    *,
    sublabel: Callable[[Hex], str] | None = None,
    cell: int | None = None,
    highlight_style: str = "bold reverse",
    max_width: int = 120,
) -> Text:
    """Draw ``hexmap`` as rich ``Text``.

    ``label(h)``: 2-4 characters shown in the hex (units, facing arrows);
    default the printed hex ID. ``style(h)``: a rich style for the hex
    (default: :func:`terrain_style`); ``None`` means plain. ``highlight``:
    hexes drawn with ``highlight_style`` added (reachable hexes, a path).
    ``sublabel(h)``: second line of a flat-top hex (default: terrain glyph);
    giving it to a pointy map draws two lines per row as well. ``cell``:
    characters per hex; by default 6 when the map then fits ``max_width``,
    else 4.
    """
    num = hexmap.numbering
    if label is None:
        label = num.to_id
    if style is None:
        style = terrain_style(hexmap)
    hi = highlight if isinstance(highlight, (set, frozenset)) else frozenset(highlight)

    def cell_style(h: Hex) -> str:
        base = style(h) or ""
        if h in hi:
            return f"{base} {highlight_style}".strip()
        return base

    if num.orientation == "flat":
        w = cell or (6 if num.columns * 6 <= max_width else 4)
        sub = sublabel or terrain_glyph(hexmap)
        height = 2 * num.rows + 1
        grid: list[list[tuple[str, str]]] = [[(" " * w, "")] * num.columns for _ in range(height)]
        for h in num.hexes():
            col, row = num.to_offset(h)
            x, y = col - num.first_column, row - num.first_row
            top = 2 * y + (1 if num.is_shifted(col) else 0)
            st = cell_style(h)
            grid[top][x] = (_fit(label(h), w), st)
            grid[top + 1][x] = (_fit(sub(h), w), st)
        return _join(grid)

    w = cell or (6 if num.columns * 6 + 3 <= max_width else 4)
    lines_per = 2 if sublabel is not None else 1
    rows: list[list[tuple[str, str]]] = []
    for y in range(num.rows):
        row = num.first_row + y
        indent = (" " * (w // 2), "") if num.is_shifted(row) else ("", "")
        top: list[tuple[str, str]] = [indent]
        bottom: list[tuple[str, str]] = [indent]
        for x in range(num.line_length(y)):
            h = num.from_offset(num.first_column + x, row)
            st = cell_style(h)
            top.append((_fit(label(h), w), st))
            if sublabel is not None:
                bottom.append((_fit(sublabel(h), w), st))
        rows.append(top)
        if lines_per == 2:
            rows.append(bottom)
    return _join(rows)


def _join(lines: Iterable[list[tuple[str, str]]]) -> Text:
    out = Text(no_wrap=True, overflow="crop")
    first = True
    for line in lines:
        if not first:
            out.append("\n")
        first = False
        # Trailing blank cells are dropped so lines do not carry padding.
        cells = list(line)
        while cells and not cells[-1][1] and not cells[-1][0].strip():
            cells.pop()
        for text, st in cells:
            out.append(text, style=st or None)
    return out


def render_legend(
    hexmap: HexMap,
    styles: Mapping[str, str] | None = None,
    features: Mapping[str, str] | None = None,
) -> Text:
    """A legend: one swatch per terrain used on the map, with its glyph and name.

    ``features`` optionally adds hexside feature names with a description
    (hexsides are not drawn in the cell layout, so the CLI may list them).
    """
    table = dict(DEFAULT_TERRAIN_STYLES)
    table.update(styles or {})
    back = {}
    for ch, name in hexmap.legend.items():
        back.setdefault(name, ch)
    out = Text(no_wrap=True)
    names = sorted(hexmap.terrain_names())
    for i, name in enumerate(names):
        if i:
            out.append("  ")
        glyph = back.get(name, name[:1])
        out.append(f" {glyph} ", style=table.get(name) or _fallback_style(name))
        out.append(f" {name}")
    for name in sorted(features or {}):
        out.append("\n")
        out.append(f"{name}: {(features or {})[name]}")
    return out
