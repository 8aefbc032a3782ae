"""The sequence of play (ccr:sequence): turns in alternation until the battle is won; a series' battles.

Each turn: the checkpoint (``("turn", battle, turn, side)``), the turn's start
(:func:`.victory.start_of_turn`: banners held, the turn's events), then the
turn itself (:func:`.orders.play_turn`: play a Command card, order, move,
battle, draw). A battle ends at its Victory Banners (ccr:victory) or the
scenario's turn limit; a Para Bellum series plays its battles one after the
other, rallying and leaving out units between them (:mod:`.series`).
:func:`resume` plays on from a checkpoint, inside a turn too
(``("stage", ...)``: a unit to move or to battle, :func:`.orders.turn_after_orders`).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Context, Decision

from .orders import play_turn, turn_after_orders
from .series import leave_out, rally_lost
from .setup import build_battle
from .state import BattleState, GameState
from .victory import start_of_turn

__all__ = ["battle", "play", "resume", "series_outcome"]


def play(ctx: Context, state: GameState, resume_side: str | None = None,
         stage: str = "") -> Generator[Decision, str, Outcome]:
    """The scenario's battles in turn (ccr:sequence; a series' battles, ccr:para-bellum), from the
    start or, resuming, from ``resume_side``'s turn (at ``stage`` inside it)."""
    while True:
        bs = state.b
        result = yield from battle(ctx, bs, state.index, resume_side, stage)
        resume_side, stage = None, ""
        if state.series is None:
            return result
        for s in state.sides:
            state.totals[s] += bs.armies[s].banners
        state.results.append((state.label, {s: bs.armies[s].banners for s in state.sides}, result.winner))
        ctx.event("series", f"{state.label}: {result.text}; totals " +
                  ", ".join(f"{s} {state.totals[s]}" for s in state.sides), rules=("ccr:para-bellum",))
        state.index += 1
        if state.index >= len(state.series.battles):
            return series_outcome(state, bs)
        rally_lost(ctx, state, bs)
        nb = state.series.battles[state.index]
        state.label = nb.label or nb.battle
        nxt = build_battle(ctx, nb.battle, names=state.sides, banners=nb.banners)
        state.battle = nxt
        yield from leave_out(ctx, state, nxt)


def resume(ctx: Context, state: GameState, where: Any) -> Generator[Decision, str, Outcome]:
    """Play on from the start of a turn (the checkpoint ``_battle`` marks)."""
    if where[0] == "stage":  # inside a turn: a unit to move or to battle (orders.turn_after_orders)
        _, _turn, side, stage = where
        return play(ctx, state, side, stage)
    kind, index, _turn, side = where
    if kind != "turn" or index != state.index:
        raise ValueError(f"not a checkpoint of this game: {where!r}")
    return play(ctx, state, side)


def series_outcome(state: GameState, bs: BattleState) -> Outcome:
    """The series' result: the banners of all its battles added up (ccr:para-bellum)."""
    a, b = state.sides
    ta, tb = state.totals[a], state.totals[b]
    margin = state.series.decisive_margin if state.series else 0
    if ta == tb:
        return Outcome(None, f"Series drawn at {ta} banners each", scores=dict(state.totals),
                       rules=("ccr:para-bellum",), turn=bs.turn)
    w = a if ta > tb else b
    level = "decisive" if margin and abs(ta - tb) >= margin else "victory"
    return Outcome(w, f"{w} wins the series {max(ta, tb)}-{min(ta, tb)} in banners ({level})", level=level,
                   scores=dict(state.totals), rules=("ccr:para-bellum", "ccr:victory"), turn=bs.turn)


def battle(ctx: Context, bs: BattleState, index: int = 0, resume_side: str | None = None,
           stage: str = "") -> Generator[Decision, str, Outcome]:
    """One battle: the sides take turns (ccr:sequence) until one reaches its Victory Banners or has no
    units left, or the turn limit comes (ccr:victory). Each turn begins at a checkpoint."""
    limit = int(ctx.options.get("turn_limit", 0) or 0)
    side = resume_side or bs.first
    while True:
        if stage:  # resumed inside the turn (a checkpoint of orders.turn_after_orders)
            assert bs.turn_orders is not None
            yield from turn_after_orders(ctx, bs, side, *bs.turn_orders, resume=stage)
            stage = ""
        else:
            # A safe point: the battle depends only on the state and the side to play.
            ctx.checkpoint(("turn", index, bs.turn + 1, side))
            bs.turn += 1
            bs.active = side
            ctx.event("turn", f"Turn {bs.turn}: {side}", rules=("ccr:sequence",), side=side)
            start_of_turn(ctx, bs, side)
            if not bs.over:
                yield from play_turn(ctx, bs, side)
        for s in bs.armies:
            if not bs.over and not bs.side_units(s):
                bs.over, bs.winner = True, bs.other(s)
        if bs.over:
            break
        if limit and bs.turn >= 2 * limit:
            bs.over = True
            a, b = bs.armies
            if bs.armies[a].banners != bs.armies[b].banners:
                bs.winner = max(bs.armies, key=lambda k: bs.armies[k].banners)
            ctx.event("end", f"turn limit {limit} reached", rules=("ccr:victory",))
            break
        side = bs.other(side)
    scores = {s: bs.armies[s].banners for s in bs.armies}
    limited = " at the turn limit" if limit and bs.turn >= 2 * limit and all(
        bs.armies[s].banners < bs.armies[s].target for s in bs.armies) else ""
    if bs.winner is None:
        return Outcome(None, f"{bs.battle.title}: drawn at the turn limit ({scores})", scores=scores,
                       rules=("ccr:victory",), turn=bs.turn)
    loser = bs.other(bs.winner)
    return Outcome(bs.winner, f"{bs.winner} wins {bs.battle.title} {scores[bs.winner]}-{scores[loser]} in Victory Banners{limited}",
                   level="turn limit" if limited else "", scores=scores, rules=("ccr:victory",), turn=bs.turn)
