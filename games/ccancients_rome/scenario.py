"""Scenario schema and loaders for C&C: Ancients, Imperial Rome (24 battles, 2 series).

Owns: the attrs classes a battle file (``data/battles/<slug>.toml``) and a
series file (``data/series/<slug>.toml``) are structured into, the vocabularies
they may use (terrain names, unit codes, special-rule kinds, unit flags), the
checks that every battle is playable on the standard board, and the loaders
:func:`list_battles`, :func:`load_battle` and :func:`load_series`.

Serves the rules: ``ccr:setup`` (battlefield, armies, command cards),
``ccr:victory`` (victory banners), ``ccr:sequence`` (who plays first), every
``ccr:scenario.<slug>`` War Council, ``ccr:para-bellum`` (series), and the
scenario switches of ``ccr:baggage-wagon``, ``ccr:wagon-laager``,
``ccr:caltrops``, ``ccr:praetorian-guard``, ``ccr:marian-legions``,
``ccr:julian-legions``, ``ccr:imperial-legions``, ``ccr:bridge``, ``ccr:ford``.

What comes from the book and what is reconstructed
---------------------------------------------------
The rulebook text prints each battle's War Council (army names, named leaders,
Command cards, who moves first), its Victory Banners and its special rules.
It does *not* print the battlefield maps (terrain and unit symbols), so every
board and every unit placement is reconstructed from the battle's historical
account and the book's special rules; each battle file says so in
``meta.note``. Which army sits at the top of the board is also not printed in
our text: the War Council lists the top army first (the C&C page layout), and
the battle files follow that.

Battle file layout (TOML)
-------------------------
::

    [meta]                       # ancients_kit.data.Meta (id, source, rules, note, sources)
    id = "ccancients_rome.battle.tigranocerte"
    ...
    number = 1                   # position in the book (1..24)
    title = "Tigranocerte"
    year = -69                   # as the book prints it (minus = BC)
    summary = "..."              # historical notes, own words
    historical_winner = "bottom" # "top" | "bottom" | "none"
    first_player = "bottom"      # "top" | "bottom" | "dice-off" (Medway)

    [victory]
    banners = 6                  # banners both sides need (per-side exceptions are rules)

    [top]                        # the army at the top of the board (row 01 is its baseline)
    army = "Armenian Army"       # as printed in the War Council
    faction = "Eastern Kingdoms" # "Roman" | "Eastern Kingdoms" | "Barbarian"
    blocks = "beige"             # block colour the book names ("" if not printed)
    leaders = ["King Tigranes the Great"]   # named in the War Council
    command_cards = 4
    units = [ { hex = "0302", unit = "LC" }, { hex = "0602", unit = "HI", flags = ["praetorian-guard"] } ]
    leader_hexes = [ { hex = "0602", name = "King Tigranes the Great" }, { hex = "1002" } ]
    wagons = [ { hex = "0701", kind = "baggage-wagon" } ]
    reserve = [ { unit = "HI" } ]         # off-board units (Mons Graupius)
    reserve_leaders = 1

    [bottom]
    ...

    [[special_rules]]
    kind = "impassable"          # one of SPECIAL_RULE_KINDS
    rule = "The river is impassable."   # own words
    rules = ["ccr:scenario.tigranocerte"]
    terrain = "river"            # optional parameters, see SpecialRule
    hexes = []

    [board]                      # the MAPFORMAT [grid]/[terrain]/[hexes]/[[hexsides]]/[places]
    [board.terrain]              # tables, nested under "board"; [board.grid] defaults to
    default = "clear"            # STANDARD_GRID (13 x 9 pointy-top, short even rows)
    legend = { "." = "clear", "h" = "hill" }
    rows = [                     # 9 strings; spaces are ignored, so draw the offset:
      ". . . . . . . . . . . . .",   # odd rows: 13 hexes
      " . . . . . . . . . . . .",    # even rows: 12 hexes, shifted half a hex right
    ]
    [board.places]
    "Tigranocerta" = "0701"

Hex IDs are printed CCRR: column 01-13 (01-12 on the short even rows), row
01-09 with row 01 the top edge. The board has 5 x 13 + 4 x 12 = 113 hexes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, Literal

import attrs

from ancients_kit.data import DataError, DataStore, Meta, bounded, document_file, split_meta, structure
from ancients_kit.hexmap import HexMap, MapSpec

from .packaged import load_packaged

__all__ = [
    "BOARD_COLUMNS",
    "BOARD_HEX_COUNT",
    "BOARD_ROWS",
    "DEFAULT_LEGEND",
    "FACTIONS",
    "SPECIAL_RULE_KINDS",
    "STANDARD_GRID",
    "TERRAIN",
    "UNIT_FLAGS",
    "UNIT_TYPES",
    "WAGON_KINDS",
    "Battle",
    "Board",
    "BoardTerrain",
    "HexsideFeature",
    "LeaderPlacement",
    "ReserveUnit",
    "ScenarioError",
    "Series",
    "SeriesBattle",
    "SeriesRally",
    "Side",
    "SideKey",
    "SpecialRule",
    "UnitPlacement",
    "UnitType",
    "Victory",
    "WagonPlacement",
    "board_hex_ids",
    "hex_id",
    "is_on_board",
    "list_battles",
    "list_series",
    "load_battle",
    "load_series",
    "parse_hex_id",
]

PACKAGE = "ancients_games.ccancients_rome"
BATTLE_PREFIX = "ccancients_rome.battle."
SERIES_PREFIX = "ccancients_rome.series."

# --------------------------------------------------------------------------
# Vocabularies
# --------------------------------------------------------------------------

SideKey = Literal["top", "bottom"]
"""A side is named by its board edge: ``top`` owns row 01, ``bottom`` row 09 (ccr:setup)."""

FirstPlayer = Literal["top", "bottom", "dice-off"]
"""Who plays first (ccr:sequence); ``dice-off`` is Medway's roll for leader symbols."""

