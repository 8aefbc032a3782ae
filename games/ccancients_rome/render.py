"""Drawing the battlefield and listing the game's tables.

Owns the rich renderable of the board (three sections, terrain, units with
type and blocks left, leaders, wagons) and the status line; each viewer sees
only their own hand (``Hand.visible_to``), the other hand's size only. Also
builds the ``ancients tables`` listing (units, terrain, deck, battles).
Serves ``ccr:base.sections``, ``ccr:units``, ``ccr:base.cards``.
"""

from __future__ import annotations

from collections.abc import Collection

from typing import Any

from rich.console import Group
from rich.text import Text

from ancients_kit.data import DataStore
from ancients_kit.picture import SQRT3, Counter, Marker, Picture, PictureHex, PictureLine, offset_centre
from ancients_kit.plugin import TableInfo

from .cards import load_deck
from .leaders import leader_called
from .scenario import BOARD_ROWS, hex_id, list_battles, load_battle, parse_hex_id, row_length
from .state import GameState
from .terrain import load_terrain
from .units import load_units

__all__ = ["hand", "inspect", "picture", "render", "status", "tables"]

TERRAIN_MARK = {"clear": " ", "hill": "^", "forest": "f", "river": "~", "ford": "=", "bridge": "#", "camp": "C",
                "town": "T", "marsh": "m"}
TERRAIN_STYLE = {"hill": "on grey23", "forest": "on dark_green", "river": "on blue", "ford": "on dark_cyan",
                 "bridge": "on grey37", "camp": "on dark_goldenrod", "town": "on grey30", "marsh": "on dark_olive_green3"}
CELL = 7
"""Characters per hex; with the one-character separator the stride is even, so short rows sit exactly half a hex in."""
SECTION_LINE = "┆"
"""The dotted lines between the left flank, centre and right flank (ccr:base.sections)."""
LINE_STYLE = "yellow"


def _cell(state: GameState, h: str) -> tuple[str, str]:
    bs = state.b
    terr = bs.board.terrain[h]
    u = bs.at.get(h)
    top = bs.by_key["top"].name
    mark = TERRAIN_MARK.get(terr, "?")
    style = TERRAIN_STYLE.get(terr, "")
    if u is not None:
        txt = f"{u.code}{u.blocks}"
        if bs.leader_with(u) is not None:
            txt += "*"
        if u.guard:
            txt += "g"
        colour = "bold red" if u.side == top else "bold cyan"
        style = f"{colour} {style}".strip()
    elif bs.leaders_at(h):
        ld = bs.leaders_at(h)[0]
        txt = "Ldr"
        style = ("red " if ld.side == top else "cyan ") + style
    else:
        txt = h
        style = ("dim " + style).strip()
    w = bs.wagon_at(h)
    if w is not None:
        mark_w = "W" if w.kind == "baggage-wagon" else "L"
        txt = mark_w + (txt[:4] if u is not None else ("agon" if mark_w == "W" else "aagr"))
    return f"{mark}{txt}".ljust(CELL)[:CELL], style


