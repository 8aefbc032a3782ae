"""Drawing a :class:`~ancients_kit.picture.Picture` as SVG (and PNG).

The map is drawn in layers: terrain hexes, region borders, hexside features,
section lines, hex numbers, markers, highlighted hexes, counters, then a legend
underneath. A picture whose sheet is not printed north up (Xenophon's) is drawn
north up (:func:`~ancients_kit.picture.upright`); give it with ``north=0`` to draw
the sheet as printed.
Colours are chosen so that a print in grey still reads: sides differ by a
letter on every counter (A, B) as well as by colour, terrain by a pattern of
lightness, rivers by width.

:func:`svg_document` gives a whole standalone SVG; :func:`svg_layers` gives
the static map and the counter layer apart, for the HTML replay, which draws
the map once and swaps counters step by step. The output is deterministic
(same picture, same bytes), and well-formed XML whatever text the picture holds
(:mod:`ancients_kit.text`). :func:`write_png` renders the same SVG-equivalent
scene with matplotlib (the ``plots`` extra).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from pathlib import Path

from ancients_kit.errors import GameError
from ancients_kit.outputs import check_output, write_figure, write_output
from ancients_kit.picture import Counter, Picture, PictureHex, PictureHexside, direction_angle, upright
from ancients_kit.text import xml, xml_attr

__all__ = ["DrawingError", "TERRAIN_COLOURS", "counter_layer", "counter_pieces", "svg_document", "svg_layers",
           "write_picture"]

SIZE = 30.0
"""Pixels from a hex centre to a corner."""
MARGIN = 20.0

TERRAIN_COLOURS: dict[str, str] = {
    "clear": "#f4f1e6", "open": "#f4f1e6", "plain": "#f4f1e6",
    "forest": "#8fbf7f", "woods": "#8fbf7f",
    "hill": "#d9c48c", "hills": "#d9c48c", "rough": "#c9b9a0", "broken": "#c9b9a0",
    "mountain": "#a89f91", "pass": "#d8a866",
    "town": "#d49a8f", "city": "#c9786b", "camp": "#c8a2c8", "fort": "#b98fb9",
    "river": "#7fb2e5", "river-hex": "#7fb2e5", "ford": "#a9d0f0", "bridge": "#9c9c9c",
    "lake": "#5f96cf", "sea": "#5f96cf", "water": "#5f96cf",
    "marsh": "#a7cdb8", "desert": "#efd99a", "steppe": "#dccf9f",
}
"""Fill of each common terrain name; unknown names get a stable fallback."""

_FALLBACK = ("#e0c0e0", "#c0d0e0", "#d0e0c0", "#e0d0b0", "#c8c8e8", "#e8c8c8")

FEATURE_STYLES: dict[str, tuple[str, float, str]] = {
    "river": ("#2f6fc0", 5.0, ""),
    "stream": ("#4f8fd0", 3.0, ""),
    "ford": ("#8fc0f0", 5.0, "4 3"),
    "road": ("#8b5a2b", 3.0, "6 3"),
    "bridge": ("#555555", 6.0, ""),
    "wall": ("#333333", 4.0, ""),
    "cliff": ("#6b4f2f", 4.0, "2 2"),
    "slope": ("#a07840", 3.0, "1 3"),
    "rhine": ("#1f5fbf", 6.0, ""),
    "danube": ("#1f5fbf", 6.0, ""),
    "euphrates": ("#4f8fd0", 4.0, ""),
    "tigris": ("#4f8fd0", 4.0, ""),
    "nile": ("#4f8fd0", 4.0, ""),
    "lake": ("#3f7fc8", 5.0, ""),
    "strait": ("#1f4f9f", 4.0, "2 2"),
    "sea": ("#1f3f7f", 3.0, "2 2"),
}
"""Stroke colour, width and dash of hexside features; unknown ones are drawn grey."""

SIDE_COLOURS = (("#c0392b", "#fbe3e0", "A"), ("#1f5fa8", "#dde9f7", "B"), ("#2e7d32", "#e0f0e0", "C"),
                ("#7b3fa0", "#eee0f5", "D"))
"""Per side, in playing order: border/text colour, counter fill, letter."""

HIGHLIGHT = "#f5b800"
BORDER_STYLE = ("#3b3b3b", 1.6, "4 2")
"""Stroke of region borders: thin, dark and dashed, under the hexside features."""


class DrawingError(GameError):
    """A picture cannot be written (unknown format, matplotlib missing)."""


def terrain_colour(name: str) -> str:
    return TERRAIN_COLOURS.get(name) or _FALLBACK[sum(name.encode("utf-8", "surrogatepass")) % len(_FALLBACK)]


def _fmt(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _corners(h: PictureHex, orientation: str, scale: float = 1.0) -> list[tuple[float, float]]:
    cx, cy = _px(h.x, h.y)
    start = 0.0 if orientation == "flat" else 30.0
    r = SIZE * scale
    return [(cx + r * math.cos(math.radians(start + 60 * i)), cy + r * math.sin(math.radians(start + 60 * i)))
            for i in range(6)]


def _px(x: float, y: float) -> tuple[float, float]:
    return MARGIN + SIZE * (x + 1.0), MARGIN + SIZE * (y + 1.0)


def _points(pts: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in pts)


CROSSING = frozenset({"road", "trail", "track"})
"""Hexside features drawn across the hexside, centre to centre (a road crossing it)."""


def _hexside_segment(a: PictureHex, b: PictureHex, feature: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where a hexside feature is drawn: along the shared edge, or across it for roads."""
    (ax, ay), (bx, by) = _px(a.x, a.y), _px(b.x, b.y)
    if feature in CROSSING:
        return (ax + (bx - ax) * 0.1, ay + (by - ay) * 0.1), (bx - (bx - ax) * 0.1, by - (by - ay) * 0.1)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    n = math.hypot(bx - ax, by - ay) or 1.0
    px_, py_ = -(by - ay) / n * SIZE / 2, (bx - ax) / n * SIZE / 2
    return (mx - px_, my - py_), (mx + px_, my + py_)


