"""The Operations phase, force by force: OP, moves, attacks, pillage, colonies, forced march, reaction.

Rules served (each cited where it is applied):

- ``xen:forces``: a force is a group of units of one hex conducting
  operations together, chosen unit by unit (:func:`ancients_kit.choice.choose_group`),
  at most ten (xen:stacking); several forces may share a hex;
- ``xen:operations``: the phasing player conducts operations with each of
  his forces in turn; a force's OP = the OV of its lowest-OV unit + 1d6, the
  die doubled with a leader and tripled with Xenophon
  (:func:`.leaders.op_multiplier`, xen:leaders, xen:xenophon); with fleets the
  fleets' OV (xen:naval-transport); OP are spent in any order on moves (the
  Terrain Effects Chart, :mod:`.movement`), attacks (2), pillage (2) and
  colonies (4), never kept nor passed on; a unit conducts operations once a
  phase (a unit dropped off conducts no more);
- ``xen:movement``: hex by hex; a force may drop units off (they conduct no
  further operations) but never pick any up; never into enemy or neutral
  units; entering a neutral satrapy does not violate it;
- ``xen:zoc``: stop on entering an EZOC (and go on only once the units
  exerting it are gone); a force that began its operations in an EZOC may
  leave, never straight into another; no pillage or colony in EZOC;
- ``xen:combat``: attacking is voluntary, 2 OP, one adjacent hex, the whole
  force, only where the force could move; the battle is :func:`.combat.battle`;
  an attack on a neutral satrapy's units gives the satrapy to the other
  player (xen:control); a force that retreats keeps its OP left (xen:retreats);
- ``xen:forced-march``: a Forced March chit lets a force (of units that have
  conducted operations, perhaps reorganised in their hex) conduct operations
  again, after the loss roll (1-3: one unit of the force eliminated);
- ``xen:opt.reaction`` (optional rule): after each phasing force's
  operations the non-phasing player may play a Forced March chit and conduct
  operations with one force of his own, without the loss roll; a unit
  reacts once a turn.

Decisions are bounded and their keys stable: ``force:<hex>``,
``forced-march:<hex>``, ``end``; for a force ``move:<hex>``,
``attack:<hex>``, ``pillage``, ``colonise``, ``drop:<unit>``, ``stop``.
:func:`score` gives the greedy bot a cheap value for each (see
``bot.py``); it reads only what the asked side may see.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from fractions import Fraction
from typing import Any

import attrs

from ancients_kit.choice import choose_group
from ancients_kit.hexgrid import Hex
from ancients_kit.movement import MP
from ancients_kit.session import Context, Decision, Option
from ancients_kit.windows import Window, offer

from . import movement as mv
from . import naval, pillage
from .state import NEUTRAL, Unit, XenState, other_side

__all__ = [
    "ATTACK_OP",
    "FORCE_LIMIT",
    "Force",
    "conduct",
    "ezoc_of",
    "op_total",
    "operations_phase",
    "ops_points",
    "score",
    "step_options",
]

ATTACK_OP = 2
"""xen:operations: each attack (battle) costs 2 OP."""
FORCE_LIMIT = mv.STACK_LIMIT
"""xen:forces, xen:stacking: a force is at most the ten units a hex may hold."""
FORCED_MARCH = "Forced March"
RULE = "xen:operations"


# ---------------------------------------------------------------- OP arithmetic


def op_total(lowest_ov: int, roll: int, multiplier: int) -> int:
    """xen:operations: lowest OV + the d6, the die doubled with a leader, tripled with Xenophon."""
    if not 1 <= roll <= 6:
        raise ValueError(f"the OP die is 1-6, not {roll} (xen:operations)")
    if multiplier not in (1, 2, 3):
        raise ValueError(f"the OP die is multiplied by 1, 2 or 3, not {multiplier} (xen:operations, xen:leaders)")
    return lowest_ov + roll * multiplier


def _multiplier(state: XenState, force: Sequence[str]) -> int:
    from .leaders import op_multiplier  # xen-combat's: 1, 2 with a leader, 3 with Xenophon

    return int(op_multiplier(state, list(force)))


def ops_points(ctx: Context, state: XenState, force: Sequence[str]) -> int:
    """Roll a force's OP (xen:operations; xen:leaders, xen:xenophon, xen:naval-transport as they apply)."""
    units = [state.unit(u) for u in force]
    ov = naval.naval_ov(units)
    k = _multiplier(state, force)
    rules: tuple[str, ...] = (RULE,)
    if k >= 2:
        rules += ("xen:leaders",) + (("xen:xenophon",) if k == 3 else ())
    if naval.is_naval(units) and any(not u.fleet for u in units):
        rules += ("xen:naval-transport",)
    roll = ctx.chance.d6(f"OP of the force in {units[0].hex}", rules)
    total = op_total(ov, roll, k)
    times = "" if k == 1 else f" x{k}"
    ctx.event("op", f"{units[0].side}: the force of {', '.join(force)} in {units[0].hex} has {ov} + {roll}{times} "
                    f"= {total} OP", rules, side=units[0].side, force=list(force), op=total)
    return total


