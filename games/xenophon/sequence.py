"""The sequence of play (xen:sequence), as the book's chart has it.

1. Rebel Player Turn: phases a-h (:data:`PHASES`, in :data:`~.vocab.PLAYER_TURN` order)
2. Empire Player Turn: phases a-h
3. Turn End: the game ends after the last turn (xen:victory), or the Turn marker moves on

A phase is a generator ``(ctx, state, side)`` (:data:`PhaseRules`), ``side`` the
phasing player: it yields :class:`Decision` objects and returns nothing; it reads
and changes only the state (and the dice through ``ctx``). The game also ends as
soon as a rule ends it (an agreement to end it, xen:negotiations).

Checkpoints (for undo and fork, :func:`is_checkpoint`): before every phase,
``("phase", turn, side, name)``; everything the rest of the game depends on is
then in :class:`~.state.XenState`. :class:`~.game.Xenophon`'s ``play`` and
``resume`` are :func:`play`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any, Final

from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Context, Decision

from . import diplomacy, events, operations, recruit, stratagems, supply, treasury, victory
from .setup import deploy
from .state import SIDES, XenState
from .vocab import PLAYER_TURN, Phase

__all__ = ["PHASES", "PHASE_LETTER", "PHASE_ORDER", "PHASE_RULES", "PHASE_TITLE", "PhaseRules", "end_player_turn",
           "end_turn", "is_checkpoint", "phase_title", "play", "player_turn"]

PhaseRules = Callable[[Context, XenState, str], Generator[Decision, Any, None]]
"""A phase's rules: ``(ctx, state, side)``, a generator of the decisions it asks."""

PHASE_ORDER: tuple[Phase, ...] = PLAYER_TURN
"""Phases a-h of a player-turn (xen:sequence): :data:`.vocab.PLAYER_TURN`."""

PHASE_LETTER: Final[Mapping[Phase, str]] = dict(zip(PHASE_ORDER, "abcdefgh", strict=True))

PHASE_TITLE: Final[Mapping[Phase, str]] = {
    Phase.EVENTS: "Random Events phase",
    Phase.STRATAGEM: "Stratagem phase",
    Phase.DIPLOMACY: "Diplomacy phase",
    Phase.TREASURY: "Treasury phase",
    Phase.RECRUIT: "Recruit phase",
    Phase.LEVY: "Levy phase",
    Phase.OPERATIONS: "Operations phase",
    Phase.SUPPLY: "Supply phase",
}

PHASE_RULES: Final[Mapping[Phase, tuple[str, ...]]] = {
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

PHASES: Final[Mapping[Phase, PhaseRules]] = {
    Phase.EVENTS: events.events_phase,  # a. roll on the Random Events Table
    Phase.STRATAGEM: stratagems.stratagem_phase,  # b. receive chits
    Phase.DIPLOMACY: diplomacy.diplomacy_phase,  # c. attempt to change Satrapy control
    Phase.TREASURY: stratagems.opening("treasury", treasury.treasury_phase),  # d. collect income; maintain troops
    Phase.RECRUIT: stratagems.opening("recruit", recruit.recruit_phase),  # e. purchase new units
    Phase.LEVY: stratagems.opening("levy", recruit.levy_phase),  # f. levy new units
    Phase.OPERATIONS: operations.operations_phase,  # g. move units and have combat
    Phase.SUPPLY: supply.supply_phase,  # h. all units check supply
}
"""Phase -> its rules; the Treasury, Recruit and Levy phases open their chit windows first
(:func:`.stratagems.opening`)."""


def phase_title(name: str) -> str:
    """``"d. Treasury phase"``: the phase's letter and title on the chart (xen:sequence)."""
    return f"{PHASE_LETTER[name]}. {PHASE_TITLE[name]}"  # type: ignore[index]  # a Phase is its string


def is_checkpoint(state: XenState, where: Any) -> bool:
    """Whether ``where`` is a checkpoint of this game now: ``("phase", turn, side, name)``
    before a phase of the current player-turn."""
    return (isinstance(where, tuple) and len(where) == 4 and where[0] == "phase" and where[1] == state.turn
            and where[2] == state.player_turn and where[3] in PHASE_ORDER)


def play(ctx: Context, state: XenState, where: Any = None) -> Generator[Decision, str, Outcome]:
    """Play the game from its set-up (``where`` None: the set-up lists placed first,
    :func:`.setup.deploy`) or from checkpoint ``where`` (:func:`is_checkpoint`) to its end."""
    if where is None:
        state.phase = Phase.SETUP
        yield from deploy(ctx, state)
        start = (SIDES.index(state.player_turn), 0)
    else:
        start = (SIDES.index(where[2]), PHASE_ORDER.index(where[3]))
    while True:
        # 1. Rebel Player Turn, 2. Empire Player Turn
        for si in range(start[0], len(SIDES)):
            side = SIDES[si]
            yield from player_turn(ctx, state, side, start[1] if si == start[0] else 0)
            if state.over:
                return victory.outcome(state)
            end_player_turn(state)
        start = (0, 0)
        # 3. Turn End: end game, or move the Turn marker
        if state.turn >= state.last_turn:
            victory.final(ctx, state)
            return victory.outcome(state)
        ctx.event("turn-end", f"Turn {state.turn} ends: the Turn marker moves on", ("xen:sequence",))
        end_turn(state)
        state.turn += 1


def player_turn(ctx: Context, state: XenState, side: str, first: int = 0) -> Generator[Decision, str, None]:
    """``side``'s player-turn, phases a-h from the ``first`` (its index in :data:`PHASE_ORDER`);
    it stops as soon as a phase ends the game (``state.over``)."""
    for name in PHASE_ORDER[first:]:
        state.player_turn = side
        state.phase = name
        ctx.checkpoint(("phase", state.turn, side, name))
        if name == PHASE_ORDER[0]:
            # kind "turn" with the game turn in its data: the log is numbered by turn from it
            # (ancients_kit.tui.view.log_rows), both player-turns of a turn under one number
            ctx.event("turn", f"Turn {state.turn}/{state.last_turn}: the {side} player-turn",
                      ("xen:sequence",), side=side, turn=state.turn)
        ctx.event("phase", f"{side}: {phase_title(name)}", ("xen:sequence",) + PHASE_RULES[name],
                  side=side, phase=name)
        yield from PHASES[name](ctx, state, side)
        if state.over:
            return


def end_player_turn(state: XenState) -> None:
    """Effects that last for a player-turn end with it (ruling 15: Mediterranean War)."""
    for key in [k for k in state.effects if k.startswith("player-turn:")]:
        del state.effects[key]


def end_turn(state: XenState) -> None:
    """Effects that last for the game-turn end with it: the rebuilt Famine's ``turn:famine``
    holds "in this turn's Supply phases" (xen:random-events, data/tables/events.toml), so it
    is lifted when the Turn marker moves on (xen:sequence, 3. Turn End)."""
    for key in [k for k in state.effects if k.startswith("turn:")]:
        del state.effects[key]
    state.standing.begin_turn()  # "not this turn" choices at the windows lapse
