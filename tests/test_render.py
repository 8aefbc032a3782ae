"""Terminal map drawing: layout, labels, styles, legend."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ancients_kit.hexgrid import Hex, Numbering
from ancients_kit.hexmap import HexMap
from ancients_kit.render import (
    DEFAULT_TERRAIN_STYLES,
    facing_arrow,
    render_legend,
    render_map,
    terrain_style,
)


def _styles_at(text: Text, start: int, end: int) -> set[str]:
    return {str(s.style) for s in text.spans if s.start <= start and s.end >= end}


def _position(text: Text, needle: str) -> int:
    i = text.plain.find(needle)
    assert i >= 0, needle
    return i


def test_flat_30x20_fits_120_columns() -> None:
    n = Numbering("flat", "even", 30, 20)
    m = HexMap.build(n, terrain={n.from_id("0304"): "hill"})
    t = render_map(m)
    lines = t.plain.split("\n")
    assert max(len(x) for x in lines) <= 120
    assert len(lines) == 2 * 20 + 1
    for h in n.hexes():
        assert n.to_id(h) in t.plain
    # shifted (even) columns sit one line lower than their odd neighbours
    top = lines[0]
    assert top.startswith("0101") and "0201" not in top and "0201" in lines[1]
    # the hill is styled as a hill, a clear hex as clear
    i = _position(t, "0304")
    assert DEFAULT_TERRAIN_STYLES["hill"] in _styles_at(t, i, i + 4)
    j = _position(t, "0303")
    assert DEFAULT_TERRAIN_STYLES["clear"] in _styles_at(t, j, j + 4)
    # a rich console renders it without wrapping
    console = Console(width=120, record=True, color_system=None)
    console.print(t)
    assert console.export_text().count("\n") == len(lines)


def test_labels_and_highlight() -> None:
    n = Numbering("flat", "odd", 6, 4)
    m = HexMap.build(n)
    unit = n.from_id("0302")
    north = n.direction_from_name("N")

    def label(h: Hex) -> str:
        return "LG" + facing_arrow(n, north) if h == unit else n.to_id(h)

    t = render_map(m, label, highlight={n.from_id("0402")}, cell=6)
    assert "LG↑" in t.plain and "0302" not in t.plain
    i = _position(t, "0402")
    assert any("reverse" in s for s in _styles_at(t, i, i + 4))
    k = _position(t, "0401")
    assert not any("reverse" in s for s in _styles_at(t, k, k + 4))


def test_pointy_rows_are_staggered() -> None:
    n = Numbering("pointy", "even", 13, 9, short_rows=True)
    m = HexMap.build(n, terrain={n.from_id("0505"): "forest"})
    t = render_map(m)
    lines = t.plain.split("\n")
    assert len(lines) == 9
    assert lines[0].split() == [f"{c:02d}01" for c in range(1, 14)]
    assert lines[1].split() == [f"{c:02d}02" for c in range(1, 13)]
    # a shifted row starts half a cell further right
    assert lines[1].index("0102") - lines[0].index("0101") == 3
    i = _position(t, "0505")
    assert DEFAULT_TERRAIN_STYLES["forest"] in _styles_at(t, i, i + 4)


def test_style_callable_overrides_terrain() -> None:
    n = Numbering("flat", "even", 3, 3)
    m = HexMap.build(n, terrain={n.from_id("0202"): "bog"})
    t = render_map(m, style=lambda h: "on red" if h == n.from_id("0101") else None)
    i = _position(t, "0101")
    assert "on red" in _styles_at(t, i, i + 4)
    # unknown terrain names still get a (stable) colour
    st1 = terrain_style(m)(n.from_id("0202"))
    assert st1 and st1 == terrain_style(m)(n.from_id("0202"))


def test_legend_lists_terrain_and_features() -> None:
    n = Numbering("flat", "even", 4, 4)
    m = HexMap.build(n, terrain={n.from_id("0101"): "forest", n.from_id("0202"): "town"})
    t = render_legend(m, features={"river": "+2 MP to cross"})
    for word in ("clear", "forest", "town", "river: +2 MP to cross"):
        assert word in t.plain


def test_facing_arrows_follow_direction_names() -> None:
    flat = Numbering("flat", "even", 2, 2)
    pointy = Numbering("pointy", "even", 2, 2)
    assert facing_arrow(flat, flat.direction_from_name("S")) == "↓"
    assert facing_arrow(pointy, pointy.direction_from_name("E")) == "→"
    assert facing_arrow(pointy, pointy.direction_from_name("W")) == "←"


def test_pointy_with_sublabel_draws_two_lines_per_row() -> None:
    n = Numbering("pointy", "odd", 5, 3)
    m = HexMap.build(n)
    t = render_map(m, sublabel=lambda h: "x" if h == n.from_id("0302") else "")
    lines = t.plain.split("\n")
    assert len(lines) == 6
    assert "0302" in lines[2] and lines[3].strip() == "x"
    assert lines[3].index("x") == lines[2].index("0302") + 1  # centred under its label
