"""The Operations phase, force by force: OP, moves, attacks, pillage, colonies, forced march, reaction.

Rules served (each cited where it is applied):

- ``xen:forces``: a force is a group of units of one hex conducting
  operations together, chosen unit by unit (:func:`ancients_kit.choice.choose_group`),
  at most ten (xen:stacking); several forces may share a hex;
- ``xen:operations``: the phasing player conducts operations with each of
  his forces in turn; a force's OP = the OV of its lowest-OV unit + 1d6, the
  die doubled with a leader and tripled with Xenophon
  (:func:`.leaders.op_multiplier`, xen:leaders, xen:xenophon); with fleets the
  fleets' OV for naval transport (xen:naval-transport), a coastal march by
  land giving up the difference to the lowest OV of all its units
  (:func:`.naval.land_gap`); OP are spent in any order on moves (the
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

A force and its movement (its steps, the hexes it may reach on its OP, the
move options and their warnings) are :mod:`.march`'s; the zones of control
:mod:`.zoc`'s; this module rolls the OP, offers the action menu, conducts each
force, forms the forces of the phase, the Forced March and the Reaction.

The stratagem windows of :mod:`.stratagems` open here: ``operations``
before each force (Forced March text A, Royal Road), ``reaction`` after each
(Forced March text B, Scorched Earth); every die goes through
:func:`.chits.roll` (Consult Oracles).

Decisions are bounded and their keys stable: ``ops.force`` (``force:<hex>``,
``end``), ``ops.forced-march-force`` and ``ops.reaction-force``
(``force:<hex>``), ``ops.force-units`` (:func:`~ancients_kit.choice.choose_group`),
``ops.action`` for a force (``move:<hex>``, ``march:<hex>``, ``attack:<hex>``,
``pillage``, ``colonise``, ``drop:<unit>``, ``stop``). A typed answer not on
offer is refused in one line naming the rule. :func:`score` gives the greedy
bot a cheap value for each (``bot.py`` routes ``ops.*`` here); it reads only
what the asked side may see.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import attrs

from ancients_kit.choice import choose_group
from ancients_kit.hexgrid import Hex
from ancients_kit.hexmap import HexMap
from ancients_kit.movement import distances_from
from ancients_kit.protocol import Context, Decision, Option

from . import movement as mv
from . import chits, combat, march, naval, negotiations, pillage, stratagems
from .leaders import eliminate_units, op_multiplier
from .march import FORCE_LIMIT, ROYAL_ROAD, Force, destination_options
from .state import NEUTRAL, Unit, XenState, other_side, type_name, unit_value
from .victory import CITY_VP
from .warnings import city_retreat_warning, warning_text
from .zoc import ezoc_of, zone_exerted
from .vocab import OPERATIONS_KINDS, Kind

__all__ = [
    "ATTACK_OP",
    "can_form",
    "conduct",
    "force_options",
    "op_total",
    "operations_phase",
    "ops_points",
    "score",
]

ATTACK_OP = 2
"""xen:operations: each attack (battle) costs 2 OP."""
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
    """How many times the force's OP die counts: 1, 2 with a leader, 3 with Xenophon (xen:leaders)."""
    return int(op_multiplier(state, list(force)))


def ops_points(ctx: Context, state: XenState, force: Sequence[str]) -> Generator[Decision, Any, int]:
    """Roll a force's OP (xen:operations; xen:leaders, xen:xenophon, xen:naval-transport as they apply).

    The die goes through :func:`.chits.roll` (Consult Oracles may reroll it)."""
    units = [state.unit(u) for u in force]
    ov = naval.naval_ov(units)
    k = _multiplier(state, force)
    rules: tuple[str, ...] = (RULE,)
    if k >= 2:
        rules += ("xen:leaders",) + (("xen:xenophon",) if k == 3 else ())
    if naval.is_naval(units) and any(not u.fleet for u in units):
        rules += ("xen:naval-transport",)
    roll = yield from chits.roll(ctx, state, f"OP of the force in {units[0].hex}", rules)
    total = op_total(ov, roll, k)
    times = "" if k == 1 else f" x{k}"
    ctx.event("op", f"{units[0].side}: the force of {', '.join(force)} in {units[0].hex} has {ov} + {roll}{times} "
                    f"= {total} OP", rules, side=units[0].side, force=list(force), op=total)
    return total


# ---------------------------------------------------------------- zones, rooms, steps


@lru_cache(maxsize=4)
def _hexes(m: HexMap) -> dict[str, Hex]:
    return {m.to_id(h): h for h in m.hexes()}


