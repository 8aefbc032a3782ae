"""Centurion data schema: unit types, capability chart, terrain effects, scenarios.

This module owns the *shape* of every Centurion data document under
``data/`` and the two formulas the Scenario Chart is built from:

* :func:`point_value` -- a unit is worth its Melee Combat Factor or its Fire
  Combat Factor, whichever is greater; a Command unit is worth 15
  (``cen:full.victory``). It reproduces the printed Numidia row: 3 CM x 15 +
  20 SD x 4 + 10 SK x 2 + 8 LC x 1 = 153 (``cen:scenarios``).
* :func:`panic_threshold` -- 40 per cent of the army's point value
  (``cen:full.panic``), rounded down to a multiple of 5 (the printed row's
  153 -> 60 fixes the rounding).

Documents and their classes (all frozen attrs classes, loaded through
:class:`ancients_kit.data.DataStore` so unknown keys are errors and a
designer's variant can replace any document by its ``meta.id``):

=====================  ======================  ===============================
file                   loader                  rules served
=====================  ======================  ===============================
``units.toml``         :func:`load_units`      cen:basic.unit-types, cen:full.units
``capability.toml``    :func:`load_capability` cen:full.combat, cen:full.cavalry ...
``terrain.toml``       :func:`load_terrain`    cen:basic.movement, cen:full.movement ...
``scenarios/*.toml``   :func:`load_scenario`   cen:scenarios, cen:basic.deployment
``map.toml``           core ``HexMap.load``    (MAPFORMAT, reconstructed)
``crt_melee.toml``     core tables module      cen:basic.combat, cen:full.combat
``crt_fire.toml``      core tables module      cen:full.combat, cen:full.fem
=====================  ======================  ===============================

Conventions the rules code can rely on:

* Hexes are printed IDs ``CCRR`` of ``map.toml`` (flat-top columns); facings
  are the flat-top direction names ``N NE SE S SW NW``.
* Fractions (terrain multipliers, road costs) are written in TOML as strings
  such as ``"1/2"`` and arrive here as :class:`fractions.Fraction`.
* Rivers are *hexside* features (``river``); a hexside that also carries
  ``ford`` or ``bridge`` is crossed at that feature's cost instead. Roads are
  the hexside feature ``road`` joining two road hexes (``cen:full.movement``
  case G/H: road rate only from road hex to road hex).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, Literal, Protocol

import attrs

from ancients_kit.data import DataError, DataStore, Meta, RangeError, Source, bounded, document_file, first_repeat
from ancients_kit.errors import InvalidAnswer
from ancients_kit.hexgrid import Numbering
from ancients_kit.paths import check_package_name

__all__ = [
    "BasicFactors",
    "Capability",
    "DeploymentZone",
    "GameVersion",
    "SCENARIO_FOLDER",
    "Scenario",
    "ScenarioError",
    "ScenarioFileError",
    "Side",
    "TerrainEffect",
    "UnitGroup",
    "UnitKind",
    "UnitType",
    "VictoryLevel",
    "COMMAND_POINTS",
    "HEXSIDE_PRECEDENCE",
    "army_point_value",
    "crossing_effect",
    "load_capability",
    "load_scenario",
    "load_terrain",
    "load_units",
    "list_scenarios",
    "panic_threshold",
    "point_value",
    "unit_points",
    "validate_scenario",
]

COMMAND_POINTS = 15
"""Points a Command unit is worth (cen:full.victory)."""

SCENARIO_FOLDER = "scenarios"
"""Folder under ``data/`` holding one TOML file per scenario."""


MAX_FIGURE = 99
"""Largest factor, allowance or point value a counter or chart cell may hold:
the counters print one or two digits (ruling on data ranges, docs/games/centurion.md)."""

MAX_TURNS = 99
"""Largest number of Game-Turns a scenario may last (the printed ones run 10 or 12)."""

# Declared ranges of the numbers in Centurion's data documents (issue 13, item 5).
# Each names the rule that gives the figure its meaning; a breach is a DataError
# naming the file and key path, e.g. units.toml: unit[1].movement: 0 is out of range 1..99.
_factor = bounded(0, MAX_FIGURE, rule="cen:full.units")
"""Melee and fire factors: 0 (none, as an archer's melee attack) to two digits."""
_allowance = bounded(1, MAX_FIGURE, rule="cen:full.units")
"""Movement Factor Allowance: every counter moves (a riderless mount 9)."""
_protection = bounded(0, MAX_FIGURE, rule="cen:full.fire-protection")
_range = bounded(0, 9, rule="cen:full.combat")
"""Missile range in hexes: 1 for every printed type, 2 from a hilltop (combat case D)."""
_stack = bounded(1, 3, rule="cen:full.stacking")
"""At most three units of any type in one hex (cen:full.stacking A)."""
_count = bounded(1, 999, rule="cen:scenarios")
_points = bounded(0, 9999, rule="cen:full.victory")
_distance = bounded(0, MAX_FIGURE, rule="cen:full.deployment")
_turns = bounded(1, MAX_TURNS, rule="cen:full.victory")
_min_turns = bounded(0, MAX_TURNS, rule="cen:full.victory")
_cost = bounded(0, MAX_FIGURE, rule="cen:full.movement")
"""Movement Factors to enter or cross; 0 is a free crossing (a bridge)."""
_multiplier = bounded(Fraction(1, 10), 10, rule="cen:full.combat")
"""Terrain multipliers on factors (hill defence 2, attack out of a river 1/2): never 0 or negative."""


def _fraction(value: object) -> Fraction:
    """Read ``"1/2"``, ``2`` or ``"2"`` as an exact fraction (never a float)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool) or isinstance(value, float):
        raise ValueError(f"expected an integer or a fraction string such as '1/2', got {value!r}")
    if isinstance(value, (int, str)):
        return Fraction(value)
    raise ValueError(f"expected an integer or a fraction string such as '1/2', got {value!r}")


def _opt_fraction(value: object) -> Fraction | None:
    if value is None or value == "":
        return None
    return _fraction(value)


def _fraction_map(value: object) -> Mapping[str, Fraction]:
    if not isinstance(value, Mapping):
        raise ValueError(f"expected a table of fractions, got {value!r}")
    return {str(k): _fraction(v) for k, v in value.items()}


class UnitKind(enum.StrEnum):
    """Broad class of a unit type; terrain costs and capabilities key on it."""

    FOOT = "foot"
    """Unmounted combat units: swordsmen, barbarian infantry, spearmen, skirmishers."""
    CAVALRY = "cavalry"
    """Mounted combat units; they charge (cen:full.cavalry)."""
    COMMAND = "command"
    """Command units: free for stacking, 15 points (cen:basic.stacking, cen:full.victory)."""
    MOUNT = "mount"
    """Riderless mounts of dismounted cataphracts (cen:opt.mount-dismount)."""


class GameVersion(enum.StrEnum):
    """Which rules a scenario is played under."""

    BASIC = "basic"
    """Basic Game: three printed factors, ZOC, 10 turns (cen:basic.*)."""
    FULL = "full"
    """Full Simulation: facing, fire, points, panic (cen:full.*)."""


class VictoryLevel(enum.StrEnum):
    """The three victory levels of cen:full.victory (ratio of points lost)."""

    MARGINAL = "marginal"
    """1+ to 1; winner's losses at most 40 per cent."""
    TACTICAL = "tactical"
    """2 to 1; winner's losses at most 30 per cent."""
    STRATEGIC = "strategic"
    """3 to 1; winner's losses at most 25 per cent."""


@attrs.frozen
class BasicFactors:
    """The three bold figures across the top of a counter (cen:basic.unit-types)."""

    attack: int = attrs.field(validator=bounded(0, MAX_FIGURE, rule="cen:basic.unit-types"))
    """Melee Attack Factor."""
    defence: int = attrs.field(validator=bounded(1, MAX_FIGURE, rule="cen:basic.unit-types"))
    """Melee Defense Factor (at least 1: the odds divide by it, cen:basic.combat I)."""
    movement: int = attrs.field(validator=bounded(1, MAX_FIGURE, rule="cen:basic.unit-types"))
    """Movement Factor Allowance."""

    def __str__(self) -> str:
        return f"{self.attack}-{self.defence}-{self.movement}"


@attrs.frozen
class UnitType:
    """One counter type with its Full Simulation values (cen:full.units).

    ``reconstructed`` names the fields whose values are not printed in our
    rulebook text; ``note`` says how each was chosen.
    """

    code: str
    """Short code as the Scenario Chart spells it (``SD``, ``BI``, ``CM`` ...)."""
    name: str
    """Name as the rulebook spells it."""
    kind: UnitKind
    """foot / cavalry / command / mount."""
    melee_attack: int = attrs.field(validator=_factor)
    """Melee Attack Factor (MAF); for cavalry the value of a full charge."""
    melee_defence_front: int = attrs.field(validator=_factor)
    """Melee Defense Factor / Frontal (MDF/F); at least 1 but for a riderless mount."""
    melee_defence_flank: int = attrs.field(validator=_factor)
    """Melee Defense Factor / Flank (MDF/K); at least 1 but for a riderless mount."""
    movement: int = attrs.field(validator=_allowance)
    """Movement Factor Allowance (MFA)."""
    points: int = attrs.field(validator=bounded(0, MAX_FIGURE, rule="cen:full.victory"))
    """Unit point value (cen:full.victory); must equal :func:`unit_points`."""
    source: Source
    """``rulebook`` when the counter's figures are printed in our text."""
    basic: BasicFactors | None = None
    """Printed Basic Game figures, attack-defence-movement; None if not a Basic Game type."""
    fire: int = attrs.field(default=0, validator=_factor)
    """Fire Combat Factor (FCF); 0 = no range weapon."""
    fire_range: int = attrs.field(default=0, validator=_range)
    """Range in hexes (1 normally; +1 on a hilltop, see terrain); 0 = cannot fire."""
    fire_protection_front: int = attrs.field(default=2, validator=_protection)
    """Fire Protection Factor facing the fire (cen:full.fire-protection, case G)."""
    fire_protection_flank: int = attrs.field(default=1, validator=_protection)
    """Fire Protection Factor when fired on through a flank or from both sides."""
    charge_length: int = attrs.field(default=0, validator=bounded(0, MAX_FIGURE, rule="cen:full.cavalry"))
    """Cavalry: straight hexes needed for the full MAF (= MAF; cen:full.cavalry)."""
    min_charge_attack: int = attrs.field(default=0, validator=bounded(0, MAX_FIGURE, rule="cen:full.cavalry"))
    """Cavalry: floor of the MAF after a short charge (BC 2, LC 1)."""
    stack_limit: int = attrs.field(default=3, validator=_stack)
    """Most units of this type in one hex in the Full Simulation (cen:full.stacking);
    the Basic Game allows three of any type (cen:basic.stacking)."""
    base_counter: str = ""
    """Counter printed for it when it is an optional-rule reading of another type."""
    rules: tuple[str, ...] = ()
    """Rule IDs that define this type."""
    reconstructed: tuple[str, ...] = ()
    """Names of fields whose values are reconstructed, not printed."""
    note: str = ""
    """Reasoning for reconstructed values and the text fixing printed ones."""

    def __attrs_post_init__(self) -> None:
        # Ranges that depend on the kind: only a riderless mount may have no
        # defence or protection (cen:opt.mount-dismount F: it is no combat unit;
        # the odds divide by a defence of 0 otherwise, cen:full.combat).
        if self.kind is not UnitKind.MOUNT:
            for name, rule in (("melee_defence_front", "cen:full.units"), ("melee_defence_flank", "cen:full.units"),
                               ("fire_protection_front", "cen:full.fire-protection"),
                               ("fire_protection_flank", "cen:full.fire-protection")):
                if getattr(self, name) < 1:
                    raise RangeError(name, f"{getattr(self, name)} is out of range 1..{MAX_FIGURE} for a "
                                           f"{self.kind.value} unit (only a riderless mount has 0) [{rule}]")
        if self.points != unit_points(self):
            raise RangeError("points", f"{self.points} points, but a {self.kind.value} unit with these factors is "
                                       f"worth {unit_points(self)} (the greater of melee attack and fire; Command 15) "
                                       "[cen:full.victory]")

    @property
    def is_command(self) -> bool:
        return self.kind is UnitKind.COMMAND

    @property
    def counts_for_stacking(self) -> bool:
        """Command units 'do not exist' for stacking (cen:basic.stacking B, cen:full.stacking B)."""
        return self.kind is not UnitKind.COMMAND

    @property
    def mounted(self) -> bool:
        return self.kind in (UnitKind.CAVALRY, UnitKind.MOUNT)


@attrs.frozen
class Capability:
    """One row of the Combat Unit Capability chart (reconstructed; cen:full.combat)."""

    code: str
    """Unit type code this row describes."""
    melee_offence: Literal["yes", "no", "dispersed-or-command"]
    """May make melee attacks; Command units only against dispersed units and
    enemy Command units (cen:full.combat)."""
    fire_offence: bool
    """May fire offensively."""
    fire_defence: bool
    """May fire defensively when attacked (cen:full.defensive-fire)."""
    fire_and_melee: Literal["no", "same-target", "defence-only"]
    """Fire and melee in one turn: ``no``; ``same-target`` (cataphracts);
    ``defence-only`` (skirmishers, oriental cavalry may do both only in defence)."""
    charge: bool
    """Is cavalry that charges (cen:full.cavalry)."""
    form_square: bool
    """May form square (cen:full.square)."""
    relief: bool
    """May use the Roman Relief Rule (cen:full.relief)."""
    retreat_before_combat: int = attrs.field(validator=bounded(0, MAX_FIGURE, rule="cen:full.combat"))
    """Hexes it may retreat before melee (Light Cavalry 4), 0 = none."""
    zoc_basic: bool
    """Exerts a Zone of Control in the Basic Game (cen:basic.zoc E)."""
    missile_zoc: bool
    """Full Simulation: enemy moving adjacent is liable to its defensive fire."""
    occupy_earthworks: bool
    """May occupy earthworks (unmounted units; cen:opt.earthworks)."""
    build_earthworks: bool
    """May build earthworks and caltrops (unmounted combat units, not Command)."""
    enter_caltrops: Literal["yes", "involuntary-only"]
    """Cavalry may not voluntarily enter caltrops (cen:opt.caltrops)."""
    dismount_as: tuple[str, ...] = ()
    """Codes it may dismount as (cen:opt.mount-dismount)."""
    source: Source = "reconstructed"
    """``rulebook`` only when every cell is fixed by the text."""
    note: str = ""
    """Which rule text fixes each cell."""


@attrs.frozen
class TerrainEffect:
    """One line of the Terrain Effects Chart (reconstructed; cen:basic.movement).

    Costs are Movement Factors to *enter* a hex (placement ``hex``), to cross
    an edge (``hexside``: added to the entry cost of the hex beyond, except
    ``road`` which *replaces* it), or extra costs of a counter placed on the
    map (``marker``: earthworks, caltrops).
    """

    id: str
    """Terrain name as used in ``map.toml`` (hex terrain or hexside feature)."""
    name: str
    placement: Literal["hex", "hexside", "marker"]
    cost: Fraction | None = attrs.field(converter=_opt_fraction, default=None, validator=_cost)
    """Entry cost (hex), crossing cost (hexside) or road rate; None = impassable."""
    cost_by_kind: Mapping[str, Fraction] = attrs.field(converter=_fraction_map, factory=dict, validator=_cost)
    """Per :class:`UnitKind` value overrides of ``cost``."""
    prohibited: tuple[str, ...] = ()
    """Unit kinds that may never enter / cross."""
    exit_cost: Fraction = attrs.field(converter=_fraction, default=Fraction(0), validator=_cost)
    """Extra Movement Factors to leave (caltrops: 2)."""
    melee_defence: Fraction = attrs.field(converter=_fraction, default=Fraction(1), validator=_multiplier)
    """Multiplier on the MDF of units defending in the hex / behind the hexside."""
    melee_attack_out: Fraction = attrs.field(converter=_fraction, default=Fraction(1), validator=_multiplier)
    """Multiplier on the MAF of units attacking out of the hex / across the hexside."""
    fire_protection: Fraction = attrs.field(converter=_fraction, default=Fraction(1), validator=_multiplier)
    """Multiplier on the FPF of units in the hex."""
    defence_applies_vs: Literal["all", "from-outside", "from-lower"] = "all"
    """``from-lower``: hill bonus only against attackers not themselves on a hill."""
    fire_range_bonus: int = attrs.field(default=0, validator=_range)
    """Added to missile range of units in the hex (hilltop: range 2, cen:full.combat D)."""
    fires_over: bool = False
    """Units in the hex may fire over intervening units and obstacles (hilltop)."""
    blocks_fire: bool = False
    """Blocks line of fire through the hex / along the hexside."""
    charge_into: bool = True
    """Cavalry may charge into (end a charge against a unit in) the hex / across the side."""
    charge_through: bool = True
    """Cavalry may charge through (a charge path may pass it)."""
    square_allowed: bool = True
    """Swordsmen may form square here."""
    controls_front: bool = False
    """Cross River Attack Rule: a unit directly behind it controls the hexes to its front."""
    rules: tuple[str, ...] = ()
    """Rule IDs that fix or constrain this line."""
    source: Source = "reconstructed"
    confidence: Literal["H", "M", "L"] = "L"
    note: str = ""

    def entry_cost(self, kind: UnitKind | str) -> Fraction | None:
        """Cost for a unit of ``kind``; None if the kind may not enter or cross."""
        k = str(kind)
        if k in self.prohibited:
            return None
        return self.cost_by_kind.get(k, self.cost)


@attrs.frozen
class DeploymentZone:
    """Where a side sets up (cen:full.deployment): a centre of mass and radius.

    ``hexes`` lists the whole zone when it is not a plain circle (board
    quadrant, hills ...); empty means every hex within ``radius`` of ``centre``.
    For the side deploying second, ``hexes`` is worked out against the
    *default* positions of the first side; a placement phase that lets the
    first side set up anew should recompute it from ``min_enemy_distance`` /
    ``max_enemy_distance`` (distance to the nearest enemy unit).
    """

    centre: str
    """Printed hex ID of the centre of mass."""
    radius: int = attrs.field(default=5, validator=_distance)
    """Hexes from the centre of mass (five in cen:full.deployment)."""
    hexes: tuple[str, ...] = ()
    facing: str = ""
    """Facing the scenario prescribes, if any (``S`` for 'facing south')."""
    min_enemy_distance: int = attrs.field(default=0, validator=_distance)
    """Second deployer: at least this far from every enemy unit (8); 0 = no limit."""
    max_enemy_distance: int = attrs.field(default=0, validator=_distance)
    """Second deployer: at most this far from the nearest enemy unit (12); 0 = no limit."""
    note: str = ""


@attrs.frozen
class UnitGroup:
    """Counters of one type placed at start; ``hexes`` has one ID per counter.

    A hex may repeat (a stack). ``group`` is the legion (I, II, III) or tribe
    key used by cen:rom.legion-integrity and cen:barb.tribe.
    """

    type: str
    """Unit type code (units.toml)."""
    count: int = attrs.field(validator=_count)
    hexes: tuple[str, ...]
    facing: str = ""
    """Flat-top direction name; empty in Basic Game scenarios."""
    group: str = ""
    """Legion or tribe key (I, II, III); empty if none."""
    supreme: bool = False
    """Command units only: the Supreme Command Unit (cen:opt.command)."""
    note: str = ""

    def __attrs_post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"unit group {self.type}: count must be at least 1, got {self.count}")
        if len(self.hexes) != self.count:
            raise ValueError(
                f"unit group {self.type}: {self.count} counters but {len(self.hexes)} hexes listed"
            )


