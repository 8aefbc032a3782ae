"""Centurion display: the map with its units, and the chart listings.

This module owns what players see of a Centurion game: the hex map (terrain,
each stack's side, type and size, facing arrows in the Full Simulation,
dispersed units marked) and the tables ``ancients tables centurion`` lists
(unit types, capability chart, terrain chart, CRTs, map), each with its
provenance, the status line (:func:`status`: the turn, the phase, each side's
losses) and a stack's units with their factors (:func:`inspect`). It never
changes the state. Rules it serves: ``cen:basic.stacking``
C (what a player may see of an enemy stack is shown only to omniscient viewers
or within three hexes of a friendly unit).

It uses ``ancients_kit.render.render_map`` when the core provides it and
falls back to its own text grid otherwise.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rich.text import Text

from ancients_games.centurion import model
from ancients_games.centurion.basic import loss_fractions
from ancients_games.centurion.combat import basic_attack_factor
from ancients_games.centurion.equipment import load_all, load_crt, load_map
from ancients_games.centurion.state import CenturionState, stack_visible
from ancients_kit.data import DataStore
from ancients_kit.hexgrid import Hex
from ancients_kit.picture import Counter, Marker, Picture, hexmap_hexes
from ancients_kit.plugin import TableInfo
from ancients_kit.render import render_map, terrain_glyph, terrain_style
from ancients_kit.tables import OddsTable

__all__ = ["inspect", "picture_of", "render", "render_state", "status", "table_infos", "unit_label"]

ARROWS = ("↑", "↗", "↘", "↓", "↙", "↖")
"""Facing arrows for directions N NE SE S SW NW (cen:full.facing)."""


SIDE_STYLES = ("bold bright_yellow", "bold bright_cyan")
"""Text colour of the first and second player's units."""


def unit_label(state: CenturionState, h: Hex, viewer: str | None = None) -> str:
    """Up to four characters for a stack: type of its first combat unit and the
    number of units (``SD3``); lower case when dispersed; ``??`` when hidden
    (cen:basic.stacking C)."""
    units = state.stack_at(h)
    if not units:
        return ""
    if not stack_visible(state, h, viewer):
        return "??"
    combat = [u for u in units if not state.types[u.type].is_command] or units
    code = combat[0].type[:2]
    if any(u.dispersed for u in units):
        code = code.lower()
    if any(state.types[u.type].is_command for u in units) and len(combat) < len(units):
        code += "*"
    n = len(combat)
    return f"{code}{n}" if n > 1 else code


def render_state(state: CenturionState, viewer: str | None = None, highlight: set[Hex] | None = None) -> Any:
    """A rich renderable of the map and units (the core's ``render_map``);
    ``highlight`` hexes (the current question's options) are marked."""

    hm = state.map
    glyph = terrain_glyph(hm) if hasattr(hm, "legend") else (lambda h: "")
    tstyle = terrain_style(hm) if hasattr(hm, "legend") else (lambda h: None)
    first = state.sides[0]
    full = state.version != "basic"

    def sub(h: Hex) -> str:
        units = state.stack_at(h)
        if not units:
            marks = state.markers.get(h, ())
            return "E" if "earthworks" in marks else ("x" if "caltrops" in marks else glyph(h))
        letter = "A" if units[0].side == first else "B"
        if full and stack_visible(state, h, viewer):
            combat = [u for u in units if not state.types[u.type].is_command] or units
            return letter + ARROWS[combat[0].facing % 6]
        return letter

    def style(h: Hex) -> str | None:
        base = tstyle(h) or ""
        side = state.side_at(h)
        if side is None:
            return base or None
        colour = SIDE_STYLES[0] if side == first else SIDE_STYLES[1]
        bg = base.split(" on ", 1)[1] if " on " in base else ""
        return f"{colour} on {bg}" if bg else colour

    def label(h: Hex) -> str:
        return unit_label(state, h, viewer) or state.hid(h)  # empty hexes show their printed ID

    out = render_map(hm, label=label, style=style, sublabel=sub,
                     highlight=highlight or frozenset())
    if not isinstance(out, Text):
        return out
    legend = (
        f"\nA = {state.side_names.get(first, first)}, B = {state.side_names.get(state.sides[1], state.sides[1])}; "
        "SD3 = three units, first one Swordsmen; * = with a Command unit; lower case = dispersed"
    )
    if full:
        legend += "; arrow = facing"
    out.append(legend)
    return out


