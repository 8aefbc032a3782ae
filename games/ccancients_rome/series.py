"""Para Bellum series: several battles in one session, banners totalled, losses carried forward.

Serves ``ccr:para-bellum``: after each battle both sides roll three battle dice
for the last block of every unit lost (and every block still unrallied); the
block's own unit-type symbol or a leader symbol rallies it. Lost leaders always
return. At the next set-up the first player, then the second, leaves out one
full-strength unit of a type for each unrallied block of that type, choosing
which. After the last battle the banner totals decide; the series file gives
the decisive margin (Nisibis: 3).
"""

from __future__ import annotations

from collections.abc import Generator

from ancients_kit.protocol import Context, Decision

from .dice import BATTLE_DIE
from .protocol import ask
from .state import BattleState, GameState
from .vocab import Kind

__all__ = ["leave_out", "rally_lost"]

RULE = "ccr:para-bellum"


def rally_lost(ctx: Context, state: GameState, bs: BattleState) -> None:
    """Roll to rally each lost unit's last block (ccr:para-bellum)."""
    rally = state.series.rally if state.series is not None else None
    dice = rally.dice if rally is not None else 3
    for side in state.sides:
        pending = state.unrallied[side] + bs.armies[side].lost
        kept: list[str] = []
        for code in pending:
            sym = bs.types[code].symbol
            faces = ctx.chance.symbols(BATTLE_DIE, dice, f"{side} rallies its lost {code}", (RULE,))
            if sym in faces or "leader" in faces:
                ctx.event("rally", f"{side} rallies its lost {code} ({', '.join(faces)})", rules=(RULE,), side=side)
            else:
                kept.append(code)
                ctx.event("rally", f"{side} fails to rally its lost {code} ({', '.join(faces)})", rules=(RULE,), side=side)
        state.unrallied[side] = kept


def leave_out(ctx: Context, state: GameState, bs: BattleState) -> Generator[Decision, str, None]:
    """Each side, first player first, leaves out a full-strength unit per unrallied block of that type."""
    order = [bs.first, bs.other(bs.first)]
    for side in order:
        for code in list(state.unrallied[side]):
            cands = sorted(u.hex for u in bs.side_units(side) if u.code == code and u.blocks == u.max_blocks)
            if not cands:
                continue
            h = yield from ask(side, f"Leave out one {bs.types[code].name} (an unrallied block)",
                               [(c, f"leave out the {bs.types[code].name} at {c}") for c in cands], RULE, Kind.SERIES_LEAVE_OUT,
                               lambda text, _c=tuple(cands), _k=code: (
                                   f"{text.strip()!r} is not a full-strength {_k} of yours; leave out one of "
                                   f"{', '.join(_c)}", RULE),
                               highlight=cands)
            u = bs.at[h]
            ld = bs.leader_with(u)
            bs.remove_unit(u)
            if ld is not None:
                # the leader stays in the army: he stands alone where the unit would have been
                pass
            ctx.event("setup", f"{side} leaves out the {code} at {h} (unrallied)", rules=(RULE,), side=side)
