"""Xenophon combat: withdrawal before battle, the three CRTs, multipliers, results and retreats.

``xen:combat``, ``xen:crt``, ``xen:retreats`` (docs/games/xenophon.md,
"Rulings: combat"). One battle, in order:

1. **Declaration** (``xen:combat``): the phasing force attacks every unit of one
   adjacent hex (xen-ops's attack operation has paid the 2 OP). A neutral
   satrapy whose units are attacked passes at once to the other player
   (``xen:control``).
2. **Withdrawal before battle** (``xen:combat``): the defender stands or tries
   to withdraw. Each side adds a d6 to the OV of one unit of its force (the
   best, since a higher total is never worse: ruling); a strictly higher
   defender total withdraws exactly d6 hexes on a simple path
   (:mod:`ancients_kit.walks`), stopping early only in a City or Colony, never
   into an enemy- or neutral-occupied hex, an EZOC, across a river or lake off a
   road, across a strait, or into a rough hex that is not a pass. Fleets (with
   what they carry) and disembarked land units of the hex roll as one force but
   withdraw as two.
3. **Personal combat** (``xen:opt.personal-combat``, optional), :mod:`leaders`.
4. **CRT by composition** (``xen:combat``): Engagement always; Skirmish when at
   least half the attacking units (not CS) are Cavalry, Light Troops or Fleets;
   Combined Arms when at least half are Phalanx and at least half of the rest
   Cavalry, Light Troops or Fleets; leaders, siege and supply trains ignored.
5. **Odds** (``xen:combat``, ``xen:crt``): each side's raw CS (leaders included)
   times one plus its multipliers: a leader, a Military Advantage chit,
   terrain (defender: rough, pass, an unpillaged City or Colony), a siege train
   (attacker, only against a defender with the terrain multiplier); odds
   rounded for the defender.
6. **Result** (``xen:crt``): AZ/DZ eliminate a side and award the other 2 chits;
   AM/DM eliminate one unit (its owner's choice); AR/DR retreat 1 hex; AD/DD
   eliminate at least half the raw SP (owner's choice, rounded up), the rest
   retreat d6 hexes, the other side draws 1 chit.
7. **Retreats** (``xen:retreats``): the owner walks them; a force in a City or
   Colony may ignore the result, one retreating into an empty or friendly City or
   Colony may halt there; a force with no legal retreat is eliminated.

The pure parts (CRT choice, strengths, withdrawal odds, walkers) take numbers
and the map; the battle generator :func:`battle` works on the game state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from math import ceil

import attrs

from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap
from ancients_kit.tables import OddsTable
from ancients_kit.walks import Walker

__all__ = [
    "CRTS",
    "IGNORED_TYPES",
    "MOBILE_TYPES",
    "Multiplier",
    "crt_choices",
    "crt_distribution",
    "half_sp",
    "multiplied",
    "multipliers",
    "walker",
    "withdrawal_chance",
]

CRTS: tuple[str, ...] = ("engagement", "skirmish", "combined-arms")
"""The three CRTs, by their table names in :data:`model.TABLES` (``xen:crt``)."""

MOBILE_TYPES = frozenset({"cavalry", "light", "fleet"})
"""Cavalry, Light Troops and Fleets: the types that open Skirmish and complete Combined Arms (``xen:combat``)."""

IGNORED_TYPES = frozenset({"leader", "siege_train", "supply_train"})
"""Ignored when the CRT is chosen (``xen:combat``): leaders, siege trains and supply trains."""

COMBAT_RULES = ("xen:combat",)
CRT_RULES = ("xen:combat", "xen:crt")


# ---------------------------------------------------------------- the CRT by composition


def crt_choices(types: Iterable[str]) -> tuple[str, ...]:
    """The CRTs an attacking force of units of ``types`` may use (``xen:combat``).

    Engagement always; Skirmish if at least half the counted units are
    Cavalry, Light Troops or Fleets; Combined Arms if at least half are Phalanx
    and at least half of the others are Cavalry, Light Troops or Fleets. Units
    are counted, not CS; leaders and trains are not counted. A force of only
    Phalanxes has no "remainder" to combine with, so it has no Combined Arms
    (ruling)."""
    counted = [t for t in types if t not in IGNORED_TYPES]
    out = ["engagement"]
    n = len(counted)
    if not n:
        return tuple(out)
    mobile = sum(1 for t in counted if t in MOBILE_TYPES)
    if 2 * mobile >= n:
        out.append("skirmish")
    phalanx = sum(1 for t in counted if t == "phalanx")
    rest = n - phalanx
    if 2 * phalanx >= n and rest and 2 * mobile >= rest:
        out.append("combined-arms")
    return tuple(out)


# ---------------------------------------------------------------- strengths


@attrs.frozen
class Multiplier:
    """One CS multiple modifier of a side in a battle (``xen:combat``, ``xen:crt``)."""

    why: str
    rules: tuple[str, ...] = CRT_RULES


def multipliers(
    *,
    leader: bool = False,
    advantage: bool = False,
    terrain: str = "",
    siege: bool = False,
    attacker: bool = True,
    defender_terrain: bool = False,
) -> tuple[Multiplier, ...]:
    """A side's multipliers, each at most once (``xen:combat``: "once each for
    Leaders, Military Advantage Chit, terrain (defender only), & Siege Train
    (attacker only)"; the CRT's list: the siege train only "if defender has
    terrain multiplier").

    ``terrain`` is the defender's terrain reason (empty: none); it counts only
    for the defender. ``siege`` counts only for the attacker, and only when
    ``defender_terrain``."""
    out: list[Multiplier] = []
    if leader:
        out.append(Multiplier("a leader with the force", ("xen:combat", "xen:leaders")))
    if advantage:
        out.append(Multiplier("Military Advantage chit", ("xen:combat", "xen:stratagem")))
    if terrain and not attacker:
        out.append(Multiplier(f"defending in {terrain}"))
    if siege and attacker and defender_terrain:
        out.append(Multiplier("a siege train against a defender in terrain"))
    return tuple(out)


def multiplied(cs: int, count: int) -> int:
    """Raw CS with ``count`` multipliers: one doubles, two triple, three quadruple (``xen:crt``)."""
    if cs < 0 or count < 0:
        raise ValueError("combat strength and multipliers cannot be negative (xen:combat)")
    return cs * (1 + count)


def half_sp(cs: int) -> int:
    """The SP an AD or DD result eliminates at least: half the raw CS, rounded up (ruling 12)."""
    return ceil(cs / 2)


def crt_distribution(table: OddsTable, attack: int, defense: int) -> dict[str, Fraction]:
    """Exact probability of each result of one battle at these (multiplied)
    strengths, odds rounded for the defender (ruling 10). A defender without
    CS (trains alone) is read on the last column (ruling)."""
    if attack < 0 or defense < 0:
        raise ValueError("combat strength cannot be negative (xen:combat)")
    if defense == 0:
        return table.distribution(1, 0)
    return table.distribution(attack, defense)


def column(table: OddsTable, attack: int, defense: int) -> str:
    """The column a battle is read on (``xen:crt``)."""
    if defense == 0:
        return table.columns[-1]
    return table.odds(attack, defense).label  # type: ignore[union-attr]


# ---------------------------------------------------------------- withdrawal


def withdrawal_chance(defender_ov: int, attacker_ov: int) -> Fraction:
    """P(the defender's d6 + OV beats the attacker's d6 + OV), strictly (``xen:combat``; a tie stands)."""
    wins = sum(1 for d in range(1, 7) for a in range(1, 7) if d + defender_ov > a + attacker_ov)
    return Fraction(wins, 36)


def walker(
    hexmap: HexMap,
    *,
    fleet: bool,
    withdrawal: bool,
    blocked: Callable[[Hex], bool],
    stops: Callable[[Hex], bool],
) -> Walker:
    """The walker of a withdrawal (``xen:combat``) or a retreat (``xen:retreats``).

    Land forces never enter the sea, never cross a river or lake hexside off a
    road, nor a strait (a fortiori: a strait costs more than a river; ruling);
    a withdrawal never enters a rough hex that is not a pass (a retreat may).
    Fleets (and what they carry) keep to sea and coastal hexes. ``blocked(h)``
    stands for the state's vetoes (enemy- or neutral-occupied hexes, EZOC,
    stacking); ``stops(h)``: a City or Colony where the walk may end early.
    """

    def can_enter(h: Hex) -> bool:
        terrain = hexmap.terrain(h)
        if fleet:
            if terrain != "sea" and not hexmap.value(h, "coastal"):
                return False
        elif terrain == "sea":
            return False
        elif withdrawal and terrain == "rough":
            return False
        return not blocked(h)

    def can_step(a: Hex, b: Hex) -> bool:
        if fleet:
            # not across an all-land hexside: the step touches the sea (ruling)
            sea = hexmap.terrain(a) == "sea" or hexmap.terrain(b) == "sea"
            return sea or any(hexmap.terrain(c) == "sea" for c in set(hexmap.neighbors(a)) & set(hexmap.neighbors(b)))
        sides = hexmap.hexside_features(a, b)
        if "strait" in sides:
            return False
        if ("river" in sides or "lake" in sides) and "road" not in sides:
            return False
        return True

    return Walker(hexmap.graph, can_enter=can_enter, can_step=can_step, may_stop=stops)


def walk_counts(w: Walker, start: Hex, steps: int) -> Mapping[Hex, int]:
    """Where walks of ``steps`` hexes may end, with how many walks end there."""
    return w.ends(start, steps)


# ================================================================= the battle on the game state
# (built on xen-core's state.py: hexes are printed IDs, units by ID)

STACK_LIMIT = 10
"""xen:stacking: at most 10 units a hex (a withdrawal or retreat never overstacks, xen:retreats)."""

RESULT_RULES = ("xen:crt",)
RETREAT_RULES = ("xen:retreats",)


@attrs.define
class Battle:
    """One battle being fought: what the chits and the optional rules may read or change."""

    attacker: str
    """The attacking player (the side of the attacking force)."""
    defender: str
    origin: str
    """The attacking force's hex."""
    target: str
    """The hex attacked."""
    attackers: list[str]
    """The attacking units (``xen:combat``: all units of the force attack)."""
    defenders: list[str]
    """Every unit of the hex attacked (``xen:combat``: all are attacked together)."""
    rules: tuple[str, ...] = ("xen:combat",)
    """The rules the caller's attack applies (``xen:naval-combat`` for a naval battle)."""
    no_withdrawal: bool = False
    """The defender may not withdraw (Bribery, set at the ``battle`` window)."""
    advantage: set[str] = attrs.Factory(set)
    """Sides that played Military Advantage (``before-odds`` window): one multiplier each."""
    no_leader_multiplier: set[str] = attrs.Factory(set)
    """Sides that refused personal combat: no leader multiplier this battle (``xen:opt.personal-combat``)."""
    crt: str = ""
    attack: int = 0
    defence: int = 0
    result: str = ""

    def describe(self) -> str:
        return f"{self.attacker} attacks {self.target} from {self.origin}"


