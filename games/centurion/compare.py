"""Centurion's translation of a common engagement (``ancients compare``).

The kinds of :data:`ancients_kit.compare.KINDS` become Full Simulation unit
types (cen:full.units); their Melee Attack Factors (or Fire Combat Factors)
are added against the defenders' Melee Defense (or Fire Protection) Factors,
frontal or flank (cen:full.facing), multiplied by the Terrain Effects Chart,
and read on the melee or fire CRT at the odds, rounded for the defender
unless a Command unit rounds for the attacker (cen:basic.combat I, J;
cen:opt.command). Support and a defending leader do nothing in Centurion's
arithmetic (only an enemy Command unit negates the attacker's).
"""

from __future__ import annotations

from fractions import Fraction

from ancients_kit.compare import Engagement, Translation
from ancients_kit.data import DataStore
from ancients_kit.errors import IllegalAnswer
from ancients_kit.tables import OddsRefused, OddsTable, load_table

from ancients_games.centurion.equipment import load_all
from ancients_games.centurion.full.fire import whole_odds

__all__ = ["KIND_UNITS", "translate"]

KIND_UNITS: dict[str, str | None] = {
    "heavy-infantry": "SD", "medium-infantry": "SDN", "light-infantry": "SK", "warband": "BI",
    "spearmen": "SP", "pikemen": "PK", "archers": "AR", "slingers": "SL", "light-cavalry": "LC",
    "medium-cavalry": "OC", "heavy-cavalry": "BHC", "cataphracts": "BC", "elephants": None,
}
"""Common kind -> Centurion unit type (None: no such troops in the game)."""

TERRAIN = {"clear": "clear", "hill": "hill", "forest": "woods", "town": "town", "fort": "earthworks",
           "river": None, "ford": "ford", "bridge": "bridge"}

CLASSES = {"AE": "attacker harmed", "AD": "attacker harmed", "C": "no effect", "NE": "no effect",
           "DD": "defender retreats or disperses", "DE": "defender eliminated"}


def translate(store: DataStore, e: Engagement) -> Translation:
    """Engagement ``e`` fought by Centurion's units and read on its melee or fire CRT.

    An engagement Centurion cannot fight (troops it lacks, no factor to attack with, a
    river hex, odds below 1-2) is an :class:`~ancients_kit.errors.IllegalAnswer` naming
    the rule; ``ancients compare`` shows it as the reason Centurion is left out.
    """
    data = load_all(store)
    types, chart = data["types"], data["terrain"]
    steps: list[str] = []
    for kind, _ in e.attacker + e.defender:
        if KIND_UNITS[kind] is None:
            # no rule forbids them: Centurion's counters (cen:full.units) simply have none, and the
            # core shows the refusal as it is ("cannot be compared (Centurion has no elephants)")
            raise IllegalAnswer(f"Centurion has no {kind}", answer=kind)
    missile = e.mode == "missile"
    attack = 0
    for kind, n in e.attacker:
        t = types[KIND_UNITS[kind]]  # type: ignore[index]
        f = t.fire if missile else t.melee_attack
        attack += n * f
        steps.append(f"{n} {kind} -> {n} x {t.name} ({t.code}), "
                     f"{'Fire Combat' if missile else 'Melee Attack'} Factor {f} each")
    if attack == 0:
        raise IllegalAnswer("no attacking unit has a " + ("Fire Combat Factor" if missile else "Melee Attack Factor"),
                            answer=e.mode, rule="cen:full.combat")
    defence = Fraction(0)
    for kind, n in e.defender:
        t = types[KIND_UNITS[kind]]  # type: ignore[index]
        if missile:
            v = t.fire_protection_flank if e.flank else t.fire_protection_front
            what = "Fire Protection"
        else:
            v = t.melee_defence_flank if e.flank else t.melee_defence_front
            what = "Melee Defense"
        defence += n * v
        steps.append(f"{n} {kind} -> {n} x {t.name} ({t.code}), {'flank' if e.flank else 'front'} {what} Factor {v} each")
    ter_id = TERRAIN.get(e.terrain)
    if ter_id is None:
        raise IllegalAnswer(f"Centurion units do not stand in a {e.terrain} hex",
                            answer=e.terrain, rule="cen:full.cross-river")
    ter = chart.get(ter_id)
    mult = Fraction(1) if ter is None else (ter.fire_protection if missile else ter.melee_defence)
    if mult != 1:
        steps.append(f"terrain {ter_id}: defence x {mult} (Terrain Effects Chart)")
        defence *= mult
    table: OddsTable = load_table(store, "crt_fire.toml") if missile else data["melee"]
    if e.attacker_leader and not e.defender_leader:
        rounding = "attacker"
        steps.append("a friendly Command unit within five hexes: odds rounded for the attacker (case J)")
    else:
        rounding = "defender"
        steps.append("odds rounded for the defender (case I)" +
                     ("; the enemy Command unit negates the attacker's (case J)" if e.attacker_leader else ""))
    if e.support:
        steps.append("support: Centurion has no support rule (adjacent friends add nothing)")
    ai, di = whole_odds(attack, defence)
    try:
        col = table.odds(ai, di, rounding)
    except OddsRefused as exc:
        raise IllegalAnswer(f"{attack} against {defence}: {exc}", answer=f"{attack}:{defence}",
                            rule="cen:basic.combat") from None
    steps.append(f"{attack} : {defence} -> column {getattr(col, 'label', col)} of the {table.title or table.id}")
    dist = table.distribution(ai, di, rounding=rounding)
    return Translation(
        game="Centurion",
        system=f"{'fire' if missile else 'melee'} CRT, odds ratio, one d6",
        steps=tuple(steps),
        distribution=dict(dist),
        classes={k: CLASSES.get(k, "no effect") for k in dist},
        rules=("cen:full.combat", "cen:basic.combat", "cen:full.units", "cen:opt.command")
        + (("cen:full.fire-protection",) if missile else ()),
    )