@attrs.frozen
class Side:
    """One army of a scenario: its order of battle, set-up and victory data."""

    id: str
    """Short identifier (``romans``, ``numidians``)."""
    name: str
    """Army name as the chart prints it."""
    order_of_battle: Mapping[str, int] = attrs.field(validator=_count)
    """Unit type code -> number of counters (the chart row)."""
    units: tuple[UnitGroup, ...]
    """Starting positions; their counts add up to ``order_of_battle``."""
    point_value: int = attrs.field(validator=_points)
    """PV of the entire army (cen:scenarios); equals :func:`point_value` of the OB."""
    panic_threshold: int = attrs.field(validator=bounded(0, 9999, rule="cen:full.panic"))
    """PT (cen:full.panic); equals :func:`panic_threshold` of ``point_value``."""
    zone: DeploymentZone
    victory_levels: tuple[VictoryLevel, ...] = ()
    """Levels marked 'x' against this army in the chart (all three in Civil Wars)."""
    options: tuple[str, ...] = ()
    """Optional/special rule IDs applying to this side only (cen:barb.warrior ...)."""
    source: Source = "reconstructed"
    """``rulebook`` when the chart row is printed (Roman Numidia row only)."""
    confidence: Literal["H", "M", "L"] = "L"
    entry_hexes: tuple[str, ...] = ()
    """Map-edge hexes through which this side enters instead of deploying (Teutoburgerwald)."""
    earthworks: tuple[str, ...] = ()
    """Hexes holding earthworks at start (Daras: up to six)."""
    note: str = ""
    """Where the army size comes from."""

    def __attrs_post_init__(self) -> None:
        if self.panic_threshold > self.point_value:
            raise RangeError("panic_threshold", f"{self.panic_threshold} is above the army's point value "
                                                f"{self.point_value} [cen:full.panic]")

    def counter_count(self) -> int:
        return sum(self.order_of_battle.values())


