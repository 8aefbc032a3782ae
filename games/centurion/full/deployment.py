"""Setting up for battle: checking a deployment and the optional placement phase.

Rules served:

* ``cen:full.deployment``: the side deploying first picks a centre of mass and
  deploys within five hexes of it; the other side deploys at least eight and
  at most twelve hexes away (our reading, L: every unit of the second side is
  8 or more hexes from every enemy unit, and 12 or fewer from the nearest),
  facing the enemy (L: the enemy's centre of mass lies ahead of the unit's
  front line). Scenarios may prescribe their own areas (a quadrant, the
  hills): the first side must also stay inside its listed zone hexes; a
  second side whose scenario prescribes its own entry (no 8-hex minimum in
  the data, Teutoburgerwald) keeps to its listed hexes instead.
* ``cen:full.setup``: scenarios, imagination or research; the 360-600 men per
  counter rule of thumb lives with the scenario data.

:func:`check_deployment` lists the problems of a set-up (it never refuses a
scenario's own deployment: the printed diagrams are "models, not hard and fast
limits"); the events name them. With the ``placement`` option, each side (the
one deploying first, first) may re-place units before play: staged, ``done``
offered; a typed hex or facing that breaks the rule is refused with the reason
and the rule ID (:func:`hex_problem`, :func:`facing_problem`, stacking).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ancients_kit.hexgrid import Hex, arc_side
from ancients_kit.protocol import Context, Decision, Option

from ancients_games.centurion.full.movement_hooks import move_hooks
from ancients_games.centurion.model import UnitKind
from ancients_games.centurion.movement_rules import stack_room
from ancients_games.centurion.state import CenturionState
from ancients_games.centurion.vocab import Kind, Phase

__all__ = [
    "FIRST_RADIUS",
    "SECOND_MAX",
    "SECOND_MIN",
    "check_deployment",
    "deployment_phase",
    "facing_problem",
    "hex_problem",
    "legal_hexes",
]

FIRST_RADIUS = 5
SECOND_MIN = 8
SECOND_MAX = 12


_ZONES: dict[tuple[int, int], tuple[Any, Any, tuple[Hex | None, int, frozenset[Hex]]]] = {}
"""(zone id, numbering id) -> (zone, numbering, centre/radius/hexes): zones and
numberings are immutable, and deployment checks ask for them unit after unit."""


def _zone(state: CenturionState, side: str) -> tuple[Hex | None, int, frozenset[Hex]]:
    """A side's deployment zone: centre hex, radius, listed hexes (cen:full.deployment)."""
    zone = state.scenario.side(side).zone
    num = state.numbering
    got = _ZONES.get((id(zone), id(num)))
    if got is not None and got[0] is zone and got[1] is num:
        return got[2]
    out = _read_zone(zone, num)
    if len(_ZONES) > 256:
        _ZONES.clear()
    _ZONES[(id(zone), id(num))] = (zone, num, out)
    return out


def _read_zone(zone: Any, num: Any) -> tuple[Hex | None, int, frozenset[Hex]]:
    try:
        centre = num.from_id(zone.centre)
    except ValueError:
        centre = None
    hexes = set()
    for hid in zone.hexes:
        try:
            hexes.add(num.from_id(hid))
        except ValueError:
            continue
    return centre, zone.radius or FIRST_RADIUS, frozenset(hexes)


def standard_second(state: CenturionState, side: str) -> bool:
    """Does ``side`` deploy second by the rule (8-12 hexes from the enemy)? A scenario
    that prescribes its own entry (no ``min_enemy_distance``, e.g. Teutoburgerwald)
    keeps its listed area instead."""
    return side != state.scenario.deploys_first and state.scenario.side(side).zone.min_enemy_distance > 0


def _area(state: CenturionState) -> str:
    return state.scenario.deployment_note or "see the scenario"


def _enemy_centre(state: CenturionState, side: str) -> Hex | None:
    return _zone(state, state.opponent(side))[0]


