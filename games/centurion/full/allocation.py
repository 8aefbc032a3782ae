"""Phase 2, Attack Allocation (cen:full.sequence, cen:full.combat A-C, H, L, M).

The phasing player names target hexes, the kind of each attack (melee, fire, or
both for cataphracts, cen:full.cavalry) and its units; an attack that would be
non-viable is not made (cen:full.defensive-fire). Barbarian warriors able to
attack must (cen:barb.warrior).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from ancients_kit.hexgrid import Hex, is_frontal
from ancients_kit.protocol import Context, Decision, Option

from ancients_games.centurion.full import cavalry, melee, options as opt, square
from ancients_games.centurion.full.book import DONE, SEQ, book, log_event
from ancients_games.centurion.full.combat import Attack, allocated_units, viability
from ancients_games.centurion.full.units import (
    can_fire, capability, fire_problem, fire_targets, is_command, is_deserter_hex, melee_factor, melee_targets,
    river_flank_problem, stack_text, unit_type,
)
from ancients_games.centurion.full.warriors import barbarian_must_attack
from ancients_games.centurion.model import UnitKind
from ancients_games.centurion.state import CenturionState, Unit
from ancients_games.centurion.vocab import Kind


def _melee_mates(state: CenturionState, attacks: Sequence[Attack], cur: Attack, target: Hex,
                 h: Hex | None) -> list[Unit]:
    """Units on ``h`` already meleeing ``target`` this phase, in ``cur`` or in another attack on it:
    all melee on one hex is one battle (cen:full.combat J, see ``merged``), so case H's
    homogeneity binds them together."""
    ids = list(cur.units)
    for a in attacks:
        if a is not cur and a.target == target and a.mode in ("melee", "both"):
            ids.extend(i for i in a.units if i not in ids)
    return [state.units[i] for i in ids if state.units[i].hex == h]


_Memo = dict[tuple[str, str], list[Hex]]
"""Attack Allocation's memo: (``fire`` or ``melee``, unit id) -> the unit's targets. The phase
changes nothing on the map, so a unit's fire and melee targets stay the same through it."""


def memo_targets(memo: _Memo | None, kind: str, state: CenturionState, u: Unit) -> list[Hex]:
    """:func:`fire_targets` (``kind`` ``fire``) or :func:`melee_targets` of ``u``, worked out
    once per Attack Allocation when the phase hands in its ``memo``."""
    if memo is None:
        return fire_targets(state, u) if kind == "fire" else melee_targets(state, u)
    got = memo.get((kind, u.id))
    if got is None:
        got = memo[(kind, u.id)] = fire_targets(state, u) if kind == "fire" else melee_targets(state, u)
    return got


def eligible(state: CenturionState, side: str, target: Hex, mode: str, attacks: Sequence[Attack], cur: Attack,
              first: bool = False, memo: _Memo | None = None) -> list[Unit]:
    """Units that may join ``cur`` (cen:full.combat A-C, H, L; cen:full.cavalry; cen:rom.legion-integrity);
    with ``first``, only the first of them (enough to know whether any may: :func:`open_targets`)."""
    used = allocated_units(attacks) | set(cur.units)
    b = book(state)
    out = []
    li = opt.active(state, "cen:rom.legion-integrity")
    for u in state.live_units(side):
        if u.id in used or u.hex is None:
            continue
        ok = False
        if mode in ("melee", "both"):
            if u.hex.distance(target) == 1 and target in memo_targets(memo, "melee", state, u) \
                    and melee_factor(state, u) is not None:
                same = _melee_mates(state, attacks, cur, target, u.hex)
                if not same or melee.homogeneity_problem(
                    [unit_type(state, x) for x in [*same, u]], [x.group for x in [*same, u]], li
                ) is None:
                    ok = True
                if ok and unit_type(state, u).charge_length > 0 and u.charged_this_turn:
                    start = b.charge_start.get(u.id)
                    others = [b.charge_start[x] for x in cur.units if x in b.charge_start and state.units[x].hex == u.hex]
                    if start is not None and cavalry.charge_problem(u.hex, target, u.facing, others, start):
                        ok = False
            if mode == "both":
                cap = capability(state, u)
                ok = ok and cap is not None and cap.fire_and_melee == "same-target" and can_fire(state, u) \
                    and target in memo_targets(memo, "fire", state, u)
        elif mode == "fire":
            ok = can_fire(state, u) and target in memo_targets(memo, "fire", state, u)
        if ok:
            out.append(u)
            if first:
                break
    return out