# ---------------------------------------------------------------- zones, rooms, steps


def ezoc_of(state: XenState, side: str, naval_force: bool) -> frozenset[str]:
    """The hexes in the enemy's zone of control for a force of ``side`` (xen:zoc).

    A land force feels only enemy land units' ZOC, a naval force only enemy
    fleets'; neutral and embarked units have none; no ZOC enters a City or
    Colony held by ``side`` or by neutrals.
    """
    m = state.map
    enemy = other_side(side)
    sources: list[tuple[Hex, bool]] = []
    for u in state.on_map():
        if u.side != enemy or u.embarked is not None or u.fleet != naval_force:
            continue
        assert u.hex is not None
        sources.append((m.from_id(u.hex), u.fleet))
    if not sources:
        return frozenset()
    shielded = []
    for h in list(state.data.city_kind) + sorted(state.colonies):
        occ = state.occupier(h)
        if occ == side or occ == NEUTRAL:
            shielded.append(m.from_id(h))
    return frozenset(m.to_id(h) for h in mv.enemy_zoc(m, sources, shielded))


@attrs.define
class Force:
    """A force conducting operations (xen:forces)."""

    side: str
    units: list[str]
    hex: str
    start: str
    """Where its operations began (its naval rate, its leave-an-EZOC exception)."""
    op: MP
    naval: bool
    rate: int = 1
    """OP a hex by sea: 1 from a port, 2 otherwise (xen:naval-transport)."""
    halted: bool = False
    """It entered an EZOC by movement (xen:zoc): no more moves until that EZOC is gone."""
    moved: bool = False


def _blocked(state: XenState, side: str, hex_id: str) -> bool:
    occ = state.occupier(hex_id)
    return occ is not None and occ != side


def step_options(state: XenState, f: Force, ezoc: frozenset[str]) -> list[Option]:
    """The hexes the force may step into now, with their OP (xen:movement, xen:zoc, xen:stacking)."""
    if f.halted:
        return []
    m = state.map
    here = m.from_id(f.hex)
    in_ezoc = f.hex in ezoc
    costs = mv.terrain_costs()
    out: list[Option] = []
    for n in m.neighbors(here):
        nid = m.to_id(n)
        cost = mv.naval_step_cost(m, f.rate, here, n) if f.naval else mv.land_step_cost(m, costs, here, n)
        if cost is None or cost > f.op:
            continue
        if _blocked(state, f.side, nid):
            continue  # xen:movement: never into enemy or neutral units
        if len(state.units_at(nid)) + len(f.units) > mv.STACK_LIMIT:
            continue  # xen:stacking
        into = nid in ezoc
        if into and in_ezoc:
            continue  # xen:zoc: never straight from one EZOC to another
        if into and not f.naval and "strait" in m.hexside_features(here, n):
            continue  # xen:movement: a strait is not crossed straight into an EZOC
        note = ", EZOC: the force stops" if into else ""
        out.append(Option(f"move:{nid}", f"move to {nid} ({cost} OP{note})", data=cost))
    return out


