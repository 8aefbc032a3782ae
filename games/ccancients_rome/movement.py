"""Movement: where an ordered unit, leader or Baggage Wagon may go.

Says what entering each hex means for a unit, a leader or a wagon; the core's
breadth-first walk (:func:`ancients_kit.movement.reach_in_steps`) finds the
hexes. Serves ``ccr:base.movement`` (move by unit
type, no moving through units, stopping on a lone friendly leader),
``ccr:base.terrain`` (stop, impassable, marsh: leave only to an adjacent hex, no war machines), ``ccr:ford`` (stop on entering),
``ccr:bridge`` (no restriction), ``ccr:baggage-wagon`` (wagon movement, units
stop on a wagon, no entry to a wagon in a fortified camp), ``ccr:wagon-laager``
(stop on entering, leave only to an adjacent hex), ``ccr:julian-legions``
(move 2 and forgo close combat) and scenario crossing / impassable rules.
"""

from __future__ import annotations

from ancients_kit.movement import BARRED, HALT, ONWARD, THROUGH, reach_in_steps

from .state import BattleState, Leader, Unit, Wagon
from .units import LIGHT_FOOT

__all__ = ["allowance", "blocked_for", "can_step", "card_move_bonus", "leader_reach", "move_blockers", "reach",
           "wagon_reach"]

LEADER_MOVE = 3
"""Hexes a leader moves alone (ccr:base.leaders)."""
HEAVY_CAVALRY = frozenset({"HC", "HCC"})
"""Heavy cavalry, and heavy cataphracts, 'identical to a heavy cavalry unit' (ccr:heavy-cataphract), for
Mounted Charge's three hexes (ccr:base.cards)."""


def blocked_for(bs: BattleState, h: str, code: str, mounted: bool) -> str:
    """Why a unit of ``code`` may not enter ``h`` ('' if it may), with the rule in brackets."""
    board = bs.board
    if h in bs.crossing:
        allowed = bs.crossing[h]
        if allowed and not (code in allowed or ("foot" in allowed and not mounted) or ("mounted" in allowed and mounted)):
            return "the river may be crossed there only by " + "/".join(allowed) + " [ccr:ford]"
        return ""
    if h in board.impassable:
        return f"{h} ({board.terrain[h]}) is impassable [ccr:base.terrain]"
    if code in board.spec(h).barred:
        return f"{code} may not enter {h} ({board.terrain[h]}) [ccr:base.terrain]"
    if bs.wagons:
        for w in bs.wagons:
            if w.hex == h:
                if w.kind == "wagon-laager" and bs.laager_impassable:
                    return f"the wagon laager at {h} is impassable [ccr:wagon-laager]"
                if w.kind == "baggage-wagon" and board.terrain[h] == "camp":
                    return f"a Baggage Wagon holds the fortified camp {h} [ccr:baggage-wagon]"
    return ""


def card_move_bonus(bs: BattleState, u: Unit, plan_bonus: int) -> int:
    """The extra hex a card gives ``u`` (Double Time): never to light foot or war machines (ccr:base.cards)."""
    if not plan_bonus or u.code in LIGHT_FOOT or bs.types[u.code].no_battle_after_move:
        return 0
    return plan_bonus


def allowance(bs: BattleState, u: Unit, plan_bonus: int = 0, cap: int = -1, hc_move: int = 0) -> int:
    """Most hexes ``u`` may move this turn (ccr:base.movement; Julian legions move 2, ccr:julian-legions).

    ``plan_bonus``: Double Time's extra hex (light foot and war machines gain none); ``hc_move``: the hexes
    Mounted Charge lets heavy cavalry move and still battle (ccr:base.cards).
    """
    t = bs.types[u.code]
    plan_bonus = card_move_bonus(bs, u, plan_bonus)
    m = max(t.move + plan_bonus, t.move_no_battle, t.move_charge + plan_bonus if t.move_charge else 0)
    if hc_move and u.code in HEAVY_CAVALRY:
        m = max(m, hc_move)
    if t.foot and u.code in ("HI", "MI") and bs.legions.get(u.side) == "julian":
        m = max(m, 2)  # Double Time still gives them two hexes, now with combat
    if cap >= 0:
        m = min(m, cap)
    if bs.wagon_at(u.hex, "wagon-laager") is not None:
        m = min(m, 1)  # ccr:wagon-laager: leave only to an adjacent hex
    if bs.board.spec(u.hex).leave_adjacent:
        m = min(m, 1)  # ccr:base.terrain: a unit leaving a marsh moves only to an adjacent hex
    return m


