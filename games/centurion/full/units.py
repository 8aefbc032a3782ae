"""The units and what each may do now (cen:full.units, cen:full.combat A-D, M).

The Full Simulation's reading of a unit on the map: its type and capabilities, the
terrain it stands on, its Melee Attack Factor, whether it may fire and how far,
and the hexes it may fire at or melee (to its front; deserters of its own side
too, cen:full.treachery D). The phases and the odds share these; they change
nothing on the map.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from ancients_kit.hexgrid import Hex, in_front_arc, is_frontal

from ancients_games.centurion.full import cavalry, fire, options as opt, square
from ancients_games.centurion.full.book import book
from ancients_games.centurion.model import Capability, TerrainEffect, UnitKind, UnitType
from ancients_games.centurion.state import CenturionState, Unit


def unit_type(state: CenturionState, u: Unit) -> UnitType:
    """The unit type of ``u``."""
    return state.types[u.type]


def capability(state: CenturionState, u: Unit) -> Capability | None:
    """The capability chart's line for ``u``'s type, if it has one."""
    return state.capability.get(u.type)


def is_command(state: CenturionState, u: Unit) -> bool:
    """Is ``u`` a Command unit?"""
    return state.types[u.type].kind is UnitKind.COMMAND


def terrain_of(state: CenturionState, h: Hex) -> TerrainEffect | None:
    """The Terrain Effects Chart's line for the terrain of ``h``, if it has one."""
    return state.terrain_chart.get(state.map.terrain(h))


def on_hill(state: CenturionState, h: Hex) -> bool:
    """Is ``h`` a hilltop, adding to missile range (cen:full.combat D)?"""
    ter = terrain_of(state, h)
    return ter is not None and ter.fire_range_bonus > 0


def melee_factor(state: CenturionState, u: Unit) -> Fraction | None:
    """What ``u`` brings to a melee attack before halvings, or None if it may not attack."""
    t = unit_type(state, u)
    cap = capability(state, u)
    if u.dispersed or u.panicked or u.treachery == "leaving" or u.hex is None or u.building:
        return None
    if t.kind is UnitKind.MOUNT or u.id in book(state).dismounting:
        return None
    if cap is not None and cap.melee_offence == "no":
        return None
    if u.in_square:
        members = [x for x in state.stack_at(u.hex) if x.side == u.side and x.in_square]
        if cap is not None and cap.form_square:
            att = square.square_attack([unit_type(state, x) for x in members], state.capability)
            return None if att is None else Fraction(t.melee_defence_front, 2)
        if cap is not None and cap.charge:
            return None  # cen:full.square J: no charging out of a square
    if t.charge_length > 0 and not u.dismounted:
        return Fraction(cavalry.charge_factor(t, u.charge_length))
    if t.melee_attack <= 0:
        return None
    return Fraction(t.melee_attack)


def can_fire(state: CenturionState, u: Unit, defensive: bool = False) -> bool:
    """May ``u`` fire now? Panicked units may not attack but keep half their fire
    for defence (cen:full.panic B); dispersed, deserting and working units do not fire."""
    t = unit_type(state, u)
    cap = capability(state, u)
    if u.dispersed or (u.panicked and not defensive) or u.treachery == "leaving" or u.hex is None or u.building:
        return False
    if cap is None or not (cap.fire_defence if defensive else cap.fire_offence):
        return False
    if u.id in book(state).dismounting:
        return False
    return fire.fire_allowed(t, book(state).weather)


def fire_factor(state: CenturionState, u: Unit) -> Fraction:
    """The Fire Combat Factor ``u`` brings, halved in panic (cen:full.panic B)."""
    v = Fraction(unit_type(state, u).fire)
    if u.panicked:
        v /= 2  # cen:full.panic B
    return v


def fire_reach(state: CenturionState, u: Unit) -> int:
    """How far ``u`` fires now: its range, one more from a hilltop except in fog (cen:full.combat B, D;
    cen:opt.weather)."""
    assert u.hex is not None
    return fire.fire_range(unit_type(state, u), on_hill(state, u.hex), book(state).weather)


def fire_blocked(state: CenturionState) -> Callable[[Hex], bool]:
    """Whether a hex stops missile fire through it: units, or terrain that blocks fire (cen:full.combat D)."""
    def blocked(h: Hex) -> bool:
        if state.stacks.get(h):
            return True
        ter = terrain_of(state, h)
        return ter is not None and ter.blocks_fire
    return blocked


def deserter_hexes(state: CenturionState, side: str) -> list[Hex]:
    """Hexes holding only ``side``'s own deserters: its loyal troops may attack them before they
    leave (cen:full.treachery D)."""
    out: list[Hex] = []
    for u in state.units.values():  # state.live_units(side), the deserters tested first (most games have none)
        if u.treachery == "leaving" and u.side == side and u.hex is not None and not u.eliminated and \
                u.hex not in out and all(x.side == side and x.treachery == "leaving" for x in state.stack_at(u.hex)):
            out.append(u.hex)
    return out


def is_deserter_hex(state: CenturionState, side: str, h: Hex) -> bool:
    """Does ``h`` hold only deserters of ``side`` (cen:full.treachery D)?"""
    st = state.stack_at(h)
    return bool(st) and all(x.side == side and x.treachery == "leaving" for x in st)