def _attack_options(state: XenState, f: Force) -> list[Option]:
    if f.op < ATTACK_OP:
        return []
    m = state.map
    out = []
    for nid in state.neighbours(f.hex):
        occ = state.occupier(nid)
        if occ is None or occ == f.side:
            continue
        if not naval.may_attack(m, f.naval, f.hex, nid):
            continue
        what = "neutral" if occ == NEUTRAL else "enemy"
        out.append(Option(f"attack:{nid}", f"attack the {what} units in {nid} ({ATTACK_OP} OP)"))
    return out


def _drop_options(state: XenState, f: Force) -> list[Option]:
    if len(f.units) < 2:
        return []
    sea = state.data.terrain.get(f.hex) == "sea"
    units = [state.unit(u) for u in f.units]
    out = []
    for u in units:
        rest = [x for x in units if x is not u]
        if not u.fleet and sea:
            continue  # xen:naval-transport: land units disembark only on a coast or port
        if naval.capacity_refusal(rest, f.hex, state) is not None:
            continue
        if u.fleet and sea and any(x.embarked == u.id for x in units):
            # Its passengers move to the other fleets (re-embarked below); capacity checked above.
            pass
        out.append(Option(f"drop:{u.id}", f"drop off {u.id} ({u.type}) in {f.hex}"))
    return out


def force_options(state: XenState, f: Force, ezoc: frozenset[str]) -> list[Option]:
    """Everything the force may do now; ``stop`` first."""
    opts = [Option("stop", f"end the operations of this force ({f.op} OP left are lost)")]
    opts += step_options(state, f, ezoc)
    opts += _attack_options(state, f)
    in_ezoc = f.hex in ezoc
    if f.op >= pillage.PILLAGE_OP and pillage.pillage_refusal(state, f.hex, in_ezoc, f.naval) is None:
        opts.append(Option("pillage", f"pillage {f.hex} ({pillage.PILLAGE_OP} OP)"))
    if f.op >= pillage.COLONISE_OP and pillage.colonise_refusal(state, f.hex, in_ezoc) is None:
        clear = state.data.terrain.get(f.hex) == "clear"
        pts = pillage.colonisation_points((state.unit(u).type for u in f.units), clear)
        if pts >= 1:
            opts.append(Option("colonise", f"colonise {f.hex} ({pillage.COLONISE_OP} OP, {pts} points)"))
    opts += _drop_options(state, f)
    return opts


# ---------------------------------------------------------------- one force


def _done(state: XenState) -> set[str]:
    key = f"ops:done:{state.turn}:{state.player_turn}"
    for k in [k for k in state.effects if k.startswith("ops:done:") and k != key]:
        del state.effects[k]
    return state.effects.setdefault(key, set())  # type: ignore[no-any-return]


def _reacted(state: XenState) -> set[str]:
    key = f"ops:reacted:{state.turn}"
    for k in [k for k in state.effects if k.startswith("ops:reacted:") and k != key]:
        del state.effects[k]
    return state.effects.setdefault(key, set())  # type: ignore[no-any-return]


def _alive(state: XenState, f: Force) -> None:
    """Drop from the force the units no longer on the map; follow a retreat (xen:retreats)."""
    units = [state.unit(u) for u in f.units]
    live = [u for u in units if u.on_map]
    f.units = [u.id for u in live]
    if live:
        f.hex = str(live[0].hex)


