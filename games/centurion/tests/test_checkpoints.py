"""Checkpoints of Centurion: a game rebuilt from any checkpoint equals a full replay.

The Basic Game marks each choice of a unit to move (cen:basic.sequence,
cen:basic.movement); the Full Simulation marks the start of each Player-Turn
and every few choices of a unit to move (cen:full.sequence, cen:full.movement).
:func:`ancients_kit.checkpoints.verify` rebuilds the game from every one and
compares log (byte for byte) and state with the game itself. Centurion
answers are slow to play, so every scenario is checked over its first
Player-Turns and one Basic Game to its end.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ancients_games.centurion.equipment import scenario_ids
from ancients_games.centurion.full.sequence import MOVE_CHECKPOINT_EVERY
from ancients_games.centurion.game import CenturionGame
from ancients_games.centurion.movement import _moved_count
from ancients_kit.bots import RandomBot, play_out
from ancients_kit.checkpoints import every_safe_point, same_state, verify
from ancients_kit.data import DataStore
from ancients_kit.session import Session

GAME = CenturionGame()
SCENARIOS = scenario_ids(DataStore(GAME.package))
PREFIX = 110
"""Answers played per scenario: past the first Player-Turn of every scenario."""


@pytest.fixture(autouse=True, scope="module")
def _every_safe_point() -> Iterator[None]:
    """These tests rebuild the game from every safe point it has (Session.checkpoint_spacing
    keeps fewer in play: tests/test_checkpoints.py checks that)."""
    with every_safe_point():
        yield


def _random_game(scenario: str, seed: int, limit: int = 100_000) -> Session:
    s = Session(GAME, scenario, seed=seed)
    play_out(s, RandomBot(), max_decisions=limit)
    return s


def _rules(scenario: str) -> tuple[str, ...]:
    if scenario.startswith("basic-"):
        return ("cen:basic.sequence", "cen:basic.movement")
    return ("cen:full.sequence", "cen:full.movement")


@pytest.mark.parametrize("scenario", [pytest.param(s, marks=pytest.mark.rule(*_rules(s))) for s in SCENARIOS])
def test_rebuilt_from_every_checkpoint_equals_the_game(scenario: str) -> None:
    s = _random_game(scenario, seed=6, limit=PREFIX)
    assert verify(s) >= 5  # the Player-Turn starts, and the Movement Phase every MOVE_CHECKPOINT_EVERY units
    turns = {cp.where[1:3] for cp in s.checkpoints}
    assert len(turns) >= 2, "the prefix should span two Player-Turns"


@pytest.mark.rule("cen:basic.sequence", "cen:basic.movement", "cen:basic.victory")
def test_a_basic_game_to_its_end_rebuilt_from_every_checkpoint() -> None:
    s = _random_game("basic-carrhae", seed=2)
    assert s.finished and s.outcome is not None
    assert verify(s, watched=3) > 100


@pytest.mark.rule("cen:full.sequence", "cen:full.movement")
def test_undo_rebuilds_from_the_latest_unit_moved() -> None:
    s = _random_game("carrhae", seed=9, limit=80)
    last = s.checkpoints[-1]
    # a unit's move is a few answers, and the Movement Phase stages a checkpoint every few moves
    assert len(s.answers) - last.answers <= 6 * MOVE_CHECKPOINT_EVERY
    s.undo(2)
    ref = Session(GAME, "carrhae", seed=9, answers=s.answers)
    assert s.log.text() == ref.log.text() and s.log.digest() == ref.log.digest()
    assert same_state(GAME.copy_state(s.state), GAME.copy_state(ref.state)) is None


@pytest.mark.rule("cen:full.sequence", "cen:full.movement")
def test_full_movement_checkpoints_every_few_units_moved() -> None:
    """A Full Simulation Movement Phase checkpoint stands where the number of the side's
    units moved is a multiple of MOVE_CHECKPOINT_EVERY (read from its state), and fewer
    choices of a unit are checkpoints than with one at every choice."""
    assert MOVE_CHECKPOINT_EVERY > 1
    s = _random_game("numidia", seed=4, limit=400)
    moves = [cp for cp in s.checkpoints if cp.where[-1] == "move"]
    assert moves
    for cp in moves:
        side = cp.state.sides[cp.where[2]]
        assert _moved_count(cp.state, side) % MOVE_CHECKPOINT_EVERY == 0, cp.where
    assert any(_moved_count(cp.state, cp.state.sides[cp.where[2]]) > 0 for cp in moves)
    assert verify(s, watched=2) == len(s.checkpoints)


@pytest.mark.rule("cen:basic.sequence")
def test_copies_share_no_unit_or_stack() -> None:
    s = _random_game("basic-gaul", seed=1, limit=30)
    a, b = s.state, GAME.copy_state(s.state)
    assert not {id(u) for u in a.units.values()} & {id(u) for u in b.units.values()}
    assert all(a.stacks[h] is not b.stacks[h] and a.stacks[h] == b.stacks[h] for h in a.stacks)
    assert a.map is b.map and a.types is b.types and a.scenario is b.scenario
    u = next(iter(b.units.values()))
    u.contact.add("X")
    assert "X" not in a.units[u.id].contact


@pytest.mark.rule("cen:basic.sequence", "cen:basic.movement")
@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60), st.integers(1, 12))
def test_property_fork_and_undo_equal_full_replay(seed: int, length: int, back: int) -> None:
    s = _random_game("basic-servile-war", seed=seed, limit=length)
    f = s.fork()
    assert f.log.digest() == s.log.digest()
    k = min(back, len(s.answers))
    s.undo(k)
    ref = Session(GAME, "basic-servile-war", seed=seed, answers=s.answers)
    assert s.log.text() == ref.log.text()
    assert s.decision is not None and ref.decision is not None and s.decision.keys == ref.decision.keys
