"""Exact odds of one attack: hits, flags, elimination (``ancients odds ccancients_rome ...``).

Serves ``ccr:base.dice`` (six faces), ``ccr:base.close-combat`` and
``ccr:base.ranged`` (which faces hit), ``ccr:base.retreat`` (flags ignored for
a leader, support, the Guard), ``ccr:heavy-cataphract`` /
``ccr:cataphract-camel`` (a sword ignored; all swords against an elephant), using
:func:`ancients_kit.chance.symbol_pool_joint`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ancients_kit.chance import symbol_pool_joint
from ancients_kit.data import DataStore
from ancients_kit.errors import ParameterError
from ancients_kit.plugin import OddsReport, parse_flag, parse_int
from ancients_kit.tables import probability_percent, probability_text

from .combat import close_dice, close_hit_symbols, flags_ignored, ranged_dice
from .dice import BATTLE_DIE
from .units import can_evade, load_units
from .vocab import Kind

__all__ = ["HELP", "decision_odds", "odds"]

HELP = """ancients odds ccancients_rome dice=N target=light|medium|heavy|UNITCODE [key=value ...]
  dice=N            battle dice rolled (after terrain caps and cards)
  target=...        die symbol that hits the target, or its unit code (HI, LC, HCC ...)
  mode=close|ranged close combat (swords hit; default) or ranged combat (only the symbol hits)
  attacker=CODE     the rolling unit's code: light foot and light cavalry (LI LS LB LC LBC) score no sword hits
  leader=yes        a friendly leader is attached or adjacent (leader symbols hit in close combat)
  guard=yes         the attacker is the Praetorian Guard (leader symbols hit)
  blocks=N          blocks the target has left (default: a full unit)
  ignore_swords=N   swords the target ignores (default: 1 for HCC and CCA, all for EL)
  ignore_flags=N    flags the target ignores; or give them as:
  target_leader=yes support=yes target_guard=yes   (one flag each)"""


def _flag(params: Mapping[str, str], key: str) -> bool:
    return parse_flag(params.get(key, "no"), key)  # a typo is refused, never read as "no"


def odds(store: DataStore, params: Mapping[str, str]) -> OddsReport:
    known = {"dice", "target", "mode", "attacker", "leader", "guard", "blocks", "ignore_swords", "ignore_flags", "target_leader",
             "support", "target_guard"}
    bad = set(params) - known
    if bad:
        raise ParameterError(f"unknown parameter(s) {', '.join(sorted(bad))}")
    if "dice" not in params or "target" not in params:
        raise ParameterError("dice=N and target=... are required")
    n = parse_int(params, "dice", 0)
    if n > 12:
        raise ParameterError("at most 12 dice", name="dice")
    units = load_units(store).types
    tgt = params["target"]
    code = tgt.upper()
    if code in units:
        symbol = units[code].symbol
        blocks_default = units[code].blocks
        ign_sw = units[code].ignore_swords
    elif tgt.lower() in ("light", "medium", "heavy"):
        symbol, blocks_default, ign_sw, code = tgt.lower(), 4, 0, ""
    else:
        raise ParameterError(f"target={tgt!r}: give light, medium, heavy or a unit code ({', '.join(units)})", name="target")
    mode = params.get("mode", "close").lower()
    if mode not in ("close", "ranged"):
        raise ParameterError(f"mode={mode!r}: close or ranged", name="mode")
    close = mode == "close"
    att_code = params.get("attacker", "").upper()
    if att_code and att_code not in units:
        raise ParameterError(f"attacker={params['attacker']!r}: give a unit code ({', '.join(units)})",
                             name="attacker")
    sword_hits = close and (not att_code or units[att_code].sword_hits)  # ccr:base.dice
    leader = _flag(params, "leader") or _flag(params, "guard")
    blocks = parse_int(params, "blocks", blocks_default)
    if code in units and units[code].ignore_all_swords:
        ign_sw = 12  # swords never hit an elephant (ccr:base.close-combat)
    ign_sw = parse_int(params, "ignore_swords", ign_sw) if close else 0
    ign_fl = parse_int(params, "ignore_flags", sum(_flag(params, k) for k in ("target_leader", "support", "target_guard")))
    cats = {"symbol": {symbol}, "swords": {"swords"} if sword_hits else set(), "leader": {"leader"} if (close and leader) else set(),
            "flags": {"flag"}}
    cats = {k: v for k, v in cats.items() if v}
    joint = symbol_pool_joint(BATTLE_DIE, n, cats)
    names = list(cats)
    dist: dict[str, Fraction] = {}
    elim = Fraction(0)
    by_hits: dict[int, Fraction] = {}
    retreat = Fraction(0)
    for counts, p in joint.items():
        c = dict(zip(names, counts))
        hits = c.get("symbol", 0) + max(0, c.get("swords", 0) - ign_sw) + c.get("leader", 0)
        flags = max(0, c.get("flags", 0) - ign_fl)
        by_hits[min(hits, blocks)] = by_hits.get(min(hits, blocks), Fraction(0)) + p
        if hits < blocks and flags:
            retreat += p
        if hits >= blocks:
            label = "eliminated"
            elim += p
        else:
            label = f"{hits} hit{'s' if hits != 1 else ''}, {flags} flag{'s' if flags != 1 else ''} to retreat"
        dist[label] = dist.get(label, Fraction(0)) + p
    order = sorted(dist, key=lambda k: (k == "eliminated", k))
    explain = (
        f"{n} battle dice, {mode} combat; hitting faces: {symbol}" + (", swords" if sword_hits else "") +
        (", leader" if close and leader else ""),
        f"target {code or symbol}: {blocks} block{'' if blocks == 1 else 's'}; ignores {ign_sw} sword(s) and {ign_fl} flag(s)",
        f"P(eliminated) = {probability_text(elim)}",
        "hits: " + ", ".join(f"{k}{'+' if k == blocks else ''}: {probability_percent(v)}" for k, v in sorted(by_hits.items())),
        f"P(retreat) = {probability_text(retreat)}",
    )
    rules = ("ccr:base.dice", "ccr:base.close-combat" if close else "ccr:base.ranged", "ccr:base.retreat")
    return OddsReport(f"{n} dice against {code or symbol} ({mode} combat)", {k: dist[k] for k in order}, explain, rules)


def decision_odds(state: Any, decision: Any, key: str, store: DataStore) -> OddsReport | None:
    """Odds of the battle a ``battle.target`` answer starts, before any die is rolled.

    The unit battling is ``state.b.current``; its dice come from
    :func:`~.combat.close_dice` (the card's bonus from ``state.b.plan``) or
    :func:`~.combat.ranged_dice`, its hitting faces from
    :func:`~.combat.close_hit_symbols`, the flags the target ignores from
    :func:`~.combat.flags_ignored`; the report is :func:`odds` for the same
    inputs (``ancients odds ccancients_rome ...``, printed with it). Battle
    back, evasion and sword re-rolls come after this roll and are named, not
    counted.
    """
    if decision.kind != Kind.BATTLE_TARGET or key not in decision.keys or key == "back":
        return None
    bs = state.battle
    att = bs.current if bs is not None else None
    tgt = bs.at.get(key) if bs is not None else None
    if att is None or tgt is None or tgt.side == att.side:
        return None
    label = decision.option(key).label
    close = not label.startswith("ranged")
    at_, tt = bs.types[att.code], bs.types[tgt.code]
    if close:
        bonus = bs.plan.cc_bonus if (bs.plan is not None and att.ordered) else 0
        n = close_dice(bs, att, tgt, bonus)
        leader = "leader" in close_hit_symbols(bs, att, tgt)
        laager = not tt.mounted and any(w.hex == tgt.hex and w.kind == "wagon-laager" and w.side == tgt.side
                                        for w in bs.wagons)
        ign_sw = 12 if tt.ignore_all_swords else tt.ignore_swords + (1 if laager else 0)
    else:
        n, leader, ign_sw = ranged_dice(bs, att, tgt.hex), False, 0
    ign_fl, why = flags_ignored(bs, tgt, att, close)
    params = {"dice": str(n), "target": tgt.code, "mode": "close" if close else "ranged", "attacker": att.code,
              "leader": "yes" if leader else "no", "blocks": str(tgt.blocks),
              "ignore_swords": str(ign_sw), "ignore_flags": str(ign_fl)}
    report = odds(store, params)
    notes = [f"{att.code}@{att.hex} against {tgt.code}@{tgt.hex}" + (f"; flags ignored: {', '.join(why)}" if why else "")]
    if close and can_evade(tt, att.code, at_):
        notes.append("if the target stands: it may evade instead (ccr:base.evade)")
    if close and at_.reroll_swords:
        notes.append("sword re-rolls are not counted here")
    if close and tt.ignore_vs_mounted and at_.mounted:
        notes.append("the target ignores one hit from cavalry or chariots: not counted here")
    if close:
        notes.append("battle back follows if the target stays (ccr:base.close-combat)")
    command = "ancients odds ccancients_rome " + " ".join(f"{k}={v}" for k, v in params.items())
    return OddsReport(report.title, report.distribution, (*report.explain, *notes, f"same as: {command}"),
                      report.rules, report.legend)
