"""The breadth-first searches C&C movement had before it ran on the core's engine.

Kept as they were (their names aside, and the unit's blockers read with the game's own
:func:`~ancients_games.ccancients_rome.movement.move_blockers`: the walk is what is checked) as the reference the engine's results are
checked against (tests/test_movement_engine.py): same hexes, same step counts,
same order, on every position of the played games.
"""

from __future__ import annotations

from ancients_games.ccancients_rome.movement import LEADER_MOVE, blocked_for, move_blockers
from ancients_games.ccancients_rome.state import BattleState, Leader, Unit, Wagon


def reach_reference(bs: BattleState, u: Unit, steps: int, through_friends: bool = False) -> dict[str, int]:
    """Hexes ``u`` can end its move in, with the hexes moved (ccr:base.movement).

    ``through_friends``: it may pass through (never end on) friendly units, as light foot ordered by
    Order Light Troops or Move-Fire-Move (ccr:base.cards).
    """
    if steps <= 0:
        return {}
    board = bs.board
    at = bs.at
    nbrs = board.neighbors
    mounted = bs.types[u.code].mounted
    stops, special, enemy_leaders, friend_leaders = move_blockers(bs, u)
    out: dict[str, int] = {}
    frontier = [u.hex]
    seen = {u.hex}
    for d in range(1, steps + 1):
        nxt = []
        for h in frontier:
            for n in nbrs[h]:
                if n in seen:
                    continue
                seen.add(n)
                if n in enemy_leaders:
                    continue
                if n in at:
                    if through_friends and at[n].side == u.side and d < steps and n not in stops \
                            and n not in special:
                        nxt.append(n)  # passes through the friendly unit (ccr:base.cards)
                    continue
                if n in special and blocked_for(bs, n, u.code, mounted):
                    continue
                out[n] = d
                if d < steps and n not in stops and n not in friend_leaders and n not in special:
                    nxt.append(n)
        frontier = nxt
        if not frontier:
            break
    return out


def leader_reach_reference(bs: BattleState, ld: Leader) -> dict[str, int]:
    """Hexes a leader moving alone may end in: through friends, not through enemies (ccr:base.leaders).

    A leader leaving a Wagon Laager moves only to an adjacent hex, as a unit does (ccr:wagon-laager).
    """
    board = bs.board
    steps = 1 if bs.wagons and bs.wagon_at(ld.hex, "wagon-laager") is not None else LEADER_MOVE
    out: dict[str, int] = {}
    frontier = [ld.hex]
    seen = {ld.hex}
    stops = bs.stop_hexes()
    enemy_leaders = {o.hex for o in bs.leaders if o.side != ld.side}
    friend_leaders = {o.hex for o in bs.leaders if o.side == ld.side}
    wagons = {w.hex for w in bs.wagons}
    for d in range(1, steps + 1):
        nxt = []
        for h in frontier:
            for n in board.neighbors[h]:
                if n in seen:
                    continue
                seen.add(n)
                v = bs.at.get(n)
                if v is not None and v.side != ld.side:
                    continue
                if n in enemy_leaders:
                    continue
                if n in board.impassable and n not in bs.crossing:
                    continue
                if wagons and blocked_for(bs, n, "LI", False):
                    continue  # a wagon holding a camp, or an impassable laager
                if n not in stops and n not in wagons:
                    # leaders stop on a wagon (ccr:baggage-wagon, ccr:wagon-laager) and, like units, on
                    # terrain that stops movement: forest, ford, camp (ccr:base.terrain, ccr:ford)
                    nxt.append(n)
                if n not in friend_leaders:
                    out[n] = d
        frontier = nxt
    return out


def wagon_reach_reference(bs: BattleState, w: Wagon, steps: int) -> dict[str, int]:
    """Hexes a Baggage Wagon may move to: mounted terrain rules, never onto units or leaders (ccr:baggage-wagon)."""
    if bs.at.get(w.hex) is not None or bs.leaders_at(w.hex):
        return {}
    board = bs.board
    out: dict[str, int] = {}
    frontier = [w.hex]
    seen = {w.hex}
    occupied = set(bs.at) | {ld.hex for ld in bs.leaders} | {o.hex for o in bs.wagons}
    for d in range(1, steps + 1):
        nxt = []
        for h in frontier:
            for n in board.neighbors[h]:
                if n in seen or n in occupied:
                    continue
                seen.add(n)
                if blocked_for(bs, n, "HC", True):
                    continue
                out[n] = d
                if not board.spec(n).stop:
                    nxt.append(n)
        frontier = nxt
    return out
