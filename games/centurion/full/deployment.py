"""Setting up for battle: checking a deployment and the optional placement phase.

Rules served:

* ``cen:full.deployment``: the side deploying first picks a centre of mass and
  deploys within five hexes of it; the other side deploys at least eight and
  at most twelve hexes away (our reading, L: every unit of the second side is
  8 or more hexes from every enemy unit, and 12 or fewer from the nearest),
  facing the enemy. Scenarios may prescribe their own areas (a quadrant, the
  hills): a unit inside its side's listed zone hexes is accepted too.
* ``cen:full.setup``: scenarios, imagination or research; the 360-600 men per
  counter rule of thumb lives with the scenario data.

:func:`check_deployment` lists the problems (it never refuses a scenario: the
printed diagrams are "models, not hard and fast limits"); the events name them.
With the ``placement`` option, each side (the one deploying first, first) may
re-place units inside its legal hexes before play: staged, ``done`` offered.
"""

from __future__ import annotations

from collections.abc import Generator

from ancients_kit.hexgrid import Hex, hex_range
from ancients_kit.session import Context, Decision, Option

from ancients_games.centurion.model import UnitKind
from ancients_games.centurion.state import CenturionState

__all__ = ["FIRST_RADIUS", "SECOND_MAX", "SECOND_MIN", "check_deployment", "deployment_phase", "legal_hexes"]

FIRST_RADIUS = 5
SECOND_MIN = 8
SECOND_MAX = 12


def _zone(state: CenturionState, side: str) -> tuple[Hex | None, int, frozenset[Hex]]:
    s = state.scenario.side(side)
    num = state.numbering
    try:
        centre = num.from_id(s.zone.centre)
    except ValueError:
        centre = None
    hexes = set()
    for hid in s.zone.hexes:
        try:
            hexes.add(num.from_id(hid))
        except ValueError:
            continue
    return centre, s.zone.radius or FIRST_RADIUS, frozenset(hexes)


def legal_hexes(state: CenturionState, side: str) -> frozenset[Hex]:
    """Hexes where ``side`` may stand at set-up (cen:full.deployment)."""
    first = state.scenario.deploys_first
    centre, radius, zone = _zone(state, side)
    if side == first:
        out = set(zone)
        if centre is not None:
            out.update(h for h in hex_range(centre, min(radius, FIRST_RADIUS)) if h in state.numbering)
        return frozenset(out)
    enemy = [u.hex for u in state.live_units(state.opponent(side)) if u.hex is not None]
    if not enemy:
        return frozenset(zone)
    out = set(zone)
    for h in state.numbering.hexes():
        d = min(h.distance(e) for e in enemy)
        if SECOND_MIN <= d <= SECOND_MAX:
            out.add(h)
    return frozenset(out)


def check_deployment(state: CenturionState) -> list[str]:
    """Problems with the current set-up, as readable lines (empty: it follows the rule)."""
    problems = []
    first = state.scenario.deploys_first
    for side in state.sides:
        legal = legal_hexes(state, side)
        centre, radius, zone = _zone(state, side)
        for u in state.live_units(side):
            if u.hex is None or u.hex in legal:
                continue
            if side == first:
                problems.append(f"{u.id} at {state.hid(u.hex)} is more than {FIRST_RADIUS} hexes from the centre "
                                f"of mass {state.scenario.side(side).zone.centre}")
            else:
                problems.append(f"{u.id} at {state.hid(u.hex)} is not {SECOND_MIN}-{SECOND_MAX} hexes from the enemy")
    _ = first
    return problems


def deployment_phase(ctx: Context, state: CenturionState) -> Generator[Decision, str, None]:
    """Check the set-up; with the ``placement`` option, let each side re-place units."""
    state.phase = "deployment"
    problems = check_deployment(state)
    if problems:
        ctx.event("setup", f"deployment departs from the rule in {len(problems)} places (the scenario's own "
                           f"areas govern): {problems[0]}", rules=("cen:full.deployment", "cen:full.setup"))
    else:
        ctx.event("setup", "deployment checked: centre of mass, radius 5, enemy 8-12 hexes away",
                  rules=("cen:full.deployment", "cen:full.setup"))
    if not state.options.get("placement"):
        return
    order = [state.scenario.deploys_first, state.opponent(state.scenario.deploys_first)]
    for side in order:
        placed: set[str] = set()
        while True:
            units = [u for u in state.live_units(side) if u.id not in placed
                     and state.types[u.type].kind is not UnitKind.MOUNT]
            if not units:
                break
            opts = [Option("done", "deployment complete")] + [Option(u.id, state.describe(u)) for u in units]
            k = yield Decision(side, "Deployment: choose a unit to re-place, or done", tuple(opts),
                               rule="cen:full.deployment", kind="deploy.unit")
            if k == "done":
                break
            u = state.units[k]
            legal = sorted(
                (h for h in legal_hexes(state, side)
                 if state.side_at(h) in (None, side) and (h == u.hex or state.stacking_count(h, side) < 3)),
                key=state.hid,
            )
            if not legal:
                placed.add(u.id)
                continue
            hk = yield Decision(side, f"Place {u.id}: choose a hex", tuple(Option(state.hid(h)) for h in legal),
                                rule="cen:full.deployment", kind="deploy.hex")
            fk = yield Decision(side, f"{u.id} at {hk}: choose its facing",
                                tuple(Option(n) for n in state.numbering.direction_names),
                                rule="cen:full.facing", kind="deploy.facing")
            h = state.hex_of(hk)
            if h != u.hex:
                state.move(u, h)
            u.facing = state.numbering.direction_from_name(fk)
            placed.add(u.id)
            ctx.event("setup", f"{u.id} placed at {hk} facing {fk}", rules=("cen:full.deployment",), side=side)