Winner = Literal["top", "bottom", "none"]

BOARD_COLUMNS = 13
"""Hexes in a long (odd) row; short (even) rows hold one fewer (ccr:setup, base board)."""
BOARD_ROWS = 9
"""Rows on the C&C board; row 01 is the top edge."""
BOARD_HEX_COUNT = 113
"""5 long rows x 13 + 4 short rows x 12."""

STANDARD_GRID: Mapping[str, Any] = {
    "orientation": "pointy",
    "shifted": "even",
    "columns": BOARD_COLUMNS,
    "rows": BOARD_ROWS,
    "first_column": 1,
    "first_row": 1,
    "digits": 2,
    "short_rows": True,
}
"""The C&C board in the MAPFORMAT [grid] vocabulary (core: ancients_kit.hexmap)."""

TERRAIN: Mapping[str, str] = {
    "clear": "Open ground; no effect (ccr:base.terrain).",
    "hill": "Hill: blocks line of sight, limits dice battling uphill (ccr:base.terrain); "
    "some battles make chosen hills impassable (special rule kind 'impassable').",
    "forest": "Forest/woods: units stop on entry, limited dice, blocks line of sight (ccr:base.terrain).",
    "river": "River hex: impassable for movement and retreat unless a rule says otherwise (ccr:base.terrain).",
    "ford": "Fordable river hex: stop on entry, max 2 dice in close combat in or out (ccr:ford).",
    "bridge": "Bridge (also pontoon bridge) across a river hex (ccr:bridge).",
    "camp": "Fortified camp (ccr:base.terrain); some battles give a banner for taking it (kind 'camp-banner').",
    "town": "Town or city hex (ccr:base.terrain).",
    "marsh": "Marsh: difficult ground, units stop on entry (ccr:base.terrain).",
}
"""Every terrain name a battle board may use; the rules code maps each to its effects."""

DEFAULT_LEGEND: Mapping[str, str] = {
    ".": "clear",
    "h": "hill",
    "f": "forest",
    "~": "river",
    "=": "ford",
    "#": "bridge",
    "C": "camp",
    "T": "town",
    "m": "marsh",
}
"""The legend the battle files use (each file repeats it so it reads on its own)."""


@attrs.frozen
class UnitType:
    """A unit code of the battle files and what the book says about it (ccr:units)."""

    code: str
    name: str
    """Full name as the book spells it."""
    mounted: bool
    blocks: int
    """Blocks in a full-strength unit (ccr:units)."""


def _ut(code: str, name: str, mounted: bool, blocks: int) -> tuple[str, UnitType]:
    return code, UnitType(code, name, mounted, blocks)


UNIT_TYPES: Mapping[str, UnitType] = dict(
    [
        _ut("LI", "Light Infantry", False, 4),
        _ut("LB", "Light Bow Infantry", False, 4),
        _ut("LS", "Light Sling Infantry", False, 4),
        _ut("AX", "Auxilia", False, 4),
        _ut("WA", "Warriors", False, 4),
        _ut("MI", "Medium Infantry", False, 4),
        _ut("HI", "Heavy Infantry", False, 4),
        _ut("LWM", "Light War Machine", False, 2),
        _ut("HWM", "Heavy War Machine", False, 2),
        _ut("LC", "Light Cavalry", True, 3),
        _ut("LBC", "Light Bow Cavalry", True, 3),
        _ut("MC", "Medium Cavalry", True, 3),
        _ut("HC", "Heavy Cavalry", True, 3),
        _ut("HCC", "Heavy Cataphract Cavalry", True, 3),
        _ut("CA", "Camel", True, 3),
        _ut("CCA", "Cataphract Camel", True, 3),
        _ut("EL", "Elephant", True, 2),
        _ut("HCH", "Heavy Chariot", True, 2),
        _ut("BCH", "Barbarian Chariot", True, 3),
    ]
)
"""Unit codes (base-game abbreviations; HCC and CCA are new in this book, ccr:heavy-cataphract,
ccr:cataphract-camel). Baggage wagons and wagon laagers are not units: see WAGON_KINDS."""

WAGON_KINDS: Mapping[str, str] = {
    "baggage-wagon": "Baggage Wagon: not a unit; orderable, destroyed for a banner (ccr:baggage-wagon).",
    "wagon-laager": "Wagon Laager: not a unit; fixed, shelters foot, destroyed for a banner (ccr:wagon-laager).",
}

