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
- :func:`violate_neutrality` (an attack on a neutral satrapy's units, or a
  pillage or colonisation attempt in one of its hexes): the satrapy at once
  becomes controlled by the *other* player (xen:control). xen-ops and
  xen-combat call it.

Queries: :func:`occupies_all_cities` (the Diplomacy Table's "occupies all
Cities/Colonies", a pillaged city still counting, xen:errata),
:func:`friendly_cities` (income and recruiting).
"""

from __future__ import annotations

from ancients_kit.session import Context

from .state import EMPIRE, NEUTRAL, REBEL, XenState, other_side

__all__ = ["change_control", "friendly_cities", "occupies_all_cities", "violate_neutrality"]


def change_control(ctx: Context, state: XenState, satrapy: str, new: str, why: str,
                   rules: tuple[str, ...] = ("xen:control",)) -> list[str]:
    """Set ``satrapy``'s control to ``new`` and turn its units; return the IDs eliminated (ruling 16)."""
    old = state.control[satrapy]
    if old == new:
        return []
    state.set_control(satrapy, new)
    lost: list[str] = []
    if new == NEUTRAL:
        inside = set(state.hexes_of(satrapy))
        for u in sorted((u for u in state.on_map() if u.satrapy == satrapy), key=lambda u: u.id):
            stacked = any(o.satrapy != satrapy for o in state.units_at(u.hex or ""))
            if u.hex not in inside or stacked or u.embarked is not None:
                lost.append(u.id)
        for uid in lost:
            state.eliminate(uid)
    text = f"{satrapy}: {old} -> {new} ({why})"
    if lost:
        text += f"; its units outside it or stacked with a player's units are eliminated: {', '.join(lost)}"
    ctx.event("control", text, rules + (("xen:control",) if "xen:control" not in rules else ()),
              satrapy=satrapy, old=old, new=new, eliminated=tuple(lost))
    return lost


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
