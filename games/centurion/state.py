"""Centurion game state: units, stacks, turn record, losses, and pure queries.

This module owns the *state model* shared by the Basic Game (``basic.py``) and
the Full Simulation (``full/``). It holds no rules procedures: it stores what
is on the map and answers questions about it. Rules it serves:

- ``cen:basic.stacking`` / ``cen:full.stacking``: per-hex stacks, with Command
  units not counted (:meth:`CenturionState.stacking_count`);
- ``cen:basic.zoc``: which hexes the enemy controls (:meth:`CenturionState.zoc_hexes`);
- ``cen:basic.combat`` case J / ``cen:opt.command``: Command units within N
  hexes (:meth:`CenturionState.commands_within`);
- ``cen:basic.victory`` / ``cen:full.victory``: units and points lost per side.

Mutations are unchecked primitives (:meth:`CenturionState.move`,
:meth:`~CenturionState.eliminate`, :meth:`~CenturionState.disperse`); the
checked entry points are the decisions in ``basic.py`` / ``full/``.

Conventions
-----------
- Hexes are :class:`ancients_kit.hexgrid.Hex` inside; printed ``CCRR`` IDs
  only at the edges (:meth:`CenturionState.hid`, :meth:`CenturionState.hex_of`).
- Facing is a direction index 0..5 of the flat-top map (N NE SE S SW NW),
  as in :mod:`ancients_kit.hexgrid`.
- ``units`` keeps every unit ever placed (eliminated ones too, flagged);
  ``stacks`` holds only units on the map, in the order they arrived.
- Counters such as ``dispersed`` count the owner's Player-Turns still to sit
  out; ``0`` means "not". They are ints so ``if unit.dispersed:`` reads right.
"""

from __future__ import annotations

import copy as _copy
import operator
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from ancients_kit.hexgrid import Hex

from ancients_games.centurion.vocab import PHASES_BASIC, Phase

if TYPE_CHECKING:
    from ancients_kit.hexgrid import Numbering
    from ancients_kit.protocol import Context

    from ancients_games.centurion.model import Capability, Scenario, TerrainEffect, UnitType

__all__ = ["CenturionState", "MapLike", "Unit", "PHASES_BASIC", "stack_visible"]

_HEX_TO_ID: dict[int, dict[Hex, str]] = {}
_ID_TO_HEX: dict[int, dict[str, Hex]] = {}
_MAP_REF: dict[int, Any] = {}
"""Printed-ID caches per map object (maps are immutable and shared by sessions)."""


class MapLike(Protocol):
    """What the state needs of a map (``ancients_kit.hexmap.HexMap`` provides it)."""

    numbering: Numbering

    def terrain(self, h: Hex) -> str: ...

    def hexside_features(self, a: Hex, b: Hex) -> frozenset[str]: ...


