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
  ruling; the hooks are in ``movement_hooks.py``); no unit passes through (H);
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

from collections.abc import Iterable, Sequence
from fractions import Fraction

from ancients_kit.hexgrid import Hex

from ancients_games.centurion.full.book import book, units_text
from ancients_games.centurion.full.options import is_roman
from ancients_games.centurion.model import Capability, UnitKind, UnitType
from ancients_games.centurion.state import CenturionState, Unit

__all__ = [
    "MAX_SQUARE_SWORDSMEN",
    "SQUARE_DEFENSIVE_FIRE_MODIFIER",
    "SQUARE_JOIN_COST",
    "SQUARE_MOVEMENT",
    "SQUARE_OTHER_COST",
    "break_up_square",
    "drop_out_of_square",
    "form_square_problem",
    "is_square_swordsman",
    "moves_one_hex",
    "square_allowed",
    "square_attack",
    "square_casualties",
    "square_defence",
    "square_hex_problem",
    "square_hexes",
    "square_join_cost",
    "square_join_problem",
    "square_leavers",
    "square_moves_whole",
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


# ------------------------------------------------------------------ squares on the map


def is_square_swordsman(state: CenturionState, u: Unit) -> bool:
    """Does ``u`` form square (the capability chart's ``form_square``: Roman Swordsmen)?"""
    c = state.capability.get(u.type)
    return c is not None and c.form_square


def square_allowed(state: CenturionState, h: Hex) -> bool:
    """May a square stand on ``h``: terrain and markers (earthworks, caltrops) allow it (case A)?"""
    ter = state.terrain_chart.get(state.map.terrain(h))
    if ter is not None and not ter.square_allowed:
        return False
    for m in state.markers.get(h, ()):
        mt = state.terrain_chart.get(m)
        if mt is not None and not mt.square_allowed:
            return False
    return True


def square_hexes(state: CenturionState, side: str) -> list[Hex]:
    """Hexes where ``side`` may form a square now (cases A, B, E, F)."""
    out = []
    for h in sorted(set(state.occupied_by(side))):
        units = [u for u in state.stack_at(h) if u.side == side]
        if any(u.in_square or u.id in book(state).square_disbanded for u in units):
            continue
        if any(u.dispersed or u.contact for u in units if state.capability.get(u.type) and
               state.capability[u.type].form_square):
            continue
        allowed = square_allowed(state, h)
        why = form_square_problem([state.types[u.type] for u in units], dict(state.capability), allowed,
                                         is_roman(state, side))
        if why is None:
            out.append(h)
    return out


def square_hex_problem(state: CenturionState, side: str, h: Hex) -> tuple[str, str] | None:
    """Why ``side`` may not form a square on ``h`` now (cen:full.square A, B, E, F; earthworks,
    caltrops), or None."""
    rule = "cen:full.square"
    hk = state.hid(h)
    units = [u for u in state.stack_at(h) if u.side == side]
    if not units:
        return f"no unit of yours at {hk}", rule
    if not is_roman(state, side):
        return "only Roman Swordsmen form square (these rules apply only to Roman Swordsmen)", rule
    if any(u.in_square for u in units):
        return f"the units at {hk} are in square already", rule
    if any(u.id in book(state).square_disbanded for u in units):
        return f"the square at {hk} disbanded this turn", rule
    sd = [u for u in units if is_square_swordsman(state, u)]
    if any(u.dispersed or u.contact for u in sd):
        return f"Swordsmen at {hk} are dispersed or in contact with the enemy and may not form square", rule
    why = form_square_problem([state.types[u.type] for u in units], dict(state.capability),
                                     square_allowed(state, h), True)
    if why is None:
        return None
    if "this hex" in why:
        marks = state.markers.get(h, set())
        r = "cen:opt.earthworks" if "earthworks" in marks else "cen:opt.caltrops" if "caltrops" in marks else rule
        return f"{why} ({hk})", r
    kinds = ", ".join(sorted({state.types[u.type].name for u in units if not is_square_swordsman(state, u)
                              and state.types[u.type].kind is not UnitKind.COMMAND})) or "none"
    return f"{why}: {hk} holds {units_text(state, h, side)} (non-Swordsmen: {kinds})", rule


def square_leavers(state: CenturionState, side: str) -> list[Unit]:
    """Non-Swordsmen and Command units in a square that may step out (cen:full.square F)."""
    return [u for u in state.live_units(side) if u.in_square and not is_square_swordsman(state, u) and not u.moved
            and not u.contact and not u.dispersed]


def square_join_problem(state: CenturionState, unit: Unit, h: Hex) -> str | None:
    """Why ``unit`` may not move into its side's formed square on ``h`` this
    Movement Phase, or None if it may (cen:full.square E, F).

    One Swordsmen unit a turn joins a square, up to four Swordsmen in it (B, E);
    one non-Swordsmen unit may be in it, Command units freely (F). Units in a
    square, units that left or disbanded one this turn, and riderless mounts
    do not join.
    """
    hk = state.hid(h)
    members = [u for u in state.stack_at(h) if u.side == unit.side and u.id != unit.id]
    if not any(u.in_square for u in members):
        return f"no square of {unit.side} at {hk}"
    b = book(state)
    if unit.in_square:
        return f"{unit.id} is in a square already"
    if unit.id in b.left_square or unit.id in b.square_disbanded:
        return f"{unit.id} left a square this turn"
    t = state.types[unit.type]
    if t.kind is UnitKind.MOUNT:
        return f"{unit.id} is a riderless mount"
    if is_square_swordsman(state, unit):
        if sum(1 for u in members if is_square_swordsman(state, u)) >= MAX_SQUARE_SWORDSMEN:
            return f"the square at {hk} holds {MAX_SQUARE_SWORDSMEN} Swordsmen units already (B)"
        if hk in b.square_joined:
            return f"a Swordsmen unit has joined the square at {hk} this turn already: one a turn (E)"
        return None
    if t.kind is UnitKind.COMMAND:
        return None
    if any(not is_square_swordsman(state, u) and not state.types[u.type].kind is UnitKind.COMMAND for u in members):
        return f"the square at {hk} holds its one non-Swordsmen unit already (F)"
    return None


def square_join_cost(state: CenturionState, unit: Unit) -> int:
    """Movement Factors ``unit`` pays, on top of the terrain, to enter a square:
    three for Swordsmen (cen:full.square E), two for others (F)."""
    return SQUARE_JOIN_COST if is_square_swordsman(state, unit) else SQUARE_OTHER_COST


def moves_one_hex(state: CenturionState, unit: Unit) -> bool:
    """cen:full.square D, K: "Swordsmen in square have a movement factor of one hex per turn";
    after disbanding they "may move only one hex that turn". Our reading (see the rulings page):
    one hex, whatever its terrain costs, within the unit's own Movement Factor Allowance, so a
    square may step onto a hill or into woods (a cap of one Movement Factor would shut it out)."""
    return (unit.in_square and is_square_swordsman(state, unit)) or unit.id in book(state).square_disbanded


def square_moves_whole(state: CenturionState, unit: Unit) -> tuple[frozenset[str], str, str] | None:
    """MoveHooks.moves_with: Swordsmen in square move only with their whole square, every unit
    in it (cen:full.square D; cen:full.movement C: "Each unit is moved separately (Exception:
    Roman Orbis/Testudo Rule)"). A Swordsmen unit leaves a square only by disbanding it (K);
    the one other unit and Command units may move out alone for two Movement Factors (F)."""
    if not unit.in_square or unit.hex is None or not is_square_swordsman(state, unit):
        return None
    ids = frozenset(x.id for x in state.stack_at(unit.hex) if x.side == unit.side and x.in_square)
    return ids, (f"{unit.id} is in the square at {state.hid(unit.hex)}: a square moves as a whole, and its "
                 f"Swordsmen leave it only by disbanding (D, K)"), "cen:full.square"


def drop_out_of_square(state: CenturionState, units: Iterable[Unit]) -> None:
    """cen:full.square: a square is an ordered formation, formed and disbanded whole (A, K).
    A unit in it that is dispersed, panics, turns traitor or is pushed off its hex keeps no
    place in it (our reading, by fire or by melee alike); a square left with no Swordsmen
    breaks up (:func:`break_up_square`)."""
    left = set()
    for u in units:
        if u.in_square:
            u.in_square = False
            if u.hex is not None:
                left.add((u.hex, u.side))
    for h, side in sorted(left):
        break_up_square(state, h, side)


def break_up_square(state: CenturionState, h: Hex, side: str) -> None:
    """A square is its Swordsmen (cen:full.square B): once none of ``side``'s stands in square
    on ``h``, the other unit and Command units there are in no square any more."""
    here = [x for x in state.stack_at(h) if x.side == side]
    caps = state.capability
    if not any(x.in_square and caps.get(x.type) is not None and caps[x.type].form_square for x in here):
        for x in here:
            x.in_square = False
    state.rev += 1  # the movement hooks' caches key on it
