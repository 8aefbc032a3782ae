"""The Roman treasury and the markers of the map (``ldf:6.x``, ``8.13``, ``8.14``).

- looting (6.3) and what else happens when a unit enters a hex: :func:`on_enter`
  (the Parthian TP of 6.5, rebuilding and fortifying halted, 6.4 and 8.13, the
  sudden death of 4.2, Parthian collapse, 7.3, a rebel co-emperor in Rome, 8.3:
  :func:`rebel_takes_rome`);
- revenue (6.5) and its carry-over cap (6.9): :func:`revenue`, :func:`carry_over`;
- emergency taxation (6.6) and demobilisation (6.7), also the means of clearing
  a deficit (6.10): :func:`emergency_tax`, :func:`demobilise_step`,
  :func:`deduct`;
- fortifying (8.13) and rebuilding (6.4, 8.14), two actions each;
- where reclaimed units may stand (6.8, :func:`reclaim_hexes`) and the dead
  Parthians' return (7.2, 7.3, chit 22: :func:`redeploy_parthia`).

TP are public (10.9): every treasury change is a public log event, made by
:mod:`.treasury` (:func:`.treasury.gain`, :func:`.treasury.spend`).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Any

from ancients_kit.protocol import Context, Decision, Option

from . import chits, clients, politics, stacking, treasury
from .state import CARRY_OVER, CTESIPHON, GP, PALMYRA, ROMAN, ROME, LDFState, Unit
from .vocab import Kind

__all__ = [
    "can_finish_fortify",
    "can_finish_rebuild",
    "can_start_fortify",
    "can_start_rebuild",
    "carry_over",
    "collapse_parthia",
    "deduct",
    "demobilise_step",
    "emergency_tax",
    "emergency_tax_hexes",
    "finish_fortify",
    "finish_rebuild",
    "on_enter",
    "parthian_places",
    "rebel_takes_rome",
    "reclaim_hexes",
    "reclaim_units",
    "redeploy_parthia",
    "revenue",
    "roman_controls",
    "start_fortify",
    "start_rebuild",
]

COLLAPSE_TP = 11
"""TP the Roman player awards himself for laying Parthia low (7.3)."""


# ---------------------------------------------------------------- treasury


def deduct(ctx: Context, state: LDFState, amount: int, why: str,
           rules: Iterable[str]) -> Generator[Decision, Any, int]:
    """TP taken from the treasury whatever the Roman wishes (a chit, a rebel in Rome, 8.3).

    6.10: the total never falls below zero; if it would, play halts while the
    Roman demobilises legions (6.7) or taxes hexes in emergency (6.6) until the
    shortfall is made up; what he cannot make up is lost. Returns the TP taken.
    """
    rules = tuple(rules)
    taken = min(amount, state.treasury)
    if taken:
        state.treasury -= taken
        ctx.event("treasury", f"Roman treasury -{taken} TP ({why}): {state.treasury} TP", rules=rules,
                  side=ROMAN, tp=state.treasury)
    short = amount - taken
    while short > 0:
        before = state.treasury
        done = yield from clear_deficit_step(ctx, state, short)
        if not done:
            ctx.event("treasury", f"The Roman treasury cannot make up the last {short} TP: it stands at zero",
                      rules=("ldf:6.10",), side=ROMAN, tp=state.treasury)
            break
        raised = state.treasury - before
        use = min(raised, short)
        state.treasury -= use
        short -= use
        taken += use
    return taken


def clear_deficit_step(ctx: Context, state: LDFState, short: int) -> Generator[Decision, Any, bool]:
    """One step of 6.10: the Roman demobilises or taxes to cover ``short`` TP; False if he cannot."""
    tax = emergency_tax_hexes(state)
    demob = demobilise_choices(state)
    if not tax and not demob:
        return False
    opts: list[Option] = []
    if demob:
        opts.append(Option("demobilise", "demobilise a legion base and its vexillation (2 TP, 6.7)"))
    for h in tax:
        opts.append(Option(h, f"emergency taxation of {h}: {2 * state.unlooted_tp(h)} TP, then looted (6.6)"))
    key = yield Decision(ROMAN, f"The treasury is {short} TP short: demobilise or tax in emergency (6.10)",
                         tuple(opts), rule="ldf:6.10", kind=Kind.TREASURY_DEFICIT, context={"highlight": tax})
    if key == "demobilise":
        yield from demobilise_step(ctx, state, forced=True)
    else:
        emergency_tax(ctx, state, key)
        yield from politics.share_fate(ctx, state, ("ldf:6.6", "ldf:6.10"), "emergency taxation")
    return True


def clear_deficit_action(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, Any]:
    """The free action of 6.10 (the rules call :func:`deduct`; never chosen from the menu)."""
    yield from clear_deficit_step(ctx, state, 0)


def carry_over(ctx: Context, state: LDFState) -> None:
    """6.9: at most five TP are carried over from one turn to the next."""
    if state.treasury > CARRY_OVER:
        lost = state.treasury - CARRY_OVER
        state.treasury = CARRY_OVER
        ctx.event("treasury", f"Only {CARRY_OVER} TP carry over into Turn {state.turn}: {lost} TP lapse",
                  rules=("ldf:6.9",), side=ROMAN, tp=state.treasury)


# ---------------------------------------------------------------- control and revenue


def gallic_territory(state: LDFState, hex_id: str) -> bool:
    """A hex of an active Gallic Empire (9.5)."""
    return state.gallic_active and state.in_region(hex_id, "gallic-empire")


def roman_controls(state: LDFState, hex_id: str) -> bool:
    """The Roman player controls a hex when no enemy unit is in it and it is not part of an
    active Gallic Empire (6.1, 6.6, 9.5; ruling in docs/games/ldf.md)."""
    if gallic_territory(state, hex_id):
        return False
    return not any(state.side_of(u) != ROMAN for u in state.units_at(hex_id))


def revenue_hexes(state: LDFState) -> dict[str, int]:
    """The hexes that pay the Roman player this administrative phase, with their TP (6.5):
    unlooted core centres, Caucasus hexes (9.6), Dacia and Germania Decumates (9.7), and
    Palmyra while inactive or allied to Rome (6.5, 9.2), each under Roman control."""
    out: dict[str, int] = {}
    for h, tp in state.data.hex_tp.items():
        if h in state.looted or state.in_region(h, "parthia"):
            continue
        if h == PALMYRA and state.palmyra == GP:
            continue
        if roman_controls(state, h):
            out[h] = tp
    return out


def revenue(state: LDFState) -> int:
    return sum(revenue_hexes(state).values())


# ---------------------------------------------------------------- emergency taxation (6.6)


def emergency_tax_hexes(state: LDFState) -> list[str]:
    """Core population-centre hexes the Roman may tax in emergency (6.6): unlooted, friendly
    controlled, not Rome/Ostia (the Caucasus, trans-river provinces, Palmyra and Parthia never)."""
    core = state.region("core")
    return sorted(h for h, tp in state.data.hex_tp.items()
                  if h in core and h != ROME and h not in state.looted and roman_controls(state, h)
                  and state.data.centres(h))


def emergency_tax(ctx: Context, state: LDFState, hex_id: str) -> int:
    """Tax one hex in emergency (6.6): double TP, then it is looted; a garrison there goes to the
    dead pile and a fortification under way stops. A leader it leaves alone shares the
    garrison's fate (8.4): the callers follow with ``politics.share_fate``."""
    if hex_id not in emergency_tax_hexes(state):
        raise ValueError(f"hex {hex_id} cannot be taxed in emergency (ldf:6.6)")
    tp = 2 * state.unlooted_tp(hex_id)
    state.looted.add(hex_id)
    lost = [u.id for u in state.units_at(hex_id) if u.kind == "roman-garrison"]
    for uid in lost:
        state.eliminate(uid)
    stopped = state.fortify == hex_id
    if stopped:
        state.fortify = None
    extra = (f"; garrison {', '.join(lost)} to the dead pile" if lost else "") + \
        ("; its fortification stops" if stopped else "")
    treasury.gain(ctx, state, tp, f"emergency taxation of {hex_id}, now looted{extra}", ("ldf:6.6",))
    return tp


