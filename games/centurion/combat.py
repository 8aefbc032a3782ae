"""Centurion melee odds and the Basic Game Combat Phase.

This module owns:

- the melee odds computation both versions use: factors in, the CRT column,
  rounding and exact distribution out (:func:`melee_resolution`,
  :func:`melee_distribution`, :func:`command_rounding`);
- the Basic Game Combat Phase (``cen:basic.combat`` cases A-J), staged as
  "choose a defending hex or done" -> "toggle attackers, attack or cancel" ->
  roll and apply the result at once.

Options the Basic Game honours: ``cen:opt.fortune`` (the fortunate side's
odds round in its favour) and ``cen:opt.weather`` (Spearmen halved in heavy
rain and mud; the lost Movement Factors are in ``basic.py``).

Rules served: ``cen:basic.combat`` (A adjacency; B voluntary; D one hex per
attacking unit; E up to eighteen attackers; F defenders in a hex combine; G
attacking stack-mates must share a Movement Factor Allowance, Command units
exempt; H not all of a stack need attack; I odds rounded for the defender; J
for the attacker with a friendly Command unit within five hexes unless an
enemy Command unit negates it); the CRT is ``crt_melee.toml`` (reconstructed,
read through :mod:`ancients_kit.tables`).

Readings the text leaves open (written down, not silent):

- Case J names no reference point for the *enemy* Command unit; here it
  negates when within five hexes of the defending hex (the friendly one must
  be within five hexes of any attacking unit, as printed).
- Case D makes each defending hex "the object of a separate attack", so a hex
  is attacked at most once per Combat Phase.
- The Basic Game text never defines "dispersed" (the CRT is on the mapsheet).
  Here a dispersed unit may not move or attack until it has sat out one of its
  own Player-Turns (the Full Simulation's "dispersed for one turn"), and the
  dispersed units of a hex together defend with :data:`DISPERSED_DEFENCE`
  (a player report, MISSING_DATA.md: "a dispersed stack defends at 1").
- "C" (contact) changes nothing in the Basic Game: adjacent units are already
  locked by the Zone of Control rule (cen:basic.zoc B).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from fractions import Fraction

from ancients_kit.hexgrid import Hex
from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.tables import OddsRefused, OddsTable, Resolution

from ancients_games.centurion.state import CenturionState, Unit, log
from ancients_games.centurion.vocab import Kind, Phase

__all__ = [
    "ATTACK_RANGE_COMMAND",
    "DISPERSED_DEFENCE",
    "apply_result",
    "basic_attack_factor",
    "basic_defence",
    "combat_phase",
    "command_rounding",
    "basic_weather",
    "eligible_attackers",
    "fortunate_side",
    "melee_distribution",
    "melee_resolution",
    "odds_label",
    "targets",
]

ATTACK_RANGE_COMMAND = 5
"""Case J: a friendly Command unit within five hexes rounds for the attacker."""

DISPERSED_DEFENCE = 1
"""Melee Defense of all the dispersed units of one hex together (reported, M)."""

DONE = "done"
ATTACK = "attack"
CANCEL = "cancel"
ALL = "all"


# ------------------------------------------------------------------ odds


def fortunate_side(state: CenturionState) -> str:
    """The side the Fortune Factor favours, or "" (cen:opt.fortune: ``first`` / ``second`` player)."""
    fo = state.options.get("fortune", "none")
    return state.sides[0] if fo == "first" else state.sides[1] if fo == "second" else ""


RAIN = ("heavy-rain", "mud")
"""Weather that costs two Movement Factors and halves Spearmen (cen:opt.weather 5, 6)."""
SPEARMEN = frozenset({"SP", "PK"})


def basic_weather(state: CenturionState) -> str:
    """The weather of a Basic Game (rolled or fixed at the start, cen:opt.weather)."""
    return state.extra.get("basic_weather", "fine")


def _spear_halved(state: CenturionState, unit: Unit) -> bool:
    return unit.type in SPEARMEN and basic_weather(state) in RAIN


def command_rounding(
    state: CenturionState, attacker_hexes: Iterable[Hex], defender_hex: Hex, side: str
) -> tuple[str, str]:
    """Rounding for an attack (cen:basic.combat I, J; cen:opt.fortune) and why.

    Returns ``("attacker" | "defender", explanation)``.
    """
    if fortunate_side(state) == side:
        return "attacker", "rounded for the attacker: the Fortune Factor favours it (cen:opt.fortune)"
    hexes = list(attacker_hexes)
    friendly = [
        c for c in state.live_units(side)
        if state.types[c.type].is_command and c.hex is not None
        and any(c.hex.distance(h) <= (0 if c.dispersed else ATTACK_RANGE_COMMAND) for h in hexes)
    ]
    if not friendly:
        return "defender", "rounded for the defender (case I)"
    enemy = state.commands_within(defender_hex, state.opponent(side), ATTACK_RANGE_COMMAND)
    if enemy:
        return "defender", (
            f"rounded for the defender: {friendly[0].id} within five hexes is negated by enemy {enemy[0].id} (case J)"
        )
    return "attacker", f"rounded for the attacker: {friendly[0].id} within five hexes (case J)"


def melee_resolution(
    table: OddsTable, attack: int, defense: int, roll: int, rounding: str = "defender", modifier: int = 0, shift: int = 0
) -> Resolution:
    """Read the melee CRT (pure; :class:`OddsRefused` below 1-2)."""
    return table.resolve(attack, defense, roll, shift=shift, modifier=modifier, rounding=rounding)


def melee_distribution(
    table: OddsTable, attack: int, defense: int, rounding: str = "defender", modifier: int = 0, shift: int = 0
) -> dict[str, Fraction]:
    """Exact result distribution of a melee attack (sums to 1)."""
    return table.distribution(attack, defense, shift=shift, modifier=modifier, rounding=rounding)


def odds_label(table: OddsTable, attack: int, defense: int, rounding: str = "defender", shift: int = 0) -> str:
    """CRT column an attack is read on, or ``non-viable`` below 1-2."""
    try:
        col = table.odds(attack, defense, rounding, shift)
    except OddsRefused:
        return "non-viable"
    return getattr(col, "label", None) or getattr(col, "result", "?")


# ------------------------------------------------------------------ Basic Game factors


def basic_attack_factor(state: CenturionState, unit: Unit) -> int:
    """Printed Basic Game attack factor (cen:basic.unit-types)."""
    t = state.types[unit.type]
    v = t.basic.attack if t.basic is not None else t.melee_attack
    return v // 2 if _spear_halved(state, unit) else v  # cen:opt.weather: Spearmen halved in rain and mud


def basic_movement(state: CenturionState, unit: Unit) -> int:
    t = state.types[unit.type]
    return t.basic.movement if t.basic is not None else t.movement


def basic_defence(state: CenturionState, h: Hex) -> int:
    """Combined Melee Defense of the stack on ``h`` (case F); dispersed units
    of the hex together add :data:`DISPERSED_DEFENCE`."""
    total = 0
    dispersed = False
    for u in state.stack_at(h):
        if u.dispersed:
            dispersed = True
            continue
        t = state.types[u.type]
        v = t.basic.defence if t.basic is not None else t.melee_defence_front
        total += v // 2 if _spear_halved(state, u) else v  # cen:opt.weather
    return total + (DISPERSED_DEFENCE if dispersed else 0)


def eligible_attackers(state: CenturionState, side: str, target: Hex) -> list[Unit]:
    """``side``'s units that may join an attack on ``target``: adjacent (case A),
    not yet attacking this phase (case D), not dispersed, with an attack factor."""
    out = []
    for n in target.neighbors():
        for u in state.stack_at(n):
            if u.side == side and not u.attacked and not u.dispersed and basic_attack_factor(state, u) > 0:
                out.append(u)
    return out


def targets(state: CenturionState, side: str, attacked: set[Hex]) -> list[Hex]:
    """Enemy hexes ``side`` may still attack this phase, in hex-ID order."""
    enemy = state.opponent(side)
    seen: set[Hex] = set()
    for u in state.live_units(side):
        if u.attacked or u.dispersed or u.hex is None:
            continue
        for n in state.enemy_hexes_adjacent(u.hex, side):
            if n not in attacked and state.side_at(n) == enemy:
                seen.add(n)
    return sorted(seen, key=state.hid)


def stranded(state: CenturionState, side: str, attacked: set[Hex], target: Hex, group: Sequence[Unit]) -> list[str]:
    """Enemy hexes ``side`` could still attack this phase that no unit would be left to attack
    once ``group`` attacks ``target`` (each unit attacks once a phase, case D): the warning
    shown with ``all`` and ``attack`` (issue 14: ``all`` never strands a hex unawares)."""
    used = {u.id for u in group}
    return [state.hid(h) for h in targets(state, side, attacked | {target})
            if not any(u.id not in used for u in eligible_attackers(state, side, h))]


def _mfa_conflict(state: CenturionState, chosen: Sequence[Unit], unit: Unit) -> Unit | None:
    """A chosen stack-mate whose MFA differs from ``unit``'s (case G), if any."""
    if state.types[unit.type].is_command:
        return None
    mine = basic_movement(state, unit)
    for c in chosen:
        if c.hex == unit.hex and not state.types[c.type].is_command and basic_movement(state, c) != mine:
            return c
    return None


