"""Phases 3 and 4, Defensive and Offensive Fire (cen:full.sequence, cen:full.defensive-fire,
cen:full.combat E-G, I; cen:full.fire-protection, cen:full.fem).

The defender fires first at the hexes attacking him (and at units that moved
next to his missile troops without attacking); then the phasing player's
allocated fire. Losses are taken at once.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from ancients_kit.hexgrid import Hex
from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.tables import OddsRefused, OddsTable

from ancients_games.centurion.full import fire, square
from ancients_games.centurion.full.book import DONE, book, log_event
from ancients_games.centurion.full.combat import (
    Attack, allocated_units, combat_tables, command_modifier, disperse, eliminate, fire_rounding, fpf_multiplier,
    merged,
)
from ancients_games.centurion.full.units import can_fire, fire_factor, fire_problem, fire_targets, stack_text, unit_type
from ancients_games.centurion.full.works import works_attacked
from ancients_games.centurion.model import UnitKind
from ancients_games.centurion.state import CenturionState, Unit
from ancients_games.centurion.vocab import Kind


def _moved_this_turn(state: CenturionState, u: Unit) -> bool:
    """``u`` changed hex in this Movement Phase (a "stay" answer or a turn in place is no move
    adjacent: cen:full.combat, the missile "zone of control")."""
    start = state.extra.get("full_move_start_hex", {})
    if u.id in start:
        return start[u.id] != u.hex
    return u.moved


def defensive_fire_phase(ctx: Context, state: CenturionState, side: str,
                         attacks: list[Attack]) -> Generator[Decision, str, None]:
    """Defensive Fire (cen:full.sequence phase 3, cen:full.defensive-fire, combat E).

    The defender's missile units in attacked hexes fire at attacking hexes on
    their front; missile units also fire at enemies that moved next to them
    without attacking (their limited "zone of control").
    """
    defender = state.opponent(side)
    _, fire_table = combat_tables(ctx, state)
    used: set[str] = set()
    attacked = {a.target for a in attacks}
    allocated = allocated_units(attacks)
    while True:
        # firing options: attacking hex -> defending firers able to reach it
        options: dict[Hex, list[Unit]] = {}
        for u in state.live_units(defender):
            if u.id in used or u.hex is None or not can_fire(state, u, defensive=True):
                continue
            for h in fire_targets(state, u):
                here = [x for x in state.stack_at(h) if x.side == side]
                attacking_me = u.hex in attacked and any(
                    x.id in allocated and any(a.target == u.hex and x.id in a.units for a in attacks) for x in here)
                idle_neighbour = h.distance(u.hex) == 1 and any(
                    _moved_this_turn(state, x) and x.id not in allocated for x in here)
                if attacking_me or idle_neighbour:
                    options.setdefault(h, []).append(u)
        if not options:
            return
        opts = [Option(DONE, "no (more) defensive fire")]
        for h in sorted(options, key=state.hid):
            opts.append(Option(state.hid(h), f"fire {sum(fire_factor(state, u) for u in options[h])} at "
                                             f"{stack_text(state, h)}"))
        def refuse_fire(text: str, _options: dict = options) -> tuple[str, str] | None:
            try:
                h = state.hex_of(text.strip())
            except ValueError:
                return None
            rule = "cen:full.defensive-fire"
            if state.side_at(h) != side:
                return f"{text.strip()} holds no enemy units", rule
            here = [x for x in state.stack_at(h)]
            if not any(x.id in allocated for x in here) and not any(x.moved for x in here):
                return (f"the units at {text.strip()} neither attack you nor moved next to your missile troops: "
                        f"defensive fire goes only at hexes from which enemy units attack (combat E)", rule)
            firers = [u for u in state.live_units(defender) if u.id not in used and u.hex is not None
                      and unit_type(state, u).fire > 0]
            if not firers:
                return "you have no unused missile units to fire", rule
            why = next((w for w in (fire_problem(state, u, h, defensive=True) for u in
                                    sorted(firers, key=lambda x: (x.hex.distance(h), x.id))[:4]) if w), None)
            return why or (f"none of your unused missile units has {text.strip()} to its front within range "
                           f"(defensive fire only to the front)", rule)

        key = yield Decision(defender, "Defensive Fire: choose an attacking hex to fire at, or done", tuple(opts),
                             rule="cen:full.defensive-fire", kind=Kind.FIRE_DEFENSIVE, refuse=refuse_fire,
                             context={"highlight": [o.key for o in opts[1:]],
                                      "firers": {state.hid(h): [u.id for u in us] for h, us in options.items()},
                                      "allocated": sorted(allocated)})
        if key == DONE:
            return
        h = state.hex_of(key)
        firers = options[h]
        used.update(u.id for u in firers)
        mod = 0
        rules = ["cen:full.defensive-fire", "cen:full.fire-protection", "cen:full.fem"]
        targets = [x for x in state.stack_at(h) if x.side == side]
        if any(x.in_square for x in targets) and any(x.id in allocated for x in targets if x.in_square):
            mod += square.SQUARE_DEFENSIVE_FIRE_MODIFIER  # cen:full.square G
            rules.append("cen:full.square")
        _resolve_fire(ctx, state, defender, firers, h, fire_table, mod, tuple(rules))


def _resolve_fire(ctx: Context, state: CenturionState, side: str, firers: Sequence[Unit], target: Hex,
                  table: OddsTable, mod: int, rules: tuple[str, ...]) -> str:
    """Resolve one missile attack (cases G, I; FEM) and apply its result at once."""
    b = book(state)
    targets = list(state.stack_at(target))
    if not targets or not firers:
        return "NE"
    f_hexes = sorted({u.hex for u in firers if u.hex is not None})
    fcf = fire.effective_fire([fire_factor(state, u) for u in firers], [unit_type(state, x) for x in targets])
    fpf = fire.stack_fpf(target, [(unit_type(state, x), None if unit_type(state, x).kind is UnitKind.MOUNT else x.facing)
                                  for x in targets], f_hexes, fpf_multiplier(state, target),
                         [bool(x.building) for x in targets], [x.in_square for x in targets])
    for u in firers:
        u.fired_this_turn = True
    works_attacked(state, targets)
    cmod, crules = command_modifier(state, side, firers, False)
    mod += cmod
    rules = (*rules, *crules)
    if b.fortune == side:
        rules = (*rules, "cen:opt.fortune")
    if fpf <= 0:
        res_code = "DE"
        log_event(ctx, state, "combat", f"fire at {state.hid(target)}: nothing protects it", rules, side=side)
    else:
        ai, di = fire.whole_odds(fcf, fpf)
        try:
            res = table.roll(ctx.chance, ai, di, modifier=mod, rounding=fire_rounding(state, b, side),
                             reason=f"fire at {state.hid(target)}", rules=rules)
        except OddsRefused:
            log_event(ctx, state, "combat", f"fire {fcf} against protection {fpf} at {state.hid(target)} is below 1-2: "
                                       f"no effect", (*rules, "cen:full.defensive-fire"), side=side)
            return "NE"
        res_code = res.result
        log_event(ctx, state, "combat", f"{', '.join(u.id for u in firers)} fire at {state.hid(target)}: fire {fcf} "
                                   f"(FEM) against protection {fpf}: {res.explain()}", rules, side=side,
             target=state.hid(target), result=res_code)
    b.first_blood = True
    if res_code == "DE":
        eliminate(ctx, state, targets, rules)
        log_event(ctx, state, "loss", f"{', '.join(x.id for x in targets)} at {state.hid(target)} destroyed by fire", rules,
             side=side)
    elif res_code == "DD":
        disperse(state, targets)
        log_event(ctx, state, "result", f"{', '.join(x.id for x in targets)} at {state.hid(target)} dispersed by fire",
             rules, side=side)
    return res_code


def offensive_fire_phase(ctx: Context, state: CenturionState, side: str, attacks: list[Attack]) -> None:
    """Offensive Fire (cen:full.sequence phase 4, combat F): allocated fire, losses at once; all fire on
    one hex is one attack (cen:full.combat I).

    Each fire attack made counts among the side's attacks of the turn, and one that neither
    destroys nor disperses its target (no effect, or below 1-2) as a failed one
    (cen:full.demoralization: "80% or more of the attacks made on that turn fail"; the Attack
    Allocation Phase names missile and melee alike as attacks)."""
    _, fire_table = combat_tables(ctx, state)
    b = book(state)
    for a in merged(attacks, "fire"):
        firers = [state.units[i] for i in a.units]
        firers = [u for u in firers if not u.eliminated and can_fire(state, u) and u.hex is not None
                  and a.target in fire_targets(state, u)]
        if not firers or not state.stack_at(a.target):
            continue
        code = _resolve_fire(ctx, state, side, firers, a.target, fire_table, 0,
                             ("cen:full.combat", "cen:full.fire-protection", "cen:full.fem"))
        b.attacks += 1  # cen:full.demoralization
        if code not in ("DE", "DD"):
            b.failed += 1