# ---------------------------------------------------------------- demobilisation (6.7)


def _loyal(state: LDFState, kind: str) -> list[Unit]:
    return [u for u in state.of_kind(kind) if not u.rebel]


def demobilise_choices(state: LDFState) -> list[Unit]:
    """The units the Roman may demobilise first (6.7): the over-supplied kind while the loyal
    legion bases and infantry vexillations on the map do not match one for one, else bases."""
    bases, vexes = _loyal(state, "legion-base"), _loyal(state, "infantry-vexillation")
    if len(bases) > len(vexes):
        return bases
    if len(vexes) > len(bases):
        return vexes
    return bases


def demobilise_step(ctx: Context, state: LDFState, forced: bool = False) -> Generator[Decision, Any, int]:
    """Demobilise once (6.7): an over-supplied base or vexillation alone (no TP), or a legion
    base and then any infantry vexillation (2 TP). Returns the TP gained."""
    bases, vexes = _loyal(state, "legion-base"), _loyal(state, "infantry-vexillation")
    if not bases and not vexes:
        return 0
    if len(bases) != len(vexes):
        pool = bases if len(bases) > len(vexes) else vexes
        what = "legion base" if pool is bases else "infantry vexillation"
        key = yield Decision(ROMAN, f"Demobilise an over-supplied {what} first (6.7: no TP)",
                             tuple(Option(u.id, f"{u.id} in {u.hex}") for u in pool), rule="ldf:6.7",
                             kind=Kind.ADMIN_DEMOBILISE, context={"highlight": sorted({u.hex for u in pool if u.hex})})
        state.remove(key, "dead")
        ctx.event("demobilise", f"The Roman player demobilises {what} {key} (over-supplied)", rules=("ldf:6.7",),
                  side=ROMAN)
        yield from politics.share_fate(ctx, state, ("ldf:6.7",), "demobilisation")
        return 0
    kb = yield Decision(ROMAN, "Demobilise a legion base (with an infantry vexillation: 2 TP)",
                        tuple(Option(u.id, f"{u.id} in {u.hex}") for u in bases), rule="ldf:6.7",
                        kind=Kind.ADMIN_DEMOBILISE, context={"highlight": sorted({u.hex for u in bases if u.hex})})
    kv = yield Decision(ROMAN, f"Demobilise an infantry vexillation with {kb}",
                        tuple(Option(u.id, f"{u.id} in {u.hex}") for u in vexes), rule="ldf:6.7",
                        kind=Kind.ADMIN_DEMOBILISE, context={"highlight": sorted({u.hex for u in vexes if u.hex})})
    state.remove(kb, "dead")
    state.remove(kv, "dead")
    treasury.gain(ctx, state, 2, f"demobilising {kb} and {kv}", ("ldf:6.7",) + (("ldf:6.10",) if forced else ()))
    yield from politics.share_fate(ctx, state, ("ldf:6.7",), "demobilisation")  # a leader left alone (8.4)
    return 2


