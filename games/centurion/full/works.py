"""Earthworks and caltrops: building, attack on the builders, capture and razing
(cen:opt.earthworks, cen:opt.caltrops).

Builders work three turns uninterrupted by combat; attacked, they lose that
turn's work; earthworks whose defenders are destroyed are captured (two points),
and a side may raze the earthworks it occupies after its Movement Phase.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable

from ancients_kit.hexgrid import Hex
from ancients_kit.protocol import Context, Decision, Option

from ancients_games.centurion.full.book import log_event, units_text
from ancients_games.centurion.full.options import active_for
from ancients_games.centurion.state import CenturionState, Unit
from ancients_games.centurion.vocab import Kind


WORKS_ATTACKED = "full_works_attacked"
"""``state.extra`` key: hexes whose builders were attacked since their last turn of work."""


def works_attacked(state: CenturionState, defenders: Iterable[Unit]) -> None:
    """cen:opt.earthworks: builders work "three turns uninterrupted by combat"; attacked, they
    defend at half and, if they survive, "continue working where they left off": the hex is
    noted, and the builders' next turn does not count towards the three (options._progress_works)."""
    for u in defenders:
        if u.building and u.hex is not None:
            state.extra.setdefault(WORKS_ATTACKED, set()).add(u.hex)


WORKS_CAPTURE_POINTS = 2
"""Points the defenders of captured earthworks lose, and a recapture regains (cen:opt.earthworks)."""


def works_captured(ctx: Context, state: CenturionState, h: Hex, loser: str) -> None:
    """cen:opt.earthworks: the defenders of earthworks are destroyed, so the enemy captures
    them: the defenders lose two additional points. A side taking back earthworks it lost
    by capture ("recapture represents a two point gain") regains two points (our
    reading, L: the gain is the two points the capture cost it, so it needs a capture first)."""
    winner = state.opponent(loser)
    hk = state.hid(h)
    lost_by: set[str] = state.extra.setdefault("full_works_lost", {}).setdefault(h, set())
    state.lost_points[loser] = state.lost_points.get(loser, 0) + WORKS_CAPTURE_POINTS
    log_event(ctx, state, "loss", f"the earthworks at {hk} are captured: {loser} lose {WORKS_CAPTURE_POINTS} more points",
         ("cen:opt.earthworks",), side=winner, hex=hk)
    if winner in lost_by:
        lost_by.discard(winner)
        state.lost_points[winner] = state.lost_points.get(winner, 0) - WORKS_CAPTURE_POINTS
        log_event(ctx, state, "result", f"{winner} recapture the earthworks at {hk}: {WORKS_CAPTURE_POINTS} points gained",
             ("cen:opt.earthworks",), side=winner, hex=hk)
    lost_by.add(loser)


def builder_hexes(state: CenturionState, side: str) -> list[Hex]:
    """Hexes where ``side`` may start works: no marker yet, no works under way, and units able
    to build free of contact, dispersal, panic and squares (cen:opt.earthworks, cen:opt.caltrops)."""
    out = []
    for h in sorted(set(state.occupied_by(side))):
        if state.markers.get(h):
            continue
        units = [u for u in state.stack_at(h) if u.side == side]
        if any(u.building for u in units):
            continue
        ok = [u for u in units if state.capability.get(u.type) is not None and state.capability[u.type].build_earthworks
              and not u.contact and not u.dispersed and not u.panicked and not u.in_square]
        if ok:
            out.append(h)
    return out


def progress_works(ctx: Context, state: CenturionState, side: str) -> None:
    """Works in progress (cen:opt.earthworks, cen:opt.caltrops): three turns uninterrupted by
    combat, then the counter. A turn after which the builders were attacked does not count; the
    work done stays ("they may continue working where they left off")."""
    works = state.extra.setdefault("full_works", {})
    hit = state.extra.get(WORKS_ATTACKED, set())
    for h, (kind, ids) in list(works.items()):
        units = [state.units[i] for i in ids if state.units[i].on_map and state.units[i].hex == h]
        if not units or units[0].side != side:
            if not units:
                del works[h]
                hit.discard(h)
            continue
        rule = "cen:opt.earthworks" if kind == "earthworks" else "cen:opt.caltrops"
        if h in hit:
            hit.discard(h)
            ctx.event("works", f"the {kind} at {state.hid(h)} were interrupted by combat: this turn's work does "
                               f"not count ({units[0].building - 1} of 3 turns done)", rules=(rule,), side=side)
            continue
        for u in units:
            u.building += 1
        if units[0].building > 3:
            state.markers.setdefault(h, set()).add(kind)
            state.rev += 1
            for u in units:
                u.building = 0
            del works[h]
            ctx.event("works", f"{kind} completed at {state.hid(h)}", rules=(rule,), side=side)


RAZE_POINTS = 1
"""Points lost for destroying one's own earthworks (cen:opt.earthworks)."""


def razable(state: CenturionState, side: str) -> list[Hex]:
    """Earthworks ``side`` occupies and so may destroy (cen:opt.earthworks: "must be occupied")."""
    if not active_for(state, "cen:opt.earthworks", side):
        return []
    return sorted(h for h in set(state.occupied_by(side)) if "earthworks" in state.markers.get(h, ()))


def raze_step(ctx: Context, state: CenturionState, side: str) -> Generator[Decision, str, None]:
    """cen:opt.earthworks: "Earthworks may be voluntarily destroyed at the end of any movement
    turn by removing the earthworks counter from the board for a one point loss. Earthworks
    must be occupied to be destroyed." Asked after the Movement Phase; ``done`` always offered."""
    while True:
        hexes = razable(state, side)
        if not hexes:
            return

        def refuse(text: str, _hexes: list[Hex] = hexes) -> tuple[str, str] | None:
            try:
                h = state.hex_of(text.strip())
            except ValueError:
                return None
            if "earthworks" not in state.markers.get(h, ()):
                return f"there are no earthworks at {state.hid(h)}", "cen:opt.earthworks"
            return f"earthworks must be occupied by your units to be destroyed ({state.hid(h)})", "cen:opt.earthworks"

        rk = yield Decision(side, "End of the Movement Phase: destroy earthworks you occupy (one point lost), or done",
                            (Option("done", "keep the earthworks"),
                             *(Option(state.hid(h), units_text(state, h, side)) for h in hexes)),
                            rule="cen:opt.earthworks", kind=Kind.WORKS_RAZE, refuse=refuse)
        if rk == "done":
            return
        h = state.hex_of(rk)
        state.markers[h].discard("earthworks")
        state.rev += 1
        state.lost_points[side] = state.lost_points.get(side, 0) + RAZE_POINTS
        ctx.event("works", f"earthworks at {rk} destroyed ({RAZE_POINTS} point lost)", rules=("cen:opt.earthworks",),
                  side=side)