UNIT_FLAGS: Mapping[str, str] = {
    "praetorian-guard": "Special unit block: the Praetorian Guard (ccr:special-units, ccr:praetorian-guard).",
    "special-unit": "A special unit block whose powers a special rule of the battle defines (ccr:special-units).",
}
"""Flags a unit placement may carry."""

FACTIONS: Mapping[str, str] = {
    "Roman": "Roman blocks (grey, red or purple, as the War Council says).",
    "Eastern Kingdoms": "Beige Eastern Kingdoms blocks.",
    "Barbarian": "Green Barbarian blocks.",
}

SPECIAL_RULE_KINDS: Mapping[str, str] = {
    "marian-legions": "Roman HI/MI of the listed sides have pilum ranged fire (ccr:marian-legions).",
    "julian-legions": "As Marian, plus move 2 without battle (ccr:julian-legions).",
    "imperial-legions": "As Marian, for the Imperial legions (ccr:imperial-legions).",
    "baggage-wagon": "The Baggage Wagon rule is in effect (ccr:baggage-wagon).",
    "wagon-laager": "The Wagon Laager rule is in effect for the listed sides (ccr:wagon-laager).",
    "wagon-laager-impassable": "Wagon Laager blocks are impassable terrain (Boudica's Revolt).",
    "caltrops": "Light foot of the listed sides strew caltrops when evading mounted (ccr:caltrops).",
    "praetorian-guard": "Units flagged praetorian-guard are the Guard (ccr:praetorian-guard).",
    "impassable": "The listed hexes (or all hexes of `terrain`) are impassable.",
    "crossing": "River hexes are impassable except the listed ford hexes, which only `units` (if given, e.g. foot) "
    "may enter; bridges follow their own rule (kind 'bridge').",
    "bridge": "The standard bridge rules apply to the listed bridge hexes (ccr:bridge).",
    "camp-banner": "A unit of `sides` occupying an enemy camp hex at the start of its owner's turn "
    "removes the camp tile and gains a banner.",
    "exit-banner": "A `sides` unit or wagon leaving the board by `edge` gains `banners` banners.",
    "dice-off": "Who moves first: each player rolls dice equal to his Command cards; most leader "
    "symbols moves first, ties reroll.",
    "reserve": "Off-board reserve entering on a card play (`cards`) in `section` on the owner's baseline.",
    "panic": "The listed sides may not ignore flags rolled by `units` in close combat.",
    "drown-on-retreat": "Units of `sides` forced to retreat into `terrain` or off the board are eliminated.",
    "para-bellum-suggested": "The book suggests playing this battle as a Para Bellum series (ccr:para-bellum).",
    "note": "A printed remark with no game effect, or a printed rule that does not fit the battle (see `rule`).",
}
"""Every special-rule kind a battle file may use; the rules code dispatches on ``kind``."""

RULE_UNIT_WORDS: tuple[str, ...] = ("foot", "mounted", "baggage-wagon", "wagon-laager")
"""Besides unit codes, what a special rule's ``units`` may name."""

COMMAND_CARD_NAMES: tuple[str, ...] = (
    "leadership-any-section",
    "inspired-leadership-left",
    "inspired-leadership-center",
    "inspired-leadership-right",
)
"""Card names referred to by special rules (Mons Graupius' reserve)."""

_HEX_RE = re.compile(r"^(\d\d)(\d\d)$")
_SLUG_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


MAX_HAND = 29
"""Most Command cards a War Council may give: both hands and a first draw must fit in
the 60-card deck (ccr:setup, ccr:base.cards); the printed councils give 4 to 6."""

MAX_BANNERS = 30
"""Most victory banners a target may ask (ccr:victory): the printed targets are 5 to 9, and
no printed army (at most about 20 units and 5 leaders) could yield more than 30."""


class ScenarioError(DataError):
    """A battle or series file breaks the scenario schema or the board; names file, key and rule."""

    def __init__(self, file: str, message: str, path: str = "", rule: str = "ccr:setup") -> None:
        self.rule = rule
        super().__init__(file, f"{message} [{rule}]", path)


# --------------------------------------------------------------------------
# Hex IDs on the standard board
# --------------------------------------------------------------------------


def row_length(row: int) -> int:
    """Hexes in ``row`` (1-based): 13 in odd rows, 12 in the shifted even rows."""
    return BOARD_COLUMNS - 1 if row % 2 == 0 else BOARD_COLUMNS


def parse_hex_id(text: str) -> tuple[int, int]:
    """``"0308"`` -> ``(3, 8)`` (column, row); ValueError if malformed or off the board."""
    m = _HEX_RE.match(text)
    if not m:
        raise ValueError(f"hex ID {text!r} is not CCRR (four digits) [ccr:setup]")
    col, row = int(m.group(1)), int(m.group(2))
    if not (1 <= row <= BOARD_ROWS and 1 <= col <= row_length(row)):
        raise ValueError(f"hex {text} is off the 13 x 9 board (row {row} has {row_length(row) if 1 <= row <= BOARD_ROWS else 0} hexes) [ccr:setup]")
    return col, row


def hex_id(col: int, row: int) -> str:
    """``(3, 8)`` -> ``"0308"``."""
    return f"{col:02d}{row:02d}"


def is_on_board(text: str) -> bool:
    try:
        parse_hex_id(text)
    except ValueError:
        return False
    return True


