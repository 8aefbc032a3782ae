"""Control of satrapies and occupation of hexes (xen:control, xen:occupation).

Control is a status of satrapies, kept on the Satrapy Control Chart
(:attr:`~.state.XenState.control`); occupation a status of hexes, read off the
units in them (:meth:`~.state.XenState.occupier`). This module changes
control the way every rule that changes it must:

- :func:`change_control` (Random Events' Satrapy Resists and Revolt,
  Diplomacy): the satrapy's units turn to their new side. When it becomes
  neutral, its units inside the satrapy stay in place; those outside it, or
  stacked with a player's units (a leader, a guard, a unit of another
  satrapy), are eliminated (docs/games/xenophon.md ruling 16, after
  xen:leaders: "eliminate the Satrapy's units stacked with the leader if the
  Satrapy turns Neutral");
- :func:`turn`, the same for rules code: the units lost go through
  :func:`.leaders.eliminate_units`, so the land units aboard a fleet lost at sea
  go down with it (a leader by the leader rules: Xenophon's escape roll, a
  Supreme Leader's chits) and those aboard on a coast go ashore;
  :func:`change_control` is the bare change under it (no die, no question);
- :func:`violate_neutrality` (an attack on a neutral satrapy's units, or a
  pillage or colonisation attempt in one of its hexes): the satrapy at once
  becomes controlled by the *other* player (xen:control). xen-ops and
  xen-combat call it.

- :func:`turn_and_unstack` (Diplomacy's D2/D3, an agreement): :func:`turn`, then the
  satrapy's units left stacked with the other player's are eliminated (xen:stacking).

Queries: :func:`occupies_all_cities` (the Diplomacy Table's "occupies all
Cities/Colonies", a pillaged city still counting, xen:errata),
:func:`friendly_cities` (income and recruiting), :func:`capital_occupied` (the
Supreme Leader in an unpillaged Capital: a free chit, a Diplomacy shift).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from ancients_kit.protocol import Context, Decision

from .leaders import eliminate_units
from .state import EMPIRE, NEUTRAL, REBEL, XenState, other_side

__all__ = [
    "capital_occupied",
    "change_control",
    "friendly_cities",
    "occupies_all_cities",
    "turn",
    "turn_and_unstack",
    "violate_neutrality",
]


def _set(state: XenState, satrapy: str, new: str) -> list[str]:
    """Set the control and turn the units; the IDs of the satrapy's units to eliminate (ruling 16)."""
    state.set_control(satrapy, new)
    lost: list[str] = []
    if new == NEUTRAL:
        inside = set(state.hexes_of(satrapy))
        for u in sorted((u for u in state.on_map() if u.satrapy == satrapy), key=lambda u: u.id):
            stacked = any(o.satrapy != satrapy for o in state.units_at(u.hex or ""))
            if u.hex not in inside or stacked or u.embarked is not None:
                lost.append(u.id)
    return lost


def _event(ctx: Context, satrapy: str, old: str, new: str, why: str, rules: tuple[str, ...], lost: list[str],
           sunk: Sequence[str] = ()) -> None:
    text = f"{satrapy}: {old} -> {new} ({why})"
    if lost:
        text += f"; its units outside it or stacked with a player's units are eliminated: {', '.join(lost)}"
    sunk = list(sunk)
    if sunk:
        text += f"; lost at sea with its fleets: {', '.join(sunk)}"
    extra = ("xen:control",) if "xen:control" not in rules else ()
    extra += ("xen:naval-transport",) if sunk else ()
    ctx.event("control", text, rules + extra, satrapy=satrapy, old=old, new=new, eliminated=tuple(lost + sunk))


def change_control(ctx: Context, state: XenState, satrapy: str, new: str, why: str,
                   rules: tuple[str, ...] = ("xen:control",)) -> list[str]:
    """Set ``satrapy``'s control to ``new`` and turn its units; return the IDs eliminated (ruling 16).

    The bare change: rules code calls :func:`turn`, which also settles the units aboard the
    fleets lost. Turning to a player eliminates nothing here (:func:`violate_neutrality`)."""
    old = state.control[satrapy]
    if old == new:
        return []
    lost = _set(state, satrapy, new)
    for uid in lost:
        state.eliminate(uid)  # satrapy units only, never a leader (leaders belong to no satrapy)
    _event(ctx, satrapy, old, new, why, rules, lost)
    return lost


