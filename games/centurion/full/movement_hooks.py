"""The Full Simulation's hooks into the engine's movement (cen:full.movement, cen:full.stacking).

:func:`move_hooks` hands the engine's Movement Phase what the Full Simulation adds:
squares met, joined and left (cen:full.square D-F, H, K), rivers controlled from
behind (cen:full.cross-river), caltrops closed to cavalry (cen:opt.caltrops), the
order of commands (cen:opt.command H), tribes and legions stacked (cen:barb.tribe,
cen:rom.millenarian), barbarians bound to advance (cen:barb.warrior) and the
charge a cavalry move ends in (cen:full.cavalry).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ancients_kit.hexgrid import Hex
from ancients_kit.protocol import Context

from ancients_games.centurion.full import cavalry, options as opt, square
from ancients_games.centurion.full.book import book
from ancients_games.centurion.full.options import active_for, is_barbarian
from ancients_games.centurion.full.square import (
    is_square_swordsman, moves_one_hex, square_join_cost, square_join_problem, square_moves_whole,
)
from ancients_games.centurion.full.units import capability, is_command, terrain_of
from ancients_games.centurion.movement import LAST_REACH, MOVING_GROUP
from ancients_games.centurion.movement_rules import MoveHooks, cost_table, stack_limit
from ancients_games.centurion.reach import reachable
from ancients_games.centurion.state import CenturionState, Unit

__all__ = ["WARRIOR_RANGE", "move_hooks", "movement_allowance", "warrior_bound", "warrior_destination_check",
           "warrior_destination_problem"]


WARRIOR_RANGE = 7
"""Barbarians within this many hexes of the foe must advance to the attack (cen:barb.warrior)."""


def warrior_destination_problem(state: CenturionState, unit: Unit, h: Hex) -> tuple[str, str] | None:
    """MoveHooks.refuse_destination (cen:barb.warrior): barbarian troops within seven hexes of the
    foe "must advance to the attack", so they may not end a move farther from the nearest enemy
    than they started."""
    check = warrior_destination_check(state, unit)
    return None if check is None else check(h)


def warrior_destination_check(state: CenturionState, unit: Unit) -> Callable[[Hex], tuple[str, str] | None] | None:
    """MoveHooks.destination_check: :func:`warrior_destination_problem` for ``unit``, its
    hexes from the foe worked out once for every destination; None when cen:barb.warrior
    leaves the unit free to end anywhere."""
    if unit.type not in ("BI", "BHC") or unit.hex is None or not is_barbarian(state, unit.side) \
            or not active_for(state, "cen:barb.warrior", unit.side):
        return None
    enemy = [u.hex for u in state.live_units(state.opponent(unit.side)) if u.hex is not None]
    if not enemy:
        return None
    near = min(unit.hex.distance(e) for e in enemy)
    if not warrior_bound(state, near):
        return None
    return lambda h: _warrior_farther(state, unit, h, enemy, near)


def _warrior_farther(state: CenturionState, unit: Unit, h: Hex, enemy: list[Hex], near: int) -> tuple[str, str] | None:
    there = min(h.distance(e) for e in enemy)
    if there > near:
        why = ("blood has been drawn, so every barbarian must attack" if book(state).first_blood
               else f"{unit.id} is within {WARRIOR_RANGE} hexes of the foe")
        return (f"{why} and must advance to the attack: "
                f"{state.hid(h)} is {there} hexes from the nearest enemy, farther than its {near}",
                "cen:barb.warrior")
    return None


def warrior_bound(state: CenturionState, near: int) -> bool:
    """cen:barb.warrior: is a barbarian ``near`` hexes from the nearest foe bound to advance?
    Within seven hexes always; beyond them only once "the first blood has been drawn; i.e.,
    the first combat, whatever the outcome. At that point all barbarian troops must attack
    if they are physically able" (``FullBook.first_blood``, set by every fire and melee)."""
    return near <= WARRIOR_RANGE or book(state).first_blood


_destination_check = warrior_destination_check
"""The Full Simulation's MoveHooks.destination_check (cen:barb.warrior; None in the benchmark's
reference code, which filters destinations with ``refuse_destination`` hex by hex)."""


def move_hooks(state: CenturionState) -> MoveHooks:
    """The Full Simulation's hooks into the engine's movement (cached on the state)."""
    h = state.extra.get("full_hooks")
    if h is None:
        h = MoveHooks(
            stop_hexes=_stop_hexes,
            blocked=_blocked,
            mfa=movement_allowance,
            movable=_movable,
            stack_limit=_stack_limit,
            after_move=_after_move,
            extra_cost=_extra_cost,
            refuse_destination=warrior_destination_problem,
            destination_check=_destination_check,
            moves_with=square_moves_whole,
        )
        state.extra["full_hooks"] = h
    return h