def board_hex_ids() -> list[str]:
    """All 113 printed hex IDs, row by row from the top."""
    return [hex_id(c, r) for r in range(1, BOARD_ROWS + 1) for c in range(1, row_length(r) + 1)]


def hex_neighbors(text: str) -> list[str]:
    """Printed IDs of the hexes adjacent to ``text`` on the board (even rows shifted right)."""
    col, row = parse_hex_id(text)
    # Even rows sit half a hex right: their upper/lower neighbours are col and col+1;
    # odd rows' upper/lower neighbours are col-1 and col.
    off = (0, 1) if row % 2 == 0 else (-1, 0)
    cand = [(col - 1, row), (col + 1, row)]
    for dr in (-1, 1):
        cand += [(col + off[0], row + dr), (col + off[1], row + dr)]
    return [hex_id(c, r) for c, r in cand if 1 <= r <= BOARD_ROWS and 1 <= c <= row_length(r)]


# --------------------------------------------------------------------------
# Schema
# --------------------------------------------------------------------------


@attrs.frozen
class UnitPlacement:
    """One unit on the battlefield at the start (ccr:setup): one symbol = one whole unit."""

    hex: str
    """Printed hex ID, CCRR."""
    unit: str
    """Unit code, a key of UNIT_TYPES."""
    flags: tuple[str, ...] = ()
    """Keys of UNIT_FLAGS (e.g. ``praetorian-guard``)."""
    note: str = ""


@attrs.frozen
class LeaderPlacement:
    """A leader block (ccr:base.leaders); in a unit's hex it is attached to that unit."""

    hex: str
    name: str = ""
    """Name when the War Council names him; unnamed leaders are the other leader blocks."""


@attrs.frozen
class WagonPlacement:
    """A Baggage Wagon or Wagon Laager block (not a unit; ccr:baggage-wagon, ccr:wagon-laager)."""

    hex: str
    kind: Literal["baggage-wagon", "wagon-laager"]


@attrs.frozen
class ReserveUnit:
    """A unit held off the board until a special rule brings it in (Mons Graupius)."""

    unit: str
    flags: tuple[str, ...] = ()


@attrs.frozen
class Side:
    """One army: the War Council (from the book) and its placements (reconstructed)."""

    army: str
    """Army name as the War Council prints it."""
    faction: str
    """Block family, a key of FACTIONS."""
    command_cards: int = attrs.field(validator=bounded(1, MAX_HAND, rule="ccr:setup"))
    """Command cards in hand (ccr:setup)."""
    leaders: tuple[str, ...] = ()
    """Leaders the War Council names."""
    blocks: str = ""
    """Block colour the War Council names (beige, grey, red, purple, green; '' if not printed)."""
    units: tuple[UnitPlacement, ...] = ()
    leader_hexes: tuple[LeaderPlacement, ...] = ()
    wagons: tuple[WagonPlacement, ...] = ()
    reserve: tuple[ReserveUnit, ...] = ()
    reserve_leaders: int = attrs.field(default=0, validator=bounded(0, 9, rule="ccr:base.leaders"))
    printed_army: str = ""
    """The army name as the War Council prints it, when we corrected it (Issus, Lugdunum)."""
    printed_leaders: tuple[str, ...] = ()
    """The leaders as the War Council prints them, when we corrected them."""
    note: str = ""

    @property
    def leader_count(self) -> int:
        """Leader blocks on the board at the start (named and unnamed; reserve leaders excluded)."""
        return len(self.leader_hexes)

    def unit_counts(self) -> dict[str, int]:
        """Units on the board by code (reserve excluded)."""
        out: dict[str, int] = {}
        for u in self.units:
            out[u.unit] = out.get(u.unit, 0) + 1
        return out


@attrs.frozen
class Victory:
    """Victory banners (ccr:victory)."""

    banners: int = attrs.field(validator=bounded(1, MAX_BANNERS, rule="ccr:victory"))
    """Banners both players need unless a special rule changes one side's target."""
    note: str = ""


@attrs.frozen
class SpecialRule:
    """A scenario special rule: a ``kind`` the rules code dispatches on, parameters, and text.

    Only the parameters the kind needs are set; the others keep their empty defaults.
    """

    kind: str
    """A key of SPECIAL_RULE_KINDS."""
    rule: str
    """The rule in our own words."""
    rules: tuple[str, ...] = ()
    """Rule IDs (the battle's ccr:scenario.<slug> and the generic rule it switches on)."""
    sides: tuple[SideKey, ...] = ()
    """Sides the rule applies to (or benefits)."""
    hexes: tuple[str, ...] = ()
    """Hexes it concerns (impassable hexes, fords, bridges, camps)."""
    terrain: str = ""
    """Terrain it concerns (all hexes of that terrain when ``hexes`` is empty)."""
    units: tuple[str, ...] = ()
    """Unit codes it concerns, or RULE_UNIT_WORDS (foot, mounted, baggage-wagon); empty = any unit."""
    edge: str = ""
    """Board edge: top, bottom, left or right, as seen from the bottom player."""
    banners: int = attrs.field(default=0, validator=bounded(0, MAX_BANNERS, rule="ccr:victory"))
    """Banners gained per event, or the new target (reserve)."""
    full_strength: bool = False
    """Exit banners only for units with all their blocks (Pavia)."""
    cards: tuple[str, ...] = ()
    """Command cards that trigger the rule (COMMAND_CARD_NAMES)."""
    section: str = ""
    """Board section: left, centre, right."""
    dice: int = attrs.field(default=0, validator=bounded(0, 9, rule="ccr:base.dice"))
    """Dice the rule rolls (0 = as the rule text says)."""


