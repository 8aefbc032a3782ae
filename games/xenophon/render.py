"""What Xenophon players see: a window on the map, the tracks, the Satrapy Control Chart.

The sheet (40 columns x 50 rows, ``data/map.toml``) is printed with north to the
right: columns run south to north, rows west to east (docs/games/xenophon-map.md).
:func:`render` draws it in one of two layouts (:data:`LAYOUTS`):

- ``north-up`` (the default): north at the top, a line pair per hex column
  (column 40 on top), the rows west to east along it, three characters a hex:
  154 characters wide with the column numbers on the left. A *window* of
  :data:`WINDOW_COLUMNS` hex columns is shown (40 lines), scrolled to the
  question's hexes, else to the phasing player's Supreme Leader;
- ``rotated``: the sheet as printed, four characters a hex, 160 characters wide
  and a window of :data:`WINDOW_ROWS` hex rows (41 lines).

``rows=50`` (or ``columns=40``) draws the whole map. The player's standing
choice is the environment variable ``ANCIENTS_MAP_LAYOUT`` (``printed`` or
``rotated`` for the sheet as printed, ``north-up``), read by the full-screen
table's grid too; ``layout=`` overrides it. The picture (:func:`picture`) says
that its sheet has north to the right, so the table's grid and the SVG draw it
north up.

Satrapy borders are drawn on the cells' edges in white, rivers and lakes in
blue, the straits in cyan (an underline where two hexes meet one above the
other, ``│`` where they meet side by side).

Each hex shows on its first line its units: the side letter (``E`` Empire,
``R`` Rebel, ``n`` neutral) and the number of units, ``*`` first if a Supreme
Leader is there, ``+`` another leader. On its second line: the city (``T``
Treasury City, ``C`` Capital, ``c`` city, ``o`` colony), ``x`` a Pillage
marker, ``w`` Public Works, then the Forage Value now; or, in one hex of each
satrapy, the satrapy's four-letter abbreviation (the chart below names them).
The background is the satrapy's control: purple Empire, red Rebel, grey
neutral (three shades each, so that neighbouring satrapies differ); navy sea.

A treasury is shown to its owner only (or to everybody under the open option,
xen:intelligence): :meth:`~ancients_kit.secret.SecretNumber.shown_to`; the
hands only as their sizes. This module applies no rule and never changes the
state.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from typing import Any

from rich.text import Text

from ancients_kit.data import DataStore
from ancients_kit.errors import ParameterError
from ancients_kit.hexgrid import Hex
from ancients_kit.picture import Counter, Marker, Picture, PictureHexside, hexmap_hexes, hexside_strokes, region_borders
from ancients_kit.plugin import TableInfo
from ancients_kit.render import render_map
from ancients_kit.tables import DifferentialTable, LookupTable, OddsTable

from . import model, victory
from .sequence import PHASE_ORDER, phase_title
from .state import EMPIRE, NEUTRAL, REBEL, XenData, XenState

__all__ = ["LAYOUTS", "LEGEND", "WINDOW_COLUMNS", "WINDOW_ROWS", "borders", "layout_choice", "abbreviation", "hex_label", "hex_markers", "inspect", "picture", "render",
           "satrapy_chart", "tables", "tracks"]

WINDOW_ROWS = 20
"""Hex rows in the default window of the rotated layout (41 text lines)."""
WINDOW_COLUMNS = 20
"""Hex columns in the default window of the north-up layout (40 text lines)."""
LAYOUTS = ("north-up", "rotated")
"""The text map's layouts: north up (the default), or the sheet as printed (north to the right)."""
LAYOUT_ENV = "ANCIENTS_MAP_LAYOUT"
"""The player's standing choice (the same variable as the table's grid, ancients_kit.tui.view)."""
EDGES = {"satrapy": "bold grey89", "river": "bold dodger_blue1", "lake": "bold dodger_blue1",
         "strait": "bold bright_cyan"}
"""The stroke of each kind of hexside on the text map, in drawing order (a river over a border)."""

SIDE_LETTER = {EMPIRE: "E", REBEL: "R", NEUTRAL: "n"}
SIDE_STYLE = {EMPIRE: "bold bright_white", REBEL: "bold bright_yellow", NEUTRAL: "bold grey70"}
CONTROL_SHADES = {
    EMPIRE: ("on dark_violet", "on purple4", "on medium_purple4"),
    REBEL: ("on dark_red", "on red3", "on indian_red"),
    NEUTRAL: ("on grey30", "on grey23", "on grey39"),
}
SEA_STYLE = "on navy_blue"
CITY_LETTER = {"treasury": "T", "capital": "C", "city": "c", "colony": "o"}