@attrs.frozen
class _Header:
    id: str
    title: str
    game: GameVersion
    first_player: str
    deploys_first: str
    turns: int = attrs.field(validator=_turns)
    year: str = ""
    min_turns: int = attrs.field(default=0, validator=_min_turns)
    map: str = attrs.field(default="map.toml", validator=lambda _i, _a, v: _package_name(v))
    options: tuple[str, ...] = ()
    civil_war: bool = False
    fight_to_death: bool = False
    deployment_note: str = ""
    special_rules: tuple[str, ...] = ()
    notes: str = ""


    def __attrs_post_init__(self) -> None:
        if self.min_turns > self.turns:
            raise RangeError("min_turns", f"{self.min_turns} is above the scenario's {self.turns} turns [cen:full.victory]")


def _package_name(value: object) -> None:
    """A scenario's map names a document under the game's data/ folder (paths confined, issue 13)."""
    try:
        check_package_name(value, file="", key="")
    except DataError as exc:
        raise RangeError("map", exc.detail) from None


@attrs.frozen
class _ScenarioDoc:
    scenario: _Header
    side: tuple[Side, ...]


@attrs.frozen
class Scenario:
    """A scenario: Basic Game deployment (cen:basic.deployment) or chart row (cen:scenarios)."""

    meta: Meta
    """Provenance of the file."""
    id: str
    """File stem, e.g. ``numidia``, ``basic-carrhae``."""
    title: str
    year: str
    game: GameVersion
    first_player: str
    """Side id that moves first."""
    deploys_first: str
    """Side id that deploys first (cen:full.deployment)."""
    turns: int
    """Game-Turns to play (Basic Game: 10, cen:basic.victory)."""
    min_turns: int
    """Turns before a victory may be declared (6 in the Full Simulation, cen:full.victory)."""
    map: str
    """Map document under data/."""
    sides: tuple[Side, ...]
    options: tuple[str, ...]
    """Rule IDs of optional rules in force for both sides (legion integrity for every chart scenario)."""
    civil_war: bool
    """Civil War scenario: loss of the Supreme Command Unit loses (cen:opt.command G)."""
    fight_to_death: bool
    """No concession, panic still applies ('Fight to the death')."""
    deployment_note: str
    """The deployment note as the book prints it (or the diagram label)."""
    special_rules: tuple[str, ...]
    notes: str

    def side(self, side_id: str) -> Side:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise ValueError(f"scenario {self.id}: no side {side_id!r} (sides: {[s.id for s in self.sides]})")

    def opponent(self, side_id: str) -> Side:
        self.side(side_id)
        return next(s for s in self.sides if s.id != side_id)