@attrs.frozen
class HexsideFeature:
    """A feature on the edge between two hexes (MAPFORMAT [[hexsides]])."""

    feature: str
    between: tuple[tuple[str, str], ...]


@attrs.frozen
class BoardTerrain:
    """MAPFORMAT [terrain]: an ASCII board, one string per row; spaces are ignored."""

    rows: tuple[str, ...]
    legend: Mapping[str, str] = attrs.field(factory=lambda: dict(DEFAULT_LEGEND))
    default: str = "clear"


@attrs.frozen
class Board:
    """The battlefield: MAPFORMAT tables nested under ``[board]``."""

    terrain: BoardTerrain
    grid: Mapping[str, Any] = attrs.field(factory=lambda: dict(STANDARD_GRID))
    hexes: Mapping[str, str] = attrs.field(factory=dict)
    """Per-hex terrain overrides by printed ID."""
    hexsides: tuple[HexsideFeature, ...] = ()
    regions: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    places: Mapping[str, str] = attrs.field(factory=dict)
    """Named places (camps, towns, bridges) -> printed hex ID."""

    def terrain_map(self) -> dict[str, str]:
        """Printed hex ID -> terrain name for all 113 hexes."""
        out: dict[str, str] = {}
        for r, text in enumerate(self.terrain.rows, start=1):
            chars = [c for c in text if not c.isspace()]
            for c, ch in enumerate(chars, start=1):
                out[hex_id(c, r)] = self.terrain.legend.get(ch, self.terrain.default)
        for h, t in self.hexes.items():
            out[h] = t
        return out

    def hexes_of(self, terrain: str) -> list[str]:
        return sorted(h for h, t in self.terrain_map().items() if t == terrain)

    def map_document(self, data_id: str, note: str = "") -> dict[str, Any]:
        """The board as a MAPFORMAT document (for ancients_kit.hexmap), rows without spaces."""
        doc: dict[str, Any] = {
            "meta": {"id": data_id, "source": "reconstructed", "rules": ["ccr:setup"], "note": note or "C&C battlefield."},
            "grid": dict(self.grid),
            "terrain": {
                "default": self.terrain.default,
                "legend": dict(self.terrain.legend),
                "rows": ["".join(ch for ch in row if not ch.isspace()) for row in self.terrain.rows],
            },
        }
        if self.hexes:
            doc["hexes"] = dict(self.hexes)
        if self.hexsides:
            doc["hexsides"] = [{"feature": f.feature, "between": [list(p) for p in f.between]} for f in self.hexsides]
        if self.regions:
            doc["regions"] = {k: list(v) for k, v in self.regions.items()}
        if self.places:
            doc["places"] = dict(self.places)
        # Board sections (left / centre / right, ccr:base.sections) are computed by the core.
        doc["sections"] = {"cuts": [4, 9], "names": ["left", "centre", "right"]}
        return doc

    def hexmap(self, data_id: str, note: str = "") -> Any:
        """The board as an :class:`ancients_kit.hexmap.HexMap` (terrain, places, board sections)."""
        doc = self.map_document(data_id, note)
        meta, body = split_meta(doc, file=data_id)
        return HexMap.from_spec(structure(body, MapSpec, file=data_id), meta, file=data_id)


@attrs.frozen
class Battle:
    """One scenario of the book: War Council, victory, special rules, board and set-up."""

    number: int = attrs.field(validator=bounded(1, 24, rule="ccr:setup"))
    """Position in the book, 1..24."""
    title: str
    year: int = attrs.field(validator=bounded(-999, 999, rule="ccr:setup"))
    """Year as the book prints it (negative = BC)."""
    first_player: FirstPlayer
    victory: Victory
    top: Side
    bottom: Side
    board: Board
    summary: str = ""
    """Historical notes in our own words."""
    historical_winner: Winner = "none"
    special_rules: tuple[SpecialRule, ...] = ()
    meta: Meta | None = None
    """Provenance, filled in by :func:`load_battle`."""

    @property
    def id(self) -> str:
        return self.meta.id if self.meta else ""

    @property
    def slug(self) -> str:
        return self.id.removeprefix(BATTLE_PREFIX)

    def side(self, key: SideKey) -> Side:
        return self.top if key == "top" else self.bottom

    def sides(self) -> Iterator[tuple[SideKey, Side]]:
        yield "top", self.top
        yield "bottom", self.bottom

    def rules_of(self, kind: str) -> list[SpecialRule]:
        return [r for r in self.special_rules if r.kind == kind]

    def has_rule(self, kind: str, side: SideKey | None = None) -> bool:
        return any(side is None or not r.sides or side in r.sides for r in self.rules_of(kind))

    def hexmap(self) -> Any:
        """The battlefield as a core HexMap, with ``left``/``centre``/``right`` section regions."""
        return self.board.hexmap(self.id.replace(".battle.", ".board."), "Reconstructed battlefield of " + self.title)

    def legions(self, side: SideKey) -> str:
        """'marian', 'julian', 'imperial' or '' as printed for the side (ccr:marian-legions,
        ccr:julian-legions, ccr:imperial-legions)."""
        for kind in ("marian-legions", "julian-legions", "imperial-legions"):
            for r in self.rules_of(kind):
                if side in r.sides:
                    return kind.removesuffix("-legions")
        return ""

    def legion_kind(self, side: SideKey, unit: str) -> str:
        """The legion rule a unit of ``side`` fights under, or ''.

        The rules cover Roman heavy and medium infantry only, so a side using
        Eastern Kingdoms or Barbarian blocks gets '' even where the book prints
        the rule 'for both armies' (Nisibis, Abrittus).
        """
        if unit not in ("HI", "MI") or self.side(side).faction != "Roman":
            return ""
        return self.legions(side)


