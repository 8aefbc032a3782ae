"""The sequence of play (5.2-5.6): the set-up choices, then five Game Turns of two phases.

1. Set-up (3.3): the Germano-Parthian places his tribes and gunds (:func:`.setup.deploy`).
2. Each Game Turn (5.1, 5.2):

   a. the mutual administrative phase, from Turn 2 (5.3, 5.5: :func:`.admin.administrative_phase`);
   b. the alternating actions phase (8.1, :func:`actions_phase`): the Germano-Parthian
      first (5.3), then each player in turn chooses one action of the Action Summary
      (:func:`.actions.action_menu`) until both pass in immediate succession (8.20),
      chit 18 ends the turn (5.4) or the game is won (4.2-4.5, :mod:`.victory`);
      concession (4.4, 4.5) is offered with every action;
   c. the turn ends (5.4); after Turn 5 the game does (4.3, :func:`.victory.last_turn_over`).

A player-turn, for the search bots (:func:`player_turn`): the set-up, each
administrative phase (one turn of its own, both players acting in it) and each
action of the alternating actions phase (a player-turn of the side acting).

Checkpoints (for undo and fork): at the start of every turn (``("turn", n)``) and
before every action (``("action", n, k)``); everything the rest of the game depends
on is then in :class:`~.state.LDFState`.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.windows import own

from . import admin, chits, combat, unstacking, victory
from .actions import ACTIONS, action_menu, refusal, run_action
from .chit_events import can_draw, free_chit
from .hints import focused
from .setup import deploy
from .state import GP, LAST_TURN, ROMAN, LDFState, other_side
from .vocab import Kind

__all__ = ["actions_phase", "play", "player_turn", "resume", "start_turn"]


def play(ctx: Context, state: LDFState) -> Generator[Decision, str, Outcome]:
    """The whole game from the set-up choices (3.3) to its end (4.2-4.5)."""
    return focused(state, _sequence(ctx, state, None))


def resume(ctx: Context, state: LDFState, where: Any) -> Generator[Decision, str, Outcome]:
    """The game on from checkpoint ``where`` (``("turn", n)`` or ``("action", n, k)``)."""
    if not isinstance(where, tuple) or where[0] not in ("turn", "action") or where[1] != state.turn:
        raise ValueError(f"not a checkpoint of this game: {where!r}")
    return focused(state, _sequence(ctx, state, where))


def player_turn(state: LDFState) -> tuple[int, str, int, str]:
    """The player-turn under way (``Game.turn_key``): ``(turn, phase, action, side)``.

    In the alternating actions phase (8.1) each action is a player-turn of its own
    side's: ``(3, "actions", 4, "roman")`` is the Roman's fifth action of Turn 3, with
    everything asked inside it (the other side's retreats and windows, the unstacking
    after it, 10.7) and the free chit of 8.19 drawn before the next one is announced.
    The set-up (3.3) and each administrative phase (5.5) are one player-turn, whoever
    answers in it (``(3, "admin", 0, "")``). Only what every side sees: the turn, the
    phase, the actions taken, the side to act."""
    if state.phase == "actions":
        return (state.turn, state.phase, state.action_number, state.active)
    return (state.turn, state.phase, 0, "")


def _sequence(ctx: Context, state: LDFState, where: Any) -> Generator[Decision, str, Outcome]:
    """The sequence of play (5.2-5.6), from the set-up or from checkpoint ``where``."""
    if where is None:
        state.phase = "setup"
        yield from deploy(ctx, state)  # 3.3
    stage = "turn" if where is None else where[0]
    while True:
        if stage == "turn":
            # A safe point: the turn depends only on the state.
            ctx.checkpoint(("turn", state.turn))
            start_turn(ctx, state)
            if state.turn > 1:
                state.phase = "admin"
                yield from admin.administrative_phase(ctx, state)  # 5.5 (skipped in Turn 1, 5.3)
                if state.over:
                    return victory.outcome(state)
            state.phase = "actions"
            ctx.event("phase", f"Turn {state.turn}: alternating actions phase; the Germano-Parthian acts first",
                      rules=("ldf:5.2", "ldf:5.3", "ldf:8.1"))
        stage = "turn"
        yield from actions_phase(ctx, state)
        if not state.over and state.turn >= LAST_TURN:
            victory.last_turn_over(ctx, state)
        if state.over:
            return victory.outcome(state)
        ctx.event("turn-end", f"Turn {state.turn} ends", rules=("ldf:5.4",))
        state.turn += 1


def start_turn(ctx: Context, state: LDFState) -> None:
    """A new Game Turn (5.1, 5.2): no passes, no actions yet, the Germano-Parthian to act (5.3)."""
    state.turn_over = False
    state.passes = 0
    state.action_number = 0
    state.actions_taken = {GP: 0, ROMAN: 0}
    state.active = GP  # 5.3
    state.extra_action = None
    state.free_chit = None
    chits.standing(state).begin_turn()  # "not this turn" choices at the windows lapse
    ctx.event("turn", f"Game Turn {state.turn}", rules=("ldf:5.1", "ldf:5.2"))


def actions_phase(ctx: Context, state: LDFState) -> Generator[Decision, str, None]:
    """The alternating actions phase (8.1) until the turn ends (5.4) or the game does (4.x)."""
    limit = int(ctx.options.get("action_limit", 0) or 0)
    concession = bool(ctx.options.get("concession", True))
    while True:
        ctx.checkpoint(("action", state.turn, state.action_number))
        if state.free_chit is not None:  # 8.19: decided before the next action is announced
            winner, state.free_chit = state.free_chit, None
            if can_draw(state, winner):
                yield from free_chit(ctx, state, winner)
                if state.over:
                    return
                if state.turn_over:
                    return
        side = state.active
        opts = action_menu(state, side)
        if concession:
            opts.append(Option("concede", "concede the game (4.4)"))
        # A side that asked never to be asked at a window may ask again with its next action.
        key = yield from own(
            Decision(side, f"Turn {state.turn}, action {state.action_number + 1}: choose your action",
                     tuple(opts), rule="ldf:8.1", kind=Kind.ACTION,
                     refuse=lambda text: refusal(state, side, text)),
            chits.standing(state))
        if key == "concede":
            if (yield from _concession(ctx, state, side)):
                return
            continue
        aid = key.partition(":")[0]
        spec = ACTIONS[aid]
        ctx.event("action", f"{side}: {state.data.actions[aid].name}", rules=("ldf:8.1",) + spec.rules,
                  side=side, action=aid)
        taken = yield from run_action(ctx, state, side, key)
        if taken is False:
            continue  # the player went back: no action spent
        yield from unstacking.settle(ctx, state)  # ldf-move: 10.7, a stack left over the limit unstacks now
        combat.release_abandoned_siege(ctx, state)  # 14.3, chit 21: no Roman unit left with it
        if key != "pass":
            state.passes = 0  # 8.20: a pass then an action gives the passer another chance
        state.action_number += 1
        state.actions_taken[side] += 1
        if limit and state.action_number >= limit and not state.turn_over and not state.over:
            state.turn_over = True
            ctx.event("turn-end", f"{limit} actions this turn: the turn ends as if both players had passed "
                      "(the action_limit option, not a rule: nobody passed)", rules=())  # audit D1/D9
        victory.check_after_action(ctx, state)
        if state.over or state.turn_over:
            return
        if state.extra_action == side:  # chit 7, Mad Dash (5.3 exception)
            state.extra_action = None
        else:
            state.active = other_side(side)


def _concession(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, bool]:
    """Concession (4.4, 4.5): asked once more; ``True`` if ``side`` gave up the game."""
    sure = yield Decision(side, "Concede the game? Your opponent wins (4.5)",
                          (Option("no", "go on playing"), Option("yes", "concede")),
                          rule="ldf:4.4", kind=Kind.CONCEDE)
    if sure == "yes":
        victory.concede(ctx, state, side)
        return True
    return False
