"""The Roman treasury (``ldf:6.1``-``6.10``): TP gained and spent.

TP are public (10.9): every change is a public log event. What takes TP
whatever the Roman wishes, clearing a deficit by 6.10, is
:func:`.economy.deduct`'s (it may demobilise or tax in emergency).
"""

from __future__ import annotations

from collections.abc import Iterable

from ancients_kit.protocol import Context

from .state import ROMAN, LDFState

__all__ = ["gain", "spend"]


def gain(ctx: Context, state: LDFState, amount: int, why: str, rules: Iterable[str]) -> None:
    """Add TP to the treasury (public, 10.9)."""
    if amount <= 0:
        return
    state.treasury += amount
    ctx.event("treasury", f"Roman treasury +{amount} TP ({why}): {state.treasury} TP", rules=tuple(rules),
              side=ROMAN, tp=state.treasury)


def spend(ctx: Context, state: LDFState, amount: int, why: str, rules: Iterable[str]) -> None:
    """Spend TP the Roman player has (salting 8.8, reclaiming 6.8): never below zero (6.10)."""
    if amount > state.treasury:
        raise ValueError(f"the Roman treasury holds {state.treasury} TP, not {amount} (ldf:6.10)")
    if amount <= 0:
        return
    state.treasury -= amount
    ctx.event("treasury", f"Roman treasury -{amount} TP ({why}): {state.treasury} TP", rules=tuple(rules),
              side=ROMAN, tp=state.treasury)
