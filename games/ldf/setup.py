"""Setting up the campaign (``ldf:3.1``-``3.5``) from ``data/counters.toml``.

:func:`build_campaign` creates every counter of the mix as a :class:`~.state.Unit`
and follows the ``[[setup]]`` instructions that fix a place: the legions in
their printed hexes, the emperor and a cavalry vexillation in Rome/Ostia, the
client garrisons, Palmyra, the Parthian garrisons, the cavalry and the 24
event chits in the pool, the rest set aside (3.2, 3.5). The instructions that
leave the place to the player (the 17 German tribes, one per Barbarian hex,
and the eight gunds anywhere in Parthia, 3.3) are decisions:
:func:`deploy` asks them at the start of play. Units of both sides may be set
up in each other's zones of control (3.4).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ancients_kit.protocol import Context, Decision, Option

from . import model, stacking
from .state import GP, PREFIX, LDFData, LDFState, Unit
from .vocab import Kind

__all__ = ["build_campaign", "deploy", "deploy_gunds", "deploy_tribes"]

SETUP_RULES = ("ldf:3.1", "ldf:3.2", "ldf:3.3", "ldf:3.5")


def _new_units(state: LDFState, piece: model.Piece) -> None:
    prefix = PREFIX.get(piece.id)
    if prefix is None:  # markers and chits are not units
        return
    if piece.count == 1 and piece.kind == "leader":
        state.add_unit(Unit(prefix, piece.id, piece.nationality))
        return
    for i in range(1, piece.count + 1):
        state.add_unit(Unit(f"{prefix}{i}", piece.id, piece.nationality))


def build_campaign(ctx: Context, data: LDFData) -> LDFState:
    """The campaign at the start of Turn 1 (3.2-3.5), German tribes and gunds still to deploy."""
    state = LDFState(data)
    mix = data.counters
    for piece in mix.pieces.values():
        _new_units(state, piece)
    gmap = data.map
    placed: set[str] = set()

    def take(kind: str, n: int) -> list[str]:
        ids = [u.id for u in state.units.values() if u.kind == kind and u.id not in placed][:n]
        if len(ids) < n:
            raise ValueError(f"set-up needs {n} x {kind!r}, the counter mix has too few (ldf:2.6)")
        placed.update(ids)
        return ids

    chit_numbers = data.chits.pool()
    for p in mix.setup:
        if p.piece not in PREFIX:
            continue  # markers, the turn and TP tracks, the chits: below
        if p.where == "aside":
            take(p.piece, mix.placed(p, gmap))  # set aside: they stay "aside" (3.2)
            continue
        if p.where == "pool":
            for uid in take(p.piece, mix.placed(p, gmap)):
                state.remove(uid, "pool")
            continue
        if p.one_per_hex or (p.count and not p.where.isdigit()):
            take(p.piece, mix.placed(p, gmap))  # the player's choice: deploy() asks (3.3)
            continue
        hexes = sorted(gmap.to_id(h) for h in mix.hexes_of(p.where, gmap))
        for hid in hexes:
            if p.per_symbol:
                n = p.per_symbol * int(gmap.value(gmap.from_id(hid), "legions") or 0)
            elif p.per_hex:
                n = p.per_hex
            else:
                n = p.count
            for uid in take(p.piece, n):
                stacking.place(state, hid, [uid], p.rules[0] if p.rules else "ldf:3.2")
    # The chit pool (3.5): the 24 event chits and a chit 25 for each pooled cavalry vexillation.
    cavalry = [u for u in state.units.values() if u.kind == "cavalry-vexillation" and u.where == "pool"]
    for n in chit_numbers:
        if n == 25:
            continue
        state.pool.add(n)
    for _ in cavalry:
        state.pool.add(25)
    state.treasury = mix.start.treasury
    state.turn = mix.start.turn
    ctx.event("setup", f"Lest Darkness Fall campaign: Turn {state.turn}, Roman treasury {state.treasury} TP, "
              f"{len(state.pool)} chits in the pool; all Romans loyal", rules=SETUP_RULES + ("ldf:3.4",))
    return state


def _to_deploy(state: LDFState, kind: str) -> list[str]:
    return [u.id for u in state.units.values() if u.kind == kind and u.where == "aside"]


def deploy_tribes(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """The 17 tribes into 17 different hexes of Barbaria (3.3: no German stacking)."""
    barbaria = sorted(state.region("barbaria"))
    for uid in _to_deploy(state, "german-tribe"):
        free = [h for h in barbaria if not state.units_at(h)]
        key = yield Decision(GP, f"Set up German tribe {uid}: a hex of Barbaria without a tribe",
                             tuple(Option(h, f"{h}") for h in free), rule="ldf:3.3", kind=Kind.SETUP_TRIBE,
                             context={"highlight": free, "unit": uid})
        stacking.place(state, key, [uid], "ldf:3.3")
    ctx.event("setup", "The Germano-Parthian player sets up the German tribes, one per hex of Barbaria",
              rules=("ldf:3.3",), side=GP)


def deploy_gunds(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """The eight gunds into any hexes of Parthia (3.3), at most eight to a hex (10.3)."""
    parthia = sorted(h for h in state.region("parthia") if state.map.terrain(state.hex(h)) == "land")
    for uid in _to_deploy(state, "parthian-gund"):
        key = yield Decision(GP, f"Set up Parthian gund {uid}: any hex of Parthia",
                             tuple(Option(h, h) for h in parthia), rule="ldf:3.3", kind=Kind.SETUP_GUND,
                             context={"highlight": parthia, "unit": uid})
        stacking.place(state, key, [uid], "ldf:3.3")
    ctx.event("setup", "The Germano-Parthian player sets up the Parthian gunds", rules=("ldf:3.3",), side=GP)


def deploy(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """The Germano-Parthian set-up choices (3.3); the Roman set-up has none (3.2)."""
    yield from deploy_tribes(ctx, state)
    yield from deploy_gunds(ctx, state)
