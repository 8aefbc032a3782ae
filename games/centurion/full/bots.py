"""Cheap greedy scores for the Full Simulation's own decisions (for ``GreedyBot``).

The engine's ``bot.score`` tries :func:`score_option` first for Full
Simulation games; returning ``None`` leaves the decision to the engine's own
heuristic (movement). Scores must be cheap: no session copies, no look-ahead.
Higher is better. Rules consulted: cen:full.combat (odds), cen:full.victory.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ancients_games.centurion.full import fire
from ancients_games.centurion.full.allocation import fill_all
from ancients_games.centurion.full.combat import Attack, melee_sides
from ancients_games.centurion.vocab import DEPLOYMENT_KINDS, START_KINDS, Kind

__all__ = ["score_option"]

_FIXED: dict[str, dict[str, float]] = {
    Kind.START_ACTION: {"done": 1.0, "relieve": 2.0},
    Kind.ATTACK_MODE: {"both": 2.0, "melee": 1.0, "fire": 0.5},
    Kind.ATTACK_UNIT: {"all": 2.0, "done": -1.0},
    Kind.FIRE_DEFENSIVE: {"done": 0.0},
    Kind.RETREAT: {"retreat": 1.0, "stand": 0.0},
    Kind.MELEE_ALLOT: {"auto": 1.0},
    Kind.VICTORY_ACCEPT: {"accept": 1.0, "refuse": 0.0},
    Kind.VICTORY_DECLARE: {"declare": 1.0, "continue": 0.0},
    Kind.VICTORY_CONCEDE: {"fight": 1.0},
    Kind.TREACHERY: {"invoke": 1.0, "no": 0.0},
    Kind.DEPLOY_UNIT: {"done": 1.0},
    Kind.WORKS_RAZE: {"done": 1.0},
}


def score_option(state: Any, decision: Any, key: str) -> float | None:
    """Score ``key`` for ``decision`` or None if this module has no opinion."""
    kind = decision.kind
    if kind == Kind.ATTACK_TARGET:
        return 0.5 if key == "done" else _target_score(state, decision.side, key)
    table = _FIXED.get(kind)
    if table is not None:
        return table.get(key, 0.5 if kind == Kind.FIRE_DEFENSIVE else 0.0)
    if kind in START_KINDS or kind in DEPLOYMENT_KINDS:
        return 0.0
    return None


def _target_score(state: Any, side: str, key: str) -> float:
    """Attack-to-defence ratio with every unit that fronts on the hex (an upper bound)."""
    try:
        h = state.hex_of(key)
    except ValueError:
        return 0.0
    cur = fill_all(state, side, [], Attack(h, "melee"))
    if not cur.units:
        return 0.6  # fire only: worth a shot
    att, dfn, _, _ = melee_sides(state, side, cur)
    if dfn <= 0:
        return 10.0
    a, d = fire.whole_odds(att, dfn)
    r = Fraction(a, d)
    return float(r) if r >= 1 else 0.0  # poor odds: not worth it (done scores 0.5)