def fill_all(state: CenturionState, side: str, attacks: Sequence[Attack], cur: Attack,
              memo: _Memo | None = None) -> Attack:
    """Add every unit that may still join ``cur``, one by one (homogeneity re-checked each time)."""
    for u in eligible(state, side, cur.target, cur.mode, attacks, cur, memo=memo):
        if u in eligible(state, side, cur.target, cur.mode, attacks, cur, memo=memo):
            cur.units.append(u.id)
    return cur


def open_targets(state: CenturionState, side: str, attacks: Sequence[Attack],
             memo: _Memo | None = None) -> dict[Hex, set[str]]:
    """Target hexes still open to ``side`` after ``attacks``, each with the kinds of attack
    (``melee``, ``fire``, ``both``) some unallocated unit may actually make on it (cen:full.combat A-C, H, L)."""
    used = allocated_units(attacks)
    taken = {(a.target, a.mode) for a in attacks}
    out: dict[Hex, set[str]] = {}
    for u in state.live_units(side):
        if u.id in used or u.hex is None:
            continue
        if melee_factor(state, u) is not None:
            for h in memo_targets(memo, "melee", state, u):
                if (h, "melee") not in taken:
                    out.setdefault(h, set()).add("melee")
        if can_fire(state, u):
            for h in memo_targets(memo, "fire", state, u):
                if (h, "fire") not in taken:
                    out.setdefault(h, set()).add("fire")
                cap = capability(state, u)
                if cap is not None and cap.fire_and_melee == "same-target" and h in memo_targets(memo, "melee", state, u) \
                        and melee_factor(state, u) is not None and (h, "both") not in taken:
                    out.setdefault(h, set()).add("both")
    # A target and kind of attack is offered only if some unit may actually join it: a unit that
    # fronts the hex may still be barred by case H's homogeneity with stack-mates already meleeing
    # it in another attack (cen:full.combat H), or by its charge (cen:full.cavalry). Offering such a
    # pair would lead to an empty attack that changes nothing and the same question again.
    for h in list(out):
        out[h] = {m for m in out[h] if eligible(state, side, h, m, attacks, Attack(h, m), first=True, memo=memo)}
        if not out[h]:
            del out[h]
    return out


def _charge_note(state: CenturionState, u: Unit) -> str:
    """How a cavalry unit's charge counts (cen:full.cavalry): only the straight run at the
    end of its move is a charge; each hex short of its Melee Attack Factor costs one."""
    t = unit_type(state, u)
    if t.charge_length <= 0 or u.dismounted:
        return ""
    n = u.charge_length
    f = cavalry.charge_factor(t, n)
    if n >= t.charge_length:
        return f", full charge of {n} straight hexes: attack {f}"
    return (f", charge of {n} straight hexes of the {t.charge_length} needed (a charge must be straight "
            f"along its whole length): attack {f}")


def _unit_of(state: CenturionState, text: str) -> Unit | None:
    t = text.strip()
    return state.units.get(t.upper()) or state.units.get(t)


def _cannot_attack(state: CenturionState, u: Unit) -> tuple[str, str] | None:
    """Why ``u`` may not attack at all this Player-Turn, or None."""
    b = book(state)
    if u.eliminated or u.hex is None:
        return f"{u.id} is no longer on the map", "cen:full.combat"
    if u.dispersed:
        return f"{u.id} is dispersed and may not attack", "cen:full.combat"
    if u.panicked:
        return f"{u.id} is panicked: units in panic may not attack (B)", "cen:full.panic"
    if u.treachery == "leaving":
        return f"{u.id} has turned traitor and is leaving the field", "cen:full.treachery"
    if u.building:
        return f"{u.id} is building works and may not fight until they are done", "cen:opt.earthworks"
    if unit_type(state, u).kind is UnitKind.MOUNT:
        return f"{u.id} is a riderless mount with no Combat Factor (B)", "cen:opt.mount-dismount"
    if u.id in b.dismounting:
        return f"{u.id} is mounting or dismounting this turn: no combat may occur (E)", "cen:opt.mount-dismount"
    return None


