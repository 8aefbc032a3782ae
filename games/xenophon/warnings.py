"""Warnings before a mistake (issue 23 item 5): one line naming the rule, or None.

Pure and cheap functions for the move and attack options of the Operations
phase. Each reads the state as it is, looks at one hex and its neighbours, and
changes nothing; each returns a one-line warning that names the rule it reads,
or ``None`` when that rule holds no danger there.

- :func:`forage_warning`: a force entering a hex whose Forage Value cannot feed
  it with the friendly units already there (``xen:supply``).
- :func:`stranded_warning`: a fleet stopping in an enemy fleet's zone of control
  in an all-sea hex, where nothing feeds it (``xen:zoc``, ``xen:naval``,
  ``xen:supply``).
- :func:`city_retreat_warning`: an attack into a City or Colony, whose defenders
  may ignore a retreat result (``xen:retreats``).

The module is named for what it gives a player, not for Python's ``warnings``
(absolute imports keep the two apart).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from . import movement as mv
from .state import EMPIRE, REBEL, Unit, XenState, units_words
from .supply import capacity
from .zoc import in_any_ezoc

__all__ = [
    "city_retreat_warning",
    "forage_warning",
    "move_warning_lines",
    "move_warnings",
    "stranded_warning",
    "warning_text",
]


def _units(state: XenState, side: str, units: Sequence[str], hex_id: str) -> list[Unit]:
    """The force's units and the friendly units already in ``hex_id``, each once."""
    ids = list(dict.fromkeys(units))
    return _joined(state, side, [state.unit(u) for u in ids], set(ids), hex_id)


def _joined(state: XenState, side: str, force: list[Unit], ids: set[str], hex_id: str) -> list[Unit]:
    """``force`` (its units' IDs ``ids``) with the friendly units already in ``hex_id``."""
    return force + [u for u in state.units_at(hex_id) if u.side == side and u.id not in ids]


def forage_warning(state: XenState, side: str, units: Sequence[str], hex_id: str) -> str | None:
    """A warning if ``units`` of ``side``, entering ``hex_id``, would be more than its forage feeds.

    The hex feeds as many units as its Forage Value now (xen:supply: 0 when
    pillaged or next to a Pillage marker, 0 at sea; a desert hex one unit of its
    own satrapy: :func:`.supply.capacity`), counting every friendly unit that
    would be there: the force (leaders, trains and units aboard included,
    xen:leaders, xen:naval-transport) and those already in the hex. Neutral
    units never check supply, so a neutral side is never warned. With a Supply
    Train among them the excess can still be fed by expending it; the warning
    says so. None when the hex feeds them all.
    """
    if side not in (EMPIRE, REBEL) or not units:
        return None
    together = _units(state, side, units, hex_id)
    fv = capacity(state, hex_id, together)
    if len(together) <= fv:
        return None
    return _forage_line(hex_id, fv, together)


def _forage_line(hex_id: str, fv: int, together: list[Unit]) -> str:
    excess = len(together) - fv
    train = any(u.type == "supply_train" for u in together)
    fate = ("unless a Supply Train there is expended" if train
            else "and no Supply Train is there to feed them")
    return (f"forage: {hex_id} feeds {units_words(fv)} (FV {fv}) and would hold {len(together)} of yours: "
            f"{units_words(excess)} out of supply in your Supply phase, {fate} (xen:supply)")


def move_warnings(state: XenState, side: str, units: Sequence[str], hexes: Iterable[str]) -> dict[str, list[str]]:
    """:func:`forage_warning` and :func:`stranded_warning` of ``units`` moving into each of
    ``hexes``, in that order, for the hexes that have any: the same lines, with the work
    the hexes share (the force's units, whether it may be stranded at all) done once."""
    return {h: list(found) for h, found in move_warning_lines(state, side, units, hexes).items()}


def move_warning_lines(state: XenState, side: str, units: Sequence[str], hexes: Iterable[str]
                       ) -> dict[str, tuple[str, ...]]:
    """:func:`move_warnings` as tuples; the Forage Values under the markers now and the lines
    already written are kept between calls (the same lines recur move after move)."""
    if side not in (EMPIRE, REBEL) or not units:
        return {}
    ids = list(dict.fromkeys(units))
    force = [state.unit(u) for u in ids]
    taken = set(ids)
    occupied = set(state.occupied())
    may_strand = side == state.player_turn and any(u.fleet for u in force)
    fvs = _forage_values(state)
    desert, terrain, satrapy_of = state.data.desert, state.data.terrain, state.data.satrapy_of
    own_force = {u.satrapy for u in force}
    train_force = any(u.type == "supply_train" for u in force)
    if len(_LINES) > 20000:
        _LINES.clear()
    lines = _LINES
    out: dict[str, tuple[str, ...]] = {}
    for h in hexes:
        fv = fvs.get(h)
        if fv is None:
            fv = fvs[h] = state.forage(h)
        if h in occupied:
            together = _joined(state, side, force, taken, h)
            if fv < 1 and h in desert and any(u.satrapy == satrapy_of.get(h) for u in together):
                fv = 1  # supply.capacity: a desert hex feeds one unit of its own satrapy
            n = len(together)
            train = None
        else:
            together, n, train = force, len(force), train_force
            if fv < 1 and h in desert and satrapy_of.get(h) in own_force:
                fv = 1  # supply.capacity, as above
        found: tuple[str, ...] = ()
        if n > fv:
            if train is None:
                train = any(u.type == "supply_train" for u in together)
            line_key = (h, fv, n, train)
            found = lines.get(line_key)  # type: ignore[assignment]
            if found is None:
                found = lines[line_key] = (_forage_line(h, fv, together),)
        if may_strand and terrain.get(h) == mv.SEA:  # stranded_warning is None off the sea
            w = stranded_warning(state, side, units, h)
            if w:
                found += (w,)
        if found:
            out[h] = found
    return out


