"""Lest Darkness Fall stacking (``ldf:10.1``-``ldf:10.8``, ``ldf:10.10``).

Stacking limits hold during the administrative phase and at the start and
end of every action (``ldf:10.1``); during a move or a retreat, friendly units
may pass through one another whatever their number. Enemy units never share a
hex at any time. The limits, per hex:

- hostile units (:func:`ancients_games.ldf.zoc.hostile`) never together
  (``ldf:10.1``; loyal and rebel Romans ``ldf:10.5``);
- Germans: one tribe (``ldf:10.2``);
- Parthians: one garrison, eight gunds (``ldf:10.3``);
- Palmyrans: one garrison, eight legion-equivalents, and no other unit of
  either side (``ldf:10.4``, ``ldf:9.2``-``ldf:9.4``; ruling in ``docs/games/ldf.md``);
- Romans (loyal and rebel alike, each among themselves): one
  garrison/fortification (a Caucasus garrison counts, ``ldf:10.6``), two legion
  bases (``ldf:10.6``), two vexillations without a friendly leader, eight
  with one (``ldf:10.7``); before the central cavalry reserve one cavalry
  vexillation that does not count, after it cavalry counts as a vexillation
  (``ldf:10.8``). Gallic Empire forces are leaderless (``ldf:9.5``);
- the two leaders never in one hex (``ldf:8.3``);
- markers never count (``ldf:10.10``): they are not units here at all.

German and Parthian units in one hex are each held to their own limit; the
rulebook forbids them nothing else (ruling in ``docs/games/ldf.md``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ancients_kit.hexgrid import Hex

from ancients_games.ldf.state import LDFState
from ancients_games.ldf.zoc import Position, Unit, hostile, position

__all__ = [
    "LEADER_VEXILLATIONS",
    "PLAIN_VEXILLATIONS",
    "excess",
    "can_place",
    "fits",
    "flip_problem",
    "place",
    "placement_problem",
    "is_legal",
    "lone_leaders",
    "overstacked_hexes",
    "problems",
    "vexillation_limit",
]

PLAIN_VEXILLATIONS = 2
"""Roman vexillations in a hex without a friendly leader (``ldf:10.7``, ``ldf:10.8``)."""
LEADER_VEXILLATIONS = 8
"""... and with one (``ldf:10.7``)."""
GARRISONS = ("roman-garrison", "client-garrison", "parthian-garrison")
LEADERS = ("emperor", "co-emperor")


def _counts(units: Iterable[Unit]) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for u in units:
        k = (u.camp, u.piece)
        out[k] = out.get(k, 0) + 1
    return out


def vexillation_limit(pos: Position, units: Sequence[Unit], camp: str) -> int:
    """How many Roman vexillations of ``camp`` may be in a hex holding ``units`` (``ldf:10.7``)."""
    if camp != "gallic" and any(u.piece in LEADERS and u.camp == camp for u in units):
        return LEADER_VEXILLATIONS
    return PLAIN_VEXILLATIONS


def problems(pos: Position, units: Sequence[Unit]) -> list[tuple[str, str]]:
    """Every stacking limit that ``units``, all in one hex, break: ``(why, rule)`` pairs."""
    out: list[tuple[str, str]] = []
    if len(units) < 2:
        return out  # one unit alone breaks no limit: each limit below is at least one
    camps = sorted({u.camp for u in units})
    for i, a in enumerate(camps):
        for b in camps[i + 1:]:
            if hostile(a, b, pos.palmyra):
                rule = "ldf:10.5" if {a, b} <= {"loyal", "rebel", "gallic"} else "ldf:10.1"
                out.append((f"{a} and {b} units are enemies and never stack together", rule))
    if "palmyran" in camps and len(camps) > 1:
        out.append(("Palmyran units stack with no other units", "ldf:10.4"))
    n = _counts(units)
    if n.get(("german", "german-tribe"), 0) > 1:
        out.append(("no more than one Germanic tribe may be in a hex", "ldf:10.2"))
    if n.get(("parthian", "parthian-garrison"), 0) > 1:
        out.append(("no more than one Parthian garrison/fortification may be in a hex", "ldf:10.3"))
    if n.get(("parthian", "parthian-gund"), 0) > 8:
        out.append(("no more than eight Parthian gunds may be in a hex", "ldf:10.3"))
    if n.get(("palmyran", "palmyran-legion"), 0) > 8:
        out.append(("no more than eight Palmyran legion-equivalents may be in a hex", "ldf:10.4"))
    garrisons = sum(1 for u in units if u.piece in GARRISONS and u.camp != "parthian")
    if sum(1 for u in units if u.piece in GARRISONS and u.camp == "palmyran") > 1:
        out.append(("no more than one Palmyran garrison/fortification may be in a hex", "ldf:10.4"))
    elif garrisons > 1:
        out.append(("no more than one garrison/fortification may be in a hex", "ldf:10.6"))
    leaders = [u for u in units if u.piece in LEADERS]
    if len(leaders) > 1:
        out.append(("the emperor and the co-emperor never share a hex", "ldf:8.3"))
    for camp in ("loyal", "rebel", "gallic"):
        bases = n.get((camp, "legion-base"), 0)
        if bases > 2:
            out.append((f"no more than two legion base elements may be in a hex, not {bases}", "ldf:10.6"))
        inf = n.get((camp, "infantry-vexillation"), 0)
        cav = n.get((camp, "cavalry-vexillation"), 0)
        limit = vexillation_limit(pos, units, camp)
        if pos.cavalry_reserve:
            if inf + cav > limit:
                out.append((f"no more than {limit} vexillations (cavalry counting, ldf:10.8) may be in a hex "
                            f"{'with' if limit > 2 else 'without'} a leader, not {inf + cav}", "ldf:10.8"))
        else:
            if cav > 1:
                out.append(("no more than one cavalry vexillation may be in a hex before the central cavalry "
                            "reserve", "ldf:10.8"))
            if inf > limit:
                out.append((f"no more than {limit} infantry vexillations may be in a hex "
                            f"{'with' if limit > 2 else 'without'} a leader, not {inf}", "ldf:10.7"))
    return out


def is_legal(pos: Position, units: Sequence[Unit]) -> bool:
    """True if ``units``, all in one hex, break no stacking limit."""
    return not problems(pos, units)


def fits(state: LDFState, hex_id: str, coming: Sequence[Any]) -> bool:
    """Whether the units in ``hex_id`` together with the game units ``coming`` (moving,
    retreating, advancing or placed there) break no stacking limit (``ldf:10.1``-``10.8``):
    :func:`placement_problem` finds nothing."""
    return placement_problem(state, hex_id, coming) is None


# ---------------------------------------------------------------- placements (10.1-10.8): the one check


def _camp_in(state: LDFState, u: Any, hex_id: str, rebel: bool | None = None) -> str:
    """``u``'s camp once it stands in ``hex_id`` (``zoc.camp_of``, Palmyra's own garrison
    counted Palmyran); ``rebel`` overrides a Roman counter's side (a flip to come)."""
    if rebel is not None and u.nationality == "roman":
        return "gallic" if u.gallic and rebel else ("rebel" if rebel else "loyal")
    f = state.faction_of(u)
    if f == "client" and state.in_region(hex_id, "palmyra"):
        return "palmyran"
    return f


