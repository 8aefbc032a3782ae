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

from collections.abc import Iterable, Sequence

from . import movement as mv
from .pillage import in_any_ezoc
from .state import EMPIRE, REBEL, Unit, XenState, units_words
from .supply import capacity

__all__ = ["city_retreat_warning", "forage_warning", "move_warnings", "stranded_warning"]


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
    if side not in (EMPIRE, REBEL) or not units:
        return {}
    ids = list(dict.fromkeys(units))
    force = [state.unit(u) for u in ids]
    taken = set(ids)
    occupied = set(state.occupied())
    may_strand = side == state.player_turn and any(u.fleet for u in force)
    out: dict[str, list[str]] = {}
    for h in hexes:
        together = _joined(state, side, force, taken, h) if h in occupied else force
        found = []
        fv = capacity(state, h, together)
        if len(together) > fv:
            found.append(_forage_line(h, fv, together))
        if may_strand:
            w = stranded_warning(state, side, units, h)
            if w:
                found.append(w)
        if found:
            out[h] = found
    return out


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
