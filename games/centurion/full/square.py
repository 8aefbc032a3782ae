"""The Roman Legionary Swordsmen square: Orbis or Testudo (cen:full.square).

Rules (cases A-K):

* formed at the start of the owner's turn, before movement, by Roman Swordsmen
  on one hex (those already together at the start of the turn form at once but
  may not move that turn); up to FOUR Swordsmen in one square, plus one
  non-Swordsmen unit, plus any Command units (B, E, F);
* all-around Melee Defense Factor = half the sum of the Swordsmen's MDF; it
  bears separately on each hexside: attacks from different sides are separate,
  simultaneous battles (C); a loss strikes Swordsmen only up to half the MDF
  involved (C);
* Swordsmen in square move 1 hex a turn (D); joining costs 3 MF for
  Swordsmen (one a turn), 2 MF in or out for the one other unit and Command
  units (E, F), paid in the Movement Phase on top of the terrain cost (a
  ruling; the hooks are in ``sequence.py``); no unit passes through (H);
* attack factor = the square's defence factor, not if a non-Swordsmen unit is
  inside (G); defensive fire at an attacking square adds one to its roll (G);
  missile units inside fire out (I); cavalry never charge out of or through a
  square, other ground units may attack out (J); disbanding: all at once, then
  one hex of movement that turn (K);
* not in earthworks or caltrops, nor where the terrain chart forbids
  (``square_allowed``; cen:opt.earthworks, cen:opt.caltrops);
* only Roman Swordsmen (capability chart ``form_square``): not non-Roman
  Swordsmen (cen:opt.non-roman-swordsmen).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ancients_games.centurion.model import Capability, UnitKind, UnitType

__all__ = [
    "MAX_SQUARE_SWORDSMEN",
    "SQUARE_DEFENSIVE_FIRE_MODIFIER",
    "SQUARE_JOIN_COST",
    "SQUARE_MOVEMENT",
    "SQUARE_OTHER_COST",
    "form_square_problem",
    "square_attack",
    "square_casualties",
    "square_defence",
]

MAX_SQUARE_SWORDSMEN = 4
"""Swordsmen units in one square, at most (case B)."""
SQUARE_MOVEMENT = 1
"""Hexes Swordsmen in square move a turn (case D: "one hex per turn", whatever the hex costs within
their own allowance, our reading; also after disbanding, K)."""
SQUARE_JOIN_COST = 3
"""Movement Factors a Swordsmen unit pays to join a formed square (case E)."""
SQUARE_OTHER_COST = 2
"""Movement Factors a non-Swordsmen or Command unit pays to enter or leave a square (case F)."""
SQUARE_DEFENSIVE_FIRE_MODIFIER = 1
"""Added to the roll of defensive fire at an attacking square (case G)."""


def _is_swordsman(u: UnitType, cap: Capability | None) -> bool:
    return cap is not None and cap.form_square


def square_defence(members: Sequence[UnitType], caps: dict[str, Capability]) -> Fraction:
    """All-around MDF of a square: half the Swordsmen's frontal MDF sum (case C)."""
    return Fraction(sum(u.melee_defence_front for u in members if _is_swordsman(u, caps.get(u.code))), 2)


def square_attack(members: Sequence[UnitType], caps: dict[str, Capability]) -> Fraction | None:
    """Attack factor of a square (case G): its defence factor, or None when a
    non-Swordsmen combat unit is inside (then the Swordsmen may not attack)."""
    if any(
        not _is_swordsman(u, caps.get(u.code)) and u.kind is not UnitKind.COMMAND for u in members
    ):
        return None
    return square_defence(members, caps)


def square_casualties(members: Sequence[UnitType], caps: dict[str, Capability]) -> int:
    """How many Swordsmen a DE or DD result on a square strikes (case C).

    "Only factors up to one half the Melee Defense Factor strength involved
    are affected": Swordsmen are taken, strongest first, while their MDF stays
    within half the total; at least one unit is always affected.
    """
    sd = sorted((u.melee_defence_front for u in members if _is_swordsman(u, caps.get(u.code))), reverse=True)
    if not sd:
        return 0
    half = Fraction(sum(sd), 2)
    taken, used = 0, Fraction(0)
    for v in sd:
        if used + v > half:
            break
        used += v
        taken += 1
    return max(1, taken)


def form_square_problem(
    units: Sequence[UnitType],
    caps: dict[str, Capability],
    square_allowed_here: bool,
    roman: bool = True,
) -> str | None:
    """Why these units (all on one hex) may not form a square, or None (cases A, B, F).

    ``units`` are the combat units that would be in it (Command units ignored).
    """
    if not square_allowed_here:
        return "Swordsmen may not form square on this hex (earthworks, caltrops or terrain)"
    if not roman:
        return "only Roman Swordsmen form square"
    sw = [u for u in units if _is_swordsman(u, caps.get(u.code))]
    other = [u for u in units if not _is_swordsman(u, caps.get(u.code)) and u.kind is not UnitKind.COMMAND]
    if not sw:
        return "a square needs Roman Swordsmen (only Roman Swordsmen form square)"
    if len(sw) > MAX_SQUARE_SWORDSMEN:
        return f"at most {MAX_SQUARE_SWORDSMEN} Swordsmen units form one square"
    if len(other) > 1:
        return "only one non-Swordsmen unit may join a square"
    return None
