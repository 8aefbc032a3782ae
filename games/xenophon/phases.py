"""The phase registry: the eight phases of a player-turn (xen:sequence).

A player-turn is phases a-h in :data:`PHASE_ORDER`; :class:`~.game.Xenophon`
calls ``PHASES[name](ctx, state, side)`` for each, ``side`` the phasing
player. A phase is a generator: it yields :class:`Decision` objects and
returns nothing; it reads and changes only the state (and the dice through
``ctx``).

Each branch fills the phases it owns with one line in :func:`_register`,
grouped by owner, importing from its own module. A phase no branch has filled
yet is :func:`placeholder`: it asks nothing, changes nothing, and logs that
the phase passed without rules, so the game always runs to its end. The
placeholders are the skeleton's, not rules: each is replaced by its owner.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from ancients_kit.session import Context, Decision

from . import diplomacy, events, operations, recruit, stratagems, supply, treasury
from .state import XenState
from .vocab import PLAYER_TURN, Phase

__all__ = ["PHASES", "PHASE_LETTER", "PHASE_ORDER", "PHASE_RULES", "PhaseRules", "placeholder", "phase_title"]

PhaseRules = Callable[[Context, XenState, str], Generator[Decision, Any, None]]
"""A phase's rules: ``(ctx, state, side)``, a generator of the decisions it asks."""

PHASE_ORDER: tuple[Phase, ...] = PLAYER_TURN
"""Phases a-h of a player-turn (xen:sequence): :data:`.vocab.PLAYER_TURN`."""

PHASE_LETTER = dict(zip(PHASE_ORDER, "abcdefgh", strict=True))

PHASE_TITLE = {
    Phase.EVENTS: "Random Events phase",
    Phase.STRATAGEM: "Stratagem phase",
    Phase.DIPLOMACY: "Diplomacy phase",
    Phase.TREASURY: "Treasury phase",
    Phase.RECRUIT: "Recruit phase",
    Phase.LEVY: "Levy phase",
    Phase.OPERATIONS: "Operations phase",
    Phase.SUPPLY: "Supply phase",
}

PHASE_RULES = {
    Phase.EVENTS: ("xen:random-events",),
    Phase.STRATAGEM: ("xen:stratagem",),
    Phase.DIPLOMACY: ("xen:diplomacy",),
    Phase.TREASURY: ("xen:treasury",),
    Phase.RECRUIT: ("xen:recruit",),
    Phase.LEVY: ("xen:levy",),
    Phase.OPERATIONS: ("xen:operations",),
    Phase.SUPPLY: ("xen:supply",),
}
"""The rule of each phase (quoted by its phase event)."""


def phase_title(name: str) -> str:
    return f"{PHASE_LETTER[name]}. {PHASE_TITLE[name]}"


def placeholder(name: str) -> PhaseRules:
    """A phase not filled yet: asks nothing, changes nothing (the skeleton's, not a rule)."""

    def phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
        ctx.event("phase-skipped", f"{side}: {PHASE_TITLE[name]} not implemented yet: nothing happens",
                  ("xen:sequence",), side=side)
        return
        yield  # a generator

    phase.__name__ = f"placeholder_{name}"
    phase.__doc__ = f"Placeholder for the {PHASE_TITLE[name]}: asks nothing (not a rule)."
    return phase


PHASES: dict[str, PhaseRules] = {name: placeholder(name) for name in PHASE_ORDER}
"""Phase name -> the phase's generator function; filled by :func:`_register`."""


def _register() -> None:
    """Each owner's phases, one line each (XEN_PLAN.md): replace a placeholder here."""
    # xen-core
    PHASES[Phase.EVENTS] = events.events_phase
    PHASES[Phase.TREASURY] = treasury.treasury_phase
    PHASES[Phase.RECRUIT] = recruit.recruit_phase
    PHASES[Phase.LEVY] = recruit.levy_phase
    PHASES[Phase.SUPPLY] = supply.supply_phase
    # xen-ops
    PHASES[Phase.OPERATIONS] = operations.operations_phase
    # xen-combat
    # xen-politics
    PHASES[Phase.STRATAGEM] = stratagems.stratagem_phase
    PHASES[Phase.DIPLOMACY] = diplomacy.diplomacy_phase
    PHASES[Phase.TREASURY] = stratagems.opening("treasury", PHASES[Phase.TREASURY])
    PHASES[Phase.RECRUIT] = stratagems.opening("recruit", PHASES[Phase.RECRUIT])
    PHASES[Phase.LEVY] = stratagems.opening("levy", PHASES[Phase.LEVY])


_register()