@attrs.frozen
class _UnitsDoc:
    unit: tuple[UnitType, ...]


@attrs.frozen
class _CapabilityDoc:
    capability: tuple[Capability, ...]


@attrs.frozen
class _TerrainDoc:
    terrain: tuple[TerrainEffect, ...]


def load_units(store: DataStore) -> dict[str, UnitType]:
    """Unit types by code from ``units.toml`` (cen:basic.unit-types, cen:full.units)."""
    meta, doc = store.load("units.toml", _UnitsDoc)
    out: dict[str, UnitType] = {}
    for i, u in enumerate(doc.unit):
        if u.code in out:
            raise DataError(document_file(store, "units.toml", meta.id), f"unit code {u.code!r} defined twice",
                            f"unit[{i}].code")
        out[u.code] = u
    return out


def _by_key(store: DataStore, rel: str, data_id: str, rows: Iterable[Any], key: str, what: str,
            rule: str) -> dict[str, Any]:
    """``rows`` by their ``key``; a key given twice is a DataError naming the file and the row (the
    second row silently replaced the first)."""
    rows = tuple(rows)
    repeat = first_repeat(getattr(row, key) for row in rows)
    if repeat is not None:
        i, k = repeat
        raise DataError(document_file(store, rel, data_id), f"{what} {k!r} has a row already [{rule}]",
                        f"{what}[{i}].{key}")
    return {getattr(row, key): row for row in rows}