def _attack_options(state: XenState, f: Force) -> list[Option]:
    if f.op < ATTACK_OP:
        return []
    # xen:negotiations: an agreement not to initiate combat may be broken ("If broken, the violator rolls
    # 1d6 and loses that many Chits"): the attack stays on offer, its text warns, the battle's window
    # applies the penalty (negotiations.attack_declared; docs, Rulings: operations 9)
    agreed = negotiations.may_attack(state, f.side)
    warn = f"; this BREAKS the agreement: {agreed}" if agreed is not None else ""
    m = state.map
    out = []
    for nid in state.neighbours(f.hex):
        occ = state.occupier(nid)
        if occ is None or occ == f.side:
            continue
        if not naval.may_attack(m, f.naval, f.hex, nid):
            continue
        what = "neutral" if occ == NEUTRAL else "enemy"
        city = city_retreat_warning(state, f.side, nid)
        held = warning_text([city]) if city else ""
        out.append(Option(f"attack:{nid}", f"attack the {what} units in {nid} ({ATTACK_OP} OP{warn}{held})"))
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
            continue  # a fleet is dropped only if the others can carry its passengers (_refit moves them)
        out.append(Option(f"drop:{u.id}", f"drop off {u.id} ({type_name(u.type)}) in {f.hex}"))
    return out


def _may_land(state: XenState, f: Force) -> bool:
    """A force carried by its fleets stands on a coast (not a sea hex): its land units may land."""
    return (f.naval and not f.marched and state.data.terrain.get(f.hex) != "sea"
            and any(not state.unit(u).fleet for u in f.units))


def force_options(state: XenState, f: Force, ezoc: frozenset[str],
                  land_ezoc: frozenset[str] = frozenset()) -> list[Option]:
    """Everything the force may do now; ``stop`` first."""
    if _may_land(state, f):  # naval transport ends on a coast: ashore unless they stay aboard (issue 23)
        opts = [Option("stop", f"end the operations of this force, its land units come ashore in {f.hex} "
                               f"({f.op} OP left are lost)"),
                Option("stop:aboard", f"end the operations of this force, its land units stay aboard "
                                      f"({f.op} OP left are lost)")]
    else:
        opts = [Option("stop", f"end the operations of this force ({f.op} OP left are lost)")]
    opts += destination_options(state, f, ezoc, land_ezoc)
    opts += _attack_options(state, f)
    in_ezoc = f.hex in ezoc or f.hex in land_ezoc  # xen:zoc: "may not pillage or colonize if in EZOC", any EZOC
    counted = pillage.pillage_count(state.unit(u).type for u in f.units)
    if f.op >= pillage.PILLAGE_OP and counted and pillage.pillage_refusal(state, f.hex, in_ezoc, f.naval) is None:
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
    if live:
        f.hex = str(live[0].hex)
    apart = [u for u in live if u.hex != f.hex]
    if apart:  # scattered by a retreat: those elsewhere conduct no further operations
        _done(state).update(u.id for u in apart)
    f.units = [u.id for u in live if u.hex == f.hex]


def _refusal(state: XenState, f: Force, ezoc: frozenset[str], land_ezoc: frozenset[str]) -> Any:
    """Why an action typed by a player is not on offer: one line naming the rule."""

    def refuse(text: str) -> tuple[str, str] | None:
        t = text.strip().lower()
        what, _, arg = t.partition(":")
        if what in ("move", "march", "attack"):
            if arg not in state.data.neighbours:
                return f"{text.strip()!r}: no hex {arg!r} on the map", "xen:movement"
            if arg not in state.neighbours(f.hex):
                return f"{text.strip()!r}: {arg} is not adjacent to {f.hex}", "xen:movement"
            occ = state.occupier(arg)
            if what == "attack":
                if occ is None or occ == f.side:
                    return f"{text.strip()!r}: no enemy or neutral units in {arg}", "xen:combat"
                if f.op < ATTACK_OP:
                    return f"{text.strip()!r}: an attack costs {ATTACK_OP} OP, {f.op} left", "xen:operations"
                return f"{text.strip()!r}: the force could not move there, so it may not attack there", "xen:combat"
            if f.halted:
                return f"{text.strip()!r}: the force entered an enemy zone of control and must stop", "xen:zoc"
            if occ is not None and occ != f.side:
                return f"{text.strip()!r}: {occ} units in {arg}; a force never enters them", "xen:movement"
            if not mv.stack_room(len(state.units_at(arg)), len(f.units)):
                return f"{text.strip()!r}: {arg} would hold more than {mv.STACK_LIMIT} units", "xen:stacking"
            zone = land_ezoc if what == "march" else ezoc
            if f.hex in zone and arg in zone:
                return f"{text.strip()!r}: never straight from one enemy zone of control to another", "xen:zoc"
            if what == "march" and not f.naval:
                return f"{text.strip()!r}: only a force of fleets and land units marches along the coast", "xen:errata"
            return (f"{text.strip()!r}: the force may not enter {arg} ({state.data.terrain.get(arg)}), or the cost is "
                    f"more than its {f.op} OP", "xen:naval" if f.naval else "xen:movement")
        if t == "pillage":
            why = pillage.pillage_refusal(state, f.hex, f.hex in ezoc or f.hex in land_ezoc, f.naval)
            return (why, "xen:pillage") if why else (f"'pillage': costs {pillage.PILLAGE_OP} OP", "xen:pillage")
        if t == "colonise":
            why = pillage.colonise_refusal(state, f.hex, f.hex in ezoc or f.hex in land_ezoc)
            return ((why, "xen:colonisation") if why
                    else (f"'colonise': costs {pillage.COLONISE_OP} OP and colonisation points", "xen:colonisation"))
        return None

    return refuse


