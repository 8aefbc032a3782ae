"""C&C movement on the core's breadth-first engine gives what its own searches gave.

Every unit, leader and Baggage Wagon of every battle is asked where it may go,
at positions reached by seeded random play, and the answer of
:func:`~ancients_kit.movement.reach_in_steps` (through ``movement.reach``,
``leader_reach`` and ``wagon_reach``) is compared with the breadth-first
searches C&C had before (tests/movement_reference.py): the same hexes, step
counts and order, so the options offered and every log stay as they were.
"""

from __future__ import annotations

import pytest

from ancients_games.ccancients_rome import GAME
from ancients_games.ccancients_rome import movement as mv
from ancients_kit.bots import RandomBot
from ancients_kit.session import Session

from .movement_reference import leader_reach_reference, reach_reference, wagon_reach_reference
from .test_battles import SLUGS

EVERY = 7
"""Positions checked: one decision in this many (each check asks every piece, ~250 searches)."""
ANSWERS = 280


def _check(bs) -> int:  # type: ignore[no-untyped-def]
    asked = 0
    for u in list(bs.units.values()):
        for steps in (1, 2, 3, 4):
            for through in (False, True):
                got, want = mv.reach(bs, u, steps, through), reach_reference(bs, u, steps, through)
                assert list(got.items()) == list(want.items()), (u, steps, through)
                asked += 1
    for ld in bs.leaders:
        assert list(mv.leader_reach(bs, ld).items()) == list(leader_reach_reference(bs, ld).items()), ld
        asked += 1
    for w in bs.wagons:
        for steps in (1, 2):
            assert list(mv.wagon_reach(bs, w, steps).items()) == list(wagon_reach_reference(bs, w, steps).items())
            asked += 1
    return asked


@pytest.mark.rule("ccr:base.movement", "ccr:base.leaders", "ccr:baggage-wagon", "ccr:base.terrain")
@pytest.mark.parametrize("battle", SLUGS)
def test_the_engine_finds_what_the_old_searches_found(battle: str) -> None:
    s = Session(GAME, battle, seed=sum(map(ord, battle)))
    bot = RandomBot()
    asked = 0
    for i in range(ANSWERS):
        if s.decision is None:
            break
        if i % EVERY == 0 and s.state.battle is not None:
            asked += _check(s.state.battle)
        s.answer(bot.choose(s, s.decision))
    assert asked > 0