def _hexside_strokes(p: Picture) -> Iterable[tuple[PictureHexside, tuple[float, float], tuple[float, float],
                                                   tuple[str, float, str]]]:
    """Each drawable hexside feature with its segment and (colour, width, dash)."""
    by_id = p.hex_by_id()
    for s in p.hexsides:
        a, b = by_id.get(s.a), by_id.get(s.b)
        if a is None or b is None:
            continue
        start, end = _hexside_segment(a, b, s.feature)
        yield s, start, end, FEATURE_STYLES.get(s.feature, ("#777777", 3.0, "3 2"))


def _border_segments(p: Picture) -> Iterable[tuple[PictureHexside, tuple[float, float], tuple[float, float]]]:
    """Each region border with the shared edge of its two hexes."""
    by_id = p.hex_by_id()
    for s in p.borders:
        a, b = by_id.get(s.a), by_id.get(s.b)
        if a is not None and b is not None:
            yield (s, *_hexside_segment(a, b, "border"))


def _facing_triangle(cx: float, cy: float, half: float, orientation: str, facing: int) -> list[tuple[float, float]]:
    a = direction_angle(orientation, facing)
    return [(cx + math.cos(a) * half * 1.15, cy + math.sin(a) * half * 1.15),
            (cx + math.cos(a - 0.5) * half * 0.75, cy + math.sin(a - 0.5) * half * 0.75),
            (cx + math.cos(a + 0.5) * half * 0.75, cy + math.sin(a + 0.5) * half * 0.75)]


def _extent(p: Picture) -> tuple[float, float]:
    xs = [h.x for h in p.hexes] or [0.0]
    ys = [h.y for h in p.hexes] or [0.0]
    w = MARGIN * 2 + SIZE * (max(xs) + 2.0)
    h = MARGIN * 2 + SIZE * (max(ys) + 2.0)
    return w, h


def _side_style(p: Picture) -> dict[str, tuple[str, str, str]]:
    return {sid: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, (sid, _) in enumerate(p.sides)}


