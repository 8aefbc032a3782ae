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
    """A leader whose unit is gone moves to the nearest friendly unit within 3 hexes, or is captured."""
    board = bs.board
    best = None
    for u in bs.units.values():
        if u.side != ld.side or bs.leader_with(u) is not None:
            continue
        d = board.distance(ld.hex, u.hex)
        if d <= 3 and (best is None or (d, u.hex) < best[0]):
            best = ((d, u.hex), u)
    if best is None:
        kill_leader(ctx, bs, ld, "captured")
        return
    old, ld.hex = ld.hex, best[1].hex
    ctx.event("leader", f"{ld.name} escapes from {old} to the {best[1].code} at {ld.hex}", rules=(RULE,), side=ld.side)
