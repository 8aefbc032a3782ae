"""Cheap heuristics for the greedy bot (``Game.score_option``, ``Game.evaluate``).

The greedy bot asks :func:`score` for every option of a decision; a number
means "no look-ahead needed", so a campaign between greedy bots costs about
what one between random bots costs. The scores encode the two players' aims
(4.1): the Germano-Parthian wants units in Roman core territory and Rome
looted; the Roman wants the core clear, the treasury full and his legions
alive. They are hints, not rules: every option offered is legal.
"""

from __future__ import annotations

from ancients_kit.session import Decision

from .state import GP, ROMAN, LDFState
from .victory import core_intruders

__all__ = ["evaluate", "score"]

ACTION_WEIGHTS: dict[str, dict[str, float]] = {
    GP: {"move": 6.0, "attack": 7.0, "draw-chit": 3.0, "play-chit": 4.0, "create-rebel": 2.5,
         "treachery-emperor": 2.0, "diplomacy-co-emperor": 2.0, "diplomacy-palmyra": 2.0, "activate-gallic": 5.0,
         "pass": 0.5, "concede": -100.0},
    ROMAN: {"move": 5.0, "attack": 6.0, "draw-chit": 3.0, "play-chit": 4.0, "start-fortify": 2.0,
            "finish-fortify": 3.5, "start-rebuild": 2.5, "finish-rebuild": 4.0, "create-co-emperor": 1.5,
            "treachery-rebel": 4.5, "diplomacy-german": 4.0, "activate-palmyra": 3.0, "deploy-siege": 3.0,
            "pass": 0.5, "concede": -100.0},
}


def evaluate(state: LDFState, side: str) -> float:
    """The position for ``side``: units on the map, the treasury, looted and occupied core hexes."""
    roman = sum(1 for u in state.side_units(ROMAN))
    gp = sum(1 for u in state.side_units(GP))
    core = state.region("core")
    looted = sum(1 for h in state.looted if h in core)
    value = (roman - gp) + 0.5 * state.treasury - 2.0 * len(core_intruders(state)) - 1.0 * looted
    if state.over:
        value += 1000.0 if state.winner == ROMAN else -1000.0
    return value if side == ROMAN else -value


def score(state: LDFState, decision: Decision, key: str) -> float | None:
    """A cheap score for answering ``decision`` with ``key`` (higher is better), or ``None``."""
    side = decision.side
    if decision.kind == "action":
        w = ACTION_WEIGHTS.get(side, {}).get(key, 1.0)
        if key == "pass":
            intruders = bool(core_intruders(state))
            if state.turn == 5:
                # 4.3: in Turn 5 the invader wants to pass out with units in the core.
                w = 9.0 if side == GP and intruders and state.passes >= 0 else (-5.0 if side == ROMAN and intruders else w)
            if state.passes == 1 and side == ROMAN and state.turn < 5:
                w = 2.0
        if key == "draw-chit" and len(state.hands[side]) >= 6:
            w -= 2.5
        return w
    if decision.kind.startswith(("attack.", "advance.", "retreat.", "exchange.")):
        from .combat import score_option  # ldf-combat

        return score_option(state, decision, key)
    if decision.kind == "concede":
        return 1.0 if key == "no" else 0.0
    if decision.kind == "chit.free":
        return 1.0 if key == "draw" else 0.0
    if decision.kind == "admin.tax":
        return 1.0 if key == "collect" else 0.0
    if decision.kind == "admin.demobilise?":
        return 1.0 if key == "done" else 0.0
    if decision.kind == "admin.reclaim":
        return 1.0 if key != "done" else 0.0
    return None
