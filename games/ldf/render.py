"""What LDF players see: the strategic map, the turn and treasury tracks (rich ``Text``).

The map is drawn with :func:`ancients_kit.render.render_map`, four characters
a hex (35 columns: 140 characters, with the column numbers above, within a
160-column terminal). Each hex shows, on its first line, the stack there by
nationality (2.5) and, on its second, the population centres and markers:

- stacks: ``R`` loyal Roman, ``B`` rebel (blue side up), ``X`` the Gallic
  Empire, ``K`` a Caucasus client, ``P`` Palmyra, ``Y`` Parthia, ``T`` a German
  tribe, followed by the number of units; ``*`` the emperor is there, ``+`` the
  co-emperor;
- centres: the hex's unlooted TP as a digit (6.5), ``L`` looted (6.3), ``r``
  rebuilding (6.4), ``F`` the Fortify marker (8.13), ``#`` a garrison
  (13.10), ``$`` the plague's coin (6.3), ``S`` the siege equipment (chit 21),
  ``^`` a narrows hex (1.5), ``=`` a Rhine or Danube bank (13.8, 12.7).

The background tells the region: Roman core, Barbaria, Parthia, the Caucasus,
the trans-river provinces, Palmyra, sea. The cells' edges carry the hexsides
(:data:`EDGES`): the Rhine and the Danube (13.8, 12.7, 11.1) in bright blue, the
Euphrates, the Tigris and the Nile in pale blue, all-sea hexsides (11.1) in
cyan, and the borders between regions (the Gallic Empire's of 9.5, Italy's of
14.3, the Caucasus states' of 9.6, the frontiers) in white: an underline where
two hexes meet one above the other, ``│`` where they meet side by side. Nothing on the map is secret (10.9);
only the hands' contents are, and they are not drawn here. This module applies
no rule and never changes the state.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rich.text import Text

from ancients_kit.data import DataStore
from ancients_kit.hexgrid import Hex
from ancients_kit.plugin import TableInfo
from ancients_kit.picture import Counter, Marker, Picture, PictureHexside, hexmap_hexes, hexside_strokes, region_borders
from ancients_kit.render import render_map

from . import model
from .state import GP as GP_SIDE
from .state import LAST_TURN, LDFState, turn_years
from .state import ROMAN as ROMAN_SIDE

__all__ = ["EDGES", "LEGEND", "borders", "hex_label", "hex_markers", "inspect", "picture", "render", "status", "tables", "tracks"]

FACTION_LETTER = {"loyal": "R", "rebel": "B", "gallic": "X", "client": "K", "palmyran": "P", "parthian": "Y",
                  "german": "T"}
FACTION_STYLE = {"loyal": "bold bright_red", "rebel": "bold bright_cyan", "gallic": "bold deep_sky_blue1",
                 "client": "bold gold1", "palmyran": "bold magenta", "parthian": "bold yellow",
                 "german": "bold bright_green"}
REGION_STYLE = (
    ("palmyra", "on dark_magenta"),
    ("trans-river", "on dark_olive_green3"),
    ("caucasus", "on dark_khaki"),
    ("parthia", "on orange4"),
    ("barbaria", "on dark_green"),
    ("core", "on grey30"),
    ("wastes", "on grey11"),
)
SEA_STYLE = "on navy_blue"
EDGES = {"border": "bold grey89", "sea": "cyan", "euphrates": "sky_blue2", "tigris": "sky_blue2",
         "nile": "sky_blue2", "rhine": "bold dodger_blue1", "danube": "bold dodger_blue1"}
"""The stroke of each kind of hexside on the text map, in drawing order (a river over a border)."""
BORDER_IGNORED = frozenset({"mediterranean-islands"})
"""Regions whose edges are no border (the sea already parts the islands)."""

LEGEND = ("R loyal Roman  B rebel  X Gallic Empire  K client  P Palmyra  Y Parthian  T German tribe  "
          "* emperor  + co-emperor (digits: units)\n"
          "centres: digit = unlooted TP  L looted  r rebuilding  F fortifying  # garrison  $ plague coin  "
          "S siege equipment  ^ narrows  = Rhine/Danube bank\n"
          "edges (underlined, or │ between cells): blue Rhine/Danube  pale blue Euphrates, Tigris, Nile  "
          "cyan all-sea hexside  white region border")


def hex_label(state: LDFState, hex_id: str) -> tuple[str, str]:
    """The stack in a hex, at most four characters, and its colour."""
    units = state.units_at(hex_id)
    if not units:
        return "", ""
    counts: dict[str, int] = {}
    for u in units:
        if not u.leader:
            f = state.faction_of(u)
            counts[f] = counts.get(f, 0) + 1
    lead = ""
    if any(u.kind == "emperor" for u in units):
        lead = "*"
    elif any(u.kind == "co-emperor" for u in units):
        lead = "+"
    if not counts:
        f = "rebel" if any(u.rebel for u in units) else "loyal"
        return lead + FACTION_LETTER[f], FACTION_STYLE[f]
    top = max(counts, key=lambda f: (counts[f], f))
    n = sum(counts.values())
    text = f"{lead}{FACTION_LETTER[top]}{n if n > 1 else ''}"
    if len(counts) > 1 and len(text) < 4:
        text += "&"
    return text[:4], FACTION_STYLE[top]


def hex_markers(state: LDFState, hex_id: str) -> str:
    """The second line of a hex: centres and markers (at most four characters)."""
    out = ""
    tp = state.unlooted_tp(hex_id)
    if tp or state.data.centres(hex_id):
        if hex_id in state.rebuilding:
            out += "r"
        elif hex_id in state.looted:
            out += "L"
        else:
            out += str(tp) if tp < 10 else "+"
    if any(u.garrison for u in state.units_at(hex_id)):
        out += "#"
    if state.fortify == hex_id:
        out += "F"
    if hex_id in state.plague:
        out += "$"
    if state.siege == hex_id:
        out += "S"
    out += _shore_marks(state.map).get(hex_id, "")
    return out[:4]


_SHORES: dict[int, tuple[Any, dict[str, str]]] = {}
"""Each map (kept alive with it) -> its hexes' fixed marks: ``^`` the narrows, ``=`` a Rhine or
Danube bank (a picture of the position draws them for every hex, frame after frame)."""


def _shore_marks(m: Any) -> dict[str, str]:
    got = _SHORES.get(id(m))
    if got is None or got[0] is not m:
        marks = {}
        for h in m.hexes():
            if m.value(h, "narrows"):
                marks[m.to_id(h)] = "^"
            elif any(m.has_feature(h, n, "rhine") or m.has_feature(h, n, "danube") for n in m.neighbors(h)):
                marks[m.to_id(h)] = "="
        if len(_SHORES) > 8:
            _SHORES.clear()
        got = _SHORES[id(m)] = (m, marks)
    return got[1]


def borders(state: LDFState) -> tuple[PictureHexside, ...]:
    """The hexsides between hexes of different regions (the map's regions, 1.4, 9.5-9.7, 14.3),
    each once; the coast is no border."""
    return region_borders(state.map, "region", ignore=BORDER_IGNORED)


def _edges(state: LDFState) -> list[tuple[Hex, Hex, str]]:
    """The strokes of the text map: borders first, then the hexside features over them
    (computed once per map)."""
    return hexside_strokes(state.map, borders(state), EDGES["border"],
                           {f: EDGES[f] for f in ("sea", "euphrates", "tigris", "nile", "rhine", "danube")})


def _region_style(state: LDFState, hex_id: str) -> str:
    h = state.hex(hex_id)
    if state.map.terrain(h) == "sea":
        return SEA_STYLE
    regions = state.data.regions_of(hex_id)
    if state.gallic_active and "gallic-empire" in regions:
        return "on dark_blue"
    for name, style in REGION_STYLE:
        if name in regions:
            return style
    return ""


def tracks(state: LDFState) -> Text:
    """The Turn Record Track (14.1), the Roman Treasury Point Track (6.5) and the public facts (10.9)."""
    out = Text(no_wrap=True, overflow="crop")
    out.append("Turn ")
    for t in range(1, LAST_TURN + 1):
        out.append(f"[{t}]" if t == state.turn else f" {t} ", style="bold reverse" if t == state.turn else "")
    first, last = turn_years(state.turn)
    out.append(f" (AD {first}-{last})")  # ten years a turn (1.3)
    acting = "" if state.phase != "actions" else f"; acting: {state.active}"
    out.append(f"  phase: {state.phase}{acting}; actions this turn {state.action_number}"
               + ("; one pass" if state.passes == 1 else ""))
    out.append("\nRoman treasury ")
    out.append(f" {state.treasury} TP ", style="bold black on gold1")
    out.append(f" (at most 5 carry over)  pool {len(state.pool)} chits; hands: "
               + ", ".join(f"{s} {len(h)}" for s, h in state.hands.items()))
    for s, shown in state.revealed.items():
        out.append(f"; {s} showed {', '.join(map(str, shown))}")
    dead = {}
    for u in state.units.values():
        if u.where == "dead":
            dead[u.nationality] = dead.get(u.nationality, 0) + 1
    clients = [f"Palmyra {state.palmyra}", "Gallic Empire " + ("active" if state.gallic_active else
                                                              "ended" if state.gallic_ended else "inactive"),
               "Parthia " + ("collapsed" if state.parthia_collapsed else "standing")]
    if state.cavalry_reserve:
        clients.append("cavalry reserve formed")
    out.append("\n" + "; ".join(clients) + "; dead pile: "
               + (", ".join(f"{k} {v}" for k, v in sorted(dead.items())) or "empty"))
    if state.over:
        out.append(f"\nGame over: the {state.winner} player wins ({state.result})", style="bold")
    return out


def status(state: LDFState) -> str:
    """One line on the game: the turn and phase, the Roman treasury, the hands' sizes, the pool (all public)."""
    hands = ", ".join(f"{s} {len(h)} chits" for s, h in state.hands.items())
    return (f"Turn {state.turn}/{LAST_TURN} {state.phase}; Roman treasury {state.treasury} TP; {hands}; "
            f"pool {len(state.pool)}")


def render(state: LDFState, viewer: str | None = None, highlight: Collection[str] = ()) -> Text:
    """The whole display: column numbers, the map, the legend and the tracks."""
    num = state.map.numbering
    ids = {h: state.map.to_id(h) for h in state.map.hexes()}
    labels = {h: hex_label(state, i) for h, i in ids.items()}

    def label(h: Hex) -> str:
        return labels[h][0]

    def style(h: Hex) -> str:
        fg = labels[h][1]
        return f"{fg} {_region_style(state, ids[h])}".strip()

    def sub(h: Hex) -> str:
        return hex_markers(state, ids[h])

    marked = {state.hex(x) for x in highlight if x in state.data.ids}
    head = Text(no_wrap=True)
    head.append("".join(f"{num.first_column + i:^4}" for i in range(num.columns)), style="dim")
    grid = render_map(state.map, label=label, style=style, highlight=marked, sublabel=sub, cell=4, max_width=160,
                      edges=_edges(state))
    out = Text(no_wrap=True, overflow="crop")
    out.append_text(head)
    out.append("\n")
    out.append_text(grid)
    out.append("\n")
    out.append(LEGEND, style="dim")
    out.append("\n")
    out.append_text(tracks(state))
    return out


def tables(store: DataStore) -> list[TableInfo]:
    """Every LDF chart with its provenance (``ancients tables ldf``): the CRT (14.6), the
    Emperor Creation Table (14.4), the Action Summary (14.2), the Terrain Key (14.5), the
    event chits (14.3), the counter mix and set-up (2.2-3.5) and the map's TP hexes (6.5)."""
    crt = model.load_crt(store)
    crt_rows = tuple((r.band.label,) + tuple(r.results) for r in crt.rows)
    legend = {k: v for k, v in crt.codes.items()}
    legend["limits"] = f"below {crt.columns[0]}: {crt.below}; above {crt.columns[-1]}: {crt.above} (13.15)"
    emp = model.load_emperor_table(store)
    emp_rows = tuple((r.band.label, r.results[0], emp.meaning(r.results[0])) for r in emp.rows)
    ameta, actions = model.load_actions(store)
    act_rows = tuple((a.id, a.name, a.side, a.cost, a.turns or "all", " ".join(a.rules)) for a in actions)
    tmeta, entries = model.load_terrain_key(store)
    ter_rows = tuple((e.key, e.name, e.kind, e.map_key, e.text) for e in entries)
    chits = model.load_chits(store)
    chit_rows = tuple((str(c.number), c.name, c.player, "on draw" if c.on_draw else c.timing, c.returns,
                       c.source, c.number_confidence, c.text) for c in chits.chits.values())
    mix = model.load_counters(store)
    mix_rows = tuple((p.id, p.name, p.nationality, p.kind, str(p.count), p.combat, str(p.movement), p.source)
                     for p in mix.pieces.values())
    gmap = model.load_map(store)
    tp_rows = tuple(sorted(
        (gmap.to_id(h), ", ".join(gmap.value(h, "names") or ()) or "-", " ".join(sorted(gmap.regions_of(h))),
         str(model.hex_tp(gmap, h)))
        for h in gmap.hexes() if model.hex_tp(gmap, h)))
    return [
        TableInfo("crt", crt.title or "Combat Results Table (14.6)", crt.meta, ("d6",) + tuple(crt.columns),
                  crt_rows, legend),
        TableInfo("emperor-creation", emp.title or "Emperor Creation Table (14.4)", emp.meta,
                  ("d6", "result", "effect"), emp_rows),
        TableInfo("actions", "Action Summary List (14.2)", ameta,
                  ("id", "action", "player", "cost", "turns", "rules"), act_rows),
        TableInfo("terrain-key", "Terrain Key (14.5)", tmeta, ("key", "name", "kind", "map data", "meaning"), ter_rows),
        TableInfo("chits", "Event chits (14.3)", chits.meta,
                  ("no.", "chit", "player", "timing", "returns", "source", "number", "effect"), chit_rows),
        TableInfo("counters", "Counter mix (2.2-2.6)", mix.meta,
                  ("id", "piece", "nationality", "kind", "count", "combat", "movement", "source"), mix_rows),
        TableInfo("tp-hexes", "Treasury points per hex (6.5, 9.6, 9.7, 13.10)", gmap.meta,
                  ("hex", "centres", "regions", "TP"), tp_rows),
    ]


def picture(state: LDFState) -> Any:
    """The position (nothing on the map is secret, 10.9) as a core :class:`~ancients_kit.picture.Picture` (``ancients show``, the HTML
    replay): one counter per stack, coded as on the terminal map, centres and markers as markers."""
    hexes, sides = hexmap_hexes(state.map)
    counters = []
    markers = []
    for hid in sorted(state.occupied()):
        units = state.units_at(hid)
        code, _ = hex_label(state, hid)
        side = state.side_of(next((u for u in units if not u.leader), units[0]))
        detail = f"{hid}: " + ", ".join(f"{u.id} ({u.kind}{', rebel' if u.rebel else ''})" for u in units)
        counters.append(Counter(hid, side, code, str(len(units)), detail=detail))
    for hid in sorted(set(state.data.hex_tp) | state.looted):
        text = hex_markers(state, hid)
        if text:
            markers.append(Marker(hid, text))
    legend = {"R/B/X/K/P/Y/T": "loyal, rebel, Gallic, client, Palmyran, Parthian, German stack; the number of units",
              "*": "the emperor", "+": "the co-emperor", "digit": "unlooted TP", "L": "looted", "r": "rebuilding",
              "F": "fortifying", "#": "garrison", "=": "Rhine/Danube bank", "^": "narrows",
              "borders": "the edges between hexes of different regions (1.4, 9.5-9.7, 14.3)"}
    return Picture(orientation=state.map.numbering.orientation, hexes=hexes, hexsides=sides,
                   counters=tuple(counters), markers=tuple(markers), borders=borders(state),
                   sides=((GP_SIDE, "Germano-Parthian"), (ROMAN_SIDE, "Roman")),
                   title="Lest Darkness Fall: the campaign", status=f"Turn {state.turn}, treasury {state.treasury} TP",
                   legend=legend)


def inspect(state: LDFState, hex_id: str) -> tuple[str, ...]:
    """Every unit of a hex with its factors (2.6, 13.10) and loyalty, and the hex's markers
    (nothing on the map is secret, 10.9)."""
    if hex_id not in state.data.ids:
        return ()
    lines = []
    for u in state.units_at(hex_id):
        piece = state.data.counters.piece(u.kind)
        if u.garrison:
            factor = f"defends at {model_garrison(state, hex_id)}"
        elif piece.combat == "d6+1":
            factor = "combat d6+1 each battle"
        elif piece.combat == "none":
            factor = "no combat factor"
        else:
            factor = f"combat {piece.combat}"
        move = f", movement {piece.movement}" if piece.movement else ""
        loyalty = " (rebel, Gallic Empire)" if u.gallic else " (rebel)" if u.rebel else ""
        lines.append(f"{u.id} {piece.name}{loyalty}: {state.side_of(u)}, {factor}{move}")
    names = state.map.value(state.hex(hex_id), "names") or ()
    tp = state.unlooted_tp(hex_id)
    if tp or names:
        status = "looted" + (", rebuilding" if hex_id in state.rebuilding else "") if hex_id in state.looted \
            else "unlooted"
        lines.append(f"{hex_id} {', '.join(names) or '-'}: {tp} TP, {status}"
                     + (", Fortify marker" if state.fortify == hex_id else ""))
    return tuple(lines)


def model_garrison(state: LDFState, hex_id: str) -> int:
    return model.garrison_strength(state.map, state.hex(hex_id))