def _map_layer(p: Picture) -> list[str]:
    out = ['<g class="terrain">']
    for h in p.hexes:
        out.append(
            f'<polygon class="hex" data-hex="{xml_attr(h.id)}" data-terrain="{xml_attr(h.terrain)}" '
            f'points="{_points(_corners(h, p.orientation))}" fill="{terrain_colour(h.terrain)}" '
            'stroke="#8a8577" stroke-width="0.8"/>'
        )
    out.append("</g>")
    if p.borders:
        colour, width, dash = BORDER_STYLE
        out.append(f'<g class="borders" stroke="{colour}" stroke-width="{_fmt(width)}" stroke-dasharray="{dash}">')
        for s, (x1, y1), (x2, y2) in _border_segments(p):
            out.append(f'<line class="border" data-region="{xml_attr(s.feature)}" data-hexes="{xml_attr(s.a)} {xml_attr(s.b)}" '
                       f'x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}"/>')
        out.append("</g>")
    out.append('<g class="hexsides">')
    for s, (x1, y1), (x2, y2), (colour, width, dash) in _hexside_strokes(p):
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line class="hexside" data-feature="{xml_attr(s.feature)}" data-hexes="{xml_attr(s.a)} {xml_attr(s.b)}" '
            f'x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
            f'stroke="{colour}" stroke-width="{_fmt(width)}" stroke-linecap="round"{dash_attr}/>'
        )
    out.append("</g>")
    if p.lines:
        out.append('<g class="lines">')
        for ln in p.lines:
            (x1, y1), (x2, y2) = _px(ln.x1, ln.y1), _px(ln.x2, ln.y2)
            out.append(
                f'<line class="{xml_attr(ln.kind)}" x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
                'stroke="#b8860b" stroke-width="2" stroke-dasharray="5 4"/>'
            )
        out.append("</g>")
    out.append('<g class="numbers" font-family="sans-serif" font-size="7" fill="#6b675c" text-anchor="middle">')
    for h in p.hexes:
        cx, cy = _px(h.x, h.y)
        out.append(f'<text x="{_fmt(cx)}" y="{_fmt(cy - SIZE * 0.62)}">{xml(h.id)}</text>')
    out.append("</g>")
    return out


_NO_SIDE = ("#444444", "#eeeeee", "?")


@functools.lru_cache(maxsize=8192)
def _counter(c: Counter, h: PictureHex, orientation: str, style: tuple[str, str, str]) -> str:
    """One counter's SVG (kept: a replay draws the same counter on the same hex step after step)."""
    cx, cy = _px(h.x, h.y)
    ink, fill, letter = style
    half = SIZE * 0.5
    out = [f'<g class="counter" data-hex="{xml_attr(c.hex)}" data-side="{xml_attr(c.side)}" data-code="{xml_attr(c.code)}">']
    if c.detail:
        out.append(f"<title>{xml(c.detail)}</title>")
    face = "#bdbdbd" if c.hidden else fill
    out.append(
        f'<rect x="{_fmt(cx - half)}" y="{_fmt(cy - half * 0.8)}" width="{_fmt(2 * half)}" height="{_fmt(1.6 * half)}" '
        f'rx="3" fill="{face}" stroke="{ink}" stroke-width="1.6"/>'
    )
    if c.facing is not None and not c.hidden:
        tri = _facing_triangle(cx, cy, half, orientation, c.facing)
        out.append(f'<polygon class="facing" points="{_points(tri)}" fill="{ink}"/>')
    out.append(
        f'<text x="{_fmt(cx - half + 2)}" y="{_fmt(cy - half * 0.8 + 7)}" font-family="sans-serif" font-size="6" '
        f'font-weight="bold" fill="{ink}">{letter}</text>'
    )
    out.append(
        f'<text x="{_fmt(cx)}" y="{_fmt(cy + 2)}" font-family="sans-serif" font-size="9" font-weight="bold" '
        f'text-anchor="middle" fill="{ink}">{xml(c.code)}</text>'
    )
    if c.strength and not c.hidden:
        out.append(
            f'<text x="{_fmt(cx)}" y="{_fmt(cy + half * 0.7)}" font-family="sans-serif" font-size="6.5" '
            f'text-anchor="middle" fill="#222222">{xml(c.strength)}</text>'
        )
    if c.marks:
        out.append(
            f'<text x="{_fmt(cx + half - 2)}" y="{_fmt(cy - half * 0.8 + 7)}" font-family="sans-serif" font-size="6" '
            f'text-anchor="end" fill="#222222">{xml("".join(m[:1] for m in c.marks))}</text>'
        )
    out.append("</g>")
    return "\n".join(out)


def counter_layer(p: Picture, highlight: bool = True) -> str:
    """Markers, highlighted hexes (unless ``highlight`` is false) and counters:
    what changes from step to step."""
    return "\n".join(counter_pieces(p, highlight))