@attrs.frozen
class SeriesBattle:
    """One battle of a Para Bellum series (ccr:para-bellum)."""

    battle: str
    """Battle data ID (ccancients_rome.battle.<slug>)."""
    label: str = ""
    """e.g. 'Day 1'."""
    banners: int = attrs.field(default=0, validator=bounded(0, MAX_BANNERS, rule="ccr:para-bellum"))
    """Banners to win this battle of the series; 0 = the battle file's own victory banners."""


@attrs.frozen
class SeriesRally:
    """Rally of lost units between battles of a series (ccr:para-bellum)."""

    dice: int = attrs.field(default=3, validator=bounded(1, 9, rule="ccr:para-bellum"))
    """Dice rolled for each last block of an eliminated unit."""
    rally_on: tuple[str, ...] = ("unit-type", "leader")
    """Symbols that rally: the block's own unit-type symbol, or a leader (helmet)."""
    leaders_return: bool = True
    """A lost leader always returns for the next battle."""
    carry_over: bool = True
    """Unrallied blocks may try again after later battles."""
    leave_out: str = "one full-strength unit of that type per unrallied block, owner's choice"
    first_player_sets_up_first: bool = True


@attrs.frozen
class Series:
    """A Para Bellum game series: ordered battles, same sides, banners totalled (ccr:para-bellum)."""

    title: str
    battles: tuple[SeriesBattle, ...]
    rule: str
    """The series rules in our own words."""
    same_sides: bool = True
    """Each player keeps his side in every battle."""
    decisive_margin: int = attrs.field(default=0, validator=bounded(0, 99, rule="ccr:para-bellum"))
    """Total banner margin for a decisive victory (0 = the book gives none)."""
    rally: SeriesRally | None = None
    note: str = ""
    meta: Meta | None = None

    @property
    def id(self) -> str:
        return self.meta.id if self.meta else ""


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


def _check_hex(file: str, path: str, text: str, rule: str) -> tuple[int, int]:
    try:
        return parse_hex_id(text)
    except ValueError as exc:
        raise ScenarioError(file, str(exc).rsplit(" [", 1)[0], path, rule) from None


def _validate_board(board: Board, file: str, rule: str) -> None:
    grid = dict(STANDARD_GRID)
    if dict(board.grid) != grid:
        raise ScenarioError(file, f"only the standard C&C board is supported, got {dict(board.grid)}", "board.grid", rule)
    rows = board.terrain.rows
    if len(rows) != BOARD_ROWS:
        raise ScenarioError(file, f"{len(rows)} terrain rows, the board has {BOARD_ROWS}", "board.terrain.rows", rule)
    for ch, name in board.terrain.legend.items():
        if len(ch) != 1 or ch.isspace():
            raise ScenarioError(file, f"legend key {ch!r} must be one visible character", "board.terrain.legend", rule)
        if name not in TERRAIN:
            raise ScenarioError(file, f"unknown terrain {name!r} (known: {', '.join(TERRAIN)})", f"board.terrain.legend.{ch}", rule)
    if board.terrain.default not in TERRAIN:
        raise ScenarioError(file, f"unknown terrain {board.terrain.default!r}", "board.terrain.default", rule)
    for r, text in enumerate(rows, start=1):
        chars = [c for c in text if not c.isspace()]
        if len(chars) != row_length(r):
            raise ScenarioError(
                file, f"row {r:02d} has {len(chars)} hexes, expected {row_length(r)}", f"board.terrain.rows[{r - 1}]", rule
            )
        for c, ch in enumerate(chars, start=1):
            if ch not in board.terrain.legend:
                raise ScenarioError(file, f"character {ch!r} at hex {hex_id(c, r)} is not in the legend", f"board.terrain.rows[{r - 1}]", rule)
    for h, t in board.hexes.items():
        _check_hex(file, f"board.hexes.{h}", h, rule)
        if t not in TERRAIN:
            raise ScenarioError(file, f"unknown terrain {t!r}", f"board.hexes.{h}", rule)
    for i, hs in enumerate(board.hexsides):
        for j, (a, b) in enumerate(hs.between):
            _check_hex(file, f"board.hexsides[{i}].between[{j}]", a, rule)
            _check_hex(file, f"board.hexsides[{i}].between[{j}]", b, rule)
            if b not in hex_neighbors(a):
                raise ScenarioError(file, f"hexes {a} and {b} are not adjacent", f"board.hexsides[{i}].between[{j}]", rule)
    for name, h in board.places.items():
        _check_hex(file, f"board.places.{name}", h, rule)
    for name, hs in board.regions.items():
        for h in hs:
            _check_hex(file, f"board.regions.{name}", h, rule)


