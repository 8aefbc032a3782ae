"""Pillage and colonisation operations, and the forage a pillage destroys.

Rules served:

- ``xen:pillage``: a force pillages an unpillaged, non-sea hex it occupies,
  not in EZOC, for 2 OP: 1d6 on the Pillage Table in the column of the
  units in the force, leaders counted (errata: "Leaders do count for
  pillage"), Supply and Siege trains ignored, no modifiers. P: any Colony
  removed, a Pillage marker placed, $1 for a Colony or ordinary City, $1d6 for
  a Treasury or Capital City (none for other hexes); R: the non-phasing player
  picks a chit from the pool. The marker makes the hex's FV 0 and that of every
  adjacent non-City/Colony hex (not across an all-sea hexside), ignores the
  printed City and port, forbids a Colony there and removes Public Works
  (xen:opt.public-works). Fleets may pillage coastal hexes
  (xen:naval-combat).
- ``xen:colonisation``: 4 OP; never in or next to a City or Colony, in a
  pillaged or desert hex, in EZOC; points +2 a leader, phalanx, cavalry,
  light, barbarian horde or militia, +1 in a clear hex; 1d6 on the
  Colonization Operations Table; C: a Colony marker, one unit of the force
  removed; R: the non-phasing player draws a chit.
- ``xen:control``: attempting to pillage or colonise a hex of a neutral
  satrapy gives the satrapy at once to the other player.
- ``xen:remove-pillage`` (the operation side): a pillaged City is still a City
  for occupation and VP (errata); removal itself, paid in the Treasury phase,
  is treasury.py's. :func:`restores` says what a removal gives back.

Pure functions (columns, points, legality, the forage lost) come first; the
two operations (:func:`pillage`, :func:`colonise`) are generators called by
:mod:`.operations`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Any

from ancients_kit.protocol import Context, Decision, Option

from . import chits, control
from .leaders import eliminate
from . import movement as mv
from .state import XenState, other_side, type_name
from .zoc import in_any_ezoc
from .vocab import Kind

__all__ = [
    "COLONISE_TYPES",
    "COLONISE_OP",
    "PILLAGE_OP",
    "colonisation_column",
    "colonisation_points",
    "colonise",
    "colonise_refusal",
    "forage_destroyed",
    "mark_pillaged",
    "pillage",
    "pillage_column",
    "pillage_count",
    "pillage_refusal",
    "restores",
    "settler_candidates",
]

PILLAGE_OP = 2
"""xen:operations: Pillage costs 2 OP (not in EZOC)."""
COLONISE_OP = 4
"""xen:operations: Colonization costs 4 OP (not in EZOC)."""
TRAINS = ("supply_train", "siege_train")
COLONISE_TYPES = frozenset({"leader", "phalanx", "cavalry", "light", "barbarian_horde", "militia"})
"""Units worth +2 colonisation points (xen:colonisation); elephants, fleets and trains add nothing."""


# ---------------------------------------------------------------- pure parts


def pillage_count(types: Iterable[str]) -> int:
    """Units counted for the Pillage Table: every unit, leaders included, trains ignored."""
    return sum(1 for t in types if t not in TRAINS)


def pillage_column(state: XenState, types: Iterable[str]) -> str:
    """The Pillage Table column for a force of these unit types (``1``, ``2-3``, ``4-5``, ``6+``)."""
    table = state.data.tables["pillage"]
    return table.columns[table.position(max(1, pillage_count(types)))]  # type: ignore[union-attr]


def colonisation_points(types: Iterable[str], clear: bool) -> int:
    """+2 a leader, phalanx, cavalry, light, barbarian or militia unit; +1 in a clear hex."""
    return 2 * sum(1 for t in types if t in COLONISE_TYPES) + (1 if clear else 0)


def colonisation_column(state: XenState, points: int) -> str:
    table = state.data.tables["colonisation"]
    return table.columns[table.position(points)]  # type: ignore[union-attr]


def settler_candidates(state: XenState, force: Iterable[str]) -> list[str]:
    """The units of a colonising force that may be the one removed to settle the Colony
    (xen:colonisation, "remove 1 unit in colonizing Force"): its land combat units, never a fleet
    nor a leader while it has one (audit D19; docs, Rulings: operations); failing those its
    leaders (removed through :func:`.leaders.eliminate`), and failing those its fleets."""
    units = [state.unit(u) for u in force]
    for fits in (lambda u: not u.fleet and not u.leader, lambda u: u.leader, lambda u: True):
        found = [u.id for u in units if fits(u)]
        if found:
            return found
    return []


def forage_destroyed(state: XenState, hex_id: str) -> list[str]:
    """The hexes whose FV a Pillage marker in ``hex_id`` makes 0: the hex and its adjacent
    non-City/Colony land hexes, not across an all-sea hexside (xen:pillage, xen:supply)."""
    m = state.map
    h = m.from_id(hex_id)
    out = [hex_id]
    for n in m.neighbors(h):
        nid = m.to_id(n)
        if m.terrain(n) == "sea" or state.is_city(nid) or mv.all_sea_hexside(m, h, n):
            continue
        out.append(nid)
    return out


def restores(state: XenState, hex_id: str) -> dict[str, Any]:
    """What removing the Pillage marker in ``hex_id`` gives back (xen:remove-pillage): the
    printed City and port, the FV; never a destroyed Colony (it must be colonised again)."""
    return {
        "city": state.data.city_kind.get(hex_id),
        "port": hex_id in state.data.ports,
        "forage": state.data.forage.get(hex_id, 0),
        "colony": False,
    }


def pillage_refusal(state: XenState, hex_id: str, in_ezoc: bool, naval: bool, side: str | None = None) -> str | None:
    """Why a force of ``side`` (by default the hex's occupier) in ``hex_id`` may not pillage
    (None: it may). ``in_ezoc`` is the caller's finding; any enemy zone of control, a fleet's
    for a land force too, forbids it (:func:`in_any_ezoc`)."""
    if state.data.terrain.get(hex_id) == "sea":
        return f"{hex_id} is an all-sea hex: only land hexes are pillaged (xen:pillage)"
    if hex_id in state.pillaged:
        return f"{hex_id} is already pillaged (xen:pillage)"
    if in_ezoc or in_any_ezoc(state, side or state.occupier(hex_id) or "", hex_id):
        return f"{hex_id} is in an enemy zone of control: no pillage there (xen:pillage, xen:zoc)"
    if naval and hex_id not in state.data.coastal:
        return f"fleets pillage only coastal hexes, not {hex_id} (xen:naval-combat)"
    return None


def colonise_refusal(state: XenState, hex_id: str, in_ezoc: bool, side: str | None = None) -> str | None:
    """Why a force of ``side`` (by default the hex's occupier) in ``hex_id`` may not colonise
    (None: it may); any enemy zone of control forbids it, as for pillage (:func:`in_any_ezoc`)."""
    terrain = state.data.terrain.get(hex_id)
    if terrain == "sea":
        return f"{hex_id} is an all-sea hex (xen:colonisation)"
    if hex_id in state.pillaged:
        return f"{hex_id} is pillaged: no Colony there (xen:colonisation, xen:pillage)"
    if terrain == "desert" or hex_id in state.data.desert:
        return f"{hex_id} is desert: no Colony there (xen:colonisation)"
    if in_ezoc or in_any_ezoc(state, side or state.occupier(hex_id) or "", hex_id):
        return f"{hex_id} is in an enemy zone of control (xen:colonisation, xen:zoc)"
    near = [hex_id, *state.neighbours(hex_id)]
    city = next((h for h in near if state.is_city(h)), None)
    if city is not None:
        what = "a Colony" if city in state.colonies else "a City"
        return f"{city} holds {what}: no Colony in or next to a City or Colony (xen:colonisation)"
    return None


# ---------------------------------------------------------------- effects


def _violate_neutrality(ctx: Context, state: XenState, side: str, hex_id: str, what: str) -> None:
    satrapy = state.satrapy_of(hex_id)
    if satrapy is not None:
        control.violate_neutrality(ctx, state, satrapy, side, f"{what} {hex_id}")


def pillage(ctx: Context, state: XenState, side: str, force: list[str], hex_id: str) -> Generator[
        Decision, Any, str]:
    """Pillage ``hex_id`` with ``force`` (the OP are paid by the caller); returns the result code."""
    rules = ("xen:pillage",)
    _violate_neutrality(ctx, state, side, hex_id, "pillage")
    types = [state.unit(u).type for u in force]
    count = max(1, pillage_count(types))
    table = state.data.tables["pillage"]
    roll = yield from chits.roll(ctx, state, f"{side} pillages {hex_id} with {count} units", rules)
    res = table.resolve_value(count, roll)  # type: ignore[union-attr]
    # errata "Leaders do count for pillage": cited only when a leader is counted in the column
    led = ("xen:errata",) if any(state.unit(u).leader for u in force) else ()
    ctx.event("pillage", f"{side} pillage {hex_id}: {res.explain()}", rules + led, side=side,
              hex=hex_id, result=res.result)
    if "P" in res.result:
        kind = state.city_kind(hex_id)
        if hex_id in state.colonies:
            state.colonies.discard(hex_id)
            ctx.event("colony", f"the Colony in {hex_id} is destroyed", ("xen:pillage", "xen:colonisation"),
                      hex=hex_id)
        if hex_id in state.public_works:
            state.public_works.discard(hex_id)
            ctx.event("public-works", f"the Public Works in {hex_id} are destroyed",
                      ("xen:pillage", "xen:opt.public-works"), hex=hex_id)
        state.pillaged.add(hex_id)
        lost = forage_destroyed(state, hex_id)
        ctx.event("pillaged", f"Pillage marker in {hex_id}: FV 0 in {', '.join(lost)}", ("xen:pillage", "xen:supply"),
                  hex=hex_id, forage_lost=lost)
        if kind in ("treasury", "capital"):
            gain = yield from chits.roll(ctx, state, f"loot of {hex_id}", rules)
        elif kind in ("city", "colony"):
            gain = 1
        else:
            gain = 0
        if gain:
            state.treasury[side].gain(ctx, gain, f"loot of {hex_id}", rules)
    if "R" in res.result:
        yield from chits.draw_chit(ctx, state, other_side(side), f"reaction to the pillage of {hex_id}", rules)
    return res.result


def colonise(ctx: Context, state: XenState, side: str, force: list[str], hex_id: str) -> Generator[
        Decision, Any, tuple[str, str | None]]:
    """Colonise ``hex_id`` with ``force`` (OP paid by the caller). Returns the result code and
    the unit removed on a success (the owner's choice), or None."""
    rules = ("xen:colonisation",)
    _violate_neutrality(ctx, state, side, hex_id, "colonise")
    clear = state.data.terrain.get(hex_id) == "clear"
    points = colonisation_points((state.unit(u).type for u in force), clear)
    table = state.data.tables["colonisation"]
    roll = yield from chits.roll(ctx, state, f"{side} colonises {hex_id} with {points} points", rules)
    res = table.resolve_value(max(1, points), roll)  # type: ignore[union-attr]
    ctx.event("colonise", f"{side} colonise {hex_id} ({points} points): {res.explain()}", rules, side=side,
              hex=hex_id, result=res.result)
    removed: str | None = None
    if "C" in res.result:
        state.colonies.add(hex_id)
        settlers = settler_candidates(state, force)
        opts = tuple(Option(u, f"{u} ({type_name(state.unit(u).type)})") for u in settlers)
        removed = opts[0].key if len(opts) == 1 else (yield Decision(
            side, f"the Colony in {hex_id} is founded; choose the unit of the force that settles it",
            opts, rule="xen:colonisation", kind=Kind.OPS_COLONIST))
        if state.unit(removed).leader:
            # Only leaders (and fleets) in the force: the leader is eliminated like any unit (xen:leaders):
            # Xenophon's escape roll, a Supreme Leader's Anabasis and lost chits (leaders.eliminate).
            ctx.event("colony", f"Colony placed in {hex_id}; leader {removed} settles it", rules + ("xen:leaders",),
                      side=side, hex=hex_id, unit=removed)
            yield from eliminate(ctx, state, removed, f"settled the Colony in {hex_id}", rules)
        else:
            state.to_mix(removed)
            ctx.event("colony", f"Colony placed in {hex_id}; {removed} settles it and leaves the map", rules,
                      side=side, hex=hex_id, unit=removed)
    if "R" in res.result:
        yield from chits.draw_chit(ctx, state, other_side(side), f"reaction to the colony at {hex_id}", rules)
    return res.result, removed


def mark_pillaged(ctx: Context, state: XenState, h: str, why: str, rules: tuple[str, ...],
                  *, colony_marker: bool = False) -> None:
    """A Pillage marker in a printed city, or a colony removed (the Plague's words, and pillage's:
    "Colonies are removed if their hexes are Pillaged", xen:colonisation); public works go too.
    With ``colony_marker`` a Colony hex gets the marker as well as losing its Colony (the Disband
    Table's mutiny: "If hex unpillaged place Pillage marker", xen:disband)."""
    state.public_works.discard(h)
    if h in state.colonies and h not in state.data.city_kind and not colony_marker:
        state.colonies.discard(h)
        ctx.event("pillage", f"the colony in {h} is removed ({why})", rules, hex=h)
        return
    colony = h in state.colonies
    state.colonies.discard(h)
    state.pillaged.add(h)
    ctx.event("pillage", f"Pillage marker in {h}{'; its colony is removed' if colony else ''} ({why})", rules, hex=h)