@attrs.define(eq=False, slots=True)
class Unit:
    """One counter on (or once on) the map (cen:basic.unit-types, cen:full.units)."""

    id: str
    """Unique key typed by players, e.g. ``ROM-SD07``."""
    side: str
    """Side id that owns it now (treachery may change it: see ``original_side``)."""
    type: str
    """Unit type code (``SD``, ``BI``, ``CM`` ...; ``units.toml``)."""
    hex: Hex | None
    """Where it stands; ``None`` once eliminated or gone off the map."""
    facing: int = 0
    """Direction 0..5 its front faces (cen:full.facing); ignored in the Basic Game."""
    group: str = ""
    """Legion or tribe key (I, II, III) for cen:rom.legion-integrity / cen:barb.tribe."""
    supreme: bool = False
    """Command units: the Supreme Command Unit (cen:opt.command)."""
    original_side: str = ""
    """Side that fielded it at set-up (cen:full.treachery); set by the state."""

    # -- condition (Full Simulation flags; the Basic Game uses dispersed only)
    dispersed: int = 0
    """Own Player-Turns still to sit out dispersed (0: not dispersed)."""
    dispersed_since: int = -1
    """:attr:`CenturionState.player_turn` in which it was last dispersed."""
    demoralized: int = 0
    """Turns of demoralization left (cen:full.demoralization)."""
    in_square: bool = False
    """Part of a Roman square (cen:full.square)."""
    panicked: bool = False
    """In panic (cen:full.panic)."""
    rallied: bool = False
    """Was panicked and has been rallied (cen:full.panic E): may rally others."""
    furious: int = 0
    """Turns of fury left after its Command unit died (cen:opt.command I)."""
    dismounted: bool = False
    """Dismounted cataphract / barbarian heavy cavalry (cen:opt.mount-dismount)."""
    treachery: str = ""
    """``""``, ``leaving`` (must leave the field) or ``defected`` (cen:full.treachery)."""
    building: int = 0
    """Turns spent building earthworks/caltrops (cen:opt.earthworks)."""

    # -- this Player-Turn (cleared by CenturionState.begin_player_turn)
    moved: bool = False
    """Has moved this Movement Phase (cen:basic.movement case I, cen:full.movement F)."""
    attacked: bool = False
    """Has taken part in an attack this Player-Turn (cen:basic.combat D, cen:full.combat L)."""
    charged_this_turn: bool = False
    """Charged this turn (cen:full.cavalry)."""
    charge_length: int = 0
    """Straight hexes of this turn's charge (cen:full.cavalry)."""
    fired_this_turn: bool = False
    """Used its Fire Combat Factor this turn (cen:full.combat)."""
    contact: set[str] = attrs.field(factory=set)
    """Ids of enemy units it is in contact with (cen:full.contact, case K)."""

    eliminated: bool = False
    """Removed from play (destroyed or off the map)."""
    left_field: bool = False
    """Left the map edge (panic, treachery): lost, never returns (cen:full.movement I)."""

    def copy(self) -> Unit:
        """An independent copy (session checkpoints)."""
        return _copy_unit(self)

    @property
    def mounted(self) -> bool:
        """Cavalry that has not dismounted (type kind is checked by callers)."""
        return not self.dismounted

    @property
    def on_map(self) -> bool:
        return self.hex is not None and not self.eliminated


SHARED_EXTRA: set[str] = set()
"""``CenturionState.extra`` keys whose values are never changed once stored (searches
cached with the ``state.rev`` they were made at): :meth:`CenturionState.copy` shares them."""

_UNIT_SLOTS = tuple(f.name for f in attrs.fields(Unit))


def _unit_copier() -> Callable[[Unit], Unit]:
    """:meth:`Unit.copy` as straight-line code, one assignment per field: a session
    takes a checkpoint at every choice of a unit to move, copying every unit, and a
    loop of ``setattr`` calls made that a tenth of a Full Simulation game's time.
    Every field of :class:`Unit`, ``contact`` a new set."""
    lines = ["def copy_unit(unit, new=object.__new__, cls=Unit):", "    other = new(cls)"]
    lines += [f"    other.{n} = unit.{n}" for n in _UNIT_SLOTS if n != "contact"]
    lines += ["    other.contact = set(unit.contact)", "    return other"]
    namespace: dict[str, Any] = {"Unit": Unit}
    exec("\n".join(lines), namespace)  # noqa: S102 -- fixed text built from the class's own field names
    return namespace["copy_unit"]  # type: ignore[no-any-return]


_copy_unit = _unit_copier()