def _refit(ctx: Context, state: XenState, f: Force) -> Generator[Decision, Any, None]:
    """After fleets are lost or dropped: the land units aboard go on the fleets left, 3 a fleet;
    those with no room are left ashore on a coast, and at sea go down with their fleets
    (xen:naval-transport; the Disband Table's "units aboard" share their fleet's fate), a
    leader by the leader rules (xen:leaders; :func:`.leaders.eliminate_units`)."""
    if not f.naval:
        return
    units = [state.unit(u) for u in f.units]
    fleets = [u for u in units if u.fleet]
    land = [u for u in units if not u.fleet]
    extra = land[naval.CAPACITY * len(fleets):]
    if extra:
        sea = state.data.terrain.get(f.hex) == "sea"
        for u in extra:
            f.units.remove(u.id)
            if not sea:
                u.embarked = None
                _done(state).add(u.id)
        what = "lost at sea with their fleets" if sea else "left ashore"
        ids = [u.id for u in extra]
        if sea:
            def announce(plain: list[str]) -> None:
                ctx.event("eliminated", f"{f.side}: {', '.join(plain)}: no room aboard, {what} in {f.hex}",
                          ("xen:naval-transport",), side=f.side, units=plain)

            yield from eliminate_units(ctx, state, ids, f"no room aboard, {what} in {f.hex}",
                                       ("xen:naval-transport",), announce=announce)
        else:
            ctx.event("drop", f"{f.side}: {', '.join(ids)}: no room aboard, {what} in {f.hex}",
                      ("xen:naval-transport",), side=f.side, units=ids)
    f.naval = bool(fleets)
    if f.naval:
        naval.embark(state, [state.unit(u) for u in f.units])