LEGEND = ("units: E Empire  R Rebel  n neutral + number (north up: *12 a stack of 12 with a Supreme Leader, "
          "the colour tells the side); * Supreme Leader  + leader\n"
          "second line: T Treasury City  C Capital  c city  o colony  x pillaged  w Public Works, then the FV "
          "(none shown: 0); or the satrapy (chart below)\n"
          "background: purple Empire-controlled, red Rebel-controlled, grey neutral satrapy; navy sea\n"
          "edges (underlined, or │ between cells): white satrapy border  blue river or lake  cyan strait\n"
          "ANCIENTS_MAP_LAYOUT=rotated draws the sheet as printed (north to the right)")

_CACHE: dict[int, tuple[dict[str, str], dict[str, str], dict[str, int]]] = {}


def _abbreviations(data: XenData, n: int) -> dict[str, str]:
    """Satrapy -> a name of ``n`` capitals, each different (its first letters, else the first
    ``n - 1`` and a later one)."""
    abbr: dict[str, str] = {}
    for s in data.satrapies:
        letters = "".join(c for c in s if c.isalpha())
        cand = letters[:n].upper()
        i = n
        while cand in abbr.values() and i < len(letters):
            cand = (letters[:n - 1] + letters[i]).upper()
            i += 1
        abbr[s] = cand
    return abbr


_SHORT: dict[int, tuple[XenData, dict[str, str]]] = {}


def short_abbreviation(data: XenData, satrapy: str) -> str:
    """The satrapy's three-letter name on the north-up map (three characters a hex)."""
    got = _SHORT.get(id(data))
    if got is None or got[0] is not data:
        got = _SHORT[id(data)] = (data, _abbreviations(data, 3))
    return got[1][satrapy]


def _satrapy_layout(data: XenData) -> tuple[dict[str, str], dict[str, str], dict[str, int]]:
    """Satrapy -> abbreviation, label hex -> satrapy, satrapy -> shade (a greedy colouring)."""
    key = id(data)
    if key in _CACHE:
        return _CACHE[key]
    abbr = _abbreviations(data, 4)
    label_hex: dict[str, str] = {}
    for s in data.satrapies:
        hexes = [h for h in data.satrapy_hexes[s] if h not in data.city_kind]
        if not hexes:
            continue
        cols = [int(h[:2]) for h in hexes]
        rows = [int(h[2:]) for h in hexes]
        cx, cy = sum(cols) / len(cols), sum(rows) / len(rows)
        best = min(hexes, key=lambda h: ((int(h[:2]) - cx) ** 2 + (int(h[2:]) - cy) ** 2, h))
        label_hex[best] = s
    shade: dict[str, int] = {}
    for s in data.satrapies:
        near = {data.satrapy_of.get(n) for h in data.satrapy_hexes[s] for n in data.neighbours[h]} - {s, None}
        used = {shade[o] for o in near if o in shade}
        shade[s] = next((i for i in range(3) if i not in used), 0)
    _CACHE[key] = (abbr, label_hex, shade)
    return _CACHE[key]


def abbreviation(data: XenData, satrapy: str) -> str:
    """The satrapy's four-letter name on the map."""
    return _satrapy_layout(data)[0][satrapy]


def hex_label(state: XenState, hex_id: str) -> tuple[str, str]:
    """The units in a hex, at most four characters, and their colour."""
    units = state.units_at(hex_id)
    if not units:
        return "", ""
    side = units[0].side
    lead = ""
    if any(u.leader and state.supreme.get(u.side) == u.id for u in units):
        lead = "*"
    elif any(u.leader for u in units):
        lead = "+"
    return f"{lead}{SIDE_LETTER.get(side, '?')}{len(units)}"[:4], SIDE_STYLE.get(side, "")


def hex_markers(state: XenState, hex_id: str, short: bool = False) -> str:
    """The second line of a hex: city, pillage, public works and FV; or the satrapy's name
    (``short``: in three letters, for the north-up map)."""
    out = ""
    kind = state.city_kind(hex_id)
    if kind is not None:
        out += CITY_LETTER[kind]
    if hex_id in state.pillaged:
        out += "x"
    if hex_id in state.public_works:
        out += "w"
    if not out:
        _, label_hex, _ = _satrapy_layout(state.data)
        sat = label_hex.get(hex_id)
        if sat is not None:
            return short_abbreviation(state.data, sat) if short else abbreviation(state.data, sat)
    fv = state.forage(hex_id)
    return (out + (str(fv) if fv else ""))[:4]


