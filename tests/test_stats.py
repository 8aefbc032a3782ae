"""Statistics of balance studies, against published figures and by property."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ancients_kit import stats


def test_wilson_matches_published_values() -> None:
    # Newcombe (1998), Statistics in Medicine 17, table I: 81/263 -> 0.2553 to 0.3662; 0/10 -> 0 to 0.2775.
    iv = stats.wilson(81, 263)
    assert (round(iv.low, 4), round(iv.high, 4)) == (0.2553, 0.3662)
    iv = stats.wilson(0, 10)
    assert iv.low == 0.0 and round(iv.high, 4) == 0.2775
    assert stats.wilson(10, 10).high == 1.0


def test_newcombe_difference_matches_published_example() -> None:
    # Newcombe (1998), Statistics in Medicine 17, example (a): 56/70 - 48/80 -> 0.0524 to 0.3339.
    d = stats.difference(48, 80, 56, 70)
    assert round(d.estimate, 4) == 0.2
    assert (round(d.low, 4), round(d.high, 4)) == (0.0524, 0.3339)


def test_fisher_exact_tea_tasting() -> None:
    # Fisher's lady tasting tea: 3 of 4 right in each direction, two-sided p = 34/70.
    assert stats.fisher_exact(3, 4, 1, 4).p_value == pytest.approx(34 / 70)
    assert stats.fisher_exact(4, 4, 0, 4).p_value == pytest.approx(2 / 70)


def test_student_t_quantiles() -> None:
    assert stats.student_t_quantile(0.975, 10) == pytest.approx(2.228139, abs=1e-6)
    assert stats.student_t_quantile(0.975, 1) == pytest.approx(12.706205, abs=1e-6)
    assert stats.student_t_quantile(0.025, 30) == pytest.approx(-2.042272, abs=1e-6)


def test_games_needed_for_five_points_at_even_odds() -> None:
    # 0.50 against 0.55, two-sided 5%, power 80%: the textbook 1,565 per arm.
    assert stats.games_needed(0.5, 0.05) == 1565
    assert stats.games_needed(0.98, 0.05) > 0  # near the edge the second rate goes down


def test_mean_interval_and_quantiles() -> None:
    iv = stats.mean_interval([1.0, 2.0, 3.0, 4.0, 5.0])
    assert iv.estimate == 3.0
    assert iv.high - iv.estimate == pytest.approx(2.776445 * math.sqrt(2.5) / math.sqrt(5), abs=1e-5)
    assert stats.quantiles([1, 2, 3, 4, 5])["q50"] == 3
    assert stats.quantiles([])["q50"] == 0.0


def test_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="successes"):
        stats.wilson(5, 3)
    with pytest.raises(ValueError, match="confidence"):
        stats.wilson(1, 3, confidence=1.0)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_the_estimate_inside_unit_interval(kn: tuple[int, int]) -> None:
    k, n = kn
    iv = stats.wilson(k, n)
    assert 0.0 <= iv.low <= iv.estimate <= iv.high <= 1.0


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 300).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.integers(1, 300).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
)
def test_difference_and_tests_are_consistent(a: tuple[int, int], b: tuple[int, int]) -> None:
    (k1, n1), (k2, n2) = a, b
    d = stats.difference(k1, n1, k2, n2)
    assert -1.0 <= d.low <= d.estimate <= d.high <= 1.0
    swapped = stats.difference(k2, n2, k1, n1)
    assert swapped.estimate == pytest.approx(-d.estimate)
    assert swapped.low == pytest.approx(-d.high) and swapped.high == pytest.approx(-d.low)
    p = stats.fisher_exact(k1, n1, k2, n2).p_value
    assert 0.0 < p <= 1.0
    assert stats.fisher_exact(k2, n2, k1, n1).p_value == pytest.approx(p)
    z = stats.two_proportion_test(k1, n1, k2, n2)
    assert 0.0 <= z.p_value <= 1.0
