"""The whole state of a Xenophon game (owned by xen-core).

Everything the rules change lives in :class:`XenState`; everything they only
read (the map, the roster, the unit factors, the chits, the tables) lives in
:class:`XenData`, shared by every copy of the state. Hexes are kept as their
printed IDs (``"2907"``).

Units (xen:components, xen:roster) are :class:`Unit` records by ID:

- satrapy units ``<satrapy-slug>-<letter><n>`` (``lydia-M1``, ``greater-india-E1``:
  P phalanx, C cavalry, L light, M militia, B barbarian horde, E elephant,
  F fleet), the counter mix of the Unit and City Summary Roster;
- guard units ``<side>-guard-<letter><n>`` (``rebel-guard-P1``), siege trains
  ``<side>-siege-<n>`` and supply trains ``<side>-supply-<n>`` (the roster's
  "Other units": no satrapy, xen:guards);
- leaders by name (``Cyrus``, ``Xenophon``, ``Tissaphernes``).

A unit is somewhere (:data:`Where`): ``map`` (with a hex, and ``embarked`` the
ID of the fleet carrying it, xen:naval-transport), ``mix`` (off the map, in the
counter mix: it may be recruited or levied again, xen:recruit, xen:levy; a
leader there may arise again, xen:leaders) or ``removed`` (out of the game for
good: Xenophon killed, xen:xenophon).

A satrapy unit's :attr:`Unit.side` follows its satrapy's control (xen:control:
"a Satrapy's units are turned friendly-side up"): ``empire``, ``rebel`` or
``neutral``; :meth:`XenState.set_control` turns them. Guards, trains and
leaders keep their side.

Control is a status of satrapies (:attr:`XenState.control`); occupation a
status of hexes (xen:occupation): a hex is occupied by the side whose units
are in it (:meth:`XenState.occupier`), nothing is recorded.

Rules code moves units only through :meth:`XenState.place`,
:meth:`XenState.to_mix` and :meth:`XenState.eliminate`, which keep the
per-hex index (:meth:`XenState.units_at`) right.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import attrs

from ancients_kit.bookkeeping import ChitsInPlay, PiecesOnMap, built_once
from ancients_kit.chance import ChitCup, Hand
from ancients_kit.data import DataError, DataStore, document_file
from ancients_kit.hexmap import HexMap
from ancients_kit.occupancy import HexIndex
from ancients_kit.secret import SecretNumber
from ancients_kit.tables import Table
from ancients_kit.windows import Standing

from . import model
from .movement import all_sea_hexside, island_ids
from .vocab import Phase, Side

__all__ = [
    "EMPIRE",
    "GUARD_MIX",
    "HAND_LIMIT",
    "LEADER_MIX",
    "NEUTRAL",
    "REBEL",
    "SIDES",
    "TYPE_LETTER",
    "Unit",
    "XenData",
    "XenOptions",
    "XenState",
    "load_data",
    "other_side",
    "slug",
    "unit_value",
]

EMPIRE = Side.EMPIRE
REBEL = Side.REBEL
NEUTRAL = "neutral"
"""Who controls a satrapy no side holds (xen:control): a controller, not a side."""
SIDES: tuple[str, str] = (REBEL, EMPIRE)
"""In the order of play: the Rebel player-turn, then the Empire's (xen:sequence)."""

HAND_LIMIT = 15
"""Players may hold up to 15 chits (xen:stratagem)."""

Where = Literal["map", "mix", "removed"]
SideName = Literal["empire", "rebel", "neutral"]

TYPE_LETTER: Mapping[str, str] = {
    "phalanx": "P",
    "cavalry": "C",
    "light": "L",
    "militia": "M",
    "barbarian_horde": "B",
    "elephant": "E",
    "fleet": "F",
}
"""Unit-ID letter per satrapy unit type (the set-up lists' letters, xen:scenario.cyrus-revolt)."""

GUARD_MIX: Mapping[str, Mapping[str, int]] = {
    EMPIRE: {"phalanx": 2, "cavalry": 4, "light": 2, "siege_train": 2, "supply_train": 5},
    REBEL: {"phalanx": 4, "cavalry": 2, "light": 2, "siege_train": 2, "supply_train": 5},
}
"""The roster's "Other units": each side's Guard, Siege and Supply pool (xen:roster, xen:guards)."""

