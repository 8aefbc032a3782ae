"""Checkpoints of C&C: Ancients: a game rebuilt from any turn equals a full replay.

``CCAncientsRome`` marks the start of every turn as a checkpoint
(``ctx.checkpoint(("turn", battle, turn, side))``, ccr:sequence) and resumes
there; :func:`ancients_kit.checkpoints.verify` rebuilds each battle from every
checkpoint and compares the log, byte for byte, and the state with the game
itself.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ancients_games.ccancients_rome import GAME
from ancients_kit.bots import RandomBot, play_out
from ancients_kit.checkpoints import every_safe_point, same_state, verify
from ancients_kit.data import DataStore
from ancients_kit.session import Session

SCENARIOS = [s.id for s in GAME.scenarios(DataStore(GAME.package))]


@pytest.fixture(autouse=True, scope="module")
def _every_safe_point() -> Iterator[None]:
    """These tests rebuild the game from every safe point it has (Session.checkpoint_spacing
    keeps fewer in play: tests/test_checkpoints.py checks that)."""
    with every_safe_point():
        yield


def _random_game(scenario: str, seed: int, limit: int = 100_000, **options: object) -> Session:
    s = Session(GAME, scenario, seed=seed, options=options)
    play_out(s, RandomBot(), max_decisions=limit)
    return s


def test_every_scenario_is_listed() -> None:
    assert len(SCENARIOS) == 26


@pytest.mark.rule("ccr:sequence", "ccr:victory")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_rebuilt_from_every_checkpoint_equals_the_game(scenario: str) -> None:
    s = _random_game(scenario, seed=4, turn_limit=25)
    assert s.finished
    assert verify(s) >= 10
    assert [cp.answers for cp in s.checkpoints] == sorted(cp.answers for cp in s.checkpoints)


@pytest.mark.rule("ccr:sequence", "ccr:victory")
def test_a_long_battle_rebuilt_from_every_checkpoint() -> None:
    s = _random_game("tigranocerte", seed=3)
    assert s.finished and len(s.answers) > 1000
    assert verify(s) > 150


@pytest.mark.rule("ccr:sequence")
def test_undo_and_fork_rebuild_from_the_latest_turn() -> None:
    s = _random_game("edessa", seed=8, limit=300)
    cps = s.checkpoints
    f = s.fork()
    assert f.log.text() == s.log.text() and f.checkpoints == s.checkpoints
    assert s.checkpoints[: len(cps)] == cps  # the fork may add the one nearest this point
    assert all(a is b for a, b in zip(f.checkpoints, s.checkpoints))  # shared, never copied
    assert f.state.battle is not s.state.battle
    s.undo(5)
    ref = Session(GAME, "edessa", seed=8, answers=s.answers)
    assert s.log.text() == ref.log.text() and s.log.digest() == ref.log.digest()
    assert same_state(GAME.copy_state(s.state), GAME.copy_state(ref.state)) is None
    # the fork went on untouched
    assert len(f.answers) == 300 and f.log.digest() != s.log.digest()


@pytest.mark.rule("ccr:sequence")
def test_copies_share_no_unit_hand_or_deck() -> None:
    s = _random_game("milvian-bridge", seed=2, limit=120)
    a = s.state.battle
    b = GAME.copy_state(s.state).battle
    assert not {id(u) for u in a.units.values()} & {id(u) for u in b.units.values()}
    assert all(b.at[h] is b.units[u.uid] for h, u in a.at.items())
    for name in a.armies:
        assert a.armies[name].hand is not b.armies[name].hand
        assert a.armies[name].hand.cards == b.armies[name].hand.cards
    assert a.deck is not b.deck and a.deck.draw_pile == b.deck.draw_pile
    assert a.board is not b.board and a.board.neighbors is b.board.neighbors
    h = next(iter(a.board.terrain))
    was, blocked = a.board.terrain[h], h in a.board.impassable
    b.board.set_terrain(h, "river")  # the terrain map is shared until a board changes it
    assert a.board.terrain[h] == was and (h in a.board.impassable) == blocked
    assert b.board.terrain[h] == "river" and h in b.board.impassable and b.board.version == a.board.version + 1
    assert a.battle is b.battle  # parsed data is shared


@pytest.mark.rule("ccr:sequence")
@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 250), st.integers(1, 30))
def test_property_fork_and_undo_equal_full_replay(seed: int, length: int, back: int) -> None:
    s = _random_game("cilician-gates", seed=seed, limit=length, turn_limit=12)
    f = s.fork()
    assert f.log.digest() == s.log.digest()
    assert (f.decision is None) == (s.decision is None)
    k = min(back, len(s.answers))
    s.undo(k)
    ref = Session(GAME, "cilician-gates", seed=seed, options={"turn_limit": 12}, answers=s.answers)
    assert s.log.text() == ref.log.text()
    assert s.decision is not None and ref.decision is not None
    assert (s.decision.side, s.decision.prompt, s.decision.keys) == (ref.decision.side, ref.decision.prompt,
                                                                    ref.decision.keys)
