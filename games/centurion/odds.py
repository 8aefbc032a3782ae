"""Centurion's odds: the calculator of ``ancients odds centurion``, and a Basic Game attack's odds.

:func:`odds` reads the melee CRT (``cen:basic.combat``: factors, odds,
rounding for the defender unless a Command unit rounds for the attacker,
cases I and J) or the missile fire table of the Full Simulation
(``cen:full.combat`` H: fire after FEM against Fire Protection) for the
factors it is given. :func:`decision_odds` shows, before the roll, the odds of
the attack a Basic Game answer makes; the Full Simulation's own attack
questions are answered by :mod:`ancients_games.centurion.full.odds`, which
reads the same calculator.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from ancients_kit.data import DataStore
from ancients_kit.errors import ParameterError
from ancients_kit.plugin import OddsReport
from ancients_kit.protocol import Decision
from ancients_kit.tables import OddsRefused, OddsTable

from ancients_games.centurion.combat import (
    ALL,
    ATTACK,
    basic_attack_factor,
    basic_defence,
    best_group,
    command_rounding,
    eligible_attackers,
    stranded,
)
from ancients_games.centurion.equipment import load_all, load_fire_crt
from ancients_games.centurion.state import CenturionState
from ancients_games.centurion.vocab import Kind

__all__ = ["HELP", "ODDS_RULE", "decision_odds", "odds"]

HELP = (
    "attack=N defense=N (or defence=N) [command=yes] [enemy_command=yes] [rounding=attacker|defender] "
    "[modifier=N] [crt=melee|fire]: melee odds on the CRT; a friendly Command unit within five hexes "
    "rounds for the attacker unless an enemy one negates it (cen:basic.combat I, J); modifier is added "
    "to the die; crt=fire reads the missile fire table (Full Simulation: fire after FEM against Fire "
    "Protection, cen:full.combat H)."
)
"""What ``ancients odds centurion`` takes (the game's ``odds_help``)."""

ODDS_RULE = "cen:basic.combat"
"""The rule the odds calculator's parameters describe (the combat procedure: factors, odds, rounding)."""


def odds(store: DataStore, params: Mapping[str, str]) -> OddsReport:
    """``ancients odds centurion``: the CRT's outcomes for the factors in ``params``
    (see :data:`HELP`; cen:basic.combat, cen:full.combat H). A parameter that
    cannot be read, or an attack below 1-2, is an :class:`~ancients_kit.errors.ParameterError`
    naming the parameter and its rule."""
    p = dict(params)

    def num(*names: str) -> int:
        for n in names:
            if n in p:
                try:
                    v = int(p[n])
                except ValueError:
                    raise ParameterError(f"{n} must be a whole number, not {p[n]!r}", name=n,
                                        rule=ODDS_RULE) from None
                if v < 0:
                    raise ParameterError(f"{n} must not be negative, got {v}", name=n, rule=ODDS_RULE)
                return v
        raise ParameterError(f"missing {names[0]}=N ({HELP})", name=names[0], rule=ODDS_RULE)

    def yes(name: str) -> bool:
        v = p.get(name, "no").strip().lower()
        if v in ("1", "yes", "y", "true", "on"):
            return True
        if v in ("0", "no", "n", "false", "off"):
            return False
        raise ParameterError(f"{name} takes yes or no, not {p[name]!r}", name=name,
                            rule="cen:basic.combat")

    known = {"attack", "defense", "defence", "command", "enemy_command", "rounding", "modifier", "crt"}
    unknown = sorted(set(p) - known)
    if unknown:
        raise ParameterError(f"unknown parameter(s) {', '.join(unknown)} ({HELP})",
                            name=unknown[0], rule=ODDS_RULE)
    attack = num("attack")
    defense = num("defense", "defence")
    modifier = 0
    if "modifier" in p:
        try:
            modifier = int(p["modifier"])
        except ValueError:
            raise ParameterError(f"modifier must be a whole number, not {p['modifier']!r}",
                                name="modifier", rule=ODDS_RULE) from None
    crt = p.get("crt", "melee").strip().lower()
    if crt not in ("melee", "fire"):
        raise ParameterError(f"crt is melee or fire, not {p['crt']!r} (cen:full.combat H: missile fire has its own "
                            f"table, crt_fire)", name="crt", rule="cen:full.combat")
    # Missile fire (Full Simulation) reads crt_fire.toml: fire factor after FEM against Fire Protection.
    table: OddsTable = load_all(store)["melee"] if crt == "melee" else load_fire_crt(store)
    explain = [f"attack {attack} against defence {defense} (cen:basic.combat procedure)" if crt == "melee" else
               f"fire {attack} against protection {defense} (cen:full.combat H, cen:full.fire-protection)"]
    if "rounding" in p:
        rounding = p["rounding"].strip().lower()
        if rounding not in ("attacker", "defender"):
            raise ParameterError(f"rounding is attacker or defender, not {p['rounding']!r}",
                                name="rounding", rule="cen:basic.combat")
        explain.append(f"rounded for the {rounding} (as asked)")
    elif yes("command") and not yes("enemy_command"):
        rounding = "attacker"
        explain.append("friendly Command unit within five hexes: rounded for the attacker (case J)")
    elif yes("command"):
        rounding = "defender"
        explain.append("enemy Command unit negates the friendly one: rounded for the defender (case J)")
    else:
        rounding = "defender"
        explain.append("rounded for the defender (case I)")
    try:
        col = table.odds(attack, defense, rounding)
    except OddsRefused as exc:
        raise ParameterError(f"{exc}: below 1-2 an attack is non-viable (cen:basic.combat, cen:full.defensive-fire)",
                            name="attack", rule="cen:basic.combat") from None
    label = getattr(col, "label", "")
    explain.append(f"{attack}:{defense} -> column {label}")
    if modifier:
        explain.append(f"die roll modifier {modifier:+d} (low rolls favour the attacker; clamped to 1-6)")
    dist = table.distribution(attack, defense, modifier=modifier, rounding=rounding)
    return OddsReport(
        title=f"Centurion {crt}: {attack} vs {defense} at {label}",
        distribution=dist,
        explain=tuple(explain),
        rules=(("cen:basic.combat",) + tuple(r for r in table.rules if r != "cen:basic.combat")) if crt == "melee"
        else tuple(table.rules),
        legend=dict(table.codes),
    )


def decision_odds(state: CenturionState, decision: Decision, key: str, store: DataStore) -> OddsReport | None:
    """The melee odds of a Basic Game attack before it is rolled (cen:basic.combat):
    choosing a target hex shows the strongest allowed group against it
    (what ``all`` would choose); toggling an attacker shows the group with
    it in or out; ``attack`` shows the group as chosen. The report is
    ``ancients odds centurion`` for the same factors and rounding."""
    if decision.kind == Kind.COMBAT_HEX:
        if key not in decision.keys or key == "done":
            return None
        target_id = key
    elif decision.kind == Kind.COMBAT_ATTACKERS:
        target_id = str(decision.context.get("target", ""))
    else:
        return None
    try:
        target = state.hex_of(target_id)
    except ValueError:
        return None
    side = decision.side
    cands = eligible_attackers(state, side, target)
    if decision.kind == Kind.COMBAT_HEX or key == ALL:
        group = best_group(state, cands)
        how = "the strongest allowed group"
    else:
        chosen = [state.units[u] for u in decision.context.get("chosen", ()) if u in state.units]
        if key == ATTACK:
            group, how = chosen, "the attackers chosen"
        elif key in state.units:
            u = state.units[key]
            group = [v for v in chosen if v is not u] if u in chosen else [*chosen, u]
            how = f"the attackers chosen {'without' if u in chosen else 'with'} {u.id}"
        else:
            return None
    if not group:
        return None
    attack = sum(basic_attack_factor(state, u) for u in group)
    defence = basic_defence(state, target)
    rounding, why = command_rounding(state, {u.hex for u in group}, target, side)
    params = {"attack": str(attack), "defense": str(defence), "rounding": rounding}
    try:
        report = odds(store, params)
    except ValueError as exc:
        return OddsReport(f"attack on {target_id}: {attack} vs {defence} is non-viable", {},
                          (str(exc),), ("cen:basic.combat",))
    command = "ancients odds centurion " + " ".join(f"{k}={v}" for k, v in params.items())
    attacked = {state.hex_of(h) for h in decision.context.get("attacked", ())}
    left = stranded(state, side, attacked, target, group)
    warn = (f"warning: leaves {', '.join(left)} with no unit to attack it this phase (case D)",) if left else ()
    return attrs.evolve(report, title=f"{report.title}: {how} ({', '.join(u.id for u in group)}) on {target_id}",
                        explain=(*(x for x in report.explain if not x.endswith("(as asked)")), why,
                                 f"same as: {command}", *warn))