LEADER_MIX: Mapping[str, tuple[str, ...]] = {
    EMPIRE: ("Artaxerxes", "Konon", "Tissaphernes", "Agesilaos", "Satrap", "Abrokomas"),
    REBEL: ("Cyrus", "Xenophon", "Archon", "Ariaos"),
}
"""Leaders by side (xen:roster). Abrokomas is printed among the Rebel leaders but
Scenario 1 sets him up for the Empire: the scenario wins (docs/games/xenophon.md,
ruling 2), so he is the Empire's."""

SUPREME: Mapping[str, str] = {EMPIRE: "Artaxerxes", REBEL: "Cyrus"}
"""The Supreme Leaders the scenarios give (xen:supreme-leaders)."""


def other_side(side: str) -> str:
    return EMPIRE if side == REBEL else REBEL


def type_name(unit_type: str) -> str:
    """A unit type in words, as a player reads it: ``barbarian_horde`` -> ``barbarian horde``."""
    return unit_type.replace("_", " ")


def units_words(n: int) -> str:
    """A count of units in words: ``1 unit``, ``3 units``."""
    return f"{n} unit" if n == 1 else f"{n} units"


def slug(name: str) -> str:
    """A satrapy name as an ID part: ``Greater India`` -> ``greater-india``."""
    return name.lower().replace(" ", "-").replace("'", "")


# ---------------------------------------------------------------------------
# Data


@attrs.frozen(eq=False)
class XenData:
    """The documents the rules read (never changed by play; shared by every copy)."""

    data: model.XenophonData
    units: Mapping[str, model.UnitFactor]
    """Unit type -> CS, OV, recruit and upkeep (units.toml; ``leader`` too)."""
    chits: Mapping[str, model.Chit]
    """Chit name -> kind (stratagems.toml)."""
    tables: Mapping[str, Table]
    """model.TABLES by name (CRTs, diplomacy, pillage, colonisation, disband, revolt, events, terrain)."""
    satrapy_of: Mapping[str, str]
    """Printed hex ID -> the satrapy it lies in (land hexes; sea hexes are in none)."""
    satrapy_hexes: Mapping[str, tuple[str, ...]]
    """Satrapy -> its hexes, sorted."""
    city_kind: Mapping[str, str]
    """Printed city hex -> ``city``, ``treasury`` or ``capital`` (54 cities, xen:components)."""
    city_name: Mapping[str, str]
    """Printed city hex -> its name (the map's places)."""
    neighbours: Mapping[str, tuple[str, ...]]
    forage: Mapping[str, int]
    """Printed Forage Value per hex (xen:supply)."""
    terrain: Mapping[str, str]
    ports: frozenset[str]
    coastal: frozenset[str]
    desert: frozenset[str]

    @property
    def map(self) -> HexMap:
        return self.data.map

    def row(self, satrapy: str) -> model.RosterRow:
        return self.data.row(satrapy)

    @property
    def satrapies(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.data.roster.satrapy)


def load_data(store: DataStore) -> XenData:
    """Load every Xenophon document from ``store``; shared per process."""
    return built_once(store, _build_data)