def counter_pieces(p: Picture, highlight: bool = True) -> list[str]:
    """The counter layer as its separate pieces, in drawing order: one SVG fragment
    per marker, highlighted hex and counter. Joined by newlines they are exactly
    :func:`counter_layer`; the HTML replay stores each distinct piece once."""
    p = upright(p)
    by_id = p.hex_by_id()
    styles = _side_style(p)
    out: list[str] = []
    for m in p.markers:
        h = by_id.get(m.hex)
        if h is None:
            continue
        cx, cy = _px(h.x, h.y)
        out.append(
            f'<text class="marker" data-hex="{xml_attr(m.hex)}" x="{_fmt(cx)}" y="{_fmt(cy + SIZE * 0.8)}" '
            f'font-family="sans-serif" font-size="7" font-style="italic" text-anchor="middle" fill="#5a3d1e">'
            f"{xml(m.text)}</text>"
        )
    for hid in sorted(p.highlight) if highlight else ():
        h = by_id.get(hid)
        if h is None:
            continue
        out.append(
            f'<polygon class="highlight" data-hex="{xml_attr(hid)}" points="{_points(_corners(h, p.orientation, 0.9))}" '
            f'fill="none" stroke="{HIGHLIGHT}" stroke-width="3"/>'
        )
    seen: dict[str, int] = {}
    for c in p.counters:
        h = by_id.get(c.hex)
        if h is None:
            continue
        k = seen.get(c.hex, 0)
        seen[c.hex] = k + 1
        if k:  # a second counter in the hex (a leader beside a unit): drawn offset
            h = PictureHex(h.id, h.x + 0.18 * k, h.y + 0.18 * k, h.terrain)
        out.append(_counter(c, h, p.orientation, styles.get(c.side, _NO_SIDE)))
    return out


def _legend(p: Picture, width: float, top: float) -> tuple[list[str], float]:
    out = ['<g class="legend" font-family="sans-serif" font-size="10" fill="#222222">']
    x, y = MARGIN, top + 14
    styles = _side_style(p)
    for sid, name in p.sides:
        ink, fill, letter = styles[sid]
        out.append(f'<rect x="{_fmt(x)}" y="{_fmt(y - 9)}" width="14" height="11" rx="2" fill="{fill}" stroke="{ink}"/>')
        out.append(f'<text x="{_fmt(x + 3)}" y="{_fmt(y)}" font-size="8" font-weight="bold" fill="{ink}">{letter}</text>')
        out.append(f"<text x=\"{_fmt(x + 20)}\" y=\"{_fmt(y)}\">{xml(name)}</text>")
        x += 30 + 6.5 * len(name)
    y += 18
    x = MARGIN
    for t in sorted({h.terrain for h in p.hexes}):
        if x + 110 > width:
            x, y = MARGIN, y + 16
        out.append(f'<rect x="{_fmt(x)}" y="{_fmt(y - 9)}" width="14" height="11" fill="{terrain_colour(t)}" stroke="#8a8577"/>')
        out.append(f'<text x="{_fmt(x + 20)}" y="{_fmt(y)}">{xml(t)}</text>')
        x += 30 + 6.5 * len(t)
    for f in sorted({s.feature for s in p.hexsides}):
        if x + 110 > width:
            x, y = MARGIN, y + 16
        colour, w, dash = FEATURE_STYLES.get(f, ("#777777", 3.0, "3 2"))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{_fmt(x)}" y1="{_fmt(y - 4)}" x2="{_fmt(x + 16)}" y2="{_fmt(y - 4)}" stroke="{colour}" '
                   f'stroke-width="{_fmt(w)}"{dash_attr}/>')
        out.append(f'<text x="{_fmt(x + 22)}" y="{_fmt(y)}">{xml(f)} (hexside)</text>')
        x += 80 + 6.5 * len(f)
    for f in sorted({s.feature for s in p.borders}):
        if x + 110 > width:
            x, y = MARGIN, y + 16
        colour, w, dash = BORDER_STYLE
        out.append(f'<line x1="{_fmt(x)}" y1="{_fmt(y - 4)}" x2="{_fmt(x + 16)}" y2="{_fmt(y - 4)}" stroke="{colour}" '
                   f'stroke-width="{_fmt(w)}" stroke-dasharray="{dash}"/>')
        out.append(f'<text x="{_fmt(x + 22)}" y="{_fmt(y)}">{xml(f)} border</text>')
        x += 80 + 6.5 * len(f)
    y += 18
    if p.highlight:
        out.append(f'<rect x="{_fmt(MARGIN)}" y="{_fmt(y - 9)}" width="14" height="11" fill="none" stroke="{HIGHLIGHT}" stroke-width="2"/>')
        out.append(f'<text x="{_fmt(MARGIN + 20)}" y="{_fmt(y)}">hexes of the current question</text>')
        y += 16
    for key, text in p.legend.items():
        out.append(f'<text x="{_fmt(MARGIN)}" y="{_fmt(y)}"><tspan font-weight="bold">{xml(key)}</tspan> {xml(text)}</text>')
        y += 14
    out.append("</g>")
    return out, y + 6