def load_capability(store: DataStore) -> dict[str, Capability]:
    """Combat Unit Capability chart rows by unit code (``capability.toml``); a code once."""
    meta, doc = store.load("capability.toml", _CapabilityDoc)
    return _by_key(store, "capability.toml", meta.id, doc.capability, "code", "capability", "cen:full.units")


def check_capability(store: DataStore, types: Mapping[str, UnitType], chart: Mapping[str, Capability]) -> None:
    """Each unit type has its Capability chart row and each row (and each code it dismounts as) is a
    unit type: a row for a renamed type was never read, and the type played without one."""
    meta, _ = store.load("capability.toml", _CapabilityDoc)
    file = document_file(store, "capability.toml", meta.id)
    units_meta, _ = store.load("units.toml", _UnitsDoc)
    units_file = document_file(store, "units.toml", units_meta.id)
    missing = sorted(set(types) - set(chart))
    if missing:
        raise DataError(file, f"no row for unit type {', '.join(missing)} of {units_file} [cen:full.units]", "capability")
    for i, (code, row) in enumerate(chart.items()):
        for key, named in [("code", code)] + [(f"dismount_as[{j}]", c) for j, c in enumerate(row.dismount_as)]:
            if named not in types:
                raise DataError(file, f"{named!r} is no unit type of {units_file} [cen:full.units]",
                                f"capability[{i}].{key}")


