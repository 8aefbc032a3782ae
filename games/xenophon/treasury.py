"""The Treasury phase: income, purchases, pillage removal, upkeep and the Disband Table
(xen:treasury, xen:treasury-chart, xen:remove-pillage, xen:disband).

In his Treasury phase the phasing player

1. collects income (:func:`income`): $3 a Treasury City, $2 a Capital, $1 an
   ordinary City or a Colony, each unpillaged and friendly-occupied; $0 a
   pillaged one; +$1 a Public Works marker there (xen:opt.public-works); none
   in the satrapies Mediterranean War closes to him (xen:random-events);
2. spends (:func:`spending_options`), in any order until he is done: $2 a
   chit (xen:stratagem), $5 to remove a Pillage marker from a friendly-occupied
   printed City, $3 from any other friendly-occupied hex (xen:remove-pillage;
   a removed colony is not restored);
3. maintains his units (:func:`upkeep`): every unit but leaders, supply
   trains, militia and barbarian hordes costs its chart upkeep ($1; a fleet
   $2, ruling 8), and one unit a hex in its home satrapy is maintained free
   (the chart's footnote **). Each unit he is unable or unwilling to pay for
   rolls on the Disband Table (:func:`disband_check`): 1d6, +1 with a friendly
   leader in the hex; 1-2 mutiny (removed; a Pillage marker in the hex if it
   is unpillaged and not all-sea, else the enemy draws a chit), 3-5 disband
   (removed), 6+ loyal (stays, no cost this turn). A fleet checks once for
   itself and the units aboard.

Removed units go back to the counter mix (they may be recruited or levied
again). Treasuries are :class:`~ancients_kit.secret.SecretNumber`: every change
is private to its owner unless the open option is on.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.tables import LookupTable

from .chits import draw_chit, roll
from .leaders import eliminate_units
from .pillage import mark_pillaged
from .state import Unit, XenState, other_side, units_words
from .vocab import Kind

__all__ = [
    "CHIT_COST",
    "INCOME",
    "REMOVE_PILLAGE",
    "disband_check",
    "disband_drm",
    "free_upkeep",
    "income",
    "maintained_units",
    "spending_options",
    "treasury_phase",
    "upkeep",
]

TR = "xen:treasury"
CHART = "xen:treasury-chart"
DB = "xen:disband"

INCOME: Mapping[str, int] = {"treasury": 3, "capital": 2, "city": 1, "colony": 1}
"""$ per unpillaged friendly-occupied city by kind (xen:treasury, xen:treasury-chart)."""
CHIT_COST = 2
REMOVE_PILLAGE: Mapping[bool, int] = {True: 5, False: 3}
"""$ to remove a Pillage marker: from a printed City (True) or any other hex (xen:treasury, xen:remove-pillage)."""
PUBLIC_WORKS_INCOME = 1  # xen:opt.public-works


def closed_satrapies(state: XenState, side: str) -> tuple[str, ...]:
    """Where ``side`` may not tax, purchase or levy this player-turn (Mediterranean War)."""
    if state.player_turn != side:
        return ()
    return tuple(state.effects.get("player-turn:mediterranean-war", ()))


def income(state: XenState, side: str) -> tuple[int, dict[str, int]]:
    """``side``'s income now and its parts by city kind (xen:treasury)."""
    closed = closed_satrapies(state, side)
    parts: dict[str, int] = {}
    for h in sorted(set(state.data.city_kind) | state.colonies):
        if h in state.pillaged or state.occupier(h) != side or state.satrapy_of(h) in closed:
            continue
        kind = state.city_kind(h)
        assert kind is not None
        parts[kind] = parts.get(kind, 0) + INCOME[kind]
        if state.options.public_works and h in state.public_works:
            parts["public-works"] = parts.get("public-works", 0) + PUBLIC_WORKS_INCOME
    return sum(parts.values()), parts


def upkeep_cost(state: XenState, u: Unit) -> int:
    """The chart's maintain cost of a unit (0 for leaders, supply trains, militia, hordes)."""
    return state.data.units[u.type].upkeep


def free_upkeep(state: XenState, side: str) -> set[str]:
    """Units maintained free: one a hex in its home satrapy, the dearest (chart footnote **)."""
    free: set[str] = set()
    for h in state.occupied():
        home = [u for u in state.units_at(h) if u.side == side and u.satrapy is not None
                and u.satrapy == state.satrapy_of(h) and upkeep_cost(state, u) > 0]
        if home:
            free.add(max(home, key=lambda u: (upkeep_cost(state, u), u.id)).id)
    return free


def maintained_units(state: XenState, side: str) -> list[Unit]:
    """``side``'s units on the map that cost upkeep (xen:treasury)."""
    return sorted((u for u in state.side_units(side) if upkeep_cost(state, u) > 0), key=lambda u: u.id)


def upkeep(state: XenState, side: str) -> list[tuple[Unit, int]]:
    """The units ``side`` must pay for this phase and what each costs (free ones left out)."""
    free = free_upkeep(state, side)
    return [(u, upkeep_cost(state, u)) for u in maintained_units(state, side) if u.id not in free]


def disband_drm(state: XenState, u: Unit) -> int:
    """+1 with friendly leader(s) in the hex (xen:disband)."""
    return 1 if any(o.leader and o.side == u.side for o in state.units_at(u.hex or "")) else 0


