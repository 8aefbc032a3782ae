"""Xenophon's translation of a common engagement (``ancients compare``).

Xenophon is a strategic game at about 80 km a hex (``xen:components``): a unit is
1,600-6,400 troops of one arm, and a battle is one roll on one of three CRTs
(``xen:crt``) at odds of the two sides' CS, each multiplied by one plus its
multipliers (``xen:combat``). So the common kinds become the unit types of the
unit chart (``units.toml``): heavy infantry, spearmen and pikemen -> Phalanx
(8-16), medium infantry -> Militia (2-8, the satrapies' levies), light infantry,
archers and slingers -> Light Troops (4-24), every kind of horse -> Cavalry,
warbands -> Barbarian Horde, elephants -> Elephant. A leader is a unit of CS 4
with his side's leader multiplier (``xen:leaders``). The defender's hill, forest
(read as rough, the map's only broken ground), town and fort (read as a City)
give the terrain multiplier; a river gives none (it only costs OP and stops
retreats: ``terrain.toml``). The attacker uses the CRT its composition allows
that is worth most to it (:func:`combat.best_crt`). Support, flanks and missile
fire have no meaning at this scale: a battle is one hex against one hex, and a
missile engagement is read as the whole battle it would be part of.
"""

from __future__ import annotations

from ancients_kit.compare import Engagement, Translation
from ancients_kit.data import DataStore
from ancients_kit.errors import ParameterError
from ancients_kit.translations import classified, one_hex_steps

from . import combat, model

__all__ = ["CLASSES", "KIND_UNITS", "translate"]

KIND_UNITS: dict[str, str] = {
    "heavy-infantry": "phalanx", "spearmen": "phalanx", "pikemen": "phalanx", "medium-infantry": "militia",
    "light-infantry": "light", "archers": "light", "slingers": "light",
    "light-cavalry": "cavalry", "medium-cavalry": "cavalry", "heavy-cavalry": "cavalry", "cataphracts": "cavalry",
    "warband": "barbarian_horde", "elephants": "elephant",
}
"""Common kind -> the Xenophon unit type it stands for."""

TERRAIN: dict[str, str] = {"clear": "", "hill": "rough", "forest": "rough", "town": "city", "fort": "city",
                           "river": "", "ford": "", "bridge": ""}
"""Common terrain -> the Terrain Effects Chart entry giving the defender's multiplier (empty: none)."""

CLASSES = {"AZ": "attacker harmed", "AD": "attacker harmed", "AM": "attacker harmed", "AR": "attacker harmed",
           "--": "no effect", "DR": "defender retreats or disperses", "DM": "defender loses strength",
           "DD": "defender loses strength", "DZ": "defender eliminated"}
"""Xenophon's results in the common classes (AR: the attacker withdraws, its attack fails)."""


def translate(store: DataStore, e: Engagement) -> Translation:
    _, doc = model.load_units(store)
    types = {u.type: u for u in doc.unit}
    tables = model.load_tables(store)
    steps: list[str] = []
    forces: dict[str, list[str]] = {}
    for role, units, leader in (("attacker", e.attacker, e.attacker_leader), ("defender", e.defender, e.defender_leader)):
        force: list[str] = []
        for kind, n in units:
            t = KIND_UNITS.get(kind)
            if t is None:
                raise ParameterError(f"Xenophon has no {kind}", name=role)
            force.extend([t] * n)
            steps.append(f"{n} {kind} -> {n} {t} (CS {types[t].cs} each)")
        if leader:
            force.append("leader")
            steps.append(f"{role} leader -> a leader, CS {types['leader'].cs}, and one multiplier (xen:leaders)")
        if len(force) > combat.STACK_LIMIT:
            raise ParameterError(f"Xenophon: the {role} has {len(force)} units; a force or a hex holds at most ten "
                                 "(xen:forces, xen:stacking)", name=role, rule="xen:forces")
        forces[role] = force
    chart = tables["terrain"]
    entry = TERRAIN.get(e.terrain, "")
    in_terrain = bool(entry) and f"defence-{entry}" in chart.keys  # type: ignore[union-attr]
    if in_terrain:
        steps.append(f"{e.terrain} -> {entry}: the defender's terrain multiplier (terrain.toml)")
    elif e.terrain != "clear":
        steps.append(f"{e.terrain}: no multiplier (a river only costs OP and stops retreats, terrain.toml)")
    if e.mode == "missile":
        steps.append("missile: no separate fire at 80 km a hex; the whole battle is one roll on a CRT (xen:combat)")
    steps.extend(one_hex_steps(e, rule="xen:combat", units="Xenophon's units"))
    am = combat.multipliers(leader=e.attacker_leader, attacker=True, defender_terrain=in_terrain)
    dm = combat.multipliers(leader=e.defender_leader, terrain=entry if in_terrain else "", attacker=False)
    a = combat.multiplied(sum(types[t].cs for t in forces["attacker"]), len(am))
    d = combat.multiplied(sum(types[t].cs for t in forces["defender"]), len(dm))
    allowed = combat.crt_choices(forces["attacker"])
    crt = combat.best_crt(tables, allowed, a, d)  # type: ignore[arg-type]
    table = tables[crt]
    steps.append(f"CS {a} against {d} (x{1 + len(am)} and x{1 + len(dm)}); the force may use {', '.join(allowed)}; "
                 f"{crt} is worth most to the attacker; column {combat.column(table, a, d)} "  # type: ignore[arg-type]
                 "(odds rounded for the defender)")
    dist = combat.crt_distribution(table, a, d)  # type: ignore[arg-type]
    rules = ["xen:combat", "xen:crt"] + (["xen:leaders"] if e.attacker_leader or e.defender_leader else [])
    return classified("Xenophon: 10,000 Against Persia",
                      "strategic CRT by composition, odds ratio with CS multipliers, one d6", steps, dist, CLASSES,
                      rules)
