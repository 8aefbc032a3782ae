"""Tests of LDF politics (ldf:8.3, 8.7-8.12, 14.4) against the real data: treachery and
diplomacy with salting (the worked examples of STRATEGIC_GAMES.md 4.1), the +3 cap, the
Emperor Creation Table."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ancients_kit.data import DataStore
from ancients_kit.hexgrid import Hex
from ancients_games.ldf import model, politics
from ancients_games.ldf.politics import Modifiers, SuccessionFacts, success_chance, succession


@pytest.fixture(scope="module")
def store() -> DataStore:
    return DataStore(model.PACKAGE)


# ---------------------------------------------------------------- rolls and salting (8.8)


@pytest.mark.rule("ldf:8.8", "ldf:8.9", "ldf:8.10", "ldf:8.11", "ldf:8.12")
def test_treachery_with_salting_one_third_to_five_sixths() -> None:
    """Worked example 4.1: success on 5-6, 1/3; salted +1 1/2, +2 2/3, +3 5/6."""
    assert [success_chance(m) for m in (0, 1, 2, 3)] == [Fraction(1, 3), Fraction(1, 2), Fraction(2, 3),
                                                         Fraction(5, 6)]


@pytest.mark.rule("ldf:8.8")
def test_negative_salting() -> None:
    assert success_chance(-1) == Fraction(1, 6)
    assert success_chance(-2) == 0 == success_chance(-3)


@pytest.mark.rule("ldf:8.8")
def test_results_above_six_read_as_six_and_never_a_sure_thing() -> None:
    assert politics.result(6, 3) == 6 and politics.result(5, 2) == 6
    assert not politics.succeeds(1, 3)  # +3 at most: a 1 still fails
    with pytest.raises(ValueError, match="ldf:8.8"):
        politics.result(3, 4)


@pytest.mark.rule("ldf:8.8")
def test_salt_is_one_to_three_tp_and_never_more_than_held() -> None:
    m = Modifiers("roman")
    assert m.salt_choices(5) == (1, 2, 3)
    assert m.salt_choices(2) == (1, 2)
    assert m.salt_choices(0) == ()
    m.add_salt(2)
    assert m.total == 2 and m.salt_choices(5) == ()  # once a roll


@pytest.mark.rule("ldf:8.8", "ldf:14.3")
def test_agents_and_salt_hit_the_cap() -> None:
    """Chit 17 (+2) and 1 TP make +3; a second TP (or a salt of 2 before 17) is refused."""
    m = Modifiers("roman")
    m.add_salt(1)
    assert m.may_play_agents("roman")
    m.add_agents("roman")
    assert m.total == 3
    m2 = Modifiers("roman")
    m2.add_salt(2)
    assert not m2.may_play_agents("roman")
    with pytest.raises(ValueError, match="ldf:8.8"):
        m2.add_agents("roman")


@pytest.mark.rule("ldf:8.8", "ldf:14.3")
def test_negative_salt_on_a_germano_parthian_roll_and_counter_chit() -> None:
    m = Modifiers("germano-parthian")
    m.add_salt(3)
    assert m.total == -3
    assert not m.may_play_agents("roman")  # -5 would pass the cap
    assert m.may_play_agents("germano-parthian")  # +2 on his own roll: -1
    m.add_agents("germano-parthian")
    assert m.total == -1
    m.clear()  # a reroll keeps nothing (8.8)
    assert m.total == 0 and m.salt_choices(3) == (1, 2, 3)


@pytest.mark.rule("ldf:8.3")
def test_conversion_is_even() -> None:
    assert [politics.conversion_succeeds(d) for d in range(1, 7)] == [False, True] * 3


# ---------------------------------------------------------------- Emperor Creation Table (14.4)


ROME, A, B, C = Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)


@pytest.mark.rule("ldf:14.4", "ldf:errata", "ldf:8.9")
def test_every_result_of_the_real_table_places_the_emperor(store: DataStore) -> None:
    table = model.load_emperor_table(store)
    facts = SuccessionFacts({A: 3, B: 1}, frozenset({A, B, ROME}), ROME)
    for die in range(1, 7):
        s = succession(table.resolve(die).result, facts)
        assert s.hexes, die
    assert succession(table.resolve(1).result, facts).hexes == (ROME,)
    assert succession(table.resolve(2).result, facts).hexes == (A,)


@pytest.mark.rule("ldf:errata", "ldf:14.4")
def test_two_or_more_hexes_tied_the_roman_chooses(store: DataStore) -> None:
    table = model.load_emperor_table(store)
    assert table.resolve(2).result == "LEGIONS"
    assert "If two or more hexes" in table.meaning("LEGIONS")
    facts = SuccessionFacts({A: 2, B: 2, C: 1}, frozenset({A, B, C}), ROME)
    assert succession("LEGIONS", facts).hexes == (A, B)


@pytest.mark.rule("ldf:14.4", "ldf:8.3")
def test_never_with_the_co_emperor_and_fallbacks() -> None:
    facts = SuccessionFacts({A: 4, B: 2}, frozenset({A, B}), ROME, enemy_in_rome=True, co_emperor=A,
                            co_emperor_loyal=False)
    assert succession("LEGIONS", facts).hexes == (B,)  # 8.3: never in the co-emperor's hex
    assert succession("SENATE", facts).applied == "LEGIONS"  # enemy in Rome
    assert succession("PRAETORIANS", facts).applied == "LEGIONS"  # no loyal unit in Rome
    assert succession("COLLEAGUE", facts).applied == "LEGIONS"  # the co-emperor is a rebel
    strife = succession("STRIFE", facts)
    assert strife.rebel_roll and strife.hexes == (B,)
    loyal = SuccessionFacts({A: 4}, frozenset({A}), ROME, co_emperor=B, co_emperor_loyal=True)
    col = succession("COLLEAGUE", loyal)
    assert col.replaces_co_emperor and col.hexes == (B,)
    empty = SuccessionFacts({}, frozenset(), ROME)
    assert succession("LEGIONS", empty).hexes == (ROME,)
    with pytest.raises(ValueError, match="ldf:14.4"):
        succession("BOGUS", empty)