def load_terrain(store: DataStore) -> dict[str, TerrainEffect]:
    """Terrain Effects Chart lines by terrain/feature id (``terrain.toml``); an id once."""
    meta, doc = store.load("terrain.toml", _TerrainDoc)
    return _by_key(store, "terrain.toml", meta.id, doc.terrain, "id", "terrain", "cen:full.movement")


HEXSIDE_PRECEDENCE = ("bridge", "ford", "river")
"""On one hexside a bridge overrides a ford, which overrides the river (terrain.toml note)."""


def crossing_effect(
    features: Iterable[str], chart: Mapping[str, TerrainEffect]
) -> TerrainEffect | None:
    """The chart line governing a move or attack across a hexside with ``features``.

    ``bridge`` beats ``ford`` beats ``river`` (cen:full.cross-river,
    cen:basic.movement); ``road`` is a movement rate, not an obstacle, and is
    ignored here. Other hexside features of a designer's chart count if no
    river feature is present. None when nothing on the side affects crossing.
    """
    present = set(features)
    for name in HEXSIDE_PRECEDENCE:
        if name in present and name in chart:
            return chart[name]
    others = sorted(f for f in present if f != "road" and f in chart and chart[f].placement == "hexside")
    return chart[others[0]] if others else None


def list_scenarios(store: DataStore) -> list[str]:
    """IDs (file stems) of every scenario under ``data/scenarios/``."""
    return [p.rsplit("/", 1)[-1].removesuffix(".toml") for p in store.listing(SCENARIO_FOLDER)]


class ScenarioError(ValueError):
    """A scenario contradicts the rules or the other data documents.

    The message names the scenario, the side and unit group, and the rule ID.
    """