@attrs.define(eq=False)
class CenturionState:
    """Everything on the table for one Centurion game (Basic or Full)."""

    scenario: Scenario
    """The scenario document (model.Scenario)."""
    version: str
    """``basic`` or ``full`` (model.GameVersion value)."""
    map: MapLike
    types: Mapping[str, UnitType]
    """Unit types by code (units.toml)."""
    capability: Mapping[str, Capability]
    """Combat Unit Capability rows by code (capability.toml)."""
    terrain_chart: Mapping[str, TerrainEffect]
    """Terrain Effects Chart by terrain / feature id (terrain.toml)."""
    sides: tuple[str, str]
    """Side ids in the order they move: first player first (cen:basic.sequence)."""
    side_names: Mapping[str, str] = attrs.field(factory=dict)
    options: dict[str, Any] = attrs.field(factory=dict)
    """Option values in force (ctx.options copy)."""

    units: dict[str, Unit] = attrs.field(factory=dict)
    """Every unit by id, in set-up order (deterministic iteration)."""
    stacks: dict[Hex, list[str]] = attrs.field(factory=dict)
    """Hex -> ids of units on it (only hexes with units)."""
    markers: dict[Hex, set[str]] = attrs.field(factory=dict)
    """Counters on the map that are not units: ``earthworks``, ``caltrops`` (cen:opt.*)."""

    turn: int = 1
    """Game-Turn (1-based; cen:basic.sequence C)."""
    player_turn: int = 0
    """Player-Turns begun so far (0 before the first)."""
    phase: str = Phase.SETUP
    """The phase being played (a :class:`~ancients_games.centurion.vocab.Phase`)."""
    active: str = ""
    """Side whose Player-Turn it is."""

    start_units: dict[str, int] = attrs.field(factory=dict)
    """Counters each side had at the start (cen:basic.victory)."""
    start_points: dict[str, int] = attrs.field(factory=dict)
    """Point value each side had at the start (cen:full.victory)."""
    lost_units: dict[str, int] = attrs.field(factory=dict)
    lost_points: dict[str, int] = attrs.field(factory=dict)
    turn_lost_points: dict[str, int] = attrs.field(factory=dict)
    """Points lost in the current Game-Turn (cen:full.panic H, cen:full.demoralization)."""
    extra: dict[str, Any] = attrs.field(factory=dict)
    """Free bookkeeping for the Full Simulation (panic thresholds, weather ...)."""
    rev: int = 0
    """Bumped on every placement, move and removal (cheap cache key for bots)."""

    _zoc_cache: dict[str, frozenset[Hex]] = attrs.field(factory=dict, repr=False)

    def copy(self) -> CenturionState:
        """An independent copy (session checkpoints): units, stacks, markers, the
        turn record and the Full Simulation bookkeeping (``extra``, deep-copied by
        :func:`_copy_extra`, as ``copy.deepcopy`` would) are new objects; the
        scenario, map, unit types, charts and loaded tables are shared (immutable)."""
        other = object.__new__(CenturionState)
        for name, value in zip(_STATE_SLOTS, _get_state_slots(self)):
            setattr(other, name, value)
        other.side_names = dict(self.side_names)
        other.options = dict(self.options)
        other.units = {k: u.copy() for k, u in self.units.items()}
        other.stacks = {h: list(ids) for h, ids in self.stacks.items()}
        other.markers = {h: set(m) for h, m in self.markers.items()}
        for name in ("start_units", "start_points", "lost_units", "lost_points", "turn_lost_points", "_zoc_cache"):
            object.__setattr__(other, name, dict(getattr(self, name)))
        memo: dict[int, Any] = {id(x): x for x in (self.scenario, self.map, self.types, self.capability,
                                                   self.terrain_chart)}
        tables = self.extra.get("full_tables")
        if tables is not None:
            memo[id(tables)] = tables
        for u in self.units.values():
            memo[id(u)] = other.units[u.id]
        for key in SHARED_EXTRA:
            if key in self.extra:
                memo[id(self.extra[key])] = self.extra[key]
        other.extra = _copy_extra(self.extra, memo)
        return other

    # ------------------------------------------------------------ notation
    @property
    def numbering(self) -> Numbering:
        return self.map.numbering

    def hid(self, h: Hex | None) -> str:
        """Printed ``CCRR`` ID of a hex (``"off"`` for None)."""
        if h is None:
            return "off"
        got = self._ids().get(h)
        return got if got is not None else self.map.numbering.to_id(h)

    def hex_of(self, hex_id: str) -> Hex:
        """The hex printed as ``hex_id`` (``HexIdError``, a ValueError, if none)."""
        got = _ID_TO_HEX.get(id(self.map), {}).get(hex_id)
        return got if got is not None else self.map.numbering.from_id(hex_id)

    def _ids(self) -> dict[Hex, str]:
        got = _HEX_TO_ID.get(id(self.map))
        if got is None or _MAP_REF.get(id(self.map)) is not self.map:
            num = self.map.numbering
            got = {h: num.to_id(h) for h in num.hexes()}
            _HEX_TO_ID[id(self.map)] = got
            _ID_TO_HEX[id(self.map)] = {v: k for k, v in got.items()}
            _MAP_REF[id(self.map)] = self.map
        return got

    def opponent(self, side: str) -> str:
        a, b = self.sides
        if side == a:
            return b
        if side == b:
            return a
        raise ValueError(f"no side {side!r} in this game (sides: {a}, {b})")

    def utype(self, unit: Unit | str) -> UnitType:
        """The :class:`~ancients_games.centurion.model.UnitType` of a unit or code."""
        return self.types[unit if isinstance(unit, str) else unit.type]

    def describe(self, unit: Unit, with_id: bool = True) -> str:
        """``ROM-SD07 SD 4-4-4 at 0507`` (Basic figures where printed)."""
        t = self.types[unit.type]
        figs = str(t.basic) if (self.version == "basic" and t.basic) else (
            f"{t.melee_attack}-{t.melee_defence_front}-{t.movement}"
        )
        state = " dispersed" if unit.dispersed else ""
        text = f"{unit.type} {figs} at {self.hid(unit.hex)}{state}"
        return f"{unit.id} {text}" if with_id else text

    # ------------------------------------------------------------ queries
    def unit(self, unit_id: str) -> Unit:
        try:
            return self.units[unit_id]
        except KeyError:
            raise ValueError(f"no unit {unit_id!r}") from None

    def stack_at(self, h: Hex) -> list[Unit]:
        """Units on ``h`` (any side; in practice one side), in arrival order."""
        ids = self.stacks.get(h)
        if not ids:
            return []
        u = self.units
        return [u[i] for i in ids]

    def side_at(self, h: Hex) -> str | None:
        """Side occupying ``h``, or None if empty."""
        ids = self.stacks.get(h)
        if not ids:
            return None
        return self.units[ids[0]].side

    def is_command(self, unit: Unit) -> bool:
        return self.types[unit.type].is_command

    def stacking_count(self, h: Hex, side: str | None = None) -> int:
        """Units on ``h`` that count for stacking: Command units do not
        (cen:basic.stacking B, cen:full.stacking B)."""
        n = 0
        for uid in self.stacks.get(h, ()):
            u = self.units[uid]
            if (side is None or u.side == side) and self.types[u.type].counts_for_stacking:
                n += 1
        return n

    def live_units(self, side: str | None = None) -> Iterator[Unit]:
        """Units on the map (of ``side``), in set-up order."""
        for u in self.units.values():
            if u.hex is not None and not u.eliminated and (side is None or u.side == side):
                yield u

    def units_of(self, side: str) -> list[Unit]:
        return list(self.live_units(side))

    def occupied_by(self, side: str) -> Iterator[Hex]:
        """Hexes holding units of ``side``."""
        for h, ids in self.stacks.items():
            if ids and self.units[ids[0]].side == side:
                yield h

    def on_map(self, h: Hex) -> bool:
        return h in self.map.numbering

    def neighbors(self, h: Hex) -> list[Hex]:
        """Adjacent hexes that exist on the map."""
        return self.map.numbering.on_map_neighbors(h)

    def enemies_adjacent(self, h: Hex, side: str) -> list[Unit]:
        """Units of the other side on hexes adjacent to ``h``."""
        out: list[Unit] = []
        for n in h.neighbors():
            ids = self.stacks.get(n)
            if ids:
                first = self.units[ids[0]]
                if first.side != side:
                    out.extend(self.units[i] for i in ids)
        return out

    def enemy_hexes_adjacent(self, h: Hex, side: str) -> list[Hex]:
        """Hexes adjacent to ``h`` holding units of the other side."""
        out = []
        for n in h.neighbors():
            ids = self.stacks.get(n)
            if ids and self.units[ids[0]].side != side:
                out.append(n)
        return out

    def exerts_zoc(self, h: Hex) -> bool:
        """True if the stack on ``h`` exerts a Basic Game Zone of Control:
        any unit but a Command unit does, a Command unit only when stacked
        with other types (cen:basic.zoc E; capability ``zoc_basic``)."""
        ids = self.stacks.get(h)
        if not ids:
            return False
        for uid in ids:
            cap = self.capability.get(self.units[uid].type)
            if cap is None or cap.zoc_basic:
                return True
        return False

    def zoc_hexes(self, side: str) -> frozenset[Hex]:
        """Hexes in the Zone of Control of ``side``'s units (cen:basic.zoc):
        the six hexes around every stack that exerts one. Cached until a unit
        of ``side`` moves or is removed."""
        got = self._zoc_cache.get(side)
        if got is not None:
            return got
        out: set[Hex] = set()
        for h in list(self.occupied_by(side)):
            if self.exerts_zoc(h):
                out.update(h.neighbors())
        fz = frozenset(out)
        self._zoc_cache[side] = fz
        return fz

    def commands_within(self, h: Hex, side: str, n: int) -> list[Unit]:
        """``side``'s Command units within ``n`` hexes of ``h`` (cen:basic.combat J,
        cen:opt.command A-B). A dispersed Command unit's influence shrinks to its
        own hex (cen:opt.command E)."""
        out = []
        for u in self.live_units(side):
            if self.types[u.type].is_command and u.hex is not None:
                reach = 0 if u.dispersed else n
                if u.hex.distance(h) <= reach:
                    out.append(u)
        return out

    def losses_fraction(self, side: str) -> tuple[int, int]:
        """(units lost, units at start) for cen:basic.victory."""
        return self.lost_units.get(side, 0), self.start_units.get(side, 0)

    # ------------------------------------------------------------ mutations
    def place(self, unit: Unit, h: Hex) -> None:
        """Put a new unit on the map at set-up (no checks)."""
        if unit.id in self.units:
            raise ValueError(f"unit id {unit.id!r} placed twice")
        if not unit.original_side:
            unit.original_side = unit.side
        unit.hex = h
        self.units[unit.id] = unit
        self.stacks.setdefault(h, []).append(unit.id)
        self._zoc_cache.clear()
        self.rev += 1

    def move(self, unit: Unit, to: Hex) -> None:
        """Move ``unit`` to ``to`` (unchecked primitive; legality is the caller's)."""
        frm = unit.hex
        if frm is not None:
            ids = self.stacks[frm]
            ids.remove(unit.id)
            if not ids:
                del self.stacks[frm]
        unit.hex = to
        self.stacks.setdefault(to, []).append(unit.id)
        self._zoc_cache.pop(unit.side, None)
        self.rev += 1

    def take_off(self, unit: Unit) -> None:
        """Take ``unit``'s counter off the map, counting no loss (:meth:`remove` counts it)."""
        if unit.hex is not None:
            ids = self.stacks[unit.hex]
            ids.remove(unit.id)
            if not ids:
                del self.stacks[unit.hex]
        unit.hex = None
        unit.eliminated = True

    def remove(self, unit: Unit, *, left_field: bool = False) -> None:
        """Take ``unit`` off the map and count its loss (cen:basic.victory,
        cen:full.victory). ``left_field``: it went off a map edge (panic,
        treachery) and is lost all the same (cen:full.movement I)."""
        if unit.eliminated:
            return
        self.take_off(unit)
        unit.left_field = left_field
        unit.contact.clear()
        for other in self.units.values():
            other.contact.discard(unit.id)
        pts = self.types[unit.type].points
        self.lost_units[unit.side] = self.lost_units.get(unit.side, 0) + 1
        self.lost_points[unit.side] = self.lost_points.get(unit.side, 0) + pts
        self.turn_lost_points[unit.side] = self.turn_lost_points.get(unit.side, 0) + pts
        self._zoc_cache.pop(unit.side, None)
        self.rev += 1

    eliminate = remove

    def disperse(self, unit: Unit, turns: int = 1) -> None:
        """Disperse ``unit`` for ``turns`` of its own Player-Turns (CRT results
        AD/DD; two turns when demoralized, cen:full.demoralization)."""
        unit.dispersed = max(unit.dispersed, turns)
        unit.dispersed_since = self.player_turn
        unit.contact.clear()
        for other in self.units.values():
            other.contact.discard(unit.id)

    def change_side(self, unit: Unit, side: str) -> None:
        """Hand ``unit`` to ``side`` (defection, cen:full.treachery E/H);
        losses are the caller's to count."""
        if side not in self.sides:
            raise ValueError(f"no side {side!r} in this game (sides: {', '.join(self.sides)})")
        unit.side = side
        unit.contact.clear()
        for other in self.units.values():
            other.contact.discard(unit.id)
        self._zoc_cache.clear()
        self.rev += 1

    def begin_player_turn(self, side: str) -> None:
        """Start a Player-Turn of ``side``: count it and clear per-turn flags."""
        self.player_turn += 1
        self.active = side
        for u in self.units.values():
            if u.side == side:
                u.moved = False
                u.attacked = False
                u.charged_this_turn = False
                u.charge_length = 0
                u.fired_this_turn = False

    def end_player_turn(self, side: str) -> list[Unit]:
        """End ``side``'s Player-Turn: dispersed units that have sat out one of
        their own turns count it down. Returns units that recovered."""
        back = []
        for u in self.live_units(side):
            if u.dispersed and u.dispersed_since < self.player_turn:
                u.dispersed -= 1
                if not u.dispersed:
                    back.append(u)
        return back

    def begin_game_turn(self) -> None:
        self.turn_lost_points = {s: 0 for s in self.sides}

    # ------------------------------------------------------------ copying
    def units_snapshot(self) -> dict[str, tuple[Any, ...]]:
        """Compact comparable picture of every unit (for tests)."""
        return {u.id: (u.side, u.type, u.hex, u.facing, u.dispersed, u.eliminated) for u in self.units.values()}


