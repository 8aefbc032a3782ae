"""The end of a Game-Turn: victory, concession, withdrawal (cen:full.victory,
cen:full.concession), and a Civil War lost with its Supreme Command Unit (cen:opt.command G).
"""

from __future__ import annotations

from collections.abc import Generator

from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Context, Decision, Option

from ancients_games.centurion.full import options as opt, victory
from ancients_games.centurion.model import VictoryLevel
from ancients_games.centurion.state import CenturionState
from ancients_games.centurion.vocab import Kind


def civil_war_check(state: CenturionState) -> Outcome | None:
    """cen:opt.command G: in a Civil War, losing the Supreme Command Unit loses the battle."""
    if not state.scenario.civil_war or not opt.active(state, "cen:opt.command"):
        return None
    for s in state.sides:
        had = [u for u in state.units.values() if u.original_side == s and u.supreme]
        if had and all(u.eliminated for u in had):
            w = state.opponent(s)
            return Outcome(w, f"{state.side_names.get(w, w)} win: the enemy Supreme Command Unit is lost",
                           level="automatic", scores=_scores(state), rules=("cen:opt.command", "cen:full.victory"),
                           turn=state.turn)
    return None


def _scores(state: CenturionState) -> dict[str, float]:
    return {f"{s} points lost": float(state.lost_points.get(s, 0)) for s in state.sides}


def _marks(state: CenturionState) -> dict[str, tuple[VictoryLevel, ...]]:
    return {s.id: tuple(s.victory_levels) for s in state.scenario.sides}


def final_outcome(state: CenturionState, why: str, cap: VictoryLevel | None = None) -> Outcome:
    """The game's result from the points lost (cen:full.victory), at most ``cap`` (a withdrawal,
    cen:full.concession)."""
    a = victory.assess(state.sides, state.lost_points, state.start_points, _marks(state))
    lvl = a.level if cap is None else victory.cap_level(a.level, cap)
    if a.leader is None or lvl is None:
        return Outcome(None, f"Draw ({why}): points lost "
                             + ", ".join(f"{s} {state.lost_points.get(s, 0)}" for s in state.sides),
                       level="draw", scores=_scores(state), rules=("cen:full.victory",), turn=state.turn)
    name = state.side_names.get(a.leader, a.leader)
    return Outcome(a.leader, f"{name} win a {lvl.value} victory ({why}): points lost "
                   + ", ".join(f"{s} {state.lost_points.get(s, 0)}" for s in state.sides),
                   level=lvl.value, scores=_scores(state),
                   rules=("cen:full.victory",) + (("cen:full.concession",) if cap else ()), turn=state.turn)


def end_of_turn(ctx: Context, state: CenturionState) -> Generator[Decision, str, Outcome | None]:
    """End of a complete Game-Turn: withdrawal, concession and declaring victory
    (cen:full.victory, cen:full.concession)."""
    if state.scenario.fight_to_death:
        return None
    a = victory.assess(state.sides, state.lost_points, state.start_points, _marks(state))
    if a.leader is None or a.trailer is None:
        return None
    trailer, leader = a.trailer, a.leader
    lost = state.lost_points
    # The trailing side may concede (before turn six too) or withdraw at 2 to 1.
    opts = [Option("fight", "fight on")]
    if a.level is not None:
        opts.append(Option("concede", f"concede the battle ({a.level.value} victory for {leader})"))
    if a.level is not None and victory.may_withdraw(trailer, leader, lost):
        opts.append(Option("withdraw", "withdraw from the field (tactical concession: at most a Tactical Victory)"))
    if len(opts) > 1:
        k = yield Decision(trailer, f"End of turn {state.turn}: you have lost {lost.get(trailer, 0)} points to "
                                    f"{lost.get(leader, 0)}. Fight on?", tuple(opts), rule="cen:full.victory",
                           kind=Kind.VICTORY_CONCEDE)
        if k == "withdraw":
            return final_outcome(state, f"{trailer} withdraws", cap=VictoryLevel.TACTICAL)
        if k == "concede":
            r = yield Decision(leader, f"The {trailer} concede: accept a {a.level.value} victory, or refuse and fight on "
                                       f"for a higher level?",
                               (Option("accept", "accept the concession"), Option("refuse", "refuse and fight on")),
                               rule="cen:full.victory", kind=Kind.VICTORY_ACCEPT)
            if r == "accept":
                return final_outcome(state, f"{trailer} concedes")
    if a.level is not None and state.turn >= max(victory.MIN_TURNS, state.scenario.min_turns or 0) \
            and state.turn < (state.scenario.turns or 12):
        k = yield Decision(leader, f"End of turn {state.turn}: declare a {a.level.value} victory?",
                           (Option("continue", "fight on"), Option("declare", f"declare a {a.level.value} victory")),
                           rule="cen:full.victory", kind=Kind.VICTORY_DECLARE)
        if k == "declare":
            return final_outcome(state, f"{leader} declares victory after turn {state.turn}")
    return None