# ---------------------------------------------------------------- entering hexes (6.3 ...)


def _hostile_to_owner(state: LDFState, u: Unit, hex_id: str) -> bool:
    """Whether ``u`` entering TP-producing ``hex_id`` is an enemy of the hex's owner (6.3)."""
    side = state.side_of(u)
    if state.in_region(hex_id, "parthia"):
        return side == ROMAN  # any unit of the Roman player, an allied Palmyran too (6.3, 6.5 "his units")
    if hex_id == PALMYRA and state.palmyra == GP:
        return side == ROMAN and u.nationality == "roman"  # looted by loyal Roman forces (9.4)
    if gallic_territory(state, hex_id):
        return side == ROMAN and u.nationality == "roman" or (side == GP and not u.gallic)  # 9.5
    return side == GP


def on_enter(ctx: Context, state: LDFState, unit_ids: Iterable[str], hex_id: str) -> Generator[Decision, Any, None]:
    """Everything that happens when units enter ``hex_id`` (call after placing them there).

    6.3: a TP-producing hex first entered by an enemy unit is looted (the whole
    hex at once); a loyal Roman unit first entering an unlooted Parthian centre
    earns its TP (6.5); an enemy entering a hex being rebuilt or fortified stops
    the work (6.4, 8.13); a German tribe in Rome/Ostia wins the game (4.2); a
    Roman unit in Ctesiphon collapses Parthia (7.3). Rebel co-emperors loot as
    any enemy (8.3); a rebel co-emperor entering Rome/Ostia, by a move or an
    advance or retreat after combat, ends his rebellion (8.3,
    :func:`rebel_takes_rome`). The client states' own entry rules (Trier, 9.5) are
    :func:`clients.on_enter`'s, called last.
    """
    units = [state.unit(uid) for uid in unit_ids]
    if not units:
        return
    if any(u.kind == "german-tribe" for u in units) and hex_id == ROME:
        ctx.event("victory", "A German tribe enters Rome/Ostia: the Germano-Parthian player wins",
                  rules=("ldf:4.2",), side=GP)
        state.finish(GP, "A German tribe entered Rome/Ostia (3318): sudden death victory", ("ldf:4.2",))
        return
    enemy = [u for u in units if _hostile_to_owner(state, u, hex_id)]
    if enemy:
        if state.fortify == hex_id and any(state.side_of(u) == GP for u in enemy):
            state.fortify = None
            ctx.event("fortify", f"Enemy units occupy {hex_id}: the fortification there is abandoned",
                      rules=("ldf:8.13",), side=ROMAN)
        if hex_id in state.rebuilding:
            state.rebuilding.discard(hex_id)
            ctx.event("rebuild", f"Enemy units enter {hex_id}: its rebuilding is overturned; it stays looted",
                      rules=("ldf:6.4", "ldf:8.14"), side=ROMAN)
        tp = state.unlooted_tp(hex_id)
        if tp and hex_id not in state.looted:
            state.looted.add(hex_id)
            state.plague.discard(hex_id)
            who = enemy[0].id
            ctx.event("loot", f"{who} enters {hex_id}: the hex is looted ({tp} TP lost to its owner)",
                      rules=("ldf:6.3",), side=state.side_of(enemy[0]), hex=hex_id)
            if state.in_region(hex_id, "parthia"):
                treasury.gain(ctx, state, tp, f"first entry into the Parthian centres of {hex_id}", ("ldf:6.5", "ldf:6.3"))
    if hex_id == CTESIPHON and not state.parthia_collapsed and any(
            state.side_of(u) == ROMAN and u.nationality == "roman" for u in units):
        yield from collapse_parthia(ctx, state)
    if hex_id == ROME and any(u.id == "CE" and u.rebel for u in units):
        yield from rebel_takes_rome(ctx, state)  # 8.3 by a move, an advance or a retreat alike
    yield from clients.on_enter(ctx, state, [u.id for u in units], hex_id)  # Trier ends the Gallic Empire (9.5)