def svg_layers(p: Picture) -> tuple[str, str, float, float]:
    """(static map SVG body, counter layer, width, height of the map part), north up."""
    p = upright(p)
    w, h = _extent(p)
    return "\n".join(_map_layer(p)), counter_layer(p), w, h


def svg_document(p: Picture) -> str:
    """A standalone SVG of the picture, north up: title, map, counters, legend."""
    p = upright(p)
    w, h = _extent(p)
    head = 24.0 if p.title or p.status else 0.0
    legend, bottom = _legend(p, w, h + head)
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(w)}" height="{_fmt(bottom)}" '
        f'viewBox="0 0 {_fmt(w)} {_fmt(bottom)}">',
        f"<title>{xml(p.title)}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
    ]
    if head:
        parts.append(
            f'<text x="{_fmt(MARGIN)}" y="16" font-family="sans-serif" font-size="12" font-weight="bold">'
            f"{xml(p.title)}<tspan font-weight='normal'>  {xml(p.status)}</tspan></text>"
        )
    parts.append(f'<g transform="translate(0,{_fmt(head)})">')
    parts.extend(_map_layer(p))
    parts.append('<g class="counters">')
    parts.append(counter_layer(p))
    parts.append("</g></g>")
    parts.extend(legend)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_picture(p: Picture, path: Path, reads: Sequence[str | Path] = (), what: str = "picture") -> Path:
    """Write ``p`` as ``.svg`` (no dependency) or ``.png`` (rendered with matplotlib), as an
    output: never one of ``reads``, a save or through a link (ancients_kit/outputs.py)."""
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise DrawingError(f"{path}: name a .svg or .png file")
    check_output(path, reads=reads, what=what)
    if suffix == ".svg":
        return write_output(path, svg_document(p), reads=reads, what=what)
    _png(p, path, reads, what)
    return path


def _png(p: Picture, path: Path, reads: Sequence[str | Path], what: str) -> None:
    try:  # matplotlib is optional (the plots extra): loaded only to draw a PNG
        import matplotlib

        matplotlib.use("Agg", force=True)
        import matplotlib.pyplot as plt  # after use("Agg"): no display needed
        from matplotlib.patches import Polygon, Rectangle  # optional, as above
    except ImportError:
        raise DrawingError("--png needs matplotlib: pip install -e '.[plots]'") from None
    p = upright(p)
    w, h = _extent(p)
    fig = plt.figure(figsize=(w / 60, h / 60), dpi=120)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    ax.axis("off")
    by_id = p.hex_by_id()
    for hx in p.hexes:
        ax.add_patch(Polygon(_corners(hx, p.orientation), closed=True, facecolor=terrain_colour(hx.terrain),
                             edgecolor="#8a8577", linewidth=0.4))
        cx, cy = _px(hx.x, hx.y)
        ax.text(cx, cy - SIZE * 0.62, hx.id, fontsize=3.5, ha="center", va="center", color="#6b675c")
    for _, (x1, y1), (x2, y2) in _border_segments(p):
        ax.plot([x1, x2], [y1, y2], color=BORDER_STYLE[0], linewidth=BORDER_STYLE[1] / 2, linestyle=":")
    for _, (x1, y1), (x2, y2), (colour, width, dash) in _hexside_strokes(p):
        ax.plot([x1, x2], [y1, y2], color=colour, linewidth=width / 2,
                linestyle="--" if dash else "-", solid_capstyle="round")
    for ln in p.lines:
        (x1, y1), (x2, y2) = _px(ln.x1, ln.y1), _px(ln.x2, ln.y2)
        ax.plot([x1, x2], [y1, y2], color="#b8860b", linewidth=1, linestyle="--")
    for hid in p.highlight:
        hx = by_id.get(hid)
        if hx is not None:
            ax.add_patch(Polygon(_corners(hx, p.orientation, 0.9), closed=True, fill=False, edgecolor=HIGHLIGHT,
                                 linewidth=1.5))
    styles = _side_style(p)
    for c in p.counters:
        hx = by_id.get(c.hex)
        if hx is None:
            continue
        cx, cy = _px(hx.x, hx.y)
        ink, fill, letter = styles.get(c.side, ("#444444", "#eeeeee", "?"))
        half = SIZE * 0.5
        ax.add_patch(Rectangle((cx - half, cy - half * 0.8), 2 * half, 1.6 * half,
                               facecolor="#bdbdbd" if c.hidden else fill, edgecolor=ink, linewidth=0.8))
        ax.text(cx, cy, c.code, fontsize=4.5, fontweight="bold", ha="center", va="center", color=ink)
        ax.text(cx - half + 2, cy - half * 0.8 + 4, letter, fontsize=3, fontweight="bold", color=ink, va="center")
        if c.strength and not c.hidden:
            ax.text(cx, cy + half * 0.55, c.strength, fontsize=3.2, ha="center", va="center")
        if c.facing is not None and not c.hidden:
            ax.add_patch(Polygon(_facing_triangle(cx, cy, half, p.orientation, c.facing), closed=True,
                                 facecolor=ink, edgecolor="none"))
    write_figure(fig, path, reads=reads, what=what, dpi=120)
    plt.close(fig)


