"""The mutual administrative phase (``ldf:5.5``, ``5.6``, ``6.x``, ``7.x``), from Turn 2 on.

In order (5.5, and the order the rules give their steps):

1. 5.6 every chit held, and every chit set aside until the next turn, goes
   back into the pool;
2. 9.5 the Gallic Empire's replenishment, its "special first step" in Turns 4
   and 5 (``clients.gallic_replenishment``, ldf-politics);
3. 6.9 the carry-over cap, then 6.2/6.5 collection, with 6.6 emergency
   taxation offered hex by hex;
4. 6.7 demobilisation; 5. 6.8 reclaiming eliminated legions (and cavalry once
   the reserve exists);
6. 7.1 German returns; 7. 7.2 Parthian returns and the recovery of looted
   Parthian centres (6.4), unless Parthia has collapsed; 8. 7.3 the roll for
   Parthian recovery while collapsed;
9. Palmyra's replenishment (9.2-9.4, ``clients.palmyra_replenishment``,
   ldf-politics).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ancients_kit.protocol import Context, Decision, Option

from . import clients, economy, politics, stacking, treasury, unstacking
from .state import GP, ROMAN, LDFState
from .vocab import Kind

__all__ = ["administrative_phase", "chits_back", "collection"]


def chits_back(ctx: Context, state: LDFState) -> None:
    """5.6: at the start of every turn after the first, both hands and the chits set aside
    until the next turn (8.17) go back into the pool. The hands' contents stay secret."""
    n = 0
    for side, hand in state.hands.items():
        for c in hand.cards:
            hand.remove(c)
            state.pool.add(c)
            n += 1
    for c in state.set_aside:
        state.pool.add(c)
    n_aside = len(state.set_aside)
    state.set_aside.clear()
    state.revealed.clear()
    ctx.event("chits", f"Turn {state.turn}: {n} held chits and {n_aside} set aside go back into the pool "
              f"({len(state.pool)} in it)", rules=("ldf:5.6", "ldf:8.17"))