@attrs.define
class _Facts:
    """What the movement hooks need of one side's position, worked out once per
    (``state.rev``, Player-Turn, formation bookkeeping, the two rule options it
    reads) and kept on the state:
    the hooks run at every search (several times per unit and phase), the
    stacking limit at every occupied hex a search reaches. Everything that
    changes their answers bumps ``state.rev`` (moves, removals, formations,
    joins, works, retyping) or the Player-Turn."""

    squares: dict[Hex, list[str]]
    """Hex -> the side's units in square there (cen:full.square)."""
    counting: dict[Hex, int]
    """Square hex -> the side's units there that count for stacking."""
    caltrops: frozenset[Hex]
    """Hexes with caltrops (closed to cavalry, cen:opt.caltrops)."""
    tribe_bi: dict[str, frozenset[Hex]]
    """cen:barb.tribe in force: tribe -> hexes holding its Barbarian Infantry."""
    millenarian: bool
    """cen:rom.millenarian in force."""
    joinable: dict[str, frozenset[Hex]] = attrs.field(factory=dict)
    blocked: dict[str, frozenset[Hex]] = attrs.field(factory=dict)
    stops: dict[str, frozenset[Hex]] = attrs.field(factory=dict)
    extra: dict[str, dict[Hex, int]] = attrs.field(factory=dict)


def _facts(state: CenturionState, side: str) -> _Facts:
    b = book(state)
    o = state.options
    key = (state.rev, state.player_turn, len(b.square_joined), len(b.left_square), len(b.square_disbanded),
           len(b.squares_formed), o.get("barbarian_tribe"), o.get("millenarian"))
    slot = ("full_facts", side)
    got = state.extra.get(slot)
    if got is not None and got[0] == key:
        return got[1]
    squares: dict[Hex, list[str]] = {}
    bi: dict[str, set[Hex]] = {}
    tribe = opt.active(state, "cen:barb.tribe")
    types = state.types
    for u in state.live_units(side):
        if u.hex is None:
            continue
        if u.in_square:
            squares.setdefault(u.hex, []).append(u.id)
        if tribe and u.group and not is_command(state, u) and types[u.type].code == "BI":
            bi.setdefault(u.group, set()).add(u.hex)
    counting = {
        h: sum(1 for x in state.stack_at(h) if x.side == side and types[x.type].counts_for_stacking) for h in squares
    }
    caltrops = frozenset(h for h, mks in state.markers.items() if "caltrops" in mks)
    f = _Facts(squares, counting, caltrops, {g: frozenset(v) for g, v in bi.items()},
               opt.active(state, "cen:rom.millenarian"))
    state.extra[slot] = (key, f)
    return f


def _stop_hexes(state: CenturionState, unit: Unit) -> frozenset[Hex]:
    """Hexes the unit must stop on entering: the squares it may join (entered, never
    passed, cen:full.square H); for Swordsmen in square, or out of a square disbanded this
    turn, every hex next to them: they move one hex (cen:full.square D, K; see square.moves_one_hex)."""
    f = _facts(state, unit.side)
    got = f.stops.get(unit.id)
    if got is None:
        # River-controlled hexes are not stop hexes: a unit not meaning to attack the controller's
        # flank "may pass through if they wish" (cen:full.cross-river); one that passes may not
        # then attack that flank (_after_move records it, river_flank_problem refuses it).
        stops = set(_joinable_squares(state, unit))
        if moves_one_hex(state, unit) and unit.hex is not None:
            stops.update(unit.hex.neighbors())
        got = f.stops[unit.id] = frozenset(stops)
    return got


def _river_controlled(state: CenturionState, side: str) -> frozenset[Hex]:
    """cen:full.cross-river: units directly behind a river control the hexes to their front;
    enemies must stop on entering one."""
    key = ("river_ctl", side, state.player_turn)
    got = state.extra.get(key)
    if got is not None:
        return got
    out: set[Hex] = set()
    for e in state.live_units(state.opponent(side)):
        if e.hex is None or is_command(state, e):
            continue
        for d in (e.facing - 1, e.facing, e.facing + 1):
            n = e.hex.neighbor(d % 6)
            feats = state.map.hexside_features(e.hex, n)
            if any(
                f in feats and state.terrain_chart.get(f) is not None and state.terrain_chart[f].controls_front
                for f in ("river", "ford")
            ):
                out.add(n)
    fz = frozenset(out)
    state.extra[key] = fz
    return fz