def borders(state: XenState) -> tuple[PictureHexside, ...]:
    """The hexsides between two satrapies (the map's regions), each once; the coast is no border."""
    return region_borders(state.map, "satrapy")


def _edges(state: XenState) -> list[tuple[Hex, Hex, str]]:
    """The strokes of the text map, satrapy borders first (computed once per map)."""
    return hexside_strokes(state.map, borders(state), EDGES["satrapy"],
                           {f: EDGES[f] for f in ("river", "lake", "strait")})


def layout_choice(layout: str | None = None) -> str:
    """The layout to draw: ``layout`` if given, else the player's standing choice
    (``ANCIENTS_MAP_LAYOUT``: ``printed``/``rotated`` or ``north-up``), else north up."""
    choice = (layout or os.environ.get(LAYOUT_ENV, "") or "north-up").strip().lower()
    if choice in ("printed", "rotated"):
        return "rotated"
    if choice in ("north-up", "auto"):
        return "north-up"
    raise ParameterError(f"map layout {choice!r}: give one of {', '.join(LAYOUTS)}",
                         name="layout" if layout else LAYOUT_ENV)


def _short(text: str) -> str:
    """A stack's label in three characters: ``*E12`` reads ``*12`` (the colour tells the side)."""
    return text if len(text) <= 3 else text[0] + text[2:]


def _style(state: XenState, hex_id: str) -> str:
    if state.data.terrain.get(hex_id) == "sea":
        return SEA_STYLE
    sat = state.satrapy_of(hex_id)
    if sat is None:
        return "on grey11"
    shade = _satrapy_layout(state.data)[2][sat]
    return CONTROL_SHADES[state.control.get(sat, NEUTRAL)][shade]


def _centre_row(state: XenState, highlight: Collection[str]) -> int:
    rows = [int(h[2:]) for h in highlight if h in state.data.neighbours]
    if rows:
        return (min(rows) + max(rows)) // 2
    u = state.supreme_leader(state.player_turn)
    if u is not None and u.hex:
        return int(u.hex[2:])
    return 25


def _centre_column(state: XenState, highlight: Collection[str]) -> int:
    cols = [int(h[:2]) for h in highlight if h in state.data.neighbours]
    if cols:
        return (min(cols) + max(cols)) // 2
    u = state.supreme_leader(state.player_turn)
    if u is not None and u.hex:
        return int(u.hex[:2])
    return 20


def tracks(state: XenState, viewer: str | None) -> Text:
    """The Turn track, the phase, treasuries (owner only), hands, the VP as they stand."""
    out = Text(no_wrap=True, overflow="crop")
    out.append("Turn ")
    for t in range(1, state.last_turn + 1):
        out.append(f"[{t}]" if t == state.turn else f" {t} ", style="bold reverse" if t == state.turn else "")
    out.append(f"  {402 - state.turn} BC; ")  # Turn 1 is 401 BC (the scenarios)
    if state.phase in PHASE_ORDER:
        out.append(f"{state.player_turn} player-turn, {phase_title(state.phase)}")
    else:
        out.append(state.phase)
    out.append("\nTreasury: ")
    for s in (REBEL, EMPIRE):
        t = state.treasury.get(s)
        if t is not None:
            out.append(f" {s} ${t.shown_to(viewer)} ", style="bold black on gold1" if t.visible_to(viewer) is not None
                       else "dim")
            out.append(" ")
    out.append("  chits: " + ", ".join(f"{s} {len(h)}" for s, h in state.hands.items()) + f"; pool {len(state.pool)}")
    vp = victory.scores(state)
    out.append(f"\nVP if the game ended now: Rebel {vp[REBEL]}, Empire {vp[EMPIRE]}; satrapies: "
               + ", ".join(f"{s} {len(state.controlled(s))}" for s in (EMPIRE, REBEL, NEUTRAL)))
    if state.over:
        out.append(f"\nGame over: {state.result}", style="bold")
    return out


def satrapy_chart(state: XenState, short: bool = False) -> Text:
    """The Satrapy Control Chart: abbreviation (``short``: the north-up map's three letters), name,
    control, Levy Value, cities held by whom."""
    out = Text(no_wrap=True, overflow="crop")
    cells = []
    for s in state.data.satrapies:
        c = state.control[s]
        cities = state.cities_of(s)
        held = sum(1 for h in cities if state.occupier(h) == c) if c != NEUTRAL else \
            sum(1 for h in cities if state.occupier(h) == NEUTRAL)
        name = short_abbreviation(state.data, s) + " " if short else abbreviation(state.data, s)
        cells.append((f"{name} {s[:17]:<17} {SIDE_LETTER[c]} LV{state.data.row(s).levy_value}"
                      f" {held}/{len(cities)}", CONTROL_SHADES[c][0]))
    for i, (text, style) in enumerate(cells):
        out.append(f"{text:<38}", style=style)
        out.append("\n" if i % 4 == 3 else " ")
    out.append("(control letter; LV Levy Value; cities held by the controller / all)", style="dim")
    return out