_LINES: dict[tuple[str, int, int, bool], tuple[str]] = {}
""":func:`_forage_line` by what it reads (the hex, its FV, how many units, a Supply Train among
them), as the one line of a tuple."""

_FORAGE: list[Any] = [None, None, None, None, {}]
"""The map data, Pillage markers, Colony markers and Famine the Forage Values were last read
under, and those values by hex."""


def _forage_values(state: XenState) -> dict[str, int]:
    """A memo of :meth:`~.state.XenState.forage` by hex, kept while what it reads holds: a
    hex's value reads its own Pillage and Colony markers, its neighbours' Pillage markers and
    the satrapies under Famine this turn. A marker placed or removed drops the values of its
    hex and the hexes next to it; another map or another Famine, all of them."""
    data = state.data
    pillaged, colonies = frozenset(state.pillaged), frozenset(state.colonies)
    famine = frozenset(state.effects.get("turn:famine", ()))
    memo = _FORAGE
    if memo[0] is not data or memo[3] != famine or not _symmetric(data.neighbours):
        memo[:] = [data, pillaged, colonies, famine, {}]
    elif memo[1] != pillaged or memo[2] != colonies:
        fvs = memo[4]
        for h in (memo[1] ^ pillaged) | (memo[2] ^ colonies):
            fvs.pop(h, None)
            for n in data.neighbours.get(h, ()):
                fvs.pop(n, None)
        memo[1], memo[2] = pillaged, colonies
    return memo[4]  # type: ignore[no-any-return]


_SYMMETRIC: list[Any] = [None, False]
"""The neighbour table last checked, and whether each hex is its neighbours' neighbour."""


def _symmetric(neighbours: Any) -> bool:
    """Whether every hex of ``neighbours`` (hex -> its neighbours) is a neighbour of each of its
    neighbours, as on any hex map: the hexes whose forage a marker touches are then its own
    neighbours (:func:`_forage_values`)."""
    if _SYMMETRIC[0] is not neighbours:
        ok = all(h in neighbours.get(n, ()) for h, ns in neighbours.items() for n in ns)
        _SYMMETRIC[:] = [neighbours, ok]
    return bool(_SYMMETRIC[1])


def stranded_warning(state: XenState, side: str, units: Sequence[str], hex_id: str) -> str | None:
    """A warning if a naval force of ``side`` entering ``hex_id`` would be stranded there.

    The rules have no rule named "stranded". The case they do make is this: a
    force must stop when it enters an enemy zone of control, and a naval force
    feels the enemy fleets' zones (xen:zoc, xen:naval: "land unit EZOCs do not
    block fleet movement"); in an all-sea hex nothing feeds it (FV 0), so "a
    Supply Train must be expended to supply fleets (and any transported units)
    remaining at sea" (xen:naval, xen:supply). A fleet stopped there by the
    enemy's fleets before its own Supply phase is stranded: it cannot sail on
    this phase (only a Forced March moves it again) and starves unless a
    Supply Train is expended.

    None where it cannot happen: a force without fleets (land units never enter
    an all-sea hex but aboard), a coastal or port hex (its forage is
    :func:`forage_warning`'s), a hex outside every enemy fleet's zone, or the
    non-phasing side (a reacting force): its Supply phase comes only after its own
    Operations phase, in which a force beginning in an enemy zone may leave it.
    """
    if side not in (EMPIRE, REBEL) or side != state.player_turn or not units:
        return None
    if not any(state.unit(u).fleet for u in units):
        return None
    if state.data.terrain.get(hex_id) != mv.SEA or not in_any_ezoc(state, side, hex_id, fleets_only=True):
        return None
    together = _units(state, side, units, hex_id)
    train = any(u.type == "supply_train" for u in together)
    fate = "unless its Supply Train is expended" if train else "with no Supply Train to feed it"
    return (f"stranded: {hex_id} is at sea in an enemy fleet's zone of control: the force must stop there "
            f"(xen:zoc), and the sea feeds nothing (FV 0): {units_words(len(together))} out of supply in your "
            f"Supply phase, {fate} (xen:naval, xen:supply)")


def city_retreat_warning(state: XenState, attacker_side: str, target_hex: str) -> str | None:
    """A warning if an attack by ``attacker_side`` into ``target_hex`` meets defenders who may
    ignore a retreat result there.

    "Units in Cities/Colonies may ignore retreat results" (xen:retreats; combat.py asks the
    owner whether to hold, docs ruling 13): a DR, and the retreat of the survivors of a DD,
    need not move defenders out of an unpillaged City or Colony (a pillaged City is "treated
    as clear"). None if the hex holds no defender of another side, or is no such City or Colony.
    """
    if target_hex in state.pillaged or not state.is_city(target_hex):
        return None
    defenders = [u for u in state.units_at(target_hex) if u.side != attacker_side]
    if not defenders:
        return None
    kind = "a Colony" if target_hex in state.colonies else "a City"
    return (f"city: {target_hex} is {kind}: its defenders may ignore a retreat result and hold it "
            f"(xen:retreats)")


_RULE_IN_PARENS = re.compile(r"\((xen:[a-z0-9.-]+(?:, xen:[a-z0-9.-]+)*)\)")


def warning_text(found: list[str]) -> str:
    """The warnings of a move (issue 23, item 5) as the end of its text, each naming its rule
    in square brackets, where a player's table shows rule IDs."""
    return "".join("; WARNING: " + _RULE_IN_PARENS.sub(r"[\1]", w) for w in found)