def conduct(ctx: Context, state: XenState, f: Force) -> Generator[Decision, Any, None]:
    """Conduct one force's operations until its OP are spent or its owner stops (xen:operations)."""
    side = f.side
    if f.naval:
        naval.embark(state, [state.unit(u) for u in f.units])
    else:
        for u in f.units:
            state.unit(u).embarked = None
    aboard = False
    while f.units:
        ezoc = ezoc_of(state, side, f.naval)
        land_ezoc = ezoc_of(state, side, False) if f.naval else ezoc
        if f.halted and not zone_exerted(state, side, f.naval and not f.halted_by_land, f.hex):
            f.halted = False  # xen:zoc: the units exerting it are gone
        opts = force_options(state, f, ezoc, land_ezoc)
        key = yield Decision(side, f"the force of {', '.join(f.units)} in {f.hex} has {f.op} OP: what next?",
                             tuple(opts), rule=RULE, kind=Kind.OPS_ACTION, refuse=_refusal(state, f, ezoc, land_ezoc),
                             context={"highlight": (f.hex,), "force": tuple(f.units),
                                      "visited": (f.hex, *f.visited)})
        if key in ("stop", "stop:aboard"):
            aboard = key == "stop:aboard"
            break
        if key.startswith(("move:", "march:")):
            dest = key.split(":", 1)[1]
            data = next(o.data for o in opts if o.key == key)
            cost, stop = data[0], data[1]
            path: tuple[str, ...] = data[3] if key.startswith("move:") else (dest,)
            still = data[2]  # a move: the Royal Road rate held to the end; a march: by road
            if not still:
                f.royal_road = False  # it left the road: the chit's rate ends
            by_sea = f.naval and key.startswith("move:")
            gap = 0 if by_sea else f.land_gap
            f.op -= cost + gap
            f.land_gap = 0 if not by_sea else f.land_gap
            f.marched = f.naval and not by_sea
            for u in f.units:
                state.place(u, dest)
            rules = ("xen:movement",) + (("xen:naval", "xen:naval-transport") if by_sea else ())
            if f.naval and not by_sea:
                rules += ("xen:errata", "xen:naval") + (("xen:operations",) if gap else ())
            if stop:
                f.halted, f.halted_by_land = True, not by_sea
                rules += ("xen:zoc",)
            f.visited += (f.hex, *path)
            f.hex, f.moved = dest, True
            paid = f"{cost} OP" + (f" and {gap} OP (its land units' lower OV)" if gap else "")
            by = f" by {', '.join(path[:-1])}" if len(path) > 1 else ""
            ctx.event("move", f"{side}: the force moves to {dest}{by} for {paid} ({f.op} left)"
                      + ("; it enters an enemy zone of control and stops" if stop else ""), rules,
                      side=side, force=list(f.units), hex=dest, path=list(path))
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
        elif key.startswith("drop:"):
            uid = key.split(":", 1)[1]
            f.units.remove(uid)
            u = state.unit(uid)
            if not u.fleet:
                u.embarked = None
            _done(state).add(uid)
            ctx.event("drop", f"{side}: {uid} is dropped off in {f.hex} and conducts no further operations",
                      ("xen:movement", "xen:forces"), side=side, unit=uid, hex=f.hex)
        _alive(state, f)
        yield from _refit(ctx, state, f)
    ashore = not aboard and f.units and _may_land(state, f)
    if not f.naval or f.marched or ashore:
        for u in f.units:  # xen:zoc: after a land march its land units are ashore, with their ZOC
            state.unit(u).embarked = None
    if ashore:
        land = [u for u in f.units if not state.unit(u).fleet]
        ctx.event("ashore", f"{side}: {', '.join(land)} come ashore in {f.hex}", ("xen:naval-transport",),
                  side=side, units=land, hex=f.hex)


def _attack(ctx: Context, state: XenState, f: Force, target: str) -> Generator[Decision, Any, None]:
    """xen:combat (2 OP), xen:naval-combat; the battle, the neutral satrapy's change of control
    and the retreats are combat.battle's."""
    f.op -= ATTACK_OP
    defenders = state.units_at(target)
    rules = ("xen:combat",) + (("xen:naval-combat",) if f.naval or any(u.fleet for u in defenders) else ())
    ctx.event("attack", f"{f.side}: the force in {f.hex} attacks {target} ({ATTACK_OP} OP, {f.op} left)",
              (RULE,) + rules, side=f.side, force=list(f.units), hex=target)
    yield from combat.battle(ctx, state, list(f.units), target, rule_ids=rules)


# ---------------------------------------------------------------- the phase


def _candidates(state: XenState, side: str, hex_id: str, exclude: set[str]) -> list[Option]:
    return [Option(u.id, f"{u.id} ({type_name(u.type)})", data=u)
            for u in _candidate_units(state, side, hex_id, exclude)]


def _candidate_units(state: XenState, side: str, hex_id: str, exclude: set[str]) -> list[Unit]:
    """The units of :func:`_candidates`."""
    return [u for u in state.units_at(hex_id) if u.side == side and u.id not in exclude]


def _group(u: Unit) -> str:
    return f"{u.type}.{u.satrapy or u.side}".replace(" ", "-")


def _default(state: XenState, hex_id: str, cands: list[Option]) -> list[str]:
    """The force offered first: the whole stack if it may move as one; else, on land, its land
    units (the fleets stay), at sea the fleets with what they can carry (xen:naval-transport)."""
    return [u.id for u in _default_units(state, hex_id, [o.data for o in cands])]


def _default_units(state: XenState, hex_id: str, cands: list[Unit]) -> list[Unit]:
    """:func:`_default` of the candidate units themselves."""
    units = cands[:FORCE_LIMIT]
    fleets = [u for u in units if u.fleet]
    if not fleets:
        return units
    land = [u for u in units if not u.fleet]
    if len(land) <= naval.CAPACITY * len(fleets):
        return units
    if state.data.terrain.get(hex_id) != "sea":
        return land
    return fleets + land[: naval.CAPACITY * len(fleets)]


def can_form(state: XenState, side: str, hex_id: str, exclude: set[str]) -> bool:
    """Whether some force of these units may conduct operations (land units stranded at sea may not)."""
    default = _default_units(state, hex_id, _candidate_units(state, side, hex_id, exclude))
    return bool(default) and naval.capacity_refusal(default, hex_id, state) is None


