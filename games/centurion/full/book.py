"""The Full Simulation's bookkeeping and its log (cen:full.sequence).

:class:`FullBook` is what the Full Simulation remembers on ``state.extra['full']``
beyond the units and the map: panic thresholds, the weather, the turn's attacks,
formations joined or left, charges and works. :func:`log_event` writes one event
of the Full Simulation's log. Every Full Simulation module reads these; this one
imports none of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from ancients_kit.hexgrid import Hex

if TYPE_CHECKING:
    from ancients_kit.protocol import Context

    from ancients_games.centurion.state import CenturionState

__all__ = ["DONE", "SEQ", "FullBook", "book", "log_event", "units_text"]

DONE = "done"
"""The answer that ends a staged choice (a phase's allocations, its fire, its actions)."""
SEQ = "cen:full.sequence"


@attrs.define
class FullBook:
    """Full Simulation bookkeeping kept on ``state.extra['full']``."""

    threshold: dict[str, int] = attrs.field(factory=dict)
    """Current panic threshold per side (cen:full.panic J, H)."""
    panic_used: dict[str, bool] = attrs.field(factory=dict)
    panic_pending: dict[str, bool] = attrs.field(factory=dict)
    treachery_used: dict[str, bool] = attrs.field(factory=dict)
    weather: str = "fine"
    attacks: int = 0
    """Attacks the active side made this Player-Turn."""
    failed: int = 0
    """Of them, those that neither eliminated nor dispersed the defender."""
    cmd_attacked: set[str] = attrs.field(factory=set)
    """Command units that joined an attack this Player-Turn."""
    cmd_able: set[str] | None = None
    """Without the Command Unit Rules: the Command units that could have joined one of this
    Player-Turn's melee attacks (cen:full.demoralization; None: every chief is bound)."""
    cmd_dispersed: dict[str, bool] = attrs.field(factory=dict)
    """A Command unit of the side was dispersed this Game-Turn."""
    charge_start: dict[str, Hex] = attrs.field(factory=dict)
    """Cavalry id -> hex its charge started from this turn (cen:full.cavalry)."""
    squares_formed: set[str] = attrs.field(factory=set)
    """Units that formed square in place this turn and may not move (cen:full.square E)."""
    square_disbanded: set[str] = attrs.field(factory=set)
    """Units whose square disbanded this turn: one hex of movement (cen:full.square K)."""
    square_joined: set[str] = attrs.field(factory=set)
    """Squares (hex IDs) a Swordsmen unit joined this turn: one a turn (cen:full.square E)."""
    left_square: set[str] = attrs.field(factory=set)
    """Units that left a square this turn: two Movement Factors spent (cen:full.square F)."""
    river_passed: dict[str, set[str]] = attrs.field(factory=dict)
    """Unit id -> enemy units behind a river whose controlled hexes it passed through this turn
    without stopping; it may not attack their flanks (cen:full.cross-river)."""
    dismounting: set[str] = attrs.field(factory=set)
    """Units mounting or dismounting this turn (cen:opt.mount-dismount E)."""
    first_blood: bool = False
    """Some combat has happened (cen:barb.warrior)."""
    fury: dict[str, int] = attrs.field(factory=dict)
    """Side -> unused (fury is per unit: Unit.furious)."""
    tribe_panic: dict[str, set[str]] = attrs.field(factory=dict)
    """Side -> tribes whose chief was lost: they panic at the start of the side's next turn."""
    refund: dict[str, int] = attrs.field(factory=dict)
    """Points not counted as lost (deserters destroyed before leaving, cen:full.treachery D)."""
    fortune: str = ""
    """The fortunate side, or empty (cen:opt.fortune)."""
    options: dict[str, Any] = attrs.field(factory=dict)


def book(state: CenturionState) -> FullBook:
    """The Full Simulation bookkeeping of ``state`` (created on first use)."""
    b = state.extra.get("full")
    if b is None:
        b = FullBook()
        for s in state.scenario.sides:
            b.threshold[s.id] = s.panic_threshold
        state.extra["full"] = b
    return b


def log_event(ctx: Context, state: CenturionState, kind: str, text: str, rules: Iterable[str] | str,
         side: str | None = None, **data: Any) -> None:
    """Log one event of the Full Simulation (``rules``: one rule ID or several), on the active side by default."""
    r = (rules,) if isinstance(rules, str) else tuple(rules)
    ctx.event(kind, text, rules=r, side=side or state.active or None, turn=state.turn, **data)


def units_text(state: CenturionState, h: Hex, side: str) -> str:
    """The IDs of ``side``'s units on ``h``, for a question's options."""
    return ", ".join(u.id for u in state.stack_at(h) if u.side == side)
