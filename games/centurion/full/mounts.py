"""Mounting and dismounting, and riderless mounts (cen:opt.mount-dismount).

A rider dismounts as its foot type, its mounts placed behind it (or in its own
hex); it mounts again in a full turn; the owner may destroy riderless mounts to
prevent their capture (one point lost).
"""

from __future__ import annotations

from ancients_kit.hexgrid import Hex
from ancients_kit.protocol import Context

from ancients_games.centurion.full.book import book
from ancients_games.centurion.full.movement_hooks import move_hooks
from ancients_games.centurion.model import UnitKind
from ancients_games.centurion.movement_rules import stack_room, step_ticks, terrain_open
from ancients_games.centurion.state import CenturionState, Unit


def withdraw(state: CenturionState, u: Unit) -> None:
    """Take a counter off the map without counting a loss (a mount remounted)."""
    state.take_off(u)
    state._zoc_cache.clear()


def dismountable(state: CenturionState, side: str) -> list[Unit]:
    """``side``'s riders that may dismount now: free of contact, dispersal and panic, with room
    for their mounts (cen:opt.mount-dismount A, E)."""
    out = []
    for u in state.live_units(side):
        c = state.capability.get(u.type)
        if c is not None and c.dismount_as and not u.contact and not u.dispersed and not u.panicked \
                and u.id not in book(state).dismounting and u.hex is not None and mount_spot(state, u) is not None:
            out.append(u)
    return out


def mountable(state: CenturionState, side: str) -> list[Unit]:
    """``side``'s dismounted riders next to their own (undispersed) mounts, which may mount again
    (cen:opt.mount-dismount B, E)."""
    mounts = state.extra.get("full_mounts", {})
    out = []
    for rid, (mid, _orig) in mounts.items():
        r, m = state.units.get(rid), state.units.get(mid)
        if r is None or m is None or not r.on_map or not m.on_map or r.side != side or r.contact or r.dispersed \
                or rid in book(state).dismounting:
            continue
        if m.dispersed:
            continue  # case B: a dispersed mount may not be mounted
        if r.hex is not None and m.hex is not None and r.hex.distance(m.hex) <= 1:
            out.append(r)
    return out


def mount_spot(state: CenturionState, u: Unit, mt: Unit | None = None) -> Hex | None:
    """Where ``u``'s riderless mounts would stand on dismounting: the hex directly behind it if it
    is on the map, not enemy-held, has stacking room and is open to mounts, else its own hex if
    that has room; ``None`` if neither has (cen:opt.mount-dismount A; mounts count for stacking,
    cen:full.stacking). "Riderless mounts are subject to all terrain restrictions" (G): never
    into earthworks (only unmounted units occupy them, cen:opt.earthworks), caltrops (cavalry may
    not enter them voluntarily, cen:opt.caltrops) or anything else closed to a mount's kind."""
    assert u.hex is not None
    if mt is None:
        mt = Unit(id=f"{u.id}-MT?", side=u.side, type="MT", hex=None, facing=u.facing, group=u.group,
                     original_side=u.original_side)
    hooks = move_hooks(state)
    behind = u.hex.neighbor((u.facing + 3) % 6)
    if behind in state.numbering and state.side_at(behind) in (None, u.side) and stack_room(state, mt, behind, hooks) \
            and step_ticks(state, mt, u.hex, behind, hooks) is not None:
        return behind
    if stack_room(state, mt, u.hex, hooks) and terrain_open(state, mt, u.hex, hooks):
        return u.hex
    return None


def dismount(ctx: Context, state: CenturionState, u: Unit, as_code: str) -> Unit:
    """cen:opt.mount-dismount A, D, E: the rider becomes ``as_code``; a riderless
    mount is placed directly behind (or in the same hex if behind is not free)."""
    assert u.hex is not None
    n = sum(1 for x in state.units if x.startswith(f"{u.id}-MT"))
    mt = Unit(id=f"{u.id}-MT{n + 1}", side=u.side, type="MT", hex=None, facing=u.facing, group=u.group,
                 original_side=u.original_side)
    where = mount_spot(state, u, mt)
    if where is None:
        raise ValueError(f"{u.id} at {state.hid(u.hex)} may not dismount: neither the hex behind it nor its own "
                         f"has room for its mounts (cen:full.stacking, cen:opt.mount-dismount)")
    orig = u.type
    u.type = as_code
    u.dismounted = True
    state.rev += 1
    book(state).dismounting.add(u.id)
    state.place(mt, where)
    state.extra.setdefault("full_mounts", {})[u.id] = (mt.id, orig)
    ctx.event("formation", f"{u.id} dismounts as {as_code}; its mounts stand at {state.hid(where)}",
              rules=("cen:opt.mount-dismount",), side=u.side)
    return mt


def own_mounts(state: CenturionState, side: str) -> list[Unit]:
    """Riderless mounts of ``side`` on the map (cen:opt.mount-dismount H)."""
    return [u for u in state.live_units(side) if state.types[u.type].kind is UnitKind.MOUNT]


MOUNT_LOSS_POINTS = 1
"""Destroyed or captured mounts are a one-point loss (cen:opt.mount-dismount F)."""


def destroy_mounts(ctx: Context, state: CenturionState, mt: Unit) -> None:
    """cen:opt.mount-dismount H: the owner destroys its riderless mounts to prevent their
    capture; like any destroyed mounts they are a one-point loss (F). Their rider can
    never mount again (B: only mounts that exist may be mounted)."""
    if state.types[mt.type].kind is not UnitKind.MOUNT or not mt.on_map:
        raise ValueError(f"{mt.id} is not a riderless mount on the map (cen:opt.mount-dismount H)")
    at = state.hid(mt.hex)
    state.remove(mt)
    state.lost_points[mt.side] = state.lost_points.get(mt.side, 0) + MOUNT_LOSS_POINTS
    ctx.event("loss", f"{mt.id} at {at} destroyed by its own side to prevent capture ({MOUNT_LOSS_POINTS} point lost)",
              rules=("cen:opt.mount-dismount",), side=mt.side, unit=mt.id)


def mount(ctx: Context, state: CenturionState, u: Unit) -> None:
    """cen:opt.mount-dismount E: the rider takes its mounts back (one full turn)."""
    mounts = state.extra.get("full_mounts", {})
    mid, orig = mounts.pop(u.id)
    withdraw(state, state.units[mid])
    u.type = orig
    u.dismounted = False
    state.rev += 1
    book(state).dismounting.add(u.id)
    ctx.event("formation", f"{u.id} mounts again", rules=("cen:opt.mount-dismount",), side=u.side)
