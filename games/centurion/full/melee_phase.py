"""Phase 5, Melee (cen:full.sequence, cen:full.combat H-J, cen:full.facing, cen:full.contact).

All melee on one hex is one battle; a stack facing several ways and attacked from
several sides fights separate battles, the defender allotting his units (case J);
a square meets each attacking hexside separately (cen:full.square C); Light
Cavalry may retreat first (cen:full.cavalry).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from fractions import Fraction
from itertools import permutations, product
from typing import Any

from ancients_kit.hexgrid import Hex, is_frontal
from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.tables import OddsRefused, OddsTable

from ancients_games.centurion.full import fire, melee, options as opt, square
from ancients_games.centurion.full.book import SEQ, book, log_event
from ancients_games.centurion.full.combat import (
    Attack, attack_out, combat_tables, command_modifier, disperse, eliminate, hex_defence_multiplier, melee_rounding,
    melee_sides, merged,
)
from ancients_games.centurion.full.light_cavalry import light_cavalry_retreat
from ancients_games.centurion.full.units import (
    capability, is_command, is_deserter_hex, melee_factor, melee_targets, unit_type,
)
from ancients_games.centurion.full.works import works_attacked
from ancients_games.centurion.model import UnitKind
from ancients_games.centurion.state import CenturionState, Unit
from ancients_games.centurion.vocab import Kind


def melee_phase(ctx: Context, state: CenturionState, side: str, attacks: list[Attack]) -> Generator[Decision, str, None]:
    """Melee (cen:full.sequence phase 5): allocated attacks; non-viable ones dropped; all attacks on one
    hex are one melee (cen:full.combat J)."""
    b = book(state)
    melee_table, _ = combat_tables(ctx, state)
    _chiefs_able(state, side, attacks)
    for a in merged(attacks, "melee"):
        key = state.hid(a.target)
        if not state.stack_at(a.target) or (state.side_at(a.target) == side
                                            and not is_deserter_hex(state, side, a.target)):
            log_event(ctx, state, "combat", f"the melee attack on {key} finds no defender left", SEQ, side=side)
            continue
        # Light Cavalry may retreat before combat (combat, 2nd paragraph; cen:full.cavalry).
        yield from light_cavalry_retreat(ctx, state, side, a)
        if not state.stack_at(a.target):
            continue
        defenders = list(state.stack_at(a.target))
        if all(unit_type(state, x).kind is UnitKind.MOUNT for x in defenders):
            eliminate(ctx, state, defenders, ("cen:opt.mount-dismount",))
            log_event(ctx, state, "loss", f"riderless mounts at {key} destroyed", ("cen:opt.mount-dismount",), side=side)
            continue
        squares = [x for x in defenders if x.in_square]
        if squares:
            _melee_square(ctx, state, side, a, melee_table)
            continue
        split = split_battles(state, a)
        if split is None:
            _melee_one(ctx, state, side, a, melee_table, None)
            continue
        alts = _allotments(state, split)
        if len(alts) > 1:
            # cen:full.combat J: the defender allots his units to the attacks (each met from the front)
            defs = [d for _, dfs in split for d in dfs]
            labels = []
            for pick in alts:
                labels.append(", ".join(f"{d.id} meets {state.hid(split[pick[d.id]][0][0].hex)}" for d in defs))
            keys = ["auto", *[f"a{i}" for i in range(2, len(alts) + 1)]]
            choice = yield Decision(state.opponent(side), f"Melee on {key}: allot your units to the attacks",
                                    tuple(Option(k, lab) for k, lab in zip(keys, labels)),
                                    rule="cen:full.combat", kind=Kind.MELEE_ALLOT)
            pick = alts[keys.index(choice)]
            split = [(grp, [d for d in defs if pick[d.id] == i]) for i, (grp, _) in enumerate(split)]
        for grp, dfs in split:
            live = [d for d in dfs if not d.eliminated and d.hex == a.target]
            if live:
                log_event(ctx, state, "combat", f"the stack at {key} faces several ways and is attacked from several "
                                           f"sides: separate battle against {', '.join(d.id for d in live)}",
                     ("cen:full.combat", "cen:full.facing"), side=side)
                _melee_one(ctx, state, side, a, melee_table, grp, live)
    _ = b


def _chiefs_able(state: CenturionState, side: str, attacks: Sequence[Attack]) -> None:
    """Without the Command Unit Rules, note which of a barbarian army's Command units could join
    one of this turn's melee attacks (only those fail the demoralization test by staying out,
    cen:full.demoralization; see morale.end_of_player_turn_morale)."""
    b = book(state)
    if opt.active(state, "cen:opt.command") or not opt.is_barbarian(state, side):
        b.cmd_able = None
        return
    targets = {a.target for a in merged(attacks, "melee")}
    b.cmd_able = {c.id for c in state.live_units(side) if is_command(state, c) and c.hex is not None
                  and melee_factor(state, c) is not None and targets.intersection(melee_targets(state, c))}


def split_battles(state: CenturionState, a: Attack) -> list[tuple[list[Unit], list[Unit]]] | None:
    """Combat case J: defenders facing different ways, attacked from more than one side,
    meet each attack with the units fronting it; None when the hex fights one combined battle.

    Each attacking hex is one side. Every attack must be met by a front-facing unit if
    possible; "If this is not possible, one or more of the defending units must defend as
    if on a front/flank attack": the battles stay separate, and an attack no unit left can
    front is met by a unit at its flank value (our reading; only more attacking sides
    than defending units make one combined battle, each unit at the value facing the
    attack). Remaining units join the strongest attack on their front, else the strongest
    attack as flank defenders. The allotment is made for the defender, strongest first,
    with as many attacks met frontally as can be (our reading, L).
    """
    defenders = [d for d in state.stack_at(a.target) if state.types[d.type].kind is not UnitKind.MOUNT]
    if len({d.facing for d in defenders}) < 2:
        return None
    groups: dict[Hex, list[Unit]] = {}
    for i in a.units:
        u = state.units[i]
        if not u.eliminated and u.hex is not None and melee_factor(state, u) is not None:
            groups.setdefault(u.hex, []).append(u)
    if len(groups) < 2 or len(groups) > len(defenders):
        return None
    order = sorted(groups, key=lambda h: (-sum(melee_factor(state, u) or 0 for u in groups[h]), h))
    assigned: dict[str, Hex] = {}
    for h in order:
        cands = [d for d in defenders if d.id not in assigned and is_frontal(a.target, d.facing, h)]
        if not cands:
            assigned = _flank_allotment(state, a.target, order, defenders)
            break
        best = max(cands, key=lambda d: (state.types[d.type].melee_defence_front, d.id))
        assigned[best.id] = h
    for d in defenders:
        if d.id in assigned:
            continue
        front = [h for h in order if is_frontal(a.target, d.facing, h)]
        assigned[d.id] = front[0] if front else order[0]
    out = []
    for h in order:
        out.append((groups[h], [d for d in defenders if assigned[d.id] == h]))
    return out


def _flank_allotment(state: CenturionState, target: Hex, order: list[Hex], defenders: list[Unit]) -> dict[str, Hex]:
    """cen:full.combat J when not every attack can be met by a front-facing unit: one defending
    unit for each attacking hex (``order``, strongest attack first), as many of them met
    frontally as can be; of the allotments that do so, the one whose units' values (front or
    flank, as each faces its attack) are best for the strongest attacks first."""
    def value(d: Unit, h: Hex) -> int:
        t = state.types[d.type]
        return t.melee_defence_front if is_frontal(target, d.facing, h) else t.melee_defence_flank

    best: tuple[Any, ...] | None = None
    pick: dict[str, Hex] = {}
    for perm in permutations(sorted(defenders, key=lambda d: d.id), len(order)):
        fronted = sum(1 for d, h in zip(perm, order) if is_frontal(target, d.facing, h))
        k = (fronted, tuple(value(d, h) for d, h in zip(perm, order)))
        if best is None or k > best:
            best, pick = k, {d.id: h for d, h in zip(perm, order)}
    return pick


def _allotments(state: CenturionState, split: list[tuple[list[Unit], list[Unit]]]) -> list[dict[str, int]]:
    """Every allotment open to the defender in case J: each defending unit meets one attacking
    hex (index into ``split``), and every attack is met by a unit fronting it
    (cen:full.combat J: "may allocate his defense as he desires but must meet all attacks on
    that hex with a front-facing unit if possible"). The automatic allotment comes first."""
    target = split[0][1][0].hex if split[0][1] else None
    defenders = [d for _, dfs in split for d in dfs]
    if target is None or len(defenders) > 4:
        return []
    hexes = [grp[0].hex for grp, _ in split]
    auto = {d.id: i for i, (_, dfs) in enumerate(split) for d in dfs}
    out = [auto]
    for combo in product(range(len(split)), repeat=len(defenders)):
        pick = {d.id: i for d, i in zip(defenders, combo)}
        if pick == auto:
            continue
        if all(any(pick[d.id] == i and is_frontal(target, d.facing, h) for d in defenders)
               for i, h in enumerate(hexes)):
            out.append(pick)
    return out


def _melee_one(ctx: Context, state: CenturionState, side: str, a: Attack, table: OddsTable,
               only: Sequence[Unit] | None, only_defenders: Sequence[Unit] | None = None) -> str | None:
    b = book(state)
    key = state.hid(a.target)
    att, dfn, units, hexes = melee_sides(state, side, a, only, only_defenders)
    rules: tuple[str, ...] = ("cen:full.combat", "cen:full.facing")
    if not units:
        log_event(ctx, state, "combat", f"the melee attack on {key} has no attackers left (dispersed or destroyed by "
                                   f"defensive fire)", ("cen:full.defensive-fire", SEQ), side=side)
        return None
    if any(unit_type(state, u).charge_length > 0 for u in units):
        rules = (*rules, "cen:full.cavalry")
    if any(attack_out(state, u.hex, a.target) != 1 for u in units if u.hex is not None):
        rules = (*rules, "cen:full.cross-river")
    b.attacks += 1
    for u in units:
        u.attacked = True
        if is_command(state, u):
            b.cmd_attacked.add(u.id)
    works_attacked(state, state.stack_at(a.target) if only_defenders is None else only_defenders)
    rnd, rrules = melee_rounding(state, b, side, hexes, a.target)
    mod, crules = command_modifier(state, side, units, any(is_command(state, u) for u in units))
    rules = (*rules, *rrules, *crules)
    b.first_blood = True
    if dfn <= 0:
        code = "DE"
        log_event(ctx, state, "combat", f"melee on {key}: the defenders cannot defend", rules, side=side)
    else:
        ai, di = fire.whole_odds(att, dfn)
        try:
            res = table.roll(ctx.chance, ai, di, modifier=mod, rounding=rnd, reason=f"melee on {key}", rules=rules)
        except OddsRefused:
            b.failed += 1
            log_event(ctx, state, "combat", f"melee on {key}: {att} against {dfn} is below 1-2 after defensive fire: the "
                                       f"attack has no effect", ("cen:full.defensive-fire", SEQ), side=side)
            return None
        code = res.result
        log_event(ctx, state, "combat", f"{', '.join(u.id for u in units)} attack {key}: {att} against {dfn}: "
                                   f"{res.explain()}", rules, side=side, target=key, result=code)
    targets = list(state.stack_at(a.target)) if only_defenders is None else list(only_defenders)
    _apply_melee(ctx, state, side, code, units, targets, a.target, rules)
    return code


def _apply_melee(ctx: Context, state: CenturionState, side: str, code: str, attackers: Sequence[Unit],
                 defenders: Sequence[Unit], target: Hex, rules: tuple[str, ...]) -> None:
    b = book(state)
    key = state.hid(target)
    if code not in ("DE", "DD"):
        b.failed += 1
    if code == "DE":
        eliminate(ctx, state, defenders, rules)
        log_event(ctx, state, "loss", f"defenders at {key} eliminated: {', '.join(u.id for u in defenders)}", rules,
             side=side, units=[u.id for u in defenders])
    elif code == "DD":
        disperse(state, defenders)
        log_event(ctx, state, "result", f"defenders at {key} dispersed: {', '.join(u.id for u in defenders)}", rules,
             side=side)
    elif code == "AE":
        eliminate(ctx, state, attackers, rules)
        log_event(ctx, state, "loss", f"attackers eliminated: {', '.join(u.id for u in attackers)}", rules, side=side)
    elif code == "AD":
        disperse(state, attackers)
        log_event(ctx, state, "result", f"attackers dispersed: {', '.join(u.id for u in attackers)}", rules, side=side)
    else:
        for x in attackers:
            for y in defenders:
                x.contact.add(y.id)
                y.contact.add(x.id)
        log_event(ctx, state, "result", f"contact at {key}: the units stay locked in combat",
             (*rules, "cen:full.contact"), side=side)


def _melee_square(ctx: Context, state: CenturionState, side: str, a: Attack, table: OddsTable) -> None:
    """Attacks on a square: one battle per attacking hexside, simultaneous (cen:full.square C)."""
    units = [state.units[i] for i in a.units if not state.units[i].eliminated]
    by_hex: dict[Hex, list[Unit]] = {}
    for u in units:
        if u.hex is not None and melee_factor(state, u) is not None:
            by_hex.setdefault(u.hex, []).append(u)
    results: list[tuple[str, list[Unit]]] = []
    b = book(state)
    key = state.hid(a.target)
    sq = [x for x in state.stack_at(a.target) if x.in_square]
    sdef = square.square_defence([unit_type(state, x) for x in sq], state.capability)
    sdef *= hex_defence_multiplier(state, a.target, list(by_hex))
    rules = ("cen:full.square", "cen:full.combat")
    tribe = opt.active(state, "cen:barb.tribe")
    for h in sorted(by_hex):
        grp = by_hex[h]
        heavy = b.weather in ("heavy-rain", "mud")
        # isolated tribesmen attack at half here too (cen:barb.tribe)
        att = sum((melee.attacker_factor(melee.Attacker(
            unit_type(state, u), h, bool(u.demoralized),
            melee_factor(state, u) if unit_type(state, u).charge_length > 0 else None,
            attack_out(state, h, a.target), halved=tribe and opt.isolated_tribesman(state, u)), heavy)
            for u in grp), Fraction(0))
        b.attacks += 1
        for u in grp:
            u.attacked = True
        rnd, rrules = melee_rounding(state, b, side, [h], a.target)
        mod, crules = command_modifier(state, side, grp, False)
        ai, di = fire.whole_odds(att, sdef)
        try:
            res = table.roll(ctx.chance, ai, di, modifier=mod, rounding=rnd, reason=f"melee on the square at {key}",
                             rules=(*rules, *rrules, *crules))
        except OddsRefused:
            b.failed += 1
            log_event(ctx, state, "combat", f"attack from {state.hid(h)} on the square at {key} is non-viable",
                 (*rules, "cen:full.defensive-fire"), side=side)
            continue
        log_event(ctx, state, "combat", f"{', '.join(u.id for u in grp)} attack the square at {key} from {state.hid(h)}: "
                                   f"{res.explain()}", (*rules, *rrules, *crules), side=side)
        results.append((res.result, grp))
    b.first_blood = True
    worst = "DE" if any(r == "DE" for r, _ in results) else "DD" if any(r == "DD" for r, _ in results) else ""
    for code, grp in results:
        if code in ("AE", "AD", "C"):
            _apply_melee(ctx, state, side, code, grp, sq, a.target, rules)
        else:
            b.failed += 0
    if worst:
        n = square.square_casualties([unit_type(state, x) for x in sq], state.capability)
        struck = sorted((x for x in sq if capability(state, x) and capability(state, x).form_square),
                        key=lambda x: -unit_type(state, x).melee_defence_front)[:n]
        if worst == "DE":
            eliminate(ctx, state, struck, rules)
            log_event(ctx, state, "loss", f"the square at {key} loses {', '.join(x.id for x in struck)} (only up to half "
                                     f"its strength is struck)", rules, side=side)
        else:
            disperse(state, struck)  # they drop out of the square
            log_event(ctx, state, "result", f"in the square at {key}, {', '.join(x.id for x in struck)} dispersed", rules,
                 side=side)
    else:
        b.failed += 0