@attrs.frozen
class BattleOutcome:
    """What a battle left behind, for the operation that called it (xen-ops)."""

    result: str
    """The CRT result, ``withdrew`` (the defender withdrew before battle) or ``none`` (nothing left to fight)."""
    crt: str
    """The CRT read (empty when no CRT was read)."""
    attackers: tuple[str, ...]
    """The attacking units still on the map."""
    hex: str | None
    """Where they are now (they may have retreated; None if none is left)."""
    defenders: tuple[str, ...]
    """The defending units still on the map (wherever they withdrew or retreated)."""
    cleared: bool
    """The hex attacked holds no defender any more (xen:zoc: the force may move on)."""
    odds: str = ""
    """The column read, e.g. ``3:2``."""


def _units(state: XenState, ids: Iterable[str]) -> list[Unit]:
    return [state.unit(u) for u in ids]


def _on_map(state: XenState, ids: Iterable[str]) -> list[str]:
    return [u for u in ids if state.unit(u).where == "map"]


def cs_total(state: XenState, ids: Iterable[str]) -> int:
    """Raw CS of units, leaders included (``xen:combat``); units embarked count with their fleet's force."""
    return sum(state.unit(u).cs for u in ids)


def has_leader(state: XenState, ids: Iterable[str]) -> bool:
    return any(state.unit(u).leader for u in ids)