def conduct(ctx: Context, state: XenState, f: Force) -> Generator[Decision, Any, None]:
    """Conduct one force's operations until its OP are spent or its owner stops (xen:operations)."""
    side = f.side
    if f.naval:
        naval.embark(state, [state.unit(u) for u in f.units])
    else:
        for u in f.units:
            state.unit(u).embarked = None
    while f.units:
        ezoc = ezoc_of(state, side, f.naval)
        if f.halted and f.hex not in ezoc:
            f.halted = False  # xen:zoc: the units exerting it are gone
        opts = force_options(state, f, ezoc)
        key = yield Decision(side, f"{side}: the force of {', '.join(f.units)} in {f.hex} has {f.op} OP: what next?",
                             tuple(opts), rule=RULE, kind="ops.action",
                             context={"highlight": (f.hex,), "force": tuple(f.units)})
        if key == "stop":
            break
        if key.startswith("move:"):
            dest = key.split(":", 1)[1]
            cost = next(o.data for o in opts if o.key == key)
            f.op -= cost
            for u in f.units:
                state.place(u, dest)
            rules = ("xen:movement",) + (("xen:naval", "xen:naval-transport") if f.naval else ())
            stop = dest in ezoc
            if stop:
                f.halted = True
                rules += ("xen:zoc",)
            f.hex, f.moved = dest, True
            ctx.event("move", f"{side}: the force moves to {dest} for {cost} OP ({f.op} left)"
                      + ("; it enters an enemy zone of control and stops" if stop else ""), rules,
                      side=side, force=list(f.units), hex=dest)
        elif key.startswith("attack:"):
            yield from _attack(ctx, state, f, key.split(":", 1)[1])
        elif key == "pillage":
            f.op -= pillage.PILLAGE_OP
            yield from pillage.pillage(ctx, state, side, list(f.units), f.hex)
        elif key == "colonise":
            f.op -= pillage.COLONISE_OP
            _, removed = yield from pillage.colonise(ctx, state, side, list(f.units), f.hex)
            if removed in f.units:
                f.units.remove(removed)
            if f.naval:
                naval.embark(state, [state.unit(u) for u in f.units])
        elif key.startswith("drop:"):
            uid = key.split(":", 1)[1]
            f.units.remove(uid)
            u = state.unit(uid)
            if not u.fleet:
                u.embarked = None
            _done(state).add(uid)
            f.naval = naval.is_naval(state.unit(x) for x in f.units)
            if f.naval:
                naval.embark(state, [state.unit(x) for x in f.units])
            ctx.event("drop", f"{side}: {uid} is dropped off in {f.hex} and conducts no further operations",
                      ("xen:movement", "xen:forces"), side=side, unit=uid, hex=f.hex)
        _alive(state, f)
    if not f.naval:
        for u in f.units:
            state.unit(u).embarked = None


def _attack(ctx: Context, state: XenState, f: Force, target: str) -> Generator[Decision, Any, None]:
    """xen:combat (2 OP), xen:naval-combat; the battle, the neutral satrapy's change of control
    and the retreats are combat.battle's."""
    from . import combat

    f.op -= ATTACK_OP
    defenders = state.units_at(target)
    rules = ("xen:combat",) + (("xen:naval-combat",) if f.naval or any(u.fleet for u in defenders) else ())
    ctx.event("attack", f"{f.side}: the force in {f.hex} attacks {target} ({ATTACK_OP} OP, {f.op} left)",
              (RULE,) + rules, side=f.side, force=list(f.units), hex=target)
    yield from combat.battle(ctx, state, list(f.units), target, rule_ids=rules)


# ---------------------------------------------------------------- the phase


def _candidates(state: XenState, side: str, hex_id: str, exclude: set[str]) -> list[Option]:
    return [Option(u.id, f"{u.id} ({u.type})", data=u) for u in state.units_at(hex_id)
            if u.side == side and u.id not in exclude]


def _group(u: Unit) -> str:
    return f"{u.type}.{u.satrapy or u.side}".replace(" ", "-")


def _default(state: XenState, hex_id: str, cands: list[Option]) -> list[str]:
    """The force offered first: the whole stack if it may move as one; else, on land, its land
    units (the fleets stay), at sea the fleets with what they can carry (xen:naval-transport)."""
    units: list[Unit] = [o.data for o in cands][:FORCE_LIMIT]
    fleets = [u for u in units if u.fleet]
    land = [u for u in units if not u.fleet]
    if not fleets or len(land) <= naval.CAPACITY * len(fleets):
        chosen = units
    elif state.data.terrain.get(hex_id) != "sea":
        chosen = land
    else:
        chosen = fleets + land[: naval.CAPACITY * len(fleets)]
    return [u.id for u in chosen]


def can_form(state: XenState, side: str, hex_id: str, exclude: set[str]) -> bool:
    """Whether some force of these units may conduct operations (land units stranded at sea may not)."""
    cands = _candidates(state, side, hex_id, exclude)
    default = _default(state, hex_id, cands)
    return bool(default) and naval.capacity_refusal([state.unit(u) for u in default], hex_id, state) is None