def _group_words(u: Unit) -> str:
    """A group of interchangeable units in words: ``a Lydia militia``, ``a rebel leader``."""
    what = f"{u.satrapy or u.side} {type_name(u.type)}"
    return f"{'an' if what[0].lower() in 'aeiou' else 'a'} {what}"


def _in_words(choosing: Generator[Decision, str, tuple[str, ...]], words: dict[str, str]
              ) -> Generator[Decision, str, tuple[str, ...]]:
    """The staged choice with its groups named in words: choose_group labels an option that
    adds or removes one of several interchangeable units by the group's key (``remove
    leader.rebel``); the key stays (it is the answer), the label reads ``remove a rebel leader``."""
    def label(o: Option) -> Option:
        verb, _, name = o.key.partition(":")
        if name in words and verb in ("add", "remove") and (o.label == f"remove {name}"
                                                             or o.label.startswith(f"add {name} (")):
            return attrs.evolve(o, label=o.label.replace(name, words[name], 1))
        return o

    try:
        d = next(choosing)
        while True:
            d = attrs.evolve(d, options=tuple(label(o) for o in d.options))
            d = choosing.send((yield d))
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]


def _form(state: XenState, side: str, hex_id: str, exclude: set[str], rule: str) -> Generator[
        Decision, Any, list[str]]:
    cands = _candidates(state, side, hex_id, exclude)
    words = {_group(o.data): _group_words(o.data) for o in cands}
    keys = yield from _in_words(choose_group(side, f"form the force in {hex_id}", cands,
                                             at_most=min(FORCE_LIMIT, len(cands)), at_least=1, rule=rule,
                                             kind=Kind.OPS_FORCE_UNITS, same=lambda o: _group(o.data),
                                             chosen=_default(state, hex_id, cands)), words)
    return list(keys)


def _start(ctx: Context, state: XenState, side: str, units: list[str], hex_id: str, why: str,
           rules: tuple[str, ...], royal_road: bool = False) -> Generator[Decision, Any, Force | None]:
    us = [state.unit(u) for u in units]
    refusal = naval.capacity_refusal(us, hex_id, state)
    left = [u for u in state.units_at(hex_id) if u.id not in units and u.embarked in units]
    if left and refusal is None:
        if state.data.terrain.get(hex_id) == "sea":
            refusal = (f"at sea the fleets' passengers ({', '.join(u.id for u in left)}) go with them "
                       "(xen:naval-transport)")
        else:
            for u in left:
                u.embarked = None  # they stay ashore: disembarking costs nothing
    if refusal is not None:
        ctx.event("force-refused", f"{side}: no force of {', '.join(units)}: {refusal}", ("xen:naval-transport",),
                  side=side)
        return None
    ctx.event("force", f"{side}: {why} the force of {', '.join(units)} in {hex_id}", rules + ("xen:forces",),
              side=side, force=list(units), hex=hex_id)
    op = yield from ops_points(ctx, state, units)
    is_naval = naval.is_naval(us)
    rate = mv.naval_rate(state.map, hex_id, naval.ports(state)) if is_naval else 1
    return Force(side, list(units), hex_id, hex_id, op, is_naval, rate, royal_road=royal_road,
                 land_gap=naval.land_gap(us))


def _hexes_with(state: XenState, side: str, pred: Any) -> list[str]:
    return sorted({str(u.hex) for u in state.side_units(side) if pred(u)})


