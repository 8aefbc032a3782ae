"""The expansion's switches: which special rules a battle turns on, and for whom.

Reads a battle's ``special_rules`` and sets the flags the rules code consults.
Serves ``ccr:marian-legions``, ``ccr:julian-legions``, ``ccr:imperial-legions``
(legion HI/MI get pilum fire), ``ccr:baggage-wagon``, ``ccr:wagon-laager``,
``ccr:caltrops``, ``ccr:praetorian-guard`` / ``ccr:special-units``,
``ccr:bridge``, ``ccr:ford`` (crossing places) and the scenario rules
impassable, crossing, camp-banner, exit-banner, panic, drown-on-retreat,
wagon-laager-impassable.
"""

from __future__ import annotations

from .state import BattleState

__all__ = ["apply_special_rules"]


def apply_special_rules(bs: BattleState) -> None:
    """Set the battle's rule switches from its special rules (sides by board key)."""
    b = bs.battle
    name = {a.key: n for n, a in bs.armies.items()}
    board = bs.board
    for r in b.special_rules:
        sides = [name[k] for k in (r.sides or ("top", "bottom"))]
        k = r.kind
        if k in ("marian-legions", "julian-legions", "imperial-legions"):
            for s in sides:
                bs.legions[s] = k.removesuffix("-legions")
        elif k == "caltrops":
            bs.caltrops.update(sides)
        elif k == "panic":
            for s in sides:
                bs.panic[s] = frozenset(r.units)
        elif k == "drown-on-retreat":
            for s in sides:
                bs.drown[s] = r.terrain or "river"
        elif k == "camp-banner":
            bs.camp_banner.update(sides)
            bs.camp_hexes.update(r.hexes or board.hexes_of_terrain("camp"))
        elif k == "exit-banner":
            bs.exits.append(r)
        elif k == "wagon-laager-impassable":
            bs.laager_impassable = True
        elif k == "praetorian-guard":
            bs.guard_sides.update(sides)
        elif k == "impassable":
            hexes = r.hexes or [h for h, t in board.terrain.items() if t == r.terrain]
            board.impassable.update(hexes)
        elif k == "crossing":
            hexes = r.hexes or [h for h, t in board.terrain.items() if t == "ford"]
            for h in hexes:
                bs.crossing[h] = tuple(r.units)
            if r.terrain:
                # the rest of that terrain cannot be crossed (ccr:ford, scenario rule)
                board.impassable.update(h for h, t in board.terrain.items() if t == r.terrain and h not in bs.crossing)
