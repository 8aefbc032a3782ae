"""Leaders: casualty checks, escape, and what an attached leader gives his unit.

Serves ``ccr:base.leaders``: a leader in a hex with a friendly unit is attached
and moves with it; when the unit loses blocks the leader risks death (two
battle dice, killed on two leader symbols), when the unit is eliminated one
die (killed on a leader symbol), otherwise he escapes to the nearest friendly
unit within 3 hexes, or is captured when none can be reached. A dead or
captured leader is a Victory Banner (ccr:victory). Also used by Caltrops
losses (``ccr:caltrops``).
"""

from __future__ import annotations

from ancients_kit.chance import BATTLE_DIE
from ancients_kit.session import Context

from .state import BattleState, Leader
from .victory import gain

__all__ = ["casualty_check", "escape", "kill_leader"]

RULE = "ccr:base.leaders"


def kill_leader(ctx: Context, bs: BattleState, ld: Leader, why: str) -> None:
    if ld in bs.leaders:
        bs.leaders.remove(ld)
    ctx.event("loss", f"{ld.side} leader {ld.name} is {why} at {ld.hex}", rules=(RULE,), side=ld.side)
    gain(ctx, bs, bs.other(ld.side), 1, f"leader {ld.name} {why}", (RULE,))


def casualty_check(ctx: Context, bs: BattleState, ld: Leader, eliminated: bool, extra: tuple[str, ...] = ()) -> None:
    """Leader Casualty Check after his unit lost blocks (ccr:base.leaders)."""
    n = 1 if eliminated else 2
    faces = ctx.chance.symbols(BATTLE_DIE, n, f"leader casualty check for {ld.name}", (RULE, *extra))
    helmets = faces.count("leader")
    if helmets >= n:
        kill_leader(ctx, bs, ld, "killed")
        return
    ctx.event("leader", f"{ld.name} survives the casualty check ({', '.join(faces)})", rules=(RULE, *extra), side=ld.side)
    if eliminated:
        escape(ctx, bs, ld)


def escape(ctx: Context, bs: BattleState, ld: Leader) -> None:
    """A leader left alone evades 1-3 hexes back toward his own side (ccr:base.leaders).

    He goes to the nearest friendly unit without a leader in that direction, else to the
    farthest free hex back; with no way back he is captured.
    """
    board = bs.board
    key = bs.armies[ld.side].key
    row0 = board.row[ld.hex]
    back = (lambda r: row0 - r) if key == "top" else (lambda r: r - row0)
    best_unit = None
    best_hex = None
    for h in board.hexes:
        d = board.distance(ld.hex, h)
        if not 1 <= d <= 3 or back(board.row[h]) < 1:
            continue
        u = bs.at.get(h)
        if any(o.hex == h for o in bs.leaders if o is not ld):
            continue
        if u is not None:
            if u.side == ld.side and (best_unit is None or (d, h) < best_unit[0]):
                best_unit = ((d, h), h)
            continue
        if h in board.impassable:
            continue
        score = (-back(board.row[h]), d, h)
        if best_hex is None or score < best_hex[0]:
            best_hex = (score, h)
    dest = best_unit[1] if best_unit else (best_hex[1] if best_hex else None)
    if dest is None:
        kill_leader(ctx, bs, ld, "captured")
        return
    old, ld.hex = ld.hex, dest
    with_unit = f" to the {bs.at[dest].code}" if dest in bs.at else ""
    ctx.event("leader", f"{ld.name} evades from {old} to {dest}{with_unit}", rules=(RULE,), side=ld.side)