def _validate_battle(b: Battle, file: str) -> None:
    if b.meta is None:
        raise ScenarioError(file, "battle without meta", "meta")
    if not b.meta.id.startswith(BATTLE_PREFIX) or not _SLUG_RE.match(b.slug):
        raise ScenarioError(file, f"meta.id {b.meta.id!r} must be {BATTLE_PREFIX}<slug>", "meta.id")
    rule = f"ccr:scenario.{b.slug}"
    if rule not in b.meta.rules:
        raise ScenarioError(file, f"meta.rules must cite {rule}", "meta.rules", rule)
    if not 1 <= b.number <= 24:
        raise ScenarioError(file, f"number {b.number} outside 1..24", "number", rule)
    if b.victory.banners < 1:
        raise ScenarioError(file, "victory banners must be positive", "victory.banners", "ccr:victory")
    _validate_board(b.board, file, rule)
    terrain = b.board.terrain_map()
    occupied: dict[str, str] = {}
    for key, side in b.sides():
        if side.faction not in FACTIONS:
            raise ScenarioError(file, f"unknown faction {side.faction!r}", f"{key}.faction", rule)
        if side.command_cards < 1:
            raise ScenarioError(file, "a side needs at least one Command card", f"{key}.command_cards", rule)
        if not side.units:
            raise ScenarioError(file, "a side without units", f"{key}.units", rule)
        for i, u in enumerate(side.units):
            path = f"{key}.units[{i}]"
            _check_hex(file, path + ".hex", u.hex, rule)
            if u.unit not in UNIT_TYPES:
                raise ScenarioError(file, f"unknown unit code {u.unit!r} (known: {', '.join(UNIT_TYPES)})", path + ".unit", "ccr:units")
            for f in u.flags:
                if f not in UNIT_FLAGS:
                    raise ScenarioError(file, f"unknown unit flag {f!r}", path + ".flags", "ccr:special-units")
            if u.hex in occupied:
                raise ScenarioError(file, f"hex {u.hex} already holds a unit ({occupied[u.hex]})", path + ".hex", "ccr:setup")
            t = terrain[u.hex]
            if t in ("river",):
                raise ScenarioError(file, f"unit placed in impassable {t} hex {u.hex}", path + ".hex", rule)
            occupied[u.hex] = f"{key}.units[{i}]"
        for i, r in enumerate(side.reserve):
            if r.unit not in UNIT_TYPES:
                raise ScenarioError(file, f"unknown unit code {r.unit!r}", f"{key}.reserve[{i}].unit", "ccr:units")
        names = [lp.name for lp in side.leader_hexes if lp.name]
        for n in side.leaders:
            if n not in names:
                raise ScenarioError(file, f"named leader {n!r} has no hex", f"{key}.leader_hexes", rule)
        for i, lp in enumerate(side.leader_hexes):
            _check_hex(file, f"{key}.leader_hexes[{i}].hex", lp.hex, rule)
            if lp.hex in occupied and not occupied[lp.hex].startswith(key + "."):
                raise ScenarioError(file, f"leader in enemy-occupied hex {lp.hex}", f"{key}.leader_hexes[{i}].hex", "ccr:base.leaders")
        for i, w in enumerate(side.wagons):
            _check_hex(file, f"{key}.wagons[{i}].hex", w.hex, rule)
            if not b.has_rule(w.kind) and not b.has_rule("wagon-laager-impassable"):
                raise ScenarioError(file, f"{w.kind} placed but the battle has no {w.kind} rule", f"{key}.wagons[{i}]", rule)
    for i, sr in enumerate(b.special_rules):
        path = f"special_rules[{i}]"
        if sr.kind not in SPECIAL_RULE_KINDS:
            raise ScenarioError(file, f"unknown special rule kind {sr.kind!r}", path + ".kind", rule)
        if not sr.rule.strip():
            raise ScenarioError(file, "special rule without text", path + ".rule", rule)
        if rule not in sr.rules:
            raise ScenarioError(file, f"special rule must cite {rule}", path + ".rules", rule)
        for h in sr.hexes:
            _check_hex(file, path + ".hexes", h, rule)
        if sr.terrain and sr.terrain not in TERRAIN:
            raise ScenarioError(file, f"unknown terrain {sr.terrain!r}", path + ".terrain", rule)
        for u in sr.units:
            if u not in UNIT_TYPES and u not in RULE_UNIT_WORDS:
                raise ScenarioError(file, f"unknown unit code {u!r}", path + ".units", rule)
        for c in sr.cards:
            if c not in COMMAND_CARD_NAMES:
                raise ScenarioError(file, f"unknown card {c!r}", path + ".cards", rule)
        if sr.edge and sr.edge not in ("top", "bottom", "left", "right"):
            raise ScenarioError(file, f"unknown edge {sr.edge!r}", path + ".edge", rule)
        if sr.section and sr.section not in ("left", "centre", "right"):
            raise ScenarioError(file, f"unknown section {sr.section!r}", path + ".section", rule)
    # Impassable hexes may not hold units at the start.
    for sr in b.rules_of("impassable"):
        blocked = set(sr.hexes) or {h for h, t in terrain.items() if t == sr.terrain}
        for h in blocked & set(occupied):
            raise ScenarioError(file, f"unit placed on impassable hex {h}", occupied[h], rule)