def _build_data(store: DataStore) -> XenData:
    """Build the Xenophon documents from ``store``, afresh: :func:`load_data` keeps them."""
    base = model.load(store)
    gmap = base.map
    for i, side in enumerate(base.scenarios.side):
        for leader in (side.supreme_leader, *side.leaders):
            if leader not in LEADER_MIX[side.name]:
                raise DataError(document_file(store, "scenarios.toml", base.scenarios_meta.id),
                                f"{leader!r} is not a leader of the {side.name} ({', '.join(LEADER_MIX[side.name])}) "
                                "[xen:roster]", f"side[{i}]")
    _, units_doc = model.load_units(store)
    _, chits_doc = model.load_chits(store)
    tables = model.load_tables(store)
    ids = {gmap.to_id(h): h for h in gmap.hexes()}
    names = {r.name for r in base.roster.satrapy}
    satrapy_of: dict[str, str] = {}
    for hid, h in ids.items():
        for r in gmap.regions_of(h):
            if r in names:
                satrapy_of[hid] = r
    satrapy_hexes = {n: tuple(sorted(gmap.to_id(h) for h in gmap.region(n))) for n in sorted(names)}
    city_kind = {gmap.to_id(h): str(gmap.value(h, "city")) for h in gmap.hexes_where("city")}
    city_name = {hid: name for name, hid in ((n, gmap.to_id(gmap.place(n))) for n in gmap.places) if hid in city_kind}
    data = XenData(
        data=base,
        units={u.type: u for u in units_doc.unit},
        chits={c.name: c for c in chits_doc.chit},
        tables=tables,
        satrapy_of=satrapy_of,
        satrapy_hexes=satrapy_hexes,
        city_kind=city_kind,
        city_name=city_name,
        neighbours={hid: tuple(gmap.to_id(n) for n in gmap.neighbors(h)) for hid, h in ids.items()},
        forage={hid: int(gmap.value(h, "forage") or 0) for hid, h in ids.items()},
        terrain={hid: gmap.terrain(h) for hid, h in ids.items()},
        ports=frozenset(gmap.to_id(h) for h in gmap.hexes_where("port")),
        coastal=frozenset(gmap.to_id(h) for h in gmap.hexes_where("coastal")),
        desert=frozenset(gmap.to_id(h) for h in gmap.hexes_where("desert")),
    )
    return data


# ---------------------------------------------------------------------------
# Units and options


_SHORES: list[Any] = [None, {}]
"""The map data last read and :meth:`XenState._forage_neighbours` by hex for it."""


@attrs.define(slots=True)
class Unit:
    """One counter: a satrapy unit, a guard or train, or a leader (xen:components)."""

    id: str
    type: str
    """``phalanx``, ``cavalry``, ``light``, ``militia``, ``barbarian_horde``, ``elephant``,
    ``fleet``, ``siege_train``, ``supply_train`` or ``leader``."""
    cs: int
    """Combat Strength (units.toml)."""
    ov: int
    """Operations Value (units.toml)."""
    side: str
    """``empire``, ``rebel`` or ``neutral`` (a satrapy unit: its satrapy's control)."""
    satrapy: str | None = None
    """Its satrapy; ``None`` for guards, trains and leaders (xen:guards, xen:leaders)."""
    where: Where = "mix"
    hex: str | None = None
    """Printed hex ID while on the map."""
    embarked: str | None = None
    """The fleet carrying this unit at sea (xen:naval-transport), else ``None``."""
    guard: bool = False
    """A Guard unit (xen:guards): never levied, only recruited."""

    def copy(self) -> Unit:
        return Unit(self.id, self.type, self.cs, self.ov, self.side, self.satrapy, self.where, self.hex,
                    self.embarked, self.guard)

    @property
    def leader(self) -> bool:
        return self.type == "leader"

    @property
    def fleet(self) -> bool:
        return self.type == "fleet"

    @property
    def train(self) -> bool:
        return self.type in ("siege_train", "supply_train")

    @property
    def on_map(self) -> bool:
        return self.where == "map"


@attrs.define(slots=True)
class XenOptions:
    """The scenario options (optional rules and the open treasury), from the session's options."""

    personal_combat: bool = False
    """xen:opt.personal-combat."""
    reaction: bool = False
    """xen:opt.reaction (docs/games/xenophon.md ruling 4: optional)."""
    public_works: bool = False
    """xen:opt.public-works."""
    reduced_levy: bool = False
    """xen:opt.reduced-levy."""
    open_treasury: bool = False
    """xen:intelligence's option: treasuries tracked openly."""

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> XenOptions:
        return cls(**{f.name: bool(options.get(f.name, f.default)) for f in attrs.fields(cls)})


# ---------------------------------------------------------------------------
# The state


