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
from typing import Any

from ancients_kit.chance import redeal
from ancients_kit.protocol import Decision, Option

from . import chit_events, combat, movement, politics
from .state import GP, PALMYRA, ROMAN, ROME, LDFState, other_side
from .victory import core_intruders
from .vocab import Kind

__all__ = ["SCORERS", "UNSCORED", "Scorer", "determinize", "evaluate", "rome_threat", "score", "score_action"]

ACTION_WEIGHTS: dict[str, dict[str, float]] = {
    GP: {"move": 6.0, "attack": 7.0, "draw-chit": 3.0, "play-chit": 4.0, "create-rebel": 2.5,
         "treachery-emperor": 2.0, "diplomacy-co-emperor": 2.0, "diplomacy-palmyra": 2.0, "activate-gallic": 5.0,
         "pass": 0.5, "concede": -100.0},
    ROMAN: {"move": 5.0, "attack": 6.0, "draw-chit": 3.0, "play-chit": 4.0, "start-fortify": 2.0,
            "finish-fortify": 3.5, "start-rebuild": 2.5, "finish-rebuild": 4.0, "create-co-emperor": 1.5,
            "treachery-rebel": 4.5, "diplomacy-german": 4.0, "activate-palmyra": 3.0, "deploy-siege": 3.0,
            "pass": 0.5, "concede": -100.0},
}


ROME_THREAT = 6.0
"""What a German tribe next to Rome/Ostia costs the Roman in :func:`evaluate`; a tribe
``d`` hexes away costs ``ROME_THREAT / d`` (4.2: a tribe entering Rome wins the game for
the Germano-Parthian at once). Chosen, not fitted: next to Rome, worth three core hexes
held by the enemy."""


def rome_threat(state: LDFState) -> float:
    """Sum over the German tribes on the map of ``ROME_THREAT`` over their distance in hexes
    to Rome/Ostia (ldf:4.2)."""
    ids = state.data.ids
    rome = ids[ROME]
    total = 0.0
    for u in state.on_map():
        if u.kind == "german-tribe" and u.hex is not None:
            d = ids[u.hex].distance(rome)
            total += ROME_THREAT / max(1, d)
    return total


def evaluate(state: LDFState, side: str) -> float:
    """The position for ``side``: units on the map, the treasury, looted and occupied core
    hexes, and the German tribes' nearness to Rome/Ostia (:func:`rome_threat`)."""
    roman = sum(1 for u in state.side_units(ROMAN))
    gp = sum(1 for u in state.side_units(GP))
    core = state.region("core")
    looted = sum(1 for h in state.looted if h in core)
    value = ((roman - gp) + 0.5 * state.treasury - 2.0 * len(core_intruders(state)) - 1.0 * looted
             - rome_threat(state))
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


Scorer = Callable[[LDFState, Decision, str], float | None]
"""Scores the answer ``key`` to a decision (higher is better); ``None`` asks the greedy bot to look ahead."""


def score(state: LDFState, decision: Decision, key: str) -> float | None:
    """A cheap score for answering ``decision`` with ``key`` (higher is better).

    Each kind of decision (:class:`~.vocab.Kind`) is scored by the function :data:`SCORERS`
    names for it: this module's for the action menu, the set-up and the administrative
    phase, the rules modules' own ``score`` for moves, battles, chits and politics; the
    windows' questions (``window.<name>``) by :func:`.politics.score`. The kinds of
    :data:`UNSCORED`, and any other, score 0 (the greedy bot then picks at random among
    the options, never looking ahead)."""
    scorer = SCORERS.get(decision.kind)  # a Kind is its string
    if scorer is not None:
        return scorer(state, decision, key)
    if decision.kind.startswith("window."):
        return politics.score(state, decision, key)
    return 0.0


def score_action(state: LDFState, decision: Decision, key: str) -> float:
    """The action menu (8.1, 14.2): each action's weight for its side (:data:`ACTION_WEIGHTS`),
    passing as the turn goes on (8.20, 4.3), an attack as good as its battle."""
    side = decision.side
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


def _answer(wanted: str) -> Scorer:
    """1 for the answer ``wanted``, 0 for the others."""
    def scorer(state: LDFState, decision: Decision, key: str) -> float:
        return 1.0 if key == wanted else 0.0
    return scorer


def score_reclaim(state: LDFState, decision: Decision, key: str) -> float:
    """Reclaim what the dead pile offers (6.8) rather than stop."""
    return 1.0 if key != "done" else 0.0


def score_tribe_hex(state: LDFState, decision: Decision, key: str) -> float:
    """A tribe's hex (3.3, 7.1): as near Rome as Barbaria allows."""
    return -float(_distance(state, key, ROME)) if key in state.data.ids else 0.0