def hex_problem(state: CenturionState, side: str, h: Hex) -> tuple[str, str] | None:
    """Why ``side`` may not deploy a unit on ``h`` (reason, rule ID), or None (cen:full.deployment).

    The side deploying first stays within five hexes of its centre of mass (and
    inside the scenario's area when it names one: a quadrant, the hills); the
    other side stands at least eight hexes from every enemy unit and at most
    twelve from the nearest, unless the scenario prescribes its own area.
    """
    rule = "cen:full.deployment"
    hid = state.hid(h)
    first = state.scenario.deploys_first
    centre, radius, zone = _zone(state, side)
    if side == first:
        if centre is not None and h.distance(centre) > min(radius, FIRST_RADIUS):
            return (f"{hid} is {h.distance(centre)} hexes from the centre of mass {state.hid(centre)}: the side "
                    f"deploying first deploys within {min(radius, FIRST_RADIUS)} hexes of it", rule)
        if zone and h not in zone:
            return f"{hid} is outside the scenario's deployment area ({_area(state)})", rule
        return None
    if not standard_second(state, side):
        if zone and h not in zone:
            return f"{hid} is outside the scenario's deployment area ({_area(state)})", rule
        return None
    enemy = [(u.hex.distance(h), state.hid(u.hex), u.id) for u in state.live_units(state.opponent(side))
             if u.hex is not None]
    if not enemy:
        return None
    d, where, uid = min(enemy)
    if d < SECOND_MIN:
        return (f"{hid} is only {d} hexes from enemy {uid} at {where}: the side deploying second stands at least "
                f"{SECOND_MIN} hexes from the enemy", rule)
    if d > SECOND_MAX:
        return (f"{hid} is {d} hexes from the nearest enemy unit ({uid} at {where}): the side deploying second "
                f"stands at most {SECOND_MAX} hexes away", rule)
    return None


def facing_problem(state: CenturionState, side: str, h: Hex, facing: int) -> tuple[str, str] | None:
    """cen:full.deployment: the side deploying second deploys "facing the front of his enemy".

    Our reading (L): the enemy's centre of mass lies ahead of the unit's front
    line (:func:`ancients_kit.hexgrid.arc_side`). Scenarios with their own
    deployment are not checked.
    """
    if not standard_second(state, side):
        return None
    c = _enemy_centre(state, side)
    if c is None or arc_side(h, facing, c) == 1:
        return None
    name = state.numbering.direction_name(facing)
    return (f"facing {name} at {state.hid(h)} turns away from the enemy's centre of mass {state.hid(c)}: the side "
            f"deploying second deploys facing the front of his enemy", "cen:full.deployment")


def legal_hexes(state: CenturionState, side: str) -> frozenset[Hex]:
    """Hexes where ``side`` may stand at set-up (cen:full.deployment)."""
    return frozenset(h for h in state.numbering.hexes() if hex_problem(state, side, h) is None)


def check_deployment(state: CenturionState) -> list[str]:
    """Problems with the current set-up, as readable lines (empty: it follows the rule)."""
    problems = []
    for side in state.sides:
        for u in state.live_units(side):
            if u.hex is None:
                continue
            why = hex_problem(state, side, u.hex)
            if why is None and state.types[u.type].kind is not UnitKind.MOUNT:
                why = facing_problem(state, side, u.hex, u.facing)
            if why is not None:
                problems.append(f"{u.id}: {why[0]}")
    return problems


