"""Tests of the LDF event chits (ldf:8.17-8.19, 10.9, 14.3) against data/chits.toml."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.data import DataStore
from ancients_games.ldf import chits, model


@pytest.fixture(scope="module")
def chit_set() -> model.ChitSet:
    return model.load_chits(DataStore(model.PACKAGE))


@pytest.mark.rule("ldf:8.17", "ldf:3.5")
def test_on_draw_chits_are_the_five_of_8_17(chit_set: model.ChitSet) -> None:
    assert set(chit_set.on_draw()) == chits.ON_DRAW == {10, 18, 19, 20, 25}
    assert len(chit_set.pool()) == 26


@pytest.mark.rule("ldf:14.3")
def test_every_chit_has_one_moment_of_play(chit_set: model.ChitSet) -> None:
    """Each of the 24 chits (and 25) is resolved on the draw, at a window, or as an action."""
    at_window = {n for ns in chits.WINDOW_CHITS.values() for n in ns}
    assert not at_window & chits.ON_DRAW
    for n, c in chit_set.chits.items():
        assert c.on_draw == (n in chits.ON_DRAW)
        if n in at_window:
            assert "action" not in c.timing or n == 4, n


@pytest.mark.rule("ldf:14.3")
def test_one_side_chits_drawn_by_the_other(chit_set: model.ChitSet) -> None:
    for n, c in chit_set.chits.items():
        for side in ("roman", "germano-parthian"):
            what = chits.drawn_by_wrong_side(c, side)
            if c.player in ("both", side):
                assert what is None
            else:
                assert what == ("handed" if n == 21 else "shown"), (n, side)


@pytest.mark.rule("ldf:14.3", "ldf:6.1")
def test_revenue_windfall_four_tp_one_sixth_five_tp_five_sixths() -> None:
    assert chits.windfall_distribution() == {4: Fraction(1, 6), 5: Fraction(5, 6)}


@pytest.mark.rule("ldf:14.3", "ldf:5.4")
def test_the_gods_are_bored() -> None:
    assert [chits.gods_bored_ends_turn(d, 3) for d in range(1, 7)] == [False, True] * 3
    assert not any(chits.gods_bored_ends_turn(d, 5) for d in range(1, 7))


@pytest.mark.rule("ldf:14.3")
def test_die_plus_n_chits() -> None:
    assert [chits.dole_cost(d) for d in range(1, 7)] == [2, 3, 4, 5, 6, 7]
    assert [chits.german_increase(d) for d in range(1, 7)] == [4, 5, 6, 7, 8, 9]
    assert [chits.cavalry_reserve_formed(d) for d in range(1, 7)].count(True) == 1
    assert chits.jaws_draws(6, 2) == 4 and chits.jaws_draws(2, 0) == 2


@pytest.mark.rule("ldf:8.17")
def test_hand_limit_six() -> None:
    assert chits.may_draw(5) and not chits.may_draw(6)