def _river_controllers(state: CenturionState, side: str, h: Hex) -> list[Unit]:
    """The enemy (of ``side``) units directly behind a river whose front controls ``h``
    (cen:full.cross-river)."""
    out = []
    for n in h.neighbors():
        for e in state.stack_at(n):
            if e.side == side or is_command(state, e) or e.hex is None:
                continue
            if e.hex.neighbor(e.facing % 6) != h and e.hex.neighbor((e.facing - 1) % 6) != h \
                    and e.hex.neighbor((e.facing + 1) % 6) != h:
                continue
            feats = state.map.hexside_features(e.hex, h)
            if any(f in feats and state.terrain_chart.get(f) is not None and state.terrain_chart[f].controls_front
                   for f in ("river", "ford")):
                out.append(e)
    return out


def _blocked(state: CenturionState, unit: Unit) -> frozenset[Hex]:
    """Hexes a unit may not enter or pass: squares it may not join (cen:full.square
    E, F, H; those it may join are stop hexes) and, for cavalry, caltrops
    (cen:opt.caltrops)."""
    f = _facts(state, unit.side)
    got = f.blocked.get(unit.id)
    if got is not None:
        return got
    out = {h for h, ids in f.squares.items() if any(i != unit.id for i in ids)}
    out -= _joinable_squares(state, unit)
    if state.types[unit.type].mounted:
        out |= f.caltrops
    if f.tribe_bi and unit.group and not is_command(state, unit):
        for g, hexes in f.tribe_bi.items():
            if g != unit.group:
                out |= hexes  # cen:barb.tribe: tribes do not stack together
    got = f.blocked[unit.id] = frozenset(out)
    return got


def _joinable_squares(state: CenturionState, unit: Unit) -> frozenset[Hex]:
    """Hexes of its side's squares ``unit`` may join this phase (cen:full.square E, F)."""
    f = _facts(state, unit.side)
    got = f.joinable.get(unit.id)
    if got is None:
        got = f.joinable[unit.id] = frozenset(
            h for h in f.squares if h != unit.hex and square_join_problem(state, unit, h) is None
        )
    return got


def _extra_cost(state: CenturionState, unit: Unit) -> dict[Hex, int]:
    """MoveHooks.extra_cost: the penalty for entering a square (cen:full.square E, F).

    Ruling: the book's "cost of three Movement Factors to enter" (E) and "two
    Movement Factors to move into" (F, "movement penalties") are read as a
    penalty on top of the hex's terrain cost, not as its replacement."""
    f = _facts(state, unit.side)
    got = f.extra.get(unit.id)
    if got is None:
        joinable = _joinable_squares(state, unit)
        c = square_join_cost(state, unit)
        got = f.extra[unit.id] = {h: c for h in joinable}
    return got


def movement_allowance(state: CenturionState, unit: Unit) -> int:
    """Effective MFA: Swordsmen in square 1 (cen:full.square D), 1 after disbanding (K),
    two less for another unit moving out of a square or out of it already (F),
    heavy rain/mud -2 (cen:opt.weather), half while mounting/dismounting
    (cen:opt.mount-dismount E)."""
    b = book(state)
    m = state.types[unit.type].movement
    sd = is_square_swordsman(state, unit)
    # Swordsmen in square, or just disbanded, move one hex (D, K): moves_one_hex stops them on the
    # first hex entered, whatever it costs within their own allowance.
    if unit.id in b.dismounting:
        m = m // 2
    if unit.id in b.left_square or (unit.in_square and not sd):
        m = max(0, m - square.SQUARE_OTHER_COST)
    if b.weather in ("heavy-rain", "mud"):
        m = max(0, m - 2)
    return m


def _movable(state: CenturionState, unit: Unit) -> tuple[str, str] | None:
    b = book(state)
    if unit.panicked:
        return f"{unit.id} is panicked and runs for the edge", "cen:full.panic"
    if unit.treachery == "leaving":
        return f"{unit.id} is leaving the field", "cen:full.treachery"
    if unit.id in b.squares_formed:
        return f"{unit.id} formed square in place this turn and may not move", "cen:full.square"
    if unit.building:
        return f"{unit.id} is building works and may not move", "cen:opt.earthworks"
    return _command_order(state, unit)


def _precedence(state: CenturionState, side: str) -> list[str]:
    """Movement order of commands (cen:opt.command H): the Supreme Command Unit's
    (with the Skirmishers and Light Cavalry and every unit of no command), then the
    subordinate commands by their keys (I, II, III)."""
    groups = sorted({u.group for u in state.live_units(side)
                     if is_command(state, u) and not u.supreme and u.group})
    return ["", *groups]