class ScenarioFileError(DataError, ScenarioError):
    """A :class:`ScenarioError` found while loading a scenario file: the message
    also names the file (or the variant replacing it)."""


def validate_scenario(
    scenario: Scenario,
    types: Mapping[str, UnitType],
    numbering: _HexIds | None = None,
) -> None:
    """Check a scenario against the unit types, the map and the set-up rules.

    Raises :class:`ScenarioError` naming scenario, side, group and rule:
    unknown unit types or sides (cen:scenarios), counts that differ from the
    order of battle (cen:scenarios), hexes off the map, more or fewer than one
    Supreme Command Unit (cen:opt.command), stacking over the limits
    (cen:basic.stacking: three of any type; cen:full.stacking: three, fewer for
    types with a lower ``stack_limit``; Command units free), both sides in one
    hex. Point values and panic thresholds are chart data and are *not*
    recomputed here: a designer may print a different threshold.
    """
    where = f"scenario {scenario.id}"
    ids = [s.id for s in scenario.sides]
    if len(ids) != 2 or len(set(ids)) != 2:
        raise ScenarioError(f"{where}: needs two sides with distinct ids, got {ids} (cen:scenarios)")
    for field_name in ("first_player", "deploys_first"):
        if getattr(scenario, field_name) not in ids:
            raise ScenarioError(
                f"{where}: {field_name} {getattr(scenario, field_name)!r} is not a side {ids} (cen:scenarios)"
            )
    basic = scenario.game is GameVersion.BASIC
    owner: dict[str, str] = {}
    for side in scenario.sides:
        counted: dict[str, int] = {}
        stacks: dict[str, list[UnitType]] = {}
        supremes = 0
        for gi, g in enumerate(side.units):
            at = f"{where}, side {side.id}, units[{gi}] ({g.type})"
            if g.type not in types:
                raise ScenarioError(f"{at}: unknown unit type (known: {', '.join(sorted(types))}) (cen:scenarios)")
            ut = types[g.type]
            if g.supreme:
                if not ut.is_command:
                    raise ScenarioError(f"{at}: only a Command unit can be the Supreme Command Unit (cen:opt.command)")
                supremes += g.count
            counted[g.type] = counted.get(g.type, 0) + g.count
            for h in g.hexes:
                if numbering is not None:
                    try:
                        numbering.from_id(h)
                    except ValueError as exc:
                        raise ScenarioError(f"{at}: hex {h!r} is not on the map: {exc} (cen:scenarios)") from None
                stacks.setdefault(h, []).append(ut)
                other = owner.setdefault(h, side.id)
                if other != side.id:
                    raise ScenarioError(f"{at}: hex {h} also holds units of side {other} (cen:basic.movement G)")
        _check_side_places(where, side, numbering)
        if counted != dict(side.order_of_battle):
            raise ScenarioError(
                f"{where}, side {side.id}: units placed {counted} differ from the order of battle "
                f"{dict(side.order_of_battle)} (cen:scenarios)"
            )
        if supremes != 1:
            raise ScenarioError(
                f"{where}, side {side.id}: {supremes} Supreme Command Units, expected exactly one (cen:opt.command)"
            )
        for h, here in stacks.items():
            combat = [u for u in here if u.counts_for_stacking]
            if len(combat) > 3:
                rule = "cen:basic.stacking" if basic else "cen:full.stacking"
                raise ScenarioError(f"{where}, side {side.id}: {len(combat)} combat units in hex {h}, at most 3 ({rule})")
            if not basic:
                for u in combat:
                    n = sum(1 for v in combat if v.code == u.code)
                    if n > u.stack_limit:
                        raise ScenarioError(
                            f"{where}, side {side.id}: {n} {u.code} in hex {h}, at most {u.stack_limit} (cen:full.stacking)"
                        )


def _check_side_places(where: str, side: Side, numbering: _HexIds | None) -> None:
    """Every hex ID and facing a side names outside its unit groups lies on the map
    (cen:full.deployment, cen:full.facing), so a variant's typo is refused here
    rather than failing when the game is set up."""
    if numbering is None:
        return
    at = f"{where}, side {side.id}"
    named = [("zone.centre", side.zone.centre)] if side.zone.centre else []
    named += [(f"zone.hexes[{i}]", h) for i, h in enumerate(side.zone.hexes)]
    named += [(f"entry_hexes[{i}]", h) for i, h in enumerate(side.entry_hexes)]
    named += [(f"earthworks[{i}]", h) for i, h in enumerate(side.earthworks)]
    for key, h in named:
        try:
            numbering.from_id(h)
        except ValueError as exc:
            raise ScenarioError(f"{at}, {key}: hex {h!r} is not on the map: {exc} (cen:full.deployment)") from None
    to_direction = getattr(numbering, "direction_from_name", None)
    if to_direction is None:
        return
    facings = [("zone.facing", side.zone.facing)] + [(f"units[{i}].facing", g.facing) for i, g in enumerate(side.units)]
    for key, face in facings:
        if face:
            try:
                to_direction(face)
            except ValueError as exc:
                raise ScenarioError(f"{at}, {key}: {exc} (cen:full.facing)") from None


