"""Lest Darkness Fall's translation of a common engagement (``ancients compare``).

LDF is a strategic game: a unit is a legion vexillation, a Parthian gund or a
whole Germanic tribe, and every one of them fights at a factor of one but the
tribes, whose factor is rolled for each battle as d6+1 (``ldf:2.6``). So the
common kinds become: regular foot and horse of any kind -> one factor each
(Roman vexillations, Parthian gunds, Palmyran legion-equivalents); a warband
-> a German tribe, d6+1, mixed exactly over its six values. The strengths are
read on the CRT at odds rounded for the defender (``ldf:13.2``), automatic AE
below 1:3 and DE above 6:1 after shifts (``ldf:13.15``); a leader shifts one
column for his side and two cancel (``ldf:13.9``); a river, ford or bridge
between them shifts a German attack one column to the defence (``ldf:13.8``).
Terrain has no other effect (``ldf:12.4``: not even on movement), support none
(``ldf:13.5``: no multi-hex combat), and there is no facing or elephant in the
game; a missile engagement is read as the whole battle it would be part of at
100 miles a hex (``ldf:1.3``), one roll on the CRT. A fort is refused: its garrison's strength is its hex's
treasury value (``ldf:13.10``), which the engagement does not say.
"""

from __future__ import annotations

from ancients_kit.compare import Engagement, Translation
from ancients_kit.data import DataStore
from ancients_kit.translations import classified, one_hex_steps

from . import model, odds

__all__ = ["CLASSES", "KIND_UNITS", "translate"]

KIND_UNITS: dict[str, str | None] = {
    "heavy-infantry": "infantry vexillation", "medium-infantry": "infantry vexillation",
    "light-infantry": "infantry vexillation", "spearmen": "Palmyran legion-equivalent",
    "pikemen": "Palmyran legion-equivalent", "archers": "Parthian gund", "slingers": "infantry vexillation",
    "light-cavalry": "Parthian gund", "medium-cavalry": "cavalry vexillation", "heavy-cavalry": "cavalry vexillation",
    "cataphracts": "Parthian gund", "warband": "German tribe", "elephants": None,
}
"""Common kind -> the LDF counter it stands for (None: the game has none)."""

CLASSES = {"AE": "attacker harmed", "AS": "no effect", "DR": "defender retreats or disperses",
           "EX": "defender eliminated", "DE": "defender eliminated"}
"""LDF results in the common classes; an exchange eliminates every defender (13.11)."""

_RIVERS = ("river", "ford", "bridge")


def translate(store: DataStore, e: Engagement) -> Translation:
    for kind, _ in e.attacker + e.defender:
        if KIND_UNITS.get(kind) is None:
            raise ValueError(f"LDF has no {kind}")
    if e.terrain == "fort":
        raise ValueError("an LDF fort is a garrison/fortification whose strength is its hex's TP (ldf:13.10); "
                         "the engagement names no hex")
    steps: list[str] = []
    if e.mode == "missile":
        steps.append("missile: LDF has no separate missile combat; at 100 miles a hex the whole battle, "
                     "archery included, is one roll on the CRT (ldf:1.3, ldf:13.2)")
    fixed = {"attacker": 0, "defender": 0}
    germans = {"attacker": 0, "defender": 0}
    for role, units in (("attacker", e.attacker), ("defender", e.defender)):
        for kind, n in units:
            counter = KIND_UNITS[kind]
            if counter == "German tribe":
                germans[role] += n
                steps.append(f"{n} {kind} -> {n} German tribe(s), each d6+1 (2-7) for this battle (ldf:2.6)")
            else:
                fixed[role] += n
                steps.append(f"{n} {kind} -> {n} {counter}(s), combat factor 1 each (ldf:2.6)")
    if germans["attacker"] > 1 or germans["defender"] > 1:
        steps.append("more than one tribe in a hex breaks German stacking (ldf:10.2); read as that many tribes")
    shifts = [odds.leader_shift(e.attacker_leader, e.defender_leader)]
    if e.terrain in _RIVERS:
        if germans["attacker"]:
            shifts.append(odds.river_shift(True))
        else:
            steps.append(f"{e.terrain}: only a German attack across the Rhine or Danube is shifted (ldf:13.8)")
    elif e.terrain != "clear":
        steps.append(f"{e.terrain}: LDF has no terrain effects on combat (ldf:12.4, 13.2)")
    for s in shifts:
        if s is not None:
            steps.append(s.describe())
    steps.extend(one_hex_steps(e, rule="ldf:13.5", units="LDF units"))
    table = model.load_crt(store)
    net = odds.total_shift(shifts)
    dist = odds.battle_distribution(table, fixed["attacker"], fixed["defender"], attack_germans=germans["attacker"],
                                    defense_germans=germans["defender"], shift=net)
    steps.append(f"read on the {table.title or table.id}, odds rounded for the defender (ldf:13.2, ldf:13.15)")
    rules = ["ldf:2.6", "ldf:13.2", "ldf:13.11", "ldf:13.15", "ldf:14.6"]
    rules.extend(r for s in shifts if s is not None for r in s.rules if r not in rules)
    return classified("Lest Darkness Fall", "strategic CRT, odds ratio, one d6", steps, dist, CLASSES, rules)
