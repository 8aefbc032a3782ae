"""Odds before you commit, for Full Simulation attacks (issue 14 item 2).

Every attack question of the Full Simulation (cen:full.sequence) -- the
target hex of Attack Allocation, the kind of attack, each unit added (or
``all``, or ``done``), and the defender's choice of a hex for Defensive Fire
-- can show the exact outcome distribution of the attack that answer makes:
the CRT column and the probability of each of its results. The factors,
rounding and die modifier are computed by the same functions that resolve
the attack (``full/combat.py``: ``melee_sides``, ``melee_rounding``,
``command_modifier``, and the fire module's FEM and Fire Protection), and
the distribution is the odds calculator's
(:func:`ancients_games.centurion.odds.odds`) for those numbers, so the report
names the ``ancients odds centurion ...`` command that prints the same figures.

What the odds cannot know at Attack Allocation, they say: Defensive Fire may
still disperse or destroy attackers and your own Offensive Fire the
defenders (cen:full.defensive-fire), so the melee odds are those of the
position now. A square (cen:full.square C) and a stack facing several ways
attacked from several sides (cen:full.combat J) fight one battle for each
attacking hexside: each battle's column and odds are listed, the first in
full.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

from ancients_kit.data import DataStore
from ancients_kit.plugin import OddsReport
from ancients_kit.protocol import Decision
from ancients_kit.tables import probability_percent

from ancients_games.centurion.full import fire, melee, options as opt, square
from ancients_games.centurion.full.allocation import fill_all, open_targets
from ancients_games.centurion.full.book import DONE, book
from ancients_games.centurion.full.combat import (
    Attack, attack_out, command_modifier, fire_rounding, fpf_multiplier, hex_defence_multiplier, melee_rounding,
    melee_sides, merged,
)
from ancients_games.centurion.full.melee_phase import split_battles
from ancients_games.centurion.full.units import can_fire, fire_factor, is_command, melee_factor, unit_type
from ancients_games.centurion.model import UnitKind
from ancients_games.centurion.odds import odds as crt_odds
from ancients_games.centurion.state import CenturionState, Unit
from ancients_games.centurion.vocab import Kind

__all__ = ["full_decision_odds"]

BEFORE_FIRE = ("made now: Defensive Fire may still weaken the attackers, and your Offensive Fire the defenders "
               "(cen:full.defensive-fire)")


def _odds(store: DataStore, crt: str, attack: Fraction, defence: Fraction, rounding: str,
          modifier: int) -> tuple[OddsReport, str]:
    """The odds calculator (:func:`~ancients_games.centurion.odds.odds`) for exact factors
    (scaled to whole numbers as the resolution does) and the command."""
    ai, di = fire.whole_odds(attack, defence)
    params = {"attack": str(ai), "defense": str(di), "rounding": rounding}
    if modifier:
        params["modifier"] = str(modifier)
    if crt == "fire":
        params["crt"] = "fire"
    command = "ancients odds centurion " + " ".join(f"{k}={v}" for k, v in params.items())
    return crt_odds(store, params), command


def _certain(title: str, result: str, why: str, rules: tuple[str, ...]) -> OddsReport:
    return OddsReport(title, {result: Fraction(1)}, (why,), rules, {})


def _non_viable(title: str, exc: Exception, rules: tuple[str, ...]) -> OddsReport:
    return OddsReport(f"{title} is non-viable", {}, (str(exc),), (*rules, "cen:full.defensive-fire"), {})


def melee_odds(state: CenturionState, store: DataStore, side: str, a: Attack,
               how: str) -> OddsReport | None:
    """The odds of melee attack ``a`` (with every melee already allocated on its hex: one
    battle, cen:full.combat J), as ``melee_phase``'s ``_melee_one`` / ``_melee_square`` would roll it now."""
    key = state.hid(a.target)
    defenders = list(state.stack_at(a.target))
    if not defenders or not a.units:
        return None
    b = book(state)
    rules: tuple[str, ...] = ("cen:full.combat", "cen:full.facing")
    if all(unit_type(state, x).kind is UnitKind.MOUNT for x in defenders):
        return _certain(f"melee on {key}: {how}", "DE", "riderless mounts are destroyed when attacked",
                        ("cen:opt.mount-dismount",))
    battles: list[tuple[str, list[Unit] | None, list[Unit] | None]] = []
    sq = [x for x in defenders if x.in_square]
    if sq:
        rules = ("cen:full.square", "cen:full.combat")
        by_hex: dict[Any, list[Unit]] = {}
        for i in a.units:
            u = state.units[i]
            if u.hex is not None and not u.eliminated and melee_factor(state, u) is not None:
                by_hex.setdefault(u.hex, []).append(u)
        battles = [(f"from {state.hid(h)}", grp, None) for h, grp in sorted(by_hex.items())]
    else:
        split = split_battles(state, a)
        if split is None:
            battles = [("", None, None)]
        else:
            battles = [(f"from {state.hid(grp[0].hex)} against {', '.join(d.id for d in dfs)}", grp, dfs)
                       for grp, dfs in split if grp and dfs]
    reports: list[tuple[str, OddsReport, str]] = []
    for label, grp, dfs in battles:
        if sq:
            assert grp is not None
            h = grp[0].hex
            heavy = b.weather in ("heavy-rain", "mud")
            tribe = opt.active(state, "cen:barb.tribe")
            att = sum((melee.attacker_factor(melee.Attacker(
                unit_type(state, u), h, bool(u.demoralized),
                melee_factor(state, u) if unit_type(state, u).charge_length > 0 else None,
                attack_out(state, h, a.target), halved=tribe and opt.isolated_tribesman(state, u)), heavy)
                for u in grp), Fraction(0))
            dfn = square.square_defence([unit_type(state, x) for x in sq], state.capability)
            dfn *= hex_defence_multiplier(state, a.target, [u.hex for u in grp])
            units, hexes = grp, [h]
        else:
            att, dfn, units, hexes = melee_sides(state, side, a, grp, dfs)
        if not units:
            continue
        rnd, rrules = melee_rounding(state, b, side, hexes, a.target)
        mod, crules = command_modifier(state, side, units, False if sq else any(is_command(state, u)
                                                                                   for u in units))
        extra = (*rrules, *crules)
        if any(unit_type(state, u).charge_length > 0 for u in units) and not sq:
            extra = ("cen:full.cavalry", *extra)
        title = f"melee on {key}{' ' + label if label else ''}: {how} ({', '.join(u.id for u in units)})"
        if dfn <= 0:
            reports.append((title, _certain(title, "DE", "the defenders cannot defend", (*rules, *extra)), ""))
            continue
        try:
            report, command = _odds(store, "melee", att, dfn, rnd, mod)
        except ValueError as exc:
            reports.append((title, _non_viable(f"{title}: {att} vs {dfn}", exc, rules), ""))
            continue
        explain = [f"melee attack {att} against defence {dfn} -> {report.title.split(' at ')[-1]}",
                   f"rounded for the {rnd}" + (f", die modified {mod:+d}" if mod else "")]
        reports.append((title, attrs.evolve(report, title=f"{report.title}: {title}", explain=tuple(explain),
                                            rules=tuple(dict.fromkeys((*rules, *extra)))), command))
    return _joined(reports)


