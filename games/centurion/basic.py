"""The Basic Game sequence of play and its victory conditions.

Rules served:

- ``cen:basic.sequence``: each Game-Turn is two Player-Turns (first player,
  then second), each a Movement Phase then a Combat Phase; results apply at
  once; the turn marker advances after both.
- ``cen:basic.victory``: after ten Game-Turns (the scenario's ``turns``), the
  side with the lower percentage of units lost (units lost over units at
  start) wins; equal percentages are a draw. A side with no units left on the
  map ends the game at once (nothing remains to play), judged the same way.
- ``cen:opt.fortune`` and ``cen:opt.weather``, the optional rules the Basic
  Game honours (``options.py`` refuses the others there, naming the rule).
"""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction

from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Context, Decision
from ancients_kit.tables import OddsTable

from ancients_games.centurion.combat import RAIN, basic_movement, combat_phase, fortunate_side
from ancients_games.centurion.full.options import WEATHER_BY_ROLL
from ancients_games.centurion.movement import movement_phase
from ancients_games.centurion.movement_rules import MoveHooks
from ancients_games.centurion.state import CenturionState, Unit, log

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


WEATHER_RAIN_MF = 2
"""Movement Factors every unit loses in heavy rain and mud (cen:opt.weather 5, 6)."""


def start_weather(ctx: Context, state: CenturionState) -> MoveHooks | None:
    """cen:opt.weather in the Basic Game: roll (or take) the day's weather; in heavy
    rain and mud every unit loses two Movement Factors (the hook returned) and
    Spearmen are halved (combat.py). Fog and light rain only stop missile fire,
    which the Basic Game does not have."""
    w = state.options.get("weather", "fine")
    if w == "roll":
        w = WEATHER_BY_ROLL[ctx.chance.d6("weather", ("cen:opt.weather",))]
    state.extra["basic_weather"] = w
    if w == "fine":
        return None
    if w not in RAIN:
        log(ctx, state, "setup", f"weather: {w}; it stops only missile fire, so it changes nothing in the Basic Game",
            "cen:opt.weather")
        return None
    log(ctx, state, "setup", f"weather: {w}: every unit loses {WEATHER_RAIN_MF} Movement Factors, Spearmen are halved",
        "cen:opt.weather")
    return weather_hooks(w)


def weather_hooks(weather: str) -> MoveHooks | None:
    """The movement hook of the day's weather (cen:opt.weather): heavy rain and mud
    take two Movement Factors from every unit; other weather changes nothing here."""
    if weather not in RAIN:
        return None

    def mfa(st: CenturionState, u: Unit) -> int:
        return max(0, basic_movement(st, u) - WEATHER_RAIN_MF)

    return MoveHooks(mfa=mfa)


def play_basic(ctx: Context, state: CenturionState, table: OddsTable,
               resume: tuple[int, int] | None = None) -> Generator[Decision, str, Outcome]:
    """Play the Basic Game from the set-up ``state`` (cen:basic.sequence).

    Each choice of a unit to move is a checkpoint ``("basic", game-turn, side
    index)``; ``resume=(game-turn, side index)`` plays on from there, inside that
    Player-Turn's Movement Phase (``CenturionGame.resume``)."""
    turns = state.scenario.turns or 10
    if resume is not None:
        return (yield from _basic_turns(ctx, state, table, weather_hooks(state.extra.get("basic_weather", "fine")),
                                        turns, resume))
    fortune = fortunate_side(state)
    if fortune:
        log(ctx, state, "setup", f"the Fortune Factor favours {state.side_names.get(fortune, fortune)}: its attacks "
                                 f"round in its favour", "cen:opt.fortune")
    hooks = start_weather(ctx, state)
    listed = sorted({*state.scenario.options, *(r for sd in state.scenario.sides for r in sd.options)})
    listed = [r for r in listed if r not in ("cen:opt.fortune", "cen:opt.weather")]
    if listed:
        log(ctx, state, "setup", f"the scenario's special rules are Full Simulation rules, not used in the Basic "
                                 f"Game: {', '.join(listed)}", ("cen:basic.sequence", *listed))
    return (yield from _basic_turns(ctx, state, table, hooks, turns, None))


def _basic_turns(ctx: Context, state: CenturionState, table: OddsTable, hooks: MoveHooks | None, turns: int,
                 resume: tuple[int, int] | None) -> Generator[Decision, str, Outcome]:
    """The Game-Turns of the Basic Game, from the first or from a checkpoint (cen:basic.sequence)."""
    first_turn, first_side = resume or (1, 0)
    for turn in range(first_turn, turns + 1):
        if resume is None or turn != first_turn:
            state.turn = turn
            state.begin_game_turn()
            log(ctx, state, "turn", f"Game-Turn {turn} of {turns}", "cen:basic.sequence")
        for i, side in enumerate(state.sides):
            if resume is not None and turn == first_turn and i < first_side:
                continue
            name = state.side_names.get(side, side)
            if resume is None or turn != first_turn or i != first_side:
                state.begin_player_turn(side)
                log(ctx, state, "phase", f"{name} Player-Turn: Movement Phase", "cen:basic.sequence")
            # each choice of a unit to move is a checkpoint (resumed inside the Movement Phase)
            yield from movement_phase(ctx, state, side, hooks, ("basic", turn, i))
            log(ctx, state, "phase", f"{name} Player-Turn: Combat Phase", "cen:basic.sequence")
            yield from combat_phase(ctx, state, side, table)
            for u in state.end_player_turn(side):
                log(ctx, state, "result", f"{u.id} at {state.hid(u.hex)} recovers from dispersal", "cen:basic.combat")
            if any(not any(True for _ in state.live_units(s)) for s in state.sides):
                log(ctx, state, "result", "One army has no units left on the field", "cen:basic.victory")
                return victory(state, turn)
    return victory(state, turns)