def _melee_problem(state: CenturionState, u: Unit, target: Hex) -> tuple[str, str] | None:
    """Why ``u`` may not melee ``target`` (cen:full.combat A, M; cen:full.facing; square; Command units)."""
    assert u.hex is not None
    tk, uh = state.hid(target), state.hid(u.hex)
    d = u.hex.distance(target)
    if d != 1:
        return (f"{u.id} at {uh} is {d} hexes from {tk}: units melee only enemy units in one of the three hexes "
                f"adjacent to their front (case A)", "cen:full.combat")
    if not is_frontal(u.hex, u.facing, target):
        return (f"{tk} is not to the front of {u.id} (it faces {state.numbering.direction_name(u.facing)}): a unit "
                f"may attack only to its front (case M)", "cen:full.facing")
    cap = capability(state, u)
    if is_command(state, u) and not opt.active(state, "cen:opt.command") and target not in melee_targets(state, u):
        return (f"{u.id} is a Command unit: Command units melee only dispersed units and enemy Command units",
                "cen:full.combat")
    if u.in_square:
        members = [x for x in state.stack_at(u.hex) if x.side == u.side and x.in_square]
        if cap is not None and cap.form_square and square.square_attack(
                [unit_type(state, x) for x in members], state.capability) is None:
            return (f"the square at {uh} holds a non-Swordsmen unit: Swordsmen in square may not attack (G)",
                    "cen:full.square")
        if cap is not None and cap.charge:
            return f"{u.id} may not charge out of a square (J)", "cen:full.square"
    if cap is not None and cap.melee_offence == "no" or melee_factor(state, u) is None:
        return f"{u.id} has no Melee Attack Factor to use", "cen:full.combat"
    return river_flank_problem(state, u, target)


def _join_problem(state: CenturionState, side: str, u: Unit, target: Hex, mode: str, attacks: Sequence[Attack],
                  cur: Attack) -> tuple[str, str] | None:
    """Why unit ``u`` may not join the attack ``cur`` (cen:full.combat A-C, H, L; cen:full.cavalry)."""
    if u.side != side:
        return f"{u.id} is not yours", "cen:full.combat"
    if u.id in cur.units:
        return f"{u.id} is already in this attack", "cen:full.combat"
    if u.id in allocated_units(attacks):
        return (f"{u.id} is already allocated to another attack: no unit may take part in more than one attack "
                f"a turn (case L)", "cen:full.combat")
    why = _cannot_attack(state, u)
    if why is not None:
        return why
    if mode in ("melee", "both"):
        why = _melee_problem(state, u, target)
        if why is not None:
            return why
        same = _melee_mates(state, attacks, cur, target, u.hex)
        li = opt.active(state, "cen:rom.legion-integrity")
        h = melee.homogeneity_problem([unit_type(state, x) for x in [*same, u]], [x.group for x in [*same, u]], li) \
            if same else None
        if h is not None:
            return f"{h} (case H)", "cen:rom.legion-integrity" if "legion" in h else "cen:full.combat"
        b = book(state)
        if unit_type(state, u).charge_length > 0 and u.charged_this_turn and u.hex is not None:
            start = b.charge_start.get(u.id)
            others = [b.charge_start[x] for x in cur.units if x in b.charge_start and state.units[x].hex == u.hex]
            if start is not None:
                p = cavalry.charge_problem(u.hex, target, u.facing, others, start)
                if p is not None:
                    return (f"{u.id} charged from {state.hid(start)} to {state.hid(u.hex)}: {p}; charges must be "
                            f"straight along their whole length and end adjacent to the attacked unit, facing it",
                            "cen:full.cavalry")
        if mode == "both":
            cap = capability(state, u)
            if cap is None or cap.fire_and_melee != "same-target":
                return (f"{u.id} may not fire and melee in one turn: only Byzantine Cataphracts may, and only against "
                        f"the same target", "cen:full.cavalry")
            return fire_problem(state, u, target)
        return None
    return fire_problem(state, u, target)