def _stack_position(state: LDFState) -> Position:
    """The political facts :func:`problems` reads, without the units (cheap: no map scan)."""
    return Position((), state.data.counters.pieces, palmyra=state.palmyra, cavalry_reserve=state.cavalry_reserve)


def placement_problem(state: LDFState, hex_id: str, coming: Sequence[Any], *,
                      rebel: bool | None = None) -> tuple[str, str] | None:
    """THE legality check of every placement (``ldf:10.1``-``10.8``, ``ldf:8.3``): why the game
    units ``coming`` may not stand in ``hex_id`` together with the units already there, or
    ``None``. Enemies never share a hex (10.1, 10.5), Palmyrans stack with no one (10.4), the
    two leaders never meet (8.3), and the limits of 10.2-10.8 hold.

    Every rule that puts units on the map outside a move, a retreat or an advance (reclaiming
    6.8, the returns of 7.1 and 7.2, Palmyra's and the Gallic replenishment 9.2-9.5, a garrison
    completed 8.13, the withdrawal of 7.3, a co-emperor or a new emperor placed 8.7 and 14.4, the
    chits' placements 14.3) goes through :func:`place`, which refuses what this check finds,
    and offers only hexes where it finds nothing. ``rebel`` (Roman counters only) asks about the
    same units turned to that side where they stand: a rising or a conversion (8.3, 8.7, 8.10)
    is checked by :func:`flip_problem`."""
    ids = {u.id for u in coming}
    h = state.hex(hex_id)
    there = [Unit(v.id, v.kind, h, _camp_in(state, v, hex_id)) for v in state.units_at(hex_id) if v.id not in ids]
    there += [Unit(u.id, u.kind, h, _camp_in(state, u, hex_id, rebel)) for u in coming]  # type: ignore[arg-type]
    found = problems(_stack_position(state), there)
    return found[0] if found else None