def _form(state: XenState, side: str, hex_id: str, exclude: set[str], rule: str) -> Generator[
        Decision, Any, list[str]]:
    cands = _candidates(state, side, hex_id, exclude)
    keys = yield from choose_group(side, f"{side}: form the force in {hex_id}", cands,
                                   at_most=min(FORCE_LIMIT, len(cands)), at_least=1, rule=rule,
                                   kind="ops.force-units", same=lambda o: _group(o.data),
                                   chosen=_default(state, hex_id, cands))
    return list(keys)


def _start(ctx: Context, state: XenState, side: str, units: list[str], hex_id: str, why: str,
           rules: tuple[str, ...]) -> Force | None:
    us = [state.unit(u) for u in units]
    refusal = naval.capacity_refusal(us, hex_id, state)
    if refusal is not None:
        ctx.event("force-refused", f"{side}: no force of {', '.join(units)}: {refusal}", ("xen:naval-transport",),
                  side=side)
        return None
    ctx.event("force", f"{side}: {why} the force of {', '.join(units)} in {hex_id}", rules + ("xen:forces",),
              side=side, force=list(units), hex=hex_id)
    op = ops_points(ctx, state, units)
    is_naval = naval.is_naval(us)
    rate = mv.naval_rate(state.map, hex_id, naval.ports(state)) if is_naval else 1
    return Force(side, list(units), hex_id, hex_id, op, is_naval, rate)


def _hexes_with(state: XenState, side: str, pred: Any) -> list[str]:
    return sorted({str(u.hex) for u in state.side_units(side) if pred(u)})


def operations_phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
    """PHASES["operations"]: the phasing player's forces one by one (xen:operations)."""
    done = _done(state)
    done.clear()
    while not state.over:
        fresh = [h for h in _hexes_with(state, side, lambda u: u.id not in done) if can_form(state, side, h, done)]
        opts = [Option("end", "end the Operations phase")]
        opts += [Option(f"force:{h}", f"operations with a force in {h}") for h in fresh]
        if FORCED_MARCH in state.hands[side]:
            again = [h for h in _hexes_with(state, side, lambda u: u.id in done) if can_form(state, side, h, set())]
            opts += [Option(f"forced-march:{h}", f"play Forced March: operations again from {h}") for h in again]
        key = yield Decision(side, f"{side}: Operations phase: choose the next force", tuple(opts), rule=RULE,
                             kind="ops.force", context={"highlight": tuple(fresh)})
        if key == "end":
            ctx.event("operations-end", f"{side} ends the Operations phase", (RULE,), side=side)
            return
        hex_id = key.split(":", 1)[1]
        if key.startswith("force:"):
            units = yield from _form(state, side, hex_id, done, "xen:forces")
            f = _start(ctx, state, side, units, hex_id, "operations with", (RULE,))
        else:
            units = yield from _form(state, side, hex_id, set(), "xen:forced-march")
            f = yield from _forced_march(ctx, state, side, units, hex_id)
        if f is None:
            continue
        done.update(f.units)
        yield from conduct(ctx, state, f)
        done.update(f.units)
        if state.options.reaction:
            yield from _reaction(ctx, state, other_side(side))


def _forced_march(ctx: Context, state: XenState, side: str, units: list[str], hex_id: str) -> Generator[
        Decision, Any, Force | None]:
    """xen:forced-march (text A): the chit, the loss roll, then new OP."""
    rules = ("xen:forced-march", "xen:chits")
    if naval.capacity_refusal([state.unit(u) for u in units], hex_id, state) is not None:
        return _start(ctx, state, side, units, hex_id, "", rules)  # refused and logged, the chit kept
    state.hands[side].remove(FORCED_MARCH)
    state.pool.add(FORCED_MARCH)
    ctx.event("chit-played", f"{side} plays Forced March on the force in {hex_id}", rules, side=side)
    roll = ctx.chance.d6("forced march loss roll", ("xen:forced-march",))
    if mv.forced_march_loss(roll):
        opts = tuple(Option(u, f"{u} ({state.unit(u).type})") for u in units)
        lost = opts[0].key if len(opts) == 1 else (yield Decision(
            side, f"{side}: forced march roll {roll}: choose the unit of the force that is lost", opts,
            rule="xen:forced-march", kind="ops.forced-march-loss"))
        state.eliminate(lost)
        units = [u for u in units if u != lost]
        ctx.event("eliminated", f"forced march roll {roll}: {lost} is lost", ("xen:forced-march",), side=side,
                  unit=lost)
        if not units:
            return None
    else:
        ctx.event("forced-march", f"forced march roll {roll}: no loss", ("xen:forced-march",), side=side)
    return _start(ctx, state, side, units, hex_id, "forced march:", rules)