def _barred_melee(state: CenturionState, side: str, h: Hex, attacks: Sequence[Attack]) -> tuple[str, str] | None:
    """Why the nearest unallocated unit of ``side`` that fronts ``h`` may still not join a melee on it
    (case H with stack-mates already meleeing it, or its charge: see ``_join_problem``), or None."""
    used = allocated_units(attacks)
    for u in sorted((u for u in state.live_units(side) if u.hex is not None and u.id not in used),
                    key=lambda u: (u.hex.distance(h), u.id)):
        if _cannot_attack(state, u) is not None or _melee_problem(state, u, h) is not None:
            continue
        why = _join_problem(state, side, u, h, "melee", attacks, Attack(h, "melee"))
        if why is not None:
            if u.id in why[0]:
                return why
            return f"{u.id} at {state.hid(u.hex)} may not melee {state.hid(h)}: {why[0]}", why[1]
    return None


def _target_problem(state: CenturionState, side: str, h: Hex, attacks: Sequence[Attack]) -> tuple[str, str]:
    """Why no attack may be allocated against ``h``: the reason of the nearest of ``side``'s units."""
    hk = state.hid(h)
    if state.side_at(h) in (None, side) and not is_deserter_hex(state, side, h):
        return f"{hk} holds no enemy units (nor deserters of yours)", "cen:full.combat"
    if any(a.target == h for a in attacks) and not open_targets(state, side, attacks).get(h):
        barred = _barred_melee(state, side, h, attacks)
        if barred is not None:
            return barred
        return (f"{hk} is already attacked by every unit of yours that can reach it (case L: one attack a unit)",
                "cen:full.combat")
    used = allocated_units(attacks)
    cands = sorted((u for u in state.live_units(side) if u.hex is not None and u.id not in used),
                   key=lambda u: (u.hex.distance(h), u.id))
    if not cands:
        return "all your units are already allocated to attacks (case L)", "cen:full.combat"
    melee_why: tuple[str, str] | None = None
    fire_why: tuple[str, str] | None = None
    other: tuple[str, str] | None = None
    for u in cands:
        why = _cannot_attack(state, u)
        if why is not None:
            other = other or why
            continue
        if fire_why is None and unit_type(state, u).fire > 0:
            fire_why = fire_problem(state, u, h)
        if melee_why is None and (capability(state, u) is None or capability(state, u).melee_offence != "no"):
            melee_why = _melee_problem(state, u, h)
        if melee_why is not None and fire_why is not None:
            break
    parts = [w for w in (melee_why, fire_why) if w is not None] or ([other] if other else [])
    if not parts:
        return (f"no unit of yours can attack {hk} now (attacks go only to the front, in melee from an adjacent "
                f"hex, in fire within range: cases A, B, M)", "cen:full.combat")
    return "; and ".join(p[0] for p in parts), parts[0][1]


def _allocation_record(state: CenturionState, attacks: Sequence[Attack]) -> list[tuple[str, str, list[str]]]:
    """The attacks allocated so far as plain data (target hex ID, mode, unit IDs), for a
    question's context: the odds shown before an attack is committed (full/odds.py) read them."""
    return [(state.hid(a.target), a.mode, list(a.units)) for a in attacks]


