"""Cheap heuristics for the greedy bot (``Game.score_option``, ``Game.evaluate``).

The greedy bot asks :func:`score` for every option of a decision; a number
means "no look-ahead needed", so a campaign between greedy bots costs about
what one between random bots costs. The scores encode the two players' aims
(4.1): the Germano-Parthian wants units in Roman core territory and Rome
looted; the Roman wants the core clear, the treasury full and his legions
alive. They are hints, not rules: every option offered is legal.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from ancients_kit.chance import redeal
from ancients_kit.session import Decision, Option

from . import chit_events, clients, combat, movement, politics
from .state import GP, PALMYRA, ROMAN, ROME, LDFState, other_side
from .victory import core_intruders
from .vocab import Kind

__all__ = ["determinize", "evaluate", "score"]

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


def determinize(state: LDFState, viewer: str, rng: Any) -> None:
    """Deal the other hand again from the chits ``viewer`` has not seen (the pool and that
    hand); the sizes stay (10.9). A hand shown by chit 13 stays as shown."""
    other = other_side(viewer)
    hand = state.hands[other]
    if other in state.revealed:
        return
    redeal(hand, state.pool, rng)


def score(state: LDFState, decision: Decision, key: str) -> float | None:
    """A cheap score for answering ``decision`` with ``key`` (higher is better).

    Decisions of the other modules (moves, battles, chits, politics) are scored by
    that module's ``score(state, decision, key)`` when it defines one (see
    ``_SCORING``); anything else scores 0 (the greedy bot then picks at random
    among the options, never looking ahead)."""
    side = decision.side
    if decision.kind == Kind.ACTION:
        key, _, what = key.partition(":")  # move:<hex>, attack:<origin>-<target> (actions.action_menu)
        w = ACTION_WEIGHTS.get(side, {}).get(key, 1.0)
        if key == "pass":
            intruders = bool(core_intruders(state))
            if state.turn == 5 and intruders:
                # 4.3: in Turn 5 the invader wants to pass out with units in the core; the Roman does not.
                w = 9.0 if side == GP else -5.0
            elif state.passes == 1 and side == ROMAN:
                w = 2.0  # ending a quiet turn early (8.20) saves the Roman nothing but time
            # A player who has done much this turn grows willing to stop (8.20): without it greedy
            # bots act until the action_limit guard ends every turn.
            w += 0.15 * state.actions_taken.get(side, 0)
        if key == "draw-chit" and len(state.hands[side]) >= 6:
            w -= 2.5
        if key == "attack" and what:  # ldf-combat: as good as this battle, the best one first
            d = Decision(side, "attack?", (Option(what, ""),), kind=Kind.ATTACK_TARGET)
            value = combat.score(state, d, what) or 0.0
            w += min(0.0, 3.0 * value) + 0.001 * value
        elif key == "attack":
            w += min(0.0, 3.0 * combat.best_attack(state, side))
        return w
    kind = decision.kind
    if kind == Kind.CONCEDE:
        return 1.0 if key == "no" else 0.0
    if kind == Kind.CHIT_FREE:
        return 1.0 if key == "draw" else 0.0
    if kind == Kind.ADMIN_TAX:
        return 1.0 if key == "collect" else 0.0
    if kind == Kind.ADMIN_DEMOBILISE_ASK:
        return 1.0 if key == "done" else 0.0
    if kind == Kind.ADMIN_RECLAIM:
        return 1.0 if key != "done" else 0.0
    if kind in (Kind.SETUP_TRIBE, Kind.ADMIN_TRIBE) and key in state.data.ids:
        return -float(_distance(state, key, ROME))  # tribes as near Rome as Barbaria allows
    if kind in (Kind.SETUP_GUND, Kind.ADMIN_GUND) and key in state.data.ids:
        return -float(_distance(state, key, PALMYRA))  # gunds toward the Roman East
    if kind in (Kind.ADMIN_RECLAIM_HEX, Kind.ADMIN_WITHDRAW) and key in state.data.ids:
        intruders = core_intruders(state)
        return -float(min((_distance(state, key, h) for h in intruders), default=0))
    hook = _module_score(kind)
    if hook is not None:
        return hook(state, decision, key)
    return 0.0


_SCORING: dict[str, ModuleType] = {
    "move": movement, "stack": movement, "retreat": movement, "advance": combat, "attack": combat,
    "battle": combat, "chit": chit_events, "politics": politics, "treachery": politics, "diplomacy": politics,
    "salt": politics, "client": clients, "emperor": politics, "palmyra": clients, "gallic": clients,
    "window": politics, "co-emperor": politics, "rebel": politics, "siege": politics}
"""Decision-kind prefix -> the rules module that may supply ``score(state, decision, key)`` for it."""


def _module_score(kind: str) -> Callable[[LDFState, Decision, str], float] | None:
    mod = _SCORING.get(kind.split(".", 1)[0])
    return getattr(mod, "score", None) if mod is not None else None


def _distance(state: LDFState, a: str, b: str) -> int:
    return state.hex(a).distance(state.hex(b))