_STATE_SLOTS = tuple(f.name for f in attrs.fields(CenturionState))
_get_state_slots = operator.attrgetter(*_STATE_SLOTS)


_ATOMIC: frozenset[type] = frozenset({str, int, float, bool, type(None), bytes, Hex, range,
                                     types.FunctionType, types.BuiltinFunctionType, type})
"""Types :func:`copy.deepcopy` hands back unchanged or that cannot change (a
:class:`~ancients_kit.hexgrid.Hex` is a named tuple of two ints: deepcopy rebuilds
it through ``__reduce_ex__``, the same value at many times the cost)."""

_ATTRS_SLOTS: dict[type, tuple[str, ...] | None] = {}
"""Per class: the fields of a slotted attrs class with no other state, else None."""


def _attrs_slots(cls: type) -> tuple[str, ...] | None:
    got = _ATTRS_SLOTS.get(cls, ())
    if got != ():
        return got  # type: ignore[return-value]
    names: tuple[str, ...] | None = None
    if attrs.has(cls) and "__dict__" not in dir(cls) and not hasattr(cls, "__deepcopy__"):
        slots = {s for c in cls.__mro__ for s in getattr(c, "__slots__", ())} - {"__weakref__"}
        fields = tuple(f.name for f in attrs.fields(cls))
        if slots == set(fields):
            names = fields
    _ATTRS_SLOTS[cls] = names
    return names


