"""What the players' table shows, as plain data: no Textual here.

The full-screen game (:mod:`ancients_kit.tui.app`) and the line-mode prompt
(:mod:`ancients_kit.cli.play`) share these helpers, so both show the same
odds, the same log filters and the same inspector text:

- :class:`MapGrid` lays any game's :class:`~ancients_kit.picture.Picture` out
  on a character grid (every hex a cell of a few characters, staggered as on
  the board, north up), draws it as rich text with its hexside features
  (rivers) and region borders, the cursor and the current question's hexes
  marked, and maps a screen cell back to its hex (mouse clicks) or a hex to
  its neighbour on screen (arrow keys);
- :func:`decision_odds` asks the game (``Game.decision_odds``) for the exact
  outcome distribution of answering a question one way, and
  :func:`odds_lines` prints it as ``ancients odds`` does;
- :func:`log_rows` numbers the log by turn and filters it by turn and side;
- :func:`inspect_hex` describes a hex: terrain, hexsides, markers and every
  counter's details.
"""

from __future__ import annotations

import inspect
import itertools
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
from rich.style import Style
from rich.text import Text

from ancients_kit.log import Event
from ancients_kit.picture import Picture, PictureHex, PictureHexside, upright
from ancients_kit.plugin import OddsReport
from ancients_kit.probability import probability_percent

__all__ = [
    "LogRow",
    "MapGrid",
    "PhaseWatch",
    "decision_odds",
    "inspect_hex",
    "kept",
    "log_rows",
    "odds_lines",
    "odds_notes",
    "viewport",
    "side_letters",
    "terrain_letters",
]

SIDE_STYLES = ("bold bright_red", "bold bright_cyan", "bold bright_yellow", "bold bright_magenta")
"""Counter text colours by side order; the side *letter* tells them apart without colour."""
TERRAIN_STYLES = {
    "clear": "on grey15", "open": "on grey15", "plain": "on grey15", "countryside": "on grey15",
    "forest": "on dark_green", "woods": "on dark_green", "wood": "on dark_green",
    "hill": "on orange4", "hills": "on orange4", "rough": "on grey30", "broken": "on grey30",
    "river": "on navy_blue", "water": "on navy_blue", "ford": "on dodger_blue3", "lake": "on navy_blue",
    "marsh": "on dark_olive_green3", "swamp": "on dark_olive_green3", "town": "on purple4",
    "camp": "on dark_red", "fortified camp": "on dark_red", "bridge": "on steel_blue",
    "sea": "on navy_blue", "land": "on grey23", "desert": "on dark_goldenrod",
}
SPARE_STYLES = ("on grey23", "on dark_cyan", "on dark_goldenrod", "on purple4", "on dark_orange3", "on grey35")
SECTION = "┊"
"""The character of a section line on the grid."""
HIGHLIGHT = Style(bgcolor="khaki1", color="black", bold=True)
CURSOR = Style(reverse=True, bold=True, underline=True)
LAYOUT_ENV = "ANCIENTS_MAP_LAYOUT"
"""The player's standing choice of layout for a sheet printed with north elsewhere than at the
top (Xenophon's): ``north-up``, ``printed`` (the sheet as printed: Xenophon's rotated layout)
or ``auto`` (the default: north up when it fits the room given, else as printed if that fits)."""
EDGE_STYLES: dict[str, Style] = {
    "rhine": Style(color="dodger_blue1", bold=True), "danube": Style(color="dodger_blue1", bold=True),
    "river": Style(color="dodger_blue1", bold=True), "stream": Style(color="sky_blue2"),
    "euphrates": Style(color="sky_blue2"), "tigris": Style(color="sky_blue2"), "nile": Style(color="sky_blue2"),
    "lake": Style(color="dodger_blue1", bold=True), "strait": Style(color="bright_cyan", bold=True),
    "sea": Style(color="cyan"), "ford": Style(color="bright_cyan"), "bridge": Style(color="grey70"),
    "wall": Style(color="bright_white", bold=True), "cliff": Style(color="orange1"), "slope": Style(color="tan"),
}
"""Colour of each hexside feature's stroke on the grid; unknown features are drawn blue."""
EDGE_ORDER = ("bridge", "ford", "rhine", "danube", "river", "lake", "strait", "euphrates", "tigris", "nile", "stream",
              "wall", "cliff", "slope", "sea")
