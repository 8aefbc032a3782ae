"""The Recruit and Levy phases; Guards; Public Works (xen:recruit, xen:guards, xen:levy,
xen:opt.reduced-levy, xen:opt.public-works).

Recruit phase (:func:`recruit_phase`): the phasing player buys units of the
satrapies he controls at the chart's prices ($6 fleet or siege train, $4
phalanx or supply train, $3 barbarian horde or cavalry, $2 light, $1 militia,
$5 elephant per the errata). Each goes into a friendly-occupied City or Colony
of its own satrapy, one purchased unit a city this phase; a fleet only into a
friendly-occupied port or coastal colony. Nothing goes into a pillaged hex (a
pillaged City is treated as clear and its port as coast, xen:pillage). No more than the counter mix holds
(:meth:`~.state.XenState.mix`).

Guards (xen:guards): Guard and Supply units are never levied, only recruited,
and go one a hex onto a friendly leader in an unpillaged City/Colony; one
siege train and one supply train may go there besides the one Guard (or other)
purchased unit.

Mercenaries (reconstructed event 55, ``player-turn:mercenaries``): one Guard
Phalanx for $2 in any friendly-occupied City/Colony, taking its purchased-unit
place (docs/games/xenophon.md, "Rulings: core").

Public Works (optional): $5 a marker in a friendly-occupied City/Colony that
has none.

Levy phase (:func:`levy_phase`): in each satrapy he controls, the phasing
player levies for free up to its Levy Value (reduced by 1 without enemy units
inside under xen:opt.reduced-levy; a full value of 1 then still levies 1 on
even turns), any type of satrapy unit the mix holds, fleets included
(xen:errata). One levied unit a hex, in its own satrapy, into an empty or
friendly-occupied hex that is not pillaged, not in an EZOC, not enemy- or
neutral-occupied; fleets on a coastal hex or port. Levies with no legal hex
are lost for the turn. Mediterranean War closes its satrapies to both
phases.
"""

from __future__ import annotations

from collections.abc import Collection, Generator
from typing import Any

from ancients_kit.protocol import Context, Decision, Option

from .control import friendly_cities
from .naval import ports
from .state import TYPE_LETTER, Unit, XenState, type_name
from .treasury import closed_satrapies
from .zoc import ezoc_of
from .vocab import Kind

__all__ = [
    "GUARD_TYPES",
    "PUBLIC_WORKS_COST",
    "levy_hexes",
    "levy_phase",
    "levy_value",
    "placement_ezoc",
    "recruit_choices",
    "recruit_cities",
    "recruit_phase",
]

RC = "xen:recruit"
GD = "xen:guards"
LV = "xen:levy"
STACK = 10  # xen:stacking
GUARD_TYPES = ("phalanx", "cavalry", "light")
TRAINS = ("siege_train", "supply_train")
PUBLIC_WORKS_COST = 5
MERCENARY_COST = 2


def cost(state: XenState, type_: str) -> int:
    """The chart's recruit cost of a unit type (xen:recruit, xen:treasury-chart)."""
    return state.data.units[type_].recruit


def placement_ezoc(state: XenState, side: str, fleet: bool) -> frozenset[str]:
    """Hexes in the other player's ZOC where ``side`` may not place a unit (xen:zoc): for a
    land unit the enemy land units' zone, for a fleet the enemy fleets' (each kind's ZOC
    affects only its own kind, xen:zoc; :func:`.zoc.ezoc_of`)."""
    return ezoc_of(state, side, fleet)


# ---------------------------------------------------------------------------
# Recruit


def recruit_cities(state: XenState, side: str) -> list[str]:
    """Friendly-occupied unpillaged cities with stacking room (what each may take:
    :func:`recruit_choices`; a pillaged City is treated as clear, xen:pillage)."""
    return [h for h in friendly_cities(state, side) if len(state.units_at(h)) < STACK and h not in state.pillaged]