def turn(ctx: Context, state: XenState, satrapy: str, new: str, why: str,
         rules: tuple[str, ...] = ("xen:control",)) -> Generator[Decision, str, list[str]]:
    """:func:`change_control` for rules code (Revolt, Satrapy Resists, Diplomacy, an agreement):
    the satrapy's units lost are eliminated through :func:`.leaders.eliminate_units`. The land
    units of other satrapies, and leaders, aboard its fleets lost go ashore on a coast and at sea
    are lost with them (xen:naval-transport; docs, Rulings: operations 12), a leader by the
    leader rules (xen:leaders, xen:supreme-leaders, xen:xenophon). Returns the IDs eliminated."""
    old = state.control[satrapy]
    if old == new:
        return []
    lost = _set(state, satrapy, new)
    said: list[bool] = []

    def announce(plain: list[str]) -> None:
        said.append(True)
        _event(ctx, satrapy, old, new, why, rules, [u for u in plain if u in lost],
               [u for u in plain if u not in lost])

    gone = yield from eliminate_units(ctx, state, lost, f"aboard a fleet of {satrapy}, which turns {new}",
                                      rules, with_cargo=False, announce=announce)
    if not said:
        _event(ctx, satrapy, old, new, why, rules, [])
    return gone


def violate_neutrality(ctx: Context, state: XenState, satrapy: str, by: str, act: str) -> bool:
    """``by`` attacks a neutral satrapy's units or tries to pillage/colonise there (``act``):
    the satrapy becomes the other player's at once (xen:control). Returns whether it changed."""
    if state.control.get(satrapy) != NEUTRAL:
        return False
    if by not in (EMPIRE, REBEL):
        raise ValueError(f"only a player violates neutrality, not {by!r} (xen:control)")
    change_control(ctx, state, satrapy, other_side(by), f"the {by} player {act} in neutral {satrapy}")
    return True


def friendly_cities(state: XenState, side: str, satrapy: str | None = None) -> list[str]:
    """Printed cities and colonies ``side`` occupies (xen:occupation), in one satrapy or all."""
    hexes = state.cities_of(satrapy) if satrapy else sorted(set(state.data.city_kind) | state.colonies)
    return [h for h in hexes if state.occupier(h) == side]


def occupies_all_cities(state: XenState, side: str, satrapy: str) -> bool:
    """Whether ``side`` occupies every City/Colony of ``satrapy`` (xen:occupation; a pillaged
    city still counts, xen:errata). False for a satrapy with none."""
    cities = state.cities_of(satrapy)
    return bool(cities) and all(state.occupier(h) == side for h in cities)


def capital_occupied(state: XenState, side: str) -> str | None:
    """The unpillaged Capital City ``side``'s Supreme Leader occupies, if any
    (a pillaged city is treated as clear, ``xen:pillage``)."""
    sl = state.supreme_leader(side)
    if sl is None or sl.hex is None or sl.embarked:
        return None
    h = sl.hex
    return h if state.data.city_kind.get(h) == "capital" and h not in state.pillaged else None


def turn_and_unstack(ctx: Context, state: XenState, satrapy: str, new: str, rules: Sequence[str],
                     why: str) -> Generator[Decision, str, None]:
    """``satrapy`` changes control by Diplomacy or an agreement (:func:`turn`, ruling 16). When it turns
    to a player, its units left in a hex with the other player's units are
    eliminated too (ruling: friendly and enemy units never stack, ``xen:stacking``);
    the other player's units aboard such a fleet go ashore on a coast and at sea
    are lost with it, a leader by the leader rules (:func:`.leaders.eliminate_units`)."""
    yield from turn(ctx, state, satrapy, new, why, tuple(rules))
    if new == "neutral":
        return
    mixed = sorted(u.id for u in state.on_map() if u.satrapy == satrapy
                   and any(o.side not in (new, "neutral") for o in state.units_at(u.hex or "")))

    def announce(plain: list[str]) -> None:
        own = [u for u in plain if u in mixed]
        sunk = [u for u in plain if u not in mixed]
        text = f"{satrapy}'s units stacked with the other player's are eliminated: {', '.join(own)}"
        if sunk:
            text += f"; lost at sea with them: {', '.join(sunk)}"
        ctx.event("control", text, (*rules, "xen:stacking") + (("xen:naval-transport",) if sunk else ()),
                  satrapy=satrapy, eliminated=tuple(plain))

    yield from eliminate_units(ctx, state, mixed, f"aboard a fleet of {satrapy}, which turns {new}", rules,
                               with_cargo=False, announce=announce)
