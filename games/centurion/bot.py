"""Advice for Centurion's bots: the value of a position, and cheap scores of each answer.

:func:`evaluate` judges a position for the search bot: in the Basic Game the
loss percentages and the expected result of the coming Combat Phase
(:func:`~ancients_games.centurion.appraisal.appraise`, ``cen:basic.victory``,
``cen:basic.combat``), in the Full Simulation the loss percentages
(``cen:full.victory``). :func:`score` is the greedy bot's cheap heuristic
(attack at good odds, close with the enemy); the Full Simulation's own
decisions are scored first by :func:`ancients_games.centurion.full.bots.score_option`.
:func:`scores` scores a whole decision at once, looking the distances to the
enemy up once for all the destinations of a move (:func:`enemy_distance`).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from ancients_kit.hexgrid import Hex
from ancients_kit.protocol import Decision

from ancients_games.centurion.appraisal import appraise, appraise_sides
from ancients_games.centurion.basic import loss_fractions
from ancients_games.centurion.combat import ATTACK, basic_attack_factor, basic_defence, best_group, eligible_attackers
from ancients_games.centurion.full import bots as full_bots
from ancients_games.centurion.state import SHARED_EXTRA, CenturionState
from ancients_games.centurion.vocab import DEPLOYMENT_KINDS, START_KINDS, Kind

__all__ = [
    "ENEMY_DISTANCE",
    "destination_scores",
    "enemy_distance",
    "evaluate",
    "evaluate_sides",
    "map_neighbours",
    "score",
    "scores",
]


_PREFERRED: dict[str, str] = {
    Kind.VICTORY_DECLARE: "declare",
    Kind.VICTORY_ACCEPT: "accept",
    Kind.VICTORY_CONCEDE: "fight",
}
"""The answer the greedy heuristic takes to each question of cen:full.victory (scored 1, the others 0)."""


def evaluate(state: CenturionState, side: str) -> float:
    """The Basic Game: loss percentages and the expected result of the coming
    Combat Phase (:func:`~ancients_games.centurion.appraisal.appraise`); the
    Full Simulation: loss percentages."""
    if state.version == "basic":
        return appraise(state, side)
    fr = loss_fractions(state)
    return float(fr[state.opponent(side)] - fr[side])


def evaluate_sides(state: CenturionState) -> dict[str, float]:
    """:func:`evaluate` for both sides, the Basic Game's expected Combat Phase worked out once."""
    if state.version == "basic":
        return appraise_sides(state)
    fr = loss_fractions(state)
    a, b = state.sides[0], state.sides[1]
    value = float(fr[b] - fr[a])
    return {a: value, b: -value}


def scores(state: CenturionState, decision: Decision) -> list[float | None]:
    """:func:`score` of every option; the Basic Game's choice of a hex
    looks up the unit and the enemy distances once for all its destinations
    (the search's rollouts score hundreds of them a move)."""
    if decision.kind == Kind.MOVE_HEX and state.version == "basic":
        return destination_scores(state, decision, ((o.key, o.data) for o in decision.options))
    return [score(state, decision, o.key) for o in decision.options]


def score(state: CenturionState, decision: Decision, key: str) -> float | None:
    """Cheap greedy heuristic: attack at good odds, close with the enemy.

    Never ``None`` (which would make the greedy bot fork the session): a
    decision kind this does not know scores 0, so the bot picks at random
    among its options. The Full Simulation may supply its own
    ``full.bots.score_option`` (tried first for its decisions).
    The rules it weighs: cen:basic.combat (odds), cen:basic.movement (closing in).
    """
    kind = decision.kind
    if state.version != "basic":
        got = full_bots.score_option(state, decision, key)
        if got is not None:
            return float(got)
    if kind == Kind.MOVE_UNIT:
        return -1.0 if key == "done" else 0.0
    if kind == Kind.MOVE_HEX:
        return destination_scores(state, decision, ((key, None),))[0]
    if kind == Kind.MOVE_FACING:
        return 0.0
    if kind == Kind.COMBAT_HEX:
        if key == "done":
            return 1.5
        h = state.hex_of(key)
        side = decision.side
        group = best_group(state, eligible_attackers(state, side, h))
        att = sum(basic_attack_factor(state, u) for u in group)
        d = basic_defence(state, h)
        return float(Fraction(att, max(d, 1)))
    if kind == Kind.COMBAT_ATTACKERS:
        if key == "cancel":
            return 0.0
        if key == "all":
            return 50.0
        if key == ATTACK:
            return 10.0
        u = state.units.get(key)
        if u is None:
            return 0.0
        return 20.0 if not u.attacked and "[ ]" in decision.option(key).label else -5.0
    # Full Simulation decisions (the phases of full/sequence.py), scored the same simple way
    if kind == Kind.ATTACK_TARGET:
        if key == "done":
            return 1.5
        h = state.hex_of(key)
        side = decision.side
        att = sum(state.types[u.type].melee_attack for u in state.live_units(side)
                  if u.hex is not None and u.hex.distance(h) == 1 and not u.attacked)
        dfn = sum(state.types[u.type].melee_defence_front for u in state.stack_at(h))
        # Capped at "done"'s score: facing and fire may make a promising
        # target non-viable, and the allocation then offers it again; ties
        # are broken at random, so the bot cannot loop on it for ever.
        return min(float(Fraction(att, max(dfn, 1))), 1.5)
    if kind == Kind.ATTACK_UNIT:
        return {"all": 50.0, "done": 1.0}.get(key, 20.0)
    if kind == Kind.ATTACK_MODE:
        return {"both": 3.0, "melee": 2.0, "fire": 1.0}.get(key, 0.0)
    preferred = _PREFERRED.get(kind)
    if preferred is not None:
        return 1.0 if key == preferred else 0.0
    if kind in START_KINDS or kind in DEPLOYMENT_KINDS or kind in (Kind.TREACHERY, Kind.FIRE_DEFENSIVE, Kind.RETREAT):
        return 1.0 if key == "done" else 0.0
    return 0.0