def deployment_phase(ctx: Context, state: CenturionState) -> Generator[Decision, str, None]:
    """Check the set-up; with the ``placement`` option, let each side re-place units.

    The scenario's own set-up is only checked and logged (the printed diagrams
    are "models, not hard and fast limits"); a placement is refused, with the
    reason and the rule, if it breaks the deployment, stacking or facing rules.
    """
    state.phase = Phase.DEPLOYMENT
    _log_check(ctx, state, "deployment")
    if not state.options.get("placement"):
        return
    hooks = move_hooks(state)
    order = [state.scenario.deploys_first, state.opponent(state.scenario.deploys_first)]
    for side in order:
        placed: set[str] = set()
        while True:
            units = [u for u in state.live_units(side) if u.id not in placed
                     and state.types[u.type].kind is not UnitKind.MOUNT]
            if not units:
                break
            opts = [Option("done", "deployment complete")] + [Option(u.id, state.describe(u)) for u in units]

            def refuse_unit(text: str, _side: str = side, _placed: set[str] = placed) -> tuple[str, str] | None:
                u = state.units.get(text.strip().upper()) or state.units.get(text.strip())
                if u is None:
                    return None
                if u.side != _side:
                    return f"{u.id} is not yours: {_side} is deploying", "cen:full.deployment"
                if u.id in _placed:
                    return f"{u.id} has been placed already this deployment", "cen:full.deployment"
                return None

            k = yield Decision(side, "Deployment: choose a unit to re-place, or done", tuple(opts),
                               rule="cen:full.deployment", kind=Kind.DEPLOY_UNIT, refuse=refuse_unit)
            if k == "done":
                break
            u = state.units[k]

            def why_not(h: Hex, _u=u, _side: str = side) -> tuple[str, str] | None:
                occ = state.side_at(h)
                if occ is not None and occ != _side:
                    return f"{state.hid(h)} holds enemy units", "cen:full.movement"
                if h != _u.hex and not stack_room(state, _u, h, hooks):
                    return (f"{state.hid(h)} already holds {state.stacking_count(h, _side)} units: no room for "
                            f"{_u.id} ({state.types[_u.type].name} stack at most "
                            f"{state.types[_u.type].stack_limit})", "cen:full.stacking")
                return hex_problem(state, _side, h)

            legal = sorted((h for h in state.numbering.hexes() if why_not(h) is None), key=state.hid)
            if not legal:
                placed.add(u.id)
                continue

            def refuse_hex(text: str, _why=why_not) -> tuple[str, str] | None:
                try:
                    h = state.hex_of(text.strip())
                except ValueError as exc:
                    return f"{exc}: units deploy on the map", "cen:full.deployment"
                return _why(h)

            hk = yield Decision(side, f"Place {u.id}: choose a hex", tuple(Option(state.hid(h)) for h in legal),
                                rule="cen:full.deployment", kind=Kind.DEPLOY_HEX, refuse=refuse_hex)
            h = state.hex_of(hk)
            faces = [g for g in range(6) if facing_problem(state, side, h, g) is None]

            def refuse_facing(text: str, _h: Hex = h) -> tuple[str, str] | None:
                try:
                    g = state.numbering.direction_from_name(text.strip().upper())
                except (ValueError, KeyError):
                    return (f"{text!r} is not a facing: answer one of "
                            f"{', '.join(state.numbering.direction_names)}", "cen:full.facing")
                return facing_problem(state, side, _h, g)

            fk = yield Decision(side, f"{u.id} at {hk}: choose its facing",
                                tuple(Option(state.numbering.direction_name(g)) for g in faces),
                                rule="cen:full.facing", kind=Kind.DEPLOY_FACING, refuse=refuse_facing)
            if h != u.hex:
                state.move(u, h)
            u.facing = state.numbering.direction_from_name(fk)
            placed.add(u.id)
            ctx.event("setup", f"{u.id} placed at {hk} facing {fk}", rules=("cen:full.deployment",), side=side)
    _log_check(ctx, state, "deployment after placement")


def _log_check(ctx: Context, state: CenturionState, what: str) -> None:
    problems = check_deployment(state)
    if problems:
        ctx.event("setup", f"{what} departs from the rule in {len(problems)} places: {problems[0]}",
                  rules=("cen:full.deployment", "cen:full.setup"))
    else:
        ctx.event("setup", f"{what} checked: centre of mass, radius 5, enemy 8-12 hexes away, facing the enemy",
                  rules=("cen:full.deployment", "cen:full.setup"))
