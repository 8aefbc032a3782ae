"""Cheap option scores for the greedy bot (no look-ahead): close in, hit weak units, keep banners.

Serves no rule of its own; it reads the state the rules keep (``ccr:victory``
banners, ``ccr:base.close-combat`` dice) to rank options of one decision.
"""

from __future__ import annotations

from ancients_kit.session import Decision

from .state import GameState, Unit

__all__ = ["score"]

_FIXED = {
    "done": -1.0, "stay": 0.0, "back": -2.0, "none": -0.5, "no": 0.0, "strike": 1.0, "stand": 0.2,
    "evade": 0.0, "reserve": 1.0, "keep": 0.0, "exit": 1.0,
}


def _nearest_enemy(state: GameState, side: str, h: str) -> int:
    bs = state.b
    d = 99
    for u in bs.units.values():
        if u.side != side:
            x = bs.board.distance(h, u.hex)
            if x < d:
                d = x
    return d


def score(state: GameState, decision: Decision, key: str) -> float | None:
    bs = state.battle
    if bs is None:
        return 0.0
    kind = decision.kind
    if key in _FIXED and kind != "retreat.hex":
        if kind == "react.evade" and key == "evade":
            u = bs.current if isinstance(bs.current, Unit) else None
            return 0.5 if u is not None and u.blocks <= 2 else 0.0
        if kind == "momentum.advance" and key == "stay":
            return 0.0
        return _FIXED[key]
    if kind == "card":
        spec = bs.cards.get(key)
        if spec is None:
            return 0.0
        n = sum(spec.orders.values()) if spec.orders else bs.armies[decision.side].command
        return float(n) + (0.5 if spec.kind == "tactic" else 0.0)
    if kind == "order.unit":
        u = bs.at.get(key)
        if u is None:
            return 0.2
        return 1.0 + (1.0 if bs.adjacent_enemies(u) else 0.0) + u.blocks * 0.1
    if kind in ("move.unit", "battle.unit"):
        return 1.0
    if kind == "move.hex":
        u = bs.current
        if not isinstance(u, Unit):
            return 0.5
        rng = bs.types[u.code].range
        d = _nearest_enemy(state, decision.side, key)
        want = 2 if rng and not bs.types[u.code].mounted and u.code not in ("AX",) else 1
        return 1.0 - abs(d - want) * 0.3
    if kind in ("battle.target", "momentum.bonus"):
        t = bs.at.get(key)
        if t is None:
            return 0.0
        return 3.0 - t.blocks * 0.5 + (1.0 if bs.leader_with(t) is None else 0.0)
    if kind == "momentum.advance":
        return 1.0
    if kind == "retreat.hex":
        return -float(sum(1 for n in bs.board.neighbors[key] if (v := bs.at.get(n)) is not None and v.side != decision.side))
    return 0.0