def disband_check(ctx: Context, state: XenState, uid: str,
                  rules: tuple[str, ...] = (DB,)) -> Generator[Decision, str, str]:
    """Roll on the Disband Table for an unmaintained unit (and, for a fleet, the units aboard); return the result."""
    u = state.unit(uid)
    table = state.data.tables["disband"]
    assert isinstance(table, LookupTable)
    drm = disband_drm(state, u)
    res = table.resolve((yield from roll(ctx, state, f"Disband Table: {uid}", (DB,))), drm)
    hex_id = u.hex or ""
    if res.result == "loyal":
        ctx.event("disband", f"{uid} stays loyal at no cost this turn (roll {res.roll}{drm:+d})", rules, side=u.side,
                  unit=uid, result="loyal")
        return "loyal"
    side = u.side

    def announce(plain: list[str]) -> None:
        ctx.event("disband", f"{', '.join(plain)}: {res.result} (roll {res.roll}{drm:+d}): removed from the map", rules,
                  side=side, unit=uid, result=res.result)

    # "Disband/mutiny affects units aboard as well": a leader aboard is lost by the leader rules
    # (Xenophon's escape roll, a Supreme Leader's chits; xen:leaders), not quietly to the mix.
    yield from eliminate_units(ctx, state, [uid], f"aboard {uid}, which {_verb(res.result)}", rules, announce=announce)
    if res.result == "mutiny":
        if state.data.terrain.get(hex_id) == "sea":
            pass  # no Pillage marker in all-sea hexes
        elif hex_id not in state.pillaged:
            mark_pillaged(ctx, state, hex_id, f"{uid} mutinies", rules, colony_marker=True)
        else:
            yield from draw_chit(ctx, state, other_side(side), f"{uid} mutinies in a pillaged hex",
                                 rules + ("xen:stratagem",))
    return res.result


def _verb(result: str) -> str:
    return {"mutiny": "mutinies", "disband": "disbands"}.get(result, result)


def spending_options(state: XenState, side: str) -> list[Option]:
    """What ``side`` may buy now in his Treasury phase (xen:treasury, xen:remove-pillage)."""
    money = state.treasury[side].value
    hand = state.hands[side]
    opts: list[Option] = []
    if money >= CHIT_COST and len(state.pool) and (hand.limit is None or len(hand) < hand.limit):
        opts.append(Option("buy-chit", f"buy a chit (${CHIT_COST})"))
    for h in sorted(state.pillaged):
        if state.occupier(h) != side:
            continue
        city = h in state.data.city_kind
        cost = REMOVE_PILLAGE[city]
        if money >= cost:
            opts.append(Option(f"remove-pillage:{h}", f"remove the Pillage marker in {h}"
                               f"{' (' + state.data.city_name.get(h, 'city') + ')' if city else ''} (${cost})"))
    return opts


def treasury_phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
    """d. Treasury phase: income, spending, upkeep (xen:treasury)."""
    treasury = state.treasury[side]
    total, parts = income(state, side)
    detail = ", ".join(f"{k} ${v}" for k, v in sorted(parts.items())) or "no city"
    rules = (TR, CHART) + (("xen:opt.public-works",) if "public-works" in parts else ()) \
        + (("xen:random-events",) if closed_satrapies(state, side) else ())
    treasury.gain(ctx, total, f"income: {detail}", rules)
    while True:
        opts = spending_options(state, side)
        if not opts:
            break
        key = yield Decision(side, f"Treasury phase: spend (you hold ${treasury.value})",
                             (Option("done", "spend nothing more"), *opts), rule=TR, kind=Kind.TREASURY_SPEND)
        if key == "done":
            break
        if key == "buy-chit":
            treasury.spend(ctx, CHIT_COST, "buys a chit", (TR, "xen:stratagem"))
            yield from draw_chit(ctx, state, side, "bought", (TR, "xen:stratagem"))
        else:
            h = key.split(":", 1)[1]
            cost = REMOVE_PILLAGE[h in state.data.city_kind]
            treasury.spend(ctx, cost, f"removes the Pillage marker in {h}", (TR, "xen:remove-pillage"))
            state.pillaged.discard(h)
            ctx.event("pillage", f"{side} removes the Pillage marker in {h}: its FV and any printed City are restored",
                      (TR, "xen:remove-pillage"), side=side, hex=h)
    yield from _maintain(ctx, state, side)


def _maintain(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    """Pay upkeep or leave units unpaid; unpaid units roll on the Disband Table (xen:treasury, xen:disband)."""
    treasury = state.treasury[side]
    due = upkeep(state, side)
    unpaid: list[str] = []
    # Units aboard a fleet check with it (xen:disband): they are paid for or not with their fleet.
    while due:
        total = sum(c for _, c in due)
        opts = []
        if total <= treasury.value:
            opts.append(Option("pay", f"pay ${total} upkeep for the {units_words(len(due))} left"))
        opts += [Option(f"unpaid:{u.id}", f"do not maintain {u.id} in {u.hex} (${c}): Disband Table")
                 for u, c in due]
        key = yield Decision(side, f"Maintain your units: ${total} due, you hold ${treasury.value}", tuple(opts),
                             rule=TR, kind=Kind.TREASURY_UPKEEP)
        if key == "pay":
            treasury.spend(ctx, total, f"upkeep of {len(due)} units", (TR, CHART))
            break
        uid = key.split(":", 1)[1]
        unpaid.append(uid)
        due = [(u, c) for u, c in due if u.id != uid]
    for uid in unpaid:
        u = state.units[uid]
        if u.where != "map":
            continue  # gone with its fleet
        yield from disband_check(ctx, state, uid, (TR, DB))