def rebel_takes_rome(ctx: Context, state: LDFState) -> Generator[Decision, str, None]:
    """A rebel co-emperor moves into Rome/Ostia (``ldf:8.3``): the emperor goes to Rome, the
    rebel co-emperor is set aside, every non-Gallic rebel flips to loyal, and the Roman
    loses a die of TP. :func:`on_enter` calls this when the rebel co-emperor enters 3318."""
    state.remove("CE", "aside")
    state.units["CE"].rebel = False
    politics.rebels_return(ctx, state, ("ldf:8.3",))  # his force in Rome is loyal again before the emperor joins it
    stacking.place(state, ROME, ["E"], "ldf:8.3")
    die = yield from chits.roll_die(ctx, state, ROMAN, "rebel co-emperor in Rome/Ostia", ("ldf:8.3",))
    ctx.event("emperor", f"the rebel co-emperor enters Rome/Ostia: the emperor returns there, the rebels return "
              f"to loyalty and the Roman loses {die} TP", ("ldf:8.3",), dice=(die,))
    yield from deduct(ctx, state, die, "rebel co-emperor in Rome/Ostia", ("ldf:8.3",))


def collapse_parthia(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """7.3: a Roman unit enters Ctesiphon: every Parthian unit to the dead pile, 11 TP, and the
    Roman units in Parthia go back into Roman core territory without spending actions."""
    state.parthia_collapsed = True
    gone = [u.id for u in state.on_map() if u.nationality == "parthian"]
    for uid in gone:
        state.eliminate(uid)
    ctx.event("collapse", f"Parthian dynastic collapse: {len(gone)} Parthian units to the dead pile",
              rules=("ldf:7.3",), side=ROMAN)
    treasury.gain(ctx, state, COLLAPSE_TP, "the Sassanids laid low", ("ldf:7.3",))
    yield from withdraw_from_parthia(ctx, state)


def withdraw_from_parthia(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """7.3's free withdrawal: each Roman force in Parthia goes to one of the nearest core hexes
    free of enemy units (our reading of "the minimum number of movement actions"; ruling in
    docs/games/ldf.md). Static units cannot be there (2.4, 8.13)."""
    parthia = state.region("parthia")
    core = sorted(state.region("core"))
    while True:
        forces = sorted({u.hex for u in state.on_map() if u.hex in parthia and state.side_of(u) == ROMAN
                         and u.nationality == "roman"})
        if not forces:
            return
        src = forces[0]
        origin = state.hex(src)
        force = [u for u in state.units_at(src) if state.side_of(u) == ROMAN]
        # 10.1: the force must stack legally where it goes (enemies, Palmyrans, limits, the other leader)
        targets = [h for h in core if state.map.terrain(state.hex(h)) == "land"
                   and not state.enemy_in(h, ROMAN) and stacking.can_place(state, h, force)]
        if not targets:
            for u in force:  # ruling: a force no core hex can take is lost with Parthia (7.3, 10.1)
                state.eliminate(u.id)
            ctx.event("withdraw", f"The Roman force in {src} ({', '.join(u.id for u in force)}) finds no core hex "
                      "that can take it and is eliminated", rules=("ldf:7.3", "ldf:10.1"), side=ROMAN,
                      units=tuple(u.id for u in force))
            yield from politics.share_fate(ctx, state, ("ldf:7.3",))
            continue
        best = min(origin.distance(state.hex(h)) for h in targets)
        near = [h for h in targets if origin.distance(state.hex(h)) == best]
        key = near[0]
        if len(near) > 1:
            key = yield Decision(ROMAN, f"Parthia has collapsed: withdraw the force in {src} to core territory",
                                 tuple(Option(h, h) for h in near), rule="ldf:7.3", kind=Kind.ADMIN_WITHDRAW,
                                 context={"highlight": near})
        moving = [u.id for u in force]
        stacking.place(state, key, moving, "ldf:7.3")
        ctx.event("withdraw", f"The Roman force in {src} ({', '.join(moving)}) withdraws to {key}",
                  rules=("ldf:7.3",), side=ROMAN)
        yield from on_enter(ctx, state, moving, key)


def withdrawal_action(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, Any]:
    """The free action of 7.3 (:func:`collapse_parthia` calls the withdrawal; never in the menu)."""
    yield from withdraw_from_parthia(ctx, state)


# ---------------------------------------------------------------- fortifying (8.13)


def fortify_hexes(state: LDFState) -> list[str]:
    """Core population-centre hexes that may begin fortifying (8.13)."""
    if state.fortify is not None:
        return []
    core = state.region("core")
    return sorted(h for h in core if state.data.centres(h)
                  and not any(u.garrison for u in state.units_at(h)) and not state.enemy_in(h, ROMAN))


def spare_garrisons(state: LDFState) -> list[Unit]:
    """Roman garrison counters not on the map (set aside or dead: 8.13 is how they re-enter)."""
    return [u for u in state.units.values() if u.kind == "roman-garrison" and u.where in ("aside", "dead")]


def can_start_fortify(state: LDFState, side: str) -> bool:
    return side == ROMAN and bool(fortify_hexes(state))


def can_finish_fortify(state: LDFState, side: str) -> bool:
    """8.13 with 10.1 and 10.4: a spare garrison can stand in the Fortify marker's hex (no enemy,
    no garrison there, no allied Palmyran: Palmyrans stack with no other unit)."""
    h = state.fortify
    if side != ROMAN or h is None or state.enemy_in(h, ROMAN):
        return False
    spare = spare_garrisons(state)
    return bool(spare) and _garrison_fits(state, h, spare[0])


def _garrison_fits(state: LDFState, hex_id: str, g: Unit) -> bool:
    """Whether the Roman garrison ``g``, loyal side up, may stand in ``hex_id`` (10.1-10.6)."""
    return stacking.placement_problem(state, hex_id, [g], rebel=False) is None


def garrison_hexes(state: LDFState) -> list[str]:
    """Core centre hexes where a whole fortification could be completed now (8.13, 10.1): those
    of :func:`fortify_hexes` that a spare garrison can stand in (chit 14 uses them)."""
    spare = spare_garrisons(state)
    if not spare:
        return []
    return [h for h in fortify_hexes(state) if _garrison_fits(state, h, spare[0])]


def _core_hex(state: LDFState, prompt: str, hexes: list[str], rule: str,
              kind: str) -> Generator[Decision, Any, str | None]:
    """The Roman picks one of ``hexes`` for an economy action, or goes back (``None``)."""
    key = yield Decision(ROMAN, prompt, tuple(Option(h, f"{state.unlooted_tp(h)} TP") for h in hexes) + (
        Option("back", "choose another action"),), rule=rule, kind=kind, context={"highlight": hexes})
    return None if key == "back" else key


def start_fortify(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, Any]:
    """8.13: the Fortify marker into a core population-centre hex without a garrison or enemy."""
    key = yield from _core_hex(state, "Begin fortifying which core population-centre hex?", fortify_hexes(state),
                               "ldf:8.13", Kind.FORTIFY_HEX)
    if key is None:
        return False
    state.fortify = key
    ctx.event("fortify", f"The Roman player begins fortifying {key}", rules=("ldf:8.13",), side=ROMAN, hex=key)
    return None


def finish_fortify(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, Any]:
    """8.13: a garrison/fortification unit, loyal side up, replaces the Fortify marker."""
    h = state.fortify
    assert h is not None
    g = spare_garrisons(state)[0]
    g.rebel = False
    stacking.place(state, h, [g.id], "ldf:8.13")
    state.fortify = None
    ctx.event("fortify", f"The Roman player finishes fortifying {h}: garrison {g.id} "
              f"(defends at {state.unlooted_tp(h)})", rules=("ldf:8.13", "ldf:13.10"), side=ROMAN, hex=h)
    return None
    yield  # pragma: no cover


# ---------------------------------------------------------------- rebuilding (6.4, 8.14)


def rebuild_hexes(state: LDFState) -> list[str]:
    core = state.region("core")
    return sorted(h for h in state.looted if h in core and h not in state.rebuilding
                  and state.data.centres(h) and not state.enemy_in(h, ROMAN) and not gallic_territory(state, h))


def can_start_rebuild(state: LDFState, side: str) -> bool:
    return side == ROMAN and bool(rebuild_hexes(state))


def can_finish_rebuild(state: LDFState, side: str) -> bool:
    return side == ROMAN and any(not state.enemy_in(h, ROMAN) for h in state.rebuilding)


def start_rebuild(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, Any]:
    """6.4, 8.14: turn a looted core hex's marker to its Rebuild side (still looted)."""
    key = yield from _core_hex(state, "Begin rebuilding which looted core hex?", rebuild_hexes(state),
                               "ldf:8.14", Kind.REBUILD_HEX)
    if key is None:
        return False
    state.rebuilding.add(key)
    ctx.event("rebuild", f"The Roman player begins rebuilding {key}", rules=("ldf:6.4", "ldf:8.14"), side=ROMAN,
              hex=key)
    return None


def finish_rebuild(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, Any]:
    """6.4, 8.14: the Rebuild marker comes off; the hex produces TP again (no TP spent)."""
    hexes = sorted(h for h in state.rebuilding if not state.enemy_in(h, ROMAN))
    key = hexes[0]
    if len(hexes) > 1:
        key = yield Decision(ROMAN, "Finish rebuilding which hex?",
                             tuple(Option(h, f"{state.unlooted_tp(h)} TP") for h in hexes),
                             rule="ldf:8.14", kind=Kind.REBUILD_FINISH, context={"highlight": hexes})
    state.rebuilding.discard(key)
    state.looted.discard(key)
    ctx.event("rebuild", f"The Roman player finishes rebuilding {key}: it produces {state.unlooted_tp(key)} TP again",
              rules=("ldf:6.4", "ldf:8.14"), side=ROMAN, hex=key)
    return None



# ---------------------------------------------------------------- reclaiming (6.8) and the Parthians' return (7.2)

def reclaim_units(state: LDFState, kind: str) -> list[Unit]:
    """The dead units one reclaim of ``kind`` brings back together (6.8): a legion base with an
    infantry vexillation, or one cavalry vexillation; empty when the dead pile lacks them."""
    if kind == "legion":
        bases, vexes = state.of_kind("legion-base", "dead"), state.of_kind("infantry-vexillation", "dead")
        return [bases[0], vexes[0]] if bases and vexes else []
    cav = state.of_kind("cavalry-vexillation", "dead")
    return cav[:1]


def reclaim_hexes(state: LDFState, kind: str) -> list[str]:
    """Core land hexes free of enemy units (6.8) where the reclaimed units may stand, loyal side
    up, within stacking (10.1-10.8: ``stacking.placement_problem``); not Palmyra's hex."""
    coming = reclaim_units(state, kind)
    if not coming:
        return []
    out = []
    for h in sorted(state.region("core")):
        if state.map.terrain(state.hex(h)) != "land" or not roman_controls(state, h):
            continue
        if state.in_region(h, "palmyra"):
            continue
        if stacking.placement_problem(state, h, coming, rebel=False) is None:
            out.append(h)
    return out


def parthian_places(state: LDFState) -> list[str]:
    """Parthian population-centre hexes not occupied by an enemy unit (7.2): no unit of the Roman
    player's and no rebel Roman (the Parthians' enemies too, 11.4, 6.8 note)."""
    parthian = [u for u in state.units.values() if u.nationality == "parthian"][:1]
    return sorted(h for h in state.region("parthia") if state.data.centres(h)
                  and not any(state.side_of(u) == ROMAN or (parthian and state.hostile(u, parthian[0]))
                              for u in state.units_at(h)))


def redeploy_parthia(ctx: Context, state: LDFState, rules: tuple[str, ...],
                     anywhere: bool = False) -> Generator[Decision, Any, None]:
    """The dead Parthian units back on the map (7.2; 7.3 and chit 22 "as in 3.3"/"as in 7.2"): a
    garrison into every Parthian centre hex free of Roman units without one, then the gunds into
    those hexes (into any Parthian hex when ``anywhere``, 3.3), eight at most to a hex (10.3)."""
    places = parthian_places(state)
    garrisons = state.of_kind("parthian-garrison", "dead")
    put = 0
    for h in places:
        if not garrisons:
            break
        if not stacking.can_place(state, h, garrisons[:1]):  # a garrison there, or Palmyrans (10.3, 10.4)
            continue
        g = garrisons.pop(0)
        stacking.place(state, h, [g.id], rules[0])
        state.plague.discard(h)
        put += 1
    gunds = state.of_kind("parthian-gund", "dead")
    if anywhere:
        targets = sorted(h for h in state.region("parthia") if state.map.terrain(state.hex(h)) == "land"
                         and not state.enemy_in(h, GP))
    else:
        targets = places
    for g in gunds:
        free = [h for h in targets if stacking.can_place(state, h, [g])]  # 10.1, 10.3, 10.4
        if not free:
            break
        key = yield Decision(GP, f"Parthian gund {g.id} returns: a hex for it", tuple(Option(h, h) for h in free),
                             rule=rules[0], kind=Kind.ADMIN_GUND, context={"highlight": free})
        stacking.place(state, key, [g.id], rules[0])
    if put or gunds:
        ctx.event("returns", f"{put} Parthian garrisons and {len(gunds)} gunds return to Parthia", rules=rules,
                  side=GP)
