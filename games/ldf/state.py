"""The whole state of a Lest Darkness Fall campaign (owned by ldf-core).

Everything the rules change lives in :class:`LDFState`; everything they only
read (the map, the counter mix, the chits, the tables) lives in
:class:`LDFData`, shared by every copy of the state. Hexes are kept as their
printed IDs (``"3318"``); :meth:`LDFState.hex` turns one into a map
:class:`~ancients_kit.hexgrid.Hex`.

Units (``ldf:2.2``-``2.6``) are :class:`Unit` records by ID (``B1`` a legion
base, ``I1`` an infantry vexillation, ``C1`` a cavalry vexillation, ``T1`` a
German tribe, ``G1`` a Parthian gund, ``PG1`` a Parthian garrison, ``P1`` a
Palmyran legion-equivalent, ``CG1`` a client garrison, ``RG1`` a Roman
garrison, ``E`` the emperor, ``CE`` the co-emperor). A unit is somewhere:
``map`` (with a hex), ``dead`` (the dead pile), ``pool`` (a cavalry
vexillation in the chit pool, 3.5), ``aside`` (not yet in play, 3.2) or
``removed`` (out of the game). Loyal and rebel Romans are the two sides of one
counter (1.2): :attr:`Unit.rebel`; the Gallic Empire's units are rebels with
:attr:`Unit.gallic` set (9.5).

Who commands a unit (:meth:`LDFState.side_of`) and which national group it
stacks and fights with (:meth:`LDFState.faction_of`) follow 1.2, 9.2-9.5 and
10.1-10.5. Rules code moves units only through :meth:`LDFState.place`,
:meth:`LDFState.remove` and :meth:`LDFState.eliminate`, which keep the
per-hex index (:meth:`LDFState.units_at`) right.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal

import attrs

from ancients_kit.bookkeeping import ChitsInPlay, PiecesOnMap, built_once
from ancients_kit.chance import ChitCup, Hand
from ancients_kit.data import DataStore, document_file
from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap
from ancients_kit.occupancy import HexIndex
from ancients_kit.tables import LookupTable, OddsTable

from . import model
from .vocab import Side

__all__ = [
    "GP",
    "HAND_LIMIT",
    "ROMAN",
    "ROME",
    "SIDES",
    "LDFData",
    "LDFState",
    "Unit",
    "load_data",
    "other_side",
]

ROMAN: Final = Side.ROMAN
"""The Roman player (1.2): loyal Romans, the Caucasus clients, an allied Palmyra."""
GP: Final = Side.GERMANO_PARTHIAN
"""The Germano-Parthian player (1.2): Germans, Parthians, rebels, the Gallic Empire, a hostile Palmyra."""
SIDES: tuple[str, str] = (GP, ROMAN)
"""In the order of the alternating actions phase: the Germano-Parthian acts first (5.3)."""

ROME = "3318"
"""Rome/Ostia (3.2, 4.2)."""
TRIER = "3114"
PALMYRA = "4720"
CTESIPHON = model.CTESIPHON

HAND_LIMIT = 6
"""At most six unplayed chits in a hand (8.17; docs/games/ldf.md, the hand limit ruling)."""

CARRY_OVER = 5
"""At most five TP carried over from one turn to the next (6.9)."""

LAST_TURN = 5

FIRST_YEAR = 235
YEARS_PER_TURN = 10
"""Each completed game turn represents ten years (``ldf:1.3``): Turn 1 is AD 235-245, Turn 5 AD 275-285."""


def turn_years(turn: int) -> tuple[int, int]:
    """The years AD that ``turn`` covers (``ldf:1.3``)."""
    start = FIRST_YEAR + YEARS_PER_TURN * (turn - 1)
    return start, start + YEARS_PER_TURN


Where = Literal["map", "dead", "pool", "aside", "removed"]
PalmyraStatus = Literal["inactive", "roman", "germano-parthian"]

PREFIX: Mapping[str, str] = {
    "emperor": "E",
    "co-emperor": "CE",
    "legion-base": "B",
    "infantry-vexillation": "I",
    "cavalry-vexillation": "C",
    "roman-garrison": "RG",
    "client-garrison": "CG",
    "palmyran-legion": "P",
    "parthian-garrison": "PG",
    "parthian-gund": "G",
    "german-tribe": "T",
}
"""Unit-ID prefix per counter kind (``model.Piece.id``); leaders have no number."""

GARRISONS = frozenset({"roman-garrison", "client-garrison", "parthian-garrison"})
STATIC = GARRISONS | {"legion-base"}
LEADERS = frozenset({"emperor", "co-emperor"})
ROMAN_KINDS = frozenset({"emperor", "co-emperor", "legion-base", "infantry-vexillation",
                         "cavalry-vexillation", "roman-garrison"})


def other_side(side: str) -> str:
    return ROMAN if side == GP else GP


@attrs.frozen(eq=False)
class LDFData:
    """The documents the rules read (never changed by play; shared by every copy)."""

    map: HexMap
    counters: model.CounterMix
    chits: model.ChitSet
    actions: Mapping[str, model.Action]
    crt: OddsTable
    emperor_table: LookupTable
    ids: Mapping[str, Hex]
    """Printed hex ID -> hex, for every hex of the map."""
    hex_tp: Mapping[str, int]
    """Unlooted TP of every TP-producing hex (6.1, 6.5, 9.6, 9.7; Parthian centres too, 6.3)."""
    regions: Mapping[str, frozenset[str]] = attrs.field(factory=dict)
    """Region name -> printed IDs of its hexes (precomputed: the rules ask often)."""
    hex_regions: Mapping[str, frozenset[str]] = attrs.field(factory=dict)
    """Printed ID -> the regions it lies in."""
    hex_centres: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    hex_neighbours: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)

    def region(self, name: str) -> frozenset[str]:
        """The printed IDs of a map region (``core``, ``barbaria``, ``parthia`` ...)."""
        try:
            return self.regions[name]
        except KeyError:
            return frozenset(self.map.to_id(h) for h in self.map.region(name))  # raises naming the region

    def regions_of(self, hex_id: str) -> frozenset[str]:
        return self.hex_regions.get(hex_id, frozenset())

    def centres(self, hex_id: str) -> tuple[str, ...]:
        return self.hex_centres.get(hex_id, ())

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        return self.hex_neighbours[hex_id]


def load_data(store: DataStore) -> LDFData:
    """Load every LDF document from ``store`` (variants included); shared per process."""
    return built_once(store, _build_data)


def _build_data(store: DataStore) -> LDFData:
    """Build the LDF documents from ``store`` (variants included), afresh: :func:`load_data` keeps them."""
    game_map = model.load_map(store)
    counters = model.load_counters(store)
    counters.check(game_map, document_file(store, "counters.toml", counters.meta.id),
                   document_file(store, "map.toml", game_map.meta.id))
    _, actions = model.load_actions(store)
    ids = {game_map.to_id(h): h for h in game_map.hexes()}
    to_id = {h: i for i, h in ids.items()}
    tp: dict[str, int] = {}
    tp_regions = game_map.region("core") | game_map.region("caucasus") | game_map.region("trans-river") \
        | game_map.region("palmyra") | game_map.region("parthia")
    for h in tp_regions:
        v = model.hex_tp(game_map, h)
        if v:
            tp[to_id[h]] = v
    names = sorted({r for h in game_map.hexes() for r in game_map.regions_of(h)})
    regions = {r: frozenset(to_id[h] for h in game_map.region(r)) for r in names}
    data = LDFData(
        map=game_map,
        counters=counters,
        chits=model.load_chits(store),
        actions={a.id: a for a in actions},
        crt=model.load_crt(store),
        emperor_table=model.load_emperor_table(store),
        ids=ids,
        hex_tp=tp,
        regions=regions,
        hex_regions={i: game_map.regions_of(h) for i, h in ids.items()},
        hex_centres={i: tuple(game_map.value(h, "centres") or ()) for i, h in ids.items()},
        hex_neighbours={i: tuple(to_id[n] for n in game_map.neighbors(h)) for i, h in ids.items()},
    )
    return data


@attrs.define(slots=True)
class Unit:
    """One counter in play or out of it (``ldf:2.3``-``2.6``)."""

    id: str
    kind: str
    """The counter kind (``model.Piece.id``): ``legion-base``, ``german-tribe`` ..."""
    nationality: str
    """``roman``, ``client``, ``palmyran``, ``parthian`` or ``german`` (2.5)."""
    where: Where = "aside"
    hex: str | None = None
    """Printed hex ID while on the map."""
    rebel: bool = False
    """A Roman counter with its blue (rebel) side up (1.2, 8.3, 8.7)."""
    gallic: bool = False
    """A rebel of the Gallic Empire (9.5)."""

    def copy(self) -> Unit:
        return Unit(self.id, self.kind, self.nationality, self.where, self.hex, self.rebel, self.gallic)

    @property
    def static(self) -> bool:
        """Legion bases and garrisons never move (2.4)."""
        return self.kind in STATIC

    @property
    def leader(self) -> bool:
        return self.kind in LEADERS

    @property
    def mobile(self) -> bool:
        return not self.static and not self.leader

    @property
    def garrison(self) -> bool:
        return self.kind in GARRISONS

    @property
    def on_map(self) -> bool:
        return self.where == "map"


@attrs.define(eq=False)
class LDFState(PiecesOnMap[Unit], ChitsInPlay):
    """A campaign in progress: pieces, treasury, markers, client states, chits, turn and actions.

    The units and the per-hex index are kept by :class:`~ancients_kit.bookkeeping.PiecesOnMap`
    (:meth:`unit`, :meth:`add_unit`, :meth:`units_at`, :meth:`occupied`, :meth:`on_map`); the chit
    pool, the hands (:meth:`hand`) and the effects by :class:`~ancients_kit.bookkeeping.ChitsInPlay`."""

    data: LDFData
    units: dict[str, Unit] = attrs.field(factory=dict)
    sides: tuple[str, str] = SIDES

    # -- turn and actions (5.x, 8.1, 8.20) -------------------------------------
    turn: int = 1
    phase: str = "setup"
    """``setup``, ``admin`` (5.5), ``actions`` (8.1) or ``over``."""
    active: str = GP
    """The acting player (5.1)."""
    action_number: int = 0
    """Actions taken so far this turn (both players; a pass counts, 8.20)."""
    actions_taken: dict[str, int] = attrs.field(factory=lambda: {GP: 0, ROMAN: 0})
    """Actions completed this turn per player (4.3, 5.4: "both players have completed one or more")."""
    passes: int = 0
    """Passes in immediate succession (8.20: two end the turn)."""
    turn_over: bool = False
    """Set by two passes (8.20) or chit 18 (5.4); the loop then ends the turn."""
    extra_action: str | None = None
    """A player who takes the next action out of turn (chit 7, Mad Dash, 5.3)."""
    free_chit: str | None = None
    """A player who won a battle and may draw a free chit before the next action (8.19)."""

    # -- treasury and markers (6.x, 8.13, 8.14) --------------------------------
    treasury: int = 0
    looted: set[str] = attrs.field(factory=set)
    """TP-producing hexes that are looted (6.3; Roman core, Caucasus, trans-river, Palmyra, Parthia)."""
    rebuilding: set[str] = attrs.field(factory=set)
    """Looted core hexes with the Rebuild side up (6.4, 8.14): still looted."""
    fortify: str | None = None
    """The hex with the single Fortify marker (8.13)."""
    plague: set[str] = attrs.field(factory=set)
    """Hexes whose garrison the plague removed while they stay unlooted (the coin of 6.3, chit 10)."""

    # -- client states (7.3, 9.x) -----------------------------------------------
    parthia_collapsed: bool = False
    palmyra: PalmyraStatus = "inactive"
    palmyra_forfeit: bool = False
    """The Roman player let Turn 3 pass without activating Palmyra (9.4)."""
    palmyra_replenishes: bool = False
    """Palmyra was brought into active play and is replenished like Parthia (9.2-9.4)."""
    gallic_active: bool = False
    gallic_ended: bool = False
    cavalry_reserve: bool = False
    """The central cavalry reserve exists (chit 25, 10.8, 6.8)."""
    siege: str | None = None
    """The hex where the heavy siege equipment lies (chit 21, 8.16)."""

    # -- chits (3.5, 8.17-8.19, 10.9) ---------------------------------------------
    pool: ChitCup = attrs.field(factory=lambda: ChitCup((), "chit pool"))
    hands: dict[str, Hand] = attrs.field(factory=lambda: {s: Hand(s, HAND_LIMIT, limit_rule="ldf:8.17") for s in SIDES})
    set_aside: list[int] = attrs.field(factory=list)
    """Played chits held out until the next turn (8.17), back at 5.6."""
    removed_chits: list[int] = attrs.field(factory=list)
    """Chits out of the game (chit 20)."""
    revealed: dict[str, tuple[int, ...]] = attrs.field(factory=dict)
    """Hands shown to the opponent (chit 13, 10.9), as they were shown."""
    effects: dict[str, Any] = attrs.field(factory=dict)
    """Short-lived effects of played chits (a shift for the next battle ...), by the owning module's key."""

    # -- end ----------------------------------------------------------------------
    over: bool = False
    winner: str | None = None
    result: str = ""
    result_rules: tuple[str, ...] = ()

    _at: HexIndex = attrs.field(factory=HexIndex, repr=False)
    """Hex -> IDs of the units there (kept by place/remove)."""

    # ------------------------------------------------------------------ copies
    def copy(self) -> LDFState:
        """An independent copy (the documents are shared)."""
        other = attrs.evolve(self)
        self.copy_pieces_to(other)
        other.actions_taken = dict(self.actions_taken)
        for name in ("looted", "rebuilding", "plague"):
            setattr(other, name, set(getattr(self, name)))
        self.copy_chits_to(other)
        other.set_aside = list(self.set_aside)
        return other

    # ------------------------------------------------------------------ map helpers
    @property
    def map(self) -> HexMap:
        return self.data.map

    def hex(self, hex_id: str) -> Hex:
        try:
            return self.data.ids[hex_id]
        except KeyError:
            raise ValueError(f"no hex {hex_id!r} on the LDF map") from None

    def region(self, name: str) -> frozenset[str]:
        return self.data.region(name)

    def in_region(self, hex_id: str, name: str) -> bool:
        return name in self.data.regions_of(hex_id)

    def unlooted_tp(self, hex_id: str) -> int:
        """The hex's TP when unlooted (0 for a hex that produces none)."""
        return self.data.hex_tp.get(hex_id, 0)

    def is_looted(self, hex_id: str) -> bool:
        return hex_id in self.looted

    # ------------------------------------------------------------------ units
    def of_kind(self, kind: str, where: Where | None = "map") -> list[Unit]:
        return [u for u in self.units.values() if u.kind == kind and (where is None or u.where == where)]

    def leader(self, kind: str = "emperor") -> Unit | None:
        """The emperor (or ``co-emperor``) if it is on the map."""
        u = self.units.get("E" if kind == "emperor" else "CE")
        return u if u is not None and u.where == "map" else None

    def place(self, uid: str, hex_id: str) -> None:
        """Put a unit into a hex (from anywhere); no rule is checked here."""
        self.hex(hex_id)
        self.put_on_map(uid, hex_id)

    def remove(self, uid: str, where: Where) -> None:
        """Take a unit off the map (or move it between the piles)."""
        u = self.unit(uid)
        self.take_off(u)
        u.where = where
        if where != "map":
            u.hex = None

    def eliminate(self, uid: str) -> str:
        """A unit eliminated (13.11): to the dead pile; a cavalry vexillation before the reserve
        goes back to the chit pool with its chit 25 (14.3, event 25). Returns where it went."""
        u = self.unit(uid)
        if u.kind == "cavalry-vexillation" and not self.cavalry_reserve:
            self.remove(uid, "pool")
            self.pool.add(25)
            return "pool"
        self.remove(uid, "dead")
        if u.kind in ROMAN_KINDS and u.kind not in LEADERS:
            u.rebel = u.gallic = False  # the dead pile holds counters, not loyalties (6.8)
        return "dead"

    # ------------------------------------------------------------------ sides
    def side_of(self, u: Unit) -> str:
        """The player who commands ``u`` (1.2, 9.2-9.5): rebels, Germans, Parthians, the
        Gallic Empire and a hostile Palmyra are the Germano-Parthian's; the rest the Roman's
        (an inactive Palmyra counts as Roman: it pays him TP and never joins rebels, 9.2)."""
        n = u.nationality
        if n == "roman":
            return GP if u.rebel else ROMAN
        if n == "client":
            return ROMAN
        if n == "palmyran":
            return GP if self.palmyra == GP else ROMAN
        return GP

    def faction_of(self, u: Unit) -> str:
        """The group a unit stacks, pins and fights with (10.1-10.5, 11.4): ``loyal``,
        ``rebel``, ``gallic``, ``client``, ``palmyran``, ``parthian`` or ``german``."""
        if u.nationality == "roman":
            return "gallic" if u.gallic else ("rebel" if u.rebel else "loyal")
        return u.nationality

    def hostile(self, a: Unit, b: Unit) -> bool:
        """Whether two units are enemies (12.3, 11.4, 6.8 design note): the two players'
        units always are; rebel Romans and the Germano-Parthian's other units are too for
        zones of control and attacks (11.4), though one player commands both."""
        sa, sb = self.side_of(a), self.side_of(b)
        if sa != sb:
            return True
        if sa == GP:
            fa, fb = self.faction_of(a), self.faction_of(b)
            return (fa in ("rebel", "gallic")) != (fb in ("rebel", "gallic"))
        return False

    def side_units(self, side: str) -> list[Unit]:
        return [u for u in self.on_map() if self.side_of(u) == side]

    def enemy_in(self, hex_id: str, side: str) -> bool:
        """Whether a hex holds a unit the ``side`` player does not command."""
        return any(self.side_of(u) != side for u in self.units_at(hex_id))

    def finish(self, winner: str, text: str, rules: Iterable[str]) -> None:
        """End the game (4.2-4.5): ``winner`` wins, ``text`` says why."""
        if self.over:
            return
        self.over, self.winner, self.result, self.result_rules = True, winner, text, tuple(rules)
        self.phase = "over"
