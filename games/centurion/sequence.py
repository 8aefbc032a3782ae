"""Centurion's sequence of play: the rules version chosen, then its own chart.

A Basic Game is played by :func:`~ancients_games.centurion.basic.play_basic`
(``cen:basic.sequence``) with the melee CRT, a Full Simulation by
:func:`~ancients_games.centurion.full.sequence.play_full` (``cen:full.sequence``).
:func:`resume` plays on from a checkpoint of either.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ancients_kit.plugin import Outcome
from ancients_kit.protocol import Context, Decision

from ancients_games.centurion.appraisal import BASIC_CRT
from ancients_games.centurion.basic import play_basic
from ancients_games.centurion.equipment import load_all
from ancients_games.centurion.full.sequence import play_full
from ancients_games.centurion.state import CenturionState

__all__ = ["play", "resume"]


def play(ctx: Context, state: CenturionState) -> Generator[Decision, str, Outcome]:
    """The whole game, in the version ``state`` was set up for (``state.version``)."""
    if state.version == "basic":
        table = state.extra[BASIC_CRT] = load_all(ctx.store)["melee"]  # appraised by the search bot
        return (yield from play_basic(ctx, state, table))
    return (yield from play_full(ctx, state))


def resume(ctx: Context, state: CenturionState, where: Any) -> Generator[Decision, str, Outcome]:
    """Play on from a checkpoint of ``play_basic`` (each choice of a unit to move)
    or ``play_full`` (the start of a Player-Turn, every few choices of a unit to move)."""
    version = where[0]
    if version == "basic":
        table = state.extra[BASIC_CRT] = load_all(ctx.store)["melee"]
        return play_basic(ctx, state, table, resume=(where[1], where[2]))
    if version != "full":
        raise ValueError(f"not a checkpoint of this game: {where!r}")
    return play_full(ctx, state, resume=tuple(where[1:]))