# --------------------------------------------------------------------------
# Loaders
# --------------------------------------------------------------------------


def _battle_rel(battle_id: str) -> str:
    slug = battle_id.removeprefix(BATTLE_PREFIX)
    if not _SLUG_RE.match(slug):
        raise ValueError(f"battle ID {battle_id!r} is not {BATTLE_PREFIX}<slug> [ccr:setup]")
    return f"battles/{slug}.toml"


_PACKAGED: dict[tuple[str, str], tuple[Meta, Battle]] = {}
"""(package, battle ID as asked) -> the checked packaged battle, shared by every store without variants.

Every Session builds a new :class:`DataStore` and lists all battles (parsing and checking each file),
which cost about as much as playing a random battle; the packaged files do not change while the
process runs, and :class:`Battle` is frozen, so a store without variants reuses the first check."""

_LISTED: dict[str, list[tuple[int, str]]] = {}
"""package -> (number, battle ID) of each packaged battle file in listing order (stores without variants)."""


def load_battle(store: DataStore, battle_id: str) -> Battle:
    """Load and check one battle by data ID (``ccancients_rome.battle.<slug>``) or slug.

    Raises :class:`ancients_kit.data.DataError` (a ValueError) naming file, key path and rule.
    """
    shared = not store.variants
    if shared and (hit := _PACKAGED.get((store.package, battle_id))) is not None:
        store.loaded[hit[0].id] = hit[0]  # the provenance record a load leaves, as store.load does
        return hit[1]
    battle = _load_battle(store, battle_id)
    if shared:
        _PACKAGED[(store.package, battle_id)] = (battle.meta, battle)  # type: ignore[assignment]
    return battle


def _load_battle(store: DataStore, battle_id: str) -> Battle:
    rel = _battle_rel(battle_id)
    meta, battle = store.load(rel, Battle)
    if battle.meta is not meta:
        battle = attrs.evolve(battle, meta=meta)
    _validate_battle(battle, document_file(store, rel, meta.id))
    expected = battle_id if battle_id.startswith(BATTLE_PREFIX) else BATTLE_PREFIX + battle_id
    if meta.id != expected and meta.source != "variant":
        raise ScenarioError(store.path(rel), f"file declares meta.id {meta.id!r}, expected {expected!r}", "meta.id")
    return battle


def list_battles(store: DataStore) -> list[str]:
    """Battle data IDs in book order (by ``number``)."""
    if not store.variants and store.package in _LISTED:
        found = _LISTED[store.package]
        for _, bid in found:
            load_battle(store, bid)  # leaves the same provenance records, in the same order, as a first listing
        return [i for _, i in sorted(found)]
    found = []
    for rel in store.listing("battles"):
        slug = rel.removeprefix("battles/").removesuffix(".toml")
        b = load_battle(store, BATTLE_PREFIX + slug)
        found.append((b.number, b.id))
    if not store.variants:
        _LISTED[store.package] = found
    return [i for _, i in sorted(found)]


def list_series(store: DataStore) -> list[str]:
    """Series data IDs (sorted)."""
    return sorted(SERIES_PREFIX + rel.removeprefix("series/").removesuffix(".toml") for rel in store.listing("series"))


def load_series(store: DataStore, series_id: str) -> Series:
    """Load a Para Bellum series (``ccancients_rome.series.<slug>`` or slug); checks its battles exist."""
    slug = series_id.removeprefix(SERIES_PREFIX)
    if not _SLUG_RE.match(slug):
        raise ValueError(f"series ID {series_id!r} is not {SERIES_PREFIX}<slug> [ccr:para-bellum]")
    rel = f"series/{slug}.toml"
    meta, series = load_packaged(store, rel, Series)
    series = attrs.evolve(series, meta=meta)
    file = document_file(store, rel, meta.id)
    if "ccr:para-bellum" not in meta.rules:
        raise ScenarioError(file, "a series must cite ccr:para-bellum", "meta.rules", "ccr:para-bellum")
    if len(series.battles) < 2:
        raise ScenarioError(file, "a series needs at least two battles", "battles", "ccr:para-bellum")
    for i, sb in enumerate(series.battles):
        if not sb.battle.startswith(BATTLE_PREFIX) or not _SLUG_RE.match(sb.battle.removeprefix(BATTLE_PREFIX)):
            # a ValueError from the loader was an internal error (issue 27 item 3)
            raise ScenarioError(file, f"battle {sb.battle!r} is not a battle ID ({BATTLE_PREFIX}<slug>)",
                                f"battles[{i}].battle", "ccr:para-bellum")
        try:
            load_battle(store, sb.battle)
        except DataError as exc:
            raise ScenarioError(file, f"battle {sb.battle!r} does not load: {exc}", f"battles[{i}].battle", "ccr:para-bellum") from None
        if sb.banners < 0:
            raise ScenarioError(file, "banners must be >= 0", f"battles[{i}].banners", "ccr:para-bellum")
    return series
