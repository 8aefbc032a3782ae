"""The Supply phase: forage (xen:supply).

In his Supply phase every unit of the phasing player must forage or be fed
by an expended Supply Train; units out of supply are eliminated (no Disband
Table). A hex feeds as many units (leaders, trains and embarked units
included) as its Forage Value (:func:`capacity`):

- the printed FV (:meth:`~.state.XenState.forage`), 0 in a pillaged hex and
  in the non-City/Colony hexes next to one, 0 in all-sea hexes, and 0 in the
  non-City hexes of a satrapy struck by Famine this turn (reconstructed event
  62);
- a desert hex feeds one unit of its own satrapy whatever its FV (ruling 20:
  one a hex).

Where the units exceed it, the owner may eliminate a Supply Train in the hex
and so supply all the rest; otherwise he eliminates the excess, units of his
choice (:func:`supply_phase`). Neutral units never check supply.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ancients_kit.protocol import Context, Decision, Option

from .leaders import eliminate_unit
from .state import Unit, XenState, type_name, units_words
from .vocab import Kind

__all__ = ["capacity", "out_of_supply", "supply_phase"]

SP = "xen:supply"


def capacity(state: XenState, hex_id: str, units: list[Unit]) -> int:
    """How many of ``units`` (one side's, in ``hex_id``) the hex feeds (xen:supply)."""
    fv = state.forage(hex_id)
    if hex_id in state.data.desert:
        own = state.satrapy_of(hex_id)
        if any(u.satrapy == own for u in units):
            fv = max(fv, 1)
    return fv


def out_of_supply(state: XenState, side: str) -> dict[str, int]:
    """Hex -> how many of ``side``'s units there exceed its forage."""
    out: dict[str, int] = {}
    for h in sorted(state.occupied()):
        units = [u for u in state.units_at(h) if u.side == side]
        if not units:
            continue
        excess = len(units) - capacity(state, h, units)
        if excess > 0:
            out[h] = excess
    return out


def supply_phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
    """h. Supply phase: forage, or expend a Supply Train, or lose the excess (xen:supply)."""
    for h, excess in out_of_supply(state, side).items():
        units = [u for u in state.units_at(h) if u.side == side]
        trains = [u for u in units if u.type == "supply_train"]
        fv = capacity(state, h, units)
        if trains:
            key = yield Decision(side, f"Supply in {h}: {units_words(len(units))}, FV {fv}. Expend a Supply Train "
                                 "to supply them all?", (Option("expend", f"eliminate {trains[0].id}: all supplied"),
                                                         Option("forage", f"keep it and eliminate {units_words(excess)}")),
                                 rule=SP, kind=Kind.SUPPLY_TRAIN, context={"highlight": (h,)})
            if key == "expend":
                yield from eliminate_unit(ctx, state, trains[0].id, f"expended to supply {h}", (SP,))
                ctx.event("supply", f"{side}: the units in {h} are supplied by {trains[0].id}", (SP,), side=side,
                          hex=h)
                continue
        # A desert hex "can always supply one unit of their own Satrapy": when that is all it
        # feeds, the unit it feeds is one of its own satrapy, so the last of them is never offered.
        desert_only = h in state.data.desert and state.forage(h) == 0 and fv == 1
        for i in range(excess):
            left = sorted((u for u in state.units_at(h) if u.side == side), key=lambda u: u.id)
            if len(left) <= capacity(state, h, left):
                break  # a fleet lost at sea took the units aboard with it (leaders.eliminate_units)
            own = [u for u in left if u.satrapy == state.satrapy_of(h)]
            if desert_only and len(own) == 1:
                left = [u for u in left if u is not own[0]]
            key = yield Decision(side, f"Supply in {h}: FV {fv}, {units_words(len(left))}: eliminate one "
                                 f"({i + 1} of {excess})", tuple(Option(u.id, f"{u.id} ({type_name(u.type)})") for u in left),
                                 rule=SP, kind=Kind.SUPPLY_LOSE, context={"highlight": (h,)})
            yield from eliminate_unit(ctx, state, key, f"out of supply in {h}", (SP,))