@attrs.define(eq=False)
class XenState(PiecesOnMap[Unit], ChitsInPlay):
    """A game in progress: units, satrapies, markers, treasuries, chits, turn and phase.

    The units and the per-hex index are kept by :class:`~ancients_kit.bookkeeping.PiecesOnMap`
    (:meth:`unit`, :meth:`add_unit`, :meth:`units_at`: embarked units included, :meth:`occupied`,
    :meth:`on_map`); the chit pool, the hands (:meth:`hand`) and the effects by
    :class:`~ancients_kit.bookkeeping.ChitsInPlay`."""

    data: XenData
    scenario: str = "cyrus-revolt"
    last_turn: int = 7
    """7 (Cyrus' Revolt) or 15 (The King's War)."""
    options: XenOptions = attrs.field(factory=XenOptions)
    units: dict[str, Unit] = attrs.field(factory=dict)

    # -- sequence (xen:sequence) ------------------------------------------
    turn: int = 1
    player_turn: str = REBEL
    """The phasing player (xen:sequence: the Rebel player-turn, then the Empire's)."""
    phase: str = Phase.SETUP
    """A :class:`~.vocab.Phase`: ``setup``, a phase of :data:`~.vocab.PLAYER_TURN`, or ``over``."""

    # -- satrapies (xen:control, xen:occupation) ----------------------------
    control: dict[str, str] = attrs.field(factory=dict)
    """Satrapy -> ``empire``, ``rebel`` or ``neutral`` (the Satrapy Control Chart)."""

    # -- markers ----------------------------------------------------------------
    colonies: set[str] = attrs.field(factory=set)
    """Hexes with a Colony marker (xen:colonisation)."""
    pillaged: set[str] = attrs.field(factory=set)
    """Hexes with a Pillage marker (xen:pillage): no income, FV 0 there and in adjacent non-city hexes."""
    public_works: set[str] = attrs.field(factory=set)
    """Hexes with a Public Works marker (xen:opt.public-works)."""

    # -- money and chits (xen:treasury, xen:stratagem) ---------------------------------
    treasury: dict[str, SecretNumber] = attrs.field(factory=dict)
    """Side -> its $ (secret to its owner unless the open option, xen:treasury, xen:intelligence)."""
    pool: ChitCup = attrs.field(factory=lambda: ChitCup((), "chit pool"))
    """The cup of Stratagem chits, by chit name (xen:stratagem)."""
    hands: dict[str, Hand] = attrs.field(
        factory=lambda: {s: Hand(s, HAND_LIMIT, limit_rule="xen:stratagem") for s in SIDES})
    removed_chits: list[str] = attrs.field(factory=list)
    """Chits out of the game (Empire Mobilizes, once)."""
    revealed: dict[str, Any] = attrs.field(factory=dict)
    """What a side was shown of the other's chits and $ (King's Eye, D1), by the showing module."""
    supreme: dict[str, str | None] = attrs.field(factory=lambda: dict(SUPREME))
    """Side -> its Supreme Leader's name (Successor may name another, xen:supreme-leaders)."""

    # -- effects of events and chits within a player-turn or a turn ---------------------
    effects: dict[str, Any] = attrs.field(factory=dict)
    """Short-lived effects by the owning module's key (``mediterranean-war``, a chit's column shift ...)."""
    negotiations: list[Any] = attrs.field(factory=list)
    """Agreements made (xen:negotiations), recorded by negotiations.py."""
    standing: Standing = attrs.field(factory=Standing)
    """Each side's standing preference per chit window (ancients_kit.windows; stratagems.py)."""

    # -- end (xen:victory) ------------------------------------------------------
    vp: dict[str, int] = attrs.field(factory=dict)
    over: bool = False
    winner: str | None = None
    level: str = ""
    result: str = ""
    result_rules: tuple[str, ...] = ()

    _at: HexIndex = attrs.field(factory=HexIndex, repr=False)
    """Hex -> IDs of the units there (kept by place/remove)."""

    # ------------------------------------------------------------------ copies
    def copy(self) -> XenState:
        """An independent copy (the documents are shared)."""
        other = attrs.evolve(self)
        other.options = attrs.evolve(self.options)
        self.copy_pieces_to(other)
        other.control = dict(self.control)
        other.colonies = set(self.colonies)
        other.pillaged = set(self.pillaged)
        other.public_works = set(self.public_works)
        other.treasury = {s: t.copy() for s, t in self.treasury.items()}
        self.copy_chits_to(other)
        other.supreme = dict(self.supreme)
        other.negotiations = list(self.negotiations)
        other.standing = self.standing.copy()
        other.vp = dict(self.vp)
        return other

    # ------------------------------------------------------------------ map
    @property
    def map(self) -> HexMap:
        return self.data.map

    def satrapy_of(self, hex_id: str) -> str | None:
        return self.data.satrapy_of.get(hex_id)

    def hexes_of(self, satrapy: str) -> tuple[str, ...]:
        try:
            return self.data.satrapy_hexes[satrapy]
        except KeyError:
            raise ValueError(f"no satrapy {satrapy!r} (xen:components)") from None

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        return self.data.neighbours[hex_id]

    def city_kind(self, hex_id: str) -> str | None:
        """``city``, ``treasury``, ``capital`` for a printed city; ``colony`` for a Colony marker; else None."""
        kind = self.data.city_kind.get(hex_id)
        if kind is not None:
            return kind
        return "colony" if hex_id in self.colonies else None

    def is_city(self, hex_id: str) -> bool:
        """A printed city or a Colony marker (xen:treasury's "City/Colony")."""
        return hex_id in self.data.city_kind or hex_id in self.colonies

    def cities_of(self, satrapy: str) -> list[str]:
        """The printed cities and colonies of a satrapy."""
        return [h for h in self.hexes_of(satrapy) if self.is_city(h)]

    def forage(self, hex_id: str) -> int:
        """The hex's Forage Value now (xen:supply): 0 if pillaged, or if a non-city hex
        next to a pillaged hex (not across an all-sea hexside) or in a satrapy under Famine
        this turn; else the printed value (desert's one own unit: supply.py)."""
        pillaged = self.pillaged
        if hex_id in pillaged:
            return 0
        famine = self.effects.get("turn:famine", ())
        if (pillaged or famine) and not self.is_city(hex_id):
            if pillaged and not pillaged.isdisjoint(self._forage_neighbours(hex_id)):
                return 0
            if famine and self.satrapy_of(hex_id) in famine:
                return 0  # the reconstructed Famine event (events.py)
        return self.data.forage.get(hex_id, 0)

    def _forage_neighbours(self, hex_id: str) -> tuple[str, ...]:
        """The neighbours whose Pillage marker takes this hex's forage: those not across an
        all-sea hexside (:meth:`_across_sea`); a fact of the map, kept per map data."""
        if _SHORES[0] is not self.data:
            _SHORES[:] = [self.data, {}]
        memo: dict[str, tuple[str, ...]] = _SHORES[1]
        got = memo.get(hex_id)
        if got is None:
            got = memo[hex_id] = tuple(n for n in self.neighbours(hex_id) if not self._across_sea(hex_id, n))
        return got

    def _across_sea(self, a: str, b: str) -> bool:
        """Whether the hexside between two land hexes is all-sea (an island's shore): pillage's
        lost forage does not cross it (pillage.forage_destroyed, movement.all_sea_hexside)."""
        m = self.data.map
        islands = island_ids(m)
        if a not in islands and b not in islands:
            return False  # all_sea_hexside: only an island's shore is all-sea
        return all_sea_hexside(m, m.from_id(a), m.from_id(b))

    # ------------------------------------------------------------------ units
    @property
    def ids_at(self) -> Callable[[str], Sequence[str]]:
        """Hex ID -> the IDs of the units in it, in the order they arrived (do not change what
        it returns): the index's own lookup, for the loops that read every occupied hex."""
        return self._at.ids

    def side_units(self, side: str) -> list[Unit]:
        return [u for u in self.on_map() if u.side == side]

    def leaders(self, side: str | None = None, where: Where | None = "map") -> list[Unit]:
        return [u for u in self.units.values()
                if u.leader and (side is None or u.side == side) and (where is None or u.where == where)]

    def supreme_leader(self, side: str) -> Unit | None:
        """The side's Supreme Leader if on the map (xen:supreme-leaders)."""
        name = self.supreme.get(side)
        u = self.units.get(name) if name else None
        return u if u is not None and u.where == "map" else None

    def mix(self, satrapy: str | None, type: str, side: str | None = None) -> list[Unit]:
        """Units of a satrapy (or guards/trains of ``side`` when ``satrapy`` is None) in the counter mix."""
        return [u for u in self.units.values()
                if u.where == "mix" and u.satrapy == satrapy and u.type == type
                and (satrapy is not None or u.side == side) and not u.leader]

    def mix_kinds(self) -> set[tuple[str | None, str, str | None]]:
        """What the counter mix holds, as :meth:`mix` asks for it: ``(satrapy, type, None)`` for
        a satrapy's units, ``(None, type, side)`` for guards and trains (leaders left out), so
        that ``mix(satrapy, type, side)`` is empty exactly when its triple is not here."""
        return {(u.satrapy, u.type, None if u.satrapy is not None else u.side)
                for u in self.units.values() if u.where == "mix" and u.type != "leader"}

    def place(self, uid: str, hex_id: str) -> None:
        """Put a unit into a hex (from anywhere); no rule is checked here."""
        if hex_id not in self.data.neighbours:
            raise ValueError(f"no hex {hex_id!r} on the Xenophon map")
        self.put_on_map(uid, hex_id)

    def to_mix(self, uid: str) -> None:
        """Take a unit off the map into the counter mix (eliminated, disbanded; xen:recruit)."""
        u = self.unit(uid)
        self.take_off(u)
        u.where, u.hex, u.embarked = "mix", None, None
        for other in self.units.values():
            if other.embarked == uid:
                other.embarked = None

    def eliminate(self, uid: str, *, permanent: bool = False) -> None:
        """A unit eliminated: back to the counter mix (a leader to the leaders that may
        arise again, xen:leaders), or out of the game if ``permanent`` (xen:xenophon)."""
        self.to_mix(uid)
        if permanent:
            self.units[uid].where = "removed"

    # ------------------------------------------------------------------ control and occupation
    def occupier(self, hex_id: str) -> str | None:
        """The side occupying a hex (xen:occupation): that of the units in it, else None."""
        ids = self._at.ids(hex_id)
        return self.units[ids[0]].side if ids else None

    def set_control(self, satrapy: str, new: str) -> None:
        """Change a satrapy's control and turn its units (xen:control). What happens to its
        units outside it when it turns neutral is the caller's (events.set_control)."""
        if satrapy not in self.control:
            raise ValueError(f"no satrapy {satrapy!r} (xen:control)")
        if new not in (EMPIRE, REBEL, NEUTRAL):
            raise ValueError(f"control must be empire, rebel or neutral, not {new!r} (xen:control)")
        self.control[satrapy] = new
        for u in self.units.values():
            if u.satrapy == satrapy:
                u.side = new

    def controlled(self, side: str) -> list[str]:
        """The satrapies ``side`` controls, in roster order."""
        return [s for s in self.data.satrapies if self.control.get(s) == side]

    def enemy_units_in(self, satrapy: str, side: str) -> bool:
        """Whether units of the other player are inside a satrapy (xen:opt.reduced-levy)."""
        enemy = other_side(side)
        return any(self.occupier(h) == enemy for h in self.hexes_of(satrapy))

    # ------------------------------------------------------------------ end
    def finish(self, winner: str | None, level: str, text: str, rules: Iterable[str]) -> None:
        """End the game (xen:victory): ``winner`` (None for a draw) at ``level``."""
        if self.over:
            return
        self.over, self.winner, self.level, self.result = True, winner, level, text
        self.result_rules = tuple(rules)
        self.phase = Phase.OVER


def unit_value(state: XenState, u: Unit) -> float:
    """A unit's worth: its CS and OV; leaders much more, a Supreme Leader most."""
    v = u.cs + u.ov / 8
    if u.leader:
        v += 12.0 if state.supreme.get(u.side) == u.id else 6.0
    return v
