"""The Basic Game sequence of play and its victory conditions.

Rules served:

- ``cen:basic.sequence``: each Game-Turn is two Player-Turns (first player,
  then second), each a Movement Phase then a Combat Phase; results apply at
  once; the turn marker advances after both.
- ``cen:basic.victory``: after ten Game-Turns (the scenario's ``turns``), the
  side with the lower percentage of units lost (units lost over units at
  start) wins; equal percentages are a draw. A side with no units left on the
  map ends the game at once (nothing remains to play), judged the same way.
"""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction

from ancients_kit.plugin import Outcome
from ancients_kit.session import Context, Decision
from ancients_kit.tables import OddsTable

from ancients_games.centurion.combat import combat_phase
from ancients_games.centurion.movement import movement_phase
from ancients_games.centurion.state import CenturionState, log

__all__ = ["loss_fractions", "play_basic", "victory"]


def loss_fractions(state: CenturionState) -> dict[str, Fraction]:
    """Units lost over units at start, per side (cen:basic.victory)."""
    out = {}
    for s in state.sides:
        lost, start = state.losses_fraction(s)
        out[s] = Fraction(lost, start) if start else Fraction(0)
    return out


def victory(state: CenturionState, turn: int) -> Outcome:
    """Judge the Basic Game (cen:basic.victory)."""
    fr = loss_fractions(state)
    a, b = state.sides
    pct = {s: f"{float(v * 100):.1f}%" for s, v in fr.items()}
    detail = ", ".join(
        f"{state.side_names.get(s, s)} lost {state.lost_units.get(s, 0)}/{state.start_units.get(s, 0)} ({pct[s]})"
        for s in state.sides
    )
    if fr[a] == fr[b]:
        return Outcome(None, f"Draw: equal losses ({detail})", scores={s: float(v) for s, v in fr.items()},
                       rules=("cen:basic.victory",), turn=turn)
    winner = a if fr[a] < fr[b] else b
    return Outcome(
        winner,
        f"{state.side_names.get(winner, winner)} win with the lower percentage of losses ({detail})",
        scores={s: float(v) for s, v in fr.items()},
        rules=("cen:basic.victory",),
        turn=turn,
    )


def play_basic(ctx: Context, state: CenturionState, table: OddsTable) -> Generator[Decision, str, Outcome]:
    """Play the Basic Game from the set-up ``state`` (cen:basic.sequence)."""
    turns = state.scenario.turns or 10
    for turn in range(1, turns + 1):
        state.turn = turn
        state.begin_game_turn()
        log(ctx, state, "turn", f"Game-Turn {turn} of {turns}", "cen:basic.sequence")
        for side in state.sides:
            state.begin_player_turn(side)
            name = state.side_names.get(side, side)
            log(ctx, state, "phase", f"{name} Player-Turn: Movement Phase", "cen:basic.sequence")
            yield from movement_phase(ctx, state, side)
            log(ctx, state, "phase", f"{name} Player-Turn: Combat Phase", "cen:basic.sequence")
            yield from combat_phase(ctx, state, side, table)
            for u in state.end_player_turn(side):
                log(ctx, state, "result", f"{u.id} at {state.hid(u.hex)} recovers from dispersal", "cen:basic.combat")
            if any(not any(True for _ in state.live_units(s)) for s in state.sides):
                log(ctx, state, "result", "One army has no units left on the field", "cen:basic.victory")
                return victory(state, turn)
    return victory(state, turns)