def recruit_choices(state: XenState, side: str, h: str,
                    kinds: set[tuple[str | None, str, str | None]] | None = None) -> list[tuple[str, str, int]]:
    """``(key, label, cost)`` of what ``side`` may buy into city ``h`` now (xen:recruit, xen:guards).

    Nothing goes into a pillaged hex: until its marker is removed a printed City is treated
    as clear and its port as coast (xen:pillage, Pillage effects), so it is no City/Colony to
    recruit into, no port for a fleet and no place for Public Works (the errata keep it a City
    only for occupation and Victory Points). ``kinds``: :meth:`~.state.XenState.mix_kinds`, if known."""
    used: tuple[str, ...] = state.effects.get("player-turn:recruited", {}).get(h, ())
    money = state.treasury[side].value
    if len(state.units_at(h)) >= STACK or state.occupier(h) != side or h in state.pillaged:
        return []
    out: list[tuple[str, str, int]] = []
    if kinds is None:
        kinds = state.mix_kinds()  # what state.mix would find, read once
    sat = state.satrapy_of(h)
    closed = closed_satrapies(state, side)
    # Mediterranean War: no unit of any kind (satrapy, Guard, train, mercenary) is purchased in
    # its nine satrapies this player-turn; Public Works is no unit (docs, Rulings: core).
    shut = sat in closed
    if "unit" not in used and not shut:
        if sat is not None and state.control.get(sat) == side:
            port = h in ports(state)  # printed ports not pillaged, coastal Colonies (xen:pillage)
            for t in TYPE_LETTER:
                if t == "fleet" and not port:
                    continue
                if (sat, t, None) in kinds and cost(state, t) <= money:
                    out.append((f"{t}", f"{sat} {type_name(t)} (${cost(state, t)})", cost(state, t)))
        leader = any(u.leader and u.side == side for u in state.units_at(h))
        if leader and h not in state.pillaged:
            for t in GUARD_TYPES:
                if (None, t, side) in kinds and cost(state, t) <= money:
                    out.append((f"guard-{t}", f"Guard {type_name(t)} (${cost(state, t)})", cost(state, t)))
        if state.effects.get("player-turn:mercenaries") == side and (None, "phalanx", side) in kinds \
                and MERCENARY_COST <= money:
            out.append(("mercenary", f"a mercenary Guard phalanx (Mercenaries, ${MERCENARY_COST})", MERCENARY_COST))
    leader = any(u.leader and u.side == side for u in state.units_at(h))
    if leader and h not in state.pillaged and not shut:
        for t in TRAINS:
            if t not in used and (None, t, side) in kinds and cost(state, t) <= money:
                out.append((t, f"{t.replace('_', ' ')} (${cost(state, t)})", cost(state, t)))
    if state.options.public_works and h not in state.public_works and PUBLIC_WORKS_COST <= money:
        out.append(("public-works", f"Public Works marker (${PUBLIC_WORKS_COST})", PUBLIC_WORKS_COST))
    return out


def _buy(ctx: Context, state: XenState, side: str, h: str, key: str) -> None:
    choices = {k: c for k, _, c in recruit_choices(state, side, h)}
    price = choices[key]
    used: dict[str, tuple[str, ...]] = dict(state.effects.get("player-turn:recruited", {}))
    if key == "public-works":
        state.treasury[side].spend(ctx, price, f"Public Works in {h}", ("xen:opt.public-works",))
        state.public_works.add(h)
        ctx.event("public-works", f"{side} builds Public Works in {h}", ("xen:opt.public-works",), side=side, hex=h)
        return
    if key in TRAINS:
        u = state.mix(None, key, side)[0]
        slot, rules = key, (RC, GD)
    elif key.startswith("guard-"):
        u = state.mix(None, key[len("guard-"):], side)[0]
        slot, rules = "unit", (RC, GD)
    elif key == "mercenary":
        u = state.mix(None, "phalanx", side)[0]
        slot, rules = "unit", (RC, GD, "xen:random-events")
        del state.effects["player-turn:mercenaries"]
    else:
        sat = state.satrapy_of(h)
        u = state.mix(sat, key)[0]
        slot, rules = "unit", (RC,)
    state.treasury[side].spend(ctx, price, f"recruits {u.id}", rules)
    state.place(u.id, h)
    used[h] = used.get(h, ()) + (slot,)
    state.effects["player-turn:recruited"] = used
    ctx.event("recruit", f"{side} recruits {u.id} in {h}", rules, side=side, unit=u.id, hex=h)


def recruit_phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
    """e. Recruit phase (xen:recruit, xen:guards, xen:opt.public-works)."""
    while True:
        kinds = state.mix_kinds()
        cities = [h for h in recruit_cities(state, side) if recruit_choices(state, side, h, kinds)]
        if not cities:
            break
        names = state.data.city_name
        opts = [Option("done", "recruit nothing more")] + [
            Option(f"city:{h}", f"recruit in {names.get(h, 'colony')} {h} ({state.satrapy_of(h)})") for h in cities]
        key = yield Decision(side, f"Recruit phase: where? (you hold ${state.treasury[side].value})", tuple(opts),
                             rule=RC, kind=Kind.RECRUIT_CITY, context={"highlight": tuple(cities)})
        if key == "done":
            break
        h = key.split(":", 1)[1]
        choices = recruit_choices(state, side, h)
        what = yield Decision(side, f"Recruit in {names.get(h, 'colony')} {h}: what?",
                              (Option("back", "nothing here"), *(Option(k, lab) for k, lab, _ in choices)),
                              rule=RC, kind=Kind.RECRUIT_UNIT, context={"highlight": (h,)})
        if what != "back":
            _buy(ctx, state, side, h, what)
    state.effects.pop("player-turn:recruited", None)