def fire_targets(state: CenturionState, u: Unit) -> list[Hex]:
    """Hexes ``u`` may fire at now: enemy-held (or its own side's deserters, cen:full.treachery D),
    to its front, in range and field of fire (cen:full.combat B, D)."""
    assert u.hex is not None
    enemy = state.opponent(u.side)
    units = state.units
    targets = [h for h, ids in state.stacks.items() if ids and units[ids[0]].side == enemy]  # occupied_by(enemy)
    if u.treachery != "leaving":
        targets.extend(deserter_hexes(state, u.side))  # cen:full.treachery D
    return fire.fire_targets_in_reach(
        u.hex, u.facing, fire_reach(state, u), on_hill(state, u.hex), targets, fire_blocked(state)
    )


_ADJACENT: dict[Hex, tuple[Hex, ...]] = {}
"""hex -> ``hex.neighbors()`` (geometry only, the same for every map; asked for every unit
at every melee allocation)."""


def adjacent(h: Hex) -> tuple[Hex, ...]:
    """The hexes next to ``h`` (``h.neighbors()``, kept in a table)."""
    got = _ADJACENT.get(h)
    if got is None:
        if len(_ADJACENT) > 100_000:
            _ADJACENT.clear()
        got = _ADJACENT[h] = h.neighbors()
    return got


def river_flank_problem(state: CenturionState, u: Unit, target: Hex) -> tuple[str, str] | None:
    """cen:full.cross-river: a unit that passed through hexes controlled by units behind a river
    may not attack those units' flanks this turn."""
    passed = book(state).river_passed.get(u.id)
    if not passed or u.hex is None:
        return None
    for e in state.stack_at(target):
        if e.id in passed and e.hex is not None and not is_frontal(e.hex, e.facing, u.hex):
            return (f"{u.id} passed through the river hexes {e.id} controls without stopping: it may not slip "
                    f"behind to attack its flank", "cen:full.cross-river")
    return None


def melee_targets(state: CenturionState, u: Unit) -> list[Hex]:
    """Hexes ``u`` may melee now: next to it and to its front (cen:full.combat A, M), enemy-held or
    holding its side's deserters (cen:full.treachery D); Command units only dispersed or Command
    units without the Command Unit Rules; no flank slipped past a river (cen:full.cross-river)."""
    assert u.hex is not None
    out = []
    for h in adjacent(u.hex):
        s = state.side_at(h)
        if s is None or not is_frontal(u.hex, u.facing, h):
            continue
        if s == u.side and (u.treachery == "leaving" or not is_deserter_hex(state, s, h)):
            continue  # own troops; only deserters still on the field may be attacked (cen:full.treachery D)
        if is_command(state, u) and not opt.active(state, "cen:opt.command"):
            # cen:full.combat: Command units melee only dispersed units and enemy Command units.
            if not all(x.dispersed or is_command(state, x) for x in state.stack_at(h)):
                continue
        if river_flank_problem(state, u, h) is not None:  # cen:full.cross-river
            continue
        out.append(h)
    return out


def stack_text(state: CenturionState, h: Hex) -> str:
    """The stack on ``h`` by unit type (``2xSD PK``), for a question's options."""
    kinds: dict[str, int] = {}
    for u in state.stack_at(h):
        kinds[u.type] = kinds.get(u.type, 0) + 1
    return " ".join(f"{n}x{k}" if n > 1 else k for k, n in kinds.items())


def fire_problem(state: CenturionState, u: Unit, target: Hex, defensive: bool = False) -> tuple[str, str] | None:
    """Why ``u`` may not fire at ``target`` (cen:full.combat B, D; cen:opt.weather)."""
    assert u.hex is not None
    t = unit_type(state, u)
    cap = capability(state, u)
    tk, uh = state.hid(target), state.hid(u.hex)
    if t.fire <= 0 or cap is None or not (cap.fire_defence if defensive else cap.fire_offence):
        return (f"{u.id} has no range weapon: only missile troops fire (Pikemen, Swordsmen, Barbarian "
                f"Infantry, Light Cavalry and Command units fight hand to hand only)", "cen:full.combat")
    w = book(state).weather
    if not fire.fire_allowed(t, w):
        return f"{u.id} may not fire in this weather ({w})", "cen:opt.weather"
    if u.panicked and not defensive:
        return f"{u.id} is panicked and may not attack (B)", "cen:full.panic"
    reach = fire_reach(state, u)
    d = u.hex.distance(target)
    hill = on_hill(state, u.hex)
    if d > reach:
        why = "one hex, two from a hilltop" + ("; fog stops fire beyond basic range" if w == "fog" else "")
        return (f"{tk} is {d} hexes from {u.id} at {uh}: out of range (its range here is {reach}: {why}; "
                f"cases B, D)", "cen:full.combat")
    if not in_front_arc(u.hex, u.facing, target):
        return (f"{tk} is outside the 120-degree arc of fire of {u.id} (it faces "
                f"{state.numbering.direction_name(u.facing)}; case B)", "cen:full.facing")
    if not hill and d > 1 and not fire.in_field_of_fire(u.hex, u.facing, target, reach, hill, fire_blocked(state)):
        return (f"units or obstacles stand between {u.id} and {tk}: missile units may not fire through them "
                f"except from a hilltop (case D)", "cen:full.combat")
    return None
