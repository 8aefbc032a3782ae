"""``ancients odds xenophon ...``: exact odds of battles, withdrawals, personal combat,
assassination, diplomacy, pillage and colonisation.

Each calculation is a pure function of numbers and the game's tables; the rules
modules own them (combat.py and leaders.py here, diplomacy.py and pillage.py
for the others), and this module only reads parameters and reports:

* ``what=battle`` (default): one of the three CRTs (``xen:crt``) at the
  multiplied strengths of ``xen:combat``; the CRT is chosen by the attacking
  force's composition, the attacker's best when several are allowed.
* ``what=withdrawal``: the defender's d6 + OV against the attacker's
  (``xen:combat``), then the d6 hexes walked.
* ``what=personal``: personal combat (``xen:opt.personal-combat``).
* ``what=assassination``: the D3 result's attempt (``xen:diplomacy``, ``xen:leaders``).
* ``what=diplomacy``, ``what=pillage``, ``what=colonisation``: their tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from ancients_kit.data import DataStore
from ancients_kit.errors import ParameterError
from ancients_kit.plugin import OddsReport, parse_flag, parse_int
from ancients_kit.tables import DifferentialTable, OddsTable, probability_text

from . import combat, diplomacy, leaders, model, pillage

__all__ = ["HELP", "odds", "parse_force"]

HELP = """ancients odds xenophon [what=battle] key=value ...
  what=battle (default): a battle on one of the three CRTs (xen:combat, xen:crt)
    attackers=FORCE   the attacking units, e.g. 4phalanx+2cavalry+leader
                      (CS from the unit chart), or
    attack=N          the attacking raw CS (leaders included)
    defenders=FORCE / defense=N   the same for the defenders
    crt=NAME          engagement, skirmish or combined-arms (default: the
                      attacker's best of those the force's composition
                      allows; engagement for attack=N)
    attack_leader=yes / defense_leader=yes   a leader's multiplier
                      (implied by a leader in the FORCE)
    attack_advantage=yes / defense_advantage=yes   a Military Advantage chit
    terrain=T         the defender's hex: clear, desert, rough, pass, city,
                      colony (x2: rough, pass, city, colony)
    siege=yes         a siege train with the attackers (x2 only against a
                      defender in terrain; implied by siege_train in FORCE)
  what=withdrawal defender_ov=N attacker_ov=N
                      withdrawal before battle (xen:combat)
  what=personal [leader=NAME] [other=NAME] [drm=N] [other_drm=N]
                      personal combat (Cyrus +1)
  what=assassination target=supreme|leader   the D3 assassination roll
  what=diplomacy agents=N [against=N] [shift=N]
                      uncancelled Agents (minus the other side's), shifts
  what=pillage units=N | force=FORCE
                      the Pillage Table (trains ignored, leaders counted)
  what=colonisation points=N | force=FORCE [clear=yes]
                      the Colonization Operations Table
FORCE: unit types joined by '+' or ',', each with an optional count:
  phalanx, cavalry, light, militia, barbarian_horde, elephant, fleet,
  siege_train, supply_train, leader"""

WHATS = ("battle", "withdrawal", "personal", "assassination", "diplomacy", "pillage", "colonisation")
_KNOWN = {
    "battle": {"attackers", "attack", "defenders", "defense", "crt", "attack_leader", "defense_leader",
               "attack_advantage", "defense_advantage", "terrain", "siege"},
    "withdrawal": {"defender_ov", "attacker_ov"},
    "personal": {"leader", "other", "drm", "other_drm"},
    "assassination": {"target"},
    "diplomacy": {"agents", "against", "shift"},
    "pillage": {"units", "force"},
    "colonisation": {"points", "force", "clear"},
}
TERRAINS = ("clear", "desert", "rough", "pass", "city", "colony")


_int = parse_int


def _flag(params: Mapping[str, str], key: str) -> bool:
    return parse_flag(params.get(key, "no"), key)


def parse_force(text: str, key: str, types: Mapping[str, model.UnitFactor]) -> list[str]:
    """``4phalanx+2cavalry+leader`` -> the unit types, one per unit (``xen:forces``: at most ten)."""
    out: list[str] = []
    for part in text.replace(",", "+").split("+"):
        part = part.strip().lower().replace("-", "_")
        if not part:
            continue
        digits = ""
        while part and part[0].isdigit():
            digits, part = digits + part[0], part[1:]
        part = part.strip()
        if ":" in part:
            part, _, digits = part.partition(":")
        name = part if part in types else part.rstrip("s") if part.rstrip("s") in types else ""
        if name == "" and part in ("horde", "barbarian", "barbarians"):
            name = "barbarian_horde"
        if not name:
            raise ParameterError(f"{key}: no unit type {part!r} (types: {', '.join(types)})", name=key)
        n = int(digits) if digits else 1
        out.extend([name] * n)
    if not out:
        raise ParameterError(f"{key}={text!r} names no units", name=key)
    if len(out) > combat.STACK_LIMIT:
        raise ParameterError(f"{key}: {len(out)} units; a force has at most ten (xen:forces, xen:stacking)", name=key,
                             rule="xen:forces")
    return out


def _report(title: str, dist: Mapping[str, Fraction], explain: list[str], rules: list[str],
            legend: Mapping[str, str] | None = None) -> OddsReport:
    lines = [*explain, *(f"P({k}) = {probability_text(v)}" for k, v in dist.items())]
    return OddsReport(title, dict(dist), tuple(lines), tuple(dict.fromkeys(rules)), dict(legend or {}))


def odds(store: DataStore, params: Mapping[str, str]) -> OddsReport:
    """The exact distribution of what ``params`` describe (see :data:`HELP`)."""
    p = {k.replace("defence", "defense"): v for k, v in params.items()}
    what = p.pop("what", "battle").strip().lower().replace("colonization", "colonisation")
    if what not in WHATS:
        raise ParameterError(f"what={what!r}: one of {', '.join(WHATS)}", name="what")
    bad = sorted(set(p) - _KNOWN[what])
    if bad:
        raise ParameterError(f"unknown parameter(s) for what={what}: {', '.join(bad)}", name=bad[0])
    return {"battle": _battle, "withdrawal": _withdrawal, "personal": _personal, "assassination": _assassination,
            "diplomacy": _diplomacy, "pillage": _pillage, "colonisation": _colonisation}[what](store, p)


# ---------------------------------------------------------------- battle


def _side(p: Mapping[str, str], role: str, types: Mapping[str, model.UnitFactor]) -> tuple[int, list[str] | None]:
    plural = "attackers" if role == "attack" else "defenders"
    if plural in p and role in p:
        raise ParameterError(f"give {plural}=FORCE or {role}=N, not both", name=plural)
    if plural in p:
        force = parse_force(p[plural], plural, types)
        return sum(types[t].cs for t in force), force
    return _int(p, role), None


def _battle(store: DataStore, p: Mapping[str, str]) -> OddsReport:
    _, doc = model.load_units(store)
    types = {u.type: u for u in doc.unit}
    tables = model.load_tables(store)
    att, aforce = _side(p, "attack", types)
    dfn, dforce = _side(p, "defense", types)
    terrain = p.get("terrain", "clear").strip().lower()
    if terrain not in TERRAINS:
        raise ParameterError(f"terrain={terrain!r}: one of {', '.join(TERRAINS)}", name="terrain")
    chart = tables["terrain"]
    key = "defence-city" if terrain == "colony" else f"defence-{terrain}"
    in_terrain = key in chart.keys  # type: ignore[union-attr]
    a_leader = _flag(p, "attack_leader") or bool(aforce and "leader" in aforce)
    d_leader = _flag(p, "defense_leader") or bool(dforce and "leader" in dforce)
    siege = _flag(p, "siege") or bool(aforce and "siege_train" in aforce)
    am = combat.multipliers(leader=a_leader, advantage=_flag(p, "attack_advantage"), siege=siege,
                            attacker=True, defender_terrain=in_terrain)
    dm = combat.multipliers(leader=d_leader, advantage=_flag(p, "defense_advantage"),
                            terrain=f"a {terrain}" if in_terrain else "", attacker=False)
    a, d = combat.multiplied(att, len(am)), combat.multiplied(dfn, len(dm))
    if a == 0 and d == 0:
        raise ParameterError("neither side has any combat strength (xen:combat)", name="attack", rule="xen:combat")
    allowed = combat.crt_choices(aforce) if aforce is not None else combat.CRTS
    explain: list[str] = []
    if "crt" in p:
        crt = p["crt"].strip().lower().replace("_", "-").replace(" ", "-")
        if crt not in combat.CRTS:
            raise ParameterError(f"crt={crt!r}: one of {', '.join(combat.CRTS)}", name="crt")
        if crt not in allowed:
            raise ParameterError(f"crt={crt}: the attacking force's composition allows only {', '.join(allowed)} "
                                 "(xen:combat: Skirmish needs half the units Cavalry, Light Troops or Fleets; "
                                 "Combined Arms half Phalanx and half the rest Cavalry, Light Troops or Fleets)",
                                 name="crt", rule="xen:combat")
    elif aforce is not None:
        crt = combat.best_crt(tables, allowed, a, d)
        explain.append(f"the force may use {', '.join(allowed)}; the attacker's best here: {crt}")
    else:
        crt = "engagement"
    table: OddsTable = tables[crt]  # type: ignore[assignment]
    for role, raw, mults, total in (("attack", att, am, a), ("defense", dfn, dm, d)):
        why = f" x{1 + len(mults)} ({', '.join(m.why for m in mults)})" if mults else ""
        explain.append(f"{role}: CS {raw}{why} = {total}")
    if siege and not in_terrain:
        explain.append("the siege train gives no multiplier: the defender has none for terrain (xen:crt)")
    explain.append(f"{a}:{d} -> {combat.column(table, a, d)} on the {table.title} (odds rounded for the defender)")
    dist = combat.crt_distribution(table, a, d)
    rules = ["xen:combat", "xen:crt", *(r for m in (*am, *dm) for r in m.rules)]
    for code in dist:
        row = [r.band.label for r in table.rows if r.results[table.columns.index(combat.column(table, a, d))] == code]
        src = {table.provenance.cell(r, combat.column(table, a, d)).source for r in row} if table.provenance else set()
        if "reconstructed" in src:
            explain.append(f"{code}: on rolls {', '.join(row)} ({'/'.join(sorted(src))})")
    return _report(f"Xenophon battle: {a} against {d} on the {table.title}", dist, explain, rules,
                   {c: table.meaning(c) for c in dist})


# ---------------------------------------------------------------- withdrawal


def _withdrawal(store: DataStore, p: Mapping[str, str]) -> OddsReport:
    d_ov, a_ov = _int(p, "defender_ov"), _int(p, "attacker_ov")
    pw = combat.withdrawal_chance(d_ov, a_ov)
    dist = {"withdraws": pw, "stands": 1 - pw} if pw not in (0, 1) else ({"withdraws": pw} if pw else {"stands": 1})
    explain = [f"defender d6 + {d_ov} against attacker d6 + {a_ov}; a tie stands",
               "a force that withdraws walks exactly d6 hexes (1-6, each 1/6) on a simple path, stopping early "
               "only in a City or Colony"]
    return _report(f"Xenophon withdrawal before battle: OV {d_ov} against OV {a_ov}", dist, explain, ["xen:combat"])


# ---------------------------------------------------------------- leaders


def _personal(store: DataStore, p: Mapping[str, str]) -> OddsReport:
    name, other = p.get("leader", ""), p.get("other", "")
    drm = _int(p, "drm", leaders.PERSONAL_DRM.get(name, 0), lo=None)
    odrm = _int(p, "other_drm", leaders.PERSONAL_DRM.get(other, 0), lo=None)
    dist = {k: v for k, v in leaders.personal_combat_chances(drm, odrm).items() if v}
    who = name or "the leader"
    explain = [f"{who} d6{drm:+d} against {other or 'the other leader'} d6{odrm:+d} (Cyrus +1)",
               "win: the other leader is killed; lose: this one is; tie: neither"]
    return _report(f"Xenophon personal combat: {who}", dist, explain, ["xen:opt.personal-combat"])


def _assassination(store: DataStore, p: Mapping[str, str]) -> OddsReport:
    target = p.get("target", "").strip().lower()
    if target not in ("supreme", "leader"):
        raise ParameterError("target=supreme or target=leader (xen:diplomacy: D3)", name="target", rule="xen:diplomacy")
    pk = leaders.assassination_chance(target == "supreme")
    dist = {"killed": pk, "survives (the victim's player draws 1 chit)": 1 - pk}
    explain = ["1d6: 1-2 kills a Supreme Leader, 1-3 a regular leader"]
    return _report(f"Xenophon assassination of a {'Supreme Leader' if target == 'supreme' else 'leader'}", dist,
                   explain, ["xen:diplomacy", "xen:leaders"])


# ---------------------------------------------------------------- diplomacy, pillage, colonisation


def _diplomacy(store: DataStore, p: Mapping[str, str]) -> OddsReport:
    table: DifferentialTable = model.load_tables(store)["diplomacy"]  # type: ignore[assignment]
    agents, against = _int(p, "agents", lo=1), _int(p, "against", 0)
    shift = _int(p, "shift", 0, lo=None)
    value = agents - against
    col = table.column(value, shift)
    dist = diplomacy.outcome_distribution(table, value, shift)
    explain = [f"{agents} Agent(s) against {against}: differential {value}"
               + (f", {shift:+d} column(s)" if shift else "") + f" -> column {getattr(col, 'label', col)}"]
    return _report("Xenophon diplomacy attempt", dist, explain, ["xen:diplomacy"],
                   {c: table.meaning(c) for c in dist})


def _count_or_force(p: Mapping[str, str], key: str, store: DataStore) -> tuple[int | None, list[str] | None]:
    if key in p and "force" in p:
        raise ParameterError(f"give {key}=N or force=FORCE, not both", name=key)
    if "force" in p:
        _, doc = model.load_units(store)
        return None, parse_force(p["force"], "force", {u.type: u for u in doc.unit})
    return _int(p, key, lo=1), None


def _pillage(store: DataStore, p: Mapping[str, str]) -> OddsReport:
    table: DifferentialTable = model.load_tables(store)["pillage"]  # type: ignore[assignment]
    n, force = _count_or_force(p, "units", store)
    explain = []
    if force is not None:
        n = pillage.pillage_count(force)
        explain.append(f"{len(force)} unit(s), {n} counted (supply and siege trains ignored, leaders counted)")
        if n == 0:
            raise ParameterError("force: only trains, which do not count for pillage (xen:pillage)", name="force",
                                 rule="xen:pillage")
    assert n is not None
    return _column_report(table, n, f"Xenophon pillage by {n} unit(s)", explain,
                          "2 OP, not in EZOC; P gains $1, or $1d6 in a Treasury or Capital City", "xen:pillage")


def _column_report(table: DifferentialTable, value: int, title: str, explain: list[str], note: str,
                   rule: str) -> OddsReport:
    """The distribution of a table read on the column of ``value`` (a count, no modifiers)."""
    dist = table.distribution_value(value)
    explain.append(f"column {getattr(table.column(value), 'label', '')}; {note}")
    return _report(title, dist, explain, [rule], {c: table.meaning(c) for c in dist})


def _colonisation(store: DataStore, p: Mapping[str, str]) -> OddsReport:
    table: DifferentialTable = model.load_tables(store)["colonisation"]  # type: ignore[assignment]
    pts, force = _count_or_force(p, "points", store)
    explain = []
    if force is not None:
        clear = _flag(p, "clear")
        pts = pillage.colonisation_points(force, clear)
        explain.append(f"+2 per leader, phalanx, cavalry, light, barbarian or militia unit"
                       f"{', +1 in a clear hex' if clear else ''}: {pts} point(s)")
    elif "clear" in p:
        raise ParameterError("clear=yes goes with force=FORCE; points=N already counts the clear hex", name="clear")
    assert pts is not None
    return _column_report(table, pts, f"Xenophon colonisation with {pts} point(s)", explain,
                          "4 OP, not in EZOC; a C removes one unit of the force", "xen:colonisation")