def best_group(state: CenturionState, candidates: Sequence[Unit]) -> list[Unit]:
    """The strongest case-G-compatible choice among ``candidates``: per hex,
    the MFA class with the most attack factors, plus every Command unit."""
    by_hex: dict[Hex, dict[int, list[Unit]]] = {}
    cmd: list[Unit] = []
    for u in candidates:
        if state.types[u.type].is_command:
            cmd.append(u)
            continue
        assert u.hex is not None
        by_hex.setdefault(u.hex, {}).setdefault(basic_movement(state, u), []).append(u)
    out: list[Unit] = []
    for groups in by_hex.values():
        best = max(groups.values(), key=lambda g: (sum(basic_attack_factor(state, x) for x in g), -len(g)))
        out.extend(best)
    return out + cmd


# ------------------------------------------------------------------ results


def apply_result(
    ctx: Context, state: CenturionState, res: Resolution, attackers: Sequence[Unit], target: Hex, rules: tuple[str, ...]
) -> None:
    """Apply a CRT result at once (cen:basic.combat procedure)."""
    defenders = list(state.stack_at(target))
    code = res.result
    if code == "DE":
        for u in defenders:
            state.remove(u)
        log(ctx, state, "loss", f"Defenders at {state.hid(target)} eliminated: {', '.join(u.id for u in defenders)}",
            rules, units=[u.id for u in defenders])
    elif code == "DD":
        for u in defenders:
            state.disperse(u)
        log(ctx, state, "result", f"Defenders at {state.hid(target)} dispersed: {', '.join(u.id for u in defenders)}",
            rules, units=[u.id for u in defenders])
    elif code == "AE":
        for u in attackers:
            state.remove(u)
        log(ctx, state, "loss", f"Attackers eliminated: {', '.join(u.id for u in attackers)}", rules,
            units=[u.id for u in attackers])
    elif code == "AD":
        for u in attackers:
            state.disperse(u)
        log(ctx, state, "result", f"Attackers dispersed: {', '.join(u.id for u in attackers)}", rules,
            units=[u.id for u in attackers])
    else:
        log(ctx, state, "result", f"Contact at {state.hid(target)}: no losses; the units stay locked together",
            (*rules, "cen:basic.zoc"))