def _order_key(state: CenturionState, u: Unit, groups: list[str]) -> int:
    if u.type in ("SK", "LC", "LI", "AR", "SL") or is_command(state, u) and u.supreme:
        return 0
    return groups.index(u.group) if u.group in groups else 0


def _command_order(state: CenturionState, unit: Unit) -> tuple[str, str] | None:
    """cen:opt.command H: a later command moves only when the earlier ones have moved."""
    if not opt.active(state, "cen:opt.command"):
        return None
    groups = _precedence(state, unit.side)
    if len(groups) < 2:
        return None
    mine = _order_key(state, unit, groups)
    if mine == 0:
        return None
    b = book(state)
    for u in state.live_units(unit.side):
        if u.moved or u.dispersed or u.contact or u.panicked or u.treachery or u.building \
                or u.id in b.squares_formed:
            continue
        k = _order_key(state, u, groups)
        if k < mine:
            return (f"{unit.id} (command {unit.group}) moves after command {groups[k] or 'of the Supreme Command Unit'}"
                    f": {u.id} has not moved yet (move it or let it stay)", "cen:opt.command")
    return None


def _stack_limit(state: CenturionState, unit: Unit, h: Hex) -> int:
    if unit.in_square and unit.hex != h:
        # cen:full.square D: a square moves whole, into a hex free of its side's units (our reading:
        # units join a square only as E and F say, one at a time, paying for it); the whole square
        # fits there (four Swordsmen, B, and one other unit, F).
        if not any(x.side == unit.side for x in state.stack_at(h)):
            return square.MAX_SQUARE_SWORDSMEN + 1
        if is_square_swordsman(state, unit):
            return 0
    if h not in state.stacks:
        return stack_limit(state, unit, h)  # an empty hex: no square, no legion stack to extend
    f = _facts(state, unit.side)
    if h in f.squares:
        if unit.hex != h:
            # cen:full.square B, E, F: a square takes a unit only when it may join
            # (square_join_problem); then exactly that one unit more
            return f.counting[h] + 1 if h in _joinable_squares(state, unit) else 0
        return 0 if state.types[unit.type].code not in ("SD", "SD-I", "SD-III") else square.MAX_SQUARE_SWORDSMEN
    lim = stack_limit(state, unit, h)
    if f.millenarian and unit.group:
        here = state.stack_at(h)
        legion_stack = [u for u in here
                        if u.group == unit.group and (capability(state, u) and capability(state, u).form_square)]
        if len(legion_stack) >= 3 and not any(
            len([x for x in state.stack_at(o.hex) if x.group == unit.group]) >= 4
            for o in state.live_units(unit.side) if o.hex is not None and o.hex != h and o.group == unit.group
        ):
            lim = max(lim, 4)  # cen:rom.millenarian: one stack of four per legion
    return lim


def _after_move(ctx: Context, state: CenturionState, unit: Unit, path: list[Hex]) -> None:
    """Leave a square moved out of, join a square entered (cen:full.square E, F);
    record a charge (cen:full.cavalry): the straight run at the end of the path,
    broken by units in the way and by terrain closed to charges."""
    dest = path[-1]
    moving = state.extra.get(MOVING_GROUP, frozenset())
    with_square = any(is_square_swordsman(state, state.units[i]) and state.units[i].in_square for i in moving
                      if i != unit.id and i in state.units)
    if unit.in_square and dest != path[0] and not is_square_swordsman(state, unit) and not with_square:
        # F: "likewise to move out" -- the two Movement Factors came off its allowance (movement_allowance)
        unit.in_square = False
        book(state).left_square.add(unit.id)
        state.rev += 1
        ctx.event("formation", f"{unit.id} leaves the square at {state.hid(path[0])} "
                  f"({square.SQUARE_OTHER_COST} Movement Factors of its move)",
                  rules=("cen:full.square",), side=unit.side, unit=unit.id)
    elif len(path) > 1 and not unit.in_square and any(
        u.in_square for u in state.stack_at(dest) if u.side == unit.side and u.id != unit.id
    ):
        unit.in_square = True
        hk = state.hid(dest)
        if is_square_swordsman(state, unit):
            book(state).square_joined.add(hk)
        state.rev += 1  # the movement hooks' caches key on it
        ctx.event("formation", f"{unit.id} joins the square at {hk} "
                  f"({square_join_cost(state, unit)} Movement Factors of its move)",
                  rules=("cen:full.square",), side=unit.side, unit=unit.id)
    if len(path) > 2 and _river_controlled(state, unit.side).intersection(path[1:-1]):
        passed = {e.id for h in path[1:-1] for e in _river_controllers(state, unit.side, h)}
        if passed:
            book(state).river_passed.setdefault(unit.id, set()).update(passed)
    t = state.types[unit.type]
    if t.charge_length <= 0 or unit.dismounted:
        return

    def blocked(h: Hex) -> bool:
        if state.side_at(h) is not None and h != path[-1]:
            return True
        ter = terrain_of(state, h)
        if ter is not None and not ter.charge_through:
            return True
        return any(
            not state.terrain_chart[m].charge_through for m in state.markers.get(h, ()) if m in state.terrain_chart
        )

    n = cavalry.charge_length_of_path(path, unit.facing, blocked)
    start = path[-1 - n]
    if 0 < len(path) - 1 and n < t.charge_length:
        k, first = _straight_charge_possible(state, unit, path, blocked)
        if k > n:
            n, start = k, first
    b = book(state)
    if n > 0:
        # "Cavalry charging from different locations MAY NOT end their charges on the same hex"
        # (cen:full.cavalry): a run ending where another unit's charge from elsewhere ended is no charge.
        clash = [o for o in state.stack_at(dest) if o.id != unit.id and o.side == unit.side
                 and o.charged_this_turn and b.charge_start.get(o.id, start) != start]
        if clash:
            ctx.event("move", f"{unit.id} ends at {state.hid(dest)}, where {clash[0].id}'s charge from "
                      f"{state.hid(b.charge_start[clash[0].id])} ended: cavalry charging from different "
                      f"locations may not end their charges on the same hex, so its move is no charge",
                      rules=("cen:full.cavalry",), side=unit.side, unit=unit.id)
            n = 0
    unit.charge_length = n
    unit.charged_this_turn = n > 0
    if n > 0:
        b.charge_start[unit.id] = start