# ---------------------------------------------------------------------------
# Levy


def levy_value(state: XenState, satrapy: str, side: str) -> int:
    """How many units ``side`` may levy in ``satrapy`` this turn (xen:levy, xen:opt.reduced-levy)."""
    full = state.data.row(satrapy).levy_value
    if not state.options.reduced_levy or state.enemy_units_in(satrapy, side):
        return full
    if full == 1:
        return 1 if state.turn % 2 == 0 else 0
    return full - 1


def levy_hexes(state: XenState, side: str, satrapy: str, fleet: bool, used: Collection[str] = (),
               ezoc: Collection[str] | None = None) -> list[str]:
    """Legal hexes for a levied unit of ``satrapy`` (xen:levy, xen:zoc); ``ezoc`` if known."""
    if ezoc is None:
        ezoc = placement_ezoc(state, side, fleet)
    out = []
    for h in state.hexes_of(satrapy):
        if h in used or h in state.pillaged or h in ezoc or state.data.terrain.get(h) == "sea":
            continue
        occ = state.occupier(h)
        if occ is not None and occ != side:
            continue
        if len(state.units_at(h)) >= STACK:
            continue
        if fleet and h not in state.data.coastal and h not in state.data.ports:
            continue
        out.append(h)
    return out


def levy_types(state: XenState, side: str, satrapy: str, used: Collection[str],
               ezoc: dict[bool, frozenset[str]] | None = None) -> list[str]:
    """The unit types ``satrapy`` may still levy (``xen:levy``): in the mix, not in ``used``,
    with a legal hex (``ezoc``: the zones :func:`placement_ezoc` gives, if already known)."""
    zones = ezoc if ezoc is not None else {f: placement_ezoc(state, side, f) for f in (False, True)}
    kinds = state.mix_kinds()
    room: dict[bool, bool] = {}  # whether some hex takes a land unit, a fleet (the same for every land type)

    def placed(fleet: bool) -> bool:
        if fleet not in room:
            room[fleet] = bool(levy_hexes(state, side, satrapy, fleet, used, zones[fleet]))
        return room[fleet]

    return [t for t in TYPE_LETTER if (satrapy, t, None) in kinds and placed(t == "fleet")]


def levy_phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
    """f. Levy phase: free units in each controlled satrapy up to its Levy Value (xen:levy)."""
    closed = closed_satrapies(state, side)
    for sat in state.controlled(side):
        if sat in closed:
            ctx.event("levy", f"{sat}: no levy this player-turn (Mediterranean War)", (LV, "xen:random-events"),
                      side=side, satrapy=sat)
            continue
        n = levy_value(state, sat, side)
        rules = (LV,) + (("xen:opt.reduced-levy",) if state.options.reduced_levy else ())
        # "1 per ... hex": a hex that took an Empire Mobilizes unit this player-turn takes no other
        used: set[str] = set(state.effects.get("player-turn:levied", ()))
        levied: list[Unit] = []
        ezoc = {f: placement_ezoc(state, side, f) for f in (False, True)} if n else {}
        for i in range(n):
            types = levy_types(state, side, sat, used, ezoc)
            if not types:
                if i < n:
                    ctx.event("levy", f"{sat}: {n - i} levy lost (no unit in the mix or no legal hex)", rules,
                              side=side, satrapy=sat)
                break
            t = yield Decision(side, f"Levy in {sat} ({i + 1} of {n}): which unit type?",
                               (Option("done", f"levy no more in {sat}"),
                                *(Option(t, f"{sat} {type_name(t)}") for t in types)), rule=LV, kind=Kind.LEVY_TYPE)
            if t == "done":
                break
            hexes = levy_hexes(state, side, sat, t == "fleet", used, ezoc[t == "fleet"])
            h = yield Decision(side, f"Levy {sat} {type_name(t)}: in which hex?",
                               tuple(Option(x, state.data.city_name.get(x, state.data.terrain.get(x, "")))
                                     for x in hexes), rule=LV, kind=Kind.LEVY_HEX, context={"highlight": tuple(hexes)})
            u = state.mix(sat, t)[0]
            state.place(u.id, h)
            used.add(h)
            levied.append(u)
        if levied:
            ctx.event("levy", f"{side} levies in {sat}: {', '.join(f'{u.id} in {u.hex}' for u in levied)}", rules,
                      side=side, satrapy=sat, units=tuple(u.id for u in levied))
