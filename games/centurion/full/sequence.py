"""The Full Simulation sequence of play: five phases a Player-Turn (cen:full.sequence).

:func:`play_full` is the generator the engine's ``sequence.py`` delegates to for a
Full Simulation scenario. One Game-Turn is two Player-Turns; each Player-Turn:

0. start of turn: panic strikes if due (cen:full.panic), treachery if invoked
   (cen:full.treachery), rally attempts, formations and works (square
   cen:full.square, relief cen:full.relief, earthworks/caltrops cen:opt.*,
   mount/dismount cen:opt.mount-dismount) -- staged, always with ``done``;
1. Movement (the engine's movement phase with this package's hooks; panicked
   and deserting units run first);
2. Attack Allocation: the phasing player names target hexes, the kind of
   attack (melee / fire / both for cataphracts) and the units (``all`` or one
   by one, then ``done``);
3. Defensive Fire: the other player fires at attacking hexes (and at units
   that moved next to his missile troops without attacking) in the front of
   his missile units; losses come off the attackers at once;
4. Offensive Fire: allocated fire, FEM applied (cen:full.fem);
5. Melee: allocated melee attacks; attacks made non-viable (below 1-2) by
   the fire are dropped and their units are not re-allocated
   (cen:full.defensive-fire).

At the end of each Game-Turn: panic threshold drop, panic check, and the
victory decisions (declare, concede, withdraw; cen:full.victory,
cen:full.concession). The game also ends when the scenario's turns run out.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Context, Decision

from ancients_games.centurion.full import morale, options as opt
from ancients_games.centurion.full.allocation import allocation_phase
from ancients_games.centurion.full.book import SEQ, book, log_event
from ancients_games.centurion.full.combat import combat_tables
from ancients_games.centurion.full.deployment import deployment_phase
from ancients_games.centurion.full.end_of_turn import civil_war_check, end_of_turn, final_outcome
from ancients_games.centurion.full.fire_phase import defensive_fire_phase, offensive_fire_phase
from ancients_games.centurion.full.light_cavalry import push_out_light_cavalry
from ancients_games.centurion.full.melee_phase import melee_phase
from ancients_games.centurion.full.movement_hooks import move_hooks
from ancients_games.centurion.full.start_of_turn import start_of_player_turn
from ancients_games.centurion.full.warriors import after_movement
from ancients_games.centurion.full.works import raze_step
from ancients_games.centurion.movement import movement_phase
from ancients_games.centurion.state import CenturionState
from ancients_games.centurion.vocab import Phase

__all__ = ["MOVE_CHECKPOINT_EVERY", "play_full", "player_turn", "player_turn_from_movement"]


def play_full(ctx: Context, state: CenturionState,
              resume: tuple[Any, ...] | None = None) -> Generator[Decision, str, Outcome]:
    """Play a Full Simulation game from its set-up state (cen:full.sequence).

    Each Player-Turn starts at a checkpoint ``("full", game-turn, side index)``,
    and the choices of a unit in its Movement Phase made while the side's units moved
    number a multiple of :data:`MOVE_CHECKPOINT_EVERY` are one named ``("full",
    game-turn, side index, "move")``; ``resume`` (the checkpoint without its
    ``"full"``) plays on from there (``CenturionGame.resume``)."""
    b = book(state)
    if resume is None:
        combat_tables(ctx, state)
        opt.apply_setup_options(ctx, state)
        yield from deployment_phase(ctx, state)
    first_turn, first_side = resume[:2] if resume is not None else (1, 0)
    turns = state.scenario.turns or 12
    for turn in range(first_turn, turns + 1):
        if resume is None or turn != first_turn:
            state.turn = turn
            state.begin_game_turn()
            b.cmd_dispersed = {}
            log_event(ctx, state, "turn", f"Game-Turn {turn}", SEQ, side=None)
        for i, side in enumerate(state.sides):
            if resume is not None and turn == first_turn and i < first_side:
                continue
            if resume is not None and turn == first_turn and i == first_side and resume[2:] == ("move",):
                out = yield from player_turn_from_movement(ctx, state, side, ("full", turn, i, "move"))
                resume = None
                if out is not None:
                    return out
                continue
            ctx.checkpoint(("full", turn, i))
            out = yield from player_turn(ctx, state, side)
            if out is not None:
                return out
        morale.threshold_drop(ctx, state)
        morale.check_panic(ctx, state)
        out = yield from end_of_turn(ctx, state)
        if out is not None:
            return out
    return final_outcome(state, "the scenario's last turn is played")


def player_turn(ctx: Context, state: CenturionState, side: str) -> Generator[Decision, str, Outcome | None]:
    """One Player-Turn of ``side``: start, then the five phases (cen:full.sequence)."""
    state.begin_player_turn(side)
    # 0. The start: panic, treachery, rally, formations and works
    state.phase = Phase.START
    out = yield from start_of_player_turn(ctx, state, side)
    if out is not None:
        return out
    # 1. Movement
    state.phase = Phase.MOVEMENT
    morale.run_for_the_edge(ctx, state, side)
    state.extra["full_move_start"] = {u.id: u.facing for u in state.live_units(side)}
    state.extra["full_move_start_hex"] = {u.id: u.hex for u in state.live_units(side)}
    return (yield from player_turn_from_movement(ctx, state, side, ("full", state.turn, state.sides.index(side), "move")))


MOVE_CHECKPOINT_EVERY = 6
"""The Movement Phase (cen:full.movement) is a session checkpoint at the choices of a unit
made while the number of the side's units already moved is a multiple of this: a
checkpoint copy (about 270 objects) and the garbage collector's walks over the hundreds a
game keeps cost more than replaying the answers of the moves in between (undo and fork
replay at most that many moves)."""


def player_turn_from_movement(ctx: Context, state: CenturionState, side: str,
                              checkpoint: tuple[Any, ...]) -> Generator[Decision, str, Outcome | None]:
    """The rest of ``side``'s Player-Turn from its Movement Phase (cen:full.sequence); each
    choice of a unit to move made while the number of units moved is a multiple of
    :data:`MOVE_CHECKPOINT_EVERY` is the session checkpoint ``checkpoint``."""
    yield from movement_phase(ctx, state, side, move_hooks(state), checkpoint, MOVE_CHECKPOINT_EVERY)
    after_movement(ctx, state, side)
    push_out_light_cavalry(ctx, state)
    yield from raze_step(ctx, state, side)
    # 2. Attack allocation
    state.phase = Phase.ALLOCATION
    attacks = yield from allocation_phase(ctx, state, side)
    # 3. Defensive fire
    state.phase = Phase.DEFENSIVE_FIRE
    yield from defensive_fire_phase(ctx, state, side, attacks)
    # 4. Offensive fire
    state.phase = Phase.OFFENSIVE_FIRE
    offensive_fire_phase(ctx, state, side, attacks)
    # 5. Melee
    state.phase = Phase.MELEE
    yield from melee_phase(ctx, state, side, attacks)
    state.end_player_turn(side)
    morale.end_of_player_turn_morale(ctx, state, side, {s: opt.is_barbarian(state, s) for s in state.sides})
    morale.check_panic(ctx, state)
    return civil_war_check(state)
