"""Lest Darkness Fall client states and border provinces (``ldf:9.1``-``9.7``, ``ldf:8.15``).

- **Palmyra** (9.1-9.4): passive in Turns 1-2 (no moves, no attacks, no zone of
  control; Roman units may not enter, pass or attack it); a Germano-Parthian
  attack on it while passive makes it an unswerving Roman ally
  (:func:`palmyra_attacked`); in Turn 3 only the Roman may activate it as his
  ally (:func:`activate_palmyra`); from Turn 4 the Germano-Parthian may win it
  over by diplomacy on 5-6, salted and chit-modified like any other
  (:func:`diplomacy_palmyra`), and that is final. Once active it is
  replenished like Parthia, through its own hex only, until an administrative
  phase begins with it looted (:func:`palmyra_replenishment`); its 2 TP
  are ``economy.revenue_hexes``'s.
- **The Gallic Empire** (9.5): from Turn 3 the Germano-Parthian may activate it
  when no Roman leader, no rebel and no German is in Gallic territory; every
  Roman unit there turns Gallic rebel. While it lasts Gallic units stay in Gallic
  territory and exert no zone of control outside it, Germans and other rebels
  stay out, Gallic forces are leaderless (:func:`gallic_forbids`,
  :func:`gallic_zoc_reaches`); Turn 4 and 5 administrative phases begin by
  replenishing its vexillations (:func:`gallic_replenishment`); it ends the
  instant the emperor enters Trier (:func:`on_enter`).
- **The Caucasus** (9.6): three states, Colchis, Iberia and Armenia, of two
  hexes each; each hex is garrisoned, emptied (the plague, 6.3) or looted for
  good (:func:`caucasus_status`); **Dacia and Germania Decumates** (9.7): one
  hex each, outside the core, looted for good once looted. Each such hex pays 1
  TP while unlooted (``economy.revenue_hexes``).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Final

from ancients_kit.protocol import Context, Decision

from . import politics, stacking
from .state import GP, PALMYRA, ROMAN, TRIER, LDFState, Unit

__all__ = [
    "CAUCASUS_STATES",
    "activate_gallic",
    "activate_palmyra",
    "can_activate_gallic",
    "can_activate_palmyra",
    "can_diplomacy_palmyra",
    "caucasus_status",
    "diplomacy_palmyra",
    "gallic_forbids",
    "gallic_replenishment",
    "gallic_zoc_reaches",
    "on_enter",
    "palmyra_attacked",
    "palmyra_forbids",
    "palmyra_replenishment",
    "palmyra_zoc",
]

CAUCASUS_STATES: Final = ("colchis", "iberia", "armenia")
"""The three Caucasus states (``ldf:1.2``, ``ldf:9.6``), regions of the map."""
UNSWERVING: Final = "palmyra.unswerving"
"""``state.effects`` key: Palmyra was brought in by an attack and is Rome's for good (9.2)."""


# ---------------------------------------------------------------- Palmyra (9.1-9.4)


def palmyra_zoc(state: LDFState) -> bool:
    """Whether Palmyran units exert zones of control: not while passive (``ldf:9.2``)."""
    return state.palmyra != "inactive"


def palmyra_forbids(state: LDFState, unit: Unit, hex_id: str, *, stop: bool) -> str | None:
    """Why ``unit`` may not enter (``stop``: end its move in, or attack) the Palmyra hex,
    or ``None`` (``ldf:9.2``-``9.4``): no Roman unit, loyal or rebel, enters, passes or
    attacks a passive Palmyra; loyal Romans pass through an allied Palmyra but do not
    stop there, Parthians likewise through a Germano-Parthian Palmyra."""
    if hex_id != PALMYRA or unit.nationality == "palmyran":
        return None
    if state.palmyra == "inactive" and unit.nationality == "roman":
        return "no Roman unit may enter, pass through or attack a passive Palmyra (ldf:9.2)"
    if stop and state.palmyra == ROMAN and unit.nationality == "roman" and not unit.rebel:
        return "loyal Roman units may pass through allied Palmyra but not end a move there (ldf:9.3)"
    if stop and state.palmyra == GP and unit.nationality == "parthian":
        return "Parthian units may pass through allied Palmyra but not end a move there (ldf:9.4)"
    return None


def palmyra_attacked(ctx: Context, state: LDFState, attacker: Unit, target: str) -> None:
    """A Germano-Parthian attack on a passive Palmyra (``ldf:9.2``) brings it into play at
    once as an unswerving Roman ally; its units then defend and exert zones of control.
    combat.py calls this when any attack is declared; only an attack on Palmyra itself (its
    hex, 4720, or a hex holding Palmyran units) counts. Ruling: so in any turn while it is
    still passive, and for a German attack as for a Parthian or rebel one."""
    if state.palmyra != "inactive" or state.side_of(attacker) != GP:
        return
    if target != PALMYRA and not any(u.nationality == "palmyran" for u in state.units_at(target)):
        return
    state.palmyra = ROMAN
    state.palmyra_replenishes = True
    state.effects[UNSWERVING] = True
    ctx.event("palmyra", "the attack brings Palmyra into play as an unswerving Roman ally", ("ldf:9.2",))