def destination_scores(state: CenturionState, decision: Decision,
                       choices: Iterable[tuple[str, Any]]) -> list[float | None]:
    """The greedy heuristic's scores of answers ``(key, option data)`` to a choice of
    destination hex: the nearer the enemy the better, staying half a step worse than
    a move to a hex as near, another unit instead last, an unknown hex ``None``."""
    choices = list(choices)
    unit = state.units.get(decision.context.get("unit", ""))
    if unit is None:
        return [0.0] * len(choices)
    dist = enemy_distance(state, unit.side)
    out: list[float | None] = []
    for key, h in choices:
        if key == "stay":
            out.append(-float(dist.get(unit.hex, 99)) - 0.5)  # type: ignore[arg-type]
        elif key == "back":
            out.append(-1000.0)
        else:
            if not isinstance(h, Hex):  # a destination option's data is its Hex
                try:
                    h = state.hex_of(key)
                except ValueError:
                    out.append(None)
                    continue
            out.append(-float(dist.get(h, 99)))
    return out


def enemy_distance(state: CenturionState, side: str) -> dict[Hex, int]:
    """Hex -> steps to the nearest enemy unit (ignoring terrain), cached per state revision."""
    cache = state.extra.get(ENEMY_DISTANCE)
    got = cache.get(side) if cache is not None else None
    if got is not None and got[0] == state.rev:
        return got[1]
    enemy = state.opponent(side)
    frontier = list(state.occupied_by(enemy))
    num = state.numbering
    # The distances depend only on the map and the enemy's hexes, which stay put through
    # a whole Movement Phase of the other side (and recur across a search's copies).
    where = (id(num), frozenset(frontier))
    known = _DISTANCES.get(where)
    if known is not None and known[0] is num:
        state.extra[ENEMY_DISTANCE] = {**(cache or {}), side: (state.rev, known[1])}
        return known[1]
    dist: dict[Hex, int] = {h: 0 for h in frontier}
    adjacent = map_neighbours(num)
    d = 0
    while frontier:
        d += 1
        nxt = []
        for h in frontier:
            near = adjacent.get(h)
            for n in near if near is not None else (n for n in h.neighbors() if n in num):
                if n not in dist:
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    # A new dict every time, never changed once stored: state copies share it (SHARED_EXTRA).
    state.extra[ENEMY_DISTANCE] = {**(cache or {}), side: (state.rev, dist)}
    if len(_DISTANCES) >= 4096:
        _DISTANCES.clear()
    _DISTANCES[where] = (num, dist)
    return dist


_DISTANCES: dict[tuple[int, frozenset[Hex]], tuple[Any, dict[Hex, int]]] = {}
"""(id of a map's numbering, the enemy's hexes) -> (that numbering, hex -> steps to the
nearest of them): the same enemy positions give the same distances, whatever the state."""


_NEIGHBOURS: dict[int, tuple[Any, dict[Hex, tuple[Hex, ...]]]] = {}
"""id of a map's numbering -> (the numbering, hex -> its neighbours on the map in direction order)."""


def map_neighbours(num: Any) -> dict[Hex, tuple[Hex, ...]]:
    """Each hex of the map and its neighbours on the map, in direction order (the
    order ``Hex.neighbors`` gives, so a search over it visits hexes as before);
    built once per map, for the greedy heuristic's distances."""
    got = _NEIGHBOURS.get(id(num))
    if got is not None and got[0] is num:
        return got[1]
    table: dict[Hex, tuple[Hex, ...]] = {h: tuple(n for n in h.neighbors() if n in num) for h in num.hexes()}
    _NEIGHBOURS[id(num)] = (num, table)
    return table


ENEMY_DISTANCE = "_enemy_dist"
"""``state.extra`` key of the greedy heuristic's cache: side -> (``state.rev``, hex -> steps)."""
SHARED_EXTRA.add(ENEMY_DISTANCE)
