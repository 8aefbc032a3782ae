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

__all__ = ["PHASES", "PHASE_LETTER", "PHASE_ORDER", "PHASE_RULES", "Phase", "placeholder", "phase_title"]

Phase = Callable[[Context, XenState, str], Generator[Decision, Any, None]]

PHASE_ORDER: tuple[str, ...] = (
    "events", "stratagem", "diplomacy", "treasury", "recruit", "levy", "operations", "supply")
"""Phases a-h of a player-turn (xen:sequence)."""

PHASE_LETTER = dict(zip(PHASE_ORDER, "abcdefgh", strict=True))

PHASE_TITLE = {
    "events": "Random Events phase",
    "stratagem": "Stratagem phase",
    "diplomacy": "Diplomacy phase",
    "treasury": "Treasury phase",
    "recruit": "Recruit phase",
    "levy": "Levy phase",
    "operations": "Operations phase",
    "supply": "Supply phase",
}

PHASE_RULES = {
    "events": ("xen:random-events",),
    "stratagem": ("xen:stratagem",),
    "diplomacy": ("xen:diplomacy",),
    "treasury": ("xen:treasury",),
    "recruit": ("xen:recruit",),
    "levy": ("xen:levy",),
    "operations": ("xen:operations",),
    "supply": ("xen:supply",),
}
"""The rule of each phase (quoted by its phase event)."""


def phase_title(name: str) -> str:
    return f"{PHASE_LETTER[name]}. {PHASE_TITLE[name]}"


def placeholder(name: str) -> Phase:
    """A phase not filled yet: asks nothing, changes nothing (the skeleton's, not a rule)."""

    def phase(ctx: Context, state: XenState, side: str) -> Generator[Decision, Any, None]:
        ctx.event("phase-skipped", f"{side}: {PHASE_TITLE[name]} not implemented yet: nothing happens",
                  ("xen:sequence",), side=side)
        return
        yield  # a generator

    phase.__name__ = f"placeholder_{name}"
    phase.__doc__ = f"Placeholder for the {PHASE_TITLE[name]}: asks nothing (not a rule)."
    return phase


PHASES: dict[str, Phase] = {name: placeholder(name) for name in PHASE_ORDER}
"""Phase name -> the phase's generator function; filled by :func:`_register`."""


def _register() -> None:
    """Each owner's phases, one line each (XEN_PLAN.md): replace a placeholder here."""
    # xen-core
    PHASES["events"] = events.events_phase
    PHASES["treasury"] = treasury.treasury_phase
    PHASES["recruit"] = recruit.recruit_phase
    PHASES["levy"] = recruit.levy_phase
    PHASES["supply"] = supply.supply_phase
    # xen-ops
    PHASES["operations"] = operations.operations_phase
    # xen-combat
    # xen-politics
    PHASES["stratagem"] = stratagems.stratagem_phase
    PHASES["diplomacy"] = diplomacy.diplomacy_phase
    PHASES["treasury"] = stratagems.opening("treasury", PHASES["treasury"])
    PHASES["recruit"] = stratagems.opening("recruit", PHASES["recruit"])
    PHASES["levy"] = stratagems.opening("levy", PHASES["levy"])


_register()