def operations_phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
    """PHASES["operations"]: the phasing player's forces one by one (xen:operations).

    Before each force the ``operations`` window of :mod:`.stratagems` is
    opened (Forced March text A, Royal Road); after each, the ``reaction``
    window for the other player (Forced March text B with xen:opt.reaction,
    Scorched Earth)."""
    done = _done(state)
    done.clear()
    while not state.over:
        fresh = [h for h in _hexes_with(state, side, lambda u: u.id not in done) if can_form(state, side, h, done)]
        again = [h for h in _hexes_with(state, side, lambda u: u.id in done) if can_form(state, side, h, set())]
        chit = None
        if fresh or again:
            play = yield from chits.open_window(
                ctx, state, "operations", detail=f"the {side} player's next force",
                eligible=lambda s, c: c != FORCED_MARCH or bool(again))
            chit = str(play.option.data) if play is not None else None
        if chit == FORCED_MARCH:
            opts = tuple(Option(f"force:{h}", f"operations again with a force in {h}") for h in again)
            key = yield Decision(side, "Forced March: choose the hex of the force that operates again",
                                 opts, rule="xen:forced-march", kind=Kind.OPS_FORCED_MARCH_FORCE,
                                 context={"highlight": tuple(again)})
            hex_id = key.split(":", 1)[1]
            units = yield from _form(state, side, hex_id, set(), "xen:forced-march")
            f = yield from _forced_march(ctx, state, side, units, hex_id)
        else:
            opts = [Option("end", "end the Operations phase")]
            for h in fresh:
                cands = _candidate_units(state, side, h, done)
                whole = [u.id for u in _default_units(state, h, cands)]
                opts.append(Option(f"force:{h}", f"operations with the force in {h}: {', '.join(whole)}"))
                if len(cands) > 1:
                    opts.append(Option(f"choose:{h}", f"operations with a force in {h}: choose its units"))
            key = yield Decision(side, "Operations phase: choose the next force", tuple(opts), rule=RULE,
                                 kind=Kind.OPS_FORCE, refuse=_force_refusal(state, side, done),
                                 context={"highlight": tuple(fresh)})
            if key == "end":
                ctx.event("operations-end", f"{side} ends the Operations phase", (RULE,), side=side)
                return
            how, _, hex_id = key.partition(":")
            if how == "force":  # the force offered first, in one answer (issue 23: no forced choices)
                units = [u.id for u in _default_units(state, hex_id, _candidate_units(state, side, hex_id, done))]
            else:
                units = yield from _form(state, side, hex_id, done, "xen:forces")
            f = yield from _start(ctx, state, side, units, hex_id, "operations with", (RULE,),
                                  royal_road=chit == ROYAL_ROAD)
        if f is None:
            continue
        done.update(f.units)
        yield from conduct(ctx, state, f)
        done.update(f.units)
        if not state.over:
            yield from _reaction(ctx, state, other_side(side))


def _force_refusal(state: XenState, side: str, done: set[str]) -> Any:
    def refuse(text: str) -> tuple[str, str] | None:
        what, _, h = text.strip().lower().partition(":")
        if what not in ("force", "choose"):
            return None
        mine = [u for u in state.units_at(h) if u.side == side]
        if not mine:
            return f"{text.strip()!r}: no unit of yours in {h}", "xen:forces"
        if all(u.id in done for u in mine):
            return (f"{text.strip()!r}: every unit in {h} has conducted operations this phase (Forced March "
                    "lets them again)", "xen:operations")
        return f"{text.strip()!r}: no force there may move (fleets carry 3 land units each)", "xen:naval-transport"

    return refuse


def _forced_march(ctx: Context, state: XenState, side: str, units: list[str], hex_id: str) -> Generator[
        Decision, Any, Force | None]:
    """xen:forced-march (text A; the chit already played at the window): the loss roll, then new OP.

    The unit lost is eliminated like any other (xen:leaders): a leader through the leader
    rules (Xenophon's escape roll, a Supreme Leader's chits), a fleet with the units aboard
    (:func:`.leaders.eliminate_units`)."""
    rules = ("xen:forced-march",)
    roll = yield from chits.roll(ctx, state, "forced march loss roll", rules)
    if stratagems.forced_march_loss(roll):
        opts = tuple(Option(u, f"{u} ({state.unit(u).type})") for u in units)
        lost = opts[0].key if len(opts) == 1 else (yield Decision(
            side, f"forced march roll {roll}: choose the unit of the force that is lost", opts,
            rule="xen:forced-march", kind=Kind.OPS_FORCED_MARCH_LOSS))

        def announce(plain: list[str]) -> None:
            ctx.event("eliminated", f"forced march roll {roll}: {', '.join(plain)} "
                      f"{'is' if len(plain) == 1 else 'are'} lost", rules, side=side, unit=lost)

        yield from eliminate_units(ctx, state, [lost], f"forced march roll {roll}", rules, announce=announce)
        units = [u for u in units if state.unit(u).where == "map" and state.unit(u).hex == hex_id]
        if not units:
            return None
    else:
        ctx.event("forced-march", f"forced march roll {roll}: no loss", rules, side=side)
    return (yield from _start(ctx, state, side, units, hex_id, "forced march:", rules + (RULE,)))