def _copy_extra(x: Any, memo: dict[int, Any]) -> Any:
    """``copy.deepcopy(x, memo)``, the same result, without its generic machinery for
    the types the Full Simulation keeps in ``state.extra``: dicts, lists, sets,
    tuples, frozensets, hexes and slotted attrs records (:class:`FullBook
    <ancients_games.centurion.full.morale.FullBook>`, the movement hooks' facts).
    Shared objects stay shared (``memo``, as deepcopy keeps it: an object is entered
    before its contents are copied), a tuple whose items copy to themselves is
    itself, sets are rebuilt from the list of their copied items as deepcopy
    rebuilds them (the same iteration order), and any other type is handed to
    ``copy.deepcopy`` with the same ``memo``. One difference: a frozenset of
    strings, numbers or hexes is shared, not rebuilt (it cannot change; deepcopy's
    rebuilt one holds the same items, possibly iterated in another order, so the
    shared one keeps the order a game played without checkpoints sees)."""
    cls = type(x)
    if cls in _ATOMIC:
        return x
    got = memo.get(id(x), memo)
    if got is not memo:
        return got
    if cls is dict:
        y: Any = {}
        memo[id(x)] = y
        for k, v in x.items():
            y[k if type(k) in _ATOMIC else _copy_extra(k, memo)] = v if type(v) in _ATOMIC else _copy_extra(v, memo)
        return y
    if cls is list:
        y = []
        memo[id(x)] = y
        for v in x:
            y.append(v if type(v) in _ATOMIC else _copy_extra(v, memo))
        return y
    if cls is tuple:
        items = [v if type(v) in _ATOMIC else _copy_extra(v, memo) for v in x]
        got = memo.get(id(x), memo)  # a tuple inside itself (through a list) was copied meanwhile
        if got is not memo:
            return got
        y = x if all(a is b for a, b in zip(items, x)) else tuple(items)
        memo[id(x)] = y
        return y
    if cls is frozenset and all(type(v) in _ATOMIC for v in x):
        memo[id(x)] = x  # nothing in it can change: shared (the hooks' cached hex sets)
        return x
    if cls is set or cls is frozenset:
        y = cls([v if type(v) in _ATOMIC else _copy_extra(v, memo) for v in x])
        memo[id(x)] = y
        return y
    names = _attrs_slots(cls)
    if names is None:
        return _copy.deepcopy(x, memo)
    y = object.__new__(cls)
    memo[id(x)] = y
    for n in names:
        v = getattr(x, n)
        object.__setattr__(y, n, v if type(v) in _ATOMIC else _copy_extra(v, memo))
    return y