def _reaction(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
    """xen:opt.reaction: after a phasing force's operations, ``side`` may react with one force."""
    reacted = _reacted(state)
    hexes = [h for h in _hexes_with(state, side, lambda u: u.id not in reacted) if can_form(state, side, h, reacted)]

    def plays(s: str) -> list[Option]:
        if FORCED_MARCH in state.hands[s] and hexes:
            return [Option("forced-march", "play Forced March: a Reaction with one force")]
        return []

    window = Window("reaction", "the end of an enemy force's operations", "xen:opt.reaction", (side,))
    play = yield from offer(window, state.standing, plays)
    if play is None:
        return
    state.hands[side].remove(FORCED_MARCH)
    state.pool.add(FORCED_MARCH)
    rules = ("xen:opt.reaction", "xen:forced-march", "xen:chits")
    ctx.event("chit-played", f"{side} plays Forced March for a Reaction", rules, side=side)
    opts = tuple(Option(f"force:{h}", f"react with a force in {h}") for h in hexes)
    key = yield Decision(side, f"{side}: Reaction: choose the hex of the reacting force", opts,
                         rule="xen:opt.reaction", kind="ops.reaction-force")
    hex_id = key.split(":", 1)[1]
    units = yield from _form(state, side, hex_id, reacted, "xen:opt.reaction")
    f = _start(ctx, state, side, units, hex_id, "reaction with", ("xen:opt.reaction",))
    if f is None:
        return
    reacted.update(f.units)
    yield from conduct(ctx, state, f)
    reacted.update(f.units)


# ---------------------------------------------------------------- greedy bot hints


def _targets(state: XenState, side: str) -> list[Hex]:
    """Cities and colonies ``side`` does not hold: where its forces want to go."""
    m = state.map
    out = []
    for h in list(state.data.city_kind) + sorted(state.colonies):
        if state.occupier(h) != side:
            out.append(m.from_id(h))
    return out


def _distance_to_target(state: XenState, side: str, hex_id: str) -> int:
    h = state.map.from_id(hex_id)
    return min((h.distance(t) for t in _targets(state, side)), default=0)


def score(state: XenState, decision: Decision, key: str) -> float | None:
    """A cheap value of answering an ``ops.*`` decision with ``key`` (higher is better), or None.

    Hints for the greedy bot, not rules: move towards the nearest City or
    Colony the side does not hold, stop there, attack what is weaker,
    pillage enemy cities, colonise where allowed.
    """
    side = decision.side
    kind = decision.kind
    if kind == "ops.force":
        if key == "end":
            return 0.0
        return 2.0 if key.startswith("force:") else 0.5
    if kind == "ops.force-units":
        return 1.0 if key == "done" else 0.0
    if kind == "ops.action":
        here = decision.context.get("highlight", ("",))[0]
        if key == "stop":
            return 0.2 if state.occupier(here) == side and state.is_city(here) else 0.0
        if key.startswith("move:"):
            dest = key.split(":", 1)[1]
            gain = _distance_to_target(state, side, here) - _distance_to_target(state, side, dest)
            return 1.0 + gain - (0.5 if state.is_city(here) and len(state.units_at(here)) <= 2 else 0.0)
        if key.startswith("attack:"):
            force = decision.context.get("force", ())
            mine = sum(state.unit(u).cs for u in force)
            theirs = sum(u.cs for u in state.units_at(key.split(":", 1)[1])) or 1
            return 3.0 * Fraction(mine, theirs).__float__() - 3.0
        if key == "pillage":
            owner = state.control.get(state.satrapy_of(here) or "", NEUTRAL)
            return 2.5 if state.is_city(here) and owner == other_side(side) else -1.0
        if key == "colonise":
            return 1.5
        if key.startswith("drop:"):
            return -0.5
    return None
