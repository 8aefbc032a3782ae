"""Statistics for balance studies: intervals, tests and sample sizes.

Everything here is exact arithmetic on counts or plain floats, with no
dependency beyond the standard library, so a study's figures are the same on
every machine:

- :func:`wilson`: the Wilson score interval of a proportion (a win rate). It
  stays inside [0, 1] and behaves at 0 and at n wins, unlike the normal
  ("Wald") interval.
- :func:`difference`: the Newcombe hybrid score interval of the difference of
  two independent proportions (variant minus original), built from the two
  Wilson intervals.
- :func:`two_proportion_test` (pooled z test) and :func:`fisher_exact`
  (two-sided, summing every table no more probable than the one seen): is the
  difference real?
- :func:`games_needed`: games per arm for a two-sided test at ``alpha`` to find
  a difference ``delta`` with probability ``power``.
- :func:`mean_interval` (Student's t) and :func:`quantiles` for game lengths
  and margins.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist, fmean, stdev

import attrs

__all__ = [
    "Interval",
    "TestResult",
    "difference",
    "fisher_exact",
    "games_needed",
    "mean_interval",
    "quantiles",
    "student_t_quantile",
    "two_proportion_test",
    "wilson",
]

_NORMAL = NormalDist()


@attrs.frozen
class Interval:
    """A point estimate with its confidence interval."""

    estimate: float
    low: float
    high: float
    confidence: float = 0.95

    def to_json(self) -> dict[str, float]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high, "confidence": self.confidence}

    def percent(self, digits: int = 1) -> str:
        """``48.2% [43.9, 52.5]``."""
        f = f"{{:.{digits}f}}"
        return f"{f.format(100 * self.estimate)}% [{f.format(100 * self.low)}, {f.format(100 * self.high)}]"


@attrs.frozen
class TestResult:
    """A significance test: its statistic and two-sided p-value."""

    name: str
    statistic: float
    p_value: float

    def to_json(self) -> dict[str, float | str]:
        return {"test": self.name, "statistic": self.statistic, "p_value": self.p_value}


def _z(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, not {confidence}")
    return _NORMAL.inv_cdf(0.5 + confidence / 2.0)


def _check_counts(k: int, n: int) -> None:
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= successes <= trials, got {k} of {n}")


def wilson(k: int, n: int, confidence: float = 0.95) -> Interval:
    """Wilson score interval for ``k`` successes in ``n`` trials.

    With no trials the interval is the whole of [0, 1] around 0.
    """
    _check_counts(k, n)
    if n == 0:
        return Interval(0.0, 0.0, 1.0, confidence)
    z = _z(confidence)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = (z / (1 + z2 / n)) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return Interval(p, low, high, confidence)


def difference(k1: int, n1: int, k2: int, n2: int, confidence: float = 0.95) -> Interval:
    """Interval of ``k2/n2 - k1/n1`` (Newcombe's method 10, from Wilson limits)."""
    a = wilson(k1, n1, confidence)
    b = wilson(k2, n2, confidence)
    d = b.estimate - a.estimate
    low = d - math.sqrt((b.estimate - b.low) ** 2 + (a.high - a.estimate) ** 2)
    high = d + math.sqrt((b.high - b.estimate) ** 2 + (a.estimate - a.low) ** 2)
    return Interval(d, max(-1.0, low), min(1.0, high), confidence)


def two_proportion_test(k1: int, n1: int, k2: int, n2: int) -> TestResult:
    """Pooled two-proportion z test of ``k1/n1`` against ``k2/n2`` (two-sided)."""
    _check_counts(k1, n1)
    _check_counts(k2, n2)
    if n1 == 0 or n2 == 0:
        return TestResult("two-proportion z", 0.0, 1.0)
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0.0:
        return TestResult("two-proportion z", 0.0, 1.0)
    z = (k2 / n2 - k1 / n1) / se
    return TestResult("two-proportion z", z, min(1.0, math.erfc(abs(z) / math.sqrt(2))))


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_exact(k1: int, n1: int, k2: int, n2: int) -> TestResult:
    """Fisher's exact test of the 2x2 table (successes, failures) x (arm 1, arm 2).

    Two-sided: the p-value sums the probability of every table with the same
    margins that is no more probable than the observed one (with a relative
    tolerance of 1e-7, as is usual, so that ties are counted).
    """
    _check_counts(k1, n1)
    _check_counts(k2, n2)
    total, successes = n1 + n2, k1 + k2
    if total == 0:
        return TestResult("Fisher exact", 1.0, 1.0)
    lo, hi = max(0, successes - n2), min(successes, n1)
    denom = _log_comb(total, successes)

    def logp(x: int) -> float:
        return _log_comb(n1, x) + _log_comb(n2, successes - x) - denom

    observed = logp(k1)
    cut = observed + math.log1p(1e-7)
    p = sum(math.exp(lp) for lp in (logp(x) for x in range(lo, hi + 1)) if lp <= cut)
    odds = math.inf if (n1 - k1) * k2 == 0 else (k1 * (n2 - k2)) / ((n1 - k1) * k2)
    return TestResult("Fisher exact", odds, min(1.0, p))


def games_needed(p: float, delta: float = 0.05, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games per arm for a two-sided test at ``alpha`` to detect ``p`` moving by ``delta``.

    The usual normal-approximation formula for two proportions, with the
    second proportion ``p + delta`` (or ``p - delta`` where that stays inside
    [0, 1]).
    """
    if not 0.0 < delta < 1.0:
        raise ValueError(f"delta must lie strictly between 0 and 1, not {delta}")
    p = min(max(p, 0.0), 1.0)
    p2 = p + delta if p + delta <= 1.0 else p - delta
    za = _NORMAL.inv_cdf(1 - alpha / 2)
    zb = _NORMAL.inv_cdf(power)
    mean = (p + p2) / 2
    num = za * math.sqrt(2 * mean * (1 - mean)) + zb * math.sqrt(p * (1 - p) + p2 * (1 - p2))
    return max(1, math.ceil((num / delta) ** 2))


# -- Student's t ---------------------------------------------------------------------------


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularised incomplete beta function (Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _t_cdf(t: float, df: float) -> float:
    x = df / (df + t * t)
    tail = 0.5 * _betainc(df / 2.0, 0.5, x)
    return 1.0 - tail if t > 0 else tail


def student_t_quantile(q: float, df: int) -> float:
    """The ``q`` quantile of Student's t with ``df`` degrees of freedom (bisection)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if not 0.0 < q < 1.0:
        raise ValueError(f"quantile must lie strictly between 0 and 1, not {q}")
    if q < 0.5:
        return -student_t_quantile(1.0 - q, df)
    lo, hi = 0.0, 1.0
    while _t_cdf(hi, df) < q:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if _t_cdf(mid, df) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2.0


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> Interval:
    """Mean with a Student's t interval (a point interval for fewer than two values)."""
    if not values:
        return Interval(0.0, 0.0, 0.0, confidence)
    m = fmean(values)
    if len(values) < 2:
        return Interval(m, m, m, confidence)
    t = student_t_quantile(0.5 + confidence / 2.0, len(values) - 1)
    half = t * stdev(values) / math.sqrt(len(values))
    return Interval(m, m - half, m + half, confidence)


def quantiles(values: Sequence[float], qs: Sequence[float] = (0.05, 0.25, 0.5, 0.75, 0.95)) -> dict[str, float]:
    """Quantiles by linear interpolation between order statistics (``q50`` is the median)."""
    out: dict[str, float] = {}
    data = sorted(values)
    for q in qs:
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"quantile must lie in [0, 1], not {q}")
        name = f"q{round(q * 100):02d}"
        if not data:
            out[name] = 0.0
            continue
        pos = q * (len(data) - 1)
        i = math.floor(pos)
        j = min(i + 1, len(data) - 1)
        out[name] = data[i] + (data[j] - data[i]) * (pos - i)
    return out
