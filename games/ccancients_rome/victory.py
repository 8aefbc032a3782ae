"""Victory Banners: who gains them and when a battle ends.

Serves ``ccr:victory`` (a banner per eliminated unit or leader, first to the
scenario's number wins), ``ccr:baggage-wagon`` and ``ccr:wagon-laager``
(destroying an enemy wagon at the start of the turn: a banner that cannot be
lost) and the scenario banner rules (camp capture, exits).
"""

from __future__ import annotations

from ancients_kit.protocol import Context

from .state import BattleState

__all__ = ["gain", "start_of_turn"]


def gain(ctx: Context, bs: BattleState, side: str, n: int, why: str, rules: tuple[str, ...]) -> None:
    """``side`` gains ``n`` banners; ends the battle when it reaches its target (ccr:victory)."""
    if n <= 0 or bs.over:
        return
    a = bs.armies[side]
    a.banners += n
    ctx.event("banner", f"{side} gains {n} Victory Banner{'s' if n > 1 else ''} ({why}): {a.banners}/{a.target}",
              rules=tuple(dict.fromkeys(("ccr:victory", *rules))), side=side, banners=a.banners)
    if a.banners >= a.target:
        bs.over = True
        bs.winner = side


def start_of_turn(ctx: Context, bs: BattleState, side: str) -> None:
    """Before the card is played: destroy enemy wagons held, take enemy camps (ccr:baggage-wagon, ccr:wagon-laager)."""
    board = bs.board
    for w in list(bs.wagons):
        if w.side == side:
            continue
        u = bs.at.get(w.hex)
        if u is None or u.side != side:
            continue
        if any(v.side != side for v in bs.adjacent_enemies(u)):
            continue
        rule = "ccr:baggage-wagon" if w.kind == "baggage-wagon" else "ccr:wagon-laager"
        bs.wagons.remove(w)
        ctx.event("wagon", f"{side} destroys the enemy {w.kind.replace('-', ' ')} at {w.hex}", rules=(rule,), side=side)
        gain(ctx, bs, side, 1, f"{w.kind.replace('-', ' ')} destroyed", (rule,))
        if bs.over:
            return
    if side in bs.camp_banner:
        for h in sorted(bs.camp_hexes):
            u = bs.at.get(h)
            if u is None or u.side != side or board.terrain[h] != "camp":
                continue
            owner_key = "top" if board.row[h] <= 4 else "bottom"
            if bs.armies[side].key == owner_key:
                continue
            board.set_terrain(h, "clear")
            ctx.event("camp", f"{side} takes the enemy fortified camp at {h}; the camp tile is removed",
                      rules=("ccr:base.terrain", f"ccr:scenario.{bs.battle.slug}"), side=side)
            gain(ctx, bs, side, 1, f"camp {h} taken", (f"ccr:scenario.{bs.battle.slug}",))
            if bs.over:
                return