CLASS_COLOURS = ("#6a3d9a", "#bdbdbd", "#fdbf6f", "#ff7f00", "#e31a1c")
"""Fills of the common outcome classes of ``ancients compare``, defender's best to worst."""


def class_bars_svg(title: str, classes: Iterable[str], rows: Iterable[tuple[str, dict[str, float]]]) -> str:
    """Stacked bars, one per game, of the common outcome classes (``ancients compare --plot``).

    Written by hand rather than by matplotlib so that the figure is the same
    bytes on every machine (the documentation's figures are checked).
    """
    names = list(classes)
    data = list(rows)
    label_w, bar_w, row_h = 230.0, 460.0, 34.0
    width = MARGIN * 2 + label_w + bar_w
    height = 40 + row_h * len(data) + 24 * ((len(names) + 2) // 3) + 20
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(width)}" height="{_fmt(height)}" '
        f'viewBox="0 0 {_fmt(width)} {_fmt(height)}" font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<text x="{_fmt(MARGIN)}" y="18" font-size="12" font-weight="bold">{xml(title)}</text>',
    ]
    for i, (label, shares) in enumerate(data):
        y = 32 + i * row_h
        first, _, second = label.partition("\n")
        out.append(f'<text x="{_fmt(MARGIN)}" y="{_fmt(y + 11)}">{xml(first)}</text>')
        if second:
            out.append(f'<text x="{_fmt(MARGIN)}" y="{_fmt(y + 23)}" font-size="9" fill="#555555">{xml(second)}</text>')
        x = MARGIN + label_w
        for name, colour in zip(names, CLASS_COLOURS):
            w = bar_w * shares.get(name, 0.0)
            if w <= 0:
                continue
            out.append(f'<rect class="share" data-class="{xml_attr(name)}" x="{_fmt(x)}" y="{_fmt(y)}" '
                       f'width="{_fmt(w)}" height="{_fmt(row_h - 8)}" fill="{colour}"><title>{xml(name)}: '
                       f'{shares[name]:.1%}</title></rect>')
            if w > 34:
                out.append(f'<text x="{_fmt(x + w / 2)}" y="{_fmt(y + 17)}" text-anchor="middle">{shares[name]:.0%}</text>')
            x += w
    y = 40 + row_h * len(data)
    for j, (name, colour) in enumerate(zip(names, CLASS_COLOURS)):
        cx = MARGIN + (j % 3) * 230
        cy = y + (j // 3) * 20
        out.append(f'<rect x="{_fmt(cx)}" y="{_fmt(cy)}" width="12" height="12" fill="{colour}"/>')
        out.append(f'<text x="{_fmt(cx + 18)}" y="{_fmt(cy + 10)}">{xml(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