# ------------------------------------------------------------------ the phase


def _summary(state: CenturionState, h: Hex) -> str:
    units = state.stack_at(h)
    kinds: dict[str, int] = {}
    for u in units:
        kinds[u.type] = kinds.get(u.type, 0) + 1
    return " ".join(f"{n}x{k}" if n > 1 else k for k, n in kinds.items())


def combat_phase(
    ctx: Context, state: CenturionState, side: str, table: OddsTable
) -> Generator[Decision, str, None]:
    """The Basic Game Combat Phase of ``side`` (cen:basic.combat)."""
    state.phase = Phase.COMBAT
    rule = "cen:basic.combat"
    attacked: set[Hex] = set()
    while True:
        hexes = targets(state, side, attacked)
        if not hexes:
            return
        opts = [Option(DONE, "end the Combat Phase")]
        for h in hexes:
            opts.append(Option(state.hid(h), f"{_summary(state, h)} (defence {basic_defence(state, h)})", h))

        def refuse_target(text: str) -> tuple[str, str] | None:
            try:
                h = state.hex_of(text.strip())
            except ValueError:
                return None
            occ = state.side_at(h)
            if occ is None:
                return f"{text} is empty", rule
            if occ == side:
                return f"{text} holds your own units", rule
            if h in attacked:
                return f"{text} has already been attacked this phase: each defending hex is one attack (case D)", rule
            return f"no unit of yours that has not yet attacked is adjacent to {text} (case A)", rule

        key = yield Decision(
            side,
            f"Combat Phase, turn {state.turn}: choose an enemy hex to attack, or done",
            tuple(opts),
            rule=rule,
            kind=Kind.COMBAT_HEX,
            refuse=refuse_target,
            context={"highlight": [o.key for o in opts[1:]], "attacked": sorted(state.hid(h) for h in attacked)},
        )
        if key == DONE:
            return
        target = state.hex_of(key)
        chosen: list[Unit] = []
        defence = basic_defence(state, target)
        while True:
            cands = eligible_attackers(state, side, target)
            attack = sum(basic_attack_factor(state, u) for u in chosen)
            rounding, why = command_rounding(state, {u.hex for u in chosen} or {c.hex for c in cands}, target, side)
            label = odds_label(table, attack, defence, rounding) if attack else "no attackers yet"
            aopts: list[Option] = []
            if chosen and label != "non-viable":
                aopts.append(Option(ATTACK, f"resolve {attack} vs {defence}: {label} ({why})"))
            aopts.append(Option(CANCEL, f"do not attack {key}"))
            if len(cands) > 1 and not chosen:
                aopts.append(Option(ALL, "choose the strongest allowed group"))
            for u in cands:
                mark = "[x]" if u in chosen else "[ ]"
                if u not in chosen and _mfa_conflict(state, chosen, u) is not None:
                    continue
                aopts.append(Option(u.id, f"{mark} {state.describe(u, with_id=False)}, attack {basic_attack_factor(state, u)}", u))

            def refuse_attacker(text: str, _chosen: list[Unit] = chosen) -> tuple[str, str] | None:
                u = state.units.get(text.strip().upper()) or state.units.get(text.strip())
                if u is None:
                    if text.strip().lower() == ATTACK and not _chosen:
                        return "choose an attacker first (type a unit's key or number), then attack", rule
                    if text.strip().lower() == ATTACK:
                        return f"odds of {attack} vs {defence} are below 1-2: the attack is non-viable", rule
                    return None
                if u.side != side:
                    return f"{u.id} is not yours", rule
                if u.attacked:
                    return f"{u.id} has already attacked this phase (case D)", rule
                if u.dispersed:
                    return f"{u.id} is dispersed and may not attack", rule
                if u.hex is None or not u.hex.is_adjacent(target):
                    return f"{u.id} is not adjacent to {key} (case A)", rule
                other = _mfa_conflict(state, _chosen, u)
                if other is not None:
                    return (
                        f"{u.id} and {other.id} share a hex but not a Movement Factor Allowance: "
                        f"they may not attack the same hex together (case G)", rule)
                return None

            akey = yield Decision(
                side,
                f"Attack on {key} ({_summary(state, target)}, defence {defence}): "
                f"toggle attackers, then attack (now {attack}: {label})",
                tuple(aopts),
                rule=rule,
                kind=Kind.COMBAT_ATTACKERS,
                refuse=refuse_attacker,
                context={"highlight": [key, *sorted({state.hid(u.hex) for u in cands})], "target": key,
                         "chosen": [u.id for u in chosen], "attacked": sorted(state.hid(h) for h in attacked)},
            )
            if akey == CANCEL:
                chosen = []
                break
            if akey == ALL:
                chosen = best_group(state, cands)
                continue
            if akey == ATTACK:
                break
            u = state.units[akey]
            if u in chosen:
                chosen.remove(u)
            else:
                chosen.append(u)
        if not chosen:
            continue
        attacked.add(target)
        attack = sum(basic_attack_factor(state, u) for u in chosen)
        rounding, why = command_rounding(state, {u.hex for u in chosen}, target, side)
        for u in chosen:
            u.attacked = True
        rules: tuple[str, ...] = ("cen:basic.combat",)
        if "cen:opt.fortune" in why:
            rules = (*rules, "cen:opt.fortune")
        if any(_spear_halved(state, u) for u in [*chosen, *state.stack_at(target)]):
            rules = (*rules, "cen:opt.weather")
        res = table.roll(ctx.chance, attack, defence, rounding=rounding, reason=f"attack on {key}", rules=rules)
        who = state.side_names.get(side, side)
        log(
            ctx, state, "combat",
            f"{who} attack {key} with {attack} vs {defence}: {res.final_column} ({why}), "
            f"roll {res.roll}: {res.result}",
            rules,
            target=key, attackers=[u.id for u in chosen], attack=attack, defence=defence,
            column=res.final_column, roll=res.roll, result=res.result,
        )
        apply_result(ctx, state, res, chosen, target, rules)