"""Which feature a hexside shows when it carries several (a bridge over a river shows the bridge)."""
BORDER = Style(color="grey89", bold=True)
"""Colour of a region border's stroke (features are drawn over it)."""
CROSSING = frozenset({"road", "trail", "track"})
"""Features that cross a hexside rather than lie along it: not drawn as strokes on the grid."""
EDGE_BAR = "│"
"""The stroke of a hexside seen upright on the grid (between two cells on the same lines)."""
EDGE_DASH = "─"
"""The stroke of a hexside seen across a one-line gap between two cells (flat maps' N/S sides at zoom 0)."""


def terrain_letters(picture: Picture) -> dict[str, str]:
    """Terrain name -> one letter for the map legend: its first letter, or the
    next unused letter of its name (clear ground is ``.``)."""
    names = sorted({h.terrain for h in picture.hexes})
    used: set[str] = set()
    out: dict[str, str] = {}
    for name in names:
        if name.lower() in ("clear", "open", "plain"):
            out[name] = "."
            continue
        letter = next((c for c in name.lower() if c.isalpha() and c not in used), None)
        if letter is None:
            letter = next(c for c in "0123456789*#%&" if c not in used)
        used.add(letter)
        out[name] = letter
    return out


def side_letters(picture: Picture, counters_sides: Iterable[str] = ()) -> dict[str, str]:
    """Side ID -> a capital letter that tells the sides apart without colour
    (the first letter of the side's name, or of its ID, or A, B, ...)."""
    sides = [s for s, _ in picture.sides] + [s for s in counters_sides if s not in dict(picture.sides)]
    names = dict(picture.sides)
    out: dict[str, str] = {}
    for i, side in enumerate(dict.fromkeys(sides)):
        for cand in (names.get(side, side)[:1].upper(), side[:1].upper(), "ABCDEFGH"[i % 8]):
            if cand.isalpha() and cand not in out.values():
                out[side] = cand
                break
        else:
            out[side] = str(i + 1)
    return out


@attrs.define(eq=False)
class _Plan:
    """What a layout's lines are drawn from, and what they showed when last drawn."""

    rows: list[list[PictureHex]]
    """The hexes whose cells cover each line, in the picture's order."""
    edges: list[list[tuple[int, int, str, Style]]]
    """The strokes on each line: (first column, last column + 1, how, style) (:attr:`MapGrid.edges`)."""
    sections: list[list[int]]
    """The columns of each line where a section line may be drawn."""
    drawn: dict[int, tuple[tuple[Any, ...], list[tuple[str, Style | None]]]] = attrs.field(factory=dict)
    """Line -> what was on it (each hex's terrain, top counter, mark and cursor) and its runs."""