def defence_terrain(state: XenState, hex_id: str) -> str:
    """The defender's terrain multiplier in ``hex_id``, as its reason, or ``""`` (``xen:combat``).

    The Terrain Effects Chart (``terrain.toml``, rebuilt): an unpillaged City
    or a Colony (pillage: "ignore printed Cities, treat as clear"), a rough or
    a pass hex give it."""
    chart = state.data.tables["terrain"]
    keys = set(chart.keys)  # type: ignore[union-attr]
    kind = state.city_kind(hex_id)
    if kind is not None and hex_id not in state.pillaged and "defence-city" in keys:
        return "a Colony" if kind == "colony" else "a City"
    terrain = state.data.terrain.get(hex_id, "")
    if f"defence-{terrain}" in keys:
        return f"a {terrain} hex"
    return ""


def side_multipliers(state: XenState, battle: Battle, side: str) -> tuple[Multiplier, ...]:
    """One side's CS multipliers in a battle (``xen:combat``, ``xen:crt``, ``xen:leaders``)."""
    attacker = side == battle.attacker
    ids = battle.attackers if attacker else battle.defenders
    ids = _on_map(state, ids)
    terrain = defence_terrain(state, battle.target)
    return multipliers(
        leader=has_leader(state, ids) and side not in battle.no_leader_multiplier,
        advantage=side in battle.advantage,
        terrain=terrain,
        siege=attacker and any(state.unit(u).type == "siege_train" for u in ids),
        attacker=attacker,
        defender_terrain=bool(terrain),
    )


def strengths(state: XenState, battle: Battle) -> tuple[int, int, tuple[Multiplier, ...], tuple[Multiplier, ...]]:
    """Multiplied CS of both sides and their multipliers (``xen:combat``)."""
    am = side_multipliers(state, battle, battle.attacker)
    dm = side_multipliers(state, battle, battle.defender)
    a = multiplied(cs_total(state, _on_map(state, battle.attackers)), len(am))
    d = multiplied(cs_total(state, _on_map(state, battle.defenders)), len(dm))
    return a, d, am, dm
