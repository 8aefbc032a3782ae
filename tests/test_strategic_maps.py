"""The maps a strategic player reads (issue 23 item 6).

LDF: the Rhine and the Danube (13.8, 12.7, 11.1) and the borders between regions
(1.4, 9.5-9.7, 14.3) are drawn as hexsides, on the text map (``ancients show``,
line mode) and on the full-screen table's grid, and in the SVG. Xenophon: the
sheet, printed with north to the right, is drawn north up by default; the
rotated layout (the sheet as printed) stays available. Both maps are readable
at 160 columns and usable at 100.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from rich.console import Console
from rich.style import Style
from rich.text import Text

from ancients_kit.drawing import svg_document
from ancients_kit.picture import Picture, PictureHexside, upright
from ancients_kit.render import EDGE_BAR, cell_places
from ancients_kit.session import Session
from ancients_kit.tui.view import BORDER, EDGE_STYLES, LAYOUT_ENV, MapGrid, viewport


@pytest.fixture(scope="module")
def ldf() -> Session:
    return Session.new("ldf", "campaign", seed=1)


@pytest.fixture(scope="module")
def xen() -> Session:
    return Session.new("xenophon", "cyrus-revolt", seed=1)


@pytest.fixture(autouse=True)
def _no_standing_choice(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv(LAYOUT_ENV, raising=False)
    yield


def styled_chars(text: Text, width: int = 400) -> list[list[tuple[str, Style]]]:
    """Each line of ``text`` as (character, style) pairs, as a terminal draws them."""
    console = Console(width=width, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    out = []
    for line in console.render_lines(text, console.options.update(width=width), pad=False):
        out.append([(ch, seg.style or Style()) for seg in line for ch in seg.text])
    return out


def pairs(sides: tuple[PictureHexside, ...], feature: str | None = None) -> set[frozenset[str]]:
    return {frozenset((s.a, s.b)) for s in sides if feature is None or s.feature == feature}


# ---------------------------------------------------------------- LDF: the picture


@pytest.mark.rule("ldf:13.8", "ldf:12.7", "ldf:11.1")
def test_ldf_picture_carries_the_rhine_and_the_danube_between_the_right_hexes(ldf: Session) -> None:
    pic = ldf.game.picture(ldf.state, None)
    rhine, danube = pairs(pic.hexsides, "rhine"), pairs(pic.hexsides, "danube")
    # the map data (games/ldf/data/map.toml): Trier 3114 on the Rhine against 3214; the Danube
    # between Germania Decumates 3215 and 3315 and between Vindobona 3515 and 3514
    assert frozenset(("3114", "3214")) in rhine and frozenset(("3215", "3315")) in danube
    assert frozenset(("3514", "3515")) in danube
    m = ldf.state.map
    for side in m.hexsides_with("rhine") | m.hexsides_with("danube"):
        a, b = side.hexes()
        assert frozenset((m.to_id(a), m.to_id(b))) in rhine | danube
    assert len(rhine) == len(m.hexsides_with("rhine")) and len(danube) == len(m.hexsides_with("danube"))


@pytest.mark.rule("ldf:1.4", "ldf:9.5", "ldf:9.6", "ldf:14.3")
def test_ldf_region_borders_lie_between_hexes_of_different_regions(ldf: Session) -> None:
    pic = ldf.game.picture(ldf.state, None)
    data, m = ldf.state.data, ldf.state.map
    got = pairs(pic.borders)
    assert got
    ignored = {"mediterranean-islands"}

    def regions(hid: str) -> frozenset[str]:
        return frozenset(data.regions_of(hid)) - ignored

    want = set()
    for h in m.hexes():
        for n in m.adjacency[h]:
            a, b = m.to_id(h), m.to_id(n)
            if regions(a) and regions(b) and regions(a) != regions(b):
                want.add(frozenset((a, b)))
    assert got == want
    # the Roman frontier (core | barbaria), the Gallic Empire's edge inside the core (9.5: 3315 is Gallic,
    # 3416 is not), Italy's northern edge (14.3: 3217 Mediolanum against 3117), the Caucasus states (9.6)
    assert frozenset(("3114", "3113")) in got
    assert frozenset(("3315", "3416")) in got
    assert frozenset(("3117", "3217")) in got
    assert frozenset(("4717", "4718")) in got  # Colchis | Armenia
    # no border along a coast, none between two hexes of the same regions
    assert all(regions(s.a) and regions(s.b) for s in pic.borders)
    assert frozenset(("3317", "3318")) not in got  # Italy on both sides


@pytest.mark.rule("ldf:13.8", "ldf:1.4")
def test_ldf_svg_draws_the_rivers_and_the_borders(ldf: Session) -> None:
    svg = svg_document(ldf.game.picture(ldf.state, None))
    assert 'class="border" data-region="region" data-hexes="3113 3114"' in svg
    assert 'data-feature="rhine" data-hexes=' in svg and 'stroke="#1f5fbf"' in svg
    assert "region border" in svg


# ---------------------------------------------------------------- LDF: the text map


def _ldf_grid_lines(ldf: Session) -> list[list[tuple[str, Style]]]:
    text = ldf.game.render(ldf.state, None)
    return styled_chars(text)[1:]  # below the column numbers


@pytest.mark.rule("ldf:13.8", "ldf:12.7")
def test_ldf_text_map_draws_the_danube_on_the_hexside_between_its_hexes(ldf: Session) -> None:
    lines = _ldf_grid_lines(ldf)
    m = ldf.state.map
    places = cell_places(m, 4)
    # the Danube runs between 3614 and 3615, one above the other (same column): the upper hex's
    # bottom line is underlined in the river's blue, across the cell
    x, y = places[m.from_id("3614")]
    assert places[m.from_id("3615")] == (x, y + 2)
    bottom = lines[y + 1][x:x + 4]
    assert all(st.underline for _, st in bottom)
    blue = Style.parse("dodger_blue1").color
    assert any(st.color == blue for ch, st in bottom if ch == " ")
    # 3415 and 3515 (next columns) meet side by side on one line: a bar where they meet
    xa, ya = places[m.from_id("3415")]
    xb, yb = places[m.from_id("3515")]
    line = max(ya, yb)
    where = [lines[line][xa + 3], lines[line][xb]]
    assert any(ch == EDGE_BAR and st.color == blue for ch, st in where)
    # inside Italy (3418 over 3419, same regions, no river) no stroke
    xr, yr = places[m.from_id("3418")]
    assert places[m.from_id("3419")] == (xr, yr + 2)
    assert not any(st.underline for _, st in lines[yr + 1][xr:xr + 4])


@pytest.mark.rule("ldf:9.5")
def test_ldf_text_map_draws_a_region_border(ldf: Session) -> None:
    lines = _ldf_grid_lines(ldf)
    m = ldf.state.map
    places = cell_places(m, 4)
    white = Style.parse("grey89").color
    # Italy's northern edge (14.3): 3216 (the core) over 3217 Mediolanum (Italy), one above the other
    x, y = places[m.from_id("3216")]
    assert places[m.from_id("3217")] == (x, y + 2)
    assert frozenset(ldf.state.data.regions_of("3216")) != frozenset(ldf.state.data.regions_of("3217"))
    bottom = lines[y + 1][x:x + 4]
    assert all(st.underline for _, st in bottom) and any(st.color == white for ch, st in bottom if ch == " ")


def test_ldf_text_map_reads_at_160_and_the_line_mode_grid_at_100(ldf: Session) -> None:
    text = ldf.game.render(ldf.state, None)
    assert max(len(line) for line in text.plain.split("\n")) <= 160
    pic = ldf.game.picture(ldf.state, None)
    narrow = viewport(pic, 100, ("3318",)).plain.split("\n")
    grid = MapGrid(pic, zoom=0)
    assert grid.width <= 100  # line mode at 100 columns shows the whole grid, strokes included
    assert all(len(line) <= 100 for line in narrow[:grid.height])
    assert "hexsides" in grid.legend() and "region borders" in grid.legend()


# ---------------------------------------------------------------- the table's grid


@pytest.mark.parametrize("zoom", (1, 0))
def test_table_grid_strokes_the_rhine_danube_and_borders_between_their_cells(ldf: Session, zoom: int) -> None:
    pic = ldf.game.picture(ldf.state, None)
    grid = MapGrid(pic, zoom=zoom)
    blue = EDGE_STYLES["danube"]
    strokes = {(line, c): (how, style) for line, first, last, how, style in grid.edges for c in range(first, last)}
    assert len(grid.edges) >= len(pic.borders)
    # the Danube between 3514 and 3515: 3515 is the hex below (same column, flat map): the gap stroke
    # between them; between 3415 and 3515 (3415 the upper left neighbour): the upper cell's bottom edge
    (c1, r1), (c2, r2) = grid.cells["3514"], grid.cells["3515"]
    assert c1 == c2 and r2 == r1 + 2 * grid.cell_h
    gap = [strokes.get((line, c1 + grid.cell_w // 2 - 1)) for line in range(r1 + grid.cell_h, r2)]
    assert any(s is not None and s[1] == blue for s in gap)
    (ca, ra), (cb, rb) = grid.cells["3415"], grid.cells["3515"]
    assert rb == ra + grid.cell_h  # one above the other, overlapping by half a cell
    assert (ra + grid.cell_h - 1, cb, ca + grid.cell_w, "_", blue) in grid.edges
    # drawn: the characters there are underlined in the river's colour; labels are kept
    runs = grid.runs()
    plain = MapGrid(Picture(pic.orientation, pic.hexes, pic.counters), zoom=zoom).render().plain.split("\n")
    drawn = grid.render().plain.split("\n")
    for a, b in zip(plain, drawn):  # a stroke never replaces a letter
        assert all(x == y or (x == " " and y in "│─") for x, y in zip(a, b))
    line = runs[ra + grid.cell_h - 1]
    chars = [(ch, st) for text, st in line for ch in text]
    assert all(st is not None and st.underline for ch, st in chars[cb:ca + grid.cell_w] if ch not in "│─")
    # a region border (3113 Barbaria | 3114 Trier, on the Rhine too: the river is drawn over it)
    assert any(s == BORDER for _, s in strokes.values())


def test_table_grid_keeps_hex_at_and_step(ldf: Session, xen: Session) -> None:
    for s in (ldf, xen):
        grid = MapGrid(s.game.picture(s.state, None), zoom=1)
        for hid, (c, r) in list(grid.cells.items())[::37]:
            assert grid.hex_at(c, r) == hid and grid.hex_at(c + grid.cell_w - 2, r + grid.cell_h - 1) == hid
    grid = MapGrid(xen.game.picture(xen.state, None), zoom=1)
    # north up: the hex above 2908 on screen is further north (a higher column), east is the next row
    assert int(grid.step("2908", 0, -1)[:2]) > 29
    assert grid.step("2908", 1, 0) == "2909"


# ---------------------------------------------------------------- Xenophon: north up


@pytest.mark.rule("xen:components")
def test_xenophon_picture_says_north_is_to_the_right_and_draws_north_up(xen: Session) -> None:
    pic = xen.game.picture(xen.state, None)
    assert pic.north == 1 and pic.orientation == "flat"
    up = upright(pic)
    assert up.north == 0 and up.orientation == "pointy"
    by_id = up.hex_by_id()
    # north (a higher column) is higher on screen; east (a higher row) further right
    assert by_id["3008"].y < by_id["2908"].y and by_id["2909"].x > by_id["2908"].x
    assert upright(up) is up and upright(pic).hexes is up.hexes  # turned once per map
    grid = MapGrid(pic, zoom=1)
    assert not grid.rotated and grid.picture.orientation == "pointy"
    assert grid.cells["3008"][1] < grid.cells["2908"][1] and grid.cells["2909"][0] > grid.cells["2908"][0]
    assert "north up" in grid.legend()
    svg = svg_document(pic)
    assert svg == svg_document(up)  # the SVG is north up too


def test_xenophon_rotated_layout_stays_available(xen: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    from ancients_games.xenophon.render import render

    pic = xen.game.picture(xen.state, None)
    grid = MapGrid(pic, zoom=1, north_up=False)
    assert grid.rotated and grid.picture is pic and "north to the right" in grid.legend()
    assert grid.cells["2909"][1] > grid.cells["2908"][1]  # rows run down the screen, as printed
    monkeypatch.setenv(LAYOUT_ENV, "rotated")  # the player's standing choice
    assert MapGrid(pic, zoom=1).rotated
    assert "north to the right, as the sheet is printed" in render(xen.state, None).plain
    monkeypatch.setenv(LAYOUT_ENV, "north-up")
    assert not MapGrid(pic, zoom=0, room=100).rotated
    monkeypatch.delenv(LAYOUT_ENV)
    # automatic: north up when it fits the room, else the sheet as printed when that fits
    assert not MapGrid(pic, zoom=0, room=210).rotated
    assert MapGrid(pic, zoom=0, room=100).rotated
    assert "north to the right" in render(xen.state, None, layout="rotated").plain
    with pytest.raises(ValueError, match="map layout"):
        render(xen.state, None, layout="sideways")


def test_xenophon_text_map_is_north_up_and_reads_at_160(xen: Session) -> None:
    from ancients_games.xenophon.render import render, short_abbreviation

    text = render(xen.state, None).plain
    lines = text.split("\n")
    assert max(len(line) for line in lines) <= 160
    assert "north up" in text
    assert lines[0].split()[:3] == ["01", "02", "03"]  # the rows west to east along the top
    first = [line[:2] for line in lines[1:41:2]]
    assert first == sorted(first, reverse=True)  # the columns north (top) to south
    whole = render(xen.state, None, rows=50).plain
    assert "hex columns 01-40 of 01-40" in whole
    for sat in xen.state.data.satrapies:
        assert sat in whole and short_abbreviation(xen.state.data, sat) in whole
    assert len({short_abbreviation(xen.state.data, s) for s in xen.state.data.satrapies}) == 34


def test_xenophon_text_map_draws_satrapy_borders_and_rivers(xen: Session) -> None:
    from ancients_games.xenophon.render import borders, render

    m = xen.state.map
    bs = borders(xen.state)
    assert bs and all(xen.state.data.satrapy_of[b.a] != xen.state.data.satrapy_of[b.b] for b in bs)
    pic = xen.game.picture(xen.state, None)
    assert pairs(pic.borders) == pairs(bs)
    text = render(xen.state, None, rows=50)
    chars = styled_chars(text)
    places = cell_places(m, 3, turned=True)
    river = next(iter(sorted(m.hexsides_with("river"))))
    a, b = river.hexes()
    (xa, ya), (xb, yb) = sorted((places[a], places[b]), key=lambda p: (p[1], p[0]))
    blue = Style.parse("dodger_blue1").color
    prefix = 3  # the column numbers on the left
    if ya == yb:  # side by side: a bar where they meet
        left = min(xa, xb)
        spots = [chars[1 + ya][prefix + left + 2], chars[1 + ya][prefix + left + 3]]
        assert any(ch == EDGE_BAR and st.color == blue for ch, st in spots)
    else:  # one above the other: the upper cell's bottom line underlined where they overlap
        over = chars[1 + ya + 1][prefix + max(xa, xb):prefix + min(xa, xb) + 3]
        assert over and all(st.underline for _, st in over)


def test_xenophon_usable_at_100_columns(xen: Session) -> None:
    pic = xen.game.picture(xen.state, None)
    # line mode at 100 columns: the text map is too wide, the grid that fits is the sheet as printed
    text = viewport(pic, 100, ("2908",)).plain
    body = text.split("\n")
    grid = MapGrid(pic, zoom=0, room=100)
    assert grid.rotated and grid.width <= 100
    assert all(len(line) <= 100 for line in body[:grid.height]) and "centred" not in text
    assert "north to the right, as the sheet is printed" in text
    # the table's grid (no room given) is north up and scrolls
    assert MapGrid(pic, zoom=0).width > 100 and not MapGrid(pic, zoom=0).rotated