class _HexIds(Protocol):
    """Anything with ``from_id(hex_id)`` raising ValueError off the map (core ``Numbering``)."""

    def from_id(self, hex_id: str) -> object: ...


def _map_numbering(store: DataStore, rel: str) -> _HexIds | None:
    grid = dict(store.raw(rel).get("grid", {}))
    try:
        return Numbering(**grid)  # type: ignore[return-value]
    except (TypeError, ValueError) as exc:
        raise ScenarioError(f"{store.path(rel)}: cannot read [grid]: {exc}") from None


def load_scenario(store: DataStore, scenario_id: str, *, validate: bool = True) -> Scenario:
    """Load ``data/scenarios/<scenario_id>.toml`` (cen:scenarios, cen:basic.deployment).

    With ``validate`` (the default) the scenario is checked by
    :func:`validate_scenario` against ``units.toml`` and its map's grid, a failure
    being a :class:`ScenarioFileError` (a ``DataError``) naming the file. An unknown
    ``scenario_id`` is an :class:`~ancients_kit.errors.InvalidAnswer` (cen:scenarios).
    """
    known = list_scenarios(store)
    if scenario_id not in known:
        raise InvalidAnswer(f"no Centurion scenario {scenario_id!r}; known: {', '.join(known)}", answer=scenario_id,
                            rule="cen:scenarios")
    meta, doc = store.load(f"{SCENARIO_FOLDER}/{scenario_id}.toml", _ScenarioDoc)
    h = doc.scenario
    sc = Scenario(
        meta=meta,
        id=h.id,
        title=h.title,
        year=h.year,
        game=h.game,
        first_player=h.first_player,
        deploys_first=h.deploys_first,
        turns=h.turns,
        min_turns=h.min_turns,
        map=h.map,
        sides=doc.side,
        options=h.options,
        civil_war=h.civil_war,
        fight_to_death=h.fight_to_death,
        deployment_note=h.deployment_note,
        special_rules=h.special_rules,
        notes=h.notes,
    )
    if validate:
        try:
            validate_scenario(sc, load_units(store), _map_numbering(store, sc.map))
        except ScenarioFileError:
            raise
        except ScenarioError as exc:
            # The scenario is checked against the unit types: when a variant replaced
            # those, it may be the one at fault, so the message names it as well.
            units_id = store.load("units.toml", _UnitsDoc)[0].id
            hit = store.override(units_id)
            also = f"; unit types from {hit[0].path} [replace.{units_id}]" if hit is not None else ""
            raise ScenarioFileError(document_file(store, f"{SCENARIO_FOLDER}/{scenario_id}.toml", meta.id),
                                    f"{exc}{also}") from None
    return sc


def unit_points(unit: UnitType) -> int:
    """Points one unit is worth (cen:full.victory).

    A Command unit is worth 15; a riderless mount nothing (cen:opt.mount-dismount
    F); any other unit its Melee Combat Factor or Fire Combat Factor,
    whichever is greater.
    """
    if unit.kind is UnitKind.COMMAND:
        return COMMAND_POINTS
    if unit.kind is UnitKind.MOUNT:
        return 0
    return max(unit.melee_attack, unit.fire)


def point_value(units: Iterable[tuple[UnitType, int]] | Mapping[UnitType, int]) -> int:
    """PV of an army: sum of :func:`unit_points` over ``(unit type, count)`` pairs.

    cen:scenarios / cen:full.victory. Numidia's Romans (3 CM, 20 SD, 10 SK,
    8 LC) come to 153, the printed value.
    """
    pairs = units.items() if isinstance(units, Mapping) else units
    total = 0
    for unit, count in pairs:
        if count < 0:
            raise ValueError(f"negative count {count} for unit type {unit.code}")
        total += unit_points(unit) * count
    return total


def army_point_value(order_of_battle: Mapping[str, int], types: Mapping[str, UnitType]) -> int:
    """:func:`point_value` of an order of battle given by unit codes."""
    missing = [c for c in order_of_battle if c not in types]
    if missing:
        raise ValueError(f"unknown unit type code(s) {missing} (cen:scenarios)")
    return point_value((types[c], n) for c, n in order_of_battle.items())


def panic_threshold(points: int) -> int:
    """Panic Threshold: 40 per cent of ``points``, rounded down to a multiple of 5.

    cen:full.panic fixes the 40 per cent; the printed Numidia row (PV 153,
    PT 60) fixes the rounding (61.2 -> 60).
    """
    if points < 0:
        raise ValueError(f"point value must not be negative, got {points} (cen:full.panic)")
    forty = (points * 2) // 5
    return forty - forty % 5