def can_place(state: LDFState, hex_id: str, coming: Sequence[Any]) -> bool:
    """Whether ``coming`` may be placed in ``hex_id`` (:func:`placement_problem` finds nothing)."""
    return placement_problem(state, hex_id, coming) is None


def place(state: LDFState, hex_id: str, uids: Sequence[str], rule: str) -> None:
    """The checked placement: put the units ``uids`` into ``hex_id`` together, or refuse with a
    ``ValueError`` naming the units, the hex, the limit broken and ``rule`` (the rule that
    places them). ``LDFState.place`` is the unchecked primitive that moves, retreats and
    advances use step by step (friendly units may pass through one another, 10.1)."""
    coming = [state.unit(uid) for uid in uids]
    why = placement_problem(state, hex_id, coming)
    if why is not None:
        raise ValueError(f"{', '.join(uids)} cannot be placed in {hex_id} ({rule}): {why[0]} ({why[1]})")
    for uid in uids:
        state.place(uid, hex_id)


def flip_problem(state: LDFState, hex_id: str, flipping: Sequence[Any], rebel: bool) -> tuple[str, str] | None:
    """Why the Roman counters ``flipping`` in ``hex_id`` may not turn to the ``rebel`` side
    where they stand (a rising 8.7, a conversion 8.3, diplomacy with a loyal co-emperor 8.10),
    or ``None``: the hex must stay a legal stack (10.1: a rebel never stands with a client
    garrison or a Palmyran, ruling in docs/games/ldf.md)."""
    ids = {u.id for u in flipping}
    staying = [v for v in state.units_at(hex_id) if v.id not in ids]
    h = state.hex(hex_id)
    there = [Unit(v.id, v.kind, h, _camp_in(state, v, hex_id)) for v in staying]
    there += [Unit(u.id, u.kind, h, _camp_in(state, u, hex_id, rebel)) for u in flipping]  # type: ignore[arg-type]
    found = problems(_stack_position(state), there)
    return found[0] if found else None


def excess(pos: Position, h: Hex) -> list[Unit]:
    """The vexillations beyond the limit in hex ``h`` once its leader is gone (``ldf:10.7``, ``ldf:10.8``).

    The units that must be unstacked (the minimum number, ``ldf:10.7``), taken
    from the end of the hex's list: infantry first, then cavalry when it counts.
    """
    units = pos.at(h)
    out: list[Unit] = []
    if len(units) <= PLAIN_VEXILLATIONS:
        return out  # no limit is lower
    for camp in ("loyal", "rebel", "gallic"):
        limit = vexillation_limit(pos, units, camp)
        kinds = ("infantry-vexillation", "cavalry-vexillation") if pos.cavalry_reserve else ("infantry-vexillation",)
        vex = [u for u in units if u.camp == camp and u.piece in kinds]
        if len(vex) > limit:
            out.extend(vex[limit:])
    return out


# ---------------------------------------------------------------- emergency unstacking (10.7)


def overstacked_hexes(state: LDFState, side: str) -> list[str]:
    """Hexes where ``side``'s Roman vexillations exceed the limit (a leader gone, ``ldf:10.7``)."""
    pos = position(state)
    out = []
    for h in sorted({u.hex for u in state.side_units(side) if u.hex is not None}):
        if excess(pos, state.hex(h)):
            out.append(h)
    return out


# ---------------------------------------------------------------- a leader never alone (8.4)


def _friends(state: LDFState, lead: Any, units: Iterable[Any]) -> bool:
    """Whether ``units`` hold a unit, mobile or static, friendly to the leader ``lead`` (8.4)."""
    side = state.side_of(lead)
    return any(o is not lead and not o.leader and state.side_of(o) == side and not state.hostile(o, lead)
               for o in units)


def lone_leaders(state: LDFState) -> list[str]:
    """IDs of the leaders on the map with no friendly unit, mobile or static, in their hex (``ldf:8.4``)."""
    out = []
    for uid in ("E", "CE"):
        lead = state.units.get(uid)
        if lead is not None and lead.on_map and lead.hex is not None \
                and not _friends(state, lead, state.units_at(lead.hex)):
            out.append(uid)
    return out
