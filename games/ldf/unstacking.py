"""Lest Darkness Fall emergency unstacking and stacking at the end of an action (``ldf:10.1``, ``ldf:10.7``, ``ldf:8.4``).

A Roman stack that the departure or loss of its leader leaves over the
vexillation limit unstacks at once, no action spent (:func:`emergency_unstack`:
after a move, a battle, treachery); the action loop and the administrative
phase end with :func:`settle`. The limits themselves are :mod:`.stacking`'s;
where a vexillation may step is :mod:`.land_movement`'s; what happens as it
enters its new hex is :func:`.economy.on_enter`'s.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ancients_kit.protocol import Context, Decision, Option

from .economy import on_enter
from .land_movement import step_problem, stop_problem
from .politics import share_fate
from .stacking import excess, overstacked_hexes, place
from .state import LDFState
from .vocab import Kind
from .zoc import land_links, position

__all__ = ["emergency_unstack", "emergency_unstacking_action", "settle", "unstack_all"]

def emergency_unstack(ctx: Context, state: LDFState, hex_id: str) -> Generator[Decision, Any, None]:
    """10.7: a stack the departure or loss of its leader left over the limit unstacks at once.

    Its owner moves the minimum number of vexillations, one at a time, into
    adjacent land hexes where they break no stacking limit and may enter (no
    enemy units, narrows only for Romans: they are Roman); ZOC plays no part
    (ruling in docs/games/ldf.md). What cannot go is eliminated. No action is
    spent. When none can go, the owner chooses which are eliminated, one at a time
    ("the player in command of that stack"). Call it wherever a leader leaves or dies
    (move, combat, treachery).
    """
    m = state.map
    while not state.over:
        pos = position(state)
        h = state.hex(hex_id)
        extra = excess(pos, h)
        if not extra:
            return
        side = state.side_of(state.unit(extra[0].id))
        counted = ("infantry-vexillation", "cavalry-vexillation") if pos.cavalry_reserve else ("infantry-vexillation",)
        candidates = [u for u in pos.at(h) if u.piece in counted and u.camp == extra[0].camp]
        opts: list[Option] = []
        for u in candidates:
            for n in land_links(m).get(h, ()):
                if step_problem(m, pos, [u], h, n) is None and stop_problem(m, pos, [u], n) is None:
                    opts.append(Option(f"{u.id}>{m.to_id(n)}", f"{u.id} to {m.to_id(n)}"))
        if not opts:  # nowhere to go: "the player in command of that stack" says which are eliminated
            ids = sorted(u.id for u in candidates)
            uid = ids[0] if len(ids) == 1 else (yield Decision(
                side, f"{hex_id} is overstacked without its leader ({len(extra)} too many) and no vexillation can "
                "leave: choose one to eliminate", tuple(Option(i, f"eliminate {i}") for i in ids), rule="ldf:10.7",
                kind=Kind.MOVE_UNSTACK_ELIMINATE, context={"highlight": (hex_id,)}))
            state.eliminate(uid)
            ctx.event("unstack", f"{uid} in the overstacked {hex_id} has nowhere to go and is eliminated",
                      rules=("ldf:10.7",), side=side, hex=hex_id, units=(uid,))
            continue
        key = yield Decision(side, f"{hex_id} is overstacked without its leader ({len(extra)} too many): "
                             "move a vexillation to an adjacent hex", tuple(opts), rule="ldf:10.7",
                             kind=Kind.MOVE_UNSTACK, context={"highlight": (hex_id,)})
        uid, _, dest = key.partition(">")
        place(state, dest, [uid], "ldf:10.7")
        ctx.event("unstack", f"emergency unstacking: {uid} from {hex_id} to {dest} (no action spent)",
                  rules=("ldf:10.7",), side=side, hex=dest)
        yield from on_enter(ctx, state, [uid], dest)


def unstack_all(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, None]:
    """Emergency unstacking (``ldf:10.7``) of every overstacked hex of ``side``."""
    for h in overstacked_hexes(state, side):
        yield from emergency_unstack(ctx, state, h)


def emergency_unstacking_action(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, Any]:
    """The free "emergency unstacking" entry of the Action Summary (``ldf:10.7``): never in the menu."""
    yield from unstack_all(ctx, state, side)
    return None


def settle(ctx: Context, state: LDFState) -> Generator[Decision, Any, None]:
    """10.1, 10.7, 8.4: stacking holds at the end of every action: a leader left without a
    unit of his own in his hex shares its fate (:func:`.politics.share_fate`: a chit's plague, say), and
    any Roman stack left over the limit (its leader moved away, died in battle or fell to
    treachery) unstacks at once, the Germano-Parthian's first. The action loop calls it after
    each action, the administrative phase at its end."""
    yield from share_fate(ctx, state, ("ldf:8.4",))
    for side in state.sides:
        if state.over:
            return
        yield from unstack_all(ctx, state, side)
