"""Terminal drawing of hex maps: a compact "brick" layout as rich ``Text``.

Each hex is a cell a few characters wide whose background shows its terrain.
Flat-top maps (Centurion, LDF, Xenophon) draw each hex two lines tall, label
above and terrain glyph below, with shifted columns one line (half a hex)
lower. Pointy-top maps (C&C) draw each row on one line with shifted rows
indented by half a cell. A 30 x 20 flat map fits 120 columns with 4-character
cells. ``turned=True`` draws a flat map whose sheet is printed with north to the
right (Xenophon's) north up: a line per column, north at the top, and the rows
west to east along it.

Hexside features and region borders (``edges``) are strokes on the cells'
edges: an underline where two cells meet one above the other, a bar ``│`` in a
blank character where they meet side by side.

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
    "EDGE_BAR",
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


EDGE_BAR = "│"
"""The stroke of a hexside between two cells side by side."""


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
    edges: Iterable[tuple[Hex, Hex, str]] = (),
    turned: bool = False,
) -> Text:
    """Draw ``hexmap`` as rich ``Text``.

    ``label(h)``: 2-4 characters shown in the hex (units, facing arrows);
    default the printed hex ID. ``style(h)``: a rich style for the hex
    (default: :func:`terrain_style`); ``None`` means plain. ``highlight``:
    hexes drawn with ``highlight_style`` added (reachable hexes, a path).
    ``sublabel(h)``: second line of a flat-top hex (default: terrain glyph);
    giving it to a pointy map draws two lines per row as well. ``cell``:
    characters per hex; by default 6 when the map then fits ``max_width``,
    else 4. ``edges``: ``(a, b, colour)`` strokes on the hexside between
    neighbours ``a`` and ``b`` (rivers, region borders; a later stroke on the
    same hexside wins). ``turned``: a flat map printed with north to the right
    drawn north up (a line pair per column, the last column on top).
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

    if num.orientation == "flat" and (edges or turned):
        return _render_cells(hexmap, label, cell_style, sublabel or terrain_glyph(hexmap),
                             cell or (6 if num.columns * 6 <= max_width else 4), edges, turned)
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


def cell_places(hexmap: HexMap, w: int, turned: bool = False) -> dict[Hex, tuple[int, int]]:
    """Where :func:`render_map` puts each hex of a flat map: (first character, first line) of its
    two-line cell ``w`` characters wide; ``turned`` as for :func:`render_map`."""
    num = hexmap.numbering
    out = {}
    last = num.first_column + num.columns - 1
    for h in num.hexes():
        col, row = num.to_offset(h)
        shifted = num.is_shifted(col)
        if turned:  # north (the last column) on top; odd columns half a hex further east
            out[h] = ((row - num.first_row) * w + (w // 2 if shifted else 0), 2 * (last - col))
        else:
            out[h] = ((col - num.first_column) * w, 2 * (row - num.first_row) + (1 if shifted else 0))
    return out


def _render_cells(hexmap: HexMap, label: Callable[[Hex], str], cell_style: Callable[[Hex], str],
                  sub: Callable[[Hex], str], w: int, edges: Iterable[tuple[Hex, Hex, str]], turned: bool) -> Text:
    """A flat map drawn character by character, so that strokes can lie on the cells' edges."""
    places = cell_places(hexmap, w, turned)
    width = max(x for x, _ in places.values()) + w
    num = hexmap.numbering
    height = 2 * num.columns if turned else 2 * num.rows + 1
    chars = [[" "] * width for _ in range(height)]
    styles: list[list[str]] = [[""] * width for _ in range(height)]
    for h, (x, y) in places.items():
        st = cell_style(h)
        for i, text in enumerate((_fit(label(h), w), _fit(sub(h), w))):
            row_c, row_s = chars[y + i], styles[y + i]
            for j, ch in enumerate(text):
                row_c[x + j] = ch
                row_s[x + j] = st
    strokes: dict[tuple[Hex, Hex], str] = {}
    for a, b, colour in edges:
        strokes[(a, b) if a <= b else (b, a)] = colour
    under: list[tuple[int, int, int, str]] = []
    bars: list[tuple[int, int, int, str]] = []
    for (a, b), colour in strokes.items():
        pa, pb = places.get(a), places.get(b)
        if pa is None or pb is None or a == b:
            continue
        (xa, ya), (xb, yb) = sorted((pa, pb), key=lambda p: (p[1], p[0]))
        if yb >= ya + 2:  # one above the other: the upper cell's bottom line, where they overlap
            first, last = max(xa, xb), min(xa, xb) + w
            if first < last:
                under.append((ya + 1, first, last, colour))
        else:  # side by side: the character either side of where they meet
            left, right = sorted((pa, pb))
            bars.append((max(ya, yb) if ya != yb else ya, left[0] + w - 1, right[0], colour))
            if ya == yb:  # the same two lines (a turned map's rows): the stroke on both
                bars.append((ya + 1, left[0] + w - 1, right[0], colour))
    for line, first, last, colour in under:
        for c in range(first, last):
            ink = f" {colour}" if chars[line][c] == " " else ""
            styles[line][c] = f"{styles[line][c]}{ink} underline".strip()
    for line, at_left, at_right, colour in bars:
        for c in (at_left, at_right):
            if 0 <= c < width and chars[line][c] in (" ", EDGE_BAR):
                chars[line][c] = EDGE_BAR
                styles[line][c] = f"{styles[line][c]} {colour}".strip()
                break
    out = Text(no_wrap=True, overflow="crop")
    for r in range(height):
        if r:
            out.append("\n")
        row_c, row_s = chars[r], styles[r]
        end = width
        while end and row_c[end - 1] == " " and not row_s[end - 1]:
            end -= 1
        c = 0
        while c < end:
            st = row_s[c]
            d = c + 1
            while d < end and row_s[d] == st:
                d += 1
            out.append("".join(row_c[c:d]), style=st or None)
            c = d
    return out


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
