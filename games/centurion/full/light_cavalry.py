"""Light Cavalry retreats before combat and is never surrounded (cen:full.cavalry,
cen:full.combat, 2nd paragraph).
"""

from __future__ import annotations

from collections.abc import Generator

from ancients_kit.hexgrid import direction_to
from ancients_kit.protocol import Context, Decision, Option

from ancients_games.centurion.full.book import log_event
from ancients_games.centurion.full.combat import Attack
from ancients_games.centurion.full.movement_hooks import move_hooks, movement_allowance
from ancients_games.centurion.full.units import capability
from ancients_games.centurion.movement_rules import cost_table, stack_room, step_ticks, terrain_open
from ancients_games.centurion.state import CenturionState, Unit
from ancients_games.centurion.vocab import Kind


def light_cavalry_retreat(ctx: Context, state: CenturionState, side: str, a: Attack) -> Generator[Decision, str, None]:
    """Light Cavalry may retreat before combat, up to four hexes (combat, 2nd paragraph)."""
    defender = state.opponent(side)
    lcs = [x for x in state.stack_at(a.target)
           if capability(state, x) is not None and capability(state, x).retreat_before_combat
           and not x.dispersed and not x.contact]
    if not lcs:
        return
    key = yield Decision(defender, f"Light Cavalry at {state.hid(a.target)} is attacked: retreat before combat?",
                         (Option("stand", "receive the attack"), Option("retreat", "retreat up to four hexes")),
                         rule="cen:full.cavalry", kind=Kind.RETREAT)
    if key != "retreat":
        return
    attackers = {state.units[i].hex for i in a.units if state.units[i].hex is not None}
    hooks = move_hooks(state)
    for u in lcs:
        n = capability(state, u).retreat_before_combat
        h = u.hex
        assert h is not None
        # The retreat is a move (cen:full.movement F names it the one movement after combat), so it
        # obeys terrain: each step must be open to cavalry (no earthworks, no caltrops, no square,
        # cen:opt.earthworks, cen:opt.caltrops, cen:full.square H) and the steps' costs (river
        # hexsides, woods, leaving caltrops) stay within the unit's Movement Factor Allowance.
        budget = movement_allowance(state, u) * cost_table(state).scale
        path, spent = [h], 0
        for _ in range(n):
            best = None
            for nb in state.neighbors(path[-1]):
                if state.side_at(nb) not in (None, defender) or nb in path:
                    continue
                if not stack_room(state, u, nb):
                    continue
                c = step_ticks(state, u, path[-1], nb, hooks)
                if c is None or spent + c > budget:
                    continue
                d = min(nb.distance(x) for x in attackers) if attackers else 0
                k = (-d, state.hid(nb))
                if best is None or k < best[0]:
                    best = (k, nb, c)
            if best is None:
                break
            path.append(best[1])
            spent += best[2]
        if len(path) > 1:
            state.move(u, path[-1])
            u.facing = direction_to(path[-1], min(attackers, key=lambda x: (x.distance(path[-1]), x))) \
                if attackers and min(x.distance(path[-1]) for x in attackers) == 1 else u.facing
            log_event(ctx, state, "move", f"{u.id} retreats before combat {state.hid(h)} -> {state.hid(path[-1])}",
                 ("cen:full.cavalry", "cen:full.combat"), side=defender)


def _is_light_cavalry(state: CenturionState, u: Unit) -> bool:
    cap = capability(state, u)
    return cap is not None and cap.retreat_before_combat > 0 and not u.dismounted


def is_surrounded(state: CenturionState, u: Unit) -> bool:
    """Every hex next to ``u`` holds enemy units or is off the map (our reading of
    "surrounded", L: no zones of control in the Full Simulation, so only occupied hexes close a ring)."""
    assert u.hex is not None
    enemy = state.opponent(u.side)
    for n in u.hex.neighbors():
        if n in state.numbering and state.side_at(n) != enemy:
            return False
    return True


def push_out_light_cavalry(ctx: Context, state: CenturionState) -> list[Unit]:
    """cen:full.cavalry: "Light Cavalry ... may never be surrounded, but must be pushed out
    of any encirclement" (also cen:full.combat, 2nd paragraph).

    A Light Cavalry unit whose six neighbours are all enemy-held (or off the map)
    is placed on the nearest hex outside the ring: free of enemy units, with
    stacking room, open to cavalry (never earthworks, caltrops or a square:
    cen:opt.earthworks, cen:opt.caltrops, cen:full.square H; ``terrain_open``) and
    not itself surrounded (ties broken by hex ID). Its facing is kept; contact is
    broken. If the whole map offers no such hex it stays (never seen in play).
    Returns the units pushed.
    """
    hooks = move_hooks(state)

    pushed = []
    for u in sorted(state.live_units(), key=lambda x: x.id):
        if u.hex is None or not _is_light_cavalry(state, u) or not is_surrounded(state, u):
            continue
        enemy = state.opponent(u.side)
        frm = u.hex
        best = None
        for h in state.numbering.hexes():
            if h == frm or state.side_at(h) == enemy or not stack_room(state, u, h) \
                    or not terrain_open(state, u, h, hooks):
                continue
            if all(n not in state.numbering or state.side_at(n) == enemy for n in h.neighbors()):
                continue
            k = (h.distance(frm), state.hid(h))
            if best is None or k < best[0]:
                best = (k, h)
        if best is None:
            log_event(ctx, state, "combat", f"{u.id} at {state.hid(frm)} is surrounded and there is no hex to push it to",
                 ("cen:full.cavalry",), side=u.side)
            continue
        for o in state.units.values():
            o.contact.discard(u.id)
        u.contact.clear()
        state.move(u, best[1])
        pushed.append(u)
        log_event(ctx, state, "move", f"{u.id} is surrounded at {state.hid(frm)} and is pushed out of the encirclement "
                                 f"to {state.hid(best[1])} (Light Cavalry may never be surrounded)",
             ("cen:full.cavalry", "cen:full.combat"), side=u.side, unit=u.id)
    return pushed
