"""The words of C&C: Ancients' questions: every kind of decision its rules ask.

``Decision.kind`` names what a question asks, so that the bots' scores, the
odds pane and the table's hints can tell a choice of card from a choice of
hex without reading its prompt. Each value is the string a kind has always
been (a :class:`~enum.StrEnum` compares and hashes as that string), in the
order of a turn (``ccr:sequence``).
"""

from __future__ import annotations

import enum

__all__ = ["Kind"]


class Kind(enum.StrEnum):
    """What a C&C decision asks."""

    CARD = "card"
    """Play a Command card (ccr:base.cards)."""
    ORDER_UNIT = "order.unit"
    """Order a unit, a leader or a wagon in a section the card names (ccr:base.sections)."""
    RESERVE = "reserve"
    """Bring an off-board reserve into play (a scenario's special rule)."""
    MOVE_UNIT = "move.unit"
    """Which ordered unit moves next (ccr:base.movement)."""
    MOVE_HEX = "move.hex"
    """Where it moves (ccr:base.movement)."""
    EXIT = "exit"
    """Leave the battlefield by an exit hex (a scenario's special rule)."""
    BATTLE_UNIT = "battle.unit"
    """Which ordered unit battles next (ccr:base.close-combat, ccr:base.ranged)."""
    BATTLE_TARGET = "battle.target"
    """Which enemy it battles."""
    REACT_FIRST_STRIKE = "react.first-strike"
    """Play First Strike against a close combat (ccr:base.cards)."""
    REACT_EVADE = "react.evade"
    """Evade or stand against a close combat (ccr:base.evade)."""
    EVADE_HEX = "evade.hex"
    """Where an evading unit goes (ccr:base.evade)."""
    RETREAT_HEX = "retreat.hex"
    """Where a unit retreats for a flag (ccr:base.retreat)."""
    MOMENTUM_ADVANCE = "momentum.advance"
    """Advance into the hex a defeated enemy left (ccr:base.momentum)."""
    MOMENTUM_EXTRA = "momentum.extra"
    """A mounted unit's extra hex of advance (ccr:base.momentum)."""
    MOMENTUM_BONUS = "momentum.bonus"
    """Whom the bonus close combat after an advance battles (ccr:base.momentum)."""
    LEADER_ESCAPE = "leader.escape"
    """Where a leader alone escapes to (ccr:base.leaders)."""
    SERIES_LEAVE_OUT = "series.leave-out"
    """Which units stay out of the next battle of a series (ccr:para-bellum)."""