def _straight_charge_possible(state: CenturionState, unit: Unit, path: list[Hex], blocked: Any) -> tuple[int, Hex]:
    """The longest straight charge (up to the unit's need) that could have ended this move,
    and the hex it starts from.

    The engine moves a unit along a cheapest path to its destination and final
    facing, the one ending in the longest straight run among equally cheap
    ones; a longer run may still cost more. cen:full.cavalry lets cavalry "ride away ... to gain room for a proper charge",
    so the charge counts the longest straight run, in the final facing, that the
    unit could have made within its allowance to the same hex: reachable at the
    run's first hex already facing that way, then the run's hexes (free of units and
    open to charges) at their plain entry and hexside costs (roads not counted).
    """
    start, dest = path[0], path[-1]
    face0 = state.extra.get("full_move_start", {}).get(unit.id)
    if face0 is None or start == dest:
        return 0, dest
    f = unit.facing
    back = (f + 3) % 6
    run = [dest]
    for _ in range(state.types[unit.type].charge_length):
        run.append(run[-1].neighbor(back))
    if any(h not in state.numbering for h in run):
        run = run[: next(i for i, h in enumerate(run) if h not in state.numbering)]
    if len(run) < 2:
        return 0, dest
    hooks = move_hooks(state)
    got = state.extra.get(LAST_REACH)
    if got is not None and got[0] == unit.id and got[1] + 1 == state.rev and got[2] == face0 \
            and got[3].start == start and not unit.in_square:
        reach = got[3]  # the Movement Phase's own search, made just before this move (and nothing since)
    else:
        face_now = unit.facing
        state.move(unit, start)
        unit.facing = face0
        try:
            reach = reachable(state, unit, hooks)
        finally:
            state.move(unit, dest)
            unit.facing = face_now
    ct = cost_table(state)
    kind = str(state.types[unit.type].kind)
    budget = (hooks.mfa(state, unit) if hooks.mfa is not None else state.types[unit.type].movement) * ct.scale
    closed = set(hooks.blocked(state, unit)) if hooks.blocked is not None else set()
    closed |= set(hooks.stop_hexes(state, unit)) if hooks.stop_hexes is not None else set()
    best = (0, dest)
    for k in range(1, len(run)):
        first = run[k]
        if k > 1 and (blocked(run[k - 1]) or run[k - 1] in closed):
            break  # a charge may not pass through units, closed terrain, squares or river-controlled hexes
        at = reach.facings.get(first, {}).get(f) if first != start or face0 != f else 0
        if at is None:
            continue
        cost = at
        ok = True
        for a, b in zip(run[k:0:-1], run[k - 1::-1]):
            e = ct.entry[kind].get(b)
            x = ct.crossing[kind].get((a, b), 0)
            if e is None or x is None:
                ok = False
                break
            cost += e + x + ct.exit_marker.get(a, 0)
        if ok and cost <= budget:
            best = (k, first)
    return best