def score_gund_hex(state: LDFState, decision: Decision, key: str) -> float:
    """A gund's hex (3.3, 7.2, 7.3): toward the Roman East (Palmyra)."""
    return -float(_distance(state, key, PALMYRA)) if key in state.data.ids else 0.0


def score_near_intruders(state: LDFState, decision: Decision, key: str) -> float:
    """A Roman hex (reclaimed units 6.8, a withdrawal 7.3): near the enemy units in the core."""
    if key not in state.data.ids:
        return 0.0
    intruders = core_intruders(state)
    return -float(min((_distance(state, key, h) for h in intruders), default=0))


SCORERS: dict[str, Scorer] = {
    # the set-up (3.3) and the administrative phase (5.5, 6.6-6.8, 7.1-7.3): here
    Kind.SETUP_TRIBE: score_tribe_hex,
    Kind.SETUP_GUND: score_gund_hex,
    Kind.ADMIN_TAX: _answer("collect"),
    Kind.ADMIN_DEMOBILISE_ASK: _answer("done"),
    Kind.ADMIN_RECLAIM: score_reclaim,
    Kind.ADMIN_RECLAIM_HEX: score_near_intruders,
    Kind.ADMIN_TRIBE: score_tribe_hex,
    Kind.ADMIN_GUND: score_gund_hex,
    Kind.ADMIN_WITHDRAW: score_near_intruders,
    # the actions phase (8.1, 4.4)
    Kind.ACTION: score_action,
    Kind.CONCEDE: _answer("no"),
    # movement (8.2, 10.7, 12.x)
    Kind.MOVE_UNIT: movement.score,
    Kind.MOVE_HEX: movement.score,
    Kind.MOVE_TO: movement.score,
    Kind.MOVE_STEP: movement.score,
    Kind.MOVE_UNSTACK: movement.score,
    Kind.MOVE_UNSTACK_ELIMINATE: movement.score,
    # battles (8.6, 13.x)
    Kind.ATTACK_TARGET: combat.score,
    Kind.ATTACK_UNITS: combat.score,
    Kind.ATTACK_KEEP_ROLL: combat.score,
    Kind.BATTLE_EXCHANGE: combat.score,
    Kind.BATTLE_RETREAT: combat.score,
    Kind.ADVANCE_UNITS: combat.score,
    # chits (8.17-8.19, 14.3)
    Kind.CHIT_PLAY: chit_events.score,
    Kind.CHIT_PUT_BACK: chit_events.score,
    Kind.CHIT_FREE: _answer("draw"),
    Kind.CHIT_PLAGUE: chit_events.score,
    Kind.CHIT_BREAD: chit_events.score,
    Kind.CHIT_BREAD_HEX: chit_events.score,
    Kind.CHIT_CAVALRY: chit_events.score,
    Kind.CHIT_JAWS: chit_events.score,
    Kind.CHIT_MUTINY: chit_events.score,
    Kind.CHIT_DEBASEMENT: chit_events.score,
    Kind.CHIT_LIMES: chit_events.score,
    Kind.CHIT_RAIDERS: chit_events.score,
    Kind.CHIT_RAIDERS_HEX: chit_events.score,
    Kind.CHIT_TRIBE: chit_events.score,
    Kind.CHIT_WINDFALL: chit_events.score,
    Kind.CHIT_WINDFALL_HEX: chit_events.score,
    Kind.CHIT_VALLEY: chit_events.score,
    # politics (8.7-8.12, 8.16, 14.4)
    Kind.SIEGE_HEX: politics.score,
    Kind.SALT: politics.score,
    Kind.CO_EMPEROR_HEX: politics.score,
    Kind.REBEL_HEX: politics.score,
    Kind.EMPEROR_HEX: politics.score,
    Kind.EMPEROR_STRIFE: politics.score,
    Kind.DIPLOMACY_TRIBE: politics.score,
}
"""Each decision kind (a :class:`~.vocab.Kind`, which is its string) -> the function that scores its
answers (see :func:`score`)."""

UNSCORED: frozenset[Kind] = frozenset({
    Kind.TREASURY_DEFICIT,  # 6.10: every way of making up a deficit alike
    Kind.FORTIFY_HEX,  # 8.13: any core centre alike
    Kind.REBUILD_HEX,  # 8.14: any looted core hex alike
    Kind.REBUILD_FINISH,  # 8.14
    Kind.ADMIN_DEMOBILISE,  # 6.7: any legion alike
})
"""The kinds scored 0 on purpose: every answer alike, the greedy bot picks at random."""


def _distance(state: LDFState, a: str, b: str) -> int:
    return state.hex(a).distance(state.hex(b))
