"""C&C: Ancients' translation of a common engagement (``ancients compare``).

C&C holds one unit a hex and battles unit by unit, so the first attacking
kind battles the first defending kind. The kinds become units of the base
game and the expansion (ccr:units); the attacker rolls its close combat dice
(ranged: 2 dice, not moved; ccr:base.ranged), capped by the defender's
terrain (ccr:base.terrain; battling uphill onto a hill from below), with
leader symbols hitting when a leader is attached or adjacent; the defender
ignores a flag for an attached leader or for support (ccr:base.retreat).
The exact hits and flags come from the game's own odds calculator.
"""

from __future__ import annotations

from ancients_kit.compare import Engagement, Translation
from ancients_kit.data import DataStore

from .odds import odds
from .terrain import load_terrain
from .units import load_units

__all__ = ["KIND_UNITS", "translate"]

KIND_UNITS: dict[str, str] = {
    "heavy-infantry": "HI", "medium-infantry": "MI", "light-infantry": "LI", "warband": "WA",
    "spearmen": "MI", "pikemen": "HI", "archers": "LB", "slingers": "LS", "light-cavalry": "LC",
    "medium-cavalry": "MC", "heavy-cavalry": "HC", "cataphracts": "HCC", "elephants": "EL",
}
"""Common kind -> C&C unit code (spearmen and pikemen have no unit of their own: medium and heavy foot)."""

TERRAIN = {"clear": "clear", "hill": "hill", "forest": "forest", "town": "town", "fort": "camp", "ford": "ford",
           "bridge": "bridge", "river": None}


def _class(label: str) -> str:
    if label == "eliminated":
        return "defender eliminated"
    hits = int(label.split(" ", 1)[0])
    if hits:
        return "defender loses strength"
    return "no effect" if label.startswith("0 hits, 0 flags") else "defender retreats or disperses"


def translate(store: DataStore, e: Engagement) -> Translation:
    units = load_units(store).types
    ranged = e.mode == "missile"
    (akind, an), (dkind, dn) = e.attacker[0], e.defender[0]
    att, dfn = units[KIND_UNITS[akind]], units[KIND_UNITS[dkind]]
    acode, dcode = KIND_UNITS[akind], KIND_UNITS[dkind]
    steps = [f"{akind} -> {att.name} ({acode}); {dkind} -> {dfn.name} ({dcode})"]
    extra = an - 1 + sum(n for _, n in e.attacker[1:])
    if extra:
        steps.append(f"one unit a hex, battling one at a time: {extra} more attacking unit(s) would battle apart")
    if dn > 1 or len(e.defender) > 1:
        steps.append("one unit a hex: the first defending unit only")
    if ranged:
        if not att.range:
            raise ValueError(f"a {att.name} has no ranged combat")
        dice = 2
        steps.append(f"ranged combat: {dice} dice (the unit did not move)")
    else:
        dice = att.close
        if getattr(att, "close_as_target", False):
            dice = getattr(dfn, "close", dice)
            steps.append(f"an elephant rolls the dice its target would: {dice}")
        else:
            steps.append(f"close combat: {dice} dice")
    ter_id = TERRAIN.get(e.terrain)
    if ter_id is None:
        raise ValueError("a C&C river hex holds no unit")
    spec = load_terrain(store).terrain.get(ter_id)
    if spec is not None:
        caps = [c for c in ((spec.ranged_cap_in if ranged else spec.cap_in),
                            (None if ranged else spec.cap_uphill)) if c]
        if caps and min(caps) < dice:
            dice = min(caps)
            steps.append(f"terrain {ter_id}: at most {dice} dice battling into it")
    params = {"dice": str(dice), "target": dcode, "mode": "ranged" if ranged else "close", "attacker": acode}
    if e.attacker_leader and not ranged:
        params["leader"] = "yes"
        steps.append("a leader attached or adjacent: leader symbols hit")
    flags = 0
    if e.defender_leader:
        flags += 1
        steps.append("a leader attached to the defender: it ignores one flag")
    if e.support:
        flags += 1
        steps.append("supported by two friendly units: it ignores one flag")
    if spec is not None and spec.ignore_flag_foot and not dfn.mounted:
        flags += 1
        steps.append(f"foot in a {ter_id} ignore one flag")
    params["ignore_flags"] = str(flags)
    if e.flank:
        steps.append("C&C has no facing: a flank attack is an attack like any other")
    rep = odds(store, params)
    steps.extend(rep.explain)
    return Translation(
        game="C&C: Ancients",
        system="battle dice, symbols hit by unit class",
        steps=tuple(steps),
        distribution=dict(rep.distribution),
        classes={k: _class(k) for k in rep.distribution},
        rules=tuple(rep.rules) + ("ccr:units", "ccr:base.terrain"),
    )
