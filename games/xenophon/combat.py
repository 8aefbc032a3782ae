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

from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from fractions import Fraction
from math import ceil

import attrs

from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap
from ancients_kit.plugin import OddsReport
from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.tables import OddsTable, probability_text
from ancients_kit.walks import Walker

from . import chits, control, leaders, naval, stratagems
from . import movement as mv
from .battle import Battle, BattleOutcome
from .state import NEUTRAL, Unit, XenState, other_side, type_name
from .zoc import ezoc_of
from .vocab import COMBAT_KINDS, Kind

__all__ = [
    "CRTS",
    "RESULT_VALUE",
    "battle",
    "attack_value",
    "battle_report",
    "best_crt",
    "decision_odds",
    "crt_value",
    "score",
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


RESULT_VALUE: Mapping[str, int] = {"AZ": -4, "AD": -3, "AM": -1, "AR": -1, "--": 0, "DR": 1, "DM": 1, "DD": 3, "DZ": 4}
"""A rough worth of each result to the attacker (losses and chits), for choosing a CRT (bots, odds)."""


def crt_value(dist: Mapping[str, Fraction]) -> Fraction:
    """The expected :data:`RESULT_VALUE` of a battle's result distribution, for the attacker."""
    return sum((p * RESULT_VALUE.get(code, 0) for code, p in dist.items()), Fraction(0))


def best_crt(tables: Mapping[str, OddsTable], allowed: Iterable[str], attack: int, defense: int) -> str:
    """The allowed CRT worth most to the attacker at these strengths (ties: the first allowed)."""
    allowed = tuple(allowed)
    return max(allowed, key=lambda c: (crt_value(crt_distribution(tables[c], attack, defense)), -allowed.index(c)))


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
    The map's hexsides are xen-ops's (:mod:`.movement`: all-sea and all-land sides).
    """

    def can_enter(h: Hex) -> bool:
        terrain = hexmap.terrain(h)
        if fleet:
            if not mv.fleet_may_enter(hexmap, h):
                return False
        elif terrain == "sea":
            return False
        elif withdrawal and terrain == "rough":
            return False
        return not blocked(h)

    def can_step(a: Hex, b: Hex) -> bool:
        if fleet:
            return mv.fleet_may_cross(hexmap, a, b)  # never across an all-land hexside (xen:naval)
        if mv.all_sea_hexside(hexmap, a, b):
            return False  # an island's shore (xen:movement)
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


def _place(state: XenState, hex_id: str) -> str:
    """A hex a force may retreat into, as an option's label (its number is the key): the City's
    name or the terrain."""
    return state.data.city_name.get(hex_id) or state.data.terrain.get(hex_id, "")


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


# ---------------------------------------------------------------- dice, chits and windows
# (the stratagem hooks are xen-politics's; these are the points where combat calls them)


def roll_d6(ctx: Context, state: XenState, reason: str, rules: Sequence[str]) -> Generator[Decision, str, int]:
    """One d6 of a battle, followed by the ``after-roll`` window (Consult Oracles, xen:chits)."""
    return (yield from chits.roll(ctx, state, reason, tuple(rules)))


def award_chits(ctx: Context, state: XenState, side: str, n: int, rules: Sequence[str]) -> Generator[Decision, str, int]:
    """``side`` draws ``n`` chits from the pool (xen:crt: AZ/DZ 2, AD/DD 1), secretly; a full
    hand returns one of its choice (ruling 19). Returns how many were drawn."""
    return (yield from chits.draw(ctx, state, side, n, "battle result", (*rules, "xen:stratagem")))


# ---------------------------------------------------------------- the battle


def _check(state: XenState, attackers: Sequence[str], target: str) -> tuple[str, str]:
    """The attacking side and hex; ValueError naming the rule for an illegal attack."""
    if not attackers:
        raise ValueError("an attack needs an attacking force (xen:combat)")
    us = _units(state, attackers)
    if any(u.where != "map" for u in us):
        raise ValueError("every attacking unit must be on the map (xen:combat)")
    hexes = {u.hex for u in us}
    if len(hexes) != 1:
        raise ValueError("a force attacks from one hex (xen:combat, xen:forces)")
    origin = hexes.pop()
    sides = {u.side for u in us}
    if len(sides) != 1 or NEUTRAL in sides:
        raise ValueError("a force is one player's units; neutral units never attack (xen:combat, xen:control)")
    side = sides.pop()
    if len(set(attackers)) > STACK_LIMIT:
        raise ValueError("a force has at most ten units (xen:forces)")
    if target not in state.data.neighbours:
        raise ValueError(f"no hex {target!r} on the Xenophon map")
    if target not in state.neighbours(origin):  # type: ignore[arg-type]
        raise ValueError(f"{target} is not adjacent to the force's hex {origin} (xen:combat)")
    there = state.units_at(target)
    if not there or any(u.side == side for u in there):
        raise ValueError(f"{target} holds no enemy or neutral units to attack (xen:combat)")
    by_sea = naval.is_naval(us)
    if not naval.may_attack(state.map, by_sea, origin, target):  # type: ignore[arg-type]
        why = "a fleet could not sail there" if by_sea else "the force could not move there"
        raise ValueError(f"no attack from {origin} into {target}: {why} (xen:combat, xen:naval-combat)")
    return side, origin  # type: ignore[return-value]


def battle(
    ctx: Context,
    state: XenState,
    attackers: list[str],
    target: str,
    *,
    rule_ids: Sequence[str] = ("xen:combat",),
) -> Generator[Decision, str, BattleOutcome]:
    """Fight one battle: ``attackers`` (one force, one hex) attack every unit of
    the adjacent hex ``target`` (``xen:combat``). The 2 OP are the caller's.

    Withdrawal before battle, the CRT by composition, personal combat, the odds,
    the result, retreats and leader losses; returns a :class:`BattleOutcome`.
    """
    side, origin = _check(state, attackers, target)
    rules = tuple(dict.fromkeys(("xen:combat", *rule_ids)))
    defenders = [u.id for u in state.units_at(target)]
    # xen:control: attacking a neutral satrapy's units gives it to the other player at once
    for sat in sorted({u.satrapy for u in _units(state, defenders) if u.side == NEUTRAL and u.satrapy}):
        control.violate_neutrality(ctx, state, sat, side, f"attacks its units in {target}")
    enemy = other_side(side)
    b = Battle(side, enemy, origin, target, list(attackers), defenders, rules)
    ctx.event("battle", f"{b.describe()}: {len(attackers)} unit(s) against {len(defenders)}", rules,
              side=side, origin=origin, target=target)
    yield from stratagems.battle_chits(ctx, state, "battle", b)  # Bribery: b.no_withdrawal
    # -- withdrawal before battle (xen:combat)
    withdrew = yield from withdrawal(ctx, state, b)
    if not _on_map_at(state, b.defenders, target):
        return _outcome(state, b, "withdrew" if withdrew else "none", "")
    b.defenders = _on_map_at(state, b.defenders, target)
    # -- the CRT by composition (xen:combat)
    choices = crt_choices(state.unit(u).type for u in b.attackers)
    if len(choices) == 1:
        b.crt = choices[0]
    else:
        a, d, _, _ = strengths(state, b)
        opts = tuple(Option(c, _CRT_TITLE[c], {"score": float(crt_value(crt_distribution(
            state.data.tables[c], a, d)))}) for c in choices)  # type: ignore[arg-type]
        key = yield Decision(side, f"which Combat Results Table? ({', '.join(choices)} allowed by the "
                             "force's composition)", opts,
                             rule="xen:combat", kind=Kind.COMBAT_CRT, context={"battle": target})
        b.crt = key
    # -- personal combat (optional), then the Military Advantage window
    if state.options.personal_combat:
        yield from leaders.personal_combat(ctx, state, b)
        b.attackers = _on_map(state, b.attackers)
        b.defenders = _on_map(state, b.defenders)
        if not b.attackers or not b.defenders:
            return _outcome(state, b, "none", b.crt)
    yield from stratagems.battle_chits(ctx, state, "before-odds", b)  # Military Advantage: b.advantage
    # -- odds and the CRT (xen:combat, xen:crt)
    b.attack, b.defence, am, dm = strengths(state, b)
    table: OddsTable = state.data.tables[b.crt]  # type: ignore[assignment]
    col = column(table, b.attack, b.defence)
    roll = yield from roll_d6(ctx, state, f"{_CRT_TITLE[b.crt]} at {col}", (*rules, "xen:crt"))
    res = table.resolve(b.attack, b.defence, roll) if b.defence else table.resolve(1, 0, roll)
    b.result = res.result
    why = "; ".join(f"{s}: {', '.join(m.why for m in ms)}" for s, ms in ((side, am), (enemy, dm)) if ms)
    mult_rules = tuple(dict.fromkeys(r for m in (*am, *dm) for r in m.rules))
    ctx.event("combat", f"{_CRT_TITLE[b.crt]}: {b.attack} against {b.defence} ({col}){f' [{why}]' if why else ''}; "
              f"roll {roll}: {res.result} ({res.meaning})",
              tuple(dict.fromkeys((*rules, "xen:crt", *mult_rules))), side=side, dice=(roll,), result=res.result,
              crt=b.crt, column=col, source=res.source or "")
    yield from apply_result(ctx, state, b)
    return _outcome(state, b, b.result, b.crt, col)


_CRT_TITLE = {"engagement": "Engagement CRT", "skirmish": "Skirmish CRT", "combined-arms": "Combined Arms CRT"}


def _on_map_at(state: XenState, ids: Iterable[str], hex_id: str) -> list[str]:
    return [u for u in ids if state.unit(u).where == "map" and state.unit(u).hex == hex_id]


def _outcome(state: XenState, b: Battle, result: str, crt: str, col: str = "") -> BattleOutcome:
    left = _on_map(state, b.attackers)
    return BattleOutcome(
        result=result,
        crt=crt,
        attackers=tuple(left),
        hex=state.unit(left[0]).hex if left else None,
        defenders=tuple(_on_map(state, b.defenders)),
        cleared=not any(u.side == b.defender for u in state.units_at(b.target)),
        odds=col,
    )


def battle_value(state: XenState, b: Battle) -> Fraction:
    """The battle's expected worth to the attacker on its best allowed CRT, at the strengths
    now (no chit yet played): what the bots weigh a withdrawal or a CRT by."""
    a, d, _, _ = strengths(state, b)
    if a == 0 and d == 0:
        return Fraction(0)
    tables = state.data.tables
    allowed = crt_choices(state.unit(u).type for u in b.attackers)
    return crt_value(crt_distribution(tables[best_crt(tables, allowed, a, d)], a, d))  # type: ignore[arg-type]


def score(state: XenState, decision: Decision, key: str) -> float | None:
    """The greedy bot's cheap score of answering a combat or leader decision with ``key``
    (higher is better): the score the rules put in the option's data when asking."""
    if decision.kind not in COMBAT_KINDS:
        return None
    data = decision.option(key).data
    if isinstance(data, dict) and "score" in data:
        return float(data["score"])
    return 0.0


# ---------------------------------------------------------------- withdrawal before battle


def best_ov(state: XenState, ids: Iterable[str]) -> int:
    """The OV a side adds to its withdrawal die: its best unit's (ruling: any one unit,
    and a higher total is never worse for either side)."""
    return max((state.unit(u).ov for u in ids), default=0)


def withdrawal(ctx: Context, state: XenState, b: Battle) -> Generator[Decision, str, bool]:
    """The defender stands or tries to withdraw (``xen:combat``); True if it withdrew."""
    rules = ("xen:combat",)
    if b.no_withdrawal:
        ctx.event("withdrawal", f"{b.defender} may not withdraw from {b.target} (Bribery)", rules, side=b.defender)
        return False
    d_ov, a_ov = best_ov(state, b.defenders), best_ov(state, b.attackers)
    p = withdrawal_chance(d_ov, a_ov)
    if p == 0:  # no roll can withdraw: the defender has nothing to decide (docs, Rulings: combat)
        ctx.event("withdrawal", f"{b.defender} stands in {b.target}: d6 + OV {d_ov} never beats d6 + OV {a_ov}",
                  rules, side=b.defender)
        return False
    v = float(battle_value(state, b))  # the battle's worth to the attacker, for bots
    key = yield Decision(
        b.defender,
        f"{b.attacker} attacks {b.target}. Stand, or try to withdraw "
        f"(d6 + OV {d_ov} against d6 + OV {a_ov}: P = {p})?",
        (Option("stand", "stand and fight", {"score": -v}),
         Option("withdraw", f"try to withdraw (P = {p})",
                {"score": -(1 - float(p)) * v - float(p) * 0.5, "chance": p, "ov": (d_ov, a_ov)})),
        rule="xen:combat", kind=Kind.COMBAT_WITHDRAW, context={"battle": b.target},
    )
    if key != "withdraw":
        ctx.event("withdrawal", f"{b.defender} stands in {b.target}", rules, side=b.defender)
        return False
    dr = yield from roll_d6(ctx, state, f"{b.defender} withdrawal roll (OV {d_ov})", rules)
    ar = yield from roll_d6(ctx, state, f"{b.attacker} withdrawal roll (OV {a_ov})", rules)
    if dr + d_ov <= ar + a_ov:
        ctx.event("withdrawal", f"{b.defender} fails to withdraw: {dr} + {d_ov} against {ar} + {a_ov}; it stands",
                  rules, side=b.defender, dice=(dr, ar))
        return False
    steps = yield from roll_d6(ctx, state, f"{b.defender} withdraws d6 hexes", rules)
    ctx.event("withdrawal", f"{b.defender} withdraws from {b.target}: {dr} + {d_ov} beats {ar} + {a_ov}; "
              f"{steps} hex(es)", rules, side=b.defender, dice=(dr, ar, steps))
    moved = False
    for group in groups(state, b.defenders):
        walked = yield from walk(ctx, state, b.defender, group, steps, withdrawal=True, rules=rules)
        if walked is None:
            ctx.event("withdrawal", f"{b.defender}: {', '.join(group)} find no way of {steps} hex(es) "
                      f"and stand in {b.target}", rules, side=b.defender)
        else:
            moved = True
    return moved


def groups(state: XenState, ids: Sequence[str]) -> list[list[str]]:
    """A hex's units as the forces that withdraw or retreat apart (``xen:combat``): the fleets
    with what they carry, and the land units ashore."""
    fleets = [u for u in ids if state.unit(u).fleet or state.unit(u).embarked]
    land = [u for u in ids if u not in fleets]
    return [g for g in (fleets, land) if g]


def _blocked(state: XenState, side: str, size: int, fleet: bool) -> Callable[[Hex], bool]:
    """Hexes a walking force of ``side`` may not enter: other sides' units, EZOC, overstacking."""
    m = state.map
    zoc = ezoc(state, side, fleet)

    def blocked(h: Hex) -> bool:
        hid = m.to_id(h)
        there = state.units_at(hid)
        if any(u.side != side for u in there):
            return True
        if len(there) + size > STACK_LIMIT:
            return True
        return hid in zoc

    return blocked


def ezoc(state: XenState, side: str, fleet: bool) -> frozenset[str]:
    """Hexes in the other player's ZOC for a walking force of ``side`` (``xen:zoc``): land
    units feel land units' ZOC, fleets fleets' (:func:`.zoc.ezoc_of`)."""
    return ezoc_of(state, side, fleet)


def _stops(state: XenState, side: str) -> Callable[[Hex], bool]:
    """A City or Colony, unpillaged, empty or held by ``side``: a walk may end there early."""
    m = state.map

    def stops(h: Hex) -> bool:
        hid = m.to_id(h)
        if not state.is_city(hid) or hid in state.pillaged:
            return False
        return state.occupier(hid) in (None, side)

    return stops


def walk(
    ctx: Context,
    state: XenState,
    side: str,
    group: list[str],
    steps: int,
    *,
    withdrawal: bool,
    rules: Sequence[str],
) -> Generator[Decision, str, str | None]:
    """Walk ``group`` exactly ``steps`` hexes (or stop in a City/Colony), hex by hex as its
    owner chooses; return the hex reached, or None (units left in place) if no walk exists."""
    m = state.map
    start_id = state.unit(group[0]).hex
    assert start_id is not None
    fleet = any(state.unit(u).fleet for u in group)
    w = walker(m, fleet=fleet, withdrawal=withdrawal, blocked=_blocked(state, side, len(group), fleet),
               stops=_stops(state, side))
    start = m.from_id(start_id)
    if not w.next_steps(start, steps).hexes:  # no walk at all (cheaper than counting them)
        return None
    path: list[Hex] = [start]
    what = "withdrawal" if withdrawal else "retreat"
    while True:
        nxt = w.next_steps(path, steps)
        opts = [Option(m.to_id(h), _place(state, m.to_id(h)), {"score": 1.0 if state.is_city(m.to_id(h)) else 0.0})
                for h in nxt.hexes]
        if nxt.may_stop:
            if not opts:
                break
            opts.insert(0, Option("stop", f"stop in {m.to_id(path[-1])} (a City or Colony)", {"score": 3.0}))
        if len(opts) == 1 and opts[0].key != "stop":
            key = opts[0].key  # one way on: nothing to choose
        else:
            key = yield Decision(side, f"{what} of {', '.join(group)}, hex {len(path)} of {steps} "
                                 f"(from {m.to_id(path[-1])})", tuple(opts), rule="xen:combat" if withdrawal else "xen:retreats",
                                 kind=Kind.COMBAT_WITHDRAWAL if withdrawal else Kind.COMBAT_RETREAT,
                                 context={"highlight": [o.key for o in opts]})
        if key == "stop":
            break
        path.append(m.from_id(key))
    end = m.to_id(path[-1])
    for u in group:
        state.place(u, end)
    ctx.event(what, f"{side}: {', '.join(group)} {'withdraw' if withdrawal else 'retreat'} "
              f"{' - '.join(m.to_id(h) for h in path)}", tuple(rules), side=side, path=[m.to_id(h) for h in path])
    return end


# ---------------------------------------------------------------- results (xen:crt)


def apply_result(ctx: Context, state: XenState, b: Battle) -> Generator[Decision, str, None]:
    """Carry out the result code ``b.result`` (``xen:crt``; DR and DD read by symmetry, ruling 11)."""
    code = b.result
    if code == "--":
        return
    loser, winner = (b.attacker, b.defender) if code.startswith("A") else (b.defender, b.attacker)
    ids = _on_map(state, b.attackers if loser == b.attacker else b.defenders)
    rules = ("xen:crt",)
    kind = code[1:]
    if kind == "Z":
        yield from eliminate_units(ctx, state, loser, ids, f"{code}: annihilated", rules)
        yield from award_chits(ctx, state, winner, 2, rules)
    elif kind == "M":
        chosen = yield from choose_losses(ctx, state, loser, ids, count=1, why=f"{code}: ambushed")
        yield from eliminate_units(ctx, state, loser, chosen, f"{code}: ambushed", rules)
    elif kind == "R":
        yield from retreat(ctx, state, loser, ids, 1, f"{code}: withdraws 1 hex")
    elif kind == "D":
        need = half_sp(cs_total(state, ids))
        chosen = yield from choose_losses(ctx, state, loser, ids, sp=need, why=f"{code}: defeated")
        yield from eliminate_units(ctx, state, loser, chosen, f"{code}: defeated, at least {need} SP lost", rules)
        left = _on_map(state, ids)
        if left:
            steps = yield from roll_d6(ctx, state, f"{loser} retreats d6 hexes ({code})", ("xen:crt", "xen:retreats"))
            yield from retreat(ctx, state, loser, left, steps, f"{code}: survivors retreat {steps} hex(es)")
        yield from award_chits(ctx, state, winner, 1, rules)
    else:
        raise ValueError(f"unknown CRT result {code!r} (xen:crt)")


def _with_cargo(state: XenState, ids: Iterable[str]) -> list[str]:
    """Units and, for a fleet, the units it carries (they share its fate: ruling)."""
    out = list(dict.fromkeys(ids))
    for u in list(out):
        if state.unit(u).fleet:
            out.extend(c.id for c in state.units_at(state.unit(u).hex or "") if c.embarked == u and c.id not in out)
    return out


def choose_losses(
    ctx: Context, state: XenState, side: str, ids: Sequence[str], *, count: int = 0, sp: int = 0, why: str = ""
) -> Generator[Decision, str, list[str]]:
    """The owner picks units to lose, one at a time: ``count`` units (AM/DM), or units until
    their raw CS reaches ``sp`` (AD/DD, ruling 12). A fleet takes its cargo with it."""
    left = list(ids)
    chosen: list[str] = []
    lost = 0
    while left and ((count and len(chosen) < count) or (sp and lost < sp)):
        if sp and cs_total(state, _with_cargo(state, left)) <= sp - lost:
            chosen.extend(left)  # everything must go: nothing to choose
            break
        opts = _loss_options(state, left)
        if len(opts) == 1:
            key = opts[0].key
        else:
            need = f"{count - len(chosen)} unit(s)" if count else f"{sp - lost} more SP"
            key = yield Decision(side, f"{why}; eliminate which unit? ({need})", tuple(opts),
                                 rule="xen:crt", kind=Kind.COMBAT_LOSS)
        gone = _with_cargo(state, [key])
        for u in gone:
            if u in left:
                left.remove(u)
        chosen.extend(g for g in gone if g not in chosen)
        lost += cs_total(state, gone)
    return _with_cargo(state, chosen)


def _loss_options(state: XenState, ids: Sequence[str]) -> list[Option]:
    """One option per unit that may be picked (a fleet takes its cargo with it)."""
    out: list[Option] = []
    for uid in ids:
        u = state.unit(uid)
        cost = cs_total(state, _with_cargo(state, [uid])) + (20 if u.leader else 0)
        out.append(Option(uid, f"{type_name(u.type)} CS {u.cs}{' (with its cargo)' if u.fleet else ''}", {"score": -float(cost)}))
    return out


def eliminate_units(
    ctx: Context, state: XenState, side: str, ids: Sequence[str], why: str, rules: Sequence[str]
) -> Generator[Decision, str, None]:
    """Eliminate units of ``side``, a fleet with the units it carries, through
    :func:`leaders.eliminate_units` (Xenophon's escape, a Supreme Leader's chits)."""
    def announce(plain: list[str]) -> None:
        ctx.event("eliminated", f"{side}: {', '.join(plain)} eliminated ({why})", tuple(rules), side=side,
                  units=plain)

    ids = _with_cargo(state, [u for u in ids if state.unit(u).where == "map"])
    yield from leaders.eliminate_units(ctx, state, ids, why, rules, announce=announce)


def retreat(
    ctx: Context, state: XenState, side: str, ids: Sequence[str], steps: int, why: str
) -> Generator[Decision, str, None]:
    """Retreat a force ``steps`` hexes (``xen:retreats``): in a City or Colony its owner may
    ignore the result (ruling 13, attacker and defender alike); a group with no legal retreat
    is eliminated."""
    rules = ("xen:crt", "xen:retreats")
    ids = _on_map(state, ids)
    if not ids:
        return
    here = state.unit(ids[0]).hex
    assert here is not None
    if state.is_city(here) and here not in state.pillaged:
        key = yield Decision(side, f"{why}; your force is in a City/Colony ({here}): hold or retreat?",
                             (Option("hold", "hold the City/Colony: ignore the retreat", {"score": 1.0}),
                              Option("retreat", "retreat", {"score": 0.0})),
                             rule="xen:retreats", kind=Kind.COMBAT_HOLD)
        if key == "hold":
            ctx.event("retreat", f"{side}: {', '.join(ids)} hold {here}, a City/Colony ({why})", rules, side=side)
            return
    for group in groups(state, ids):
        end = yield from walk(ctx, state, side, group, steps, withdrawal=False, rules=rules)
        if end is None:
            yield from eliminate_units(ctx, state, side, group, f"{why}: no retreat", rules)


# ---------------------------------------------------------------- odds before an attack is declared


def battle_report(state: XenState, attackers: Sequence[str], target: str) -> OddsReport:
    """What attacking ``target`` with ``attackers`` would give, before it is declared
    (``Game.decision_odds``): the defender's chance to withdraw, then the result
    distribution on the attacker's best allowed CRT at today's strengths, chits
    not counted. Refuses an illegal attack as :func:`battle` does."""
    side, origin = _check(state, attackers, target)
    defenders = [u.id for u in state.units_at(target)]
    b = Battle(side, other_side(side), origin, target, list(attackers), defenders)
    a, d, am, dm = strengths(state, b)
    tables = state.data.tables
    allowed = crt_choices(state.unit(u).type for u in attackers)
    crt = best_crt(tables, allowed, a, d)  # type: ignore[arg-type]
    table: OddsTable = tables[crt]  # type: ignore[assignment]
    dist = crt_distribution(table, a, d)
    pw = withdrawal_chance(best_ov(state, defenders), best_ov(state, attackers))
    explain = [f"{_CRT_TITLE[crt]} ({', '.join(allowed)} allowed): {a} against {d}, column {column(table, a, d)}",
               f"the defender may first try to withdraw: P = {pw} if it tries",
               *(f"P({k}) = {probability_text(v)}" for k, v in dist.items())]
    rules = tuple(dict.fromkeys(("xen:combat", "xen:crt", *(r for m in (*am, *dm) for r in m.rules))))
    return OddsReport(f"{side} attacks {target}: {a} against {d}", dist, tuple(explain), rules,
                      {c: table.meaning(c) for c in dist})


def decision_odds(state: XenState, decision: Decision, key: str) -> OddsReport | None:
    """``Game.decision_odds``: the report of :func:`battle_report` for an ``attack:HEX`` answer
    of the operations loop (its decision's ``context["force"]``), the withdrawal's chance for
    a ``withdraw`` answer, else None."""
    if decision.kind == Kind.COMBAT_WITHDRAW and key == "withdraw":
        data = decision.option(key).data or {}
        p, (d_ov, a_ov) = data["chance"], data["ov"]
        return OddsReport(f"withdrawal before battle: d6 + {d_ov} against d6 + {a_ov}",
                          {"withdraws": p, "stands": 1 - p} if p < 1 else {"withdraws": p},
                          ("a tie stands; a withdrawal walks exactly d6 hexes",), ("xen:combat",))
    force = decision.context.get("force")
    if not key.startswith("attack:") or not force:
        return None
    try:
        return battle_report(state, list(force), key.split(":", 1)[1])
    except ValueError:
        return None


def attack_value(state: XenState, attackers: Sequence[str], target: str) -> float:
    """What attacking ``target`` is worth to the attacker, for bots: the battle's
    :func:`crt_value` on the best allowed CRT at today's strengths and multipliers,
    times the chance that the defender does not get away (if it tries). 0 if illegal."""
    try:
        side, origin = _check(state, attackers, target)
    except ValueError:
        return 0.0
    b = Battle(side, other_side(side), origin, target, list(attackers), [u.id for u in state.units_at(target)])
    v = battle_value(state, b)
    stays = 1 - withdrawal_chance(best_ov(state, b.defenders), best_ov(state, b.attackers)) if v > 0 else 1
    return float(v * stays)