def render(state: CenturionState, viewer: str | None, highlight: Collection[str] = ()) -> Any:
    """:func:`render_state` with the hexes named in ``highlight`` marked (keys that
    are not hexes, such as unit IDs, are skipped)."""
    marks = set()
    for key in highlight:
        try:
            marks.add(state.numbering.from_id(key))
        except ValueError:  # highlight keys that are not hexes (units) are skipped
            continue
    return render_state(state, viewer, marks)


# ------------------------------------------------------------------ listings


def _frac(x: Any) -> str:
    return "-" if x is None else str(x)


def table_infos(store: DataStore) -> list[TableInfo]:
    """Every chart, table, unit list and map of Centurion with its provenance."""
    data = load_all(store)
    out: list[TableInfo] = []
    meta_units, _ = store.load("units.toml", model._UnitsDoc)
    rows = []
    for t in data["types"].values():
        rows.append((
            t.code, t.name, str(t.kind), str(t.basic) if t.basic else "-",
            str(t.melee_attack), str(t.melee_defence_front), str(t.melee_defence_flank), str(t.movement),
            str(t.fire or "-"), str(t.stack_limit), str(t.points), t.source,
        ))
    out.append(TableInfo(meta_units.id, meta_units.title or "Unit types", meta_units,
                         ("code", "name", "kind", "basic", "MAF", "MDF/F", "MDF/K", "MFA", "FCF", "stack", "pts", "source"),
                         tuple(rows)))
    meta_cap, _ = store.load("capability.toml", model._CapabilityDoc)
    rows = []
    for c in data["capability"].values():
        rows.append((c.code, c.melee_offence, "yes" if c.fire_offence else "no", "yes" if c.fire_defence else "no",
                     c.fire_and_melee, "yes" if c.charge else "no", "yes" if c.form_square else "no",
                     "yes" if c.zoc_basic else "no", str(c.retreat_before_combat)))
    out.append(TableInfo(meta_cap.id, meta_cap.title or "Combat Unit Capability", meta_cap,
                         ("code", "melee", "fire", "def. fire", "fire+melee", "charge", "square", "basic ZOC", "retreat"),
                         tuple(rows)))
    meta_ter, _ = store.load("terrain.toml", model._TerrainDoc)
    rows = []
    for t in data["terrain"].values():
        by_kind = ", ".join(f"{k} {v}" for k, v in t.cost_by_kind.items())
        rows.append((t.id, t.placement, _frac(t.cost), by_kind or "-", ", ".join(t.prohibited) or "-",
                     str(t.melee_defence), str(t.melee_attack_out), str(t.fire_protection), t.confidence))
    out.append(TableInfo(meta_ter.id, meta_ter.title or "Terrain Effects Chart", meta_ter,
                         ("terrain", "on", "cost", "by kind", "prohibited", "MDF x", "MAF out x", "FPF x", "conf."),
                         tuple(rows)))
    for rel in ("crt_melee.toml", "crt_fire.toml"):
        # a variant's broken CRT is an error here too, exactly as when a game starts
        tab = data["melee"] if rel == "crt_melee.toml" else load_crt(store, rel)
        if isinstance(tab, OddsTable):
            trows = tuple((r.band.label, *r.results) for r in tab.rows)
            out.append(TableInfo(tab.id, tab.title or tab.id, tab.meta, ("roll", *tab.columns), trows, dict(tab.codes)))
    hm = load_map(store, "map.toml")
    counts: dict[str, int] = {}
    for h in hm.hexes():
        t = hm.terrain(h)
        counts[t] = counts.get(t, 0) + 1
    feats = {f: len(hm.hexsides_with(f)) for f in sorted(hm.feature_names())}
    rows = [(t, str(n), "hexes") for t, n in sorted(counts.items())]
    rows += [(f, str(n), "hexsides") for f, n in feats.items()]
    out.append(TableInfo(hm.meta.id, hm.meta.title or "Map", hm.meta, ("terrain / feature", "count", "on"), tuple(rows)))
    return out


# ------------------------------------------------------------------ pictures


