"""Victory in the Full Simulation: points, three levels, declaring, conceding.

Rules served:

* ``cen:full.victory``: the game is won on points lost. Levels by the ratio of
  the loser's losses to the winner's: Marginal more than 1 to 1, Tactical 2 to 1,
  Strategic 3 to 1; a winner who lost more than 40 / 30 / 25 per cent of his
  original force drops to draw / Marginal / Tactical. The loser must have lost
  at least 20 points before any victory may be claimed; from then on the side
  that is winning may end the game at the end of any complete turn by
  declaring victory, but not before turn six unless the loser concedes; the
  winner may refuse a concession to seek a higher level.
* ``cen:full.concession``: a player whose losses show a 2 to 1 ratio with his
  opponent's may withdraw to deny a Strategic Victory (the result is at most
  Tactical).
* ``cen:scenarios``: the chart marks which levels each army may win ("x");
  our reading (L): an army may claim only its marked levels or higher; an
  army with no marks may claim any.
* ``cen:opt.command`` G: in a Civil War, losing the Supreme Command Unit loses
  the battle (``end_of_turn.civil_war_check``, after each Player-Turn).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import attrs

from ancients_games.centurion.model import VictoryLevel

__all__ = [
    "MIN_LOSER_POINTS",
    "MIN_TURNS",
    "Assessment",
    "assess",
    "claimable",
    "level_for",
]

MIN_LOSER_POINTS = 20
"""Points the loser must have lost before a victory may be claimed."""
MIN_TURNS = 6
"""Turns to play before a victory may be declared (unless the loser concedes)."""

_ORDER = (VictoryLevel.MARGINAL, VictoryLevel.TACTICAL, VictoryLevel.STRATEGIC)
_RATIO = {VictoryLevel.MARGINAL: Fraction(1), VictoryLevel.TACTICAL: Fraction(2), VictoryLevel.STRATEGIC: Fraction(3)}
_LOSS_CAP = {
    VictoryLevel.MARGINAL: Fraction(40, 100),
    VictoryLevel.TACTICAL: Fraction(30, 100),
    VictoryLevel.STRATEGIC: Fraction(25, 100),
}


def level_for(winner_lost: int, loser_lost: int, winner_start: int) -> VictoryLevel | None:
    """The victory level the ratio of losses gives, or None (draw).

    cen:full.victory: Strategic needs 3 to 1 and at most 25 per cent lost by the
    winner, Tactical 2 to 1 and 30 per cent, Marginal more than 1 to 1 and 40
    per cent; a higher ratio with heavier losses falls to the level whose loss
    limit is met. No level below 20 points lost by the loser.
    """
    if loser_lost < MIN_LOSER_POINTS or loser_lost <= winner_lost:
        return None
    frac = Fraction(winner_lost, winner_start) if winner_start else Fraction(0)
    for lvl in reversed(_ORDER):
        ratio_ok = winner_lost == 0 or Fraction(loser_lost, winner_lost) >= _RATIO[lvl]
        if lvl is VictoryLevel.MARGINAL:
            ratio_ok = loser_lost > winner_lost
        if ratio_ok and frac <= _LOSS_CAP[lvl]:
            return lvl
    return None


def claimable(level: VictoryLevel | None, marked: Sequence[VictoryLevel | str]) -> VictoryLevel | None:
    """``level`` if the army's chart marks allow it (cen:scenarios, our reading), else None."""
    if level is None:
        return None
    if not marked:
        return level
    lowest = min(_ORDER.index(VictoryLevel(m)) for m in marked)
    return level if _ORDER.index(level) >= lowest else None


def cap_level(level: VictoryLevel | None, cap: VictoryLevel) -> VictoryLevel | None:
    """``level`` lowered to at most ``cap`` (tactical concession)."""
    if level is None:
        return None
    return level if _ORDER.index(level) <= _ORDER.index(cap) else cap


@attrs.frozen
class Assessment:
    """Who is winning, and at what level, on points lost so far."""

    leader: str | None
    """The side whose opponent lost more points (None if equal)."""
    trailer: str | None
    level: VictoryLevel | None
    """Level the leader would get now (None: no victory claimable yet)."""
    lost: Mapping[str, int]


def assess(
    sides: Sequence[str],
    lost: Mapping[str, int],
    start: Mapping[str, int],
    marks: Mapping[str, Sequence[VictoryLevel | str]] | None = None,
) -> Assessment:
    """Assess the game on points lost (cen:full.victory)."""
    a, b = sides
    la, lb = lost.get(a, 0), lost.get(b, 0)
    if la == lb:
        return Assessment(None, None, None, dict(lost))
    leader, trailer = (a, b) if lb > la else (b, a)
    lvl = level_for(lost.get(leader, 0), lost.get(trailer, 0), start.get(leader, 0))
    if marks is not None:
        lvl = claimable(lvl, marks.get(leader, ()))
    return Assessment(leader, trailer, lvl, dict(lost))


def may_withdraw(side: str, other: str, lost: Mapping[str, int]) -> bool:
    """cen:full.concession: ``side`` may withdraw once its losses show 2 to 1 with ``other``'s."""
    mine, theirs = lost.get(side, 0), lost.get(other, 0)
    return mine > 0 and mine >= 2 * theirs