def _reaction(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
    """After a phasing force's operations: the ``reaction`` window for ``side``; with
    xen:opt.reaction a Forced March there is a Reaction with one force, no loss roll."""
    reacted = _reacted(state)
    # Forced March is offered (and so spent) only when some force of ``side`` may react:
    # each reacts once a turn, and land units at sea without their fleets form no force
    # (docs/games/xenophon.md, Rulings: second reading 2).
    hexes = ([h for h in _hexes_with(state, side, lambda u: u.id not in reacted) if can_form(state, side, h, reacted)]
             if state.options.reaction else [])
    play = yield from stratagems.reaction_window(ctx, state, side, detail="a force's operations are over",
                                                 eligible=lambda s, c: c != FORCED_MARCH or bool(hexes))
    if play is None or str(play.option.data) != FORCED_MARCH:
        return
    rules = ("xen:opt.reaction", "xen:forced-march")
    opts = tuple(Option(f"force:{h}", f"react with a force in {h}") for h in hexes)
    key = yield Decision(side, "Reaction: choose the hex of the reacting force", opts,
                         rule="xen:opt.reaction", kind=Kind.OPS_REACTION_FORCE, context={"highlight": tuple(hexes)})
    hex_id = key.split(":", 1)[1]
    units = yield from _form(state, side, hex_id, reacted, "xen:opt.reaction")
    f = yield from _start(ctx, state, side, units, hex_id, "reaction with", rules)
    if f is None:
        return
    reacted.update(f.units)
    yield from conduct(ctx, state, f)
    reacted.update(f.units)


# ---------------------------------------------------------------- greedy bot hints


def _targets(state: XenState, side: str) -> list[Hex]:
    """Cities and colonies ``side`` does not hold: where its forces want to go."""
    hexes = _hexes(state.map)
    return [hexes[h] for h in list(state.data.city_kind) + sorted(state.colonies) if state.occupier(h) != side]


_LAST: list[Any] = [None, None, None, None]
"""The decision last scored, its distance field, and (4th) its options' data by key: the greedy
bot scores every option of one decision."""


_FIELDS: dict[tuple[int, frozenset[str]], dict[str, int]] = {}
"""Distance fields by map and target set (the greedy bot's; targets change only with control)."""


def _field(m: HexMap, targets: frozenset[str]) -> dict[str, int]:
    """Hexes from every hex of ``m`` to the nearest of ``targets``, by a breadth-first walk of
    the map's hexes (on the rectangular map, the hex distance)."""
    key = (id(m), targets)
    got = _FIELDS.get(key)
    if got is None:
        if len(_FIELDS) > 64:
            _FIELDS.clear()
        got = distances_from(sorted(targets), march.neighbour_ids(m).__getitem__)
        _FIELDS[key] = got
    return got


def _distance_to_target(state: XenState, side: str, hex_id: str, decision: Decision | None = None) -> int:
    """Hexes from ``hex_id`` to the nearest City or Colony ``side`` does not hold (0 if none);
    the field is kept for the decision being scored."""
    if decision is not None and _LAST[0] is decision:
        field = _LAST[1]
    else:
        field = _field(state.map, frozenset(state.map.to_id(t) for t in _targets(state, side)))
        if decision is not None:
            _LAST[0], _LAST[1] = decision, field
    return field.get(hex_id, 0)


def _move_scores(state: XenState, decision: Decision, keys: list[str]) -> list[float]:
    """The scores of the ``move:`` and ``march:`` answers ``keys`` of one ``ops.action``
    decision: 1 + the hexes gained towards the nearest City or Colony not held, less a
    hundredth of the OP spent (of two equal gains, the cheaper path), less 0.5 for leaving a
    City held by two units or fewer. Leaving a City the force alone holds costs that City's
    VP if the destination is a City worth more not yet held, else it is never worth it; a hex
    the force has stood in or passed through these operations scores -1 (no walking in
    circles). One distance field and one look at the force's hex serve every key
    (:func:`score_options`)."""
    side = decision.side
    here = decision.context.get("highlight", ("",))[0]
    start = _distance_to_target(state, side, here, decision)
    field = _LAST[1]
    if _LAST[3] is None or _LAST[3][0] is not decision:
        _LAST[3] = (decision, {o.key: o.data for o in decision.options})
    data_of = _LAST[3][1]
    alone = _holds_alone(state, side, here, decision.context.get("force", ()))
    here_vp = _city_vp(state, side, here)
    thin = 0.5 if state.is_city(here) and len(state.units_at(here)) <= 2 else 0.0
    visited = set(decision.context.get("visited", ()))
    out = []
    for key in keys:
        dest = key.split(":", 1)[1]
        if dest in visited:  # back where it has been these operations: a walk in circles
            out.append(-1.0)
            continue
        gain = start - field.get(dest, 0)
        data = data_of.get(key)
        spent = float(data[0]) / 100 if data else 0.0
        leave = thin
        if alone:  # the City is lost if this force leaves it: only for a City worth more
            better = _city_vp(state, side, dest) > here_vp and state.occupier(dest) != side
            leave = here_vp if better else _NEVER
        out.append(1.0 + gain - spent - leave)
    return out


_NEVER = 100.0
"""What leaving a City costs the greedy bot when it would lose it for no better one."""


def _city_vp(state: XenState, side: str, hex_id: str) -> int:
    """The VP ``side`` scores for occupying ``hex_id`` at the end (0 for no City or Colony; xen:victory)."""
    kind = state.city_kind(hex_id)
    return CITY_VP[side][kind] if kind is not None else 0


def _holds_alone(state: XenState, side: str, hex_id: str, units: Sequence[str]) -> bool:
    """Whether ``units`` are all of ``side``'s units in the City or Colony ``hex_id``: if they
    leave, the City is no longer occupied and scores nothing (xen:victory)."""
    if not state.is_city(hex_id):
        return False
    mine = [u.id for u in state.units_at(hex_id) if u.side == side]
    return bool(mine) and set(mine) <= set(units)


def score_options(state: XenState, decision: Decision) -> list[float] | None:
    """:func:`score` of every option of an ``ops.action`` decision at once (the moves share
    one distance field), or None for the other kinds (scored option by option)."""
    if decision.kind != Kind.OPS_ACTION:
        return None
    moves = [o.key for o in decision.options if o.key.startswith(("move:", "march:"))]
    scored = iter(_move_scores(state, decision, moves))
    out = []
    for o in decision.options:
        if o.key.startswith(("move:", "march:")):
            out.append(next(scored))
        else:
            value = score(state, decision, o.key)
            out.append(float(value) if value is not None else 0.0)
    return out


def score(state: XenState, decision: Decision, key: str) -> float | None:
    """A cheap value of answering an ``ops.*`` decision with ``key`` (higher is better); None
    for the kinds of other modules.

    Hints for the greedy bot, not rules: move towards the nearest City or
    Colony the side does not hold, stop there, attack what is weaker,
    pillage enemy cities, colonise where allowed.
    """
    side = decision.side
    kind = decision.kind
    if kind == Kind.OPS_FORCE:
        if key == "end":
            return 0.0
        if key.startswith("force:"):
            # a lone garrison holds its City: it has nothing better to do (greedy hint)
            hex_id = key.split(":", 1)[1]
            lone = state.is_city(hex_id) and sum(1 for u in state.units_at(hex_id) if u.side == side) == 1
            return -1.0 if lone else 2.0
        return 0.5
    if kind == Kind.OPS_FORCE_UNITS:
        return 1.0 if key == "done" else 0.0
    if kind == Kind.OPS_ACTION:
        here = decision.context.get("highlight", ("",))[0]
        if key.startswith(("move:", "march:")):
            return _move_scores(state, decision, [key])[0]
        if key == "stop":
            return 0.2 if state.occupier(here) == side and state.is_city(here) else 0.0
        if key == "stop:aboard":
            return 0.1
        if key.startswith("attack:"):
            force = decision.context.get("force", ())
            mine = sum(state.unit(u).cs for u in force)
            theirs = sum(u.cs for u in state.units_at(key.split(":", 1)[1])) or 1
            # breaking a "no combat" agreement costs 1d6 chits (3.5 on average, xen:negotiations)
            breach = 3.5 if negotiations.may_attack(state, side) is not None else 0.0
            return 3.0 * Fraction(mine, theirs).__float__() - 3.0 - breach
        if key == "pillage":
            # A City one holds pays every Treasury phase unpillaged; loot pays once: only a rich
            # enemy City is worth it (and its forage is lost to the force standing there).
            owner = state.control.get(state.satrapy_of(here) or "", NEUTRAL)
            rich = state.city_kind(here) in ("treasury", "capital")
            return 0.8 if rich and owner == other_side(side) else -1.0
        if key == "colonise":
            return 1.5
        if key.startswith("drop:"):
            force = decision.context.get("force", ())
            if len(force) >= 2 and _holds_alone(state, side, here, force):
                # leave a garrison (the least valuable unit) to hold the City the force leaves
                return 50.0 - unit_value(state, state.unit(key.split(":", 1)[1]))
            return -0.5
        return 0.0
    if kind in (Kind.OPS_COLONIST, Kind.OPS_FORCED_MARCH_LOSS) and key in state.units:
        u = state.unit(key)
        return -(u.cs + u.ov / 8 + (20.0 if u.leader else 0.0))  # give up the least valuable unit
    if kind in (Kind.OPS_FORCED_MARCH_FORCE, Kind.OPS_REACTION_FORCE) and key.startswith("force:"):
        return -float(_distance_to_target(state, side, key.split(":", 1)[1], decision))
    if kind in OPERATIONS_KINDS:
        return 0.0
    return None