def move_blockers(bs: BattleState, u: Unit) -> tuple[frozenset[str], frozenset[str], set[str], set[str]]:
    """What may stop or bar ``u``'s move: the terrain that stops it, the special hexes (impassable,
    crossing places, wagons, terrain barred to its type: :func:`blocked_for` says which bar it), and
    the enemy and friendly leaders' hexes (ccr:base.movement, ccr:base.terrain, ccr:base.leaders)."""
    board = bs.board
    stops = bs.stop_hexes()
    special = board.impassable.union(bs.crossing, (w.hex for w in bs.wagons)) if (bs.wagons or bs.crossing) else board.impassable
    barred = board.barred_for(u.code)
    if barred:
        special = special | barred
    enemy_leaders = {ld.hex for ld in bs.leaders if ld.side != u.side}
    friend_leaders = {ld.hex for ld in bs.leaders if ld.side == u.side}
    return stops, special, enemy_leaders, friend_leaders


def reach(bs: BattleState, u: Unit, steps: int, through_friends: bool = False) -> dict[str, int]:
    """Hexes ``u`` can end its move in, with the hexes moved (ccr:base.movement).

    ``through_friends``: it may pass through (never end on) friendly units, as light foot ordered by
    Order Light Troops or Move-Fire-Move (ccr:base.cards).
    """
    if steps <= 0:
        return {}
    at = bs.at
    mounted = bs.types[u.code].mounted
    side = u.side
    code = u.code
    stops, special, enemy_leaders, friend_leaders = move_blockers(bs, u)

    def enter(n: str, _: int) -> int:
        if n in enemy_leaders:
            return BARRED
        if n in at:
            if through_friends and at[n].side == side and n not in stops and n not in special:
                return THROUGH  # passes through the friendly unit (ccr:base.cards)
            return BARRED
        if n in special:
            return BARRED if blocked_for(bs, n, code, mounted) else HALT
        return HALT if n in stops or n in friend_leaders else ONWARD

    asks = set(at)
    asks.update(stops, special, enemy_leaders, friend_leaders)
    return reach_in_steps(u.hex, steps, bs.board.neighbors, enter, asks)


def can_step(bs: BattleState, u: Unit, through_friends: bool = False) -> bool:
    """Is :func:`reach` non-empty for ``u`` with at least one step? (its first ring, checked cheaply)"""
    if through_friends:
        return bool(reach(bs, u, 2, True))
    at = bs.at
    mounted = bs.types[u.code].mounted
    special = bs.crossing or bs.wagons
    barred = bs.board.barred_for(u.code)
    for n in bs.board.neighbors[u.hex]:
        if n in at:
            continue
        if bs.leaders and any(ld.hex == n and ld.side != u.side for ld in bs.leaders):
            continue
        if (special or n in bs.board.impassable or n in barred) and blocked_for(bs, n, u.code, mounted):
            continue
        return True
    return False


def leader_reach(bs: BattleState, ld: Leader) -> dict[str, int]:
    """Hexes a leader moving alone may end in: through friends, not through enemies (ccr:base.leaders).

    A leader leaving a Wagon Laager moves only to an adjacent hex, as a unit does (ccr:wagon-laager).
    """
    board = bs.board
    at = bs.at
    side = ld.side
    steps = 1 if bs.wagons and bs.wagon_at(ld.hex, "wagon-laager") is not None else LEADER_MOVE
    stops = bs.stop_hexes()
    enemy_leaders = {o.hex for o in bs.leaders if o.side != side}
    friend_leaders = {o.hex for o in bs.leaders if o.side == side}
    wagons = {w.hex for w in bs.wagons}

    def enter(n: str, _: int) -> int:
        v = at.get(n)
        if v is not None and v.side != side or n in enemy_leaders:
            return BARRED
        if n in board.impassable and n not in bs.crossing:
            return BARRED
        if wagons and blocked_for(bs, n, "LI", False):
            return BARRED  # a wagon holding a camp, or an impassable laager
        # leaders stop on a wagon (ccr:baggage-wagon, ccr:wagon-laager) and, like units, on
        # terrain that stops movement: forest, ford, camp (ccr:base.terrain, ccr:ford); a hex
        # holding a friendly leader is passed through, never ended in
        onward = THROUGH if n not in stops and n not in wagons else BARRED
        return onward | (HALT if n not in friend_leaders else BARRED)

    return reach_in_steps(ld.hex, steps, board.neighbors, enter)


def wagon_reach(bs: BattleState, w: Wagon, steps: int) -> dict[str, int]:
    """Hexes a Baggage Wagon may move to: mounted terrain rules, never onto units or leaders (ccr:baggage-wagon)."""
    if bs.at.get(w.hex) is not None or bs.leaders_at(w.hex):
        return {}
    board = bs.board
    occupied = set(bs.at) | {ld.hex for ld in bs.leaders} | {o.hex for o in bs.wagons}

    def enter(n: str, _: int) -> int:
        if n in occupied or blocked_for(bs, n, "HC", True):
            return BARRED
        return HALT if board.spec(n).stop else ONWARD

    return reach_in_steps(w.hex, steps, board.neighbors, enter)