def collection(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """6.9 then 6.2/6.5: carry over at most 5 TP, collect the revenue of every unlooted hex the
    Roman controls, offering emergency taxation (6.6) of each eligible hex first."""
    economy.carry_over(ctx, state)
    while True:
        hexes = economy.emergency_tax_hexes(state)
        if not hexes:
            break
        key = yield Decision(ROMAN, f"Collection (6.5: {economy.revenue(state)} TP due): tax a hex in emergency "
                             "for double TP (it is then looted), or collect",
                             (Option("collect", "collect the revenue"),) + tuple(
                                 Option(h, f"{h}: {2 * state.unlooted_tp(h)} TP instead of {state.unlooted_tp(h)}")
                                 for h in hexes),
                             rule="ldf:6.6", kind=Kind.ADMIN_TAX, context={"highlight": hexes})
        if key == "collect":
            break
        economy.emergency_tax(ctx, state, key)
        yield from politics.share_fate(ctx, state, ("ldf:6.6",), "emergency taxation")  # a leader left alone (8.4)
        if state.over:
            return
    paying = economy.revenue_hexes(state)
    total = sum(paying.values())
    parts = []
    core = state.region("core")
    for label, test in (("core", lambda h: h in core), ("Caucasus", lambda h: state.in_region(h, "caucasus")),
                        ("trans-river", lambda h: state.in_region(h, "trans-river")),
                        ("Palmyra", lambda h: state.in_region(h, "palmyra"))):
        v = sum(tp for h, tp in paying.items() if test(h))
        if v:
            parts.append(f"{label} {v}")
    rules = ["ldf:6.2", "ldf:6.5", "ldf:6.1"]
    if any(state.in_region(h, "caucasus") for h in paying):
        rules.append("ldf:9.6")
    if any(state.in_region(h, "trans-river") for h in paying):
        rules.append("ldf:9.7")
    if total:
        treasury.gain(ctx, state, total, "collection: " + ", ".join(parts), rules)
    else:
        ctx.event("treasury", "Collection: no hex pays the Roman treasury", rules=("ldf:6.2", "ldf:6.5"), side=ROMAN)


def demobilisation(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """6.7: the Roman may demobilise legion bases with infantry vexillations, 2 TP a pair."""
    while economy.demobilise_choices(state):
        key = yield Decision(ROMAN, "Demobilise legions for TP (6.7: 2 TP per base and vexillation)?",
                             (Option("done", "no more demobilisation"), Option("demobilise", "demobilise")),
                             rule="ldf:6.7", kind=Kind.ADMIN_DEMOBILISE_ASK)
        if key == "done":
            return
        yield from economy.demobilise_step(ctx, state)


def reclaiming(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """6.8: 1 TP per unit from the dead pile, legion bases and infantry vexillations in pairs into
    the same core hexes free of enemy units; cavalry alone once the reserve exists (10.8)."""
    while True:
        bases = state.of_kind("legion-base", "dead")
        vexes = state.of_kind("infantry-vexillation", "dead")
        cav = state.of_kind("cavalry-vexillation", "dead") if state.cavalry_reserve else []
        opts = [Option("done", "reclaim no more")]
        if bases and vexes and state.treasury >= 2 and economy.reclaim_hexes(state, "legion"):
            opts.append(Option("legion", "a legion base with an infantry vexillation (2 TP)"))
        if cav and state.treasury >= 1 and economy.reclaim_hexes(state, "cavalry"):
            opts.append(Option("cavalry", "a cavalry vexillation (1 TP)"))
        if len(opts) == 1:
            return
        key = yield Decision(ROMAN, f"Reclaim units from the dead pile (6.8; treasury {state.treasury} TP)?",
                             tuple(opts), rule="ldf:6.8", kind=Kind.ADMIN_RECLAIM)
        if key == "done":
            return
        hexes = economy.reclaim_hexes(state, key)
        where = yield Decision(ROMAN, f"Place the reclaimed {'legion' if key == 'legion' else 'cavalry'}: "
                               "a core hex free of enemy units", tuple(Option(h, h) for h in hexes),
                               rule="ldf:6.8", kind=Kind.ADMIN_RECLAIM_HEX, context={"highlight": hexes})
        if key == "legion":
            b, v = bases[0], vexes[0]
            treasury.spend(ctx, state, 2, f"reclaiming {b.id} and {v.id}", ("ldf:6.8",))
            stacking.place(state, where, [b.id, v.id], "ldf:6.8")
            ctx.event("reclaim", f"Legion base {b.id} and infantry vexillation {v.id} return in {where}",
                      rules=("ldf:6.8", "ldf:10.6", "ldf:10.7"), side=ROMAN, hex=where)
        else:
            c = cav[0]
            treasury.spend(ctx, state, 1, f"reclaiming {c.id}", ("ldf:6.8",))
            stacking.place(state, where, [c.id], "ldf:6.8")
            ctx.event("reclaim", f"Cavalry vexillation {c.id} returns in {where}", rules=("ldf:6.8", "ldf:10.8"),
                      side=ROMAN, hex=where)


def german_returns(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """7.1: every tribe in the dead pile returns, one per hex, to hexes of Barbaria with no unit
    of either side (as many as such hexes allow); enemy zones of control do not matter."""
    dead = state.of_kind("german-tribe", "dead")
    barbaria = sorted(state.region("barbaria"))
    back = []
    for t in dead:
        free = [h for h in barbaria if not state.units_at(h)]
        if not free:
            break
        key = yield Decision(GP, f"German tribe {t.id} returns (7.1): an empty hex of Barbaria",
                             tuple(Option(h, h) for h in free), rule="ldf:7.1", kind=Kind.ADMIN_TRIBE,
                             context={"highlight": free})
        stacking.place(state, key, [t.id], "ldf:7.1")
        back.append(f"{t.id} {key}")
    if dead:
        ctx.event("returns", f"{len(back)} German tribes return to Barbaria" +
                  (f" ({', '.join(back)})" if back else "") +
                  (f"; {len(dead) - len(back)} find no empty hex" if len(back) < len(dead) else ""),
                  rules=("ldf:7.1",), side=GP)


def _roman_in(state: LDFState, hex_id: str) -> bool:
    """Whether a Roman unit, loyal or rebel, occupies ``hex_id`` (1.2: "all Roman units")."""
    return any(u.nationality == "roman" for u in state.units_at(hex_id))


def parthian_returns(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """7.2 (not while collapsed), with 6.4: looted Parthian centres free of Roman units recover."""
    if state.parthia_collapsed:
        return
    # 6.4: "looted Parthian cities that aren't occupied by one or more Roman units": loyal or
    # rebel, since 1.2 calls both "Roman units" (a rebel there keeps it looted too)
    recovered = sorted(h for h in state.looted if state.in_region(h, "parthia") and not _roman_in(state, h))
    for h in recovered:
        state.looted.discard(h)
    if recovered:
        ctx.event("recover", f"Looted Parthian centres recover: {', '.join(recovered)}", rules=("ldf:6.4", "ldf:7.2"),
                  side=GP)
    yield from economy.redeploy_parthia(ctx, state, ("ldf:7.2",))


def parthian_recovery(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """7.3: while Parthia is collapsed, after 7.1 the Germano-Parthian rolls; 5-6 recovers it and
    every dead Parthian unit is deployed again as in 3.3."""
    if not state.parthia_collapsed:
        return
    die, roll = yield from politics.recovery_roll(ctx, state)  # salted and chit-influenced (8.8)
    if politics.roll_succeeded(die, roll):  # 5-6, and a six always (8.8)
        state.parthia_collapsed = False
        for h in [h for h in state.looted if state.in_region(h, "parthia") and not _roman_in(state, h)]:
            state.looted.discard(h)
        ctx.event("recover", f"Parthian recovery roll {roll}: Parthia recovers", rules=("ldf:7.3",), side=GP,
                  dice=(die,))
        yield from economy.redeploy_parthia(ctx, state, ("ldf:7.3", "ldf:3.3"), anywhere=True)
    else:
        ctx.event("recover", f"Parthian recovery roll {roll}: Parthia stays collapsed", rules=("ldf:7.3",), side=GP,
                  dice=(die,))


def administrative_phase(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """The mutual administrative phase (5.5), skipped in Turn 1 (5.3)."""
    ctx.event("phase", f"Turn {state.turn}: mutual administrative phase", rules=("ldf:5.2", "ldf:5.5"))
    chits_back(ctx, state)
    yield from clients.gallic_replenishment(ctx, state)  # 9.5, the special first step of Turns 4 and 5
    yield from collection(ctx, state)
    yield from demobilisation(ctx, state)
    yield from reclaiming(ctx, state)
    yield from german_returns(ctx, state)
    yield from parthian_returns(ctx, state)
    yield from parthian_recovery(ctx, state)
    yield from clients.palmyra_replenishment(ctx, state)  # 9.2-9.4
    yield from unstacking.settle(ctx, state)  # 10.1 "all during each turn's mutual administrative phase"; 8.4