def picture_of(state: CenturionState, viewer: str | None = None) -> Any:
    """The position as a core :class:`~ancients_kit.picture.Picture` (``ancients show``,
    the HTML replay): one counter per stack, its first combat unit's type, the
    stack's factors, facing in the Full Simulation, hidden stacks face down
    (cen:basic.stacking C), earthworks and caltrops as markers."""
    hm = state.map
    hexes, sides = hexmap_hexes(hm)
    full = state.version != "basic"
    counters = []
    for h in sorted({u.hex for u in state.live_units() if u.hex is not None}, key=lambda x: state.hid(x)):
        units = state.stack_at(h)
        if not units:
            continue
        side = units[0].side
        hid = state.hid(h)
        if not stack_visible(state, h, viewer):
            counters.append(Counter(hid, side, "??", hidden=True, detail=f"{hid}: an enemy stack out of sight"))
            continue
        combat = [u for u in units if not state.types[u.type].is_command] or units
        first = combat[0]
        t = state.types[first.type]
        if full:
            strength = f"{t.melee_attack}-{t.melee_defence_front}-{t.movement}"
        else:
            b = t.basic
            strength = f"{b.attack}-{b.defence}-{b.movement}" if b else ""
        marks = []
        if any(u.dispersed for u in units):
            marks.append("dispersed")
        if any(state.types[u.type].is_command for u in units) and len(combat) < len(units):
            marks.append("*command")
        if full and any(u.in_square for u in units):
            marks.append("square")
        code = first.type[:2] + (str(len(combat)) if len(combat) > 1 else "")
        detail = f"{hid}: " + ", ".join(f"{u.id} ({state.types[u.type].name})" for u in units)
        counters.append(Counter(hid, side, code, strength, first.facing % 6 if full else None,
                                detail=detail, marks=tuple(marks)))
    markers = [Marker(state.hid(h), m) for h, ms in sorted(state.markers.items(), key=lambda kv: state.hid(kv[0]))
               for m in sorted(ms)]
    legend = {
        "SD3": "three units, the first one Swordsmen (its melee attack-defence-movement below)",
        "d": "dispersed", "*": "with a Command unit", "s": "in square",
        "??": "an enemy stack out of sight (cen:basic.stacking C)",
    }
    if full:
        legend["triangle"] = "the facing of the first unit (cen:full.facing)"
    return Picture(
        orientation=hm.numbering.orientation,
        hexes=hexes,
        hexsides=sides,
        counters=tuple(counters),
        markers=tuple(markers),
        sides=tuple((s, state.side_names.get(s, s)) for s in state.sides),
        title=f"{state.scenario.title}",
        legend=legend,
    )


def inspect(state: CenturionState, viewer: str | None, hex_id: str) -> tuple[str, ...]:
    """Each unit of the stack on ``hex_id`` with its factors and state, unless the
    viewer may not see the stack's make-up (cen:basic.stacking C)."""
    try:
        h = state.hex_of(hex_id)
    except ValueError:
        return ()
    units = state.stack_at(h)
    if not units or not stack_visible(state, h, viewer):
        return ()
    full = state.version != "basic"
    facing = ("N", "NE", "SE", "S", "SW", "NW") if state.map.numbering.orientation == "flat" else (
        "NE", "E", "SE", "SW", "W", "NW")
    out = []
    for u in units:
        t = state.types[u.type]
        if full:
            factors = (f"melee {t.melee_attack}, defence {t.melee_defence_front} front / "
                       f"{t.melee_defence_flank} flank, movement {t.movement}"
                       + (f", fire {t.fire} at range {t.fire_range}" if t.fire else "") + f", {t.points} pts")
        else:
            factors = f"attack {basic_attack_factor(state, u)}, defence {t.basic.defence if t.basic else t.melee_defence_front}, movement {t.basic.movement if t.basic else t.movement}"
        flags = [name for name, on in (
            (f"dispersed ({u.dispersed} turn{'s' if u.dispersed != 1 else ''})", u.dispersed),
            ("demoralized", u.demoralized), ("in square", u.in_square), ("panicked", u.panicked),
            ("has moved", u.moved), ("has attacked", u.attacked)) if on]
        out.append(f"{u.id}: {t.name}; {factors}" + (f"; facing {facing[u.facing % 6]}" if full else "")
                   + (f"; {', '.join(flags)}" if flags else ""))
    return tuple(out)


def status(state: CenturionState, viewer: str | None) -> str:
    """The status line: the turn, the phase, who is to play, and each side's losses
    (units in the Basic Game, cen:basic.victory; points in the Full Simulation, cen:full.victory)."""
    parts = [f"Turn {state.turn}/{state.scenario.turns}", f"{state.phase}"]
    if state.active:
        parts.append(f"{state.side_names.get(state.active, state.active)} to play")
    if state.version == "basic":
        fr = loss_fractions(state)
        for s in state.sides:
            parts.append(f"{state.side_names.get(s, s)} lost {state.lost_units.get(s, 0)}/"
                         f"{state.start_units.get(s, 0)} ({float(fr[s] * 100):.0f}%)")
    else:
        for s in state.sides:
            parts.append(f"{state.side_names.get(s, s)} lost {state.lost_points.get(s, 0)}/"
                         f"{state.start_points.get(s, 0)} pts")
    return " | ".join(parts)