@attrs.define
class MapGrid:
    """A picture laid out on a character grid.

    ``zoom`` 1 gives each hex two lines of eight characters (its ID and
    terrain letter above, the side letter and counter code below); ``zoom`` 0
    gives it one line of four (the counter, or the terrain letter).

    Hexside features (rivers) and region borders are strokes on the edges of the
    cells: an underline where two cells meet one above the other, a bar in the
    blank column between two cells side by side, a dash in the gap between a
    flat hex and the hex below it.

    A picture whose sheet is printed with north elsewhere (Xenophon's) is drawn
    north up when ``north_up`` is true, as printed when false; with ``None``
    (the default) the player's :data:`LAYOUT_ENV` decides, and failing that it is
    drawn north up unless ``room`` (the columns the grid may fill) is given, the
    north-up grid is wider and the printed one fits.
    """

    picture: Picture
    """What is drawn: the picture given, turned north up when the grid draws it so."""
    zoom: int = 1
    north_up: bool | None = None
    room: int | None = None
    cells: dict[str, tuple[int, int]] = attrs.field(init=False, factory=dict)
    """Hex ID -> (column, line) of its cell's top left corner."""
    width: int = attrs.field(init=False, default=0)
    height: int = attrs.field(init=False, default=0)
    terrain: dict[str, str] = attrs.field(init=False, factory=dict)
    sides: dict[str, str] = attrs.field(init=False, factory=dict)
    sheet: Picture | None = attrs.field(init=False, default=None)
    """The picture as given (laid out as its sheet is printed)."""
    rotated: bool = attrs.field(init=False, default=False)
    """True when a sheet printed with north elsewhere is drawn as printed (Xenophon's rotated layout)."""
    edges: list[tuple[int, int, int, str, Style]] = attrs.field(init=False, factory=list)
    """The strokes of hexside features and borders: (line, first column, last column + 1, how, style),
    how being ``_`` (underline those characters), :data:`EDGE_BAR` or :data:`EDGE_DASH` (that character)."""
    _plans: dict[tuple[Any, ...], _Plan] = attrs.field(init=False, factory=dict, repr=False, eq=False)
    """The drawing plans of this layout (shared by every grid laid out the same), by letters and section lines."""
    _plan_here: _Plan | None = attrs.field(init=False, default=None, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        self.sheet = self.picture
        if self.picture.north % 4:
            turn = self.north_up
            if turn is None:
                turn = self._north_up_fits()
            if turn:
                self.picture = upright(self.picture)
            self.rotated = not turn
        self.terrain = terrain_letters(self.picture)
        self.sides = side_letters(self.picture, (c.side for c in self.picture.counters))
        self.layout()

    def _north_up_fits(self) -> bool:
        """The automatic choice: the player's standing choice, else north up unless ``room`` is
        too narrow for it and wide enough for the sheet as printed."""
        choice = os.environ.get(LAYOUT_ENV, "auto").strip().lower()
        if choice in ("printed", "rotated"):
            return False
        if choice == "north-up" or self.room is None:
            return True
        if _grid_width(upright(self.picture), self.cell_w) <= self.room:
            return True
        return _grid_width(self.picture, self.cell_w) > self.room

    @property
    def cell_w(self) -> int:
        return 8 if self.zoom else 4

    @property
    def cell_h(self) -> int:
        return 2 if self.zoom else 1

    def layout(self) -> None:
        """Place every hex (the staggered axis advances half a cell per step) and the strokes
        of its hexsides."""
        hexes = self.picture.hexes
        if not hexes:
            return
        key = (id(hexes), id(self.picture.hexsides), id(self.picture.borders), self.picture.orientation, self.zoom)
        kept = _LAID_OUT.get(key)
        if kept is not None and all(a is b for a, b in zip(kept[0], (hexes, self.picture.hexsides,
                                                                      self.picture.borders))):
            _, cells, self.width, self.height, edges, self._plans = kept
            self.cells, self.edges = dict(cells), list(edges)
            return
        self._lay_out()
        if len(_LAID_OUT) > 32:
            _LAID_OUT.clear()
        _LAID_OUT[key] = ((hexes, self.picture.hexsides, self.picture.borders), dict(self.cells), self.width,
                          self.height, tuple(self.edges), self._plans)

    def _lay_out(self) -> None:
        """:meth:`layout` for a picture not laid out before."""
        hexes = self.picture.hexes
        flat = self.picture.orientation == "flat"
        # Flat-topped hexes: columns 1.5 apart, a column's neighbours half a hex (sqrt 3 / 2) lower.
        # Pointy-topped hexes: rows 1.5 apart, a row's neighbours sqrt 3 / 2 to the side.
        xstep, ystep = (1.5, math.sqrt(3) / 2) if flat else (math.sqrt(3) / 2, 1.5)
        x0 = min(h.x for h in hexes)
        y0 = min(h.y for h in hexes)
        self.cells = {}
        for h in hexes:
            xi = round((h.x - x0) / xstep)
            yi = round((h.y - y0) / ystep)
            # Along the staggered axis one step is half a hex, so cells one step
            # apart never share a line (flat) or a half-cell column (pointy).
            self.cells[h.id] = (xi * (self.cell_w // 2), yi * self.cell_h)
        self.width = max(c for c, _ in self.cells.values()) + self.cell_w
        self.height = max(r for _, r in self.cells.values()) + self.cell_h
        self.edges = []
        for border in self.picture.borders:
            self._edge(border, BORDER)
        shown: dict[tuple[str, str], str] = {}
        rank = {f: i for i, f in enumerate(EDGE_ORDER)}
        for side in self.picture.hexsides:
            if side.feature in CROSSING:
                continue
            pair = (min(side.a, side.b), max(side.a, side.b))
            had = shown.get(pair)
            if had is None or rank.get(side.feature, len(rank)) < rank.get(had, len(rank)):
                shown[pair] = side.feature
        for (a, b), feature in sorted(shown.items()):
            self._edge(PictureHexside(a, b, feature), EDGE_STYLES.get(feature, EDGE_STYLES["river"]))

    def _edge(self, side: PictureHexside, style: Style) -> None:
        """The stroke of the hexside between two cells, from where they lie on screen."""
        if side.a not in self.cells or side.b not in self.cells:
            return
        (ca, ra), (cb, rb) = self.cells[side.a], self.cells[side.b]
        if (rb, cb) < (ra, ca):
            (ca, ra), (cb, rb) = (cb, rb), (ca, ra)
        w, h = self.cell_w, self.cell_h
        if ra == rb and cb == ca + w:  # side by side: the blank column between them
            for line in range(ra, ra + h):
                self.edges.append((line, ca + w - 1, ca + w, EDGE_BAR, style))
        elif rb == ra + h and abs(cb - ca) < w:  # one above the other: the upper cell's bottom edge
            self.edges.append((ra + h - 1, max(ca, cb), min(ca, cb) + w, "_", style))
        elif rb == ra + 2 * h and cb == ca:  # a flat hex and the hex below it: the gap between the two
            col = ca + w // 2 - 1
            if h % 2:
                self.edges.append((ra + h + h // 2, col, col + 1, EDGE_DASH, style))
            else:
                self.edges.append((ra + h + h // 2 - 1, col, col + 1, "_", style))

    def hex_at(self, col: int, line: int) -> str | None:
        """The hex whose cell covers screen position (``col``, ``line``), if any."""
        for hid, (c, r) in self.cells.items():
            if c <= col < c + self.cell_w and r <= line < r + self.cell_h:
                return hid
        return None

    def step(self, hid: str, dx: int, dy: int) -> str:
        """The hex next to ``hid`` on screen in direction (``dx``, ``dy``) (each -1, 0 or 1);
        ``hid`` itself if there is none that way."""
        if hid not in self.cells:
            return next(iter(self.cells), hid)
        c0, r0 = self.cells[hid]
        best: tuple[float, str] | None = None
        for other, (c, r) in self.cells.items():
            if other == hid:
                continue
            ddx, ddy = (c - c0) / self.cell_w, (r - r0) / self.cell_h
            along = ddx * dx + ddy * dy
            if along <= 0:
                continue
            across = abs(ddx * dy) + abs(ddy * dx) if dx and dy else (abs(ddy) if dx else abs(ddx))
            score = along + 2.5 * across
            if best is None or score < best[0]:
                best = (score, other)
        return best[1] if best else hid

    def counters_at(self) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for c in self.picture.counters:
            out.setdefault(c.hex, []).append(c)
        return out

    def _cell_texts(self, h: PictureHex, counters: Sequence[Any], marked: bool) -> list[str]:
        w = self.cell_w - 1
        t = self.terrain.get(h.terrain, "?")
        if counters:
            c = counters[0]
            code = c.code + "".join(m.lstrip("*")[:1] for m in c.marks if m)
            unit = f"{self.sides.get(c.side, '?')}{code}" + ("+" if len(counters) > 1 else "")
        else:
            unit = ""
        if self.zoom:
            top = f"{h.id:<{w - 1}}{t}"[:w]
            return [top.ljust(w), unit[:w].ljust(w)]
        return [(unit or f" {t}")[:w].ljust(w)]

    def render(self, cursor: str | None = None, highlight: Iterable[str] = ()) -> Text:
        """The map as rich text: terrain backgrounds, side-coloured counters with
        their side letter, the question's hexes and the cursor marked."""
        out = Text(no_wrap=True, end="")
        for r, runs in enumerate(self.runs(cursor, highlight)):
            if r:
                out.append("\n")
            for run, style in runs:
                out.append(run, style)
        return out

    def runs(self, cursor: str | None = None, highlight: Iterable[str] = ()) -> list[list[tuple[str, Style | None]]]:
        """The map line by line, each line as runs of text in one style (what :meth:`render`
        draws; the table draws only the lines in view from them).

        A line is drawn again only when something on it changed since the grid last drew the
        same layout: a counter, a mark or the cursor (the table redraws at every answer, and
        an answer changes a few lines of a map of a hundred). Unchanged lines are the same
        list objects as before, so a caller may keep what it built from them."""
        marks = set(highlight)
        by_hex = self.counters_at()
        side_order = {s: i for i, s in enumerate(self.sides)}
        seen: dict[str, tuple[Any, ...]] = {}
        for h in self.picture.hexes:
            counters = by_hex.get(h.id)
            top = (counters[0].code, tuple(counters[0].marks), counters[0].side, len(counters) > 1) if counters else None
            seen[h.id] = (h.terrain, top, h.id in marks, h.id == cursor)
        plan = self._plan()
        memo = plan.drawn
        lines: list[list[tuple[str, Style | None]]] = []
        for r, members in enumerate(plan.rows):
            key = tuple(seen[h.id] for h in members)
            kept = memo.get(r)
            if kept is None or kept[0] != key:
                kept = memo[r] = (key, self._draw_row(r, members, by_hex, marks, cursor, side_order))
            lines.append(kept[1])
        return lines

    def _plan(self) -> _Plan:
        """How this grid draws its lines: shared by every grid of the same layout, letters and
        section lines, with the lines they drew last."""
        if self._plan_here is None:
            signature = (tuple(self.terrain.items()), tuple(self.sides.items()), tuple(self.line_columns()))
            plan = self._plans.get(signature)
            if plan is None:
                rows: list[list[PictureHex]] = [[] for _ in range(self.height)]
                for h in self.picture.hexes:
                    line = self.cells[h.id][1]
                    for i in range(self.cell_h):
                        rows[line + i].append(h)
                edges: list[list[tuple[int, int, str, Style]]] = [[] for _ in range(self.height)]
                for line, first, last, how, style in self.edges:
                    edges[line].append((first, last, how, style))
                if len(self._plans) > 8:
                    self._plans.clear()
                plan = self._plans[signature] = _Plan(rows, edges, self._section_columns())
            self._plan_here = plan
        return self._plan_here

    def _draw_row(self, r: int, members: Sequence[PictureHex], by_hex: Mapping[str, list[Any]], marks: set[str],
                  cursor: str | None, side_order: Mapping[str, int]) -> list[tuple[str, Style | None]]:
        """Line ``r`` of the map as runs of text in one style: its cells, then the strokes of edges
        and section lines on it."""
        chars = [" "] * self.width
        styles: list[Style | None] = [None] * self.width
        spare = {name: SPARE_STYLES[i % len(SPARE_STYLES)]
                 for i, name in enumerate(sorted(n for n in self.terrain if n.lower() not in TERRAIN_STYLES))}
        for h in members:
            col, line = self.cells[h.id]
            counters = by_hex.get(h.id, [])
            texts = self._cell_texts(h, counters, h.id in marks)
            i = r - line
            base = Style.parse(TERRAIN_STYLES.get(h.terrain.lower(), spare.get(h.terrain, "on grey23")))
            if h.id in marks:
                base = base + HIGHLIGHT
            style = base
            if i == len(texts) - 1 and counters:
                style = base + Style.parse(SIDE_STYLES[side_order.get(counters[0].side, 0) % len(SIDE_STYLES)])
                if h.id in marks:
                    style = style + Style(color="black")
            if h.id == cursor:
                style = style + CURSOR
            for j, ch in enumerate(texts[i]):
                chars[col + j] = ch
                styles[col + j] = style
        self._draw_edges(r, chars, styles)
        self._draw_lines(r, chars, styles)
        line_runs: list[tuple[str, Style | None]] = []
        run, run_style = "", None
        for ch, st in zip(chars, styles):
            if st is not run_style and run:
                line_runs.append((run, run_style))
                run = ""
            run_style = st
            run += ch
        if run:
            line_runs.append((run, run_style))
        return line_runs

    def _draw_edges(self, r: int, chars: list[str], styles: list[Style | None]) -> None:
        """The strokes of hexside features and borders (:attr:`edges`) on line ``r``, never over a
        label: an underline keeps the characters (and the colour of any letter) it runs under;
        a bar or a dash goes only in a blank column."""
        under: dict[tuple[Style | None, Style | None], Style] = {}
        drawn: dict[int, Style | None] = {}  # a stroke's column -> the style under it
        for first, last, how, style in self._plan().edges[r]:
            for c in range(first, min(last, self.width)):
                if how == "_":
                    old = styles[c]
                    ink = style if chars[c] == " " else None  # a letter keeps its own colour
                    got = under.get((old, ink))
                    if got is None:
                        got = under[(old, ink)] = (old or Style()) + (ink or Style()) + Style(underline=True)
                    styles[c] = got
                elif chars[c] == " " or (chars[c] in (EDGE_BAR, EDGE_DASH) and c in drawn):
                    if c not in drawn:
                        drawn[c] = styles[c]
                    chars[c] = how
                    styles[c] = (drawn[c] or Style()) + style

    def edge_legend(self) -> str:
        """What the strokes on the cells' edges mean (empty when the grid draws none), and which
        way the map is turned when its sheet is not printed north up."""
        features = sorted({f for *_, f in ((e.a, e.b, e.feature) for e in self.picture.hexsides)
                           if f not in CROSSING})
        kinds = sorted({b.feature for b in self.picture.borders})
        parts = []
        if features:
            parts.append("hexsides (underlined edge, or " + EDGE_BAR + " / " + EDGE_DASH + " between cells): "
                         + ", ".join(features))
        if kinds:
            parts.append(", ".join(kinds) + " borders in white")
        if self.sheet is not None and self.sheet.north % 4:
            parts.append("north to the right, as the sheet is printed" if self.rotated else "north up")
        return "; ".join(parts)

    def line_columns(self) -> list[tuple[int, int, int]]:
        """Each vertical picture line (C&C's section lines) as (screen column, first line, last line):
        the column where the hexes on either side of it meet on screen. Slanted lines are not drawn."""
        hexes = self.picture.hexes
        if not hexes or not self.picture.lines:
            return []
        flat = self.picture.orientation == "flat"
        xstep, ystep = (1.5, math.sqrt(3) / 2) if flat else (math.sqrt(3) / 2, 1.5)
        x0 = min(h.x for h in hexes)
        y0 = min(h.y for h in hexes)
        half = self.cell_w // 2
        out = []
        for ln in self.picture.lines:
            if abs(ln.x1 - ln.x2) > 1e-9:
                continue
            # a cell's left edge is its hex centre less half a cell: the line's column is its centre-based place
            col = round((ln.x1 - x0) / xstep * half + self.cell_w / 2)
            top = max(0, math.floor((min(ln.y1, ln.y2) - y0) / ystep * self.cell_h))
            bottom = min(self.height - 1, math.ceil((max(ln.y1, ln.y2) - y0) / ystep * self.cell_h) + self.cell_h - 1)
            out.append((col, top, bottom))
        return out

    def _draw_lines(self, r: int, chars: list[str], styles: list[Style | None]) -> None:
        """Section lines on line ``r``, in the blank column between two cells, never over a label:
        where a line cuts a hex (a hex in both sections), it is drawn on both sides of that hex's cell."""
        style = Style(color="bright_white", bold=True)
        for c in self._plan().sections[r]:
            if 0 <= c < self.width and chars[c] == " ":
                chars[c] = SECTION
                styles[c] = style

    def _section_columns(self) -> list[list[int]]:
        """The columns of each grid line where a section line may be drawn (:meth:`_draw_lines`)."""
        out: list[list[int]] = [[] for _ in range(self.height)]
        for col, top, bottom in self.line_columns():
            for r in range(top, bottom + 1):
                places = [col - 1]
                hid = self.hex_at(col - 1, r)
                start = self.cells[hid][0] if hid is not None else 0
                if hid is not None and start + self.cell_w - 1 != col - 1:  # inside a cell, not its blank column
                    places = [start - 1, start + self.cell_w - 1]
                out[r].extend(places)
        return out

    def legend(self) -> str:
        """One line each: terrain letters, side letters, the game's own legend."""
        terr = ", ".join(f"{letter} {name}" for name, letter in sorted(self.terrain.items(), key=lambda kv: kv[1]))
        names = dict(self.picture.sides)
        sides = ", ".join(f"{letter} {names.get(s, s)}" for s, letter in self.sides.items())
        extra = "; ".join(f"{k}: {v}" for k, v in self.picture.legend.items())
        lines = [f"terrain: {terr}", f"sides: {sides}; + more in the stack; highlighted: the question's hexes"]
        if self.line_columns():
            lines[-1] += f"; {SECTION} section lines (a hex between two {SECTION} is in both sections)"
        edges = self.edge_legend()
        if edges:
            lines.append(edges)
        if extra:
            lines.append(extra)
        return "\n".join(lines)


_LAID_OUT: dict[tuple[int, int, int, str, int], tuple[Any, dict[str, tuple[int, int]], int, int,
                                                     tuple[tuple[int, int, int, str, Style], ...],
                                                     dict[tuple[Any, ...], _Plan]]] = {}
"""Grids already laid out, by the identity of the picture's hexes, hexsides and borders (a game gives
the same tuples at every answer, so the table lays its map out once)."""


def _grid_width(picture: Picture, cell_w: int) -> int:
    """How wide a :class:`MapGrid` of ``picture`` is with cells ``cell_w`` wide (as laid out, not turned)."""
    hexes = picture.hexes
    if not hexes:
        return 0
    xstep = 1.5 if picture.orientation == "flat" else math.sqrt(3) / 2
    x0 = min(h.x for h in hexes)
    return max(round((h.x - x0) / xstep) for h in hexes) * (cell_w // 2) + cell_w


def viewport(picture: Picture, width: int, highlight: Sequence[str] = ()) -> Text:
    """The picture as a one-line-per-hex grid no wider than ``width``, centred on
    the question's hexes when the whole map does not fit, with the legend below
    (line mode at 80 columns). A sheet printed with north elsewhere (Xenophon's) is
    drawn north up when that fits ``width``, else as printed when that fits."""
    grid = MapGrid(picture, zoom=0, room=width)  # a sheet not printed north up: north up if that fits
    marks = [h for h in highlight if h in grid.cells]
    body = grid.render(None, marks)
    if grid.width > width:
        cols = [grid.cells[h][0] for h in marks] or [grid.width // 2]
        centre = (min(cols) + max(cols) + grid.cell_w) // 2
        start = max(0, min(centre - width // 2, grid.width - width))
        lines = body.split("\n")
        body = Text("\n", no_wrap=True).join(line[start:start + width] for line in lines)
        body.append(f"\n(columns {start + 1}-{start + width} of {grid.width}: centred on the question's hexes)",
                    "dim")
    body.append("\n" + grid.legend(), "dim")
    return body


def inspect_hex(picture: Picture, hid: str, letters: Mapping[str, str] | None = None) -> list[str]:
    """Everything the picture tells of hex ``hid``: terrain, hexside features,
    markers, and each counter with its factors, facing, state and details."""
    h = picture.hex_by_id().get(hid)
    if h is None:
        return [f"{hid}: not on the map"]
    names = dict(picture.sides)
    lines = [f"hex {hid}: {h.terrain}"]
    for s in picture.hexsides:
        if hid in (s.a, s.b):
            lines.append(f"  hexside {s.a}-{s.b}: {s.feature}")
    for m in picture.markers:
        if m.hex == hid:
            lines.append(f"  marker: {m.text}")
    counters = [c for c in picture.counters if c.hex == hid]
    if not counters:
        lines.append("  no units")
    facing_names = ("N", "NE", "SE", "S", "SW", "NW") if picture.orientation == "flat" else ("NE", "E", "SE", "SW", "W", "NW")
    for c in counters:
        side = names.get(c.side, c.side)
        head = f"  {side}: {c.code}" + (f" {c.strength}" if c.strength else "")
        if c.hidden:
            head += " (face down)"
        lines.append(head)
        if c.facing is not None:
            lines.append(f"    facing {facing_names[c.facing % 6]}")
        if c.marks:
            lines.append("    state: " + ", ".join(m.lstrip("*") for m in c.marks))
        if c.detail:
            lines.append(f"    {c.detail}")
    return lines


# ------------------------------------------------------------------ odds


def decision_odds(game: Any, state: Any, decision: Any, key: str, store: Any = None) -> OddsReport | None:
    """The game's exact odds of answering ``decision`` with ``key``
    (``Game.decision_odds``), or ``None`` if this answer starts no attack or
    the game offers none. A game's error here never stops play."""
    fn = getattr(game, "decision_odds", None)
    if fn is None:
        return None
    try:
        if "store" in inspect.signature(fn).parameters:
            return fn(state, decision, key, store=store)
        return fn(state, decision, key)
    except (ValueError, KeyError):
        return None


def odds_lines(report: OddsReport, *, compact: bool = False) -> list[str]:
    """The report as ``ancients odds`` prints it: each outcome with its exact
    fraction and probability, then how the inputs were read."""
    if compact:
        parts = [f"{k} {probability_percent(v, 0)}" for k, v in report.distribution.items()]
        warnings = [x for x in report.explain if x.startswith("warning:")]
        return [f"odds: {report.title}: " + ", ".join(parts) + "".join(f"; {w}" for w in warnings)]
    lines = [report.title]
    width = max((len(k) for k in report.distribution), default=0)
    for k, v in report.distribution.items():
        label = f"{k} ({report.legend[k]})" if k in report.legend else k
        lines.append(f"  {label:<{width}}  {str(v):>9}  {probability_percent(v):>6}")
    lines += [f"  {x}" for x in report.explain]
    if report.rules:
        lines.append(f"  rules: {', '.join(report.rules)}")
    return lines


def odds_notes(session: Any, decision: Any, keys: Sequence[str], limit: int = 8) -> list[str]:
    """One line of odds for each answer in ``keys`` that rolls an attack (line mode
    prints them under the question), at most ``limit``."""
    out: list[str] = []
    for key in keys:
        report = decision_odds(session.game, session.state, decision, key, session.store)
        if report is not None:
            out += [f"  {key}: " + line for line in odds_lines(report, compact=True)]
        if len(out) >= limit:
            break
    return out


# ------------------------------------------------------------------ typing ahead

END_KEYS = frozenset({"done", "end", "pass", "no", "never"})
"""Answers that end a series of questions on the player's own word."""


@attrs.define
class PhaseWatch:
    """Tells a player when a series of questions (a phase: moving units, choosing
    attacks, ordering units) ended on its own after one of their answers, so that
    answers typed ahead for the old series are not silently taken by a new one.

    A question's series is its ``kind`` up to the first dot (``move.unit`` and
    ``move.hex`` are one series). The next question a player gets continues the
    series when it is the same side's, of the same series, with no ``phase``
    event and no other side's answer in between; otherwise, if the player's last
    answer was not an end key (``done`` ...) and the series had several
    questions or an end key, it ended on its own and :meth:`note` says so.
    """

    last: tuple[str, str, str, int, int] | None = None
    """(side, series, answer key, log length before and answer count after that answer)."""
    family: str = ""
    side: str = ""
    count: int = 0
    had_end: bool = False

    @staticmethod
    def series(d: Any) -> str:
        return (getattr(d, "kind", "") or "").split(".")[0]

    def answered(self, session: Any, d: Any, key: str, before: int) -> None:
        """Record ``d`` answered with ``key`` (call after ``Session.answer``; ``before`` is
        the log's length before that answer)."""
        fam = self.series(d)
        if (fam, d.side) != (self.family, self.side):
            self.family, self.side, self.count, self.had_end = fam, d.side, 0, False
        self.count += 1
        self.had_end = self.had_end or bool(END_KEYS & set(d.keys))
        self.last = (d.side, fam, key, before, len(session.answers))

    def note(self, session: Any, d: Any) -> str | None:
        """One line when question ``d`` (the player's next) does not continue the series
        their last answer was given in, and they did not end it themselves; else None."""
        if self.last is None or d is None or not self.family:
            return None
        side, fam, key, mark, given = self.last
        self.last = None
        if side != d.side or key.strip().lower() in END_KEYS or not (self.count > 1 or self.had_end):
            return None
        phases = [e.text_for(side) for e in session.log.since(mark) if e.kind == "phase"]
        others = len(session.answers) - given
        if not phases and not others and self.series(d) == fam:
            return None
        why = "; ".join(phases) if phases else (f"the other side answered {others} question(s)" if others else
                                                "a new part of the turn")
        self.family, self.count, self.had_end = self.series(d), 0, False
        return (f"note: the {fam} questions ended on their own after your answer {key} ({why}): "
                f"this is a new question")


# ------------------------------------------------------------------ the log


@attrs.frozen
class LogRow:
    """One log event with its position, the turn it happened in and its text for the viewer."""

    index: int
    turn: int
    side: str | None
    kind: str
    text: str
    rules: tuple[str, ...]


def log_rows(events: Iterable[Event], viewer: str | None, *, turn: int | None = None,
             side: str | None = None, start: int = 0, start_turn: int = 0) -> list[LogRow]:
    """The whole log as ``viewer`` may read it, numbered by turn (a ``turn``
    event's ``data["turn"]``, else the count of turn events so far), kept to
    one turn and to one side's events when asked (:func:`kept`). From event
    ``start`` on only, the turn then being ``start_turn``, for a reader that
    has the rows before (the table adds the new events of a long game)."""
    rows: list[LogRow] = []
    current = start_turn
    for i, e in enumerate(itertools.islice(events, start, None), start):
        if e.kind == "turn":
            got = e.data.get("turn") if isinstance(e.data, Mapping) else None
            current = int(got) if isinstance(got, int) else current + 1
        if not e.seen_by(viewer):
            continue
        row = LogRow(i, current, e.side, e.kind, e.text_for(viewer), tuple(e.rules))
        if kept(row, turn, side):
            rows.append(row)
    return rows


def kept(row: LogRow, turn: int | None, side: str | None) -> bool:
    """Whether ``row`` is shown under the filters: its turn (``None``: any), its side (``None``: any)."""
    return (turn is None or row.turn == turn) and (side is None or row.side == side)
