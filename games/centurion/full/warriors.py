"""Barbarian warriors advance and attack (cen:barb.warrior).

Barbarians within seven hexes of the foe (after first blood, all of them) that
the player left standing advance on their own after the Movement Phase; at the
end of Attack Allocation every one that fronts on the foe joins a melee on it.
Where they may end a move is :mod:`movement_hooks`' (``warrior_destination_check``).
"""

from __future__ import annotations

from ancients_kit.hexgrid import direction_to
from ancients_kit.protocol import Context

from ancients_games.centurion.full import melee as melee_mod
from ancients_games.centurion.full.combat import Attack
from ancients_games.centurion.full.movement_hooks import move_hooks, warrior_bound
from ancients_games.centurion.full.options import active, active_for, is_barbarian
from ancients_games.centurion.full.units import melee_factor, melee_targets
from ancients_games.centurion.movement import movable_reason
from ancients_games.centurion.reach import reachable
from ancients_games.centurion.state import CenturionState


def after_movement(ctx: Context, state: CenturionState, side: str) -> None:
    """cen:barb.warrior: barbarian troops within seven hexes of the foe that the player
    left standing advance to the attack on their own, as far toward the nearest enemy
    as they can, facing it. Beyond seven hexes they manoeuvre freely until first blood;
    after it all must advance and attack if able (:func:`warrior_bound`; the attack
    itself is :func:`barbarian_must_attack`'s)."""
    if not is_barbarian(state, side) or not active_for(state, "cen:barb.warrior", side):
        return
    hooks = move_hooks(state)
    enemy = [u.hex for u in state.live_units(state.opponent(side)) if u.hex is not None]
    if not enemy:
        return
    start = state.extra.get("full_move_start_hex", {})
    for u in list(state.live_units(side)):
        if u.type not in ("BI", "BHC") or u.hex is None:
            continue
        # Left standing = still on its start hex, whether the player answered "stay", only turned, or
        # never picked it (a "stay" answer marks the unit moved, yet it has not advanced).
        if start.get(u.id, u.hex if not u.moved else None) != u.hex:
            continue
        near = min(u.hex.distance(e) for e in enemy)
        if not warrior_bound(state, near) or near <= 1:
            continue
        was_moved, u.moved = u.moved, False  # "stay" spent the move without moving: it advances now
        why = movable_reason(state, u, hooks)
        if why is not None:
            u.moved = was_moved
            continue
        reach = reachable(state, u, hooks)
        if not reach.cost:
            u.moved = was_moved
            continue
        best = min(reach.cost, key=lambda h: (min(h.distance(e) for e in enemy), reach.cost[h], state.hid(h)))
        if min(best.distance(e) for e in enemy) >= near:
            u.moved = was_moved
            continue
        goal = min(enemy, key=lambda e: (best.distance(e), e))
        facings = reach.facings.get(best, {})
        want = min(range(6), key=lambda g: (best.neighbor(g).distance(goal), g))
        face = want if want in facings else min(facings, key=lambda g: (facings[g], g)) if facings else u.facing
        frm = u.hex
        state.move(u, best)
        u.facing = face
        u.moved = True
        if best.distance(goal) == 1:
            try:
                d = direction_to(best, goal)
                if d in facings:
                    u.facing = d
            except ValueError:
                pass
        ctx.event("move", f"{u.id} must advance to the attack: {state.hid(frm)} -> {state.hid(best)}",
                  rules=("cen:barb.warrior", "cen:full.movement"), side=side, unit=u.id, private_to=side,
                  public_text=f"a {side} unit must advance to the attack: {state.hid(frm)} -> {state.hid(best)}")


def barbarian_must_attack(ctx: Context, state: CenturionState, side: str, attacks: list[Attack]) -> None:
    """cen:barb.warrior: barbarian troops close enough to attack MUST attack.

    Every barbarian unit not yet allocated that fronts on an enemy hex joins a
    melee attack on it (an existing one if it may, else a new one). The advance
    within seven hexes is :func:`after_movement`'s.
    """
    if not is_barbarian(state, side) or not active_for(state, "cen:barb.warrior", side):
        return
    used = {uid for a in attacks for uid in a.units}
    li = active(state, "cen:rom.legion-integrity")
    for u in list(state.live_units(side)):
        if u.id in used or u.hex is None or u.type not in ("BI", "BHC") or melee_factor(state, u) is None:
            continue
        tg = [h for h in melee_targets(state, u) if state.side_at(h) != side]  # the foe, not deserters
        if not tg:
            continue
        h = tg[0]
        joined = False
        for a in attacks:
            if a.target == h and a.mode == "melee":
                same = [state.units[i] for i in a.units if state.units[i].hex == u.hex]
                if not same or melee_mod.homogeneity_problem(
                        [state.types[x.type] for x in [*same, u]], [x.group for x in [*same, u]], li) is None:
                    a.units.append(u.id)
                    joined = True
                    break
        if not joined:
            attacks.append(Attack(h, "melee", [u.id]))
        used.add(u.id)
        ctx.event("combat", f"{u.id} must attack {state.hid(h)} (barbarian warriors)", rules=("cen:barb.warrior",),
                  side=side)