def can_activate_palmyra(state: LDFState, side: str) -> bool:
    """Turn 3 only (``ldf:8.15``, ``ldf:9.3``, ``ldf:9.4``), while Palmyra is passive."""
    return side == ROMAN and state.turn == 3 and state.palmyra == "inactive" and not state.palmyra_forfeit


def activate_palmyra(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Roman action (``ldf:9.3``): Palmyra becomes his full ally, projecting zones of control."""
    state.palmyra = ROMAN
    state.palmyra_replenishes = True
    ctx.event("palmyra", "the Roman player activates Palmyra as his ally", ("ldf:8.15", "ldf:9.3"), side=ROMAN)
    return None
    yield  # pragma: no cover


def can_diplomacy_palmyra(state: LDFState, side: str) -> bool:
    """Turns 4-5 (``ldf:8.15``, ``ldf:9.4``), against a passive or Roman-allied Palmyra, but
    not one that an attack made an unswerving Roman ally (ruling, 9.2)."""
    return side == GP and state.turn >= 4 and state.palmyra != GP and not state.effects.get(UNSWERVING)


def diplomacy_palmyra(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Germano-Parthian action (``ldf:9.4``): on 5-6 (salted and chit-modified as any
    diplomacy, 8.8) Palmyra becomes his ally for the rest of the game."""
    ok = yield from politics.political_roll(ctx, state, GP, "diplomacy with Palmyra", ("ldf:9.4", "ldf:8.15"))
    if ok:
        state.palmyra = GP
        state.palmyra_replenishes = True
        ctx.event("palmyra", "Palmyra goes over to the Germano-Parthian for good", ("ldf:9.4",), side=GP)


def palmyra_replenishment(ctx: Context, state: LDFState) -> Generator[Decision, str, None]:
    """Administrative phase (``ldf:9.2``-``9.4``, as Parthia in ``ldf:7.2``): an active Palmyra
    takes back its dead legion-equivalents into its own hex, unless the phase begins with
    Palmyra looted (by its enemies: it stays looted for good, 6.4) or enemy units in it.
    Its garrison, once lost, never returns (``ldf:8.13``)."""
    if state.palmyra == "inactive" or not state.palmyra_replenishes or state.is_looted(PALMYRA):
        return
    owner = state.palmyra
    dead = sorted((u for u in state.of_kind("palmyran-legion", where="dead")), key=lambda u: u.id)
    # 10.1, 10.4: not into a hex held by the enemy, nor by any unit but Palmyrans (a rebel in a
    # won-over Palmyra is commanded by the same player but is no Palmyran's friend, 11.4)
    if any(state.side_of(u) != owner for u in state.units_at(PALMYRA)) or (
            dead and not stacking.can_place(state, PALMYRA, dead)):
        return
    if dead:
        stacking.place(state, PALMYRA, [u.id for u in dead], "ldf:7.2")
    if dead:
        case = "ldf:9.4" if owner == GP else "ldf:9.2" if state.effects.get(UNSWERVING) else "ldf:9.3"
        ctx.event("palmyra", f"{len(dead)} Palmyran legion-equivalent(s) return to Palmyra",
                  (case, "ldf:7.2"))  # audit D9: the rule of the case that brought Palmyra in
    return None
    yield  # pragma: no cover


# ---------------------------------------------------------------- the Gallic Empire (9.5)


def _gallic(state: LDFState) -> frozenset[str]:
    return state.region("gallic-empire")


def can_activate_gallic(state: LDFState, side: str) -> bool:
    """From Turn 3 (``ldf:9.5``; ruling against 8.15's Turn 4), once a game, when no Roman
    leader, no rebel Roman and no German unit is in Gallic territory."""
    if side != GP or state.turn < 3 or state.gallic_active or state.gallic_ended:
        return False
    gallic = _gallic(state)
    for u in state.on_map():
        if u.hex not in gallic:
            continue
        if u.leader or (u.nationality == "roman" and u.rebel) or u.nationality == "german":
            return False
    return True


def activate_gallic(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Germano-Parthian action (``ldf:9.5``): every Roman unit in Gallic territory turns
    Gallic rebel, under his command."""
    gallic = _gallic(state)
    flipped = [u for u in state.on_map() if u.hex in gallic and u.nationality == "roman"]
    for u in flipped:
        u.rebel = u.gallic = True
    state.gallic_active = True
    ctx.event("gallic", f"the Gallic Empire breaks away: {len(flipped)} Roman unit(s) turn Gallic rebel",
              ("ldf:9.5", "ldf:8.15"), side=GP)
    return None
    yield  # pragma: no cover


def gallic_forbids(state: LDFState, unit: Unit, hex_id: str) -> str | None:
    """Why ``unit`` may not move or attack into ``hex_id`` while the Gallic Empire lasts,
    or ``None`` (``ldf:9.5``): Gallic units only into Gallic hexes; Germans, the rebel
    co-emperor and other rebels never into them."""
    if not state.gallic_active:
        return None
    inside = hex_id in _gallic(state)
    if unit.gallic and not inside:
        return "Gallic Empire forces move and attack only into Gallic Empire hexes (ldf:9.5)"
    if inside and not unit.gallic:
        if unit.nationality == "german":
            return "German units may not move or attack into Gallic Empire hexes (ldf:9.5)"
        if unit.nationality == "roman" and unit.rebel:
            return "rebels outside the Gallic Empire may not move or attack into its hexes (ldf:9.5)"
    return None


def gallic_zoc_reaches(state: LDFState, unit: Unit, hex_id: str) -> bool:
    """Gallic units exert zones of control only into Gallic hexes (``ldf:9.5``)."""
    return not (state.gallic_active and unit.gallic) or hex_id in _gallic(state)


def gallic_replenishment(ctx: Context, state: LDFState) -> Generator[Decision, str, None]:
    """The special first step of the Turn 4 and 5 administrative phases (``ldf:9.5``): for
    each Gallic legion base in Gallic territory without a vexillation of its own there,
    one infantry vexillation (never cavalry) comes from the Roman dead pile, Gallic,
    onto a base lacking one (ruling: bases and vexillations are paired by hex)."""
    if not state.gallic_active or state.turn not in (4, 5):
        return
    gallic = _gallic(state)
    dead = sorted(state.of_kind("infantry-vexillation", where="dead"), key=lambda u: u.id)
    placed: list[str] = []
    for h in sorted(gallic):
        units = state.units_at(h)
        need = sum(u.kind == "legion-base" and u.gallic for u in units) \
            - sum(u.kind == "infantry-vexillation" and u.gallic for u in units)
        while need > 0 and dead:
            v = dead[0]
            v.rebel = v.gallic = True  # it comes in Gallic (the check below reads its side)
            if not stacking.can_place(state, h, [v]):  # 10.7: two vexillations, the Gallic leaderless
                v.rebel = v.gallic = False
                break
            dead.pop(0)
            stacking.place(state, h, [v.id], "ldf:9.5")
            placed.append(f"{v.id} in {h}")
            need -= 1
    ctx.event("gallic", "Gallic replenishment: " + (", ".join(placed) if placed else "nothing to replenish"),
              ("ldf:9.5",), side=GP)
    return None
    yield  # pragma: no cover


def _end_gallic(ctx: Context, state: LDFState) -> None:
    back = [u for u in state.units.values() if u.gallic]
    for u in back:
        u.gallic = u.rebel = False
    state.gallic_active = False
    state.gallic_ended = True
    ctx.event("gallic", f"the emperor enters Trier: the Gallic Empire ends; {len(back)} unit(s) return to loyalty",
              ("ldf:9.5",))


def on_enter(ctx: Context, state: LDFState, unit_ids: list[str], hex_id: str) -> Generator[Decision, str, None]:
    """Called by ``economy.on_enter`` (ldf-core) for every hex units enter: the Gallic
    Empire ends the instant the emperor enters Trier (``ldf:9.5``). (Loyal Romans
    entering its centres loot them: ``economy.on_enter``'s 6.3 looting does that.)"""
    if state.gallic_active and hex_id == TRIER and any(state.unit(u).kind == "emperor" for u in unit_ids):
        _end_gallic(ctx, state)
    return None
    yield  # pragma: no cover


# ---------------------------------------------------------------- the Caucasus, Dacia, Germania Decumates


def caucasus_status(state: LDFState) -> dict[str, dict[str, str]]:
    """Each Caucasus state's hexes (``ldf:9.6``) and their status: ``garrisoned``,
    ``emptied`` (its garrison lost, the hex unlooted: the plague, 6.3) or ``looted`` (for
    good, 6.4)."""
    out: dict[str, dict[str, str]] = {}
    garrisoned = {u.hex for u in state.of_kind("client-garrison")}
    for name in CAUCASUS_STATES:
        out[name] = {h: "looted" if state.is_looted(h) else "garrisoned" if h in garrisoned else "emptied"
                     for h in sorted(state.region(name))}
    return out