def render(state: GameState, viewer: str | None, highlight: Collection[str] = ()) -> Any:
    """The board (row 01 at the top), then banners and the hands the viewer may see.

    Hexes in ``highlight`` (the current question's options) are shown reversed.
    """
    marked = frozenset(highlight)
    bs = state.b
    lines: list[Text] = []
    head = Text(f"{bs.battle.title} ({bs.battle.year})" + (f" - {state.label}" if state.label else "") +
                f"   turn {bs.turn}, {bs.active or bs.first} to play", style="bold")
    lines.append(head)
    top, bottom = bs.by_key["top"], bs.by_key["bottom"]
    lines.append(Text(f"top: {top.name} ({top.army})   sections seen from the bottom: left | centre | right", style="red"))
    board = bs.board
    for r in range(1, BOARD_ROWS + 1):
        # Full rows are offset half a hex (CELL + 1 separator = an even stride) from short rows: a
        # dotted line runs between two hexes of a full row; a hex it cuts in a short row (in both
        # sections, ccr:base.sections) has the line on both its sides, so that no label is cut.
        t = Text(f"{r:02d} " + (" " * ((CELL + 1) // 2) if row_length(r) < row_length(1) else ""))
        prev: tuple[str, ...] = ()
        for c in range(1, row_length(r) + 1):
            h = hex_id(c, r)
            txt, style = _cell(state, h)
            if h in marked:
                style = f"{style} reverse".strip()
            secs = board.sections(h, "bottom")
            if c > 1:
                crossed = len(prev) > 1 or len(secs) > 1 or prev != secs
                t.append(SECTION_LINE if crossed else " ", style=LINE_STYLE if crossed else "")
            t.append(txt, style=style)
            prev = secs
        lines.append(t)
    lines.append(Text(f"bottom: {bottom.name} ({bottom.army})", style="cyan"))
    for a in (top, bottom):
        hand = a.hand.visible_to(viewer) if viewer is not None else a.hand.cards
        shown = ", ".join(f"{c} {bs.cards[c].name}" for c in hand) if isinstance(hand, tuple) else f"{hand} cards"
        lines.append(Text(f"{a.name}: {a.banners}/{a.target} banners; hand: {shown}"))
    lines.append(Text("units: CODE+blocks, * leader attached, g Praetorian Guard, W baggage wagon, L wagon laager; "
                      "terrain: ^ hill f forest ~ river = ford # bridge C camp T town m marsh; "
                      f"{SECTION_LINE} section lines (a hex between two {SECTION_LINE} is in both sections)", style="dim"))
    return Group(*lines)


def status(state: GameState, viewer: str | None) -> str:
    bs = state.b
    parts = [f"turn {bs.turn}", f"{bs.active or bs.first} {bs.phase}".strip()]
    parts += [f"{a.name} {a.banners}/{a.target}" for a in bs.armies.values()]
    if state.series is not None:
        parts.append(f"{state.label}; series totals " + ", ".join(f"{s} {state.totals[s]}" for s in state.sides))
    return " | ".join(parts)


def tables(store: DataStore) -> list[TableInfo]:
    units = load_units(store)
    terrain = load_terrain(store)
    deck = load_deck(store)
    urows = tuple(
        (code, u.name, u.symbol, "mounted" if u.mounted else "foot", str(u.blocks),
         str(u.move) + (f" ({u.move_no_battle} no battle)" if u.move_no_battle else "") +
         (f" ({u.move_charge} to charge)" if u.move_charge else ""),
         str(u.range or "-"), str(u.close) + (f"/{u.close_def}" if u.close_def else ""), str(u.retreat),
         ", ".join(u.evade) or "-")
        for code, u in units.types.items())
    trows = tuple(
        (name, "yes" if t.stop else "", "yes" if t.impassable else "", str(t.cap_in or ""), str(t.cap_out or ""),
         str(t.cap_uphill or ""), "yes" if t.blocks_los else "", "yes" if t.ignore_flag_foot else "")
        for name, t in terrain.terrain.items())
    drows = tuple((c.id, c.name, str(c.count), c.kind,
                   ", ".join(f"{k} {v or 'command'}" for k, v in c.orders.items()) or c.troops or c.effect)
                  for c in deck.cards)
    maps = []
    for bid in list_battles(store):
        b = load_battle(store, bid)
        tm = b.board.terrain_map()
        rows = []
        for r in range(1, BOARD_ROWS + 1):
            cells = []
            for c in range(1, row_length(r) + 1):
                h = hex_id(c, r)
                u = next((p.unit for _, side in b.sides() for p in side.units if p.hex == h), "")
                cells.append((TERRAIN_MARK.get(tm[h], "?") + u).ljust(4))
            rows.append((f"{r:02d}", ("  " if r % 2 == 0 else "") + " ".join(cells)))
        assert b.meta is not None
        maps.append(TableInfo(f"map.{b.slug}", f"Battlefield: {b.title} ({b.year})", b.meta, ("row", "hexes"),
                              tuple(rows), {"terrain": "^ hill, f forest, ~ river, = ford, # bridge, C camp, T town, m marsh",
                                            "top": b.top.army, "bottom": b.bottom.army}))
    return [
        TableInfo("units", "Unit table", units.meta,
                  ("code", "unit", "symbol", "class", "blocks", "move", "range", "close", "retreat", "evades"), urows),
        TableInfo("terrain", "Terrain effects", terrain.meta,
                  ("terrain", "stop", "impassable", "max dice in", "max dice out", "max uphill", "blocks sight",
                   "foot ignores a flag"), trows),
        TableInfo("deck", "Command deck (60 cards)", deck.meta, ("id", "card", "count", "kind", "orders"), drows),
        *maps,
    ]


def picture(state: GameState, viewer: str | None = None) -> Any:
    """The battlefield as a core :class:`~ancients_kit.picture.Picture`: terrain hexes,
    the two dotted section lines (ccr:base.sections), units with their blocks,
    leaders (attached or alone) and wagons. Nothing on the board is hidden in
    C&C; the hands are not part of the picture."""

    bs = state.b
    board = bs.board
    hexes = []
    for h in board.hexes:
        col, row = parse_hex_id(h)
        x, y = offset_centre("pointy", col - 1, row - 1, row_length(row) < row_length(1))
        hexes.append(PictureHex(h, x, y, board.terrain[h]))
    cuts = (4, 9)  # the section lines lie after the 4th and 9th hex of a long row
    lines = tuple(PictureLine((c - 0.5) * SQRT3, -0.9, (c - 0.5) * SQRT3, 1.5 * (BOARD_ROWS - 1) + 0.9) for c in cuts)
    counters = []
    for h in sorted(bs.at):
        u = bs.at[h]
        marks = []
        ld = bs.leader_with(u)
        if ld is not None:
            marks.append("*leader")
        if u.guard:
            marks.append("guard")
        detail = f"{h}: {u.side} {u.code}, {u.blocks} of {u.max_blocks} blocks" + (f", with {ld.name}" if ld else "")
        counters.append(Counter(h, u.side, u.code, f"{u.blocks} bl.", detail=detail, marks=tuple(marks)))
    for ld in sorted(bs.leaders, key=lambda x: (x.hex, x.lid)):
        if ld.hex and ld.hex not in bs.at:
            counters.append(Counter(ld.hex, ld.side, "Ldr", detail=f"{ld.hex}: {leader_called(ld)}, alone"))
    markers = [Marker(w.hex, "baggage wagon" if w.kind == "baggage-wagon" else "wagon laager")
               for w in bs.wagons if w.hex]
    top, bottom = bs.by_key["top"], bs.by_key["bottom"]
    return Picture(
        orientation="pointy",
        hexes=tuple(hexes),
        counters=tuple(counters),
        markers=tuple(markers),
        lines=lines,
        sides=((top.name, f"{top.name} ({top.army}, top)"), (bottom.name, f"{bottom.name} ({bottom.army}, bottom)")),
        title=f"{bs.battle.title} ({bs.battle.year})",
        status=f"turn {bs.turn}; banners {top.name} {top.banners}/{top.target}, {bottom.name} {bottom.banners}/{bottom.target}",
        legend={
            "HI 4 bl.": "unit type and blocks left", "*": "leader attached", "g": "Praetorian Guard",
            "Ldr": "a leader alone", "dotted lines": "section lines; a hex they cut is in both sections",
        },
    )


def inspect(state: GameState, viewer: str | None, hex_id: str) -> tuple[str, ...]:
    """The unit on ``hex_id``: its type's dice, movement, range and retreat, blocks,
    leader and this turn's orders (nothing on the board is hidden in C&C)."""
    bs = state.battle
    u = bs.at.get(hex_id) if bs is not None else None
    if u is None:
        return ()
    t = bs.types[u.code]
    ld = bs.leader_with(u)
    facts = [f"{u.code} {t.name} ({t.symbol}, {'mounted' if t.mounted else 'foot'}): "
             f"{u.blocks} of {u.max_blocks} block{'s' if u.max_blocks != 1 else ''}",
             f"move {t.move}, close combat {t.close} dice" + (f", range {t.range}" if t.range else "")
             + f", retreat {t.retreat} per flag" + (f", evades {', '.join(t.evade)}" if t.evade else "")]
    state_ = [x for x, on in (("ordered", u.ordered), (f"moved {u.moved}", u.moved), ("Praetorian Guard", u.guard)) if on]
    if ld is not None:
        state_.append(f"with {ld.name}")
    if state_:
        facts.append(", ".join(state_))
    return tuple(facts)


def hand(state: GameState, viewer: str | None) -> tuple[tuple[str, str], ...]:
    """The Command cards ``viewer`` holds (ccr:base.cards); the other hand stays hidden."""
    bs = state.battle
    if bs is None or viewer is None or viewer not in bs.armies:
        return ()
    cards = bs.armies[viewer].hand.visible_to(viewer)
    return tuple((str(c), bs.cards[c].name) for c in cards) if isinstance(cards, tuple) else ()
