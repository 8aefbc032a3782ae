"""How to win (``ldf:4.1``-``4.5``) and how a turn ends (``ldf:5.4``).

- 4.2 sudden death: a German tribe enters Rome/Ostia (:func:`.economy.on_enter`
  calls :meth:`LDFState.finish` the instant it happens);
- 4.3 Turn 5: the Roman wins once both players have completed an action and
  Roman core territory holds no German, Parthian, anti-Roman Palmyran or rebel
  unit (:func:`check_after_action`); the Germano-Parthian wins if both pass in
  Turn 5 with such units in the core, or if the Roman concedes;
- 4.4 Turns 1-4: only a concession ends the game (besides 4.2); 4.5 no draws:
  every ending names a winner.
"""

from __future__ import annotations

from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Context

from .state import GP, LAST_TURN, ROMAN, LDFState, other_side

__all__ = ["check_after_action", "concede", "core_intruders", "last_turn_over", "outcome"]


def core_intruders(state: LDFState) -> list[str]:
    """Roman core hexes holding a German, Parthian, anti-Roman Palmyran or rebel unit (4.3)."""
    core = state.region("core")
    out = set()
    for u in state.on_map():
        if u.hex in core and state.side_of(u) == GP:
            out.add(u.hex)
    return sorted(out)


def check_after_action(ctx: Context, state: LDFState) -> None:
    """After every action of Turn 5 (4.3, 5.4 case 3): the Roman wins if both players have
    completed an action and the core is clear; two passes with intruders there give the
    Germano-Parthian the game."""
    if state.over or state.turn < LAST_TURN:
        return
    intruders = core_intruders(state)
    if not intruders and all(n >= 1 for n in state.actions_taken.values()):
        ctx.event("victory", "Turn 5: both players have acted and no enemy unit stands in Roman core territory: "
                  "the Roman player wins", rules=("ldf:4.3", "ldf:5.4"), side=ROMAN)
        state.finish(ROMAN, "Turn 5 with Roman core territory clear of enemy units", ("ldf:4.3", "ldf:5.4"))
        return
    if state.turn_over and intruders:
        ctx.event("victory", f"Turn 5 ends with both players passing and enemy units in {len(intruders)} core "
                  "hexes: the Germano-Parthian player wins", rules=("ldf:4.3", "ldf:8.20"), side=GP)
        state.finish(GP, f"Turn 5 passed out with enemy units in Roman core territory ({', '.join(intruders[:6])}"
                     + (" ..." if len(intruders) > 6 else "") + ")", ("ldf:4.3", "ldf:8.20"))


def last_turn_over(ctx: Context, state: LDFState) -> None:
    """Turn 5 ended without a result of :func:`check_after_action` (only the ``action_limit``
    guard can do that, before both players have acted): judged as 4.3 judges the end of Turn 5,
    by whether enemy units stand in the core (4.5: never a draw)."""
    if state.over:
        return
    intruders = core_intruders(state)
    if intruders:
        ctx.event("victory", "Turn 5 ends with enemy units in Roman core territory: the Germano-Parthian player wins",
                  rules=("ldf:4.3", "ldf:4.5"), side=GP)
        state.finish(GP, "Turn 5 ended with enemy units in Roman core territory", ("ldf:4.3", "ldf:4.5"))
    else:
        ctx.event("victory", "Turn 5 ends with Roman core territory clear: the Roman player wins",
                  rules=("ldf:4.3", "ldf:4.5"), side=ROMAN)
        state.finish(ROMAN, "Turn 5 ended with Roman core territory clear of enemy units", ("ldf:4.3", "ldf:4.5"))


def concede(ctx: Context, state: LDFState, side: str) -> None:
    """A player concedes (4.4; in Turn 5 the Roman's concession of 4.3): the other wins (4.5)."""
    winner = other_side(side)
    rules = ("ldf:4.3", "ldf:4.5") if state.turn >= LAST_TURN and side == ROMAN and core_intruders(state) \
        else ("ldf:4.4", "ldf:4.5")
    ctx.event("victory", f"The {side} player concedes: the {winner} player wins", rules=rules, side=side)
    state.finish(winner, f"the {side} player conceded in Turn {state.turn}", rules)


def outcome(state: LDFState) -> Outcome:
    """The :class:`Outcome` of a finished campaign (4.5: always a winner)."""
    assert state.over and state.winner is not None
    return Outcome(state.winner, f"The {state.winner} player wins: {state.result}", rules=state.result_rules,
                   turn=state.turn, scores={"treasury": float(state.treasury)})