def allocation_phase(ctx: Context, state: CenturionState, side: str) -> Generator[Decision, str, list[Attack]]:
    """Attack Allocation (cen:full.sequence phase 2, cen:full.defensive-fire E)."""
    attacks: list[Attack] = []
    rule = "cen:full.combat"
    dropped: set[tuple[Hex, str]] = set()
    """Target/mode pairs found non-viable this phase: not offered again (keeps the phase finite)."""
    memo: _Memo = {}
    while True:
        tg = open_targets(state, side, attacks, memo)
        for h, m in dropped:
            if h in tg:
                tg[h].discard(m)
                if not tg[h]:
                    del tg[h]
        if not tg:
            break
        opts = [Option(DONE, "end Attack Allocation")]
        for h in sorted(tg, key=state.hid):
            opts.append(Option(state.hid(h), f"{stack_text(state, h)} ({'/'.join(sorted(tg[h]))})", h))

        def refuse(text: str, _tg: dict = tg) -> tuple[str, str] | None:
            try:
                h = state.hex_of(text.strip())
            except ValueError as exc:
                u = _unit_of(state, text)
                if u is not None:
                    return f"answer the target hex (the enemy stack), not a unit: {u.id} is chosen next", rule
                return f"{exc}: answer an enemy-held hex ID or done", rule
            for hh, m in dropped:
                if hh == h:
                    return (f"an attack on {text.strip()} would be below 1-2 (non-viable) with the units that can "
                            f"still reach it", "cen:full.defensive-fire")
            return _target_problem(state, side, h, attacks)

        key = yield Decision(side, f"Attack Allocation, turn {state.turn}: choose a target hex, or done",
                             tuple(opts), rule=SEQ, kind=Kind.ATTACK_TARGET, refuse=refuse,
                             context={"highlight": [o.key for o in opts[1:]], "modes": {
                                 state.hid(h): sorted(m) for h, m in tg.items()},
                                 "allocated": _allocation_record(state, attacks)})
        if key == DONE:
            break
        target = state.hex_of(key)
        modes = sorted(tg[target])
        mode = modes[0]
        if len(modes) > 1:
            labels = {"melee": "melee attack", "fire": "missile fire", "both": "fire and melee (cataphracts, same target)"}
            def refuse_mode(text: str, _modes: list[str] = modes, _key: str = key) -> tuple[str, str] | None:
                m = text.strip().lower()
                if m == "both":
                    return (f"no unit of yours may both fire at and melee {_key}: only Byzantine Cataphracts fire "
                            f"and melee in one turn, against the same target", "cen:full.cavalry")
                if m in ("fire", "melee"):
                    return (f"no unit of yours may {'fire at' if m == 'fire' else 'melee'} {_key} now "
                            f"(modes open: {', '.join(_modes)})", rule)
                return None

            mode = yield Decision(side, f"Attack on {key}: melee or missile?",
                                  tuple(Option(m, labels[m]) for m in modes), rule=rule, kind=Kind.ATTACK_MODE,
                                  refuse=refuse_mode,
                                  context={"target": key, "allocated": _allocation_record(state, attacks)})
        cur = Attack(target, mode)
        while True:
            el = eligible(state, side, target, mode, attacks, cur, memo=memo)
            if not el:
                break
            o2 = [Option(DONE, "no more units for this attack" if cur.units else "cancel this attack")]
            o2.append(Option("all", f"every eligible unit ({len(el)})"))
            for u in el:
                o2.append(Option(u.id, state.describe(u) + _charge_note(state, u)))
            def refuse_unit(text: str, _cur: Attack = cur, _mode: str = mode) -> tuple[str, str] | None:
                u = _unit_of(state, text)
                if u is None:
                    return None
                return _join_problem(state, side, u, _cur.target, _mode, attacks, _cur)

            k2 = yield Decision(side, f"{mode} attack on {key}: add a unit, all, or done", tuple(o2), rule=rule,
                                kind=Kind.ATTACK_UNIT, refuse=refuse_unit,
                                context={"highlight": sorted({state.hid(u.hex) for u in el}), "target": key,
                                         "mode": mode, "chosen": list(cur.units),
                                         "allocated": _allocation_record(state, attacks)})
            if k2 == DONE:
                break
            if k2 == "all":
                fill_all(state, side, attacks, cur, memo)
                break
            cur.units.append(k2)
        if not cur.units:
            continue
        if mode != "fire" and viability(state, side, cur) is None:
            log_event(ctx, state, "combat", f"the attack on {key} would be below 1-2 (non-viable) and is not made",
                 ("cen:full.defensive-fire", rule), side=side)
            best = fill_all(state, side, attacks, Attack(target, mode), memo)
            if not best.units or viability(state, side, best) is None:
                dropped.add((target, mode))
            continue
        attacks.append(cur)
        log_event(ctx, state, "combat", f"{side} allocates a {mode} attack on {key}: {', '.join(cur.units)}",
             (SEQ, rule), side=side, target=key, units=list(cur.units), mode=mode)
    barbarian_must_attack(ctx, state, side, attacks)
    return attacks