def _joined(reports: Sequence[tuple[str, OddsReport, str]]) -> OddsReport | None:
    """One report; when a hex fights several battles, the first in full and a line for each other."""
    if not reports:
        return None
    _, first, command = reports[0]
    more: list[str] = []
    if len(reports) > 1:
        more.append(f"one battle for each attacking hexside ({len(reports)}): the first above; the others:")
        for _, r, cmd in reports[1:]:
            parts = ", ".join(f"{k} {probability_percent(v)}" for k, v in r.distribution.items()) or "non-viable"
            more.append(f"  {r.title}: {parts}" + (f" (same as: {cmd})" if cmd else ""))
    tail = (f"same as: {command}",) if command else ()
    return attrs.evolve(first, explain=(*first.explain, *more, *tail))


def fire_odds(state: CenturionState, store: DataStore, side: str, firers: Sequence[Unit], target: Any,
              modifier: int, rules: tuple[str, ...], how: str) -> OddsReport | None:
    """The odds of fire by ``firers`` at ``target`` as ``fire_phase._resolve_fire`` would roll it now
    (FEM cen:full.fem, Fire Protection cen:full.fire-protection)."""
    targets = list(state.stack_at(target))
    firers = [u for u in firers if not u.eliminated and u.hex is not None]
    if not targets or not firers:
        return None
    key = state.hid(target)
    b = book(state)
    f_hexes = sorted({u.hex for u in firers if u.hex is not None})
    fcf = fire.effective_fire([fire_factor(state, u) for u in firers], [unit_type(state, x) for x in targets])
    fpf = fire.stack_fpf(target, [(unit_type(state, x), None if unit_type(state, x).kind is UnitKind.MOUNT else x.facing)
                                  for x in targets], f_hexes, fpf_multiplier(state, target),
                         [bool(x.building) for x in targets], [x.in_square for x in targets])
    cmod, crules = command_modifier(state, side, firers, False)
    mod = modifier + cmod
    rules = tuple(dict.fromkeys((*rules, *crules, *(("cen:opt.fortune",) if b.fortune == side else ()))))
    title = f"fire at {key}: {how} ({', '.join(u.id for u in firers)})"
    if fpf <= 0:
        return _certain(title, "DE", "nothing protects the target", rules)
    rnd = fire_rounding(state, b, side)
    try:
        report, command = _odds(store, "fire", fcf, fpf, rnd, mod)
    except ValueError as exc:
        return _non_viable(f"{title}: fire {fcf} vs protection {fpf}", exc, rules)
    explain = (f"fire {fcf} (FEM) against protection {fpf} -> {report.title.split(' at ')[-1]}",
               f"rounded for the {rnd}" + (f", die modified {mod:+d}" if mod else ""), f"same as: {command}")
    return attrs.evolve(report, title=f"{report.title}: {title}", explain=explain, rules=rules)