def render(state: XenState, viewer: str | None = None, highlight: Collection[str] = (), *,
           rows: int = WINDOW_ROWS, centre_row: int | None = None, layout: str | None = None,
           columns: int = WINDOW_COLUMNS, centre_column: int | None = None) -> Text:
    """The display: a window on the map (north up: ``columns`` hex columns; rotated: ``rows`` hex
    rows; ``rows=50`` the whole map in either), the legend, tracks, chart. ``layout``: one of
    :data:`LAYOUTS` (default: :func:`layout_choice`)."""
    turned = layout_choice(layout) == "north-up"
    num = state.map.numbering
    ids = {h: state.map.to_id(h) for h in state.map.hexes()}
    wanted = set(highlight)
    marked = {h for h, i in ids.items() if i in wanted}
    labels = {h: hex_label(state, i) for h, i in ids.items()}

    def label(h: Hex) -> str:
        return _short(labels[h][0]) if turned else labels[h][0]

    def style(h: Hex) -> str:
        return f"{labels[h][1]} {_style(state, ids[h])}".strip()

    def sub(h: Hex) -> str:
        return hex_markers(state, ids[h], short=turned)

    grid = render_map(state.map, label=label, style=style, highlight=marked, sublabel=sub,
                      cell=3 if turned else 4, max_width=160, edges=_edges(state), turned=turned)
    lines = grid.split("\n")
    out = Text(no_wrap=True, overflow="crop")
    if turned:
        last_col = num.first_column + num.columns - 1
        shown = num.columns if rows >= num.rows else max(1, min(columns, num.columns))
        centre = centre_column if centre_column is not None else _centre_column(state, highlight)
        top = min(last_col, max(num.first_column + shown - 1, centre + shown // 2))
        y0 = last_col - top
        out.append("   " + "".join(f"{num.first_row + i:02d} " for i in range(num.rows)).rstrip(), style="dim")
        for i, line in enumerate(lines[2 * y0: 2 * (y0 + shown)]):
            out.append("\n")
            out.append(f"{top - i // 2:02d} " if i % 2 == 0 else "   ", style="dim")
            out.append_text(line)
        out.append(f"\n(hex columns {top - shown + 1:02d}-{top:02d} of {num.first_column:02d}-{last_col:02d}, "
                   "north up; rows west to east along the top; hex ID = column then row)", style="dim")
    else:
        rows = max(1, min(rows, num.rows))
        centre = centre_row if centre_row is not None else _centre_row(state, highlight)
        first = max(num.first_row, min(centre - rows // 2, num.first_row + num.rows - rows))
        y0 = first - num.first_row
        window = lines[2 * y0: 2 * (y0 + rows) + 1]
        out.append("".join(f"{num.first_column + i:02d}  " for i in range(num.columns)).rstrip(), style="dim")
        out.append("\n")
        out.append_text(Text("\n").join(window))
        last = first + rows - 1
        out.append(f"\n(hex rows {first:02d}-{last:02d} of {num.first_row:02d}-{num.first_row + num.rows - 1:02d}; "
                   "north to the right, as the sheet is printed; hex ID = column then row)", style="dim")
    out.append("\n")
    out.append(LEGEND, style="dim")
    out.append("\n")
    out.append_text(tracks(state, viewer))
    out.append("\n")
    out.append_text(satrapy_chart(state, short=turned))
    return out


def inspect(state: XenState, viewer: str | None, hex_id: str) -> tuple[str, ...]:
    """Every unit of a hex with its CS-OV, satrapy and side, and the hex's city, markers and FV
    (forces may be examined freely, xen:intelligence)."""
    if hex_id not in state.data.neighbours:
        return ()
    lines = []
    for u in state.units_at(hex_id):
        home = f" of {u.satrapy}" if u.satrapy else (" (Guard)" if u.guard else "")
        aboard = f", aboard {u.embarked}" if u.embarked else ""
        lines.append(f"{u.id}: {u.type.replace('_', ' ')}{home}, {u.side}, CS {u.cs} OV {u.ov}{aboard}")
    sat = state.satrapy_of(hex_id)
    kind = state.city_kind(hex_id)
    name = state.data.city_name.get(hex_id, "")
    facts = [f"{hex_id}: {state.data.terrain.get(hex_id, '?')}"]
    if sat:
        facts.append(f"{sat} ({state.control[sat]})")
    if kind:
        facts.append(f"{name or 'colony'} ({kind})")
    if hex_id in state.data.ports:
        facts.append("port")
    if hex_id in state.pillaged:
        facts.append("pillaged")
    if hex_id in state.public_works:
        facts.append("Public Works")
    facts.append(f"FV {state.forage(hex_id)}")
    lines.append(", ".join(facts))
    return tuple(lines)


def picture(state: XenState, viewer: str | None) -> Any:
    """The position as a core :class:`~ancients_kit.picture.Picture` (``ancients show``, the TUI's
    scrolling map, the HTML replay): one counter a stack, cities and markers as markers."""
    hexes, sides = hexmap_hexes(state.map)
    counters = []
    for hid in sorted(state.occupied()):
        units = state.units_at(hid)
        code, _ = hex_label(state, hid)
        detail = f"{hid}: " + ", ".join(f"{u.id} ({u.type}, CS {u.cs} OV {u.ov})" for u in units)
        counters.append(Counter(hid, units[0].side, code, str(len(units)), detail=detail))
    markers = []
    for hid in sorted(set(state.data.city_kind) | state.colonies | state.pillaged | state.public_works):
        text = hex_markers(state, hid)
        if text:
            markers.append(Marker(hid, text))
    legend = {"E/R/n": "Empire, Rebel, neutral stack with its number of units", "*": "Supreme Leader",
              "+": "leader", "T/C/c/o": "Treasury City, Capital, city, colony", "x": "pillaged", "w": "Public Works",
              "digit": "Forage Value"}
    status = f"Turn {state.turn}/{state.last_turn}, {state.player_turn} {state.phase}"
    return Picture(orientation=state.map.numbering.orientation, hexes=hexes, hexsides=sides,
                   counters=tuple(counters), markers=tuple(markers), borders=borders(state),
                   north=1,  # the sheet is printed with north to the right (docs/games/xenophon-map.md)
                   sides=((REBEL, "Rebel"), (EMPIRE, "Empire"), (NEUTRAL, "neutral")),
                   title=f"Xenophon: {state.scenario}", status=status, legend=legend)


def tables(store: DataStore) -> list[TableInfo]:
    """Every Xenophon table and chart with its provenance per row (``ancients tables xenophon``):
    the three CRTs, Diplomacy, Pillage, Colonisation, Disband, Revolt, Random Events, Terrain;
    the unit factors, the chits and the roster with a source column."""
    out: list[TableInfo] = []
    for name, table in model.load_tables(store).items():
        if isinstance(table, (OddsTable, DifferentialTable)):
            header = (table.die,) + tuple(table.columns)
            rows = tuple((r.band.label,) + tuple(r.results) for r in table.rows)
        elif isinstance(table, LookupTable) and table.die is not None:
            header = (table.die, "result")
            rows = tuple((r.band.label, r.results[0]) for r in table.rows)
        else:
            assert isinstance(table, LookupTable)
            header = ("entry", "value")
            rows = tuple((k, v) for k, v in table.entries.items())
        out.append(TableInfo(table.id, table.title or name, table.meta, header, rows, dict(table.codes)))
    umeta, units = model.load_units(store)
    out.append(TableInfo("xenophon.units", umeta.title or "Unit factors", umeta,
                         ("type", "CS", "OV", "recruit $", "upkeep $", "source"),
                         tuple((u.type, str(u.cs), str(u.ov), str(u.recruit), str(u.upkeep),
                                model.row_source(umeta, units.provenance, u.type).source) for u in units.unit)))
    cmeta, chits = model.load_chits(store)
    out.append(TableInfo("xenophon.stratagems", cmeta.title or "Stratagem chits", cmeta,
                         ("chit", "count", "phase", "source", "effect"),
                         tuple((c.name, str(c.count), c.phase, model.row_source(cmeta, chits.provenance, c.name).source,
                                c.text) for c in chits.chit)))
    data = model.load(store)
    out.append(TableInfo("xenophon.roster", data.roster_meta.title or "Unit and City Summary Roster",
                         data.roster_meta,
                         ("satrapy", "LV", "control", "P", "C", "L", "M", "B", "E", "F", "total", "cities", "T", "Cap",
                          "source"),
                         tuple((r.name, str(r.levy_value), r.control, *(str(getattr(r, t)) for t in model.UNIT_TYPES),
                                str(r.total), str(r.cities), str(r.treasury_cities), str(r.capital_cities),
                                model.row_source(data.roster_meta, data.roster.provenance, r.name).source)
                               for r in data.roster.satrapy)))
    return out