def make_unit_ids(side: str, taken: Iterable[str]) -> str:
    """Side prefix for unit ids: first three letters upper-cased, made unique."""
    base = "".join(c for c in side.upper() if c.isalnum())[:3] or "S"
    used = set(taken)
    if base not in used:
        return base
    i = 2
    while f"{base[:2]}{i}" in used:
        i += 1
    return f"{base[:2]}{i}"


def log(ctx: Context, state: CenturionState, kind: str, text: str, rules: Iterable[str] | str, **data: Any) -> None:
    """Record an event for the active side with its rule IDs (rules never print)."""
    ctx.event(kind, text, rules=tuple([rules] if isinstance(rules, str) else rules), side=state.active or None,
              turn=state.turn, **data)


def stack_visible(state: CenturionState, h: Hex, viewer: str | None) -> bool:
    """May ``viewer`` (``None``: everyone) see the make-up of the stack on ``h``?
    cen:basic.stacking C: an enemy stack's make-up is seen only with a friendly
    unit within three hexes."""
    if viewer is None:
        return True
    side = state.side_at(h)
    if side == viewer:
        return True
    return any(u.hex is not None and u.hex.distance(h) <= 3 for u in state.live_units(viewer))


def _facing_toward(frm: Hex, to: Hex) -> int:
    """Direction from ``frm`` whose neighbour comes closest to ``to`` (ties: lowest index)."""
    if frm == to:
        return 0
    best, bd = 0, None
    for d, n in enumerate(frm.neighbors()):
        dist = n.distance(to)
        if bd is None or dist < bd:
            best, bd = d, dist
    return best