def _allocated(state: CenturionState, d: Decision) -> list[Attack]:
    out = []
    for hid, mode, units in d.context.get("allocated", ()):
        out.append(Attack(state.hex_of(hid), mode, list(units)))
    return out


def _attack_odds(state: CenturionState, store: DataStore, side: str, attacks: list[Attack],
                 cur: Attack, how: str) -> OddsReport | None:
    """The odds of ``cur`` (fire, melee, or a cataphract's both: its melee) joined with the
    attacks of its kind already allocated on its hex (one attack a hex, cen:full.combat I, J)."""
    mode = "fire" if cur.mode == "fire" else "melee"
    joined = merged([*attacks, cur], mode)
    whole = next((x for x in joined if x.target == cur.target), cur)
    if len(whole.units) > len(cur.units):
        how += f", with the {mode} already allocated on it"
    if mode == "fire":
        firers = [state.units[i] for i in whole.units if can_fire(state, state.units[i])]
        report = fire_odds(state, store, side, firers, cur.target, 0,
                           ("cen:full.combat", "cen:full.fire-protection", "cen:full.fem"), how)
        return report
    report = melee_odds(state, store, side, whole, how)
    if report is not None and report.distribution:
        report = attrs.evolve(report, explain=(*report.explain, BEFORE_FIRE))
    return report


def full_decision_odds(state: CenturionState, d: Decision, key: str,
                       store: DataStore) -> OddsReport | None:
    """The odds of answering Full Simulation question ``d`` with ``key``, or None if that
    answer starts or changes no attack (``done`` with nothing chosen, ``cancel``)."""
    side = d.side
    if d.kind == Kind.FIRE_DEFENSIVE:
        firers = d.context.get("firers", {}).get(key)
        if not firers:
            return None
        h = state.hex_of(key)
        allocated = set(d.context.get("allocated", ()))
        mod = 0
        rules: tuple[str, ...] = ("cen:full.defensive-fire", "cen:full.fire-protection", "cen:full.fem")
        here = [x for x in state.stack_at(h) if x.side != side]
        if any(x.in_square and x.id in allocated for x in here):
            mod += square.SQUARE_DEFENSIVE_FIRE_MODIFIER  # cen:full.square G, as the phase does
            rules = (*rules, "cen:full.square")
        return fire_odds(state, store, side, [state.units[i] for i in firers], h, mod, rules,
                         "every unused missile unit that reaches it")
    if d.kind not in (Kind.ATTACK_TARGET, Kind.ATTACK_MODE, Kind.ATTACK_UNIT):
        return None
    attacks = _allocated(state, d)
    if d.kind == Kind.ATTACK_TARGET:
        modes: Mapping[str, Sequence[str]] = d.context.get("modes", {})
        if key not in modes:
            return None
        # the kind the target takes by default (melee if it may), with every unit that may join
        mode = next((m for m in ("melee", "both", "fire") if m in modes[key]), None)
        if mode is None:
            return None
        target, chosen, how = state.hex_of(key), None, f"every unit that may join ({mode})"
    elif d.kind == Kind.ATTACK_MODE:
        target, mode, chosen, how = state.hex_of(str(d.context["target"])), key, None, "every unit that may join"
        if key not in d.keys:
            return None
    else:
        target, mode = state.hex_of(str(d.context["target"])), str(d.context["mode"])
        chosen = list(d.context.get("chosen", ()))
        if key == "all":
            how = "with every unit that may join"
            cur = fill_all(state, side, attacks, Attack(target, mode, chosen))
            return _warned(state, side, attacks, cur, _attack_odds(state, store, side, attacks, cur, how)) \
                if cur.units else None
        if key == DONE:
            if not chosen:
                return None
            how = "the units chosen"
        elif key in state.units and key in d.keys:
            chosen = [*chosen, key]
            how = f"the units chosen with {key}"
        else:
            return None
    if chosen is None:
        cur = fill_all(state, side, attacks, Attack(target, mode))
    else:
        cur = Attack(target, mode, chosen)
    if not cur.units:
        return None
    return _warned(state, side, attacks, cur, _attack_odds(state, store, side, attacks, cur, how))


def _warned(state: CenturionState, side: str, attacks: list[Attack], cur: Attack,
            report: OddsReport | None) -> OddsReport | None:
    """The report with a warning naming the enemy hexes this attack's units would leave with
    no unit to attack them (each unit makes one attack a turn; cen:full.combat)."""
    if report is None:
        return None
    before = set(open_targets(state, side, attacks)) - {cur.target}
    after = set(open_targets(state, side, [*attacks, cur]))
    left = sorted(state.hid(h) for h in before - after)
    if not left:
        return report
    return attrs.evolve(report, explain=(*report.explain,
                                         f"warning: leaves {', '.join(left)} with no unit to attack it this turn"))