def build_state(
    scenario: Scenario,
    hexmap: MapLike,
    types: Mapping[str, UnitType],
    capability: Mapping[str, Capability],
    terrain_chart: Mapping[str, TerrainEffect],
    options: Mapping[str, Any] | None = None,
) -> CenturionState:
    """The initial state of ``scenario``: every counter placed as the scenario
    lists it (cen:basic.deployment, cen:full.deployment), ids ``ROM-SD07``.

    Facing comes from the scenario (flat-top direction names); where none is
    given, a unit faces the hex of its side's deployment that lies toward the
    enemy's centre of mass (cen:full.deployment: "facing the front of his enemy").
    """
    first = scenario.first_player
    order = [s.id for s in scenario.sides]
    if first not in order:
        raise ValueError(f"scenario {scenario.id}: first player {first!r} is not a side ({order})")
    second = next(s for s in order if s != first)
    state = CenturionState(
        scenario=scenario,
        version=str(scenario.game),
        map=hexmap,
        types=types,
        capability=capability,
        terrain_chart=terrain_chart,
        sides=(first, second),
        side_names={s.id: s.name for s in scenario.sides},
        options=dict(options or {}),
    )
    num = hexmap.numbering
    prefixes: list[str] = []
    for side in scenario.sides:
        prefix = make_unit_ids(side.id, prefixes)
        prefixes.append(prefix)
        enemy = scenario.opponent(side.id)
        try:
            target = num.from_id(enemy.zone.centre)
        except ValueError:
            target = None
        counters: dict[str, int] = {}
        points = 0
        count = 0
        for gi, group in enumerate(side.units):
            if group.type not in types:
                raise ValueError(
                    f"scenario {scenario.id}: side {side.id} group {gi}: unknown unit type {group.type!r}"
                )
            face_name = group.facing or side.zone.facing
            for hi, hex_id in enumerate(group.hexes):
                try:
                    h = num.from_id(hex_id)
                except ValueError as exc:
                    raise ValueError(f"scenario {scenario.id}: side {side.id} group {gi} hex {hi}: {exc}") from None
                n = counters.get(group.type, 0) + 1
                counters[group.type] = n
                if face_name:
                    facing = num.direction_from_name(face_name)
                elif target is not None:
                    facing = _facing_toward(h, target)
                else:
                    facing = 0
                u = Unit(
                    id=f"{prefix}-{group.type}{n:02d}",
                    side=side.id,
                    type=group.type,
                    hex=None,
                    facing=facing,
                    group=group.group,
                    supreme=group.supreme,
                )
                state.place(u, h)
                points += types[group.type].points
                count += 1
        state.start_units[side.id] = count
        state.start_points[side.id] = points
        state.lost_units[side.id] = 0
        state.lost_points[side.id] = 0
        state.turn_lost_points[side.id] = 0
        for hex_id in side.earthworks:
            state.markers.setdefault(num.from_id(hex_id), set()).add("earthworks")
    return state
